//! Every YAML example in README.md and docs/ is built: each block becomes
//! the only manifest of a copy of the demo project, the sources it names
//! that the demo does not ship are made (small, synthetic: see `make`),
//! and `kiln build` must succeed, building every job the example declares.
//! An example that drifts from kiln (a key renamed, a file the demo lost)
//! fails here.
//!
//! A block may say what it shows instead of a build that succeeds, on the
//! line before it: `<!-- example: fails "TEXT" -->` (the build fails, and
//! its errors include TEXT).

use std::fs;
use std::path::Path;

use crate::cli_support::{Project, REPO, stderr};
use crate::synth;

const INVENTORY: &str = include_str!("../corpus/motionbricks/inventory.json");

/// A YAML example: where it is, what it holds, what its build must do.
struct Example {
    place: String,
    text: String,
    /// `Some(text)`: the build fails, saying `text`.
    fails: Option<String>,
}

/// The ```yaml blocks of a Markdown file, with their marks.
fn examples_in(file: &str, markdown: &str) -> Vec<Example> {
    let mut found = Vec::new();
    let mut block: Option<(usize, String, Option<String>)> = None;
    let mut mark: Option<String> = None;
    for (n, line) in markdown.lines().enumerate() {
        match &mut block {
            None if line.trim_start() == "```yaml" => {
                block = Some((n + 1, String::new(), mark.take()));
            }
            None => {
                mark = line
                    .strip_prefix("<!-- example: fails \"")
                    .and_then(|rest| rest.strip_suffix("\" -->"))
                    .map(str::to_string);
            }
            Some((start, text, fails)) => {
                if line.trim_start() == "```" {
                    found.push(Example {
                        place: format!("{file}:{start}"),
                        text: std::mem::take(text),
                        fails: fails.take(),
                    });
                    block = None;
                } else {
                    text.push_str(line);
                    text.push('\n');
                }
            }
        }
    }
    found
}

/// README.md and every Markdown file under docs/.
fn every_example() -> Vec<Example> {
    let mut files = vec!["README.md".to_string()];
    let mut dirs = vec!["docs".to_string()];
    while let Some(dir) = dirs.pop() {
        let mut entries: Vec<_> = fs::read_dir(Path::new(REPO).join(&dir))
            .unwrap()
            .map(|e| e.unwrap())
            .collect();
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let rel = format!("{dir}/{}", entry.file_name().to_string_lossy());
            if entry.file_type().unwrap().is_dir() {
                dirs.push(rel);
            } else if rel.ends_with(".md") {
                files.push(rel);
            }
        }
    }
    files
        .iter()
        .flat_map(|f| examples_in(f, &fs::read_to_string(Path::new(REPO).join(f)).unwrap()))
        .collect()
}

/// The files an example names under `sources/` or `w/`.
fn named_files(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    for word in text.split(|c: char| c.is_whitespace() || matches!(c, ',' | '{' | '}' | '[' | ']'))
    {
        if (word.starts_with("sources/") || word.starts_with("w/"))
            && !names.iter().any(|n| n == word)
        {
            names.push(word.to_string());
        }
    }
    names
}

/// Makes `name` in `p` when the demo does not ship it: the synthetic
/// stand-in a test of that kind uses.
fn make(p: &Project, name: &str) {
    if p.path(name).exists() {
        return;
    }
    let path = p.path(name);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    let file = name.rsplit('/').next().unwrap();
    let corpus = |rel: &str| fs::read(Path::new(REPO).join("tests/corpus").join(rel)).unwrap();
    match file {
        "model.safetensors" | "config.json" | "tokenizer.json" if name.contains("tiny-bert/") => {
            synth::write_tiny_bert(path.parent().unwrap(), 2, 32, 1).unwrap()
        }
        "model.safetensors" => fs::copy(p.path("sources/weights/tiny-mlp.safetensors"), &path)
            .map(|_| ())
            .unwrap(),
        "pose.safetensors"
        | "root.safetensors"
        | "vqvae.safetensors"
        | "support.safetensors"
        | "manifest.json" => {
            synth::write_extraction(path.parent().unwrap(), INVENTORY, synth::Scale::Small, 1)
                .unwrap()
        }
        "clips.safetensors" => synth::write_clips(
            &path,
            &[40, 4, 17, 33, 25, 12, 40, 9, 30, 5, 21, 38, 14, 27, 8],
            40,
        )
        .unwrap(),
        "g1-walk.glb" => fs::write(&path, synth::g1_walk_glb(30)).unwrap(),
        // A rig whose pelvis is called "Hips" (the name padded with JSON
        // whitespace, so no length in the GLB changes).
        "hips-walk.glb" => {
            let glb = synth::g1_walk_glb(30);
            let (from, to) = (b"\"pelvis_skel\"", b"\"Hips\"       ");
            let at = glb.windows(from.len()).position(|w| w == from).unwrap();
            let mut glb = glb;
            glb[at..at + from.len()].copy_from_slice(to);
            fs::write(&path, glb).unwrap()
        }
        "session.mbreplay" => fs::write(
            &path,
            kiln::formats::mbreplay::encode(&synth::replay()).unwrap(),
        )
        .unwrap(),
        "Fox.cc.glb" => fs::write(&path, corpus("glb-meshopt/Fox.cc.glb")).unwrap(),
        "RobotExpressive-threeexporter.glb" => {
            fs::write(&path, corpus("glb/RobotExpressive-threeexporter.glb")).unwrap()
        }
        _ => {}
    }
}

