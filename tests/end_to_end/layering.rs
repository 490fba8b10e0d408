//! The arrows of ARCHITECTURE.md, enforced on the source text:
//!
//! ```text
//! formats, model  <-  import, bake  <-  pipeline  <-  cli
//! ```
//!
//! and `memory` (fallible allocation), a leaf every layer may use.
//!
//! A layer uses only the layers to its left; the pure layers (formats,
//! model, import, bake) touch no file, read no environment, start no thread
//! or process and print nothing; the pipeline prints nothing and reads no
//! environment either (only the CLI does). Test modules are exempt (a
//! test may read a fixture), and so is this rule's own file.

use std::fs;
use std::path::{Path, PathBuf};

const REPO: &str = env!("CARGO_MANIFEST_DIR");

/// (layer folder, the crate modules it may use).
const LAYERS: &[(&str, &[&str])] = &[
    ("memory", &["memory"]),
    ("formats", &["formats", "memory"]),
    ("model", &["model", "memory"]),
    ("import", &["import", "formats", "model", "memory"]),
    ("bake", &["bake", "formats", "model", "memory"]),
    (
        "pipeline",
        &["pipeline", "import", "bake", "formats", "model", "memory"],
    ),
    (
        "cli",
        &[
            "cli", "pipeline", "import", "bake", "formats", "model", "memory",
        ],
    ),
];

/// What the pure layers may not name.
const IMPURE: &[&str] = &[
    "std::fs",
    "std::env",
    "std::thread",
    "std::process",
    "std::net",
    "std::io::stdin",
    "std::io::stdout",
    "std::io::stderr",
    "rayon",
    "File::",
    "println!",
    "eprintln!",
    "print!",
    "eprint!",
    "dbg!",
    "env::var",
];

/// What the pipeline may not name: it knows files and threads, but never
/// prints or reads the environment.
const PIPELINE_FORBIDDEN: &[&str] = &[
    "std::env",
    "env::var",
    "println!",
    "eprintln!",
    "print!",
    "eprint!",
    "dbg!",
    "std::io::stdout",
    "std::io::stderr",
    "std::process",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The file's text without its test module (by convention the last item,
/// from `#[cfg(test)]` on) and without comments.
fn code_of(text: &str) -> String {
    let body = match text.find("#[cfg(test)]") {
        Some(i) => &text[..i],
        None => text,
    };
    body.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every `crate::<module>` a piece of code names.
fn crate_modules(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        let after = &rest[i + "crate::".len()..];
        let name: String = after
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        found.push(name);
        rest = after;
    }
    found
}

fn layer_files(layer: &str) -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    rust_files(&Path::new(REPO).join("compiler").join(layer), &mut files);
    files.sort();
    files
        .into_iter()
        .map(|f| {
            let code = code_of(&fs::read_to_string(&f).unwrap());
            (f, code)
        })
        .collect()
}

#[test]
fn every_layer_uses_only_the_layers_below_it() {
    let mut problems = Vec::new();
    for (layer, allowed) in LAYERS {
        let files = layer_files(layer);
        assert!(!files.is_empty(), "no files in compiler/{layer}");
        for (file, code) in files {
            for module in crate_modules(&code) {
                // `crate::VERSION` is the crate's own constant.
                if module != "VERSION" && !allowed.contains(&module.as_str()) {
                    problems.push(format!("{}: uses crate::{module}", file.display()));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_pure_layers_touch_no_file_thread_environment_or_terminal() {
    let mut problems = Vec::new();
    for layer in ["memory", "formats", "model", "import", "bake"] {
        for (file, code) in layer_files(layer) {
            for word in IMPURE {
                if code.contains(word) {
                    problems.push(format!("{}: names {word}", file.display()));
                }
            }
        }
    }
    for (file, code) in layer_files("pipeline") {
        for word in PIPELINE_FORBIDDEN {
            if code.contains(word) {
                problems.push(format!("{}: names {word}", file.display()));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The checks can fail: a file that breaks each rule is caught.
#[test]
fn the_checks_see_a_violation() {
    let code = code_of(
        "use crate::pipeline::x; // crate::cli in a comment\nfn f() { std::fs::read(\"a\"); }\n#[cfg(test)]\nmod t { use crate::cli; }",
    );
    assert_eq!(crate_modules(&code), ["pipeline"]);
    assert!(code.contains("std::fs"));
    assert!(!code.contains("crate::cli"));
}
