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

use super::cursor;
pub use super::problem::Problem;

mod decode;
mod encode;
mod index;
mod validate;

pub use decode::{MAX_METADATA_ENTRIES, decode, decode_header, header_len};
pub use encode::encode_header;
pub use index::{ShardIndex, decode_index};
pub use validate::validate;

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
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    Bytes(cursor::Error),
    /// The header length is above [`MAX_HEADER_BYTES`].
    HeaderTooLong {
        len: u64,
    },
    /// The header length runs past the end of the file.
    HeaderPastEnd {
        len: u64,
        have: u64,
    },
    /// The header is not a JSON object of the schema.
    Json {
        offset: u64,
        message: String,
    },
    /// A shard index (`model.safetensors.index.json`) is not a JSON
    /// object of its schema.
    IndexJson {
        offset: u64,
        message: String,
    },
    /// A tensor name appears twice.
    DuplicateName {
        offset: u64,
        name: String,
    },
    /// A dtype the format does not define.
    UnknownDtype {
        offset: u64,
        name: String,
        dtype: String,
    },
    /// A dtype the format defines that kiln refuses ([`REFUSED_DTYPES`]).
    RefusedDtype {
        offset: u64,
        name: String,
        dtype: &'static str,
        reason: &'static str,
    },
    /// `data_offsets` with its end before its begin.
    Reversed {
        offset: u64,
        name: String,
        begin: u64,
        end: u64,
    },
    /// Shape × dtype size does not fit in 64 bits.
    ShapeOverflow {
        offset: u64,
        name: String,
        shape: Vec<u64>,
    },
    /// The byte range is not shape × dtype size.
    SizeMismatch {
        offset: u64,
        name: String,
        dtype: Dtype,
        shape: Vec<u64>,
        expected: u64,
        found: u64,
    },
    /// A tensor starts before the previous one (in offset order) ends.
    Overlap {
        offset: u64,
        name: String,
        previous: String,
    },
    /// Bytes between two tensors (or before the first) belong to none.
    Hole {
        offset: u64,
        name: String,
        gap: u64,
    },
    /// The data is shorter than the tensors say.
    PastEnd {
        offset: u64,
        name: String,
        end: u64,
        len: u64,
    },
    /// Bytes after the last tensor.
    Trailing {
        offset: u64,
        extra: u64,
    },
    /// The header's tensors need more memory than could be had.
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
            Error::HeaderTooLong { len } => format!(
                "the header length is {len} bytes, more than the {MAX_HEADER_BYTES} a safetensors header may have"
            ),
            Error::HeaderPastEnd { len, have } => {
                format!("the header length is {len} bytes, but only {have} bytes follow it")
            }
            Error::Json { message, .. } => format!("header: {message}"),
            Error::IndexJson { message, .. } => format!("shard index: {message}"),
            Error::DuplicateName { name, .. } => format!("tensor {name:?} is named twice"),
            Error::UnknownDtype { name, dtype, .. } => format!(
                "tensor {name:?} has dtype {dtype:?}, which safetensors does not define (kiln reads F64, F32, F16, BF16, F8_E4M3, F8_E5M2, F8_E8M0, F8_E4M3FNUZ, F8_E5M2FNUZ, I64, I32, I16, I8, U64, U32, U16, U8 and BOOL)"
            ),
            Error::RefusedDtype {
                name,
                dtype,
                reason,
                ..
            } => format!("tensor {name:?} has dtype {dtype}: {reason}"),
            Error::Reversed {
                name, begin, end, ..
            } => format!(
                "tensor {name:?} has data_offsets [{begin}, {end}], which end before they begin"
            ),
            Error::ShapeOverflow { name, shape, .. } => {
                format!("tensor {name:?}'s shape {shape:?} is too large")
            }
            Error::SizeMismatch {
                name,
                dtype,
                shape,
                expected,
                found,
                ..
            } => format!(
                "tensor {name:?} ({dtype} {shape:?}) needs {expected} bytes, its data_offsets give {found}"
            ),
            Error::Overlap { name, previous, .. } => {
                format!("tensor {name:?} overlaps tensor {previous:?}")
            }
            Error::Hole { name, gap, .. } => {
                format!("{gap} bytes before tensor {name:?} belong to no tensor")
            }
            Error::PastEnd { name, end, len, .. } => {
                format!("tensor {name:?} ends at byte {end} of the file, which has {len}")
            }
            Error::Trailing { extra, .. } => {
                format!("{extra} bytes after the last tensor belong to no tensor")
            }
            Error::NoMemory { what, bytes, .. } => format!(
                "the header's {what} need {bytes} bytes of memory, which could not be had: give kiln more memory"
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
    pub fn offset(&self) -> u64 {
        match self {
            Error::Bytes(e) => e.offset(),
            Error::HeaderTooLong { .. } | Error::HeaderPastEnd { .. } => 0,
            Error::Json { offset, .. }
            | Error::IndexJson { offset, .. }
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

/// A tensor to write: name, dtype, shape (its bytes come separately).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorSpec {
    pub name: String,
    pub dtype: Dtype,
    pub shape: Vec<u64>,
}

#[cfg(test)]
mod tests {
    use super::decode::key_start;
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
        // A refusal names the byte of the index file and the rule.
        let bad = br#"{"weight_map":{"a":1}}"#;
        let e = decode_index(bad).unwrap_err();
        assert_eq!(
            e.to_string(),
            "at byte 19: shard index: invalid type: integer `1`, expected a string"
        );
        assert_eq!(bad[e.offset() as usize], b'1');
        // On the third line: the byte counts the lines before it.
        let cut = b"{\n  \"weight_map\": {\n  \"a\": [";
        let e = decode_index(cut).unwrap_err();
        assert_eq!((e.offset(), cut[e.offset() as usize]), (27, b'['), "{e}");
    }
}
