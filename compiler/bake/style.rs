//! MotionBricks styles (`.mbstyle`) from the upstream clip file: which clip
//! becomes which style, under what name, speed and mask, and the set's
//! `manifest.json`. Pure: the clip file's header in, byte ranges to read
//! and styles out; the pipeline reads the ranges.
//!
//! The clip file (safetensors) holds, per clip c and frame f:
//! `global_root_positions` \[C,Fmax,3\], `global_joint_positions`
//! \[C,Fmax,34,3\], `global_joint_rotations` \[C,Fmax,34,3,3\],
//! `global_headings` \[C,Fmax\] (all F32) and `num_frames_per_clip` \[C\] (I32
//! or I64); `motion_feature` and `mujoco_qpos` are not used. A style is
//! clip c's first `num_frames_per_clip[c]` frames of the four arrays, the
//! rotations flattened row-major. `table: motionbricks-g1` selects the
//! official 15 with their names, speeds and masks and applies upstream's
//! two heading corrections (docs/formats/motionbricks.md).

use std::collections::BTreeMap;

use crate::formats::cursor::{le_f32_arrays, le_f32s};
use crate::formats::mbstyle::{self, JOINTS, MASK_LEN, Style};
use crate::formats::safetensors::{self, Dtype};

/// The set's `manifest.json` format.
pub const SET_FORMAT: &str = "motionbricks-style-bundle-v1";
/// The official clip file's SHA-256 (the runtime's pin for styles).
pub const CLIPS_PIN: &str = "7ea40c20130c8a9799d83c0438750b51a5be9b1e09357c4928887961fc992d33";

/// The official styles: (name, speed in m/s, allowed plan lengths: mask
/// entries 0..count set), at their clip index.
pub const OFFICIAL: [(&str, f32, usize); 15] = [
    ("idle", 0.0, 6),
    ("slow_walk", 0.3, 6),
    ("walk", 1.0, 6),
    ("hand_crawling", 0.5, 6),
    ("walk_boxing", 1.0, 11),
    ("elbow_crawling", 0.8, 11),
    ("stealth_walk", 1.0, 6),
    ("injured_walk", 0.5, 6),
    ("walk_stealth", 0.7, 6),
    ("walk_happy_dance", 1.0, 6),
    ("walk_zombie", 0.6, 6),
    ("walk_gun", 0.6, 6),
    ("walk_scared", 0.6, 6),
    ("walk_left", 0.2, 4),
    ("walk_right", 0.2, 4),
];

/// Upstream's corrections when it loads the official clips: clip 3
/// (hand_crawling) frame 0's heading is set to 0, and clip 5
/// (elbow_crawling) has 0.95 taken from every heading (float32 arithmetic,
/// as torch does it on the float32 tensor).
pub const HAND_CRAWLING: usize = 3;
pub const ELBOW_CRAWLING: usize = 5;
pub const ELBOW_CRAWLING_OFFSET: f32 = 0.95;

/// One style of a set: which clip, under what name.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub clip: usize,
    pub name: String,
    pub speed: f32,
    pub allowed_tokens: [i32; MASK_LEN],
    /// `motionbricks.style_index`: its place in the set.
    pub index: u32,
}

/// The official table as rows.
pub fn official_rows() -> Vec<Row> {
    OFFICIAL
        .iter()
        .enumerate()
        .map(|(i, &(name, speed, count))| {
            let mut allowed_tokens = [0; MASK_LEN];
            allowed_tokens[..count].fill(1);
            Row {
                clip: i,
                name: name.into(),
                speed,
                allowed_tokens,
                index: i as u32,
            }
        })
        .collect()
}

/// The four arrays a style is made of, in the clip file.
pub const ARRAYS: [(&str, u64); 4] = [
    ("global_headings", 1),
    ("global_joint_positions", (JOINTS * 3) as u64),
    ("global_joint_rotations", (JOINTS * 9) as u64),
    ("global_root_positions", 3),
];
pub const FRAME_COUNTS: &str = "num_frames_per_clip";

