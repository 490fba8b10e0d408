//! The engine for many kinds, driven like a user drives it: output sets
//! and what happens to outputs of jobs that are gone, uniqueness across
//! manifests, declared inputs.

use crate::cli_support;

use std::fs;

use cli_support::{Project, stderr};

fn ids_with<'a>(report: &'a serde_json::Value, status: &str) -> Vec<&'a str> {
    report["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|j| j["status"] == status)
        .map(|j| j["id"].as_str().unwrap())
        .collect()
}

/// characters.yaml's text, and its text without the fox-walk entry, and
/// that entry.
fn without_fox_walk(p: &Project) -> (String, String, String) {
    let text = fs::read_to_string(p.path("manifests/characters.yaml")).unwrap();
    let start = text.find("  - id: fox-walk").unwrap();
    let end = start + text[start..].find("\n\n").unwrap() + 2;
    let rest = format!("{}{}", &text[..start], &text[end..]);
    let entry = text[start..end].to_string();
    (text, rest, entry)
}

#[test]
fn a_job_removed_from_its_manifest_loses_its_output_and_record() {
    let p = Project::demo();
    let (_, out) = p.build_json(&[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(p.path("out/poses/fox-walk.ospc").exists());
    p.write("out/poses/mine.txt", "a file kiln did not make");
    let (text, rest, _) = without_fox_walk(&p);
    p.write("manifests/characters.yaml", &rest);
    let (report, out) = p.build_json(&[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        report["removed"],
        serde_json::json!(["out/poses/fox-walk.ospc"])
    );
    assert!(!p.path("out/poses/fox-walk.ospc").exists());
    assert!(p.path("out/poses/mine.txt").exists(), "not kiln's: kept");
    assert!(
        ids_with(&report, "built").is_empty(),
        "the others are fresh"
    );
    // Said in words too, and only once: the record went with the output.
    let out = p.kiln(&["build"]);
    assert!(!stderr(&out).contains("removed"), "{}", stderr(&out));
    // Put back, it builds again.
    p.write("manifests/characters.yaml", &text);
    let (report, _) = p.build_json(&[]);
    assert_eq!(ids_with(&report, "built"), ["fox-walk"]);
}

#[test]
fn a_renamed_job_removes_the_old_output_and_writes_the_new() {
    let p = Project::demo();
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    p.edit(
        "manifests/characters.yaml",
        "id: fox-walk",
        "id: fox-walking",
    );
    let out = p.kiln(&["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "removed 1 output(s) of jobs no longer in the manifests: out/poses/fox-walk.ospc"
        ),
        "{}",
        stderr(&out)
    );
    assert!(!p.path("out/poses/fox-walk.ospc").exists());
    assert!(p.path("out/poses/fox-walking.ospc").exists());
}

#[test]
fn a_removed_job_whose_output_another_job_now_writes_keeps_it() {
    // fox-walk moves from characters.yaml to a new manifest: same kind,
    // same id, same output; nothing is removed and nothing rebuilt.
    let p = Project::demo();
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    let (_, rest, entry) = without_fox_walk(&p);
    p.write("manifests/characters.yaml", &rest);
    p.write("manifests/walk.yaml", &format!("pose_caches:\n{entry}"));
    let (report, out) = p.build_json(&[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(report["removed"], serde_json::json!([]));
    assert!(ids_with(&report, "built").is_empty());
    assert!(p.path("out/poses/fox-walk.ospc").exists());
}

#[test]
fn one_id_in_two_manifests_is_refused_with_both_positions() {
    let p = Project::demo();
    p.write(
        "manifests/more.yaml",
        "pose_caches:\n  - id: fox-walk\n    source: sources/characters/Fox.glb\n    animation: Walk\n    rate_hz: 30\n",
    );
    let out = p.kiln(&["build"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("manifests/more.yaml:2:5: job id \"fox-walk\" is already used by the pose_cache at manifests/characters.yaml:"),
        "{err}"
    );
    assert!(!p.path("out").exists(), "nothing built");
}

#[test]
fn moving_an_entry_within_its_manifest_rebuilds_nothing() {
    let p = Project::demo();
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    let text = fs::read_to_string(p.path("manifests/characters.yaml")).unwrap();
    p.write(
        "manifests/characters.yaml",
        &text.replace(
            "pose_caches:\n",
            "# a comment that moves every line\n\npose_caches:\n",
        ),
    );
    let (report, _) = p.build_json(&[]);
    assert_eq!(report["totals"]["planned"], true);
    assert!(ids_with(&report, "built").is_empty());
}

/// (inode, mtime) of a file.
fn identity(path: &std::path::Path) -> (u64, std::time::SystemTime) {
    use std::os::unix::fs::MetadataExt as _;
    let m = fs::metadata(path).unwrap();
    (m.ino(), m.modified().unwrap())
}

#[test]
fn an_output_whose_bytes_are_unchanged_is_left_in_place() {
    let p = Project::demo();
    let (_, out) = p.build_json(&[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let small = [
        "out/poses/fox-walk.ospc",
        "out/levels/sandbox/@world/characters",
        "out/levels/sandbox/level.json",
    ];
    let before: Vec<_> = small.iter().map(|r| identity(&p.path(r))).collect();
    // A forced rebuild makes the same bytes: the files stay as they are
    // (same inode, same time stamp), and the next build is a no-op.
    let (report, out) = p.build_json(&["--force"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(ids_with(&report, "built").contains(&"sandbox"), "{report}");
    let after: Vec<_> = small.iter().map(|r| identity(&p.path(r))).collect();
    assert_eq!(before, after);
    let (report, _) = p.build_json(&[]);
    assert!(ids_with(&report, "built").is_empty(), "{report}");
    // An output changed in place (same size, other bytes) is noticed and
    // replaced by the job's bytes, which are not the file's.
    let entry = p.path(small[1]);
    let good = fs::read(&entry).unwrap();
    let mut bad = good.clone();
    *bad.last_mut().unwrap() ^= 1;
    fs::write(&entry, &bad).unwrap();
    let (report, _) = p.build_json(&["--force"]);
    assert!(ids_with(&report, "built").contains(&"sandbox"), "{report}");
    assert_eq!(fs::read(&entry).unwrap(), good);
    assert_ne!(identity(&entry).0, before[1].0, "renamed into place");
    // An output that changes is replaced, and so is its level's index.
    let (entry_before, index_before) = (identity(&entry), identity(&p.path(small[2])));
    p.edit(
        "manifests/levels.yaml",
        "- id: simple-skin",
        "- id: simple-skin-2",
    );
    let (report, out) = p.build_json(&[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(ids_with(&report, "built"), ["sandbox"]);
    assert_ne!(identity(&entry), entry_before);
    assert_ne!(identity(&p.path(small[2])), index_before);
}

#[test]
fn a_failed_job_leaves_no_folder_it_made() {
    let p = Project::empty();
    p.write("sources/bad.glb", "not a glb");
    p.write(
        "manifests/l.yaml",
        "characters:\n  - level: broken\n    banks:\n      - id: b\n        clips:\n          - source: sources/bad.glb\n    models:\n      - id: m\n        source: sources/bad.glb\n        bank: b\n",
    );
    // A folder of the user's that a job would also write in is kept (put
    // in the output folder once kiln made it: a new build refuses a folder
    // holding files it did not make).
    assert!(!p.kiln(&["build"]).status.success());
    fs::create_dir_all(p.path("out/levels/mine")).unwrap();
    let out = p.kiln(&["build"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("bad.glb"), "{}", stderr(&out));
    assert!(!p.path("out/levels/broken").exists(), "made and left empty");
    assert!(p.path("out/levels/mine").is_dir());
    // Fixed, it builds into the folders it makes again.
    fs::copy(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/corpus/glb/SimpleSkin.glb"
        ),
        p.path("sources/bad.glb"),
    )
    .unwrap();
    let out = p.kiln(&["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(p.path("out/levels/broken/@world/characters").is_file());
}

/// Each job's output hashes in a report, by id.
fn output_hashes(report: &serde_json::Value) -> Vec<(String, Vec<String>)> {
    let jobs = report["jobs"].as_array().unwrap();
    jobs.iter()
        .map(|j| {
            let hashes = j["outputs"].as_array().unwrap().iter();
            let hashes = hashes.map(|o| o["sha256"].as_str().unwrap().to_string());
            (j["id"].as_str().unwrap().to_string(), hashes.collect())
        })
        .collect()
}

#[test]
fn a_changed_source_plans_only_the_manifests_of_its_jobs() {
    // The cost of a build after one source changed follows the change:
    // the manifests unchanged, only those holding a job that reads the
    // source are parsed and planned (counted in the report), only those
    // jobs run, and what they write is what a full build writes.
    let p = Project::demo();
    let all = fs::read_dir(p.path("manifests")).unwrap().count();
    let first = p.builds(&[]);
    assert_eq!(first["totals"]["manifests_planned"], all);
    let noop = p.builds(&[]);
    assert_eq!(noop["totals"]["manifests_planned"], 0);
    assert_eq!(noop["totals"]["planned"], false);

    // robot.yaml's robot-dance-meshopt and a level of levels.yaml read it.
    let source = cli_support::ROBOT_CC;
    let bytes = fs::read(p.path(source)).unwrap();
    let changed = cli_support::robot_cc_variant(b'4');
    p.write_bytes(source, &changed);
    let report = p.builds(&[]);
    assert_eq!(report["totals"]["planned"], true);
    assert_eq!(report["totals"]["manifests_planned"], 2, "{report}");
    let built: Vec<&serde_json::Value> = report["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|j| j["status"] == "built")
        .collect();
    let mut manifests: Vec<&str> = built
        .iter()
        .map(|j| j["manifest"].as_str().unwrap())
        .collect();
    manifests.sort();
    assert_eq!(manifests, ["manifests/levels.yaml", "manifests/robot.yaml"]);
    assert!(built.iter().any(|j| j["id"] == "robot-dance-meshopt"));
    assert_eq!(
        ids_with(&report, "fresh").len(),
        report["jobs"].as_array().unwrap().len() - 2
    );
    // What it wrote (and kept) is what a full build writes.
    let forced = p.builds(&["--force"]);
    assert_eq!(forced["totals"]["manifests_planned"], all);
    assert_eq!(output_hashes(&report), output_hashes(&forced));
    // And it left a state the next build finds fresh.
    p.write_bytes(source, &bytes);
    let back = p.builds(&[]);
    assert_eq!(back["totals"]["manifests_planned"], 2);
    assert_eq!(p.builds(&[])["totals"]["manifests_planned"], 0);

    // A job that fails on this path fails as on the planned one, and the
    // next save is tried again.
    p.write_bytes(source, &bytes[..bytes.len() / 2]);
    let (report, out) = p.build_json(&[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(report["totals"]["manifests_planned"], 2);
    assert_eq!(report["totals"]["failed"], 2, "{report}");
    let err = stderr(&out);
    assert!(err.contains("RobotExpressive.cc.glb"), "{err}");
    // The file put back: the failure committed nothing, so the last good
    // outputs are those of these bytes, fresh.
    p.write_bytes(source, &bytes);
    assert_eq!(p.builds(&[])["totals"]["fresh"], report["totals"]["jobs"]);
    p.write_bytes(source, &changed);
    let report = p.builds(&[]);
    assert_eq!(report["totals"]["built"], 2, "{report}");
    assert_eq!(output_hashes(&report), output_hashes(&forced));
    // A manifest edited: every manifest is planned again.
    p.edit("manifests/robot.yaml", "rate_hz: 30", "rate_hz: 24");
    assert_eq!(p.builds(&[])["totals"]["manifests_planned"], all);
}

/// Each selected job's status and output hashes, by id.
fn outcome(report: &kiln::pipeline::engine::Report) -> Vec<(String, String, Vec<String>)> {
    report
        .jobs
        .iter()
        .map(|j| {
            let hashes = j.outputs.iter().map(|o| o.sha256.clone()).collect();
            (j.id.clone(), j.status.as_str().to_string(), hashes)
        })
        .collect()
}

#[test]
fn a_watch_keeps_the_state_between_builds_while_its_files_are_its_own() {
    // `kiln watch` builds through `engine::rebuild` with a `Kept` state:
    // the next build takes the plan summary, the journal and the hash
    // cache from memory (no state file read) while the files are as the
    // last build left them, and checks only the jobs the watcher names
    // and those not fresh when the last build ended.
    use kiln::pipeline::engine::{self, Kept, Options, Status};
    use std::collections::BTreeSet;
    let p = Project::demo();
    let opts = Options {
        root: p.root().to_path_buf(),
        threads: 1,
        ..Options::default()
    };
    let quiet = |_: engine::Event| {};
    let rebuild = |kept: &mut Kept, changed: Option<&BTreeSet<(String, String)>>| {
        engine::rebuild(&opts, kept, changed, &quiet).unwrap()
    };
    let none = BTreeSet::new();
    let mut kept = Kept::new();
    let first = rebuild(&mut kept, None);
    assert_eq!(kept.reused(), 0);
    assert!(first.jobs.iter().all(|j| j.status == Status::Built));
    let noop = rebuild(&mut kept, None);
    assert!(noop.jobs.iter().all(|j| j.status == Status::Fresh));
    assert_eq!(
        kept.reused(),
        2,
        "the plan, and the journal with the hashes"
    );

    // One source changed: checked without the watcher's word, built.
    let source = cli_support::ROBOT_CC;
    let bytes = fs::read(p.path(source)).unwrap();
    let version = cli_support::robot_cc_variant;
    p.write_bytes(source, &version(b'4'));
    let report = rebuild(&mut kept, None);
    let readers: BTreeSet<(String, String)> = report
        .jobs
        .iter()
        .filter(|j| j.status == Status::Built)
        .map(|j| (j.kind.clone(), j.id.clone()))
        .collect();
    assert_eq!(readers.len(), 2, "{:?}", outcome(&report));
    assert_eq!(kept.reused(), 4);
    assert_eq!(
        report.manifests_planned, 0,
        "the jobs as the first build planned them"
    );
    // What the kept state says is what the files say.
    assert_eq!(outcome(&engine::build(&opts, &quiet).unwrap()), {
        let mut fresh = outcome(&report);
        fresh.iter_mut().for_each(|j| j.1 = "fresh".to_string());
        fresh
    });

    // The watcher's word: a change it did not name is not looked for...
    p.write_bytes(source, &version(b'5'));
    let unnamed = rebuild(&mut kept, Some(&none));
    assert!(unnamed.jobs.iter().all(|j| j.status == Status::Fresh));
    // ...and one it names is.
    let named = rebuild(&mut kept, Some(&readers));
    assert_eq!(named.count(Status::Built), 2);
    assert_eq!(named.count(Status::Fresh), named.jobs.len() - 2);

    // A job that failed is checked at the next build, named or not.
    p.write_bytes(source, &bytes[..bytes.len() / 2]);
    let failed = rebuild(&mut kept, Some(&readers));
    assert_eq!(failed.count(Status::Failed), 2);
    p.write_bytes(source, &version(b'6'));
    let retried = rebuild(&mut kept, Some(&none));
    assert_eq!(retried.count(Status::Built), 2, "{:?}", outcome(&retried));

    // Another build on the folder: the journal and the hash cache are read
    // again (the plan file it did not write is still taken from memory).
    p.write_bytes(source, &version(b'7'));
    let other = engine::build(&opts, &quiet).unwrap();
    assert_eq!(other.count(Status::Built), 2);
    let reused = kept.reused();
    let after_other = rebuild(&mut kept, Some(&none));
    assert_eq!(kept.reused(), reused + 1);
    let mut expected = outcome(&other);
    expected.iter_mut().for_each(|j| j.1 = "fresh".to_string());
    assert_eq!(outcome(&after_other), expected, "the other build's records");

    // The output folder deleted: nothing kept is used, every job is built.
    fs::remove_dir_all(p.path("out")).unwrap();
    let reused = kept.reused();
    let again = rebuild(&mut kept, Some(&none));
    assert_eq!(kept.reused(), reused);
    assert!(again.jobs.iter().all(|j| j.status == Status::Built));
    assert_eq!(outcome(&again).len(), outcome(&other).len());

    // A kept job whose source is gone is planned again: the manifest's
    // problem, as a one-off build reports it.
    fs::remove_file(p.path(source)).unwrap();
    let problems = |result: Result<engine::Report, engine::BuildError>| match result {
        Err(engine::BuildError::Manifests(problems)) => problems
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<String>>(),
        other => panic!("{:?}", other.map(|r| outcome(&r))),
    };
    let from_kept = problems(engine::rebuild(&opts, &mut kept, Some(&readers), &quiet));
    assert!(
        from_kept.iter().any(|m| m.contains(source)),
        "{from_kept:?}"
    );
    assert_eq!(from_kept, problems(engine::build(&opts, &quiet)));
}

#[test]
fn a_watchs_builds_take_unchanged_models_and_banks_from_the_memo() {
    // A level rebuilt because one model's source changed takes its other
    // models from the memo of the process's earlier builds; a model whose
    // source, a file beside it (its texture) or its entry changed is made
    // again. Every output equals a one-off build's of the same files.
    use kiln::pipeline::engine::{self, Kept, Options};
    let p = Project::demo();
    cli_support::split_fox(&p);
    p.write(
        "manifests/split.yaml",
        "characters:\n  - level: split\n    banks:\n      - id: fox-anims\n        clips:\n          - source: sources/characters/Fox.glb\n      - id: robot-anims\n        clips:\n          - source: sources/characters/RobotExpressive.glb\n            animations: [Idle]\n    models:\n      - id: fox\n        source: split/fox.gltf\n        bank: fox-anims\n      - id: robot\n        source: sources/characters/RobotExpressive.cc.glb\n        bank: robot-anims\n",
    );
    let opts = Options {
        root: p.root().to_path_buf(),
        threads: 1,
        ..Options::default()
    };
    let quiet = |_: engine::Event| {};
    let mut kept = Kept::new();
    let first = engine::rebuild(&opts, &mut kept, None, &quiet).unwrap();
    assert!(
        first.jobs.iter().all(|j| j.error.is_none()),
        "{:?}",
        first.jobs.iter().map(|j| &j.error).collect::<Vec<_>>()
    );
    // forest's four models and three banks, sandbox's two and two, split's
    // two and two.
    assert_eq!(kept.memo().held().0, 15);
    assert_eq!(kept.memo().hits(), 0);
    let same_as_one_off = |what: &str| {
        let q = Project::demo();
        cli_support::copy_dir(&p.path("sources"), &q.path("sources"));
        cli_support::copy_dir(&p.path("manifests"), &q.path("manifests"));
        cli_support::copy_dir(&p.path("split"), &q.path("split"));
        assert!(q.kiln(&["build", "--quiet"]).status.success());
        for level in ["forest", "split"] {
            for file in ["@world/characters", "level.json"] {
                let rel = format!("out/levels/{level}/{file}");
                assert!(
                    fs::read(p.path(&rel)).unwrap() == fs::read(q.path(&rel)).unwrap(),
                    "{what}: {rel}"
                );
            }
        }
    };
    // The compressed robot's source changed: forest and split rebuilt,
    // their other models (fox, cesium-man, robot; the split fox) reused,
    // and their banks (forest's three, split's two: no clip of theirs
    // comes from that file, and the robot's skin is the same).
    p.write_bytes(cli_support::ROBOT_CC, &cli_support::robot_cc_variant(b'4'));
    engine::rebuild(&opts, &mut kept, None, &quiet).unwrap();
    assert_eq!(kept.memo().hits(), 4 + 5);
    same_as_one_off("a source changed");
    // The split fox's texture, a file beside its .gltf, changed: that
    // model is made again (and its atlas differs), the robot and the two
    // banks reused.
    let png = fs::read(p.path("split/fur.png")).unwrap();
    let other = fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/corpus/images/survey-interlaced.png"
    ))
    .unwrap();
    fs::write(p.path("split/fur.png"), &other).unwrap();
    let before = fs::read(p.path("out/levels/split/@world/characters")).unwrap();
    engine::rebuild(&opts, &mut kept, None, &quiet).unwrap();
    assert_eq!(kept.memo().hits(), 9 + 3);
    assert!(fs::read(p.path("out/levels/split/@world/characters")).unwrap() != before);
    same_as_one_off("a texture beside changed");
    // And back: the first texture again. The memo holds the last part
    // made for a key (the fox of the other texture), so the fox is made
    // again: the same bytes as at first.
    fs::write(p.path("split/fur.png"), &png).unwrap();
    engine::rebuild(&opts, &mut kept, None, &quiet).unwrap();
    assert_eq!(kept.memo().hits(), 12 + 3);
    assert_eq!(
        fs::read(p.path("out/levels/split/@world/characters")).unwrap(),
        before
    );
    // The model's entry changed (its atlas padding): made again.
    let text = fs::read_to_string(p.path("manifests/split.yaml")).unwrap();
    p.write(
        "manifests/split.yaml",
        &text.replace(
            "        source: split/fox.gltf\n",
            "        source: split/fox.gltf\n        atlas: { padding: 2 }\n",
        ),
    );
    engine::rebuild(&opts, &mut kept, None, &quiet).unwrap();
    assert_eq!(kept.memo().hits(), 15 + 3);
    same_as_one_off("an entry changed");
    // A bank's entry changed (its tolerance): that bank is made again, the
    // other bank and both models reused.
    let text = fs::read_to_string(p.path("manifests/split.yaml")).unwrap();
    p.write("manifests/split.yaml", &text.replace("          - source: sources/characters/Fox.glb\n", "          - source: sources/characters/Fox.glb\n        tolerance: { position_m: 0.001, rotation_deg: 0.1, scale: 0.001 }\n"));
    engine::rebuild(&opts, &mut kept, None, &quiet).unwrap();
    assert_eq!(kept.memo().hits(), 18 + 3);
    same_as_one_off("a bank's entry changed");
}
