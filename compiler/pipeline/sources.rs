//! Source files more than one job kind reads, read the same way through
//! `JobIo`: a safetensors file opened with its header (checkpoints, clip
//! files), and a glTF asset imported with the buffer files beside it. No
//! kind is named here; each kind blames its own setting (`pos`). And the
//! material stage's recipe ([`material_stage`]), which `kiln inspect` and
//! the compiled characters share.

use crate::bake::atlas::{self, Atlas};
use crate::formats::safetensors;
use crate::import::{gltf, image};
use crate::model::Scene;
use crate::model::material::{EncodedImage, ImageOrigin, Meshes, Primitive, Rgba8};
use crate::pipeline::input;
use crate::pipeline::job::{InputFile, JobError, JobIo};
use crate::pipeline::manifest::Pos;
use crate::pipeline::paths::RelPath;

/// An opened safetensors file and its header.
pub struct Checkpoint {
    pub input: InputFile,
    pub header: safetensors::Header,
    pub pos: Pos,
}

/// Opens a safetensors file of at most `limit` bytes and reads its header
/// strictly; the data is read later, by offset.
pub fn open_safetensors(
    io: &mut JobIo,
    path: &RelPath,
    pos: Pos,
    limit: u64,
) -> Result<Checkpoint, JobError> {
    let mut input = io.open(path, pos, limit)?;
    let invalid =
        |e: safetensors::Error| JobError::at(pos, format!("{path}: invalid safetensors: {e}"));
    let mut first = [0u8; 8];
    let head = (input.len() as usize).min(8);
    input.read_exact_at(0, &mut first[..head])?;
    let n = safetensors::header_len(&first[..head], input.len()).map_err(invalid)?;
    let mut json = vec![0; n as usize];
    input.read_exact_at(8, &mut json)?;
    let header = safetensors::decode_header(&json, input.len()).map_err(invalid)?;
    Ok(Checkpoint { input, header, pos })
}

/// What a job read of a glTF file: its first `bytes` (all of a `.gltf`;
/// of a GLB, the header, the JSON chunk and the BIN chunk's data as far as
/// buffer 0 reaches), of `len` in all.
pub struct GltfFile {
    pub bytes: Vec<u8>,
    pub len: usize,
    /// The whole file's SHA-256, when [`read_gltf`] was asked for it.
    pub sha256: Option<[u8; 32]>,
}

/// Reads of the glTF file `path` what the importer needs (the container's
/// header and `byteLength` say how much; [`gltf::Source::need`]), with its
/// JSON parsed, and records the file as an input (hashed whole, streamed).
/// A GLB whose header does not match the file is refused before more than
/// its header is read. With `sha256`, also the whole file's SHA-256.
pub fn read_gltf(
    io: &mut JobIo,
    path: &RelPath,
    pos: Pos,
    sha256: bool,
) -> Result<(GltfFile, gltf::json::Document), JobError> {
    let mut input = io.open(path, pos, gltf::MAX_FILE_BYTES)?;
    let sha256 = match sha256 {
        true => Some(input.sha256()?),
        false => None,
    };
    let len = input.len() as usize;
    let invalid = |e: gltf::Error| JobError::at(pos, format!("{path}: {e}"));
    let (bytes, doc) = gltf_prefix(
        len,
        |buf, n| {
            let at = buf.len();
            input::grow(buf, n).map_err(|e| JobError::at(pos, format!("{path}: {e}")))?;
            input.read_exact_at(at as u64, &mut buf[at..])
        },
        invalid,
    )?;
    io.finish(input)?;
    Ok((GltfFile { bytes, len, sha256 }, doc))
}

/// The loop of [`read_gltf`] (and of `kiln inspect`): grows the prefix
/// through `read_to` (which extends a buffer to `n` bytes) until
/// [`gltf::Source::need`] has the JSON and knows how far to read.
pub fn gltf_prefix<E>(
    len: usize,
    mut read_to: impl FnMut(&mut Vec<u8>, usize) -> Result<(), E>,
    invalid: impl Fn(gltf::Error) -> E,
) -> Result<(Vec<u8>, gltf::json::Document), E> {
    let mut bytes = Vec::new();
    read_to(&mut bytes, len.min(FIRST_READ))?;
    loop {
        match gltf::Source::need(&bytes, len).map_err(&invalid)? {
            gltf::Need::More(n) if n > bytes.len() => read_to(&mut bytes, n)?,
            gltf::Need::More(n) => {
                return Err(invalid(gltf::Error(format!(
                    "asked again for the first {n} bytes (a bug in kiln)"
                ))));
            }
            gltf::Need::Json { doc, bytes: n } => {
                if n > bytes.len() {
                    read_to(&mut bytes, n)?;
                }
                return Ok((bytes, *doc));
            }
        }
    }
}

