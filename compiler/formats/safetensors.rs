//! safetensors: the tensor container PyTorch checkpoints are saved in
//! (<https://github.com/huggingface/safetensors>, spec in
//! [docs/formats/safetensors.md](../../docs/formats/safetensors.md)).
//!
//! A file is an 8-byte little-endian header length N, N bytes of JSON (an
//! object: tensor name -> `{dtype, shape, data_offsets}`, and optionally
//! `__metadata__`, a map of strings), then the data: every tensor's bytes,
//! little endian, row major, at `data_offsets` relative to the data's start.
//!
//! The data can be far larger than memory, so this module reads only the
//! header: [`header_len`] checks the first 8 bytes against the file's
//! length, [`decode_header`] the JSON against the data's length. Nothing is
//! trusted: N is bounded before it is read; the JSON is parsed strictly
//! (duplicate names, unknown dtypes or fields, `__metadata__` only as a
//! string map); the tensors must tile the data exactly, in offset order,
//! with no hole, no overlap and no trailing byte, each exactly its shape ×
//! its dtype's size. Every error names the tensor and the byte offset.
//!
//! The JSON object's order is not an order (its writers differ): tensors
//! come back sorted by name, in byte order.

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;
use serde::de::{self, MapAccess, Visitor};

use super::cursor::{self, Cursor};
pub use super::problem::Problem;
use crate::memory;

/// Largest header kiln reads: 100 MB, as the reference implementation.
pub const MAX_HEADER_BYTES: u64 = 100_000_000;

/// Bytes before the JSON.
pub const PREFIX_BYTES: u64 = 8;

/// An element type: every whole-byte type the format defines (the
/// safetensors crate 0.8.0's `Dtype`: 18 of its 22; the other four are
/// [`REFUSED_DTYPES`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Dtype {
    F64,
    F32,
    F16,
    BF16,
    I64,
    I32,
    I16,
    I8,
    U8,
    Bool,
    U16,
    U32,
    U64,
    /// OCP FP8: 4 exponent bits (bias 7), 3 mantissa bits, no infinity,
    /// `S.1111.111` NaN; at most 448.
    F8E4M3,
    /// OCP FP8: 5 exponent bits (bias 15), 2 mantissa bits, IEEE-like
    /// (infinity and NaN at exponent 31).
    F8E5M2,
    /// The MX scale: 8 exponent bits (bias 127), no sign, no mantissa;
    /// `0xff` NaN.
    F8E8M0,
    /// FP8 E4M3 "FNUZ": bias 8, no infinity, no negative zero, `0x80` NaN.
    F8E4M3Fnuz,
    /// FP8 E5M2 "FNUZ": bias 16, no infinity, no negative zero, `0x80` NaN.
    F8E5M2Fnuz,
}

/// The dtypes the format defines that kiln refuses, each with the reason.
pub const REFUSED_DTYPES: [(&str, &str); 4] = [
    (
        "C64",
        "GGUF has no complex type; save the real and imaginary parts as two float tensors",
    ),
    (
        "F4",
        "MXFP4 packs two elements in a byte and means nothing without its E8M0 scales; dequantize it (with its scales) to a float type first",
    ),
    (
        "F6_E2M3",
        "MXFP6 packs four elements in three bytes and means nothing without its E8M0 scales; dequantize it (with its scales) to a float type first",
    ),
    (
        "F6_E3M2",
        "MXFP6 packs four elements in three bytes and means nothing without its E8M0 scales; dequantize it (with its scales) to a float type first",
    ),
];

impl Dtype {
    pub const ALL: [Dtype; 18] = [
        Dtype::F64,
        Dtype::F32,
        Dtype::F16,
        Dtype::BF16,
        Dtype::I64,
        Dtype::I32,
        Dtype::I16,
        Dtype::I8,
        Dtype::U8,
        Dtype::Bool,
        Dtype::U16,
        Dtype::U32,
        Dtype::U64,
        Dtype::F8E4M3,
        Dtype::F8E5M2,
        Dtype::F8E8M0,
        Dtype::F8E4M3Fnuz,
        Dtype::F8E5M2Fnuz,
    ];

    /// Bytes per element.
    pub fn size(self) -> u64 {
        match self {
            Dtype::F64 | Dtype::I64 | Dtype::U64 => 8,
            Dtype::F32 | Dtype::I32 | Dtype::U32 => 4,
            Dtype::F16 | Dtype::BF16 | Dtype::I16 | Dtype::U16 => 2,
            Dtype::I8
            | Dtype::U8
            | Dtype::Bool
            | Dtype::F8E4M3
            | Dtype::F8E5M2
            | Dtype::F8E8M0
            | Dtype::F8E4M3Fnuz
            | Dtype::F8E5M2Fnuz => 1,
        }
    }

    /// The name the header uses.
    pub fn name(self) -> &'static str {
        match self {
            Dtype::F64 => "F64",
            Dtype::F32 => "F32",
            Dtype::F16 => "F16",
            Dtype::BF16 => "BF16",
            Dtype::I64 => "I64",
            Dtype::I32 => "I32",
            Dtype::I16 => "I16",
            Dtype::I8 => "I8",
            Dtype::U8 => "U8",
            Dtype::Bool => "BOOL",
            Dtype::U16 => "U16",
            Dtype::U32 => "U32",
            Dtype::U64 => "U64",
            Dtype::F8E4M3 => "F8_E4M3",
            Dtype::F8E5M2 => "F8_E5M2",
            Dtype::F8E8M0 => "F8_E8M0",
            Dtype::F8E4M3Fnuz => "F8_E4M3FNUZ",
            Dtype::F8E5M2Fnuz => "F8_E5M2FNUZ",
        }
    }

    pub fn from_name(name: &str) -> Option<Dtype> {
        Dtype::ALL.into_iter().find(|d| d.name() == name)
    }

    pub fn is_float(self) -> bool {
        matches!(
            self,
            Dtype::F64
                | Dtype::F32
                | Dtype::F16
                | Dtype::BF16
                | Dtype::F8E4M3
                | Dtype::F8E5M2
                | Dtype::F8E8M0
                | Dtype::F8E4M3Fnuz
                | Dtype::F8E5M2Fnuz
        )
    }
}

