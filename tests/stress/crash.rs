//! Crash safety and concurrency of `kiln build`, driven like a user drives
//! it (see RELIABILITY.md): SIGKILL at many points of a real build, outputs
//! corrupted behind kiln's back, and several builds of one project at once.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

use crate::cli_support;
use cli_support::{KILN, Project, assert_user_files, is_user_file, place_user_files, stderr, walk};

/// The edits that turn the demo into its variant B: every kind's outputs
/// change (pose caches' and the CGeo sequence's rates, the levels'
/// tolerances and atlas size, the model's tensor type).
const VARIANT_B: [(&str, &str, &str); 8] = [
    ("manifests/robot.yaml", "rate_hz: 30", "rate_hz: 25"),
    ("manifests/robot.yaml", "rate_hz: 60", "rate_hz: 50"),
    ("manifests/characters.yaml", "rate_hz: 30", "rate_hz: 25"),
    ("manifests/characters.yaml", "rate_hz: 60", "rate_hz: 50"),
    ("manifests/sequences.yaml", "rate_hz: 30", "rate_hz: 25"),
    (
        "manifests/levels.yaml",
        "rotation_deg: 0.01",
        "rotation_deg: 0.02",
    ),
    ("manifests/levels.yaml", "max_size: 2048", "max_size: 1024"),
    ("manifests/models.yaml", "type: f16", "type: f32"),
];

/// The demo's manifests as they are (A) or with the edits above (B).
fn manifests(variant_b: bool) -> BTreeMap<String, String> {
    let dir = Path::new(cli_support::REPO).join("manifests");
    let mut texts = BTreeMap::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let rel = format!("manifests/{}", path.file_name().unwrap().to_str().unwrap());
        texts.insert(rel, fs::read_to_string(&path).unwrap());
    }
    if variant_b {
        for (file, from, to) in VARIANT_B {
            let t = texts.get_mut(file).unwrap();
            assert!(t.contains(from), "{file} has no {from:?}");
            *t = t.replace(from, to);
        }
    }
    texts
}

fn use_variant(p: &Project, variant_b: bool) {
    for (rel, text) in manifests(variant_b) {
        p.write(&rel, &text);
    }
}

/// The outputs under `out/` (kiln's state folder, temporaries and the
/// user's own files left out), with their bytes.
fn outputs(p: &Project) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = BTreeMap::new();
    let out = p.path("out");
    if !out.exists() {
        return files;
    }
    walk(&out, &out, &mut |rel, path| {
        let name = rel.file_name().unwrap().to_string_lossy();
        if !rel.starts_with(".kiln") && !name.ends_with(".kiln-tmp") && !is_user_file(rel) {
            files.insert(rel.to_path_buf(), fs::read(path).unwrap());
        }
    });
    files
}

