//! GGUF version 3, the container of GGML runtimes (spec:
//! [docs/formats/gguf.md](../../docs/formats/gguf.md)).
//!
//! A file is the magic `GGUF`, u32 version 3, u64 tensor count, u64
//! metadata count, the metadata (key string, u32 value type, value), the
//! tensor infos (name string, u32 dimension count, u64 dimensions in GGML
//! order, fastest first, u32 tensor type, u64 offset), zero padding to the
//! alignment, then the data: every tensor at its offset, each padded to the
//! alignment, the last one included. Strings are a u64 length and UTF-8.
//!
//! Tensor data can be far larger than memory, so this module encodes and
//! decodes the header only; the data is streamed by the caller at the
//! offsets [`Header`] gives. [`decode_header`] applies every rule of
//! ggml's own loader (`gguf_init_from_file_impl` in `src/gguf.cpp`): the
//! magic and version 3; counts within the bytes left; no empty or duplicate
//! key; known value types, arrays not nested; `general.alignment` a UINT32
//! power of two; tensor names under 64 bytes and unique; at most 4
//! dimensions, none negative, the element count representable; known
//! tensor types whose block size divides the first dimension; offsets
//! exactly the running padded sum; and, beyond ggml, all data present with
//! no trailing byte, booleans 0 or 1 and strings UTF-8.

use std::fmt;

use super::cursor::{self, Cursor};
pub use super::problem::Problem;
use crate::memory;

pub const MAGIC: [u8; 4] = *b"GGUF";
pub const VERSION: u32 = 3;
/// Alignment when `general.alignment` is absent.
pub const DEFAULT_ALIGNMENT: u64 = 32;
/// Tensor names must be shorter than this (GGML_MAX_NAME).
pub const MAX_NAME_BYTES: usize = 64;
/// GGML_MAX_DIMS.
pub const MAX_DIMS: usize = 4;
/// ggml's GGUF_MAX_STRING_LENGTH and GGUF_MAX_ARRAY_ELEMENTS.
pub const MAX_STRING_BYTES: u64 = 1 << 30;
/// Most tensors a header describes (real models have up to about a
/// hundred thousand): the table is held compactly, about 64 bytes a
/// tensor, so at most 268 MB whatever the file claims.
pub const MAX_TENSORS: u64 = 1 << 22;
/// Most metadata entries a header holds (real ones have a few dozen; a
/// tokenizer is arrays inside single entries).
pub const MAX_METADATA_ENTRIES: u64 = 65_536;
/// Most strings a header's string arrays hold together (a vocabulary and
/// its merges are under a million): each is a string of its own in memory.
pub const MAX_ARRAY_STRINGS: u64 = 1 << 21;
pub const MAX_ARRAY_ELEMENTS: u64 = 1 << 30;

pub const KEY_ALIGNMENT: &str = "general.alignment";

/// A metadata value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    U8(u8),
    I8(i8),
    U16(u16),
    I16(i16),
    U32(u32),
    I32(i32),
    F32(f32),
    Bool(bool),
    String(String),
    Array(Array),
    U64(u64),
    I64(i64),
    F64(f64),
}

/// An array value: one element type (never an array).
#[derive(Clone, Debug, PartialEq)]
pub enum Array {
    U8(Vec<u8>),
    I8(Vec<i8>),
    U16(Vec<u16>),
    I16(Vec<i16>),
    U32(Vec<u32>),
    I32(Vec<i32>),
    F32(Vec<f32>),
    Bool(Vec<bool>),
    String(Vec<String>),
    U64(Vec<u64>),
    I64(Vec<i64>),
    F64(Vec<f64>),
}

/// The value type codes.
pub mod types {
    pub const UINT8: u32 = 0;
    pub const INT8: u32 = 1;
    pub const UINT16: u32 = 2;
    pub const INT16: u32 = 3;
    pub const UINT32: u32 = 4;
    pub const INT32: u32 = 5;
    pub const FLOAT32: u32 = 6;
    pub const BOOL: u32 = 7;
    pub const STRING: u32 = 8;
    pub const ARRAY: u32 = 9;
    pub const UINT64: u32 = 10;
    pub const INT64: u32 = 11;
    pub const FLOAT64: u32 = 12;
}

/// The name of a value type code, as gguf-py and ggml print it.
pub fn type_name(code: u32) -> &'static str {
    match code {
        types::UINT8 => "UINT8",
        types::INT8 => "INT8",
        types::UINT16 => "UINT16",
        types::INT16 => "INT16",
        types::UINT32 => "UINT32",
        types::INT32 => "INT32",
        types::FLOAT32 => "FLOAT32",
        types::BOOL => "BOOL",
        types::STRING => "STRING",
        types::ARRAY => "ARRAY",
        types::UINT64 => "UINT64",
        types::INT64 => "INT64",
        types::FLOAT64 => "FLOAT64",
        _ => "unknown",
    }
}

impl Value {
    pub fn type_code(&self) -> u32 {
        match self {
            Value::U8(_) => types::UINT8,
            Value::I8(_) => types::INT8,
            Value::U16(_) => types::UINT16,
            Value::I16(_) => types::INT16,
            Value::U32(_) => types::UINT32,
            Value::I32(_) => types::INT32,
            Value::F32(_) => types::FLOAT32,
            Value::Bool(_) => types::BOOL,
            Value::String(_) => types::STRING,
            Value::Array(_) => types::ARRAY,
            Value::U64(_) => types::UINT64,
            Value::I64(_) => types::INT64,
            Value::F64(_) => types::FLOAT64,
        }
    }

    /// `ARRAY[FLOAT32]` and the like, for messages and `inspect`.
    pub fn type_text(&self) -> String {
        match self {
            Value::Array(a) => format!("ARRAY[{}]", type_name(a.elem_code())),
            v => type_name(v.type_code()).to_string(),
        }
    }
}

impl Array {
    pub fn elem_code(&self) -> u32 {
        match self {
            Array::U8(_) => types::UINT8,
            Array::I8(_) => types::INT8,
            Array::U16(_) => types::UINT16,
            Array::I16(_) => types::INT16,
            Array::U32(_) => types::UINT32,
            Array::I32(_) => types::INT32,
            Array::F32(_) => types::FLOAT32,
            Array::Bool(_) => types::BOOL,
            Array::String(_) => types::STRING,
            Array::U64(_) => types::UINT64,
            Array::I64(_) => types::INT64,
            Array::F64(_) => types::FLOAT64,
        }
    }

