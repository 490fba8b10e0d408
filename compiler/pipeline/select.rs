//! Which planned jobs a build runs. A build always plans every manifest (so
//! it knows every job, and never removes the outputs of one that still
//! exists); the selection says which of them run: the jobs of the manifests
//! named on the command line, and the jobs the targets name. Nothing named:
//! every job.
//!
//! A target is `ID`, `KIND:ID` (the kind as the job reports it, `pose_cache`,
//! or as its manifest section, `pose_caches`), and either part may be a
//! glob (`*`, `?`). A `characters` job's id is its level's name.

use super::plan::glob_matches;

/// Manifest sections and the kind of job each entry becomes.
const SECTIONS: [(&str, &str); 5] = [
    ("pose_caches", "pose_cache"),
    ("characters", "characters"),
    ("model_bundles", "model_bundle"),
    ("styles", "style"),
    ("cgeo_sequences", "cgeo_sequence"),
];

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
                || SECTIONS
                    .iter()
                    .any(|(section, of)| *of == kind && matches(k, section));
            kind_matches && matches(i, id)
        }
        None => matches(target, id),
    }
}

/// `a`, `a or b`, `a, b or c`, each quoted.
pub fn or_list(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("{n:?}")).collect();
    match quoted.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// Up to three of `candidates` nearest to `name` by edit distance, nearest
/// first (then in byte order), among those close enough to be a slip: at
/// most a third of the longer name's characters apart, and at most 3.
pub fn nearest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut scored: Vec<(usize, &str)> = candidates
        .filter_map(|c| {
            let d = edit_distance(name, c);
            let longer = name.chars().count().max(c.chars().count());
            (d > 0 && d <= 3 && d * 3 <= longer.max(3)).then_some((d, c))
        })
        .collect();
    scored.sort();
    scored.dedup();
    scored.into_iter().take(3).map(|(_, c)| c).collect()
}

/// Levenshtein distance over characters; names are short (bounded by the
/// manifest's limits), so the two-row table is small.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut row = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let replace = prev[j] + usize::from(ca != cb);
            row[j + 1] = replace.min(prev[j + 1] + 1).min(row[j] + 1);
        }
        std::mem::swap(&mut prev, &mut row);
    }
    prev[b.len()]
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

    #[test]
    fn nearest_names_are_slips_nearest_first() {
        let names = ["rate_hz", "rate", "shape", "source", "sources"];
        assert_eq!(nearest("rate_zh", names.into_iter()), ["rate_hz"]);
        assert_eq!(nearest("sourc", names.into_iter()), ["source", "sources"]);
        assert_eq!(nearest("xyzzy", names.into_iter()), Vec::<&str>::new());
        // The name itself is not a slip.
        assert_eq!(nearest("rate_hz", names.into_iter()), Vec::<&str>::new());
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        // Deletions, from the longer side (two mutants of the table missed).
        assert_eq!(edit_distance("abc", ""), 3);
        assert_eq!(edit_distance("ab", "a"), 1);
        assert_eq!(edit_distance("a", "ab"), 1);
        assert_eq!(or_list(&["a", "b", "c"]), "\"a\", \"b\" or \"c\"");
    }
}
