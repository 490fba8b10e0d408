//! Running a build: plan, decide what is dirty, run it in parallel, record.
//!
//! Order of work, and why:
//! 1. Read and plan every manifest (unchanged manifests come parsed from
//!    the manifest cache); any problem stops the build before it writes to
//!    the output folder.
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
//! 5. Each job writes its outputs to temporary files and renames them into
//!    place, and only then appends its record to the journal.
//! 6. Save the hash cache; compact the journal if it grew.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use sha2::{Digest, Sha256};

use super::fingerprint::{self, KeyParts};
use super::jobs::{Job, JobIo};
use super::manifest::MAX_MANIFEST_BYTES;
use super::paths::{self, FileSig, Resolver};
use super::plan::{self, Diagnostic, ManifestText};
use super::state::{
    self, HashCache, Journal, ManifestCache, OutputRecord, PlanSummary, Planned, Record,
};

/// What to build and how.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The project root; sources are resolved against it.
    pub root: PathBuf,
    /// The output folder; `ROOT/out` when `None`.
    pub out: Option<PathBuf>,
    /// Manifests to build; every `ROOT/manifests/*.yaml` when empty.
    pub manifests: Vec<PathBuf>,
    /// Worker threads; all cores when 0.
    pub threads: usize,
    /// Rebuild every job, fresh or not.
    pub force: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Built,
    Fresh,
    Failed,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Built => "built",
            Status::Fresh => "fresh",
            Status::Failed => "failed",
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
    pub error: Option<Diagnostic>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub jobs: Vec<JobReport>,
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
    /// One dirty job finished.
    JobDone { id: &'a str, status: Status },
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
}

/// Runs a build.
pub fn build(opts: &Options, on_event: &(dyn Fn(Event) + Sync)) -> Result<Report, BuildError> {
    let started = Instant::now();
    let root = opts.root.canonicalize().map_err(|e| {
        BuildError::Usage(format!(
            "project root {}: {}",
            opts.root.display(),
            paths::describe_io(&e)
        ))
    })?;
    let manifests = read_manifests(&root, &opts.manifests)?;
    let manifests_hash =
        state::manifests_hash(manifests.iter().map(|m| (m.file.as_str(), m.text.as_str())));
    let resolver = Resolver::new(&root);
    let out = opts.out.clone().unwrap_or_else(|| root.join("out"));
    if !opts.force
        && let Some(report) = try_noop(&root, &out, &manifests_hash, &resolver, on_event)?
    {
        return Ok(Report {
            jobs: report,
            time: started.elapsed(),
        });
    }
    let mut manifest_cache = ManifestCache::load(&out.join(state::STATE_DIR));
    let jobs =
        plan::plan(&resolver, &manifests, &mut manifest_cache).map_err(BuildError::Manifests)?;

    let out = prepare_out_dir(&out)?;
    let state_dir = out.join(state::STATE_DIR);
    let _lock = lock(&state_dir, on_event)?;
    manifest_cache
        .save(&state_dir)
        .map_err(|e| BuildError::Io(format!("saving the manifest cache: {e}")))?;
    let mut journal = Journal::load(&state_dir);
    let mut hashes = HashCache::load(&state_dir);
    prepare_output_dirs(&out, &jobs)?;

    let display_out = display_base(&root, &out);
    let plan = PlanSummary {
        manifests: manifests_hash,
        jobs: jobs.iter().map(planned).collect(),
    };
    let place = Place {
        resolver: &resolver,
        out: &out,
        outputs: Resolver::new(&out),
        display_out: &display_out,
    };
    let (mut slots, dirty) = decide(&jobs, &plan, &place, &journal, &mut hashes, opts.force);
    on_event(Event::Running {
        total: jobs.len(),
        dirty: dirty.len(),
    });

    let shared = Shared {
        place,
        journal: Mutex::new(&mut journal),
        hashes: Mutex::new(&mut hashes),
    };
    let results = run_dirty(dirty, &jobs, &shared, opts.threads, on_event)?;
    for (i, report) in results {
        slots[i] = Some(report);
    }

    save_state(&state_dir, &hashes, &plan, &mut journal)?;
    Ok(Report {
        jobs: slots
            .into_iter()
            .map(|s| s.expect("every job reported"))
            .collect(),
        time: started.elapsed(),
    })
}

/// One report per job, in plan order, filled in as jobs are decided or run.
type Slots = Vec<Option<JobReport>>;

/// A dirty job: its index in the plan, and why it must run.
type Dirty = (usize, Vec<String>);

/// Where a build reads and writes.
struct Place<'a> {
    resolver: &'a Resolver,
    out: &'a Path,
    /// Resolves paths under `out`.
    outputs: Resolver,
    /// `out` as reports show it (relative to the root when inside it).
    display_out: &'a Path,
}