/// Where the clip file keeps what a style needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClipFile {
    pub clips: usize,
    pub max_frames: u64,
    /// Where each of [`ARRAYS`] starts in the file.
    pub arrays: [u64; 4],
    /// `num_frames_per_clip`: where it starts in the file, and whether it
    /// is I64.
    pub counts: (u64, Dtype),
}

/// Why a clip file's styles cannot be made. A rule of the file names its
/// byte (`at`): the tensor's header entry, the frame count, the value; a
/// tensor that is missing, the header (byte 8). `NoClip` and `Invalid` are
/// the manifest table's, which the caller names by its line.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Error {
    #[error(
        "at byte {at}: the clip file has no tensor {name:?} (it needs {})",
        needed()
    )]
    Missing { at: u64, name: &'static str },
    #[error(
        "at byte {at}: the clip's values need {bytes} bytes of memory, which could not be had: give kiln more memory"
    )]
    NoMemory { at: u64, bytes: u64 },
    #[error("at byte {at}: tensor {name:?} is {dtype} {shape:?}; a clip file's is {want}")]
    Layout {
        at: u64,
        name: &'static str,
        dtype: Dtype,
        shape: Vec<u64>,
        want: String,
    },
    #[error("the table names clip {clip}; the clip file has {clips} clips")]
    NoClip { clip: usize, clips: usize },
    #[error(
        "at byte {at}: num_frames_per_clip[{clip}] is {frames}; a style has {} to {} frames, and the file holds at most {max} per clip",
        mbstyle::MIN_FRAMES,
        mbstyle::MAX_FRAMES
    )]
    Frames {
        at: u64,
        clip: usize,
        frames: i64,
        max: u64,
    },
    #[error("at byte {at}: {array}[{index}] of clip {clip} is {value}, not finite")]
    NotFinite {
        at: u64,
        array: &'static str,
        clip: usize,
        index: usize,
        value: f32,
    },
    #[error("the style {name:?} is invalid: {problem}")]
    Invalid { name: String, problem: String },
}

fn needed() -> String {
    let mut names: Vec<&str> = ARRAYS.iter().map(|a| a.0).collect();
    names.push(FRAME_COUNTS);
    names.join(", ")
}

/// Checks the clip file's tensors and finds the arrays.
pub fn clip_file(h: &safetensors::Header) -> Result<ClipFile, Error> {
    let get = |name: &'static str| {
        h.tensor(name).ok_or(Error::Missing {
            at: safetensors::PREFIX_BYTES,
            name,
        })
    };
    let headings = get("global_headings")?;
    let (clips, max_frames) = match headings.shape[..] {
        [c, f] if headings.dtype == Dtype::F32 => (c, f),
        _ => {
            return Err(Error::Layout {
                at: headings.entry_at,
                name: "global_headings",
                dtype: headings.dtype,
                shape: headings.shape.to_vec(),
                want: "F32 [clips, frames]".into(),
            });
        }
    };
    let mut arrays = [0; 4];
    for (slot, &(name, per_frame)) in arrays.iter_mut().zip(&ARRAYS) {
        let t = get(name)?;
        let want: Vec<u64> = match name {
            "global_headings" => vec![clips, max_frames],
            "global_joint_positions" => vec![clips, max_frames, JOINTS as u64, 3],
            "global_joint_rotations" => vec![clips, max_frames, JOINTS as u64, 3, 3],
            _ => vec![clips, max_frames, 3],
        };
        debug_assert_eq!(want[2..].iter().product::<u64>(), per_frame);
        if t.dtype != Dtype::F32 || t.shape != want {
            return Err(Error::Layout {
                at: t.entry_at,
                name,
                dtype: t.dtype,
                shape: t.shape.to_vec(),
                want: format!("F32 {want:?}"),
            });
        }
        *slot = h.data_start() + t.begin;
    }
    let counts = get(FRAME_COUNTS)?;
    if !matches!(counts.dtype, Dtype::I32 | Dtype::I64) || counts.shape != [clips] {
        return Err(Error::Layout {
            at: counts.entry_at,
            name: FRAME_COUNTS,
            dtype: counts.dtype,
            shape: counts.shape.to_vec(),
            want: format!("I32 or I64 [{clips}]"),
        });
    }
    Ok(ClipFile {
        clips: usize::try_from(clips).unwrap_or(usize::MAX),
        max_frames,
        arrays,
        counts: (h.data_start() + counts.begin, counts.dtype),
    })
}

