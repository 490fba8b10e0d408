//! Fuzz the Draco primitive reader (`import/gltf/draco.rs` over
//! `draco-core`): the input is a Draco stream, put in place of the stream
//! of `SimpleSkin.draco-fine.glb` (its JSON kept, the buffer view resized),
//! and the mesh is read. Nothing may panic; what decodes keeps the
//! importer's promises (indices in range).
//!
//! Run: `bash fuzz/run.sh SECONDS draco_primitive` (after `bash fuzz/seed.sh`); a crash
//! found is kept in `tests/corpus/fuzz-regressions/draco_primitive/`.

#![no_main]

#[path = "../properties.rs"]
mod properties;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| properties::draco_primitive(bytes));
