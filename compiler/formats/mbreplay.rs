//! MotionBricks portable observational replay, version 1 (`.mbreplay`).
//! Spec: `docs/formats/mbreplay.md` (from the seed's format registry).
//!
//! A replay is a captured MotionBricks session: a 40-byte header (the magic
//! `MBRPLY1\0` and eight u32: version, frames per second, frame count,
//! joint count, qpos count, plan count, target frames per plan, flags),
//! then, packed and little-endian, the joints' parents, each frame's mode
//! and active plan, each frame's MuJoCo qpos and animated joint world
//! positions, and per plan its first playback frame, mode, generated
//! length and target joint world positions.
//!
//! The codec is pure: bytes in, values out. [`decode`] checks the header's
//! dimensions against their limits and the exact file size they imply
//! before allocating anything, so a hostile header costs nothing; every
//! rule broken is one [`Error`] variant with its byte offset.
//!
//! # Strict readings (decided in the spec doc)
//!
//! - joint 0 is the root (parent −1); every other parent is an earlier
//!   joint, which also rules out cycles;
//! - an active plan is −1 (pre-roll) or the index of a plan;
//! - a plan's first playback frame is a frame of the replay, and its
//!   generated length is at least 1 frame;
//! - modes (per frame and per plan) are kept as they are: the seed does not
//!   enumerate them;
//! - every float is finite.

use std::fmt;

use super::cursor::{self, Cursor, le_f32_arrays, le_f32s as f32s, le_i32s as i32s, le_u32s};

/// The first eight bytes of every replay.
pub const MAGIC: [u8; 8] = *b"MBRPLY1\0";
/// The only version this codec reads and writes.
pub const VERSION: u32 = 1;
/// Bytes of the header: the magic and eight u32.
pub const HEADER_BYTES: usize = 40;
/// Frames each plan's targets hold (the seed's fixed value).
pub const TARGET_FRAMES: u32 = 4;
/// Most bytes a replay may have: 256 MiB, as a pose cache (a replay bakes
/// into one, and ten minutes of a 30-joint session at 50 fps is 16 MB).
pub const MAX_FILE_BYTES: usize = 256 << 20;
/// Highest frame rate: 1,000 fps (MuJoCo's own step is 2 ms; sessions are
/// recorded at 30 or 50).
pub const MAX_FPS: u32 = 1000;
/// Most frames: 2^22, a pose cache's limit (a replay frame is a cache
/// frame).
pub const MAX_FRAMES: u32 = 4_194_304;
/// Most joints: 256 (the G1 replay has 30: the root and 29 bodies).
pub const MAX_JOINTS: u32 = 256;
/// Most qpos values per frame: 1,024 (the G1 has 36: 7 for the floating
/// base and 29 hinges).
pub const MAX_QPOS: u32 = 1024;

/// Byte offsets of the header fields.
pub mod offsets {
    pub const MAGIC: usize = 0;
    pub const VERSION: usize = 8;
    pub const FPS: usize = 12;
    pub const FRAMES: usize = 16;
    pub const JOINTS: usize = 20;
    pub const QPOS: usize = 24;
    pub const PLANS: usize = 28;
    pub const TARGET_FRAMES: usize = 32;
    pub const FLAGS: usize = 36;
    /// The parents start here.
    pub const PAYLOAD: usize = 40;
}

/// One plan of the session.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The frame at which the plan's playback starts.
    pub first_frame: u32,
    pub mode: i32,
    /// Frames the planner generated.
    pub length: u32,
    /// [`TARGET_FRAMES`] × joints world positions, frame-major.
    pub targets: Vec<[f32; 3]>,
}

/// A decoded replay. `modes`, `active_plan` have one value per frame;
/// `qpos` holds `qpos_count` values per frame and `positions` one per
/// joint per frame, frame-major.
#[derive(Clone, Debug, PartialEq)]
pub struct Replay {
    pub fps: u32,
    pub parents: Vec<i32>,
    pub modes: Vec<i32>,
    pub active_plan: Vec<i32>,
    pub qpos_count: u32,
    pub qpos: Vec<f32>,
    pub positions: Vec<[f32; 3]>,
    pub plans: Vec<Plan>,
}

