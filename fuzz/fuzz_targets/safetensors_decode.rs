//! Fuzz `kiln::formats::safetensors::{header_len, decode_header}`: never a
//! panic; an accepted header's tensors tile the data exactly.
//!
//! Run (nightly): `cargo +nightly fuzz run safetensors_decode` in `fuzz/`.

#![no_main]

use kiln::formats::safetensors;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let len = bytes.len() as u64;
    let Ok(n) = safetensors::header_len(bytes, len) else { return };
    let Some(json) = bytes.get(8..8 + n as usize) else { return };
    if let Ok(h) = safetensors::decode_header(json, len) {
        assert_eq!(h.data_start() + h.data_bytes(), len);
        for t in &h.tensors {
            assert_eq!(t.bytes(), t.elements() * t.dtype.size());
        }
    }
});