impl fmt::Display for Dtype {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One tensor of the header: a view into the [`Header`] that holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tensor<'a> {
    pub name: &'a str,
    pub dtype: Dtype,
    /// PyTorch order (slowest first); empty for a 0-d scalar.
    pub shape: &'a [u64],
    /// Byte range relative to the start of the data.
    pub begin: u64,
    pub end: u64,
    /// Where its entry in the header starts in the file (its name's
    /// opening quote), for errors about the tensor.
    pub entry_at: u64,
}

impl Tensor<'_> {
    /// The element count (1 for a 0-d scalar).
    pub fn elements(&self) -> u64 {
        self.shape.iter().product()
    }

    pub fn bytes(&self) -> u64 {
        self.end - self.begin
    }
}

/// A tensor as a [`Header`] holds it: ranges of its name and shape arenas
/// (48 bytes, and no allocation of its own: a header of 1.5 million
/// tensors is four vectors, each allocated fallibly).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    name: (u32, u32),
    shape: (u32, u32),
    /// The key's opening quote and the byte after its closing quote,
    /// within the JSON.
    key_at: u32,
    key_end: u32,
    dtype: Dtype,
    begin: u64,
    end: u64,
}

/// A decoded header. Its tensors are held compactly (every name in one
/// string, every shape in one vector); [`Header::tensors`] gives them as
/// [`Tensor`] views, sorted by name (byte order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// N, the JSON's length.
    pub json_bytes: u64,
    /// `__metadata__`, if present, sorted by key.
    pub metadata: Option<BTreeMap<String, String>>,
    /// Sorted by name.
    entries: Vec<Entry>,
    names: String,
    dims: Vec<u64>,
}

impl Header {
    /// A header of `tensors` (any order; sorted here), as a decoded file
    /// of them would give: for tests and callers that build one.
    pub fn of(
        json_bytes: u64,
        metadata: Option<BTreeMap<String, String>>,
        tensors: &[Tensor],
    ) -> Header {
        let mut h = Header {
            json_bytes,
            metadata,
            entries: Vec::new(),
            names: String::new(),
            dims: Vec::new(),
        };
        for t in tensors {
            let name = (h.names.len() as u32, t.name.len() as u32);
            h.names.push_str(t.name);
            let shape = (h.dims.len() as u32, t.shape.len() as u32);
            h.dims.extend_from_slice(t.shape);
            h.entries.push(Entry {
                name,
                shape,
                key_at: t.entry_at.saturating_sub(PREFIX_BYTES) as u32,
                key_end: 0,
                dtype: t.dtype,
                begin: t.begin,
                end: t.end,
            });
        }
        let names = std::mem::take(&mut h.names);
        h.entries
            .sort_unstable_by(|a, b| name_of(&names, a).cmp(name_of(&names, b)));
        h.names = names;
        h
    }

    /// The file offset of the data.
    pub fn data_start(&self) -> u64 {
        PREFIX_BYTES + self.json_bytes
    }

    pub fn data_bytes(&self) -> u64 {
        self.entries.iter().map(|t| t.end).max().unwrap_or(0)
    }

    /// How many tensors.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The tensors, sorted by name.
    pub fn tensors(&self) -> impl ExactSizeIterator<Item = Tensor<'_>> + '_ {
        self.entries.iter().map(|e| self.view(e))
    }

    pub fn tensor(&self, name: &str) -> Option<Tensor<'_>> {
        self.entries
            .binary_search_by(|e| name_of(&self.names, e).cmp(name))
            .ok()
            .map(|i| self.view(&self.entries[i]))
    }

    fn view(&self, e: &Entry) -> Tensor<'_> {
        Tensor {
            name: name_of(&self.names, e),
            dtype: e.dtype,
            shape: &self.dims[e.shape.0 as usize..][..e.shape.1 as usize],
            begin: e.begin,
            end: e.end,
            entry_at: PREFIX_BYTES + u64::from(e.key_at),
        }
    }
}

fn name_of<'a>(names: &'a str, e: &Entry) -> &'a str {
    &names[e.name.0 as usize..][..e.name.1 as usize]
}

