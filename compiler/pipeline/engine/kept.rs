//! What a build keeps for the next build of the same process (`kiln
//! watch`): kiln's state as the build left it (the plan summary, the
//! journal, the hash cache) and which jobs were fresh when it ended, so
//! the next build reads no state file and checks only the jobs whose
//! inputs the watcher says may have changed.
//!
//! What is kept is used only while the files it stands for are as this
//! process left them: each is checked by its stat signature (size,
//! nanosecond modification and change times, inode) when it is taken, and
//! read again from the file when anything differs (another build on the
//! same output folder, a `kiln clean`, the folder deleted).

use std::path::{Path, PathBuf};

use crate::pipeline::out_dir::Folder;
use crate::pipeline::paths::FileSig;
use crate::pipeline::state::{self, HashCache, JobKey, Journal, PlanSummary};

use super::{Report, Status};

/// kiln's state as the last build of this process left it; empty before
/// the first (and after a build that could not save it).
#[derive(Default)]
pub struct Kept {
    plan: Option<KeptPlan>,
    state: Option<KeptState>,
    /// How many builds took what was kept instead of reading the files.
    reused: u64,
}

/// The plan summary, and each of its jobs' freshness when the build ended.
pub(super) struct KeptPlan {
    out: PathBuf,
    sig: Option<FileSig>,
    pub(super) plan: PlanSummary,
    /// Per job of `plan`: selected, and fresh, built or restored (neither
    /// failed nor interrupted) when the build ended.
    pub(super) fresh: Vec<bool>,
}

/// The journal and the hash cache.
struct KeptState {
    out: PathBuf,
    sigs: [Option<FileSig>; 3],
    journal: Journal,
    hashes: HashCache,
}

/// The state files the journal and the hash cache stand for.
const STATE: [&str; 3] = [state::JOURNAL, state::DETAILS, state::FILES];

fn sig(state_dir: &Folder, name: &str) -> Option<FileSig> {
    state_dir.stat(name).ok().flatten().map(|(_, sig)| sig)
}

impl Kept {
    /// How many builds used what was kept (the plan, or the journal and
    /// the hash cache) instead of reading their files.
    pub fn reused(&self) -> u64 {
        self.reused
    }

    /// The files the last build of `key` read (root-relative), as its
    /// record says; nothing when no record is kept.
    pub fn reads<'a>(&'a self, key: &JobKey) -> impl Iterator<Item = &'a str> + 'a {
        let record = self
            .state
            .as_ref()
            .and_then(|s| s.journal.records().get(key));
        record
            .into_iter()
            .flat_map(|r| r.inputs.iter().map(|(path, _)| path.as_str()))
    }

    /// The kept plan summary of the output folder `out`, if its file is as
    /// it was kept; else the file's (with no job known fresh).
    pub(super) fn take_plan(&mut self, out: &Path, state_dir: &Folder) -> Option<KeptPlan> {
        if let Some(kept) = self.plan.take()
            && kept.out == out
            && kept.sig == sig(state_dir, state::PLAN)
        {
            self.reused += 1;
            return Some(kept);
        }
        let plan = PlanSummary::load(state_dir)?;
        Some(KeptPlan {
            out: out.to_path_buf(),
            sig: None,
            fresh: Vec::new(),
            plan,
        })
    }

    /// The kept journal and hash cache of `out`, if their files are as
    /// they were kept; else read from the files. Call with the lock held.
    pub(super) fn take_state(&mut self, out: &Path, state_dir: &Folder) -> (Journal, HashCache) {
        if let Some(kept) = self.state.take()
            && kept.out == out
            && kept.sigs == STATE.map(|name| sig(state_dir, name))
        {
            self.reused += 1;
            return (kept.journal, kept.hashes);
        }
        (Journal::load(state_dir), HashCache::load(state_dir))
    }

    /// Keeps what the build that made `report` left, once its state is
    /// saved (with the lock still held, so that the signatures are those
    /// of its own writes). A build that stopped early or could not save
    /// its state keeps nothing.
    pub(super) fn keep(
        &mut self,
        out: &Path,
        state_dir: &Folder,
        (plan, selected): (PlanSummary, &[bool]),
        (journal, hashes): (Journal, HashCache),
        report: &Report,
    ) {
        *self = Kept {
            reused: self.reused,
            ..Kept::default()
        };
        if report.interrupted || report.state_error.is_some() {
            return;
        }
        let fresh = fresh_after(report, selected);
        self.plan = Some(KeptPlan {
            out: out.to_path_buf(),
            sig: sig(state_dir, state::PLAN),
            plan,
            fresh,
        });
        self.state = Some(KeptState {
            out: out.to_path_buf(),
            sigs: STATE.map(|name| sig(state_dir, name)),
            journal,
            hashes,
        });
    }
}

/// Per job of the plan: whether the report (which has the selected jobs,
/// in plan order) says it is fresh, built or restored.
fn fresh_after(report: &Report, selected: &[bool]) -> Vec<bool> {
    let mut jobs = report.jobs.iter();
    selected
        .iter()
        .map(|s| {
            *s && jobs.next().is_some_and(|j| {
                matches!(j.status, Status::Fresh | Status::Built | Status::Restored)
            })
        })
        .collect()
}
