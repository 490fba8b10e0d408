//! Fuzz `kiln::formats::qoi::decode`: it must never panic, and what it
//! accepts must be valid and re-encode to a file that decodes to the same
//! image (the encoder's bytes may differ: many op streams make one image).
//!
//! Run (nightly): `cargo +nightly fuzz run qoi_decode` in `fuzz/`. The same
//! property runs on stable over deterministic inputs in `tests/qoi.rs`
//! (`the_fuzz_property_holds_on_every_byte_of_the_golden_file`).

#![no_main]

use kiln::formats::qoi;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    if let Ok(image) = qoi::decode(bytes) {
        assert!(qoi::validate(&image).is_empty(), "decoded image is not valid");
        let again = qoi::encode(&image).expect("decoded image does not encode");
        assert_eq!(qoi::decode(&again).expect("re-encoded image decodes"), image);
    }
});
