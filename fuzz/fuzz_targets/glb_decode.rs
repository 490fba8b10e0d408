//! The GLB codec on arbitrary bytes: `decode` may reject them, never
//! panic; what it accepts re-encodes to the same chunks, and to the same
//! bytes up to any skipped chunks at the end (the header's total length
//! aside).
#![no_main]

use kiln::formats::glb;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(decoded) = glb::decode(data) else {
        return;
    };
    assert_eq!(glb::validate(decoded.json, decoded.bin), Ok(()));
    let again = glb::encode(decoded.json, decoded.bin);
    assert_eq!(glb::decode(&again), Ok(decoded));
    assert!(again.len() <= data.len());
    assert_eq!(again[..8], data[..8]);
    assert_eq!(again[12..], data[12..again.len()]);
});
