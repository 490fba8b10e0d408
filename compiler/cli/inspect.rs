//! `kiln inspect`: what a file holds, as text or JSON.

use std::io::Write as _;
use std::path::Path;

use serde_json::{Value, json};

use super::EXIT_FAILURE;
use crate::bake::atlas;
use crate::describe::{self, CharactersFile, FileKind};
use crate::pipeline::files::{self, load};

/// `v`'s fields after `kiln` and `schema`, as every JSON document kiln
/// prints begins, and without its null fields: a field a file does not
/// have is left out (docs/json.md).
fn document(v: Value) -> Value {
    let mut fields = serde_json::Map::new();
    fields.insert("kiln".into(), json!(crate::VERSION));
    fields.insert("schema".into(), json!(super::JSON_SCHEMA));
    if let Value::Object(rest) = v {
        fields.extend(rest);
    }
    without_nulls(Value::Object(fields))
}

/// `v` with every object field whose value is null removed, at any depth
/// (a loop over a work list: no recursion on a file's nesting).
fn without_nulls(mut v: Value) -> Value {
    let mut work: Vec<&mut Value> = vec![&mut v];
    while let Some(item) = work.pop() {
        match item {
            Value::Object(fields) => {
                fields.retain(|_, f| !f.is_null());
                work.extend(fields.values_mut());
            }
            Value::Array(items) => work.extend(items.iter_mut()),
            _ => {}
        }
    }
    v
}

pub fn run(file: &Path, as_json: bool) -> u8 {
    let kind = match load(file) {
        Ok(k) => k,
        Err(e) => {
            eprintln!("error: {}: {e}", file.display());
            return EXIT_FAILURE;
        }
    };
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    // (JSON built only when asked for; a table of a million tensors is
    // written as it is read, never held.)
    let _ = if as_json {
        let doc = document(describe::data(&kind));
        match describe::table(&kind) {
            Some((key, table)) => write_streamed(&mut stdout, doc, key, table),
            None => writeln!(stdout, "{doc}"),
        }
    } else {
        describe::text(&kind, &file.display().to_string(), &mut stdout)
    };
    let _ = stdout.flush();
    0
}

/// Writes `doc` with one more field, `key`, whose value is serialized as
/// it is written (a table too large to hold as a JSON value).
fn write_streamed(
    out: &mut dyn std::io::Write,
    doc: Value,
    key: &str,
    table: impl serde::Serialize,
) -> std::io::Result<()> {
    use serde::ser::{SerializeMap, Serializer};
    struct Doc<'a, T>(&'a serde_json::Map<String, Value>, &'a str, T);
    impl<T: serde::Serialize> serde::Serialize for Doc<'_, T> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut map = s.serialize_map(Some(self.0.len() + 1))?;
            for (k, v) in self.0 {
                map.serialize_entry(k, v)?;
            }
            map.serialize_entry(self.1, &self.2)?;
            map.end()
        }
    }
    let Value::Object(fields) = doc else {
        return Ok(());
    };
    serde_json::to_writer(&mut *out, &Doc(&fields, key, table))?;
    writeln!(out)
}

/// `kiln inspect --png OUT FILE`: a QOI image as a PNG.
pub fn to_png(file: &Path, out: &Path, as_json: bool) -> u8 {
    let image = match load(file) {
        Ok(FileKind::Qoi(q)) => files::rgba8(q),
        Ok(_) => {
            eprintln!(
                "error: {}: --png converts a .qoi image (for a .glb or .gltf, --atlas-png runs the material stage)",
                file.display()
            );
            return EXIT_FAILURE;
        }
        Err(e) => {
            eprintln!("error: {}: {e}", file.display());
            return EXIT_FAILURE;
        }
    };
    if let Err(e) = files::write_png(out, &image) {
        eprintln!("error: {e}");
        return EXIT_FAILURE;
    }
    if as_json {
        out!(
            "{}",
            document(
                json!({"png": out.display().to_string(), "width": image.width, "height": image.height})
            )
        );
    } else {
        out!(
            "{}: wrote {} ({} x {})",
            file.display(),
            out.display(),
            image.width,
            image.height
        );
    }
    0
}

/// `kiln inspect --atlas-png OUT FILE`: the material stage on a glTF
/// asset, its atlas written as a PNG.
pub fn atlas(file: &Path, out: &Path, as_json: bool) -> u8 {
    if let Ok(FileKind::Characters(c)) = load(file) {
        return characters_atlases(file, &c, out, as_json);
    }
    let result = files::atlas_of(file, &atlas::Settings::default());
    let a = match result {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {}: {e}", file.display());
            return EXIT_FAILURE;
        }
    };
    if let Err(e) = files::write_png(out, &a.image) {
        eprintln!("error: {e}");
        return EXIT_FAILURE;
    }
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    let _ = if as_json {
        let mut v = describe::atlas::data(&a);
        v["png"] = json!(out.display().to_string());
        writeln!(stdout, "{}", document(v))
    } else {
        describe::atlas::text(
            &mut stdout,
            &file.display().to_string(),
            &a,
            &out.display().to_string(),
        )
    };
    let _ = stdout.flush();
    0
}

/// `kiln inspect --atlas-png OUT ENTRY`: each model's atlas, as
/// `OUT` with the model's id before the extension (`atlas-fox.png`).
fn characters_atlases(file: &Path, c: &CharactersFile, out: &Path, as_json: bool) -> u8 {
    let atlases = match files::character_atlases(c) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {}: {e}", file.display());
            return EXIT_FAILURE;
        }
    };
    let stem = out
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let ext = out
        .extension()
        .map_or("png".into(), |e| e.to_string_lossy().into_owned());
    let mut written = Vec::new();
    for (id, image) in atlases {
        let path = out.with_file_name(format!("{stem}-{id}.{ext}"));
        if let Err(e) = files::write_png(&path, &image) {
            eprintln!("error: {e}");
            return EXIT_FAILURE;
        }
        written.push((id, path, image.width, image.height));
    }
    if as_json {
        out!(
            "{}",
            document(json!({"atlases": written.iter().map(|(id, p, w, h)| json!({
                "model": id, "png": p.display().to_string(), "width": w, "height": h,
            })).collect::<Vec<_>>()}))
        );
    } else {
        for (id, p, w, h) in &written {
            out!(
                "{}: model {id}: atlas {w} x {h}; wrote {}",
                file.display(),
                p.display()
            );
        }
    }
    0
}
