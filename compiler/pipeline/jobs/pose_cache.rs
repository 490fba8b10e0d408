//! Recipe: a glTF clip baked into a OneScope pose cache (`poses/<id>.ospc`).
//!
//! read source -> parse -> read external buffers -> import scene -> bake ->
//! encode.

use std::fmt;

use super::{JobError, JobIo, Output};
use crate::bake::pose_cache::{self as bake, ClipRef, EntitySet, Settings};
use crate::formats::ospc::{self, Shape};
use crate::import::gltf;
use crate::pipeline::paths::RelPath;

pub const KIND: &str = "pose_cache";

/// Bump whenever the bytes this recipe writes for the same inputs and
/// settings would change (importer, sampler, baker or encoder changes).
/// `tests/cli.rs` holds the demo's output hashes with this number and
/// refuses new hashes under an old number.
///
/// 2: a key within float32 rounding of a frame time counts as at it (for
/// the frame count and for sampling); unnamed joints are named by skin and
/// palette index.
pub const VERSION: u32 = 2;

#[derive(Clone, Debug, PartialEq)]
pub struct PoseCacheJob {
    pub source: RelPath,
    pub clip: ClipRef,
    pub settings: Settings,
    /// Relative to the output folder.
    pub output: RelPath,
}

/// Hands each setting, by name and in canonical text form, to `put`, in a
/// fixed order; for the cache key and `--explain`. Floats print in Rust's
/// shortest round-trip form, so equal values always give equal text.
pub fn settings(job: &PoseCacheJob, put: &mut dyn FnMut(&'static str, fmt::Arguments)) {
    let s = &job.settings;
    put("source", format_args!("{}", job.source));
    match &job.clip {
        ClipRef::Name(n) => put("animation", format_args!("name {n:?}")),
        ClipRef::Index(i) => put("animation", format_args!("index {i}")),
    }
    put("rate_hz", format_args!("{:?}", s.rate_hz));
    let entities = match s.entities {
        EntitySet::Joints => "joints",
        EntitySet::Nodes => "nodes",
    };
    put("entities", format_args!("{entities}"));
    let shape = match s.shape {
        Shape::Point => "point",
        Shape::Sphere => "sphere",
        Shape::Box => "box",
        Shape::Capsule => "capsule",
    };
    put("shape", format_args!("{shape}"));
    put("size", format_args!("{:?}", s.size));
    put("dimensions", format_args!("{}", s.dimensions));
    put("start_step", format_args!("{}", s.start_step));
    put("label", format_args!("{:?}", s.label));
    put("replay", format_args!("{:?}", s.replay));
    put("output", format_args!("{}", job.output));
}

pub fn run(job: &PoseCacheJob, io: &mut JobIo) -> Result<Vec<Output>, JobError> {
    let bytes = io.read(&job.source, "source", gltf::MAX_FILE_BYTES)?;
    let invalid = |e: gltf::Error| JobError::at("source", format!("{}: {e}", job.source));
    let source = gltf::Source::parse(&bytes).map_err(invalid)?;
    let externals = read_externals(job, &source, io)?;
    let scene = gltf::import_source(source, &externals).map_err(invalid)?;
    let cache = bake::bake(&scene, &job.clip, &job.settings).map_err(blame)?;
    let bytes = ospc::encode(&cache)
        .map_err(|e| JobError::at("source", format!("the baked pose cache is invalid: {e}")))?;
    Ok(vec![Output {
        path: job.output.clone(),
        bytes,
    }])
}

/// The buffers a `.gltf` keeps in files next to it.
fn read_externals(
    job: &PoseCacheJob,
    source: &gltf::Source,
    io: &mut JobIo,
) -> Result<Vec<(String, Vec<u8>)>, JobError> {
    let uris = source
        .external_uris()
        .map_err(|e| JobError::at("source", format!("{}: {e}", job.source)))?;
    let mut externals = Vec::with_capacity(uris.len());
    for uri in uris {
        let path = job
            .source
            .sibling(&uri)
            .map_err(|e| JobError::at("source", format!("{}: buffer {e}", job.source)))?;
        let bytes = io.read(&path, "source", gltf::MAX_FILE_BYTES)?;
        externals.push((uri, bytes));
    }
    Ok(externals)
}

/// Which manifest setting a baking error is about.
fn blame(e: bake::Error) -> JobError {
    let field = match e {
        bake::Error::NoClipNamed { .. } | bake::Error::NoClipIndex { .. } => "animation",
        bake::Error::NoJoints | bake::Error::NoNodes | bake::Error::TooManyEntities { .. } => {
            "entities"
        }
        bake::Error::TooLarge { .. }
        | bake::Error::TooManyFrames { .. }
        | bake::Error::TooMuchWork { .. } => "rate_hz",
        _ => "source",
    };
    JobError::at(field, e.to_string())
}
