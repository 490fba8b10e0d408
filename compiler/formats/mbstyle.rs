//! MotionBricks style asset, version 1 (`.mbstyle`): a short exemplar
//! motion on the 34-joint G1 skeleton that steers the MotionBricks planner.
//! Spec: docs/formats/motionbricks.md (".mbstyle v1").
//!
//! A GGUF v3 file: the ten common MotionBricks keys (component `style`,
//! `general.name` the style's name, `parameter_count` 412 F + 11), then
//! `motionbricks.style_name`, `style_speed` (FLOAT32), `style_frames`
//! (UINT32) and `style_index` (UINT32); five tensors in this order:
//! `allowed_tokens` I32 \[11\], `global_headings` F32 \[F\],
//! `global_joint_positions` F32 \[F,34,3\], `global_joint_rotations` F32
//! \[F,34,9\] (row-major 3×3) and `global_root_positions` F32 \[F,3\].
//!
//! The codec is pure. [`read`] applies every check the runtime makes (it
//! reads the keys it needs by name: other keys, the order and the padding
//! are not its concern, as seed 001 has it: "minor, backwards-compatible
//! additions are represented by optional keys"), refuses what would load
//! but never plan (an all-zero mask), and says apart where a file the
//! runtime loads is not the canonical form [`encode`] writes. [`decode`]
//! accepts only the canonical form, so decode → encode gives the input back
//! byte for byte. Each refusal is one [`Error`] variant.

use std::fmt;

use super::cursor::{le_f32_arrays, le_f32s as f32s, le_i32s};
use super::gguf::{self, TensorDesc, TensorType, Value};
use super::motionbricks::{self, common_metadata, is_sha256_hex, kv};
pub use super::problem::Problem;

/// Joints of the G1 skeleton a style is on.
pub const JOINTS: usize = 34;
/// Entries of the allowed-duration mask: plans of 6 to 16 tokens.
pub const MASK_LEN: usize = 11;
/// Tokens of the shortest plan (mask entry 0).
pub const MIN_TOKENS: u32 = 6;
/// Tokens of the longest plan (mask entry 10).
pub const MAX_TOKENS: u32 = 16;
/// Fewest frames a style may have (the runtime's limit).
pub const MIN_FRAMES: usize = 4;
/// Most frames a style may have (the runtime's limit): 55 minutes at 30
/// fps, 165 MB of values.
pub const MAX_FRAMES: usize = 100_000;
/// Values per frame: 34×3 positions, 34×9 rotations, 3 root, 1 heading.
pub const VALUES_PER_FRAME: u64 = 412;
/// The component name.
pub const COMPONENT: &str = "style";
/// The tensors, in file (sorted) order.
pub const TENSORS: [&str; 5] = [
    "allowed_tokens",
    "global_headings",
    "global_joint_positions",
    "global_joint_rotations",
    "global_root_positions",
];
/// Most bytes a style file can have: the header (under 4 KiB for a name
/// of a few hundred bytes; 64 KiB allowed) and 100,000 frames of values.
pub const MAX_FILE_BYTES: u64 = (64 << 10) + MAX_FRAMES as u64 * VALUES_PER_FRAME * 4 + 4096;
/// Longest style name kiln writes (the runtime has no limit; names are
/// file names in a style set).
pub const MAX_NAME_BYTES: usize = 128;

/// A style, its values frame-major.
#[derive(Clone, Debug, PartialEq)]
pub struct Style {
    pub name: String,
    /// Intended speed in m/s; 0 is idle.
    pub speed: f32,
    /// Its index in its set.
    pub index: u32,
    /// 64 lowercase hex: SHA-256 of the source file.
    pub source_sha256: String,
    /// `allowed_tokens[i] == 1` allows a plan of `6 + i` tokens.
    pub allowed_tokens: [i32; MASK_LEN],
    pub headings: Vec<f32>,
    /// F × 34, world positions minus the projected root.
    pub joint_positions: Vec<[f32; 3]>,
    /// F × 34 row-major rotation matrices.
    pub joint_rotations: Vec<[f32; 9]>,
    /// F, the pelvis projected on the ground (y = 0).
    pub root_positions: Vec<[f32; 3]>,
}

