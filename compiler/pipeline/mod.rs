//! The pipeline: manifest -> plan -> jobs -> cache.
//!
//! The only part of kiln that knows paths, threads and the cache. Flow:
//! `manifest` (YAML with positions) -> `plan` (checked jobs, in a fixed
//! order, each kind planning its own entries in `kinds`) -> `engine`
//! (freshness via `fingerprint` and `state`, parallel runs through `job`'s
//! `JobIo`, output sets committed, the journal).

pub mod engine;
pub mod files;
pub mod fingerprint;
pub mod input;
pub mod job;
pub mod kinds;
pub mod manifest;
pub mod memo;
pub mod names;
pub mod out_dir;
pub mod output_hash;
pub mod paths;
pub mod plan;
pub mod planner;
pub mod remote;
pub mod schema;
pub mod select;
pub mod serve;
pub mod shared_cache;
pub mod sources;
pub mod state;
pub mod watch;
pub mod watcher;

pub use engine::{
    BuildError, CleanReport, DryJob, Event, JobReport, Options, Report, Status, build, clean,
    dry_run, watch_index,
};
pub use plan::Diagnostic;
