//! Running a build: plan, decide what is dirty, run it in parallel, record.
//!
//! Order of work, and why:
//! 1. Read and plan every manifest (every `manifests/*.yaml`, and any named
//!    elsewhere); any problem stops the build before it writes to the output
//!    folder. Manifests and targets named on the command line select which
//!    jobs run (`select`); the others are planned so that their outputs are
//!    known and kept.
//! 2. Take the lock on `OUT/.kiln/lock` (a second build on the same folder
//!    waits for it), then load the journal and the hash cache.
//! 3. Decide freshness job by job, in plan order (see `fingerprint`). When
//!    the manifests are byte for byte those of the last plan, steps 1 to 3
//!    run from the plan summary instead (`summary`): a build where every
//!    job is fresh stops there, and one where some are not plans only the
//!    manifests that hold them and runs those jobs (steps 4 and 5; step 6
//!    has nothing to remove).
//! 4. Run the dirty jobs on a pool of `threads` workers. Results land in
//!    slots indexed by job, so the report's order (and every output byte)
//!    is the same whatever the thread count. A failing job does not stop
//!    the others.
//! 5. Each job writes its outputs to temporary files; when its run has
//!    succeeded and written exactly its declared set, the set is committed
//!    (see [`commit`](fn@commit)) and only then is the record appended.
//! 6. Remove the outputs and records of jobs gone from the manifests; save
//!    the hash cache; compact the journal if it grew.
//!
//! [`dry_run`] does steps 1 and 3 and writes nothing, not even `.kiln/`.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use std::collections::BTreeSet;

use super::job::{Stop, Unit};
use super::out_dir::{Folder, OutTree};
use super::paths::{RelPath, Resolver};
use super::plan::Job;
use super::plan::{self, Diagnostic, ManifestText};
use super::select::Selection;
use super::shared_cache;
use super::state::{self, HashCache, Journal, PlanSummary};

mod clean;
mod commit;
mod freshness;
mod kept;
mod manifests;
mod out_folder;
mod run;
mod summary;

use clean::remove_gone_jobs;
pub use clean::{CleanReport, MAX_KEPT_LISTED, clean};
pub use commit::{UNCHANGED_CHECK_BYTES, commit};
use freshness::{Stale, decide, explain_settings, freshness, planned};
pub use kept::Kept;
use manifests::read_manifests;
pub use out_folder::check_out_dir;
use out_folder::{
    canonical_root, check_kilns, create_out_dir, display_base, existing_state, lock,
    prepare_output_dirs, remove_unused_new_dirs, resolve_out, state_folder,
};
pub use run::LONE_JOB_POOL_BYTES;
use run::{Shared, run_dirty};

/// What to build and how.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The project root; sources are resolved against it.
    pub root: PathBuf,
    /// The output folder; `ROOT/out` when `None`.
    pub out: Option<PathBuf>,
    /// Manifests whose jobs to build (every manifest is planned, named or
    /// not); with no targets either, every job of every manifest.
    pub manifests: Vec<PathBuf>,
    /// Jobs to build by name (`select`).
    pub targets: Vec<String>,
    /// Worker threads; all cores when 0.
    pub threads: usize,
    /// Rebuild every job, fresh or not.
    pub force: bool,
    /// The most bytes one job may write in all (its outputs together): a
    /// disk budget. A job that would pass it fails, naming it; `None`: no
    /// budget beyond each format's own limits.
    pub max_output_bytes: Option<u64>,
    /// A shared remote cache to restore dirty jobs from and store built
    /// ones in (`shared_cache`); `None`: none.
    pub remote_cache: Option<RemoteCache>,
    /// Set from outside to stop the build (a signal): jobs not started
    /// are not started, running ones stop at their next check, and what
    /// was committed stays (see [`build`]).
    pub stop: Stop,
}

