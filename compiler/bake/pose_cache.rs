//! Baking a clip (or a MotionBricks replay: [`bake_replay`]) into a
//! OneScope pose cache.
//!
//! Stages, in order:
//! 1. [`select_clip`]: the manifest's `animation` (a name, or an index) to a clip.
//! 2. [`select_entities`]: the skin joints (union of every skin, in skin then
//!    palette order) or every node; each gets a stable id and name.
//! 3. [`frame_times`]: [`frame_count`] frames at `k / rate_hz` seconds; the
//!    last is the clip's last key time, so that key is always baked when it
//!    falls on a frame (within float32 rounding: see
//!    [`sample::KEY_TIME_TOLERANCE`]).
//! 4. [`sample_poses`]: world-space position and rotation of each entity at
//!    each frame (2-D caches keep x, y and the twist about z).
//! 5. [`assemble`]: the header fields.
//!
//! **Cost.** Sampling evaluates, at each frame, the entities and their
//! ancestors (each node once, however many entities share it) and the
//! channels that animate them: frames × (those nodes + those channels)
//! evaluations, limited to [`MAX_EVALUATIONS`]. Nodes that are neither
//! entities nor their ancestors cost nothing per frame, so a file of many
//! nodes and few joints bakes as fast as a small one. Naming is linear in
//! the nodes (see [`select_entities`]).
//!
//! **Rotation of a mirrored transform.** A world matrix with a negative
//! determinant (a mirror in the hierarchy) has no rotation; kiln takes the
//! x axis from the matrix's first column, makes the second column
//! orthogonal to it for y, and sets z = x × y, so the reflection is put on
//! z: the rotation is that of the matrix with its z axis negated.

use std::borrow::Cow;
use std::collections::BTreeMap;

use crate::formats::mbreplay::Replay;
use crate::formats::ospc::{self, Entity, Pose, PoseCache, Shape};
use crate::model::math;
use crate::model::sample::{self, Evaluation};
use crate::model::{Clip, Scene};

/// Highest sampling rate a manifest may ask for: 10 kHz is far beyond any
/// animation's key rate and keeps frame counts within the format's limit for
/// clips up to 419 s.
pub const MAX_RATE_HZ: f64 = 10_000.0;

/// Whether `rate_hz` is a sampling rate (above 0, at most
/// [`MAX_RATE_HZ`]); the rule in words if not. Every kind that samples at
/// a `rate_hz` (pose caches, CGeo sequences) keeps this one rule.
pub fn rate_rule(rate_hz: f64) -> Result<(), String> {
    if rate_hz.is_finite() && rate_hz > 0.0 && rate_hz <= MAX_RATE_HZ {
        Ok(())
    } else {
        Err(format!(
            "rate_hz must be a number above 0 and at most {MAX_RATE_HZ}, found {rate_hz}"
        ))
    }
}

/// Most node evaluations one bake may take (frames × evaluated nodes and
/// channels, see the module's cost model): 2^31 is about a minute of work,
/// and far beyond a real clip (60 joints at 10 kHz for 60 s is 36 million).
pub const MAX_EVALUATIONS: u64 = 1 << 31;

/// Unit written into glTF-sourced caches: glTF's unit is the metre.
pub const UNIT_NAME: &str = "metre";
/// Module id written into every cache kiln bakes.
pub const MODULE_ID: &str = "kiln";

/// Which nodes become entities (the manifest's `entities`: `joints` or
/// `nodes`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EntitySet {
    /// The joints of the skins, in skin order then palette order, each once.
    Joints,
    /// Every node, in node order.
    Nodes,
}

