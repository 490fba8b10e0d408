//! `kiln build`: runs the engine, shows progress, prints the outcome.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use clap::Args;
use serde_json::{Value, json};

use super::progress::{Progress, Show};
use super::{EXIT_FAILURE, EXIT_SIGINT, EXIT_SIGTERM, print_diagnostic, report_build_error};
use crate::pipeline::job::Stop;
use crate::pipeline::{self, BuildError, Event, Options, Report, Status};

/// What to build, where, on how many threads, and how much to say:
/// `build`'s and `watch`'s.
#[derive(Args, Debug)]
pub struct ProjectArgs {
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
    /// Say why each rebuilt job was dirty
    #[arg(long)]
    pub explain: bool,
    /// Print nothing but errors
    #[arg(long, short)]
    pub quiet: bool,
}

impl ProjectArgs {
    /// The build's options these say (the rest at their defaults).
    pub(super) fn options(&self) -> Options {
        let (manifests, targets) = split_names(&self.names);
        Options {
            root: self.root.clone(),
            out: self.out.clone(),
            manifests,
            targets,
            threads: self.jobs.map_or(0, usize::from),
            ..Options::default()
        }
    }
}

#[derive(Args, Debug)]
pub struct BuildArgs {
    #[command(flatten)]
    project: ProjectArgs,
    /// Print a machine-readable summary on stdout
    #[arg(long)]
    json: bool,
    /// Rebuild every job, fresh or not
    #[arg(long)]
    force: bool,
    /// Print each job as fresh or dirty, why, and its outputs; build and
    /// write nothing (works on a read-only output folder)
    #[arg(long, short = 'n')]
    dry_run: bool,
    /// Exit 1 if any job would rebuild (an output missing or changed, a
    /// source or setting changed), 0 if all are up to date; write nothing
    #[arg(long, conflicts_with = "dry_run")]
    check: bool,
    /// The most bytes one job may write (its outputs together): a disk
    /// budget; a job that would pass it fails, naming it
    #[arg(long, value_name = "BYTES")]
    max_output_bytes: Option<u64>,
    /// Without a terminal (CI, a pipe), print a line every SECS seconds for
    /// each job still running after that long
    #[arg(long, value_name = "SECS", default_value_t = 10.0, value_parser = heartbeat_secs)]
    heartbeat: f64,
    /// A shared cache over the Bazel HTTP remote-cache protocol
    /// (bazel-remote, nginx with WebDAV, ...): a dirty job's outputs are
    /// restored from it when it holds them, and a job built here is stored
    /// in it [env: KILN_REMOTE_CACHE; a bearer token from
    /// KILN_REMOTE_CACHE_TOKEN]
    #[arg(long, value_name = "URL")]
    remote_cache: Option<String>,
    /// Restore from the remote cache, never store in it (developers read,
    /// CI writes)
    #[arg(long)]
    remote_cache_read_only: bool,
    /// A remote cache error fails the job (without it: one warning, and the
    /// job builds here)
    #[arg(long)]
    remote_cache_strict: bool,
    /// Build this percent of the jobs here even when the remote cache holds
    /// them (the same jobs each run) and compare with its entry: a job whose
    /// bytes differ fails, naming each output (a consistency check)
    #[arg(long, value_name = "PERCENT", default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=100))]
    remote_cache_verify: u8,
    /// Share model conversions through the remote cache too. Without it
    /// they are rebuilt: a conversion streams its checkpoint, already on
    /// this machine, faster than most networks bring its output (see
    /// BENCHMARKS.md)
    #[arg(long)]
    remote_cache_conversions: bool,
    /// PEM certificates of the CA that signs the remote cache's HTTPS
    /// certificate, trusted in place of the web's roots [env:
    /// KILN_REMOTE_CACHE_CA]
    #[arg(long, value_name = "FILE")]
    remote_cache_ca: Option<PathBuf>,
    /// A PEM client certificate for a remote cache that asks for one
    /// (mTLS); needs --remote-cache-client-key [env:
    /// KILN_REMOTE_CACHE_CLIENT_CERT]
    #[arg(long, value_name = "FILE")]
    remote_cache_client_cert: Option<PathBuf>,
    /// The PEM private key of --remote-cache-client-cert [env:
    /// KILN_REMOTE_CACHE_CLIENT_KEY]
    #[arg(long, value_name = "FILE")]
    remote_cache_client_key: Option<PathBuf>,
    /// A netrc file whose entry for the cache's host (`machine HOST login
    /// USER password SECRET`) gives basic authentication, when neither a
    /// token nor the URL gives credentials [env: KILN_REMOTE_CACHE_NETRC]
    #[arg(long, value_name = "FILE")]
    remote_cache_netrc: Option<PathBuf>,
}

