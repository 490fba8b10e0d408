//! What a build keeps for the next build of the same process (`kiln
//! watch`): kiln's state as the build left it (the plan summary, the
//! journal, the hash cache) and which jobs were fresh when it ended, so
//! the next build reads no state file and checks only the jobs whose
//! inputs the watcher says may have changed; and the jobs as planned, so
//! a job whose source changed is not planned again from its manifest.
//!
//! What is kept is used only while the files it stands for are as this
//! process left them: each is checked by its stat signature (size,
//! nanosecond modification and change times, inode) when it is taken, and
//! read again from the file when anything differs (another build on the
//! same output folder, a `kiln clean`, the folder deleted).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::pipeline::out_dir::Folder;
use crate::pipeline::paths::FileSig;
use crate::pipeline::plan::Job;
use crate::pipeline::state::{self, HashCache, JobKey, Journal, PlanSummary};

use super::{Report, Status};

/// kiln's state as the last build of this process left it; empty before
/// the first (and after a build that could not save it).
#[derive(Default)]
pub struct Kept {
    /// False: keep nothing (a one-off build, [`Kept::none`]).
    keeping: bool,
    plan: Option<KeptPlan>,
    state: Option<KeptState>,
    /// Jobs as planned from the manifests whose `manifests_hash` is the
    /// key: planning depends on nothing else but whether each input is a
    /// file under the root (the globs' matches are checked before).
    jobs: ([u8; 32], BTreeMap<JobKey, Job>),
    /// How many builds took what was kept instead of reading the files.
    reused: u64,
    /// Parts of jobs made by this process's builds (none kept by a one-off
    /// build).
    memo: crate::pipeline::job::Memo,
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
    state: State,
}

/// The journal and the hash cache a build starts from.
pub(super) struct State {
    pub(super) journal: Journal,
    pub(super) hashes: HashCache,
    /// Kept: this process's last build left them, and the output folder
    /// (it held the lock, and no state file changed since).
    pub(super) kept: bool,
    /// Known: the journal holds no record of a job gone from the plan.
    pub(super) no_gone_records: bool,
}

/// The state files the journal and the hash cache stand for.
const STATE: [&str; 3] = [state::JOURNAL, state::DETAILS, state::FILES];

fn sig(state_dir: &Folder, name: &str) -> Option<FileSig> {
    state_dir.stat(name).ok().flatten().map(|(_, sig)| sig)
}

impl Kept {
    /// Keeps what each build leaves, for the next.
    pub fn new() -> Kept {
        Kept {
            keeping: true,
            memo: crate::pipeline::job::Memo::new(crate::pipeline::job::MAX_MEMO_BYTES),
            ..Kept::default()
        }
    }

    /// Keeps nothing: for a build that is the process's only one.
    pub fn none() -> Kept {
        Kept::default()
    }

    /// The parts of jobs this process's builds made, for the next.
    pub fn memo(&self) -> &crate::pipeline::job::Memo {
        &self.memo
    }

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
            .and_then(|s| s.state.journal.records().get(key));
        record
            .into_iter()
            .flat_map(|r| r.inputs.iter().map(|(path, _)| path.as_str()))
    }

    /// The jobs planned from the manifests whose hash is `manifests` (none
    /// are kept for others), for the build to use and add to.
    pub(super) fn jobs_for(&mut self, manifests: &[u8; 32]) -> &mut BTreeMap<JobKey, Job> {
        if self.jobs.0 != *manifests {
            self.jobs = (*manifests, BTreeMap::new());
        }
        &mut self.jobs.1
    }

    /// Keeps the jobs a build planned from every manifest.
    pub(super) fn keep_jobs(&mut self, manifests: &[u8; 32], jobs: Vec<Job>) {
        if self.keeping {
            let keyed = jobs
                .into_iter()
                .map(|j| ((j.kind().to_string(), j.id.clone()), j));
            self.jobs = (*manifests, keyed.collect());
        }
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
    pub(super) fn take_state(&mut self, out: &Path, state_dir: &Folder) -> State {
        if let Some(kept) = self.state.take()
            && kept.out == out
            && kept.sigs == STATE.map(|name| sig(state_dir, name))
        {
            self.reused += 1;
            return State {
                kept: true,
                ..kept.state
            };
        }
        State {
            journal: Journal::load(state_dir),
            hashes: HashCache::load(state_dir),
            kept: false,
            no_gone_records: false,
        }
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
        state: State,
        report: &Report,
    ) {
        self.plan = None;
        self.state = None;
        if !self.keeping || report.interrupted || report.state_error.is_some() {
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
            state,
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