    pub fn len(&self) -> usize {
        match self {
            Array::U8(v) => v.len(),
            Array::I8(v) => v.len(),
            Array::U16(v) => v.len(),
            Array::I16(v) => v.len(),
            Array::U32(v) => v.len(),
            Array::I32(v) => v.len(),
            Array::F32(v) => v.len(),
            Array::Bool(v) => v.len(),
            Array::String(v) => v.len(),
            Array::U64(v) => v.len(),
            Array::I64(v) => v.len(),
            Array::F64(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A GGML tensor type (`ggml_type`), with its block layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct TensorType(pub u32);

impl TensorType {
    pub const F32: TensorType = TensorType(0);
    pub const F16: TensorType = TensorType(1);
    pub const Q4_0: TensorType = TensorType(2);
    pub const Q8_0: TensorType = TensorType(8);
    pub const I8: TensorType = TensorType(24);
    pub const I16: TensorType = TensorType(25);
    pub const I32: TensorType = TensorType(26);
    pub const I64: TensorType = TensorType(27);
    pub const F64: TensorType = TensorType(28);
    pub const BF16: TensorType = TensorType(30);

    /// (name, elements per block, bytes per block), from ggml's
    /// `type_traits` (ggml.c) and `ggml-common.h`; `None` for a code ggml
    /// does not load (removed types, or beyond GGML_TYPE_COUNT = 43).
    pub fn layout(self) -> Option<(&'static str, u64, u64)> {
        Some(match self.0 {
            0 => ("F32", 1, 4),
            1 => ("F16", 1, 2),
            2 => ("Q4_0", 32, 18),
            3 => ("Q4_1", 32, 20),
            6 => ("Q5_0", 32, 22),
            7 => ("Q5_1", 32, 24),
            8 => ("Q8_0", 32, 34),
            9 => ("Q8_1", 32, 36),
            10 => ("Q2_K", 256, 84),
            11 => ("Q3_K", 256, 110),
            12 => ("Q4_K", 256, 144),
            13 => ("Q5_K", 256, 176),
            14 => ("Q6_K", 256, 210),
            15 => ("Q8_K", 256, 292),
            16 => ("IQ2_XXS", 256, 66),
            17 => ("IQ2_XS", 256, 74),
            18 => ("IQ3_XXS", 256, 98),
            19 => ("IQ1_S", 256, 50),
            20 => ("IQ4_NL", 32, 18),
            21 => ("IQ3_S", 256, 110),
            22 => ("IQ2_S", 256, 82),
            23 => ("IQ4_XS", 256, 136),
            24 => ("I8", 1, 1),
            25 => ("I16", 1, 2),
            26 => ("I32", 1, 4),
            27 => ("I64", 1, 8),
            28 => ("F64", 1, 8),
            29 => ("IQ1_M", 256, 56),
            30 => ("BF16", 1, 2),
            34 => ("TQ1_0", 256, 54),
            35 => ("TQ2_0", 256, 66),
            39 => ("MXFP4", 32, 17),
            40 => ("NVFP4", 64, 36),
            41 => ("Q1_0", 128, 18),
            42 => ("Q2_0", 64, 18),
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        self.layout().map_or("unknown", |(name, _, _)| name)
    }
}

impl fmt::Display for TensorType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A tensor's description in the header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TensorInfo<'a> {
    pub name: &'a str,
    /// GGML order (fastest first), 1 to 4 of them... or 0 (a scalar as
    /// ggml reads it: every dimension 1).
    pub dims: &'a [u64],
    pub ty: TensorType,
    /// Relative to the start of the data.
    pub offset: u64,
}

impl TensorInfo<'_> {
    pub fn elements(&self) -> u64 {
        self.dims.iter().product()
    }

    /// Bytes of data (unpadded); `None` if the type is unknown or the size
    /// overflows.
    pub fn bytes(&self) -> Option<u64> {
        tensor_bytes(self.dims, self.ty)
    }
}

/// A tensor description as a [`Header`] holds it: its name a range of the
/// header's one string of names, its dimensions inline (no allocation of
/// its own).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    name: (u64, u8),
    n_dims: u8,
    dims: [u64; MAX_DIMS],
    ty: TensorType,
    offset: u64,
}

pub fn tensor_bytes(dims: &[u64], ty: TensorType) -> Option<u64> {
    let (_, block, size) = ty.layout()?;
    let n = dims.iter().try_fold(1u64, |n, &d| n.checked_mul(d))?;
    (n / block).checked_mul(size)
}

/// `n` rounded up to a multiple of `alignment` (a power of two).
pub fn pad(n: u64, alignment: u64) -> Option<u64> {
    n.checked_add(alignment - 1).map(|m| m & !(alignment - 1))
}

/// A decoded header.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    /// In file order.
    pub metadata: Vec<(String, Value)>,
    /// The tensor descriptions in file order ([`Header::tensors`] gives
    /// them as [`TensorInfo`] views).
    entries: Vec<Entry>,
    names: String,
    pub alignment: u64,
    /// File offset of the data.
    pub data_start: u64,
    /// Bytes of data, every tensor padded.
    pub data_bytes: u64,
    /// Where each part starts in the file, for errors that name a byte.
    pub places: Places,
}

/// Where a header's parts start in its file: each metadata entry (its
/// key), then the end of the metadata; each tensor description (its name),
/// then the end of the descriptions. A rule about a value names its entry;
/// a rule about something absent names where it would be.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Places {
    metadata: Vec<u64>,
    tensors: Vec<u64>,
}

impl Places {
    fn new(metadata: &[usize], metadata_end: usize, tensors: &[usize], end: usize) -> Places {
        let all = |starts: &[usize], end: usize| {
            starts
                .iter()
                .chain([&end])
                .map(|&o| o as u64)
                .collect::<Vec<u64>>()
        };
        Places {
            metadata: all(metadata, metadata_end),
            tensors: all(tensors, end),
        }
    }
}

impl Header {
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.metadata.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// The tensor descriptions, in file order.
    pub fn tensors(&self) -> impl ExactSizeIterator<Item = TensorInfo<'_>> + '_ {
        self.entries.iter().map(|e| self.view(e))
    }

    pub fn tensor_count(&self) -> usize {
        self.entries.len()
    }

    /// Tensor description `index` (file order).
    pub fn tensor_at(&self, index: usize) -> Option<TensorInfo<'_>> {
        self.entries.get(index).map(|e| self.view(e))
    }

    pub fn tensor(&self, name: &str) -> Option<TensorInfo<'_>> {
        self.tensors().find(|t| t.name == name)
    }

    fn view<'a>(&'a self, e: &'a Entry) -> TensorInfo<'a> {
        TensorInfo {
            name: &self.names[e.name.0 as usize..][..usize::from(e.name.1)],
            dims: &e.dims[..usize::from(e.n_dims)],
            ty: e.ty,
            offset: e.offset,
        }
    }

    /// The tensors as [`encode_header`] takes them.
    pub fn descs(&self) -> Vec<TensorDesc<'_>> {
        self.tensors()
            .map(|t| TensorDesc {
                name: t.name,
                dims: t.dims,
                ty: t.ty,
            })
            .collect()
    }

    /// The whole file's length.
    pub fn file_bytes(&self) -> u64 {
        self.data_start + self.data_bytes
    }

    /// Where metadata entry `index` starts; past the last, where the
    /// metadata ends (the byte a missing entry would be at).
    pub fn metadata_at(&self, index: usize) -> u64 {
        let p = &self.places.metadata;
        p.get(index).or(p.last()).copied().unwrap_or(0)
    }

    /// Where the entry of `key` starts, or where the metadata ends when
    /// there is none.
    pub fn key_at(&self, key: &str) -> u64 {
        let index = self.metadata.iter().position(|(k, _)| k == key);
        self.metadata_at(index.unwrap_or(self.metadata.len()))
    }

    /// Where tensor description `index` starts; past the last, where the
    /// descriptions end.
    pub fn tensor_info_at(&self, index: usize) -> u64 {
        let p = &self.places.tensors;
        p.get(index).or(p.last()).copied().unwrap_or(0)
    }

    /// Where byte `byte` of tensor `index`'s data is in the file.
    pub fn tensor_byte_at(&self, index: usize, byte: u64) -> u64 {
        let start = self.entries.get(index).map_or(0, |t| t.offset);
        self.data_start + start + byte
    }
}

/// Why a GGUF file (or a header to write) is refused. Decode errors carry
/// the byte offset of what broke the rule.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Bytes(#[from] cursor::Error),
    #[error("at byte 0: the magic must be \"GGUF\", found {found:?}")]
    Magic { found: String },
    #[error("at byte 4: GGUF version {found}; kiln reads version 3")]
    Version { found: u32 },
    #[error("at byte {offset}: metadata key {index} is empty")]
    EmptyKey { offset: usize, index: u64 },
    /// ggml compares names as C strings: `a` and `a\0b` would be one.
    #[error(
        "at byte {offset}: {what} {name:?} holds a NUL byte, which ggml's loader reads as its end"
    )]
    NulInName {
        offset: usize,
        what: &'static str,
        name: String,
    },
    #[error("at byte {offset}: metadata key {key:?} appears twice (first as key {first})")]
    DuplicateKey {
        offset: usize,
        key: String,
        first: usize,
    },
    #[error(
        "at byte {offset}: metadata key {key:?} has value type {code}, which is not a GGUF type"
    )]
    ValueType {
        offset: usize,
        key: String,
        code: u32,
    },
    #[error(
        "at byte {offset}: metadata key {key:?} is an array of arrays, which GGUF does not allow"
    )]
    NestedArray { offset: usize, key: String },
    #[error("at byte {offset}: {what} is not UTF-8")]
    Utf8 { offset: usize, what: String },
    #[error(
        "at byte {offset}: metadata key {key:?} has the boolean byte {byte}; it must be 0 or 1"
    )]
    Bool {
        offset: usize,
        key: String,
        byte: u8,
    },
    #[error("at byte {offset}: general.alignment must be UINT32, found {found}")]
    AlignmentType { offset: usize, found: String },
    #[error("at byte {offset}: general.alignment {value} is not a power of 2")]
    Alignment { offset: usize, value: u64 },
    #[error("at byte {offset}: tensor name {name:?} is {len} bytes; GGML allows at most {}", MAX_NAME_BYTES - 1)]
    NameTooLong {
        offset: usize,
        name: String,
        len: usize,
    },
    #[error("at byte {offset}: tensor {name:?} appears twice (first as tensor {first})")]
    DuplicateTensor {
        offset: usize,
        name: String,
        first: usize,
    },
    #[error("at byte {offset}: tensor {name:?} has {n} dimensions; GGML allows at most {MAX_DIMS}")]
    TooManyDims { offset: usize, name: String, n: u64 },
    #[error(
        "at byte {offset}: tensor {name:?} dimension {index} is {value}, which is negative as GGML reads it"
    )]
    NegativeDim {
        offset: usize,
        name: String,
        index: usize,
        value: u64,
    },
    #[error("at byte {offset}: tensor {name:?} has too many elements ({dims:?})")]
    TooManyElements {
        offset: usize,
        name: String,
        dims: Vec<u64>,
    },
    #[error("at byte {offset}: tensor {name:?} has type {code}, which GGML does not load")]
    TensorType {
        offset: usize,
        name: String,
        code: u32,
    },
    #[error(
        "at byte {offset}: tensor {name:?} of type {ty} has {ne0} elements per row, not a multiple of its block of {block}"
    )]
    BlockSize {
        offset: usize,
        name: String,
        ty: TensorType,
        ne0: u64,
        block: u64,
    },
    #[error(
        "at byte {offset}: tensor {name:?} has offset {found}; it must be {expected} (the padded sizes of the tensors before it)"
    )]
    Offset {
        offset: usize,
        name: String,
        found: u64,
        expected: u64,
    },
    #[error(
        "at byte {offset}: the data needs {need} bytes to the end of the file, which has {have}"
    )]
    DataMissing { offset: u64, need: u64, have: u64 },
    #[error("at byte {offset}: {extra} bytes after the end of the data")]
    Trailing { offset: u64, extra: u64 },
    #[error("at byte {offset}: the padding before the data must be zero bytes")]
    Padding { offset: usize },
    #[error("at byte {offset}: {count} {what}, more than the {max} kiln reads")]
    TooMany {
        offset: usize,
        what: &'static str,
        count: u64,
        max: u64,
    },
    #[error(
        "at byte {offset}: the {what} need {bytes} bytes of memory, which could not be had: give kiln more memory"
    )]
    NoMemory {
        offset: usize,
        what: &'static str,
        bytes: u64,
    },
}