/// Why a safetensors file is refused. Every variant has the byte offset
/// it is about.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Bytes(#[from] cursor::Error),
    /// The header length is above [`MAX_HEADER_BYTES`].
    #[error(
        "at byte 0: the header length is {len} bytes, more than the {MAX_HEADER_BYTES} a safetensors header may have"
    )]
    HeaderTooLong { len: u64 },
    /// The header length runs past the end of the file.
    #[error("at byte 0: the header length is {len} bytes, but only {have} bytes follow it")]
    HeaderPastEnd { len: u64, have: u64 },
    /// The header is not a JSON object of the schema.
    #[error("at byte {offset}: header: {message}")]
    Json { offset: u64, message: String },
    /// A tensor name appears twice.
    #[error("at byte {offset}: tensor {name:?} is named twice")]
    DuplicateName { offset: u64, name: String },
    /// A dtype the format does not define.
    #[error(
        "at byte {offset}: tensor {name:?} has dtype {dtype:?}, which safetensors does not define (kiln reads F64, F32, F16, BF16, F8_E4M3, F8_E5M2, F8_E8M0, F8_E4M3FNUZ, F8_E5M2FNUZ, I64, I32, I16, I8, U64, U32, U16, U8 and BOOL)"
    )]
    UnknownDtype {
        offset: u64,
        name: String,
        dtype: String,
    },
    /// A dtype the format defines that kiln refuses ([`REFUSED_DTYPES`]).
    #[error("at byte {offset}: tensor {name:?} has dtype {dtype}: {reason}")]
    RefusedDtype {
        offset: u64,
        name: String,
        dtype: &'static str,
        reason: &'static str,
    },
    /// `data_offsets` with its end before its begin.
    #[error(
        "at byte {offset}: tensor {name:?} has data_offsets [{begin}, {end}], which end before they begin"
    )]
    Reversed {
        offset: u64,
        name: String,
        begin: u64,
        end: u64,
    },
    /// Shape × dtype size does not fit in 64 bits.
    #[error("at byte {offset}: tensor {name:?}'s shape {shape:?} is too large")]
    ShapeOverflow {
        offset: u64,
        name: String,
        shape: Vec<u64>,
    },
    /// The byte range is not shape × dtype size.
    #[error(
        "at byte {offset}: tensor {name:?} ({dtype} {shape:?}) needs {expected} bytes, its data_offsets give {found}"
    )]
    SizeMismatch {
        offset: u64,
        name: String,
        dtype: Dtype,
        shape: Vec<u64>,
        expected: u64,
        found: u64,
    },
    /// A tensor starts before the previous one (in offset order) ends.
    #[error("at byte {offset}: tensor {name:?} overlaps tensor {previous:?}")]
    Overlap {
        offset: u64,
        name: String,
        previous: String,
    },
    /// Bytes between two tensors (or before the first) belong to none.
    #[error("at byte {offset}: {gap} bytes before tensor {name:?} belong to no tensor")]
    Hole { offset: u64, name: String, gap: u64 },
    /// The data is shorter than the tensors say.
    #[error("at byte {offset}: tensor {name:?} ends at byte {end} of the file, which has {len}")]
    PastEnd {
        offset: u64,
        name: String,
        end: u64,
        len: u64,
    },
    /// Bytes after the last tensor.
    #[error("at byte {offset}: {extra} bytes after the last tensor belong to no tensor")]
    Trailing { offset: u64, extra: u64 },
    /// The header's tensors need more memory than could be had.
    #[error(
        "at byte {offset}: the header's {what} need {bytes} bytes of memory, which could not be had: give kiln more memory"
    )]
    NoMemory {
        offset: u64,
        what: &'static str,
        bytes: u64,
    },
}

impl Error {
    pub fn offset(&self) -> u64 {
        match self {
            Error::Bytes(e) => e.offset() as u64,
            Error::HeaderTooLong { .. } | Error::HeaderPastEnd { .. } => 0,
            Error::Json { offset, .. }
            | Error::DuplicateName { offset, .. }
            | Error::UnknownDtype { offset, .. }
            | Error::RefusedDtype { offset, .. }
            | Error::Reversed { offset, .. }
            | Error::ShapeOverflow { offset, .. }
            | Error::SizeMismatch { offset, .. }
            | Error::Overlap { offset, .. }
            | Error::Hole { offset, .. }
            | Error::PastEnd { offset, .. }
            | Error::Trailing { offset, .. }
            | Error::NoMemory { offset, .. } => *offset,
        }
    }
}

/// N from the first 8 bytes of a file of `file_len` bytes, checked: at
/// most [`MAX_HEADER_BYTES`] and within the file.
pub fn header_len(first: &[u8], file_len: u64) -> Result<u64, Error> {
    let len = Cursor::new(first).u64("safetensors header length")?;
    if len > MAX_HEADER_BYTES {
        return Err(Error::HeaderTooLong { len });
    }
    let have = file_len.saturating_sub(PREFIX_BYTES);
    if len > have {
        return Err(Error::HeaderPastEnd { len, have });
    }
    Ok(len)
}

/// Visits the top-level object in order, each entry checked and dropped
/// (for [`syntax_error`]: the byte where the JSON goes wrong).
struct CheckingVisitor;

impl<'de> Visitor<'de> for CheckingVisitor {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object of tensors")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(name) = map.next_key::<String>()? {
            if name == "__metadata__" {
                map.next_value::<StringMap<MAX_METADATA_ENTRIES>>()?;
            } else {
                map.next_value::<TensorFields>()?;
            }
        }
        Ok(())
    }
}

/// `__metadata__`: strings only, no key twice, at most `MAX` entries.
struct StringMap<const MAX: usize>(BTreeMap<String, String>);

impl<'de, const MAX: usize> Deserialize<'de> for StringMap<MAX> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<const MAX: usize>;
        impl<'de, const MAX: usize> Visitor<'de> for V<MAX> {
            type Value = StringMap<MAX>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("__metadata__ as a map of strings to strings")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<StringMap<MAX>, A::Error> {
                let mut out = BTreeMap::new();
                while let Some((k, v)) = map.next_entry::<String, String>()? {
                    if out.contains_key(&k) {
                        return Err(de::Error::custom(format!(
                            "__metadata__ has the key {k:?} twice"
                        )));
                    }
                    if out.len() == MAX {
                        return Err(de::Error::custom(format!(
                            "__metadata__ has more than {MAX} entries"
                        )));
                    }
                    out.insert(k, v);
                }
                Ok(StringMap(out))
            }
        }
        d.deserialize_map(V::<MAX>)
    }
}

/// A reader that tells how far the JSON parser has got.
struct Counting<'a> {
    bytes: &'a [u8],
    pos: usize,
    consumed: &'a std::cell::Cell<usize>,
}

impl std::io::Read for Counting<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        // One byte at a time, so the count is exact at every key.
        let Some(&b) = self.bytes.get(self.pos) else {
            return Ok(0);
        };
        if buf.is_empty() {
            return Ok(0);
        }
        buf[0] = b;
        self.pos += 1;
        self.consumed.set(self.pos);
        Ok(1)
    }
}

