//! Building from the last plan's summary: when the manifests are byte for
//! byte those the summary was made from (and every glob still matches as
//! it did), the summary says what every job is, and freshness is decided
//! from it and the journal without parsing a manifest. Every job fresh:
//! the no-op, which writes nothing. Some not: only the manifests that hold
//! them are parsed and planned, and only those jobs run, so a build after
//! one source changed costs the no-op and that job, not the project.
//!
//! Anything this path does not cover goes back to the planned path (the
//! caller plans every manifest): a record of a job gone from the plan
//! (its outputs must be removed), an output put back with the same bytes
//! (its record is renewed there), a manifest that no longer plans, or a
//! planned job that is not the summary's.

use std::collections::{BTreeMap, BTreeSet};

use crate::pipeline::fingerprint;
use crate::pipeline::out_dir::{Folder, OutTree};
use crate::pipeline::paths::RelPath;
use crate::pipeline::plan::{self, Job, ManifestText};
use crate::pipeline::planner::expand_glob;
use crate::pipeline::state::{self, HashCache, JobKey, Journal, PlanSummary};

use super::freshness::{Fresh, Stale, explain_settings, fresh_report, freshness};
use super::kept::{Kept, KeptPlan, State};
use super::out_folder::{
    check_out_dir, display_base, existing_state, lock, prepare_output_dirs, remove_unused_new_dirs,
};
use super::{
    BuildError, Dirty, Event, Options, Place, Report, Slots, Start, run_recorded, selected_reports,
};

/// The build, when the summary can decide it: `None` sends the caller to
/// plan every manifest. With a `kept` state (see [`Kept`]), the jobs fresh
/// when the last build ended and not among the `changed` are fresh without
/// a check.
pub(super) fn from_summary(
    start: &Start,
    manifests_hash: &[u8; 32],
    opts: &Options,
    (kept, changed): (&mut Kept, Option<&BTreeSet<JobKey>>),
    on_event: &(dyn Fn(Event) + Sync),
) -> Result<Option<Report>, BuildError> {
    let Some((state_dir, kept_plan)) = usable_summary(start, manifests_hash, kept)? else {
        return Ok(None);
    };
    let _lock = lock(&state_dir, &opts.stop, on_event)?;
    let Some(out_folder) = Folder::open_out(&start.out).ok().flatten() else {
        return Ok(None);
    };
    let outputs = OutTree::new(out_folder);
    let State {
        mut journal,
        mut hashes,
        kept: left_by_us,
        mut no_gone_records,
    } = kept.take_state(&start.out, &state_dir);
    let named = journal.records().values().flat_map(|r| r.inputs.iter());
    check_out_dir(
        &start.root,
        &start.out,
        named.map(|(path, _)| path.as_str()),
    )?;
    let KeptPlan { plan, fresh, .. } = kept_plan;
    let summary = Summary {
        plan: &plan,
        state_dir: &state_dir,
        outputs: &outputs,
        display_out: &display_base(&start.root, outputs.root().path()),
        selected: plan
            .jobs
            .iter()
            .map(|p| start.selection.selects(&p.kind, &p.id, &p.manifest))
            .collect(),
        unchecked: unchecked(&plan, &fresh, changed),
    };
    let decided = summary.decide(start, &journal, &mut hashes);
    save_hashes(&mut hashes, &state_dir)?;
    let Some((slots, stale)) = decided else {
        return Ok(None);
    };
    if !left_by_us {
        summary.remove_stale_temps();
    }
    let report = if stale.is_empty() {
        on_event(Event::Running {
            total: summary.selected_count(),
            dirty: 0,
        });
        let jobs = selected_reports(slots, &summary.selected);
        Report::unplanned(jobs, Default::default())
    } else {
        if !no_gone_records && has_gone_records(&plan, &journal) {
            return Ok(None);
        }
        no_gone_records = true;
        let known = kept.jobs_for(manifests_hash);
        let state = (&mut journal, &state_dir);
        let Some(replanned) = plan_stale(start, &plan, stale, state, known) else {
            return Ok(None);
        };
        let state = (&mut journal, &mut hashes);
        summary.build_stale(
            start,
            (opts, kept.memo()),
            on_event,
            slots,
            replanned,
            state,
        )?
    };
    let Summary { selected, .. } = summary;
    kept.keep(
        &start.out,
        &state_dir,
        (plan, &selected),
        State {
            journal,
            hashes,
            kept: false,
            no_gone_records,
        },
        &report,
    );
    Ok(Some(report))
}

/// Per job of the plan: fresh when the kept build ended and none of its
/// inputs `changed` (so it needs no check); all false with no `changed`.
fn unchecked(plan: &PlanSummary, fresh: &[bool], changed: Option<&BTreeSet<JobKey>>) -> Vec<bool> {
    let Some(changed) = changed else {
        return Vec::new();
    };
    let changed: BTreeSet<(&str, &str)> = changed
        .iter()
        .map(|(kind, id)| (kind.as_str(), id.as_str()))
        .collect();
    plan.jobs
        .iter()
        .zip(fresh)
        .map(|(p, fresh)| *fresh && !changed.contains(&(p.kind.as_str(), p.id.as_str())))
        .collect()
}