impl Style {
    pub fn frames(&self) -> usize {
        self.headings.len()
    }

    /// `motionbricks.parameter_count`: 412 F + 11.
    pub fn parameter_count(&self) -> u64 {
        VALUES_PER_FRAME * self.frames() as u64 + MASK_LEN as u64
    }

    /// The mask as a token range, when it is one: `[min, max]`.
    pub fn token_range(&self) -> Option<(u32, u32)> {
        let on: Vec<u32> = (0..MASK_LEN as u32)
            .filter(|&i| self.allowed_tokens[i as usize] == 1)
            .collect();
        let (&a, &b) = (on.first()?, on.last()?);
        (b - a + 1 == on.len() as u32).then_some((MIN_TOKENS + a, MIN_TOKENS + b))
    }
}

/// The mask allowing plans of `min..=max` tokens (within 6..=16).
pub fn mask(min: u32, max: u32) -> [i32; MASK_LEN] {
    let mut m = [0; MASK_LEN];
    for t in min.max(MIN_TOKENS)..=max.min(MAX_TOKENS) {
        m[(t - MIN_TOKENS) as usize] = 1;
    }
    m
}

/// Why a style was refused. `Gguf` and `NotCanonical` carry their byte
/// offset; the rest are the style's own rules, named by key or tensor,
/// which [`decode`] gives at the byte they are about (`At`).
#[derive(Clone, Debug, PartialEq)]
pub enum Error {
    /// A rule of the style broken at byte `offset` of the file: the
    /// metadata entry or tensor description it is about (for one missing,
    /// where it would be), or the value.
    At { offset: u64, rule: Box<Error> },
    /// The file is longer than [`MAX_FILE_BYTES`].
    FileTooLarge { len: u64 },
    /// Not a valid GGUF v3 file.
    Gguf(gguf::Error),
    /// A check of the ten common keys the runtime makes.
    Common(String),
    /// The metadata is not the 14 keys of the spec in their order and
    /// types (`index` is the first that differs).
    Metadata { index: usize, found: String },
    /// A style key the runtime reads is missing (`found` None) or of
    /// another type (`found` the type's name).
    Key {
        key: &'static str,
        want: &'static str,
        found: Option<&'static str>,
    },
    /// `general.name` is not the style's name.
    NameMismatch { general: String, style: String },
    /// An empty style name.
    EmptyName,
    /// A name longer than [`MAX_NAME_BYTES`]: kiln neither writes nor
    /// reads it (decode accepts only what encode writes).
    NameTooLong { len: usize },
    /// Frames outside 4..=100,000.
    Frames { frames: usize },
    /// `style_frames` disagrees with the tensors (`parameter_count` is one
    /// of the common checks).
    Count {
        key: &'static str,
        found: u64,
        tensors: u64,
    },
    /// A negative or non-finite speed.
    Speed { bits: u32 },
    /// Not exactly the five tensors, in order, with their types and shapes.
    Tensor { index: usize, found: String },
    /// A mask value other than 0 or 1.
    MaskValue { index: usize, value: i32 },
    /// A mask of zeros: the runtime loads it, but can never plan with it.
    MaskEmpty,
    /// A NaN or infinity.
    NotFinite {
        tensor: &'static str,
        index: usize,
        bits: u32,
    },
    /// A source hash that is not 64 lowercase hex digits.
    SourceHash { found: String },
    /// Bytes that decode but are not the form [`encode`] writes (non-zero
    /// padding), at `offset`.
    NotCanonical { offset: u64 },
    /// [`encode`] was given a style that [`validate`] rejects.
    Invalid(Vec<Problem>),
}

impl std::error::Error for Error {}

impl Error {
    /// The rule broken, wherever it was found.
    pub fn rule(&self) -> &Error {
        match self {
            Error::At { rule, .. } => rule,
            rule => rule,
        }
    }