impl Replay {
    pub fn frames(&self) -> usize {
        self.modes.len()
    }

    pub fn joints(&self) -> usize {
        self.parents.len()
    }

    /// Joint `j`'s world position at frame `f`.
    pub fn position(&self, f: usize, j: usize) -> Option<[f32; 3]> {
        if j >= self.joints() {
            return None;
        }
        self.positions
            .get(f.checked_mul(self.joints())? + j)
            .copied()
    }
}

/// The payload's size for these dimensions, `None` past `u64`.
pub fn payload_bytes(frames: u64, joints: u64, qpos: u64, plans: u64) -> Option<u64> {
    let per_frame = 8u64
        .checked_add(qpos.checked_mul(4)?)?
        .checked_add(joints.checked_mul(12)?)?;
    let per_plan = 12u64.checked_add(joints.checked_mul(12 * u64::from(TARGET_FRAMES))?)?;
    joints
        .checked_mul(4)?
        .checked_add(frames.checked_mul(per_frame)?)?
        .checked_add(plans.checked_mul(per_plan)?)
}

/// Which float array a non-finite value is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatField {
    Qpos,
    Positions,
    Targets,
}

impl FloatField {
    fn name(self) -> &'static str {
        match self {
            FloatField::Qpos => "qpos",
            FloatField::Positions => "animated joint world positions",
            FloatField::Targets => "target joint world positions",
        }
    }
}

/// Why [`decode`] or [`encode`] failed: one variant per rule, each with
/// its byte offset ([`Error::offset`]; header fields sit at fixed offsets).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// More than [`MAX_FILE_BYTES`].
    FileTooLarge {
        len: u64,
    },
    Magic {
        found: [u8; 8],
    },
    Version {
        found: u32,
    },
    Fps {
        found: u32,
    },
    Frames {
        found: u32,
    },
    Joints {
        found: u32,
    },
    Qpos {
        found: u32,
    },
    /// More plans than frames (each plan starts at a frame of its own).
    Plans {
        found: u32,
        frames: u32,
    },
    TargetFrames {
        found: u32,
    },
    Flags {
        found: u32,
    },
    /// The input is not exactly the header plus the payload its dimensions
    /// give (`expected` is `None` past u64).
    Size {
        expected: Option<u64>,
        len: usize,
    },
    /// Joint 0's parent is not −1.
    RootParent {
        offset: u64,
        found: i32,
    },
    /// A parent that is not an earlier joint.
    Parent {
        offset: u64,
        joint: usize,
        found: i32,
    },
    /// An active plan that is neither −1 nor a plan's index.
    ActivePlan {
        offset: u64,
        frame: usize,
        found: i32,
        plans: usize,
    },
    /// A plan's first playback frame past the last frame.
    FirstFrame {
        offset: u64,
        plan: usize,
        found: u32,
        frames: usize,
    },
    /// A plan that generated no frame.
    PlanLength {
        offset: u64,
        plan: usize,
    },
    /// A NaN or infinity (`index` counts floats from the array's start).
    NotFinite {
        offset: u64,
        field: FloatField,
        index: usize,
        bits: u32,
    },
    /// A byte-level rule of the shared cursor.
    Bytes(cursor::Error),
    /// [`encode`] was given a replay that [`validate`] rejects. Never
    /// empty.
    Invalid(Vec<Problem>),
}

pub use super::problem::Problem;

impl std::error::Error for Error {}

impl From<cursor::Error> for Error {
    fn from(e: cursor::Error) -> Error {
        Error::Bytes(e)
    }
}