impl Error {
    /// The byte offset a decode error is about.
    pub fn offset(&self) -> u64 {
        match self {
            Error::Bytes(e) => e.offset() as u64,
            Error::Magic { .. } => 0,
            Error::Version { .. } => 4,
            Error::EmptyKey { offset, .. }
            | Error::NulInName { offset, .. }
            | Error::DuplicateKey { offset, .. }
            | Error::ValueType { offset, .. }
            | Error::NestedArray { offset, .. }
            | Error::Utf8 { offset, .. }
            | Error::Bool { offset, .. }
            | Error::AlignmentType { offset, .. }
            | Error::Alignment { offset, .. }
            | Error::NameTooLong { offset, .. }
            | Error::DuplicateTensor { offset, .. }
            | Error::TooManyDims { offset, .. }
            | Error::NegativeDim { offset, .. }
            | Error::TooManyElements { offset, .. }
            | Error::TensorType { offset, .. }
            | Error::BlockSize { offset, .. }
            | Error::Offset { offset, .. }
            | Error::TooMany { offset, .. }
            | Error::NoMemory { offset, .. }
            | Error::Padding { offset } => *offset as u64,
            Error::DataMissing { offset, .. } | Error::Trailing { offset, .. } => *offset,
        }
    }

    /// The header reads past the bytes given (`decode_header` was handed
    /// a prefix of the file): more of it would tell.
    pub fn is_truncated(&self) -> bool {
        matches!(
            self,
            Error::Bytes(cursor::Error::Truncated { .. } | cursor::Error::PastEnd { .. })
        )
    }
}

/// Smallest encoding of a metadata entry: key length 8, one key byte,
/// type 4, one value byte.
const MIN_KV_BYTES: u64 = 14;
/// Smallest tensor info: name length 8, one byte, n_dims 4, type 4,
/// offset 8.
const MIN_TENSOR_BYTES: u64 = 25;

/// Reads the header from `bytes` (the file, or a prefix of it: then a
/// truncation error [`Error::is_truncated`] asks for more), checking it
/// against the file's length `file_len`.
pub fn decode_header(bytes: &[u8], file_len: u64) -> Result<Header, Error> {
    let mut c = Cursor::new(bytes);
    let magic = c.array::<4>("GGUF magic")?;
    if magic != MAGIC {
        return Err(Error::Magic {
            found: String::from_utf8_lossy(&magic).into_owned(),
        });
    }
    let version = c.u32("GGUF version")?;
    if version != VERSION {
        return Err(Error::Version { found: version });
    }
    let at = c.offset();
    let n_tensors = c.u64("tensor count")?;
    let at_kv = c.offset();
    let n_kv = c.u64("metadata count")?;
    if n_kv > MAX_METADATA_ENTRIES {
        return Err(Error::TooMany {
            offset: at_kv,
            what: "metadata entries",
            count: n_kv,
            max: MAX_METADATA_ENTRIES,
        });
    }
    let n_kv = c.count(at_kv, n_kv, MIN_KV_BYTES, u64::MAX, "metadata entries")?;
    let mut metadata: Vec<(String, Value)> = Vec::with_capacity(n_kv);
    let mut offsets = Vec::with_capacity(n_kv);
    let mut strings = 0u64;
    // Each key's first index: duplicates found in one lookup each, not by
    // scanning every earlier key (quadratic in a file of many keys).
    let mut seen_keys = FirstIndex::default();
    for index in 0..n_kv {
        let at = c.offset();
        offsets.push(at);
        let key = read_string(&mut c, "metadata key")?;
        if key.is_empty() {
            return Err(Error::EmptyKey {
                offset: at,
                index: index as u64,
            });
        }
        no_nul(&key, at, "metadata key")?;
        if let Some(first) = seen_keys.insert(&key, index) {
            return Err(Error::DuplicateKey {
                offset: at,
                key,
                first,
            });
        }
        let value = read_value(&mut c, &key, &mut strings)?;
        metadata.push((key, value));
    }
    let alignment = alignment_of(&metadata, &offsets)?;
    let metadata_end = c.offset();
    // Checked against the bytes left only now, after the metadata.
    if n_tensors > MAX_TENSORS {
        return Err(Error::TooMany {
            offset: at,
            what: "tensors",
            count: n_tensors,
            max: MAX_TENSORS,
        });
    }
    let n_tensors = c.count(at, n_tensors, MIN_TENSOR_BYTES, u64::MAX, "tensors")?;
    let memory = |what: &'static str| {
        move |e: memory::NoMemory| Error::NoMemory {
            offset: at,
            what,
            bytes: e.bytes,
        }
    };
    let mut table = Table {
        entries: memory::with_capacity(n_tensors).map_err(memory("tensor descriptions"))?,
        names: String::new(),
        starts: memory::with_capacity(n_tensors).map_err(memory("tensor descriptions"))?,
    };
    let mut expected = 0u64;
    for _ in 0..n_tensors {
        table.starts.push(c.offset());
        let entry = match read_tensor_info(&mut c, &mut table.names) {
            Ok(entry) => entry,
            Err((e, named)) => {
                let known = table.entries.len() + usize::from(named);
                return Err(table.first_duplicate(known).unwrap_or(e));
            }
        };
        table.entries.push(entry);
        let info = table.last();
        let at = c.offset() - 8;
        if info.offset != expected {
            let e = Error::Offset {
                offset: at,
                name: info.name.to_string(),
                found: info.offset,
                expected,
            };
            return Err(table.first_duplicate(table.entries.len()).unwrap_or(e));
        }
        let size = info
            .bytes()
            .and_then(|b| pad(b, alignment))
            .and_then(|b| expected.checked_add(b));
        let Some(size) = size else {
            let e = Error::TooManyElements {
                offset: at,
                name: info.name.to_string(),
                dims: info.dims.to_vec(),
            };
            return Err(table.first_duplicate(table.entries.len()).unwrap_or(e));
        };
        expected = size;
    }
    if let Some(e) = table.first_duplicate(table.entries.len()) {
        return Err(e);
    }
    let Table {
        entries,
        names,
        starts: tensor_offsets,
    } = table;
    let header_end = c.offset() as u64;
    let data_start = if n_tensors > 0 {
        pad(header_end, alignment).expect("small")
    } else {
        header_end
    };
    // The padding is there and zero (in the bytes given).
    let pad_bytes = (data_start - header_end) as usize;
    let padding = c.take(pad_bytes.min(c.remaining()), "padding")?;
    if let Some(i) = padding.iter().position(|&b| b != 0) {
        return Err(Error::Padding {
            offset: header_end as usize + i,
        });
    }
    let need = data_start + expected;
    if need > file_len {
        return Err(Error::DataMissing {
            offset: data_start.min(file_len),
            need: expected,
            have: file_len.saturating_sub(data_start),
        });
    }
    if need < file_len {
        return Err(Error::Trailing {
            offset: need,
            extra: file_len - need,
        });
    }
    Ok(Header {
        metadata,
        entries,
        names,
        alignment,
        data_start,
        data_bytes: expected,
        places: Places::new(&offsets, metadata_end, &tensor_offsets, header_end as usize),
    })
}

