//! Source files more than one job kind reads, read the same way through
//! `JobIo`: a safetensors file opened with its header (checkpoints, clip
//! files), and a glTF asset imported with the buffer files beside it. No
//! kind is named here; each kind blames its own setting (`pos`). And
//! [`IMAGES`], the importer's image decoders as the material stage
//! (`bake::atlas::material_stage`) takes them, for `kiln build` and
//! `kiln inspect` alike.

use crate::bake::atlas::{self};
use crate::formats::safetensors;
use crate::import::{gltf, image};
use crate::model::Scene;
use crate::model::material::Meshes;
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

/// The importer's PNG and JPEG decoders, as the material stage reads
/// images.
pub const IMAGES: atlas::ImageReader = atlas::ImageReader {
    claimed_texels: image::claimed_texels,
    header_sides: image::header_sides,
    complete_len: image::complete_len,
    decode: decode_image,
};

fn decode_image(bytes: &[u8]) -> Result<crate::model::material::Rgba8, atlas::ImageError> {
    image::decode(bytes).map_err(|e| atlas::ImageError {
        offset: e.offset,
        rule: e.what,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::material::{Primitive, Rgba8};
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
        let atlas =
            atlas::material_stage(&meshes, &prims, &atlas::Settings::default(), &IMAGES).unwrap();
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