impl Error {
    /// The byte offset of a decode error; `None` for [`Error::Invalid`].
    pub fn offset(&self) -> Option<u64> {
        Some(match self {
            Error::FileTooLarge { .. } => MAX_FILE_BYTES as u64,
            Error::Magic { .. } => offsets::MAGIC as u64,
            Error::Version { .. } => offsets::VERSION as u64,
            Error::Fps { .. } => offsets::FPS as u64,
            Error::Frames { .. } => offsets::FRAMES as u64,
            Error::Joints { .. } => offsets::JOINTS as u64,
            Error::Qpos { .. } => offsets::QPOS as u64,
            Error::Plans { .. } => offsets::PLANS as u64,
            Error::TargetFrames { .. } => offsets::TARGET_FRAMES as u64,
            Error::Flags { .. } => offsets::FLAGS as u64,
            Error::Size { expected, len } => match expected {
                Some(e) => (*e).min(*len as u64),
                None => offsets::FRAMES as u64,
            },
            Error::RootParent { offset, .. }
            | Error::Parent { offset, .. }
            | Error::ActivePlan { offset, .. }
            | Error::FirstFrame { offset, .. }
            | Error::PlanLength { offset, .. }
            | Error::NotFinite { offset, .. } => *offset,
            Error::Bytes(e) => e.offset(),
            Error::Invalid(_) => return None,
        })
    }

    /// The rule and what broke it, without the offset.
    fn rule(&self) -> String {
        match self {
            Error::FileTooLarge { len } => {
                format!("a replay of at most {MAX_FILE_BYTES} bytes (256 MiB), found {len} bytes")
            }
            Error::Magic { found } => format!(
                "magic must be \"MBRPLY1\\0\", found \"{}\"",
                found.escape_ascii()
            ),
            Error::Version { found } => format!("version must be {VERSION}, found {found}"),
            Error::Fps { found } => format!("fps must be 1 to {MAX_FPS}, found {found}"),
            Error::Frames { found } => {
                format!("frame count must be 1 to {MAX_FRAMES}, found {found}")
            }
            Error::Joints { found } => {
                format!("joint count must be 1 to {MAX_JOINTS}, found {found}")
            }
            Error::Qpos { found } => {
                format!("qpos count must be at most {MAX_QPOS}, found {found}")
            }
            Error::Plans { found, frames } => {
                format!("plan count must be at most the frame count {frames}, found {found}")
            }
            Error::TargetFrames { found } => {
                format!("target frames per plan must be {TARGET_FRAMES}, found {found}")
            }
            Error::Flags { found } => format!("flags must be 0, found {found}"),
            Error::Size { expected, len } => match expected {
                Some(e) => {
                    format!("exactly {e} bytes for the header's dimensions, found {len} bytes")
                }
                None => format!("dimensions whose size fits in 64 bits, found {len} bytes"),
            },
            Error::RootParent { found, .. } => {
                format!("parents[0] must be -1 (joint 0 is the root), found {found}")
            }
            Error::Parent { joint, found, .. } => format!(
                "parents[{joint}] must be an earlier joint (0 to {}), found {found}",
                joint - 1
            ),
            Error::ActivePlan {
                frame,
                found,
                plans,
                ..
            } => format!(
                "active plan of frame {frame} must be -1 (pre-roll) or a plan index below \
                 {plans}, found {found}"
            ),
            Error::FirstFrame {
                plan,
                found,
                frames,
                ..
            } => format!(
                "first playback frame of plan {plan} must be below the frame count {frames}, \
                 found {found}"
            ),
            Error::PlanLength { plan, .. } => {
                format!("generated length of plan {plan} must be at least 1 frame, found 0")
            }
            Error::NotFinite {
                field, index, bits, ..
            } => format!(
                "{}[{index}] must be finite, found {}",
                field.name(),
                show_f32(*bits)
            ),
            Error::Bytes(e) => e.to_string(),
            Error::Invalid(problems) => invalid_message(problems),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Bytes(e) => write!(f, "{e}"),
            Error::Invalid(problems) => f.write_str(&invalid_message(problems)),
            e => write!(f, "at byte {}: {}", e.offset().unwrap_or(0), e.rule()),
        }
    }
}

fn show_f32(bits: u32) -> String {
    let v = f32::from_bits(bits);
    if v.is_nan() {
        format!("NaN (bits {bits:#010x})")
    } else {
        format!("{v:?}")
    }
}

