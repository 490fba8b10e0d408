//! Reading one file the user names (`kiln inspect`, `kiln verify`): the
//! file system side of those commands, kept here with the rest of kiln's
//! paths; the CLI only prints.

use std::path::Path;

use super::input;
use crate::formats::ospc::{self, PoseCache};
use crate::import::gltf;
use crate::model::Scene;

/// A file kiln understands, decoded.
pub enum FileKind {
    PoseCache(PoseCache),
    Gltf(GltfSummary),
}

/// What a glTF asset holds, beyond the scene kiln imports.
pub struct GltfSummary {
    pub scene: Scene,
    pub generator: Option<String>,
    pub extensions_used: Vec<String>,
    pub extensions_required: Vec<String>,
    /// Required extensions whose (mesh) data kiln does not decode.
    pub undecoded: Vec<String>,
    pub meshes: usize,
    pub primitives: usize,
    pub accessors: usize,
    pub buffer_views: usize,
    pub buffers: usize,
}

/// Loads a glTF asset, reads every accessor (so a broken one anywhere is
/// found, not just in what a pose cache needs) and imports its scene. Mesh
/// data in an extension kiln does not decode (Draco) is listed, not read.
fn load_gltf(bytes: &[u8], externals: &[(String, Vec<u8>)]) -> Result<GltfSummary, String> {
    let invalid = |e: gltf::Error| format!("invalid glTF: {e}");
    let asset = gltf::Asset::load(bytes, externals, gltf::Reading::Scene).map_err(invalid)?;
    let doc = asset.document();
    for i in 0..doc.accessors.len() {
        asset.accessor(i).map_err(invalid)?;
    }
    let scene = gltf::import_scene(bytes, externals).map_err(invalid)?;
    Ok(GltfSummary {
        scene,
        generator: doc.asset.generator.clone(),
        extensions_used: doc.extensions_used.clone(),
        extensions_required: doc.extensions_required.clone(),
        undecoded: doc
            .extensions_required
            .iter()
            .filter(|e| gltf::MESH_ONLY_EXTENSIONS.contains(&e.as_str()))
            .cloned()
            .collect(),
        meshes: doc.meshes.len(),
        primitives: doc.meshes.iter().map(|m| m.primitives.len()).sum(),
        accessors: doc.accessors.len(),
        buffer_views: doc.buffer_views.len(),
        buffers: doc.buffers.len(),
    })
}

/// Reads and fully decodes `file` (a regular file, at most its format's
/// limit); an error names the format and the rule.
pub fn load(file: &Path) -> Result<FileKind, String> {
    let magic = input::read_prefix(file, 4).map_err(|e| e.to_string())?;
    let is_gltf_json = file.extension().is_some_and(|e| e == "gltf");
    if magic == ospc::MAGIC {
        let bytes = read(file, ospc::MAX_FILE_BYTES as u64)?;
        return ospc::decode(&bytes)
            .map(FileKind::PoseCache)
            .map_err(|e| format!("invalid pose cache: {e}"));
    }
    if magic == *b"glTF" || is_gltf_json {
        let bytes = read(file, gltf::MAX_FILE_BYTES)?;
        let externals = read_externals(file, &bytes)?;
        return load_gltf(&bytes, &externals).map(FileKind::Gltf);
    }
    Err("not a file kiln reads (expected a .ospc pose cache, .glb or .gltf)".into())
}

fn read(file: &Path, limit: u64) -> Result<Vec<u8>, String> {
    input::read_regular(file, limit)
        .map(|r| r.bytes)
        .map_err(|e| e.to_string())
}

/// The buffer files a `.gltf` names, read from beside it. The importer
/// only ever names plain files (no directory part, no `..`), so joining
/// them to the source's folder cannot leave it.
fn read_externals(file: &Path, bytes: &[u8]) -> Result<Vec<(String, Vec<u8>)>, String> {
    let uris = gltf::external_uris(bytes).map_err(|e| format!("invalid glTF: {e}"))?;
    let dir = file.parent().unwrap_or(Path::new("."));
    uris.into_iter()
        .map(|uri| {
            let data = read(&dir.join(&uri), gltf::MAX_FILE_BYTES)
                .map_err(|e| format!("buffer {uri}: {e}"))?;
            Ok((uri, data))
        })
        .collect()
}
