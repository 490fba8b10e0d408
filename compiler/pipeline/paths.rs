//! Paths named by manifests: relative to the project root, never leaving it.
//!
//! A manifest path is checked twice: lexically when the manifest is read
//! (not empty, not absolute, no `..`, no backslash, no drive letter), and
//! on the file system before it is read (the canonical path, symlinks
//! resolved, must still be under the canonical root).

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// A normalized, `/`-separated path relative to some base folder (the
/// project root or the output folder). Never empty, absolute or `..`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RelPath(String);

impl RelPath {
    /// Checks and normalizes `text` (drops `.` components and repeated
    /// slashes).
    pub fn parse(text: &str) -> Result<RelPath, String> {
        if text.is_empty() {
            return Err("the path is empty".into());
        }
        if text.contains('\\') {
            return Err(format!("{text:?} contains a backslash; use '/'"));
        }
        if text.starts_with('/') || text.as_bytes().get(1) == Some(&b':') {
            return Err(format!(
                "{text:?} is absolute; paths are relative to the project root"
            ));
        }
        if text.ends_with('/') {
            return Err(format!(
                "{text:?} ends in '/', which names a folder; name the file"
            ));
        }
        if text.contains('\0') {
            return Err(format!("{text:?} contains a NUL byte"));
        }
        // Already normal (the common case): no empty, `.` or `..` parts.
        let normal = text.split('/').all(|p| !matches!(p, "" | "." | ".."));
        if normal {
            return Ok(RelPath(text.to_string()));
        }
        let mut parts = Vec::new();
        for part in text.split('/') {
            match part {
                "" | "." => {}
                ".." => {
                    return Err(format!(
                        "{text:?} uses '..'; paths may not leave the project root"
                    ));
                }
                p => parts.push(p),
            }
        }
        if parts.is_empty() {
            return Err(format!("{text:?} names no file"));
        }
        Ok(RelPath(parts.join("/")))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The last component.
    pub fn file_name(&self) -> &str {
        self.0.rsplit('/').next().unwrap_or(&self.0)
    }

    /// A file in the same folder as this one; `name` must be a plain file
    /// name (no directory part).
    pub fn sibling(&self, name: &str) -> Result<RelPath, String> {
        if name.is_empty() || name.contains(['/', '\\']) || name == "." || name == ".." {
            return Err(format!(
                "{name:?} is not a plain file name next to {}",
                self.0
            ));
        }
        match self.0.rfind('/') {
            Some(i) => RelPath::parse(&format!("{}/{name}", &self.0[..i])),
            None => RelPath::parse(name),
        }
    }

    /// `base` joined with this path.
    pub fn under(&self, base: &Path) -> PathBuf {
        base.join(&self.0)
    }
}

/// Serialized as its text (cache keys, state files); deserialized through
/// [`RelPath::parse`], so a state file cannot smuggle in a bad path.
impl serde::Serialize for RelPath {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> serde::Deserialize<'de> for RelPath {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        RelPath::parse(&text).map_err(serde::de::Error::custom)
    }
}

impl fmt::Display for RelPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A file's stat signature: if any part changes, the content is re-hashed
/// (and an output is taken to have been modified). The change time is
/// there because no program can set it: a file put back with its old
/// modification time (`cp -p`, `touch -r`, an archive) still differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FileSig {
    pub size: u64,
    pub mtime_ns: u64,
    pub ctime_ns: u64,
    pub inode: u64,
}

impl FileSig {
    pub fn of(meta: &fs::Metadata) -> FileSig {
        let mtime_ns = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX));
        #[cfg(unix)]
        let (inode, ctime_ns) = {
            use std::os::unix::fs::MetadataExt;
            let ctime_ns = u64::try_from(meta.ctime())
                .unwrap_or(0)
                .saturating_mul(1_000_000_000)
                .saturating_add(u64::try_from(meta.ctime_nsec()).unwrap_or(0));
            (meta.ino(), ctime_ns)
        };
        #[cfg(not(unix))]
        let (inode, ctime_ns) = (0, 0);
        FileSig {
            size: meta.len(),
            mtime_ns,
            ctime_ns,
            inode,
        }
    }
}

/// The most names of one folder read to suggest a path for a missing one.
pub const MAX_SUGGESTION_NAMES: usize = 10_000;

/// What the resolver learns of a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileStat {
    pub is_file: bool,
    pub sig: FileSig,
}

/// Resolves root-relative paths to real files, checking that each one
/// (symlinks resolved) stays under the root. Folders are canonicalized and
/// opened once per build, files stat'ed once per build, relative to their
/// open folder (so the kernel walks one path component, not the whole
/// absolute path), and both are remembered: a build costs one `lstat` per
/// file it names, however often it asks.
pub struct Resolver {
    root: PathBuf,
    dirs: Mutex<BTreeMap<String, Result<Arc<Dir>, String>>>,
    /// Looked up, never iterated: a hash map (10,000 string-keyed inserts
    /// into a B-tree were 5 % of a 10,000-job no-op's instructions).
    files: Mutex<HashMap<RelPath, (PathBuf, FileStat)>>,
}

