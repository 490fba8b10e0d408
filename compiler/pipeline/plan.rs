//! The plan: every manifest entry checked and turned into a job, in a fixed
//! order (manifests by path, then kinds in the order `kinds` lists them,
//! then entries in file order).
//!
//! Everything that can be checked without running a job is checked here,
//! and every problem is reported (not just the first) with its manifest
//! line and column. This module knows no job kind: each kind's `plan`
//! checks its own settings through a [`Planner`], which declares inputs
//! and records problems; the checks across jobs (unique ids within a kind,
//! unique output paths across all manifests) are here.

use std::collections::BTreeMap;

use super::job::{Glob, Outputs};
use super::kinds::{self, Spec};
use super::manifest::Pos;
use super::paths::{RelPath, Resolver};
pub use super::planner::Diagnostic;
use super::planner::Planner;

/// The longest manifest line a diagnostic quotes, in characters.
pub const QUOTED_LINE_CHARS: usize = 240;

/// Sets each diagnostic's `line` from the manifest it names (when the
/// position has a line and the line a column within the quoted part).
pub fn quote<'d>(diags: impl IntoIterator<Item = &'d mut Diagnostic>, manifests: &[ManifestText]) {
    for d in diags {
        let Some(m) = manifests.iter().find(|m| m.file == d.file) else {
            continue;
        };
        let Some(index) = (d.pos.line as usize).checked_sub(1) else {
            continue;
        };
        let Some(text) = m.text.lines().nth(index) else {
            continue;
        };
        let line: String = text.chars().take(QUOTED_LINE_CHARS).collect();
        if (d.pos.column as usize) <= line.chars().count() + 1 {
            d.line = Some(line);
        }
    }
}

/// One job: what a manifest entry says to build, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Job {
    /// Unique within its kind.
    pub id: String,
    /// The manifest (relative to the root) and the entry's position.
    pub manifest: String,
    pub pos: Pos,
    /// The files the run must write.
    pub outputs: Outputs,
    /// The input files planning declared (the manifest names them), glob
    /// matches included, in the order declared. Part of the settings, so a
    /// new file matching a glob changes the job's key.
    pub inputs: Vec<RelPath>,
    /// The globs among the declared inputs, each with what it matched.
    pub globs: Vec<Glob>,
    /// The kind's own settings.
    pub spec: Spec,
}

impl Job {
    pub fn kind(&self) -> &'static str {
        self.spec.kind()
    }

    /// The kind's version: bumped whenever its output bytes change.
    pub fn kind_version(&self) -> u32 {
        self.spec.version()
    }

    /// Every setting by name, in canonical text, in a fixed order: the
    /// kind's entry as serialized (every field: serde leaves none out),
    /// then the declared outputs and inputs.
    pub fn settings(&self) -> Vec<(String, String)> {
        let mut settings = match self.spec.settings() {
            serde_json::Value::Object(fields) => fields
                .into_iter()
                .map(|(name, value)| (name, value.to_string()))
                .collect(),
            other => vec![("settings".to_string(), other.to_string())],
        };
        let text = |v: serde_json::Result<String>| v.expect("paths serialize");
        settings.push(("outputs".into(), text(serde_json::to_string(&self.outputs))));
        settings.push(("inputs".into(), text(serde_json::to_string(&self.inputs))));
        settings
    }

    /// Where an error found while running points: `pos`, or the entry when
    /// the manifest did not write that setting.
    pub fn blame(&self, pos: Pos) -> Pos {
        pos.or_entry(self.pos)
    }
}

/// A manifest's text and its path relative to the root.
pub struct ManifestText {
    pub file: String,
    pub text: String,
}

/// Parses and checks every manifest; the jobs in build order, or every
/// problem found.
pub fn plan<'m>(
    resolver: &Resolver,
    manifests: impl IntoIterator<Item = &'m ManifestText>,
) -> Result<Vec<Job>, Vec<Diagnostic>> {
    let mut jobs = Vec::new();
    let mut problems = Vec::new();
    for m in manifests {
        match kinds::parse_manifest(&m.text) {
            Ok(sections) => {
                let mut planner = Planner::new(resolver, &m.file, &mut problems);
                kinds::plan_sections(sections, &mut planner, &mut |p, id, outputs, spec| {
                    if let Some(f) = p.finish_entry() {
                        jobs.push(Job {
                            id: id.value,
                            manifest: f.manifest,
                            pos: f.pos,
                            outputs,
                            inputs: f.inputs,
                            globs: f.globs,
                            spec,
                        });
                    }
                });
            }
            Err(e) => problems.push(Diagnostic {
                file: m.file.clone(),
                pos: e.pos,
                message: e.message,
                line: None,
            }),
        }
    }
    check_unique(&jobs, &mut problems);
    if problems.is_empty() {
        Ok(jobs)
    } else {
        Err(problems)
    }
}

/// Ids are unique within a kind (the journal is keyed by kind and id), and
/// output paths across every manifest (two jobs may not write one file).
fn check_unique(jobs: &[Job], problems: &mut Vec<Diagnostic>) {
    let place = |job: &Job| format!("{}:{}:{}", job.manifest, job.pos.line, job.pos.column);
    let mut ids: BTreeMap<(&str, &str), &Job> = BTreeMap::new();
    let mut outputs: BTreeMap<&RelPath, &Job> = BTreeMap::new();
    for job in jobs {
        if let Some(prev) = ids.get(&(job.kind(), job.id.as_str())) {
            problems.push(Diagnostic {
                file: job.manifest.clone(),
                pos: job.pos,
                message: format!(
                    "job id {:?} is already used by the {} at {}; ids must be unique within a kind",
                    job.id,
                    prev.kind(),
                    place(prev)
                ),
                line: None,
            });
            continue;
        }
        ids.insert((job.kind(), &job.id), job);
        for file in &job.outputs.files {
            if let Some(prev) = outputs.get(file) {
                problems.push(Diagnostic {
                    file: job.manifest.clone(),
                    pos: job.pos,
                    message: format!(
                        "output {file} is also written by job {:?} at {}; two jobs may not write one file",
                        prev.id,
                        place(prev)
                    ),
                    line: None,
                });
            } else {
                outputs.insert(file, job);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_jobs_writing_one_file_are_refused_with_both_positions() {
        let sections = kinds::parse_manifest(
            "pose_caches:\n  - id: a\n    source: s.glb\n    animation: 0\n    rate_hz: 1\n  - id: b\n    source: s.glb\n    animation: 0\n    rate_hz: 1\n",
        )
        .unwrap();
        let mut jobs = Vec::new();
        for (i, entry) in sections.pose_caches.into_iter().enumerate() {
            jobs.push(Job {
                id: entry.value.id.value.clone(),
                manifest: format!("m{i}.yaml"),
                pos: entry.pos,
                // Both claim one path (no kind does this yet: the check
                // stands for the kinds that will).
                outputs: Outputs::one(RelPath::parse("shared/x.bin").unwrap()),
                inputs: vec![],
                globs: vec![],
                spec: Spec::PoseCache(Box::new(entry.value)),
            });
        }
        let mut problems = Vec::new();
        check_unique(&jobs, &mut problems);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].file, "m1.yaml");
        assert_eq!(
            problems[0].message,
            "output shared/x.bin is also written by job \"a\" at m0.yaml:2:5; two jobs may not write one file"
        );
    }
}
