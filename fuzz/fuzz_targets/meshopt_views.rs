//! Fuzz the meshopt buffer-view decoder (`import/gltf/meshopt.rs` over
//! meshoptimizer's C decoders, then kiln's filters). The input's first four
//! bytes choose a compressed view of `SimpleSkin.cc.glb` and may override
//! its mode, filter, extension (EXT or KHR), byteStride and count; the rest
//! replaces that view's compressed bytes. The scene is imported. Nothing
//! may panic; what decodes keeps the importer's promises (indices in
//! range).
//!
//! Run: `bash fuzz/run.sh SECONDS meshopt_views` (after `bash fuzz/seed.sh`); a crash
//! found is kept in `tests/corpus/fuzz-regressions/meshopt_views/`.

#![no_main]

#[path = "../properties.rs"]
mod properties;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| properties::meshopt_views(bytes));
