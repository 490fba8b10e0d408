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
//! - [`decode`] returns a cache that [`validate`] accepts, so [`encode`] of a
//!   decoded cache succeeds and gives back the exact input bytes (NaN
//!   payloads of absent poses and the sign of a zero included).
//! - [`decode`] checks the file size ([`MAX_FILE_BYTES`]) before anything
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

use std::collections::BTreeMap;
use std::fmt;

use super::cursor::{self, Cursor};

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
/// [`decode`] name them).
pub const TEXT_NAMES: [&str; 6] = [
    "unit name",
    "module id",
    "library version",
    "scene",
    "replay",
    "label",
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

    /// Bytes that [`encode`] would write, or `None` if that overflows
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

/// One thing wrong with a [`PoseCache`], found by [`validate`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Where, e.g. `entities[3].name` or `poses[frame 7, entity 2].rotation`.
    pub path: String,
    /// What is wrong: what was expected and what was found.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// Why [`decode`] or [`encode`] failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The bytes are not a valid pose cache. `expected` names the field and
    /// the rule (`flags must be 0`), `found` what the bytes hold.
    #[error("at byte {offset}: {expected}, found {found}")]
    Malformed {
        offset: usize,
        expected: String,
        found: String,
    },
    /// A byte-level rule of the shared cursor (a field cut off by the end
    /// of the input).
    #[error(transparent)]
    Bytes(#[from] cursor::Error),
    /// [`encode`] was given a cache that [`validate`] rejects. Never empty.
    #[error("{}", invalid_message(.0))]
    Invalid(Vec<Problem>),
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
    /// The byte offset of a decode error.
    pub fn offset(&self) -> Option<usize> {
        match self {
            Error::Malformed { offset, .. } => Some(*offset),
            Error::Bytes(e) => Some(e.offset()),
            Error::Invalid(_) => None,
        }
    }

    fn at(offset: usize, expected: impl Into<String>, found: impl Into<String>) -> Error {
        Error::Malformed {
            offset,
            expected: expected.into(),
            found: found.into(),
        }
    }
}

// ---------------------------------------------------------------------------
// Rules shared by decode and validate. Each returns `Err((expected, found))`.

type Rule = Result<(), (String, String)>;

fn rule_dimensions(d: u8) -> Rule {
    match d {
        2 | 3 => Ok(()),
        _ => Err(("dimensions must be 2 or 3".into(), d.to_string())),
    }
}

fn rule_entity_count(n: u64) -> Rule {
    if (1..=u64::from(MAX_ENTITIES)).contains(&n) {
        Ok(())
    } else {
        Err((
            format!("entity count must be 1 to {MAX_ENTITIES}"),
            n.to_string(),
        ))
    }
}

fn rule_frame_count(n: u64) -> Rule {
    if (1..=u64::from(MAX_FRAMES)).contains(&n) {
        Ok(())
    } else {
        Err((
            format!("frame count must be 1 to {MAX_FRAMES}"),
            n.to_string(),
        ))
    }
}

fn rule_start_step(s: i64) -> Rule {
    if s >= 0 {
        Ok(())
    } else {
        Err(("start step must be 0 or more".into(), s.to_string()))
    }
}

/// 0 (either sign) or positive and finite.
fn rule_metres_per_unit(m: f64) -> Rule {
    // -0.0 >= 0.0 holds; NaN fails both tests.
    if m.is_finite() && m >= 0.0 {
        Ok(())
    } else {
        Err((
            "metres per unit must be 0 or a positive finite number".into(),
            format!("{m:?}"),
        ))
    }
}

fn rule_text_len(what: &str, len: usize) -> Rule {
    if len <= MAX_TEXT_BYTES {
        Ok(())
    } else {
        Err((
            format!("{what} must be at most {MAX_TEXT_BYTES} bytes long"),
            format!("{len} bytes"),
        ))
    }
}

fn rule_id(id: u64) -> Rule {
    if id != 0 {
        Ok(())
    } else {
        Err(("entity id must not be 0".into(), "0".into()))
    }
}

/// Which component of `size` is not finite, if any.
fn rule_size(size: &[f32; 3]) -> Result<(), (usize, String, String)> {
    for (i, &v) in size.iter().enumerate() {
        if !v.is_finite() {
            return Err((i, format!("size {} must be finite", AXES[i]), fmt_f32(v)));
        }
    }
    Ok(())
}

const AXES: [&str; 4] = ["x", "y", "z", "w"];

/// Checks value `i` (0..7: position x y z, rotation x y z w) of a pose.
/// Position x may be NaN (absent) but not infinite; every other value must
/// be finite, even in an absent pose.
fn rule_pose_value(i: usize, v: f32) -> Rule {
    if i == 0 {
        if v.is_infinite() {
            return Err((
                "position x must be finite or NaN (absent)".into(),
                fmt_f32(v),
            ));
        }
        return Ok(());
    }
    if v.is_finite() {
        Ok(())
    } else {
        Err((format!("{} must be finite", pose_value_name(i)), fmt_f32(v)))
    }
}

/// The fast path of [`rule_pose_value`] over a whole pose.
fn pose_is_valid(p: &Pose) -> bool {
    let [x, y, z] = p.position;
    let [rx, ry, rz, rw] = p.rotation;
    !x.is_infinite()
        && y.is_finite()
        && z.is_finite()
        && rx.is_finite()
        && ry.is_finite()
        && rz.is_finite()
        && rw.is_finite()
}

fn pose_value_name(i: usize) -> String {
    if i < 3 {
        format!("position {}", AXES[i])
    } else {
        format!("rotation {}", AXES[i - 3])
    }
}

fn pose_values(p: &Pose) -> [f32; 7] {
    let [x, y, z] = p.position;
    let [rx, ry, rz, rw] = p.rotation;
    [x, y, z, rx, ry, rz, rw]
}

fn fmt_f32(v: f32) -> String {
    if v.is_nan() {
        format!("NaN (bits {:#010x})", v.to_bits())
    } else {
        format!("{v:?}")
    }
}

fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn pose_path(frame: usize, entity: usize, part: &str) -> String {
    format!("poses[frame {frame}, entity {entity}].{part}")
}

/// Checks a file size against [`MAX_FILE_BYTES`]. [`decode`] does this
/// first; a caller may call it with a file's length before reading it.
pub fn check_file_size(len: u64) -> Result<(), Error> {
    if len <= MAX_FILE_BYTES as u64 {
        Ok(())
    } else {
        Err(Error::at(
            MAX_FILE_BYTES,
            format!("a file of at most {MAX_FILE_BYTES} bytes (256 MiB)"),
            format!("{len} bytes"),
        ))
    }
}

// ---------------------------------------------------------------------------
// Decode.

/// ospc's reads on the shared cursor: text fields.
trait TextField {
    fn text(&mut self, what: &str) -> Result<String, Error>;
}

impl TextField for Cursor<'_> {
    /// A u16 length, at most [`MAX_TEXT_BYTES`], then that many bytes of
    /// UTF-8.
    fn text(&mut self, what: &str) -> Result<String, Error> {
        let at = self.offset();
        let len = usize::from(self.u16(&format!("{what} length"))?);
        rule_text_len(what, len).map_err(|(e, f)| Error::at(at, e, f))?;
        let start = self.offset();
        let raw = self.take(len, what)?;
        match std::str::from_utf8(raw) {
            Ok(s) => Ok(s.to_owned()),
            Err(e) => {
                let bad = e.valid_up_to();
                Err(Error::at(
                    start + bad,
                    format!("{what} must be UTF-8"),
                    format!("invalid byte {:#04x}", raw[bad]),
                ))
            }
        }
    }
}