impl ClipFile {
    /// The file's byte range of `num_frames_per_clip[clip]`.
    pub fn count_range(&self, clip: usize) -> (u64, usize) {
        let size = self.counts.1.size();
        (self.counts.0 + clip as u64 * size, size as usize)
    }

    /// Reads a frame count from its bytes, checked against the limits.
    pub fn frames(&self, clip: usize, bytes: &[u8]) -> Result<usize, Error> {
        let frames = match bytes.len() {
            4 => i64::from(i32::from_le_bytes(bytes.try_into().expect("4 bytes"))),
            _ => i64::from_le_bytes(bytes.try_into().expect("8 bytes")),
        };
        let ok = usize::try_from(frames).ok().filter(|&n| {
            (mbstyle::MIN_FRAMES..=mbstyle::MAX_FRAMES).contains(&n) && n as u64 <= self.max_frames
        });
        ok.ok_or(Error::Frames {
            at: self.count_range(clip).0,
            clip,
            frames,
            max: self.max_frames,
        })
    }

    /// The file's byte range of array `a` of [`ARRAYS`] for the
    /// first `frames` frames of `clip`.
    pub fn array_range(&self, a: usize, clip: usize, frames: usize) -> (u64, usize) {
        let per_frame = ARRAYS[a].1 * 4;
        let start = self.arrays[a] + clip as u64 * self.max_frames * per_frame;
        (start, frames * per_frame as usize)
    }
}

/// Checks that every row names a clip of the file.
pub fn check_rows(rows: &[Row], file: &ClipFile) -> Result<(), Error> {
    match rows.iter().find(|r| r.clip >= file.clips) {
        Some(r) => Err(Error::NoClip {
            clip: r.clip,
            clips: file.clips,
        }),
        None => Ok(()),
    }
}

/// A style from a clip's four arrays (their bytes, in [`ARRAYS`] order,
/// read from `file`), with upstream's heading corrections when `official`.
/// A value that is not finite is named at its byte of the file.
pub fn style_of(
    row: &Row,
    file: &ClipFile,
    arrays: [&[u8]; 4],
    official: bool,
    source_sha256: &str,
) -> Result<Style, Error> {
    let no_memory = |a: usize| {
        let (at, _) = file.array_range(a, row.clip, 0);
        move |e: crate::memory::NoMemory| Error::NoMemory { at, bytes: e.bytes }
    };
    let mut headings = le_f32s(arrays[0]).map_err(no_memory(0))?;
    let joint_positions: Vec<[f32; 3]> = le_f32_arrays(arrays[1]).map_err(no_memory(1))?;
    let joint_rotations: Vec<[f32; 9]> = le_f32_arrays(arrays[2]).map_err(no_memory(2))?;
    let root_positions: Vec<[f32; 3]> = le_f32_arrays(arrays[3]).map_err(no_memory(3))?;
    let values = [
        &headings[..],
        joint_positions.as_flattened(),
        joint_rotations.as_flattened(),
        root_positions.as_flattened(),
    ];
    for (a, values) in values.into_iter().enumerate() {
        if let Some(index) = values.iter().position(|v| !v.is_finite()) {
            let (start, _) = file.array_range(a, row.clip, 0);
            return Err(Error::NotFinite {
                at: start + 4 * index as u64,
                array: ARRAYS[a].0,
                clip: row.clip,
                index,
                value: values[index],
            });
        }
    }
    if official
        && row.clip == HAND_CRAWLING
        && let Some(h) = headings.first_mut()
    {
        *h = 0.0;
    }
    if official && row.clip == ELBOW_CRAWLING {
        for h in &mut headings {
            *h -= ELBOW_CRAWLING_OFFSET;
        }
    }
    let style = Style {
        name: row.name.clone(),
        speed: row.speed,
        index: row.index,
        source_sha256: source_sha256.into(),
        allowed_tokens: row.allowed_tokens,
        headings,
        joint_positions,
        joint_rotations,
        root_positions,
    };
    let problems = mbstyle::validate(&style);
    match problems.into_iter().next() {
        Some(problem) => Err(Error::Invalid {
            name: row.name.clone(),
            problem: problem.to_string(),
        }),
        None => Ok(style),
    }
}

