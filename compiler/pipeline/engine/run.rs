//! Running the dirty jobs: the pool, one job from the remote cache or its
//! own run to its commit and record.

use std::collections::BTreeSet;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::pipeline::fingerprint::{InputHash, KeyParts};
use crate::pipeline::job::{self, InputRead, JobError, JobIo, Staged, Stop};
use crate::pipeline::paths::{RelPath, Resolver};
use crate::pipeline::plan::{Diagnostic, Job};
use crate::pipeline::shared_cache::{self, Lookup, Messages, Store};
use crate::pipeline::state::{self, HashCache, Journal, OutputRecord, Record};

use super::commit::commit;
use super::freshness::output_reports;
use super::{BuildError, Dirty, Event, JobReport, Place, Status};

/// Runs the dirty jobs on `threads` workers (all cores when 0); each
/// result carries its job's index. No pool is started for a no-op build,
/// nor for one worker or one small job: those run on the calling thread
/// (see [`sequential`]).
pub(super) fn run_dirty(
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

/// What parallel jobs share.
pub(super) struct Shared<'a> {
    pub(super) place: Place<'a>,
    pub(super) cache: Option<&'a shared_cache::Cache>,
    pub(super) cache_strict: bool,
    pub(super) on_event: &'a (dyn Fn(Event) + Sync),
    /// Every output a planned job declares.
    pub(super) claimed: &'a BTreeSet<&'a RelPath>,
    pub(super) journal: Mutex<&'a mut Journal>,
    /// The first failure recording a built job in the journal: the job
    /// stands (its outputs are committed), the build reports it once as
    /// its state error, and the next build checks those outputs again.
    pub(super) journal_error: Mutex<Option<String>>,
    pub(super) hashes: Mutex<&'a mut HashCache>,
    pub(super) stop: &'a Stop,
    pub(super) max_output_bytes: Option<u64>,
    /// Parts of jobs made by this process's earlier builds (`kiln watch`).
    pub(super) memo: &'a job::Memo,
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
type Built = (Vec<OutputRecord>, Messages, bool);

/// Runs the job, commits its outputs, records it. A run that fails, or
/// does not write exactly its declared outputs, leaves the previous
/// outputs as they were (and no temporary file).
fn build_job(
    job: &Job,
    shared: &Shared,
    remote: &mut shared_cache::Use,
) -> Result<Built, JobError> {
    let parts = KeyParts::of(job);
    let digest = parts.digest();
    let mut cache_warnings = Vec::new();
    let cache = shared.cache.filter(|c| c.shares(job.kind()));
    let verifying = cache.is_some_and(|c| shared_cache::sampled(&digest, c.verify_percent));
    if cache.is_some() {
        remote.lookup = match verifying {
            true => Lookup::Sampled,
            false => Lookup::Miss,
        };
    }
    let restored = match cache.filter(|_| !verifying) {
        Some(cache) => try_restore(job, shared, cache, &digest, remote, &mut cache_warnings)?,
        None => None,
    };
    let was_restored = restored.is_some();
    let mut verified = false;
    let (inputs, staged, mut messages) = match restored {
        Some(restored) => restored,
        None => {
            let (inputs, staged, messages) = run_here(job, shared)?;
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
    let records = commit_job(job, shared, staged)?;
    if let Some(cache) = cache.filter(|c| !c.read_only && !was_restored && !verified) {
        let stored = shared_cache::upload(
            cache,
            shared.place.outputs,
            &digest,
            &inputs,
            &records,
            &messages,
        );
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
    append_record(shared, record, parts);
    Ok((records, messages, was_restored))
}

/// What a job's run (or the remote cache) leaves to commit: the inputs
/// it read with their hashes, its staged outputs, its warnings and notes.
type Staging = (Vec<InputHash>, Vec<Staged>, Messages);

/// The job's outputs from the remote cache, staged: `None` on a miss (or
/// an entry refused), with a warning in `cache_warnings` when the cache
/// failed, or an error under `--remote-cache-strict`.
fn try_restore(
    job: &Job,
    shared: &Shared,
    cache: &shared_cache::Cache,
    digest: &[u8; 32],
    remote: &mut shared_cache::Use,
    cache_warnings: &mut Vec<String>,
) -> Result<Option<Staging>, JobError> {
    let place = &shared.place;
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
    match shared_cache::restore(cache, job, digest, &mut io, place.resolver, &shared.hashes) {
        Ok(Some((inputs, messages))) => {
            let staged = io.complete()?.1;
            remote.lookup = Lookup::Hit;
            Ok(Some((inputs, staged, messages)))
        }
        Ok(None) => Ok(None),
        Err(m) if shared.cache_strict => {
            remote.lookup = Lookup::Error;
            Err(JobError::job(format!(
                "remote cache: {m} (--remote-cache-strict)"
            )))
        }
        Err(m) => {
            remote.lookup = Lookup::Error;
            cache_warnings.push(format!("remote cache: {m}; built here instead"));
            Ok(None)
        }
    }
}

/// Runs the job here, its outputs staged, the files it read remembered in
/// the hash cache.
fn run_here(job: &Job, shared: &Shared) -> Result<Staging, JobError> {
    let place = &shared.place;
    let progress = |done, total, unit| {
        (shared.on_event)(Event::Progress {
            id: &job.id,
            done,
            total,
            unit,
        })
    };
    let mut io = JobIo::for_job(
        place.resolver,
        place.outputs,
        (&job.outputs, &job.globs),
        Some(&progress),
        Some(shared.stop),
    );
    io.set_output_budget(shared.max_output_bytes);
    io.set_memo(shared.memo);
    job.spec.run(&mut io)?;
    let messages = io.take_messages();
    let (reads, staged) = io.complete()?;
    let mut hashes = shared.hashes.lock().expect("no panics while held");
    for read in &reads {
        hashes.remember(&read.path, read.sig, read.hash);
    }
    let inputs = record_inputs(job, reads, place.resolver, &mut hashes)?;
    Ok((inputs, staged, messages))
}

/// Commits the staged outputs, removing those of the job's last record
/// that it no longer writes (unless another job declares them).
fn commit_job(
    job: &Job,
    shared: &Shared,
    staged: Vec<Staged>,
) -> Result<Vec<OutputRecord>, JobError> {
    let previous: Vec<OutputRecord> = shared
        .journal
        .lock()
        .expect("no panics while held")
        .records()
        .get(&(job.kind().to_string(), job.id.clone()))
        .map(|r| r.outputs.clone())
        .unwrap_or_default();
    let stale: Vec<OutputRecord> = previous
        .into_iter()
        .filter(|o| !job.outputs.files.contains(&o.path) && !shared.claimed.contains(&o.path))
        .collect();
    let place = &shared.place;
    commit(place.outputs, staged, job.outputs.index.as_ref(), &stale).map_err(|e| {
        JobError::job(format!(
            "committing the outputs to {}: {e}",
            place.display_out.display()
        ))
    })
}

/// Appends a built job's record to the journal; a failure is kept as the
/// build's state error (the first one), the job standing.
fn append_record(shared: &Shared, record: Record, parts: KeyParts) {
    let place = &shared.place;
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

#[cfg(test)]
mod tests {
    use super::*;

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
