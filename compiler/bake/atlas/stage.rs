//! The material stage: the images a model's materials show, laid out
//! from their headers, then decoded one at a time as the atlas is painted.
//! Images are someone else's files, decoded with the [`ImageReader`] the
//! caller passes (the importer's PNG and JPEG decoders): a baker decodes
//! no file format itself.

use crate::model::material::{EncodedImage, ImageOrigin, Meshes, Primitive, Rgba8};

use super::{Atlas, Error, Settings, layout, paint};

/// An image decoder, as the material stage needs it: plain functions, so
/// the stage is the same for `kiln build` and `kiln inspect` and a test
/// can count what it decodes.
#[derive(Clone, Copy)]
pub struct ImageReader {
    /// Texels the image's header claims (0 when it cannot say), before it
    /// is decoded.
    pub claimed_texels: fn(&[u8]) -> u64,
    /// Width and height from the image's header, when it can be read.
    pub header_sides: fn(&[u8]) -> Option<[u32; 2]>,
    /// Where a complete image ends, when bytes follow it.
    pub complete_len: fn(&[u8]) -> Option<usize>,
    /// The image decoded, or the byte and the rule it broke.
    pub decode: fn(&[u8]) -> Result<Rgba8, ImageError>,
}

/// Why an image did not decode: the byte of the image, and the rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImageError {
    pub offset: u64,
    pub rule: String,
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
/// ([`ImageReader::claimed_texels`]), summed, before any is decoded.
pub fn shown_texels(meshes: &Meshes, primitives: &[&Primitive], images: &ImageReader) -> u64 {
    shown_images(meshes, primitives)
        .into_iter()
        .filter_map(|i| meshes.images.get(i)?.as_ref())
        .map(|im| (images.claimed_texels)(&im.bytes))
        .sum()
}

/// The material stage for `primitives` of `meshes`, reading images with
/// `images`: lays the atlas out
/// from the sides the shown images' headers give (their texels together
/// at most [`MAX_MODEL_TEXELS`], checked before any is decoded), then
/// paints it, decoding each image once and holding one at a time. Errors name the image (`images[2] "Skin"`) or the
/// stage's rule.
pub fn material_stage(
    meshes: &Meshes,
    primitives: &[&Primitive],
    settings: &Settings,
    images: &ImageReader,
) -> Result<Atlas, String> {
    let texels = shown_texels(meshes, primitives, images);
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
        sides[i] = Some(match (images.header_sides)(&encoded.bytes) {
            Some(s) => s,
            None => {
                let (im, _) = decode_image(meshes, i, images)?;
                [im.width, im.height]
            }
        });
    }
    let layout =
        layout(primitives, &meshes.materials, &sides, settings).map_err(|e| e.to_string())?;
    let mut padded = Vec::new();
    let mut atlas = paint(&layout, primitives, |i| {
        let (image, after) = decode_image(meshes, i, images).map_err(Error::new)?;
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
                &ImageError {
                    offset: 0,
                    rule: e.message,
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
fn decode_image(
    meshes: &Meshes,
    i: usize,
    images: &ImageReader,
) -> Result<(Rgba8, Option<String>), String> {
    let Some(encoded) = &meshes.images[i] else {
        return Err(format!("images[{i}] was not read"));
    };
    let what = image_label(i, encoded);
    let bytes = &encoded.bytes;
    let end = (images.complete_len)(bytes).unwrap_or(bytes.len());
    let decoded = (images.decode)(&bytes[..end]).map_err(|e| image_error(&what, encoded, &e))?;
    let after = (end < bytes.len()).then(|| {
        let e = ImageError {
            offset: end as u64,
            rule: format!(
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
fn image_error(what: &str, image: &EncodedImage, e: &ImageError) -> String {
    match &image.origin {
        ImageOrigin::InFile { at } => format!("at byte {}: {what}: {}", at + e.offset, e.rule),
        ImageOrigin::Beside { name, at } => {
            format!("{what}, in {name}: at byte {}: {}", at + e.offset, e.rule)
        }
        ImageOrigin::Decoded { json_at } => format!(
            "at byte {json_at}: {what}, decoded from a data: uri or a compressed view: at byte {} of the image: {}",
            e.offset, e.rule
        ),
    }
}
