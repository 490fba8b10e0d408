//! Fuzz `kiln::formats::safetensors::{header_len, decode_header}`: never a
//! panic; an accepted header's tensors tile the data exactly.
//!
//! Run: `bash fuzz/run.sh SECONDS safetensors_decode` (after `bash fuzz/seed.sh`); a crash
//! found is kept in `tests/corpus/fuzz-regressions/safetensors_decode/`.

#![no_main]

#[path = "../properties.rs"]
mod properties;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| properties::safetensors_decode(bytes));
