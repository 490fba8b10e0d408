//! Baking a clip into a OneScope pose cache.
//!
//! Stages, in order:
//! 1. [`select_clip`]: the manifest's `animation` (a name, or an index) to a clip.
//! 2. [`select_entities`]: the skin joints (union of every skin, in skin then
//!    palette order) or every node; each gets a stable id and name.
//! 3. [`frame_times`]: `n = floor(duration * rate + 1e-6) + 1` frames at
//!    `k / rate_hz` seconds, so the last key is included when it falls on a
//!    frame.
//! 4. [`sample_poses`]: world-space position and rotation of each entity at
//!    each frame (2-D caches keep x, y and the twist about z).
//! 5. [`assemble`]: the header fields.

use crate::formats::ospc::{self, Entity, Pose, PoseCache, Shape};
use crate::model::math;
use crate::model::sample;
use crate::model::{Clip, Scene};

/// Highest sampling rate a manifest may ask for: 10 kHz is far beyond any
/// animation's key rate and keeps frame counts within the format's limit for
/// clips up to 419 s.
pub const MAX_RATE_HZ: f64 = 10_000.0;

/// Unit written into glTF-sourced caches: glTF's unit is the metre.
pub const UNIT_NAME: &str = "metre";
/// Module id written into every cache kiln bakes.
pub const MODULE_ID: &str = "kiln";

/// Which nodes become entities.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
        "{n_frames} frames of {n_entities} entities would exceed the pose cache's {max_mib} MiB limit; lower rate_hz or choose fewer entities"
    )]
    TooLarge {
        n_frames: u64,
        n_entities: usize,
        max_mib: usize,
    },
    #[error("the baked cache is invalid: {0}")]
    Invalid(String),
}

/// Bakes `clip_ref` of `scene` with `settings`, through every stage.
pub fn bake(scene: &Scene, clip_ref: &ClipRef, settings: &Settings) -> Result<PoseCache, Error> {
    let clip = select_clip(scene, clip_ref)?;
    let (nodes, entities) = select_entities(scene, settings)?;
    let times = frame_times(clip, settings.rate_hz, entities.len())?;
    let poses = sample_poses(scene, clip, &nodes, &times, settings.dimensions);
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
/// name, not its index. Where names repeat among the chosen nodes, the
/// '/'-joined names from the root tell them apart, and a `#k` suffix (k-th
/// repeat in entity order) settles what still repeats. Unnamed nodes are
/// called `node<index>`.
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
    let names = entity_names(scene, &nodes);
    let mut entities = Vec::with_capacity(nodes.len());
    let mut ids: Vec<(u64, usize)> = Vec::with_capacity(nodes.len());
    for (i, name) in names.into_iter().enumerate() {
        if name.len() > ospc::MAX_TEXT_BYTES {
            return Err(Error::NameTooLong {
                len: name.len(),
                name,
                max: ospc::MAX_TEXT_BYTES,
            });
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

fn node_name(scene: &Scene, node: usize) -> String {
    match &scene.nodes[node].name {
        Some(n) => n.clone(),
        None => format!("node{node}"),
    }
}

fn node_path(scene: &Scene, node: usize) -> String {
    let mut parts = vec![node_name(scene, node)];
    let mut cur = scene.nodes[node].parent;
    while let Some(p) = cur {
        parts.push(node_name(scene, p));
        cur = scene.nodes[p].parent;
    }
    parts.reverse();
    parts.join("/")
}

fn entity_names(scene: &Scene, nodes: &[usize]) -> Vec<String> {
    use std::collections::BTreeMap;
    let plain: Vec<String> = nodes.iter().map(|&n| node_name(scene, n)).collect();
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for name in &plain {
        *counts.entry(name).or_default() += 1;
    }
    let names: Vec<String> = nodes
        .iter()
        .zip(&plain)
        .map(|(&n, name)| match counts[name.as_str()] {
            1 => name.clone(),
            _ => node_path(scene, n),
        })
        .collect();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    names
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
        .collect()
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

/// The time of each frame, in seconds.
pub fn frame_times(clip: &Clip, rate_hz: f64, n_entities: usize) -> Result<Vec<f64>, Error> {
    let duration_s = f64::from(clip.duration_s());
    // rate_hz is validated by the manifest (finite, > 0, <= MAX_RATE_HZ);
    // the product stays well inside u64.
    let n_frames = (duration_s * rate_hz + 1e-6).floor() as u64 + 1;
    let pose_bytes = n_frames
        .checked_mul(n_entities as u64)
        .and_then(|n| n.checked_mul(28));
    let fits = n_frames <= u64::from(ospc::MAX_FRAMES)
        && pose_bytes.is_some_and(|b| b <= ospc::MAX_FILE_BYTES as u64);
    if !fits {
        return Err(Error::TooLarge {
            n_frames,
            n_entities,
            max_mib: ospc::MAX_FILE_BYTES >> 20,
        });
    }
    Ok((0..n_frames).map(|k| k as f64 / rate_hz).collect())
}

/// World-space poses, frame-major.
pub fn sample_poses(
    scene: &Scene,
    clip: &Clip,
    nodes: &[usize],
    times: &[f64],
    dimensions: u8,
) -> Vec<Pose> {
    let rest = sample::rest_pose(scene);
    let mut poses = Vec::with_capacity(times.len() * nodes.len());
    for &t in times {
        let local = sample::local_matrices(scene, &rest, clip, t);
        let world = sample::world_matrices(scene, &local);
        for &n in nodes {
            let p = math::mat4_translation(&world[n]);
            let q = math::mat4_rotation(&world[n]);
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
    poses
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
