//! Fuzz manifests: `pipeline::plan::plan` on arbitrary text (YAML parsing
//! with kiln's budgets, every kind's entry checks, paths resolved against
//! this repository, whose `sources/` the demo manifests name). Never a
//! panic; a diagnostic points inside the text (line 0 means the whole
//! file); every planned job's outputs and inputs are relative paths
//! without `..`, and its inputs exist under the root.
//!
//! Run: `bash fuzz/run.sh manifest_plan 600` (seeds: `bash fuzz/seed.sh`,
//! the demo's and the tests' manifests).

#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use kiln::pipeline::paths::Resolver;
use kiln::pipeline::plan::{self, ManifestText};
use libfuzzer_sys::fuzz_target;

fn root() -> &'static PathBuf {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        std::fs::canonicalize(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).unwrap()
    })
}

fuzz_target!(|bytes: &[u8]| {
    let Ok(text) = std::str::from_utf8(bytes) else { return };
    let resolver = Resolver::new(root());
    let manifests = [ManifestText {
        file: "manifests/fuzz.yaml".into(),
        text: text.to_string(),
    }];
    match plan::plan(&resolver, &manifests) {
        Ok(jobs) => {
            for job in &jobs {
                for p in job.outputs.files.iter().chain(&job.inputs) {
                    let p = p.as_str();
                    assert!(!p.starts_with('/') && !p.split('/').any(|c| c == ".."), "{p}");
                }
                for p in &job.inputs {
                    assert!(root().join(p.as_str()).is_file(), "{p}");
                }
            }
        }
        Err(problems) => {
            let lines = text.lines().count().max(1);
            for d in &problems {
                assert!(d.pos.line as usize <= lines + 1, "{d} beyond {lines} lines");
            }
        }
    }
});
