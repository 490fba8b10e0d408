//! Helpers for `tests/bake/gltf_import.rs`: corpus access, GLB building and
//! patching, and a fixture writer for glTF assets made in code.

use std::path::{Path, PathBuf};

use kiln::formats::glb;
use kiln::import::gltf::import_scene;
use kiln::model::Scene;
use serde_json::{Value, json};

pub fn corpus(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus")
        .join(rel)
}

pub fn read(rel: &str) -> Vec<u8> {
    std::fs::read(corpus(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Every .glb / .gltf under tests/corpus, relative paths, sorted.
pub fn all_corpus_files() -> Vec<String> {
    let mut out = Vec::new();
    let mut dirs = vec![corpus("")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("glb" | "gltf")
            ) {
                let rel = path.strip_prefix(corpus("")).unwrap();
                out.push(rel.to_string_lossy().into_owned());
            }
        }
    }
    out.sort();
    out
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest as _;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

pub fn scene(rel: &str) -> Scene {
    import_scene(&read(rel), &[]).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The JSON and BIN chunks of a GLB (panics if it is not well-formed).
pub fn split_glb(bytes: &[u8]) -> (Value, Vec<u8>) {
    let g = glb::decode(bytes).unwrap();
    let json = serde_json::from_slice(g.json_text()).unwrap();
    (json, g.bin.unwrap_or_default().to_vec())
}

/// A GLB of `json` and, unless it is empty, a BIN chunk of `bin`.
pub fn make_glb(json: &Value, bin: &[u8]) -> Vec<u8> {
    let text = serde_json::to_vec(json).unwrap();
    glb::encode(&text, (!bin.is_empty()).then_some(bin))
}

/// A corpus GLB with its JSON edited by `edit`.
pub fn patched(rel: &str, edit: impl FnOnce(&mut Value)) -> Vec<u8> {
    let (mut json, bin) = split_glb(&read(rel));
    edit(&mut json);
    make_glb(&json, &bin)
}

/// `import_scene` fails with a message containing every one of `wants`,
/// placed in the file ([`rule`]).
#[track_caller]
pub fn assert_rejected(bytes: &[u8], externals: &[(String, Vec<u8>)], wants: &[&str]) {
    match import_scene(bytes, externals) {
        Ok(_) => panic!("accepted, wanted an error with {wants:?}"),
        Err(e) => {
            let msg = e.to_string();
            for want in wants {
                assert!(msg.contains(want), "error {msg:?} lacks {want:?}");
            }
            // Lowercase prose (quoted names keep their case).
            let rule = rule(bytes, &e);
            assert!(!rule.starts_with(char::is_uppercase), "{msg}");
        }
    }
}

/// The byte an import error of `file` starts with (`at byte N: `, every
/// one does), and the rule it states after it. N is inside the file (or
/// its end, for a file cut short).
#[track_caller]
pub fn place(file: &[u8], e: impl std::fmt::Display) -> (usize, String) {
    let msg = e.to_string();
    let (at, rule) = msg
        .strip_prefix("at byte ")
        .and_then(|m| m.split_once(": "))
        .unwrap_or_else(|| panic!("no place at the start of {msg:?}"));
    let at: usize = at.parse().unwrap_or_else(|_| panic!("{msg:?}"));
    assert!(
        at <= file.len(),
        "{msg:?}: past the file's {} bytes",
        file.len()
    );
    (at, rule.to_string())
}

/// The rule an import error of `file` states after its place ([`place`]).
/// A rule named by a JSON path is placed where a JSON value starts: one
/// whole value parses from that byte (serde_json, not kiln's scanner).
#[track_caller]
pub fn rule(file: &[u8], e: impl std::fmt::Display) -> String {
    let (at, rule) = place(file, e);
    let path = rule.split(": ").next().unwrap_or("");
    let named_by_path =
        path.chars().next().is_some_and(|c| c.is_ascii_lowercase()) && !path.contains(' ');
    if named_by_path && path != "json" {
        let value = serde_json::Deserializer::from_slice(&file[at..])
            .into_iter::<Value>()
            .next();
        assert!(
            matches!(value, Some(Ok(_))),
            "{rule:?}: no JSON value starts at byte {at}"
        );
    }
    rule
}

/// The JSON value that starts at byte `at` of `file`.
pub fn value_at(file: &[u8], at: usize) -> Value {
    serde_json::Deserializer::from_slice(&file[at..])
        .into_iter::<Value>()
        .next()
        .unwrap()
        .unwrap()
}

/// Builds a glTF JSON and its BIN buffer (buffer 0) piece by piece.
pub struct Fixture {
    pub json: Value,
    pub bin: Vec<u8>,
}

pub fn le_f32(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

impl Fixture {
    pub fn new() -> Fixture {
        Fixture {
            json: json!({
                "asset": {"version": "2.0"},
                "buffers": [{"byteLength": 0}],
                "bufferViews": [], "accessors": [], "nodes": [], "meshes": [], "animations": []
            }),
            bin: Vec::new(),
        }
    }

    pub fn push(&mut self, key: &str, value: Value) -> usize {
        let list = self.json[key].as_array_mut().unwrap();
        list.push(value);
        list.len() - 1
    }

    pub fn view(&mut self, bytes: &[u8], stride: Option<usize>) -> usize {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let mut v = json!({"buffer": 0, "byteOffset": self.bin.len(), "byteLength": bytes.len()});
        if let Some(s) = stride {
            v["byteStride"] = json!(s);
        }
        self.bin.extend_from_slice(bytes);
        self.push("bufferViews", v)
    }

    /// A view holding `bytes` and an accessor over all of it.
    pub fn accessor(
        &mut self,
        bytes: &[u8],
        component_type: u32,
        ty: &str,
        count: usize,
        normalized: bool,
    ) -> usize {
        let view = self.view(bytes, None);
        self.push(
            "accessors",
            json!({"bufferView": view, "componentType": component_type, "type": ty,
                   "count": count, "normalized": normalized}),
        )
    }

    pub fn floats(&mut self, values: &[f32], ty: &str, components: usize) -> usize {
        self.accessor(&le_f32(values), 5126, ty, values.len() / components, false)
    }

    pub fn channel(
        &mut self,
        name: &str,
        node: usize,
        path: &str,
        interpolation: &str,
        input: usize,
        output: usize,
    ) {
        self.push(
            "animations",
            json!({"name": name,
                   "samplers": [{"input": input, "output": output, "interpolation": interpolation}],
                   "channels": [{"sampler": 0, "target": {"node": node, "path": path}}]}),
        );
    }

    pub fn glb(&mut self) -> Vec<u8> {
        self.json["buffers"][0]["byteLength"] = json!(self.bin.len());
        make_glb(&self.json, &self.bin)
    }
}
