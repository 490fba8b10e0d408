//! End-to-end tests: the `kiln` binary driven like a user drives it, on a
//! copy of the demo project.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use serde_json::Value;

use crate::{cli_support, guard_support};
use cli_support::*;

fn demo_job_count() -> usize {
    let mut n = 0;
    for entry in fs::read_dir(Path::new(REPO).join("manifests")).unwrap() {
        let text = fs::read_to_string(entry.unwrap().path()).unwrap();
        // One job per entry of a section: `  - id:` (or a level's
        // `  - level:`), not the ids nested inside an entry.
        n += text
            .lines()
            .filter(|l| l.starts_with("  - id:") || l.starts_with("  - level:"))
            .count();
    }
    n
}

#[test]
fn clean_build_builds_every_job_and_reports_true_hashes() {
    let p = Project::demo();
    let (report, out) = p.build_json(&[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let jobs = report["jobs"].as_array().unwrap();
    assert_eq!(jobs.len(), demo_job_count());
    assert_eq!(report["totals"]["built"], demo_job_count());
    for job in jobs {
        assert_eq!(job["status"], "built");
        let output = &job["outputs"][0];
        let path = p.path(output["path"].as_str().unwrap());
        let bytes = fs::read(&path).unwrap();
        assert_eq!(output["bytes"], bytes.len());
        let sha = sha256_hex(&bytes);
        assert_eq!(output["sha256"], sha.as_str());
        match job["kind"].as_str().unwrap() {
            "pose_cache" => drop(kiln::formats::ospc::decode(&bytes).unwrap()),
            "model_bundle" => {
                drop(kiln::formats::gguf::decode_header(&bytes, bytes.len() as u64).unwrap())
            }
            "characters" => {
                let doc = kiln::formats::kchr::decode(&bytes).unwrap();
                assert!(!doc.models.is_empty());
                // The level's index, written last, records the entry.
                let index = &job["outputs"][1];
                assert!(index["path"].as_str().unwrap().ends_with("/level.json"));
                let level: serde_json::Value = serde_json::from_slice(
                    &fs::read(p.path(index["path"].as_str().unwrap())).unwrap(),
                )
                .unwrap();
                let entry = &level["entries"][0];
                assert_eq!(entry["name"], "@world/characters");
                assert_eq!(entry["feature"], "world/characters@1");
                assert_eq!(entry["bytes"], bytes.len());
                assert_eq!(entry["sha256"], sha.as_str());
            }
            "cgeo_sequence" => {
                let seq = kiln::formats::cgeo::decode(&bytes).unwrap();
                assert!(seq.snapshots.len() > 1);
            }
            "style" => {
                // The style, then the set's manifest.json naming it.
                let style = kiln::formats::mbstyle::read(&bytes).unwrap();
                assert!(style.style.frames() > 1);
                let index = &job["outputs"][1];
                assert!(index["path"].as_str().unwrap().ends_with("/manifest.json"));
            }
            other => panic!("a demo job of kind {other}"),
        }
    }
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[test]
fn second_build_is_all_fresh_and_writes_nothing() {
    let p = Project::demo();
    let (_, out) = p.build_json(&[]);
    assert!(out.status.success(), "{}", stderr(&out));
    // Let the hash cache see settled timestamps, as a later build would.
    std::thread::sleep(Duration::from_millis(2100));
    let (_, out) = p.build_json(&[]);
    assert!(out.status.success());
    let before = snapshot_stat(&p.path("out"));
    let (report, out) = p.build_json(&[]);
    assert!(out.status.success());
    assert_eq!(ids_with(&report, "fresh").len(), demo_job_count());
    assert_eq!(report["totals"]["built"], 0);
    // Fresh jobs still report their outputs' hashes.
    assert_eq!(
        report["jobs"][0]["outputs"][0]["sha256"]
            .as_str()
            .unwrap()
            .len(),
        64
    );
    assert_eq!(
        snapshot_stat(&p.path("out")),
        before,
        "a no-op build wrote something"
    );
}

#[test]
fn touching_a_source_rebuilds_nothing_and_editing_it_rebuilds_only_its_jobs() {
    let p = Project::demo();
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    // Same content, new mtime: the content hash decides.
    let src = p.path("sources/characters/SimpleSkin.glb");
    let bytes = fs::read(&src).unwrap();
    fs::write(&src, &bytes).unwrap();
    let (report, _) = p.build_json(&[]);
    assert!(ids_with(&report, "built").is_empty(), "{report}");
    // New content: only the jobs reading this file rebuild.
    fs::copy(
        Path::new(REPO).join("tests/corpus/glb-meshopt/SimpleSkin.q.glb"),
        &src,
    )
    .unwrap();
    let (report, out) = p.build_json(&["--explain"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(ids_with(&report, "built"), ["sandbox", "simple-skin"]);
    let job = report["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|j| j["id"] == "simple-skin")
        .unwrap();
    assert_eq!(
        job["dirty_because"][0],
        "input sources/characters/SimpleSkin.glb changed"
    );
}

#[test]
fn changing_one_setting_rebuilds_only_that_job_and_explains_why() {
    let p = Project::demo();
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    p.edit(
        "manifests/characters.yaml",
        "animation: Walk\n    rate_hz: 30",
        "animation: Walk\n    rate_hz: 24",
    );
    let out = p.kiln(&["build", "--explain"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        text.trim(),
        "fox-walk: rebuilt because setting rate_hz changed: 30.0 -> 24.0"
    );
}

#[test]
fn outputs_do_not_depend_on_thread_count_or_checkout_location() {
    let a = Project::demo();
    let b = Project::demo();
    let (report, out) = a.build_json(&["-j", "1"]);
    assert!(out.status.success());
    assert!(b.kiln(&["build", "-j", "2", "--quiet"]).status.success());
    let outputs = |p: &Project| {
        let mut all = BTreeMap::new();
        for (_, folder, _) in kiln::pipeline::kinds::OUTPUTS {
            all.extend(snapshot_bytes(&p.path(&format!("out/{folder}"))));
        }
        all
    };
    let (oa, ob) = (outputs(&a), outputs(&b));
    let reported: usize = report["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j["outputs"].as_array().unwrap().len())
        .sum();
    assert_eq!(report["totals"]["jobs"], demo_job_count());
    assert_eq!(oa.len(), reported);
    assert!(
        oa == ob,
        "outputs differ between -j 1 and -j 2 in two roots"
    );
}

#[test]
fn demo_outputs_match_their_golden_hashes() {
    // A change here means the output bytes changed: bump the job kind's
    // VERSION, then re-bless with KILN_BLESS=1 (which refuses new hashes
    // under the old VERSION). One golden file per output folder.
    let p = Project::demo();
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    // Every kind, from the kinds' own list: the demo has a job of each.
    for &(kind, folder, version) in kiln::pipeline::kinds::OUTPUTS {
        let version = format!("# {kind} VERSION {version}\n");
        let hashes: String = snapshot_bytes(&p.path(&format!("out/{folder}")))
            .iter()
            .map(|(path, bytes)| format!("{}  {}\n", sha256_hex(bytes), path.display()))
            .collect();
        assert!(!hashes.is_empty(), "the demo has {kind} jobs");
        let actual = format!("{version}{hashes}");
        let golden = Path::new(REPO).join(format!("tests/golden/demo-{folder}.sha256"));
        let old = fs::read_to_string(&golden).unwrap_or_default();
        if std::env::var_os("KILN_BLESS").is_some() && old != actual {
            assert!(
                !old.starts_with(&version),
                "the demo's {kind} output bytes changed under the same VERSION: bump its VERSION, then bless"
            );
            fs::create_dir_all(golden.parent().unwrap()).unwrap();
            fs::write(&golden, &actual).unwrap();
        }
        let expected = fs::read_to_string(&golden).expect("golden file (bless with KILN_BLESS=1)");
        assert_eq!(actual, expected, "{folder}");
    }
}

#[test]
fn the_demo_checkpoint_is_what_its_generator_writes() {
    use crate::synth;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tiny-mlp.safetensors");
    synth::write_checkpoint(&path, &synth::demo_checkpoint(), synth::DEMO_SEED).unwrap();
    assert_eq!(
        fs::read(&path).unwrap(),
        fs::read(Path::new(REPO).join("sources/weights/tiny-mlp.safetensors")).unwrap(),
        "regenerate with `cargo run --example demo_checkpoint`"
    );
}

/// Holds the lock of `p`'s built output folder and starts `kiln ARGS`,
/// returning once it has said it waits (not after a guess at how long it
/// takes to get there): the held lock, the child, the rest of its stderr.
pub fn waiting_build(
    p: &Project,
    args: &[&str],
) -> (
    fs::File,
    std::process::Child,
    std::io::BufReader<std::process::ChildStderr>,
) {
    let lock = fs::OpenOptions::new()
        .write(true)
        .open(p.path("out/.kiln/lock"))
        .unwrap();
    lock.lock().unwrap();
    let mut child = Command::new(KILN)
        .args(args)
        .current_dir(p.root())
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut said = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut first = String::new();
    guard_support::no_hang("the waiting build's first line", || {
        std::io::BufRead::read_line(&mut said, &mut first).unwrap()
    });
    assert!(
        first.starts_with("waiting for another kiln build to release"),
        "{first}"
    );
    (lock, child, said)
}

#[test]
fn a_second_build_waits_for_the_lock() {
    let p = Project::demo();
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    let (lock, mut child, _) = waiting_build(&p, &["build", "--force", "--quiet"]);
    lock.unlock().unwrap();
    let status = guard_support::no_hang("the build after the lock is released", || {
        child.wait().unwrap()
    });
    assert!(status.success());
}

/// Runs a build of a one-entry manifest and returns its stderr.
fn bad_manifest(entry: &str) -> (Output, String) {
    let p = Project::demo();
    fs::remove_dir_all(p.path("manifests")).unwrap();
    fs::create_dir(p.path("manifests")).unwrap();
    p.write("manifests/bad.yaml", &format!("pose_caches:\n{entry}"));
    let out = p.kiln(&["build"]);
    let err = stderr(&out);
    (out, err)
}

const GOOD_ENTRY: &str =
    "  - id: fox\n    source: sources/characters/Fox.glb\n    animation: Run\n    rate_hz: 30\n";

#[test]
fn bad_manifests_name_the_line_and_column() {
    let cases: [(&str, String, &str); 8] = [
        (
            "unknown key",
            GOOD_ENTRY.replace("    rate_hz: 30\n", "    rate_hz: 30\n    speed: 3\n"),
            "manifests/bad.yaml:6:",
        ),
        (
            "missing source",
            GOOD_ENTRY.replace("Fox.glb", "Wolf.glb"),
            "manifests/bad.yaml:3:13: source sources/characters/Wolf.glb: no such file",
        ),
        (
            "escaping path",
            GOOD_ENTRY.replace("sources/characters/Fox.glb", "../outside.glb"),
            "manifests/bad.yaml:3:13: source \"../outside.glb\" uses '..'",
        ),
        (
            "absolute path",
            GOOD_ENTRY.replace("sources/characters/Fox.glb", "/etc/passwd"),
            "manifests/bad.yaml:3:13: source \"/etc/passwd\" is absolute",
        ),
        (
            "a folder's path",
            GOOD_ENTRY.replace("Fox.glb", "Fox.glb/"),
            "manifests/bad.yaml:3:13: source \"sources/characters/Fox.glb/\" ends in '/', which names a folder",
        ),
        (
            "no such animation",
            GOOD_ENTRY.replace("Run", "Fly"),
            "manifests/bad.yaml:4:16: job \"fox\": no animation named \"Fly\"",
        ),
        (
            "bad value",
            GOOD_ENTRY.replace("rate_hz: 30", "rate_hz: -5"),
            "manifests/bad.yaml:5:14: rate_hz must be a number above 0",
        ),
        (
            // The pose cache's own rule: a colon is a drive, not a plain name.
            "replay with a directory part",
            format!("{GOOD_ENTRY}    replay: run:1.osr\n"),
            "manifests/bad.yaml:6:13: replay \"run:1.osr\" must be a plain file name",
        ),
    ];
    for (what, entry, expected) in cases {
        let (out, err) = bad_manifest(&entry);
        assert_eq!(out.status.code(), Some(1), "{what}: {err}");
        assert!(
            err.contains(expected),
            "{what}: expected {expected:?} in:\n{err}"
        );
    }
}

#[cfg(unix)]
#[test]
fn a_symlink_out_of_the_root_is_refused() {
    let outside = tempfile::NamedTempFile::new().unwrap();
    let p = Project::demo();
    std::os::unix::fs::symlink(outside.path(), p.path("sources/link.glb")).unwrap();
    p.write(
        "manifests/link.yaml",
        "pose_caches:\n  - id: link\n    source: sources/link.glb\n    animation: 0\n    rate_hz: 30\n",
    );
    let out = p.kiln(&["build", "manifests/link.yaml"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("manifests/link.yaml:3:13: source sources/link.glb resolves (through a symlink) outside the project root"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_failing_job_does_not_stop_the_others() {
    let p = Project::demo();
    p.edit(
        "manifests/robot.yaml",
        "animation: Wave",
        "animation: Juggle",
    );
    let (report, out) = p.build_json(&[]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(ids_with(&report, "failed"), ["robot-wave"]);
    assert_eq!(report["totals"]["built"], demo_job_count() - 1);
    let job = report["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|j| j["id"] == "robot-wave")
        .unwrap();
    assert_eq!(job["error"]["file"], "manifests/robot.yaml");
    assert_eq!(job["error"]["line"], 19);
    assert!(
        stderr(&out).contains(
            "manifests/robot.yaml:19:16: job \"robot-wave\": no animation named \"Juggle\""
        )
    );
}

#[test]
fn usage_errors_exit_2() {
    let p = Project::demo();
    assert_eq!(p.kiln(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(p.kiln(&["build", "--jobs", "0"]).status.code(), Some(2));
    assert_eq!(
        p.kiln(&["build", "--root", "no/such/dir"]).status.code(),
        Some(2)
    );
    assert_eq!(
        p.kiln(&["build", "manifests/none.yaml"]).status.code(),
        Some(2)
    );
    assert_eq!(p.kiln(&["verify"]).status.code(), Some(2));
    let help = p.kiln(&["build", "--help"]);
    assert!(help.status.success());
    assert!(String::from_utf8_lossy(&help.stdout).contains("--explain"));
}

#[test]
fn out_dir_and_root_flags_work_from_elsewhere() {
    let p = Project::demo();
    let out_dir = tempfile::tempdir().unwrap();
    let out = Command::new(KILN)
        .args(["build", "--quiet", "--root"])
        .arg(p.root())
        .arg("--out")
        .arg(out_dir.path())
        .arg(p.path("manifests/robot.yaml"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(out_dir.path().join("poses/robot-dance.ospc").is_file());
    assert!(!p.path("out").exists());
}

#[test]
fn verify_and_inspect_read_what_build_wrote() {
    let p = Project::demo();
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    let cache = "out/poses/fox-run.ospc";
    let out = p.kiln(&["verify", cache, "sources/characters/Fox.glb"]);
    assert!(out.status.success(), "{}", stderr(&out));

    let out = p.kiln(&["inspect", cache, "--json"]);
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["module_id"], "kiln");
    assert_eq!(v["unit_name"], "metre");
    assert_eq!(v["scene"], "Fox.glb");
    assert_eq!(v["label"], "Fox run, baked");
    assert_eq!(v["entities"].as_array().unwrap().len(), 24);

    let out = p.kiln(&["inspect", "sources/characters/Fox.glb", "--json"]);
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["animations"].as_array().unwrap().len(), 3);

    // A corrupted cache: exit 1, naming the file, the rule and the offset.
    let mut bytes = fs::read(p.path(cache)).unwrap();
    bytes[6] = 1; // flags
    p.write("bad.ospc", "");
    fs::write(p.path("bad.ospc"), &bytes).unwrap();
    let out = p.kiln(&["verify", "bad.ospc"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("bad.ospc") && err.contains("byte 6"), "{err}");

    // Truncated.
    let bytes = fs::read(p.path(cache)).unwrap();
    fs::write(p.path("short.ospc"), &bytes[..bytes.len() - 1]).unwrap();
    let out = p.kiln(&["verify", "short.ospc"]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn clean_removes_only_what_kiln_made() {
    let p = Project::demo();
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    assert!(p.kiln(&["clean"]).status.success());
    assert!(!p.path("out").exists());
    // A folder kiln has no record of (no .kiln/): nothing to clean, and
    // nothing in it is touched.
    fs::create_dir(p.path("precious")).unwrap();
    fs::write(p.path("precious/a.ospc"), "mine").unwrap();
    let out = p.kiln(&["clean", "--out", "precious"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stderr(&out).starts_with("nothing to clean: "),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        fs::read_to_string(p.path("precious/a.ospc")).unwrap(),
        "mine"
    );
}

#[test]
fn manifest_errors_are_json_too_with_json() {
    let p = Project::demo();
    p.write(
        "manifests/bad.yaml",
        "pose_caches:\n  - id: x\n    source: sources/characters/Fox.glb\n    animation: Run\n    rate_hz: 30\n    colour: red\n",
    );
    let (report, out) = p.build_json(&[]);
    assert_eq!(out.status.code(), Some(1));
    let e = &report["errors"][0];
    assert_eq!(e["file"], "manifests/bad.yaml");
    assert_eq!(e["line"], 6);
    assert_eq!(e["column"], 5);
    assert!(e["message"].as_str().unwrap().contains("colour"), "{e}");
    // Nothing was built: a manifest problem stops the whole build.
    assert!(!p.path("out/poses").exists());
}

/// A `.gltf` whose animation buffer is a file next to it: the file is an
/// input of the job (discovered while it runs), so editing it rebuilds the
/// job, and a buffer outside the source's folder is refused.
#[test]
fn external_buffers_are_inputs_and_stay_next_to_the_source() {
    let p = Project::demo();
    let text =
        fs::read_to_string(Path::new(REPO).join("tests/corpus/glb/SimpleSkin.gltf")).unwrap();
    let mut doc: Value = serde_json::from_str(&text).unwrap();
    let uri = doc["buffers"][3]["uri"].as_str().unwrap().to_string();
    let b64 = uri.split_once(";base64,").unwrap().1;
    let mut bin = cli_support::base64_decode(b64);
    doc["buffers"][3]["uri"] = Value::from("anim.bin");
    fs::create_dir_all(p.path("sources/ext")).unwrap();
    fs::write(p.path("sources/ext/skin.gltf"), doc.to_string()).unwrap();
    fs::write(p.path("sources/ext/anim.bin"), &bin).unwrap();
    p.write(
        "manifests/ext.yaml",
        "pose_caches:\n  - id: ext-skin\n    source: sources/ext/skin.gltf\n    animation: 0\n    rate_hz: 30\n",
    );
    let (report, out) = p.build_json(&["manifests/ext.yaml"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(ids_with(&report, "built"), ["ext-skin"]);

    // Nudge one rotation component by one ulp: same size, new content.
    bin[48 + 16 * 5] ^= 1;
    fs::write(p.path("sources/ext/anim.bin"), &bin).unwrap();
    let out = p.kiln(&["build", "--explain", "manifests/ext.yaml"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "ext-skin: rebuilt because input sources/ext/anim.bin changed"
    );

    // A buffer that would leave the source's folder is refused.
    doc["buffers"][3]["uri"] = Value::from("../anim.bin");
    let text = doc.to_string();
    fs::write(p.path("sources/ext/skin.gltf"), &text).unwrap();
    let out = p.kiln(&["build", "manifests/ext.yaml"]);
    assert_eq!(out.status.code(), Some(1));
    // At the uri's byte in the .gltf.
    let at = text.find("\"../anim.bin\"").unwrap();
    assert!(
        stderr(&out).contains(&format!(
            "manifests/ext.yaml:3:13: job \"ext-skin\": sources/ext/skin.gltf: at byte {at}: buffers[3].uri: uri \"../anim.bin\" must be a plain file name"
        )),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_deleted_or_edited_output_is_rebuilt_and_nothing_else() {
    let p = Project::demo();
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    fs::remove_file(p.path("out/poses/fox-walk.ospc")).unwrap();
    fs::write(p.path("out/poses/robot-wave.ospc"), b"scribbled over").unwrap();
    let out = p.kiln(&["build", "--explain"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    let mut lines: Vec<&str> = text.lines().collect();
    lines.sort();
    assert_eq!(
        lines,
        [
            "fox-walk: rebuilt because output poses/fox-walk.ospc is missing",
            "robot-wave: rebuilt because output poses/robot-wave.ospc was modified",
        ]
    );
    let (report, _) = p.build_json(&[]);
    assert_eq!(report["totals"]["built"], 0);
}

/// Sets every file under `dir` to have been modified an hour ago, so the
/// hash cache keeps them (it skips files modified in the last two seconds).
fn settle(dir: &Path) {
    let hour_ago = std::time::SystemTime::now() - Duration::from_secs(3600);
    walk(dir, dir, &mut |_, path| {
        let f = fs::File::options().write(true).open(path).unwrap();
        f.set_modified(hour_ago).unwrap();
    });
}

#[test]
fn force_rebuilds_an_up_to_date_project() {
    let p = Project::demo();
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    let (report, _) = p.build_json(&[]);
    assert_eq!(ids_with(&report, "fresh").len(), demo_job_count());
    let journal = fs::metadata(p.path("out/.kiln/journal")).unwrap().len();
    let (report, out) = p.build_json(&["--force"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(ids_with(&report, "built").len(), demo_job_count());
    for job in report["jobs"].as_array().unwrap() {
        assert_eq!(job["dirty_because"], serde_json::json!(["--force"]));
    }
    // Every job ran and was recorded again.
    assert!(fs::metadata(p.path("out/.kiln/journal")).unwrap().len() > journal);
}

#[test]
fn a_build_saves_the_hash_cache_and_the_plan_summary_and_compacts_the_journal() {
    let p = Project::demo();
    settle(&p.path("sources"));
    settle(&p.path("manifests"));
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    let state = p.path("out/.kiln");
    for file in ["files", "plan", "journal"] {
        let len = fs::metadata(state.join(file)).map_or(0, |m| m.len());
        assert!(len > 40, "{file}: {len} bytes");
    }
    // The hash cache names every source read.
    let files = fs::read(state.join("files")).unwrap();
    let text = String::from_utf8_lossy(&files);
    assert!(text.contains("sources/characters/Fox.glb"), "{text}");
    // Forced builds append a record per job each; compaction keeps the
    // journal near one record per job.
    let one_build = fs::metadata(state.join("journal")).unwrap().len();
    for _ in 0..8 {
        assert!(p.kiln(&["build", "--quiet", "--force"]).status.success());
    }
    let after = fs::metadata(state.join("journal")).unwrap().len();
    assert!(
        after < 4 * one_build,
        "journal {after} bytes after 9 builds of {one_build} each"
    );
}

#[test]
fn an_output_edited_to_the_same_size_is_rebuilt() {
    let p = Project::demo();
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    let path = p.path("out/poses/fox-walk.ospc");
    let mut bytes = fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::thread::sleep(Duration::from_millis(20)); // a new mtime
    fs::write(&path, &bytes).unwrap();
    let out = p.kiln(&["build", "--explain"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        text.trim(),
        "fox-walk: rebuilt because output poses/fox-walk.ospc was modified"
    );
}

#[test]
fn a_build_removes_the_temporary_files_a_killed_build_left_and_nothing_else() {
    let p = Project::demo();
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    let stale = [
        "out/.fox-run.ospc.kiln-tmp",
        "out/poses/.fox-run.ospc.kiln-tmp",
        "out/models/tiny-mlp/.tiny-mlp.gguf.kiln-tmp",
        "out/levels/forest/@world/.characters.kiln-tmp",
        "out/.kiln/.journal.kiln-tmp",
    ];
    p.write("out/poses/.keep", "mine");
    // Both ways a build starts: planning (after a change), and the no-op
    // path (nothing changed, the manifests not even parsed); then a build
    // of one target, also a no-op.
    for (how, args) in [
        ("planned", &["build", "--json"][..]),
        ("no-op", &["build", "--json"][..]),
        (
            "no-op of one target",
            &["build", "--json", "robot-wave"][..],
        ),
    ] {
        for rel in stale {
            p.write_bytes(rel, b"torn");
        }
        if how == "planned" {
            p.edit("manifests/robot.yaml", "rate_hz: 30", "rate_hz: 24");
        }
        let out = p.kiln(args);
        assert!(out.status.success(), "{how}: {}", stderr(&out));
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["totals"]["planned"], how == "planned", "{how}");
        for rel in stale {
            assert!(!p.path(rel).exists(), "{how}: {rel} was left");
        }
        assert!(p.path("out/poses/.keep").exists(), "{how}");
    }
}

#[test]
fn a_no_op_build_does_not_plan() {
    let p = Project::demo();
    let (report, _) = p.build_json(&[]);
    assert_eq!(report["totals"]["planned"], true);
    let (report, out) = p.build_json(&[]);
    assert!(out.status.success());
    assert_eq!(ids_with(&report, "fresh").len(), demo_job_count());
    assert_eq!(report["totals"]["planned"], false);
    // A changed manifest plans.
    p.edit("manifests/robot.yaml", "rate_hz: 30", "rate_hz: 24");
    let (report, _) = p.build_json(&[]);
    assert_eq!(report["totals"]["planned"], true);
}

#[test]
fn clean_counts_what_it_removed_and_what_it_kept() {
    let p = Project::demo();
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    p.write("out/.kiln/.plan.kiln-tmp", "torn");
    p.write("out/poses/.fox-run.ospc.kiln-tmp", "torn");
    p.write("out/.robot-wave.ospc.kiln-tmp", "torn");
    let n_made = snapshot_bytes(&p.path("out")).len();
    let o = p.kiln(&["clean"]);
    assert_eq!(
        stderr(&o).trim(),
        format!(
            "removed {} ({n_made} files kiln made)",
            p.root().canonicalize().unwrap().join("out").display()
        )
    );
    // Twenty-one files of the user's and an empty folder: the first twenty
    // are named, then how many more.
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    let n_made = snapshot_bytes(&p.path("out")).len();
    for i in 0..21 {
        p.write(&format!("out/mine-{i:02}.txt"), "mine");
    }
    fs::create_dir(p.path("out/empty")).unwrap();
    let o = p.kiln(&["clean"]);
    let err = stderr(&o);
    let lines: Vec<&str> = err.lines().collect();
    assert!(
        lines[0].starts_with(&format!("removed {n_made} files kiln made from "))
            && lines[0].ends_with("; kept 22 it did not make (or has no record of):"),
        "{err}"
    );
    assert!(lines[1].ends_with("/out/empty"), "{err}");
    assert!(lines[2].ends_with("/out/mine-00.txt"), "{err}");
    assert_eq!(lines.len(), 1 + 20 + 1, "{err}");
    assert_eq!(lines[21], "  ... and 2 more");
}

/// The binary starts without loading a C++ runtime. Only meshoptimizer's
/// decoders are called, and they need none; libstdc++ came in once through
/// a linker accident and cost 1.1 ms of a 10 ms no-op (see
/// `[profile.release.package.meshopt]` in Cargo.toml). `readelf` comes with
/// binutils, which the Rust toolchain needs to link on Linux.
#[cfg(target_os = "linux")]
#[test]
fn binary_needs_no_cpp_runtime() {
    let out = Command::new("readelf")
        .args(["-d", "--wide", KILN])
        .output()
        .expect("readelf (binutils) runs");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    let needed: Vec<&str> = text.lines().filter(|l| l.contains("(NEEDED)")).collect();
    assert!(!needed.is_empty(), "no NEEDED entry read: {text}");
    for line in &needed {
        assert!(
            !line.contains("libstdc++") && !line.contains("libc++"),
            "the binary links a C++ runtime: {line}"
        );
    }
}

#[test]
fn inspect_draws_the_atlas_and_reads_qoi() {
    let p = Project::demo();
    // The material stage on a character, its atlas as a PNG.
    let out = p.kiln(&[
        "inspect",
        "--atlas-png",
        "fox-atlas.png",
        "sources/characters/Fox.glb",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("atlas 1032 x 1032, 1 regions"), "{text}");
    assert!(
        text.contains("fox_material") && text.contains("scale 1.000 x 1.000"),
        "{text}"
    );
    let png = fs::read(p.path("fox-atlas.png")).unwrap();
    assert!(png.starts_with(b"\x89PNG"));
    let out = p.kiln(&[
        "inspect",
        "--json",
        "--atlas-png",
        "robot.png",
        "sources/characters/RobotExpressive.glb",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["regions"].as_array().unwrap().len(), 3);
    assert_eq!(v["regions"][0]["kind"], "solid");
    assert!(v["fill_ratio"].as_f64().unwrap() > 0.0);

    // A .gltf whose texture is a file beside it; one that reaches outside
    // its folder is refused.
    let mut json = crate::cli_support::split_fox(&p);
    let out = p.kiln(&["inspect", "--atlas-png", "split.png", "split/fox.gltf"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        fs::read(p.path("split.png")).unwrap(),
        png,
        "the same atlas from a file beside the .gltf"
    );
    json["images"][0]["uri"] = serde_json::json!("../fur.png");
    fs::write(
        p.path("split/escape.gltf"),
        serde_json::to_vec(&json).unwrap(),
    )
    .unwrap();
    let out = p.kiln(&["inspect", "--atlas-png", "x.png", "split/escape.gltf"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("images[0].uri") && err.contains("plain file name"),
        "{err}"
    );
    assert!(!p.path("x.png").exists());

    // A QOI image: inspect, verify, convert.
    let meshes = kiln::import::gltf::import_meshes(
        kiln::import::gltf::Source::parse(&fs::read(p.path("sources/characters/Fox.glb")).unwrap())
            .unwrap(),
        &[],
        &[],
        None,
    )
    .unwrap();
    let prims: Vec<_> = meshes.meshes.iter().flat_map(|m| &m.primitives).collect();
    let a = kiln::bake::atlas::material_stage(
        &meshes,
        &prims,
        &Default::default(),
        &kiln::pipeline::sources::IMAGES,
    )
    .unwrap();
    fs::write(p.path("fox.qoi"), kiln::bake::atlas::encode_qoi(&a.image)).unwrap();
    let out = p.kiln(&["inspect", "fox.qoi"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("QOI image 1032 x 1032, 4 channels, colorspace 0 (srgb), opaque"),
        "{text}"
    );
    let out = p.kiln(&["verify", "fox.qoi"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = p.kiln(&["inspect", "--png", "fox-qoi.png", "fox.qoi"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        fs::read(p.path("fox-qoi.png")).unwrap(),
        png,
        "the QOI's pixels are the atlas's"
    );
    let mut bad = fs::read(p.path("fox.qoi")).unwrap();
    bad.pop();
    fs::write(p.path("bad.qoi"), &bad).unwrap();
    let out = p.kiln(&["verify", "bad.qoi"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("bad.qoi") && stderr(&out).contains("at byte"),
        "{}",
        stderr(&out)
    );
    // Not both at once: a usage error.
    let out = p.kiln(&[
        "inspect",
        "--png",
        "a.png",
        "--atlas-png",
        "b.png",
        "fox.qoi",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    // --png is for .qoi files, --atlas-png for glTF.
    let out = p.kiln(&["inspect", "--png", "y.png", "sources/characters/Fox.glb"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("--atlas-png"), "{}", stderr(&out));
}

#[test]
fn a_level_compiles_inspects_verifies_and_its_errors_point_at_the_manifest() {
    let p = Project::demo();
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    let entry = "out/levels/forest/@world/characters";
    // inspect: models, palette, banks, clips with key counts before and
    // after reduction (from level.json).
    let out = p.kiln(&["inspect", entry]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("4 models, 3 banks"), "{text}");
    assert!(text.contains("model fox: bank fox-anims"), "{text}");
    assert!(text.contains("before reduction)"), "{text}");
    let out = p.kiln(&["inspect", "--json", entry]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["feature"], "world/characters@1");
    let clip = &v["banks"][0]["clips"][0];
    assert!(clip["keys"].as_u64().unwrap() <= clip["keys_source"].as_u64().unwrap());
    // verify runs the full validation.
    let out = p.kiln(&["verify", entry]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("valid compiled characters"));
    // --atlas-png writes each model's atlas.
    let out = p.kiln(&["inspect", "--atlas-png", "atlas.png", entry]);
    assert!(out.status.success(), "{}", stderr(&out));
    for id in ["fox", "cesium-man", "robot", "robot-compressed"] {
        let png = fs::read(p.path(&format!("atlas-{id}.png"))).unwrap();
        assert!(png.starts_with(b"\x89PNG"), "{id}");
    }
    // A damaged entry: verify names the offset.
    let mut bytes = fs::read(p.path(entry)).unwrap();
    bytes.truncate(bytes.len() - 1);
    p.write_bytes("broken-characters", &bytes);
    let out = p.kiln(&["verify", "broken-characters"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("at byte 12: document length says"),
        "{}",
        stderr(&out)
    );

    // The three.js export of the robot renamed its nodes: binding the
    // robot's bank fails at the model's `bank`, listing what is missing...
    p.write_bytes(
        "sources/characters/RobotExpressive-threeexporter.glb",
        &fs::read(Path::new(REPO).join("tests/corpus/glb/RobotExpressive-threeexporter.glb"))
            .unwrap(),
    );
    let level = "characters:
  - level: yard
    banks:
      - id: robot-anims
        clips:
          - source: sources/characters/RobotExpressive.glb
            animations: [Idle]
    models:
      - id: three
        source: sources/characters/RobotExpressive-threeexporter.glb
        bank: robot-anims
";
    p.write("manifests/yard.yaml", level);
    let out = p.kiln(&["build", "--quiet"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("manifests/yard.yaml:11:15"), "{err}");
    assert!(
        err.contains(
            "the model lacks 4 of the 6 nodes its bank \"robot-anims\" animates: \"LowerLeg.L\""
        ),
        "{err}"
    );
    // ... and succeeds with a node map.
    p.write(
        "manifests/yard.yaml",
        &format!("{level}        node_map: {{ ignore: \".\" }}\n"),
    );
    let out = p.kiln(&["build", "--quiet"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(p.path("out/levels/yard/@world/characters").is_file());
    // A bank that does not exist is a planning error at the line.
    p.edit(
        "manifests/yard.yaml",
        "bank: robot-anims",
        "bank: robot-anim",
    );
    let out = p.kiln(&["build", "--quiet"]);
    assert!(
        stderr(&out).contains("manifests/yard.yaml:11:15: no bank \"robot-anim\" in this level"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn verify_json_gives_a_record_per_file_and_totals() {
    let p = Project::demo();
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    let mut bytes = fs::read(p.path("out/poses/fox-run.ospc")).unwrap();
    bytes[6] = 1; // flags
    fs::write(p.path("bad.ospc"), &bytes).unwrap();
    let out = p.kiln(&[
        "verify",
        "--json",
        "out/poses/fox-run.ospc",
        "bad.ospc",
        "out/levels/forest/@world/characters",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(stderr(&out), "", "with --json, errors are in the document");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let files = v["files"].as_array().unwrap();
    assert_eq!(files.len(), 3);
    assert_eq!(files[0]["path"], "out/poses/fox-run.ospc");
    assert_eq!(files[0]["valid"], true);
    assert!(
        files[0]["summary"]
            .as_str()
            .unwrap()
            .starts_with("valid pose cache v1")
    );
    assert_eq!(files[1]["valid"], false);
    let errors = files[1]["errors"].as_array().unwrap();
    assert!(errors[0].as_str().unwrap().contains("byte 6"), "{errors:?}");
    assert_eq!(files[2]["valid"], true);
    assert_eq!(
        v["totals"],
        serde_json::json!({ "files": 3, "valid": 2, "invalid": 1 })
    );
}

#[test]
fn inspect_of_a_gltf_shows_what_a_manifest_author_names() {
    let p = Project::demo();
    let out = p.kiln(&["inspect", "sources/characters/Fox.glb"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    for line in [
        // The node tree, indented by depth, joints marked.
        "\n  \"root\" (node 0)\n    \"_rootJoint\" (node 2) [joint of skin 0]\n      \"b_Root_00\" (node 3) [joint of skin 0]\n",
        "\n                \"b_Head_05\" (node 8) [joint of skin 0]\n",
        "\n  \"fox\" (node 1) mesh 0 \"fox1\", skin 0\n",
        "\n  0 \"\": 24 joints, root \"_rootJoint\"\n",
        "\n  2 \"Run\": 1.158 s, 21 channels (20 rotation, 1 translation), LINEAR\n",
        "\n    primitive 0: 1728 vertices, 0 indices, material 0 \"fox_material\"; JOINTS_0, POSITION, TEXCOORD_0, WEIGHTS_0\n",
        "\n  0 \"fox_material\": base colour (1, 1, 1, 1), base colour texture 0, OPAQUE\n",
        "\n  0: image 0 \"\" (embedded, image/png)\n",
    ] {
        assert!(text.contains(line), "no {line:?} in\n{text}");
    }
    // The JSON gives the same, with indices.
    let out = p.kiln(&[
        "inspect",
        "--json",
        "sources/characters/RobotExpressive.glb",
    ]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["skins"][0]["joints"], 43);
    let root = v["skins"][0]["root"].as_u64().unwrap() as usize;
    assert_eq!(v["nodes"][root]["name"], "Bone");
    let wave = &v["animations"][12];
    assert_eq!(wave["name"], "Wave");
    assert_eq!(wave["targets"]["rotation"], 16);
    assert_eq!(wave["targets"]["weights"], 1);
    assert_eq!(v["meshes"][2]["name"], "Head");
    assert_eq!(v["meshes"][2]["primitives"][0]["morph_targets"], 3);
    assert_eq!(v["meshes"][2]["primitives"][0]["vertices"], 302);
    assert_eq!(v["materials"][1]["name"], "Main");
}

#[test]
fn a_manifest_error_quotes_its_line_with_a_caret() {
    // A planning problem and a job's failure at run time: each names the
    // file, line and column first (for editors), then shows the line.
    let (out, err) =
        bad_manifest(&GOOD_ENTRY.replace("rate_hz: 30", "rate_hz: 30\n    colour: red"));
    assert_eq!(out.status.code(), Some(1));
    assert!(
        err.contains("error: manifests/bad.yaml:6:5: unknown field `colour`"),
        "{err}"
    );
    assert!(
        err.contains("\n  |\n6 |     colour: red\n  |     ^^^^^^\n"),
        "{err}"
    );
    let (out, err) = bad_manifest(&GOOD_ENTRY.replace("animation: Run", "animation: Rn"));
    assert_eq!(out.status.code(), Some(1));
    assert!(
        err.contains("error: manifests/bad.yaml:4:16: job \"fox\": no animation named \"Rn\""),
        "{err}"
    );
    assert!(
        err.contains("\n  |\n4 |     animation: Rn\n  |                ^^\n"),
        "{err}"
    );
}

#[test]
fn a_missing_source_suggests_the_nearest_path() {
    for (written, hint) in [
        (
            "sources/characters/fox.glb",
            "no such file; did you mean \"sources/characters/Fox.glb\"?",
        ),
        (
            "sources/character/Fox.glb",
            "folder sources/character: no such file; did you mean \"sources/characters/Fox.glb\"?",
        ),
    ] {
        let (out, err) = bad_manifest(&GOOD_ENTRY.replace("sources/characters/Fox.glb", written));
        assert_eq!(out.status.code(), Some(1));
        assert!(err.contains(hint), "{err}");
    }
    // Nothing near: no guess.
    let (_, err) = bad_manifest(&GOOD_ENTRY.replace("characters/Fox.glb", "characters/zebra.glb"));
    assert!(err.contains("zebra.glb: no such file\n"), "{err}");
}

#[test]
fn a_metadata_value_beyond_its_type_is_refused_at_its_line() {
    let p = Project::demo();
    p.edit(
        "manifests/models.yaml",
        "tiny-mlp.layers: {uint32: 2} }",
        "tiny-mlp.layers: {uint32: 2}, tiny-mlp.eps: {float32: 1e39} }",
    );
    let err = p.fails(&["build", "tiny-mlp"]);
    assert!(
        err.contains(
            "manifests/models.yaml:9:15: metadata tiny-mlp.eps: 1e39 is beyond float32's range"
        ),
        "{err}"
    );
    // In range, it builds.
    p.edit("manifests/models.yaml", "1e39", "3.4e38");
    let out = p.kiln(&["build", "tiny-mlp"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn a_glob_matching_a_link_out_of_the_root_is_an_error_not_a_dropped_shard() {
    let p = Project::demo();
    let outside = tempfile::tempdir().unwrap();
    let weights = p.path("sources/weights/tiny-mlp.safetensors");
    fs::copy(&weights, outside.path().join("shard.safetensors")).unwrap();
    fs::rename(&weights, p.path("sources/weights/tiny-1.safetensors")).unwrap();
    std::os::unix::fs::symlink(
        outside.path().join("shard.safetensors"),
        p.path("sources/weights/tiny-2.safetensors"),
    )
    .unwrap();
    p.edit(
        "manifests/models.yaml",
        "source: sources/weights/tiny-mlp.safetensors",
        "source: sources/weights/tiny-*.safetensors",
    );
    let err = p.fails(&["build", "tiny-mlp"]);
    assert!(
        err.contains("manifests/models.yaml:7:13: source \"sources/weights/tiny-*.safetensors\" matches a file kiln may not read: sources/weights/tiny-2.safetensors resolves (through a symlink) outside the project root"),
        "{err}"
    );
    assert!(!p.path("out/models/tiny-mlp").exists());
}

#[test]
fn a_source_that_links_into_the_output_folder_is_refused() {
    let p = Project::demo();
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    std::os::unix::fs::symlink(
        p.path("out/poses/fox-run.ospc"),
        p.path("sources/characters/Loop.glb"),
    )
    .unwrap();
    p.write(
        "manifests/loop.yaml",
        "pose_caches:\n  - id: loop\n    source: sources/characters/Loop.glb\n    animation: 0\n    rate_hz: 30\n",
    );
    let err = p.fails(&["build", "loop"]);
    assert!(
        err.contains("manifests/loop.yaml:3:13: job \"loop\": sources/characters/Loop.glb resolves (through a link) into the output folder"),
        "{err}"
    );
    assert!(!p.path("out/poses/loop.ospc").exists());
}

#[test]
fn a_commit_that_fails_names_the_output_and_why() {
    let p = Project::demo();
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    fs::remove_file(p.path("out/poses/fox-run.ospc")).unwrap();
    fs::create_dir_all(p.path("out/poses/fox-run.ospc/x")).unwrap();
    let err = p.fails(&["build", "fox-run"]);
    assert!(
        err.contains("job \"fox-run\": committing the outputs to out: poses/fox-run.ospc: a folder is in its place"),
        "{err}"
    );
}

#[test]
fn every_example_parses_its_arguments_as_the_binary_does() {
    // `cargo run --example fuzz_seeds -- --help` once took `--help` as its
    // output folder and wrote three styles into `./--help/`. Every program
    // in examples/ parses its arguments with clap: `--help` prints its use
    // and writes nothing, an unknown flag is a usage error (exit 2).
    let repo = Path::new(REPO);
    let mut names: Vec<String> = fs::read_dir(repo.join("examples"))
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            name.strip_suffix(".rs").map(str::to_string)
        })
        .collect();
    names.sort();
    assert!(names.len() >= 8, "{names:?}");
    // `cargo test` builds the examples beside the tests; when only one
    // test binary was built, build them now.
    let dir = std::env::current_exe()
        .unwrap()
        .parent()
        .and_then(Path::parent)
        .unwrap()
        .join("examples");
    if names.iter().any(|n| !dir.join(n).is_file()) {
        let status = Command::new(env!("CARGO"))
            .args(["build", "--release", "--examples"])
            .current_dir(repo)
            .status()
            .unwrap();
        assert!(status.success());
    }
    for name in &names {
        let cwd = tempfile::tempdir().unwrap();
        let run = |args: &[&str]| {
            Command::new(dir.join(name))
                .args(args)
                .current_dir(cwd.path())
                .output()
                .unwrap()
        };
        let help = run(&["--help"]);
        let text = String::from_utf8_lossy(&help.stdout);
        assert!(help.status.success(), "{name} --help: {}", stderr(&help));
        assert!(text.contains("Usage:"), "{name} --help: {text}");
        let bogus = run(&["--no-such-flag"]);
        assert_eq!(bogus.status.code(), Some(2), "{name}: {}", stderr(&bogus));
        assert!(
            fs::read_dir(cwd.path()).unwrap().next().is_none(),
            "{name} wrote files when asked for help"
        );
    }
}

#[test]
fn a_damaged_magic_is_refused_by_its_formats_rule_at_byte_0() {
    // A file whose name says what it is but whose first byte is damaged is
    // refused by that format's rule at byte 0 (it was "not a file kiln
    // reads", naming no byte); a file neither its bytes nor its name place
    // is refused at byte 0 too.
    let p = Project::demo();
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    p.write_bytes(
        "replay.mbreplay",
        &kiln::formats::mbreplay::encode(&crate::synth::replay()).unwrap(),
    );
    p.write_bytes(
        "t.qoi",
        &kiln::bake::atlas::encode_qoi(&kiln::model::material::Rgba8 {
            width: 1,
            height: 1,
            pixels: vec![1, 2, 3, 255],
        }),
    );
    p.write_bytes(
        "idle.mbstyle",
        &kiln::formats::mbstyle::encode(&crate::synth::style("idle", 4, (6, 6))).unwrap(),
    );
    let files = [
        (
            "out/poses/fox-run.ospc",
            "invalid pose cache: at byte 0: magic",
        ),
        (
            "replay.mbreplay",
            "invalid MotionBricks replay: at byte 0: magic",
        ),
        (
            "out/models/tiny-mlp/tiny-mlp.gguf",
            "invalid GGUF: at byte 0: the magic",
        ),
        ("idle.mbstyle", "invalid GGUF: at byte 0: the magic"),
        ("t.qoi", "invalid QOI image: at byte 0: magic"),
        (
            "sources/characters/Fox.glb",
            "invalid glTF: at byte 0: not a glb",
        ),
        (
            "out/levels/forest/@world/characters",
            "invalid compiled characters (KCHR v1): at byte 0: magic",
        ),
        (
            "sources/sequences/debris-crate.cgeo",
            "invalid CGeo: at byte 0:",
        ),
    ];
    for (rel, want) in files {
        let path = p.path(rel);
        let mut bytes = fs::read(&path).unwrap();
        // The file as it is verifies.
        let out = p.kiln(&["verify", rel]);
        assert!(out.status.success(), "{rel}: {}", stderr(&out));
        bytes[0] ^= 0x20;
        fs::write(&path, &bytes).unwrap();
        for command in ["verify", "inspect"] {
            let out = p.kiln(&[command, rel]);
            assert_eq!(out.status.code(), Some(1), "{command} {rel}");
            let err = stderr(&out);
            assert!(err.contains(want), "{command} {rel}: {err}");
        }
    }
    p.write_bytes("notes.bin", b"\x01\x02\x03\x04 and more");
    let err = p.fails(&["verify", "notes.bin"]);
    assert!(
        err.contains(
            "notes.bin: at byte 0: not a file kiln reads: it starts with [01, 02, 03, 04]"
        ),
        "{err}"
    );
}

/// `inspect --help` and `verify --help` list every file type the registry
/// holds (`describe::FILE_TYPES`), as does the refusal of a file
/// kiln does not read; each extension the registry names reaches its
/// format (a file of that name with no magic is refused by that format's
/// rules, not as unknown).
#[test]
fn every_registered_file_type_is_listed_and_recognised_by_its_name() {
    use kiln::describe::FILE_TYPES;
    let p = Project::demo();
    for command in ["inspect", "verify"] {
        let help = p.kiln(&[command, "--help"]);
        let text = String::from_utf8_lossy(&help.stdout);
        for t in FILE_TYPES {
            assert!(
                text.contains(t.what),
                "{command} --help: {}: {text}",
                t.what
            );
            for n in t.names {
                assert!(text.contains(n), "{command} --help: {n}");
            }
        }
    }
    p.write_bytes("mystery.bin", b"\x01\x02\x03\x04 nothing known");
    let e = p.fails(&["verify", "mystery.bin"]);
    for t in FILE_TYPES {
        assert!(e.contains(t.what), "{}: {e}", t.what);
    }
    let mut extensions = 0;
    for t in FILE_TYPES {
        for ext in t.names.iter().filter(|n| n.starts_with('.')) {
            let name = format!("zeros{ext}");
            p.write_bytes(&name, &[0u8; 64]);
            let e = p.fails(&["verify", &name]);
            assert!(!e.contains("not a file kiln reads"), "{name}: {e}");
            extensions += 1;
        }
    }
    assert_eq!(extensions, 9);
}
