//! OneScope pose cache, version 1 (`.ospc`). Spec: `docs/formats/ospc.md`.
//!
//! A pose cache is a recorded simulation: a header, six free-text fields,
//! a table of entities (id, collision shape, size, name) and then one pose
//! (position and rotation) per entity per frame. Frame `k` is the world at
//! step `start_step + k`.
//!
//! The codec is pure: bytes in, values out. It touches no files, spawns no
//! threads and prints nothing. Errors name the byte offset, what was
//! expected and what was found; the caller prefixes the input's name.
//!
//! # Guarantees
//!
//! - [`decode`](fn@decode) returns a cache that [`validate`](fn@validate) accepts, so [`encode`](fn@encode) of a
//!   decoded cache succeeds and gives back the exact input bytes (NaN
//!   payloads of absent poses and the sign of a zero included).
//! - [`decode`](fn@decode) checks the file size ([`MAX_FILE_BYTES`]) before anything
//!   else, and checks every count and length against the bytes that remain
//!   before allocating for it, with checked arithmetic throughout, so a
//!   hostile header cannot make it allocate more than a small multiple of
//!   the input's size.
//!
//! # Limits
//!
//! Each limit is a named constant: [`MAX_FILE_BYTES`], [`MAX_ENTITIES`],
//! [`MAX_FRAMES`], [`MAX_TEXT_BYTES`]. They come from the spec; their
//! reasons are on the constants.
//!
//! # Strict readings
//!
//! Where the spec can be read two ways, the codec takes the stricter one:
//! every pose value except a NaN position x must be finite (y, z and the
//! rotation included, even in an absent pose); an infinite position x is an
//! error; `-0.0` metres per unit counts as 0 (and is kept as `-0.0`); sizes
//! may be any finite value (negative included); a NaN position x keeps its
//! exact bit pattern; a rotation of four zeros (of either sign) reads as the
//! identity.

use std::fmt;

use super::cursor;
pub use super::problem::Problem;

mod decode;
mod encode;
mod rules;
mod validate;

pub use decode::decode;
pub use encode::encode;
pub use rules::check_file_size;
use rules::{AXES, count, fmt_f32, pose_path, pose_value_name};
pub use validate::validate;

/// Most bytes a pose cache may have: 256 MiB. The spec's limit; it bounds
/// what a reader must hold in memory and makes every size fit in `usize`
/// arithmetic without overflow on 32- and 64-bit targets.
pub const MAX_FILE_BYTES: usize = 256 << 20;
/// Most entities a cache may have (the spec's limit). Ids of a frame fit in
/// a 16-bit index plus one, which keeps per-frame tables small.
pub const MAX_ENTITIES: u32 = 65_536;
/// Most frames a cache may have (the spec's limit, 2^22): over a day of
/// steps at 48 Hz.
pub const MAX_FRAMES: u32 = 4_194_304;
/// Most bytes (of UTF-8, not characters) in any text field or entity name
/// (the spec's limit): enough for a path or a label, small enough that a
/// header is always small.
pub const MAX_TEXT_BYTES: usize = 1024;
/// The first four bytes of every pose cache.
pub const MAGIC: [u8; 4] = *b"OSPC";
/// The only version this codec reads and writes.
pub const VERSION: u16 = 1;

/// Bytes before the first text field: magic, version, flags, dimensions,
/// reserved u8 + u16, entity count, frame count, start step, metres per unit.
pub const HEADER_BYTES: usize = 36;
/// Bytes of one entity record without its name: id, shape, three zero bytes,
/// size, name length.
pub const ENTITY_MIN_BYTES: usize = 8 + 1 + 3 + 12 + 2;
/// Bytes of one pose: seven `f32`.
pub const POSE_BYTES: usize = 28;

/// Byte offsets of the fixed header fields.
pub mod offsets {
    pub const MAGIC: usize = 0;
    pub const VERSION: usize = 4;
    pub const FLAGS: usize = 6;
    pub const DIMENSIONS: usize = 8;
    pub const RESERVED_U8: usize = 9;
    pub const RESERVED_U16: usize = 10;
    pub const ENTITY_COUNT: usize = 12;
    pub const FRAME_COUNT: usize = 16;
    pub const START_STEP: usize = 20;
    pub const METRES_PER_UNIT: usize = 28;
    /// The first text field (unit name) starts here.
    pub const TEXTS: usize = 36;
}