/// The first read of a glTF file: a GLB's header and its JSON chunk's
/// header.
const FIRST_READ: usize = 20;

/// Imports the scene of the glTF file `file` read from `source` with its
/// JSON `doc` ([`read_gltf`]), with the buffers a `.gltf` keeps in files
/// next to it (inputs the job discovers: only the source names them).
pub fn import_gltf(
    io: &mut JobIo,
    source: &RelPath,
    pos: Pos,
    file: &GltfFile,
    doc: gltf::json::Document,
) -> Result<Scene, JobError> {
    import_gltf_with_json(io, source, pos, file, doc).map(|(scene, _)| scene)
}

/// [`import_gltf`], giving back the parsed JSON for [`import_meshes`] of
/// the same file.
pub fn import_gltf_with_json(
    io: &mut JobIo,
    source: &RelPath,
    pos: Pos,
    file: &GltfFile,
    doc: gltf::json::Document,
) -> Result<(Scene, gltf::json::Document), JobError> {
    let invalid = |err: gltf::Error| JobError::at(pos, format!("{source}: {err}"));
    let parsed = gltf::Source::from_prefix(&file.bytes, file.len, Some(doc)).map_err(invalid)?;
    let needs = parsed.external_needs().map_err(invalid)?;
    let externals = read_beside(io, source, pos, needs, "buffer")?;
    gltf::import_source_with_json(parsed, &externals).map_err(invalid)
}

/// Imports the meshes of the glTF file `file` read from `source` (all a
/// node instantiates, or `meshes`), their materials and base colour
/// images, reading the buffer and image files beside it through `io`: they
/// are inputs of the job's key, discovered like a `.gltf`'s buffers. With
/// `json` (of the same file) the JSON is not parsed again.
pub fn import_meshes(
    io: &mut JobIo,
    source: &RelPath,
    pos: Pos,
    file: &GltfFile,
    json: Option<gltf::json::Document>,
    meshes: Option<&[usize]>,
) -> Result<Meshes, JobError> {
    let invalid = |err: gltf::Error| JobError::at(pos, format!("{source}: {err}"));
    let parsed = gltf::Source::from_prefix(&file.bytes, file.len, json).map_err(invalid)?;
    let buffers = parsed.external_needs().map_err(invalid)?;
    let images = parsed.image_needs().map_err(invalid)?;
    let externals = read_beside(io, source, pos, buffers, "buffer")?;
    let image_files = read_beside(io, source, pos, images, "image")?;
    gltf::import_meshes(parsed, &externals, &image_files, meshes).map_err(invalid)
}

/// Reads the files `needs` names beside `source` (plain names, which the
/// importer has checked; `sibling` checks again), each only as far as it
/// is needed (a buffer's `byteLength`; all of an image), the rest hashed
/// for the key but not held.
fn read_beside(
    io: &mut JobIo,
    source: &RelPath,
    pos: Pos,
    needs: Vec<(String, usize)>,
    what: &str,
) -> Result<Vec<(String, Vec<u8>)>, JobError> {
    let mut files = Vec::with_capacity(needs.len());
    for (uri, need) in needs {
        let path = source
            .sibling(&uri)
            .map_err(|e| JobError::at(pos, format!("{source}: {what} {e}")))?;
        let mut input = io.open(&path, pos, gltf::MAX_FILE_BYTES)?;
        let n = need.min(input.len() as usize);
        let mut bytes = input::zeroed(n).map_err(|e| JobError::at(pos, format!("{path}: {e}")))?;
        input.read_exact_at(0, &mut bytes)?;
        io.finish(input)?;
        files.push((uri, bytes));
    }
    Ok(files)
}

/// Most texels the images one model shows may hold together, decoded
/// (4 bytes each: 1 GiB): one image of the largest side, or four of 8,192.
/// Checked from their headers before any is decoded.
pub const MAX_MODEL_TEXELS: u64 = 1 << 28;