fn invalid_message(problems: &[Problem]) -> String {
    let mut s = format!(
        "replay is not valid ({} problem{})",
        problems.len(),
        if problems.len() == 1 { "" } else { "s" }
    );
    for (i, p) in problems.iter().take(5).enumerate() {
        s.push_str(if i == 0 { ": " } else { "; " });
        s.push_str(&p.to_string());
    }
    if problems.len() > 5 {
        s.push_str(&format!("; and {} more", problems.len() - 5));
    }
    s
}

// ---------------------------------------------------------------------------
// Rules shared by decode and validate.

fn rule_range(found: u32, min: u32, max: u32, err: fn(u32) -> Error) -> Result<(), Error> {
    if (min..=max).contains(&found) {
        Ok(())
    } else {
        Err(err(found))
    }
}

fn rule_parent(offset: usize, joint: usize, found: i32) -> Result<(), Error> {
    if joint == 0 {
        return match found {
            -1 => Ok(()),
            _ => Err(Error::RootParent {
                offset: offset as u64,
                found,
            }),
        };
    }
    match usize::try_from(found) {
        Ok(p) if p < joint => Ok(()),
        _ => Err(Error::Parent {
            offset: offset as u64,
            joint,
            found,
        }),
    }
}

fn rule_active_plan(offset: usize, frame: usize, found: i32, plans: usize) -> Result<(), Error> {
    let ok = found == -1 || usize::try_from(found).is_ok_and(|p| p < plans);
    if ok {
        Ok(())
    } else {
        Err(Error::ActivePlan {
            offset: offset as u64,
            frame,
            found,
            plans,
        })
    }
}

/// `at` is the byte offsets of the plan's first frame and its length.
fn rule_plan(at: (usize, usize), plan: usize, p: (u32, u32), frames: usize) -> Result<(), Error> {
    let (first, length) = p;
    if usize::try_from(first).map_or(true, |f| f >= frames) {
        return Err(Error::FirstFrame {
            offset: at.0 as u64,
            plan,
            found: first,
            frames,
        });
    }
    if length == 0 {
        return Err(Error::PlanLength {
            offset: at.1 as u64,
            plan,
        });
    }
    Ok(())
}

/// The first non-finite value of `values` (which start at `offset`).
fn rule_finite(offset: usize, field: FloatField, values: &[f32]) -> Result<(), Error> {
    match values.iter().position(|v| !v.is_finite()) {
        None => Ok(()),
        Some(index) => Err(Error::NotFinite {
            offset: (offset + 4 * index) as u64,
            field,
            index,
            bits: values[index].to_bits(),
        }),
    }
}

/// Checks a file size against [`MAX_FILE_BYTES`] (a caller may do it
/// before reading the file).
pub fn check_file_size(len: u64) -> Result<(), Error> {
    if len <= MAX_FILE_BYTES as u64 {
        Ok(())
    } else {
        Err(Error::FileTooLarge { len })
    }
}

// ---------------------------------------------------------------------------
// Decode.