/// The header of a whole file held in memory: [`header_len`], then
/// [`decode_header`] of the N bytes after the length. (A reader of a file
/// on disk reads those N bytes itself and calls the two.)
pub fn decode(file: &[u8]) -> Result<Header, Error> {
    let len = file.len() as u64;
    let n = header_len(file, len)?;
    // `header_len` keeps the N bytes within the file.
    let start = PREFIX_BYTES as usize;
    decode_header(&file[start..start + n as usize], len)
}

/// Decodes the JSON header (`json`, N bytes, which came after the 8-byte
/// length) of a file of `file_len` bytes, and checks that its tensors tile
/// the data exactly.
///
/// The JSON is parsed once, from the slice, into compact storage (no
/// allocation per tensor; the few vectors it needs are asked for
/// fallibly): about 48 bytes a tensor beside its name and shape. A header
/// that does not parse is parsed again, a byte at a time and keeping
/// nothing, for the exact byte and reason.
pub fn decode_header(json: &[u8], file_len: u64) -> Result<Header, Error> {
    let json_bytes = json.len() as u64;
    let mut p = Parsed::default();
    match parse_fast(json, &mut p) {
        Ok(()) => {}
        Err(Fast::Rule(e)) => return Err(e),
        Err(Fast::Syntax) => return Err(syntax_error(json)),
    }
    let Parsed {
        metadata,
        mut entries,
        names,
        dims,
        problem,
        duplicate_metadata,
        ..
    } = p;
    // The first name (in file order) that an earlier entry had.
    entries.sort_unstable_by(|a, b| {
        (name_of(&names, a), a.key_end).cmp(&(name_of(&names, b), b.key_end))
    });
    let duplicate = entries
        .windows(2)
        .filter(|w| name_of(&names, &w[0]) == name_of(&names, &w[1]))
        .map(|w| (w[1].key_end, name_of(&names, &w[1]).to_string()))
        .chain(duplicate_metadata.map(|at| (at, "__metadata__".to_string())))
        .min();
    if let Some((at, name)) = duplicate {
        return Err(Error::DuplicateName {
            offset: PREFIX_BYTES + u64::from(at),
            name,
        });
    }
    if let Some(e) = problem {
        return Err(e);
    }
    let data_start = PREFIX_BYTES + json_bytes;
    check_tiling(&mut entries, &names, data_start, file_len)?;
    entries.sort_unstable_by(|a, b| name_of(&names, a).cmp(name_of(&names, b)));
    Ok(Header {
        json_bytes,
        metadata,
        entries,
        names,
        dims,
    })
}

/// Most `__metadata__` entries a header may have (real ones have a few: a
/// header of a million would take a map of a million strings).
pub const MAX_METADATA_ENTRIES: usize = 65_536;

/// What the fast parse gathered, in file order.
#[derive(Default)]
struct Parsed {
    metadata: Option<BTreeMap<String, String>>,
    /// Where a second `__metadata__` key ends.
    duplicate_metadata: Option<u32>,
    entries: Vec<Entry>,
    names: String,
    dims: Vec<u64>,
    /// The first tensor (in file order) that breaks a rule of its own.
    problem: Option<Error>,
    /// Why the parse stopped, when it was not the JSON's fault.
    fatal: Option<Error>,
}

enum Fast {
    /// The JSON does not parse as a header: [`syntax_error`] says why.
    Syntax,
    Rule(Error),
}

/// A tensor's name as the JSON gives it: borrowed when it has no escape.
enum Key<'de> {
    Borrowed(&'de str),
    Owned(String),
}

impl Key<'_> {
    fn as_str(&self) -> &str {
        match self {
            Key::Borrowed(s) => s,
            Key::Owned(s) => s,
        }
    }
}

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a tensor name")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key::Borrowed(v))
            }
            fn visit_str<E>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key::Owned(v.to_string()))
            }
        }
        d.deserialize_str(V)
    }
}

/// A tensor entry as the JSON gives it, its dtype borrowed.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TensorFields<'a> {
    #[serde(borrow)]
    dtype: std::borrow::Cow<'a, str>,
    shape: Vec<u64>,
    data_offsets: (u64, u64),
}

fn parse_fast(json: &[u8], out: &mut Parsed) -> Result<(), Fast> {
    if json.first() != Some(&b'{') {
        return Err(Fast::Syntax);
    }
    // The object, then only spaces (writers pad to 8 bytes).
    let mut stream =
        serde_json::Deserializer::from_slice(json).into_iter::<&serde_json::value::RawValue>();
    let Some(Ok(object)) = stream.next() else {
        return Err(Fast::Syntax);
    };
    if json[stream.byte_offset()..].iter().any(|&b| b != b' ') {
        return Err(Fast::Syntax);
    }
    let text = object.get();
    let visitor = FastVisitor {
        json,
        base: json.as_ptr() as usize,
        out: &mut *out,
    };
    let parsed =
        de::Deserializer::deserialize_map(&mut serde_json::Deserializer::from_str(text), visitor);
    match (parsed, out.fatal.take()) {
        (_, Some(e)) => Err(Fast::Rule(e)),
        (Ok(()), None) => Ok(()),
        (Err(_), None) => Err(Fast::Syntax),
    }
}

struct FastVisitor<'a> {
    json: &'a [u8],
    /// Where `json` starts in memory: a borrowed value's offset in it.
    base: usize,
    out: &'a mut Parsed,
}

