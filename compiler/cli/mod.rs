//! The command line: the only part that prints, reads the environment or
//! picks exit codes.
//!
//! Exit status: 0 success, 1 a build or validation failure, 2 a usage
//! error, 130 or 143 a build stopped by SIGINT or SIGTERM. Errors go to
//! stderr; `--json` output goes to stdout.

/// `println!` that ignores a closed stdout (`kiln inspect F | head`)
/// instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

mod build;
mod inspect;
mod progress;
mod verify;
mod view;
mod watch;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Exit status of a failed build or an invalid file.
pub const EXIT_FAILURE: u8 = 1;
/// Exit status of a usage error.
pub const EXIT_USAGE: u8 = 2;
/// Exit status of a build stopped by SIGINT (Ctrl-C): 128 + 2, as shells
/// report a process the signal ended.
pub const EXIT_SIGINT: u8 = 130;
/// Exit status of a build stopped by SIGTERM: 128 + 15.
pub const EXIT_SIGTERM: u8 = 143;
/// The `schema` field of every JSON document `build` and `verify` print
/// (docs/json.md). It goes up when a documented field changes its meaning
/// or goes away; new fields may appear without it.
pub const JSON_SCHEMA: u32 = 1;

#[derive(Parser, Debug)]
#[command(
    name = "kiln",
    version,
    about = "A manifest-driven, incremental, deterministic asset compiler",
    long_about = "kiln compiles game and character assets described by YAML manifests.\n\n\
        `kiln build` turns the sources named in manifests/*.yaml into runtime files under out/, \
        rebuilding only what changed and producing the same bytes on every machine.",
    after_help = "Exit status: 0 success, 1 build or validation failure, 2 usage error, \
        130 or 143 a build stopped by SIGINT (Ctrl-C) or SIGTERM.\n\
        Manifest reference: docs/manifest.md"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Build the outputs of the manifests (default: every manifests/*.yaml)
    #[command(after_help = "Examples:\n  \
        kiln build                          build every manifest in manifests/\n  \
        kiln build manifests/fox.yaml -j 2  build one manifest's jobs on two threads\n  \
        kiln build fox-run forest           build two jobs by id (a level by its name)\n  \
        kiln build 'pose_cache:fox-*'       every pose cache whose id starts with fox-\n  \
        kiln build --dry-run                what would rebuild, and why; writes nothing\n  \
        kiln build --check                  exit 1 if anything is out of date (for CI)\n  \
        kiln build --json > report.json     a machine-readable summary\n  \
        kiln build --explain                say why each rebuilt job was dirty\n\n\
        Every manifest is planned whatever is named, so building a subset never \
        removes the outputs of jobs that are still in some manifest.")]
    Build(build::BuildArgs),
    /// Build, then build again whenever a source, a file it names, a
    /// manifest or a glob's matches change, until Ctrl-C
    #[command(after_help = "Examples:\n  \
        kiln watch                          build every manifest, then on every save\n  \
        kiln watch forest                   only the level forest (and what it reads)\n  \
        kiln watch --json | my-editor-plugin\n                                      \
        one JSON line per build: \"started\", then \"built\" with the outputs that changed\n  \
        kiln watch --poll                   for network drives, WSL's Windows folders, containers\n\n\
        Folders are watched, never single files (editors save by renaming), and never the \
        output folder. A failed build is reported and the watch goes on: the last good \
        outputs stay. A game can watch out/ (kiln renames each output into place whole, \
        the set's index last) or read the JSON lines (docs/watch.md).")]
    Watch(watch::WatchArgs),
    /// Write one self-contained HTML page showing what was built (or serve
    /// it): each output's summary, tensor table, pictures and 3-D scene
    #[command(after_help = "Examples:\n  \
        kiln view --html report.html                   every output of every job\n  \
        kiln view forest --html forest.html            one level's outputs\n  \
        kiln view out/models/tiny.gguf --html m.html   the files named\n  \
        kiln view --serve                              http://127.0.0.1:7474/, reloading\n\n\
        The page needs nothing else: no server and no network (open it from disk or \
        from a CI artifact). A file not built yet is listed as such. Served, an open page \
        reloads itself when what it shows changes: run `kiln watch` beside it.")]
    View(view::ViewArgs),
    /// Show what a file holds (the types kiln reads are listed below)
    #[command(after_help = "Examples:\n  \
        kiln inspect sources/characters/Fox.glb              node tree, skins, clips, meshes, materials\n  \
        kiln inspect --atlas-png fox.png sources/characters/Fox.glb\n                                                       \
        run the material stage, write its atlas as a PNG\n  \
        kiln inspect --png albedo.png atlas.qoi              a QOI image as a PNG\n  \
        kiln inspect --json out/poses/fox.ospc               machine-readable")]
    Inspect {
        /// The file to inspect
        file: PathBuf,
        /// Print JSON instead of text
        #[arg(long)]
        json: bool,
        /// For a .glb/.gltf: run the material stage (every mesh a node
        /// instantiates) and write its albedo atlas as a PNG here
        #[arg(long, value_name = "OUT.png", conflicts_with = "png")]
        atlas_png: Option<PathBuf>,
        /// For a .qoi: write it as a PNG here
        #[arg(long, value_name = "OUT.png")]
        png: Option<PathBuf>,
    },
    /// Fully validate files; exit 1 naming the file, rule and byte offset of
    /// the first problem in each invalid one
    Verify {
        /// Files to validate: every type `inspect` reads (listed below)
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print one JSON document: a record per file (valid, its summary or
        /// its errors), then totals
        #[arg(long)]
        json: bool,
    },
    /// Remove what kiln made in the output folder: the outputs it recorded,
    /// its temporary files and .kiln/; anything else stays and is listed
    Clean {
        /// Project root
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// Output folder [default: ROOT/out]
        #[arg(long)]
        out: Option<PathBuf>,
    },
}

/// The command line's definition, with the file types `inspect` and
/// `verify` read written from the registry ([`crate::describe::FILE_TYPES`]).
pub fn command() -> clap::Command {
    use clap::CommandFactory;
    let types = format!("File types: {}.", crate::describe::file_types_text());
    let with_types = |c: clap::Command| {
        let text = match c.get_after_help() {
            Some(after) => format!("{types}\n\n{after}"),
            None => types.clone(),
        };
        c.after_help(text)
    };
    Cli::command()
        .mut_subcommand("inspect", with_types)
        .mut_subcommand("verify", with_types)
}

pub fn main() -> ExitCode {
    use clap::FromArgMatches;
    let parsed = command()
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_USAGE } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let code = match cli.command {
        Command::Build(args) => build::run(&args),
        Command::Watch(args) => watch::run(&args),
        Command::View(args) => view::run(&args),
        Command::Inspect {
            file,
            json,
            atlas_png,
            png,
        } => match (atlas_png, png) {
            (Some(out), _) => inspect::atlas(&file, &out, json),
            (None, Some(out)) => inspect::to_png(&file, &out, json),
            (None, None) => inspect::run(&file, json),
        },
        Command::Verify { files, json } => verify::run(&files, json),
        Command::Clean { root, out } => clean(&root, out.as_deref()),
    };
    ExitCode::from(code)
}

fn clean(root: &std::path::Path, out: Option<&std::path::Path>) -> u8 {
    match crate::pipeline::clean(root, out) {
        Ok(Some(report)) => {
            let out = report.out.display();
            if report.removed_out {
                eprintln!("removed {out} ({} files kiln made)", report.removed);
                return 0;
            }
            eprintln!(
                "removed {} files kiln made from {out}; kept {} it did not make (or has no record of):",
                report.removed, report.n_kept
            );
            for kept in &report.kept {
                eprintln!("  {out}/{kept}");
            }
            if report.n_kept > report.kept.len() {
                eprintln!("  ... and {} more", report.n_kept - report.kept.len());
            }
            0
        }
        Ok(None) => {
            let out = out.map_or_else(|| root.join("out"), std::path::Path::to_path_buf);
            eprintln!(
                "nothing to clean: {} holds nothing kiln made (no .kiln folder)",
                out.display()
            );
            0
        }
        Err(e) => report_build_error(&e),
    }
}

/// Prints a whole-build error; returns its exit status.
fn report_build_error(e: &crate::pipeline::BuildError) -> u8 {
    use crate::pipeline::BuildError;
    match e {
        BuildError::Usage(m) => {
            eprintln!("error: {m}");
            EXIT_USAGE
        }
        BuildError::Manifests(diags) => {
            for d in diags {
                print_diagnostic(d);
            }
            EXIT_FAILURE
        }
        BuildError::Io(m) => {
            eprintln!("error: {m}");
            EXIT_FAILURE
        }
        BuildError::Interrupted => {
            eprintln!("interrupted: {e}");
            EXIT_FAILURE
        }
    }
}

/// Prints a manifest problem: `error: FILE:LINE:COLUMN: message` (the form
/// editors and CI problem matchers read), then the manifest's line with a
/// caret under the place, as rustc shows it; in colour on a terminal
/// unless `NO_COLOR` is set.
fn print_diagnostic(d: &crate::pipeline::Diagnostic) {
    use std::io::IsTerminal;
    eprintln!("error: {d}");
    let colour = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    if let Some(snippet) = snippet(d, colour) {
        eprintln!("{snippet}");
    }
}

/// The snippet under a diagnostic: its line, numbered, with a caret under
/// the token at its column (`None` without a quoted line).
fn snippet(d: &crate::pipeline::Diagnostic, colour: bool) -> Option<String> {
    use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
    let line = d.line.as_deref()?;
    let column = usize::try_from(d.pos.column).ok()?.checked_sub(1)?;
    let start = line
        .char_indices()
        .nth(column)
        .map_or(line.len(), |(at, _)| at);
    // The token there: up to a space or YAML punctuation, at least one
    // character (or the end of the line).
    let token = line[start..]
        .find(|c: char| c.is_whitespace() || matches!(c, ':' | ',' | '{' | '}' | '[' | ']'))
        .unwrap_or(line.len() - start);
    let end = start + token.max(line[start..].chars().next().map_or(0, char::len_utf8));
    let report = &[Group::with_level(Level::ERROR).element(
        Snippet::source(line)
            .line_start(usize::try_from(d.pos.line).ok()?)
            .annotation(AnnotationKind::Primary.span(start..end)),
    )];
    let renderer = if colour {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    Some(renderer.render(report).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::Diagnostic;
    use crate::pipeline::manifest::Pos;

    fn at(line: &str, column: u64) -> Option<String> {
        let d = Diagnostic {
            file: "manifests/m.yaml".into(),
            pos: Pos { line: 12, column },
            message: "m".into(),
            line: Some(line.into()),
        };
        snippet(&d, false)
    }

    #[test]
    fn a_snippet_puts_a_caret_under_the_token_at_the_column() {
        assert_eq!(
            at("    colour: red", 5).unwrap(),
            "   |\n12 |     colour: red\n   |     ^^^^^^"
        );
        assert_eq!(
            at("    rate_hz: fast", 14).unwrap(),
            "   |\n12 |     rate_hz: fast\n   |              ^^^^"
        );
        // In a flow mapping, the value stops at its comma; characters, not
        // bytes, count the column.
        assert_eq!(
            at("  - { id: é, rate: x }", 17).unwrap(),
            "   |\n12 |   - { id: é, rate: x }\n   |                 ^"
        );
        // At the end of the line: one caret past it.
        assert_eq!(at("key:", 5).unwrap(), "   |\n12 | key:\n   |     ^");
        // No line, no column: no snippet.
        assert_eq!(at("key:", 0), None);
        let d = Diagnostic {
            file: "m".into(),
            pos: Pos { line: 1, column: 1 },
            message: "m".into(),
            line: None,
        };
        assert_eq!(snippet(&d, false), None);
    }
}