/// How a manifest names a clip.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClipRef {
    Name(String),
    Index(usize),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub rate_hz: f64,
    pub entities: EntitySet,
    pub shape: Shape,
    /// Shape size (see `ospc::Entity::size`); zero for points.
    pub size: [f32; 3],
    /// 2 or 3.
    pub dimensions: u8,
    pub start_step: i64,
    pub label: String,
    /// The source file's name (no directory).
    pub scene: String,
    /// A plain file name or empty.
    pub replay: String,
    /// kiln's version, written as the library version.
    pub library_version: String,
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum Error {
    #[error("no animation named {name:?}; the source has {available}")]
    NoClipNamed { name: String, available: String },
    #[error("no animation with index {index}; the source has {count}")]
    NoClipIndex { index: usize, count: usize },
    #[error("the source has no skin, so it has no joints; use `entities: nodes`")]
    NoJoints,
    #[error("the source has no nodes")]
    NoNodes,
    #[error("{n_entities} entities is more than a pose cache holds ({max})")]
    TooManyEntities { n_entities: usize, max: u32 },
    #[error("entity name {name:?} is {len} bytes; a pose cache allows {max}")]
    NameTooLong {
        name: String,
        len: usize,
        max: usize,
    },
    #[error("entity names {a:?} and {b:?} hash to the same id")]
    IdCollision { a: String, b: String },
    #[error(
        "a clip of {duration_s:?} s at {rate_hz} Hz is more than the {max} frames a pose cache holds; lower rate_hz"
    )]
    TooManyFrames {
        duration_s: f32,
        rate_hz: f64,
        max: u32,
    },
    #[error(
        "{n_frames} frames of {n_entities} entities would exceed the pose cache's {max_mib} MiB limit; lower rate_hz or choose fewer entities"
    )]
    TooLarge {
        n_frames: u64,
        n_entities: usize,
        max_mib: usize,
    },
    #[error(
        "{n_frames} frames, each evaluating {per_frame} nodes and channels (the entities, their ancestors and their animation), is more than kiln's limit of {max} evaluations; lower rate_hz or choose fewer entities"
    )]
    TooMuchWork {
        n_frames: u64,
        per_frame: u64,
        max: u64,
    },
    #[error("the baked cache is invalid: {0}")]
    Invalid(String),
}

/// Bakes `clip_ref` of `scene` with `settings`, through every stage.
pub fn bake(scene: &Scene, clip_ref: &ClipRef, settings: &Settings) -> Result<PoseCache, Error> {
    let clip = select_clip(scene, clip_ref)?;
    let (nodes, entities) = select_entities(scene, settings)?;
    let times = frame_times(clip, settings.rate_hz, entities.len())?;
    let poses = sample_poses(
        scene,
        clip,
        &nodes,
        &times,
        settings.rate_hz,
        settings.dimensions,
    )?;
    Ok(assemble(entities, poses, settings))
}

/// Finds a clip by name (exact) or index.
pub fn select_clip<'a>(scene: &'a Scene, clip_ref: &ClipRef) -> Result<&'a Clip, Error> {
    match clip_ref {
        ClipRef::Name(name) => scene
            .clips
            .iter()
            .find(|c| c.name.as_deref() == Some(name.as_str()))
            .ok_or_else(|| Error::NoClipNamed {
                name: name.clone(),
                available: describe_clips(scene),
            }),
        ClipRef::Index(index) => scene.clips.get(*index).ok_or(Error::NoClipIndex {
            index: *index,
            count: scene.clips.len(),
        }),
    }
}

fn describe_clips(scene: &Scene) -> String {
    if scene.clips.is_empty() {
        return "no animations".to_string();
    }
    let names: Vec<String> = scene
        .clips
        .iter()
        .enumerate()
        .map(|(i, c)| match &c.name {
            Some(n) => format!("{n:?}"),
            None => format!("#{i} (unnamed)"),
        })
        .collect();
    names.join(", ")
}

