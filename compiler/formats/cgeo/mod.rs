//! Corona CGeo mesh cache, version 7: a strict reader and a writer.
//!
//! The layout and every decision the seed leaves open are in
//! `docs/formats/cgeo.md`. [`Reader::new`] reads the header, the flags and
//! the offset table and walks every snapshot's section headers (so the
//! table is checked against the file), decoding only snapshot 0;
//! [`Reader::snapshot`] decodes one snapshot at a time, so a job's memory
//! is one snapshot's, whatever the sequence's length. [`decode`] reads
//! them all; [`encode`](fn@encode) writes a [`Sequence`] (validated first).
//!
//! Compressed payloads are zlib streams (`payload::inflate_section` is the one
//! place that says so), inflated as they are parsed: a count is checked
//! against what the compressed bytes left could inflate to before it sizes
//! anything, and the stream must end exactly where the counts say.

use std::fmt;

use super::cursor;
pub use super::problem::Problem;

mod encode;
mod header;
mod payload;
mod reader;
mod validate;

pub use encode::{encode, encode_prefix, encode_snapshot};
pub use reader::{Reader, Source, SourceFailed};
pub use validate::{validate, validate_header, validate_snapshot};

/// The first byte of a CGeo file.
pub const MAGIC: u8 = 0x43;
/// The only version read and written.
pub const VERSION: u32 = 7;
/// The flag bit (value) that says every snapshot is complete.
pub const TOPOLOGY_CHANGING: u32 = 0x2;

pub const TAG_ANIMATION_SNAPSHOT_START: u32 = 0xA3CD_EF00;
pub const TAG_ANIMATION_SNAPSHOT_END: u32 = 0xFED3_BA11;
pub const TAG_ANIM_TABLE_START: u32 = 0xFAD0_CCA1;
pub const TAG_ANIM_TABLE_END: u32 = 0xE580_AC23;
pub const TAG_BOUNDING_BOX: u32 = 0x2F89_A8B5;
pub const TAG_MESH_DATA: u32 = 0x35F7_1EA8;
pub const TAG_MESH_VERTICES_END: u32 = 0x42C3_42CC;
pub const TAG_MESH_NORMALS_END: u32 = 0xB00B_06B0;
pub const TAG_MESH_MAP_COORDS_END: u32 = 0xCAAC_04CA;
pub const TAG_POINTCLOUD: u32 = 0x1387_EBEB;

/// Largest file: 16 GiB.
pub const MAX_FILE_BYTES: u64 = 16 << 30;
/// Largest text header: 1 MiB.
pub const MAX_HEADER_BYTES: u32 = 1 << 20;
/// Most snapshots a file may hold.
pub const MAX_SNAPSHOTS: u64 = 1_000_000;
/// Most vertices, normals, coordinates of one map channel, triangles, or
/// points of a point cloud, in one snapshot.
pub const MAX_ELEMENTS: u64 = 1 << 24;
/// Most map channels.
pub const MAX_MAP_CHANNELS: u64 = 16;
/// Most bytes the counts of one section (a snapshot's mesh, bounding box
/// or point cloud) may claim, decoded: 1 GiB (a snapshot of 16 million
/// vertices with normals and a map channel is 600 MB). Whatever deflate's
/// ratio allows a compressed section, this bounds a snapshot's memory.
pub const MAX_SECTION_DECODED_BYTES: u64 = 1 << 30;
/// Most sections a file's snapshots hold together (a real file has 2 to 4
/// a snapshot): the index of where each is, kept while the file is open,
/// is at most this many entries (24 bytes each), whatever the file's size.
pub const MAX_SECTIONS: u64 = 1 << 23;
/// Deflate's largest expansion: no stream inflates to more than this many
/// bytes per compressed byte (plus a block's worth).
pub const MAX_INFLATE_RATIO: u64 = 1032;

/// The most inflated bytes the inflater holds before handing them out (its
/// dictionary window): input it has consumed can still owe this much.
pub const INFLATE_WINDOW: u64 = 32 << 10;

/// The header keys kiln reads, in the order it writes them.
pub const KEY_VERSION: &str = "Version";
pub const KEY_SNAPSHOTS: &str = "Animation snapshot count";
pub const KEY_TIME_PER_SNAPSHOT: &str = "Time per animation snapshot [microseconds]";
pub const KEY_START: &str = "Animation time start";
pub const KEY_SCALE: &str = "Scale";
pub const KEY_MATERIAL: &str = "Original material name";
pub const KEY_OBJECT: &str = "Original object name";
pub const KEY_COMPRESSED: &str = "Compressed";
const MANDATORY: [&str; 8] = [
    KEY_VERSION,
    KEY_SNAPSHOTS,
    KEY_TIME_PER_SNAPSHOT,
    KEY_START,
    KEY_SCALE,
    KEY_MATERIAL,
    KEY_OBJECT,
    KEY_COMPRESSED,
];

