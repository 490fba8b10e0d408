//! Resource faults during `kiln build` (see RELIABILITY.md): a full disk, a
//! read-only output folder, an unreadable source, a source that changes
//! while kiln reads it. Each must be a clear error naming the file, leave
//! no partial output behind and leave earlier good outputs as they were.
//!
//! The disk faults are real file systems: a size-limited tmpfs and a
//! read-only bind mount, made in a private user and mount namespace
//! (`unshare --user --map-root-user --mount`, util-linux), so the test
//! needs no privileges and changes nothing outside its temporary project.
//! If the namespace cannot be made the test fails: it never skips.

use std::collections::BTreeMap;
use std::fs;
use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::{cli_support, guard_support};
use cli_support::{KILN, Project, assert_user_files, is_user_file, place_user_files, stderr, walk};

/// Every file under `out/` but kiln's state and the user's own files,
/// with its bytes.
fn outputs(p: &Project) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = BTreeMap::new();
    let out = p.path("out");
    walk(&out, &out, &mut |rel, path| {
        if !rel.starts_with(".kiln") && !is_user_file(rel) {
            files.insert(rel.to_path_buf(), fs::read(path).unwrap());
        }
    });
    files
}

fn temporaries(files: &BTreeMap<PathBuf, Vec<u8>>) -> Vec<&PathBuf> {
    files
        .keys()
        .filter(|p| p.to_string_lossy().ends_with(".kiln-tmp"))
        .collect()
}

/// Runs `script` (bash) in the project in a private user and mount
/// namespace, with `$KILN` the binary. The mounts it makes end with it.
fn in_namespace(p: &Project, script: &str) -> Output {
    let o = Command::new("unshare")
        .args([
            "--user",
            "--map-root-user",
            "--mount",
            "bash",
            "-euo",
            "pipefail",
            "-c",
            script,
        ])
        .env("KILN", KILN)
        .current_dir(p.root())
        .output()
        .expect("unshare (util-linux) runs; tests/full.sh installs it");
    assert!(
        !stderr(&o).contains("unshare failed"),
        "cannot make a user namespace here: {}",
        stderr(&o)
    );
    o
}

fn variant_b(p: &Project) {
    p.edit("manifests/characters.yaml", "rate_hz: 30", "rate_hz: 25");
    p.edit("manifests/levels.yaml", "max_size: 2048", "max_size: 1024");
    p.edit("manifests/sequences.yaml", "rate_hz: 30", "rate_hz: 25");
    p.edit("manifests/models.yaml", "type: f16", "type: f32");
}

/// Variant B's outputs from a clean build.
fn clean_b() -> BTreeMap<PathBuf, Vec<u8>> {
    let p = Project::demo();
    variant_b(&p);
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    outputs(&p)
}