/// The tensor descriptions read so far, and where each starts.
struct Table {
    entries: Vec<Entry>,
    names: String,
    starts: Vec<usize>,
}

impl Table {
    fn last(&self) -> TensorInfo<'_> {
        let e = self.entries.last().expect("one was pushed");
        TensorInfo {
            name: &self.names[e.name.0 as usize..][..usize::from(e.name.1)],
            dims: &e.dims[..usize::from(e.n_dims)],
            ty: e.ty,
            offset: e.offset,
        }
    }

    /// The first of the first `known` names (in file order) that an
    /// earlier one had, as the error a reader checking each name as it
    /// came would give: found by sorting (no map of every name).
    fn first_duplicate(&self, known: usize) -> Option<Error> {
        let name_at = |i: usize| -> &str {
            // The name of a description that failed after its name was
            // read is the last one in `names`.
            match self.entries.get(i) {
                Some(e) => &self.names[e.name.0 as usize..][..usize::from(e.name.1)],
                None => {
                    let start = self
                        .entries
                        .last()
                        .map_or(0, |e| (e.name.0 + u64::from(e.name.1)) as usize);
                    &self.names[start..]
                }
            }
        };
        let mut order: Vec<u32> = memory::with_capacity(known).ok()?;
        order.extend((0..known).map(|i| i as u32));
        order.sort_unstable_by(|&a, &b| (name_at(a as usize), a).cmp(&(name_at(b as usize), b)));
        let (first, later) = order
            .windows(2)
            .filter(|w| name_at(w[0] as usize) == name_at(w[1] as usize))
            .map(|w| (w[0] as usize, w[1] as usize))
            .min_by_key(|&(_, later)| later)?;
        // The earliest index of that name.
        let first = order
            .iter()
            .map(|&i| i as usize)
            .find(|&i| name_at(i) == name_at(later))
            .unwrap_or(first);
        Some(Error::DuplicateTensor {
            offset: self.starts[later],
            name: name_at(later).to_string(),
            first,
        })
    }
}

/// The alignment `general.alignment` sets (32 without it); `offsets` are
/// where each metadata entry starts, for the error.
fn alignment_of(metadata: &[(String, Value)], offsets: &[usize]) -> Result<u64, Error> {
    let Some(i) = metadata.iter().position(|(k, _)| k == KEY_ALIGNMENT) else {
        return Ok(DEFAULT_ALIGNMENT);
    };
    let offset = offsets.get(i).copied().unwrap_or(0);
    match &metadata[i].1 {
        Value::U32(a) if a.is_power_of_two() => Ok(u64::from(*a)),
        Value::U32(a) => Err(Error::Alignment {
            offset,
            value: u64::from(*a),
        }),
        v => Err(Error::AlignmentType {
            offset,
            found: v.type_text(),
        }),
    }
}

fn read_string(c: &mut Cursor, what: &str) -> Result<String, Error> {
    let at = c.offset();
    let len = c.u64(&format!("{what} length"))?;
    let len = c.count(at, len, 1, MAX_STRING_BYTES, &format!("{what} bytes"))?;
    let start = c.offset();
    let raw = c.take(len, what)?;
    String::from_utf8(raw.to_vec()).map_err(|e| Error::Utf8 {
        offset: start + e.utf8_error().valid_up_to(),
        what: what.to_string(),
    })
}

/// `strings` counts the strings of the header's string arrays so far,
/// held to [`MAX_ARRAY_STRINGS`].
fn read_value(c: &mut Cursor, key: &str, strings: &mut u64) -> Result<Value, Error> {
    let at = c.offset();
    let code = c.u32("value type")?;
    if code == types::ARRAY {
        let at_elem = c.offset();
        let elem = c.u32("array element type")?;
        if elem == types::ARRAY {
            return Err(Error::NestedArray {
                offset: at_elem,
                key: key.into(),
            });
        }
        let at_n = c.offset();
        let n = c.u64("array length")?;
        let min = match elem {
            types::UINT8 | types::INT8 | types::BOOL => 1,
            types::UINT16 | types::INT16 => 2,
            types::UINT32 | types::INT32 | types::FLOAT32 => 4,
            types::UINT64 | types::INT64 | types::FLOAT64 | types::STRING => 8,
            code => {
                return Err(Error::ValueType {
                    offset: at_elem,
                    key: key.into(),
                    code,
                });
            }
        };
        let n = c.count(at_n, n, min, MAX_ARRAY_ELEMENTS, "array elements")?;
        if elem == types::STRING {
            *strings = strings.saturating_add(n as u64);
            if *strings > MAX_ARRAY_STRINGS {
                return Err(Error::TooMany {
                    offset: at_n,
                    what: "strings in the header's arrays (with this one's)",
                    count: *strings,
                    max: MAX_ARRAY_STRINGS,
                });
            }
        }
        return read_array(c, key, elem, n, at_n).map(Value::Array);
    }
    read_scalar(c, key, code).map_err(|e| match e {
        Error::ValueType { key, code, .. } => Error::ValueType {
            offset: at,
            key,
            code,
        },
        e => e,
    })
}

fn read_scalar(c: &mut Cursor, key: &str, code: u32) -> Result<Value, Error> {
    Ok(match code {
        types::UINT8 => Value::U8(c.u8(key)?),
        types::INT8 => Value::I8(c.i8(key)?),
        types::UINT16 => Value::U16(c.u16(key)?),
        types::INT16 => Value::I16(c.i16(key)?),
        types::UINT32 => Value::U32(c.u32(key)?),
        types::INT32 => Value::I32(c.i32(key)?),
        types::FLOAT32 => Value::F32(c.f32(key)?),
        types::BOOL => Value::Bool(read_bool(c, key)?),
        types::STRING => Value::String(read_string(c, &format!("the value of {key:?}"))?),
        types::UINT64 => Value::U64(c.u64(key)?),
        types::INT64 => Value::I64(c.i64(key)?),
        types::FLOAT64 => Value::F64(c.f64(key)?),
        code => {
            return Err(Error::ValueType {
                offset: c.offset(),
                key: key.into(),
                code,
            });
        }
    })
}

fn read_bool(c: &mut Cursor, key: &str) -> Result<bool, Error> {
    let at = c.offset();
    match c.u8(key)? {
        0 => Ok(false),
        1 => Ok(true),
        byte => Err(Error::Bool {
            offset: at,
            key: key.into(),
            byte,
        }),
    }
}

/// An array of `n` elements (its length at byte `at_n`), its vector
/// allocated fallibly.
fn read_array(c: &mut Cursor, key: &str, elem: u32, n: usize, at_n: usize) -> Result<Array, Error> {
    let no_memory = |e: memory::NoMemory| Error::NoMemory {
        offset: at_n,
        what: "array's values",
        bytes: e.bytes,
    };
    macro_rules! many {
        ($variant:ident, $read:ident) => {{
            let mut v = memory::with_capacity(n).map_err(no_memory)?;
            for _ in 0..n {
                v.push(c.$read(key)?);
            }
            Array::$variant(v)
        }};
    }
    Ok(match elem {
        types::UINT8 => Array::U8(memory::copy(c.take(n, key)?).map_err(no_memory)?),
        types::INT8 => many!(I8, i8),
        types::UINT16 => many!(U16, u16),
        types::INT16 => many!(I16, i16),
        types::UINT32 => many!(U32, u32),
        types::INT32 => many!(I32, i32),
        types::FLOAT32 => many!(F32, f32),
        types::UINT64 => many!(U64, u64),
        types::INT64 => many!(I64, i64),
        types::FLOAT64 => many!(F64, f64),
        types::BOOL => {
            let mut v = memory::with_capacity(n).map_err(no_memory)?;
            for _ in 0..n {
                v.push(read_bool(c, key)?);
            }
            Array::Bool(v)
        }
        types::STRING => {
            // Each at least its 8-byte length (checked by the count).
            let mut v = memory::with_capacity(n).map_err(no_memory)?;
            for _ in 0..n {
                v.push(read_string(c, &format!("an element of {key:?}"))?);
            }
            Array::String(v)
        }
        code => {
            return Err(Error::ValueType {
                offset: c.offset(),
                key: key.into(),
                code,
            });
        }
    })
}

