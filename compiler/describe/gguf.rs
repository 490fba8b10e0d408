//! A GGUF file, described (its tensor table streamed).

use std::io::{self, Write};

use serde_json::{Value, json};

use crate::bake::model_bundle::Role;
use crate::formats::gguf::{self, Array, Value as Gv};

/// A GGUF file's header, and what the MotionBricks runtime would say of it
/// when it is one of its components.
pub struct GgufFile {
    pub header: gguf::Header,
    pub role: Option<Role>,
    /// What the runtime refuses (empty for a file that is no component).
    pub problems: Vec<String>,
}

fn gguf_value_json(v: &Gv) -> Value {
    match v {
        Gv::U8(x) => json!(x),
        Gv::I8(x) => json!(x),
        Gv::U16(x) => json!(x),
        Gv::I16(x) => json!(x),
        Gv::U32(x) => json!(x),
        Gv::I32(x) => json!(x),
        Gv::F32(x) => json!(x),
        Gv::Bool(x) => json!(x),
        Gv::String(x) => json!(x),
        Gv::U64(x) => json!(x),
        Gv::I64(x) => json!(x),
        Gv::F64(x) => json!(x),
        Gv::Array(a) => match a {
            Array::U8(v) => json!(v),
            Array::I8(v) => json!(v),
            Array::U16(v) => json!(v),
            Array::I16(v) => json!(v),
            Array::U32(v) => json!(v),
            Array::I32(v) => json!(v),
            Array::F32(v) => json!(v),
            Array::Bool(v) => json!(v),
            Array::String(v) => json!(v),
            Array::U64(v) => json!(v),
            Array::I64(v) => json!(v),
            Array::F64(v) => json!(v),
        },
    }
}

/// A value for a line of text: arrays show their first 8 elements.
fn gguf_value_text(v: &Gv) -> String {
    match v {
        Gv::Array(a) => {
            let all = gguf_value_json(v);
            let items: Vec<String> = all
                .as_array()
                .map(|x| x.iter().take(8).map(|e| e.to_string()).collect())
                .unwrap_or_default();
            let more = if a.len() > 8 { ", ..." } else { "" };
            format!("[{}{more}] ({} elements)", items.join(", "), a.len())
        }
        v => gguf_value_json(v).to_string(),
    }
}

pub(super) fn data(g: &GgufFile) -> Value {
    let h = &g.header;
    json!({
        "format": "gguf",
        "version": gguf::VERSION,
        "alignment": h.alignment,
        "data_start": h.data_start,
        "data_bytes": h.data_bytes,
        "motionbricks_component": g.role.map(|r| r.name()),
        "runtime_problems": g.problems,
        "metadata": h.metadata.iter().map(|(k, v)| json!({
            "key": k,
            "type": v.type_text(),
            "value": gguf_value_json(v),
        })).collect::<Vec<_>>(),
    })
}

/// The tensor table's rows (`describe::Table`), made as they are asked for.
pub(super) fn rows(header: &gguf::Header) -> impl Iterator<Item = Value> + '_ {
    header.tensors().map(|t| {
        json!({
            "name": t.name,
            "type": t.ty.name(),
            "shape": t.dims,
            "offset": t.offset,
            "bytes": t.bytes(),
        })
    })
}

pub(super) fn text(o: &mut dyn Write, file: &str, g: &GgufFile) -> io::Result<()> {
    let h = &g.header;
    say!(
        o,
        "{}: GGUF v{}, {} tensors, {} metadata keys, alignment {}, data at byte {} ({} bytes)",
        file,
        gguf::VERSION,
        h.tensor_count(),
        h.metadata.len(),
        h.alignment,
        h.data_start,
        h.data_bytes
    );
    if let Some(role) = g.role {
        say!(o, "  MotionBricks bundle component: {}", role.name());
    }
    for p in &g.problems {
        say!(o, "  the runtime would refuse: {p}");
    }
    say!(o, "  metadata:");
    for (k, v) in &h.metadata {
        say!(o, "    {k} {} {}", v.type_text(), gguf_value_text(v));
    }
    say!(o, "  tensors (GGML shape, fastest first):");
    for t in h.tensors() {
        say!(
            o,
            "    {} {} {:?} at {}",
            t.name,
            t.ty.name(),
            t.dims,
            t.offset
        );
    }
    Ok(())
}

/// `verify`'s line for a valid file, or what the runtime refuses.
pub(super) fn verdict(g: &GgufFile) -> Result<String, Vec<String>> {
    if !g.problems.is_empty() {
        return Err(g.problems.clone());
    }
    Ok(format!(
        "valid GGUF v3 ({} tensors, {} metadata keys){}",
        g.header.tensor_count(),
        g.header.metadata.len(),
        g.role.map_or_else(String::new, |r| format!(
            "; a MotionBricks {} component the runtime loads",
            r.name()
        ))
    ))
}
