//! Reading a header: its length, then the JSON (a fast path over the
//! common shape, the strict parser's error where it fails), every entry's
//! dtype, shape and offsets, and the data's tiling.

use crate::formats::cursor::Cursor;
use crate::memory;
use serde::Deserialize;
use serde::de::{self, MapAccess, Visitor};
use std::collections::BTreeMap;
use std::fmt;

use super::{Dtype, Entry, Error, Header, MAX_HEADER_BYTES, PREFIX_BYTES, REFUSED_DTYPES, name_of};

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
pub(super) struct StringMap<const MAX: usize>(pub(super) BTreeMap<String, String>);

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
pub(super) fn key_start(json: &[u8], end: usize) -> usize {
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

pub(super) fn first_sentence(message: &str) -> String {
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
