//! glTF 2.0 importer (`.glb` and `.gltf`).
//!
//! Reads the node hierarchy, skins and animation clips of a glTF 2.0 asset
//! into [`Scene`], and offers a lower-level [`Asset`] that reads any
//! accessor (for the mesh reader that comes later).
//!
//! The stages, one file each, in the order [`Asset::load`] runs them:
//! 1. `container.rs`: `.gltf` JSON text, or else a GLB, whose header and
//!    chunks [`crate::formats::glb`] reads;
//! 2. [`json`]: the glTF JSON subset we read (unknown keys are tolerated);
//! 3. `asset.rs`: `extensionsRequired` against what we support;
//! 4. `buffers.rs`: the GLB BIN chunk, `data:` URIs and external files;
//! 5. `views.rs`: buffer views, decoding `EXT_meshopt_compression` and
//!    `KHR_meshopt_compression` views (`meshopt.rs`, `filters.rs`);
//! 6. [`accessor`]: typed reads, sparse substitution, normalization;
//!
//! then [`import_scene`] builds the scene (`scene.rs`, `animation.rs`) and
//! [`import_meshes`] the meshes (`mesh.rs`, with `draco.rs` for
//! `KHR_draco_mesh_compression` primitives) and materials (`material.rs`).
//!
//! Limits, each a named constant with its reason: [`MAX_DECODED_BYTES`]
//! (meshopt output per asset), [`MAX_ACCESSOR_VALUES`] (one accessor),
//! [`MAX_ASSET_VALUES`] (every accessor read and Draco decode of an asset,
//! summed), [`MAX_URI_BYTES`],
//! `bufferView.byteStride` at most 252 (glTF's own bound), and
//! [`ROTATION_UNIT_TOLERANCE`] for node rotations.
//!
//! Every error names the glTF rule that was broken and where: the byte of
//! the file it is about first (`at byte 1234`), then, for a rule of the
//! JSON, its path (`animations[2].samplers[0].input`); `place.rs` finds
//! the byte the path names. The importer is pure: no file system, no threads, no
//! output. A [`Scene`] it returns keeps the model's promises: indices in
//! range, a forest, finite values, strictly increasing key times.

pub mod accessor;
mod animation;
mod asset;
mod buffers;
mod container;
mod draco;
mod filters;
pub mod json;
mod material;
mod mesh;
mod meshopt;
mod place;
mod scene;
mod views;

/// Largest file of a glTF asset kiln reads (the `.glb` or `.gltf`, each
/// external buffer file and each image file): 1 GiB. A GLB may declare up
/// to 4 GiB; no character or clip comes near 1, and the reader holds what
/// the buffers take of it (a GLB's BIN chunk as far as its buffer's
/// `byteLength`, not the file), so a job fits a CI container of 4 GB.
pub const MAX_FILE_BYTES: u64 = 1 << 30;

pub use accessor::{ComponentType, ElementType, MAX_ACCESSOR_VALUES, Packed};
pub use asset::{Asset, MAX_ASSET_VALUES, Need, SUPPORTED_REQUIRED_EXTENSIONS, Source};
pub use buffers::MAX_URI_BYTES;
pub use draco::{
    DRACO_PROBE_BYTES_PER_COMPONENT, DRACO_PROBE_BYTES_PER_FACE, DRACO_PROBE_BYTES_PER_POINT,
    MAX_DRACO_BYTES_PER_VALUE,
};
pub use meshopt::MAX_DECODED_BYTES;
pub use scene::ROTATION_UNIT_TOLERANCE;

use crate::model::Scene;
use crate::model::material::Meshes;

/// An import failure: which rule was broken and where (lowercase, no file
/// name; the caller prefixes that).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Error(pub String);

impl Error {
    /// `where: what`.
    pub(crate) fn at(place: impl std::fmt::Display, what: impl std::fmt::Display) -> Error {
        Error(format!("{place}: {what}"))
    }

    /// Prefixes a context (e.g. the JSON path that referred to an accessor).
    pub(crate) fn context(self, place: impl std::fmt::Display) -> Error {
        Error(format!("{place}: {}", self.0))
    }
}

/// The plain file names of the external buffer files `bytes` refers to, in
/// first-use order, so the caller can fetch them from beside the source.
/// (Parses the file; with [`Source`] a caller parses once for both
/// questions.)
pub fn external_uris(bytes: &[u8]) -> Result<Vec<String>, Error> {
    Source::parse(bytes)?.external_uris()
}

/// Reads the node hierarchy, skins and animations of a `.glb` or `.gltf`
/// (a required extension that only concerns meshes is no obstacle).
/// `externals` holds (uri, bytes) for every name `external_uris` returned.
pub fn import_scene(bytes: &[u8], externals: &[(String, Vec<u8>)]) -> Result<Scene, Error> {
    import_source(Source::parse(bytes)?, externals)
}

/// [`import_scene`] of an already parsed source.
pub fn import_source(source: Source, externals: &[(String, Vec<u8>)]) -> Result<Scene, Error> {
    import_source_with_json(source, externals).map(|(scene, _)| scene)
}

/// [`import_source`], giving back the parsed JSON too, for a caller that
/// reads the same file's meshes next ([`Source::from_prefix`] with the JSON): it is
/// then parsed once.
pub fn import_source_with_json(
    source: Source,
    externals: &[(String, Vec<u8>)],
) -> Result<(Scene, json::Document), Error> {
    let asset = Asset::from_source(source, externals)?;
    let hierarchy = scene::read(&asset).map_err(|e| asset.place(e))?;
    let clips = animation::read(&asset, &hierarchy.nodes).map_err(|e| asset.place(e))?;
    let instances = asset
        .document()
        .nodes
        .iter()
        .enumerate()
        .filter_map(|(node, n)| {
            Some(crate::model::Instance {
                node,
                mesh: n.mesh?,
                skin: n.skin,
                morph_weights: n.weights.clone(),
            })
        })
        .collect();
    let scene = Scene {
        nodes: hierarchy.nodes,
        roots: hierarchy.roots,
        skins: hierarchy.skins,
        clips,
        instances,
    };
    Ok((scene, asset.into_document()))
}

/// Reads meshes with their materials and the encoded base colour images
/// (`images[i]` is `None` for an image no base colour texture shows).
/// `meshes` picks the meshes by index; `None` takes every mesh a node
/// instantiates, ascending. `externals` are the buffer files
/// ([`Source::external_uris`]), `image_files` the image files
/// ([`Source::image_uris`]).
pub fn import_meshes(
    source: Source,
    externals: &[(String, Vec<u8>)],
    image_files: &[(String, Vec<u8>)],
    meshes: Option<&[usize]>,
) -> Result<Meshes, Error> {
    let asset = Asset::from_source(source, externals)?;
    let doc = asset.document();
    let picked: Vec<usize> = match meshes {
        Some(m) => m.to_vec(),
        None => {
            let mut m: Vec<usize> = doc.nodes.iter().filter_map(|n| n.mesh).collect();
            m.sort_unstable();
            m.dedup();
            m
        }
    };
    let meshes = picked
        .iter()
        .map(|&i| asset.mesh(i))
        .collect::<Result<Vec<_>, _>>()?;
    let (materials, images) = material::read(&asset, image_files).map_err(|e| asset.place(e))?;
    Ok(Meshes {
        meshes,
        materials,
        images,
    })
}