/// Builds one example; `Err` says why it is not what its docs promise.
fn build(example: &Example) -> Result<(), String> {
    let p = Project::demo();
    fs::remove_dir_all(p.path("manifests")).unwrap();
    fs::create_dir(p.path("manifests")).unwrap();
    p.write("manifests/example.yaml", &example.text);
    for name in named_files(&example.text) {
        make(&p, &name);
    }
    let (report, out) = p.build_json(&[]);
    let err = stderr(&out);
    let jobs = report["jobs"].as_array().cloned().unwrap_or_default();
    match &example.fails {
        Some(text) if out.status.success() => Err(format!("built, but should fail with {text:?}")),
        // Each failed job says the text; every other job was built.
        Some(text) => {
            let failed: Vec<_> = jobs.iter().filter(|j| j["status"] == "failed").collect();
            let says = |j: &&serde_json::Value| {
                j["error"]["message"]
                    .as_str()
                    .unwrap_or("")
                    .contains(text.as_str())
            };
            match () {
                _ if failed.is_empty() => Err(format!("no job failed:\n{err}\n{report}")),
                _ if !failed.iter().all(says) => {
                    Err(format!("a job failed without {text:?}:\n{err}"))
                }
                _ if jobs
                    .iter()
                    .any(|j| j["status"] != "failed" && j["status"] != "built") =>
                {
                    Err(format!("a job neither failed nor built: {report}"))
                }
                _ => Ok(()),
            }
        }
        None if !out.status.success() => Err(format!("the build failed:\n{err}\n{report}")),
        None => {
            let jobs = report["jobs"].as_array().map_or(0, Vec::len);
            match (jobs, report["totals"]["built"].as_u64()) {
                (0, _) => Err("declares no job".to_string()),
                (n, Some(built)) if built == n as u64 => Ok(()),
                (n, built) => Err(format!("built {built:?} of {n} jobs: {report}")),
            }
        }
    }
}

#[test]
fn every_yaml_example_in_the_docs_builds() {
    let examples = every_example();
    assert!(
        examples.len() >= 20,
        "only {} examples found",
        examples.len()
    );
    let failures: Vec<String> = examples
        .iter()
        .filter_map(|e| {
            build(e)
                .err()
                .map(|why| format!("{}: {why}\n{}", e.place, e.text))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} YAML examples do not build:\n\n{}",
        failures.len(),
        examples.len(),
        failures.join("\n\n")
    );
}

#[test]
fn the_runner_reads_blocks_and_marks() {
    let md = "text\n<!-- example: fails \"pins\" -->\n```yaml\na: 1\n```\n\n```yaml\nb: 2\n```\n";
    let found = examples_in("x.md", md);
    assert_eq!(found.len(), 2);
    assert_eq!(
        (found[0].place.as_str(), found[0].text.as_str()),
        ("x.md:3", "a: 1\n")
    );
    assert_eq!(found[0].fails.as_deref(), Some("pins"));
    assert_eq!(found[1].fails, None);
    assert_eq!(
        named_files("source: sources/a.glb\nsources: { pose: w/p.safetensors, x: sources/a.glb }"),
        ["sources/a.glb", "w/p.safetensors"]
    );
}
