//! The output folder: where it is, that it is kiln's, its lock, and the
//! folders the outputs go in.

use std::fs;
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

use crate::pipeline::job::Stop;
use crate::pipeline::out_dir::{self, EntryKind, Folder, OutTree};
use crate::pipeline::paths;
use crate::pipeline::plan::Job;
use crate::pipeline::state;

use super::{BuildError, Event};

pub(super) fn canonical_root(root: &Path) -> Result<PathBuf, BuildError> {
    root.canonicalize().map_err(|e| {
        BuildError::Usage(format!(
            "project root {}: {}",
            root.display(),
            paths::describe_io(&e)
        ))
    })
}

/// The output folder as an absolute path with every existing part
/// resolved (`ROOT/out` when not given; relative to the current folder
/// when given).
pub(super) fn resolve_out(root: &Path, given: Option<&Path>) -> Result<PathBuf, BuildError> {
    let path = given.map_or_else(|| root.join("out"), Path::to_path_buf);
    let path = std::path::absolute(&path)
        .map_err(|e| BuildError::Usage(format!("output folder {}: {e}", path.display())))?;
    // Resolve the longest part that exists; the rest is created later.
    let mut existing = path.as_path();
    let mut missing = Vec::new();
    let base = loop {
        match existing.canonicalize() {
            Ok(real) => break real,
            Err(_) => {
                let (Some(parent), Some(name)) = (existing.parent(), existing.file_name()) else {
                    return Err(BuildError::Usage(format!(
                        "output folder {}: no part of it exists",
                        path.display()
                    )));
                };
                missing.push(name.to_os_string());
                existing = parent;
            }
        }
    };
    if path
        .components()
        .rev()
        .take(missing.len())
        .any(|c| !matches!(c, Component::Normal(_)))
    {
        return Err(BuildError::Usage(format!(
            "output folder {}: a part that does not exist yet is '.' or '..'; name the folder plainly",
            path.display()
        )));
    }
    Ok(missing.iter().rev().fold(base, |p, name| p.join(name)))
}

/// The output folder is kiln's alone: it may not be the root or above it,
/// and, when inside the root, its top folder there may hold none of the
/// files the project names (`named`, relative to the root). So `out/` and
/// `build/out/` are fine; `.`, `sources/`, `sources/gen/` and `manifests/`
/// are refused, and `kiln clean` can never reach a project file.
pub fn check_out_dir<'a>(
    root: &Path,
    out: &Path,
    named: impl Iterator<Item = &'a str>,
) -> Result<(), BuildError> {
    let shown = display_base(root, out);
    if root.starts_with(out) {
        return Err(BuildError::Usage(format!(
            "the output folder {} is the project root or a folder above it; kiln needs a folder of its own, such as out/ (pass --out out)",
            out.display()
        )));
    }
    let Ok(inside) = out.strip_prefix(root) else {
        return Ok(()); // outside the root: no project file is there
    };
    let Some(Component::Normal(top)) = inside.components().next() else {
        return Ok(());
    };
    let top = top.to_string_lossy();
    for file in named {
        if let Some((first, _)) = file.split_once('/')
            && first == top
        {
            let place = if inside.components().count() == 1 {
                format!("the output folder {top}/ holds {file}")
            } else {
                format!(
                    "the output folder {} is inside {top}/, which holds {file}",
                    shown.display()
                )
            };
            return Err(BuildError::Usage(format!(
                "{place}, a file of the project; kiln needs a folder of its own, such as out/ (pass --out out)"
            )));
        }
    }
    Ok(())
}

/// The output folder is new, holds nothing but (empty) folders, or kiln
/// made it (it has kiln's state folder): a folder that already holds
/// files kiln did not make is someone else's, and a build would overwrite
/// them (and `clean` could reach them), so it is refused, naming a few.
pub(super) fn check_kilns(out: &Folder) -> Result<(), BuildError> {
    let io = |e: std::io::Error| BuildError::Io(format!("{}: {e}", out.path().display()));
    if out.open_child(state::STATE_DIR).map_err(io)?.is_some() {
        return Ok(());
    }
    let mut found = Vec::new();
    let mut budget = MAX_FOREIGN_LOOK;
    foreign_entries(out, "", &mut found, &mut budget).map_err(io)?;
    if found.is_empty() && budget > 0 {
        return Ok(());
    }
    if found.is_empty() {
        found.push(format!("more than {MAX_FOREIGN_LOOK} folders"));
    }
    Err(BuildError::Usage(format!(
        "the output folder {} already holds what kiln did not make ({}); kiln needs a folder of its own: a new or empty one, or one it built before (such as out/)",
        out.path().display(),
        found.join(", ")
    )))
}

/// How many entries [`check_kilns`] looks through in a folder kiln did not
/// make before it gives up (and refuses it).
const MAX_FOREIGN_LOOK: usize = 10_000;

