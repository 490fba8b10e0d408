//! SIGINT and SIGTERM in the middle of a conversion, sent for real: the
//! build stops, removes its temporary files, keeps what it committed (and
//! its records), and exits 130 or 143. The many-points sweep is the full
//! tier's (tests/stress/crash.rs).

use std::fs;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::cli_support::{KILN, Project};
use crate::guard_support;

/// A checkpoint of one F32 tensor of `bytes` bytes, all zero: a sparse
/// file, so it costs no disk and reads at memory speed, yet converting it
/// to F16 takes far longer than the heartbeat interval the test uses.
pub fn big_checkpoint(path: &Path, bytes: u64) {
    let header = format!(
        r#"{{"w":{{"dtype":"F32","shape":[{}],"data_offsets":[0,{bytes}]}}}}"#,
        bytes / 4
    );
    let mut header = header.into_bytes();
    while header.len() % 8 != 0 {
        header.push(b' ');
    }
    let mut file = Vec::with_capacity(8 + header.len());
    file.extend_from_slice(&(header.len() as u64).to_le_bytes());
    file.extend_from_slice(&header);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, &file).unwrap();
    let f = fs::OpenOptions::new().write(true).open(path).unwrap();
    f.set_len(file.len() as u64 + bytes).unwrap();
}

/// A project of two conversions: `a-small` (the demo's checkpoint, first in
/// plan order) and `b-big` (a 2 GB checkpoint, which no machine converts
/// before the first heartbeat line).
pub fn two_conversions() -> Project {
    let p = Project::empty();
    p.write_bytes(
        "sources/small.safetensors",
        &fs::read(Path::new(crate::cli_support::REPO).join("sources/weights/tiny-mlp.safetensors"))
            .unwrap(),
    );
    big_checkpoint(&p.path("sources/big.safetensors"), 2 << 30);
    p.write(
        "manifests/models.yaml",
        "model_bundles:\n\
         \x20 - { id: a-small, profile: generic, source: sources/small.safetensors, architecture: mlp, type: f16 }\n\
         \x20 - { id: b-big, profile: generic, source: sources/big.safetensors, architecture: mlp, type: f16 }\n",
    );
    p
}

/// Every `.kiln-tmp` file under `dir`.
pub fn temporaries(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let Ok(entries) = fs::read_dir(dir) else {
        return found;
    };
    for entry in entries {
        let entry = entry.unwrap();
        let path = entry.path();
        if entry.file_type().unwrap().is_dir() {
            found.extend(temporaries(&path));
        } else if path.to_string_lossy().ends_with(".kiln-tmp") {
            found.push(path.display().to_string());
        }
    }
    found
}

/// Starts `kiln build -j 1 --json --heartbeat 0.05` on `p`, waits for the
/// big job's first heartbeat line (it is converting, its temporary file
/// open), sends `signal`, and returns the exit code, the JSON report and
/// the rest of stderr.
fn interrupt_mid_conversion(p: &Project, signal: rustix::process::Signal) -> (i32, Value, String) {
    let mut child = Command::new(KILN)
        .args(["build", "-j", "1", "--json", "--heartbeat", "0.05"])
        .current_dir(p.root())
        .env_remove("CI")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut seen = String::new();
    guard_support::no_hang("the big job's heartbeat line", || {
        loop {
            let mut line = String::new();
            assert_ne!(
                err.read_line(&mut line).unwrap(),
                0,
                "stderr closed: {seen}"
            );
            seen.push_str(&line);
            if line.starts_with("still building b-big after") {
                break;
            }
        }
    });
    // The job is running; once its temporary file is there, it is
    // converting (waited for, not assumed from the heartbeat's timing: a
    // loaded machine may not have reached it yet).
    guard_support::no_hang("the big job's temporary file", || {
        while temporaries(&p.path("out")).is_empty() {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    });
    assert_eq!(
        temporaries(&p.path("out")).len(),
        1,
        "the big job's temporary file while it runs"
    );
    let pid = rustix::process::Pid::from_raw(child.id() as i32).unwrap();
    rustix::process::kill_process(pid, signal).unwrap();
    let output = guard_support::no_hang("the interrupted build's exit", || {
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut err, &mut rest).unwrap();
        seen.push_str(&rest);
        let mut stdout = String::new();
        std::io::Read::read_to_string(child.stdout.as_mut().unwrap(), &mut stdout).unwrap();
        (child.wait().unwrap(), stdout)
    });
    let report: Value = serde_json::from_str(&output.1)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}\nstderr: {seen}", output.1));
    (output.0.code().unwrap_or(-1), report, seen)
}