    /// The byte offset a decode error names.
    pub fn offset(&self) -> Option<u64> {
        match self {
            Error::At { offset, .. } => Some(*offset),
            Error::Gguf(e) => Some(e.offset()),
            Error::NotCanonical { offset } => Some(*offset),
            _ => None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::At { offset, rule } => write!(f, "at byte {offset}: {rule}"),
            Error::FileTooLarge { len } => write!(
                f,
                "a style of at most {MAX_FILE_BYTES} bytes, found {len} bytes"
            ),
            Error::Gguf(e) => write!(f, "invalid GGUF: {e}"),
            Error::Common(p) => write!(f, "{p}"),
            Error::Metadata { index, found } => write!(
                f,
                "metadata key {index} must be {}, found {found}",
                expected_key(*index)
            ),
            Error::Key {
                key,
                want,
                found: None,
            } => write!(f, "metadata {key} {want} is missing (the runtime reads it)"),
            Error::Key {
                key,
                want,
                found: Some(found),
            } => write!(f, "metadata {key} must be {want}, found {found}"),
            Error::NameMismatch { general, style } => write!(
                f,
                "general.name {general:?} must be the style name {style:?}"
            ),
            Error::EmptyName => write!(f, "motionbricks.style_name must not be empty"),
            Error::NameTooLong { len } => write!(
                f,
                "the name is {len} bytes; kiln writes at most {MAX_NAME_BYTES}"
            ),
            Error::Frames { frames } => write!(
                f,
                "a style has {MIN_FRAMES} to {MAX_FRAMES} frames, found {frames}"
            ),
            Error::Count {
                key,
                found,
                tensors,
            } => write!(f, "{key} is {found}, the tensors give {tensors}"),
            Error::Speed { bits } => write!(
                f,
                "motionbricks.style_speed must be 0 or a positive finite number, found {:?}",
                f32::from_bits(*bits)
            ),
            Error::Tensor { index, found } => write!(
                f,
                "tensor {index} must be {}, found {found}",
                expected_tensor(*index)
            ),
            Error::MaskValue { index, value } => {
                write!(f, "allowed_tokens[{index}] must be 0 or 1, found {value}")
            }
            Error::MaskEmpty => write!(
                f,
                "allowed_tokens allows no plan length (all zeros): the runtime loads it but can never plan with this style"
            ),
            Error::NotFinite {
                tensor,
                index,
                bits,
            } => write!(
                f,
                "{tensor}[{index}] must be finite, found {:?} (bits {bits:#010x})",
                f32::from_bits(*bits)
            ),
            Error::SourceHash { found } => write!(
                f,
                "motionbricks.source_sha256 must be 64 lowercase hex digits, found {found:?}"
            ),
            Error::NotCanonical { offset } => write!(
                f,
                "at byte {offset}: not the canonical form (the padding must be zero bytes)"
            ),
            Error::Invalid(problems) => {
                write!(f, "style is not valid: {}", super::problem::join(problems))
            }
        }
    }
}

/// The 14 keys in order with their types.
const STYLE_KEYS: [(&str, &str); 4] = [
    ("motionbricks.style_name", "STRING"),
    ("motionbricks.style_speed", "FLOAT32"),
    ("motionbricks.style_frames", "UINT32"),
    ("motionbricks.style_index", "UINT32"),
];

fn expected_key(index: usize) -> String {
    let common = common_metadata(COMPONENT, "", "", 0);
    match common.get(index) {
        Some((k, v)) => format!("{k} {}", gguf::type_name(v.type_code())),
        None => STYLE_KEYS
            .get(index - common.len())
            .map_or("absent (the spec has 14 keys)".into(), |(k, t)| {
                format!("{k} {t}")
            }),
    }
}

fn expected_tensor(index: usize) -> String {
    match TENSORS.get(index) {
        Some(&name) => {
            let (ty, dims) = tensor_layout(name, 0);
            format!("{name} {} with GGML shape {}", ty.name(), dims_text(&dims))
        }
        None => "absent (a style has 5 tensors)".into(),
    }
}

fn dims_text(dims: &[u64]) -> String {
    let d: Vec<String> = dims
        .iter()
        .map(|&d| if d == 0 { "F".into() } else { d.to_string() })
        .collect();
    format!("[{}]", d.join(", "))
}

