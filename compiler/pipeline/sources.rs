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
use crate::model::material::{Meshes, Primitive, Rgba8};
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

/// Imports the glTF asset `bytes` read from `source`, with the buffers a
/// `.gltf` keeps in files next to it (inputs the job discovers: only the
/// source names them).
pub fn import_gltf(
    io: &mut JobIo,
    source: &RelPath,
    pos: Pos,
    bytes: &[u8],
) -> Result<Scene, JobError> {
    let invalid = |err: gltf::Error| JobError::at(pos, format!("{source}: {err}"));
    let parsed = gltf::Source::parse(bytes).map_err(invalid)?;
    let uris = parsed
        .external_uris()
        .map_err(|e| JobError::at(pos, format!("{source}: {e}")))?;
    let mut externals = Vec::with_capacity(uris.len());
    for uri in uris {
        let path = source
            .sibling(&uri)
            .map_err(|e| JobError::at(pos, format!("{source}: buffer {e}")))?;
        let bytes = io.read(&path, pos, gltf::MAX_FILE_BYTES)?;
        externals.push((uri, bytes));
    }
    gltf::import_source(parsed, &externals).map_err(invalid)
}

/// The material stage for `primitives` of `meshes`: decodes the images
/// their materials show (each once), then builds the atlas. Errors name
/// the image (`images[2] "Skin"`) or the stage's rule.
pub fn material_stage(
    meshes: &Meshes,
    primitives: &[&Primitive],
    settings: &atlas::Settings,
) -> Result<Atlas, String> {
    let mut decoded: Vec<Option<Rgba8>> = vec![None; meshes.images.len()];
    for p in primitives {
        let material = p.material.map(|m| &meshes.materials[m]);
        let Some(tex) = material.and_then(|m| m.base_color_texture) else {
            continue;
        };
        if decoded[tex.image].is_some() {
            continue;
        }
        let Some(encoded) = &meshes.images[tex.image] else {
            return Err(format!("images[{}] was not read", tex.image));
        };
        let name = encoded
            .name
            .as_ref()
            .map(|n| format!(" {n:?}"))
            .unwrap_or_default();
        let im = image::decode(&encoded.bytes)
            .map_err(|e| format!("images[{}]{name}: {e}", tex.image))?;
        decoded[tex.image] = Some(im);
    }
    atlas::build(primitives, &meshes.materials, &decoded, settings).map_err(|e| e.to_string())
}
