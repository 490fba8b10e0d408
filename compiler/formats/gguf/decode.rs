//! Reading a header: the metadata, then the tensor table, then where the
//! data section starts and that the file ends with it; every count bounded
//! before it sizes anything.

use crate::formats::cursor::Cursor;
use crate::memory;

use super::{
    Array, DEFAULT_ALIGNMENT, Entry, Error, Header, KEY_ALIGNMENT, MAGIC, MAX_ARRAY_ELEMENTS,
    MAX_ARRAY_STRINGS, MAX_DIMS, MAX_METADATA_ENTRIES, MAX_NAME_BYTES, MAX_STRING_BYTES,
    MAX_TENSORS, Places, TensorInfo, TensorType, VERSION, Value, pad, types,
};

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
    let at_tensors = c.offset();
    let n_tensors = c.u64("tensor count")?;
    let (metadata, offsets) = read_metadata(&mut c)?;
    let alignment = alignment_of(&metadata, &offsets)?;
    let metadata_end = c.offset();
    let (table, data_bytes) = read_tensor_table(&mut c, at_tensors, n_tensors, alignment)?;
    let header_end = c.offset() as u64;
    let data_start = check_data(
        &mut c,
        !table.entries.is_empty(),
        alignment,
        data_bytes,
        file_len,
    )?;
    let Table {
        entries,
        names,
        starts: tensor_offsets,
    } = table;
    Ok(Header {
        metadata,
        entries,
        names,
        alignment,
        data_start,
        data_bytes,
        places: Places::new(&offsets, metadata_end, &tensor_offsets, header_end as usize),
    })
}

/// Metadata entries in file order.
type Metadata = Vec<(String, Value)>;

/// The metadata count and entries: each key non-empty, without NUL and
/// not an earlier key's; with where each entry starts.
fn read_metadata(c: &mut Cursor) -> Result<(Metadata, Vec<usize>), Error> {
    let at_kv = c.offset();
    let n_kv = c.u64("metadata count")?;
    if n_kv > MAX_METADATA_ENTRIES {
        return Err(Error::TooMany {
            offset: at_kv as u64,
            what: "metadata entries",
            count: n_kv,
            max: MAX_METADATA_ENTRIES,
        });
    }
    let n_kv = c.count(
        at_kv as u64,
        n_kv,
        MIN_KV_BYTES,
        u64::MAX,
        "metadata entries",
    )?;
    let mut metadata: Vec<(String, Value)> = Vec::with_capacity(n_kv);
    let mut offsets = Vec::with_capacity(n_kv);
    let mut strings = 0u64;
    // Each key's first index: duplicates found in one lookup each, not by
    // scanning every earlier key (quadratic in a file of many keys).
    let mut seen_keys = FirstIndex::default();
    for index in 0..n_kv {
        let at = c.offset();
        offsets.push(at);
        let key = read_string(c, "metadata key")?;
        if key.is_empty() {
            return Err(Error::EmptyKey {
                offset: at as u64,
                index: index as u64,
            });
        }
        no_nul(&key, at, "metadata key")?;
        if let Some(first) = seen_keys.insert(&key, index) {
            return Err(Error::DuplicateKey {
                offset: at as u64,
                key,
                first,
            });
        }
        let value = read_value(c, &key, &mut strings)?;
        metadata.push((key, value));
    }
    Ok((metadata, offsets))
}

/// The `n_tensors` tensor descriptions (the count read at `at`, bounded
/// only now, against the bytes left after the metadata): names unique,
/// each tensor's data where the ones before it end, padded to
/// `alignment`. Returns them with the data section's length.
fn read_tensor_table(
    c: &mut Cursor,
    at: usize,
    n_tensors: u64,
    alignment: u64,
) -> Result<(Table, u64), Error> {
    if n_tensors > MAX_TENSORS {
        return Err(Error::TooMany {
            offset: at as u64,
            what: "tensors",
            count: n_tensors,
            max: MAX_TENSORS,
        });
    }
    let n_tensors = c.count(at as u64, n_tensors, MIN_TENSOR_BYTES, u64::MAX, "tensors")?;
    let memory = |what: &'static str| {
        move |e: memory::NoMemory| Error::NoMemory {
            offset: at as u64,
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
        let entry = match read_tensor_info(c, &mut table.names) {
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
                offset: at as u64,
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
                offset: at as u64,
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
    Ok((table, expected))
}

/// Where the data section starts (the header's end, padded to `alignment`
/// when there are tensors), its padding zero in the bytes given, and the
/// file exactly as long as the header and `data_bytes`.
fn check_data(
    c: &mut Cursor,
    has_tensors: bool,
    alignment: u64,
    data_bytes: u64,
    file_len: u64,
) -> Result<u64, Error> {
    let header_end = c.offset() as u64;
    let data_start = if has_tensors {
        pad(header_end, alignment).expect("small")
    } else {
        header_end
    };
    let pad_bytes = (data_start - header_end) as usize;
    let padding = c.take(pad_bytes.min(c.remaining()), "padding")?;
    if let Some(i) = padding.iter().position(|&b| b != 0) {
        return Err(Error::Padding {
            offset: (header_end as usize + i) as u64,
        });
    }
    let need = data_start + data_bytes;
    if need > file_len {
        return Err(Error::DataMissing {
            offset: data_start.min(file_len),
            need: data_bytes,
            have: file_len.saturating_sub(data_start),
        });
    }
    if need < file_len {
        return Err(Error::Trailing {
            offset: need,
            extra: file_len - need,
        });
    }
    Ok(data_start)
}

/// The tensor descriptions read so far, and where each starts.
pub(super) struct Table {
    pub(super) entries: Vec<Entry>,
    pub(super) names: String,
    pub(super) starts: Vec<usize>,
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
    pub(super) fn first_duplicate(&self, known: usize) -> Option<Error> {
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
            offset: (self.starts[later]) as u64,
            name: name_at(later).to_string(),
            first,
        })
    }
}

