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

/// Largest header kiln reads: 100 MB, as the reference implementation.
pub const MAX_HEADER_BYTES: u64 = 100_000_000;

/// Bytes before the JSON.
pub const PREFIX_BYTES: u64 = 8;

/// An element type.
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
}

impl Dtype {
    pub const ALL: [Dtype; 10] = [
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
    ];

    /// Bytes per element.
    pub fn size(self) -> u64 {
        match self {
            Dtype::F64 | Dtype::I64 => 8,
            Dtype::F32 | Dtype::I32 => 4,
            Dtype::F16 | Dtype::BF16 | Dtype::I16 => 2,
            Dtype::I8 | Dtype::U8 | Dtype::Bool => 1,
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
        }
    }

    pub fn from_name(name: &str) -> Option<Dtype> {
        Dtype::ALL.into_iter().find(|d| d.name() == name)
    }

    pub fn is_float(self) -> bool {
        matches!(self, Dtype::F64 | Dtype::F32 | Dtype::F16 | Dtype::BF16)
    }
}

impl fmt::Display for Dtype {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One tensor of the header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tensor {
    pub name: String,
    pub dtype: Dtype,
    /// PyTorch order (slowest first); empty for a 0-d scalar.
    pub shape: Vec<u64>,
    /// Byte range relative to the start of the data.
    pub begin: u64,
    pub end: u64,
    /// Where its entry in the header starts in the file (its name's
    /// opening quote), for errors about the tensor.
    pub entry_at: u64,
}

impl Tensor {
    /// The element count (1 for a 0-d scalar).
    pub fn elements(&self) -> u64 {
        self.shape.iter().product()
    }

    pub fn bytes(&self) -> u64 {
        self.end - self.begin
    }
}

/// A decoded header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// N, the JSON's length.
    pub json_bytes: u64,
    /// `__metadata__`, if present, sorted by key.
    pub metadata: Option<BTreeMap<String, String>>,
    /// Sorted by name (byte order).
    pub tensors: Vec<Tensor>,
}

impl Header {
    /// The file offset of the data.
    pub fn data_start(&self) -> u64 {
        PREFIX_BYTES + self.json_bytes
    }

    pub fn data_bytes(&self) -> u64 {
        self.tensors.iter().map(|t| t.end).max().unwrap_or(0)
    }

    pub fn tensor(&self, name: &str) -> Option<&Tensor> {
        self.tensors
            .binary_search_by(|t| t.name.as_str().cmp(name))
            .ok()
            .map(|i| &self.tensors[i])
    }
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
    /// A dtype kiln does not know.
    #[error(
        "at byte {offset}: tensor {name:?} has dtype {dtype:?}; kiln reads F64, F32, F16, BF16, I64, I32, I16, I8, U8 and BOOL"
    )]
    UnknownDtype {
        offset: u64,
        name: String,
        dtype: String,
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
}

impl Error {
    pub fn offset(&self) -> u64 {
        match self {
            Error::Bytes(e) => e.offset() as u64,
            Error::HeaderTooLong { .. } | Error::HeaderPastEnd { .. } => 0,
            Error::Json { offset, .. }
            | Error::DuplicateName { offset, .. }
            | Error::UnknownDtype { offset, .. }
            | Error::Reversed { offset, .. }
            | Error::ShapeOverflow { offset, .. }
            | Error::SizeMismatch { offset, .. }
            | Error::Overlap { offset, .. }
            | Error::Hole { offset, .. }
            | Error::PastEnd { offset, .. }
            | Error::Trailing { offset, .. } => *offset,
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

/// A tensor entry as the JSON gives it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTensor {
    dtype: String,
    shape: Vec<u64>,
    data_offsets: (u64, u64),
}

/// The header's top-level object, with the position of each entry.
struct RawHeader {
    metadata: Option<BTreeMap<String, String>>,
    /// (name, entry, byte offset of the entry's key within the JSON).
    tensors: Vec<(String, RawTensor, u64)>,
    duplicate: Option<(String, u64)>,
}

/// Visits the top-level object in order, noting duplicates.
struct HeaderVisitor<'a> {
    /// How many bytes of the JSON the deserializer has consumed, read
    /// through the shared cell after each key.
    consumed: &'a std::cell::Cell<usize>,
}

impl<'de> Visitor<'de> for HeaderVisitor<'_> {
    type Value = RawHeader;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object of tensors")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawHeader, A::Error> {
        let mut out = RawHeader {
            metadata: None,
            tensors: Vec::new(),
            duplicate: None,
        };
        let mut seen = std::collections::BTreeSet::new();
        while let Some(name) = map.next_key::<String>()? {
            let at = self.consumed.get() as u64;
            if !seen.insert(name.clone()) && out.duplicate.is_none() {
                out.duplicate = Some((name.clone(), at));
            }
            if name == "__metadata__" {
                out.metadata = Some(map.next_value::<StringMap>()?.0);
            } else {
                let entry: RawTensor = map.next_value()?;
                out.tensors.push((name, entry, at));
            }
        }
        Ok(out)
    }
}

/// `__metadata__`: strings only, no key twice.
struct StringMap(BTreeMap<String, String>);

