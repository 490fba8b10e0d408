//! Corona CGeo mesh cache, version 7: a strict reader and a writer.
//!
//! The layout and every decision the seed leaves open are in
//! `docs/formats/cgeo.md`. [`Reader::new`] reads the header, the flags and
//! the offset table and walks every snapshot's section headers (so the
//! table is checked against the file), decoding only snapshot 0;
//! [`Reader::snapshot`] decodes one snapshot at a time, so a job's memory
//! is one snapshot's, whatever the sequence's length. [`decode`] reads
//! them all; [`encode`] writes a [`Sequence`] (validated first).
//!
//! Compressed payloads are zlib streams ([`inflate_section`] is the one
//! place that says so), inflated as they are parsed: a count is checked
//! against what the compressed bytes left could inflate to before it sizes
//! anything, and the stream must end exactly where the counts say.

use std::borrow::Cow;
use std::fmt;

use miniz_oxide::inflate::stream::{InflateState, inflate};
use miniz_oxide::{DataFormat, MZError, MZFlush, MZStatus};

use super::cursor::{self, Cursor};
pub use super::problem::Problem;
use crate::memory;

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
    pub offset: usize,
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
            offset,
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
        Error::at(e.offset(), Rule::Bytes(e))
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

impl std::error::Error for Error {}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // The cursor's message names its own offset: keep the rule.
            Rule::Bytes(e) => {
                let text = e.to_string();
                f.write_str(text.split_once(": ").map_or(&text, |(_, rule)| rule))
            }
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

/// The header and where the data section starts.
fn read_header(bytes: &[u8]) -> Result<(Header, usize), Error> {
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(Error::at(0, Rule::FileTooLarge(bytes.len() as u64)));
    }
    let mut c = Cursor::new(bytes);
    let magic = c.u8("the magic byte")?;
    if magic != MAGIC {
        return Err(Error::at(0, Rule::Magic(magic)));
    }
    let len = c.u32("the header length")?;
    if len == 0 || len > MAX_HEADER_BYTES {
        return Err(Error::at(1, Rule::HeaderLength(len)));
    }
    let text = c.take(len as usize, "the header")?;
    let text =
        std::str::from_utf8(text).map_err(|e| Error::at(5 + e.valid_up_to(), Rule::HeaderUtf8))?;
    Ok((parse_header(text)?, c.offset()))
}

fn parse_header(text: &str) -> Result<Header, Error> {
    let mut found: [Option<(usize, &str)>; 8] = [None; 8];
    let mut other = Vec::new();
    let mut at = 5;
    for line in text.split('\n') {
        let here = at;
        at += line.len() + 1;
        match line.split_once(':') {
            None => {
                let t = line.trim();
                if !t.is_empty() {
                    other.push(Line::Text(t.to_string()));
                }
            }
            Some((k, v)) => {
                let (k, v) = (k.trim(), v.trim());
                match MANDATORY.iter().position(|m| *m == k) {
                    Some(i) if found[i].is_some() => {
                        return Err(Error::at(here, Rule::DuplicateKey(k.to_string())));
                    }
                    Some(i) => found[i] = Some((here, v)),
                    None => {
                        if other
                            .iter()
                            .any(|l| matches!(l, Line::Property(o, _) if o == k))
                        {
                            return Err(Error::at(here, Rule::DuplicateKey(k.to_string())));
                        }
                        other.push(Line::Property(k.to_string(), v.to_string()));
                    }
                }
            }
        }
    }
    let get = |i: usize| found[i].ok_or(Error::at(5, Rule::MissingKey(MANDATORY[i])));
    let bad = |i: usize, want: &'static str| {
        let (at, v) = found[i].expect("present");
        Error::at(
            at,
            Rule::BadValue {
                key: MANDATORY[i],
                value: v.to_string(),
                want,
            },
        )
    };
    let (_, version) = get(0)?;
    if version.parse::<u32>().ok() != Some(VERSION) {
        return Err(bad(0, "kiln reads version 7 (Corona v2 and later) only"));
    }
    let snapshots = get(1)?
        .1
        .parse::<u32>()
        .ok()
        .filter(|&n| n >= 1 && u64::from(n) <= MAX_SNAPSHOTS);
    let Some(snapshots) = snapshots else {
        return Err(bad(1, "a whole number from 1 to 1000000"));
    };
    let time = get(2)?
        .1
        .parse::<u64>()
        .ok()
        .filter(|&t| t >= 1 || snapshots == 1);
    let Some(time_per_snapshot_us) = time else {
        return Err(bad(
            2,
            "a whole number of microseconds, 1 or more (0 only for one snapshot)",
        ));
    };
    let Some(start_us) = get(3)?.1.parse::<i64>().ok() else {
        return Err(bad(3, "a whole number of microseconds"));
    };
    let scale = get(4)?
        .1
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0);
    let Some(scale) = scale else {
        return Err(bad(
            4,
            "a finite number, 0 or more (relative to millimetres; 0 is unknown)",
        ));
    };
    let material = get(5)?.1.to_string();
    let object = get(6)?.1.to_string();
    // Added in version 5, and True when missing (seed 004).
    let compressed = match found[7].map(|(_, v)| v.to_ascii_lowercase()).as_deref() {
        None | Some("true") => true,
        Some("false") => false,
        Some(_) => return Err(bad(7, "True or False")),
    };
    Ok(Header {
        snapshots,
        time_per_snapshot_us,
        start_us,
        scale,
        material,
        object,
        compressed,
        other,
    })
}

// ------------------------------------------------------------ payloads

/// A section's payload being read, and what its counts have claimed of
/// it: `pending`, the bytes claimed and not yet read (never more than can
/// still come), and `claimed`, all the bytes its counts claimed (at most
/// [`MAX_SECTION_DECODED_BYTES`]). Each count is checked with the ones
/// before it, not alone.
struct Payload<'a> {
    stored: Stored<'a>,
    pending: u64,
    claimed: u64,
}

/// The bytes of one section's payload as the parser reads them: the
/// stored bytes, or their zlib stream inflated as it is read.
enum Stored<'a> {
    Plain { bytes: &'a [u8], pos: usize },
    Zlib(Box<Inflater<'a>>),
}

struct Inflater<'a> {
    input: &'a [u8],
    consumed: usize,
    produced: usize,
    ended: bool,
    state: Box<InflateState>,
}

