//! `kiln watch` with the system's real watcher: each editor's way of
//! saving, a save with the same bytes, a broken source, an edit during a
//! build, Ctrl-C. Each waits for the watch's JSON lines with a generous
//! timeout (the lines come within tens of milliseconds here).

use crate::cli_support::{KILN, Project, ROBOT_CC as SOURCE, robot_cc_variant as variant};

use std::fs;
use std::io::{BufRead, BufReader};
use std::os::unix::fs::MetadataExt;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use serde_json::Value;

use std::cell::{Cell, RefCell};
use std::collections::BTreeSet;

use crate::json_support::{check, schema};

/// How long any one wait may take before the test fails.
const PATIENCE: Duration = Duration::from_secs(60);

/// A running `kiln watch --json`, its lines arriving on a channel.
struct Watch {
    child: Child,
    lines: Receiver<Value>,
    /// Every (section, field) of docs/json.md's `watch` tables a line
    /// held: each line is checked against them as it arrives.
    seen: RefCell<BTreeSet<(String, String, String)>>,
    /// The generation of the last "started" line: each "built" line must
    /// be of it (a build says it starts before any output changes).
    started: Cell<Option<u64>>,
}

impl Watch {
    fn start(p: &Project, extra: &[&str]) -> Watch {
        let mut child = Command::new(KILN)
            .args(["watch", "--json"])
            .args(extra)
            .current_dir(p.root())
            .env_remove("CI")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let v: Value =
                    serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"));
                if tx.send(v).is_err() {
                    break;
                }
            }
        });
        Watch {
            child,
            lines,
            seen: RefCell::default(),
            started: Cell::new(None),
        }
    }

    /// The next line whose event is `event`.
    fn next(&self, event: &str) -> Value {
        self.next_after(event, "")
    }

    /// The next line whose event is `event`, awaited after `what`.
    fn next_after(&self, event: &str, what: &str) -> Value {
        loop {
            let v = self
                .lines
                .recv_timeout(PATIENCE)
                .unwrap_or_else(|e| panic!("no {event:?} line after {what:?}: {e}"));
            check(&schema(), "watch", ".", &v, &mut self.seen.borrow_mut());
            match v["event"].as_str() {
                Some("started") => self.started.set(v["generation"].as_u64()),
                Some("built") => assert_eq!(v["generation"].as_u64(), self.started.get(), "{v}"),
                _ => {}
            }
            if v["event"] == event {
                return v;
            }
        }
    }

    /// The next build's "built" line.
    fn built(&self) -> Value {
        self.next("built")
    }

    /// The next "built" line that `wanted` accepts, after `what`. A save can
    /// make more than one build (its events in two batches); the builds
    /// before the one that saw it find every job fresh.
    fn built_where(&self, what: &str, wanted: impl Fn(&Value) -> bool) -> Value {
        loop {
            let line = self.next_after("built", what);
            if wanted(&line) {
                return line;
            }
            assert_eq!(line["changed"], serde_json::json!([]), "{what}: {line}");
        }
    }

    fn interrupt(mut self) -> std::process::ExitStatus {
        let pid = i32::try_from(self.child.id()).unwrap();
        // SAFETY: kill(2) on the child's pid, which is still ours (not
        // waited for yet).
        assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
        self.child.wait().unwrap()
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One way of saving bytes over the source.
type Save<'a> = dyn Fn(&[u8]) + 'a;

/// The ids of the jobs whose outputs a "built" line lists.
fn changed_jobs(line: &Value) -> Vec<String> {
    let mut ids: Vec<String> = line["changed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["job"].as_str().unwrap().to_string())
        .collect();
    ids.dedup();
    ids
}

#[test]
fn every_way_of_saving_rebuilds_the_jobs_that_read_the_file() {
    let p = Project::demo();
    let w = Watch::start(&p, &[]);
    assert!(w.next("watching")["folders"].as_u64().unwrap() > 0);
    assert_eq!(w.next("started")["generation"], 1);
    let first = w.built();
    assert_eq!(first["ok"], true, "{first}");
    assert_eq!(first["totals"]["built"], first["totals"]["jobs"]);
    let path = p.path(SOURCE);
    let saves: [(&str, &Save); 3] = [
        ("written in place", &|b| fs::write(&path, b).unwrap()),
        ("a temporary renamed over it", &|b| {
            let tmp = path.with_extension("glb.tmp");
            fs::write(&tmp, b).unwrap();
            fs::rename(&tmp, &path).unwrap();
        }),
        ("deleted, then created", &|b| {
            fs::remove_file(&path).unwrap();
            fs::write(&path, b).unwrap();
        }),
    ];
    for (n, (how, save)) in saves.iter().enumerate() {
        save(&variant(b'4' + u8::try_from(n).unwrap()));
        let line = w.built_where(how, |l| l["changed"] != serde_json::json!([]));
        assert_eq!(line["ok"], true, "{how}: {line}");
        assert_eq!(
            changed_jobs(&line),
            ["forest", "robot-dance-meshopt"],
            "{how}: {line}"
        );
        assert!(line["changed"][0]["sha256"].as_str().unwrap().len() == 64);
    }
    // A new manifest is planned and built.
    p.write(
        "manifests/more.yaml",
        "pose_caches:\n  - id: fox-more\n    source: sources/characters/Fox.glb\n    animation: Walk\n    rate_hz: 24\n",
    );
    let line = w.built_where("a new manifest", |l| l["changed"] != serde_json::json!([]));
    assert_eq!(changed_jobs(&line), ["fox-more"], "{line}");
    assert!(p.path("out/poses/fox-more.ospc").exists());
    assert_eq!(w.interrupt().code(), Some(0), "Ctrl-C ends a watch cleanly");
}

#[test]
fn a_save_of_the_same_bytes_leaves_the_outputs_alone() {
    let p = Project::demo();
    let w = Watch::start(&p, &[]);
    w.built();
    let out = p.path("out/poses/robot-dance-meshopt.ospc");
    let before = fs::metadata(&out).unwrap();
    std::thread::sleep(Duration::from_millis(20));
    fs::write(p.path(SOURCE), fs::read(p.path(SOURCE)).unwrap()).unwrap();
    let line = w.built();
    assert_eq!(line["ok"], true, "{line}");
    assert_eq!(line["changed"], serde_json::json!([]), "{line}");
    let after = fs::metadata(&out).unwrap();
    assert_eq!(
        (before.ino(), before.modified().unwrap()),
        (after.ino(), after.modified().unwrap())
    );
}

#[test]
fn a_broken_source_is_reported_and_the_next_save_is_built() {
    let p = Project::demo();
    let w = Watch::start(&p, &[]);
    w.built();
    let out = p.path("out/poses/robot-dance-meshopt.ospc");
    let good = fs::read(&out).unwrap();
    let bytes = fs::read(p.path(SOURCE)).unwrap();
    p.write_bytes(SOURCE, &bytes[..bytes.len() / 2]);
    let line = w.built_where("a broken save", |l| l["ok"] == false);
    let errors = line["errors"].as_array().unwrap();
    assert!(
        errors.iter().any(|e| e["job"] == "robot-dance-meshopt"
            && e["message"]
                .as_str()
                .unwrap()
                .contains("RobotExpressive.cc.glb")),
        "{line}"
    );
    assert_eq!(fs::read(&out).unwrap(), good, "the last good output stays");
    p.write_bytes(SOURCE, &variant(b'7'));
    let line = w.built_where("a good save", |l| l["ok"] == true);
    assert_eq!(changed_jobs(&line), ["forest", "robot-dance-meshopt"]);
    // Every documented field of these lines was printed (the `error`
    // line's aside: a watcher that cannot start).
    let seen = w.seen.borrow();
    for ((doc, path), fields) in schema().iter().filter(|((doc, _), _)| doc == "watch") {
        for name in fields.keys() {
            if name == "message" && path == "." {
                continue;
            }
            assert!(
                seen.contains(&(doc.clone(), path.clone(), name.clone())),
                "{doc} {path} `{name}` was never printed"
            );
        }
    }
}

#[test]
fn an_edit_during_a_build_is_built_after_it() {
    let p = Project::demo();
    let w = Watch::start(&p, &[]);
    w.built();
    // The level takes the longest to build: save while it runs.
    fs::write(p.path(SOURCE), variant(b'4')).unwrap();
    let started = w.next("started");
    fs::write(p.path(SOURCE), variant(b'5')).unwrap();
    let line = w.built();
    assert_eq!(line["generation"], started["generation"]);
    // One more build follows unless the first already read the second
    // save: wait until no build runs and none has started for a while.
    let mut building = false;
    loop {
        match w.lines.recv_timeout(Duration::from_millis(500)) {
            Ok(v) => building = v["event"] == "started",
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) if !building => break,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
            Err(e) => panic!("{e}"),
        }
    }
    drop(w);
    let line = p.builds(&[]);
    assert_eq!(
        line["totals"]["built"], 0,
        "the watch built the last save: {line}"
    );
}

#[test]
fn polling_sees_a_save_too() {
    // --poll: for folders where no notification comes (network drives,
    // WSL's Windows folders); the folders are read every 50 ms here.
    let p = Project::demo();
    let w = Watch::start(&p, &["--poll", "50"]);
    w.built();
    std::thread::sleep(Duration::from_millis(20));
    fs::write(p.path(SOURCE), variant(b'6')).unwrap();
    let line = w.built_where("a save, polled", |l| l["changed"] != serde_json::json!([]));
    assert_eq!(
        changed_jobs(&line),
        ["forest", "robot-dance-meshopt"],
        "{line}"
    );
    assert_eq!(w.interrupt().code(), Some(0));
}

#[test]
fn a_file_a_job_starts_reading_is_watched_from_then_on() {
    // A .gltf saved to name another buffer file: the build that reads it
    // adds the file to what is watched (without planning again), and the
    // next save of that file rebuilds the job.
    let p = Project::demo();
    let bin = crate::cli_support::external_skin(&p, "anim.bin");
    let w = Watch::start(&p, &[]);
    w.built();
    fs::write(p.path("sources/ext/take2.bin"), &bin).unwrap();
    let gltf = p.path("sources/ext/skin.gltf");
    let text = fs::read_to_string(&gltf).unwrap();
    fs::write(&gltf, text.replace("\"anim.bin\"", "\"take2.bin\"")).unwrap();
    let line = w.built_where("the .gltf saved", |l| l["changed"] != serde_json::json!([]));
    assert_eq!(changed_jobs(&line), ["ext-skin"], "{line}");
    let before = fs::read(p.path("out/poses/ext-skin.ospc")).unwrap();
    // One rotation component nudged by one ulp.
    let mut nudged = bin.clone();
    nudged[48 + 16 * 5] ^= 1;
    fs::write(p.path("sources/ext/take2.bin"), &nudged).unwrap();
    let line = w.built_where("the new buffer saved", |l| {
        l["changed"] != serde_json::json!([])
    });
    assert_eq!(changed_jobs(&line), ["ext-skin"], "{line}");
    assert_ne!(fs::read(p.path("out/poses/ext-skin.ospc")).unwrap(), before);
}
