//! `kiln watch`: builds, then builds again on every save, until Ctrl-C.
//! In words as `kiln build` reports (one summary per build), or with
//! `--json` one JSON line per happening (docs/json.md, "watch").

use std::sync::Mutex;
use std::time::Duration;

use clap::Args;
use serde_json::{Value, json};

use super::build::{
    Printing, ProjectArgs, diagnostic_json, error_json, print_report, show_for, stop_on_signals,
    totals_json,
};
use super::progress::Progress;
use super::{EXIT_FAILURE, EXIT_USAGE};
use crate::pipeline::watcher::{self, Happening, MAX_DEBOUNCE, Settings};
use crate::pipeline::{Event, Report, Status};

#[derive(Args, Debug)]
pub struct WatchArgs {
    #[command(flatten)]
    project: ProjectArgs,
    /// One JSON line on stdout per happening: "watching", "started" (before
    /// any output changes) and "built" (the outputs that changed with their
    /// SHA-256, or the errors), for a game's editor to read
    #[arg(long)]
    json: bool,
    /// How long a file must stay quiet before its changes count, in
    /// milliseconds (one save is several events)
    #[arg(long, value_name = "MS", default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=MAX_DEBOUNCE.as_millis() as u64))]
    debounce_ms: u64,
    /// Look for changes by reading the folders every MS milliseconds
    /// instead of the system's notifications: for network drives, WSL's
    /// Windows folders and containers, where no notification comes
    #[arg(long, value_name = "MS", num_args = 0..=1, default_missing_value = "250", value_parser = clap::value_parser!(u64).range(10..=60_000))]
    poll: Option<u64>,
}

pub fn run(args: &WatchArgs) -> u8 {
    let options = args.project.options();
    if let Err(e) = stop_on_signals(&options.stop) {
        eprintln!("error: cannot catch SIGINT and SIGTERM ({e}); a watch ends on Ctrl-C");
        return EXIT_FAILURE;
    }
    let settings = Settings {
        debounce: Duration::from_millis(args.debounce_ms),
        poll: args.poll.map(Duration::from_millis),
    };
    // One progress bar (or heartbeat) per build.
    let progress: Mutex<Option<Progress>> = Mutex::new(None);
    let on_event = |event: Event| {
        if let Some(p) = progress.lock().expect("no panics while held").as_ref() {
            p.on(event);
        }
    };
    let mut on = |happening: Happening| {
        let mut bar = progress.lock().expect("no panics while held");
        match happening {
            Happening::Started { .. } => {
                *bar = Some(Progress::new(show_for(args.project.quiet, args.json, 10.0)));
            }
            Happening::Built { .. } => {
                if let Some(p) = bar.take() {
                    p.finish();
                }
            }
            _ => {}
        }
        drop(bar);
        show(&happening, args);
    };
    match watcher::watch(&options, &settings, &mut on, &on_event) {
        Ok(()) => {
            if !args.project.quiet {
                eprintln!("watch: stopped");
            }
            0
        }
        Err(e) => {
            if args.json {
                out!("{}", line("error", json!({ "message": e.to_string() })));
            }
            eprintln!("error: {e}");
            match e {
                watcher::WatchError::Root { .. } => EXIT_USAGE,
                _ => EXIT_FAILURE,
            }
        }
    }
}

/// Prints a happening: a JSON line, or words on stderr.
fn show(happening: &Happening, args: &WatchArgs) {
    if args.json {
        out!("{}", json_line(happening));
        if let Happening::Built {
            result: Ok(report), ..
        } = happening
        {
            // Errors in words too, on stderr, as a build prints them.
            let quiet = Printing {
                json: false,
                quiet: true,
                explain: false,
            };
            print_report(report, quiet, None);
        }
        return;
    }
    match happening {
        Happening::Watching { folders } if !args.project.quiet => {
            eprintln!("watch: watching {folders} folder(s); Ctrl-C to stop");
        }
        Happening::Started { generation } if !args.project.quiet && *generation > 1 => {
            eprintln!("watch: build {generation}");
        }
        Happening::Built { result, .. } => match result {
            Ok(report) => {
                let printing = Printing {
                    json: false,
                    quiet: args.project.quiet,
                    explain: args.project.explain,
                };
                print_report(report, printing, None);
            }
            Err(e) => {
                super::report_build_error(e);
            }
        },
        _ => {}
    }
}

/// One line of `--json`.
fn json_line(happening: &Happening) -> Value {
    match happening {
        Happening::Watching { folders } => line("watching", json!({ "folders": folders })),
        Happening::Started { generation } => line("started", json!({ "generation": generation })),
        Happening::Built { generation, result } => match result {
            Ok(report) => line("built", built_json(*generation, report)),
            Err(e) => line(
                "built",
                json!({
                    "generation": generation,
                    "ok": false,
                    "changed": [],
                    "errors": error_json(e)["errors"],
                }),
            ),
        },
    }
}

/// A build's line: the outputs of the jobs that ran (built, or restored)
/// and the errors of those that failed.
fn built_json(generation: u64, report: &Report) -> Value {
    let ran =
        |j: &&crate::pipeline::JobReport| matches!(j.status, Status::Built | Status::Restored);
    let changed: Vec<Value> = report
        .jobs
        .iter()
        .filter(ran)
        .flat_map(|j| {
            j.outputs.iter().map(|o| {
                json!({
                    "job": j.id,
                    "path": o.path.display().to_string(),
                    "bytes": o.bytes,
                    "sha256": o.sha256,
                })
            })
        })
        .collect();
    let mut errors: Vec<Value> = report
        .jobs
        .iter()
        .filter_map(|j| {
            let d = j.error.as_ref()?;
            let mut v = diagnostic_json(d);
            v["job"] = json!(j.id);
            Some(v)
        })
        .collect();
    if let Some(e) = &report.state_error {
        errors.push(json!({ "message": e }));
    }
    json!({
        "generation": generation,
        "ok": errors.is_empty() && !report.interrupted,
        "changed": changed,
        "errors": errors,
        "totals": totals_json(report),
    })
}

/// `fields` with the line's `event` and the schema in front.
fn line(event: &str, fields: Value) -> Value {
    let mut v = json!({ "kiln": crate::VERSION, "schema": super::JSON_SCHEMA, "event": event });
    if let (Value::Object(to), Value::Object(from)) = (&mut v, fields) {
        to.extend(from);
    }
    v
}