/// The codec of a compressed section: zlib (RFC 1950), the whole payload
/// one stream. The one place that says so.
fn inflate_section(stored: &[u8]) -> Result<Payload<'_>, Rule> {
    let header_ok = stored.len() >= 2
        && stored[0] & 0x0F == 8
        && stored[0] >> 4 <= 7
        && stored[1] & 0x20 == 0
        && (u16::from(stored[0]) << 8 | u16::from(stored[1])) % 31 == 0;
    if !header_ok {
        return Err(Rule::NotZlib);
    }
    Ok(Payload::of(Stored::Zlib(Box::new(Inflater {
        input: stored,
        consumed: 0,
        produced: 0,
        ended: false,
        state: InflateState::new_boxed(DataFormat::Zlib),
    }))))
}

impl<'a> Payload<'a> {
    fn of(stored: Stored<'a>) -> Payload<'a> {
        Payload {
            stored,
            pending: 0,
            claimed: 0,
        }
    }

    /// Where the next byte comes from: (file-relative offset within the
    /// stored payload, inflated offset).
    fn pos(&self) -> (usize, Option<usize>) {
        match &self.stored {
            Stored::Plain { pos, .. } => (*pos, None),
            Stored::Zlib(z) => (z.consumed, Some(z.produced)),
        }
    }

    /// The most bytes still to come.
    fn possible(&self) -> u64 {
        match &self.stored {
            Stored::Plain { bytes, pos } => (bytes.len() - pos) as u64,
            Stored::Zlib(z) if z.ended => 0,
            // What the stored bytes left can inflate to, plus what the
            // inflater may hold decoded but not handed out yet (its window).
            Stored::Zlib(z) => {
                ((z.input.len() - z.consumed) as u64 + 1) * MAX_INFLATE_RATIO + INFLATE_WINDOW
            }
        }
    }

    fn fill(&mut self, out: &mut [u8]) -> Result<(), Rule> {
        self.pending = self.pending.saturating_sub(out.len() as u64);
        match &mut self.stored {
            Stored::Plain { bytes, pos } => {
                let end = *pos + out.len();
                if end > bytes.len() {
                    return Err(Rule::Bytes(cursor::Error::Truncated {
                        offset: *pos,
                        what: "the section's payload".into(),
                        need: out.len() as u64,
                        have: bytes.len() - *pos,
                    }));
                }
                out.copy_from_slice(&bytes[*pos..end]);
                *pos = end;
                Ok(())
            }
            Stored::Zlib(z) => z.fill(out),
        }
    }

    /// Nothing may be left: all stored bytes used, the zlib stream ended
    /// exactly here.
    fn finish(&mut self) -> Result<(), Rule> {
        match &mut self.stored {
            Stored::Plain { bytes, pos } if *pos < bytes.len() => Err(Rule::PayloadTrailing {
                extra: (bytes.len() - *pos) as u64,
            }),
            Stored::Plain { .. } => Ok(()),
            Stored::Zlib(z) => {
                let mut one = [0u8; 1];
                match z.fill(&mut one) {
                    Ok(()) => Err(Rule::InflatedTrailing),
                    Err(Rule::InflatedShort { .. }) if z.consumed == z.input.len() => Ok(()),
                    Err(Rule::InflatedShort { .. }) => Err(Rule::PayloadTrailing {
                        extra: (z.input.len() - z.consumed) as u64,
                    }),
                    Err(e) => Err(e),
                }
            }
        }
    }

    fn u8(&mut self) -> Result<u8, Rule> {
        let mut b = [0u8; 1];
        self.fill(&mut b)?;
        Ok(b[0])
    }

    fn u32(&mut self) -> Result<u32, Rule> {
        let mut b = [0u8; 4];
        self.fill(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    fn u64(&mut self) -> Result<u64, Rule> {
        let mut b = [0u8; 8];
        self.fill(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    fn tag(&mut self, what: &'static str, want: u32) -> Result<(), Rule> {
        let found = self.u32()?;
        if found == want {
            Ok(())
        } else {
            Err(Rule::Tag { what, want, found })
        }
    }

    /// A count, at most `limit`, whose `item_bytes`-byte items can come
    /// after the items counts before it claimed, and fit the section's
    /// decoded budget with them.
    fn count(
        &mut self,
        count: u64,
        item_bytes: u64,
        limit: u64,
        what: &'static str,
    ) -> Result<usize, Rule> {
        if count > limit {
            return Err(Rule::TooMany { what, count, limit });
        }
        let bytes = count.saturating_mul(item_bytes);
        let possible = self.possible().saturating_sub(self.pending);
        if bytes > possible {
            return Err(Rule::CannotFit {
                what,
                count,
                item_bytes,
                possible,
            });
        }
        let claimed = self.claimed.saturating_add(bytes);
        if claimed > MAX_SECTION_DECODED_BYTES {
            return Err(Rule::SectionTooLarge { what, claimed });
        }
        self.pending += bytes;
        self.claimed = claimed;
        Ok(count as usize)
    }

    /// `n` finite float triples (`n` checked by the caller).
    /// Read through a window of [`WINDOW_ITEMS`] triples; the values are
    /// allocated fallibly (the count is within the limits, the memory may
    /// not be).
    fn vec3s(&mut self, n: usize, what: &'static str) -> Result<Vec<[f32; 3]>, Rule> {
        let mut out: Vec<[f32; 3]> = memory::with_capacity(n).map_err(|e| Rule::NoMemory {
            what,
            bytes: e.bytes,
        })?;
        let mut raw = [0u8; WINDOW_ITEMS * 12];
        while out.len() < n {
            let k = (n - out.len()).min(WINDOW_ITEMS);
            self.fill(&mut raw[..k * 12])?;
            for c in raw[..k * 12].chunks_exact(12) {
                let v: [f32; 3] = std::array::from_fn(|i| {
                    f32::from_le_bytes([c[4 * i], c[4 * i + 1], c[4 * i + 2], c[4 * i + 3]])
                });
                if v.iter().any(|x| !x.is_finite()) {
                    return Err(Rule::NotFinite {
                        what,
                        index: out.len(),
                    });
                }
                out.push(v);
            }
        }
        Ok(out)
    }
}

/// Items a payload is read in at a time (a window on the stack: a
/// section's values are never held twice).
const WINDOW_ITEMS: usize = 1024;

impl Inflater<'_> {
    fn fill(&mut self, out: &mut [u8]) -> Result<(), Rule> {
        let mut done = 0;
        while done < out.len() {
            if self.ended {
                return Err(Rule::InflatedShort {
                    need: out.len() - done,
                });
            }
            let r = inflate(
                &mut self.state,
                &self.input[self.consumed..],
                &mut out[done..],
                MZFlush::None,
            );
            self.consumed += r.bytes_consumed;
            self.produced += r.bytes_written;
            done += r.bytes_written;
            match r.status {
                Ok(MZStatus::StreamEnd) => self.ended = true,
                Ok(_) => {}
                Err(MZError::Buf) if r.bytes_written == 0 && r.bytes_consumed == 0 => {
                    // No progress: the stored bytes ran out mid-stream.
                    return Err(Rule::Zlib("the stream is cut short".into()));
                }
                Err(MZError::Buf) => {}
                Err(e) => return Err(Rule::Zlib(format!("{e:?}"))),
            }
        }
        Ok(())
    }
}

// ------------------------------------------------------------- reading

/// Where a snapshot's sections are: (id, payload start, payload length).
#[derive(Clone, Debug)]
struct SectionAt {
    id: u32,
    start: usize,
    len: usize,
}

/// Where a [`Reader`] gets its bytes: a byte slice (a file held in
/// memory), or the pipeline's positional reads of a file (then a job's
/// memory is one snapshot's, whatever the file's size).
pub trait Source {
    /// The file's length in bytes.
    fn size(&self) -> u64;
    /// The `len` bytes at `offset`; the reader asks only for bytes inside
    /// the file.
    fn read(&mut self, offset: u64, len: usize) -> Result<Cow<'_, [u8]>, SourceFailed>;
}

/// A [`Source`] could not give its bytes; the source keeps its own error
/// (the reader's error says where it was reading: [`Rule::Source`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SourceFailed;

impl<T: Source + ?Sized> Source for &mut T {
    fn size(&self) -> u64 {
        (**self).size()
    }

    fn read(&mut self, offset: u64, len: usize) -> Result<Cow<'_, [u8]>, SourceFailed> {
        (**self).read(offset, len)
    }
}

impl Source for &[u8] {
    fn size(&self) -> u64 {
        self.len() as u64
    }

    fn read(&mut self, offset: u64, len: usize) -> Result<Cow<'_, [u8]>, SourceFailed> {
        let start = usize::try_from(offset).map_err(|_| SourceFailed)?;
        let end = start.checked_add(len).ok_or(SourceFailed)?;
        self.get(start..end).map(Cow::Borrowed).ok_or(SourceFailed)
    }
}

/// A CGeo file opened for reading, snapshot by snapshot.
pub struct Reader<S> {
    source: S,
    header: Header,
    topology_changing: bool,
    sections: Vec<Vec<SectionAt>>,
    /// Snapshot 0, decoded once.
    first: Snapshot,
    keep_unknown: bool,
}

impl<S: Source> Reader<S> {
    /// Reads the header, flags and offset table, walks every snapshot's
    /// sections (checking the table against them) and decodes snapshot 0.
    /// Reads from `source` only what that needs: the header and table, 12
    /// bytes per section, and snapshot 0's sections.
    pub fn new(source: S) -> Result<Reader<S>, Error> {
        Reader::open(source, true)
    }

    /// The same, keeping unknown sections' payloads in
    /// [`Snapshot::unknown`] or not: without, they are skipped unread (in a
    /// compressed file, but for the two bytes of their zlib header).
    pub fn open(mut source: S, keep_unknown: bool) -> Result<Reader<S>, Error> {
        let total = source.size();
        if total > MAX_FILE_BYTES {
            return Err(Error::at(0, Rule::FileTooLarge(total)));
        }
        let (header, flags, table, data) = read_prefix(&mut source, total)?;
        let n = table.len();
        let table_at = data + 8;
        let mut c = Walk {
            source: &mut source,
            pos: table_at as u64 + 8 * n as u64,
            total,
        };
        c.tag("TAG_ANIM_TABLE_END", TAG_ANIM_TABLE_END)?;
        // (At most MAX_SNAPSHOTS entries: read_prefix checked the count.)
        let mut sections = Vec::with_capacity(n);
        let mut total = 0u64;
        for (k, &entry) in table.iter().enumerate() {
            let start = c.pos as usize;
            c.tag("TAG_ANIMATION_SNAPSHOT_START", TAG_ANIMATION_SNAPSHOT_START)
                .map_err(|e| e.in_snapshot(k))?;
            if entry != c.pos {
                return Err(Error::at(
                    table_at + 8 * k,
                    Rule::OffsetTable {
                        entry: k,
                        found: entry,
                        want: c.pos,
                    },
                ));
            }
            let list = walk_sections(&mut c, &mut total).map_err(|e| e.in_snapshot(k))?;
            if !list.iter().any(|s| s.id == TAG_MESH_DATA) {
                return Err(Error::at(start, Rule::NoMeshData).in_snapshot(k));
            }
            sections.push(list);
        }
        c.finish("CGeo file")?;
        let topology_changing = flags & TOPOLOGY_CHANGING != 0;
        let mut reader = Reader {
            source,
            header,
            topology_changing,
            sections,
            first: Snapshot::default(),
            keep_unknown,
        };
        reader.first = reader.snapshot(0)?;
        Ok(reader)
    }

    pub fn header(&self) -> &Header {
        &self.header
    }

    pub fn topology_changing(&self) -> bool {
        self.topology_changing
    }

    pub fn len(&self) -> usize {
        self.sections.len()
    }

    pub fn is_empty(&self) -> bool {
        self.sections.is_empty()
    }

    /// Snapshot 0's mesh (whose topology difference snapshots share).
    pub fn first(&self) -> &Mesh {
        &self.first.mesh
    }

    /// Snapshot 0 whole (its bounds, cloud and sections too), as
    /// `snapshot(0)` gives it.
    pub fn first_snapshot(&self) -> &Snapshot {
        &self.first
    }

    /// The source, given back.
    pub fn into_source(self) -> S {
        self.source
    }

    /// Decodes snapshot `k` (absolute values), reading its sections.
    pub fn snapshot(&mut self, k: usize) -> Result<Snapshot, Error> {
        let Reader {
            source,
            header,
            topology_changing,
            sections,
            first,
            keep_unknown,
        } = self;
        let Some(list) = sections.get(k) else {
            return Err(Error::at(
                source.size() as usize,
                Rule::Invalid(format!("no snapshot {k} ({} snapshots)", sections.len())),
            ));
        };
        let mut snap = Snapshot {
            order: list.iter().map(|s| s.id).collect(),
            ..Snapshot::default()
        };
        for s in list {
            let fail = |rule: Rule, at: (usize, Option<usize>)| Error {
                offset: s.start + if header.compressed { 0 } else { at.0 },
                snapshot: Some(k),
                section: Some(s.id),
                inflated: at.1,
                rule,
            };
            let known = matches!(s.id, TAG_MESH_DATA | TAG_BOUNDING_BOX | TAG_POINTCLOUD);
            let want = if known || *keep_unknown {
                s.len
            } else if header.compressed {
                s.len.min(2)
            } else {
                0
            };
            let stored = source
                .read(s.start as u64, want)
                .map_err(|_| fail(Rule::Source, (0, None)))?;
            if !known {
                // Kept as stored; not inflated (nothing bounds what it
                // holds), but a compressed file's must be a zlib stream.
                if header.compressed {
                    inflate_section(&stored).map_err(|r| fail(r, (0, None)))?;
                }
                if *keep_unknown {
                    snap.unknown.push((s.id, stored.into_owned()));
                }
                continue;
            }
            let mut p = if header.compressed {
                inflate_section(&stored).map_err(|r| fail(r, (0, None)))?
            } else {
                Payload::of(Stored::Plain {
                    bytes: &stored,
                    pos: 0,
                })
            };
            let result = match s.id {
                TAG_MESH_DATA => {
                    mesh(k, *topology_changing, &first.mesh, &mut p).map(|(complete, mesh)| {
                        snap.complete = complete;
                        snap.mesh = mesh;
                    })
                }
                TAG_BOUNDING_BOX => bounding_box(&mut p).map(|b| snap.bounding_box = Some(b)),
                _ => point_cloud(&mut p).map(|c| snap.point_cloud = Some(c)),
            };
            result
                .and_then(|()| p.finish())
                .map_err(|r| fail(r, p.pos()))?;
        }
        Ok(snap)
    }
}

/// A snapshot's TAG_MESH_DATA: complete or a difference, as its place
/// requires.
fn mesh(
    k: usize,
    topology_changing: bool,
    first: &Mesh,
    p: &mut Payload,
) -> Result<(bool, Mesh), Rule> {
    let kind = p.u8()?;
    let want_complete = k == 0 || topology_changing;
    match (kind, want_complete) {
        (1, true) => complete_mesh(p).map(|m| (true, m)),
        (0, false) => difference_mesh(p, first).map(|m| (false, m)),
        (found, true) => Err(Rule::SnapshotKind {
            found,
            want: if k == 0 {
                "snapshot 0 is complete (1)"
            } else {
                "with the topology flag every snapshot is complete (1)"
            },
        }),
        (found, false) => Err(Rule::SnapshotKind {
            found,
            want: "without the topology flag a later snapshot is a difference (0)",
        }),
    }
}

/// The header, the flags, the offset table (up to its end tag, which the
/// caller reads) and where the data section starts: read from the start
/// of the file in as few reads as the lengths allow, each no longer than
/// the file, and parsed as one slice (so a short file fails as a slice of
/// it would).
fn read_prefix<S: Source>(
    source: &mut S,
    total: u64,
) -> Result<(Header, u32, Vec<u64>, usize), Error> {
    let failed = |_| Error::at(0, Rule::Source);
    let head = source.read(0, 5.min(total) as usize).map_err(failed)?;
    let header_len = match head.get(1..5) {
        Some(b) => u32::from_le_bytes(b.try_into().expect("4 bytes")).min(MAX_HEADER_BYTES),
        None => 0,
    };
    let through_header = 5 + u64::from(header_len);
    let head = source
        .read(0, through_header.min(total) as usize)
        .map_err(failed)?;
    // A header that does not parse fails again below, on the same bytes.
    let n = read_header(&head).map_or(0, |(h, _)| u64::from(h.snapshots));
    let prefix_len = (through_header + 8 + 8 * n).min(total);
    let bytes = source.read(0, prefix_len as usize).map_err(failed)?;
    let (header, data) = read_header(&bytes)?;
    let mut c = Cursor::at(&bytes, data);
    let flags = c.u32("the flags")?;
    if flags & !TOPOLOGY_CHANGING != 0 {
        return Err(Error::at(data, Rule::Flags(flags)));
    }
    expect_tag(&mut c, "TAG_ANIM_TABLE_START", TAG_ANIM_TABLE_START)?;
    let n = header.snapshots as usize;
    let table_at = c.offset();
    c.count(table_at, n as u64, 8, MAX_SNAPSHOTS, "offset table entries")?;
    let table: Vec<u64> = (0..n)
        .map(|_| c.u64("an offset"))
        .collect::<Result<_, _>>()?;
    Ok((header, flags, table, data))
}

/// A position in a [`Source`], for walking section headers: reads of a
/// few bytes, checked against the file's length, errors at file offsets.
struct Walk<'a, S> {
    source: &'a mut S,
    pos: u64,
    total: u64,
}

impl<S: Source> Walk<'_, S> {
    fn take<const N: usize>(&mut self, what: &str) -> Result<[u8; N], Error> {
        let have = self.total - self.pos;
        if (N as u64) > have {
            return Err(cursor::Error::Truncated {
                offset: self.pos as usize,
                what: what.to_string(),
                need: N as u64,
                have: have as usize,
            }
            .into());
        }
        let at = self.pos as usize;
        let bytes = self
            .source
            .read(self.pos, N)
            .map_err(|_| Error::at(at, Rule::Source))?;
        let out: [u8; N] = bytes
            .as_ref()
            .try_into()
            .map_err(|_| Error::at(at, Rule::Source))?;
        self.pos += N as u64;
        Ok(out)
    }

