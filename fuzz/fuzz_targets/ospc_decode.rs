//! Fuzz `kiln::formats::ospc::decode`: it must never panic, and whatever it
//! accepts must encode back to the same bytes.
//!
//! Run: `bash fuzz/run.sh SECONDS ospc_decode` (after `bash fuzz/seed.sh`); a crash
//! found is kept in `tests/corpus/fuzz-regressions/ospc_decode/`.

#![no_main]

#[path = "../properties.rs"]
mod properties;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| properties::ospc_decode(bytes));