/// The text header's mandatory properties, and every other line in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    pub snapshots: u32,
    pub time_per_snapshot_us: u64,
    pub start_us: i64,
    /// The data's unit relative to millimetres; 0 is unknown.
    pub scale: f64,
    pub material: String,
    pub object: String,
    pub compressed: bool,
    /// The other lines: (key, value) properties and free text.
    pub other: Vec<Line>,
}

/// A header line kiln does not interpret.
#[derive(Clone, Debug, PartialEq)]
pub enum Line {
    Property(String, String),
    Text(String),
}

/// One triangle: three vertex and three normal indices, a material id and
/// the edge visibility bits (0: AB, 1: BC, 2: CA).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Triangle {
    pub vertices: [u32; 3],
    pub normals: [u32; 3],
    pub material: u16,
    pub edges: u8,
}

/// A snapshot's geometry, absolute values (a difference snapshot's added
/// to snapshot 0's). Topology (`triangles`, `map_indices`) is held by
/// complete snapshots; a difference snapshot's are empty and snapshot 0's
/// apply.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mesh {
    pub vertices: Vec<[f32; 3]>,
    pub normals: Vec<[f32; 3]>,
    /// Per map channel, its coordinates (U, V, W).
    pub channels: Vec<Vec<[f32; 3]>>,
    pub triangles: Vec<Triangle>,
    /// Per triangle, per channel (triangle-major), three coordinate
    /// indices: `triangles.len() * channels.len()` entries.
    pub map_indices: Vec<[u32; 3]>,
}

/// One animation snapshot.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Snapshot {
    /// Stored complete (with topology), not as a difference.
    pub complete: bool,
    pub mesh: Mesh,
    /// Min X, Y, Z, max X, Y, Z.
    pub bounding_box: Option<[f32; 6]>,
    pub point_cloud: Option<Vec<[f32; 3]>>,
    /// Sections kiln does not know: (id, payload as stored).
    pub unknown: Vec<(u32, Vec<u8>)>,
    /// The section ids in file order (the writer's order; empty: mesh,
    /// bounding box, point cloud, then the unknown ones).
    pub order: Vec<u32>,
}

/// A whole CGeo file.
#[derive(Clone, Debug, PartialEq)]
pub struct Sequence {
    pub header: Header,
    pub topology_changing: bool,
    pub snapshots: Vec<Snapshot>,
}

// ------------------------------------------------------------- errors

/// A broken rule, where: the byte offset in the file, the snapshot and the
/// section it is in, and for a compressed payload the offset within its
/// inflated bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct Error {
    pub offset: u64,
    pub snapshot: Option<usize>,
    pub section: Option<u32>,
    pub inflated: Option<usize>,
    pub rule: Rule,
}

/// What was wrong.
#[derive(Clone, Debug, PartialEq)]
pub enum Rule {
    Bytes(cursor::Error),
    FileTooLarge(u64),
    Magic(u8),
    HeaderLength(u32),
    HeaderUtf8,
    DuplicateKey(String),
    MissingKey(&'static str),
    BadValue {
        key: &'static str,
        value: String,
        want: &'static str,
    },
    Flags(u32),
    Tag {
        what: &'static str,
        want: u32,
        found: u32,
    },
    OffsetTable {
        entry: usize,
        found: u64,
        want: u64,
    },
    DuplicateSection(u32),
    NoMeshData,
    SnapshotKind {
        found: u8,
        want: &'static str,
    },
    TooMany {
        what: &'static str,
        count: u64,
        limit: u64,
    },
    CannotFit {
        what: &'static str,
        count: u64,
        item_bytes: u64,
        possible: u64,
    },
    /// The section's counts together claim more than
    /// [`MAX_SECTION_DECODED_BYTES`].
    SectionTooLarge {
        what: &'static str,
        claimed: u64,
    },
    /// Memory a count asked for could not be had (the count is within
    /// the limits; the machine has less).
    NoMemory {
        what: &'static str,
        bytes: u64,
    },
    /// More sections in the file than [`MAX_SECTIONS`].
    TooManySections,
    NotZlib,
    Zlib(String),
    InflatedShort {
        need: usize,
    },
    InflatedTrailing,
    PayloadTrailing {
        extra: u64,
    },
    NotFinite {
        what: &'static str,
        index: usize,
    },
    Index {
        what: &'static str,
        triangle: usize,
        index: u32,
        len: usize,
    },
    EdgeBits {
        triangle: usize,
        bits: u8,
    },
    BoundingBox,
    Counts {
        what: &'static str,
        found: usize,
        want: usize,
    },
    /// The [`Source`] failed to give bytes (its own error says why).
    Source,
    Invalid(String),
}

impl Error {
    fn at(offset: usize, rule: Rule) -> Error {
        Error {
            offset: offset as u64,
            snapshot: None,
            section: None,
            inflated: None,
            rule,
        }
    }

