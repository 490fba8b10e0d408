//! Finding and reading the manifests a build plans.

use std::fs;
use std::path::{Path, PathBuf};

use crate::pipeline::input;
use crate::pipeline::manifest::MAX_MANIFEST_BYTES;
use crate::pipeline::paths::{self, RelPath, Resolver};
use crate::pipeline::plan::{Diagnostic, ManifestText};

use super::BuildError;

/// Every manifest a build plans: each `ROOT/manifests/*.yaml`, then each
/// one named on the command line that is not among them (regular files
/// under the root, symlinks resolved, of at most `MAX_MANIFEST_BYTES`);
/// and the named ones, as root-relative paths. A manifest named on the
/// command line that cannot be read is a usage error; one found in
/// `manifests/` is a manifest problem. With manifests named, a project
/// without a `manifests/` folder is fine.
pub(super) fn read_manifests(
    resolver: &Resolver,
    given: &[PathBuf],
) -> Result<(Vec<ManifestText>, Vec<String>), BuildError> {
    let listed = match list_manifests(resolver) {
        Ok(listed) => listed,
        Err(_) if !given.is_empty() && resolver.real_dir(&manifests_dir()).is_err() => Vec::new(),
        Err(e) => return Err(e),
    };
    let mut texts = listed
        .iter()
        .map(|rel| {
            read_manifest(resolver, rel).map_err(|e| match e {
                ReadProblem::Unreadable(message) => BuildError::Manifests(vec![Diagnostic {
                    file: rel.to_string(),
                    pos: Default::default(),
                    message,
                    line: None,
                }]),
                ReadProblem::Content(d) => BuildError::Manifests(vec![d]),
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut named = Vec::new();
    for path in given {
        let rel = manifest_under_root(resolver.root(), path)?;
        if !listed.contains(&rel) && !named.contains(&rel.to_string()) {
            texts.push(read_manifest(resolver, &rel).map_err(|e| match e {
                ReadProblem::Unreadable(message) => {
                    BuildError::Usage(format!("manifest {message}"))
                }
                ReadProblem::Content(d) => BuildError::Manifests(vec![d]),
            })?);
        }
        if !named.contains(&rel.to_string()) {
            named.push(rel.to_string());
        }
    }
    Ok((texts, named))
}

fn manifests_dir() -> RelPath {
    RelPath::parse("manifests").expect("a plain name")
}

/// Every `manifests/*.yaml` (and `*.yml`), sorted.
fn list_manifests(resolver: &Resolver) -> Result<Vec<RelPath>, BuildError> {
    let dir = manifests_dir();
    let hint = "pass manifest files or create manifests/*.yaml";
    let real = resolver
        .real_dir(&dir)
        .map_err(|e| BuildError::Usage(format!("{e}; {hint}")))?;
    let entries = fs::read_dir(&real)
        .map_err(|e| BuildError::Usage(format!("manifests: {}; {hint}", paths::describe_io(&e))))?;
    let mut files = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let is_yaml = matches!(name.rsplit_once('.'), Some((_, "yaml" | "yml")));
        if is_yaml
            && !name.starts_with('.')
            && let Ok(rel) = RelPath::parse(&format!("{dir}/{name}"))
        {
            files.push(rel);
        }
    }
    files.sort();
    if files.is_empty() {
        return Err(BuildError::Usage(format!(
            "no manifests in manifests/; {hint}"
        )));
    }
    Ok(files)
}

/// A manifest named on the command line (relative to the current folder),
/// as a path relative to the root; an error if it is outside the root.
fn manifest_under_root(root: &Path, path: &Path) -> Result<RelPath, BuildError> {
    let real = path.canonicalize().map_err(|e| {
        BuildError::Usage(format!(
            "manifest {}: {}",
            path.display(),
            paths::describe_io(&e)
        ))
    })?;
    let outside = || {
        BuildError::Usage(format!(
            "manifest {} is outside the project root {}; kiln reads manifests only from under the root (pass --root)",
            path.display(),
            root.display()
        ))
    };
    let rel = real.strip_prefix(root).map_err(|_| outside())?;
    let text: Vec<&str> = rel
        .components()
        .map(|c| c.as_os_str().to_str())
        .collect::<Option<_>>()
        .ok_or_else(|| {
            BuildError::Usage(format!(
                "manifest {}: the path is not UTF-8",
                path.display()
            ))
        })?;
    RelPath::parse(&text.join("/")).map_err(|_| outside())
}

/// Why a manifest was not read.
enum ReadProblem {
    /// It could not be read at all (missing, outside the root, a FIFO).
    Unreadable(String),
    /// It was read, and is too large or not text.
    Content(Diagnostic),
}

fn read_manifest(resolver: &Resolver, rel: &RelPath) -> Result<ManifestText, ReadProblem> {
    let content = |message: String| {
        ReadProblem::Content(Diagnostic {
            file: rel.to_string(),
            pos: Default::default(),
            message,
            line: None,
        })
    };
    let (real, _) = resolver.resolve(rel).map_err(ReadProblem::Unreadable)?;
    let read = input::read_regular(&real, MAX_MANIFEST_BYTES).map_err(|e| match e {
        input::ReadError::TooLarge { .. } => content(format!("the manifest {e}")),
        e => ReadProblem::Unreadable(format!("{rel}: {e}")),
    })?;
    let text = String::from_utf8(read.bytes).map_err(|e| {
        content(format!(
            "not UTF-8 text (at byte {})",
            e.utf8_error().valid_up_to()
        ))
    })?;
    Ok(ManifestText {
        file: rel.to_string(),
        text,
    })
}