/// An open, canonical folder under the root.
struct Dir {
    real: PathBuf,
    #[cfg(unix)]
    fd: std::os::fd::OwnedFd,
}

impl Resolver {
    /// `root` must already be canonical.
    pub fn new(root: &Path) -> Resolver {
        Resolver {
            root: root.to_path_buf(),
            dirs: Mutex::new(BTreeMap::new()),
            files: Mutex::new(HashMap::new()),
        }
    }

    /// The real path of `rel` and what it is; an error if it does not exist
    /// or resolves outside the root. Remembered for the rest of the build.
    pub fn resolve(&self, rel: &RelPath) -> Result<(PathBuf, FileStat), String> {
        if let Some(known) = self.files.lock().expect("no panics while held").get(rel) {
            return Ok(known.clone());
        }
        let found = self.resolve_now(rel)?;
        self.files
            .lock()
            .expect("no panics while held")
            .insert(rel.clone(), found.clone());
        Ok(found)
    }

    /// Like [`Resolver::resolve`], but stats the file again now.
    pub fn resolve_now(&self, rel: &RelPath) -> Result<(PathBuf, FileStat), String> {
        let (dir, name) = match rel.0.rfind('/') {
            Some(i) => (&rel.0[..i], &rel.0[i + 1..]),
            None => ("", rel.0.as_str()),
        };
        let dir = self.dir(dir, rel).map_err(|e| {
            let missing = e.ends_with(&describe_io(&std::io::ErrorKind::NotFound.into()));
            match missing {
                true => format!("{e}{}", self.did_you_mean(rel.as_str())),
                false => e,
            }
        })?;
        let path = dir.real.join(name);
        let (stat, is_symlink) = lstat_in(&dir, name, &path).map_err(|e| {
            let hint = match e.kind() {
                std::io::ErrorKind::NotFound => self.did_you_mean(rel.as_str()),
                _ => String::new(),
            };
            format!("{rel}: {}{hint}", describe_io(&e))
        })?;
        if !is_symlink {
            return Ok((path, stat));
        }
        let real = path
            .canonicalize()
            .map_err(|e| format!("{rel}: {}", describe_io(&e)))?;
        if !real.starts_with(&self.root) {
            return Err(format!(
                "{rel} resolves (through a symlink) outside the project root"
            ));
        }
        let meta = fs::metadata(&real).map_err(|e| format!("{rel}: {}", describe_io(&e)))?;
        let stat = FileStat {
            is_file: meta.is_file(),
            sig: FileSig::of(&meta),
        };
        Ok((real, stat))
    }

    /// The real path of the folder `dir` (relative to the root), checked
    /// to be under the root.
    pub fn real_dir(&self, dir: &RelPath) -> Result<PathBuf, String> {
        self.cached_dir(dir.as_str()).map(|d| d.real.clone())
    }

    /// The names in the folder `dir` (relative to the root; `""` is the
    /// root), checked to be under the root, sorted by their bytes. Names
    /// that are not UTF-8 are left out (no manifest can name them).
    pub fn list_dir(&self, dir: &str) -> Result<Vec<String>, String> {
        let real = self.cached_dir(dir)?.real.clone();
        let entries =
            fs::read_dir(&real).map_err(|e| format!("folder {dir}: {}", describe_io(&e)))?;
        let mut names = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|e| format!("folder {dir}: {}", describe_io(&e)))?;
            if let Ok(name) = entry.file_name().into_string() {
                names.push(name);
            }
        }
        names.sort();
        Ok(names)
    }

    /// For a path that does not exist: "; did you mean P?" with the paths
    /// whose first missing part is nearest the one written (a slip of case
    /// or a letter), or nothing. Reads at most [`MAX_SUGGESTION_NAMES`]
    /// names of the deepest folder that exists.
    fn did_you_mean(&self, rel: &str) -> String {
        let parts: Vec<&str> = rel.split('/').collect();
        for k in (0..parts.len()).rev() {
            let dir = parts[..k].join("/");
            let Ok(found) = self.cached_dir(&dir) else {
                continue;
            };
            let Ok(entries) = fs::read_dir(&found.real) else {
                return String::new();
            };
            let names: Vec<String> = entries
                .take(MAX_SUGGESTION_NAMES)
                .filter_map(|e| e.ok()?.file_name().into_string().ok())
                .collect();
            let near = super::names::nearest(parts[k], names.iter().map(String::as_str));
            let paths: Vec<String> = near
                .iter()
                .map(|n| {
                    let mut whole: Vec<&str> = parts[..k].to_vec();
                    whole.push(n);
                    whole.extend(&parts[k + 1..]);
                    whole.join("/")
                })
                .collect();
            let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
            return match paths.is_empty() {
                true => String::new(),
                false => format!("; did you mean {}?", super::names::or_list(&paths)),
            };
        }
        String::new()
    }

    /// The canonical project root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    fn dir(&self, dir: &str, rel: &RelPath) -> Result<Arc<Dir>, String> {
        self.cached_dir(dir).map_err(|e| format!("{rel}: {e}"))
    }

    fn cached_dir(&self, dir: &str) -> Result<Arc<Dir>, String> {
        let mut dirs = self.dirs.lock().expect("no panics while held");
        if let Some(known) = dirs.get(dir) {
            return known.clone();
        }
        let found = self.open_dir(dir).map(Arc::new);
        dirs.insert(dir.to_string(), found.clone());
        found
    }

    fn open_dir(&self, dir: &str) -> Result<Dir, String> {
        let real = self
            .root
            .join(dir)
            .canonicalize()
            .map_err(|e| format!("folder {dir}: {}", describe_io(&e)))?;
        if !real.starts_with(&self.root) {
            return Err(format!(
                "folder {dir} resolves (through a symlink) outside the project root"
            ));
        }
        #[cfg(unix)]
        {
            use rustix::fs::{Mode, OFlags};
            let flags = OFlags::DIRECTORY | OFlags::RDONLY | OFlags::CLOEXEC;
            let fd = rustix::fs::open(&real, flags, Mode::empty())
                .map_err(|e| format!("folder {dir}: {}", describe_io(&e.into())))?;
            Ok(Dir { real, fd })
        }
        #[cfg(not(unix))]
        Ok(Dir { real })
    }
}

