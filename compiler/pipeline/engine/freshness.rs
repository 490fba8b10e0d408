//! Which jobs are fresh: decided from the journal (or, on the no-op path,
//! from the last plan's summary) and the hash cache.

use std::path::Path;
use std::time::Duration;

use crate::pipeline::fingerprint::{self, KeyParts};
use crate::pipeline::job;
use crate::pipeline::out_dir::{EntryKind, OutTree};
use crate::pipeline::paths::Resolver;
use crate::pipeline::plan::Job;
use crate::pipeline::state::{
    self, HashCache, Journal, OutputRecord, PlanSummary, Planned, Record,
};

use super::{Dirty, JobReport, OutputReport, Place, Slots, Status};

/// Freshness of every selected job, in plan order: a report for each fresh
/// one, and the dirty ones with why.
pub(super) fn decide(
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

pub(super) fn planned(job: &Job) -> Planned {
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
pub(super) enum Stale {
    /// Its settings (or kind, or kiln's version) changed since this record.
    Settings,
    /// Anything else, in words.
    Because(Vec<String>),
}

pub(super) fn explain_settings(old: Option<KeyParts>, job: &Job) -> Vec<String> {
    let mut why = old
        .map(|old| fingerprint::explain_parts(&old, &KeyParts::of(job)))
        .unwrap_or_default();
    if why.is_empty() {
        why.push("the job's settings changed".to_string());
    }
    why
}

/// The job's record if it is fresh, else why it is dirty.
pub(super) fn freshness<'j>(
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
pub(super) struct Fresh<'j> {
    pub(super) record: &'j Record,
    pub(super) refreshed: Option<Record>,
}

pub(super) fn output_reports(outputs: &[OutputRecord], display_out: &Path) -> Vec<OutputReport> {
    outputs
        .iter()
        .map(|o| OutputReport {
            path: display_out.join(o.path.as_str()),
            bytes: o.bytes,
            sha256: state::to_hex(&o.sha256),
        })
        .collect()
}

pub(super) fn fresh_report(job: &Planned, record: &Record, display_out: &Path) -> JobReport {
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
