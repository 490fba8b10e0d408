//! Fuzz `kiln::formats::kchr::decode`: it must never panic, and what it
//! accepts re-encodes to exactly the input (the encoding is canonical).
//!
//! Run: `bash fuzz/run.sh SECONDS kchr_decode` (after `bash fuzz/seed.sh`); a crash
//! found is kept in `tests/corpus/fuzz-regressions/kchr_decode/`.

#![no_main]

#[path = "../properties.rs"]
mod properties;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| properties::kchr_decode(bytes));