/// Freshness of every job, in plan order: a report for each fresh one, and
/// the dirty ones with why.
fn decide(
    jobs: &[Job],
    plan: &PlanSummary,
    place: &Place,
    journal: &Journal,
    hashes: &mut HashCache,
    force: bool,
) -> (Slots, Vec<Dirty>) {
    let mut slots: Slots = vec![None; jobs.len()];
    let mut dirty = Vec::new();
    for (i, (job, p)) in jobs.iter().zip(&plan.jobs).enumerate() {
        if force {
            dirty.push((i, vec!["--force".to_string()]));
            continue;
        }
        match freshness(p, place.resolver, &place.outputs, journal, hashes) {
            Ok(record) => slots[i] = Some(fresh_report(p, record, place.display_out)),
            Err(Stale::Settings(old)) => dirty.push((i, explain_settings(old, job))),
            Err(Stale::Because(why)) => dirty.push((i, why)),
        }
    }
    (slots, dirty)
}

/// Writes what the next build needs: the hash cache, the plan summary (if
/// it changed), and a compacted journal (if it grew).
fn save_state(
    state_dir: &Path,
    hashes: &HashCache,
    plan: &PlanSummary,
    journal: &mut Journal,
) -> Result<(), BuildError> {
    hashes
        .save(state_dir)
        .map_err(|e| BuildError::Io(format!("saving the hash cache: {e}")))?;
    if PlanSummary::load(state_dir).as_ref() != Some(plan) {
        plan.save(state_dir)
            .map_err(|e| BuildError::Io(format!("saving the plan summary: {e}")))?;
    }
    journal
        .compact_if_large()
        .map_err(|e| BuildError::Io(format!("compacting the journal: {e}")))
}

/// Runs the dirty jobs on `threads` workers (all cores when 0); each
/// result carries its job's index. No pool is started for a no-op build.
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
    let threads = if threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        threads
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| BuildError::Io(format!("cannot start {threads} worker threads: {e}")))?;
    Ok(pool.install(|| {
        dirty
            .into_par_iter()
            .map(|(i, why)| {
                let report = run_job(&jobs[i], why, shared);
                on_event(Event::JobDone {
                    id: &jobs[i].id,
                    status: report.status,
                });
                (i, report)
            })
            .collect()
    }))
}

/// Lists and reads the manifests, each at most `MAX_MANIFEST_BYTES`.
fn read_manifests(root: &Path, given: &[PathBuf]) -> Result<Vec<ManifestText>, BuildError> {
    let files: Vec<PathBuf> = if given.is_empty() {
        let dir = root.join("manifests");
        let entries = fs::read_dir(&dir).map_err(|e| {
            BuildError::Usage(format!(
                "{}: {}; pass manifest files or create manifests/*.yaml",
                dir.display(),
                paths::describe_io(&e)
            ))
        })?;
        let mut files: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                p.is_file()
                    && matches!(p.extension().and_then(|e| e.to_str()), Some("yaml" | "yml"))
            })
            .collect();
        files.sort();
        if files.is_empty() {
            return Err(BuildError::Usage(format!(
                "no manifests in {}; pass manifest files or create manifests/*.yaml",
                dir.display()
            )));
        }
        files
    } else {
        given.to_vec()
    };
    files
        .iter()
        .map(|path| {
            let name = display_base(root, path).display().to_string();
            let meta = fs::metadata(path).map_err(|e| {
                BuildError::Usage(format!("manifest {name}: {}", paths::describe_io(&e)))
            })?;
            if meta.len() > MAX_MANIFEST_BYTES {
                return Err(BuildError::Manifests(vec![Diagnostic {
                    file: name,
                    pos: Default::default(),
                    message: format!(
                        "the manifest is {} bytes; kiln reads manifests of at most {MAX_MANIFEST_BYTES} bytes",
                        meta.len()
                    ),
                }]));
            }
            let bytes = fs::read(path).map_err(|e| {
                BuildError::Usage(format!("manifest {name}: {}", paths::describe_io(&e)))
            })?;
            let text = String::from_utf8(bytes).map_err(|e| {
                BuildError::Manifests(vec![Diagnostic {
                    file: name.clone(),
                    pos: Default::default(),
                    message: format!("not UTF-8 text (at byte {})", e.utf8_error().valid_up_to()),
                }])
            })?;
            Ok(ManifestText { file: name, text })
        })
        .collect()
}

/// `path` relative to `root` when inside it, else as it is.
fn display_base(root: &Path, path: &Path) -> PathBuf {
    let abs = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    match abs.strip_prefix(root) {
        Ok(rel) => rel.to_path_buf(),
        Err(_) => path.to_path_buf(),
    }
}