/// Reads a pose cache. The result is valid by construction: [`validate`]
/// finds no problem in it, and [`encode`] gives back `bytes` exactly.
pub fn decode(bytes: &[u8]) -> Result<PoseCache, Error> {
    check_file_size(bytes.len() as u64)?;
    let mut r = Cursor::new(bytes);
    let fail = |at: usize| move |(e, f): (String, String)| Error::at(at, e, f);

    let magic = r.array::<4>("magic")?;
    if magic != MAGIC {
        return Err(Error::at(
            offsets::MAGIC,
            "magic must be \"OSPC\"",
            format!("\"{}\"", magic.escape_ascii()),
        ));
    }
    let version = r.u16("version")?;
    if version != VERSION {
        return Err(Error::at(
            offsets::VERSION,
            format!("version must be {VERSION}"),
            version.to_string(),
        ));
    }
    let flags = r.u16("flags")?;
    if flags != 0 {
        return Err(Error::at(
            offsets::FLAGS,
            "flags must be 0",
            flags.to_string(),
        ));
    }
    let dimensions = r.u8("dimensions")?;
    rule_dimensions(dimensions).map_err(fail(offsets::DIMENSIONS))?;
    let reserved8 = r.u8("reserved byte")?;
    if reserved8 != 0 {
        return Err(Error::at(
            offsets::RESERVED_U8,
            "reserved byte must be 0",
            reserved8.to_string(),
        ));
    }
    let reserved16 = r.u16("reserved u16")?;
    if reserved16 != 0 {
        return Err(Error::at(
            offsets::RESERVED_U16,
            "reserved u16 must be 0",
            reserved16.to_string(),
        ));
    }
    let entity_count = r.u32("entity count")?;
    rule_entity_count(entity_count.into()).map_err(fail(offsets::ENTITY_COUNT))?;
    let frame_count = r.u32("frame count")?;
    rule_frame_count(frame_count.into()).map_err(fail(offsets::FRAME_COUNT))?;
    let start_step = r.i64("start step")?;
    rule_start_step(start_step).map_err(fail(offsets::START_STEP))?;
    let metres_per_unit = r.f64("metres per unit")?;
    rule_metres_per_unit(metres_per_unit).map_err(fail(offsets::METRES_PER_UNIT))?;

    let unit_name = r.text(TEXT_NAMES[0])?;
    let module_id = r.text(TEXT_NAMES[1])?;
    let library_version = r.text(TEXT_NAMES[2])?;
    let scene = r.text(TEXT_NAMES[3])?;
    let replay = r.text(TEXT_NAMES[4])?;
    let label = r.text(TEXT_NAMES[5])?;

    // Entities: check the smallest size they can have against what remains
    // before allocating for them.
    let n_entities = entity_count as usize; // at most 65 536
    let at = r.offset();
    let entity_min = n_entities
        .checked_mul(ENTITY_MIN_BYTES)
        .ok_or_else(|| Error::at(at, "entity table size to fit in usize", "overflow"))?;
    if entity_min > r.remaining() {
        return Err(Error::at(
            at,
            format!(
                "at least {entity_min} bytes for {n_entities} entities \
                 ({ENTITY_MIN_BYTES} bytes each without names)"
            ),
            format!("{} bytes before the end of the input", r.remaining()),
        ));
    }
    let mut entities = Vec::with_capacity(n_entities);
    let mut first_index_of: BTreeMap<u64, usize> = BTreeMap::new();
    for i in 0..n_entities {
        let what = |field: &str| format!("entities[{i}].{field}");
        let at = r.offset();
        let id = r.u64(&what("id"))?;
        rule_id(id).map_err(|(e, f)| Error::at(at, format!("{}: {e}", what("id")), f))?;
        if let Some(first) = first_index_of.insert(id, i) {
            return Err(Error::at(
                at,
                format!("{}: entity id must be unique", what("id")),
                format!("{id} again (first at entities[{first}])"),
            ));
        }
        let at = r.offset();
        let code = r.u8(&what("shape"))?;
        let shape = Shape::from_code(code).ok_or_else(|| {
            Error::at(
                at,
                format!(
                    "{}: shape must be 0 (point), 1 (sphere), 2 (box) or 3 (capsule)",
                    what("shape")
                ),
                code.to_string(),
            )
        })?;
        let at = r.offset();
        let pad = r.array::<3>(&what("padding"))?;
        if let Some(k) = pad.iter().position(|&b| b != 0) {
            return Err(Error::at(
                at + k,
                format!("{}: the 3 bytes after the shape must be 0", what("padding")),
                pad[k].to_string(),
            ));
        }
        let at = r.offset();
        let size = [
            r.f32(&what("size"))?,
            r.f32(&what("size"))?,
            r.f32(&what("size"))?,
        ];
        rule_size(&size)
            .map_err(|(k, e, f)| Error::at(at + 4 * k, format!("{}: {e}", what("size")), f))?;
        let name = r.text(&what("name"))?;
        entities.push(Entity {
            id,
            shape,
            size,
            name,
        });
    }

    // Poses: the rest of the file, exactly.
    let at = r.offset();
    let n_frames = frame_count as usize; // at most 4 194 304
    let n_poses = n_frames
        .checked_mul(n_entities)
        .ok_or_else(|| Error::at(at, "pose count to fit in usize", "overflow"))?;
    let pose_bytes = n_poses.checked_mul(POSE_BYTES);
    if pose_bytes != Some(r.remaining()) {
        return Err(Error::at(
            at,
            format!(
                "exactly {} bytes of poses ({} x {} x {POSE_BYTES} bytes) to the end of \
                 the input",
                pose_bytes.map_or("too many".to_string(), |b| b.to_string()),
                count(n_frames, "frame", "frames"),
                count(n_entities, "entity", "entities"),
            ),
            format!("{} bytes", r.remaining()),
        ));
    }
    // The length is exact, so the poses are read straight from the rest.
    let rest = r.rest();
    let mut poses = Vec::with_capacity(n_poses);
    for (j, chunk) in rest.chunks_exact(POSE_BYTES).enumerate() {
        let mut v = [0f32; 7];
        for (slot, b) in v.iter_mut().zip(chunk.chunks_exact(4)) {
            *slot = f32::from_bits(u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
        }
        let pose = Pose {
            position: [v[0], v[1], v[2]],
            rotation: [v[3], v[4], v[5], v[6]],
        };
        if !pose_is_valid(&pose) {
            let at = bytes.len() - rest.len() + j * POSE_BYTES;
            let (f, e) = (j / n_entities, j % n_entities);
            for (k, &value) in v.iter().enumerate() {
                if let Err((exp, found)) = rule_pose_value(k, value) {
                    let part = if k < 3 { "position" } else { "rotation" };
                    return Err(Error::at(
                        at + 4 * k,
                        format!("{}: {exp}", pose_path(f, e, part)),
                        found,
                    ));
                }
            }
        }
        poses.push(pose);
    }

    Ok(PoseCache {
        dimensions,
        start_step,
        metres_per_unit,
        unit_name,
        module_id,
        library_version,
        scene,
        replay,
        label,
        entities,
        poses,
    })
}

// ---------------------------------------------------------------------------
// Validate.

/// Every problem that would stop [`encode`], each with its path. Empty when
/// the cache is valid.
pub fn validate(cache: &PoseCache) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut push = |path: String, (expected, found): (String, String)| {
        problems.push(Problem {
            path,
            message: format!("{expected}, found {found}"),
        })
    };

    if let Err(e) = rule_dimensions(cache.dimensions) {
        push("dimensions".into(), e);
    }
    if let Err(e) = rule_start_step(cache.start_step) {
        push("start_step".into(), e);
    }
    if let Err(e) = rule_metres_per_unit(cache.metres_per_unit) {
        push("metres_per_unit".into(), e);
    }
    let fields = [
        "unit_name",
        "module_id",
        "library_version",
        "scene",
        "replay",
        "label",
    ];
    for ((field, what), text) in fields.iter().zip(TEXT_NAMES).zip(cache.texts()) {
        if let Err(e) = rule_text_len(what, text.len()) {
            push((*field).into(), e);
        }
    }

    let n_entities = cache.entities.len();
    if let Err(e) = rule_entity_count(n_entities as u64) {
        push("entities".into(), e);
    }
    let mut first_index_of: BTreeMap<u64, usize> = BTreeMap::new();
    for (i, ent) in cache.entities.iter().enumerate() {
        if let Err(e) = rule_id(ent.id) {
            push(format!("entities[{i}].id"), e);
        } else if let Some(&first) = first_index_of.get(&ent.id) {
            push(
                format!("entities[{i}].id"),
                (
                    "entity id must be unique".into(),
                    format!("{} again (first at entities[{first}])", ent.id),
                ),
            );
        } else {
            first_index_of.insert(ent.id, i);
        }
        if let Err((_, e, f)) = rule_size(&ent.size) {
            push(format!("entities[{i}].size"), (e, f));
        }
        if let Err(e) = rule_text_len("name", ent.name.len()) {
            push(format!("entities[{i}].name"), e);
        }
    }

    if n_entities > 0 {
        if !cache.poses.len().is_multiple_of(n_entities) {
            push(
                "poses".into(),
                (
                    format!("a multiple of {n_entities} poses (one per entity per frame)"),
                    format!("{} poses", cache.poses.len()),
                ),
            );
        } else if let Err(e) = rule_frame_count(cache.n_frames() as u64) {
            push("poses".into(), e);
        }
    }
    for (j, pose) in cache.poses.iter().enumerate() {
        if pose_is_valid(pose) {
            continue;
        }
        let (f, e) = match n_entities {
            0 => (0, j),
            n => (j / n, j % n),
        };
        let values = pose_values(pose);
        // One problem per part (position, rotation), naming the first bad
        // value in it.
        for (part, range) in [("position", 0..3), ("rotation", 3..7)] {
            if let Some(err) = range
                .map(|k| rule_pose_value(k, values[k]))
                .find_map(|r| r.err())
            {
                push(pose_path(f, e, part), err);
            }
        }
    }

    match cache.encoded_len() {
        Some(n) if n <= MAX_FILE_BYTES => {}
        n => push(
            "file".into(),
            (
                format!("an encoded size of at most {MAX_FILE_BYTES} bytes (256 MiB)"),
                n.map_or("more than usize::MAX bytes".into(), |n| {
                    format!("{n} bytes")
                }),
            ),
        ),
    }
    problems
}