/// The nodes that become entities, and their entity records.
///
/// Ids are stable across re-exports of the same rig: they hash the node's
/// name, not its index. A node without a name is named after what a
/// re-export keeps: `skin<s>.joint<j>` for a joint (its index `j` in `s`,
/// the first skin that lists it), else `child<i>` (its position among its
/// parent's children) or `root<i>` (its position among the parentless
/// nodes). Where names repeat among the chosen nodes, the '/'-joined
/// names from the root tell them apart, and a `#k` suffix (k-th repeat in
/// entity order) settles what still repeats. Linear in the nodes: path
/// lengths are summed once per node, and a path is only spelled out when
/// it fits a pose cache's name limit.
pub fn select_entities(
    scene: &Scene,
    settings: &Settings,
) -> Result<(Vec<usize>, Vec<Entity>), Error> {
    let nodes: Vec<usize> = match settings.entities {
        EntitySet::Nodes => (0..scene.nodes.len()).collect(),
        EntitySet::Joints => {
            let mut seen = vec![false; scene.nodes.len()];
            let mut joints = Vec::new();
            for skin in &scene.skins {
                for &j in &skin.joints {
                    if !std::mem::replace(&mut seen[j], true) {
                        joints.push(j);
                    }
                }
            }
            joints
        }
    };
    if nodes.is_empty() {
        return Err(match settings.entities {
            EntitySet::Joints => Error::NoJoints,
            EntitySet::Nodes => Error::NoNodes,
        });
    }
    if nodes.len() > ospc::MAX_ENTITIES as usize {
        return Err(Error::TooManyEntities {
            n_entities: nodes.len(),
            max: ospc::MAX_ENTITIES,
        });
    }
    let names = entity_names(scene, &nodes)?;
    let mut entities = Vec::with_capacity(nodes.len());
    let mut ids: Vec<(u64, usize)> = Vec::with_capacity(nodes.len());
    for (i, name) in names.into_iter().enumerate() {
        if name.len() > ospc::MAX_TEXT_BYTES {
            return Err(name_too_long(&name, name.len()));
        }
        let id = entity_id(&name);
        ids.push((id, i));
        entities.push(Entity {
            id,
            shape: settings.shape,
            size: settings.size,
            name,
        });
    }
    ids.sort_unstable();
    for pair in ids.windows(2) {
        if pair[0].0 == pair[1].0 {
            return Err(Error::IdCollision {
                a: entities[pair[0].1].name.clone(),
                b: entities[pair[1].1].name.clone(),
            });
        }
    }
    Ok((nodes, entities))
}

/// A name too long for a pose cache, shown by its last 60 bytes or so.
fn name_too_long(name: &str, len: usize) -> Error {
    let shown = if name.len() <= 64 {
        name.to_string()
    } else {
        let mut cut = name.len() - 60;
        while !name.is_char_boundary(cut) {
            cut += 1;
        }
        format!("...{}", &name[cut..])
    };
    Error::NameTooLong {
        name: shown,
        len,
        max: ospc::MAX_TEXT_BYTES,
    }
}

/// Every node's own label: its name, else what a re-export keeps of it
/// (see [`select_entities`]).
fn labels(scene: &Scene) -> Vec<Cow<'_, str>> {
    let mut labels: Vec<Option<Cow<str>>> = scene
        .nodes
        .iter()
        .map(|n| n.name.as_deref().map(Cow::Borrowed))
        .collect();
    for (s, skin) in scene.skins.iter().enumerate() {
        for (j, &node) in skin.joints.iter().enumerate() {
            if labels[node].is_none() {
                labels[node] = Some(Cow::Owned(format!("skin{s}.joint{j}")));
            }
        }
    }
    for (p, parent) in scene.nodes.iter().enumerate() {
        for (i, &child) in parent.children.iter().enumerate() {
            if labels[child].is_none() && scene.nodes[child].parent == Some(p) {
                labels[child] = Some(Cow::Owned(format!("child{i}")));
            }
        }
    }
    let mut n_roots = 0;
    for (node, label) in labels.iter_mut().enumerate() {
        if scene.nodes[node].parent.is_none() {
            if label.is_none() {
                *label = Some(Cow::Owned(format!("root{n_roots}")));
            }
            n_roots += 1;
        }
    }
    labels
        .into_iter()
        .map(|l| l.unwrap_or(Cow::Borrowed("")))
        .collect()
}

/// The length of each node's '/'-joined path from its root, for the nodes
/// `nodes` need (others stay `usize::MAX`); saturating.
fn path_lengths(scene: &Scene, labels: &[Cow<str>], nodes: &[usize]) -> Vec<usize> {
    let mut len = vec![usize::MAX; scene.nodes.len()];
    // Parents first, so each length is its parent's plus its own label.
    for x in scene.with_ancestors(nodes) {
        len[x] = match scene.nodes[x].parent {
            Some(p) => len[p].saturating_add(1).saturating_add(labels[x].len()),
            None => labels[x].len(),
        };
    }
    len
}

/// The path of `node`, known to be at most `len` bytes.
fn spell_path(scene: &Scene, labels: &[Cow<str>], node: usize, len: usize) -> String {
    let mut parts = Vec::new();
    let mut cur = Some(node);
    while let Some(x) = cur {
        parts.push(labels[x].as_ref());
        cur = scene.nodes[x].parent;
    }
    let mut out = String::with_capacity(len);
    for (i, part) in parts.iter().rev().enumerate() {
        if i > 0 {
            out.push('/');
        }
        out.push_str(part);
    }
    out
}