/// A name ggml would read to its first NUL is refused.
fn no_nul(name: &str, offset: usize, what: &'static str) -> Result<(), Error> {
    match name.contains('\0') {
        false => Ok(()),
        true => Err(Error::NulInName {
            offset,
            what,
            name: name.to_string(),
        }),
    }
}

/// The first index of each name seen so far: a duplicate costs one lookup,
/// so checking a file's names is linear in their bytes.
#[derive(Default)]
struct FirstIndex(std::collections::HashMap<String, usize>);

impl FirstIndex {
    /// Records `name` at `index`; the first index if it was seen before.
    fn insert(&mut self, name: &str, index: usize) -> Option<usize> {
        match self.0.get(name) {
            Some(&first) => Some(first),
            None => {
                self.0.insert(name.to_string(), index);
                None
            }
        }
    }
}

/// Reads a tensor description, its name appended to `names`; an error says
/// whether its name was read (and appended) first.
fn read_tensor_info(c: &mut Cursor, names: &mut String) -> Result<Entry, (Error, bool)> {
    let at = c.offset();
    let name = read_string(c, "tensor name").map_err(|e| (e, false))?;
    if name.len() >= MAX_NAME_BYTES {
        return Err((
            Error::NameTooLong {
                offset: at,
                len: name.len(),
                name,
            },
            false,
        ));
    }
    no_nul(&name, at, "tensor name").map_err(|e| (e, false))?;
    let start = names.len() as u64;
    memory::push_str(names, &name).map_err(|e| {
        (
            Error::NoMemory {
                offset: at,
                what: "tensor names",
                bytes: e.bytes,
            },
            false,
        )
    })?;
    let named = |e: Error| (e, true);
    let at_dims = c.offset();
    let n_dims = c.u32("dimension count").map_err(|e| named(e.into()))?;
    if n_dims as usize > MAX_DIMS {
        return Err(named(Error::TooManyDims {
            offset: at_dims,
            name,
            n: u64::from(n_dims),
        }));
    }
    let mut dims = [0u64; MAX_DIMS];
    for (index, slot) in dims.iter_mut().take(n_dims as usize).enumerate() {
        let at = c.offset();
        let d = c.u64("dimension").map_err(|e| named(e.into()))?;
        if d > i64::MAX as u64 {
            return Err(named(Error::NegativeDim {
                offset: at,
                name,
                index,
                value: d,
            }));
        }
        *slot = d;
    }
    let used = &dims[..n_dims as usize];
    // ggml: a tensor with elements must have fewer than INT64_MAX.
    let elements = used.iter().try_fold(1u64, |n, &d| n.checked_mul(d));
    if !used.contains(&0) && elements.is_none_or(|n| n >= i64::MAX as u64) {
        return Err(named(Error::TooManyElements {
            offset: at_dims,
            name,
            dims: used.to_vec(),
        }));
    }
    let at_ty = c.offset();
    let ty = TensorType(c.u32("tensor type").map_err(|e| named(e.into()))?);
    let Some((_, block, _)) = ty.layout() else {
        return Err(named(Error::TensorType {
            offset: at_ty,
            name,
            code: ty.0,
        }));
    };
    let ne0 = used.first().copied().unwrap_or(1);
    if !ne0.is_multiple_of(block) {
        return Err(named(Error::BlockSize {
            offset: at_ty,
            name,
            ty,
            ne0,
            block,
        }));
    }
    let offset = c.u64("tensor offset").map_err(|e| named(e.into()))?;
    Ok(Entry {
        name: (start, name.len() as u8),
        n_dims: n_dims as u8,
        dims,
        ty,
        offset,
    })
}

/// A tensor to write (borrowed: the writer's own table holds it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TensorDesc<'a> {
    pub name: &'a str,
    /// GGML order.
    pub dims: &'a [u64],
    pub ty: TensorType,
}

/// Every problem [`encode_header`] would refuse in `metadata` and
/// `tensors` (empty: they encode), each named by its entry
/// (`metadata[3]`, `tensors[7]`), with no byte: they are not written yet.
/// [`encode_header`] stops at the first, at its byte.
pub fn validate(metadata: &[(String, Value)], tensors: &[TensorDesc]) -> Vec<Problem> {
    // The rule of an error without its byte (there is none yet).
    let rule = |e: Error| {
        let text = e.to_string();
        let prefix = format!("at byte {}: ", e.offset());
        text.strip_prefix(&prefix)
            .map_or(text.clone(), str::to_string)
    };
    let mut problems = Vec::new();
    let mut keys = FirstIndex::default();
    for (i, (key, _)) in metadata.iter().enumerate() {
        let path = format!("metadata[{i}]");
        if key.is_empty() {
            problems.push(Problem::of(path, "the key is empty"));
            continue;
        }
        if let Err(e) = no_nul(key, 0, "metadata key") {
            problems.push(Problem::of(path.clone(), rule(e)));
        }
        if let Some(first) = keys.insert(key, i) {
            problems.push(Problem::of(
                path,
                format!("metadata key {key:?} appears twice (first as metadata[{first}])"),
            ));
        }
    }
    let alignment = alignment_of(metadata, &[]).unwrap_or_else(|e| {
        let i = metadata.iter().position(|(k, _)| k == KEY_ALIGNMENT);
        problems.push(Problem::of(
            format!("metadata[{}]", i.unwrap_or(0)),
            rule(e),
        ));
        DEFAULT_ALIGNMENT
    });
    let mut names = FirstIndex::default();
    let mut scratch = String::new();
    let mut offset = 0u64;
    for (i, t) in tensors.iter().enumerate() {
        let path = format!("tensors[{i}]");
        scratch.clear();
        match describe(t, 0, offset, alignment, &mut scratch) {
            Ok((_, size)) => match offset.checked_add(size) {
                Some(next) => offset = next,
                None => problems.push(Problem::of(
                    path.clone(),
                    format!("tensor {:?}: the data so far passes 2^64 bytes", t.name),
                )),
            },
            Err((e, _)) => problems.push(Problem::of(path.clone(), rule(e))),
        }
        if let Some(first) = names.insert(t.name, i) {
            problems.push(Problem::of(
                path,
                format!(
                    "tensor {:?} appears twice (first as tensors[{first}])",
                    t.name
                ),
            ));
        }
    }
    problems
}