/// The alignment `general.alignment` sets (32 without it); `offsets` are
/// where each metadata entry starts, for the error.
pub(super) fn alignment_of(metadata: &[(String, Value)], offsets: &[usize]) -> Result<u64, Error> {
    let Some(i) = metadata.iter().position(|(k, _)| k == KEY_ALIGNMENT) else {
        return Ok(DEFAULT_ALIGNMENT);
    };
    let offset = offsets.get(i).copied().unwrap_or(0);
    match &metadata[i].1 {
        Value::U32(a) if a.is_power_of_two() => Ok(u64::from(*a)),
        Value::U32(a) => Err(Error::Alignment {
            offset: offset as u64,
            value: u64::from(*a),
        }),
        v => Err(Error::AlignmentType {
            offset: offset as u64,
            found: v.type_text(),
        }),
    }
}

fn read_string(c: &mut Cursor, what: &str) -> Result<String, Error> {
    let at = c.offset();
    let len = c.u64(&format!("{what} length"))?;
    let len = c.count(
        at as u64,
        len,
        1,
        MAX_STRING_BYTES,
        &format!("{what} bytes"),
    )?;
    let start = c.offset();
    let raw = c.take(len, what)?;
    String::from_utf8(raw.to_vec()).map_err(|e| Error::Utf8 {
        offset: (start + e.utf8_error().valid_up_to()) as u64,
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
                offset: at_elem as u64,
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
                    offset: at_elem as u64,
                    key: key.into(),
                    code,
                });
            }
        };
        let n = c.count(at_n as u64, n, min, MAX_ARRAY_ELEMENTS, "array elements")?;
        if elem == types::STRING {
            *strings = strings.saturating_add(n as u64);
            if *strings > MAX_ARRAY_STRINGS {
                return Err(Error::TooMany {
                    offset: at_n as u64,
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
            offset: at as u64,
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
                offset: c.offset() as u64,
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
            offset: at as u64,
            key: key.into(),
            byte,
        }),
    }
}

/// An array of `n` elements (its length at byte `at_n`), its vector
/// allocated fallibly.
fn read_array(c: &mut Cursor, key: &str, elem: u32, n: usize, at_n: usize) -> Result<Array, Error> {
    let no_memory = |e: memory::NoMemory| Error::NoMemory {
        offset: at_n as u64,
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
                offset: c.offset() as u64,
                key: key.into(),
                code,
            });
        }
    })
}

/// A name ggml would read to its first NUL is refused.
pub(super) fn no_nul(name: &str, offset: usize, what: &'static str) -> Result<(), Error> {
    match name.contains('\0') {
        false => Ok(()),
        true => Err(Error::NulInName {
            offset: offset as u64,
            what,
            name: name.to_string(),
        }),
    }
}

/// The first index of each name seen so far: a duplicate costs one lookup,
/// so checking a file's names is linear in their bytes.
#[derive(Default)]
pub(super) struct FirstIndex(std::collections::HashMap<String, usize>);

impl FirstIndex {
    /// Records `name` at `index`; the first index if it was seen before.
    pub(super) fn insert(&mut self, name: &str, index: usize) -> Option<usize> {
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
                offset: at as u64,
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
                offset: at as u64,
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
            offset: at_dims as u64,
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
                offset: at as u64,
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
            offset: at_dims as u64,
            name,
            dims: used.to_vec(),
        }));
    }
    let at_ty = c.offset();
    let ty = TensorType(c.u32("tensor type").map_err(|e| named(e.into()))?);
    let Some((_, block, _)) = ty.layout() else {
        return Err(named(Error::TensorType {
            offset: at_ty as u64,
            name,
            code: ty.0,
        }));
    };
    let ne0 = used.first().copied().unwrap_or(1);
    if !ne0.is_multiple_of(block) {
        return Err(named(Error::BlockSize {
            offset: at_ty as u64,
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