fn prepare_out_dir(out: &Path) -> Result<PathBuf, BuildError> {
    let state_dir = out.join(state::STATE_DIR);
    fs::create_dir_all(&state_dir)
        .map_err(|e| BuildError::Io(format!("cannot create {}: {e}", state_dir.display())))?;
    out.canonicalize()
        .map_err(|e| BuildError::Io(format!("{}: {e}", out.display())))
}

/// Takes the output folder's lock, waiting for another build if needed.
/// The lock is released when the returned file is dropped (or the process
/// dies).
fn lock(state_dir: &Path, on_event: &(dyn Fn(Event) + Sync)) -> Result<fs::File, BuildError> {
    let path = state_dir.join("lock");
    let file = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| BuildError::Io(format!("cannot open {}: {e}", path.display())))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(fs::TryLockError::WouldBlock) => {
            on_event(Event::WaitingForLock(&path));
            file.lock()
                .map_err(|e| BuildError::Io(format!("cannot lock {}: {e}", path.display())))?;
            Ok(file)
        }
        Err(fs::TryLockError::Error(e)) => Err(BuildError::Io(format!(
            "cannot lock {}: {e}",
            path.display()
        ))),
    }
}

/// Creates every folder the jobs write into (once, not per job) and
/// removes the temporary files a killed build left there.
fn prepare_output_dirs(out: &Path, jobs: &[Job]) -> Result<(), BuildError> {
    let mut dirs = std::collections::BTreeSet::new();
    for job in jobs {
        for output in job.outputs() {
            if let Some((dir, _)) = output.as_str().rsplit_once('/')
                && !dirs.contains(dir)
            {
                dirs.insert(dir.to_string());
            }
        }
    }
    for dir in dirs {
        let dir = out.join(dir);
        fs::create_dir_all(&dir)
            .map_err(|e| BuildError::Io(format!("cannot create {}: {e}", dir.display())))?;
        state::remove_stale_temps(&dir);
    }
    state::remove_stale_temps(out);
    state::remove_stale_temps(&out.join(state::STATE_DIR));
    Ok(())
}