impl FastVisitor<'_> {
    /// The end of the key whose value starts at `value` (after its closing
    /// quote), and where the key starts (its opening quote).
    fn key_around(&self, value: usize) -> (usize, usize) {
        let json = self.json;
        let mut i = value;
        let space = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r');
        while i > 0 && space(json[i - 1]) {
            i -= 1;
        }
        if i > 0 && json[i - 1] == b':' {
            i -= 1;
        }
        while i > 0 && space(json[i - 1]) {
            i -= 1;
        }
        (i, key_start(json, i))
    }

    fn entry(
        &mut self,
        name: &str,
        fields: TensorFields,
        key_at: usize,
        key_end: usize,
    ) -> Result<(), Error> {
        let offset = PREFIX_BYTES + key_end as u64;
        let out = &mut *self.out;
        let memory = |what: &'static str| {
            move |e: memory::NoMemory| Error::NoMemory {
                offset,
                what,
                bytes: e.bytes,
            }
        };
        let dtype = Dtype::from_name(&fields.dtype);
        if out.problem.is_none() {
            out.problem = entry_problem(name, &fields, dtype, offset);
        }
        let entry = Entry {
            name: (out.names.len() as u32, name.len() as u32),
            shape: (out.dims.len() as u32, fields.shape.len() as u32),
            key_at: key_at as u32,
            key_end: key_end as u32,
            dtype: dtype.unwrap_or(Dtype::U8),
            begin: fields.data_offsets.0,
            end: fields.data_offsets.1,
        };
        memory::push_str(&mut out.names, name).map_err(memory("tensor names"))?;
        memory::extend(&mut out.dims, &fields.shape).map_err(memory("tensor shapes"))?;
        memory::push(&mut out.entries, entry).map_err(memory("tensor table"))
    }
}

/// The first rule a tensor's own entry breaks (its dtype, its range, its
/// size), at `offset`.
fn entry_problem(name: &str, t: &TensorFields, dtype: Option<Dtype>, offset: u64) -> Option<Error> {
    let Some(dtype) = dtype else {
        if let Some(&(dtype, reason)) = REFUSED_DTYPES.iter().find(|(d, _)| *d == t.dtype) {
            return Some(Error::RefusedDtype {
                offset,
                name: name.to_string(),
                dtype,
                reason,
            });
        }
        return Some(Error::UnknownDtype {
            offset,
            name: name.to_string(),
            dtype: t.dtype.to_string(),
        });
    };
    let (begin, end) = t.data_offsets;
    if end < begin {
        return Some(Error::Reversed {
            offset,
            name: name.to_string(),
            begin,
            end,
        });
    }
    let Some(expected) = t
        .shape
        .iter()
        .try_fold(dtype.size(), |n, &d| n.checked_mul(d))
    else {
        return Some(Error::ShapeOverflow {
            offset,
            name: name.to_string(),
            shape: t.shape.clone(),
        });
    };
    (expected != end - begin).then(|| Error::SizeMismatch {
        offset,
        name: name.to_string(),
        dtype,
        shape: t.shape.clone(),
        expected,
        found: end - begin,
    })
}

impl<'de> Visitor<'de> for FastVisitor<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object of tensors")
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<Key<'de>>()? {
            let raw: &'de serde_json::value::RawValue = map.next_value()?;
            let text = raw.get();
            let value = (text.as_ptr() as usize).wrapping_sub(self.base);
            let (key_end, key_at) = self.key_around(value);
            if key.as_str() == "__metadata__" {
                if self.out.metadata.is_some() {
                    self.out.duplicate_metadata.get_or_insert(key_end as u32);
                    continue;
                }
                let m: StringMap<MAX_METADATA_ENTRIES> =
                    serde_json::from_str(text).map_err(de::Error::custom)?;
                self.out.metadata = Some(m.0);
                continue;
            }
            let fields: TensorFields = serde_json::from_str(text).map_err(de::Error::custom)?;
            if let Err(e) = self.entry(key.as_str(), fields, key_at, key_end) {
                self.out.fatal = Some(e);
                return Err(de::Error::custom("stopped"));
            }
        }
        Ok(())
    }
}

/// Why `json` does not parse as a header, at the exact byte: parsed again
/// a byte at a time, each entry checked and dropped (nothing is kept).
fn syntax_error(json: &[u8]) -> Error {
    match parse_json(json) {
        Err(e) => e,
        Ok(()) => Error::Json {
            offset: PREFIX_BYTES,
            message: "does not parse".into(),
        },
    }
}

/// Where the key whose text ends just before `end` (its closing quote at
/// `end - 1`) starts: its opening quote, the first one back that no
/// backslash escapes.
fn key_start(json: &[u8], end: usize) -> usize {
    let mut at = end.saturating_sub(1);
    while at > 0 {
        at -= 1;
        if json[at] == b'"' {
            let backslashes = json[..at].iter().rev().take_while(|&&b| b == b'\\').count();
            if backslashes % 2 == 0 {
                return at;
            }
        }
    }
    0
}

fn parse_json(json: &[u8]) -> Result<(), Error> {
    let consumed = std::cell::Cell::new(0);
    let err = |e: serde_json::Error, consumed: usize| Error::Json {
        offset: PREFIX_BYTES + consumed as u64,
        message: first_sentence(&e.to_string()),
    };
    if json.first() != Some(&b'{') {
        return Err(Error::Json {
            offset: PREFIX_BYTES,
            message: "must start with '{'".into(),
        });
    }
    let reader = Counting {
        bytes: json,
        pos: 0,
        consumed: &consumed,
    };
    let mut de = serde_json::Deserializer::from_reader(reader);
    de::Deserializer::deserialize_map(&mut de, CheckingVisitor)
        .map_err(|e| err(e, consumed.get()))?;
    // The rest may only be padding (spaces, as writers pad to 8 bytes).
    let rest = &json[consumed.get()..];
    if let Some(i) = rest.iter().position(|&b| b != b' ') {
        return Err(Error::Json {
            offset: PREFIX_BYTES + (consumed.get() + i) as u64,
            message: "only spaces may follow the JSON object".into(),
        });
    }
    Ok(())
}