/// A tensor's type and GGML dimensions (fastest first) for `frames`.
fn tensor_layout(name: &str, frames: u64) -> (TensorType, Vec<u64>) {
    let j = JOINTS as u64;
    match name {
        "allowed_tokens" => (TensorType::I32, vec![MASK_LEN as u64]),
        "global_headings" => (TensorType::F32, vec![frames]),
        "global_joint_positions" => (TensorType::F32, vec![3, j, frames]),
        "global_joint_rotations" => (TensorType::F32, vec![9, j, frames]),
        _ => (TensorType::F32, vec![3, frames]),
    }
}

/// The metadata of `s`, in the spec's order.
fn metadata(s: &Style) -> Vec<(String, Value)> {
    let mut m = common_metadata(COMPONENT, &s.name, &s.source_sha256, s.parameter_count());
    m.push(kv("motionbricks.style_name", Value::String(s.name.clone())));
    m.push(kv("motionbricks.style_speed", Value::F32(s.speed)));
    // Validation bounds frames by MAX_FRAMES.
    m.push(kv(
        "motionbricks.style_frames",
        Value::U32(s.frames() as u32),
    ));
    m.push(kv("motionbricks.style_index", Value::U32(s.index)));
    m
}

fn first_not_finite(tensor: &'static str, values: &[f32]) -> Result<(), Error> {
    match values.iter().position(|v| !v.is_finite()) {
        None => Ok(()),
        Some(index) => Err(Error::NotFinite {
            tensor,
            index,
            bits: values[index].to_bits(),
        }),
    }
}

/// The style's own rules (what [`encode`] refuses and [`decode`] checks
/// after reading the values), the first broken.
fn check(s: &Style) -> Result<(), Error> {
    if s.name.is_empty() {
        return Err(Error::EmptyName);
    }
    if !is_sha256_hex(&s.source_sha256) {
        return Err(Error::SourceHash {
            found: s.source_sha256.clone(),
        });
    }
    let f = s.frames();
    if !(MIN_FRAMES..=MAX_FRAMES).contains(&f) {
        return Err(Error::Frames { frames: f });
    }
    if !(s.speed.is_finite() && s.speed >= 0.0) {
        return Err(Error::Speed {
            bits: s.speed.to_bits(),
        });
    }
    if let Some(index) = s.allowed_tokens.iter().position(|&v| v != 0 && v != 1) {
        return Err(Error::MaskValue {
            index,
            value: s.allowed_tokens[index],
        });
    }
    if s.allowed_tokens.iter().all(|&v| v == 0) {
        return Err(Error::MaskEmpty);
    }
    first_not_finite("global_headings", &s.headings)?;
    first_not_finite("global_joint_positions", s.joint_positions.as_flattened())?;
    first_not_finite("global_joint_rotations", s.joint_rotations.as_flattened())?;
    first_not_finite("global_root_positions", s.root_positions.as_flattened())?;
    Ok(())
}

/// Every problem that would stop [`encode`] (empty: valid).
pub fn validate(s: &Style) -> Vec<Problem> {
    let mut problems = Vec::new();
    let f = s.frames();
    let lengths = [
        (
            "global_joint_positions",
            s.joint_positions.len(),
            f * JOINTS,
        ),
        (
            "global_joint_rotations",
            s.joint_rotations.len(),
            f * JOINTS,
        ),
        ("global_root_positions", s.root_positions.len(), f),
    ];
    for (name, len, want) in lengths {
        if len != want {
            problems.push(Problem::of(
                "",
                format!("{name} has {len} entries; {f} frames need {want}"),
            ));
        }
    }
    if s.name.len() > MAX_NAME_BYTES {
        problems.push(Problem::of(
            "",
            Error::NameTooLong { len: s.name.len() }.to_string(),
        ));
    }
    if let Err(e) = check(s) {
        problems.push(Problem::of("", e.to_string()));
    }
    problems
}

