//! Only what kiln made (issue 25): `clean`, the removal of jobs gone from
//! the manifests and of outputs a job no longer writes delete a file only
//! if it is still what kiln wrote (its recorded stat signature, or its
//! recorded size and BLAKE3); a file the user put at an output's path is
//! kept and listed. A build refuses an output folder that already holds
//! files kiln did not make.

use std::fs;
use std::path::Path;

use crate::cli_support::{Project, REPO, stderr};

const TWO_CACHES: &str = "pose_caches:\n  - id: a\n    source: sources/skin.glb\n    animation: 0\n    rate_hz: 30\n  - id: b\n    source: sources/skin.glb\n    animation: 0\n    rate_hz: 15\n";

fn project() -> Project {
    let p = Project::empty();
    p.write_bytes(
        "sources/skin.glb",
        &fs::read(Path::new(REPO).join("tests/corpus/glb/SimpleSkin.glb")).unwrap(),
    );
    p.write("manifests/poses.yaml", TWO_CACHES);
    let o = p.kiln(&["build", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    p
}

/// Replaces the output `rel` with the user's own bytes, or with kiln's
/// own bytes under a new modification time (`touched`).
fn replace(p: &Project, rel: &str, touched: bool) {
    let path = p.path(rel);
    let bytes = match touched {
        true => fs::read(&path).unwrap(),
        false => b"the user's own file".to_vec(),
    };
    fs::remove_file(&path).unwrap();
    fs::write(&path, bytes).unwrap();
    // A modification time kiln never recorded (not the clock's: a fast
    // rewrite may land in the same tick), so the stat signature differs
    // and only the content can tell.
    let epoch = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1);
    fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_modified(epoch)
        .unwrap();
}

#[test]
fn clean_keeps_a_users_file_at_an_outputs_path() {
    let p = project();
    replace(&p, "out/poses/a.ospc", false);
    replace(&p, "out/poses/b.ospc", true);
    let o = p.kiln(&["clean"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert_eq!(
        fs::read(p.path("out/poses/a.ospc")).unwrap(),
        b"the user's own file",
        "{err}"
    );
    assert!(err.contains("poses/a.ospc"), "listed as kept: {err}");
    // kiln's bytes under a new time are still kiln's: removed.
    assert!(!p.path("out/poses/b.ospc").exists(), "{err}");
}

#[test]
fn a_gone_jobs_output_that_the_user_replaced_is_kept() {
    let p = project();
    replace(&p, "out/poses/a.ospc", false);
    replace(&p, "out/poses/b.ospc", true);
    p.write("manifests/poses.yaml", "pose_caches: []\n");
    let (report, o) = p.build_json(&[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(report["removed"], serde_json::json!(["out/poses/b.ospc"]));
    assert_eq!(
        fs::read(p.path("out/poses/a.ospc")).unwrap(),
        b"the user's own file"
    );
    assert!(!p.path("out/poses/b.ospc").exists());
}

#[test]
fn an_output_folder_holding_files_kiln_did_not_make_is_refused() {
    let p = project();
    fs::create_dir(p.path("mine")).unwrap();
    fs::write(p.path("mine/notes.txt"), "mine").unwrap();
    let o = p.kiln(&["build", "--out", "mine"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("already holds what kiln did not make (notes.txt, a file)"),
        "{err}"
    );
    assert_eq!(
        fs::read_dir(p.path("mine")).unwrap().count(),
        1,
        "untouched"
    );
    // An empty folder (or one of empty folders), or one kiln built
    // before, is fine.
    fs::create_dir_all(p.path("empty/poses")).unwrap();
    for out in ["empty", "empty", "out"] {
        let o = p.kiln(&["build", "--quiet", "--out", out]);
        assert!(o.status.success(), "{out}: {}", stderr(&o));
    }
}

/// A journal hard-linked to a file outside the output folder: the next
/// build writes a journal of its own in its place, and the file outside
/// keeps its bytes.
#[cfg(unix)]
#[test]
fn a_hard_linked_journal_is_replaced_not_appended_to() {
    let p = project();
    let outside = tempfile::tempdir().unwrap();
    let victim = outside.path().join("victim");
    fs::hard_link(p.path("out/.kiln/journal"), &victim).unwrap();
    let before = fs::read(&victim).unwrap();
    p.write(
        "manifests/poses.yaml",
        &TWO_CACHES.replace("rate_hz: 15", "rate_hz: 12"),
    );
    let o = p.kiln(&["build", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        fs::read(&victim).unwrap(),
        before,
        "the file outside is untouched"
    );
    let journal = fs::read(p.path("out/.kiln/journal")).unwrap();
    assert_ne!(
        journal, before,
        "the build recorded its job in a journal of its own"
    );
}

/// A failure saving kiln's own state after the jobs ran is reported beside
/// the jobs' results, not in their place: the failed job's own error is
/// still there, and so is the built one (a folder where the plan summary's
/// temporary file goes makes the save fail).
#[test]
fn a_state_save_failure_does_not_hide_the_jobs_errors() {
    let p = Project::empty();
    p.write_bytes(
        "sources/skin.glb",
        &fs::read(Path::new(REPO).join("tests/corpus/glb/SimpleSkin.glb")).unwrap(),
    );
    p.write("sources/bad.glb", "not a glb");
    p.write(
        "manifests/poses.yaml",
        &format!("{TWO_CACHES}  - id: bad\n    source: sources/bad.glb\n    animation: 0\n    rate_hz: 30\n"),
    );
    fs::create_dir_all(p.path("out/.kiln/.plan.kiln-tmp/in-the-way")).unwrap();
    let (report, o) = p.build_json(&[]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        report["state_error"]
            .as_str()
            .is_some_and(|e| e.contains("plan")),
        "{report}"
    );
    assert!(err.contains("bad.glb"), "the job's own error: {err}");
    assert!(err.contains("the jobs above stand"), "{err}");
    assert_eq!(report["totals"]["built"], 2, "{report}");
    assert_eq!(report["totals"]["failed"], 1, "{report}");
    crate::json_support::conforms("build", &report);
}

/// `--max-output-bytes` is a disk budget per job: a job whose outputs
/// would pass it fails naming it (a CGeo sequence before it bakes a
/// frame, at its `rate_hz`; a pose cache as it writes), and writes
/// nothing; within it, the same build succeeds.
#[test]
fn a_job_over_the_output_budget_fails_naming_it() {
    let p = project();
    fs::copy(
        Path::new(REPO).join("sources/characters/Fox.glb"),
        p.path("sources/fox.glb"),
    )
    .unwrap();
    p.write(
        "manifests/seq.yaml",
        "cgeo_sequences:\n  - id: fox\n    source: sources/fox.glb\n    animation: Run\n    rate_hz: 30\n",
    );
    p.write(
        "manifests/poses.yaml",
        &TWO_CACHES.replace("rate_hz: 15", "rate_hz: 16"),
    );
    let err = p.fails(&["build", "--max-output-bytes", "1000"]);
    assert!(err.contains("seq.yaml:5:"), "at rate_hz: {err}");
    assert!(
        err.contains("more than the 1000 bytes --max-output-bytes allows a job"),
        "{err}"
    );
    assert!(err.contains("job \"b\""), "the pose cache too: {err}");
    assert!(!p.path("out/cgeo/fox.cgeo").exists());
    let o = p.kiln(&["build", "--quiet", "--max-output-bytes", "100000000"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// A folder (or anything but a file) where a state file belongs is refused
/// once, before any job, naming it and what to do; kiln removes nothing it
/// did not make. It failed every job of every later build with "appending
/// to the build journal: Is a directory", naming no path.
#[test]
fn a_folder_where_a_state_file_belongs_is_refused_once_naming_it() {
    for (name, what) in [
        ("journal", "build journal"),
        ("details", "jobs' details (for --explain)"),
        ("files", "hash cache"),
        ("plan", "plan summary"),
        ("lock", "lock file"),
    ] {
        let p = project();
        let at = p.path(&format!("out/.kiln/{name}"));
        // (The hash cache is written only when it changed.)
        let _ = fs::remove_file(&at);
        fs::create_dir_all(at.join("mine")).unwrap();
        p.write(
            "manifests/poses.yaml",
            &TWO_CACHES.replace("rate_hz: 15", "rate_hz: 20"),
        );
        let out = p.kiln(&["build"]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{name}: {err}");
        assert_eq!(err.matches("error:").count(), 1, "{name}: {err}");
        assert!(
            err.contains(&format!("out/.kiln/{name} is a folder, where kiln keeps its {what}: remove it and build again")),
            "{name}: {err}"
        );
        assert!(at.join("mine").is_dir(), "{name}: kept");
        // Removed, the build goes on.
        fs::remove_dir_all(&at).unwrap();
        let out = p.kiln(&["build"]);
        assert!(out.status.success(), "{name}: {}", stderr(&out));
    }
}

/// A journal kiln cannot write is one state error beside the jobs'
/// results, naming the path: the jobs were built and stand (a folder where
/// the journal's temporary file goes makes the write fail).
#[test]
fn a_journal_that_cannot_be_written_is_one_state_error_naming_it() {
    let p = Project::empty();
    p.write_bytes(
        "sources/skin.glb",
        &fs::read(Path::new(REPO).join("tests/corpus/glb/SimpleSkin.glb")).unwrap(),
    );
    p.write("manifests/poses.yaml", TWO_CACHES);
    fs::create_dir_all(p.path("out/.kiln/.journal.kiln-tmp/in-the-way")).unwrap();
    let (report, o) = p.build_json(&[]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert_eq!(report["totals"]["built"], 2, "{report}");
    assert_eq!(report["totals"]["failed"], 0, "{report}");
    let state = report["state_error"].as_str().unwrap_or_default();
    assert!(
        state.starts_with("recording the built jobs in ")
            && state.contains("out/.kiln/journal (kiln's build journal)"),
        "{report}"
    );
    assert_eq!(err.matches("error:").count(), 1, "{err}");
    assert!(p.path("out/poses/a.ospc").is_file() && p.path("out/poses/b.ospc").is_file());
    crate::json_support::conforms("build", &report);
    // Once it can be written, the next build checks the outputs again.
    fs::remove_dir_all(p.path("out/.kiln/.journal.kiln-tmp")).unwrap();
    let o = p.kiln(&["build"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = p.kiln(&["build", "--check"]);
    assert!(o.status.success(), "{}", stderr(&o));
}