fn entity_names(scene: &Scene, nodes: &[usize]) -> Result<Vec<String>, Error> {
    let labels = labels(scene);
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for &n in nodes {
        *counts.entry(labels[n].as_ref()).or_default() += 1;
    }
    let path_len = path_lengths(scene, &labels, nodes);
    let mut names = Vec::with_capacity(nodes.len());
    for &n in nodes {
        let label = labels[n].as_ref();
        if label.len() > ospc::MAX_TEXT_BYTES {
            return Err(name_too_long(label, label.len()));
        }
        if counts[label] == 1 {
            names.push(label.to_string());
            continue;
        }
        let len = path_len[n];
        if len > ospc::MAX_TEXT_BYTES {
            // Spell out only the end, for the message.
            let tail = spell_path(scene, &labels, n, 0);
            return Err(name_too_long(&tail, len));
        }
        names.push(spell_path(scene, &labels, n, len));
    }
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    Ok(names
        .into_iter()
        .map(|name| {
            let repeat = seen.entry(name.clone()).or_default();
            let out = match *repeat {
                0 => name,
                k => format!("{name}#{k}"),
            };
            *repeat += 1;
            out
        })
        .collect())
}

/// The entity id of a name: the first 8 bytes (little endian) of
/// BLAKE3("kiln.ospc.entity.v1\0" + name), with 0 mapped to 1.
pub fn entity_id(name: &str) -> u64 {
    let mut hasher = blake3::Hasher::new();
    hasher.update(b"kiln.ospc.entity.v1\0");
    hasher.update(name.as_bytes());
    let bytes = hasher.finalize();
    let id = u64::from_le_bytes(bytes.as_bytes()[..8].try_into().expect("8 bytes"));
    id.max(1)
}

/// Frames in a clip of `duration_s` at `rate_hz`: one at 0 and one every
/// `1 / rate_hz` up to the last key, where a last key within float32
/// rounding of a frame time ([`sample::key_tolerance_s`]) counts as at it
/// (float32(50/30) = 1.6666666 is frame 50 of a 30 Hz clip, so 51 frames).
/// Saturates at `u64::MAX` for absurd products.
pub fn frame_count(duration_s: f64, rate_hz: f64) -> u64 {
    let x = duration_s * rate_hz;
    if !(0.0..9.0e15).contains(&x) {
        return u64::MAX;
    }
    let nearest = x.round();
    let frame_s = nearest / rate_hz;
    let last = if (duration_s - frame_s).abs() <= sample::key_tolerance_s(frame_s, rate_hz) {
        nearest
    } else {
        x.floor()
    };
    last as u64 + 1
}

/// The time of each frame, in seconds.
pub fn frame_times(clip: &Clip, rate_hz: f64, n_entities: usize) -> Result<Vec<f64>, Error> {
    let duration_s = clip.duration_s();
    let n_frames = frame_count(f64::from(duration_s), rate_hz);
    if n_frames > u64::from(ospc::MAX_FRAMES) {
        return Err(Error::TooManyFrames {
            duration_s,
            rate_hz,
            max: ospc::MAX_FRAMES,
        });
    }
    check_size(n_frames, n_entities)?;
    Ok((0..n_frames).map(|k| k as f64 / rate_hz).collect())
}

/// Whether `n_frames` poses of `n_entities` entities fit in a pose cache
/// ([`ospc::MAX_FILE_BYTES`]), before anything is sampled for them.
fn check_size(n_frames: u64, n_entities: usize) -> Result<(), Error> {
    let pose_bytes = n_frames
        .checked_mul(n_entities as u64)
        .and_then(|n| n.checked_mul(ospc::POSE_BYTES as u64));
    if pose_bytes.is_none_or(|b| b > ospc::MAX_FILE_BYTES as u64) {
        return Err(Error::TooLarge {
            n_frames,
            n_entities,
            max_mib: ospc::MAX_FILE_BYTES >> 20,
        });
    }
    Ok(())
}

/// Whether `n_frames` frames of `per_frame` evaluations each are within
/// [`MAX_EVALUATIONS`].
pub fn check_work(n_frames: u64, per_frame: u64) -> Result<(), Error> {
    if n_frames.saturating_mul(per_frame) > MAX_EVALUATIONS {
        return Err(Error::TooMuchWork {
            n_frames,
            per_frame,
            max: MAX_EVALUATIONS,
        });
    }
    Ok(())
}