/// Writes a style, or every problem [`validate`] finds.
pub fn encode(s: &Style) -> Result<Vec<u8>, Error> {
    let problems = validate(s);
    if !problems.is_empty() {
        return Err(Error::Invalid(problems));
    }
    let frames = s.frames() as u64;
    let layouts: Vec<(TensorType, Vec<u64>)> = TENSORS
        .iter()
        .map(|&name| tensor_layout(name, frames))
        .collect();
    let tensors: Vec<TensorDesc> = TENSORS
        .iter()
        .zip(&layouts)
        .map(|(&name, (ty, dims))| TensorDesc {
            name,
            dims,
            ty: *ty,
        })
        .collect();
    let (mut out, header) = gguf::encode_header(&metadata(s), &tensors).map_err(Error::Gguf)?;
    // The whole file at once, asked for fallibly (up to 165 MB).
    let more = header.file_bytes() as usize - out.len();
    crate::memory::reserve(&mut out, more).map_err(|e| {
        Error::Gguf(gguf::Error::NoMemory {
            offset: out.len() as u64,
            what: "style's values",
            bytes: e.bytes,
        })
    })?;
    // Each tensor's data in file order, padded to the alignment.
    let start = out.len();
    let pad = |out: &mut Vec<u8>| {
        let padded = gguf::pad((out.len() - start) as u64, header.alignment).unwrap_or(0);
        out.resize(start + padded as usize, 0);
    };
    out.extend(s.allowed_tokens.iter().flat_map(|v| v.to_le_bytes()));
    pad(&mut out);
    for values in [
        &s.headings[..],
        s.joint_positions.as_flattened(),
        s.joint_rotations.as_flattened(),
        s.root_positions.as_flattened(),
    ] {
        out.extend(values.iter().flat_map(|v| v.to_le_bytes()));
        pad(&mut out);
    }
    debug_assert_eq!(out.len() as u64, header.file_bytes());
    Ok(out)
}

/// `rule`, broken in the file whose header is `h`, at the byte it is
/// about. Errors that carry their own offset are returned as they are.
fn placed(h: &gguf::Header, rule: Error) -> Error {
    let offset = match &rule {
        Error::Tensor { index, .. } => h.tensor_info_at(*index),
        // The frame count is global_headings' only dimension.
        Error::Frames { .. } => h.tensor_info_at(1),
        Error::Metadata { index, .. } => h.metadata_at(*index),
        Error::Key { key, .. } => h.key_at(key),
        Error::NameMismatch { .. } => h.key_at("general.name"),
        Error::EmptyName | Error::NameTooLong { .. } => h.key_at("motionbricks.style_name"),
        Error::Count { key, .. } => h.key_at(key),
        Error::Speed { .. } => h.key_at("motionbricks.style_speed"),
        Error::SourceHash { .. } => h.key_at("motionbricks.source_sha256"),
        Error::MaskValue { index, .. } => h.tensor_byte_at(0, 4 * *index as u64),
        Error::MaskEmpty => h.tensor_byte_at(0, 0),
        Error::NotFinite { tensor, index, .. } => {
            let t = TENSORS.iter().position(|n| n == tensor).unwrap_or(0);
            h.tensor_byte_at(t, 4 * *index as u64)
        }
        Error::At { .. }
        | Error::FileTooLarge { .. }
        | Error::Gguf(_)
        | Error::Common(_)
        | Error::NotCanonical { .. }
        | Error::Invalid(_) => return rule,
    };
    Error::At {
        offset,
        rule: Box::new(rule),
    }
}

/// A style the runtime loads, and the first way it departs from the
/// canonical form [`encode`] writes (keys other than the spec's 14 or in
/// another order, a name longer than kiln writes, non-zero padding): the
/// runtime accepts those, kiln writes none of them.
#[derive(Clone, Debug, PartialEq)]
pub struct Read {
    pub style: Style,
    pub not_canonical: Option<Error>,
}

/// Reads a style only as far as the canonical form: [`read`], refusing a
/// file that departs from what [`encode`] writes. Every error names the
/// byte it is about.
pub fn decode(bytes: &[u8]) -> Result<Style, Error> {
    let r = read(bytes)?;
    match r.not_canonical {
        Some(e) => Err(e),
        None => Ok(r.style),
    }
}

