//! Fuzz `kiln::formats::mbreplay::decode`: it must never panic, and whatever
//! it accepts must be valid and encode back to the same bytes.
//!
//! Run (nightly): `cargo +nightly fuzz run mbreplay_decode` in `fuzz/`. The
//! same property runs on stable over deterministic inputs in
//! `tests/mbreplay.rs` (`fuzz_property_on_deterministic_inputs`).

#![no_main]

use kiln::formats::mbreplay;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    if let Ok(replay) = mbreplay::decode(bytes) {
        assert!(mbreplay::validate(&replay).is_empty(), "decoded replay is not valid");
        let again = mbreplay::encode(&replay).expect("decoded replay does not encode");
        assert_eq!(again, bytes, "decode -> encode changed the bytes");
    }
});