/// The header bytes (magic through the padding before the data) for
/// `metadata` and `tensors`, whose data then follows in the order given,
/// each padded to the alignment (`general.alignment` if in `metadata`,
/// else 32). Refuses what [`decode_header`] would refuse. With it, the
/// header [`decode_header`] will read back.
pub fn encode_header(
    metadata: &[(String, Value)],
    tensors: &[TensorDesc],
) -> Result<(Vec<u8>, Header), Error> {
    let mut out = Vec::new();
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(tensors.len() as u64).to_le_bytes());
    out.extend_from_slice(&(metadata.len() as u64).to_le_bytes());
    let mut offsets = Vec::with_capacity(metadata.len());
    let mut seen_keys = FirstIndex::default();
    for (i, (key, value)) in metadata.iter().enumerate() {
        offsets.push(out.len());
        if key.is_empty() {
            return Err(Error::EmptyKey {
                offset: out.len(),
                index: i as u64,
            });
        }
        no_nul(key, out.len(), "metadata key")?;
        if let Some(first) = seen_keys.insert(key, i) {
            return Err(Error::DuplicateKey {
                offset: out.len(),
                key: key.clone(),
                first,
            });
        }
        put_string(&mut out, key);
        out.extend_from_slice(&value.type_code().to_le_bytes());
        put_value(&mut out, value);
    }
    let alignment = alignment_of(metadata, &offsets)?;
    let metadata_end = out.len();
    // The descriptions' bytes and the table, asked for fallibly (a table
    // may be millions of tensors).
    let at = out.len();
    let memory = |what: &'static str| {
        move |e: memory::NoMemory| Error::NoMemory {
            offset: at,
            what,
            bytes: e.bytes,
        }
    };
    let info_bytes: usize = tensors
        .iter()
        .map(|t| 8 + t.name.len() + 4 + 8 * t.dims.len() + 4 + 8)
        .sum();
    memory::reserve(&mut out, info_bytes + 64).map_err(memory("tensor descriptions"))?;
    let mut table = Table {
        entries: memory::with_capacity(tensors.len()).map_err(memory("tensor descriptions"))?,
        names: String::new(),
        starts: memory::with_capacity(tensors.len()).map_err(memory("tensor descriptions"))?,
    };
    let name_bytes: usize = tensors.iter().map(|t| t.name.len()).sum();
    table.names.try_reserve_exact(name_bytes).map_err(|_| {
        memory("tensor names")(memory::NoMemory {
            bytes: name_bytes as u64,
        })
    })?;
    let mut offset = 0u64;
    for t in tensors {
        let at = out.len();
        table.starts.push(at);
        // The first error in the order a reader meets them: a name seen
        // before comes before anything else wrong with its description.
        let described = describe(t, at, offset, alignment, &mut table.names);
        let (entry, size) = match described {
            Ok(x) => x,
            Err((e, named)) => {
                let known = table.entries.len() + usize::from(named);
                return Err(table.first_duplicate(known).unwrap_or(e));
            }
        };
        table.entries.push(entry);
        put_string(&mut out, t.name);
        out.extend_from_slice(&(t.dims.len() as u32).to_le_bytes());
        for d in t.dims {
            out.extend_from_slice(&d.to_le_bytes());
        }
        out.extend_from_slice(&t.ty.0.to_le_bytes());
        out.extend_from_slice(&offset.to_le_bytes());
        let next = offset
            .checked_add(size)
            .ok_or_else(|| Error::TooManyElements {
                offset: at,
                name: t.name.to_string(),
                dims: t.dims.to_vec(),
            });
        match next {
            Ok(n) => offset = n,
            Err(e) => return Err(table.first_duplicate(table.entries.len()).unwrap_or(e)),
        }
    }
    if let Some(e) = table.first_duplicate(table.entries.len()) {
        return Err(e);
    }
    let places = Places::new(&offsets, metadata_end, &table.starts, out.len());
    if !tensors.is_empty() {
        let padded = pad(out.len() as u64, alignment).expect("small") as usize;
        out.resize(padded, 0);
    }
    let header = Header {
        metadata: metadata.to_vec(),
        entries: table.entries,
        names: table.names,
        alignment,
        data_start: out.len() as u64,
        data_bytes: offset,
        places,
    };
    Ok((out, header))
}

/// A description to write, checked as [`decode_header`] checks one read
/// (its name appended to `names`), and its padded data size; an error says
/// whether its name was appended first.
fn describe(
    t: &TensorDesc,
    at: usize,
    offset: u64,
    alignment: u64,
    names: &mut String,
) -> Result<(Entry, u64), (Error, bool)> {
    if t.name.len() >= MAX_NAME_BYTES {
        return Err((
            Error::NameTooLong {
                offset: at,
                name: t.name.to_string(),
                len: t.name.len(),
            },
            false,
        ));
    }
    no_nul(t.name, at, "tensor name").map_err(|e| (e, false))?;
    let start = names.len() as u64;
    names.push_str(t.name);
    let named = |e: Error| (e, true);
    if t.dims.len() > MAX_DIMS {
        return Err(named(Error::TooManyDims {
            offset: at,
            name: t.name.to_string(),
            n: t.dims.len() as u64,
        }));
    }
    let Some((_, block, _)) = t.ty.layout() else {
        return Err(named(Error::TensorType {
            offset: at,
            name: t.name.to_string(),
            code: t.ty.0,
        }));
    };
    let ne0 = t.dims.first().copied().unwrap_or(1);
    if !ne0.is_multiple_of(block) {
        return Err(named(Error::BlockSize {
            offset: at,
            name: t.name.to_string(),
            ty: t.ty,
            ne0,
            block,
        }));
    }
    let size = tensor_bytes(t.dims, t.ty)
        .filter(|_| t.dims.iter().all(|&d| d <= i64::MAX as u64))
        .and_then(|b| pad(b, alignment))
        .ok_or_else(|| {
            named(Error::TooManyElements {
                offset: at,
                name: t.name.to_string(),
                dims: t.dims.to_vec(),
            })
        })?;
    let mut dims = [0u64; MAX_DIMS];
    dims[..t.dims.len()].copy_from_slice(t.dims);
    Ok((
        Entry {
            name: (start, t.name.len() as u8),
            n_dims: t.dims.len() as u8,
            dims,
            ty: t.ty,
            offset,
        },
        size,
    ))
}

fn put_string(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(&(s.len() as u64).to_le_bytes());
    out.extend_from_slice(s.as_bytes());
}

