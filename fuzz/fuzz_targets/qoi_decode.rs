//! Fuzz `kiln::formats::qoi::decode`: it must never panic, and what it
//! accepts must be valid and re-encode to a file that decodes to the same
//! image (the encoder's bytes may differ: many op streams make one image).
//!
//! Run: `bash fuzz/run.sh SECONDS qoi_decode` (after `bash fuzz/seed.sh`); a crash
//! found is kept in `tests/corpus/fuzz-regressions/qoi_decode/`.

#![no_main]

#[path = "../properties.rs"]
mod properties;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| properties::qoi_decode(bytes));