/// The summary of the last plan, when it can decide this build: made from
/// these manifests, its globs matching as they did.
fn usable_summary(
    start: &Start,
    manifests_hash: &[u8; 32],
    kept: &mut Kept,
) -> Result<Option<(Folder, KeptPlan)>, BuildError> {
    let Some(state_dir) = existing_state(&start.out) else {
        return Ok(None);
    };
    let Some(kept_plan) = kept.take_plan(&start.out, &state_dir) else {
        return Ok(None);
    };
    let plan = &kept_plan.plan;
    if plan.manifests != *manifests_hash {
        return Ok(None);
    }
    start
        .selection
        .check_targets(plan.jobs.iter().map(|p| (p.kind.as_str(), p.id.as_str())))
        .map_err(BuildError::Usage)?;
    // A glob that matches differently now changes its job's digest.
    let globs = plan.jobs.iter().flat_map(|p| &p.globs);
    if globs
        .into_iter()
        .any(|g| expand_glob(&start.resolver, &g.pattern).as_ref() != Ok(&g.matches))
    {
        return Ok(None);
    }
    // (Anything but a file at a state file's name: the full build says so.)
    if state::check_state_files(&state_dir).is_err() {
        return Ok(None);
    }
    Ok(Some((state_dir, kept_plan)))
}

/// What the summary path works in.
struct Summary<'a> {
    plan: &'a PlanSummary,
    state_dir: &'a Folder,
    outputs: &'a OutTree,
    /// The output folder as reports show it.
    display_out: &'a std::path::Path,
    /// Whether the command line selected each job of the plan.
    selected: Vec<bool>,
    /// Per job of the plan (or empty): fresh without a check (see
    /// [`unchecked`]).
    unchecked: Vec<bool>,
}

impl Summary<'_> {
    fn selected_count(&self) -> usize {
        self.selected.iter().filter(|s| **s).count()
    }

    /// Each selected job's freshness: the fresh ones' reports in their
    /// slots, and the others with why. `None` when an output was put back
    /// with the same bytes: its record is renewed on the planned path.
    fn decide(
        &self,
        start: &Start,
        journal: &Journal,
        hashes: &mut HashCache,
    ) -> Option<(Slots, Vec<(usize, Stale)>)> {
        let mut slots: Slots = vec![None; self.plan.jobs.len()];
        let mut stale = Vec::new();
        let jobs = self.plan.jobs.iter().enumerate();
        for (i, p) in jobs.filter(|(i, _)| self.selected[*i]) {
            if self.unchecked.get(i) == Some(&true)
                && let Some(record) = journal.records().get(&(p.kind.clone(), p.id.clone()))
            {
                slots[i] = Some(fresh_report(p, record, self.display_out));
                continue;
            }
            match freshness(p, &start.resolver, self.outputs, journal, hashes) {
                Ok(Fresh {
                    record,
                    refreshed: None,
                }) => slots[i] = Some(fresh_report(p, record, self.display_out)),
                Ok(Fresh {
                    refreshed: Some(_), ..
                }) => return None,
                Err(why) => stale.push((i, why)),
            }
        }
        Some((slots, stale))
    }

    /// Runs the replanned jobs, as the planned path runs its dirty ones,
    /// and saves the state; the plan is unchanged and no job is gone.
    fn build_stale(
        &self,
        start: &Start,
        (opts, memo): (&Options, &crate::pipeline::job::Memo),
        on_event: &(dyn Fn(Event) + Sync),
        mut slots: Slots,
        replanned: Replanned,
        (journal, hashes): (&mut Journal, &mut HashCache),
    ) -> Result<Report, BuildError> {
        let Replanned {
            jobs,
            dirty,
            at,
            manifests,
        } = replanned;
        let inputs = jobs.iter().flat_map(|j| &j.inputs);
        check_out_dir(&start.root, &start.out, inputs.map(RelPath::as_str))?;
        let made_dirs = prepare_output_dirs(self.outputs, None, &jobs)?;
        on_event(Event::Running {
            total: self.selected_count(),
            dirty: dirty.len(),
        });
        let claimed: BTreeSet<&RelPath> = self.plan.jobs.iter().flat_map(|p| &p.outputs).collect();
        let place = Place {
            resolver: &start.resolver,
            outputs: self.outputs,
            state_dir: self.state_dir,
            display_out: self.display_out,
        };
        let state = (&mut *journal, &mut *hashes);
        let ran = run_recorded(
            (opts, memo),
            place,
            &claimed,
            (&jobs, dirty),
            state,
            on_event,
        )?;
        let mut state_error = ran.journal_error;
        for (k, report) in ran.results {
            slots[at[k]] = Some(report);
        }
        plan::quote(
            slots.iter_mut().flatten().filter_map(|r| r.error.as_mut()),
            &start.manifests,
        );
        remove_unused_new_dirs(self.outputs, &made_dirs);
        let saved = save_hashes(hashes, self.state_dir).and_then(|()| {
            journal.compact_if_large(self.state_dir).map_err(|e| {
                BuildError::Io(format!(
                    "saving {}: {e}",
                    state::state_file(self.state_dir, state::JOURNAL)
                ))
            })
        });
        if let Err(e) = saved {
            state_error.get_or_insert(e.to_string());
        }
        Ok(Report {
            jobs: selected_reports(slots, &self.selected),
            removed: Vec::new(),
            planned: true,
            manifests_planned: manifests,
            interrupted: opts.stop.requested().is_some(),
            state_error,
            time: Default::default(),
        })
    }

    /// Removes what a killed build left (the planned path does this as it
    /// prepares the output folders): the temporaries beside every output
    /// any job declares, in the root, and in `.kiln/`. The lock is held,
    /// so no build is writing one now.
    fn remove_stale_temps(&self) {
        let dirs: BTreeSet<&str> = self
            .plan
            .jobs
            .iter()
            .flat_map(|p| &p.outputs)
            .filter_map(|o| o.as_str().rsplit_once('/').map(|(dir, _)| dir))
            .collect();
        for dir in dirs {
            if let Ok(Some(folder)) = self.outputs.open_dir(dir) {
                folder.remove_stale_temps();
            }
        }
        self.outputs.root().remove_stale_temps();
        self.state_dir.remove_stale_temps();
    }
}

