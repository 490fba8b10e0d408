//! A safetensors checkpoint's header, described (its tensor table streamed).

use std::io::{self, Write};

use serde_json::{Value, json};

use crate::formats::safetensors;

/// A safetensors header as JSON, but for its tensor table
/// ([`SafetensorsTable`], streamed).
pub(super) fn data(h: &safetensors::Header) -> Value {
    json!({
        "format": "safetensors",
        "header_bytes": h.json_bytes,
        "data_bytes": h.data_bytes(),
        "metadata": h.metadata,
    })
}

/// A header's tensors as a JSON array, serialized one at a time.
pub struct SafetensorsTable<'a>(pub &'a safetensors::Header);

impl<'a> SafetensorsTable<'a> {
    /// How many rows.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether it has no row.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Each row, made as it is asked for.
    pub fn rows(&self) -> impl Iterator<Item = Value> + 'a {
        let header = self.0;
        header.tensors().map(|t| {
            json!({
                "name": t.name,
                "dtype": t.dtype.name(),
                "shape": t.shape,
                "data_offsets": [t.begin, t.end],
            })
        })
    }
}

impl serde::Serialize for SafetensorsTable<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = s.serialize_seq(Some(self.len()))?;
        for row in self.rows() {
            seq.serialize_element(&row)?;
        }
        seq.end()
    }
}

pub(super) fn text(o: &mut dyn Write, file: &str, h: &safetensors::Header) -> io::Result<()> {
    say!(
        o,
        "{}: safetensors, {} tensors, {} bytes of header, {} bytes of data",
        file,
        h.len(),
        h.json_bytes,
        h.data_bytes()
    );
    if let Some(m) = &h.metadata {
        for (k, v) in m {
            say!(o, "  metadata {k}: {v:?}");
        }
    }
    say!(o, "  tensors (PyTorch shape, sorted by name):");
    for t in h.tensors() {
        say!(
            o,
            "    {} {} {:?} bytes {}..{}",
            t.name,
            t.dtype,
            t.shape,
            t.begin,
            t.end
        );
    }
    Ok(())
}

/// `verify`'s line for a valid file.
pub(super) fn verdict(h: &safetensors::Header) -> Result<String, Vec<String>> {
    Ok(format!(
        "valid safetensors ({} tensors, {} bytes of data)",
        h.len(),
        h.data_bytes()
    ))
}