/// The remote cache the flags and the environment name, if any.
fn remote_cache(args: &BuildArgs) -> Option<Result<pipeline::engine::RemoteCache, String>> {
    let url = args
        .remote_cache
        .clone()
        .or_else(|| std::env::var("KILN_REMOTE_CACHE").ok())
        .filter(|u| !u.is_empty())?;
    let mut settings = pipeline::remote::Settings::new(url);
    settings.bearer_token = std::env::var("KILN_REMOTE_CACHE_TOKEN")
        .ok()
        .filter(|t| !t.is_empty());
    let file = |flag: &Option<PathBuf>, var: &str| {
        flag.clone().or_else(|| {
            std::env::var_os(var)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        })
    };
    settings.tls_ca = file(&args.remote_cache_ca, "KILN_REMOTE_CACHE_CA");
    settings.netrc = file(&args.remote_cache_netrc, "KILN_REMOTE_CACHE_NETRC");
    let cert = file(
        &args.remote_cache_client_cert,
        "KILN_REMOTE_CACHE_CLIENT_CERT",
    );
    let key = file(
        &args.remote_cache_client_key,
        "KILN_REMOTE_CACHE_CLIENT_KEY",
    );
    settings.tls_client = match (cert, key) {
        (Some(c), Some(k)) => Some((c, k)),
        (None, None) => None,
        _ => {
            return Some(Err(
                "--remote-cache-client-cert and --remote-cache-client-key go together: give both (or neither)".to_string(),
            ));
        }
    };
    Some(Ok(pipeline::engine::RemoteCache {
        settings,
        read_only: args.remote_cache_read_only,
        strict: args.remote_cache_strict,
        verify_percent: args.remote_cache_verify,
        share_conversions: args.remote_cache_conversions,
    }))
}

fn heartbeat_secs(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(secs) if (0.01..=86_400.0).contains(&secs) => Ok(secs),
        _ => Err("expected a number of seconds from 0.01 to 86400".to_string()),
    }
}

/// The names that are manifests, and those that are targets.
pub(super) fn split_names(names: &[String]) -> (Vec<PathBuf>, Vec<String>) {
    let (manifests, targets): (Vec<&String>, Vec<&String>) =
        names.iter().partition(|n| is_manifest_name(n));
    (
        manifests.into_iter().map(PathBuf::from).collect(),
        targets.into_iter().cloned().collect(),
    )
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
    let remote_cache = match remote_cache(args).transpose() {
        Ok(rc) => rc,
        Err(message) => {
            let e = BuildError::Usage(message);
            if args.json {
                out!("{}", error_json(&e));
            }
            return report_build_error(&e);
        }
    };
    let options = Options {
        force: args.force,
        max_output_bytes: args.max_output_bytes,
        remote_cache,
        ..args.project.options()
    };
    // A dry run writes nothing: a signal may end it where it stands.
    if args.dry_run || args.check {
        return dry_run(&options, args);
    }
    if let Err(e) = stop_on_signals(&options.stop) {
        eprintln!(
            "warning: cannot catch SIGINT and SIGTERM ({e}); an interrupted build leaves temporary files for the next one to remove"
        );
    }
    let progress = Progress::new(show_progress(args));
    let on_event = |event: Event| progress.on(event);
    let result = pipeline::build(&options, &on_event);
    progress.finish();
    let signal_status = || options.stop.requested().and_then(|s| u8::try_from(s).ok());
    match result {
        Ok(report) => {
            let printing = Printing {
                json: args.json,
                quiet: args.project.quiet,
                explain: args.project.explain,
            };
            print_report(&report, printing, options.remote_cache.as_ref());
            match signal_status() {
                Some(status) if report.interrupted => status,
                _ if report.count(Status::Failed) > 0 => EXIT_FAILURE,
                _ if report.state_error.is_some() => EXIT_FAILURE,
                _ => 0,
            }
        }
        Err(BuildError::Interrupted) => {
            if args.json {
                out!("{}", error_json(&BuildError::Interrupted));
            }
            if !args.project.quiet {
                eprintln!("interrupted: {}", BuildError::Interrupted);
            }
            signal_status().unwrap_or(EXIT_FAILURE)
        }
        Err(e) => {
            if args.json {
                out!("{}", error_json(&e));
            }
            report_build_error(&e)
        }
    }
}

/// Nothing with `--quiet`; a bar on a terminal (not in CI, not with
/// `--json`); otherwise (CI, a pipe, JSON) the heartbeat lines on stderr.
fn show_progress(args: &BuildArgs) -> Show {
    show_for(args.project.quiet, args.json, args.heartbeat)
}

/// Nothing when quiet; a bar on a terminal (not in CI, not with JSON);
/// otherwise heartbeat lines every `heartbeat` seconds.
pub(super) fn show_for(quiet: bool, json: bool, heartbeat: f64) -> Show {
    let ci = std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "false");
    let terminal = std::io::stderr().is_terminal() && !ci;
    match (quiet, terminal && !json) {
        (true, _) => Show::Nothing,
        (false, true) => Show::Bar,
        (false, false) => Show::Heartbeat(Duration::from_secs_f64(heartbeat)),
    }
}

