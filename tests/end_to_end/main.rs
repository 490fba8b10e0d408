//! The fast tier's end-to-end core: the `kiln` binary driven like a user
//! drives it (clean build, no-op, `--explain`, golden hashes, `-j 1` equals
//! `-j 2`, the lock), the engine, job keys, the layering arrows, the manifest
//! docs and limits, and every input a fuzz target ever failed on.

#[allow(dead_code)]
#[path = "../alloc_support/mod.rs"]
mod alloc_support;
#[path = "../cli_support/mod.rs"]
mod cli_support;
#[allow(dead_code)]
#[path = "../guard_support/mod.rs"]
mod guard_support;
#[path = "../json_support/mod.rs"]
mod json_support;
#[path = "../../fuzz/properties.rs"]
mod properties;
#[path = "../../examples/synth/mod.rs"]
mod synth;

#[global_allocator]
static ALLOC: alloc_support::Tracking = alloc_support::Tracking;

mod cli;
mod doc_examples;
mod engine;
mod fuzz_regressions;
mod interrupts;
mod json_docs;
mod keys;
mod layering;
mod manifest_docs;
mod manifest_limits;
mod ownership;
mod remote;
mod selection;
mod view;
mod watch;
