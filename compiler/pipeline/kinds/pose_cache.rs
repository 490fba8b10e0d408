//! Kind `pose_cache`: a glTF clip, a MotionBricks replay or a glob of CGeo
//! sequences baked into a OneScope pose cache, `poses/<id>.ospc` (manifest
//! section `pose_caches`).
//!
//! run, glTF: read source -> parse -> read external buffers -> import
//! scene -> bake -> encode -> write.
//! run, replay (`.mbreplay`): read source -> decode -> bake -> encode ->
//! write.
//! run, CGeo (`.cgeo`, a glob): for each file in name order: open ->
//! header, table, snapshot 0 -> fit each snapshot (read one at a time)
//! -> check the residual; then one clock -> bake -> encode -> write.

use serde::{Deserialize, Serialize};


use crate::bake::cgeo_poses;
use crate::bake::pose_cache::{self as bake, ClipRef, EntitySet, Settings};
use crate::formats::{cgeo, mbreplay};
use crate::formats::ospc::{self, Shape};
use crate::pipeline::job::{InputFile, JobError, JobIo, Outputs};
use crate::pipeline::manifest::{At, Pos};
use crate::pipeline::paths::RelPath;
use crate::pipeline::planner::Planner;
use crate::pipeline::input::{PieceFailed, Pieces};
use crate::pipeline::sources;

pub const KIND: &str = "pose_cache";

/// When to bump it: ARCHITECTURE.md, "A kind's `VERSION` changes".
/// 2: a key within float32 rounding of a frame time counts as at it (for
/// the frame count and for sampling); unnamed joints are named by skin and
/// palette index.
/// 3: LINEAR rotations are slerped at a constant rate however close the
/// keys (a normalized lerp was used within 1.8° of each other).
pub const VERSION: u32 = 3;
/// The folder of the output folder its jobs write under.
pub const FOLDER: &str = "poses";

/// The default `rigid_tolerance_m`: a millimetre.
pub const DEFAULT_RIGID_TOLERANCE_M: f64 = 0.001;


/// One `pose_caches` entry: every setting, with where it was written.
/// Documented key by key in docs/manifest.md.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// Names the output, `poses/<id>.ospc`.
    pub id: At<String>,
    /// The `.glb`, `.gltf` or `.mbreplay`, relative to the project root,
    /// or a glob of `.cgeo` files (one entity per file, in name order).
    pub source: At<String>,
    /// The clip, by name or by index in the file: required for a glTF
    /// source, refused for a replay (which holds one session).
    #[serde(default)]
    pub animation: Option<At<Animation>>,
    /// Frames per second: required for a glTF source, refused for a replay
    /// (whose frames are the cache's).
    #[serde(default)]
    pub rate_hz: Option<At<f64>>,
    /// Which nodes become entities. Default: the joints of every skin.
    #[serde(default = "default_entities")]
    pub entities: At<EntitySet>,
    /// Every entity's shape. Default: a point.
    #[serde(default = "default_shape")]
    pub shape: At<Shape>,
    /// The shape's size: required for sphere, box and capsule, refused for
    /// a point (which has none).
    #[serde(default)]
    pub size: Option<At<[f32; 3]>>,
    /// 2 or 3. Default: 3.
    #[serde(default = "default_dimensions")]
    pub dimensions: At<u8>,
    /// The step number of the first frame. Default: 0.
    #[serde(default)]
    pub start_step: At<i64>,
    /// Free text stored in the cache. Default: empty.
    #[serde(default)]
    pub label: At<String>,
    /// The replay file this cache belongs with, a plain file name. Default:
    /// empty (none).
    #[serde(default)]
    pub replay: At<String>,
    /// A replay source's entity names, one per joint. Default:
    /// `joint_<index>`. Refused for a glTF source (its nodes have names).
    #[serde(default)]
    pub joint_names: Option<At<Vec<String>>>,
    /// A CGeo source's largest allowed distance (metres) between a vertex
    /// and the best rigid fit of its snapshot. Default:
    /// [`DEFAULT_RIGID_TOLERANCE_M`]. Refused for other sources.
    #[serde(default)]
    pub rigid_tolerance_m: Option<At<f64>>,
}

/// What the source is, by its extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SourceKind {
    Gltf,
    Replay,
    Cgeo,
}

