//! Compiled characters, KCHR version 1: the runtime resource
//! `world/characters@1`, stored as the level entry `@world/characters`.
//! Spec: `docs/formats/kchr-v1.md`.
//!
//! Skinned models (a TRS node hierarchy, one mesh node, a joint palette
//! with its inverse-bind matrices, vertices, triangles and an opaque QOI
//! albedo atlas) and the animation banks they share, bound by node name.
//!
//! # Guarantees
//!
//! - [`encode`](fn@encode) validates the whole document first and writes its one
//!   canonical byte string; [`decode`](fn@decode) checks the length ([`MAX_BYTES`])
//!   before anything, checks every count against its bound and the bytes
//!   left before allocating, validates the result and returns owned data.
//!   So `encode(decode(b)) == b` for every `b` that decodes.
//! - [`validate`](fn@validate) reports every problem (up to [`MAX_PROBLEMS`]) with its
//!   path, e.g. `models[1].nodes[17].name`; from [`decode`](fn@decode), each also has
//!   the byte offset of the item it is about.

use std::fmt;

use super::cursor;
pub use super::problem::Problem;

mod checks;
mod decode;
mod encode;
mod validate;
mod validate_bank;
mod validate_model;

pub use checks::broken_name_rule;
pub use decode::decode;
pub use encode::{encode, encode_with};
pub use validate::validate;

/// The first four bytes.
pub const MAGIC: [u8; 4] = *b"KCHR";
pub const VERSION: u32 = 1;
/// The runtime's feature id for this resource.
pub const FEATURE: &str = "world/characters@1";
/// The level data entry's name.
pub const ENTRY_NAME: &str = "@world/characters";

/// Most bytes of an encoded document (64 MiB).
pub const MAX_BYTES: usize = 64 << 20;
pub const MAX_MODELS: usize = 8;
pub const MAX_BANKS: usize = 8;
/// Nodes per model.
pub const MAX_NODES: usize = 512;
/// Retained joints (palette entries) per model.
pub const MAX_JOINTS: usize = 64;
/// Vertices per model (so a `u16` index reaches every vertex).
pub const MAX_VERTICES: usize = 65_536;
/// Triangle indices per model.
pub const MAX_INDICES: usize = 393_216;
pub const MAX_CLIPS: usize = 32;
/// Tracks per clip.
pub const MAX_TRACKS: usize = 1_536;
/// Keys per bank, over all its clips and tracks.
pub const MAX_KEYS: usize = 100_000;
/// Bytes of UTF-8 in an id, clip or node name.
pub const MAX_NAME: usize = 128;
/// Atlas width and height.
pub const MAX_TEXTURE_SIDE: u32 = 2048;
/// QOI bytes of one image: the worst case of a 2048 × 2048 image (five
/// bytes a pixel) with header and end marker.
pub const MAX_IMAGE_BYTES: usize = 2048 * 2048 * 5 + 22;
/// Seconds.
pub const MAX_DURATION_S: f32 = 600.0;
/// Floats per vertex: position 3, normal 3, UV 2, palette indices 4,
/// weights 4.
pub const VERTEX_STRIDE: usize = 16;
/// Accumulated scale magnitudes stay within these (inclusive).
pub const MIN_ACCUMULATED_SCALE: f64 = 1e-6;
pub const MAX_ACCUMULATED_SCALE: f64 = 1e6;
/// Accumulated translation lengths stay below this.
pub const MAX_ACCUMULATED_TRANSLATION: f64 = 1e9;
/// `abs(|q|² − 1)` of a unit quaternion, and `abs(Σw − 1)` of weights.
pub const UNIT_TOLERANCE: f64 = 1e-5;
/// Least magnitude of an inverse-bind matrix's 3 × 3 determinant.
pub const MIN_DETERMINANT: f64 = 1e-18;
/// [`validate`](fn@validate) lists at most this many problems (and says so).
pub const MAX_PROBLEMS: usize = 256;
/// A root's parent field.
pub const NO_PARENT: u32 = u32::MAX;

/// Header bytes: magic, version, reserved, length, two counts.
pub const HEADER_BYTES: usize = 20;
/// Bytes of a node without its name's bytes.
const NODE_MIN_BYTES: u64 = 1 + 4 + 40;
/// A model with empty tables: name, bank, node count, mesh node, joint
/// count, vertex count, index count, image width, height and length.
const MODEL_MIN_BYTES: u64 = 2 + 4 * 9;
const BANK_MIN_BYTES: u64 = 2 + 4;
const CLIP_MIN_BYTES: u64 = 2 + 4 + 4;
const TRACK_MIN_BYTES: u64 = 2 + 4 + 4;

