//! Fuzz `kiln::formats::mbstyle::decode`: it must never panic, and whatever
//! it accepts must encode back to the same bytes (decode accepts only the
//! canonical form); what it refuses must name a byte of the file; and
//! `mbstyle::read` (what the runtime loads) agrees with it: the same
//! refusal, or the departure from the canonical form decode refuses.
//!
//! Run: `bash fuzz/run.sh SECONDS mbstyle_decode` (after `bash fuzz/seed.sh`); a crash
//! found is kept in `tests/corpus/fuzz-regressions/mbstyle_decode/`.

#![no_main]

#[path = "../properties.rs"]
mod properties;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| properties::mbstyle_decode(bytes));