fn source_kind(source: &str) -> SourceKind {
    let lower = source.to_ascii_lowercase();
    if lower.ends_with(".mbreplay") {
        SourceKind::Replay
    } else if lower.ends_with(".cgeo") {
        SourceKind::Cgeo
    } else {
        SourceKind::Gltf
    }
}

fn default_entities() -> At<EntitySet> {
    At::unwritten(EntitySet::Joints)
}

fn default_shape() -> At<Shape> {
    At::unwritten(Shape::Point)
}

fn default_dimensions() -> At<u8> {
    At::unwritten(3)
}

/// How `animation:` names a clip.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum Animation {
    Index(u64),
    Name(String),
}

impl Animation {
    /// The clip the baker looks up (planning refused an index that does
    /// not fit in `usize`; one that slipped through names no clip).
    pub fn clip_ref(&self) -> ClipRef {
        match self {
            Animation::Name(n) => ClipRef::Name(n.clone()),
            Animation::Index(i) => ClipRef::Index(usize::try_from(*i).unwrap_or(usize::MAX)),
        }
    }
}

fn output_of(id: &str) -> Result<RelPath, String> {
    RelPath::parse(&format!("{FOLDER}/{id}.ospc"))
}

/// Checks everything that can be checked without running; the output.
pub fn plan(e: &Entry, p: &mut Planner) -> Option<Outputs> {
    p.check_id(&e.id);
    let kind = source_kind(&e.source.value);
    match kind {
        SourceKind::Gltf => plan_gltf(e, p),
        SourceKind::Replay => plan_replay(e, p),
        SourceKind::Cgeo => plan_cgeo(e, p),
    }
    if kind != SourceKind::Cgeo
        && let Some(t) = &e.rigid_tolerance_m
    {
        p.fail(
            t.pos,
            "rigid_tolerance_m is for a .cgeo source (rigid objects fitted per snapshot); remove it",
        );
    }
    match (&e.size, e.shape.value) {
        // A CGeo box takes its size from the bounds: `plan_cgeo` refuses one.
        _ if kind == SourceKind::Cgeo => {}
        (None, Shape::Point) => {}
        (Some(s), Shape::Point) => p.fail(
            s.pos,
            "size is only for sphere, box and capsule shapes; a point has none",
        ),
        (None, _) => p.fail(e.shape.pos, "this shape needs `size: [x, y, z]`"),
        (Some(s), _) => {
            if s.value.iter().any(|v| !v.is_finite()) {
                p.fail(s.pos, "size values must be finite");
            }
        }
    }
    let dimensions = e.dimensions.value;
    if dimensions != 2 && dimensions != 3 {
        p.fail(
            e.dimensions.pos,
            format!("dimensions must be 2 or 3, found {dimensions}"),
        );
    }
    if e.start_step.value < 0 {
        p.fail(
            e.start_step.pos,
            format!("start_step must be 0 or more, found {}", e.start_step.value),
        );
    }
    if e.label.value.len() > ospc::MAX_TEXT_BYTES {
        p.fail(
            e.label.pos,
            format!(
                "label is {} bytes; a pose cache allows {}",
                e.label.value.len(),
                ospc::MAX_TEXT_BYTES
            ),
        );
    }
    let replay = &e.replay.value;
    if !replay.is_empty()
        && (!ospc::is_plain_file_name(replay) || replay.len() > ospc::MAX_TEXT_BYTES)
    {
        p.fail(
            e.replay.pos,
            format!(
                "replay {replay:?} must be a plain file name (no directory part), found next to the cache"
            ),
        );
    }
    output_of(&e.id.value).ok().map(Outputs::one)
}

/// The settings only a glTF source takes.
fn plan_gltf(e: &Entry, p: &mut Planner) {
    p.input(&e.source, "source");
    match &e.rate_hz {
        None => p.fail(e.source.pos, "a glTF source needs `rate_hz`"),
        Some(r) => check_rate(p, r),
    }
    match &e.animation {
        None => p.fail(
            e.source.pos,
            "a glTF source needs `animation` (a name, or an index)",
        ),
        Some(a) => {
            if let Animation::Index(i) = a.value
                && usize::try_from(i).is_err()
            {
                p.fail(a.pos, format!("animation index {i} is too large"));
            }
        }
    }
    if let Some(n) = &e.joint_names {
        p.fail(
            n.pos,
            "joint_names is for a .mbreplay source; a glTF source names its entities by its nodes",
        );
    }
}