/// The names of the six text fields, in file order (as the errors of
/// [`decode`](fn@decode) name them).
pub const TEXT_NAMES: [&str; 6] = [
    "unit name",
    "module id",
    "library version",
    "scene",
    "replay",
    "label",
];

/// An entity's shape (also the manifest's `shape`, by its lowercase name).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Shape {
    Point,
    Sphere,
    Box,
    Capsule,
}

impl Shape {
    /// The shape with this code in the file, if any (0 point, 1 sphere,
    /// 2 box, 3 capsule).
    pub fn from_code(code: u8) -> Option<Shape> {
        match code {
            0 => Some(Shape::Point),
            1 => Some(Shape::Sphere),
            2 => Some(Shape::Box),
            3 => Some(Shape::Capsule),
            _ => None,
        }
    }

    /// This shape's code in the file.
    pub fn code(self) -> u8 {
        match self {
            Shape::Point => 0,
            Shape::Sphere => 1,
            Shape::Box => 2,
            Shape::Capsule => 3,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Entity {
    /// Non-zero, unique within the cache.
    pub id: u64,
    pub shape: Shape,
    /// Sphere: radius in x. Box: half extents. Capsule: radius in x, half
    /// length in y (axis is local Y). Finite.
    pub size: [f32; 3],
    pub name: String,
}

/// One entity at one frame: position x y z, rotation x y z w, stored
/// exactly as in the file (so a NaN payload round-trips bit for bit).
///
/// Note that the derived `PartialEq` follows IEEE comparison, so two absent
/// poses never compare equal; compare `to_bits` when that matters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    pub position: [f32; 3],
    pub rotation: [f32; 4],
}

impl Pose {
    /// The identity rotation, x y z w.
    pub const IDENTITY_ROTATION: [f32; 4] = [0.0, 0.0, 0.0, 1.0];

    /// A present pose at `position` with the identity rotation.
    pub fn at(position: [f32; 3]) -> Pose {
        Pose {
            position,
            rotation: Self::IDENTITY_ROTATION,
        }
    }

    /// An absent pose: position x is NaN, everything else zero (so it is
    /// valid under the strict reading that the rest must be finite).
    pub fn absent() -> Pose {
        Pose {
            position: [f32::NAN, 0.0, 0.0],
            rotation: [0.0; 4],
        }
    }

    /// The entity is absent in this frame: position x is NaN (any payload).
    /// The rest of the pose is then meaningless.
    pub fn is_absent(&self) -> bool {
        self.position[0].is_nan()
    }

    /// The rotation, x y z w, with a zero rotation (all four components
    /// `0.0` or `-0.0`) read as the identity. Other rotations are returned
    /// as stored, not normalized.
    pub fn rotation_or_identity(&self) -> [f32; 4] {
        if self.rotation.iter().all(|&c| c == 0.0) {
            Self::IDENTITY_ROTATION
        } else {
            self.rotation
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct PoseCache {
    /// 2 or 3.
    pub dimensions: u8,
    pub start_step: i64,
    /// 0 (no physical size) or positive and finite.
    pub metres_per_unit: f64,
    pub unit_name: String,
    pub module_id: String,
    pub library_version: String,
    pub scene: String,
    pub replay: String,
    pub label: String,
    pub entities: Vec<Entity>,
    /// `frames * entities.len()` poses, frame-major: pose of entity `e` at
    /// frame `f` is `poses[f * entities.len() + e]`.
    pub poses: Vec<Pose>,
}

impl PoseCache {
    /// Number of frames: `poses.len() / entities.len()` (0 when there are no
    /// entities, which a valid cache never has).
    pub fn n_frames(&self) -> usize {
        self.poses
            .len()
            .checked_div(self.entities.len())
            .unwrap_or(0)
    }

    /// The poses of every entity at `frame`, in entity order.
    pub fn frame(&self, frame: usize) -> Option<&[Pose]> {
        let n = self.entities.len();
        let start = frame.checked_mul(n)?;
        let end = start.checked_add(n)?;
        if n == 0 {
            return None;
        }
        self.poses.get(start..end)
    }

    /// The pose of entity index `entity` at `frame`.
    pub fn pose(&self, frame: usize, entity: usize) -> Option<&Pose> {
        if entity >= self.entities.len() {
            return None;
        }
        self.frame(frame)?.get(entity)
    }

    /// The simulation step that `frame` shows: `start_step + frame`.
    pub fn step_of(&self, frame: usize) -> Option<i64> {
        self.start_step.checked_add(i64::try_from(frame).ok()?)
    }

    /// The six text fields in file order, as in [`TEXT_NAMES`].
    pub fn texts(&self) -> [&str; 6] {
        [
            &self.unit_name,
            &self.module_id,
            &self.library_version,
            &self.scene,
            &self.replay,
            &self.label,
        ]
    }

    /// The replay's file name when it is a plain file name, which the shell
    /// looks for next to the cache; `None` otherwise (the shell offers
    /// nothing). Strict reading of "no directory part": non-empty, not `.`
    /// or `..`, and free of `/`, `\`, `:` (a Windows drive) and NUL.
    pub fn replay_file_name(&self) -> Option<&str> {
        is_plain_file_name(&self.replay).then_some(self.replay.as_str())
    }

    /// Bytes that [`encode`](fn@encode) would write, or `None` if that overflows
    /// `usize`. Does not validate.
    pub fn encoded_len(&self) -> Option<usize> {
        let mut n = HEADER_BYTES;
        for t in self.texts() {
            n = n.checked_add(2)?.checked_add(t.len())?;
        }
        for e in &self.entities {
            n = n.checked_add(ENTITY_MIN_BYTES)?.checked_add(e.name.len())?;
        }
        n.checked_add(self.poses.len().checked_mul(POSE_BYTES)?)
    }
}

/// Whether `name` is a plain file name in the spec's sense of a replay the
/// shell looks for next to the cache: non-empty, not `.` or `..`, and free
/// of `/`, `\`, `:` (a Windows drive) and NUL. A writer that wants its
/// replay offered writes only such a name.
pub fn is_plain_file_name(name: &str) -> bool {
    !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\\', ':', '\0'])
}

/// Why [`decode`](fn@decode) or [`encode`](fn@encode) failed: one variant per rule of the format,
/// each with the byte offset it was found at ([`Error::offset`]). Header
/// fields sit at fixed offsets ([`offsets`]), so their variants carry only
/// what was found. Floats are kept as their bits so that a NaN payload is
/// shown exactly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// The input is longer than [`MAX_FILE_BYTES`].
    FileTooLarge { len: u64 },
    /// The first four bytes are not [`MAGIC`].
    Magic { found: [u8; 4] },
    /// The version is not [`VERSION`].
    Version { found: u16 },
    /// The flags are not 0.
    Flags { found: u16 },
    /// Dimensions other than 2 or 3.
    Dimensions { found: u8 },
    /// The reserved byte after the dimensions is not 0.
    ReservedByte { found: u8 },
    /// The reserved u16 before the entity count is not 0.
    ReservedU16 { found: u16 },
    /// An entity count outside 1..=[`MAX_ENTITIES`].
    EntityCount { found: u64 },
    /// A frame count outside 1..=[`MAX_FRAMES`].
    FrameCount { found: u64 },
    /// A negative start step.
    StartStep { found: i64 },
    /// Metres per unit negative, infinite or NaN.
    MetresPerUnit { bits: u64 },
    /// A text field or entity name longer than [`MAX_TEXT_BYTES`].
    TextTooLong {
        offset: u64,
        field: String,
        len: usize,
    },
    /// A text field or entity name that is not UTF-8 (`offset` is the
    /// first invalid byte).
    TextNotUtf8 {
        offset: u64,
        field: String,
        byte: u8,
    },
    /// Fewer bytes left than the entity table needs without its names.
    EntityTable {
        offset: u64,
        entities: usize,
        remaining: usize,
    },
    /// An entity id of 0.
    EntityIdZero { offset: u64, entity: usize },
    /// An entity id that an earlier entity has.
    EntityIdRepeated {
        offset: u64,
        entity: usize,
        id: u64,
        first: usize,
    },
    /// A shape code other than 0..=3.
    Shape {
        offset: u64,
        entity: usize,
        code: u8,
    },
    /// A non-zero byte in the three after an entity's shape.
    ShapePadding {
        offset: u64,
        entity: usize,
        byte: u8,
    },
    /// A size component that is not finite.
    Size {
        offset: u64,
        entity: usize,
        axis: usize,
        bits: u32,
    },
    /// The bytes after the entities are not exactly frames x entities
    /// poses.
    PoseBytes {
        offset: u64,
        frames: usize,
        entities: usize,
        remaining: usize,
    },
    /// A pose value (0..7: position x y z, rotation x y z w) that breaks
    /// `rules::rule_pose_value`'s rule.
    PoseValue {
        offset: u64,
        frame: usize,
        entity: usize,
        value: usize,
        bits: u32,
    },
    /// A byte-level rule of the shared cursor (a field cut off by the end
    /// of the input).
    Bytes(cursor::Error),
    /// [`encode`](fn@encode) was given a cache that [`validate`](fn@validate) rejects. Never empty.
    Invalid(Vec<Problem>),
}

impl std::error::Error for Error {}

impl From<cursor::Error> for Error {
    fn from(e: cursor::Error) -> Error {
        Error::Bytes(e)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Bytes(e) => write!(f, "{e}"),
            Error::Invalid(problems) => f.write_str(&invalid_message(problems)),
            rule => {
                write!(f, "at byte {}: ", rule.offset().unwrap_or(0))?;
                if let Some(path) = rule.path() {
                    write!(f, "{path}: ")?;
                }
                f.write_str(&rule.rule())
            }
        }
    }
}

fn invalid_message(problems: &[Problem]) -> String {
    let mut s = format!(
        "pose cache is not valid ({} problem{})",
        problems.len(),
        if problems.len() == 1 { "" } else { "s" }
    );
    for (i, p) in problems.iter().enumerate() {
        if i == 5 {
            s.push_str(&format!("; and {} more", problems.len() - 5));
            break;
        }
        s.push_str(if i == 0 { ": " } else { "; " });
        s.push_str(&p.to_string());
    }
    s
}

impl Error {
    /// The byte offset of a decode error; `None` for [`Error::Invalid`].
    pub fn offset(&self) -> Option<u64> {
        Some(match self {
            Error::FileTooLarge { .. } => MAX_FILE_BYTES as u64,
            Error::Magic { .. } => offsets::MAGIC as u64,
            Error::Version { .. } => offsets::VERSION as u64,
            Error::Flags { .. } => offsets::FLAGS as u64,
            Error::Dimensions { .. } => offsets::DIMENSIONS as u64,
            Error::ReservedByte { .. } => offsets::RESERVED_U8 as u64,
            Error::ReservedU16 { .. } => offsets::RESERVED_U16 as u64,
            Error::EntityCount { .. } => offsets::ENTITY_COUNT as u64,
            Error::FrameCount { .. } => offsets::FRAME_COUNT as u64,
            Error::StartStep { .. } => offsets::START_STEP as u64,
            Error::MetresPerUnit { .. } => offsets::METRES_PER_UNIT as u64,
            Error::TextTooLong { offset, .. }
            | Error::TextNotUtf8 { offset, .. }
            | Error::EntityTable { offset, .. }
            | Error::EntityIdZero { offset, .. }
            | Error::EntityIdRepeated { offset, .. }
            | Error::Shape { offset, .. }
            | Error::ShapePadding { offset, .. }
            | Error::Size { offset, .. }
            | Error::PoseBytes { offset, .. }
            | Error::PoseValue { offset, .. } => *offset,
            Error::Bytes(e) => e.offset(),
            Error::Invalid(_) => return None,
        })
    }

    /// Where in the cache the rule was broken, for rules about one entity
    /// or pose (`entities[3].size`, `poses[frame 7, entity 2].rotation`).
    fn path(&self) -> Option<String> {
        match *self {
            Error::EntityIdZero { entity, .. } | Error::EntityIdRepeated { entity, .. } => {
                Some(format!("entities[{entity}].id"))
            }
            Error::Shape { entity, .. } => Some(format!("entities[{entity}].shape")),
            Error::ShapePadding { entity, .. } => Some(format!("entities[{entity}].padding")),
            Error::Size { entity, .. } => Some(format!("entities[{entity}].size")),
            Error::PoseValue {
                frame,
                entity,
                value,
                ..
            } => Some(pose_path(
                frame,
                entity,
                if value < 3 { "position" } else { "rotation" },
            )),
            _ => None,
        }
    }

    /// The rule and what broke it, without offset or path: `flags must be
    /// 0, found 3`.
    fn rule(&self) -> String {
        match self {
            Error::FileTooLarge { len } => {
                format!("a file of at most {MAX_FILE_BYTES} bytes (256 MiB), found {len} bytes")
            }
            Error::Magic { found } => {
                format!("magic must be \"OSPC\", found \"{}\"", found.escape_ascii())
            }
            Error::Version { found } => format!("version must be {VERSION}, found {found}"),
            Error::Flags { found } => format!("flags must be 0, found {found}"),
            Error::Dimensions { found } => format!("dimensions must be 2 or 3, found {found}"),
            Error::ReservedByte { found } => format!("reserved byte must be 0, found {found}"),
            Error::ReservedU16 { found } => format!("reserved u16 must be 0, found {found}"),
            Error::EntityCount { found } => {
                format!("entity count must be 1 to {MAX_ENTITIES}, found {found}")
            }
            Error::FrameCount { found } => {
                format!("frame count must be 1 to {MAX_FRAMES}, found {found}")
            }
            Error::StartStep { found } => format!("start step must be 0 or more, found {found}"),
            Error::MetresPerUnit { bits } => format!(
                "metres per unit must be 0 or a positive finite number, found {:?}",
                f64::from_bits(*bits)
            ),
            Error::TextTooLong { field, len, .. } => {
                format!("{field} must be at most {MAX_TEXT_BYTES} bytes long, found {len} bytes")
            }
            Error::TextNotUtf8 { field, byte, .. } => {
                format!("{field} must be UTF-8, found invalid byte {byte:#04x}")
            }
            Error::EntityTable {
                entities,
                remaining,
                ..
            } => format!(
                "at least {} bytes for {entities} entities ({ENTITY_MIN_BYTES} bytes each \
                 without names), found {remaining} bytes before the end of the input",
                entities.saturating_mul(ENTITY_MIN_BYTES)
            ),
            Error::EntityIdZero { .. } => "entity id must not be 0, found 0".into(),
            Error::EntityIdRepeated { id, first, .. } => {
                format!("entity id must be unique, found {id} again (first at entities[{first}])")
            }
            Error::Shape { code, .. } => {
                format!("shape must be 0 (point), 1 (sphere), 2 (box) or 3 (capsule), found {code}")
            }
            Error::ShapePadding { byte, .. } => {
                format!("the 3 bytes after the shape must be 0, found {byte}")
            }
            Error::Size { axis, bits, .. } => format!(
                "size {} must be finite, found {}",
                AXES[*axis],
                fmt_f32(f32::from_bits(*bits))
            ),
            Error::PoseBytes {
                frames,
                entities,
                remaining,
                ..
            } => format!(
                "exactly {} bytes of poses ({} x {} x {POSE_BYTES} bytes) to the end of \
                 the input, found {remaining} bytes",
                frames
                    .checked_mul(*entities)
                    .and_then(|n| n.checked_mul(POSE_BYTES))
                    .map_or("too many".to_string(), |b| b.to_string()),
                count(*frames, "frame", "frames"),
                count(*entities, "entity", "entities"),
            ),
            Error::PoseValue { value, bits, .. } => {
                let v = f32::from_bits(*bits);
                if *value == 0 {
                    format!(
                        "position x must be finite or NaN (absent), found {}",
                        fmt_f32(v)
                    )
                } else {
                    format!(
                        "{} must be finite, found {}",
                        pose_value_name(*value),
                        fmt_f32(v)
                    )
                }
            }
            Error::Bytes(e) => e.to_string(),
            Error::Invalid(problems) => invalid_message(problems),
        }
    }
}
