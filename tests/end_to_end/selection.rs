//! Building part of a project, and asking what a build would do: manifests
//! and targets on the command line select jobs while every manifest is
//! planned (so no subset build removes another's outputs); `--dry-run` and
//! `--check` write nothing; `-q` prints only errors; a second `clean` is
//! not an error.

use std::collections::BTreeMap;
use std::fs;
use std::path::PathBuf;

use serde_json::Value;

use crate::cli_support::{self, Project, ids_with, snapshot_bytes, stderr};

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Every file under `out/` with its bytes and modification time: what
/// "nothing was written" compares.
fn out_state(p: &Project) -> BTreeMap<PathBuf, (Vec<u8>, std::time::SystemTime)> {
    snapshot_bytes(&p.path("out"))
        .into_iter()
        .map(|(rel, bytes)| {
            let mtime = fs::metadata(p.path("out").join(&rel))
                .unwrap()
                .modified()
                .unwrap();
            (rel, (bytes, mtime))
        })
        .collect()
}

fn ids(report: &Value) -> Vec<String> {
    let mut ids: Vec<String> = cli_support::statuses(report).into_keys().collect();
    ids.sort();
    ids
}

#[test]
fn building_one_manifest_then_another_then_all_builds_each_job_once_and_removes_nothing() {
    let p = Project::demo();
    let (robot, out) = p.build_json(&["manifests/robot.yaml"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        ids(&robot),
        ["robot-dance", "robot-dance-meshopt", "robot-wave"],
        "only the named manifest's jobs run and are reported"
    );
    assert_eq!(ids_with(&robot, "built").len(), 3);
    assert_eq!(robot["removed"], serde_json::json!([]));

    let (sequences, out) = p.build_json(&["manifests/sequences.yaml"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(ids(&sequences), ["debris", "debris-60hz", "fox-run-cgeo"]);
    assert_eq!(ids_with(&sequences, "built").len(), 3);
    assert_eq!(sequences["removed"], serde_json::json!([]));
    for kept in ["out/poses/robot-dance.ospc", "out/poses/robot-wave.ospc"] {
        assert!(p.path(kept).exists(), "{kept} was removed");
    }

    // Both again, named together: nothing rebuilt.
    let (both, out) = p.build_json(&["manifests/robot.yaml", "manifests/sequences.yaml"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(ids_with(&both, "built"), Vec::<String>::new());
    assert_eq!(ids_with(&both, "fresh").len(), 6);

    // Everything: only the jobs not built yet run.
    let (all, out) = p.build_json(&[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let built = ids_with(&all, "built");
    assert_eq!(built.len(), all["jobs"].as_array().unwrap().len() - 6);
    for id in ids(&robot).iter().chain(&ids(&sequences)) {
        assert!(!built.contains(id), "{id} was built twice");
    }
    assert_eq!(all["removed"], serde_json::json!([]));

    // A subset build of one manifest after the full one: nothing removed.
    let (again, out) = p.build_json(&["manifests/robot.yaml"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(again["removed"], serde_json::json!([]));
    assert!(p.path("out/cgeo/fox-run-cgeo.cgeo").exists());

    // A manifest that is gone takes its outputs with it, as before.
    fs::remove_file(p.path("manifests/robot.yaml")).unwrap();
    let (gone, out) = p.build_json(&["manifests/sequences.yaml"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let removed: Vec<&str> = gone["removed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(
        removed.contains(&"out/poses/robot-wave.ospc"),
        "{removed:?}"
    );
    assert!(!p.path("out/poses/robot-wave.ospc").exists());
}

#[test]
fn targets_name_jobs_by_id_kind_level_and_glob() {
    let p = Project::demo();
    let (one, out) = p.build_json(&["robot-wave"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(ids(&one), ["robot-wave"]);
    assert!(p.path("out/poses/robot-wave.ospc").exists());
    assert!(!p.path("out/poses/robot-dance.ospc").exists());

    let (glob, out) = p.build_json(&["pose_cache:robot-*"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        ids(&glob),
        ["robot-dance", "robot-dance-meshopt", "robot-wave"]
    );
    assert_eq!(ids_with(&glob, "fresh"), ["robot-wave"]);

    // A level by its name, and a kind by its manifest section.
    let (level, out) = p.build_json(&["sandbox", "cgeo_sequences:*"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(ids(&level), ["fox-run-cgeo", "sandbox"]);
    assert!(p.path("out/levels/sandbox/level.json").exists());
    assert!(!p.path("out/levels/forest").exists());

    // A manifest and a target together: the union.
    let (mixed, out) = p.build_json(&["manifests/robot.yaml", "debris"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        ids(&mixed),
        ["debris", "robot-dance", "robot-dance-meshopt", "robot-wave"]
    );
}

#[test]
fn an_unknown_target_is_a_usage_error_naming_the_near_ones() {
    let p = Project::demo();
    for built in [false, true] {
        // Both the planning path and the no-op path (after a build) check.
        let out = p.kiln(&["build", "robot-wav", "snadbox"]);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.contains("no job is named \"robot-wav\"; did you mean \"robot-wave\"?")
                && err.contains("no job is named \"snadbox\"; did you mean \"sandbox\"?"),
            "built first: {built}: {err}"
        );
        if !built {
            assert!(!p.path("out").exists(), "a usage error wrote out/");
            assert!(p.kiln(&["build", "-q"]).status.success());
        }
    }
}

#[test]
fn a_dry_run_lists_every_job_with_why_and_writes_nothing() {
    let p = Project::demo();
    let out = p.kiln(&["build", "--dry-run"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!p.path("out").exists(), "a dry run made out/");
    let text = stdout(&out);
    assert!(
        text.contains(
            "dirty pose_cache:robot-wave -> out/poses/robot-wave.ospc\n      because no record of an earlier build\n"
        ),
        "{text}"
    );
    assert!(stderr(&out).contains("jobs would rebuild, 0 are fresh; nothing was written"));

    assert!(p.kiln(&["build", "-q"]).status.success());
    p.edit("manifests/robot.yaml", "rate_hz: 60", "rate_hz: 50");
    fs::remove_file(p.path("out/poses/fox-walk.ospc")).unwrap();
    let before = out_state(&p);
    let out = p.kiln(&["build", "-n", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(out_state(&p), before, "the dry run wrote to out/");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["dry_run"], true);
    let jobs = v["jobs"].as_array().unwrap();
    let job = |id: &str| jobs.iter().find(|j| j["id"] == id).unwrap().clone();
    assert_eq!(job("robot-dance")["status"], "fresh");
    assert_eq!(job("robot-dance").get("dirty_because"), None);
    assert_eq!(job("robot-wave")["status"], "dirty");
    assert_eq!(
        job("robot-wave")["dirty_because"],
        serde_json::json!(["setting rate_hz changed: 60.0 -> 50.0"])
    );
    assert_eq!(
        job("fox-walk")["dirty_because"],
        serde_json::json!(["output poses/fox-walk.ospc is missing"])
    );
    assert_eq!(
        job("fox-walk")["outputs"],
        serde_json::json!(["out/poses/fox-walk.ospc"])
    );
    assert_eq!(v["totals"]["dirty"], 2);
    assert_eq!(v["totals"]["jobs"], jobs.len());
    // What the dry run said is what the build does.
    let (built, out) = p.build_json(&[]);
    assert!(out.status.success());
    assert_eq!(ids_with(&built, "built"), ["fox-walk", "robot-wave"]);
}

#[test]
fn check_fails_exactly_when_something_would_rebuild() {
    let p = Project::demo();
    // Nothing built yet: out of date, and still nothing written.
    let out = p.kiln(&["build", "--check"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(!p.path("out").exists());
    assert!(p.kiln(&["build", "-q"]).status.success());
    let pass = |p: &Project| {
        let before = out_state(p);
        let out = p.kiln(&["build", "--check"]);
        assert_eq!(out_state(p), before, "--check wrote to out/");
        out
    };
    let out = pass(&p);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).starts_with("check passed: "),
        "{}",
        stderr(&out)
    );
    assert_eq!(stdout(&out), "");

    // A source touched but not changed: still up to date.
    let glb = p.path("sources/characters/RobotExpressive.glb");
    let bytes = fs::read(&glb).unwrap();
    fs::write(&glb, &bytes).unwrap();
    assert_eq!(pass(&p).status.code(), Some(0));

    // Each of these makes it fail, naming the job and why; a build mends it.
    type Change = fn(&Project);
    let changes: [(&str, Change, &str); 4] = [
        (
            "a source changed",
            |p| {
                // The meshopt re-export: other bytes, the same animations.
                let cc = fs::read(p.path("sources/characters/RobotExpressive.cc.glb")).unwrap();
                fs::write(p.path("sources/characters/RobotExpressive.glb"), cc).unwrap();
            },
            "input sources/characters/RobotExpressive.glb changed",
        ),
        (
            "an output deleted",
            |p| fs::remove_file(p.path("out/poses/fox-run.ospc")).unwrap(),
            "output poses/fox-run.ospc is missing",
        ),
        (
            "an output changed",
            |p| {
                let path = p.path("out/poses/fox-walk.ospc");
                let mut bytes = fs::read(&path).unwrap();
                let last = bytes.len() - 1;
                bytes[last] ^= 1;
                fs::write(&path, &bytes).unwrap();
            },
            "output poses/fox-walk.ospc was modified",
        ),
        (
            "a setting changed",
            |p| p.edit("manifests/robot.yaml", "rate_hz: 60", "rate_hz: 50"),
            "setting rate_hz changed: 60.0 -> 50.0",
        ),
    ];
    for (what, change, why) in changes {
        change(&p);
        let out = pass(&p);
        assert_eq!(out.status.code(), Some(1), "{what}: {}", stderr(&out));
        assert!(stdout(&out).contains(why), "{what}: {}", stdout(&out));
        assert!(
            stderr(&out).starts_with("check failed: "),
            "{what}: {}",
            stderr(&out)
        );
        let (v, out) = p.build_json(&["--check"]);
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(v["up_to_date"], false, "{what}");
        assert!(p.kiln(&["build", "-q"]).status.success(), "{what}");
        let out = pass(&p);
        assert_eq!(out.status.code(), Some(0), "{what}: {}", stderr(&out));
    }
    // A check of one target looks at that target only.
    fs::remove_file(p.path("out/poses/fox-run.ospc")).unwrap();
    assert_eq!(
        p.kiln(&["build", "--check", "robot-wave"]).status.code(),
        Some(0)
    );
    assert_eq!(
        p.kiln(&["build", "--check", "fox-run"]).status.code(),
        Some(1)
    );
}

#[test]
fn quiet_prints_errors_only() {
    let p = Project::demo();
    // The demo's level has warnings (morph targets) and notes to give.
    let out = p.kiln(&["build"]);
    assert!(out.status.success());
    assert!(
        stderr(&out).contains("warning: job \"forest\""),
        "{}",
        stderr(&out)
    );
    let out = p.kiln(&["build", "-q", "--force"]);
    assert!(out.status.success());
    assert_eq!(stderr(&out), "", "a quiet build said something");
    assert_eq!(stdout(&out), "");
    p.edit("manifests/robot.yaml", "rate_hz: 60", "rate_hz: -1");
    let out = p.kiln(&["build", "-q"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.starts_with("error: manifests/robot.yaml:"), "{err}");
    assert!(
        err.lines()
            .all(|l| !l.starts_with("warning") && !l.starts_with("note"))
    );
}

#[test]
fn cleaning_a_clean_folder_is_not_an_error() {
    let p = Project::demo();
    for _ in 0..2 {
        let out = p.kiln(&["clean"]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert!(
            stderr(&out).starts_with("nothing to clean: "),
            "{}",
            stderr(&out)
        );
    }
    assert!(p.kiln(&["build", "-q"]).status.success());
    fs::write(p.path("out/mine.txt"), "not kiln's").unwrap();
    let out = p.kiln(&["clean"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stderr(&out).contains("kept 1"), "{}", stderr(&out));
    // out/ stays (it holds a file kiln did not make), without .kiln/.
    let out = p.kiln(&["clean"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).starts_with("nothing to clean: "));
    assert_eq!(
        fs::read_to_string(p.path("out/mine.txt")).unwrap(),
        "not kiln's"
    );
}

#[test]
fn a_fresh_jobs_warnings_and_notes_are_shown_again_marked_cached() {
    let p = Project::demo();
    let first = p.kiln(&["build"]);
    assert!(first.status.success());
    let said = |out: &std::process::Output, kind: &str| -> Vec<String> {
        stderr(out)
            .lines()
            .filter(|l| l.starts_with(kind))
            .map(str::to_string)
            .collect()
    };
    let warnings = said(&first, "warning: job \"forest\": ");
    let notes = said(&first, "note: job \"debris\": ");
    assert!(
        !warnings.is_empty() && !notes.is_empty(),
        "{}",
        stderr(&first)
    );
    // The no-op build (nothing planned) and a planned one with this job
    // fresh both replay them.
    p.edit("manifests/robot.yaml", "rate_hz: 60", "rate_hz: 50");
    for how in ["planned", "no-op"] {
        let out = p.kiln(&["build"]);
        assert!(out.status.success());
        let cached = |lines: &[String], job: &str| -> Vec<String> {
            lines
                .iter()
                .map(|l| {
                    l.replacen(
                        &format!("job \"{job}\": "),
                        &format!("job \"{job}\" (cached): "),
                        1,
                    )
                })
                .collect()
        };
        assert_eq!(
            said(&out, "warning: job \"forest\" (cached): "),
            cached(&warnings, "forest"),
            "{how}"
        );
        assert_eq!(
            said(&out, "note: job \"debris\" (cached): "),
            cached(&notes, "debris"),
            "{how}"
        );
    }
    let (v, _) = p.build_json(&[]);
    let forest = v["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|j| j["id"] == "forest")
        .unwrap();
    assert_eq!(forest["status"], "fresh");
    let json_warnings: Vec<String> = forest["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| format!("warning: job \"forest\": {}", w.as_str().unwrap()))
        .collect();
    assert_eq!(json_warnings, warnings);
    // Quiet still says nothing.
    let out = p.kiln(&["build", "-q"]);
    assert_eq!(stderr(&out), "");
}