/// Refuses a setting that does not apply to this kind of source.
fn refuse(p: &mut Planner, pos: Pos, key: &str, source: &str, why: &str) {
    p.fail(
        pos,
        format!("{key} does not apply to a {source} source: {why}; remove it"),
    )
}

/// `rate_hz` in (0, MAX_RATE_HZ].
fn check_rate(p: &mut Planner, r: &At<f64>) {
    if let Err(rule) = bake::rate_rule(r.value) {
        p.fail(r.pos, rule);
    }
}

/// A replay holds one session at its own rate: the settings that choose a
/// clip, a rate or glTF nodes do not apply, and are refused rather than
/// ignored.
fn plan_replay(e: &Entry, p: &mut Planner) {
    p.input(&e.source, "source");
    let refuse = |p: &mut Planner, pos: Pos, key: &str, why: &str| refuse(p, pos, key, ".mbreplay", why);
    if let Some(a) = &e.animation {
        refuse(p, a.pos, "animation", "a replay holds one session");
    }
    if let Some(r) = &e.rate_hz {
        refuse(p, r.pos, "rate_hz", "the replay's frames are the cache's");
    }
    if e.entities.pos.line != 0 {
        refuse(p, e.entities.pos, "entities", "every joint of the replay is an entity");
    }
    if let Some(names) = &e.joint_names {
        if names.value.iter().any(String::is_empty) {
            p.fail(names.pos, "joint_names must not be empty");
        }
        if let Some(n) = names.value.iter().find(|n| n.len() > ospc::MAX_TEXT_BYTES) {
            p.fail(
                names.pos,
                format!(
                    "joint name of {} bytes; a pose cache allows {}",
                    n.len(),
                    ospc::MAX_TEXT_BYTES
                ),
            );
        }
    }
}

/// A glob of CGeo files: one rigid entity per file. The clock is the
/// files' own (or `rate_hz`'s), the shape a point or the first snapshot's
/// box, the names the objects': the settings that choose a clip, nodes,
/// names or a size do not apply and are refused.
fn plan_cgeo(e: &Entry, p: &mut Planner) {
    p.glob(&e.source, "source");
    let refuse = |p: &mut Planner, pos: Pos, key: &str, why: &str| refuse(p, pos, key, ".cgeo", why);
    if let Some(a) = &e.animation {
        refuse(p, a.pos, "animation", "a CGeo file holds one sequence");
    }
    if e.entities.pos.line != 0 {
        refuse(p, e.entities.pos, "entities", "each file is one entity");
    }
    if let Some(n) = &e.joint_names {
        refuse(p, n.pos, "joint_names", "entities are named by their files' object names");
    }
    if let Some(s) = &e.size {
        refuse(p, s.pos, "size", "a box takes its size from the first snapshot's bounds");
    }
    if !matches!(e.shape.value, Shape::Point | Shape::Box) {
        p.fail(
            e.shape.pos,
            "a .cgeo source's entities are a point or a box (from the first snapshot's bounds)",
        );
    }
    if let Some(r) = &e.rate_hz {
        check_rate(p, r);
    }
    if let Some(t) = &e.rigid_tolerance_m
        && !(t.value.is_finite() && t.value >= 0.0)
    {
        p.fail(
            t.pos,
            format!(
                "rigid_tolerance_m must be a finite distance of 0 or more, found {}",
                t.value
            ),
        );
    }
}

pub fn run(e: &Entry, io: &mut JobIo) -> Result<(), JobError> {
    let at_source = |m: String| JobError::at(e.source.pos, m);
    if source_kind(&e.source.value) == SourceKind::Cgeo {
        return run_cgeo(e, io);
    }
    let source = RelPath::parse(&e.source.value).map_err(at_source)?;
    if source_kind(&e.source.value) == SourceKind::Replay {
        return run_replay(e, &source, io);
    }
    let (file, doc) = sources::read_gltf(io, &source, e.source.pos, false)?;
    let scene = sources::import_gltf(io, &source, e.source.pos, &file, doc)?;
    let clip = e.animation.as_ref().map(|a| a.value.clip_ref());
    // Planning refused a glTF entry without an animation.
    let clip = clip.unwrap_or(ClipRef::Index(usize::MAX));
    let cache = bake::bake(&scene, &clip, &settings_of(e, &source)).map_err(|b| blame(e, b))?;
    write_cache(e, io, &cache)
}

