//! Removing what kiln made: `kiln clean`, and the outputs of jobs gone
//! from the manifests.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use crate::pipeline::job::Stop;
use crate::pipeline::out_dir::{EntryKind, Folder, OutTree, Removal};
use crate::pipeline::paths::RelPath;
use crate::pipeline::plan::Job;
use crate::pipeline::state::{self, JobKey, Journal};

use super::BuildError;
use super::out_folder::{canonical_root, lock};

/// What `kiln clean` did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CleanReport {
    /// The output folder.
    pub out: PathBuf,
    /// Files kiln made that it removed (outputs, temporaries, state).
    pub removed: usize,
    /// The output folder itself is gone (it held nothing else).
    pub removed_out: bool,
    /// What is left in the output folder (relative to it; kiln did not make
    /// these, or has no record of them), at most [`MAX_KEPT_LISTED`].
    pub kept: Vec<String>,
    /// How many entries are left in all.
    pub n_kept: usize,
}

/// How many kept files `clean` names.
pub const MAX_KEPT_LISTED: usize = 20;

/// Removes what kiln made in the output folder: the outputs its journal
/// names, its temporary files and its state folder (a real folder, not a
/// link), then the folders the outputs were in and the output folder
/// itself if they are empty. Nothing else is touched, whatever the folder
/// is; a file kiln did not make survives and is listed in the report.
/// `None` if there is no output folder.
pub fn clean(root: &Path, out: Option<&Path>) -> Result<Option<CleanReport>, BuildError> {
    let root = canonical_root(root)?;
    let given = out.map_or_else(|| root.join("out"), Path::to_path_buf);
    let Some(out_folder) = Folder::open_out(&given)
        .map_err(|e| BuildError::Io(format!("{}: {e}", given.display())))?
    else {
        return Ok(None);
    };
    // No `.kiln/`: kiln has no record of anything here (never built, or
    // cleaned already), so there is nothing it may remove.
    let Some(state_dir) = out_folder
        .open_child(state::STATE_DIR)
        .map_err(|e| BuildError::Usage(format!("{e}; not removing anything")))?
    else {
        return Ok(None);
    };
    let lock = lock(&state_dir, &Stop::default(), &|_| {})?;
    let tree = OutTree::new(out_folder);
    let mut report = CleanReport {
        out: tree.root().path().to_path_buf(),
        ..CleanReport::default()
    };
    let journal = Journal::load(&state_dir);
    report.removed += remove_recorded_outputs(&tree, &journal);
    report.removed += tree.root().remove_stale_temps();
    report.removed += remove_state(tree.root(), state_dir, lock);
    list_kept(tree.root(), "", &mut report);
    // The folder itself, if empty and not a link the user made.
    let given_is_dir = fs::symlink_metadata(&given).is_ok_and(|m| m.is_dir());
    if report.n_kept == 0 && given_is_dir && fs::remove_dir(&given).is_ok() {
        report.removed_out = true;
    }
    Ok(Some(report))
}

/// Removes the output `o` if what is at its path is what kiln wrote
/// ([`OutTree::remove_made`]); `None` if it could not be looked at.
pub(super) fn remove_made(tree: &OutTree, o: &state::OutputRecord) -> Option<Removal> {
    tree.remove_made(&o.path, o.bytes, &o.sha256, &o.sig).ok()
}

/// Removes every output the journal names that is still what kiln wrote
/// (regular files only, with the recorded signature or content: a user's
/// file, a link or a folder in an output's place is not kiln's) and the
/// temporary files in their folders, then those folders where empty,
/// deepest first. How many files went.
fn remove_recorded_outputs(tree: &OutTree, journal: &Journal) -> usize {
    let mut removed = 0;
    let mut dirs = std::collections::BTreeSet::new();
    let outputs = journal.records().values().flat_map(|r| r.outputs.iter());
    for o in outputs {
        let rel = &o.path;
        if remove_made(tree, o) == Some(Removal::Removed) {
            removed += 1;
        }
        let mut dir = rel.as_str();
        while let Some((parent, _)) = dir.rsplit_once('/') {
            dirs.insert(parent.to_string());
            dir = parent;
        }
    }
    for dir in dirs.iter().rev() {
        if let Ok(Some(folder)) = tree.open_dir(dir) {
            removed += folder.remove_stale_temps();
        }
        let (parent, name) = match dir.rsplit_once('/') {
            Some((parent, name)) => (tree.open_dir(parent).ok().flatten(), name),
            None => (None, dir.as_str()),
        };
        parent
            .as_deref()
            .unwrap_or(tree.root())
            .remove_empty_child(name);
    }
    removed
}

/// Removes kiln's state files and temporaries from `.kiln/`, the lock
/// last (after releasing it), then `.kiln/` itself if empty.
fn remove_state(out: &Folder, state_dir: Folder, lock: fs::File) -> usize {
    let mut removed = state_dir.remove_stale_temps();
    for name in state::STATE_FILES.iter().filter(|&&n| n != state::LOCK) {
        removed += usize::from(state_dir.remove_file(name).unwrap_or(false));
    }
    drop(lock);
    removed += usize::from(state_dir.remove_file(state::LOCK).unwrap_or(false));
    out.remove_empty_child(state::STATE_DIR);
    removed
}

/// Every file (and link, and empty folder) left under `folder`, depth
/// first, in name order.
fn list_kept(folder: &Folder, prefix: &str, report: &mut CleanReport) {
    let Ok(entries) = folder.entries() else {
        return;
    };
    for (name, kind) in entries {
        let rel = format!("{prefix}{name}");
        let child = match kind {
            EntryKind::Folder => folder.open_child(&name).ok().flatten(),
            _ => None,
        };
        match child {
            Some(child) if child.entries().is_ok_and(|e| !e.is_empty()) => {
                list_kept(&child, &format!("{rel}/"), report);
            }
            _ => {
                report.n_kept += 1;
                if report.kept.len() < MAX_KEPT_LISTED {
                    report.kept.push(rel);
                }
            }
        }
    }
}

/// Removes the outputs of jobs the journal has and the plan does not (a
/// job removed from its manifest, or renamed), unless a planned job writes
/// the same path, then their records. The paths removed.
pub(super) fn remove_gone_jobs(
    tree: &OutTree,
    state_dir: &Folder,
    journal: &mut Journal,
    jobs: &[Job],
    claimed: &BTreeSet<&RelPath>,
) -> Result<Vec<RelPath>, BuildError> {
    let planned: BTreeSet<(&str, &str)> = jobs.iter().map(|j| (j.kind(), j.id.as_str())).collect();
    let gone: Vec<JobKey> = journal
        .records()
        .keys()
        .filter(|(kind, id)| !planned.contains(&(kind.as_str(), id.as_str())))
        .cloned()
        .collect();
    let mut removed = Vec::new();
    for key in &gone {
        for output in &journal.records()[key].outputs {
            if !claimed.contains(&output.path)
                && remove_made(tree, output) == Some(Removal::Removed)
            {
                removed.push(output.path.clone());
            }
        }
    }
    journal
        .drop_records(state_dir, &gone)
        .map_err(|e| BuildError::Io(format!("rewriting the build journal: {e}")))?;
    Ok(removed)
}
