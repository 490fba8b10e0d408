//! Writing a header: its canonical bytes, and the header that reading them
//! back gives.

use crate::memory;

use super::decode::{FirstIndex, Table, alignment_of, no_nul};
use super::{
    Array, Entry, Error, Header, MAGIC, MAX_DIMS, MAX_NAME_BYTES, Places, TensorDesc, VERSION,
    Value, pad, tensor_bytes,
};

/// The header bytes (magic through the padding before the data) for
/// `metadata` and `tensors`, whose data then follows in the order given,
/// each padded to the alignment (`general.alignment` if in `metadata`,
/// else 32). Refuses what [`decode_header`](super::decode_header) would refuse. With it, the
/// header [`decode_header`](super::decode_header) will read back.
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
                offset: out.len() as u64,
                index: i as u64,
            });
        }
        no_nul(key, out.len(), "metadata key")?;
        if let Some(first) = seen_keys.insert(key, i) {
            return Err(Error::DuplicateKey {
                offset: out.len() as u64,
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
            offset: at as u64,
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
                offset: at as u64,
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

/// A description to write, checked as [`decode_header`](super::decode_header) checks one read
/// (its name appended to `names`), and its padded data size; an error says
/// whether its name was appended first.
pub(super) fn describe(
    t: &TensorDesc,
    at: usize,
    offset: u64,
    alignment: u64,
    names: &mut String,
) -> Result<(Entry, u64), (Error, bool)> {
    if t.name.len() >= MAX_NAME_BYTES {
        return Err((
            Error::NameTooLong {
                offset: at as u64,
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
            offset: at as u64,
            name: t.name.to_string(),
            n: t.dims.len() as u64,
        }));
    }
    let Some((_, block, _)) = t.ty.layout() else {
        return Err(named(Error::TensorType {
            offset: at as u64,
            name: t.name.to_string(),
            code: t.ty.0,
        }));
    };
    let ne0 = t.dims.first().copied().unwrap_or(1);
    if !ne0.is_multiple_of(block) {
        return Err(named(Error::BlockSize {
            offset: at as u64,
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
                offset: at as u64,
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
