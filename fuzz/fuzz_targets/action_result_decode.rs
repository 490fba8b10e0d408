//! Fuzz the action-cache entry decoder (`formats::action_result`): any
//! bytes a cache server returns must decode or be refused at a byte within
//! them, never panic; what decodes encodes and reads back the same.
//!
//! Run: `bash fuzz/run.sh SECONDS action_result_decode` (after `bash fuzz/seed.sh`); a crash
//! found is kept in `tests/corpus/fuzz-regressions/action_result_decode/`.

#![no_main]

#[path = "../properties.rs"]
mod properties;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| properties::action_result_decode(bytes));