fn save_hashes(hashes: &mut HashCache, state_dir: &Folder) -> Result<(), BuildError> {
    hashes
        .save(state_dir)
        .map_err(|e| BuildError::Io(format!("saving the hash cache: {e}")))
}

/// Whether the journal holds a record of a job the plan no longer has:
/// its outputs are removed on the planned path.
fn has_gone_records(plan: &PlanSummary, journal: &Journal) -> bool {
    let mut planned: Vec<(&str, &str)> = plan
        .jobs
        .iter()
        .map(|p| (p.kind.as_str(), p.id.as_str()))
        .collect();
    planned.sort_unstable();
    journal.records().keys().any(|(kind, id)| {
        planned
            .binary_search(&(kind.as_str(), id.as_str()))
            .is_err()
    })
}

/// The jobs that are not fresh, planned from their manifests only.
struct Replanned {
    jobs: Vec<Job>,
    /// Each with why it runs (indices into `jobs`).
    dirty: Vec<Dirty>,
    /// The plan index of each.
    at: Vec<usize>,
    /// How many manifests were planned.
    manifests: usize,
}

/// Plans the jobs that are not fresh from their manifests only; `None`
/// when those manifests no longer plan, or plan a job other than the
/// summary's (the planned path then says why). A job `known` from an
/// earlier plan of these manifests is not planned again while each of its
/// inputs is still a file (all that planning checks on disk; the globs'
/// matches were checked before); what is planned is added to `known`.
fn plan_stale(
    start: &Start,
    plan: &PlanSummary,
    stale: Vec<(usize, Stale)>,
    (journal, state_dir): (&mut Journal, &Folder),
    known: &mut BTreeMap<JobKey, Job>,
) -> Option<Replanned> {
    let still_plans = |job: &Job| {
        job.inputs.iter().all(|p| {
            start
                .resolver
                .resolve(p)
                .is_ok_and(|(_, stat)| stat.is_file)
        })
    };
    let key = |i: &usize| (plan.jobs[*i].kind.clone(), plan.jobs[*i].id.clone());
    let files: BTreeSet<&str> = stale
        .iter()
        .filter(|(i, _)| !known.get(&key(i)).is_some_and(still_plans))
        .map(|(i, _)| plan.jobs[*i].manifest.as_str())
        .collect();
    let some: Vec<&ManifestText> = start
        .manifests
        .iter()
        .filter(|m| files.contains(m.file.as_str()))
        .collect();
    if !some.is_empty() {
        let planned = plan::plan(&start.resolver, some.iter().copied()).ok()?;
        known.extend(
            planned
                .into_iter()
                .map(|j| ((j.kind().to_string(), j.id.clone()), j)),
        );
    }
    let (mut jobs, mut dirty, mut at) = (Vec::new(), Vec::new(), Vec::new());
    for (i, stale) in stale {
        let key = key(&i);
        let job = known.get(&key)?.clone();
        if fingerprint::digest(&job) != plan.jobs[i].digest {
            return None;
        }
        let why = match stale {
            Stale::Because(why) => why,
            Stale::Settings => explain_settings(journal.parts(state_dir, &key), &job),
        };
        dirty.push((jobs.len(), why));
        jobs.push(job);
        at.push(i);
    }
    Some(Replanned {
        jobs,
        dirty,
        at,
        manifests: some.len(),
    })
}
