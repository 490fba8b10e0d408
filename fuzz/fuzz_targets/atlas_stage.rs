//! Fuzz the material stage from glTF bytes: `import::gltf::import_meshes`
//! then `bake::atlas::material_stage` (image decoding and
//! `bake::atlas`) must never panic, and an atlas they make is opaque and
//! every UV lies inside it.
//!
//! Run: `bash fuzz/run.sh SECONDS atlas_stage` (after `bash fuzz/seed.sh`); a crash
//! found is kept in `tests/corpus/fuzz-regressions/atlas_stage/`.

#![no_main]

#[path = "../properties.rs"]
mod properties;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| properties::atlas_stage(bytes));
