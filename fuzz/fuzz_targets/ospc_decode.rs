//! Fuzz `kiln::formats::ospc::decode`: it must never panic, and whatever it
//! accepts must encode back to the same bytes.
//!
//! Run (nightly): `cargo +nightly fuzz run ospc_decode` in `fuzz/`. The same
//! property runs on stable over deterministic inputs in `tests/ospc.rs`
//! (`fuzz_property_on_deterministic_inputs`).

#![no_main]

use kiln::formats::ospc;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    if let Ok(cache) = ospc::decode(bytes) {
        assert!(
            ospc::validate(&cache).is_empty(),
            "decoded cache is not valid"
        );
        let again = ospc::encode(&cache).expect("decoded cache does not encode");
        assert_eq!(again, bytes, "decode -> encode changed the bytes");
    }
});