/// The no-op path: when the manifests are exactly those of the last plan,
/// check freshness from the plan summary without parsing or planning. Any
/// job not fresh means "not a no-op": `None`, and the caller plans for real.
fn try_noop(
    root: &Path,
    out: &Path,
    manifests_hash: &[u8; 32],
    resolver: &Resolver,
    on_event: &(dyn Fn(Event) + Sync),
) -> Result<Option<Vec<JobReport>>, BuildError> {
    let state_dir = out.join(state::STATE_DIR);
    let Some(plan) = PlanSummary::load(&state_dir) else {
        return Ok(None);
    };
    if plan.manifests != *manifests_hash {
        return Ok(None);
    }
    let out = prepare_out_dir(out)?;
    let _lock = lock(&state_dir, on_event)?;
    let outputs = Resolver::new(&out);
    let journal = Journal::load(&state_dir);
    let mut hashes = HashCache::load(&state_dir);
    let display_out = display_base(root, &out);
    let mut reports = Vec::with_capacity(plan.jobs.len());
    let mut all_fresh = true;
    for p in &plan.jobs {
        match freshness(p, resolver, &outputs, &journal, &mut hashes) {
            Ok(record) => reports.push(fresh_report(p, record, &display_out)),
            Err(_) => {
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
    state::remove_stale_temps(&state_dir);
    on_event(Event::Running {
        total: reports.len(),
        dirty: 0,
    });
    Ok(Some(reports))
}

fn planned(job: &Job) -> Planned {
    Planned {
        id: job.id.clone(),
        kind: job.kind().to_string(),
        manifest: job.manifest.clone(),
        digest: fingerprint::digest(job),
        outputs: job.outputs(),
    }
}

/// Why a job is not fresh.
enum Stale<'j> {
    /// Its settings (or kind, or kiln's version) changed since this record.
    Settings(&'j Record),
    /// Anything else, in words.
    Because(Vec<String>),
}

fn explain_settings(old: &Record, job: &Job) -> Vec<String> {
    let mut why = old
        .parts()
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
    outputs: &Resolver,
    journal: &'j Journal,
    hashes: &mut HashCache,
) -> Result<&'j Record, Stale<'j>> {
    let Some(record) = journal.records.get(&job.id) else {
        return Err(Stale::Because(vec![
            "no record of an earlier build".to_string(),
        ]));
    };
    if job.digest != record.digest {
        return Err(Stale::Settings(record));
    }
    let mut why = Vec::new();
    let mut inputs = Vec::with_capacity(record.inputs.len());
    for (path, _) in &record.inputs {
        let hash = resolver.resolve(path).and_then(|(real, stat)| {
            hashes
                .hash(path, &real, stat.sig)
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
    let same_outputs = job.outputs.len() == record.outputs.len()
        && job
            .outputs
            .iter()
            .zip(&record.outputs)
            .all(|(e, r)| e.as_str() == r.path);
    if !same_outputs {
        return Err(Stale::Because(vec!["the outputs changed".to_string()]));
    }
    for (o, path) in record.outputs.iter().zip(&job.outputs) {
        match outputs.resolve_now(path) {
            Ok((_, stat)) if stat.sig.size == o.bytes && stat.sig.mtime_ns == o.mtime_ns => {}
            Ok(_) => why.push(format!("output {} was modified", o.path)),
            Err(_) => why.push(format!("output {} is missing", o.path)),
        }
    }
    if why.is_empty() {
        Ok(record)
    } else {
        Err(Stale::Because(why))
    }
}

fn output_reports(outputs: &[OutputRecord], display_out: &Path) -> Vec<OutputReport> {
    outputs
        .iter()
        .map(|o| OutputReport {
            path: display_out.join(&o.path),
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
        error: None,
    }
}

/// What parallel jobs share.
struct Shared<'a> {
    place: Place<'a>,
    journal: Mutex<&'a mut Journal>,
    hashes: Mutex<&'a mut HashCache>,
}

fn run_job(job: &Job, why: Vec<String>, shared: &Shared) -> JobReport {
    let started = Instant::now();
    let result = build_job(job, shared);
    let mut report = JobReport {
        id: job.id.clone(),
        kind: job.kind().to_string(),
        manifest: job.manifest.clone(),
        status: Status::Built,
        outputs: Vec::new(),
        time: Duration::ZERO,
        dirty_because: why,
        error: None,
    };
    match result {
        Ok(outputs) => report.outputs = output_reports(&outputs, shared.place.display_out),
        Err(e) => {
            report.status = Status::Failed;
            report.error = Some(Diagnostic {
                file: job.manifest.clone(),
                pos: job.pos_of(e.field),
                message: format!("job {:?}: {}", job.id, e.message),
            });
        }
    }
    report.time = started.elapsed();
    report
}

/// Runs the recipe, writes its outputs, records the job.
fn build_job(job: &Job, shared: &Shared) -> Result<Vec<OutputRecord>, super::jobs::JobError> {
    let mut io = JobIo::new(shared.place.resolver);
    let outputs = job.run(&mut io)?;
    let reads = io.into_reads();
    let io_error = |what: &str, e: std::io::Error| super::jobs::JobError {
        field: None,
        message: format!("{what}: {e}"),
    };
    let mut records = Vec::with_capacity(outputs.len());
    for output in &outputs {
        // The folder exists: `prepare_output_dirs` made it.
        let path = output.path.under(shared.place.out);
        state::write_atomic(&path, &output.bytes)
            .map_err(|e| io_error(&path.display().to_string(), e))?;
        let meta = fs::metadata(&path).map_err(|e| io_error(&path.display().to_string(), e))?;
        records.push(OutputRecord {
            path: output.path.to_string(),
            bytes: output.bytes.len() as u64,
            sha256: Sha256::digest(&output.bytes).into(),
            mtime_ns: FileSig::of(&meta).mtime_ns,
        });
    }
    {
        let mut hashes = shared.hashes.lock().expect("no panics while held");
        for read in &reads {
            if let Some(sig) = read.sig {
                hashes.remember(&read.path, sig, read.hash);
            }
        }
    }
    let record = Record::new(
        job.id.clone(),
        &KeyParts::of(job),
        reads.into_iter().map(|r| (r.path, r.hash)).collect(),
        records.clone(),
    );
    shared
        .journal
        .lock()
        .expect("no panics while held")
        .append(record)
        .map_err(|e| io_error("appending to the build journal", e))?;
    Ok(records)
}

/// Removes the output folder after checking it is one kiln made (it holds
/// `.kiln/`), holding its lock while it does.
pub fn clean(root: &Path, out: Option<&Path>) -> Result<Option<PathBuf>, BuildError> {
    let root = root.canonicalize().map_err(|e| {
        BuildError::Usage(format!(
            "project root {}: {}",
            root.display(),
            paths::describe_io(&e)
        ))
    })?;
    let out = out.map_or_else(|| root.join("out"), Path::to_path_buf);
    if !out.exists() {
        return Ok(None);
    }
    let state_dir = out.join(state::STATE_DIR);
    if !state_dir.is_dir() {
        return Err(BuildError::Usage(format!(
            "{} has no .kiln folder, so kiln did not make it; not removing it",
            out.display()
        )));
    }
    let _lock = lock(&state_dir, &|_| {})?;
    fs::remove_dir_all(&out)
        .map_err(|e| BuildError::Io(format!("cannot remove {}: {e}", out.display())))?;
    Ok(Some(out))
}