/// World-space poses, frame-major; refused before any work if it would
/// take more than [`MAX_EVALUATIONS`].
pub fn sample_poses(
    scene: &Scene,
    clip: &Clip,
    nodes: &[usize],
    times: &[f64],
    rate_hz: f64,
    dimensions: u8,
) -> Result<Vec<Pose>, Error> {
    let mut eval = Evaluation::new(scene, clip, nodes);
    check_work(times.len() as u64, eval.cost_per_sample())?;
    let mut poses = Vec::with_capacity(times.len() * nodes.len());
    for &t in times {
        eval.evaluate(t, sample::key_tolerance_s(t, rate_hz));
        for &n in nodes {
            let world = eval.world(n);
            let p = math::mat4_translation(world);
            let q = math::mat4_rotation(world);
            let (p, q) = if dimensions == 2 {
                ([p[0], p[1], 0.0], math::quat_twist_z(q))
            } else {
                (p, q)
            };
            poses.push(Pose {
                position: p.map(|v| v as f32),
                rotation: q.map(|v| v as f32),
            });
        }
    }
    Ok(poses)
}

/// The finished document.
pub fn assemble(entities: Vec<Entity>, poses: Vec<Pose>, settings: &Settings) -> PoseCache {
    PoseCache {
        dimensions: settings.dimensions,
        start_step: settings.start_step,
        metres_per_unit: 1.0,
        unit_name: UNIT_NAME.to_string(),
        module_id: MODULE_ID.to_string(),
        library_version: settings.library_version.clone(),
        scene: settings.scene.clone(),
        replay: settings.replay.clone(),
        label: settings.label.clone(),
        entities,
        poses,
    }
}

/// Why a replay's joint names were refused.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ReplayError {
    #[error("joint_names has {given} names; the replay has {joints} joints")]
    NameCount { given: usize, joints: usize },
    #[error("joint_names[{index}] is empty")]
    EmptyName { index: usize },
    #[error(transparent)]
    Bake(#[from] Error),
}

/// Bakes a MotionBricks replay's animated joint world positions into a
/// pose cache: one entity per joint (id `index + 1`, named by `names` or
/// `joint_<index>`), one frame per replay frame, identity rotations (a 2-D
/// cache keeps x and y). `settings.rate_hz` and `settings.entities` do not
/// apply: the replay's frames are the cache's.
pub fn bake_replay(
    replay: &Replay,
    names: Option<&[String]>,
    settings: &Settings,
) -> Result<PoseCache, ReplayError> {
    let joints = replay.joints();
    let names: Vec<String> = match names {
        Some(given) if given.len() != joints => {
            return Err(ReplayError::NameCount {
                given: given.len(),
                joints,
            });
        }
        Some(given) => given.to_vec(),
        None => (0..joints).map(|j| format!("joint_{j}")).collect(),
    };
    if let Some(index) = names.iter().position(String::is_empty) {
        return Err(ReplayError::EmptyName { index });
    }
    if let Some(name) = names.iter().find(|n| n.len() > ospc::MAX_TEXT_BYTES) {
        return Err(name_too_long(name, name.len()).into());
    }
    check_size(replay.frames() as u64, joints)?;
    let entities = names
        .into_iter()
        .enumerate()
        .map(|(j, name)| Entity {
            id: j as u64 + 1,
            shape: settings.shape,
            size: settings.size,
            name,
        })
        .collect();
    let poses = replay
        .positions
        .iter()
        .map(|&[x, y, z]| Pose {
            position: if settings.dimensions == 2 {
                [x, y, 0.0]
            } else {
                [x, y, z]
            },
            rotation: [0.0, 0.0, 0.0, 1.0],
        })
        .collect();
    Ok(assemble(entities, poses, settings))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rate_rule_takes_what_is_above_0_and_at_most_the_limit() {
        for ok in [f64::MIN_POSITIVE, 1e-9, 30.0, MAX_RATE_HZ] {
            assert_eq!(rate_rule(ok), Ok(()), "{ok}");
        }
        for bad in [
            0.0,
            -0.0,
            -30.0,
            MAX_RATE_HZ.next_up(),
            f64::INFINITY,
            f64::NAN,
        ] {
            assert_eq!(
                rate_rule(bad),
                Err(format!(
                    "rate_hz must be a number above 0 and at most 10000, found {bad}"
                )),
                "{bad}"
            );
        }
    }
}