/// Byte offsets of the header fields.
pub mod offsets {
    pub const MAGIC: usize = 0;
    pub const VERSION: usize = 4;
    pub const RESERVED: usize = 8;
    pub const LENGTH: usize = 12;
    pub const MODEL_COUNT: usize = 16;
    pub const BANK_COUNT: usize = 18;
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Document {
    pub models: Vec<Model>,
    pub banks: Vec<Bank>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub id: String,
    /// Index into [`Document::banks`].
    pub bank: u32,
    pub nodes: Vec<Node>,
    /// The node that holds the mesh.
    pub mesh_node: u32,
    /// Node indices, in palette order.
    pub joints: Vec<u32>,
    /// Column-major, one per joint.
    pub inverse_bind: Vec<[f32; 16]>,
    pub vertices: Vec<[f32; VERTEX_STRIDE]>,
    /// Triangles: three vertex indices each.
    pub indices: Vec<u16>,
    pub image: Image,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub name: String,
    pub parent: Option<u32>,
    pub translation: [f32; 3],
    /// x, y, z, w.
    pub rotation: [f32; 4],
    pub scale: [f32; 3],
}

/// How far [`encode_with`] checks a document's atlases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageCheck {
    /// Every rule: each atlas decoded, opaque, and the reference
    /// encoder's bytes for its pixels ([`encode`](fn@encode), [`validate`](fn@validate),
    /// [`decode`](fn@decode) and `kiln verify`).
    Full,
    /// The sides, the length and the QOI header, not the pixels: for
    /// atlases the caller has just encoded with the reference encoder
    /// from opaque pixels (the characters kind's, from the material
    /// stage), where decoding them again would only repeat that encoder's
    /// own tests.
    Header,
}

