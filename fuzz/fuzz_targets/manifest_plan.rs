//! Fuzz manifests: `pipeline::plan::plan` on arbitrary text (YAML parsing
//! with kiln's budgets, every kind's entry checks, paths resolved against
//! this repository, whose `sources/` the demo manifests name). Never a
//! panic; a diagnostic points inside the text (line 0 means the whole
//! file); every planned job's outputs and inputs are relative paths
//! without `..`, and its inputs exist under the root.
//!
//! Run: `bash fuzz/run.sh SECONDS manifest_plan` (after `bash fuzz/seed.sh`); a crash
//! found is kept in `tests/corpus/fuzz-regressions/manifest_plan/`.

#![no_main]

#[path = "../properties.rs"]
mod properties;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| properties::manifest_plan(bytes));
