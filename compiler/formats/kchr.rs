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
//! - [`encode`] validates the whole document first and writes its one
//!   canonical byte string; [`decode`] checks the length ([`MAX_BYTES`])
//!   before anything, checks every count against its bound and the bytes
//!   left before allocating, validates the result and returns owned data.
//!   So `encode(decode(b)) == b` for every `b` that decodes.
//! - [`validate`] reports every problem (up to [`MAX_PROBLEMS`]) with its
//!   path, e.g. `models[1].nodes[17].name`; from [`decode`], each also has
//!   the byte offset of the item it is about.

use std::collections::BTreeSet;
use std::fmt;

use super::cursor::{self, Cursor};
use super::qoi;

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
/// [`validate`] lists at most this many problems (and says so).
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
    /// Bytes [`encode`] would write, `None` on overflow. Does not validate.
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

/// What a problem is about; its path, and (from [`decode`]) its offset.
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

pub use super::problem::Problem;

/// Why [`decode`] or [`encode`] failed: one variant per byte-level rule,
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
        offset: usize,
        found: u32,
    },
    /// The header's document length is not the input's length.
    Length {
        declared: u32,
        actual: usize,
    },
    /// A name's length outside 1..=[`MAX_NAME`].
    NameLength {
        offset: usize,
        what: &'static str,
        len: u8,
    },
    /// A name that is not UTF-8 (`offset`: its first invalid byte).
    NameUtf8 {
        offset: usize,
        what: &'static str,
    },
    /// A track's path code other than 0, 1, 2.
    PathCode {
        offset: usize,
        code: u8,
    },
    /// A track's step flag other than 0 or 1.
    StepFlag {
        offset: usize,
        code: u8,
    },
    /// A byte-level rule of the shared cursor (cut off, a count over its
    /// limit or past the end, trailing bytes).
    Bytes(cursor::Error),
    /// The document breaks rules ([`validate`]). Never empty.
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
    /// problem's (none from [`encode`]).
    pub fn offset(&self) -> Option<usize> {
        Some(match self {
            Error::TooLarge { .. } => MAX_BYTES,
            Error::Magic { .. } => offsets::MAGIC,
            Error::Version { .. } => offsets::VERSION,
            Error::Length { .. } => offsets::LENGTH,
            Error::Reserved { offset, .. }
            | Error::NameLength { offset, .. }
            | Error::NameUtf8 { offset, .. }
            | Error::PathCode { offset, .. }
            | Error::StepFlag { offset, .. } => *offset,
            Error::Bytes(e) => e.offset(),
            Error::Invalid(p) => {
                return p
                    .first()
                    .and_then(|p| p.offset)
                    .and_then(|o| usize::try_from(o).ok());
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

// ---------------------------------------------------------------- decode

/// Where decode found each item, so that problems carry offsets.
#[derive(Default)]
struct Where {
    models: Vec<ModelAt>,
    banks: Vec<BankAt>,
}

#[derive(Default)]
struct ModelAt {
    start: usize,
    nodes: Vec<usize>,
    joints: usize,
    inverse_bind: usize,
    vertices: usize,
    indices: usize,
    image: usize,
}

#[derive(Default)]
struct BankAt {
    start: usize,
    clips: Vec<ClipAt>,
}

#[derive(Default)]
struct ClipAt {
    start: usize,
    tracks: Vec<TrackAt>,
}

#[derive(Clone, Copy, Default)]
struct TrackAt {
    start: usize,
    times: usize,
    values: usize,
    width: usize,
}

impl Where {
    fn offset(&self, loc: Loc) -> Option<usize> {
        let track = |b: usize, c: usize, t: usize| -> Option<TrackAt> {
            self.banks.get(b)?.clips.get(c)?.tracks.get(t).copied()
        };
        Some(match loc {
            Loc::Document => 0,
            Loc::Model(m) => self.models.get(m)?.start,
            Loc::Node(m, n) => *self.models.get(m)?.nodes.get(n)?,
            Loc::Joint(m, j) => self.models.get(m)?.joints + 4 * j,
            Loc::InverseBind(m, j) => self.models.get(m)?.inverse_bind + 64 * j,
            Loc::Vertex(m, v) => self.models.get(m)?.vertices + 64 * v,
            Loc::Index(m, i) => self.models.get(m)?.indices + 2 * i,
            Loc::Image(m) => self.models.get(m)?.image,
            Loc::Bank(b) => self.banks.get(b)?.start,
            Loc::Clip(b, c) => self.banks.get(b)?.clips.get(c)?.start,
            Loc::Track(b, c, t) => track(b, c, t)?.start,
            Loc::KeyTime(b, c, t, k) => track(b, c, t)?.times + 4 * k,
            Loc::KeyValue(b, c, t, k) => {
                let at = track(b, c, t)?;
                at.values + 4 * at.width * k
            }
        })
    }
}

fn read_name(c: &mut Cursor, what: &'static str) -> Result<String, Error> {
    let offset = c.offset();
    let len = c.u8(what)?;
    if len == 0 || usize::from(len) > MAX_NAME {
        return Err(Error::NameLength { offset, what, len });
    }
    let bytes = c.take(usize::from(len), what)?;
    match std::str::from_utf8(bytes) {
        Ok(s) => Ok(s.to_string()),
        Err(e) => Err(Error::NameUtf8 {
            offset: offset + 1 + e.valid_up_to(),
            what,
        }),
    }
}

/// A count (u32 or u16 already widened) checked against `limit` and the
/// bytes left for items of at least `item_bytes`.
fn read_count(
    c: &mut Cursor,
    wide: bool,
    item_bytes: u64,
    limit: usize,
    what: &str,
) -> Result<usize, Error> {
    let offset = c.offset();
    let n = if wide {
        u64::from(c.u32(what)?)
    } else {
        u64::from(c.u16(what)?)
    };
    Ok(c.count(offset, n, item_bytes, limit as u64, what)?)
}

fn f32s<const N: usize>(c: &mut Cursor, what: &str) -> Result<[f32; N], Error> {
    let mut out = [0.0; N];
    for v in &mut out {
        *v = c.f32(what)?;
    }
    Ok(out)
}

fn reserved_u16(c: &mut Cursor) -> Result<(), Error> {
    let offset = c.offset();
    let found = c.u16("reserved")?;
    if found != 0 {
        return Err(Error::Reserved {
            offset,
            found: u32::from(found),
        });
    }
    Ok(())
}

/// Reads and validates a document. The result owns its data.
pub fn decode(bytes: &[u8]) -> Result<Document, Error> {
    if bytes.len() > MAX_BYTES {
        return Err(Error::TooLarge { len: bytes.len() });
    }
    let mut c = Cursor::new(bytes);
    let magic = c.array::<4>("magic")?;
    if magic != MAGIC {
        return Err(Error::Magic { found: magic });
    }
    let version = c.u32("version")?;
    if version != VERSION {
        return Err(Error::Version { found: version });
    }
    let reserved = c.u32("reserved")?;
    if reserved != 0 {
        return Err(Error::Reserved {
            offset: offsets::RESERVED,
            found: reserved,
        });
    }
    let declared = c.u32("document length")?;
    if declared as usize != bytes.len() {
        return Err(Error::Length {
            declared,
            actual: bytes.len(),
        });
    }
    let n_models = read_count(&mut c, false, MODEL_MIN_BYTES, MAX_MODELS, "model count")?;
    let n_banks = read_count(&mut c, false, BANK_MIN_BYTES, MAX_BANKS, "bank count")?;
    let mut doc = Document::default();
    let mut at = Where::default();
    for _ in 0..n_models {
        let (model, model_at) = read_model(&mut c)?;
        doc.models.push(model);
        at.models.push(model_at);
    }
    for _ in 0..n_banks {
        let (bank, bank_at) = read_bank(&mut c)?;
        doc.banks.push(bank);
        at.banks.push(bank_at);
    }
    c.finish("document")?;
    let problems = check(&doc, &|loc| at.offset(loc));
    if problems.is_empty() {
        Ok(doc)
    } else {
        Err(Error::Invalid(problems))
    }
}

fn read_model(c: &mut Cursor) -> Result<(Model, ModelAt), Error> {
    let mut at = ModelAt {
        start: c.offset(),
        ..ModelAt::default()
    };
    let id = read_name(c, "model id")?;
    let bank = c.u32("bank")?;
    let n_nodes = read_count(c, true, NODE_MIN_BYTES + 1, MAX_NODES, "node count")?;
    let mut nodes = Vec::with_capacity(n_nodes);
    for _ in 0..n_nodes {
        at.nodes.push(c.offset());
        let name = read_name(c, "node name")?;
        let parent = c.u32("parent")?;
        nodes.push(Node {
            name,
            parent: (parent != NO_PARENT).then_some(parent),
            translation: f32s(c, "translation")?,
            rotation: f32s(c, "rotation")?,
            scale: f32s(c, "scale")?,
        });
    }
    let mesh_node = c.u32("mesh node")?;
    let n_joints = read_count(c, true, 4 + 64, MAX_JOINTS, "joint count")?;
    at.joints = c.offset();
    let joints = c.values(4 * n_joints, "palette", cursor::le_u32s)?;
    at.inverse_bind = c.offset();
    let inverse_bind = c.values(
        64 * n_joints,
        "inverse-bind matrices",
        cursor::le_f32_arrays::<16>,
    )?;
    let n_vertices = read_count(c, true, 64, MAX_VERTICES, "vertex count")?;
    at.vertices = c.offset();
    let vertices = c.values(64 * n_vertices, "vertices", cursor::le_f32_arrays::<16>)?;
    let n_indices = read_count(c, true, 2, MAX_INDICES, "index count")?;
    at.indices = c.offset();
    let indices = c
        .take(2 * n_indices, "indices")?
        .chunks_exact(2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .collect();
    let width = c.u32("image width")?;
    let height = c.u32("image height")?;
    let len = read_count(c, true, 1, MAX_IMAGE_BYTES, "image byte length")?;
    at.image = c.offset();
    let qoi = c.values(len, "image", crate::memory::copy)?;
    let model = Model {
        id,
        bank,
        nodes,
        mesh_node,
        joints,
        inverse_bind,
        vertices,
        indices,
        image: Image { width, height, qoi },
    };
    Ok((model, at))
}

fn read_bank(c: &mut Cursor) -> Result<(Bank, BankAt), Error> {
    let mut at = BankAt {
        start: c.offset(),
        ..BankAt::default()
    };
    let id = read_name(c, "bank id")?;
    let n_clips = read_count(c, true, CLIP_MIN_BYTES, MAX_CLIPS, "clip count")?;
    let mut clips = Vec::with_capacity(n_clips);
    for _ in 0..n_clips {
        let mut clip_at = ClipAt {
            start: c.offset(),
            ..ClipAt::default()
        };
        let name = read_name(c, "clip name")?;
        let duration_s = c.f32("duration")?;
        let n_tracks = read_count(c, true, TRACK_MIN_BYTES, MAX_TRACKS, "track count")?;
        let mut tracks = Vec::with_capacity(n_tracks);
        for _ in 0..n_tracks {
            let start = c.offset();
            let node = read_name(c, "track node name")?;
            let offset = c.offset();
            let code = c.u8("path")?;
            let path = Path::from_code(code).ok_or(Error::PathCode { offset, code })?;
            let offset = c.offset();
            let step = match c.u8("step")? {
                0 => false,
                1 => true,
                code => return Err(Error::StepFlag { offset, code }),
            };
            reserved_u16(c)?;
            let width = path.width();
            let n_keys = read_count(c, true, 4 + 4 * width as u64, MAX_KEYS, "key count")?;
            let times = c.offset();
            let times_s = c.values(4 * n_keys, "key times", cursor::le_f32s)?;
            let values_at = c.offset();
            let values = c.values(4 * width * n_keys, "key values", cursor::le_f32s)?;
            clip_at.tracks.push(TrackAt {
                start,
                times,
                values: values_at,
                width,
            });
            tracks.push(Track {
                node,
                path,
                step,
                times_s,
                values,
            });
        }
        at.clips.push(clip_at);
        clips.push(Clip {
            name,
            duration_s,
            tracks,
        });
    }
    Ok((Bank { id, clips }, at))
}

// ---------------------------------------------------------------- encode

/// Validates `doc` and writes its canonical bytes.
pub fn encode(doc: &Document) -> Result<Vec<u8>, Error> {
    let problems = validate(doc);
    if !problems.is_empty() {
        return Err(Error::Invalid(problems));
    }
    let len = doc
        .encoded_len()
        .expect("a valid document is at most 64 MiB");
    let mut out = Vec::with_capacity(len);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&(len as u32).to_le_bytes());
    out.extend_from_slice(&(doc.models.len() as u16).to_le_bytes());
    out.extend_from_slice(&(doc.banks.len() as u16).to_le_bytes());
    let name = |out: &mut Vec<u8>, s: &str| {
        out.push(s.len() as u8);
        out.extend_from_slice(s.as_bytes());
    };
    let u32_ = |out: &mut Vec<u8>, v: usize| out.extend_from_slice(&(v as u32).to_le_bytes());
    let floats = |out: &mut Vec<u8>, vs: &[f32]| {
        for v in vs {
            out.extend_from_slice(&v.to_le_bytes());
        }
    };
    for m in &doc.models {
        name(&mut out, &m.id);
        u32_(&mut out, m.bank as usize);
        u32_(&mut out, m.nodes.len());
        for n in &m.nodes {
            name(&mut out, &n.name);
            out.extend_from_slice(&n.parent.unwrap_or(NO_PARENT).to_le_bytes());
            floats(&mut out, &n.translation);
            floats(&mut out, &n.rotation);
            floats(&mut out, &n.scale);
        }
        u32_(&mut out, m.mesh_node as usize);
        u32_(&mut out, m.joints.len());
        for j in &m.joints {
            out.extend_from_slice(&j.to_le_bytes());
        }
        for ibm in &m.inverse_bind {
            floats(&mut out, ibm);
        }
        u32_(&mut out, m.vertices.len());
        for v in &m.vertices {
            floats(&mut out, v);
        }
        u32_(&mut out, m.indices.len());
        for i in &m.indices {
            out.extend_from_slice(&i.to_le_bytes());
        }
        u32_(&mut out, m.image.width as usize);
        u32_(&mut out, m.image.height as usize);
        u32_(&mut out, m.image.qoi.len());
        out.extend_from_slice(&m.image.qoi);
    }
    for b in &doc.banks {
        name(&mut out, &b.id);
        u32_(&mut out, b.clips.len());
        for c in &b.clips {
            name(&mut out, &c.name);
            floats(&mut out, &[c.duration_s]);
            u32_(&mut out, c.tracks.len());
            for t in &c.tracks {
                name(&mut out, &t.node);
                out.push(t.path as u8);
                out.push(u8::from(t.step));
                out.extend_from_slice(&[0, 0]);
                u32_(&mut out, t.times_s.len());
                floats(&mut out, &t.times_s);
                floats(&mut out, &t.values);
            }
        }
    }
    debug_assert_eq!(out.len(), len);
    Ok(out)
}

// -------------------------------------------------------------- validate

/// Every problem of `doc` (at most [`MAX_PROBLEMS`], then one saying more
/// were found), each with its path; empty when it is valid.
pub fn validate(doc: &Document) -> Vec<Problem> {
    check(doc, &|_| None)
}

struct Problems<'a> {
    list: Vec<Problem>,
    more: usize,
    offset: &'a dyn Fn(Loc) -> Option<usize>,
}

impl Problems<'_> {
    fn add(&mut self, loc: Loc, field: &str, message: String) {
        if self.list.len() >= MAX_PROBLEMS {
            self.more += 1;
            return;
        }
        let path = if field.is_empty() {
            loc.to_string()
        } else {
            format!("{loc}.{field}")
        };
        self.list.push(Problem {
            offset: (self.offset)(loc).map(|o| o as u64),
            path,
            message,
        });
    }
}

fn check(doc: &Document, offset: &dyn Fn(Loc) -> Option<usize>) -> Vec<Problem> {
    let mut p = Problems {
        list: Vec::new(),
        more: 0,
        offset,
    };
    check_document(doc, &mut p);
    for (m, model) in doc.models.iter().enumerate() {
        // Which nodes reach a root: both checks skip the others.
        let rooted = rooted(&model.nodes);
        check_model(m, model, &rooted, &mut p);
        if let Some(bank) = doc.banks.get(model.bank as usize) {
            check_binding(m, model, bank, &rooted, &mut p);
        }
    }
    for (b, bank) in doc.banks.iter().enumerate() {
        check_bank(b, bank, &mut p);
    }
    if p.more > 0 {
        let more = p.more;
        p.more = 0;
        p.list.pop();
        p.add(
            Loc::Document,
            "",
            format!(
                "{} more problems not listed (at most {MAX_PROBLEMS} are)",
                more + 1
            ),
        );
    }
    p.list
}

/// The rule `name` breaks as an id, clip or node name (its length), in
/// words, if any: "must be 1 to 128 bytes of UTF-8, found N bytes". Not a
/// validator: [`validate`] and the planner each place it (at a path, at a
/// manifest position).
pub fn broken_name_rule(name: &str) -> Option<String> {
    (name.is_empty() || name.len() > MAX_NAME).then(|| {
        format!(
            "must be 1 to {MAX_NAME} bytes of UTF-8, found {} bytes",
            name.len()
        )
    })
}

fn check_name(p: &mut Problems, loc: Loc, field: &str, name: &str) {
    if let Some(m) = broken_name_rule(name) {
        p.add(loc, field, m);
    }
}

fn check_count(p: &mut Problems, loc: Loc, field: &str, n: usize, min: usize, max: usize) {
    if n < min || n > max {
        p.add(
            loc,
            field,
            format!("must hold {min} to {max} items, found {n}"),
        );
    }
}

/// Names that appear twice: each later one, with the index of the first.
fn duplicates<'a>(names: impl Iterator<Item = &'a str>) -> Vec<(usize, usize)> {
    let mut seen = std::collections::BTreeMap::new();
    let mut out = Vec::new();
    for (i, n) in names.enumerate() {
        if let Some(&first) = seen.get(n) {
            out.push((i, first));
        } else {
            seen.insert(n, i);
        }
    }
    out
}

fn check_document(doc: &Document, p: &mut Problems) {
    check_count(p, Loc::Document, "models", doc.models.len(), 0, MAX_MODELS);
    check_count(p, Loc::Document, "banks", doc.banks.len(), 0, MAX_BANKS);
    match doc.encoded_len() {
        Some(n) if n <= MAX_BYTES => {}
        n => p.add(
            Loc::Document,
            "",
            format!(
                "encodes to {} bytes, more than the limit of {MAX_BYTES} (64 MiB)",
                n.map_or("more than usize::MAX".to_string(), |n| n.to_string())
            ),
        ),
    }
    for (m, first) in duplicates(doc.models.iter().map(|m| m.id.as_str())) {
        p.add(
            Loc::Model(m),
            "id",
            format!(
                "duplicate id \"{}\" (models[{first}] has it)",
                doc.models[m].id
            ),
        );
    }
    for (b, first) in duplicates(doc.banks.iter().map(|b| b.id.as_str())) {
        p.add(
            Loc::Bank(b),
            "id",
            format!(
                "duplicate id \"{}\" (banks[{first}] has it)",
                doc.banks[b].id
            ),
        );
    }
    for (m, model) in doc.models.iter().enumerate() {
        if model.bank as usize >= doc.banks.len() {
            p.add(
                Loc::Model(m),
                "bank",
                format!(
                    "bank {} does not exist (the document has {} banks)",
                    model.bank,
                    doc.banks.len()
                ),
            );
        }
    }
}

fn finite_all(p: &mut Problems, loc: Loc, field: &str, values: &[f32]) -> bool {
    if let Some(v) = values.iter().find(|v| !v.is_finite()) {
        p.add(loc, field, format!("must be finite, found {v}"));
        return false;
    }
    true
}

/// The squared length of `v`, in f64.
fn norm2(v: &[f32]) -> f64 {
    v.iter().map(|&c| f64::from(c) * f64::from(c)).sum()
}

fn check_unit(p: &mut Problems, loc: Loc, field: &str, q: &[f32]) {
    let n = norm2(q);
    if q.iter().all(|c| c.is_finite()) && (n - 1.0).abs() > UNIT_TOLERANCE {
        p.add(
            loc,
            field,
            format!(
                "must be a unit quaternion (|q|² within {UNIT_TOLERANCE} of 1), found |q|² = {n}"
            ),
        );
    }
}

/// For each node, whether following parents from it reaches a root (no
/// cycle and no parent out of range on the way).
fn rooted(nodes: &[Node]) -> Vec<bool> {
    let n = nodes.len();
    let mut ok = vec![false; n];
    for (start, ok) in ok.iter_mut().enumerate() {
        let mut node = start;
        let mut steps = 0;
        loop {
            match nodes[node].parent {
                None => {
                    *ok = true;
                    break;
                }
                Some(q) if (q as usize) < n && steps < n => {
                    node = q as usize;
                    steps += 1;
                }
                _ => break,
            }
        }
    }
    ok
}

fn check_model(m: usize, model: &Model, rooted: &[bool], p: &mut Problems) {
    let here = Loc::Model(m);
    check_name(p, here, "id", &model.id);
    let n_nodes = model.nodes.len();
    check_count(p, here, "nodes", n_nodes, 1, MAX_NODES);
    for (n, node) in model.nodes.iter().enumerate() {
        let at = Loc::Node(m, n);
        check_name(p, at, "name", &node.name);
        if let Some(parent) = node.parent
            && parent as usize >= n_nodes
        {
            p.add(
                at,
                "parent",
                format!("node {parent} does not exist (the model has {n_nodes} nodes)"),
            );
        }
        finite_all(p, at, "translation", &node.translation);
        if finite_all(p, at, "rotation", &node.rotation) {
            check_unit(p, at, "rotation", &node.rotation);
        }
        finite_all(p, at, "scale", &node.scale);
    }
    for (n, first) in duplicates(model.nodes.iter().map(|n| n.name.as_str())) {
        p.add(
            Loc::Node(m, n),
            "name",
            format!(
                "duplicate node name \"{}\" (nodes[{first}] has it)",
                model.nodes[n].name
            ),
        );
    }
    // A node is on a cycle when following parents from it comes back to it.
    for (n, _) in rooted.iter().enumerate().filter(|(_, ok)| !**ok) {
        let mut node = n;
        for _ in 0..n_nodes {
            match model.nodes[node].parent {
                Some(q) if (q as usize) < n_nodes => node = q as usize,
                _ => break,
            }
            if node == n {
                p.add(
                    Loc::Node(m, n),
                    "parent",
                    "hierarchy cycle: the node is its own ancestor".to_string(),
                );
                break;
            }
        }
    }
    if model.mesh_node as usize >= n_nodes {
        p.add(
            here,
            "mesh_node",
            format!(
                "node {} does not exist (the model has {n_nodes} nodes)",
                model.mesh_node
            ),
        );
    }
    check_count(p, here, "joints", model.joints.len(), 1, MAX_JOINTS);
    for (j, &node) in model.joints.iter().enumerate() {
        if node as usize >= n_nodes {
            p.add(
                Loc::Joint(m, j),
                "",
                format!("palette entry names node {node}, which does not exist (the model has {n_nodes} nodes)"),
            );
        }
    }
    if model.inverse_bind.len() != model.joints.len() {
        p.add(
            here,
            "inverse_bind",
            format!(
                "must hold one matrix per joint ({}), found {}",
                model.joints.len(),
                model.inverse_bind.len()
            ),
        );
    }
    for (j, ibm) in model.inverse_bind.iter().enumerate() {
        check_inverse_bind(p, Loc::InverseBind(m, j), ibm);
    }
    check_vertices(m, model, p);
    check_indices(m, model, p);
    check_image(m, &model.image, p);
}

fn check_inverse_bind(p: &mut Problems, at: Loc, ibm: &[f32; 16]) {
    if !finite_all(p, at, "", ibm) {
        return;
    }
    if [ibm[3], ibm[7], ibm[11], ibm[15]] != [0.0, 0.0, 0.0, 1.0] {
        p.add(
            at,
            "",
            format!(
                "the last row must be 0 0 0 1, found {} {} {} {}",
                ibm[3], ibm[7], ibm[11], ibm[15]
            ),
        );
        return;
    }
    let e = |i: usize| f64::from(ibm[i]);
    // Column-major: element (row r, column c) is e(4c + r).
    let det = e(0) * (e(5) * e(10) - e(9) * e(6)) - e(4) * (e(1) * e(10) - e(9) * e(2))
        + e(8) * (e(1) * e(6) - e(5) * e(2));
    if det.abs() < MIN_DETERMINANT {
        p.add(
            at,
            "",
            format!(
                "singular: the 3 x 3 determinant is {det:e}, its magnitude must be at least {MIN_DETERMINANT:e}"
            ),
        );
    }
}

fn check_vertices(m: usize, model: &Model, p: &mut Problems) {
    check_count(
        p,
        Loc::Model(m),
        "vertices",
        model.vertices.len(),
        1,
        MAX_VERTICES,
    );
    let palette = model.joints.len() as f32;
    for (v, vertex) in model.vertices.iter().enumerate() {
        let at = Loc::Vertex(m, v);
        if !finite_all(p, at, "", vertex) {
            continue;
        }
        if vertex[6..8].iter().any(|&c| !(0.0..=1.0).contains(&c)) {
            p.add(
                at,
                "uv",
                format!(
                    "atlas UV must be within [0, 1], found ({}, {})",
                    vertex[6], vertex[7]
                ),
            );
        }
        for &i in &vertex[8..12] {
            if i.fract() != 0.0 || i < 0.0 || i >= palette {
                p.add(
                    at,
                    "joints",
                    format!(
                        "palette index must be an integral value below the palette length {palette}, found {i}"
                    ),
                );
                break;
            }
        }
        let weights = &vertex[12..16];
        if let Some(w) = weights.iter().find(|&&w| w < 0.0) {
            p.add(
                at,
                "weights",
                format!("weights must not be negative, found {w}"),
            );
        } else {
            let sum = weights.iter().fold(0.0f64, |s, &w| s + f64::from(w));
            if (sum - 1.0).abs() > UNIT_TOLERANCE {
                p.add(
                    at,
                    "weights",
                    format!("weights must sum to 1 (within {UNIT_TOLERANCE}), found {sum}"),
                );
            }
        }
    }
}

fn check_indices(m: usize, model: &Model, p: &mut Problems) {
    let n = model.indices.len();
    check_count(p, Loc::Model(m), "indices", n, 3, MAX_INDICES);
    if !n.is_multiple_of(3) {
        p.add(
            Loc::Model(m),
            "indices",
            format!("must be whole triangles (a multiple of 3), found {n}"),
        );
    }
    let vertices = model.vertices.len();
    for (i, &index) in model.indices.iter().enumerate() {
        if usize::from(index) >= vertices {
            p.add(
                Loc::Index(m, i),
                "",
                format!(
                    "triangle index {index} is out of range (the model has {vertices} vertices)"
                ),
            );
        }
    }
}

fn check_image(m: usize, image: &Image, p: &mut Problems) {
    let at = Loc::Image(m);
    for (field, side) in [("width", image.width), ("height", image.height)] {
        if side == 0 || side > MAX_TEXTURE_SIDE {
            p.add(
                at,
                field,
                format!("must be 1 to {MAX_TEXTURE_SIDE}, found {side}"),
            );
        }
    }
    if image.qoi.len() > MAX_IMAGE_BYTES {
        p.add(
            at,
            "qoi",
            format!(
                "{} bytes, more than the limit of {MAX_IMAGE_BYTES}",
                image.qoi.len()
            ),
        );
        return;
    }
    // The header first: dimensions that disagree (or are over the limit)
    // are reported without decoding a large image.
    let header = match qoi::header(&image.qoi) {
        Ok(h) => h,
        Err(e) => {
            p.add(at, "qoi", format!("malformed QOI: {e}"));
            return;
        }
    };
    if (header.width, header.height) != (image.width, image.height) {
        p.add(
            at,
            "qoi",
            format!(
                "the QOI header says {} x {}, the model declares {} x {}",
                header.width, header.height, image.width, image.height
            ),
        );
        return;
    }
    if header.width > MAX_TEXTURE_SIDE || header.height > MAX_TEXTURE_SIDE {
        return;
    }
    if header.channels != qoi::Channels::Rgba || header.colorspace != qoi::Colorspace::Srgb {
        p.add(
            at,
            "qoi",
            format!(
                "must have 4 channels and colorspace 0 (sRGB), found {} channels and colorspace {}",
                header.channels as u8, header.colorspace as u8
            ),
        );
        return;
    }
    let decoded = match qoi::decode(&image.qoi) {
        Ok(d) => d,
        Err(e) => {
            p.add(at, "qoi", format!("malformed QOI: {e}"));
            return;
        }
    };
    if !decoded.is_opaque() {
        p.add(
            at,
            "qoi",
            "the albedo must be opaque: a pixel's alpha is not 255".to_string(),
        );
        return;
    }
    if !qoi::is_reference_encoding(&decoded, &image.qoi) {
        p.add(
            at,
            "qoi",
            "not the canonical encoding: the bytes differ from the reference encoder's for these pixels"
                .to_string(),
        );
    }
}

fn check_bank(b: usize, bank: &Bank, p: &mut Problems) {
    let here = Loc::Bank(b);
    check_name(p, here, "id", &bank.id);
    check_count(p, here, "clips", bank.clips.len(), 0, MAX_CLIPS);
    for (c, first) in duplicates(bank.clips.iter().map(|c| c.name.as_str())) {
        p.add(
            Loc::Clip(b, c),
            "name",
            format!(
                "duplicate clip name \"{}\" (clips[{first}] has it)",
                bank.clips[c].name
            ),
        );
    }
    let keys: usize = bank
        .clips
        .iter()
        .flat_map(|c| &c.tracks)
        .map(Track::keys)
        .sum();
    if keys > MAX_KEYS {
        p.add(
            here,
            "",
            format!("holds {keys} keys, more than the limit of {MAX_KEYS} per bank"),
        );
    }
    for (c, clip) in bank.clips.iter().enumerate() {
        check_clip(b, c, clip, p);
    }
}

fn check_clip(b: usize, c: usize, clip: &Clip, p: &mut Problems) {
    let here = Loc::Clip(b, c);
    check_name(p, here, "name", &clip.name);
    let duration = clip.duration_s;
    if !(0.0..=MAX_DURATION_S).contains(&duration) {
        p.add(
            here,
            "duration",
            format!("must be 0 to {MAX_DURATION_S} seconds, found {duration}"),
        );
    }
    check_count(p, here, "tracks", clip.tracks.len(), 0, MAX_TRACKS);
    for (t, pair) in clip.tracks.windows(2).enumerate() {
        let (a, z) = (&pair[0], &pair[1]);
        let order = (a.node.as_bytes(), a.path).cmp(&(z.node.as_bytes(), z.path));
        let at = Loc::Track(b, c, t + 1);
        match order {
            std::cmp::Ordering::Equal => p.add(
                at,
                "",
                format!(
                    "node \"{}\" and path {} appear twice in the clip",
                    z.node,
                    z.path.name()
                ),
            ),
            std::cmp::Ordering::Greater => p.add(
                at,
                "",
                format!(
                    "tracks must be ordered by node name then path: ({}, {}) comes after ({}, {})",
                    z.node,
                    z.path.name(),
                    a.node,
                    a.path.name()
                ),
            ),
            std::cmp::Ordering::Less => {}
        }
    }
    for (t, track) in clip.tracks.iter().enumerate() {
        let at = Loc::Track(b, c, t);
        check_name(p, at, "node", &track.node);
        let n = track.keys();
        if n == 0 {
            p.add(at, "times", "a track needs at least 1 key".to_string());
        }
        let width = track.path.width();
        if track.values.len() != n * width {
            p.add(
                at,
                "values",
                format!(
                    "must hold {width} values per key ({}), found {}",
                    n * width,
                    track.values.len()
                ),
            );
            continue;
        }
        let mut last = None::<f32>;
        for (k, &time) in track.times_s.iter().enumerate() {
            let at = Loc::KeyTime(b, c, t, k);
            if !time.is_finite() || time < 0.0 || time > duration {
                p.add(
                    at,
                    "",
                    format!("a key time must be within 0 and the clip's duration {duration} s, found {time}"),
                );
            } else if let Some(prev) = last.filter(|&prev| time <= prev) {
                p.add(
                    at,
                    "",
                    format!("key times must strictly increase: {time} follows {prev}"),
                );
            }
            last = Some(time);
        }
        for (k, value) in track.values.chunks_exact(width).enumerate() {
            let at = Loc::KeyValue(b, c, t, k);
            if finite_all(p, at, "", value) && track.path == Path::Rotation {
                check_unit(p, at, "", value);
            }
        }
    }
}

/// Every track of `bank` names a node of `model`, and the accumulated
/// bounds hold for every combination of its clips.
fn check_binding(m: usize, model: &Model, bank: &Bank, rooted: &[bool], p: &mut Problems) {
    let index: std::collections::BTreeMap<&str, usize> = model
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.name.as_str(), i))
        .collect();
    let mut missing = BTreeSet::new();
    let n_nodes = model.nodes.len();
    // Per node: least and greatest scale component magnitude, longest
    // translation, over the bind transform and every key.
    let mut smin = vec![f64::INFINITY; n_nodes];
    let mut smax = vec![0.0f64; n_nodes];
    let mut tmax = vec![0.0f64; n_nodes];
    for (n, node) in model.nodes.iter().enumerate() {
        for &s in &node.scale {
            smin[n] = smin[n].min(f64::from(s).abs());
            smax[n] = smax[n].max(f64::from(s).abs());
        }
        tmax[n] = norm2(&node.translation).sqrt();
    }
    // A bank's bounds rules are checked per model, against the bank's
    // locations: the keys are the bank's.
    let b = model.bank as usize;
    for (c, clip) in bank.clips.iter().enumerate() {
        for (t, track) in clip.tracks.iter().enumerate() {
            let Some(&n) = index.get(track.node.as_str()) else {
                missing.insert(track.node.as_str());
                continue;
            };
            let width = track.path.width();
            for (k, value) in track.values.chunks_exact(width).enumerate() {
                match track.path {
                    Path::Rotation => {}
                    Path::Translation => tmax[n] = tmax[n].max(norm2(value).sqrt()),
                    Path::Scale => {
                        for (axis, &s) in value.iter().enumerate() {
                            let bind = model.nodes[n].scale[axis];
                            if s == 0.0 || (s < 0.0) != (bind < 0.0) {
                                p.add(
                                    Loc::KeyValue(b, c, t, k),
                                    "",
                                    format!(
                                        "models[{m}] ({}): scale {s} on axis {axis} of node \"{}\" crosses the bind scale {bind} through zero (a singular transform)",
                                        model.id, track.node
                                    ),
                                );
                            }
                            smin[n] = smin[n].min(f64::from(s).abs());
                            smax[n] = smax[n].max(f64::from(s).abs());
                        }
                    }
                }
            }
        }
    }
    if !missing.is_empty() {
        let names: Vec<String> = missing.iter().map(|n| format!("\"{n}\"")).collect();
        p.add(
            Loc::Model(m),
            "bank",
            format!(
                "the model lacks {} node{} its bank \"{}\" animates: {}",
                names.len(),
                if names.len() == 1 { "" } else { "s" },
                bank.id,
                names.join(", ")
            ),
        );
    }
    // Accumulate along each chain, parents first (nodes on a cycle or under
    // a bad parent are reported elsewhere and skipped here).
    let mut acc: Vec<Option<(f64, f64, f64)>> = vec![None; n_nodes];
    for start in 0..n_nodes {
        if !rooted[start] || acc[start].is_some() {
            continue;
        }
        let mut chain = vec![start];
        while let Some(parent) = model.nodes[*chain.last().unwrap()].parent {
            let parent = parent as usize;
            if acc[parent].is_some() {
                break;
            }
            chain.push(parent);
        }
        while let Some(n) = chain.pop() {
            let (pmin, pmax, pt) = model.nodes[n]
                .parent
                .and_then(|q| acc[q as usize])
                .unwrap_or((1.0, 1.0, 0.0));
            let a = (pmin * smin[n], pmax * smax[n], pt + pmax * tmax[n]);
            acc[n] = Some(a);
            let (amin, amax, at) = a;
            let here = Loc::Node(m, n);
            // Only where a chain first goes out of bounds: its descendants
            // follow.
            let scale_ok = |lo: f64, hi: f64| {
                (MIN_ACCUMULATED_SCALE..=MAX_ACCUMULATED_SCALE).contains(&lo)
                    && (MIN_ACCUMULATED_SCALE..=MAX_ACCUMULATED_SCALE).contains(&hi)
            };
            if !scale_ok(amin, amax) && scale_ok(pmin, pmax) {
                p.add(
                    here,
                    "scale",
                    format!(
                        "accumulated scale magnitude may reach {amin:e} to {amax:e} over the bind pose and bank \"{}\"; it must stay within {MIN_ACCUMULATED_SCALE:e} and {MAX_ACCUMULATED_SCALE:e}",
                        bank.id
                    ),
                );
            }
            if at >= MAX_ACCUMULATED_TRANSLATION && pt < MAX_ACCUMULATED_TRANSLATION {
                p.add(
                    here,
                    "translation",
                    format!(
                        "accumulated translation may reach {at:e} over the bind pose and bank \"{}\"; it must stay below {MAX_ACCUMULATED_TRANSLATION:e}",
                        bank.id
                    ),
                );
            }
        }
    }
}