/// `lstat` of `name` in `dir` (whose real path joined with `name` is
/// `path`): what it is, and whether it is a symlink.
#[cfg(unix)]
fn lstat_in(dir: &Dir, name: &str, _path: &Path) -> std::io::Result<(FileStat, bool)> {
    use rustix::fs::{AtFlags, FileType};
    let st = rustix::fs::statat(&dir.fd, name, AtFlags::SYMLINK_NOFOLLOW)?;
    #[allow(clippy::unnecessary_cast)] // the stat fields' types differ by platform
    let kind = FileType::from_raw_mode(st.st_mode as _);
    let stat = FileStat {
        is_file: kind == FileType::RegularFile,
        sig: sig_of_stat(&st),
    };
    Ok((stat, kind == FileType::Symlink))
}

/// The stat signature of a raw `stat`.
#[cfg(unix)]
#[allow(clippy::unnecessary_cast)] // the stat fields' types differ by platform
pub(crate) fn sig_of_stat(st: &rustix::fs::Stat) -> FileSig {
    let mtime_ns = u64::try_from(st.st_mtime as i64)
        .unwrap_or(0)
        .saturating_mul(1_000_000_000)
        .saturating_add(st.st_mtime_nsec as u64);
    let ctime_ns = u64::try_from(st.st_ctime as i64)
        .unwrap_or(0)
        .saturating_mul(1_000_000_000)
        .saturating_add(st.st_ctime_nsec as u64);
    FileSig {
        size: u64::try_from(st.st_size as i64).unwrap_or(0),
        mtime_ns,
        ctime_ns,
        inode: st.st_ino as u64,
    }
}

#[cfg(not(unix))]
fn lstat_in(_dir: &Dir, _name: &str, path: &Path) -> std::io::Result<(FileStat, bool)> {
    let meta = fs::symlink_metadata(path)?;
    let stat = FileStat {
        is_file: meta.is_file(),
        sig: FileSig::of(&meta),
    };
    Ok((stat, meta.file_type().is_symlink()))
}

/// An I/O error in words a user acts on.
pub fn describe_io(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        std::io::ErrorKind::IsADirectory => "a folder is in its place".into(),
        _ => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalizes_and_rejects_escapes() {
        assert_eq!(
            RelPath::parse("./a//b/./c.glb").unwrap().as_str(),
            "a/b/c.glb"
        );
        for bad in [
            "",
            "/etc/passwd",
            "../x",
            "a/../../x",
            "a/..",
            "C:/x",
            "a\\b",
            ".",
            "sources/Fox.glb/",
            "sources/",
        ] {
            assert!(RelPath::parse(bad).is_err(), "{bad:?}");
        }
        // Every way a part can be empty, `.` or `..`, at the start, in the
        // middle and at the end, normalized or refused; names that only
        // begin with dots are names.
        for (text, normal) in [
            ("a/./b", Some("a/b")),
            ("a//b", Some("a/b")),
            ("./a", Some("a")),
            ("a/.", Some("a")),
            ("..", None),
            ("../a", None),
            ("a/../b", None),
            ("..a/.b/c..", Some("..a/.b/c..")),
            ("a/..b", Some("a/..b")),
            ("a/.../b", Some("a/.../b")),
            (".hidden", Some(".hidden")),
            ("a/b.c", Some("a/b.c")),
        ] {
            assert_eq!(
                RelPath::parse(text).ok().as_ref().map(RelPath::as_str),
                normal,
                "{text:?}"
            );
        }
    }

    #[test]
    fn siblings_stay_in_the_folder() {
        let p = RelPath::parse("sources/a/model.gltf").unwrap();
        assert_eq!(
            p.sibling("model.bin").unwrap().as_str(),
            "sources/a/model.bin"
        );
        assert!(p.sibling("../x.bin").is_err());
        assert!(p.sibling("sub/x.bin").is_err());
        let top = RelPath::parse("model.gltf").unwrap();
        assert_eq!(top.sibling("m.bin").unwrap().as_str(), "m.bin");
    }
}