#[test]
fn a_full_disk_is_a_clear_error_and_leaves_old_or_new_complete_outputs() {
    let p = Project::demo();
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    place_user_files(&p.path("out"));
    let a = outputs(&p);
    let b = clean_b();
    variant_b(&p);
    // out/ becomes a 16 MiB tmpfs holding the good outputs, then filled up
    // but for 64 KiB; variant B is built into what is left, the disk is
    // given back and B built again. What each step left is kept in
    // snapshots outside out/ (the tmpfs ends with the namespace).
    let o = in_namespace(
        &p,
        r#"
        mkdir -p ../keep && cp -a out/. ../keep/
        mount -t tmpfs -o size=16m tmpfs out
        cp -a ../keep/. out/
        head -c 64m /dev/zero > out/filler 2>/dev/null || true
        truncate -s -64k out/filler
        set +e
        "$KILN" build --quiet 2> full.stderr; echo $? > full.rc
        set -e
        rm -rf ../full && mkdir ../full && cp -a out/. ../full/ && rm ../full/filler
        rm out/filler
        "$KILN" build --quiet 2> again.stderr; echo $? > again.rc
        rm -rf ../again && mkdir ../again && cp -a out/. ../again/
        "#,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let read = |name: &str| fs::read_to_string(p.path(name)).unwrap();
    assert_ne!(
        read("full.rc").trim(),
        "0",
        "a build on a full disk must fail"
    );
    let err = read("full.stderr");
    assert!(err.contains("No space left on device"), "{err}");
    assert!(err.contains(": job \""), "the error names the job: {err}");
    let snap = |dir: &str| {
        let base = p.root().parent().unwrap().join(dir);
        let mut files = BTreeMap::new();
        assert_user_files(&base, dir);
        walk(&base, &base, &mut |rel, path| {
            if !rel.starts_with(".kiln") && !is_user_file(rel) {
                files.insert(rel.to_path_buf(), fs::read(path).unwrap());
            }
        });
        files
    };
    let full = snap("full");
    assert!(temporaries(&full).is_empty(), "{:?}", temporaries(&full));
    assert_eq!(
        full.keys().collect::<Vec<_>>(),
        a.keys().collect::<Vec<_>>()
    );
    let mut new = 0;
    for (rel, bytes) in &full {
        assert!(
            Some(bytes) == a.get(rel) || Some(bytes) == b.get(rel),
            "{} is neither the old nor the new complete file",
            rel.display()
        );
        new += usize::from(Some(bytes) != a.get(rel));
    }
    assert!(
        new < a.len(),
        "the disk was not full: every output was written"
    );
    assert_eq!(read("again.rc").trim(), "0", "{}", read("again.stderr"));
    assert!(
        snap("again") == b,
        "after the disk is freed the build is a clean build's"
    );
}

#[test]
fn a_read_only_output_folder_is_a_clear_error_and_nothing_changes() {
    let p = Project::demo();
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    let before = outputs(&p);
    let state_before = cli_support::snapshot_bytes(&p.path("out/.kiln"));
    variant_b(&p);
    let o = in_namespace(
        &p,
        r#"
        mount --bind out out && mount -o remount,bind,ro out
        set +e
        "$KILN" build --quiet 2> ro.stderr; echo $? > ro.rc
        "#,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let read = |name: &str| fs::read_to_string(p.path(name)).unwrap();
    assert_ne!(read("ro.rc").trim(), "0");
    let err = read("ro.stderr");
    assert!(err.contains("Read-only file system"), "{err}");
    assert!(
        err.contains("cannot open ") && err.contains("/out/.kiln/lock: Read-only file system"),
        "names the path: {err}"
    );
    assert!(outputs(&p) == before, "the outputs are untouched");
    assert!(cli_support::snapshot_bytes(&p.path("out/.kiln")) == state_before);
    // Writable again: the build goes on.
    assert!(p.kiln(&["build", "--quiet"]).status.success());
}

#[test]
fn dry_runs_and_checks_work_on_a_read_only_output_folder() {
    let p = Project::demo();
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    let o = in_namespace(
        &p,
        r#"
        mount --bind out out && mount -o remount,bind,ro out
        set +e
        "$KILN" build --check --json > fresh.json 2> fresh.stderr; echo $? > fresh.rc
        sed -i 's/rate_hz: 30/rate_hz: 25/' manifests/robot.yaml
        "$KILN" build --dry-run --json > dry.json 2> dry.stderr; echo $? > dry.rc
        "$KILN" build --check > check.out 2> check.stderr; echo $? > check.rc
        "#,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let read = |name: &str| fs::read_to_string(p.path(name)).unwrap();
    assert_eq!(read("fresh.rc").trim(), "0", "{}", read("fresh.stderr"));
    let fresh: serde_json::Value = serde_json::from_str(&read("fresh.json")).unwrap();
    assert_eq!(fresh["up_to_date"], true, "{fresh}");
    assert_eq!(read("dry.rc").trim(), "0", "{}", read("dry.stderr"));
    let dry: serde_json::Value = serde_json::from_str(&read("dry.json")).unwrap();
    let dirty = dry["totals"]["dirty"].as_u64().unwrap();
    assert!(
        dirty >= 1 && dirty < dry["totals"]["jobs"].as_u64().unwrap(),
        "{dry}"
    );
    assert_eq!(read("check.rc").trim(), "1", "{}", read("check.stderr"));
    assert!(
        read("check.out").starts_with("dirty pose_cache:"),
        "{}",
        read("check.out")
    );
    assert!(
        read("check.stderr").contains("check failed"),
        "{}",
        read("check.stderr")
    );
}

#[test]
fn an_unreadable_source_fails_its_job_naming_it_and_keeps_the_old_output() {
    let p = Project::demo();
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    let before = outputs(&p);
    // A new version of the file the model reads, that kiln may not read.
    let source = p.path("sources/weights/tiny-mlp.safetensors");
    let mut bytes = fs::read(&source).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    fs::write(&source, bytes).unwrap();
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(&source, fs::Permissions::from_mode(0o000)).unwrap();
    // root reads any file: run kiln as `nobody` then, on a project it may
    // write.
    let root = String::from_utf8(Command::new("id").arg("-u").output().unwrap().stdout).unwrap();
    let o = if root.trim() == "0" {
        Command::new("chmod")
            .args(["-R", "a+rwX"])
            .arg(p.path("out"))
            .status()
            .unwrap();
        Command::new("chmod")
            .args(["a+rwx"])
            .arg(p.root())
            .status()
            .unwrap();
        fs::set_permissions(&source, fs::Permissions::from_mode(0o000)).unwrap();
        Command::new("setpriv")
            .args([
                "--reuid=65534",
                "--regid=65534",
                "--clear-groups",
                KILN,
                "build",
                "--quiet",
            ])
            .current_dir(p.root())
            .output()
            .unwrap()
    } else {
        p.kiln(&["build", "--quiet"])
    };
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains("sources/weights/tiny-mlp.safetensors") && err.contains("Permission denied"),
        "{err}"
    );
    assert!(err.contains("tiny-mlp"), "{err}");
    assert!(outputs(&p) == before, "the old outputs are untouched");
    fs::set_permissions(&source, fs::Permissions::from_mode(0o644)).unwrap();
    let (report, o) = p.build_json(&[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        cli_support::ids_with(&report, "built"),
        ["tiny-mlp"],
        "{report}"
    );
}

/// A safetensors checkpoint of one F32 tensor of `n` values.
fn big_checkpoint(n: usize) -> Vec<u8> {
    let header = format!(
        r#"{{"w":{{"dtype":"F32","shape":[{n}],"data_offsets":[0,{}]}}}}"#,
        n * 4
    );
    let mut header = header.into_bytes();
    while header.len() % 8 != 0 {
        header.push(b' ');
    }
    let mut file = (header.len() as u64).to_le_bytes().to_vec();
    file.extend_from_slice(&header);
    file.extend((0..n).flat_map(|i| ((i % 1000) as f32 * 0.001).to_le_bytes()));
    file
}

#[test]
fn a_source_that_changes_while_kiln_reads_it_fails_the_job_and_keeps_the_old_output() {
    let p = Project::empty();
    p.write_bytes("sources/big.safetensors", &big_checkpoint(32 << 20)); // 128 MiB
    p.write(
        "manifests/m.yaml",
        "model_bundles:\n  - id: big\n    profile: generic\n    source: sources/big.safetensors\n    architecture: big\n    type: f16\n",
    );
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    let before = outputs(&p);
    // A writer rewrites a value in the middle of the file, over and over,
    // for as long as the build runs.
    let stop = Arc::new(AtomicBool::new(false));
    let writer = {
        let stop = stop.clone();
        let path = p.path("sources/big.safetensors");
        std::thread::spawn(move || {
            use std::os::unix::fs::FileExt;
            let f = fs::OpenOptions::new().write(true).open(path).unwrap();
            let mut k = 0u32;
            while !stop.load(Ordering::Relaxed) {
                f.write_at(&k.to_le_bytes(), 64 << 20).unwrap();
                k = k.wrapping_add(1);
                std::thread::sleep(Duration::from_micros(200));
            }
        })
    };
    std::thread::sleep(Duration::from_millis(20));
    let o = guard_support::no_hang("a build of a source being written", || {
        p.kiln(&["build", "--quiet"])
    });
    stop.store(true, Ordering::Relaxed);
    writer.join().unwrap();
    assert!(
        !o.status.success(),
        "the build read a file that was being written"
    );
    let err = stderr(&o);
    assert!(
        err.contains("sources/big.safetensors changed while kiln read it")
            || err.contains("sources/big.safetensors") && err.contains("while kiln read it"),
        "{err}"
    );
    assert!(
        outputs(&p) == before,
        "the old output is untouched, no temporary left"
    );
    let o = p.kiln(&["build", "--quiet"]);
    assert!(
        o.status.success(),
        "once the file holds still: {}",
        stderr(&o)
    );
}