/// A style as the set's `manifest.json` lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetEntry {
    pub name: String,
    pub sha256: String,
    pub parameter_count: u64,
}

/// The file a style is written to.
pub fn file_name(name: &str) -> String {
    format!("{name}.mbstyle")
}

/// The set's `manifest.json`, byte for byte as Python's `json.dumps(x,
/// indent=2, sort_keys=True)` plus a newline. Names are plain (letters,
/// digits, `_`, `-`, `.`), so nothing needs escaping.
pub fn set_manifest(entries: &[SetEntry]) -> String {
    let by_name: BTreeMap<&str, &SetEntry> = entries.iter().map(|e| (e.name.as_str(), e)).collect();
    let mut s = format!("{{\n  \"format\": \"{SET_FORMAT}\",\n  \"styles\": {{");
    for (i, (name, e)) in by_name.iter().enumerate() {
        s.push_str(if i == 0 { "\n" } else { ",\n" });
        s.push_str(&format!(
            "    \"{name}\": {{\n      \"parameter_count\": {},\n      \"path\": \"{}\",\n      \"sha256\": \"{}\",\n      \"tensor_count\": {}\n    }}",
            e.parameter_count,
            file_name(name),
            e.sha256,
            mbstyle::TENSORS.len()
        ));
    }
    s.push_str(if by_name.is_empty() {
        "}\n}\n"
    } else {
        "\n  }\n}\n"
    });
    s
}

// ---------------------------------------------------------------------------
// A style from a G1 animation in a glTF scene.

/// Frames per second of a style (the G1 skeleton's rate).
pub const STYLE_RATE_HZ: f64 = 30.0;

/// Why a glTF animation cannot become a style.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum GltfError {
    #[error("{} of the 34 G1 joints are not in the source: {}; name them in `joints:` (G1 name: node name) if the rig calls them otherwise", missing.len(), missing.join(", "))]
    MissingJoints { missing: Vec<String> },
    #[error(
        "G1 joint {joint} is matched to node name {node:?}, which {count} nodes have; a match must be unique"
    )]
    AmbiguousJoint {
        joint: &'static str,
        node: String,
        count: usize,
    },
    #[error("`joints:` maps {name:?}, which is not a G1 joint name")]
    UnknownJoint { name: String },
    #[error(
        "the clip gives {frames} frames at 30 fps; a style has {} to {}",
        mbstyle::MIN_FRAMES,
        mbstyle::MAX_FRAMES
    )]
    Frames { frames: u64 },
    #[error("the style is invalid: {0}")]
    Invalid(String),
}

/// What a style from an animation is given.
#[derive(Clone, Debug, PartialEq)]
pub struct GltfStyle {
    pub name: String,
    /// `None`: measured as the average horizontal root speed.
    pub speed: Option<f32>,
    pub allowed_tokens: [i32; MASK_LEN],
    /// G1 joint name -> node name, for rigs that name joints otherwise.
    pub joint_names: BTreeMap<String, String>,
    pub source_sha256: String,
}

