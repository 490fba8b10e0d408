//! The `kiln` binary driven like a user drives it, on a throwaway copy of
//! the demo project: shared by the end-to-end test files.
#![allow(dead_code)] // each test file uses a different part

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

pub const KILN: &str = env!("CARGO_BIN_EXE_kiln");
pub const REPO: &str = env!("CARGO_MANIFEST_DIR");

/// A throwaway copy of the demo project (manifests + sources).
pub struct Project {
    pub dir: tempfile::TempDir,
}

impl Project {
    pub fn demo() -> Project {
        let dir = tempfile::Builder::new()
            .prefix("kiln-e2e-")
            .tempdir()
            .unwrap();
        copy_dir(
            &Path::new(REPO).join("manifests"),
            &dir.path().join("manifests"),
        );
        copy_dir(
            &Path::new(REPO).join("sources"),
            &dir.path().join("sources"),
        );
        Project { dir }
    }

    /// An empty project: `manifests/` and `sources/`, nothing in them.
    pub fn empty() -> Project {
        let dir = tempfile::Builder::new()
            .prefix("kiln-e2e-")
            .tempdir()
            .unwrap();
        fs::create_dir_all(dir.path().join("manifests")).unwrap();
        fs::create_dir_all(dir.path().join("sources")).unwrap();
        Project { dir }
    }

    /// Writes `bytes` to `rel`, making the folders on the way.
    pub fn write_bytes(&self, rel: &str, bytes: &[u8]) {
        let path = self.path(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, bytes).unwrap();
    }

    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.root().join(rel)
    }

    pub fn kiln(&self, args: &[&str]) -> Output {
        Command::new(KILN)
            .args(args)
            .current_dir(self.root())
            .env_remove("CI")
            .output()
            .unwrap()
    }

    /// Runs `kiln ARGS`, which must fail (exit 1); its stderr.
    pub fn fails(&self, args: &[&str]) -> String {
        let out = self.kiln(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
        stderr(&out)
    }

    pub fn build_json(&self, extra: &[&str]) -> (Value, Output) {
        let mut args = vec!["build", "--json"];
        args.extend_from_slice(extra);
        let out = self.kiln(&args);
        let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "not JSON ({e}): {}\nstderr: {}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )
        });
        (v, out)
    }

    /// `kiln build --json EXTRA`, which must succeed (its stderr shown if
    /// not); the report.
    pub fn builds(&self, extra: &[&str]) -> Value {
        let (report, out) = self.build_json(extra);
        assert!(out.status.success(), "{extra:?}: {}", stderr(&out));
        report
    }

    pub fn write(&self, rel: &str, text: &str) {
        fs::write(self.path(rel), text).unwrap();
    }

    pub fn edit(&self, rel: &str, from: &str, to: &str) {
        let text = fs::read_to_string(self.path(rel)).unwrap();
        assert!(text.contains(from), "{rel} has no {from:?}");
        self.write(rel, &text.replacen(from, to, 1));
    }
}

/// The demo's Fox.glb split into `split/fox.gltf`, `split/fox.bin` and
/// its texture `split/fur.png` (an image in a file beside the asset);
/// the `.gltf`'s JSON.
pub fn split_fox(p: &Project) -> Value {
    let (mut json, bin) = {
        let b = fs::read(p.path("sources/characters/Fox.glb")).unwrap();
        let n = u32::from_le_bytes(b[12..16].try_into().unwrap()) as usize;
        let json: Value = serde_json::from_slice(&b[20..20 + n]).unwrap();
        let bin_at = 20 + n + 8;
        (json, b[bin_at..].to_vec())
    };
    let view = json["images"][0]["bufferView"].as_u64().unwrap() as usize;
    let bv = &json["bufferViews"][view];
    let (off, len) = (
        bv["byteOffset"].as_u64().unwrap_or(0) as usize,
        bv["byteLength"].as_u64().unwrap() as usize,
    );
    fs::create_dir_all(p.path("split")).unwrap();
    fs::write(p.path("split/fur.png"), &bin[off..off + len]).unwrap();
    fs::write(p.path("split/fox.bin"), &bin).unwrap();
    json["images"][0] = serde_json::json!({"uri": "fur.png", "name": "fur"});
    json["buffers"][0]["uri"] = serde_json::json!("fox.bin");
    fs::write(p.path("split/fox.gltf"), serde_json::to_vec(&json).unwrap()).unwrap();
    json
}