/// Most texels the images of a level's models may hold together: the
/// decoding work of one job (the models are compiled one at a time, so
/// memory is bounded by [`MAX_MODEL_TEXELS`]).
pub const MAX_LEVEL_TEXELS: u64 = 1 << 30;

/// The images the materials of `primitives` show, each once, ascending.
fn shown_images(meshes: &Meshes, primitives: &[&Primitive]) -> Vec<usize> {
    let mut shown: Vec<usize> = primitives
        .iter()
        .filter_map(|p| meshes.materials.get(p.material?)?.base_color_texture)
        .map(|t| t.image)
        .collect();
    shown.sort_unstable();
    shown.dedup();
    shown
}

/// The texels the images that `primitives` show claim in their headers
/// ([`image::claimed_texels`]), summed, before any is decoded.
pub fn shown_texels(meshes: &Meshes, primitives: &[&Primitive]) -> u64 {
    shown_images(meshes, primitives)
        .into_iter()
        .filter_map(|i| meshes.images.get(i)?.as_ref())
        .map(|im| image::claimed_texels(&im.bytes))
        .sum()
}

/// The material stage for `primitives` of `meshes`: lays the atlas out
/// from the sides the shown images' headers give (their texels together
/// at most [`MAX_MODEL_TEXELS`], checked before any is decoded), then
/// paints it, decoding each image once and holding one at a time. Errors name the image (`images[2] "Skin"`) or the
/// stage's rule.
pub fn material_stage(
    meshes: &Meshes,
    primitives: &[&Primitive],
    settings: &atlas::Settings,
) -> Result<Atlas, String> {
    let texels = shown_texels(meshes, primitives);
    if texels > MAX_MODEL_TEXELS {
        return Err(format!(
            "the images its materials show ({}) hold {texels} texels together, more than the {MAX_MODEL_TEXELS} a model's images may ({} GiB decoded); make them smaller",
            shown_images(meshes, primitives)
                .iter()
                .map(|i| format!("images[{i}]"))
                .collect::<Vec<_>>()
                .join(", "),
            (MAX_MODEL_TEXELS * 4) >> 30
        ));
    }
    // The sides from each shown image's header; an image whose header
    // cannot be read is decoded for the decoder's own words.
    let mut sides: Vec<Option<[u32; 2]>> = vec![None; meshes.images.len()];
    for i in shown_images(meshes, primitives) {
        let Some(encoded) = &meshes.images[i] else {
            return Err(format!("images[{i}] was not read"));
        };
        sides[i] = Some(match image::header_sides(&encoded.bytes) {
            Some(s) => s,
            None => {
                let (im, _) = decode_image(meshes, i)?;
                [im.width, im.height]
            }
        });
    }
    let layout = atlas::layout(primitives, &meshes.materials, &sides, settings)
        .map_err(|e| e.to_string())?;
    let mut padded = Vec::new();
    let mut atlas = atlas::paint(&layout, primitives, |i| {
        let (image, after) = decode_image(meshes, i).map_err(atlas::Error::new)?;
        padded.extend(after);
        Ok(image)
    })
    .map_err(|e| {
        match e
            .image
            .and_then(|i| Some((i, meshes.images.get(i)?.as_ref()?)))
        {
            // About an image: at its first byte.
            Some((i, encoded)) => image_error(
                &image_label(i, encoded),
                encoded,
                &image::Error {
                    offset: 0,
                    what: e.message,
                },
            ),
            None => e.message,
        }
    })?;
    atlas.warnings.extend(padded);
    Ok(atlas)
}

/// Image `i` of `meshes`, decoded; an error names it (`images[2] "Skin"`)
/// and the byte. The image is someone else's file inside a source: bytes
/// after a complete PNG or JPEG (padding some exporters leave) are left
/// out, with a warning naming the image and the byte (the second value);
/// everything inside the image is held to the decoder's rules.
fn decode_image(meshes: &Meshes, i: usize) -> Result<(Rgba8, Option<String>), String> {
    let Some(encoded) = &meshes.images[i] else {
        return Err(format!("images[{i}] was not read"));
    };
    let what = image_label(i, encoded);
    let bytes = &encoded.bytes;
    let end = image::complete_len(bytes).unwrap_or(bytes.len());
    let decoded = image::decode(&bytes[..end]).map_err(|e| image_error(&what, encoded, &e))?;
    let after = (end < bytes.len()).then(|| {
        let e = image::Error {
            offset: end as u64,
            what: format!(
                "{} byte(s) after the end of the image are ignored",
                bytes.len() - end
            ),
        };
        image_error(&what, encoded, &e)
    });
    Ok((decoded, after))
}

