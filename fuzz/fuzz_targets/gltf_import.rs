//! The glTF importer on arbitrary bytes, as a `.glb` or `.gltf` with no
//! external files: it may reject them, it must never panic.
//!
//! Run: `bash fuzz/run.sh SECONDS gltf_import` (after `bash fuzz/seed.sh`); a crash
//! found is kept in `tests/corpus/fuzz-regressions/gltf_import/`.

#![no_main]

#[path = "../properties.rs"]
mod properties;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| properties::gltf_import(bytes));
