//! The file-system boundary, through the binary: kiln reads only regular
//! files under the root and never more than a limit, writes only inside its
//! output folder without following links, never blocks on a FIFO, and
//! `clean` deletes only what kiln made.

use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::cli_support;
#[allow(dead_code)] // shared with gltf_import.rs, which uses all of it
use crate::gltf_support;
use cli_support::*;

/// How long a command may run before it is taken for a hang: far past what
/// any of these needs (each finishes in well under a second). Nothing here
/// asserts speed; a file that is never read to its end shows as a hang.
pub(crate) const HANG: Duration = Duration::from_secs(120);

/// Runs `cmd`, killing it (and failing the test, "timeout") after `limit`.
#[track_caller]
pub(crate) fn run_within(cmd: &mut Command, limit: Duration) -> (Output, Duration) {
    let started = Instant::now();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env_remove("CI")
        .spawn()
        .unwrap();
    loop {
        if child.try_wait().unwrap().is_some() {
            return (child.wait_with_output().unwrap(), started.elapsed());
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "timeout: still running after {limit:?} (a hang, not a slow machine); stderr: {}",
                stderr(&out)
            );
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn kiln_in(root: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(KILN);
    cmd.args(args).current_dir(root);
    cmd
}

/// Every project file (manifests and sources) with its bytes.
fn project_files(p: &Project) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut files: Vec<_> = ["manifests", "sources"]
        .iter()
        .flat_map(|d| {
            snapshot_bytes(&p.path(d))
                .into_iter()
                .map(move |(rel, bytes)| (Path::new(d).join(rel), bytes))
        })
        .collect();
    files.sort();
    files
}

#[test]
fn the_output_folder_may_not_hold_or_sit_beside_project_files() {
    let p = Project::demo();
    let before = project_files(&p);
    for out in [
        ".",
        "..",
        "sources",
        "sources/gen",
        "manifests",
        "manifests/x",
    ] {
        let o = p.kiln(&["build", "--quiet", "--out", out]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "--out {out}: {err}");
        assert!(err.contains("the output folder"), "--out {out}: {err}");
        assert!(err.contains("such as out/"), "--out {out}: {err}");
    }
    let said = |out: &str| stderr(&p.kiln(&["build", "--quiet", "--out", out]));
    assert!(said("sources").contains("error: the output folder sources/ holds sources/"));
    assert!(
        said("sources/gen").contains(
            "error: the output folder sources/gen is inside sources/, which holds sources/"
        )
    );
    assert!(said(".").contains("is the project root or a folder above it"));
    assert_eq!(project_files(&p), before);
    assert!(!p.path(".kiln").exists() && !p.path("sources/.kiln").exists());
    assert!(!p.path("sources/gen").exists() && !p.path("manifests/x").exists());
    for out in ["out", "build/out"] {
        let o = p.kiln(&["build", "--quiet", "--out", out]);
        assert!(o.status.success(), "--out {out}: {}", stderr(&o));
        assert!(p.path(out).join("poses/fox-run.ospc").is_file());
    }
}

/// Where an older kiln was allowed to build into a project folder, `clean`
/// of that folder removes the outputs and state and keeps every project
/// file.
#[test]
fn clean_of_a_project_folder_keeps_every_project_file() {
    for folder in [".", "sources", "manifests"] {
        let p = Project::demo();
        assert!(p.kiln(&["build", "--quiet"]).status.success());
        let before = project_files(&p);
        // What `kiln build --out FOLDER` used to leave.
        let target = p.path(folder);
        copy_dir(&p.path("out/.kiln"), &target.join(".kiln"));
        copy_dir(&p.path("out/poses"), &target.join("poses"));
        fs::remove_dir_all(p.path("out")).unwrap();
        let o = p.kiln(&["clean", "--out", folder]);
        assert!(o.status.success(), "clean --out {folder}: {}", stderr(&o));
        assert_eq!(project_files(&p), before, "clean --out {folder}");
        assert!(!target.join(".kiln").exists(), "{folder}");
        assert!(!target.join("poses").exists(), "{folder}");
        assert!(target.is_dir(), "{folder}");
        assert!(stderr(&o).contains("kept"), "{}", stderr(&o));
    }
}

#[test]
fn clean_keeps_and_names_a_users_file() {
    let p = Project::demo();
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    p.write("out/notes.txt", "mine");
    p.write("out/poses/mine.ospc", "also mine");
    let o = p.kiln(&["clean"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("notes.txt") && err.contains("poses/mine.ospc"),
        "{err}"
    );
    assert_eq!(fs::read_to_string(p.path("out/notes.txt")).unwrap(), "mine");
    assert!(p.path("out/poses/mine.ospc").is_file());
    assert!(!p.path("out/.kiln").exists());
    assert!(!p.path("out/poses/fox-run.ospc").exists());
    // Once the user's files are gone, clean removes the empty folders too.
    fs::remove_file(p.path("out/notes.txt")).unwrap();
    fs::remove_file(p.path("out/poses/mine.ospc")).unwrap();
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    assert!(p.kiln(&["clean"]).status.success());
    assert!(!p.path("out").exists());
}

#[cfg(unix)]
#[test]
fn links_inside_the_output_folder_are_never_followed() {
    use std::os::unix::fs::symlink;
    for link in ["poses", ".kiln"] {
        let p = Project::demo();
        let outside = tempfile::tempdir().unwrap();
        fs::write(outside.path().join("victim.txt"), "keep").unwrap();
        fs::write(outside.path().join(".fox-run.ospc.kiln-tmp"), "keep").unwrap();
        fs::write(outside.path().join("journal"), "keep").unwrap();
        fs::create_dir(p.path("out")).unwrap();
        symlink(outside.path(), p.path("out").join(link)).unwrap();
        let before = snapshot_bytes(outside.path());
        let (o, _) = run_within(&mut kiln_in(p.root(), &["build"]), HANG);
        let err = stderr(&o);
        // A link in a folder kiln did not make: the folder is refused
        // (usage, 2); a linked .kiln: the state folder is refused (1).
        let code = if link == "poses" { 2 } else { 1 };
        assert_eq!(o.status.code(), Some(code), "out/{link}: {err}");
        assert!(err.contains("symbolic link"), "out/{link}: {err}");
        assert_eq!(snapshot_bytes(outside.path()), before, "out/{link}");
        // clean: a linked .kiln is no proof the folder is kiln's; with a
        // linked poses/ the build made no .kiln, so there is nothing of
        // kiln's to clean.
        let o = p.kiln(&["clean"]);
        let err = stderr(&o);
        if link == ".kiln" {
            assert_eq!(o.status.code(), Some(2), "{err}");
        } else {
            assert!(
                o.status.success() && err.contains("nothing to clean"),
                "{err}"
            );
        }
        assert_eq!(snapshot_bytes(outside.path()), before, "clean, out/{link}");
    }
}

#[cfg(unix)]
#[test]
fn a_linked_kiln_folder_is_no_proof_for_clean() {
    let p = Project::demo();
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    fs::create_dir(p.path("mine")).unwrap();
    p.write("mine/keep.txt", "keep");
    std::os::unix::fs::symlink(p.path("out/.kiln"), p.path("mine/.kiln")).unwrap();
    let o = p.kiln(&["clean", "--out", "mine"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("symbolic link"), "{}", stderr(&o));
    assert!(p.path("mine/keep.txt").is_file());
    assert!(p.path("out/.kiln/journal").is_file());
}

#[cfg(unix)]
#[test]
fn manifests_are_read_only_from_under_the_root() {
    use std::os::unix::fs::symlink;
    let p = Project::demo();
    let outside = tempfile::tempdir().unwrap();
    let text = fs::read_to_string(p.path("manifests/robot.yaml")).unwrap();
    let ext = outside.path().join("ext.yaml");
    fs::write(&ext, text.replace("robot-", "ext-")).unwrap();

    // A link in manifests/ to a file outside.
    symlink(&ext, p.path("manifests/ext.yaml")).unwrap();
    let o = p.kiln(&["build"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("manifests/ext.yaml") && err.contains("outside the project root"),
        "{err}"
    );
    assert!(!p.path("out/poses").exists(), "nothing was built");
    fs::remove_file(p.path("manifests/ext.yaml")).unwrap();

    // A manifest named on the command line, outside the root.
    let o = p.kiln(&["build", ext.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("outside the project root"), "{err}");

    // manifests/ itself a link to a folder outside.
    fs::rename(p.path("manifests"), p.path("manifests.real")).unwrap();
    symlink(outside.path(), p.path("manifests")).unwrap();
    let o = p.kiln(&["build"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("outside the project root"), "{err}");

    // A link that stays inside the root is fine.
    fs::remove_file(p.path("manifests")).unwrap();
    symlink(p.path("manifests.real"), p.path("manifests")).unwrap();
    let o = p.kiln(&["build", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// `prlimit` caps the child's address space: a kiln that read the file
/// into memory would die instead of refusing it.
#[cfg(target_os = "linux")]
#[test]
fn verify_refuses_endless_and_huge_files_by_size_within_a_memory_cap() {
    let dir = tempfile::tempdir().unwrap();
    let big_glb = dir.path().join("big.glb");
    let big_ospc = dir.path().join("big.ospc");
    for (path, magic) in [(&big_glb, b"glTF"), (&big_ospc, b"OSPC")] {
        let f = fs::File::create(path).unwrap();
        f.set_len(3 << 30).unwrap(); // sparse: 3 GiB that take no disk
        drop(f);
        use std::io::Write;
        let mut f = fs::OpenOptions::new().write(true).open(path).unwrap();
        f.write_all(magic).unwrap();
    }
    let cases = [
        ("/dev/zero", "is a character device, not a regular file"),
        (
            big_glb.to_str().unwrap(),
            "at byte 1073741824: the file is 3221225472 bytes, more than the 1073741824",
        ),
        (
            big_ospc.to_str().unwrap(),
            "at byte 268435456: the file is 3221225472 bytes, more than the 268435456",
        ),
        (
            dir.path().to_str().unwrap(),
            "is a folder, not a regular file",
        ),
    ];
    for (file, want) in cases {
        let mut cmd = Command::new("prlimit");
        cmd.args(["--as=1073741824", "--", KILN, "verify", file]);
        let (o, _) = run_within(&mut cmd, HANG);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{file}: {err}");
        assert!(err.contains(want), "{file}: {err}");
    }
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let ok = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(ok.success(), "mkfifo {}", path.display());
}

#[cfg(unix)]
#[test]
fn a_fifo_where_a_file_belongs_fails_at_once() {
    let p = Project::demo();
    // A .gltf whose external buffer is a FIFO.
    fs::create_dir_all(p.path("sources/fifo")).unwrap();
    let gltf =
        fs::read_to_string(Path::new(REPO).join("tests/corpus/glb/SimpleSkin.gltf")).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&gltf).unwrap();
    let n = json["buffers"].as_array().unwrap().len();
    for i in 0..n {
        json["buffers"][i]["uri"] = serde_json::json!(format!("buffer{i}.bin"));
        mkfifo(&p.path(&format!("sources/fifo/buffer{i}.bin")));
    }
    p.write("sources/fifo/skin.gltf", &json.to_string());
    p.write(
        "manifests/fifo.yaml",
        "pose_caches:\n  - id: fifo\n    source: sources/fifo/skin.gltf\n    animation: 0\n    rate_hz: 30\n",
    );
    let (o, _) = run_within(&mut kiln_in(p.root(), &["build"]), HANG);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("buffer0.bin: is a FIFO (named pipe), not a regular file"),
        "{err}"
    );
    fs::remove_file(p.path("manifests/fifo.yaml")).unwrap();

    // A FIFO as a manifest: named on the command line, and in manifests/.
    mkfifo(&p.path("pipe.yaml"));
    let (o, _) = run_within(&mut kiln_in(p.root(), &["build", "pipe.yaml"]), HANG);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("FIFO"), "{}", stderr(&o));
    mkfifo(&p.path("manifests/pipe.yaml"));
    let (o, _) = run_within(&mut kiln_in(p.root(), &["build"]), HANG);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("manifests/pipe.yaml: is a FIFO"),
        "{}",
        stderr(&o)
    );
    // A FIFO planted in kiln's own state: the lock, the journal.
    fs::remove_file(p.path("manifests/pipe.yaml")).unwrap();
    for state in ["lock", "journal"] {
        let _ = fs::remove_dir_all(p.path("out"));
        fs::create_dir_all(p.path("out/.kiln")).unwrap();
        mkfifo(&p.path(&format!("out/.kiln/{state}")));
        let (o, _) = run_within(&mut kiln_in(p.root(), &["build", "--quiet"]), HANG);
        if state == "lock" {
            assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
            assert!(stderr(&o).contains("lock"), "{}", stderr(&o));
        } else {
            // A journal that does not read is no journal: rebuilt whole.
            assert!(o.status.success(), "{}", stderr(&o));
        }
    }
    // And for verify.
    let (o, _) = run_within(
        &mut kiln_in(p.root(), &["verify", "pipe.yaml", "sources/fifo/skin.gltf"]),
        HANG,
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("pipe.yaml: is a FIFO"),
        "{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).contains("buffer buffer0.bin: is a FIFO"),
        "{}",
        stderr(&o)
    );
}

/// A clip of 1e30 s: the frame count must not wrap; the error is the
/// too-many-frames one, at the manifest's rate_hz.
#[test]
fn an_endless_clip_is_too_many_frames_at_rate_hz() {
    let p = Project::demo();
    let mut f = gltf_support::Fixture::new();
    f.push("nodes", serde_json::json!({"name": "bone"}));
    f.json["skins"] = serde_json::json!([{"joints": [0]}]);
    let times = f.floats(&[0.0, 1.0e30], "SCALAR", 1);
    let values = f.floats(&[0.0; 6], "VEC3", 3);
    f.json["accessors"][times]["min"] = serde_json::json!([0.0]);
    f.json["accessors"][times]["max"] = serde_json::json!([1.0e30]);
    f.channel("forever", 0, "translation", "LINEAR", times, values);
    fs::write(p.path("sources/forever.glb"), f.glb()).unwrap();
    p.write(
        "manifests/forever.yaml",
        "pose_caches:\n  - id: forever\n    source: sources/forever.glb\n    animation: forever\n    rate_hz: 10000\n",
    );
    let o = p.kiln(&["build"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("manifests/forever.yaml:5:14: job \"forever\": a clip of 1e30 s at 10000 Hz is more than the 4194304 frames a pose cache holds; lower rate_hz"),
        "{err}"
    );
}

/// Sources and the files a `.gltf` names beside it are read only from
/// under the root: a link out of it (a source, a buffer, an image, a
/// folder on the way) fails its job, naming the file; the file outside is
/// never read (it is a FIFO: reading it would block).
#[test]
fn sources_and_the_files_beside_them_are_read_only_from_under_the_root() {
    use std::os::unix::fs::symlink;
    let p = Project::demo();
    let outside = tempfile::tempdir().unwrap();
    mkfifo(&outside.path().join("secret.bin"));
    fs::copy(
        p.path("sources/characters/Fox.glb"),
        outside.path().join("Fox.glb"),
    )
    .unwrap();
    let gltf =
        fs::read_to_string(Path::new(cli_support::REPO).join("tests/corpus/glb/SimpleSkin.gltf"))
            .unwrap();
    let mut doc: serde_json::Value = serde_json::from_str(&gltf).unwrap();
    doc["buffers"][3]["uri"] = serde_json::json!("anim.bin");
    fs::create_dir_all(p.path("sources/ext")).unwrap();
    fs::write(p.path("sources/ext/skin.gltf"), doc.to_string()).unwrap();
    symlink(
        outside.path().join("secret.bin"),
        p.path("sources/ext/anim.bin"),
    )
    .unwrap();
    symlink(
        outside.path().join("Fox.glb"),
        p.path("sources/linked-fox.glb"),
    )
    .unwrap();
    symlink(outside.path(), p.path("sources/linked")).unwrap();
    // Sources through links: refused when planning, at their lines.
    p.write(
        "manifests/links.yaml",
        "pose_caches:\n  - id: source-link\n    source: sources/linked-fox.glb\n    animation: Run\n    rate_hz: 30\n  - id: folder-link\n    source: sources/linked/Fox.glb\n    animation: Run\n    rate_hz: 30\n",
    );
    let (o, _) = run_within(
        &mut kiln_in(p.root(), &["build", "manifests/links.yaml"]),
        HANG,
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    for (line, file) in [(3, "sources/linked-fox.glb"), (7, "sources/linked")] {
        assert!(
            err.lines().any(
                |l| l.starts_with(&format!("error: manifests/links.yaml:{line}:13:"))
                    && l.contains(file)
                    && l.contains("outside the project root")
            ),
            "{file}: {err}"
        );
    }
    // A buffer beside a .gltf through a link: found when the job runs, so
    // the job fails naming it, and the FIFO outside is never opened.
    p.write(
        "manifests/links.yaml",
        "pose_caches:\n  - id: buffer-link\n    source: sources/ext/skin.gltf\n    animation: 0\n    rate_hz: 30\n",
    );
    let (o, _) = run_within(
        &mut kiln_in(p.root(), &["build", "manifests/links.yaml"]),
        HANG,
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.starts_with("error: manifests/links.yaml:3:13: job \"buffer-link\"")
            && err.contains("sources/ext/anim.bin")
            && err.contains("outside the project root"),
        "{err}"
    );
    assert!(!p.path("out/poses/buffer-link.ospc").exists());
}

/// Manifests that try to write outside `out/` or read outside the root:
/// every such entry is refused when planning, at its line and column,
/// and nothing is written anywhere.
#[test]
fn manifests_cannot_write_outside_out_or_read_outside_the_root() {
    let fox = "source: sources/characters/Fox.glb\n    animation: Run\n    rate_hz: 30";
    let cases: [(&str, String, &str); 14] = [
        ("pose id ..", format!("pose_caches:\n  - id: ../../escaped\n    {fox}\n"), "2:9"),
        ("pose id /", format!("pose_caches:\n  - id: /tmp/escaped\n    {fox}\n"), "2:9"),
        ("pose id a/b", format!("pose_caches:\n  - id: a/b\n    {fox}\n"), "2:9"),
        ("pose id NUL", format!("pose_caches:\n  - id: \"a\\0b\"\n    {fox}\n"), "2:9"),
        ("cgeo id", "cgeo_sequences:\n  - id: ../x\n    source: sources/characters/Fox.glb\n    animation: Run\n    rate_hz: 30\n".into(), "2:9"),
        ("model id", "model_bundles:\n  - id: ..\n    profile: generic\n    source: sources/weights/tiny-mlp.safetensors\n    architecture: a\n".into(), "2:9"),
        ("level name", "characters:\n  - level: ../../x\n    banks: []\n    models: []\n".into(), "2:12"),
        ("source ..", "pose_caches:\n  - id: x\n    source: ../outside.glb\n    animation: Run\n    rate_hz: 30\n".into(), "3:13"),
        ("source sources/../..", "pose_caches:\n  - id: x\n    source: sources/../../outside.glb\n    animation: Run\n    rate_hz: 30\n".into(), "3:13"),
        ("source absolute", "pose_caches:\n  - id: x\n    source: /etc/passwd\n    animation: Run\n    rate_hz: 30\n".into(), "3:13"),
        ("source backslash", "pose_caches:\n  - id: x\n    source: ..\\\\outside.glb\n    animation: Run\n    rate_hz: 30\n".into(), "3:13"),
        ("glob ..", "pose_caches:\n  - id: x\n    source: ../*.cgeo\n".into(), "3:13"),
        ("replay ..", format!("pose_caches:\n  - id: x\n    {fox}\n    replay: ../x.mbreplay\n"), "6:13"),
        ("model source", "model_bundles:\n  - id: m\n    profile: generic\n    source: /dev/zero\n    architecture: a\n".into(), "4:13"),
    ];
    for (what, text, at) in cases {
        let p = Project::empty();
        p.write("manifests/m.yaml", &text);
        let (o, _) = run_within(&mut kiln_in(p.root(), &["build"]), HANG);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{what}: {err}");
        assert!(
            err.lines()
                .any(|l| l.starts_with(&format!("error: manifests/m.yaml:{at}: "))),
            "{what}: {err}"
        );
        assert!(
            !p.path("out").exists(),
            "{what}: a refused plan writes nothing"
        );
        // The project holds what it held; nothing was made beside it.
        let mut entries: Vec<_> = fs::read_dir(p.root())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        entries.sort();
        assert_eq!(entries, ["manifests", "sources"], "{what}");
        for dir in [p.root().parent().unwrap(), Path::new("/tmp")] {
            for name in ["escaped", "escaped.ospc", "x.cgeo", "..cgeo"] {
                assert!(
                    !dir.join(name).exists(),
                    "{what}: {name} in {}",
                    dir.display()
                );
            }
        }
    }
}
