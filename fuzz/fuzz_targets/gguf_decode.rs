//! Fuzz `kiln::formats::gguf::decode_header`: it must never panic, and a
//! header it accepts must encode back to the same bytes.
//!
//! Run (nightly): `cargo +nightly fuzz run gguf_decode` in `fuzz/`. The
//! same property runs on stable over deterministic inputs in
//! `tests/model_formats.rs`.

#![no_main]

use kiln::formats::gguf;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    if let Ok(h) = gguf::decode_header(bytes, bytes.len() as u64) {
        let (again, h2) =
            gguf::encode_header(&h.metadata, &h.descs()).expect("an accepted header encodes");
        assert_eq!(h2, h);
        assert_eq!(again, bytes[..h.data_start as usize]);
    }
});