pub fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), target).unwrap();
        }
    }
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// id -> status of every job in a `--json` report.
pub fn statuses(report: &Value) -> BTreeMap<String, String> {
    report["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| {
            (
                j["id"].as_str().unwrap().to_string(),
                j["status"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

pub fn ids_with(report: &Value, status: &str) -> Vec<String> {
    statuses(report)
        .into_iter()
        .filter(|(_, s)| s == status)
        .map(|(id, _)| id)
        .collect()
}

/// Every file under `dir` with its bytes.
pub fn snapshot_bytes(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut |rel, path| {
        out.insert(rel.to_path_buf(), fs::read(path).unwrap());
    });
    out
}

/// Every file under `dir` with its size and modification time.
pub fn snapshot_stat(dir: &Path) -> BTreeMap<PathBuf, (u64, std::time::SystemTime)> {
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut |rel, path| {
        let m = fs::metadata(path).unwrap();
        out.insert(rel.to_path_buf(), (m.len(), m.modified().unwrap()));
    });
    out
}

pub fn walk(base: &Path, dir: &Path, f: &mut dyn FnMut(&Path, &Path)) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            walk(base, &path, f);
        } else {
            f(path.strip_prefix(base).unwrap(), &path);
        }
    }
}

/// Files a user keeps in a project's `out/` beside kiln's outputs: one at
/// the top and one in a folder a multi-output job (a level) writes into.
/// Kiln must never change or remove them: not when killed, not on a full
/// disk, not in `clean`.
pub const USER_FILES: [(&str, &str); 2] = [
    ("notes.txt", "the user's own notes\n"),
    ("levels/forest/todo.txt", "paint the rocks\n"),
];

/// Whether `rel` (under `out/`) is one of [`USER_FILES`].
pub fn is_user_file(rel: &Path) -> bool {
    USER_FILES.iter().any(|(name, _)| rel == Path::new(name))
}

/// Puts [`USER_FILES`] into `out` (which kiln has built into, so it is
/// kiln's output folder).
pub fn place_user_files(out: &Path) {
    for (name, text) in USER_FILES {
        let path = out.join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }
}

/// Panics, naming `when`, unless every one of [`USER_FILES`] is in `out`
/// with its bytes.
pub fn assert_user_files(out: &Path, when: &str) {
    for (name, text) in USER_FILES {
        let got = fs::read_to_string(out.join(name));
        assert!(
            got.as_deref().ok() == Some(text),
            "{when}: the user's out/{name} is {got:?}"
        );
    }
}

/// The bytes of standard base64 `text` (a glTF's data URI).
pub fn base64_decode(text: &str) -> Vec<u8> {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD
        .decode(text)
        .unwrap()
}

/// Writes `sources/ext/skin.gltf` (SimpleSkin with its animation buffer in
/// the file `bin_name` beside it, also written) and `manifests/ext.yaml`,
/// whose pose cache `ext-skin` reads it. The buffer's bytes.
pub fn external_skin(p: &Project, bin_name: &str) -> Vec<u8> {
    let text =
        fs::read_to_string(Path::new(REPO).join("tests/corpus/glb/SimpleSkin.gltf")).unwrap();
    let mut doc: Value = serde_json::from_str(&text).unwrap();
    let uri = doc["buffers"][3]["uri"].as_str().unwrap().to_string();
    let bin = base64_decode(uri.split_once(";base64,").unwrap().1);
    doc["buffers"][3]["uri"] = Value::from(bin_name);
    fs::create_dir_all(p.path("sources/ext")).unwrap();
    fs::write(p.path("sources/ext").join(bin_name), &bin).unwrap();
    fs::write(p.path("sources/ext/skin.gltf"), doc.to_string()).unwrap();
    p.write(
        "manifests/ext.yaml",
        "pose_caches:\n  - id: ext-skin\n    source: sources/ext/skin.gltf\n    animation: 0\n    rate_hz: 30\n",
    );
    bin
}

/// The demo's meshopt robot: two jobs read it (a pose cache and the level
/// forest).
pub const ROBOT_CC: &str = "sources/characters/RobotExpressive.cc.glb";

/// [`ROBOT_CC`] with its generator string's last digit (`gltfpack 1.3`) set
/// to `digit`: a valid file of other bytes (`b'3'`: the file itself).
pub fn robot_cc_variant(digit: u8) -> Vec<u8> {
    let mut bytes = fs::read(Path::new(REPO).join(ROBOT_CC)).unwrap();
    let at = bytes.windows(11).position(|w| w == b"gltfpack 1.").unwrap();
    bytes[at + 11] = digit;
    bytes
}
