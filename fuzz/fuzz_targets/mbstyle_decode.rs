//! Fuzz `kiln::formats::mbstyle::decode`: it must never panic, and whatever
//! it accepts must encode back to the same bytes (decode accepts only the
//! canonical form).
//!
//! Run (nightly): `cargo +nightly fuzz run mbstyle_decode` in `fuzz/`.

#![no_main]

use kiln::formats::mbstyle;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    if let Ok(style) = mbstyle::decode(bytes) {
        assert!(mbstyle::validate(&style).is_empty(), "decoded style is not valid");
        let again = mbstyle::encode(&style).expect("decoded style does not encode");
        assert_eq!(again, bytes, "decode -> encode changed the bytes");
    }
});
