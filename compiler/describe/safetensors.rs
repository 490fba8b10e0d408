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

impl serde::Serialize for SafetensorsTable<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for t in self.0.tensors() {
            seq.serialize_element(&json!({
                "name": t.name,
                "dtype": t.dtype.name(),
                "shape": t.shape,
                "data_offsets": [t.begin, t.end],
            }))?;
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