/// Up to three entries under `folder` that are not folders (files, links,
/// anything else), with what they are; folders are looked into.
fn foreign_entries(
    folder: &Folder,
    prefix: &str,
    found: &mut Vec<String>,
    budget: &mut usize,
) -> std::io::Result<()> {
    for (name, kind) in folder.entries()? {
        if found.len() >= 3 || *budget == 0 {
            return Ok(());
        }
        *budget -= 1;
        let path = format!("{prefix}{name}");
        match kind {
            EntryKind::Folder => {
                if let Some(child) = folder.open_child(&name)? {
                    foreign_entries(&child, &format!("{path}/"), found, budget)?;
                }
            }
            kind => found.push(format!("{path}, {}", out_dir::describe_kind(kind))),
        }
    }
    Ok(())
}

/// The state folder of an existing output folder, if there is one.
pub(super) fn existing_state(out: &Path) -> Option<Folder> {
    Folder::open_out(out)
        .ok()??
        .open_child(state::STATE_DIR)
        .ok()?
}

pub(super) fn create_out_dir(out: &Path) -> Result<Folder, BuildError> {
    Folder::create_out(out)
        .map_err(|e| BuildError::Io(format!("cannot create {}: {e}", out.display())))
}

pub(super) fn state_folder(tree: &OutTree) -> Result<Folder, BuildError> {
    tree.root().create_child(state::STATE_DIR).map_err(|e| {
        BuildError::Io(format!(
            "cannot use {}: {e}",
            tree.root().path().join(state::STATE_DIR).display()
        ))
    })
}

/// `path` relative to `root` when inside it, else as it is.
pub(super) fn display_base(root: &Path, path: &Path) -> PathBuf {
    let abs = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    match abs.strip_prefix(root) {
        Ok(rel) => rel.to_path_buf(),
        Err(_) => path.to_path_buf(),
    }
}

/// Takes the output folder's lock, waiting for another build if needed
/// (and giving up if asked to stop meanwhile). The lock is released when
/// the returned file is dropped (or the process dies).
pub(super) fn lock(
    state_dir: &Folder,
    stop: &Stop,
    on_event: &(dyn Fn(Event) + Sync),
) -> Result<fs::File, BuildError> {
    let path = state_dir.path().join(state::LOCK);
    let file = state_dir
        .open_lock(state::LOCK)
        .map_err(|e| BuildError::Io(format!("cannot open {}: {e}", path.display())))?;
    let mut said = false;
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(file),
            Err(fs::TryLockError::WouldBlock) => {
                if !said {
                    on_event(Event::WaitingForLock(&path));
                    said = true;
                }
                // A blocking lock would not see a stop request (signal
                // handlers restart the call): poll instead.
                if stop.requested().is_some() {
                    return Err(BuildError::Interrupted);
                }
                std::thread::sleep(LOCK_POLL);
            }
            Err(fs::TryLockError::Error(e)) => {
                return Err(BuildError::Io(format!(
                    "cannot lock {}: {e}",
                    path.display()
                )));
            }
        }
    }
}

/// How often a build waiting for another one's lock tries again.
const LOCK_POLL: Duration = Duration::from_millis(20);

/// Creates every folder the jobs write into (once, not per job, each a
/// real folder); with the `state_dir`, removes the temporary files a
/// killed build left in them, in the output folder and in `.kiln/` (the
/// summary path, which passes none, has removed them already, or knows
/// that its own last build left them). Returns the folders it made, which
/// [`remove_unused_new_dirs`] takes back if no output went in.
pub(super) fn prepare_output_dirs(
    tree: &OutTree,
    state_dir: Option<&Folder>,
    jobs: &[Job],
) -> Result<Vec<String>, BuildError> {
    let mut dirs = std::collections::BTreeSet::new();
    for job in jobs {
        for output in &job.outputs.files {
            if let Some((dir, _)) = output.as_str().rsplit_once('/')
                && !dirs.contains(dir)
            {
                dirs.insert(dir.to_string());
            }
        }
    }
    let mut made = std::collections::BTreeSet::new();
    for dir in &dirs {
        for (k, _) in dir.match_indices('/').chain([(dir.len(), "")]) {
            let part = &dir[..k];
            if !made.contains(part) && tree.open_dir(part).ok().flatten().is_none() {
                made.insert(part.to_string());
            }
        }
    }
    for dir in dirs {
        let folder = tree.create_dir(&dir).map_err(|e| {
            BuildError::Io(format!(
                "cannot create {}: {e}",
                tree.root().path().join(&dir).display()
            ))
        })?;
        if state_dir.is_some() {
            folder.remove_stale_temps();
        }
    }
    if let Some(state_dir) = state_dir {
        tree.root().remove_stale_temps();
        state_dir.remove_stale_temps();
    }
    Ok(made.into_iter().collect())
}

/// Removes the folders this build made that are still empty (a failed
/// job's), deepest first: kiln leaves behind only what it wrote.
pub(super) fn remove_unused_new_dirs(tree: &OutTree, made: &[String]) {
    for dir in made.iter().rev() {
        let (parent, name) = dir.rsplit_once('/').unwrap_or(("", dir));
        if let Ok(Some(folder)) = tree.open_dir(parent) {
            folder.remove_empty_child(name);
        }
    }
}
