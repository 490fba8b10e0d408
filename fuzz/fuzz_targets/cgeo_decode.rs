//! Fuzz the CGeo reader: `Reader::new` and every snapshot, and `decode`.
//! Nothing may panic; what decodes is valid and re-encodes to a file that
//! decodes again (to the same sequence when every snapshot is complete).
//!
//! Run: `bash fuzz/run.sh SECONDS cgeo_decode` (after `bash fuzz/seed.sh`); a crash
//! found is kept in `tests/corpus/fuzz-regressions/cgeo_decode/`.

#![no_main]

#[path = "../properties.rs"]
mod properties;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| properties::cgeo_decode(bytes));
