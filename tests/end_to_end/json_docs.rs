//! docs/json.md stays true: its tables are read, and real `--json`
//! output of every documented document (built, fresh, failed, removed;
//! whole-build errors; dry runs and checks; verify) is checked against
//! them both ways: no field undocumented or of another type, no field
//! marked "always" missing, and every documented section seen.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;

use serde_json::Value;

use crate::cli_support::{Project, stderr};

const DOC: &str = include_str!("../../docs/json.md");

/// One documented field: its type and whether it is always present.
#[derive(Debug)]
struct Field {
    ty: String,
    always: bool,
}

/// (document, path) -> field name -> field, from the `### `doc` `path``
/// headings and the tables under them.
type Schema = BTreeMap<(String, String), BTreeMap<String, Field>>;

fn schema() -> Schema {
    let mut schema = Schema::new();
    let mut section: Option<(String, String)> = None;
    for line in DOC.lines() {
        if let Some(h) = line.strip_prefix("### ") {
            let parts: Vec<&str> = h.split('`').collect();
            assert!(
                parts.len() >= 4,
                "a section heading names `doc` `path`: {line}"
            );
            let key = (parts[1].to_string(), parts[3].to_string());
            assert!(!schema.contains_key(&key), "{key:?} twice");
            schema.insert(key.clone(), BTreeMap::new());
            section = Some(key);
        } else if line.starts_with("## ") {
            section = None;
        } else if let Some(key) = &section
            && line.starts_with("| `")
        {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let name = cells[1].trim_matches('`').to_string();
            let ty = cells[2].to_string();
            assert!(
                [
                    "string",
                    "integer",
                    "number",
                    "boolean",
                    "object",
                    "array<string>",
                    "array<integer>",
                    "array<number>",
                    "array<object>"
                ]
                .contains(&ty.as_str()),
                "{key:?} {name}: unknown type {ty}"
            );
            let always = cells[3] == "always";
            schema
                .get_mut(key)
                .unwrap()
                .insert(name, Field { ty, always });
        }
    }
    schema
}

fn type_ok(ty: &str, v: &Value) -> bool {
    match ty {
        "string" => v.is_string(),
        "integer" => v.is_u64() || v.is_i64(),
        "number" => v.is_number(),
        "boolean" => v.is_boolean(),
        "object" => v.is_object(),
        "array<string>" => v.as_array().is_some_and(|a| a.iter().all(Value::is_string)),
        "array<integer>" => v.as_array().is_some_and(|a| a.iter().all(Value::is_u64)),
        "array<number>" => v.as_array().is_some_and(|a| a.iter().all(Value::is_number)),
        "array<object>" => v.as_array().is_some_and(|a| a.iter().all(Value::is_object)),
        _ => false,
    }
}

/// Checks `v` at `path` of `doc` against the schema, recording each
/// section and each optional field seen.
fn check(
    schema: &Schema,
    doc: &str,
    path: &str,
    v: &Value,
    seen: &mut BTreeSet<(String, String, String)>,
) {
    let key = (doc.to_string(), path.to_string());
    let fields = schema
        .get(&key)
        .unwrap_or_else(|| panic!("docs/json.md has no section {key:?}"));
    let object = v
        .as_object()
        .unwrap_or_else(|| panic!("{key:?}: not an object: {v}"));
    for (name, value) in object {
        let field = fields
            .get(name)
            .unwrap_or_else(|| panic!("{key:?}: field `{name}` is not in docs/json.md: {v}"));
        assert!(
            type_ok(&field.ty, value),
            "{key:?}: `{name}` is not {}: {value}",
            field.ty
        );
        seen.insert((doc.into(), path.into(), name.clone()));
        let inner = if path == "." {
            format!(".{name}")
        } else {
            format!("{path}.{name}")
        };
        match field.ty.as_str() {
            "object" => check(schema, doc, &inner, value, seen),
            "array<object>" => {
                for item in value.as_array().unwrap() {
                    check(schema, doc, &format!("{inner}[]"), item, seen);
                }
            }
            _ => {}
        }
    }
    for (name, field) in fields {
        assert!(
            !field.always || object.contains_key(name),
            "{key:?}: `{name}` is documented as always there: {v}"
        );
    }
}

/// Checks a whole document `v` of kind `doc` against docs/json.md (for
/// documents other test files make: an interrupted build's report).
pub fn conforms(doc: &str, v: &Value) {
    check(&schema(), doc, ".", v, &mut BTreeSet::new());
}

fn json(out: &std::process::Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            stderr(out)
        )
    })
}

#[test]
fn every_documented_json_document_matches_what_kiln_prints() {
    let schema = schema();
    let mut seen = BTreeSet::new();
    let p = Project::demo();
    let mut run = |doc: &str, args: &[&str], code: i32| {
        let out = p.kiln(args);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {}", stderr(&out));
        let v = json(&out);
        assert_eq!(v["schema"], 1, "{args:?}");
        assert_eq!(v["kiln"], env!("CARGO_PKG_VERSION"));
        check(&schema, doc, ".", &v, &mut seen);
    };
    // A dry run of nothing built, a failing check, a clean build (with
    // warnings and notes), a no-op, a passing check.
    run("dry-run", &["build", "--dry-run", "--json"], 0);
    run("dry-run", &["build", "--check", "--json"], 1);
    run("build", &["build", "--json"], 0);
    run("build", &["build", "--json"], 0);
    run("dry-run", &["build", "--check", "--json"], 0);
    // A failed job and removed outputs.
    p.edit(
        "manifests/robot.yaml",
        "animation: Wave",
        "animation: NoSuchClip",
    );
    fs::remove_file(p.path("manifests/sequences.yaml")).unwrap();
    run("build", &["build", "--json"], 1);
    // Whole-build errors: a manifest problem, a usage error.
    run("errors", &["build", "--json", "no-such-target"], 2);
    p.write(
        "manifests/bad.yaml",
        "pose_caches:\n  - id: x\n    colour: red\n",
    );
    run("errors", &["build", "--json"], 1);
    fs::remove_file(p.path("manifests/bad.yaml")).unwrap();
    // Verify: a valid file and an invalid one.
    fs::write(p.path("bad.qoi"), b"qoif").unwrap();
    run(
        "verify",
        &["verify", "--json", "out/poses/fox-run.ospc", "bad.qoi"],
        1,
    );

    // glTF sources: skins, clips of every target, morphs, named and
    // external images, a generator, Draco.
    crate::cli_support::split_fox(&p);
    for file in [
        "split/fox.gltf",
        "sources/characters/RobotExpressive.glb",
        "sources/characters/CesiumMan-blender.glb",
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/corpus/glb/MorphStressTest.glb"
        ),
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/corpus/glb-variants/Fox.draco.glb"
        ),
    ] {
        run("inspect-gltf", &["inspect", "--json", file], 0);
    }

    // Every section was met, and every field but a few optional ones.
    for key in schema.keys() {
        assert!(
            seen.iter().any(|(d, p, _)| (d, p) == (&key.0, &key.1)),
            "docs/json.md section {key:?} was never printed"
        );
    }
    for ((doc, path), fields) in &schema {
        for name in fields.keys() {
            assert!(
                seen.contains(&(doc.clone(), path.clone(), name.clone())),
                "{doc} {path} `{name}` was never printed"
            );
        }
    }
}
