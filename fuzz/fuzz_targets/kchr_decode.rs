//! Fuzz `kiln::formats::kchr::decode`: it must never panic, and what it
//! accepts re-encodes to exactly the input (the encoding is canonical).
//!
//! Run (nightly): `cargo +nightly fuzz run kchr_decode` in `fuzz/`, seeded
//! with `tests/golden/kchr/`. The same property runs on stable in
//! `tests/kchr.rs` (`the_fuzz_property_holds_on_every_byte_of_the_sample`).

#![no_main]

use kiln::formats::kchr;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    if let Ok(doc) = kchr::decode(bytes) {
        assert!(kchr::validate(&doc).is_empty(), "decoded document is not valid");
        assert_eq!(kchr::encode(&doc).expect("decoded document encodes"), bytes);
    }
});
