//! What a kind's `plan` works with: the [`Planner`], which records
//! problems with their manifest positions and declares inputs (files and
//! globs), and the checks of names that become file names. Below the kinds
//! and above paths: it knows no kind.

use super::job::Glob;
use super::manifest::{At, Pos};
use super::names::glob_matches;
use super::paths::{RelPath, Resolver};

/// A problem with a manifest: which file, where, what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The manifest, relative to the project root.
    pub file: String,
    pub pos: Pos,
    pub message: String,
    /// The manifest's line at `pos` (at most `plan::QUOTED_LINE_CHARS`
    /// characters), for a snippet under the message; set by `plan::quote`.
    pub line: Option<String>,
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

/// Longest job id: ids name output files, and 128 bytes leaves room for
/// the folder and extension within every file system's name limit.
pub const MAX_ID_BYTES: usize = 128;

/// Most files one glob may match.
pub const MAX_GLOB_MATCHES: usize = 100_000;

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

    /// A planner for the manifest `file`, its problems going to
    /// `problems`.
    pub(super) fn new<'a>(
        resolver: &'a Resolver,
        file: &'a str,
        problems: &'a mut Vec<Diagnostic>,
    ) -> Planner<'a> {
        Planner {
            resolver,
            file,
            entry: Pos::default(),
            problems,
            failed: false,
            inputs: Vec::new(),
            globs: Vec::new(),
        }
    }

    /// The entry just planned, when it had no problem: its manifest, its
    /// position, and the inputs and globs it declared.
    pub(super) fn finish_entry(&mut self) -> Option<Finished> {
        if self.failed {
            return None;
        }
        Some(Finished {
            manifest: self.file.to_string(),
            pos: self.entry,
            inputs: std::mem::take(&mut self.inputs),
            globs: std::mem::take(&mut self.globs),
        })
    }
}

/// An entry planned without a problem ([`Planner::finish_entry`]).
pub(super) struct Finished {
    pub manifest: String,
    pub pos: Pos,
    pub inputs: Vec<RelPath>,
    pub globs: Vec<Glob>,
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

#[cfg(test)]
mod tests {
    use super::*;

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
