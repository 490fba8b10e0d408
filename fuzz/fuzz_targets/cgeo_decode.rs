//! Fuzz the CGeo reader: `Reader::new` and every snapshot, and `decode`.
//! Nothing may panic; what decodes is valid and re-encodes to a file that
//! decodes again (to the same sequence when every snapshot is complete).
//!
//! Run (nightly), in `fuzz/`, seeded with files of the independent writer:
//! `python3 ../tests/oracles/cgeo_write.py --seeds corpus/cgeo_decode &&
//! cargo +nightly fuzz run cgeo_decode corpus/cgeo_decode`.

#![no_main]

use kiln::formats::cgeo;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    if let Ok(mut r) = cgeo::Reader::new(bytes) {
        for k in 0..r.len() {
            let _ = r.snapshot(k);
        }
    }
    if let Ok(seq) = cgeo::decode(bytes) {
        assert!(cgeo::validate(&seq).is_empty());
        let again = cgeo::decode(&cgeo::encode(&seq).unwrap()).unwrap();
        // Complete snapshots come back exactly; a difference snapshot to
        // f32 rounding ((a - f) + f), so only its shape is compared.
        if seq.topology_changing || seq.snapshots.len() == 1 {
            assert_eq!(again, seq);
        } else {
            assert_eq!(again.snapshots.len(), seq.snapshots.len());
        }
    }
});