    fn u32(&mut self, what: &str) -> Result<u32, Error> {
        self.take::<4>(what).map(u32::from_le_bytes)
    }

    fn u64(&mut self, what: &str) -> Result<u64, Error> {
        self.take::<8>(what).map(u64::from_le_bytes)
    }

    fn tag(&mut self, what: &'static str, want: u32) -> Result<(), Error> {
        let at = self.pos as usize;
        let found = self.u32(what)?;
        if found == want {
            Ok(())
        } else {
            Err(Error::at(at, Rule::Tag { what, want, found }))
        }
    }

    /// Steps over `n` bytes of `what`, which must be in the file.
    fn skip(&mut self, n: u64, what: &str) -> Result<(), Error> {
        let have = self.total - self.pos;
        if n > have {
            return Err(cursor::Error::Truncated {
                offset: self.pos as usize,
                what: what.to_string(),
                need: n,
                have: have as usize,
            }
            .into());
        }
        self.pos += n;
        Ok(())
    }

    fn finish(&self, what: &str) -> Result<(), Error> {
        if self.pos == self.total {
            Ok(())
        } else {
            Err(cursor::Error::Trailing {
                offset: self.pos as usize,
                what: what.to_string(),
                extra: (self.total - self.pos) as usize,
            }
            .into())
        }
    }
}