fn first_sentence(message: &str) -> String {
    match message.find(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message.to_string(),
    }
}

/// The tensors, in offset order, must cover `[0, data length)` exactly.
fn check_tiling(
    entries: &mut [Entry],
    names: &str,
    data_start: u64,
    file_len: u64,
) -> Result<(), Error> {
    entries.sort_unstable_by(|a, b| {
        (a.begin, a.end, name_of(names, a)).cmp(&(b.begin, b.end, name_of(names, b)))
    });
    let data_len = file_len.saturating_sub(data_start);
    let mut at = 0u64;
    let mut previous: Option<&Entry> = None;
    for t in entries.iter() {
        let name = || name_of(names, t).to_string();
        let offset = data_start.saturating_add(t.begin);
        if t.begin < at {
            return Err(Error::Overlap {
                offset,
                name: name(),
                previous: previous.map_or_else(String::new, |p| name_of(names, p).to_string()),
            });
        }
        if t.begin > at {
            return Err(Error::Hole {
                offset: data_start + at,
                name: name(),
                gap: t.begin - at,
            });
        }
        if t.end > data_len {
            return Err(Error::PastEnd {
                offset,
                name: name(),
                end: data_start.saturating_add(t.end),
                len: file_len,
            });
        }
        at = t.end;
        previous = Some(t);
    }
    if at < data_len {
        return Err(Error::Trailing {
            offset: data_start + at,
            extra: data_len - at,
        });
    }
    Ok(())
}

/// A tensor to write: name, dtype, shape (its bytes come separately).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorSpec {
    pub name: String,
    pub dtype: Dtype,
    pub shape: Vec<u64>,
}

/// Every problem that would make the header [`encode_header`] writes for
/// `tensors` one [`decode`] refuses: an empty name, a name twice (JSON
/// keeps only the last), the name `__metadata__`, a size past 2^64 bytes,
/// more metadata entries than [`MAX_METADATA_ENTRIES`]. Each is named by
/// its entry (`tensors[3]`); there is no byte yet.
pub fn validate(
    tensors: &[TensorSpec],
    metadata: Option<&BTreeMap<String, String>>,
) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut order: Vec<usize> = (0..tensors.len()).collect();
    order.sort_by(|&a, &b| tensors[a].name.cmp(&tensors[b].name).then(a.cmp(&b)));
    for pair in order.windows(2) {
        if tensors[pair[0]].name == tensors[pair[1]].name {
            problems.push(Problem::of(
                format!("tensors[{}]", pair[1]),
                format!(
                    "tensor {:?} appears twice (first as tensors[{}])",
                    tensors[pair[1]].name, pair[0]
                ),
            ));
        }
    }
    let mut at = Some(0u64);
    for (i, t) in tensors.iter().enumerate() {
        let path = format!("tensors[{i}]");
        if t.name.is_empty() {
            problems.push(Problem::of(path.clone(), "the tensor name is empty"));
        }
        if t.name == "__metadata__" {
            problems.push(Problem::of(
                path.clone(),
                "__metadata__ is the header's metadata, not a tensor name",
            ));
        }
        let bytes = t
            .shape
            .iter()
            .try_fold(t.dtype.size(), |n, &d| n.checked_mul(d));
        at = at.zip(bytes).and_then(|(a, b)| a.checked_add(b));
        if at.is_none() {
            problems.push(Problem::of(
                path,
                format!("tensor {:?}: the data so far passes 2^64 bytes", t.name),
            ));
            break;
        }
    }
    if metadata.is_some_and(|m| m.len() > MAX_METADATA_ENTRIES) {
        problems.push(Problem::of(
            "__metadata__",
            format!("more than {MAX_METADATA_ENTRIES} entries"),
        ));
    }
    problems
}

/// The 8-byte length and the JSON header (padded with spaces to a
/// multiple of 8, as the reference writer does) for `tensors`, whose data
/// then follows in the order given. `None` if [`validate`] finds a
/// problem.
pub fn encode_header(
    tensors: &[TensorSpec],
    metadata: Option<&BTreeMap<String, String>>,
) -> Option<Vec<u8>> {
    if !validate(tensors, metadata).is_empty() {
        return None;
    }
    let mut object = serde_json::Map::new();
    if let Some(m) = metadata {
        object.insert("__metadata__".into(), serde_json::to_value(m).ok()?);
    }
    let mut at = 0u64;
    for t in tensors {
        let bytes = t
            .shape
            .iter()
            .try_fold(t.dtype.size(), |n, &d| n.checked_mul(d))?;
        let end = at.checked_add(bytes)?;
        object.insert(
            t.name.clone(),
            serde_json::json!({"dtype": t.dtype.name(), "shape": t.shape, "data_offsets": [at, end]}),
        );
        at = end;
    }
    let mut json = serde_json::to_vec(&object).ok()?;
    while !json.len().is_multiple_of(8) {
        json.push(b' ');
    }
    let mut out = (json.len() as u64).to_le_bytes().to_vec();
    out.extend_from_slice(&json);
    Some(out)
}

/// The index of a sharded checkpoint, `model.safetensors.index.json`:
/// which shard file holds each tensor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardIndex {
    /// tensor name -> shard file name, sorted by name.
    pub weight_map: BTreeMap<String, String>,
}

impl ShardIndex {
    /// The shard files, each once, sorted.
    pub fn shards(&self) -> Vec<&str> {
        let set: std::collections::BTreeSet<&str> =
            self.weight_map.values().map(String::as_str).collect();
        set.into_iter().collect()
    }
}

