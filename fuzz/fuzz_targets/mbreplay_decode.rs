//! Fuzz `kiln::formats::mbreplay::decode`: it must never panic, and whatever
//! it accepts must be valid and encode back to the same bytes.
//!
//! Run: `bash fuzz/run.sh SECONDS mbreplay_decode` (after `bash fuzz/seed.sh`); a crash
//! found is kept in `tests/corpus/fuzz-regressions/mbreplay_decode/`.

#![no_main]

#[path = "../properties.rs"]
mod properties;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| properties::mbreplay_decode(bytes));
