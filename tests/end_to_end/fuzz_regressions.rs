//! Every input a fuzz target ever failed on, kept in
//! `tests/corpus/fuzz-regressions/<target>/`, run through that target's
//! property (`fuzz/properties.rs`, the same code the fuzzer runs), so a
//! fixed crash stays fixed without a fuzzer or a nightly toolchain.

use crate::properties;

#[test]
fn every_kept_fuzz_failure_now_passes_its_targets_property() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/fuzz-regressions");
    let mut ran = 0;
    for target in std::fs::read_dir(&dir).unwrap() {
        let target = target.unwrap().path();
        let name = target.file_name().unwrap().to_str().unwrap().to_string();
        let property = properties::by_name(&name)
            .unwrap_or_else(|| panic!("{name}: no fuzz target of that name"));
        for input in std::fs::read_dir(&target).unwrap() {
            let input = input.unwrap().path();
            if input.extension().is_some_and(|e| e == "md") {
                continue;
            }
            let bytes = std::fs::read(&input).unwrap();
            let outcome = std::panic::catch_unwind(|| property(&bytes));
            assert!(
                outcome.is_ok(),
                "{}: the property fails again",
                input.display()
            );
            ran += 1;
        }
    }
    assert!(ran >= 1);
}

#[test]
fn every_fuzz_target_has_its_property() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/fuzz_targets");
    for f in std::fs::read_dir(dir).unwrap() {
        let path = f.unwrap().path();
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        assert!(
            properties::by_name(&name).is_some(),
            "{name} is not in properties::by_name"
        );
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.contains(&format!("properties::{name}(")),
            "{name} does not call its property"
        );
    }
}
