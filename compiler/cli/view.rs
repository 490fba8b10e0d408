//! `kiln view --html`: one self-contained HTML page of what was built (or
//! of the files named), to look at rather than read; `kiln view --serve`:
//! the same page on 127.0.0.1, reloading itself when what it shows
//! changes (a `kiln watch` beside it).

use std::path::{Path, PathBuf};

use clap::Args;

use super::EXIT_FAILURE;
use crate::describe::page;
use crate::pipeline::{self, Options, files, serve};

#[derive(Args, Debug)]
pub struct ViewArgs {
    /// What to show: files (any type `inspect` reads), or manifests and
    /// targets whose outputs to show [default: every output of every job
    /// of every ROOT/manifests/*.yaml]
    #[arg(value_name = "FILE|MANIFEST|TARGET")]
    names: Vec<String>,
    /// Project root; manifest paths are resolved against it
    #[arg(long, default_value = ".", value_name = "DIR")]
    root: PathBuf,
    /// Output folder [default: ROOT/out]
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Write the page here: one HTML file that needs nothing else (no
    /// server, no network)
    #[arg(long, value_name = "OUT.html", required_unless_present = "serve")]
    html: Option<PathBuf>,
    /// Serve the page on http://127.0.0.1:PORT/ instead, made afresh for
    /// each request; an open page reloads itself when a file it shows
    /// changes (run `kiln watch` beside it). Ctrl-C stops it
    #[arg(long, conflicts_with = "html")]
    serve: bool,
    /// The port to serve on (0: any free one, printed)
    #[arg(long, default_value_t = 7474, requires = "serve")]
    port: u16,
    /// Print what was written (or where it is served) as one JSON
    /// document (docs/json.md, "view" and "view-serve")
    #[arg(long)]
    json: bool,
}

pub fn run(args: &ViewArgs) -> u8 {
    let files = match what_to_show(args) {
        Ok(files) => files,
        Err(e) => return super::report_build_error(&e),
    };
    let Some(out) = &args.html else {
        return serve(args, files);
    };
    let (html, shown, not_shown) = page_of(&files, None);
    if let Err(e) = std::fs::write(out, &html) {
        eprintln!("error: cannot write {}: {e}", out.display());
        return EXIT_FAILURE;
    }
    if args.json {
        out!(
            "{}",
            serde_json::json!({
                "kiln": crate::VERSION,
                "schema": super::JSON_SCHEMA,
                "html": out.display().to_string(),
                "files": shown,
                "not_shown": not_shown,
                "bytes": html.len(),
            })
        );
    } else {
        eprintln!(
            "wrote {}: {} file(s), {} not shown, {} bytes",
            out.display(),
            shown,
            not_shown,
            html.len()
        );
    }
    0
}

/// The page of `files` (at a server's `live` generation): its text, how
/// many files it shows and how many of them it could not.
fn page_of(files: &[(String, PathBuf)], live: Option<u64>) -> (String, usize, usize) {
    let shown: Vec<page::Shown> = files
        .iter()
        .map(|(path, real)| files::shown(real, path))
        .collect();
    let title = format!("kiln view: {} file(s)", shown.len());
    let not_shown = shown.iter().filter(|s| s.problem.is_some()).count();
    (page::html(&title, &shown, live), shown.len(), not_shown)
}

/// `kiln view --serve`: the page of what `args` names, made again for each
/// request from the files then; the page reloads when the files (or the
/// outputs the manifests name) change.
fn serve(args: &ViewArgs, files: Vec<(String, PathBuf)>) -> u8 {
    let stop = pipeline::job::Stop::default();
    if let Err(e) = super::build::stop_on_signals(&stop) {
        eprintln!("error: cannot catch SIGINT and SIGTERM ({e}); the server ends on Ctrl-C");
    }
    let listener = match serve::bind(args.port) {
        Ok(l) => l,
        Err(e) => {
            eprintln!(
                "error: cannot serve on 127.0.0.1:{}: {e} (another port: --port N, or --port 0 for any free one)",
                args.port
            );
            return EXIT_FAILURE;
        }
    };
    let url = match listener.local_addr() {
        Ok(a) => format!("http://127.0.0.1:{}/", a.port()),
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_FAILURE;
        }
    };
    if args.json {
        out!(
            "{}",
            serde_json::json!({
                "kiln": crate::VERSION,
                "schema": super::JSON_SCHEMA,
                "url": url,
                "files": files.len(),
            })
        );
    } else {
        eprintln!("serving {url}: {} file(s); Ctrl-C to stop", files.len());
    }
    // What is shown now: the files (asked again: a manifest may have
    // gained outputs), and their stat signatures.
    let current = || what_to_show(args).unwrap_or_else(|_| files.clone());
    let now = || files::signatures(&current());
    let page = |generation| page_of(&current(), Some(generation)).0;
    match serve::serve(listener, &serve::Settings::default(), &stop, page, now) {
        Ok(()) => {
            if !args.json {
                eprintln!("view: stopped");
            }
            0
        }
        Err(e) => {
            eprintln!("error: serving {url}: {e}");
            EXIT_FAILURE
        }
    }
}

/// The files to show, each as the page names it and where it is: the
/// named files, and every output of the named manifests and targets (of
/// every job, when nothing is named).
fn what_to_show(args: &ViewArgs) -> Result<Vec<(String, PathBuf)>, pipeline::BuildError> {
    let (files, names): (Vec<&String>, Vec<&String>) =
        args.names.iter().partition(|n| is_file_name(n));
    let mut shown: Vec<(String, PathBuf)> = files
        .iter()
        .map(|f| (f.to_string(), PathBuf::from(f)))
        .collect();
    if names.is_empty() && !files.is_empty() {
        return Ok(shown);
    }
    let names: Vec<String> = names.into_iter().cloned().collect();
    let (manifests, targets) = super::build::split_names(&names);
    let opts = Options {
        root: args.root.clone(),
        out: args.out.clone(),
        manifests,
        targets,
        ..Options::default()
    };
    for job in pipeline::engine::dry_run(&opts)? {
        for output in job.outputs {
            let real = match output.is_absolute() {
                true => output.clone(),
                false => args.root.join(&output),
            };
            shown.push((output.display().to_string(), real));
        }
    }
    Ok(shown)
}

/// A name is a file to show when it is an existing file or folder that is
/// not a manifest.
fn is_file_name(name: &str) -> bool {
    !(name.ends_with(".yaml") || name.ends_with(".yml")) && Path::new(name).exists()
}
