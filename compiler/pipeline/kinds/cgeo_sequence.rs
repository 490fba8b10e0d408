//! Kind `cgeo_sequence`: a glTF character's clip baked into a Corona CGeo
//! mesh sequence, `cgeo/<id>.cgeo` (manifest section `cgeo_sequences`).
//!
//! run: read source -> import scene and meshes -> prepare (model, clip,
//! frames, header) -> each frame skinned and encoded to learn its length
//! (kept up to [`KEEP_BYTES`]) -> write the header and table -> each frame
//! written (made again past [`KEEP_BYTES`]: memory is then one frame's).

use std::io::Write;

use serde::{Deserialize, Serialize};

use crate::bake::cgeo_sequence::{self as bake, Settings, UpAxis};
use crate::bake::pose_cache::rate_rule;
use crate::formats::cgeo;
use crate::pipeline::job::{JobError, JobIo, Outputs, Unit};
use crate::pipeline::kinds::pose_cache::Animation;
use crate::pipeline::manifest::At;
use crate::pipeline::paths::RelPath;
use crate::pipeline::planner::Planner;
use crate::pipeline::sources;

pub const KIND: &str = "cgeo_sequence";

/// When to bump it: ARCHITECTURE.md, "A kind's `VERSION` changes".
/// 2: LINEAR rotations are slerped at a constant rate however close the
/// keys (a normalized lerp was used within 1.8° of each other).
pub const VERSION: u32 = 2;
/// The folder of the output folder its jobs write under.
pub const FOLDER: &str = "cgeo";

/// Encoded frames kept between the two passes, at most: 64 MiB. A longer
/// sequence is encoded twice (once to size the offset table) rather than
/// held.
pub const KEEP_BYTES: usize = 64 << 20;

/// One `cgeo_sequences` entry. Documented key by key in docs/manifest.md.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// Names the output, `cgeo/<id>.cgeo`.
    pub id: At<String>,
    /// The character, a `.glb` or `.gltf`.
    pub source: At<String>,
    /// The clip, by name or by index.
    pub animation: At<Animation>,
    /// Frames per second.
    pub rate_hz: At<f64>,
    /// zlib-compressed sections. Default: false.
    #[serde(default)]
    pub compressed: At<bool>,
    /// `y` (glTF's axes, the default) or `z` (Z up, as 3ds Max has it).
    #[serde(default = "default_up_axis")]
    pub up_axis: At<UpAxis>,
}

fn default_up_axis() -> At<UpAxis> {
    At::unwritten(UpAxis::Y)
}

fn output_of(id: &str) -> Result<RelPath, String> {
    RelPath::parse(&format!("{FOLDER}/{id}.cgeo"))
}

pub fn plan(e: &Entry, p: &mut Planner) -> Option<Outputs> {
    p.check_id(&e.id);
    p.input(&e.source, "source");
    if let Err(rule) = rate_rule(e.rate_hz.value) {
        p.fail(e.rate_hz.pos, rule);
    }
    if let Animation::Index(i) = e.animation.value
        && usize::try_from(i).is_err()
    {
        p.fail(e.animation.pos, format!("animation index {i} is too large"));
    }
    output_of(&e.id.value).ok().map(Outputs::one)
}

