//! A safetensors checkpoint's header, described (its tensor table streamed).

use std::io::{self, Write};

use serde_json::{Value, json};

use crate::formats::safetensors;

/// A safetensors header as JSON, but for its tensor table
/// ([`rows`], streamed).
pub(super) fn data(h: &safetensors::Header) -> Value {
    json!({
        "format": "safetensors",
        "header_bytes": h.json_bytes,
        "data_bytes": h.data_bytes(),
        "metadata": h.metadata,
    })
}

/// The tensor table's rows (`describe::Table`), made as they are asked for.
pub(super) fn rows(header: &safetensors::Header) -> impl Iterator<Item = Value> + '_ {
    header.tensors().map(|t| {
        json!({
            "name": t.name,
            "dtype": t.dtype.name(),
            "shape": t.shape,
            "data_offsets": [t.begin, t.end],
        })
    })
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