fn expect_tag(c: &mut Cursor, what: &'static str, want: u32) -> Result<(), Error> {
    let at = c.offset();
    let found = c.u32(what)?;
    if found == want {
        Ok(())
    } else {
        Err(Error::at(at, Rule::Tag { what, want, found }))
    }
}

/// The sections up to and including the snapshot's end tag.
/// `total` counts the file's sections so far, held to [`MAX_SECTIONS`].
fn walk_sections<S: Source>(c: &mut Walk<S>, total: &mut u64) -> Result<Vec<SectionAt>, Error> {
    let mut list: Vec<SectionAt> = Vec::new();
    // Ids met: a duplicate is one lookup, not a scan of every section.
    let mut ids = std::collections::BTreeSet::new();
    loop {
        let at = c.pos as usize;
        let id = c.u32("a section id or TAG_ANIMATION_SNAPSHOT_END")?;
        if id == TAG_ANIMATION_SNAPSHOT_END {
            return Ok(list);
        }
        if !ids.insert(id) {
            return Err(Error::at(at, Rule::DuplicateSection(id)));
        }
        *total += 1;
        if *total > MAX_SECTIONS {
            return Err(Error::at(at, Rule::TooManySections));
        }
        let len = c.u64("a section size")?;
        let start = c.pos as usize;
        c.skip(len, "a section's payload")?;
        memory::reserve(&mut list, 1).map_err(|e| {
            Error::at(
                at,
                Rule::NoMemory {
                    what: "section index",
                    bytes: e.bytes,
                },
            )
        })?;
        list.push(SectionAt {
            id,
            start,
            len: len as usize,
        });
    }
}