fn put_value(out: &mut Vec<u8>, value: &Value) {
    match value {
        Value::U8(v) => out.push(*v),
        Value::I8(v) => out.extend_from_slice(&v.to_le_bytes()),
        Value::U16(v) => out.extend_from_slice(&v.to_le_bytes()),
        Value::I16(v) => out.extend_from_slice(&v.to_le_bytes()),
        Value::U32(v) => out.extend_from_slice(&v.to_le_bytes()),
        Value::I32(v) => out.extend_from_slice(&v.to_le_bytes()),
        Value::F32(v) => out.extend_from_slice(&v.to_le_bytes()),
        Value::Bool(v) => out.push(u8::from(*v)),
        Value::String(v) => put_string(out, v),
        Value::U64(v) => out.extend_from_slice(&v.to_le_bytes()),
        Value::I64(v) => out.extend_from_slice(&v.to_le_bytes()),
        Value::F64(v) => out.extend_from_slice(&v.to_le_bytes()),
        Value::Array(a) => {
            out.extend_from_slice(&a.elem_code().to_le_bytes());
            out.extend_from_slice(&(a.len() as u64).to_le_bytes());
            macro_rules! each {
                ($v:expr) => {
                    for x in $v {
                        out.extend_from_slice(&x.to_le_bytes());
                    }
                };
            }
            match a {
                Array::U8(v) => out.extend_from_slice(v),
                Array::I8(v) => each!(v),
                Array::U16(v) => each!(v),
                Array::I16(v) => each!(v),
                Array::U32(v) => each!(v),
                Array::I32(v) => each!(v),
                Array::F32(v) => each!(v),
                Array::U64(v) => each!(v),
                Array::I64(v) => each!(v),
                Array::F64(v) => each!(v),
                Array::Bool(v) => out.extend(v.iter().map(|&b| u8::from(b))),
                Array::String(v) => v.iter().for_each(|s| put_string(out, s)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kv(k: &str, v: Value) -> (String, Value) {
        (k.to_string(), v)
    }

    fn t<'a>(name: &'a str, dims: &'a [u64], ty: TensorType) -> TensorDesc<'a> {
        TensorDesc { name, dims, ty }
    }

    /// A whole file: the header and zero data.
    fn file(metadata: &[(String, Value)], tensors: &[TensorDesc]) -> Vec<u8> {
        let (mut bytes, h) = encode_header(metadata, tensors).unwrap();
        bytes.resize((h.data_start + h.data_bytes) as usize, 0);
        bytes
    }

    /// The counts a header may claim are bounded, each at its count's
    /// byte: tensors, metadata entries, and strings across arrays (a
    /// sum: two arrays together past it are refused at the second).
    #[test]
    fn counts_past_the_limits_are_refused_at_their_bytes() {
        let mut head = MAGIC.to_vec();
        head.extend_from_slice(&VERSION.to_le_bytes());
        head.extend_from_slice(&(MAX_TENSORS + 1).to_le_bytes());
        head.extend_from_slice(&0u64.to_le_bytes());
        let e = decode_header(&head, head.len() as u64).unwrap_err();
        assert!(
            matches!(
                e,
                Error::TooMany {
                    offset: 8,
                    what: "tensors",
                    ..
                }
            ),
            "{e}"
        );
        head[8..16].copy_from_slice(&0u64.to_le_bytes());
        head[16..24].copy_from_slice(&(MAX_METADATA_ENTRIES + 1).to_le_bytes());
        let e = decode_header(&head, head.len() as u64).unwrap_err();
        assert!(
            matches!(
                e,
                Error::TooMany {
                    offset: 16,
                    what: "metadata entries",
                    ..
                }
            ),
            "{e}"
        );
        // Two arrays of empty strings: the limit, then one more.
        let half = MAX_ARRAY_STRINGS / 2;
        let arrays = |second: u64| {
            let strings = |n: u64| Value::Array(Array::String(vec![String::new(); n as usize]));
            encode_header(&[kv("a", strings(half)), kv("b", strings(second))], &[])
                .unwrap()
                .0
        };
        let ok = arrays(MAX_ARRAY_STRINGS - half);
        assert!(decode_header(&ok, ok.len() as u64).is_ok());
        let over = arrays(MAX_ARRAY_STRINGS - half + 1);
        let e = decode_header(&over, over.len() as u64).unwrap_err();
        // At the second array's length: after its key, type and element
        // type.
        let h = decode_header(&ok, ok.len() as u64).unwrap();
        let at = h.key_at("b") as usize + 8 + 1 + 4 + 4;
        assert!(
            matches!(e, Error::TooMany { offset, count, .. } if offset == at && count == MAX_ARRAY_STRINGS + 1),
            "{e}"
        );
    }

    fn sample() -> Vec<u8> {
        file(
            &[
                kv("general.architecture", Value::String("x".into())),
                kv("a.u8", Value::U8(1)),
                kv(
                    "a.arr",
                    Value::Array(Array::String(vec!["p".into(), "".into()])),
                ),
                kv("a.b", Value::Array(Array::Bool(vec![true, false]))),
                kv("a.f64", Value::F64(-0.5)),
            ],
            &[
                t("w", &[3, 2], TensorType::F32),
                t("q", &[64], TensorType::Q8_0),
            ],
        )
    }

    #[test]
    fn encode_then_decode_gives_the_header_back() {
        let bytes = sample();
        let h = decode_header(&bytes, bytes.len() as u64).unwrap();
        assert_eq!(h.metadata.len(), 5);
        assert_eq!(h.get("a.f64"), Some(&Value::F64(-0.5)));
        assert_eq!(h.tensor_at(0).unwrap().offset, 0);
        assert_eq!(h.tensor_at(1).unwrap().offset, 32, "24 bytes padded to 32");
        assert_eq!(h.data_start % 32, 0);
        assert_eq!(h.data_bytes, 32 + 96, "68 bytes of Q8_0 padded to 96");
        let (again, h2) = encode_header(
            &h.metadata,
            &[
                t("w", &[3, 2], TensorType::F32),
                t("q", &[64], TensorType::Q8_0),
            ],
        )
        .unwrap();
        assert_eq!(again, bytes[..h.data_start as usize]);
        assert_eq!(h2, h);
    }

    #[test]
    fn places_name_where_each_entry_and_description_starts() {
        let bytes = sample();
        let h = decode_header(&bytes, bytes.len() as u64).unwrap();
        let string_at = |at: u64| {
            let at = at as usize;
            let len = u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()) as usize;
            std::str::from_utf8(&bytes[at + 8..at + 8 + len]).unwrap()
        };
        // The first entry after the 24-byte preamble; "general.architecture"
        // = "x" takes 8 + 20 + 4 + 8 + 1 bytes, "a.u8" = 1 takes 8 + 4 + 4 + 1.
        assert_eq!(h.metadata_at(0), 24);
        assert_eq!(h.metadata_at(1), 65);
        assert_eq!(h.metadata_at(2), 82);
        for (i, (key, _)) in h.metadata.iter().enumerate() {
            assert_eq!(string_at(h.metadata_at(i)), key);
            assert_eq!(h.key_at(key), h.metadata_at(i));
        }
        // Past the last entry, and a missing key: where the metadata ends,
        // which is where the first description starts.
        assert_eq!(h.key_at("no.such.key"), h.metadata_at(5));
        assert_eq!(h.metadata_at(99), h.metadata_at(5));
        assert_eq!(h.tensor_info_at(0), h.metadata_at(5));
        assert_eq!(string_at(h.tensor_info_at(0)), "w");
        assert_eq!(string_at(h.tensor_info_at(1)), "q");
        // "q": 8 + 1 name, 4 dims count, 8 a dimension, 4 type, 8 offset.
        assert_eq!(h.tensor_info_at(2), h.tensor_info_at(1) + 33);
        assert_eq!(h.tensor_info_at(7), h.tensor_info_at(2));
        assert!(h.tensor_info_at(2) <= h.data_start);
        assert_eq!(h.tensor_byte_at(0, 0), h.data_start);
        assert_eq!(h.tensor_byte_at(1, 4), h.data_start + 36);
        // encode_header records the same places.
        let (_, encoded) = encode_header(&h.metadata, &h.descs()).unwrap();
        assert_eq!(encoded.places, h.places);
    }

    #[test]
    fn every_prefix_and_every_extra_byte_is_refused() {
        let bytes = sample();
        for n in 0..bytes.len() {
            assert!(decode_header(&bytes[..n], n as u64).is_err(), "prefix {n}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        let e = decode_header(&longer, longer.len() as u64).unwrap_err();
        assert!(matches!(e, Error::Trailing { extra: 1, .. }), "{e}");
    }

    #[test]
    fn hostile_counts_are_refused_before_allocating() {
        let mut bytes = sample();
        bytes[16..24].copy_from_slice(&u64::MAX.to_le_bytes()); // metadata count
        let e = decode_header(&bytes, bytes.len() as u64).unwrap_err();
        assert!(e.to_string().contains("metadata entries"), "{e}");
        let mut bytes = sample();
        bytes[8..16].copy_from_slice(&(u64::MAX / 2).to_le_bytes()); // tensors
        let e = decode_header(&bytes, bytes.len() as u64).unwrap_err();
        assert!(e.to_string().contains("tensors"), "{e}");
        // A string length of 2^63 in a 200-byte file.
        let mut bytes = sample();
        bytes[24..32].copy_from_slice(&(1u64 << 63).to_le_bytes());
        let e = decode_header(&bytes, bytes.len() as u64).unwrap_err();
        assert_eq!(e.offset(), 24, "{e}");
    }

    #[test]
    fn the_loader_rules_each_have_an_error() {
        let one = |metadata: &[(String, Value)], tensors: &[TensorDesc]| {
            encode_header(metadata, tensors).map(|_| ())
        };
        assert!(matches!(
            one(&[kv("", Value::U8(0))], &[]),
            Err(Error::EmptyKey { .. })
        ));
        assert!(matches!(
            one(&[kv("k", Value::U8(0)), kv("k", Value::U8(1))], &[]),
            Err(Error::DuplicateKey { first: 0, .. })
        ));
        assert!(matches!(
            one(&[kv(KEY_ALIGNMENT, Value::U32(24))], &[]),
            Err(Error::Alignment { value: 24, .. })
        ));
        assert!(matches!(
            one(&[kv(KEY_ALIGNMENT, Value::U64(32))], &[]),
            Err(Error::AlignmentType { .. })
        ));
        let long = "n".repeat(64);
        assert!(matches!(
            one(&[], &[t(&long, &[1], TensorType::F32)]),
            Err(Error::NameTooLong { len: 64, .. })
        ));
        assert!(one(&[], &[t(&long[..63], &[1], TensorType::F32)]).is_ok());
        assert!(matches!(
            one(
                &[],
                &[t("a", &[1], TensorType::F32), t("a", &[1], TensorType::F32)]
            ),
            Err(Error::DuplicateTensor { .. })
        ));
        // `a` and `a\0b` are one name to ggml's loader, which compares C
        // strings: a NUL is refused in a name and in a key, written or read.
        assert!(matches!(
            one(
                &[],
                &[
                    t("a", &[1], TensorType::F32),
                    t("a\0b", &[1], TensorType::F32)
                ]
            ),
            Err(Error::NulInName {
                what: "tensor name",
                ..
            })
        ));
        assert!(matches!(
            one(&[kv("k\0", Value::U8(0))], &[]),
            Err(Error::NulInName {
                what: "metadata key",
                offset: 24,
                ..
            })
        ));
        let with = |name: &str| file(&[kv("kk", Value::U8(0))], &[t(name, &[1], TensorType::F32)]);
        let mut bad = with("ab");
        let at = bad.windows(2).position(|w| w == b"ab").unwrap();
        bad[at + 1] = 0;
        let info = 24 + 8 + 2 + 4 + 1;
        assert_eq!(
            decode_header(&bad, bad.len() as u64),
            Err(Error::NulInName {
                offset: info,
                what: "tensor name",
                name: "a\0".into()
            })
        );
        let mut bad = with("ab");
        bad[24 + 8 + 1] = 0;
        assert!(matches!(
            decode_header(&bad, bad.len() as u64),
            Err(Error::NulInName {
                offset: 24,
                what: "metadata key",
                ..
            })
        ));
        assert!(matches!(
            one(&[], &[t("a", &[1; 5], TensorType::F32)]),
            Err(Error::TooManyDims { .. })
        ));
        assert!(matches!(
            one(&[], &[t("a", &[1], TensorType(4))]),
            Err(Error::TensorType { code: 4, .. })
        ));
        assert!(matches!(
            one(&[], &[t("a", &[1], TensorType(43))]),
            Err(Error::TensorType { .. })
        ));
        assert!(matches!(
            one(&[], &[t("a", &[33], TensorType::Q8_0)]),
            Err(Error::BlockSize { block: 32, .. })
        ));
        // Decode-only rules, by editing bytes.
        let good = file(
            &[kv("b", Value::Bool(true))],
            &[t("w", &[2], TensorType::F32)],
        );
        let key_end = 24 + 8 + 1;
        let mut bad = good.clone();
        bad[key_end..key_end + 4].copy_from_slice(&13u32.to_le_bytes());
        let e = decode_header(&bad, bad.len() as u64).unwrap_err();
        assert!(
            matches!(e, Error::ValueType { code: 13, offset, .. } if offset == key_end),
            "{e}"
        );
        let mut bad = good.clone();
        bad[key_end + 4] = 2;
        assert!(matches!(
            decode_header(&bad, bad.len() as u64),
            Err(Error::Bool { byte: 2, .. })
        ));
        let mut bad = good.clone();
        let last_offset = 24 + 8 + 1 + 4 + 1 + 8 + 1 + 4 + 8 + 4;
        bad[last_offset..last_offset + 8].copy_from_slice(&32u64.to_le_bytes());
        let e = decode_header(&bad, bad.len() as u64).unwrap_err();
        assert!(
            matches!(
                e,
                Error::Offset {
                    found: 32,
                    expected: 0,
                    ..
                }
            ),
            "{e}"
        );
        let mut bad = good.clone();
        bad[24 + 8] = 0xff; // the key byte
        assert!(matches!(
            decode_header(&bad, bad.len() as u64),
            Err(Error::Utf8 { .. })
        ));
        let e = decode_header(&good, good.len() as u64 - 5).unwrap_err();
        assert!(matches!(e, Error::DataMissing { .. }), "{e}");
    }

    #[test]
    fn dimensions_are_checked_at_their_exact_limits() {
        // Four dimensions are fine both ways; five are not.
        let four = file(&[], &[t("a", &[1, 2, 1, 3], TensorType::F32)]);
        let h = decode_header(&four, four.len() as u64).unwrap();
        assert_eq!(h.tensor_at(0).unwrap().dims, [1, 2, 1, 3]);
        assert!(matches!(
            encode_header(&[], &[t("a", &[1; 5], TensorType::F32)]),
            Err(Error::TooManyDims { n: 5, .. })
        ));
        let mut five = four.clone();
        let n_dims_at = 24 + 8 + 1;
        five[n_dims_at..n_dims_at + 4].copy_from_slice(&5u32.to_le_bytes());
        let e = decode_header(&five, five.len() as u64).unwrap_err();
        assert!(
            matches!(e, Error::TooManyDims { n: 5, offset, .. } if offset == n_dims_at),
            "{e}"
        );
        // A dimension of 2^63 is negative as ggml reads it; 2^63 - 1 is not
        // (but makes too many elements); with a zero beside it, the tensor
        // has no elements and is fine.
        let dim = |v: u64, other: u64| {
            let mut b = file(&[], &[t("a", &[1, 1], TensorType::F32)]);
            let at = n_dims_at + 4;
            b[at..at + 8].copy_from_slice(&v.to_le_bytes());
            b[at + 8..at + 16].copy_from_slice(&other.to_le_bytes());
            let n = b.len() as u64;
            decode_header(&b, n)
        };
        assert!(matches!(
            dim(1 << 63, 1),
            Err(Error::NegativeDim { index: 0, .. })
        ));
        assert!(matches!(
            dim((1 << 63) - 1, 1),
            Err(Error::TooManyElements { .. })
        ));
        let empty = dim((1 << 63) - 1, 0);
        assert!(
            matches!(empty, Err(Error::Trailing { .. })),
            "zero elements: accepted, so only the 32 data bytes are extra: {empty:?}"
        );
    }

    #[test]
    fn every_value_type_and_every_array_type_round_trips() {
        let metadata = vec![
            kv("u8", Value::U8(200)),
            kv("i8", Value::I8(-100)),
            kv("u16", Value::U16(60_000)),
            kv("i16", Value::I16(-30_000)),
            kv("u32", Value::U32(4_000_000_000)),
            kv("i32", Value::I32(-2_000_000_000)),
            kv("f32", Value::F32(-1.25)),
            kv("bool", Value::Bool(false)),
            kv("str", Value::String("ü".into())),
            kv("u64", Value::U64(u64::MAX)),
            kv("i64", Value::I64(i64::MIN)),
            kv("f64", Value::F64(1e300)),
            kv("a.u8", Value::Array(Array::U8(vec![1, 255]))),
            kv("a.i8", Value::Array(Array::I8(vec![-1, 2]))),
            kv("a.u16", Value::Array(Array::U16(vec![65_535]))),
            kv("a.i16", Value::Array(Array::I16(vec![-2, 3]))),
            kv("a.u32", Value::Array(Array::U32(vec![7, 8, 9]))),
            kv("a.i32", Value::Array(Array::I32(vec![-7]))),
            kv("a.f32", Value::Array(Array::F32(vec![0.5]))),
            kv("a.bool", Value::Array(Array::Bool(vec![true, false]))),
            kv(
                "a.str",
                Value::Array(Array::String(vec!["x".into(), "".into()])),
            ),
            kv("a.u64", Value::Array(Array::U64(vec![u64::MAX]))),
            kv("a.i64", Value::Array(Array::I64(vec![i64::MIN, 0]))),
            kv("a.f64", Value::Array(Array::F64(vec![-0.0, 2.5]))),
            kv("a.empty", Value::Array(Array::F64(vec![]))),
        ];
        let bytes = file(&metadata, &[]);
        let h = decode_header(&bytes, bytes.len() as u64).unwrap();
        assert_eq!(h.metadata, metadata);
    }

    #[test]
    fn a_file_without_tensors_has_no_padding_and_padding_must_be_zero() {
        let bytes = file(&[kv("a", Value::U8(1))], &[]);
        assert_eq!(bytes.len(), 24 + 8 + 1 + 4 + 1, "no padding");
        let h = decode_header(&bytes, bytes.len() as u64).unwrap();
        assert_eq!(h.data_start, bytes.len() as u64);
        assert_eq!(h.file_bytes(), bytes.len() as u64);
        let mut with = file(&[kv("a", Value::U8(1))], &[t("w", &[1], TensorType::F32)]);
        let h = decode_header(&with, with.len() as u64).unwrap();
        assert_eq!(h.file_bytes(), with.len() as u64);
        let last_pad = h.data_start as usize - 1;
        with[last_pad] = 7;
        let e = decode_header(&with, with.len() as u64).unwrap_err();
        assert_eq!(e, Error::Padding { offset: last_pad });
        // A prefix asks for more; a wrong byte does not.
        let short = decode_header(&bytes[..10], bytes.len() as u64).unwrap_err();
        assert!(short.is_truncated(), "{short}");
        assert!(!e.is_truncated());
    }

    #[test]
    fn padding_rounds_up_to_the_alignment_exactly() {
        for (n, want) in [
            (0, 0),
            (1, 32),
            (31, 32),
            (32, 32),
            (33, 64),
            (63, 64),
            (64, 64),
        ] {
            assert_eq!(pad(n, 32), Some(want), "{n}");
        }
        assert_eq!(pad(5, 1), Some(5));
        assert_eq!(pad(u64::MAX - 30, 32), None);
        assert_eq!(pad(u64::MAX - 31, 32), Some(u64::MAX - 31));
        let t = TensorInfo {
            name: "t",
            dims: &[3, 5, 2],
            ty: TensorType::Q8_0,
            offset: 0,
        };
        assert_eq!(t.elements(), 30);
        assert_eq!(tensor_bytes(&[64, 2], TensorType::Q8_0), Some(4 * 34));
        assert_eq!(tensor_bytes(&[2], TensorType(4)), None);
    }

    #[test]
    fn nested_arrays_are_refused() {
        let mut bytes = file(&[kv("a", Value::Array(Array::U8(vec![])))], &[]);
        let elem = 24 + 8 + 1 + 4;
        bytes[elem..elem + 4].copy_from_slice(&types::ARRAY.to_le_bytes());
        assert!(matches!(
            decode_header(&bytes, bytes.len() as u64),
            Err(Error::NestedArray { .. })
        ));
    }
}
