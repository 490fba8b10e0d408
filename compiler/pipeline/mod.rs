//! The build engine: manifest -> plan -> jobs -> cache.
//!
//! The only part of kiln that knows paths, threads and the cache. Flow:
//! `manifest` (YAML with positions) -> `plan` (checked jobs, in a fixed
//! order) -> `engine` (freshness via `fingerprint` and `state`, parallel
//! runs of the `jobs` recipes, atomic writes, the journal).

pub mod engine;
pub mod files;
pub mod fingerprint;
pub mod input;
pub mod jobs;
pub mod manifest;
pub mod out_dir;
pub mod paths;
pub mod plan;
pub mod state;
pub mod wire;

pub use engine::{
    BuildError, CleanReport, Event, JobReport, Options, Report, Status, build, clean,
};
pub use plan::Diagnostic;