// ---------------------------------------------------------------------------
// Encode.

/// Writes a pose cache. Fails with [`Error::Invalid`] (every problem that
/// [`validate`] finds) rather than write a file that [`decode`] rejects.
pub fn encode(cache: &PoseCache) -> Result<Vec<u8>, Error> {
    let problems = validate(cache);
    if !problems.is_empty() {
        return Err(Error::Invalid(problems));
    }
    // Validation bounds the length by MAX_FILE_BYTES.
    let len = cache.encoded_len().unwrap_or(0);
    let mut out = Vec::with_capacity(len);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes()); // flags
    out.push(cache.dimensions);
    out.push(0); // reserved u8
    out.extend_from_slice(&0u16.to_le_bytes()); // reserved u16
    // Counts fit in u32: validation checked them against their limits.
    out.extend_from_slice(&(cache.entities.len() as u32).to_le_bytes());
    out.extend_from_slice(&(cache.n_frames() as u32).to_le_bytes());
    out.extend_from_slice(&cache.start_step.to_le_bytes());
    out.extend_from_slice(&cache.metres_per_unit.to_bits().to_le_bytes());
    for t in cache.texts() {
        write_text(&mut out, t);
    }
    for e in &cache.entities {
        out.extend_from_slice(&e.id.to_le_bytes());
        out.push(e.shape.code());
        out.extend_from_slice(&[0, 0, 0]);
        for v in e.size {
            out.extend_from_slice(&v.to_bits().to_le_bytes());
        }
        write_text(&mut out, &e.name);
    }
    for p in &cache.poses {
        for v in pose_values(p) {
            out.extend_from_slice(&v.to_bits().to_le_bytes());
        }
    }
    debug_assert_eq!(out.len(), len);
    Ok(out)
}

fn write_text(out: &mut Vec<u8>, t: &str) {
    // Validation checked t.len() <= MAX_TEXT_BYTES, which fits in u16.
    out.extend_from_slice(&(t.len() as u16).to_le_bytes());
    out.extend_from_slice(t.as_bytes());
}
