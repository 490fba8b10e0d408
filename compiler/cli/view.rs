//! `kiln view --html`: one self-contained HTML page of what was built (or
//! of the files named), to look at rather than read.

use std::path::{Path, PathBuf};

use clap::Args;

use super::EXIT_FAILURE;
use crate::describe::page;
use crate::pipeline::{self, Options, files};

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
    #[arg(long, value_name = "OUT.html", required = true)]
    html: PathBuf,
    /// Print what was written as one JSON document (docs/json.md, "view")
    #[arg(long)]
    json: bool,
}

pub fn run(args: &ViewArgs) -> u8 {
    let files = match what_to_show(args) {
        Ok(files) => files,
        Err(e) => return super::report_build_error(&e),
    };
    let shown: Vec<page::Shown> = files
        .iter()
        .map(|(path, real)| files::shown(real, path))
        .collect();
    let title = format!("kiln view: {} file(s)", shown.len());
    let html = page::html(&title, &shown);
    if let Err(e) = std::fs::write(&args.html, &html) {
        eprintln!("error: cannot write {}: {e}", args.html.display());
        return EXIT_FAILURE;
    }
    let not_shown = shown.iter().filter(|s| s.problem.is_some()).count();
    if args.json {
        out!(
            "{}",
            serde_json::json!({
                "kiln": crate::VERSION,
                "schema": super::JSON_SCHEMA,
                "html": args.html.display().to_string(),
                "files": shown.len(),
                "not_shown": not_shown,
                "bytes": html.len(),
            })
        );
    } else {
        eprintln!(
            "wrote {}: {} file(s), {} not shown, {} bytes",
            args.html.display(),
            shown.len(),
            not_shown,
            html.len()
        );
    }
    0
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
