//! kiln: a manifest-driven, incremental, deterministic asset compiler.
//!
//! Dependencies point one way (see `ARCHITECTURE.md`):
//! `formats` and `model` <- `import` and `bake` <- `describe` <- `pipeline`
//! <- `cli`;
//! `memory` (fallible allocation) is a leaf every layer may call.

pub mod bake;
pub mod cli;
pub mod describe;
pub mod formats;
pub mod import;
pub mod memory;
pub mod model;
pub mod pipeline;

/// kiln's version; part of every cache key and of every output's origin.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