fn complete_mesh(p: &mut Payload) -> Result<Mesh, Rule> {
    let v = p.u32()?;
    let n = p.u32()?;
    let c = p.u32()?;
    let t = p.u32()?;
    let v = p.count(v.into(), 12, MAX_ELEMENTS, "vertices")?;
    let n = p.count(n.into(), 12, MAX_ELEMENTS, "normals")?;
    let c = p.count(c.into(), 4, MAX_MAP_CHANNELS, "map channels")?;
    let triangle_bytes = 27 + 12 * c as u64;
    let t = p.count(t.into(), triangle_bytes, MAX_ELEMENTS, "triangles")?;
    let vertices = p.vec3s(v, "vertex")?;
    p.tag("TAG_MESH_VERTICES_END", TAG_MESH_VERTICES_END)?;
    let normals = p.vec3s(n, "normal")?;
    p.tag("TAG_MESH_NORMALS_END", TAG_MESH_NORMALS_END)?;
    let mut channels = Vec::with_capacity(c);
    for _ in 0..c {
        let m = p.u32()?;
        let m = p.count(m.into(), 12, MAX_ELEMENTS, "map coordinates")?;
        channels.push(p.vec3s(m, "map coordinate")?);
    }
    p.tag("TAG_MESH_MAP_COORDS_END", TAG_MESH_MAP_COORDS_END)?;
    let no_memory = |what| {
        move |e: memory::NoMemory| Rule::NoMemory {
            what,
            bytes: e.bytes,
        }
    };
    let mut triangles = memory::with_capacity(t).map_err(no_memory("triangle"))?;
    let mut map_indices = memory::with_capacity(t * c).map_err(no_memory("triangle map index"))?;
    // One triangle at a time (27 bytes and 12 a map channel: at most 219).
    let mut raw = [0u8; 27 + 12 * MAX_MAP_CHANNELS as usize];
    let raw = &mut raw[..triangle_bytes as usize];
    for i in 0..t {
        p.fill(raw)?;
        let mut r = Cursor::new(raw);
        let mut three =
            || -> [u32; 3] { std::array::from_fn(|_| r.u32("an index").expect("sized above")) };
        let vertices_i = three();
        let normals_i = three();
        for (what, idx, len) in [("vertex", vertices_i, v), ("normal", normals_i, n)] {
            if let Some(&bad) = idx.iter().find(|&&x| x as usize >= len) {
                return Err(Rule::Index {
                    what,
                    triangle: i,
                    index: bad,
                    len,
                });
            }
        }
        for channel in &channels {
            let m = three();
            if let Some(&bad) = m.iter().find(|&&x| x as usize >= channel.len()) {
                return Err(Rule::Index {
                    what: "map coordinate",
                    triangle: i,
                    index: bad,
                    len: channel.len(),
                });
            }
            map_indices.push(m);
        }
        let material = r.u16("a material id").expect("sized above");
        let edges = r.u8("edge visibility").expect("sized above");
        if edges & !7 != 0 {
            return Err(Rule::EdgeBits {
                triangle: i,
                bits: edges,
            });
        }
        triangles.push(Triangle {
            vertices: vertices_i,
            normals: normals_i,
            material,
            edges,
        });
    }
    Ok(Mesh {
        vertices,
        normals,
        channels,
        triangles,
        map_indices,
    })
}