/// On SIGINT or SIGTERM, asks the build to stop (it then exits 130 or
/// 143); a second one ends the process at once (the next build removes
/// the temporary files that leaves).
pub(super) fn stop_on_signals(stop: &Stop) -> std::io::Result<()> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let again = Arc::new(AtomicBool::new(false));
    for (signal, status) in [(SIGINT, EXIT_SIGINT), (SIGTERM, EXIT_SIGTERM)] {
        // In this order: the second signal finds `again` set by the first.
        signal_hook::flag::register_conditional_shutdown(signal, status.into(), again.clone())?;
        signal_hook::flag::register(signal, again.clone())?;
        signal_hook::flag::register_usize(signal, stop.flag(), status.into())?;
    }
    Ok(())
}

/// How a build's report is printed.
#[derive(Clone, Copy, Debug)]
pub(super) struct Printing {
    pub json: bool,
    pub quiet: bool,
    pub explain: bool,
}

pub(super) fn print_report(
    report: &Report,
    args: Printing,
    remote: Option<&pipeline::engine::RemoteCache>,
) {
    for job in &report.jobs {
        if let Some(d) = &job.error {
            print_diagnostic(d);
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
    if let Some(e) = &report.state_error {
        eprintln!(
            "error: {e}; the jobs above stand, and the next build checks their outputs again (free space, or fix the output folder's permissions)"
        );
    }
    if args.json {
        out!("{}", report_json(report, remote));
        return;
    }
    if args.explain && !args.quiet {
        for job in report.jobs.iter().filter(|j| j.status != Status::Fresh) {
            let done = match job.status {
                Status::Restored => "restored from the remote cache (a remote hit)",
                _ => "rebuilt",
            };
            out!(
                "{}: {done} because {}",
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
        let stopped = report.count(Status::Interrupted);
        let head = match (report.interrupted, failed) {
            (true, _) => "interrupted:",
            (false, 0) => "finished:",
            (false, _) => "failed:",
        };
        let not_built = match report.interrupted {
            true => format!(", {stopped} not built (what was built is kept)"),
            false => String::new(),
        };
        eprintln!(
            "{head} {} jobs: {} built,{} {} fresh, {failed} failed{not_built} in {:.2} s",
            report.jobs.len(),
            report.count(Status::Built),
            match report.count(Status::Restored) {
                0 => String::new(),
                n => format!(" {n} restored from the remote cache,"),
            },
            report.count(Status::Fresh),
            report.time.as_secs_f64()
        );
    }
}

fn report_json(report: &Report, remote: Option<&pipeline::engine::RemoteCache>) -> Value {
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
            if let Some(r) = j.remote {
                v["remote_cache"] = json!({
                    "lookup": r.lookup.as_str(),
                    "store": r.store.as_str(),
                });
            }
            v
        })
        .collect();
    let mut doc = json!({
        "kiln": crate::VERSION,
        "schema": super::JSON_SCHEMA,
        "jobs": jobs,
        "removed": report.removed.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
        "totals": totals_json(report),
        "interrupted": report.interrupted,
    });
    if let Some(e) = &report.state_error {
        doc["state_error"] = json!(e);
    }
    if let Some(rc) = remote {
        doc["remote_cache"] = remote_json(report, rc);
    }
    doc
}

/// The remote cache's settings and what it did, counted over the jobs.
fn remote_json(report: &Report, rc: &pipeline::engine::RemoteCache) -> Value {
    use pipeline::shared_cache::{Lookup, Store};
    let uses: Vec<_> = report.jobs.iter().filter_map(|j| j.remote).collect();
    let lookups = |l: Lookup| uses.iter().filter(|u| u.lookup == l).count();
    let stores = |s: Store| uses.iter().filter(|u| u.store == s).count();
    json!({
        "url": pipeline::remote::redact(&rc.settings.url),
        "read_only": rc.read_only,
        "strict": rc.strict,
        "verify_percent": rc.verify_percent,
        "share_conversions": rc.share_conversions,
        "hits": lookups(Lookup::Hit),
        "misses": lookups(Lookup::Miss),
        "errors": lookups(Lookup::Error),
        "sampled": lookups(Lookup::Sampled),
        "not_shared": lookups(Lookup::NotShared),
        "stored": stores(Store::Stored),
        "store_errors": stores(Store::Error),
    })
}

/// A build's counts (`build`'s `.totals`, and each `built` line of
/// `watch`).
pub(super) fn totals_json(report: &Report) -> Value {
    json!({
        "jobs": report.jobs.len(),
        "built": report.count(Status::Built),
        "restored": report.count(Status::Restored),
        "fresh": report.count(Status::Fresh),
        "failed": report.count(Status::Failed),
        "interrupted": report.count(Status::Interrupted),
        "time_ms": millis(report.time),
        "planned": report.planned,
        "manifests_planned": report.manifests_planned,
    })
}

pub(super) fn millis(d: std::time::Duration) -> f64 {
    (d.as_secs_f64() * 1e6).round() / 1e3
}

pub(super) fn diagnostic_json(d: &pipeline::Diagnostic) -> Value {
    json!({
        "file": d.file,
        "line": d.pos.line,
        "column": d.pos.column,
        "message": d.message,
    })
}

pub(super) fn error_json(e: &BuildError) -> Value {
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
    if !args.project.quiet && !args.json {
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