pub fn run(e: &Entry, io: &mut JobIo) -> Result<(), JobError> {
    let at_source = |m: String| JobError::at(e.source.pos, m);
    let source = RelPath::parse(&e.source.value).map_err(at_source)?;
    let (file, doc) = sources::read_gltf(io, &source, e.source.pos, false)?;
    let (scene, json) = sources::import_gltf_with_json(io, &source, e.source.pos, &file, doc)?;
    let (sel, warnings) = bake::select(&scene).map_err(|err| at_source(format!("{source}: {err}")))?;
    for w in warnings {
        io.warn(format!("{source}: {w}"));
    }
    let meshes = sources::import_meshes(
        io,
        &source,
        e.source.pos,
        &file,
        Some(json),
        Some(&sel.meshes),
    )?;
    let settings = Settings {
        rate_hz: e.rate_hz.value,
        compressed: e.compressed.value,
        up_axis: e.up_axis.value,
    };
    let object = object_name(&scene, &source);
    let prepared = bake::prepare(
        &scene,
        &sel,
        &meshes,
        &e.animation.value.clip_ref(),
        &object,
        &settings,
    )
    .map_err(|err| {
        let pos = match err {
            bake::Error::Clip(_) => e.animation.pos,
            bake::Error::TooManyFrames { .. } => e.rate_hz.pos,
            _ => e.source.pos,
        };
        JobError::at(pos, format!("{source}: {err}"))
    })?;
    for w in &prepared.warnings {
        io.warn(format!("{source}: {w}"));
    }
    let invalid = |m: String| JobError::at(e.source.pos, format!("the baked sequence is invalid: {m}"));
    if let Some(problem) = cgeo::validate_header(&prepared.header).first() {
        return Err(invalid(problem.to_string()));
    }
    // Before any frame is baked: the file's size, counted uncompressed
    // (frame 0 complete, every later one a difference of one size), must
    // be one kiln's reader reads.
    let frames = prepared.frames();
    let plain = |k: usize| cgeo::encode_snapshot(&prepared.snapshot(k), prepared.first(), false).len() as u64;
    let (first, later) = (plain(0), if frames > 1 { plain(1) } else { 0 });
    let table = cgeo::encode_prefix(&prepared.header, false, &vec![first; frames])
        .map_err(|err| invalid(err.to_string()))?
        .len() as u64;
    let total = (frames as u64 - 1).saturating_mul(later).saturating_add(first + table);
    io.check_budget(total, e.rate_hz.pos)?;
    if total > cgeo::MAX_FILE_BYTES {
        return Err(JobError::at(
            e.rate_hz.pos,
            format!(
                "{source}: {frames} frames of {later} bytes each (uncompressed) make a file of {total} bytes, more than the {} bytes a CGeo file may have (kiln's reader refuses it); lower rate_hz or take a shorter clip",
                cgeo::MAX_FILE_BYTES
            ),
        ));
    }
    // Pass 1: each frame's encoded length (the offset table comes first),
    // the encoded frames kept while they fit in KEEP_BYTES.
    let mut lengths = Vec::with_capacity(frames);
    let mut kept: Option<Vec<Vec<u8>>> = Some(Vec::new());
    let mut kept_bytes = 0usize;
    for k in 0..frames {
        let s = prepared.snapshot(k);
        if let Some(problem) = prepared.check(k, &s).first() {
            return Err(invalid(problem.to_string()));
        }
        let bytes = cgeo::encode_snapshot(&s, prepared.first(), settings.compressed);
        lengths.push(bytes.len() as u64);
        kept_bytes = kept_bytes.saturating_add(bytes.len());
        match &mut kept {
            Some(list) if kept_bytes <= KEEP_BYTES => list.push(bytes),
            _ => kept = None,
        }
        io.progress(k as u64 + 1, 2 * frames as u64, Unit::Steps)?;
    }
    let prefix = cgeo::encode_prefix(&prepared.header, false, &lengths)
        .map_err(|err| invalid(err.to_string()))?;
    // Pass 2: the frames written (made again if they were not kept).
    let output = output_of(&e.id.value).map_err(JobError::job)?;
    let mut out = io.create(&output)?;
    let write_error = |err: std::io::Error| JobError::job(format!("{output}: {err}"));
    out.write_all(&prefix).map_err(write_error)?;
    let mut kept = kept.map(Vec::into_iter);
    for (k, &len) in lengths.iter().enumerate() {
        let bytes = match kept.as_mut().and_then(Iterator::next) {
            Some(bytes) => bytes,
            None => cgeo::encode_snapshot(&prepared.snapshot(k), prepared.first(), settings.compressed),
        };
        if bytes.len() as u64 != len {
            return Err(JobError::job(format!(
                "frame {k} encoded to {len} bytes, then {} (a bug in kiln: frames must be the same each time)",
                bytes.len()
            )));
        }
        out.write_all(&bytes).map_err(write_error)?;
        io.progress((frames + k) as u64 + 1, 2 * frames as u64, Unit::Steps)?;
    }
    io.close(out).map(|_| ())
}

/// The object name a sequence says: the node that holds the mesh when one
/// does, else the source's file name without its extension (a character
/// of several parts is one object).
fn object_name(scene: &crate::model::Scene, source: &RelPath) -> String {
    let node = match scene.instances.as_slice() {
        [one] => scene.nodes[one.node].name.clone(),
        _ => None,
    };
    node.filter(|n| !n.trim().is_empty()).unwrap_or_else(|| {
        let name = source.file_name();
        name.rsplit_once('.').map_or(name, |(stem, _)| stem).to_string()
    })
}
