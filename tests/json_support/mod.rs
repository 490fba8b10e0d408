//! docs/json.md read as a schema: its tables, and a checker that holds a
//! JSON document to them both ways (no field undocumented or of another
//! type, no field marked "always" missing). Shared by the end-to-end
//! `json_docs` test and the full tier's bundle test.
#![allow(dead_code)] // each binary uses a different part

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

const DOC: &str = include_str!("../../docs/json.md");

/// One documented field: its type and whether it is always present.
#[derive(Debug)]
pub struct Field {
    pub ty: String,
    pub always: bool,
}

/// (document, path) -> field name -> field, from the `### `doc` `path``
/// headings and the tables under them.
pub type Schema = BTreeMap<(String, String), BTreeMap<String, Field>>;

pub fn schema() -> Schema {
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
                    "array<object>",
                    "map<string>",
                    "any"
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
        "array<integer>" => v
            .as_array()
            .is_some_and(|a| a.iter().all(|x| x.is_u64() || x.is_i64())),
        "array<number>" => v.as_array().is_some_and(|a| a.iter().all(Value::is_number)),
        "array<object>" => v.as_array().is_some_and(|a| a.iter().all(Value::is_object)),
        "map<string>" => v
            .as_object()
            .is_some_and(|m| m.values().all(Value::is_string)),
        "any" => true,
        _ => false,
    }
}

/// Checks `v` at `path` of `doc` against the schema, recording each
/// section and each optional field seen.
pub fn check(
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