fn difference_mesh(p: &mut Payload, first: &Mesh) -> Result<Mesh, Rule> {
    // The differences become the values in place (no second copy).
    let add =
        |a: &[[f32; 3]], mut d: Vec<[f32; 3]>, what: &'static str| -> Result<Vec<[f32; 3]>, Rule> {
            for (d, a) in d.iter_mut().zip(a) {
                *d = [a[0] + d[0], a[1] + d[1], a[2] + d[2]];
            }
            match d.iter().position(|v| v.iter().any(|x| !x.is_finite())) {
                Some(index) => Err(Rule::NotFinite { what, index }),
                None => Ok(d),
            }
        };
    let d = p.vec3s(first.vertices.len(), "vertex difference")?;
    let vertices = add(&first.vertices, d, "vertex")?;
    p.tag("TAG_MESH_VERTICES_END", TAG_MESH_VERTICES_END)?;
    let d = p.vec3s(first.normals.len(), "normal difference")?;
    let normals = add(&first.normals, d, "normal")?;
    p.tag("TAG_MESH_NORMALS_END", TAG_MESH_NORMALS_END)?;
    let mut channels = Vec::with_capacity(first.channels.len());
    for ch in &first.channels {
        let d = p.vec3s(ch.len(), "map coordinate difference")?;
        channels.push(add(ch, d, "map coordinate")?);
    }
    p.tag("TAG_MESH_MAP_COORDS_END", TAG_MESH_MAP_COORDS_END)?;
    Ok(Mesh {
        vertices,
        normals,
        channels,
        triangles: Vec::new(),
        map_indices: Vec::new(),
    })
}

fn bounding_box(p: &mut Payload) -> Result<[f32; 6], Rule> {
    let mut raw = [0u8; 24];
    p.fill(&mut raw)?;
    let b: [f32; 6] = std::array::from_fn(|i| {
        f32::from_le_bytes([raw[4 * i], raw[4 * i + 1], raw[4 * i + 2], raw[4 * i + 3]])
    });
    if b.iter().all(|x| x.is_finite()) && (0..3).all(|i| b[i] <= b[i + 3]) {
        Ok(b)
    } else {
        Err(Rule::BoundingBox)
    }
}

fn point_cloud(p: &mut Payload) -> Result<Vec<[f32; 3]>, Rule> {
    let n = p.u64()?;
    let n = p.count(n, 12, MAX_ELEMENTS, "points")?;
    p.vec3s(n, "point")
}

/// Reads a whole file.
pub fn decode(bytes: &[u8]) -> Result<Sequence, Error> {
    let mut reader = Reader::new(bytes)?;
    let snapshots = (0..reader.len())
        .map(|k| reader.snapshot(k))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Sequence {
        header: reader.header.clone(),
        topology_changing: reader.topology_changing,
        snapshots,
    })
}

// ------------------------------------------------------------- writing

/// Every problem that would make `seq` an invalid file.
pub fn validate(seq: &Sequence) -> Vec<Problem> {
    let mut problems = Vec::new();
    let h = &seq.header;
    if seq.snapshots.len() != h.snapshots as usize {
        problems.push(Problem::of(
            "",
            format!(
                "the header says {} snapshots, the sequence has {}",
                h.snapshots,
                seq.snapshots.len()
            ),
        ));
    }
    if seq.snapshots.is_empty() || seq.snapshots.len() as u64 > MAX_SNAPSHOTS {
        problems.push(Problem::of(
            "",
            format!("{} snapshots (1 to {MAX_SNAPSHOTS})", seq.snapshots.len()),
        ));
    }
    problems.extend(validate_header(h));
    let Some(first) = seq.snapshots.first() else {
        return problems;
    };
    for (k, s) in seq.snapshots.iter().enumerate() {
        problems.extend(validate_snapshot(
            k,
            s,
            &first.mesh,
            seq.topology_changing,
            h.compressed,
        ));
    }
    problems
}

/// Every problem of a header (its snapshot count aside, which is the
/// sequence's).
pub fn validate_header(h: &Header) -> Vec<Problem> {
    let mut problems = Vec::new();
    if h.time_per_snapshot_us == 0 && h.snapshots > 1 {
        problems.push(Problem::of(
            "",
            "time per snapshot is 0 with several snapshots",
        ));
    }
    if !(h.scale.is_finite() && h.scale >= 0.0) {
        problems.push(Problem::of(
            "",
            format!("scale {} is not a finite number, 0 or more", h.scale),
        ));
    }
    for line in &h.other {
        let text = match line {
            Line::Property(k, v) => {
                if MANDATORY.contains(&k.trim()) {
                    problems.push(Problem::of(
                        "",
                        format!("header property {k:?} is set by the header's own fields"),
                    ));
                }
                if k.contains(':') || k.trim() != k || v.trim() != v {
                    problems.push(Problem::of("", format!(
                        "header property {k:?}: a key without colons, neither key nor value padded"
                    )));
                }
                format!("{k}{v}")
            }
            Line::Text(t) => {
                if t.contains(':') || t.trim() != t || t.is_empty() {
                    problems.push(Problem::of(
                        "",
                        format!("free text {t:?} must be non-empty, unpadded and without a colon"),
                    ));
                }
                t.clone()
            }
        };
        if text.contains('\n') {
            problems.push(Problem::of("", "a header line holds a line break"));
        }
    }
    for (k, name) in [(0, &h.material), (1, &h.object)] {
        if name.contains('\n') || name.trim() != name {
            problems.push(Problem::of(
                "",
                format!(
                    "{} {name:?} holds a line break or padding",
                    MANDATORY[5 + k]
                ),
            ));
        }
    }
    problems
}