/// How a build uses a remote cache.
#[derive(Clone, Debug)]
pub struct RemoteCache {
    pub settings: super::remote::Settings,
    /// Restore only; never store.
    pub read_only: bool,
    /// A cache error fails the job instead of a warning and a local build.
    pub strict: bool,
    /// Percent of jobs built here and compared with the cache's entry.
    pub verify_percent: u8,
    /// Model conversions go through the cache too (by default rebuilt:
    /// [`shared_cache::REBUILT_NOT_DOWNLOADED`]).
    pub share_conversions: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Built,
    /// Dirty, and its outputs came from the remote cache.
    Restored,
    Fresh,
    Failed,
    /// Dirty, and not built because the build was asked to stop.
    Interrupted,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Built => "built",
            Status::Restored => "restored",
            Status::Fresh => "fresh",
            Status::Failed => "failed",
            Status::Interrupted => "interrupted",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputReport {
    /// Relative to the project root when the output folder is inside it.
    pub path: PathBuf,
    pub bytes: u64,
    pub sha256: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct JobReport {
    pub id: String,
    pub kind: String,
    pub manifest: String,
    pub status: Status,
    pub outputs: Vec<OutputReport>,
    pub time: Duration,
    /// Why the job was rebuilt (empty when fresh).
    pub dirty_because: Vec<String>,
    /// What the job wants the user to know (it still succeeded). A fresh
    /// job's are those recorded when it was built.
    pub warnings: Vec<String>,
    /// Measures of what the job built; a fresh job's, as recorded.
    pub notes: Vec<String>,
    pub error: Option<Diagnostic>,
    /// What the remote cache did for it: a dirty job's, when the build
    /// has one.
    pub remote: Option<shared_cache::Use>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub jobs: Vec<JobReport>,
    /// Outputs removed because their jobs are gone from the manifests
    /// (as `OutputReport::path` shows paths).
    pub removed: Vec<PathBuf>,
    /// Manifests were parsed and planned (false: the no-op path decided
    /// from the last plan's summary that every job is fresh).
    pub planned: bool,
    /// How many: every manifest, or (the manifests unchanged since the
    /// last plan) only those holding a job that was not fresh; 0 on the
    /// no-op path.
    pub manifests_planned: usize,
    /// The build was asked to stop ([`Options::stop`]) before it finished:
    /// the jobs it did not build are `Interrupted`, and the outputs of jobs
    /// gone from the manifests were not removed.
    pub interrupted: bool,
    /// What went wrong saving kiln's own state once the jobs ran (removing
    /// gone jobs' outputs, the hash cache, the journal): the jobs' results
    /// stand, and the next build checks their outputs again. A failed
    /// build.
    pub state_error: Option<String>,
    pub time: Duration,
}

impl Report {
    /// The no-op path's report: every selected job fresh, decided from the
    /// last plan's summary.
    fn unplanned(jobs: Vec<JobReport>, time: Duration) -> Report {
        Report {
            jobs,
            removed: Vec::new(),
            planned: false,
            manifests_planned: 0,
            interrupted: false,
            state_error: None,
            time,
        }
    }

    pub fn count(&self, status: Status) -> usize {
        self.jobs.iter().filter(|j| j.status == status).count()
    }
}

/// Progress, for the CLI to show.
#[derive(Clone, Debug)]
pub enum Event<'a> {
    /// Another build holds the lock; this one waits.
    WaitingForLock(&'a Path),
    /// Freshness decided: `dirty` of `total` jobs will run.
    Running { total: usize, dirty: usize },
    /// A dirty job starts.
    JobStarted { id: &'a str },
    /// One dirty job finished.
    JobDone { id: &'a str, status: Status },
    /// A long job's progress: `done` of `total`, in `unit`s.
    Progress {
        id: &'a str,
        done: u64,
        total: u64,
        unit: Unit,
    },
}

#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// The command was wrong (exit status 2).
    #[error("{0}")]
    Usage(String),
    /// Manifests with problems; nothing was built.
    #[error("{} problem(s) in the manifests", .0.len())]
    Manifests(Vec<Diagnostic>),
    /// The output folder or the build state could not be used.
    #[error("{0}")]
    Io(String),
    /// Asked to stop ([`Options::stop`]) before any job ran.
    #[error("interrupted before any job ran")]
    Interrupted,
}

/// Runs a build.
pub fn build(opts: &Options, on_event: &(dyn Fn(Event) + Sync)) -> Result<Report, BuildError> {
    rebuild(opts, &mut Kept::none(), None, on_event)
}

/// Runs a build in a process that builds again (`kiln watch`): `kept`
/// holds kiln's state as this process's last build left it (used while
/// its files are unchanged, see [`Kept`]) and takes what this build
/// leaves. `changed`: the jobs whose inputs may have changed since that
/// build (the watcher's word); every other job that was fresh when it
/// ended is fresh without a check. `None`: every job is checked, as
/// [`build`] does.
pub fn rebuild(
    opts: &Options,
    kept: &mut Kept,
    changed: Option<&BTreeSet<state::JobKey>>,
    on_event: &(dyn Fn(Event) + Sync),
) -> Result<Report, BuildError> {
    let started = Instant::now();
    let start = begin(opts)?;
    let manifests_hash =
        state::manifests_hash((start.manifests.iter()).map(|m| (m.file.as_str(), m.text.as_str())));
    let report = match opts.force {
        false => summary::from_summary(&start, &manifests_hash, opts, (kept, changed), on_event)?,
        true => None,
    };
    let report = match report {
        Some(report) => report,
        None => build_planned(&start, &manifests_hash, opts, kept, on_event)?,
    };
    Ok(Report {
        time: started.elapsed(),
        ..report
    })
}

/// The build with every manifest planned (steps 1 to 6).
fn build_planned(
    start: &Start,
    manifests_hash: &[u8; 32],
    opts: &Options,
    kept: &mut Kept,
    on_event: &(dyn Fn(Event) + Sync),
) -> Result<Report, BuildError> {
    let Start {
        root,
        resolver,
        manifests,
        selection,
        out,
    } = start;
    let jobs = plan_jobs(start)?;
    let selected: Vec<bool> = jobs
        .iter()
        .map(|j| selection.selects(j.kind(), &j.id, &j.manifest))
        .collect();

    let out_folder = create_out_dir(out)?;
    check_kilns(&out_folder)?;
    let tree = OutTree::new(out_folder);
    let state_dir = state_folder(&tree)?;
    state::check_state_files(&state_dir).map_err(BuildError::Io)?;
    let _lock = lock(&state_dir, &opts.stop, on_event)?;
    let kept::State {
        mut journal,
        mut hashes,
        ..
    } = kept.take_state(out, &state_dir);
    let made_dirs = prepare_output_dirs(&tree, Some(&state_dir), &jobs)?;

    let display_out = display_base(root, tree.root().path());
    let plan = PlanSummary {
        manifests: *manifests_hash,
        jobs: jobs.iter().map(planned).collect(),
    };
    let place = Place {
        resolver,
        outputs: &tree,
        state_dir: &state_dir,
        display_out: &display_out,
    };
    let (mut slots, dirty) = decide(
        &jobs,
        &plan,
        &selected,
        &place,
        &mut journal,
        &mut hashes,
        opts.force,
    );
    on_event(Event::Running {
        total: selected.iter().filter(|s| **s).count(),
        dirty: dirty.len(),
    });

    let claimed: BTreeSet<&RelPath> = jobs.iter().flat_map(|j| &j.outputs.files).collect();
    let Ran {
        results,
        journal_error,
    } = run_recorded(
        (opts, kept.memo()),
        place,
        &claimed,
        (&jobs, dirty),
        (&mut journal, &mut hashes),
        on_event,
    )?;
    for (i, report) in results {
        slots[i] = Some(report);
    }

    plan::quote(
        slots.iter_mut().flatten().filter_map(|r| r.error.as_mut()),
        manifests,
    );
    remove_unused_new_dirs(&tree, &made_dirs);
    // Stopped: what was committed stays, with its records; removing the
    // outputs of gone jobs waits for a build that finishes.
    let interrupted = opts.stop.requested().is_some();
    // A failure here is reported beside the jobs' own results, never in
    // their place.
    let mut state_error = journal_error;
    let removed = match interrupted {
        true => Ok(Vec::new()),
        false => remove_gone_jobs(&tree, &state_dir, &mut journal, &jobs, &claimed),
    };
    let removed = removed.unwrap_or_else(|e| {
        state_error = Some(e.to_string());
        Vec::new()
    });
    if let Err(e) = save_state(&state_dir, &mut hashes, &plan, &mut journal) {
        state_error.get_or_insert(e.to_string());
    }
    let report = Report {
        state_error,
        jobs: selected_reports(slots, &selected),
        removed: removed
            .iter()
            .map(|p| display_out.join(p.as_str()))
            .collect(),
        planned: true,
        manifests_planned: manifests.len(),
        interrupted,
        time: Duration::ZERO,
    };
    // Kept only when it saved: then the records of gone jobs are gone.
    let state = kept::State {
        journal,
        hashes,
        kept: false,
        no_gone_records: true,
    };
    kept.keep(out, &state_dir, (plan, &selected), state, &report);
    kept.keep_jobs(manifests_hash, jobs);
    Ok(report)
}

/// A job as a build would find it, from [`dry_run`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DryJob {
    pub id: String,
    pub kind: String,
    pub manifest: String,
    /// Why a build would run it (the reasons `--explain` gives); empty when
    /// it is fresh.
    pub dirty_because: Vec<String>,
    /// The outputs it declares (shown as `OutputReport::path` shows paths).
    pub outputs: Vec<PathBuf>,
}

/// Plans every manifest and decides each selected job's freshness as
/// [`build`] would, in plan order, writing nothing: not the output folder,
/// not `.kiln/`, not the hash cache, so it works on a read-only output
/// folder. It takes no lock: it reads what the last build committed.
pub fn dry_run(opts: &Options) -> Result<Vec<DryJob>, BuildError> {
    let start = begin(opts)?;
    let jobs = plan_jobs(&start)?;
    let Start {
        root,
        resolver,
        selection,
        out,
        ..
    } = start;
    let tree = Folder::open_out(&out).ok().flatten().map(OutTree::new);
    let state_dir = existing_state(&out);
    let mut journal = state_dir.as_ref().map(Journal::load);
    let mut hashes = state_dir.as_ref().map(HashCache::load).unwrap_or_default();
    let display_out = display_base(&root, &out);
    let mut report = Vec::new();
    for job in jobs
        .iter()
        .filter(|j| selection.selects(j.kind(), &j.id, &j.manifest))
    {
        let p = planned(job);
        let why = match (&tree, &mut journal, &state_dir) {
            (Some(tree), Some(journal), Some(state_dir)) => {
                let stale = match opts.force {
                    true => Some(Stale::Because(vec!["--force".to_string()])),
                    false => freshness(&p, &resolver, tree, journal, &mut hashes).err(),
                };
                match stale {
                    None => Vec::new(),
                    Some(Stale::Because(why)) => why,
                    Some(Stale::Settings) => {
                        let key = (job.kind().to_string(), job.id.clone());
                        explain_settings(journal.parts(state_dir, &key), job)
                    }
                }
            }
            _ => vec!["no record of an earlier build".to_string()],
        };
        report.push(DryJob {
            id: job.id.clone(),
            kind: job.kind().to_string(),
            manifest: job.manifest.clone(),
            dirty_because: why,
            outputs: job
                .outputs
                .files
                .iter()
                .map(|f| display_out.join(f.as_str()))
                .collect(),
        });
    }
    Ok(report)
}

/// What `kiln watch` watches after a build (see [`super::watch`]): the
/// manifests; each job's declared inputs, its globs and the files its last
/// build read beside them (a glTF's buffers); the output folder, whose
/// events are kiln's own. It plans every manifest.
pub fn watch_index(opts: &Options) -> Result<super::watch::Index, BuildError> {
    let start = begin(opts)?;
    let mut index = super::watch::Index {
        manifests: start.manifests.iter().map(|m| m.file.clone()).collect(),
        out: start
            .out
            .strip_prefix(&start.root)
            .ok()
            .and_then(|p| p.to_str())
            .map(str::to_string),
        ..Default::default()
    };
    let jobs = plan_jobs(&start)?;
    let journal = existing_state(&start.out).map(|dir| Journal::load(&dir));
    for job in &jobs {
        let key = (job.kind().to_string(), job.id.clone());
        let read = journal
            .as_ref()
            .and_then(|j| j.records().get(&key))
            .map(|r| r.inputs.iter().map(|(path, _)| path.as_str()));
        let files = job
            .inputs
            .iter()
            .map(RelPath::as_str)
            .chain(read.into_iter().flatten());
        index.add_job(&key, files, job.globs.iter().map(|g| g.pattern.as_str()));
    }
    Ok(index)
}

/// What every build and dry run starts from: the root, every manifest's
/// text, what the command line selected, and the output folder (checked
/// against the manifests' paths).
struct Start {
    root: PathBuf,
    resolver: Resolver,
    manifests: Vec<ManifestText>,
    selection: Selection,
    out: PathBuf,
}

fn begin(opts: &Options) -> Result<Start, BuildError> {
    let root = canonical_root(&opts.root)?;
    let resolver = Resolver::new(&root);
    let (manifests, named) = read_manifests(&resolver, &opts.manifests)?;
    let selection = Selection {
        manifests: named,
        targets: opts.targets.clone(),
    };
    let out = resolve_out(&root, opts.out.as_deref())?;
    check_out_dir(&root, &out, manifests.iter().map(|m| m.file.as_str()))?;
    Ok(Start {
        root,
        resolver,
        manifests,
        selection,
        out,
    })
}

/// Plans every manifest; every target must name a job, and no job may read
/// from the output folder.
fn plan_jobs(start: &Start) -> Result<Vec<Job>, BuildError> {
    let Start {
        root,
        resolver,
        manifests,
        selection,
        out,
    } = start;
    let jobs = plan::plan(resolver, manifests).map_err(|mut diags| {
        plan::quote(&mut diags, manifests);
        BuildError::Manifests(diags)
    })?;
    selection
        .check_targets(jobs.iter().map(|j| (j.kind(), j.id.as_str())))
        .map_err(BuildError::Usage)?;
    check_out_dir(
        root,
        out,
        jobs.iter()
            .flat_map(|j| j.inputs.iter().map(RelPath::as_str)),
    )?;
    Ok(jobs)
}

/// One report per job, in plan order, filled in as jobs are decided or run.
type Slots = Vec<Option<JobReport>>;

/// A dirty job: its index in the plan, and why it must run.
type Dirty = (usize, Vec<String>);

/// Where a build reads and writes.
struct Place<'a> {
    resolver: &'a Resolver,
    /// The output folder.
    outputs: &'a OutTree,
    /// Its `.kiln/`.
    state_dir: &'a Folder,
    /// The output folder as reports show it (relative to the root when
    /// inside it).
    display_out: &'a Path,
}

/// The selected jobs' reports, in plan order.
fn selected_reports(slots: Slots, selected: &[bool]) -> Vec<JobReport> {
    slots
        .into_iter()
        .zip(selected)
        .filter(|(_, selected)| **selected)
        .map(|(s, _)| s.expect("every selected job reported"))
        .collect()
}

/// Runs the `dirty` jobs (indices into `jobs`) with the build's remote
/// cache, recording each built one in the journal and the hash cache: the
/// results, with their indices, and the first failure to record a job.
fn run_recorded(
    (opts, memo): (&Options, &super::job::Memo),
    place: Place,
    claimed: &BTreeSet<&RelPath>,
    (jobs, dirty): (&[Job], Vec<Dirty>),
    (journal, hashes): (&mut Journal, &mut HashCache),
    on_event: &(dyn Fn(Event) + Sync),
) -> Result<Ran, BuildError> {
    let cache = opts.remote_cache.as_ref().map(open_cache).transpose()?;
    let shared = Shared {
        cache: cache.as_ref(),
        cache_strict: opts.remote_cache.as_ref().is_some_and(|rc| rc.strict),
        place,
        on_event,
        claimed,
        journal: Mutex::new(journal),
        journal_error: Mutex::new(None),
        hashes: Mutex::new(hashes),
        stop: &opts.stop,
        max_output_bytes: opts.max_output_bytes,
        memo,
    };
    let results = run_dirty(dirty, jobs, &shared, opts.threads, on_event)?;
    let journal_error = shared
        .journal_error
        .into_inner()
        .expect("no panics while held");
    Ok(Ran {
        results,
        journal_error,
    })
}

/// What [`run_recorded`] did: each dirty job's report with its index, and
/// the first failure to record a built job (the job stands).
struct Ran {
    results: Vec<(usize, JobReport)>,
    journal_error: Option<String>,
}

/// The remote cache a build uses, as its settings say.
fn open_cache(rc: &RemoteCache) -> Result<shared_cache::Cache, BuildError> {
    Ok(shared_cache::Cache {
        remote: super::remote::Remote::new(&rc.settings)
            .map_err(|e| BuildError::Usage(e.to_string()))?,
        read_only: rc.read_only,
        verify_percent: rc.verify_percent,
        share_conversions: rc.share_conversions,
    })
}

/// Writes what the next build needs: the hash cache, the plan summary (if
/// it changed), and a compacted journal (if it grew).
fn save_state(
    state_dir: &Folder,
    hashes: &mut HashCache,
    plan: &PlanSummary,
    journal: &mut Journal,
) -> Result<(), BuildError> {
    let saving = |name: &str, e: std::io::Error| {
        BuildError::Io(format!(
            "saving {}: {e}",
            state::state_file(state_dir, name)
        ))
    };
    hashes
        .save(state_dir)
        .map_err(|e| saving(state::FILES, e))?;
    if PlanSummary::load(state_dir).as_ref() != Some(plan) {
        plan.save(state_dir).map_err(|e| saving(state::PLAN, e))?;
    }
    journal
        .compact_if_large(state_dir)
        .map_err(|e| saving(state::JOURNAL, e))
}
