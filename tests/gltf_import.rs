//! Tests of the glTF importer against the real-world corpus in
//! `tests/corpus/` and hand-written fixtures.

use std::path::{Path, PathBuf};

use kiln::import::gltf::{Asset, external_uris, import_scene};

fn corpus(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus")
        .join(rel)
}

fn read(rel: &str) -> Vec<u8> {
    std::fs::read(corpus(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Every .glb / .gltf under tests/corpus, relative paths, sorted.
fn all_corpus_files() -> Vec<String> {
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

#[test]
fn every_corpus_file_imports() {
    let files = all_corpus_files();
    assert!(files.len() >= 40, "{files:?}");
    for rel in &files {
        let bytes = read(rel);
        assert_eq!(
            external_uris(&bytes).unwrap(),
            Vec::<String>::new(),
            "{rel}"
        );
        let scene = import_scene(&bytes, &[]).unwrap_or_else(|e| panic!("{rel}: {e}"));
        let asset = Asset::load(&bytes, &[]).unwrap();
        for i in 0..asset.document().accessors.len() {
            asset.accessor(i).unwrap_or_else(|e| panic!("{rel}: {e}"));
        }
        eprintln!(
            "{rel}: {} nodes {} skins {} clips",
            scene.nodes.len(),
            scene.skins.len(),
            scene.clips.len()
        );
    }
}