/// Every problem of snapshot `k` (`first` is snapshot 0's mesh).
pub fn validate_snapshot(
    k: usize,
    s: &Snapshot,
    first: &Mesh,
    topology_changing: bool,
    compressed: bool,
) -> Vec<Problem> {
    let mut problems = Vec::new();
    {
        let complete = k == 0 || topology_changing;
        if s.complete != complete {
            problems.push(Problem::of(
                format!("snapshot {k}"),
                format!(
                    "{} (complete: {complete})",
                    if complete {
                        "must be complete"
                    } else {
                        "must be a difference"
                    }
                ),
            ));
        }
        check_mesh(&s.mesh, complete, first, k, &mut problems);
        if let Some(b) = s.bounding_box
            && !(b.iter().all(|x| x.is_finite()) && (0..3).all(|i| b[i] <= b[i + 3]))
        {
            problems.push(Problem::of(
                format!("snapshot {k}"),
                "bounding box min above max, or not finite",
            ));
        }
        if let Some(c) = &s.point_cloud {
            if c.len() as u64 > MAX_ELEMENTS {
                problems.push(Problem::of(
                    format!("snapshot {k}"),
                    format!("{} points", c.len()),
                ));
            }
            if c.iter().flatten().any(|x| !x.is_finite()) {
                problems.push(Problem::of(
                    format!("snapshot {k}"),
                    "a point is not finite",
                ));
            }
        }
        let mut ids: Vec<u32> = s.unknown.iter().map(|(id, _)| *id).collect();
        for (id, _) in &s.unknown {
            if matches!(
                *id,
                TAG_MESH_DATA | TAG_BOUNDING_BOX | TAG_POINTCLOUD | TAG_ANIMATION_SNAPSHOT_END
            ) {
                problems.push(Problem::of(
                    format!("snapshot {k}"),
                    format!("unknown section id 0x{id:08X} is a known tag"),
                ));
            }
        }
        ids.push(TAG_MESH_DATA);
        ids.extend(s.bounding_box.map(|_| TAG_BOUNDING_BOX));
        ids.extend(s.point_cloud.as_ref().map(|_| TAG_POINTCLOUD));
        ids.sort_unstable();
        if ids.windows(2).any(|w| w[0] == w[1]) {
            problems.push(Problem::of(format!("snapshot {k}"), "a section id twice"));
        }
        if !s.order.is_empty() {
            let mut order = s.order.clone();
            order.sort_unstable();
            if order != ids {
                problems.push(Problem::of(
                    format!("snapshot {k}"),
                    "the section order does not list its sections",
                ));
            }
        }
        if compressed {
            for (id, payload) in &s.unknown {
                if inflate_section(payload).is_err() {
                    problems.push(Problem::of(
                        format!("snapshot {k}"),
                        format!(
                            "unknown section 0x{id:08X} of a compressed file is not a zlib stream"
                        ),
                    ));
                }
            }
        }
    }
    problems
}

fn check_mesh(m: &Mesh, complete: bool, first: &Mesh, k: usize, problems: &mut Vec<Problem>) {
    let mut say = |m: String| problems.push(Problem::of(format!("snapshot {k}"), m));
    for (what, n) in [
        ("vertices", m.vertices.len()),
        ("normals", m.normals.len()),
        ("triangles", m.triangles.len()),
    ] {
        if n as u64 > MAX_ELEMENTS {
            say(format!("{n} {what}, more than {MAX_ELEMENTS}"));
        }
    }
    if m.channels.len() as u64 > MAX_MAP_CHANNELS {
        say(format!("{} map channels", m.channels.len()));
    }
    let finite = |v: &[[f32; 3]]| v.iter().flatten().all(|x| x.is_finite());
    if !finite(&m.vertices) || !finite(&m.normals) || !m.channels.iter().all(|c| finite(c)) {
        say("a value is not finite".into());
    }
    if !complete {
        let same = m.vertices.len() == first.vertices.len()
            && m.normals.len() == first.normals.len()
            && m.channels.len() == first.channels.len()
            && m.channels
                .iter()
                .zip(&first.channels)
                .all(|(a, b)| a.len() == b.len());
        if !same {
            say("a difference snapshot has other counts than snapshot 0".into());
        }
        if !m.triangles.is_empty() || !m.map_indices.is_empty() {
            say("a difference snapshot holds topology".into());
        }
        return;
    }
    if m.map_indices.len() != m.triangles.len() * m.channels.len() {
        say("map indices are not one triple per triangle and channel".into());
        return;
    }
    for (i, t) in m.triangles.iter().enumerate() {
        if t.vertices.iter().any(|&x| x as usize >= m.vertices.len())
            || t.normals.iter().any(|&x| x as usize >= m.normals.len())
        {
            say(format!("triangle {i}: an index out of range"));
        }
        if t.edges & !7 != 0 {
            say(format!("triangle {i}: edge bits other than 0, 1, 2"));
        }
        for (c, ch) in m.channels.iter().enumerate() {
            if m.map_indices[i * m.channels.len() + c]
                .iter()
                .any(|&x| x as usize >= ch.len())
            {
                say(format!("triangle {i}: map index out of range"));
            }
        }
    }
}

/// Writes `seq` (which must be valid: see [`validate`]).
pub fn encode(seq: &Sequence) -> Result<Vec<u8>, Error> {
    let problems = validate(seq);
    if !problems.is_empty() {
        return Err(Error::at(0, Rule::Invalid(super::problem::join(&problems))));
    }
    let first = &seq.snapshots[0].mesh;
    let snapshots: Vec<Vec<u8>> = seq
        .snapshots
        .iter()
        .map(|s| encode_snapshot(s, first, seq.header.compressed))
        .collect();
    let lengths: Vec<u64> = snapshots.iter().map(|s| s.len() as u64).collect();
    let mut out = encode_prefix(&seq.header, seq.topology_changing, &lengths)?;
    for s in snapshots {
        out.extend_from_slice(&s);
    }
    Ok(out)
}