fn run_replay(e: &Entry, source: &RelPath, io: &mut JobIo) -> Result<(), JobError> {
    let at_source = |m: String| JobError::at(e.source.pos, m);
    let bytes = io.read(source, e.source.pos, mbreplay::MAX_FILE_BYTES as u64)?;
    let replay = mbreplay::decode(&bytes).map_err(|err| at_source(format!("{source}: {err}")))?;
    let names = e.joint_names.as_ref().map(|n| n.value.as_slice());
    let cache = bake::bake_replay(&replay, names, &settings_of(e, source)).map_err(|err| {
        let pos = match (&err, &e.joint_names) {
            (bake::ReplayError::NameCount { .. } | bake::ReplayError::EmptyName { .. }, Some(n)) => {
                n.pos
            }
            _ => e.source.pos,
        };
        JobError::at(pos, err.to_string())
    })?;
    write_cache(e, io, &cache)
}

fn run_cgeo(e: &Entry, io: &mut JobIo) -> Result<(), JobError> {
    let tolerance_m = e
        .rigid_tolerance_m
        .as_ref()
        .map_or(DEFAULT_RIGID_TOLERANCE_M, |t| t.value);
    let files = io.glob_matches(&e.source.value).to_vec();
    let mut tracks = Vec::with_capacity(files.len());
    for file in &files {
        let input = io.open(file, e.source.pos, cgeo::MAX_FILE_BYTES)?;
        let (track, input) = fit_file(e, file, input, tolerance_m)?;
        io.finish(input)?;
        let worst = track.worst;
        let (residual, unit) = cgeo_poses::residual_of(worst.residual, track.scale);
        io.note(format!(
            "{file} ({:?}): {} snapshots, worst rigid residual {residual:.3e} {unit} (snapshot {}, vertex {})",
            track.name,
            track.poses.len(),
            worst.snapshot,
            worst.vertex
        ));
        tracks.push(track);
    }
    let settings = cgeo_poses::Settings {
        shape: match e.shape.value {
            Shape::Box => cgeo_poses::ShapeKind::Box,
            _ => cgeo_poses::ShapeKind::Point,
        },
        rate_hz: e.rate_hz.as_ref().map(|r| r.value),
        dimensions: e.dimensions.value,
        start_step: e.start_step.value,
        label: e.label.value.clone(),
        scene: glob_file_name(&e.source.value).to_string(),
        replay: e.replay.value.clone(),
        library_version: crate::VERSION.to_string(),
    };
    let cache = cgeo_poses::bake(&tracks, &settings).map_err(|err| {
        let pos = match err {
            cgeo_poses::Error::TooManyFrames { .. } | cgeo_poses::Error::TooLarge { .. } => {
                e.rate_hz.as_ref().map_or(e.source.pos, |r| r.pos)
            }
            _ => e.source.pos,
        };
        JobError::at(pos, err.to_string())
    })?;
    write_cache(e, io, &cache)
}

/// One CGeo file's track, snapshot by snapshot (memory: one snapshot).
fn fit_file(
    e: &Entry,
    file: &RelPath,
    input: InputFile,
    tolerance_m: f64,
) -> Result<(cgeo_poses::Track, InputFile), JobError> {
    let mut input = input;
    let path = input.path().clone();
    let mut pieces = Pieces::new(input.len(), |offset, buf: &mut [u8]| input.read_exact_at(offset, buf));
    let result = fit_from(e, file, &mut pieces, tolerance_m);
    let track = pieces.settle(result, |failed| match failed {
        PieceFailed::Read(err) => err,
        PieceFailed::Limit(limit) => JobError::at(e.source.pos, format!("{path}: {limit}")),
    })?;
    Ok((track, input))
}

