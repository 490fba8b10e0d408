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

use super::cursor;
pub use super::problem::Problem;

mod decode;
mod encode;
mod validate;

pub use decode::decode_header;
pub use encode::encode_header;
pub use validate::validate;

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
#[derive(Clone, Debug, PartialEq)]
pub enum Error {
    Bytes(cursor::Error),
    Magic {
        found: String,
    },
    Version {
        found: u32,
    },
    EmptyKey {
        offset: u64,
        index: u64,
    },
    /// ggml compares names as C strings: `a` and `a\0b` would be one.
    NulInName {
        offset: u64,
        what: &'static str,
        name: String,
    },
    DuplicateKey {
        offset: u64,
        key: String,
        first: usize,
    },
    ValueType {
        offset: u64,
        key: String,
        code: u32,
    },
    NestedArray {
        offset: u64,
        key: String,
    },
    Utf8 {
        offset: u64,
        what: String,
    },
    Bool {
        offset: u64,
        key: String,
        byte: u8,
    },
    AlignmentType {
        offset: u64,
        found: String,
    },
    Alignment {
        offset: u64,
        value: u64,
    },
    NameTooLong {
        offset: u64,
        name: String,
        len: usize,
    },
    DuplicateTensor {
        offset: u64,
        name: String,
        first: usize,
    },
    TooManyDims {
        offset: u64,
        name: String,
        n: u64,
    },
    NegativeDim {
        offset: u64,
        name: String,
        index: usize,
        value: u64,
    },
    TooManyElements {
        offset: u64,
        name: String,
        dims: Vec<u64>,
    },
    TensorType {
        offset: u64,
        name: String,
        code: u32,
    },
    BlockSize {
        offset: u64,
        name: String,
        ty: TensorType,
        ne0: u64,
        block: u64,
    },
    Offset {
        offset: u64,
        name: String,
        found: u64,
        expected: u64,
    },
    DataMissing {
        offset: u64,
        need: u64,
        have: u64,
    },
    Trailing {
        offset: u64,
        extra: u64,
    },
    Padding {
        offset: u64,
    },
    TooMany {
        offset: u64,
        what: &'static str,
        count: u64,
        max: u64,
    },
    NoMemory {
        offset: u64,
        what: &'static str,
        bytes: u64,
    },
}

impl Error {
    /// The rule broken, without the byte it was found at ([`Error::offset`]).
    pub fn rule(&self) -> String {
        match self {
            Error::Bytes(e) => e.rule(),
            Error::Magic { found } => format!("the magic must be \"GGUF\", found {found:?}"),
            Error::Version { found } => format!("GGUF version {found}; kiln reads version 3"),
            Error::EmptyKey { index, .. } => format!("metadata key {index} is empty"),
            Error::NulInName { what, name, .. } => {
                format!("{what} {name:?} holds a NUL byte, which ggml's loader reads as its end")
            }
            Error::DuplicateKey { key, first, .. } => {
                format!("metadata key {key:?} appears twice (first as key {first})")
            }
            Error::ValueType { key, code, .. } => {
                format!("metadata key {key:?} has value type {code}, which is not a GGUF type")
            }
            Error::NestedArray { key, .. } => {
                format!("metadata key {key:?} is an array of arrays, which GGUF does not allow")
            }
            Error::Utf8 { what, .. } => format!("{what} is not UTF-8"),
            Error::Bool { key, byte, .. } => {
                format!("metadata key {key:?} has the boolean byte {byte}; it must be 0 or 1")
            }
            Error::AlignmentType { found, .. } => {
                format!("general.alignment must be UINT32, found {found}")
            }
            Error::Alignment { value, .. } => {
                format!("general.alignment {value} is not a power of 2")
            }
            Error::NameTooLong { name, len, .. } => format!(
                "tensor name {name:?} is {len} bytes; GGML allows at most {}",
                MAX_NAME_BYTES - 1
            ),
            Error::DuplicateTensor { name, first, .. } => {
                format!("tensor {name:?} appears twice (first as tensor {first})")
            }
            Error::TooManyDims { name, n, .. } => {
                format!("tensor {name:?} has {n} dimensions; GGML allows at most {MAX_DIMS}")
            }
            Error::NegativeDim {
                name, index, value, ..
            } => format!(
                "tensor {name:?} dimension {index} is {value}, which is negative as GGML reads it"
            ),
            Error::TooManyElements { name, dims, .. } => {
                format!("tensor {name:?} has too many elements ({dims:?})")
            }
            Error::TensorType { name, code, .. } => {
                format!("tensor {name:?} has type {code}, which GGML does not load")
            }
            Error::BlockSize {
                name,
                ty,
                ne0,
                block,
                ..
            } => format!(
                "tensor {name:?} of type {ty} has {ne0} elements per row, not a multiple of its block of {block}"
            ),
            Error::Offset {
                name,
                found,
                expected,
                ..
            } => format!(
                "tensor {name:?} has offset {found}; it must be {expected} (the padded sizes of the tensors before it)"
            ),
            Error::DataMissing { need, have, .. } => {
                format!("the data needs {need} bytes to the end of the file, which has {have}")
            }
            Error::Trailing { extra, .. } => format!("{extra} bytes after the end of the data"),
            Error::Padding { .. } => "the padding before the data must be zero bytes".to_string(),
            Error::TooMany {
                what, count, max, ..
            } => format!("{count} {what}, more than the {max} kiln reads"),
            Error::NoMemory { what, bytes, .. } => format!(
                "the {what} need {bytes} bytes of memory, which could not be had: give kiln more memory"
            ),
        }
    }
}

crate::formats::at_byte_error!(Error);

impl From<cursor::Error> for Error {
    fn from(e: cursor::Error) -> Error {
        Error::Bytes(e)
    }
}

impl Error {
    /// The byte offset a decode error is about.
    pub fn offset(&self) -> u64 {
        match self {
            Error::Bytes(e) => e.offset(),
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
            | Error::Padding { offset } => *offset,
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

/// A tensor to write (borrowed: the writer's own table holds it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TensorDesc<'a> {
    pub name: &'a str,
    /// GGML order.
    pub dims: &'a [u64],
    pub ty: TensorType,
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
            matches!(e, Error::TooMany { offset, count, .. } if offset == at as u64 && count == MAX_ARRAY_STRINGS + 1),
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
            matches!(e, Error::ValueType { code: 13, offset, .. } if offset == key_end as u64),
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
            matches!(e, Error::TooManyDims { n: 5, offset, .. } if offset == n_dims_at as u64),
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
        assert_eq!(
            e,
            Error::Padding {
                offset: last_pad as u64
            }
        );
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