/// The start of a file: the magic, the header, the flags and the offset
/// table, for snapshots of the encoded `lengths` ([`encode_snapshot`]'s)
/// that follow it in order. With [`encode_snapshot`], a writer that holds
/// one snapshot at a time: call it once per snapshot to learn the lengths,
/// write this, then each snapshot again (checked with
/// [`validate_header`] and [`validate_snapshot`]).
pub fn encode_prefix(
    h: &Header,
    topology_changing: bool,
    lengths: &[u64],
) -> Result<Vec<u8>, Error> {
    let mut text = String::new();
    let bool_text = if h.compressed { "True" } else { "False" };
    for (k, v) in [
        (KEY_VERSION, VERSION.to_string()),
        (KEY_SNAPSHOTS, h.snapshots.to_string()),
        (KEY_TIME_PER_SNAPSHOT, h.time_per_snapshot_us.to_string()),
        (KEY_START, h.start_us.to_string()),
        (KEY_SCALE, format!("{:?}", h.scale)),
        (KEY_MATERIAL, h.material.clone()),
        (KEY_OBJECT, h.object.clone()),
        (KEY_COMPRESSED, bool_text.to_string()),
    ] {
        text.push_str(&format!("{k}: {v}\n"));
    }
    for line in &h.other {
        match line {
            Line::Property(k, v) => text.push_str(&format!("{k}: {v}\n")),
            Line::Text(t) => text.push_str(&format!("{t}\n")),
        }
    }
    let header_len = u32::try_from(text.len())
        .ok()
        .filter(|&n| n <= MAX_HEADER_BYTES)
        .ok_or(Error::at(1, Rule::HeaderLength(u32::MAX)))?;
    if lengths.len() != h.snapshots as usize {
        return Err(Error::at(
            0,
            Rule::Invalid(format!(
                "the header says {} snapshots, {} were given",
                h.snapshots,
                lengths.len()
            )),
        ));
    }
    let mut out = vec![MAGIC];
    out.extend_from_slice(&header_len.to_le_bytes());
    out.extend_from_slice(text.as_bytes());
    let flags = if topology_changing {
        TOPOLOGY_CHANGING
    } else {
        0
    };
    out.extend_from_slice(&flags.to_le_bytes());
    out.extend_from_slice(&TAG_ANIM_TABLE_START.to_le_bytes());
    // Each entry points past its snapshot's start tag, at its first
    // section.
    let mut at = (out.len() + 8 * lengths.len() + 4) as u64;
    for len in lengths {
        out.extend_from_slice(&(at + 4).to_le_bytes());
        at += len;
    }
    out.extend_from_slice(&TAG_ANIM_TABLE_END.to_le_bytes());
    Ok(out)
}

/// One snapshot's bytes, its start tag to its end tag (`first` is
/// snapshot 0's mesh, which a difference snapshot is stored against).
pub fn encode_snapshot(s: &Snapshot, first: &Mesh, compressed: bool) -> Vec<u8> {
    let mut out = TAG_ANIMATION_SNAPSHOT_START.to_le_bytes().to_vec();
    let order = if s.order.is_empty() {
        default_order(s)
    } else {
        s.order.clone()
    };
    for id in order {
        let payload = match id {
            TAG_MESH_DATA => Some(mesh_payload(&s.mesh, s.complete, first)),
            TAG_BOUNDING_BOX => s.bounding_box.map(|b| f32_bytes(&b)),
            TAG_POINTCLOUD => s.point_cloud.as_ref().map(|c| {
                let mut p = (c.len() as u64).to_le_bytes().to_vec();
                p.extend(c.iter().flat_map(|v| f32_bytes(v)));
                p
            }),
            _ => None,
        };
        let stored = match payload {
            Some(p) if compressed => miniz_oxide::deflate::compress_to_vec_zlib(&p, 6),
            Some(p) => p,
            None => match s.unknown.iter().find(|(u, _)| *u == id) {
                Some((_, raw)) => raw.clone(),
                None => continue,
            },
        };
        out.extend_from_slice(&id.to_le_bytes());
        out.extend_from_slice(&(stored.len() as u64).to_le_bytes());
        out.extend_from_slice(&stored);
    }
    out.extend_from_slice(&TAG_ANIMATION_SNAPSHOT_END.to_le_bytes());
    out
}

fn default_order(s: &Snapshot) -> Vec<u32> {
    let mut order = vec![TAG_MESH_DATA];
    order.extend(s.bounding_box.map(|_| TAG_BOUNDING_BOX));
    order.extend(s.point_cloud.as_ref().map(|_| TAG_POINTCLOUD));
    order.extend(s.unknown.iter().map(|(id, _)| *id));
    order
}

fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn mesh_payload(m: &Mesh, complete: bool, first: &Mesh) -> Vec<u8> {
    let mut p = Vec::new();
    let put3 = |p: &mut Vec<u8>, v: &[[f32; 3]]| p.extend(v.iter().flat_map(|x| f32_bytes(x)));
    let diff = |a: &[[f32; 3]], b: &[[f32; 3]]| -> Vec<[f32; 3]> {
        a.iter()
            .zip(b)
            .map(|(a, b)| [a[0] - b[0], a[1] - b[1], a[2] - b[2]])
            .collect()
    };
    if !complete {
        p.push(0);
        put3(&mut p, &diff(&m.vertices, &first.vertices));
        p.extend_from_slice(&TAG_MESH_VERTICES_END.to_le_bytes());
        put3(&mut p, &diff(&m.normals, &first.normals));
        p.extend_from_slice(&TAG_MESH_NORMALS_END.to_le_bytes());
        for (c, f) in m.channels.iter().zip(&first.channels) {
            put3(&mut p, &diff(c, f));
        }
        p.extend_from_slice(&TAG_MESH_MAP_COORDS_END.to_le_bytes());
        return p;
    }
    p.push(1);
    for n in [
        m.vertices.len(),
        m.normals.len(),
        m.channels.len(),
        m.triangles.len(),
    ] {
        p.extend_from_slice(&(n as u32).to_le_bytes());
    }
    put3(&mut p, &m.vertices);
    p.extend_from_slice(&TAG_MESH_VERTICES_END.to_le_bytes());
    put3(&mut p, &m.normals);
    p.extend_from_slice(&TAG_MESH_NORMALS_END.to_le_bytes());
    for c in &m.channels {
        p.extend_from_slice(&(c.len() as u32).to_le_bytes());
        put3(&mut p, c);
    }
    p.extend_from_slice(&TAG_MESH_MAP_COORDS_END.to_le_bytes());
    let channels = m.channels.len();
    for (i, t) in m.triangles.iter().enumerate() {
        for x in t.vertices.iter().chain(&t.normals) {
            p.extend_from_slice(&x.to_le_bytes());
        }
        for m3 in &m.map_indices[i * channels..(i + 1) * channels] {
            for x in m3 {
                p.extend_from_slice(&x.to_le_bytes());
            }
        }
        p.extend_from_slice(&t.material.to_le_bytes());
        p.push(t.edges);
    }
    p
}