/// Reads a style, applying every check the runtime makes and the all-zero
/// mask refusal (an error naming the byte it is about), then kiln's
/// canonical form (reported in [`Read::not_canonical`], not refused).
pub fn read(bytes: &[u8]) -> Result<Read, Error> {
    if bytes.len() as u64 > MAX_FILE_BYTES {
        // The first byte past the limit.
        return Err(Error::At {
            offset: MAX_FILE_BYTES,
            rule: Box::new(Error::FileTooLarge {
                len: bytes.len() as u64,
            }),
        });
    }
    let h = gguf::decode_header(bytes, bytes.len() as u64).map_err(Error::Gguf)?;
    let frames = check_tensors(&h)?;
    check_keys(&h)?;
    let style = read_style(&h, bytes)?;
    let general = match h.get("general.name") {
        Some(Value::String(s)) => s.clone(),
        _ => String::new(),
    };
    if general != style.name {
        return Err(placed(
            &h,
            Error::NameMismatch {
                general,
                style: style.name.clone(),
            },
        ));
    }
    check(&style).map_err(|rule| placed(&h, rule))?;
    // (`parameter_count` against the tensors is one of the common checks.)
    if let Some(Value::U32(found)) = h.get("motionbricks.style_frames")
        && *found as usize != frames
    {
        return Err(placed(
            &h,
            Error::Count {
                key: "motionbricks.style_frames",
                found: u64::from(*found),
                tensors: frames as u64,
            },
        ));
    }
    // The runtime loads it. Is it what kiln writes?
    let not_canonical = canonical_problem(&h, bytes, &style);
    Ok(Read {
        style,
        not_canonical,
    })
}

/// The five tensors in their order, names, types and shapes; returns the
/// frame count they give (checked against its range). The tensors come
/// first: they give the frame count and the parameter count the metadata
/// is checked against.
fn check_tensors(h: &gguf::Header) -> Result<usize, Error> {
    let frames = match h.tensor_at(1) {
        Some(t) if t.name == TENSORS[1] && t.dims.len() == 1 => t.dims[0],
        _ => 0,
    };
    for index in 0..h.tensor_count().max(TENSORS.len()) {
        let ok = match (h.tensor_at(index), TENSORS.get(index)) {
            (Some(t), Some(&name)) => {
                let (ty, dims) = tensor_layout(name, frames);
                t.name == name && t.ty == ty && t.dims == dims
            }
            _ => false,
        };
        if !ok {
            let found = h.tensor_at(index).map_or("none".into(), |t| {
                format!("{} {} with GGML shape {:?}", t.name, t.ty.name(), t.dims)
            });
            return Err(placed(h, Error::Tensor { index, found }));
        }
    }
    let frames = usize::try_from(frames).unwrap_or(usize::MAX);
    if !(MIN_FRAMES..=MAX_FRAMES).contains(&frames) {
        return Err(placed(h, Error::Frames { frames }));
    }
    Ok(frames)
}

/// The keys every MotionBricks file shares, and the style keys the runtime
/// reads, by name, with their types.
fn check_keys(h: &gguf::Header) -> Result<(), Error> {
    // general.name is checked below, against the style's name.
    if let Some(p) = motionbricks::common_problems(COMPONENT, None, h)
        .into_iter()
        .next()
    {
        return Err(Error::At {
            offset: p.offset.unwrap_or_default(),
            rule: Box::new(Error::Common(p.message)),
        });
    }
    // The style keys the runtime reads, by name, with their types;
    // `style_index` is kiln's (the runtime does not read it).
    for &(key, want) in &STYLE_KEYS[..3] {
        let found = h.get(key).map(|v| gguf::type_name(v.type_code()));
        if found != Some(want) {
            return Err(placed(h, Error::Key { key, want, found }));
        }
    }
    Ok(())
}