    fn in_snapshot(mut self, k: usize) -> Error {
        self.snapshot.get_or_insert(k);
        self
    }
}

impl From<cursor::Error> for Error {
    fn from(e: cursor::Error) -> Error {
        let offset = e.offset();
        Error {
            offset,
            ..Error::at(0, Rule::Bytes(e))
        }
    }
}

/// A section id's name.
pub fn section_name(id: u32) -> String {
    match id {
        TAG_MESH_DATA => "TAG_MESH_DATA".into(),
        TAG_BOUNDING_BOX => "TAG_BOUNDING_BOX".into(),
        TAG_POINTCLOUD => "TAG_POINTCLOUD".into(),
        other => format!("section 0x{other:08X}"),
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at byte {}", self.offset)?;
        if let Some(k) = self.snapshot {
            write!(f, ", snapshot {k}")?;
        }
        if let Some(id) = self.section {
            write!(f, ", {}", section_name(id))?;
        }
        if let Some(i) = self.inflated {
            write!(f, " (byte {i} of its inflated payload)")?;
        }
        write!(f, ": {}", self.rule)
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // The error names the offset itself (the cursor's): its rule.
            Rule::Bytes(e) => f.write_str(&e.rule()),
            Rule::FileTooLarge(n) => write!(f, "{n} bytes is more than the {MAX_FILE_BYTES}-byte limit"),
            Rule::Magic(b) => write!(f, "the first byte is 0x{b:02X}, not CGeo's 0x43"),
            Rule::HeaderLength(n) => write!(f, "a header of {n} bytes (1 to {MAX_HEADER_BYTES})"),
            Rule::HeaderUtf8 => f.write_str("the header is not UTF-8 text"),
            Rule::DuplicateKey(k) => write!(f, "header property {k:?} appears twice"),
            Rule::MissingKey(k) => write!(f, "the mandatory header property {k:?} is missing"),
            Rule::BadValue { key, value, want } => write!(f, "header property {key:?} is {value:?}; {want}"),
            Rule::Flags(v) => write!(
                f,
                "flags 0x{v:08X}: only bit 1 (0x{TOPOLOGY_CHANGING:X}, topology changing) is defined"
            ),
            Rule::Tag { what, want, found } => write!(f, "expected {what} 0x{want:08X}, found 0x{found:08X}"),
            Rule::OffsetTable { entry, found, want } => write!(
                f,
                "offset table entry {entry} is {found}; snapshot {entry}'s first section is at {want} (snapshots follow one another)"
            ),
            Rule::DuplicateSection(id) => write!(f, "{} appears twice in one snapshot", section_name(*id)),
            Rule::NoMeshData => f.write_str("the snapshot has no TAG_MESH_DATA section (the one mandatory section)"),
            Rule::SnapshotKind { found, want } => write!(f, "mesh data kind byte {found}; {want}"),
            Rule::TooMany { what, count, limit } => write!(f, "{count} {what}, more than the limit of {limit}"),
            Rule::NoMemory { what, bytes } => write!(
                f,
                "the {what} values need {bytes} bytes of memory, which could not be had: give kiln more memory"
            ),
            Rule::TooManySections => write!(
                f,
                "the file has more than {MAX_SECTIONS} sections, the most kiln indexes (every snapshot's sections are listed when the file is opened)"
            ),
            Rule::SectionTooLarge { what, claimed } => write!(
                f,
                "with its {what} the section's counts claim {claimed} bytes, more than the {MAX_SECTION_DECODED_BYTES} bytes a section may decode to"
            ),
            Rule::CannotFit { what, count, item_bytes, possible } => write!(
                f,
                "{count} {what} of {item_bytes} bytes each cannot fit in the {possible} bytes the payload can still hold"
            ),
            Rule::NotZlib => f.write_str(
                "the codec of compressed sections is zlib (RFC 1950); this payload does not start with a valid zlib header",
            ),
            Rule::Zlib(m) => write!(f, "the zlib stream is corrupt: {m}"),
            Rule::InflatedShort { need } => write!(f, "the zlib stream ends {need} bytes before what its counts need"),
            Rule::InflatedTrailing => f.write_str("the zlib stream inflates past what its counts need"),
            Rule::PayloadTrailing { extra } => write!(f, "{extra} bytes after what the counts need"),
            Rule::NotFinite { what, index } => write!(f, "{what} {index} is not finite"),
            Rule::Index { what, triangle, index, len } => {
                write!(f, "triangle {triangle}: {what} index {index} is out of range ({len})")
            }
            Rule::EdgeBits { triangle, bits } => {
                write!(f, "triangle {triangle}: edge visibility 0x{bits:02X} sets bits other than 0, 1, 2")
            }
            Rule::BoundingBox => f.write_str("bounding box min is above max on an axis, or not finite"),
            Rule::Counts { what, found, want } => write!(f, "{found} {what}; snapshot 0 has {want}"),
            Rule::Source => f.write_str("the file could not be read here"),
            Rule::Invalid(m) => f.write_str(m),
        }
    }
}

// ------------------------------------------------------------- header

impl std::error::Error for Error {}

/// Reads a whole file.
pub fn decode(bytes: &[u8]) -> Result<Sequence, Error> {
    let mut reader = Reader::new(bytes)?;
    let snapshots = (0..reader.len())
        .map(|k| reader.snapshot(k))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Sequence {
        header: reader.header().clone(),
        topology_changing: reader.topology_changing(),
        snapshots,
    })
}

// ------------------------------------------------------------- writing