/// Reads a replay. The result is valid: [`validate`] finds no problem in
/// it and [`encode`] gives back `bytes` exactly.
pub fn decode(bytes: &[u8]) -> Result<Replay, Error> {
    check_file_size(bytes.len() as u64)?;
    let mut r = Cursor::new(bytes);
    let magic = r.array::<8>("magic")?;
    if magic != MAGIC {
        return Err(Error::Magic { found: magic });
    }
    let version = r.u32("version")?;
    if version != VERSION {
        return Err(Error::Version { found: version });
    }
    let fps = r.u32("fps")?;
    rule_range(fps, 1, MAX_FPS, |found| Error::Fps { found })?;
    let frames = r.u32("frame count")?;
    rule_range(frames, 1, MAX_FRAMES, |found| Error::Frames { found })?;
    let joints = r.u32("joint count")?;
    rule_range(joints, 1, MAX_JOINTS, |found| Error::Joints { found })?;
    let qpos = r.u32("qpos count")?;
    rule_range(qpos, 0, MAX_QPOS, |found| Error::Qpos { found })?;
    let plans = r.u32("plan count")?;
    if plans > frames {
        return Err(Error::Plans {
            found: plans,
            frames,
        });
    }
    let target_frames = r.u32("target frames per plan")?;
    if target_frames != TARGET_FRAMES {
        return Err(Error::TargetFrames {
            found: target_frames,
        });
    }
    let flags = r.u32("flags")?;
    if flags != 0 {
        return Err(Error::Flags { found: flags });
    }
    // The exact size, before anything is allocated.
    let expected = payload_bytes(frames.into(), joints.into(), qpos.into(), plans.into())
        .and_then(|p| p.checked_add(HEADER_BYTES as u64));
    if expected != Some(bytes.len() as u64) {
        return Err(Error::Size {
            expected,
            len: bytes.len(),
        });
    }
    // Every size below is bounded by the file's, which was just checked.
    let (nf, nj, nq, np) = (
        frames as usize,
        joints as usize,
        qpos as usize,
        plans as usize,
    );

    let at = r.offset();
    let parents = r.values(4 * nj, "parents", i32s)?;
    for (j, &p) in parents.iter().enumerate() {
        rule_parent(at + 4 * j, j, p)?;
    }
    let modes = r.values(4 * nf, "modes", i32s)?;
    let at = r.offset();
    let active_plan = r.values(4 * nf, "active plans", i32s)?;
    for (f, &a) in active_plan.iter().enumerate() {
        rule_active_plan(at + 4 * f, f, a, np)?;
    }
    let at = r.offset();
    let qpos_values = r.values(4 * nf * nq, "qpos", f32s)?;
    rule_finite(at, FloatField::Qpos, &qpos_values)?;
    let at = r.offset();
    let positions = r.values(
        12 * nf * nj,
        "animated joint world positions",
        le_f32_arrays::<3>,
    )?;
    rule_finite(at, FloatField::Positions, positions.as_flattened())?;
    let first = r.values(4 * np, "first playback frames", le_u32s)?;
    let mode = r.values(4 * np, "plan modes", i32s)?;
    let length = r.values(4 * np, "generated plan lengths", le_u32s)?;
    let at = r.offset();
    let targets = r.values(
        48 * np * nj,
        "target joint world positions",
        le_f32_arrays::<3>,
    )?;
    rule_finite(at, FloatField::Targets, targets.as_flattened())?;
    r.finish("replay")?;

    let first_at = offsets::PAYLOAD + 4 * nj + 8 * nf + 4 * nf * nq + 12 * nf * nj;
    let mut out_plans = Vec::with_capacity(np);
    let per_plan = TARGET_FRAMES as usize * nj;
    for p in 0..np {
        let at = (first_at + 4 * p, first_at + 8 * np + 4 * p);
        rule_plan(at, p, (first[p], length[p]), nf)?;
        out_plans.push(Plan {
            first_frame: first[p],
            mode: mode[p],
            length: length[p],
            targets: targets[p * per_plan..(p + 1) * per_plan].to_vec(),
        });
    }
    Ok(Replay {
        fps,
        parents,
        modes,
        active_plan,
        qpos_count: qpos,
        qpos: qpos_values,
        positions,
        plans: out_plans,
    })
}

// ---------------------------------------------------------------------------
// Validate and encode.

