//! Fuzz `kiln::import::image::decode` (PNG through `png`, JPEG through
//! `zune-jpeg`): never a panic; an image it returns has a side of at most
//! `MAX_SIDE` texels and exactly `width * height * 4` bytes.
//!
//! Run: `bash fuzz/run.sh SECONDS image_decode` (after `bash fuzz/seed.sh`); a crash
//! found is kept in `tests/corpus/fuzz-regressions/image_decode/`.

#![no_main]

#[path = "../properties.rs"]
mod properties;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| properties::image_decode(bytes));