/// The nodes of the 34 G1 joints, in G1 order.
pub fn match_joints(
    scene: &crate::model::Scene,
    joint_names: &BTreeMap<String, String>,
) -> Result<Vec<usize>, GltfError> {
    use crate::formats::motionbricks::G1_JOINTS;
    if let Some(name) = joint_names
        .keys()
        .find(|k| !G1_JOINTS.iter().any(|(j, _)| j == k))
    {
        return Err(GltfError::UnknownJoint { name: name.clone() });
    }
    let mut by_name: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, n) in scene.nodes.iter().enumerate() {
        if let Some(name) = &n.name {
            by_name.entry(name.as_str()).or_default().push(i);
        }
    }
    let mut nodes = Vec::with_capacity(JOINTS);
    let mut missing = Vec::new();
    for &(joint, _) in &G1_JOINTS {
        let node = joint_names.get(joint).map_or(joint, String::as_str);
        match by_name.get(node).map(Vec::as_slice) {
            Some([one]) => nodes.push(*one),
            Some(many) => {
                return Err(GltfError::AmbiguousJoint {
                    joint,
                    node: node.into(),
                    count: many.len(),
                });
            }
            None => missing.push(if node == joint {
                joint.to_string()
            } else {
                format!("{joint} (as {node:?})")
            }),
        }
    }
    if missing.is_empty() {
        Ok(nodes)
    } else {
        Err(GltfError::MissingJoints { missing })
    }
}

/// Samples `clip` at 30 fps and makes the style: world rotations and
/// positions by forward kinematics, the pelvis projected on the ground as
/// the root (y = 0), joint positions relative to it (the pelvis keeps its
/// height), headings `atan2(d.x, d.z)` of the pelvis +Z axis `d`. glTF's
/// axes (Y up, Z forward, +X left) are the style's. Returns the style and
/// whether its speed was measured.
pub fn style_from_clip(
    scene: &crate::model::Scene,
    clip: &crate::model::Clip,
    s: &GltfStyle,
    index: u32,
) -> Result<(Style, bool), GltfError> {
    use crate::model::{math, sample};
    let nodes = match_joints(scene, &s.joint_names)?;
    let frames = crate::bake::pose_cache::frame_count(f64::from(clip.duration_s()), STYLE_RATE_HZ);
    if !(mbstyle::MIN_FRAMES as u64..=mbstyle::MAX_FRAMES as u64).contains(&frames) {
        return Err(GltfError::Frames { frames });
    }
    let n = frames as usize;
    let mut eval = sample::Evaluation::new(scene, clip, &nodes);
    let mut headings = Vec::with_capacity(n);
    let mut roots = Vec::with_capacity(n);
    let mut positions = Vec::with_capacity(n * JOINTS);
    let mut rotations = Vec::with_capacity(n * JOINTS);
    let mut path = 0.0f64;
    let mut last: Option<[f64; 2]> = None;
    for k in 0..n {
        let t = k as f64 / STYLE_RATE_HZ;
        eval.evaluate(t, sample::key_tolerance_s(t, STYLE_RATE_HZ));
        let pelvis = math::mat4_translation(eval.world(nodes[0]));
        let root = [pelvis[0], 0.0, pelvis[2]];
        if let Some([x, z]) = last {
            let (dx, dz) = (root[0] - x, root[2] - z);
            path += (dx * dx + dz * dz).sqrt();
        }
        last = Some([root[0], root[2]]);
        for (j, &node) in nodes.iter().enumerate() {
            let world = eval.world(node);
            let p = math::mat4_translation(world);
            let r = math::quat_to_mat3(math::mat4_rotation(world));
            if j == 0 {
                // The pelvis +Z axis is the rotation's third column.
                headings.push(libm::atan2(r[2], r[8]) as f32);
            }
            positions.push([
                (p[0] - root[0]) as f32,
                (p[1] - root[1]) as f32,
                (p[2] - root[2]) as f32,
            ]);
            rotations.push(r.map(|v| v as f32));
        }
        roots.push(root.map(|v| v as f32));
    }
    let measured = s.speed.is_none();
    let speed = s
        .speed
        .unwrap_or_else(|| (path / ((n - 1) as f64 / STYLE_RATE_HZ)) as f32);
    let style = Style {
        name: s.name.clone(),
        speed,
        index,
        source_sha256: s.source_sha256.clone(),
        allowed_tokens: s.allowed_tokens,
        headings,
        joint_positions: positions,
        joint_rotations: rotations,
        root_positions: roots,
    };
    match mbstyle::validate(&style).into_iter().next() {
        Some(p) => Err(GltfError::Invalid(p.to_string())),
        None => Ok((style, measured)),
    }
}
