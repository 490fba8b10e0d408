//! The GLB codec on arbitrary bytes: `decode` may reject them, never
//! panic; what it accepts re-encodes to the same chunks, and to the same
//! bytes up to any skipped chunks at the end (the header's total length
//! aside).
//!
//! Run: `bash fuzz/run.sh SECONDS glb_decode` (after `bash fuzz/seed.sh`); a crash
//! found is kept in `tests/corpus/fuzz-regressions/glb_decode/`.

#![no_main]

#[path = "../properties.rs"]
mod properties;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| properties::glb_decode(bytes));