/// A clean build of variant `b`: its outputs and how long it took.
fn clean_build(variant_b: bool) -> (BTreeMap<PathBuf, Vec<u8>>, Duration) {
    let p = Project::demo();
    use_variant(&p, variant_b);
    let start = Instant::now();
    let o = p.kiln(&["build", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    (outputs(&p), start.elapsed())
}

/// splitmix64: the kill times are the same on every run.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// `kiln build --quiet --force` on `p`, started, its output dropped.
fn forced_build(p: &Project) -> std::process::Child {
    Command::new(KILN)
        .args(["build", "--quiet", "--force"])
        .current_dir(p.root())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// The number of kills, at least the 50 RELIABILITY.md promises.
const KILLS: usize = 100;

#[test]
fn sigkill_at_random_points_leaves_old_or_new_outputs_and_the_next_build_is_clean() {
    let (a, a_time) = clean_build(false);
    let (b, b_time) = clean_build(true);
    let differ = a.keys().filter(|k| b.get(*k) != a.get(*k)).count();
    // Every kind's outputs change (the sandbox level, `simple-skin` and
    // the rate-less debris caches do not).
    assert!(
        differ >= 12,
        "variant B changes only {differ} of {} outputs",
        a.len()
    );

    let p = Project::demo();
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    place_user_files(&p.path("out"));
    // Kills fall anywhere in a whole build, and a little past it: the
    // span is a forced build's time here, now (the machine may be busy).
    let start = Instant::now();
    assert!(p.kiln(&["build", "--quiet", "--force"]).status.success());
    let mut span_us = (start.elapsed().min(a_time.max(b_time)).as_micros() as u64 * 11 / 10).max(1);
    let first_span_us = span_us;
    let mut variant_b = false;
    let mut rng = 11u64;
    let mut finished = 0;
    for kill in 0..KILLS {
        // Every third round switches variant, so the build replaces outputs
        // (the others rebuild the same ones with --force).
        if kill % 3 == 0 {
            variant_b = !variant_b;
            use_variant(&p, variant_b);
        }
        let delay = Duration::from_micros(next(&mut rng) % span_us);
        let mut child = forced_build(&p);
        std::thread::sleep(delay);
        child.kill().unwrap(); // SIGKILL
        let status = child.wait().unwrap();
        // The span was measured while other tests ran beside it, and the
        // machine's load changes: it shrinks by 15 % when a build finished
        // first and grows by 2 % when the kill landed inside one, so about
        // one build in nine finishes and the kills keep reaching a build's
        // last steps (the renames and the journal).
        if status.success() {
            finished += 1;
            span_us = (span_us * 85 / 100).max(1);
        } else {
            span_us = span_us * 102 / 100 + 1;
        }
        // Every output in place is the complete file of A or of B, a
        // level's index (written last, removed first) is with its own
        // characters, and the user's files are as they were.
        let now = outputs(&p);
        for (rel, bytes) in &now {
            assert!(
                a.get(rel) == Some(bytes) || b.get(rel) == Some(bytes),
                "kill {kill} after {delay:?}: {} is neither variant's file ({} bytes)",
                rel.display(),
                bytes.len()
            );
        }
        assert_sets(&now, &a, &b, &format!("kill {kill} after {delay:?}"));
        assert_user_files(&p.path("out"), &format!("kill {kill}"));
        // Now and then a build runs to the end: it must give exactly the
        // clean build's outputs, whatever the kills left.
        if kill % 10 == 9 {
            let o = p.kiln(&["build", "--quiet"]);
            assert!(o.status.success(), "after kill {kill}: {}", stderr(&o));
            let want = if variant_b { &b } else { &a };
            assert!(
                outputs(&p) == *want,
                "after kill {kill}: outputs differ from a clean build"
            );
        }
    }
    // The figures RELIABILITY.md quotes (`--nocapture`).
    eprintln!(
        "{KILLS} SIGKILLs over a {} ms span (at the end {} ms): {finished} builds had finished first; {} outputs checked after each",
        first_span_us / 1000,
        span_us / 1000,
        a.len()
    );
    // Most kills land inside a build (the span shrinks when a build
    // finishes first).
    assert!(
        finished <= KILLS / 3,
        "{finished} of {KILLS} builds finished before their kill"
    );
    let o = p.kiln(&["build", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(outputs(&p) == if variant_b { b } else { a });
    let (report, _) = p.build_json(&[]);
    assert_eq!(
        report["totals"]["built"], 0,
        "the build after is a no-op: {report}"
    );
    // `clean` removes what kiln made and nothing of the user's.
    let o = p.kiln(&["clean"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        outputs(&p).is_empty(),
        "clean left {:?}",
        outputs(&p).keys()
    );
    assert_user_files(&p.path("out"), "after clean");
}

/// Each level's index (`level.json`), when present, sits with the
/// characters of the same variant: the commit removes an index first and
/// renames it into place last, so no index ever names a sibling of
/// another build.
fn assert_sets(
    now: &BTreeMap<PathBuf, Vec<u8>>,
    a: &BTreeMap<PathBuf, Vec<u8>>,
    b: &BTreeMap<PathBuf, Vec<u8>>,
    when: &str,
) {
    let mut levels = 0;
    for (rel, index) in now {
        if rel.file_name().unwrap() != "level.json" {
            continue;
        }
        levels += 1;
        let sibling = rel.with_file_name("@world/characters");
        let with_its_own = [a, b]
            .iter()
            .filter(|v| v.get(rel) == Some(index))
            .any(|v| now.get(&sibling) == v.get(&sibling));
        assert!(
            with_its_own,
            "{when}: {} is with characters of another build",
            rel.display()
        );
    }
    assert!(levels <= 2);
}

/// The number of SIGINTs and SIGTERMs, half each.
const SIGNALS: usize = 60;

#[test]
fn sigint_and_sigterm_at_many_points_stop_cleanly_and_keep_only_whole_outputs() {
    use std::os::unix::process::ExitStatusExt;
    let (a, _) = clean_build(false);
    let (b, _) = clean_build(true);
    let p = Project::demo();
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    place_user_files(&p.path("out"));
    let start = Instant::now();
    assert!(p.kiln(&["build", "--quiet", "--force"]).status.success());
    let mut span_us = (start.elapsed().as_micros() as u64 * 11 / 10).max(1);
    let mut variant_b = false;
    let mut rng = 23u64;
    let (mut finished, mut stopped, mut before_handlers) = (0, 0, 0);
    for k in 0..SIGNALS {
        if k % 3 == 0 {
            variant_b = !variant_b;
            use_variant(&p, variant_b);
        }
        let (signal, status_wanted) = match k % 2 {
            0 => (rustix::process::Signal::INT, 130),
            _ => (rustix::process::Signal::TERM, 143),
        };
        let delay = Duration::from_micros(next(&mut rng) % span_us);
        let mut child = forced_build(&p);
        std::thread::sleep(delay);
        let pid = rustix::process::Pid::from_raw(child.id() as i32).unwrap();
        let _ = rustix::process::kill_process(pid, signal);
        let status = child.wait().unwrap();
        match (status.code(), status.signal()) {
            (Some(0), _) => {
                finished += 1;
                span_us = (span_us * 85 / 100).max(1);
            }
            (Some(code), _) => {
                assert_eq!(code, status_wanted, "signal {k} after {delay:?}");
                stopped += 1;
                span_us = span_us * 102 / 100 + 1;
            }
            // Before the handlers were in place (nothing written yet).
            (None, Some(sig)) => {
                assert_eq!(sig, signal.as_raw(), "signal {k}");
                before_handlers += 1;
                span_us = span_us * 102 / 100 + 1;
            }
            other => panic!("signal {k}: {other:?}"),
        }
        // No temporary file anywhere, .kiln/ included.
        let mut temps = Vec::new();
        walk(&p.path("out"), &p.path("out"), &mut |rel, _| {
            if rel.to_string_lossy().ends_with(".kiln-tmp") {
                temps.push(rel.to_path_buf());
            }
        });
        assert!(
            temps.is_empty(),
            "signal {k} after {delay:?} left {temps:?}"
        );
        let now = outputs(&p);
        for (rel, bytes) in &now {
            assert!(
                a.get(rel) == Some(bytes) || b.get(rel) == Some(bytes),
                "signal {k} after {delay:?}: {} is neither variant's file",
                rel.display()
            );
        }
        assert_sets(&now, &a, &b, &format!("signal {k} after {delay:?}"));
        assert_user_files(&p.path("out"), &format!("signal {k}"));
        // Every job the records call fresh has this variant's outputs.
        let want = if variant_b { &b } else { &a };
        let dry = p.kiln(&["build", "--dry-run", "--json"]);
        let dry: serde_json::Value = serde_json::from_slice(&dry.stdout).unwrap();
        for job in dry["jobs"].as_array().unwrap() {
            if job["status"] != "fresh" {
                continue;
            }
            for path in job["outputs"].as_array().unwrap() {
                let rel = Path::new(path.as_str().unwrap())
                    .strip_prefix("out")
                    .unwrap();
                assert_eq!(
                    now.get(rel),
                    want.get(rel),
                    "signal {k}: {} is recorded fresh but is not the build's",
                    rel.display()
                );
            }
        }
        if k % 10 == 9 {
            let o = p.kiln(&["build", "--quiet"]);
            assert!(o.status.success(), "after signal {k}: {}", stderr(&o));
            assert!(
                outputs(&p) == *want,
                "after signal {k}: not a clean build's outputs"
            );
        }
    }
    eprintln!(
        "{SIGNALS} SIGINT/SIGTERMs: {stopped} builds stopped (130/143), {finished} finished first, {before_handlers} ended before the handlers were set"
    );
    assert!(
        stopped >= SIGNALS / 2,
        "only {stopped} of {SIGNALS} signals landed inside a build"
    );
}

/// Puts `path` back to its modification time before `f` changed it.
fn behind_kilns_back(path: &Path, f: impl FnOnce(&Path)) {
    let mtime: SystemTime = fs::metadata(path).unwrap().modified().unwrap();
    f(path);
    fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(mtime)
        .unwrap();
}

#[test]
fn an_output_changed_behind_kilns_back_is_rebuilt_even_with_its_old_size_and_time() {
    let p = Project::demo();
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    let clean = outputs(&p);
    let (b, _) = clean_build(true);
    let ospc = p.path("out/poses/fox-walk.ospc");
    let kchr = p.path("out/levels/forest/@world/characters");
    let gguf = p.path("out/models/tiny-mlp/tiny-mlp.gguf");
    let cgeo = p.path("out/cgeo/fox-run-cgeo.cgeo");
    // A byte flipped in place, the size and modification time kept.
    behind_kilns_back(&ospc, |path| {
        let mut bytes = fs::read(path).unwrap();
        let at = bytes.len() / 2;
        bytes[at] ^= 0x40;
        fs::write(path, bytes).unwrap();
    });
    // Cut short.
    behind_kilns_back(&kchr, |path| {
        let bytes = fs::read(path).unwrap();
        fs::write(path, &bytes[..bytes.len() - 1]).unwrap();
    });
    // Another build's file of the same size put back with the old time,
    // as `cp -p` or an archive would (a new inode).
    behind_kilns_back(&gguf, |path| {
        let other = &b[Path::new("models/tiny-mlp/tiny-mlp.gguf")];
        let same_size: Vec<u8> = other
            .iter()
            .copied()
            .cycle()
            .take(fs::metadata(path).unwrap().len() as usize)
            .collect();
        fs::remove_file(path).unwrap();
        fs::write(path, same_size).unwrap();
    });
    // Emptied.
    behind_kilns_back(&cgeo, |path| fs::write(path, b"").unwrap());
    let (report, o) = p.build_json(&[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let mut built = cli_support::ids_with(&report, "built");
    built.sort();
    assert_eq!(
        built,
        ["forest", "fox-run-cgeo", "fox-walk", "tiny-mlp"],
        "{report}"
    );
    assert!(
        outputs(&p) == clean,
        "the rebuilt outputs are the clean build's"
    );
    let (report, _) = p.build_json(&[]);
    assert_eq!(report["totals"]["built"], 0, "{report}");
}

#[test]
fn an_output_put_back_with_the_same_bytes_stays_fresh_and_is_hashed_once() {
    let p = Project::demo();
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    let clean = outputs(&p);
    // Every output copied away and back (new inodes and times, the same
    // bytes), as restoring out/ from a CI cache does.
    let out = p.path("out");
    let keep = p.path("keep");
    cli_support::copy_dir(&out, &keep);
    fs::remove_dir_all(&out).unwrap();
    cli_support::copy_dir(&keep, &out);
    let (report, o) = p.build_json(&[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        report["totals"]["built"], 0,
        "the same bytes are not rebuilt: {report}"
    );
    assert_eq!(
        report["totals"]["planned"], true,
        "a signature changed: {report}"
    );
    assert!(outputs(&p) == clean);
    // The records now hold the new signatures: the next build is a no-op
    // that neither plans nor hashes.
    let (report, _) = p.build_json(&[]);
    assert_eq!(report["totals"]["built"], 0, "{report}");
    assert_eq!(report["totals"]["planned"], false, "{report}");
}

#[test]
fn two_and_four_builds_at_once_all_succeed_and_leave_the_clean_outputs() {
    let (a, _) = clean_build(false);
    let p = Project::demo();
    for n in [2, 4] {
        let children: Vec<_> = (0..n)
            .map(|_| {
                Command::new(KILN)
                    .args(["build", "--force", "--json", "--quiet"])
                    .current_dir(p.root())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for child in children {
            let o = child.wait_with_output().unwrap();
            assert!(o.status.success(), "{}", stderr(&o));
            // Each build's report is whole: one JSON document naming every
            // job, not interleaved with another's.
            let report: serde_json::Value = serde_json::from_slice(&o.stdout)
                .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stdout)));
            let jobs = report["jobs"].as_array().unwrap();
            assert!(jobs.len() >= 15, "{report}");
            assert!(jobs.iter().all(|j| j["status"] == "built"), "{report}");
        }
        assert!(
            outputs(&p) == a,
            "{n} builds at once: outputs differ from a clean build"
        );
        let leftovers: Vec<_> = {
            let mut v = Vec::new();
            walk(&p.path("out"), &p.path("out"), &mut |rel, _| {
                if rel.to_string_lossy().ends_with(".kiln-tmp") {
                    v.push(rel.to_path_buf());
                }
            });
            v
        };
        assert!(leftovers.is_empty(), "{leftovers:?}");
        let (report, _) = p.build_json(&[]);
        assert_eq!(report["totals"]["built"], 0, "{report}");
    }
}
