//! `kiln build`: runs the engine, shows progress, prints the outcome.

use std::io::IsTerminal;
use std::path::PathBuf;

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::{Value, json};

use super::{EXIT_FAILURE, report_build_error};
use crate::pipeline::{self, BuildError, Event, Options, Report, Status};

#[derive(Args, Debug)]
pub struct BuildArgs {
    /// What to build: manifests (a path ending in .yaml or .yml, or holding
    /// a '/') and targets (a job id, KIND:ID, a level's name, or a glob of
    /// them) [default: every job of every ROOT/manifests/*.yaml]
    #[arg(value_name = "MANIFEST|TARGET")]
    names: Vec<String>,
    /// Project root; manifest paths are resolved against it
    #[arg(long, default_value = ".", value_name = "DIR")]
    root: PathBuf,
    /// Output folder [default: ROOT/out]
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Parallel jobs [default: all cores]
    #[arg(short = 'j', long = "jobs", value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
    /// Print a machine-readable summary on stdout
    #[arg(long)]
    json: bool,
    /// Say why each rebuilt job was dirty
    #[arg(long)]
    explain: bool,
    /// Rebuild every job, fresh or not
    #[arg(long)]
    force: bool,
    /// Print nothing but errors
    #[arg(long, short)]
    quiet: bool,
    /// Print each job as fresh or dirty, why, and its outputs; build and
    /// write nothing (works on a read-only output folder)
    #[arg(long, short = 'n')]
    dry_run: bool,
    /// Exit 1 if any job would rebuild (an output missing or changed, a
    /// source or setting changed), 0 if all are up to date; write nothing
    #[arg(long, conflicts_with = "dry_run")]
    check: bool,
}

impl BuildArgs {
    /// The names that are manifests, and those that are targets.
    fn split_names(&self) -> (Vec<PathBuf>, Vec<String>) {
        let (manifests, targets): (Vec<&String>, Vec<&String>) =
            self.names.iter().partition(|n| is_manifest_name(n));
        (
            manifests.into_iter().map(PathBuf::from).collect(),
            targets.into_iter().cloned().collect(),
        )
    }
}

/// A manifest is named by a path: one ending in `.yaml` or `.yml`, or one
/// holding a folder separator. Anything else is a target.
fn is_manifest_name(name: &str) -> bool {
    name.ends_with(".yaml")
        || name.ends_with(".yml")
        || name.contains('/')
        || name.contains(std::path::MAIN_SEPARATOR)
}

pub fn run(args: &BuildArgs) -> u8 {
    let (manifests, targets) = args.split_names();
    let options = Options {
        root: args.root.clone(),
        out: args.out.clone(),
        manifests,
        targets,
        threads: args.jobs.map_or(0, usize::from),
        force: args.force,
    };
    if args.dry_run || args.check {
        return dry_run(&options, args);
    }
    let progress = Progress::new(show_progress(args));
    let on_event = |event: Event| progress.on(event);
    let result = pipeline::build(&options, &on_event);
    progress.finish();
    match result {
        Ok(report) => {
            print_report(&report, args);
            if report.count(Status::Failed) > 0 {
                EXIT_FAILURE
            } else {
                0
            }
        }
        Err(e) => {
            if args.json {
                out!("{}", error_json(&e));
            }
            report_build_error(&e)
        }
    }
}

/// A bar on a terminal only: never in CI, with `--json` or `--quiet`.
fn show_progress(args: &BuildArgs) -> bool {
    !args.json
        && !args.quiet
        && std::io::stderr().is_terminal()
        && std::env::var_os("CI").is_none_or(|v| v.is_empty() || v == "false")
}

struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    fn new(enabled: bool) -> Progress {
        Progress {
            bar: enabled.then(|| {
                let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
                bar.set_style(
                    ProgressStyle::with_template("{spinner} [{bar:30}] {pos}/{len} {wide_msg}")
                        .expect("a valid template")
                        .progress_chars("=> "),
                );
                bar
            }),
        }
    }

    fn on(&self, event: Event) {
        match event {
            // Always said, bar or not: the user should know why nothing moves.
            Event::WaitingForLock(path) => eprintln!(
                "waiting for another kiln build to release {}",
                path.display()
            ),
            Event::Running { dirty, .. } => {
                if let Some(bar) = &self.bar {
                    bar.set_length(dirty as u64);
                }
            }
            Event::Progress { id, done, total } => {
                if let Some(bar) = &self.bar {
                    bar.set_message(format!(
                        "{id}: {} of {} MB",
                        done / 1_000_000,
                        total / 1_000_000
                    ));
                }
            }
            Event::JobDone { id, .. } => {
                if let Some(bar) = &self.bar {
                    bar.set_message(id.to_string());
                    bar.inc(1);
                }
            }
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

fn print_report(report: &Report, args: &BuildArgs) {
    for job in &report.jobs {
        if let Some(d) = &job.error {
            eprintln!("error: {d}");
        }
        // A fresh job's messages are the ones it gave when built, replayed.
        let cached = if job.status == Status::Fresh {
            " (cached)"
        } else {
            ""
        };
        if !args.quiet {
            for w in &job.warnings {
                eprintln!("warning: job {:?}{cached}: {w}", job.id);
            }
        }
        if !args.quiet && !args.json {
            for n in &job.notes {
                eprintln!("note: job {:?}{cached}: {n}", job.id);
            }
        }
    }
    if args.json {
        out!("{}", report_json(report));
        return;
    }
    if args.explain && !args.quiet {
        for job in report.jobs.iter().filter(|j| j.status != Status::Fresh) {
            out!(
                "{}: rebuilt because {}",
                job.id,
                job.dirty_because.join("; ")
            );
        }
    }
    if !args.quiet && !report.removed.is_empty() {
        eprintln!(
            "removed {} output(s) of jobs no longer in the manifests: {}",
            report.removed.len(),
            report
                .removed
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    if !args.quiet {
        let failed = report.count(Status::Failed);
        eprintln!(
            "{} {} jobs: {} built, {} fresh, {} failed in {:.2} s",
            if failed > 0 { "failed:" } else { "finished:" },
            report.jobs.len(),
            report.count(Status::Built),
            report.count(Status::Fresh),
            failed,
            report.time.as_secs_f64()
        );
    }
}

fn report_json(report: &Report) -> Value {
    let jobs: Vec<Value> = report
        .jobs
        .iter()
        .map(|j| {
            let mut v = json!({
                "id": j.id,
                "kind": j.kind,
                "manifest": j.manifest,
                "status": j.status.as_str(),
                "outputs": j.outputs.iter().map(|o| json!({
                    "path": o.path.display().to_string(),
                    "bytes": o.bytes,
                    "sha256": o.sha256,
                })).collect::<Vec<_>>(),
                "time_ms": millis(j.time),
            });
            if j.status != Status::Fresh {
                v["dirty_because"] = json!(j.dirty_because);
            }
            if let Some(d) = &j.error {
                v["error"] = diagnostic_json(d);
            }
            if !j.warnings.is_empty() {
                v["warnings"] = json!(j.warnings);
            }
            if !j.notes.is_empty() {
                v["notes"] = json!(j.notes);
            }
            v
        })
        .collect();
    json!({
        "kiln": crate::VERSION,
        "schema": super::JSON_SCHEMA,
        "jobs": jobs,
        "removed": report.removed.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
        "totals": {
            "jobs": report.jobs.len(),
            "built": report.count(Status::Built),
            "fresh": report.count(Status::Fresh),
            "failed": report.count(Status::Failed),
            "time_ms": millis(report.time),
            "planned": report.planned,
        }
    })
}

fn millis(d: std::time::Duration) -> f64 {
    (d.as_secs_f64() * 1e6).round() / 1e3
}

fn diagnostic_json(d: &pipeline::Diagnostic) -> Value {
    json!({
        "file": d.file,
        "line": d.pos.line,
        "column": d.pos.column,
        "message": d.message,
    })
}

fn error_json(e: &BuildError) -> Value {
    let errors: Vec<Value> = match e {
        BuildError::Manifests(diags) => diags.iter().map(diagnostic_json).collect(),
        other => vec![json!({ "message": other.to_string() })],
    };
    json!({ "kiln": crate::VERSION,
        "schema": super::JSON_SCHEMA, "errors": errors })
}

/// `--dry-run` and `--check`: what a build would do, from
/// `pipeline::dry_run`. A dry run lists every selected job (stdout); a
/// check lists the dirty ones and fails when there is one.
fn dry_run(options: &Options, args: &BuildArgs) -> u8 {
    let jobs = match pipeline::dry_run(options) {
        Ok(jobs) => jobs,
        Err(e) => {
            if args.json {
                out!("{}", error_json(&e));
            }
            return report_build_error(&e);
        }
    };
    let dirty = jobs.iter().filter(|j| !j.dirty_because.is_empty()).count();
    if args.json {
        out!("{}", dry_run_json(&jobs, args.check));
    } else {
        for job in &jobs {
            let fresh = job.dirty_because.is_empty();
            if args.check && fresh {
                continue;
            }
            let outputs: Vec<String> = job
                .outputs
                .iter()
                .map(|p| p.display().to_string())
                .collect();
            out!(
                "{} {}:{} -> {}",
                if fresh { "fresh" } else { "dirty" },
                job.kind,
                job.id,
                outputs.join(", ")
            );
            if !fresh {
                out!("      because {}", job.dirty_because.join("; "));
            }
        }
    }
    if !args.quiet && !args.json {
        match (args.check, dirty) {
            (true, 0) => eprintln!("check passed: {} jobs up to date", jobs.len()),
            (true, n) => eprintln!(
                "check failed: {n} of {} jobs are out of date (`kiln build` rebuilds them)",
                jobs.len()
            ),
            (false, n) => eprintln!(
                "dry run: {n} of {} jobs would rebuild, {} are fresh; nothing was written",
                jobs.len(),
                jobs.len() - n
            ),
        }
    }
    if args.check && dirty > 0 {
        EXIT_FAILURE
    } else {
        0
    }
}

fn dry_run_json(jobs: &[pipeline::DryJob], check: bool) -> Value {
    let dirty = jobs.iter().filter(|j| !j.dirty_because.is_empty()).count();
    let records: Vec<Value> = jobs
        .iter()
        .map(|j| {
            let mut v = json!({
                "id": j.id,
                "kind": j.kind,
                "manifest": j.manifest,
                "status": if j.dirty_because.is_empty() { "fresh" } else { "dirty" },
                "outputs": j.outputs.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
            });
            if !j.dirty_because.is_empty() {
                v["dirty_because"] = json!(j.dirty_because);
            }
            v
        })
        .collect();
    let mut v = json!({
        "kiln": crate::VERSION,
        "schema": super::JSON_SCHEMA,
        "dry_run": true,
        "jobs": records,
        "totals": { "jobs": jobs.len(), "fresh": jobs.len() - dirty, "dirty": dirty },
    });
    if check {
        v["up_to_date"] = json!(dirty == 0);
    }
    v
}
