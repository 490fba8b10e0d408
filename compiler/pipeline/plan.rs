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

use super::job::{Glob, Job, Outputs};
use super::kinds::{self, Spec};
use super::manifest::{self, At, Pos};
use super::paths::{RelPath, Resolver};

/// A problem with a manifest: which file, where, what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The manifest, relative to the project root.
    pub file: String,
    pub pos: Pos,
    pub message: String,
    /// The manifest's line at `pos` (at most [`QUOTED_LINE_CHARS`]
    /// characters), for a snippet under the message; set by [`quote`].
    pub line: Option<String>,
}

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

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.pos.line == 0 {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(
                f,
                "{}:{}:{}: {}",
                self.file, self.pos.line, self.pos.column, self.message
            )
        }
    }
}

/// A manifest's text and its path relative to the root.
pub struct ManifestText {
    pub file: String,
    pub text: String,
}

/// Longest job id: ids name output files, and 128 bytes leaves room for
/// the folder and extension within every file system's name limit.
pub const MAX_ID_BYTES: usize = 128;

/// Most files one glob may match.
pub const MAX_GLOB_MATCHES: usize = 100_000;

/// Parses and checks every manifest; the jobs in build order, or every
/// problem found.
pub fn plan(resolver: &Resolver, manifests: &[ManifestText]) -> Result<Vec<Job>, Vec<Diagnostic>> {
    let mut jobs = Vec::new();
    let mut problems = Vec::new();
    for m in manifests {
        match manifest::parse(&m.text) {
            Ok(sections) => {
                let mut planner = Planner {
                    resolver,
                    file: &m.file,
                    entry: Pos::default(),
                    problems: &mut problems,
                    failed: false,
                    inputs: Vec::new(),
                    globs: Vec::new(),
                };
                kinds::plan_sections(sections, &mut planner, &mut |p, id, outputs, spec| {
                    if let Some(job) = p.finish_entry(id, outputs, spec) {
                        jobs.push(job);
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

/// What a kind's `plan` works with: problems recorded with their position
/// (0:0, a setting left out, means the entry), inputs declared.
pub struct Planner<'a> {
    resolver: &'a Resolver,
    file: &'a str,
    /// The entry being planned.
    entry: Pos,
    problems: &'a mut Vec<Diagnostic>,
    /// A problem was found in this entry.
    failed: bool,
    inputs: Vec<RelPath>,
    globs: Vec<Glob>,
}

impl Planner<'_> {
    /// Starts planning the entry at `pos`.
    pub fn start_entry(&mut self, pos: Pos) {
        self.entry = pos;
        self.failed = false;
        self.inputs.clear();
        self.globs.clear();
    }

    /// Records a problem with the setting written at `pos`.
    pub fn fail(&mut self, pos: Pos, message: impl Into<String>) {
        self.failed = true;
        self.problems.push(Diagnostic {
            file: self.file.to_string(),
            pos: pos.or_entry(self.entry),
            message: message.into(),
            line: None,
        });
    }

    /// Checks a job id: it names output files, so letters, digits, `-`,
    /// `_`, `.`; not starting with `.`; at most [`MAX_ID_BYTES`] bytes.
    pub fn check_id(&mut self, id: &At<String>) {
        if let Err(e) = check_id(&id.value) {
            self.fail(id.pos, e);
        }
    }

    /// Declares the input file the setting `path` names (`what` is the
    /// setting's name, for messages): a regular file under the root. Its
    /// path, if it is one.
    pub fn input(&mut self, path: &At<String>, what: &str) -> Option<RelPath> {
        let found = RelPath::parse(&path.value).and_then(|p| match self.resolver.resolve(&p) {
            Ok((_, stat)) if stat.is_file => Ok(p),
            Ok(_) => Err(format!("{p} is not a file")),
            Err(e) => Err(e),
        });
        match found {
            Ok(p) => {
                if !self.inputs.contains(&p) {
                    self.inputs.push(p.clone());
                }
                Some(p)
            }
            Err(e) => {
                self.fail(path.pos, format!("{what} {e}"));
                None
            }
        }
    }

    /// Declares every file the glob `pattern` matches (`*` and `?` in its
    /// last part only), in sorted byte order. The matches go into the
    /// job's key, so a new matching file dirties the job. An error if it
    /// matches nothing.
    pub fn glob(&mut self, pattern: &At<String>, what: &str) -> Option<Vec<RelPath>> {
        match expand_glob(self.resolver, &pattern.value) {
            Ok(matches) if matches.is_empty() => {
                self.fail(
                    pattern.pos,
                    format!("{what} {:?} matches no file", pattern.value),
                );
                None
            }
            Ok(matches) => {
                for m in &matches {
                    if !self.inputs.contains(m) {
                        self.inputs.push(m.clone());
                    }
                }
                self.globs.push(Glob {
                    pattern: pattern.value.clone(),
                    matches: matches.clone(),
                });
                Some(matches)
            }
            Err(e) => {
                self.fail(pattern.pos, format!("{what} {e}"));
                None
            }
        }
    }

    fn finish_entry(&mut self, id: At<String>, outputs: Outputs, spec: Spec) -> Option<Job> {
        if self.failed {
            return None;
        }
        Some(Job {
            id: id.value,
            manifest: self.file.to_string(),
            pos: self.entry,
            outputs,
            inputs: std::mem::take(&mut self.inputs),
            globs: std::mem::take(&mut self.globs),
            spec,
        })
    }
}

/// Job ids become file names: letters, digits, `-`, `_`, `.`; not starting
/// with `.`; at most [`MAX_ID_BYTES`] bytes.
pub fn check_id(id: &str) -> Result<(), String> {
    check_file_name("id", id)
}

/// A name that becomes a file name under a job's output folder (a job id,
/// a style's name), by [`check_id`]'s rule; `what` names it in the error.
pub fn check_file_name(what: &str, name: &str) -> Result<(), String> {
    let ok_chars = name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    if name.is_empty() || name.len() > MAX_ID_BYTES || !ok_chars || name.starts_with('.') {
        return Err(format!(
            "{what} {name:?} must be 1 to {MAX_ID_BYTES} letters, digits, '-', '_' or '.', not starting with '.' (it names the output file)"
        ));
    }
    Ok(())
}

/// The regular files under the root that `pattern` matches, sorted by
/// their bytes. The folder part is literal; the last part may hold `*`
/// (any run of characters) and `?` (one character), and matches no name
/// starting with `.` unless it does too.
pub fn expand_glob(resolver: &Resolver, pattern: &str) -> Result<Vec<RelPath>, String> {
    let checked = RelPath::parse(pattern)?;
    let (dir, name) = checked
        .as_str()
        .rsplit_once('/')
        .unwrap_or(("", checked.as_str()));
    if dir.contains(['*', '?']) {
        return Err(format!(
            "{pattern:?}: '*' and '?' may only appear in the file name, not in a folder"
        ));
    }
    let mut matches = Vec::new();
    for entry in resolver.list_dir(dir)? {
        if !glob_matches(name.as_bytes(), entry.as_bytes()) {
            continue;
        }
        let rel = RelPath::parse(&if dir.is_empty() {
            entry
        } else {
            format!("{dir}/{entry}")
        })?;
        // A match kiln may not read (a link out of the root, a dangling
        // one) is an error, not a file quietly left out of the job.
        let (_, stat) = resolver
            .resolve(&rel)
            .map_err(|e| format!("{pattern:?} matches a file kiln may not read: {e}"))?;
        if stat.is_file {
            if matches.len() == MAX_GLOB_MATCHES {
                return Err(format!(
                    "{pattern:?} matches more than {MAX_GLOB_MATCHES} files"
                ));
            }
            matches.push(rel);
        }
    }
    Ok(matches)
}

/// Whether `name` matches the glob `pattern` (`*`, `?`, bytes otherwise).
/// Linear in practice: the classic greedy match with one backtrack point.
pub fn glob_matches(pattern: &[u8], name: &[u8]) -> bool {
    if name.first() == Some(&b'.') && pattern.first() != Some(&b'.') {
        return false;
    }
    let (mut p, mut n) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        match pattern.get(p) {
            Some(b'*') => {
                star = Some((p, n));
                p += 1;
            }
            Some(&c) if c == b'?' || c == name[n] => {
                p += 1;
                n += 1;
            }
            _ => match star {
                Some((sp, sn)) => {
                    p = sp + 1;
                    n = sn + 1;
                    star = Some((sp, sn + 1));
                }
                None => return false,
            },
        }
    }
    pattern[p.min(pattern.len())..].iter().all(|&c| c == b'*')
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
        let sections = manifest::parse(
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

    #[test]
    fn globs_match_like_a_shell() {
        let m = |p: &str, n: &str| glob_matches(p.as_bytes(), n.as_bytes());
        assert!(m("debris-*.cgeo", "debris-01.cgeo"));
        assert!(m("debris-*.cgeo", "debris-.cgeo"));
        assert!(!m("debris-*.cgeo", "debris-01.cgeo.bak"));
        assert!(m("*", "a"));
        assert!(!m("*", ".hidden"));
        assert!(m(".*", ".hidden"));
        assert!(m("a?c", "abc"));
        assert!(!m("a?c", "ac"));
        assert!(m("*a*b*", "xxaxxbxx"));
        assert!(!m("*a*b", "xxaxxbxxa"));
        assert!(m("exact.bin", "exact.bin"));
        assert!(!m("exact.bin", "exact.bi"));
        assert!(m("**", "ab"));
    }

    #[test]
    fn a_glob_expands_to_the_matching_files_in_byte_order() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir(root.join("seq")).unwrap();
        for name in ["b-2.cgeo", "b-10.cgeo", "B-1.cgeo", "c.cgeo", ".b-0.cgeo"] {
            std::fs::write(root.join("seq").join(name), b"x").unwrap();
        }
        std::fs::create_dir(root.join("seq/b-dir.cgeo")).unwrap();
        let resolver = Resolver::new(&root);
        let found = expand_glob(&resolver, "seq/b-*.cgeo").unwrap();
        let names: Vec<&str> = found.iter().map(RelPath::as_str).collect();
        assert_eq!(names, ["seq/b-10.cgeo", "seq/b-2.cgeo"]);
        assert!(expand_glob(&resolver, "s*/b.cgeo").is_err());
        assert!(expand_glob(&resolver, "none/*.cgeo").is_err());
        assert!(expand_glob(&resolver, "seq/*.none").unwrap().is_empty());
    }
}
