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
//!    run from the plan summary instead (`try_noop`), and a build where every
//!    job is fresh stops there; anything dirty falls back to planning.
//! 4. Run the dirty jobs on a pool of `threads` workers. Results land in
//!    slots indexed by job, so the report's order (and every output byte)
//!    is the same whatever the thread count. A failing job does not stop
//!    the others.
//! 5. Each job writes its outputs to temporary files; when its run has
//!    succeeded and written exactly its declared set, the set is committed
//!    (see [`commit`]) and only then is the record appended.
//! 6. Remove the outputs and records of jobs gone from the manifests; save
//!    the hash cache; compact the journal if it grew.
//!
//! [`dry_run`] does steps 1 and 3 and writes nothing, not even `.kiln/`.

use std::fs;
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use std::collections::BTreeSet;

use rayon::prelude::*;
use sha2::Digest;

use super::fingerprint::{self, InputHash, KeyParts};
use super::input;
use super::job::{self, InputRead, JobError, JobIo, Staged, Stop, Unit};
use super::manifest::MAX_MANIFEST_BYTES;
use super::out_dir::{self, EntryKind, Folder, OutTree, Removal};
use super::paths::{self, RelPath, Resolver};
use super::plan::Job;
use super::plan::{self, Diagnostic, ManifestText};
use super::select::Selection;
use super::shared_cache;
use super::state::{self, HashCache, JobKey, Journal, OutputRecord, PlanSummary, Planned, Record};

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
    /// The manifests were parsed and planned (false: the no-op path decided
    /// from the last plan's summary that every job is fresh).
    pub planned: bool,
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
    let started = Instant::now();
    let Start {
        root,
        resolver,
        manifests,
        selection,
        out,
    } = start(opts)?;
    let manifests_hash =
        state::manifests_hash(manifests.iter().map(|m| (m.file.as_str(), m.text.as_str())));
    if !opts.force
        && let Some(report) = try_noop(
            &root,
            &out,
            &manifests_hash,
            &resolver,
            &selection,
            &opts.stop,
            on_event,
        )?
    {
        return Ok(Report {
            state_error: None,
            jobs: report,
            removed: Vec::new(),
            planned: false,
            interrupted: false,
            time: started.elapsed(),
        });
    }
    let jobs = plan_jobs(&root, &resolver, &manifests, &selection, &out)?;
    let selected: Vec<bool> = jobs
        .iter()
        .map(|j| selection.selects(j.kind(), &j.id, &j.manifest))
        .collect();

    let out_folder = create_out_dir(&out)?;
    check_kilns(&out_folder)?;
    let tree = OutTree::new(out_folder);
    let state_dir = state_folder(&tree)?;
    state::check_state_files(&state_dir).map_err(BuildError::Io)?;
    let _lock = lock(&state_dir, &opts.stop, on_event)?;
    let mut journal = Journal::load(&state_dir);
    let mut hashes = HashCache::load(&state_dir);
    let made_dirs = prepare_output_dirs(&tree, &state_dir, &jobs)?;

    let display_out = display_base(&root, tree.root().path());
    let plan = PlanSummary {
        manifests: manifests_hash,
        jobs: jobs.iter().map(planned).collect(),
    };
    let place = Place {
        resolver: &resolver,
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
    let cache = match &opts.remote_cache {
        None => None,
        Some(rc) => Some(shared_cache::Cache {
            remote: super::remote::Remote::new(&rc.settings)
                .map_err(|e| BuildError::Usage(e.to_string()))?,
            read_only: rc.read_only,
            verify_percent: rc.verify_percent,
            share_conversions: rc.share_conversions,
        }),
    };
    let shared = Shared {
        cache: cache.as_ref(),
        cache_strict: opts.remote_cache.as_ref().is_some_and(|rc| rc.strict),
        place,
        on_event,
        claimed: &claimed,
        journal: Mutex::new(&mut journal),
        journal_error: Mutex::new(None),
        hashes: Mutex::new(&mut hashes),
        stop: &opts.stop,
        max_output_bytes: opts.max_output_bytes,
    };
    let results = run_dirty(dirty, &jobs, &shared, opts.threads, on_event)?;
    let journal_error = shared
        .journal_error
        .into_inner()
        .expect("no panics while held");
    for (i, report) in results {
        slots[i] = Some(report);
    }

    plan::quote(
        slots.iter_mut().flatten().filter_map(|r| r.error.as_mut()),
        &manifests,
    );
    remove_unused_new_dirs(&tree, &made_dirs);
    // Stopped: what was committed stays, with its records; removing the
    // outputs of gone jobs waits for a build that finishes.
    let interrupted = opts.stop.requested().is_some();
    // A failure here is reported beside the jobs' own results, never in
    // their place.
    let mut state_error = journal_error;
    let removed = match interrupted {
        true => Vec::new(),
        false => {
            remove_gone_jobs(&tree, &state_dir, &mut journal, &jobs, &claimed).unwrap_or_else(|e| {
                state_error = Some(e.to_string());
                Vec::new()
            })
        }
    };
    if let Err(e) = save_state(&state_dir, &hashes, &plan, &mut journal) {
        state_error.get_or_insert(e.to_string());
    }
    Ok(Report {
        state_error,
        jobs: slots
            .into_iter()
            .zip(&selected)
            .filter(|(_, selected)| **selected)
            .map(|(s, _)| s.expect("every selected job reported"))
            .collect(),
        removed: removed
            .iter()
            .map(|p| display_out.join(p.as_str()))
            .collect(),
        planned: true,
        interrupted,
        time: started.elapsed(),
    })
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
    let Start {
        root,
        resolver,
        manifests,
        selection,
        out,
    } = start(opts)?;
    let jobs = plan_jobs(&root, &resolver, &manifests, &selection, &out)?;
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

fn start(opts: &Options) -> Result<Start, BuildError> {
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
fn plan_jobs(
    root: &Path,
    resolver: &Resolver,
    manifests: &[ManifestText],
    selection: &Selection,
    out: &Path,
) -> Result<Vec<Job>, BuildError> {
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

fn canonical_root(root: &Path) -> Result<PathBuf, BuildError> {
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
fn resolve_out(root: &Path, given: Option<&Path>) -> Result<PathBuf, BuildError> {
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
fn check_kilns(out: &Folder) -> Result<(), BuildError> {
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
fn existing_state(out: &Path) -> Option<Folder> {
    Folder::open_out(out)
        .ok()??
        .open_child(state::STATE_DIR)
        .ok()?
}

fn create_out_dir(out: &Path) -> Result<Folder, BuildError> {
    Folder::create_out(out)
        .map_err(|e| BuildError::Io(format!("cannot create {}: {e}", out.display())))
}

fn state_folder(tree: &OutTree) -> Result<Folder, BuildError> {
    tree.root().create_child(state::STATE_DIR).map_err(|e| {
        BuildError::Io(format!(
            "cannot use {}: {e}",
            tree.root().path().join(state::STATE_DIR).display()
        ))
    })
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

/// Freshness of every selected job, in plan order: a report for each fresh
/// one, and the dirty ones with why.
fn decide(
    jobs: &[Job],
    plan: &PlanSummary,
    selected: &[bool],
    place: &Place,
    journal: &mut Journal,
    hashes: &mut HashCache,
    force: bool,
) -> (Slots, Vec<Dirty>) {
    let mut slots: Slots = vec![None; jobs.len()];
    let mut dirty = Vec::new();
    let mut settings_changed = Vec::new();
    let mut refreshed = Vec::new();
    for (i, p) in plan.jobs.iter().enumerate() {
        if !selected[i] {
            continue;
        }
        if force {
            dirty.push((i, vec!["--force".to_string()]));
            continue;
        }
        match freshness(p, place.resolver, place.outputs, journal, hashes) {
            Ok(fresh) => {
                slots[i] = Some(fresh_report(p, fresh.record, place.display_out));
                refreshed.extend(fresh.refreshed);
            }
            Err(Stale::Settings) => settings_changed.push(i),
            Err(Stale::Because(why)) => dirty.push((i, why)),
        }
    }
    for record in refreshed {
        // Failing to write it only costs hashing the output again.
        let _ = journal.refresh(place.state_dir, record);
    }
    // What changed, from the jobs' details (read only when needed).
    for i in settings_changed {
        let job = &jobs[i];
        let key = (job.kind().to_string(), job.id.clone());
        let old = journal.parts(place.state_dir, &key);
        dirty.push((i, explain_settings(old, job)));
    }
    dirty.sort_by_key(|(i, _)| *i);
    (slots, dirty)
}

/// Removes the outputs of jobs the journal has and the plan does not (a
/// job removed from its manifest, or renamed), unless a planned job writes
/// the same path, then their records. The paths removed.
fn remove_gone_jobs(
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

/// Writes what the next build needs: the hash cache, the plan summary (if
/// it changed), and a compacted journal (if it grew).
fn save_state(
    state_dir: &Folder,
    hashes: &HashCache,
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

/// Runs the dirty jobs on `threads` workers (all cores when 0); each
/// result carries its job's index. No pool is started for a no-op build,
/// nor for one worker or one small job: those run on the calling thread
/// (see [`sequential`]).
fn run_dirty(
    dirty: Vec<Dirty>,
    jobs: &[Job],
    shared: &Shared,
    threads: usize,
    on_event: &(dyn Fn(Event) + Sync),
) -> Result<Vec<(usize, JobReport)>, BuildError> {
    if dirty.is_empty() {
        return Ok(Vec::new());
    }
    let run = |(i, why): Dirty| {
        // Asked to stop: the jobs not started yet are not started.
        if shared.stop.requested().is_some() {
            return (i, empty_report(&jobs[i], why, Status::Interrupted));
        }
        on_event(Event::JobStarted { id: &jobs[i].id });
        let report = run_job(&jobs[i], why, shared);
        on_event(Event::JobDone {
            id: &jobs[i].id,
            status: report.status,
        });
        (i, report)
    };
    let lone_job_bytes = || {
        let job = &jobs[dirty[0].0];
        job.inputs
            .iter()
            .filter_map(|p| shared.place.resolver.resolve(p).ok())
            .map(|(_, stat)| stat.sig.size)
            .sum()
    };
    if sequential(threads, dirty.len(), lone_job_bytes) {
        return Ok(dirty.into_iter().map(run).collect());
    }
    let threads = worker_threads(threads, std::thread::available_parallelism().ok());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| BuildError::Io(format!("cannot start {threads} worker threads: {e}")))?;
    Ok(pool.install(|| dirty.into_par_iter().map(run).collect()))
}

/// A lone dirty job whose inputs hold at least this many bytes still runs
/// on the worker pool: its hashing then runs beside its reads and writes
/// (`job::side_by_side`), which for a big model conversion saves a third
/// of its time. Below it, starting and stopping the pool's threads costs
/// more than it gives (a small character's level: ~10 % of the build).
pub const LONE_JOB_POOL_BYTES: u64 = 16 << 20;

/// Whether a build runs its `dirty` jobs on the calling thread: one worker
/// asked for, or one job whose inputs (`lone_job_bytes`, asked only then)
/// are under [`LONE_JOB_POOL_BYTES`].
fn sequential(threads: usize, dirty: usize, lone_job_bytes: impl FnOnce() -> u64) -> bool {
    threads == 1 || (dirty == 1 && lone_job_bytes() < LONE_JOB_POOL_BYTES)
}

/// The pool size: `requested`, or every core when 0 (one if the number of
/// cores is unknown).
fn worker_threads(requested: usize, cores: Option<std::num::NonZeroUsize>) -> usize {
    match requested {
        0 => cores.map_or(1, |n| n.get()),
        n => n,
    }
}

/// Every manifest a build plans: each `ROOT/manifests/*.yaml`, then each
/// one named on the command line that is not among them (regular files
/// under the root, symlinks resolved, of at most `MAX_MANIFEST_BYTES`);
/// and the named ones, as root-relative paths. A manifest named on the
/// command line that cannot be read is a usage error; one found in
/// `manifests/` is a manifest problem. With manifests named, a project
/// without a `manifests/` folder is fine.
fn read_manifests(
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

/// `path` relative to `root` when inside it, else as it is.
fn display_base(root: &Path, path: &Path) -> PathBuf {
    let abs = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    match abs.strip_prefix(root) {
        Ok(rel) => rel.to_path_buf(),
        Err(_) => path.to_path_buf(),
    }
}

/// Takes the output folder's lock, waiting for another build if needed
/// (and giving up if asked to stop meanwhile). The lock is released when
/// the returned file is dropped (or the process dies).
fn lock(
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
/// real folder) and removes the temporary files a killed build left there.
/// Creates every folder a planned job writes in (removing the temporary
/// files a killed build left there); returns the folders it made, which
/// [`remove_unused_new_dirs`] takes back if no output went in.
fn prepare_output_dirs(
    tree: &OutTree,
    state_dir: &Folder,
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
        folder.remove_stale_temps();
    }
    tree.root().remove_stale_temps();
    state_dir.remove_stale_temps();
    Ok(made.into_iter().collect())
}

/// Removes the folders this build made that are still empty (a failed
/// job's), deepest first: kiln leaves behind only what it wrote.
fn remove_unused_new_dirs(tree: &OutTree, made: &[String]) {
    for dir in made.iter().rev() {
        let (parent, name) = dir.rsplit_once('/').unwrap_or(("", dir));
        if let Ok(Some(folder)) = tree.open_dir(parent) {
            folder.remove_empty_child(name);
        }
    }
}

/// The no-op path: when the manifests are exactly those of the last plan,
/// check freshness from the plan summary without parsing or planning. Any
/// job not fresh means "not a no-op": `None`, and the caller plans for real.
fn try_noop(
    root: &Path,
    out: &Path,
    manifests_hash: &[u8; 32],
    resolver: &Resolver,
    selection: &Selection,
    stop: &Stop,
    on_event: &(dyn Fn(Event) + Sync),
) -> Result<Option<Vec<JobReport>>, BuildError> {
    let Some(state_dir) = existing_state(out) else {
        return Ok(None);
    };
    let Some(plan) = PlanSummary::load(&state_dir) else {
        return Ok(None);
    };
    if plan.manifests != *manifests_hash {
        return Ok(None);
    }
    selection
        .check_targets(plan.jobs.iter().map(|p| (p.kind.as_str(), p.id.as_str())))
        .map_err(BuildError::Usage)?;
    // A glob that matches differently now changes its job's digest.
    let globs = plan.jobs.iter().flat_map(|p| &p.globs);
    if globs
        .into_iter()
        .any(|g| super::planner::expand_glob(resolver, &g.pattern).as_ref() != Ok(&g.matches))
    {
        return Ok(None);
    }
    // (Anything but a file at a state file's name: the full build says so.)
    if state::check_state_files(&state_dir).is_err() {
        return Ok(None);
    }
    let _lock = lock(&state_dir, stop, on_event)?;
    let Some(out_folder) = Folder::open_out(out).ok().flatten() else {
        return Ok(None);
    };
    let outputs = OutTree::new(out_folder);
    let journal = Journal::load(&state_dir);
    let named = journal.records().values().flat_map(|r| r.inputs.iter());
    check_out_dir(root, out, named.map(|(path, _)| path.as_str()))?;
    let mut hashes = HashCache::load(&state_dir);
    let display_out = display_base(root, outputs.root().path());
    let mut reports = Vec::with_capacity(plan.jobs.len());
    let mut all_fresh = true;
    let selected = plan
        .jobs
        .iter()
        .filter(|p| selection.selects(&p.kind, &p.id, &p.manifest));
    for p in selected {
        match freshness(p, resolver, &outputs, &journal, &mut hashes) {
            // A refreshed record is written by the planned path.
            Ok(Fresh {
                record,
                refreshed: None,
            }) => reports.push(fresh_report(p, record, &display_out)),
            _ => {
                all_fresh = false;
                break;
            }
        }
    }
    hashes
        .save(&state_dir)
        .map_err(|e| BuildError::Io(format!("saving the hash cache: {e}")))?;
    if !all_fresh {
        return Ok(None);
    }
    // What a killed build left (the planned path does this as it prepares
    // the output folders): the temporaries beside every output any job
    // declares, in the root, and in `.kiln/`. The lock is held, so no build
    // is writing one now.
    let dirs: BTreeSet<&str> = plan
        .jobs
        .iter()
        .flat_map(|p| &p.outputs)
        .filter_map(|o| o.as_str().rsplit_once('/').map(|(dir, _)| dir))
        .collect();
    for dir in dirs {
        if let Ok(Some(folder)) = outputs.open_dir(dir) {
            folder.remove_stale_temps();
        }
    }
    outputs.root().remove_stale_temps();
    state_dir.remove_stale_temps();
    on_event(Event::Running {
        total: reports.len(),
        dirty: 0,
    });
    Ok(Some(reports))
}

fn planned(job: &Job) -> Planned {
    Planned {
        kind: job.kind().to_string(),
        id: job.id.clone(),
        manifest: job.manifest.clone(),
        digest: fingerprint::digest(job),
        outputs: job.outputs.files.clone(),
        globs: job.globs.clone(),
    }
}

/// Why a job is not fresh.
enum Stale {
    /// Its settings (or kind, or kiln's version) changed since this record.
    Settings,
    /// Anything else, in words.
    Because(Vec<String>),
}

fn explain_settings(old: Option<KeyParts>, job: &Job) -> Vec<String> {
    let mut why = old
        .map(|old| fingerprint::explain_parts(&old, &KeyParts::of(job)))
        .unwrap_or_default();
    if why.is_empty() {
        why.push("the job's settings changed".to_string());
    }
    why
}

/// The job's record if it is fresh, else why it is dirty.
fn freshness<'j>(
    job: &Planned,
    resolver: &Resolver,
    outputs: &OutTree,
    journal: &'j Journal,
    hashes: &mut HashCache,
) -> Result<Fresh<'j>, Stale> {
    let Some(record) = journal.records().get(&(job.kind.clone(), job.id.clone())) else {
        return Err(Stale::Because(vec![
            "no record of an earlier build".to_string(),
        ]));
    };
    if job.digest != record.digest {
        return Err(Stale::Settings);
    }
    let mut why = Vec::new();
    let mut inputs = Vec::with_capacity(record.inputs.len());
    for (path, _) in &record.inputs {
        let hash = resolver.resolve(path).and_then(|(real, stat)| {
            hashes
                .hash(path, &real, stat.sig, job::MAX_INPUT_BYTES)
                .map_err(|e| format!("{path}: {e}"))
        });
        match hash {
            Ok(h) => inputs.push((path.clone(), h)),
            Err(e) => why.push(format!("input {e}")),
        }
    }
    if !why.is_empty() {
        return Err(Stale::Because(why));
    }
    if fingerprint::key(&job.digest, &inputs) != record.key {
        let mut why = fingerprint::explain_inputs(&record.inputs, &inputs);
        if why.is_empty() {
            why.push("the cache key changed".to_string());
        }
        return Err(Stale::Because(why));
    }
    // The declared outputs are settings of the job (see `Job::settings`),
    // so an equal digest means the record names the same outputs. An
    // output whose stat signature changed is hashed: the same bytes (a
    // copy put back, an archive restored) keep the job fresh, under the
    // new signature.
    let mut refreshed = None;
    for (k, o) in record.outputs.iter().enumerate() {
        match outputs.stat(&o.path) {
            Ok(Some((EntryKind::File, sig))) if sig == o.sig && sig.size == o.bytes => {}
            Ok(Some((EntryKind::File, sig))) if sig.size == o.bytes => {
                match outputs.sha256(&o.path, o.bytes) {
                    Some((hash, sig)) if hash == o.sha256 => {
                        let r: &mut Record = refreshed.get_or_insert_with(|| record.clone());
                        r.outputs[k].sig = sig;
                    }
                    _ => why.push(format!("output {} was modified", o.path)),
                }
            }
            Ok(Some((EntryKind::File, _))) => why.push(format!("output {} was modified", o.path)),
            Ok(Some(_)) => why.push(format!("output {} is not a regular file", o.path)),
            Ok(None) => why.push(format!("output {} is missing", o.path)),
            Err(e) => why.push(format!("output {}: {e}", o.path)),
        }
    }
    if why.is_empty() {
        Ok(Fresh { record, refreshed })
    } else {
        Err(Stale::Because(why))
    }
}

/// A fresh job's record, and the same record with new output signatures
/// when some output was put back with the same bytes (to be journalled).
struct Fresh<'j> {
    record: &'j Record,
    refreshed: Option<Record>,
}

fn output_reports(outputs: &[OutputRecord], display_out: &Path) -> Vec<OutputReport> {
    outputs
        .iter()
        .map(|o| OutputReport {
            path: display_out.join(o.path.as_str()),
            bytes: o.bytes,
            sha256: state::to_hex(&o.sha256),
        })
        .collect()
}

fn fresh_report(job: &Planned, record: &Record, display_out: &Path) -> JobReport {
    JobReport {
        id: job.id.clone(),
        kind: job.kind.clone(),
        manifest: job.manifest.clone(),
        status: Status::Fresh,
        outputs: output_reports(&record.outputs, display_out),
        time: Duration::ZERO,
        dirty_because: Vec::new(),
        warnings: record.warnings.clone(),
        notes: record.notes.clone(),
        error: None,
        remote: None,
    }
}

/// What parallel jobs share.
struct Shared<'a> {
    place: Place<'a>,
    cache: Option<&'a shared_cache::Cache>,
    cache_strict: bool,
    on_event: &'a (dyn Fn(Event) + Sync),
    /// Every output a planned job declares.
    claimed: &'a BTreeSet<&'a RelPath>,
    journal: Mutex<&'a mut Journal>,
    /// The first failure recording a built job in the journal: the job
    /// stands (its outputs are committed), the build reports it once as
    /// its state error, and the next build checks those outputs again.
    journal_error: Mutex<Option<String>>,
    hashes: Mutex<&'a mut HashCache>,
    stop: &'a Stop,
    max_output_bytes: Option<u64>,
}

fn run_job(job: &Job, why: Vec<String>, shared: &Shared) -> JobReport {
    let started = Instant::now();
    let mut remote = shared_cache::Use::default();
    let result = build_job(job, shared, &mut remote);
    let mut report = empty_report(job, why, Status::Built);
    report.remote = shared.cache.map(|_| remote);
    match result {
        Ok((outputs, (warnings, notes), restored)) => {
            if restored {
                report.status = Status::Restored;
            }
            report.outputs = output_reports(&outputs, shared.place.display_out);
            report.warnings = warnings;
            report.notes = notes;
        }
        Err(e) if e.interrupted => report.status = Status::Interrupted,
        Err(e) => {
            report.status = Status::Failed;
            report.error = Some(Diagnostic {
                file: job.manifest.clone(),
                pos: job.blame(e.pos),
                message: format!("job {:?}: {}", job.id, e.message),
                line: None,
            });
        }
    }
    report.time = started.elapsed();
    report
}

/// A dirty job's report with `status` and nothing else yet (an
/// interrupted job's stays so: the build was asked to stop first).
fn empty_report(job: &Job, why: Vec<String>, status: Status) -> JobReport {
    JobReport {
        id: job.id.clone(),
        kind: job.kind().to_string(),
        manifest: job.manifest.clone(),
        status,
        outputs: Vec::new(),
        time: Duration::ZERO,
        dirty_because: why,
        warnings: Vec::new(),
        notes: Vec::new(),
        error: None,
        remote: None,
    }
}

/// A built job's output records, its warnings and notes, and whether its
/// outputs came from the remote cache.
type Built = (Vec<OutputRecord>, (Vec<String>, Vec<String>), bool);

/// Runs the job, commits its outputs, records it. A run that fails, or
/// does not write exactly its declared outputs, leaves the previous
/// outputs as they were (and no temporary file).
fn build_job(
    job: &Job,
    shared: &Shared,
    remote: &mut shared_cache::Use,
) -> Result<Built, JobError> {
    use shared_cache::{Lookup, Store};
    let place = &shared.place;
    let progress = |done, total, unit| {
        (shared.on_event)(Event::Progress {
            id: &job.id,
            done,
            total,
            unit,
        })
    };
    let parts = KeyParts::of(job);
    let digest = parts.digest();
    let mut cache_warnings = Vec::new();
    let mut restored = None;
    let cache = shared.cache.filter(|c| c.shares(job.kind()));
    let verifying = cache.is_some_and(|c| shared_cache::sampled(&digest, c.verify_percent));
    if cache.is_some() {
        remote.lookup = if verifying {
            Lookup::Sampled
        } else {
            Lookup::Miss
        };
    }
    if let Some(cache) = cache.filter(|_| !verifying) {
        // A miss (or an entry refused) leaves nothing: this `JobIo`'s
        // temporaries go with it.
        let mut io = JobIo::for_job(
            place.resolver,
            place.outputs,
            (&job.outputs, &job.globs),
            None,
            Some(shared.stop),
        );
        io.set_output_budget(shared.max_output_bytes);
        match shared_cache::restore(cache, job, &digest, &mut io, place.resolver, &shared.hashes) {
            Ok(Some((inputs, messages))) => {
                restored = Some((inputs, io.complete()?.1, messages));
                remote.lookup = Lookup::Hit;
            }
            Ok(None) => {}
            Err(m) if shared.cache_strict => {
                remote.lookup = Lookup::Error;
                return Err(JobError::job(format!(
                    "remote cache: {m} (--remote-cache-strict)"
                )));
            }
            Err(m) => {
                remote.lookup = Lookup::Error;
                cache_warnings.push(format!("remote cache: {m}; built here instead"));
            }
        }
    }
    let was_restored = restored.is_some();
    let mut verified = false;
    let (inputs, staged, mut messages) = match restored {
        Some((inputs, staged, messages)) => (inputs, staged, messages),
        None => {
            let mut io = JobIo::for_job(
                place.resolver,
                place.outputs,
                (&job.outputs, &job.globs),
                Some(&progress),
                Some(shared.stop),
            );
            io.set_output_budget(shared.max_output_bytes);
            job.spec.run(&mut io)?;
            let messages = io.take_messages();
            let (reads, staged) = io.complete()?;
            let inputs = {
                let mut hashes = shared.hashes.lock().expect("no panics while held");
                for read in &reads {
                    hashes.remember(&read.path, read.sig, read.hash);
                }
                record_inputs(job, reads, place.resolver, &mut hashes)?
            };
            if let Some(cache) = cache.filter(|_| verifying) {
                let built: Vec<_> = staged
                    .iter()
                    .map(|s| (s.path.clone(), s.bytes, s.sha256))
                    .collect();
                verified =
                    shared_cache::verify(cache, job, &digest, &inputs, &built).map_err(|m| {
                        JobError::job(format!("remote cache: {m} (--remote-cache-verify)"))
                    })?;
            }
            (inputs, staged, messages)
        }
    };

    let previous: Vec<state::OutputRecord> = shared
        .journal
        .lock()
        .expect("no panics while held")
        .records()
        .get(&(job.kind().to_string(), job.id.clone()))
        .map(|r| r.outputs.clone())
        .unwrap_or_default();
    let stale: Vec<state::OutputRecord> = previous
        .into_iter()
        .filter(|o| !job.outputs.files.contains(&o.path) && !shared.claimed.contains(&o.path))
        .collect();
    let records =
        commit(place.outputs, staged, job.outputs.index.as_ref(), &stale).map_err(|e| {
            JobError::job(format!(
                "committing the outputs to {}: {e}",
                place.display_out.display()
            ))
        })?;
    if let Some(cache) = cache.filter(|c| !c.read_only && !was_restored && !verified) {
        let stored =
            shared_cache::upload(cache, place.outputs, &digest, &inputs, &records, &messages);
        remote.store = match stored {
            Ok(()) => Store::Stored,
            Err(_) => Store::Error,
        };
        match stored {
            Ok(()) => {}
            Err(m) if shared.cache_strict => {
                return Err(JobError::job(format!(
                    "remote cache: storing the outputs: {m} (--remote-cache-strict; they are built and in place)"
                )));
            }
            Err(m) => cache_warnings.push(format!("remote cache: not stored: {m}")),
        }
    }
    // The cache's own warning is this build's, never stored with the job.
    messages.0.extend(cache_warnings);
    let record = Record {
        warnings: messages.0.clone(),
        notes: messages.1.clone(),
        ..Record::new(job.id.clone(), &parts, inputs, records.clone())
    };
    let appended =
        shared
            .journal
            .lock()
            .expect("no panics while held")
            .append(place.state_dir, record, parts);
    if let Err(e) = appended {
        shared
            .journal_error
            .lock()
            .expect("no panics while held")
            .get_or_insert_with(|| {
                format!(
                    "recording the built jobs in {}: {e}",
                    state::state_file(place.state_dir, state::JOURNAL)
                )
            });
    }
    Ok((records, messages, was_restored))
}

/// The inputs for the job's record: every file it read, in the order read,
/// then any declared input it did not read (hashed now), each once.
fn record_inputs(
    job: &Job,
    reads: Vec<InputRead>,
    resolver: &Resolver,
    hashes: &mut HashCache,
) -> Result<Vec<InputHash>, JobError> {
    let mut inputs: Vec<InputHash> = Vec::with_capacity(reads.len() + job.inputs.len());
    for read in reads {
        if !inputs.iter().any(|(p, _)| *p == read.path) {
            inputs.push((read.path, read.hash));
        }
    }
    for path in &job.inputs {
        if inputs.iter().any(|(p, _)| p == path) {
            continue;
        }
        let hash = resolver.resolve(path).and_then(|(real, stat)| {
            hashes
                .hash(path, &real, stat.sig, job::MAX_INPUT_BYTES)
                .map_err(|e| format!("{path}: {e}"))
        });
        inputs.push((path.clone(), hash.map_err(JobError::job)?));
    }
    Ok(inputs)
}

/// Outputs of at most this many bytes are compared with the file already
/// in place and, when their bytes are the same, kept as they are (see
/// [`commit`]).
pub const UNCHANGED_CHECK_BYTES: u64 = 1 << 20;

/// Puts a job's staged outputs in place so that whenever the index file
/// (`manifest.json`, `level.json`) is present, it describes exactly the
/// files beside it:
///
/// 1. the old index is removed (before any file it describes changes);
/// 2. every other output is renamed into place (each rename atomic);
/// 3. the previous record's outputs that are no longer in the set are
///    removed;
/// 4. the new index is renamed into place, last.
///
/// An output whose bytes equal the regular file already in its place (at
/// most [`UNCHANGED_CHECK_BYTES`], compared by SHA-256 of the file read
/// now) is left untouched and its temporary discarded: its time stamp
/// stays, so file watchers and hot reload see nothing, and no rename
/// replaces a file for nothing (on ext4, renaming over a file flushes the
/// new one, the larger part of a small job's time). When every output is
/// unchanged and nothing is stale, the index stays too.
///
/// Killed anywhere in between, the folder holds no index, or the new one
/// with all of its files; the job's record (appended after this) is
/// missing, so the next build runs it again.
pub fn commit(
    tree: &OutTree,
    staged: Vec<Staged>,
    index: Option<&RelPath>,
    stale: &[state::OutputRecord],
) -> std::io::Result<Vec<OutputRecord>> {
    let temps: Vec<_> = staged
        .iter()
        .map(|s| (s.folder.clone(), s.name.clone()))
        .collect();
    let result = commit_in_order(tree, staged, index, stale);
    if result.is_err() {
        // What was not renamed yet is not left behind.
        for (folder, name) in temps {
            folder.discard_temp(&name);
        }
    }
    result
}

/// An I/O error of the commit, naming the output (relative to the output
/// folder) it happened to.
fn naming(path: &RelPath) -> impl Fn(std::io::Error) -> std::io::Error + '_ {
    move |e| std::io::Error::new(e.kind(), format!("{path}: {}", paths::describe_io(&e)))
}

fn commit_in_order(
    tree: &OutTree,
    staged: Vec<Staged>,
    index: Option<&RelPath>,
    stale: &[state::OutputRecord],
) -> std::io::Result<Vec<OutputRecord>> {
    let in_place: Vec<Option<paths::FileSig>> = staged.iter().map(unchanged).collect();
    let all_unchanged = stale.is_empty() && in_place.iter().all(Option::is_some);
    let mut records = Vec::with_capacity(staged.len());
    let mut put = |s: Staged, kept: Option<paths::FileSig>| -> std::io::Result<()> {
        let sig = match kept {
            Some(sig) => {
                s.folder.discard_temp(&s.name);
                sig
            }
            None => {
                s.folder.commit_temp(&s.name).map_err(naming(&s.path))?;
                // A rename sets the change time: the signature is the
                // file's in place.
                match s.folder.stat(&s.name).map_err(naming(&s.path))? {
                    Some((EntryKind::File, sig)) if sig.size == s.bytes => sig,
                    _ => {
                        return Err(std::io::Error::other(format!(
                            "{} changed as kiln put it in place",
                            s.path
                        )));
                    }
                }
            }
        };
        records.push(OutputRecord {
            path: s.path,
            bytes: s.bytes,
            sha256: s.sha256,
            sig,
        });
        Ok(())
    };
    if all_unchanged {
        for (s, kept) in staged.into_iter().zip(in_place) {
            put(s, kept)?;
        }
        return Ok(records);
    }
    if let Some(index) = index {
        tree.remove_file(index).map_err(naming(index))?;
    }
    let mut last = Vec::new();
    for (s, kept) in staged.into_iter().zip(in_place) {
        if Some(&s.path) == index {
            last.push(s);
        } else {
            put(s, kept)?;
        }
    }
    // An output the job no longer writes goes only if it is still what
    // kiln wrote; a file the user put in its place stays.
    for o in stale {
        tree.remove_made(&o.path, o.bytes, &o.sha256, &o.sig)
            .map_err(naming(&o.path))?;
    }
    for s in last {
        put(s, None)?;
    }
    Ok(records)
}

/// The stat signature of the regular file in `s`'s place if its bytes are
/// `s`'s (a small output only; see [`UNCHANGED_CHECK_BYTES`]).
fn unchanged(s: &Staged) -> Option<paths::FileSig> {
    if s.bytes > UNCHANGED_CHECK_BYTES {
        return None;
    }
    let (kind, sig) = s.folder.stat(&s.name).ok()??;
    if kind != EntryKind::File || sig.size != s.bytes {
        return None;
    }
    let bytes = s.folder.read(&s.name, s.bytes)?;
    (<[u8; 32]>::from(sha2::Sha256::digest(&bytes)) == s.sha256).then_some(sig)
}

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
fn remove_made(tree: &OutTree, o: &state::OutputRecord) -> Option<Removal> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::job::Outputs;
    use std::io::Write as _;

    fn rel(s: &str) -> RelPath {
        RelPath::parse(s).unwrap()
    }

    /// Stages `files` (name, text) through a JobIo, as a run would.
    fn stage(
        resolver: &Resolver,
        tree: &OutTree,
        outputs: &Outputs,
        files: &[(&str, &str)],
    ) -> Vec<Staged> {
        let mut io = JobIo::new(resolver, tree, outputs);
        for (name, text) in files {
            let mut out = io.create(&rel(name)).unwrap();
            out.write_all(text.as_bytes()).unwrap();
            io.close(out).unwrap();
        }
        io.complete().unwrap().1
    }

    #[test]
    fn a_commit_puts_the_index_last_and_removes_what_left_the_set() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let resolver = Resolver::new(&root);
        let tree = OutTree::new(Folder::create_out(&root.join("out")).unwrap());
        let read = |name: &str| fs::read_to_string(root.join("out").join(name)).ok();
        let old = Outputs {
            files: vec![rel("b/x.bin"), rel("b/y.bin"), rel("b/manifest.json")],
            index: Some(rel("b/manifest.json")),
        };
        let staged = stage(
            &resolver,
            &tree,
            &old,
            &[
                ("b/x.bin", "x1"),
                ("b/y.bin", "y1"),
                ("b/manifest.json", "x y"),
            ],
        );
        let records = commit(&tree, staged, old.index.as_ref(), &[]).unwrap();
        let paths: Vec<&str> = records.iter().map(|r| r.path.as_str()).collect();
        assert_eq!(paths, ["b/x.bin", "b/y.bin", "b/manifest.json"]);
        assert_eq!(read("b/manifest.json").as_deref(), Some("x y"));

        // The set shrinks: y.bin leaves it, and goes before the new index
        // is in place.
        let new = Outputs {
            files: vec![rel("b/x.bin"), rel("b/manifest.json")],
            index: Some(rel("b/manifest.json")),
        };
        let staged = stage(
            &resolver,
            &tree,
            &new,
            &[("b/x.bin", "x2"), ("b/manifest.json", "x")],
        );
        let y = records
            .iter()
            .find(|r| r.path.as_str() == "b/y.bin")
            .unwrap();
        commit(&tree, staged, new.index.as_ref(), std::slice::from_ref(y)).unwrap();
        assert_eq!(read("b/x.bin").as_deref(), Some("x2"));
        assert_eq!(read("b/y.bin"), None);
        assert_eq!(read("b/manifest.json").as_deref(), Some("x"));
        let left: Vec<_> = fs::read_dir(root.join("out/b")).unwrap().collect();
        assert_eq!(left.len(), 2, "no temporaries left");

        // A commit that fails part way leaves no index, never an old one
        // describing new files: x.bin's place is taken by a folder, so its
        // rename fails after the old index went.
        let staged = stage(
            &resolver,
            &tree,
            &new,
            &[("b/x.bin", "x3"), ("b/manifest.json", "x")],
        );
        fs::remove_file(root.join("out/b/x.bin")).unwrap();
        fs::create_dir(root.join("out/b/x.bin")).unwrap();
        fs::write(root.join("out/b/x.bin/keep"), "").unwrap();
        assert!(commit(&tree, staged, new.index.as_ref(), &[]).is_err());
        assert_eq!(read("b/manifest.json"), None);
        let mut left: Vec<String> = fs::read_dir(root.join("out/b"))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(left, ["x.bin"], "the folder, and no temporary");
    }

    #[test]
    fn zero_threads_means_every_core() {
        let four = std::num::NonZeroUsize::new(4);
        assert_eq!(worker_threads(0, four), 4);
        assert_eq!(worker_threads(0, None), 1);
        assert_eq!(worker_threads(3, four), 3);
        assert_eq!(worker_threads(1, None), 1);
        // One worker asked for, or one small job: the calling thread.
        let small = || LONE_JOB_POOL_BYTES - 1;
        let big = || LONE_JOB_POOL_BYTES;
        assert!(sequential(1, 5, big) && sequential(1, 1, big));
        assert!(sequential(0, 1, small) && sequential(4, 1, small));
        assert!(!sequential(0, 1, big) && !sequential(4, 1, big));
        assert!(!sequential(0, 2, small) && !sequential(2, 2, small));
    }
}
