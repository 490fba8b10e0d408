//! The full tier's stress binary (not built by `cargo test`; `bash
//! tests/full.sh` runs it): the hostile-input sweeps, SIGKILLs at random
//! points, full disks and read-only folders in a user namespace, and the
//! file-system boundary under a memory cap. It needs `unshare`, `setpriv`,
//! `prlimit` and `mkfifo`, and user namespaces.

#[allow(dead_code)]
#[path = "../alloc_support/mod.rs"]
mod alloc_support;
#[path = "../cli_support/mod.rs"]
mod cli_support;
#[allow(dead_code)]
#[path = "../gltf_support/mod.rs"]
mod gltf_support;
#[allow(dead_code)]
#[path = "../guard_support/mod.rs"]
mod guard_support;
#[path = "../../examples/synth/mod.rs"]
mod synth;

#[global_allocator]
static ALLOC: alloc_support::Tracking = alloc_support::Tracking;

mod boundary;
mod budgets;
mod crash;
mod faults;
mod hostile;
mod memory;