/// The opaque albedo atlas: its declared dimensions and its QOI bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct Image {
    pub width: u32,
    pub height: u32,
    pub qoi: Vec<u8>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Bank {
    pub id: String,
    pub clips: Vec<Clip>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Clip {
    pub name: String,
    pub duration_s: f32,
    /// Ordered by node name (bytewise), then path.
    pub tracks: Vec<Track>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Path {
    Translation = 0,
    Rotation = 1,
    Scale = 2,
}

impl Path {
    pub fn from_code(code: u8) -> Option<Path> {
        match code {
            0 => Some(Path::Translation),
            1 => Some(Path::Rotation),
            2 => Some(Path::Scale),
            _ => None,
        }
    }

    /// Floats per key: 3, 4 or 3.
    pub fn width(self) -> usize {
        match self {
            Path::Rotation => 4,
            Path::Translation | Path::Scale => 3,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Path::Translation => "translation",
            Path::Rotation => "rotation",
            Path::Scale => "scale",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Track {
    /// The name of the node it animates.
    pub node: String,
    pub path: Path,
    /// STEP interpolation (otherwise LINEAR).
    pub step: bool,
    pub times_s: Vec<f32>,
    /// `times_s.len() × path.width()` values.
    pub values: Vec<f32>,
}

impl Track {
    pub fn keys(&self) -> usize {
        self.times_s.len()
    }
}

impl Document {
    /// Bytes [`encode`](fn@encode) would write, `None` on overflow. Does not validate.
    pub fn encoded_len(&self) -> Option<usize> {
        let mut n = HEADER_BYTES;
        let name = |s: &String| 1usize.checked_add(s.len());
        for m in &self.models {
            n = n.checked_add(name(&m.id)? + MODEL_MIN_BYTES as usize - 2)?;
            for node in &m.nodes {
                n = n.checked_add(name(&node.name)?.checked_add(44)?)?;
            }
            n = n.checked_add(m.joints.len().checked_mul(4)?)?;
            n = n.checked_add(m.inverse_bind.len().checked_mul(64)?)?;
            n = n.checked_add(m.vertices.len().checked_mul(4 * VERTEX_STRIDE)?)?;
            n = n.checked_add(m.indices.len().checked_mul(2)?)?;
            n = n.checked_add(m.image.qoi.len())?;
        }
        for b in &self.banks {
            n = n.checked_add(name(&b.id)? + 4)?;
            for c in &b.clips {
                n = n.checked_add(name(&c.name)? + 8)?;
                for t in &c.tracks {
                    n = n.checked_add(name(&t.node)? + 8)?;
                    n = n.checked_add(t.times_s.len().checked_mul(4)?)?;
                    n = n.checked_add(t.values.len().checked_mul(4)?)?;
                }
            }
        }
        Some(n)
    }
}

/// What a problem is about; its path, and (from [`decode`](fn@decode)) its offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loc {
    Document,
    Model(usize),
    Node(usize, usize),
    Joint(usize, usize),
    InverseBind(usize, usize),
    Vertex(usize, usize),
    /// The triangle index at this position of `indices`.
    Index(usize, usize),
    Image(usize),
    Bank(usize),
    Clip(usize, usize),
    Track(usize, usize, usize),
    /// Key `k`'s time.
    KeyTime(usize, usize, usize, usize),
    /// Key `k`'s value.
    KeyValue(usize, usize, usize, usize),
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Loc::Document => f.write_str("document"),
            Loc::Model(m) => write!(f, "models[{m}]"),
            Loc::Node(m, n) => write!(f, "models[{m}].nodes[{n}]"),
            Loc::Joint(m, j) => write!(f, "models[{m}].joints[{j}]"),
            Loc::InverseBind(m, j) => write!(f, "models[{m}].inverse_bind[{j}]"),
            Loc::Vertex(m, v) => write!(f, "models[{m}].vertices[{v}]"),
            Loc::Index(m, i) => write!(f, "models[{m}].indices[{i}]"),
            Loc::Image(m) => write!(f, "models[{m}].image"),
            Loc::Bank(b) => write!(f, "banks[{b}]"),
            Loc::Clip(b, c) => write!(f, "banks[{b}].clips[{c}]"),
            Loc::Track(b, c, t) => write!(f, "banks[{b}].clips[{c}].tracks[{t}]"),
            Loc::KeyTime(b, c, t, k) => write!(f, "banks[{b}].clips[{c}].tracks[{t}].times[{k}]"),
            Loc::KeyValue(b, c, t, k) => {
                write!(f, "banks[{b}].clips[{c}].tracks[{t}].values[{k}]")
            }
        }
    }
}

/// Why [`decode`](fn@decode) or [`encode`](fn@encode) failed: one variant per byte-level rule,
/// each with its offset ([`Error::offset`]), and the document's problems.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// Longer than [`MAX_BYTES`].
    TooLarge {
        len: usize,
    },
    Magic {
        found: [u8; 4],
    },
    Version {
        found: u32,
    },
    /// A reserved field that is not zero.
    Reserved {
        offset: u64,
        found: u32,
    },
    /// The header's document length is not the input's length.
    Length {
        declared: u32,
        actual: usize,
    },
    /// A name's length outside 1..=[`MAX_NAME`].
    NameLength {
        offset: u64,
        what: &'static str,
        len: u8,
    },
    /// A name that is not UTF-8 (`offset`: its first invalid byte).
    NameUtf8 {
        offset: u64,
        what: &'static str,
    },
    /// A track's path code other than 0, 1, 2.
    PathCode {
        offset: u64,
        code: u8,
    },
    /// A track's step flag other than 0 or 1.
    StepFlag {
        offset: u64,
        code: u8,
    },
    /// A byte-level rule of the shared cursor (cut off, a count over its
    /// limit or past the end, trailing bytes).
    Bytes(cursor::Error),
    /// The document breaks rules ([`validate`](fn@validate)). Never empty.
    Invalid(Vec<Problem>),
}

impl std::error::Error for Error {}

impl From<cursor::Error> for Error {
    fn from(e: cursor::Error) -> Error {
        Error::Bytes(e)
    }
}

impl Error {
    /// The byte the error is about: for [`Error::Invalid`], the first
    /// problem's (none from [`encode`](fn@encode)).
    pub fn offset(&self) -> Option<u64> {
        Some(match self {
            Error::TooLarge { .. } => MAX_BYTES as u64,
            Error::Magic { .. } => offsets::MAGIC as u64,
            Error::Version { .. } => offsets::VERSION as u64,
            Error::Length { .. } => offsets::LENGTH as u64,
            Error::Reserved { offset, .. }
            | Error::NameLength { offset, .. }
            | Error::NameUtf8 { offset, .. }
            | Error::PathCode { offset, .. }
            | Error::StepFlag { offset, .. } => *offset,
            Error::Bytes(e) => e.offset(),
            Error::Invalid(p) => {
                return p.first().and_then(|p| p.offset);
            }
        })
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Bytes(e) => write!(f, "{e}"),
            Error::Invalid(problems) => {
                write!(
                    f,
                    "character document is not valid ({} problem{})",
                    problems.len(),
                    if problems.len() == 1 { "" } else { "s" }
                )?;
                for (i, p) in problems.iter().enumerate() {
                    if i == 5 {
                        return write!(f, "; and {} more", problems.len() - 5);
                    }
                    write!(f, "{}{p}", if i == 0 { ": " } else { "; " })?;
                }
                Ok(())
            }
            e => {
                write!(f, "at byte {}: ", e.offset().unwrap_or(0))?;
                match e {
                    Error::TooLarge { len } => write!(
                        f,
                        "a document of at most {MAX_BYTES} bytes (64 MiB), found {len} bytes"
                    ),
                    Error::Magic { found } => {
                        write!(
                            f,
                            "magic must be \"KCHR\", found \"{}\"",
                            found.escape_ascii()
                        )
                    }
                    Error::Version { found } => {
                        write!(f, "version must be {VERSION}, found {found}")
                    }
                    Error::Reserved { found, .. } => {
                        write!(f, "reserved field must be 0, found {found}")
                    }
                    Error::Length { declared, actual } => write!(
                        f,
                        "document length says {declared} bytes but the input has {actual}"
                    ),
                    Error::NameLength { what, len, .. } => write!(
                        f,
                        "{what} must be 1 to {MAX_NAME} bytes long, found a length of {len}"
                    ),
                    Error::NameUtf8 { what, .. } => write!(f, "{what} is not UTF-8"),
                    Error::PathCode { code, .. } => write!(
                        f,
                        "track path must be 0 (translation), 1 (rotation) or 2 (scale), found {code}"
                    ),
                    Error::StepFlag { code, .. } => {
                        write!(f, "track step flag must be 0 or 1, found {code}")
                    }
                    Error::Bytes(_) | Error::Invalid(_) => unreachable!("handled above"),
                }
            }
        }
    }
}