fn interrupted_build_keeps_what_it_committed(signal: rustix::process::Signal, status: i32) {
    let p = two_conversions();
    let (code, report, stderr) = interrupt_mid_conversion(&p, signal);
    assert_eq!(code, status, "{stderr}");
    // No temporary file is left, the small job's output is in place and
    // recorded, the big one's is not.
    assert_eq!(temporaries(&p.path("out")), Vec::<String>::new());
    assert!(p.path("out/models/a-small/a-small.gguf").is_file());
    assert!(!p.path("out/models/b-big/b-big.gguf").exists());
    assert_eq!(report["interrupted"], true, "{report}");
    crate::json_support::conforms("build", &report);
    let status_of = |id: &str| {
        report["jobs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|j| j["id"] == id)
            .map(|j| j["status"].clone())
    };
    assert_eq!(status_of("a-small"), Some("built".into()), "{report}");
    assert_eq!(status_of("b-big"), Some("interrupted".into()), "{report}");
    assert_eq!(report["totals"]["interrupted"], 1, "{report}");
    // The record was kept: a dry run finds a-small fresh, b-big dirty.
    let dry = p.kiln(&["build", "--dry-run", "--json"]);
    let dry: Value = serde_json::from_slice(&dry.stdout).unwrap();
    let dry_status: Vec<(String, String)> = dry["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| {
            (
                j["id"].as_str().unwrap().into(),
                j["status"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert_eq!(
        dry_status,
        [
            ("a-small".into(), "fresh".into()),
            ("b-big".into(), "dirty".into())
        ]
    );
}

#[test]
fn sigint_mid_conversion_exits_130_without_temporaries_keeping_what_was_built() {
    interrupted_build_keeps_what_it_committed(rustix::process::Signal::INT, 130);
}

#[test]
fn sigterm_mid_conversion_exits_143_without_temporaries_keeping_what_was_built() {
    interrupted_build_keeps_what_it_committed(rustix::process::Signal::TERM, 143);
}

#[test]
fn a_build_waiting_for_the_lock_stops_on_sigint() {
    let p = two_conversions();
    fs::remove_file(p.path("sources/big.safetensors")).unwrap();
    p.edit(
        "manifests/models.yaml",
        "  - { id: b-big",
        "  # - { id: b-big",
    );
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    // A forced build waits on the planned path; a plain one, everything
    // fresh, on the no-op path.
    for args in [&["build", "--force"][..], &["build"]] {
        let (_lock, mut child, mut err) = crate::cli::waiting_build(&p, args);
        let pid = rustix::process::Pid::from_raw(child.id() as i32).unwrap();
        rustix::process::kill_process(pid, rustix::process::Signal::INT).unwrap();
        let status = guard_support::no_hang("the waiting build's exit", || child.wait().unwrap());
        assert_eq!(status.code(), Some(130), "{args:?}");
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut err, &mut rest).unwrap();
        assert!(
            rest.contains("interrupted before any job ran"),
            "{args:?}: {rest}"
        );
    }
}

/// A conversion's progress moves inside one long tensor (issue 27): the
/// 2 GB checkpoint is a single tensor, and two heartbeat lines of its job
/// show different byte counts of the same total, each with a rate and the
/// time left. Then the build is stopped.
#[test]
fn a_conversions_progress_moves_inside_one_tensor() {
    let p = two_conversions();
    let mut child = Command::new(KILN)
        .args(["build", "-j", "1", "--heartbeat", "0.05", "b-big"])
        .current_dir(p.root())
        .env_remove("CI")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut done = Vec::new();
    let mut seen = String::new();
    guard_support::no_hang("two progress lines of the big job", || {
        while done.len() < 2 {
            let mut line = String::new();
            assert_ne!(
                err.read_line(&mut line).unwrap(),
                0,
                "stderr closed: {seen}"
            );
            seen.push_str(&line);
            // "still building b-big after 0.2 s: 312 MB of 2.15 GB (14 %), 1.5 GB/s, 1 s left"
            let Some(measure) = line
                .strip_prefix("still building b-big after ")
                .and_then(|l| l.split_once(": "))
            else {
                continue;
            };
            let (amount, rest) = measure.1.split_once(" of ").expect("done of total");
            assert!(rest.starts_with("2.15 GB ("), "{line}");
            assert!(
                rest.contains("/s, ") && rest.trim_end().ends_with(" left"),
                "{line}"
            );
            if done.last() != Some(&amount.to_string()) {
                done.push(amount.to_string());
            }
        }
    });
    rustix::process::kill_process(
        rustix::process::Pid::from_raw(child.id() as i32).unwrap(),
        rustix::process::Signal::TERM,
    )
    .unwrap();
    guard_support::no_hang("the stopped build", || child.wait().unwrap());
    assert_ne!(done[0], done[1], "{seen}");
}
