//! Which planned jobs a build runs. A build always plans every manifest (so
//! it knows every job, and never removes the outputs of one that still
//! exists); the selection says which of them run: the jobs of the manifests
//! named on the command line, and the jobs the targets name. Nothing named:
//! every job.
//!
//! A target is `ID`, `KIND:ID` (the kind as the job reports it, `pose_cache`,
//! or as its manifest section, `pose_caches`), and either part may be a
//! glob (`*`, `?`). A `characters` job's id is its level's name.

use super::kinds;
use super::names::{glob_matches, nearest, or_list};

/// What a build was asked to run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// Manifests named on the command line, as root-relative paths.
    pub manifests: Vec<String>,
    /// Targets named on the command line.
    pub targets: Vec<String>,
}

impl Selection {
    /// Whether nothing was named: every job runs.
    pub fn is_all(&self) -> bool {
        self.manifests.is_empty() && self.targets.is_empty()
    }

    /// Whether the job `kind`/`id`, planned from `manifest`, is selected.
    pub fn selects(&self, kind: &str, id: &str, manifest: &str) -> bool {
        self.is_all()
            || self.manifests.iter().any(|m| m == manifest)
            || self.targets.iter().any(|t| target_matches(t, kind, id))
    }

    /// Checks that every target names at least one of `jobs` (kind, id);
    /// the error lists, for each that does not, the nearest names.
    pub fn check_targets<'a>(
        &self,
        jobs: impl Iterator<Item = (&'a str, &'a str)> + Clone,
    ) -> Result<(), String> {
        let mut problems = Vec::new();
        for t in &self.targets {
            if jobs.clone().any(|(kind, id)| target_matches(t, kind, id)) {
                continue;
            }
            let names: Vec<String> = jobs
                .clone()
                .flat_map(|(kind, id)| [id.to_string(), format!("{kind}:{id}")])
                .collect();
            let near = nearest(t, names.iter().map(String::as_str));
            problems.push(if near.is_empty() {
                format!("no job is named {t:?}")
            } else {
                format!("no job is named {t:?}; did you mean {}?", or_list(&near))
            });
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems.join("; "))
        }
    }
}

/// Whether `target` names the job `kind`/`id`.
fn target_matches(target: &str, kind: &str, id: &str) -> bool {
    let matches = |pattern: &str, name: &str| glob_matches(pattern.as_bytes(), name.as_bytes());
    match target.split_once(':') {
        Some((k, i)) => {
            let kind_matches = matches(k, kind)
                || kinds::ALL
                    .iter()
                    .any(|(section, of)| *of == kind && matches(k, section));
            kind_matches && matches(i, id)
        }
        None => matches(target, id),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sel(targets: &[&str]) -> Selection {
        Selection {
            manifests: vec![],
            targets: targets.iter().map(|t| t.to_string()).collect(),
        }
    }

    #[test]
    fn targets_match_by_id_kind_section_and_glob() {
        let s = sel(&["fox-run"]);
        assert!(s.selects("pose_cache", "fox-run", "m.yaml"));
        assert!(!s.selects("pose_cache", "fox-walk", "m.yaml"));
        assert!(sel(&["pose_cache:fox-run"]).selects("pose_cache", "fox-run", "m"));
        assert!(sel(&["pose_caches:fox-run"]).selects("pose_cache", "fox-run", "m"));
        assert!(!sel(&["style:fox-run"]).selects("pose_cache", "fox-run", "m"));
        assert!(!sel(&["styles:fox-run"]).selects("pose_cache", "fox-run", "m"));
        assert!(sel(&["fox-*"]).selects("pose_cache", "fox-walk", "m"));
        assert!(sel(&["*:forest"]).selects("characters", "forest", "m"));
        assert!(!sel(&["fox-?"]).selects("pose_cache", "fox-run", "m"));
        assert!(Selection::default().selects("style", "x", "m"));
        let by_manifest = Selection {
            manifests: vec!["manifests/a.yaml".into()],
            targets: vec![],
        };
        assert!(by_manifest.selects("style", "x", "manifests/a.yaml"));
        assert!(!by_manifest.selects("style", "x", "manifests/b.yaml"));
    }

    #[test]
    fn an_unknown_target_lists_the_near_names() {
        let jobs = [("pose_cache", "fox-run"), ("characters", "forest")];
        let e = sel(&["fox-rnu", "forest", "zzz"])
            .check_targets(jobs.iter().copied())
            .unwrap_err();
        assert_eq!(
            e,
            "no job is named \"fox-rnu\"; did you mean \"fox-run\"?; no job is named \"zzz\""
        );
        assert!(sel(&["fox-*"]).check_targets(jobs.iter().copied()).is_ok());
    }
}
