//! Fuzz `kiln::formats::gguf::decode_header`: it must never panic, and a
//! header it accepts must encode back to the same bytes (compared as
//! bytes: a NaN value is never equal to itself, so the decoded headers are
//! compared by their tensors, layout and places only).
//!
//! Run: `bash fuzz/run.sh SECONDS gguf_decode` (after `bash fuzz/seed.sh`); a crash
//! found is kept in `tests/corpus/fuzz-regressions/gguf_decode/`.

#![no_main]

#[path = "../properties.rs"]
mod properties;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| properties::gguf_decode(bytes));