/// Reads a shard index (its `metadata` is free-form and ignored).
pub fn decode_index(json: &[u8]) -> Result<ShardIndex, String> {
    #[derive(Deserialize)]
    struct Raw {
        #[serde(default)]
        #[allow(dead_code)]
        metadata: Option<serde_json::Value>,
        weight_map: StringMap<{ usize::MAX }>,
    }
    let raw: Raw = serde_json::from_slice(json).map_err(|e| e.to_string())?;
    Ok(ShardIndex {
        weight_map: raw.weight_map.0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(tensors: &[TensorSpec]) -> Vec<u8> {
        let mut bytes = encode_header(tensors, None).unwrap();
        for t in tensors {
            let n = t.shape.iter().product::<u64>() * t.dtype.size();
            bytes.extend(std::iter::repeat_n(7u8, n as usize));
        }
        bytes
    }

    fn spec(name: &str, dtype: Dtype, shape: &[u64]) -> TensorSpec {
        TensorSpec {
            name: name.into(),
            dtype,
            shape: shape.to_vec(),
        }
    }

    fn with_json(json: &str, data: usize) -> Vec<u8> {
        let mut bytes = (json.len() as u64).to_le_bytes().to_vec();
        bytes.extend_from_slice(json.as_bytes());
        bytes.extend(std::iter::repeat_n(0u8, data));
        bytes
    }

    #[test]
    fn metadata_of_more_entries_than_kiln_reads_is_refused_at_its_byte() {
        let entries = |n: usize| {
            let m: Vec<String> = (0..n).map(|i| format!("\"k{i}\":\"v\"")).collect();
            format!("{{\"__metadata__\":{{{}}}}}", m.join(","))
        };
        let most = entries(MAX_METADATA_ENTRIES);
        assert_eq!(
            decode(&with_json(&most, 0))
                .unwrap()
                .metadata
                .unwrap()
                .len(),
            MAX_METADATA_ENTRIES
        );
        let over = entries(MAX_METADATA_ENTRIES + 1);
        let e = decode(&with_json(&over, 0)).unwrap_err();
        assert!(
            matches!(&e, Error::Json { message, .. } if message.contains("__metadata__ has more than 65536 entries")),
            "{e}"
        );
        // At the entry past the limit (the byte the parser had reached).
        let last = over.rfind("\"k65536\"").unwrap() as u64;
        assert!(e.offset() > PREFIX_BYTES + last, "{e}");
    }

    #[test]
    fn round_trips_and_sorts_by_name() {
        let bytes = file(&[
            spec("layers.2.w", Dtype::F32, &[2, 3]),
            spec("layers.10.w", Dtype::BF16, &[4]),
            spec("scalar", Dtype::F64, &[]),
            spec("empty", Dtype::I8, &[0, 3]),
        ]);
        let h = decode(&bytes).unwrap();
        let names: Vec<&str> = h.tensors().map(|t| t.name).collect();
        assert_eq!(names, ["empty", "layers.10.w", "layers.2.w", "scalar"]);
        assert_eq!(h.tensor("layers.2.w").unwrap().begin, 0);
        assert_eq!(h.tensor("scalar").unwrap().elements(), 1);
        assert_eq!(h.data_start() % 8, 0);
        assert_eq!(h.data_start() + h.data_bytes(), bytes.len() as u64);
    }

    #[test]
    fn each_tensor_knows_where_its_entry_starts() {
        let bytes = file(&[
            spec("layers.2.w", Dtype::F32, &[2, 3]),
            spec("scalar", Dtype::F64, &[]),
        ]);
        let h = decode(&bytes).unwrap();
        for t in h.tensors() {
            let at = t.entry_at as usize;
            assert!(bytes[at..].starts_with(format!("\"{}\"", t.name).as_bytes()));
        }
        // Names with escaped quotes and backslashes, and spaces before the
        // colon.
        let json = r#"{"a\"b" :{"dtype":"U8","shape":[1],"data_offsets":[0,1]},"c\\":{"dtype":"U8","shape":[1],"data_offsets":[1,2]}}"#;
        let h = decode(&with_json(json, 2)).unwrap();
        assert_eq!(h.tensor("a\"b").unwrap().entry_at, 8 + 1);
        assert_eq!(
            h.tensor("c\\").unwrap().entry_at,
            8 + json.find(r#""c\\""#).unwrap() as u64
        );
        assert_eq!(key_start(b"\"k\"", 3), 0);
        assert_eq!(key_start(b"", 0), 0);
    }

    #[test]
    fn every_rule_is_an_error_with_its_offset() {
        let cases: &[(&str, usize, &str)] = &[
            (
                r#"{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}}"#,
                8,
                "named twice",
            ),
            (
                r#"{"a":{"dtype":"F8","shape":[1],"data_offsets":[0,1]}}"#,
                1,
                "has dtype \"F8\", which safetensors does not define",
            ),
            (
                r#"{"a":{"dtype":"C64","shape":[1],"data_offsets":[0,8]}}"#,
                1,
                "has dtype C64: GGUF has no complex type",
            ),
            (
                r#"{"a":{"dtype":"F4","shape":[2],"data_offsets":[0,1]}}"#,
                1,
                "has dtype F4: MXFP4 packs two elements in a byte",
            ),
            (
                r#"{"a":{"dtype":"F6_E3M2","shape":[4],"data_offsets":[0,3]}}"#,
                1,
                "has dtype F6_E3M2: MXFP6 packs four elements",
            ),
            (
                r#"{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}}"#,
                4,
                "needs 8 bytes, its data_offsets give 4",
            ),
            (
                r#"{"a":{"dtype":"F32","shape":[1],"data_offsets":[4,0]}}"#,
                4,
                "end before they begin",
            ),
            (
                r#"{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"b":{"dtype":"F32","shape":[1],"data_offsets":[2,6]}}"#,
                6,
                "overlaps",
            ),
            (
                r#"{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"b":{"dtype":"F32","shape":[1],"data_offsets":[6,10]}}"#,
                10,
                "2 bytes before tensor \"b\" belong to no tensor",
            ),
            (
                r#"{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}"#,
                3,
                "ends at byte",
            ),
            (
                r#"{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}"#,
                6,
                "2 bytes after the last tensor",
            ),
            (
                r#"{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4],"x":1}}"#,
                4,
                "unknown field",
            ),
            (r#"{"__metadata__":{"k":1}}"#, 0, "header:"),
            (
                r#"{"a":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,4]}}"#,
                4,
                "too large",
            ),
            (r#"[]"#, 0, "must start with '{'"),
            (r#"{} x"#, 0, "only spaces"),
        ];
        for (json, data, part) in cases {
            let bytes = with_json(json, *data);
            let e = decode(&bytes).unwrap_err();
            assert!(e.to_string().contains(part), "{json}: {e}");
            assert!(
                e.to_string()
                    .starts_with(&format!("at byte {}: ", e.offset())),
                "{e}"
            );
            assert!(e.offset() <= bytes.len() as u64, "{e}");
        }
        // The duplicate is pointed at its second key.
        let bytes = with_json(cases[0].0, 8);
        let at = decode(&bytes).unwrap_err().offset() as usize;
        assert!(bytes[..at].ends_with(br#","a""#), "{at}");
    }

    #[test]
    fn the_header_length_is_bounded_before_anything_is_read() {
        let e = header_len(&u64::MAX.to_le_bytes(), 100).unwrap_err();
        assert!(matches!(e, Error::HeaderTooLong { .. }), "{e}");
        let e = header_len(&MAX_HEADER_BYTES.to_le_bytes(), 100).unwrap_err();
        assert!(matches!(e, Error::HeaderPastEnd { have: 92, .. }), "{e}");
        assert_eq!(header_len(&92u64.to_le_bytes(), 100), Ok(92));
        assert!(header_len(&[0; 7], 100).is_err());
        let e = header_len(&(MAX_HEADER_BYTES + 1).to_le_bytes(), u64::MAX).unwrap_err();
        assert!(matches!(e, Error::HeaderTooLong { .. }));
        assert!(header_len(&MAX_HEADER_BYTES.to_le_bytes(), u64::MAX).is_ok());
    }

    #[test]
    fn errors_point_at_the_tensor_and_say_what_was_expected() {
        // The entry's offset is just after its key, counted from the file's
        // start (8 bytes of length first).
        let json = r#"{"ab":{"dtype":"Q4","shape":[1],"data_offsets":[0,1]}}"#;
        let e = decode(&with_json(json, 1)).unwrap_err();
        assert_eq!(e.offset(), 8 + 5, "{e}");
        let e = decode(&with_json(r#"{"__metadata__":5}"#, 0)).unwrap_err();
        assert!(
            e.to_string()
                .contains("expected __metadata__ as a map of strings to strings"),
            "{e}"
        );
        let e = decode(&with_json(
            r#"{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}} "#,
            4,
        ));
        assert!(e.is_ok(), "a space of padding after the object: {e:?}");
        assert_eq!(Dtype::BF16.to_string(), "BF16");
        assert_eq!(Dtype::Bool.to_string(), "BOOL");
        let h = decode(&file(&[spec("a", Dtype::I16, &[3, 2])])).unwrap();
        let t = h.tensors().next().unwrap();
        assert_eq!(t.bytes(), 12);
        assert_eq!(t.elements(), 6);
    }

    #[test]
    fn tiling_errors_carry_exact_offsets_and_sizes() {
        let one = r#"{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}}"#;
        let e = decode(&with_json(one, 4)).unwrap_err();
        assert!(
            matches!(
                e,
                Error::SizeMismatch {
                    expected: 8,
                    found: 4,
                    ..
                }
            ),
            "{e}"
        );
        // Data starts at 8 + the JSON's length.
        let hole = r#"{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"b":{"dtype":"F32","shape":[1],"data_offsets":[6,10]}}"#;
        let start = 8 + hole.len() as u64;
        let e = decode(&with_json(hole, 10)).unwrap_err();
        assert_eq!(
            e,
            Error::Hole {
                offset: start + 4,
                name: "b".into(),
                gap: 2
            }
        );
        let e = decode(&with_json(one.replace("[2]", "[1]").as_str(), 7)).unwrap_err();
        let start = 8 + one.len() as u64;
        assert_eq!(
            e,
            Error::Trailing {
                offset: start + 4,
                extra: 3
            }
        );
        let e = decode(&with_json(r#"{}  x"#, 0)).unwrap_err();
        assert_eq!(e.offset(), 8 + 4, "{e}");
    }

    #[test]
    fn metadata_is_a_map_of_strings() {
        let json = r#"{"__metadata__":{"format":"pt","b":"2"}}"#;
        let h = decode(&with_json(json, 0)).unwrap();
        let m = h.metadata.unwrap();
        assert_eq!(m["format"], "pt");
        let dup = r#"{"__metadata__":{"k":"1","k":"2"}}"#;
        assert!(
            decode(&with_json(dup, 0))
                .unwrap_err()
                .to_string()
                .contains("twice")
        );
    }

    #[test]
    fn every_truncation_is_refused() {
        let bytes = file(&[spec("a", Dtype::F32, &[3]), spec("b", Dtype::U8, &[5])]);
        for n in 0..bytes.len() {
            assert!(decode(&bytes[..n]).is_err(), "prefix {n} accepted");
        }
    }

    #[test]
    fn a_shard_index_lists_its_shards_once() {
        let json = br#"{"metadata":{"total_size":8},"weight_map":{"b":"m-2.safetensors","a":"m-1.safetensors","c":"m-2.safetensors"}}"#;
        let index = decode_index(json).unwrap();
        assert_eq!(index.shards(), ["m-1.safetensors", "m-2.safetensors"]);
        assert!(decode_index(br#"{"weight_map":{"a":1}}"#).is_err());
    }
}