fn fit_from(
    e: &Entry,
    file: &RelPath,
    source: impl cgeo::Source,
    tolerance_m: f64,
) -> Result<cgeo_poses::Track, JobError> {
    let invalid = |err: cgeo::Error| JobError::at(e.source.pos, format!("{file}: invalid CGeo: {err}"));
    let fail = |err: cgeo_poses::Error| JobError::at(e.source.pos, err.to_string());
    let deforms = |err: cgeo_poses::Error| {
        JobError::at(
            e.rigid_tolerance_m.as_ref().map_or(e.source.pos, |t| t.pos),
            err.to_string(),
        )
    };
    let name = file.as_str();
    let mut reader = cgeo::Reader::open(source, false).map_err(invalid)?;
    let header = reader.header().clone();
    let first = reader.first_snapshot();
    let fitter = cgeo_poses::Fitter::new(name, &first.mesh, first.bounding_box).map_err(fail)?;
    let mut poses = Vec::with_capacity(reader.len());
    let mut worst = cgeo_poses::Worst::default();
    for k in 0..reader.len() {
        // Snapshot 0 was decoded when the file was opened.
        let later = if k == 0 {
            None
        } else {
            Some(reader.snapshot(k).map_err(invalid)?)
        };
        let mesh = later.as_ref().map_or(reader.first(), |s| &s.mesh);
        let (pose, fit) = fitter.pose(k, reader.first(), mesh).map_err(fail)?;
        cgeo_poses::check_rigid(name, k, &fit, header.scale, tolerance_m).map_err(deforms)?;
        if k == 0 || fit.worst_residual > worst.residual {
            worst = cgeo_poses::Worst {
                residual: fit.worst_residual,
                snapshot: k,
                vertex: fit.worst_index,
            };
        }
        poses.push(pose);
    }
    let object = header.object.trim();
    let track = cgeo_poses::Track {
        name: if object.is_empty() {
            file_stem(file.file_name()).to_string()
        } else {
            object.to_string()
        },
        file: name.to_string(),
        start_us: header.start_us,
        step_us: header.time_per_snapshot_us,
        scale: header.scale,
        half_extents: fitter.half_extents(),
        poses,
        worst,
    };
    Ok(track)
}

/// A file name without its last extension.
fn file_stem(name: &str) -> &str {
    name.rsplit_once('.').map_or(name, |(stem, _)| stem)
}

/// The last part of a glob (`debris-*.cgeo`), for the cache's scene.
fn glob_file_name(pattern: &str) -> &str {
    pattern.rsplit('/').next().unwrap_or(pattern)
}

/// Encodes the baked cache and writes it as the job's output.
fn write_cache(e: &Entry, io: &mut JobIo, cache: &ospc::PoseCache) -> Result<(), JobError> {
    let bytes = ospc::encode(cache).map_err(|err| {
        JobError::at(
            e.source.pos,
            format!("the baked pose cache is invalid: {err}"),
        )
    })?;
    let output = output_of(&e.id.value).map_err(JobError::job)?;
    io.write(&output, &bytes)
}

/// The baker's settings, from the entry's.
fn settings_of(e: &Entry, source: &RelPath) -> Settings {
    Settings {
        // Planning required it for glTF; a replay does not use it.
        rate_hz: e.rate_hz.as_ref().map_or(0.0, |r| r.value),
        entities: e.entities.value,
        shape: e.shape.value,
        size: e.size.as_ref().map_or([0.0; 3], |s| s.value),
        dimensions: e.dimensions.value,
        start_step: e.start_step.value,
        label: e.label.value.clone(),
        scene: source.file_name().to_string(),
        replay: e.replay.value.clone(),
        library_version: crate::VERSION.to_string(),
    }
}

/// Which setting a baking error is about.
fn blame(e: &Entry, err: bake::Error) -> JobError {
    let pos = match err {
        bake::Error::NoClipNamed { .. } | bake::Error::NoClipIndex { .. } => {
            e.animation.as_ref().map_or(e.source.pos, |a| a.pos)
        }
        bake::Error::NoJoints | bake::Error::NoNodes | bake::Error::TooManyEntities { .. } => {
            e.entities.pos
        }
        bake::Error::TooLarge { .. }
        | bake::Error::TooManyFrames { .. }
        | bake::Error::TooMuchWork { .. } => e.rate_hz.as_ref().map_or(e.source.pos, |r| r.pos),
        _ => e.source.pos,
    };
    JobError::at(pos, err.to_string())
}