/// How an error names image `i`: `images[2] "Skin"`.
fn image_label(i: usize, image: &EncodedImage) -> String {
    match &image.name {
        Some(n) => format!("images[{i}] {n:?}"),
        None => format!("images[{i}]"),
    }
}

/// An image's decode error at the byte of the file it is about: the
/// glTF file's own byte when the image is in it, the byte of the file
/// beside it that holds the image, or, for bytes decoded from the file
/// (a `data:` URI, a compressed view), the image's JSON and the byte of
/// the decoded image.
fn image_error(what: &str, image: &EncodedImage, e: &image::Error) -> String {
    match &image.origin {
        ImageOrigin::InFile { at } => format!("at byte {}: {what}: {}", at + e.offset, e.what),
        ImageOrigin::Beside { name, at } => {
            format!("{what}, in {name}: at byte {}: {}", at + e.offset, e.what)
        }
        ImageOrigin::Decoded { json_at } => format!(
            "at byte {json_at}: {what}, decoded from a data: uri or a compressed view: at byte {} of the image: {}",
            e.offset, e.what
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::job::Outputs;
    use crate::pipeline::job::tests::{place, rel};

    /// A `.gltf` with its buffer and its base colour image in files beside
    /// it: both are read through `JobIo`, so both are inputs of the key.
    #[test]
    fn meshes_read_their_buffer_and_image_files_as_inputs() {
        let rgba = Rgba8 {
            width: 2,
            height: 2,
            pixels: [10, 20, 30, 255].repeat(4),
        };
        let png = image::encode_png(&rgba).unwrap();
        let mut bin = Vec::new();
        for v in [
            0.0f32, 0., 0., 1., 0., 0., 0., 1., 0., 0., 0., 1., 0., 0., 1.,
        ] {
            bin.extend_from_slice(&v.to_le_bytes());
        }
        let gltf = serde_json::json!({
            "asset": {"version": "2.0"},
            "buffers": [{"uri": "tri.bin", "byteLength": 60}],
            "bufferViews": [{"buffer": 0, "byteLength": 36}, {"buffer": 0, "byteOffset": 36, "byteLength": 24}],
            "accessors": [
                {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"},
                {"bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC2"}
            ],
            "images": [{"uri": "skin%20tone.png"}],
            "textures": [{"source": 0}],
            "materials": [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}],
            "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "TEXCOORD_0": 1}, "material": 0}]}],
            "nodes": [{"mesh": 0}]
        });
        let text = serde_json::to_vec(&gltf).unwrap();
        let p = place(&[
            ("tri.gltf", &text),
            ("tri.bin", &bin),
            ("skin tone.png", &png),
        ]);
        let outputs = Outputs::default();
        let mut io = JobIo::new(&p.resolver, &p.tree, &outputs);
        let (file, doc) = read_gltf(&mut io, &rel("tri.gltf"), Pos::default(), false).unwrap();
        assert_eq!(file.bytes, text, "a .gltf is read whole");
        let meshes = import_meshes(
            &mut io,
            &rel("tri.gltf"),
            Pos::default(),
            &file,
            Some(doc),
            None,
        )
        .unwrap();
        assert_eq!(meshes.images[0].as_ref().unwrap().bytes, png);
        let prims: Vec<&Primitive> = meshes.meshes.iter().flat_map(|m| &m.primitives).collect();
        let atlas = material_stage(&meshes, &prims, &atlas::Settings::default()).unwrap();
        assert_eq!(atlas.image.texel(4, 4), [10, 20, 30, 255]);
        let (reads, _) = io.complete().unwrap();
        let mut read: Vec<String> = reads.iter().map(|r| r.path.to_string()).collect();
        read.sort();
        assert_eq!(read, ["skin tone.png", "tri.bin", "tri.gltf"]);

        // A missing image file is the job's error, naming the file.
        let p = place(&[("tri.gltf", &text), ("tri.bin", &bin)]);
        let mut io = JobIo::new(&p.resolver, &p.tree, &outputs);
        let file = GltfFile {
            len: text.len(),
            bytes: text,
            sha256: None,
        };
        let e = import_meshes(&mut io, &rel("tri.gltf"), Pos::default(), &file, None, None)
            .unwrap_err();
        assert!(e.message.contains("skin tone.png"), "{}", e.message);
    }
}