/// Every problem that would stop [`encode`]. Empty when valid.
pub fn validate(r: &Replay) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut rule = |path: String, result: Result<(), Error>| {
        if let Err(e) = result {
            problems.push(Problem::of(path, e.rule()));
        }
    };
    let (nf, nj, np) = (r.frames(), r.joints(), r.plans.len());
    let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    rule(
        "fps".into(),
        rule_range(r.fps, 1, MAX_FPS, |found| Error::Fps { found }),
    );
    rule(
        "modes".into(),
        rule_range(count(nf), 1, MAX_FRAMES, |found| Error::Frames { found }),
    );
    rule(
        "parents".into(),
        rule_range(count(nj), 1, MAX_JOINTS, |found| Error::Joints { found }),
    );
    rule(
        "qpos_count".into(),
        rule_range(r.qpos_count, 0, MAX_QPOS, |found| Error::Qpos { found }),
    );
    if np > nf {
        let e = Error::Plans {
            found: count(np),
            frames: count(nf),
        };
        rule("plans".into(), Err(e));
    }
    for (j, &p) in r.parents.iter().enumerate() {
        rule(format!("parents[{j}]"), rule_parent(0, j, p));
    }
    for (f, &a) in r.active_plan.iter().enumerate() {
        rule(format!("active_plan[{f}]"), rule_active_plan(0, f, a, np));
    }
    rule("qpos".into(), rule_finite(0, FloatField::Qpos, &r.qpos));
    rule(
        "positions".into(),
        rule_finite(0, FloatField::Positions, r.positions.as_flattened()),
    );
    for (i, p) in r.plans.iter().enumerate() {
        rule(
            format!("plans[{i}]"),
            rule_plan((0, 0), i, (p.first_frame, p.length), nf),
        );
        rule(
            format!("plans[{i}].targets"),
            rule_finite(0, FloatField::Targets, p.targets.as_flattened()),
        );
    }

    // Array lengths the counts imply.
    let per_plan = (TARGET_FRAMES as usize).checked_mul(nj);
    let mut lengths = vec![
        ("active_plan".to_string(), r.active_plan.len(), Some(nf)),
        (
            "qpos".to_string(),
            r.qpos.len(),
            nf.checked_mul(r.qpos_count as usize),
        ),
        (
            "positions".to_string(),
            r.positions.len(),
            nf.checked_mul(nj),
        ),
    ];
    for (i, p) in r.plans.iter().enumerate() {
        lengths.push((format!("plans[{i}].targets"), p.targets.len(), per_plan));
    }
    for (path, len, want) in lengths {
        if Some(len) != want {
            problems.push(Problem::of(
                path,
                format!(
                    "{} values for the counts, found {len}",
                    want.map_or("too many".into(), |w| w.to_string())
                ),
            ));
        }
    }
    let size = payload_bytes(nf as u64, nj as u64, r.qpos_count.into(), np as u64)
        .and_then(|p| p.checked_add(HEADER_BYTES as u64));
    if size.is_none_or(|s| s > MAX_FILE_BYTES as u64) {
        problems.push(Problem::of(
            "file",
            format!(
                "an encoded size of at most {MAX_FILE_BYTES} bytes, found {}",
                size.map_or("more than u64::MAX".into(), |s| format!("{s} bytes"))
            ),
        ));
    }
    problems
}

/// Writes a replay, or every problem [`validate`] finds.
pub fn encode(r: &Replay) -> Result<Vec<u8>, Error> {
    let problems = validate(r);
    if !problems.is_empty() {
        return Err(Error::Invalid(problems));
    }
    // Validation bounded every count and the size.
    let u = |n: usize| n as u32;
    let mut out = Vec::new();
    out.extend_from_slice(&MAGIC);
    for v in [
        VERSION,
        r.fps,
        u(r.frames()),
        u(r.joints()),
        r.qpos_count,
        u(r.plans.len()),
        TARGET_FRAMES,
        0,
    ] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    let put_i32s =
        |out: &mut Vec<u8>, v: &[i32]| v.iter().for_each(|x| out.extend(x.to_le_bytes()));
    let put_f32s =
        |out: &mut Vec<u8>, v: &[f32]| v.iter().for_each(|x| out.extend(x.to_le_bytes()));
    put_i32s(&mut out, &r.parents);
    put_i32s(&mut out, &r.modes);
    put_i32s(&mut out, &r.active_plan);
    put_f32s(&mut out, &r.qpos);
    put_f32s(&mut out, r.positions.as_flattened());
    for p in &r.plans {
        out.extend(p.first_frame.to_le_bytes());
    }
    for p in &r.plans {
        out.extend(p.mode.to_le_bytes());
    }
    for p in &r.plans {
        out.extend(p.length.to_le_bytes());
    }
    for p in &r.plans {
        put_f32s(&mut out, p.targets.as_flattened());
    }
    Ok(out)
}