/// The style's values, read from the checked tensors (allocated fallibly:
/// memory refused is an error at the tensor's first byte) and keys.
fn read_style(h: &gguf::Header, bytes: &[u8]) -> Result<Style, Error> {
    let string = |key: &str| match h.get(key) {
        Some(Value::String(s)) => s.clone(),
        _ => String::new(),
    };
    let name = string("motionbricks.style_name");
    let data = &bytes[h.data_start as usize..];
    let tensor = |i: usize| {
        let t = h.tensor_at(i).expect("the five were checked");
        let start = t.offset as usize;
        &data[start..start + t.bytes().unwrap_or(0) as usize]
    };
    // The values, allocated fallibly: memory refused is an error at the
    // tensor's first byte.
    let no_memory = |i: usize| {
        let offset = h.tensor_byte_at(i, 0) as usize;
        move |e: crate::memory::NoMemory| {
            Error::Gguf(gguf::Error::NoMemory {
                offset: offset as u64,
                what: "tensor's values",
                bytes: e.bytes,
            })
        }
    };
    let mut allowed_tokens = [0i32; MASK_LEN];
    for (slot, v) in allowed_tokens
        .iter_mut()
        .zip(le_i32s(tensor(0)).map_err(no_memory(0))?)
    {
        *slot = v;
    }
    let style = Style {
        name,
        speed: match h.get("motionbricks.style_speed") {
            Some(Value::F32(v)) => *v,
            _ => f32::NAN,
        },
        index: match h.get("motionbricks.style_index") {
            Some(Value::U32(v)) => *v,
            _ => 0,
        },
        source_sha256: string("motionbricks.source_sha256"),
        allowed_tokens,
        headings: f32s(tensor(1)).map_err(no_memory(1))?,
        joint_positions: le_f32_arrays(tensor(2)).map_err(no_memory(2))?,
        joint_rotations: le_f32_arrays(tensor(3)).map_err(no_memory(3))?,
        root_positions: le_f32_arrays(tensor(4)).map_err(no_memory(4))?,
    };
    Ok(style)
}

/// The first way a style the runtime loads departs from the canonical form
/// [`encode`] writes, at its byte.
fn canonical_problem(h: &gguf::Header, bytes: &[u8], style: &Style) -> Option<Error> {
    if style.name.len() > MAX_NAME_BYTES {
        return Some(placed(
            h,
            Error::NameTooLong {
                len: style.name.len(),
            },
        ));
    }
    // Exactly the spec's keys, in order, with their types (their values
    // the runtime's checks above and the bytes below hold).
    let want = metadata(style);
    for i in 0..want.len().max(h.metadata.len()) {
        let same_key_and_type = match (want.get(i), h.metadata.get(i)) {
            (Some((wk, wv)), Some((k, v))) => wk == k && wv.type_code() == v.type_code(),
            _ => false,
        };
        if !same_key_and_type {
            let found = h.metadata.get(i).map_or("none".into(), |(k, v)| {
                format!("{k} {}", gguf::type_name(v.type_code()))
            });
            return Some(placed(h, Error::Metadata { index: i, found }));
        }
    }
    // The bytes encode writes, without writing them again (a style may be
    // 165 MB): the header encode writes, then the data, whose values are
    // the file's own bytes read back bit for bit (finite floats, integers),
    // so only the padding after each tensor can differ: it must be zero.
    let problems = validate(style);
    if !problems.is_empty() {
        return Some(Error::Invalid(problems));
    }
    let layouts: Vec<(TensorType, Vec<u64>)> = TENSORS
        .iter()
        .map(|&name| tensor_layout(name, style.frames() as u64))
        .collect();
    let descs: Vec<TensorDesc> = TENSORS
        .iter()
        .zip(&layouts)
        .map(|(&name, (ty, dims))| TensorDesc {
            name,
            dims,
            ty: *ty,
        })
        .collect();
    let (head, layout) = match gguf::encode_header(&metadata(style), &descs) {
        Ok(x) => x,
        Err(e) => return Some(Error::Gguf(e)),
    };
    if let Some(offset) = head.iter().zip(bytes).position(|(a, b)| a != b) {
        return Some(Error::NotCanonical {
            offset: offset as u64,
        });
    }
    let end = layout.file_bytes() as usize;
    let starts: Vec<usize> = layout
        .tensors()
        .map(|t| (layout.data_start + t.offset) as usize)
        .chain([end])
        .collect();
    for (t, next) in layout.tensors().zip(&starts[1..]) {
        let from = (layout.data_start + t.offset + t.bytes().unwrap_or(0)) as usize;
        let padding = bytes.get(from..*next).unwrap_or_default();
        if let Some(i) = padding.iter().position(|&b| b != 0) {
            return Some(Error::NotCanonical {
                offset: (from + i) as u64,
            });
        }
    }
    None
}