impl<'de> Deserialize<'de> for StringMap {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = StringMap;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("__metadata__ as a map of strings to strings")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<StringMap, A::Error> {
                let mut out = BTreeMap::new();
                while let Some((k, v)) = map.next_entry::<String, String>()? {
                    if out.contains_key(&k) {
                        return Err(de::Error::custom(format!(
                            "__metadata__ has the key {k:?} twice"
                        )));
                    }
                    out.insert(k, v);
                }
                Ok(StringMap(out))
            }
        }
        d.deserialize_map(V)
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
pub fn decode_header(json: &[u8], file_len: u64) -> Result<Header, Error> {
    let json_bytes = json.len() as u64;
    let raw = parse_json(json)?;
    if let Some((name, at)) = raw.duplicate {
        return Err(Error::DuplicateName {
            offset: PREFIX_BYTES + at,
            name,
        });
    }
    let data_start = PREFIX_BYTES + json_bytes;
    let mut tensors = Vec::with_capacity(raw.tensors.len());
    for (name, t, at) in raw.tensors {
        let offset = PREFIX_BYTES + at;
        let dtype = Dtype::from_name(&t.dtype).ok_or_else(|| Error::UnknownDtype {
            offset,
            name: name.clone(),
            dtype: t.dtype.clone(),
        })?;
        let (begin, end) = t.data_offsets;
        if end < begin {
            return Err(Error::Reversed {
                offset,
                name,
                begin,
                end,
            });
        }
        let expected = t
            .shape
            .iter()
            .try_fold(dtype.size(), |n, &d| n.checked_mul(d))
            .ok_or_else(|| Error::ShapeOverflow {
                offset,
                name: name.clone(),
                shape: t.shape.clone(),
            })?;
        if expected != end - begin {
            return Err(Error::SizeMismatch {
                offset,
                name,
                dtype,
                shape: t.shape,
                expected,
                found: end - begin,
            });
        }
        tensors.push(Tensor {
            name,
            dtype,
            shape: t.shape,
            begin,
            end,
            entry_at: PREFIX_BYTES + key_start(json, at as usize) as u64,
        });
    }
    check_tiling(&mut tensors, data_start, file_len)?;
    tensors.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(Header {
        json_bytes,
        metadata: raw.metadata,
        tensors,
    })
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

fn parse_json(json: &[u8]) -> Result<RawHeader, Error> {
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
    let visitor = HeaderVisitor {
        consumed: &consumed,
    };
    let raw =
        de::Deserializer::deserialize_map(&mut de, visitor).map_err(|e| err(e, consumed.get()))?;
    // The rest may only be padding (spaces, as writers pad to 8 bytes).
    let rest = &json[consumed.get()..];
    if let Some(i) = rest.iter().position(|&b| b != b' ') {
        return Err(Error::Json {
            offset: PREFIX_BYTES + (consumed.get() + i) as u64,
            message: "only spaces may follow the JSON object".into(),
        });
    }
    Ok(raw)
}

fn first_sentence(message: &str) -> String {
    match message.find(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message.to_string(),
    }
}

/// The tensors, in offset order, must cover `[0, data length)` exactly.
fn check_tiling(tensors: &mut [Tensor], data_start: u64, file_len: u64) -> Result<(), Error> {
    tensors.sort_by(|a, b| (a.begin, a.end, &a.name).cmp(&(b.begin, b.end, &b.name)));
    let data_len = file_len.saturating_sub(data_start);
    let mut at = 0u64;
    let mut previous: Option<&Tensor> = None;
    for t in tensors.iter() {
        let offset = data_start.saturating_add(t.begin);
        if t.begin < at {
            return Err(Error::Overlap {
                offset,
                name: t.name.clone(),
                previous: previous.map_or_else(String::new, |p| p.name.clone()),
            });
        }
        if t.begin > at {
            return Err(Error::Hole {
                offset: data_start + at,
                name: t.name.clone(),
                gap: t.begin - at,
            });
        }
        if t.end > data_len {
            return Err(Error::PastEnd {
                offset,
                name: t.name.clone(),
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

/// The 8-byte length and the JSON header (padded with spaces to a
/// multiple of 8, as the reference writer does) for `tensors`, whose data
/// then follows in the order given. `None` if a size overflows.
pub fn encode_header(
    tensors: &[TensorSpec],
    metadata: Option<&BTreeMap<String, String>>,
) -> Option<Vec<u8>> {
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
        weight_map: StringMap,
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
    fn round_trips_and_sorts_by_name() {
        let bytes = file(&[
            spec("layers.2.w", Dtype::F32, &[2, 3]),
            spec("layers.10.w", Dtype::BF16, &[4]),
            spec("scalar", Dtype::F64, &[]),
            spec("empty", Dtype::I8, &[0, 3]),
        ]);
        let h = decode(&bytes).unwrap();
        let names: Vec<&str> = h.tensors.iter().map(|t| t.name.as_str()).collect();
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
        for t in &h.tensors {
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
                "has dtype \"F8\"",
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
        assert_eq!(h.tensors[0].bytes(), 12);
        assert_eq!(h.tensors[0].elements(), 6);
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
