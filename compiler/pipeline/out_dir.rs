//! The output folder: every file kiln writes or deletes, and every folder it
//! creates, is reached through folders it opened itself, never through a
//! symbolic link.
//!
//! The output folder is named by the user (it may itself be a link, say to
//! a faster disk); it is resolved once, opened, and from then on every
//! folder inside it (`.kiln/`, `poses/`) is opened relative to its parent
//! with `O_NOFOLLOW | O_DIRECTORY`, and every file is created, renamed,
//! stat'ed or removed relative to its open folder (`openat`, `renameat`,
//! `fstatat` without following, `unlinkat`). A link planted anywhere inside
//! the output folder is an error naming it, so kiln can never write, or
//! delete, outside the folder it was given.
//!
//! Where a platform has no `*at` calls (not unix), the same rules are kept
//! with path operations and `symlink_metadata` checks (not proof against a
//! link swapped in between the check and the use).

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::input;
use super::paths::{FileSig, RelPath};

/// Suffix of kiln's temporary files; any left over by a killed build are
/// removed by the next one.
pub const TEMP_SUFFIX: &str = ".kiln-tmp";

/// What an entry of a folder is (not following links).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    File,
    Folder,
    Symlink,
    Other,
}

/// A folder kiln opened: inside the output folder, reached without links.
pub struct Folder {
    /// Where it is, for messages (and, off unix, for the operations).
    path: PathBuf,
    handle: sys::Handle,
}

impl Folder {
    /// Opens the output folder itself, creating it (and its parents) if
    /// missing.
    pub fn create_out(path: &Path) -> io::Result<Folder> {
        std::fs::create_dir_all(path)?;
        Folder::open_out(path)?.ok_or_else(|| io::Error::from(io::ErrorKind::NotFound))
    }

    /// Opens the output folder itself if it exists.
    pub fn open_out(path: &Path) -> io::Result<Option<Folder>> {
        let real = match path.canonicalize() {
            Ok(real) => real,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
        };
        let handle = sys::open_dir(&real)?;
        Ok(Some(Folder { path: real, handle }))
    }

    /// Where the folder is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The subfolder `name` if it exists; an error if `name` is a link or
    /// not a folder.
    pub fn open_child(&self, name: &str) -> io::Result<Option<Folder>> {
        let path = self.path.join(name);
        match self.kind(name)? {
            None => Ok(None),
            Some(EntryKind::Folder) => {
                let handle = sys::open_child_dir(&self.handle, &self.path, name)?;
                Ok(Some(Folder { path, handle }))
            }
            Some(kind) => Err(not_a_folder(&path, kind)),
        }
    }

    /// The subfolder `name`, created if missing.
    pub fn create_child(&self, name: &str) -> io::Result<Folder> {
        if let Some(folder) = self.open_child(name)? {
            return Ok(folder);
        }
        // Whatever mkdir says (it may have lost a race to another creator),
        // the folder is there now or the reason is mkdir's.
        let made = sys::mkdir(&self.handle, &self.path, name);
        match self.open_child(name)? {
            Some(folder) => Ok(folder),
            None => Err(made.err().unwrap_or_else(|| io::ErrorKind::NotFound.into())),
        }
    }

    /// What `name` is, without following a link; `None` if missing.
    pub fn kind(&self, name: &str) -> io::Result<Option<EntryKind>> {
        Ok(self.stat(name)?.map(|(kind, _)| kind))
    }

    /// What `name` is and its stat signature, without following a link.
    pub fn stat(&self, name: &str) -> io::Result<Option<(EntryKind, FileSig)>> {
        match sys::lstat(&self.handle, &self.path, name) {
            Ok(found) => Ok(Some(found)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The bytes of the regular file `name` (at most `limit` of them);
    /// `None` if it is missing, not a regular file, or larger.
    pub fn read(&self, name: &str, limit: u64) -> Option<Vec<u8>> {
        // Not following a link; a FIFO or folder fails `read_open`'s check.
        let file = sys::open_file(&self.handle, &self.path, name, sys::Mode::Read).ok()?;
        input::read_open(file, limit).ok().map(|r| r.bytes)
    }

    /// The regular file `name` opened for reading, if it is one of at most
    /// `limit` bytes (by its size), for a reader that streams it.
    pub fn open_read(&self, name: &str, limit: u64) -> Option<File> {
        let file = sys::open_file(&self.handle, &self.path, name, sys::Mode::Read).ok()?;
        input::check_regular(file, limit).ok().map(|(f, _)| f)
    }

    /// The SHA-256 of the regular file `name` (at most `limit` bytes,
    /// streamed: an output is known by its SHA-256) and its stat
    /// signature, if it held still while read; `None` if it is missing,
    /// not a regular file, larger, or changing.
    pub fn sha256(&self, name: &str, limit: u64) -> Option<([u8; 32], FileSig)> {
        let file = sys::open_file(&self.handle, &self.path, name, sys::Mode::Read).ok()?;
        match input::sha256_open(file, limit).ok()? {
            (hash, Some(sig)) => Some((hash, sig)),
            (_, None) => None,
        }
    }

    /// Writes `bytes` to a temporary file in this folder, then renames it
    /// to `name`: readers (and a kiln killed at any moment) see the old
    /// complete file or the new complete file, never a torn one.
    pub fn write_atomic(&self, name: &str, bytes: &[u8]) -> io::Result<()> {
        let result = (|| {
            let mut f = self.create_temp(name)?;
            f.write_all(bytes)?;
            drop(f);
            self.commit_temp(name)
        })();
        if result.is_err() {
            self.discard_temp(name);
        }
        result
    }

    /// Creates the temporary file that will become `name` (replacing a
    /// leftover one), for [`Folder::commit_temp`] to rename into place.
    pub fn create_temp(&self, name: &str) -> io::Result<File> {
        let tmp = temp_name(name);
        self.remove_entry(&tmp)?;
        sys::open_file(&self.handle, &self.path, &tmp, sys::Mode::CreateNew)
    }

    /// Renames the temporary file of `name` onto `name` (atomically).
    pub fn commit_temp(&self, name: &str) -> io::Result<()> {
        sys::rename(&self.handle, &self.path, &temp_name(name), name)
    }

    /// Removes the temporary file of `name`, if there is one.
    pub fn discard_temp(&self, name: &str) {
        let _ = self.remove_entry(&temp_name(name));
    }

    /// Opens the regular file `name` for appending (it must exist); `None`
    /// if it has more than one link (a hard link made elsewhere: appending
    /// would write into a file outside the output folder, so the caller
    /// writes a new file in its place instead).
    pub fn open_append(&self, name: &str) -> io::Result<Option<File>> {
        let file = sys::open_file(&self.handle, &self.path, name, sys::Mode::Append)?;
        Ok((links(&file.metadata()?) <= 1).then_some(file))
    }

    /// Opens (creating if missing) the regular file `name` to lock it.
    pub fn open_lock(&self, name: &str) -> io::Result<File> {
        sys::open_file(&self.handle, &self.path, name, sys::Mode::Lock)
    }

    /// Removes `name` if it is a regular file; `false` if it was missing.
    /// A link or a folder of that name is an error (kiln made neither).
    pub fn remove_file(&self, name: &str) -> io::Result<bool> {
        match self.kind(name)? {
            None => Ok(false),
            Some(EntryKind::File) => {
                sys::unlink(&self.handle, &self.path, name)?;
                Ok(true)
            }
            Some(kind) => Err(io::Error::other(format!(
                "{} is {}, not a file kiln wrote; left alone",
                self.path.join(name).display(),
                describe_kind(kind)
            ))),
        }
    }

    /// Removes the folder `name` if it is a real folder and empty; whether
    /// it went (a folder that is not empty, or cannot be removed, stays).
    pub fn remove_empty_child(&self, name: &str) -> bool {
        self.kind(name).ok().flatten() == Some(EntryKind::Folder)
            && sys::rmdir(&self.handle, &self.path, name).is_ok()
    }

    /// Every entry, sorted by name.
    pub fn entries(&self) -> io::Result<Vec<(String, EntryKind)>> {
        let mut entries = sys::list(&self.handle, &self.path)?;
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(entries)
    }

    /// Removes the temporary files a killed build left here; how many.
    pub fn remove_stale_temps(&self) -> usize {
        // In the order listed: which go does not depend on it (no sort of
        // 10,000 names on every no-op).
        let Ok(entries) = sys::list(&self.handle, &self.path) else {
            return 0;
        };
        entries
            .iter()
            .filter(|(name, kind)| *kind == EntryKind::File && is_temp_name(name))
            .filter(|(name, _)| sys::unlink(&self.handle, &self.path, name).is_ok())
            .count()
    }

    /// Unlinks whatever `name` is (a file or a link, never a folder);
    /// missing is fine. For kiln's own temporary names only.
    fn remove_entry(&self, name: &str) -> io::Result<()> {
        match self.kind(name)? {
            None => Ok(()),
            Some(EntryKind::Folder) => Err(not_a_folder(&self.path.join(name), EntryKind::Folder)),
            Some(_) => sys::unlink(&self.handle, &self.path, name),
        }
    }
}

/// Whether `name` is one of kiln's temporary file names.
pub fn is_temp_name(name: &str) -> bool {
    name.starts_with('.') && name.ends_with(TEMP_SUFFIX)
}

fn temp_name(name: &str) -> String {
    format!(".{name}{TEMP_SUFFIX}")
}

pub fn describe_kind(kind: EntryKind) -> &'static str {
    match kind {
        EntryKind::File => "a file",
        EntryKind::Folder => "a folder",
        EntryKind::Symlink => "a symbolic link",
        EntryKind::Other => "not a regular file or folder",
    }
}

fn not_a_folder(path: &Path, kind: EntryKind) -> io::Error {
    let hint = if kind == EntryKind::Symlink {
        "; kiln follows no links inside its output folder (remove it, or choose another --out)"
    } else {
        ""
    };
    io::Error::other(format!(
        "{} is {}, not a folder{hint}",
        path.display(),
        describe_kind(kind)
    ))
}

/// Whether a walk down the output folder creates what is missing.
#[derive(Clone, Copy)]
enum Walk {
    Open,
    Create,
}

/// Files inside the output folder by their path relative to it, through
/// folders opened once and remembered (a build opens each folder once).
pub struct OutTree {
    root: Arc<Folder>,
    dirs: Mutex<BTreeMap<String, Arc<Folder>>>,
}

impl OutTree {
    pub fn new(root: Folder) -> OutTree {
        OutTree {
            root: Arc::new(root),
            dirs: Mutex::new(BTreeMap::new()),
        }
    }

    pub fn root(&self) -> &Folder {
        &self.root
    }

    /// The folder `dir` (a `/`-separated path relative to the output
    /// folder), opened and remembered; `None` if some part is missing.
    pub fn open_dir(&self, dir: &str) -> io::Result<Option<Arc<Folder>>> {
        self.walk(dir, Walk::Open)
    }

    /// The folder `dir`, created (each part a real folder) if missing.
    pub fn create_dir(&self, dir: &str) -> io::Result<Arc<Folder>> {
        self.walk(dir, Walk::Create)?
            .ok_or_else(|| io::Error::from(io::ErrorKind::NotFound))
    }

    fn walk(&self, dir: &str, how: Walk) -> io::Result<Option<Arc<Folder>>> {
        if dir.is_empty() {
            return Ok(Some(self.root.clone()));
        }
        if let Some(known) = self.dirs.lock().expect("no panics while held").get(dir) {
            return Ok(Some(known.clone()));
        }
        let (parent, name) = match dir.rsplit_once('/') {
            Some((parent, name)) => (parent, name),
            None => ("", dir),
        };
        let Some(parent) = self.walk(parent, how)? else {
            return Ok(None);
        };
        let next = match how {
            Walk::Create => parent.create_child(name)?,
            Walk::Open => match parent.open_child(name)? {
                Some(folder) => folder,
                None => return Ok(None),
            },
        };
        let next = Arc::new(next);
        let mut dirs = self.dirs.lock().expect("no panics while held");
        Ok(Some(dirs.entry(dir.to_string()).or_insert(next).clone()))
    }

    /// The folder holding `rel` (walked as `how` says) and its file name;
    /// `None` if the folder is missing.
    fn folder_of<'r>(
        &self,
        rel: &'r RelPath,
        how: Walk,
    ) -> io::Result<Option<(Arc<Folder>, &'r str)>> {
        let (dir, name) = rel.as_str().rsplit_once('/').unwrap_or(("", rel.as_str()));
        Ok(self.walk(dir, how)?.map(|folder| (folder, name)))
    }

    /// What the file at `rel` is now; `None` if it (or its folder) is
    /// missing.
    pub fn stat(&self, rel: &RelPath) -> io::Result<Option<(EntryKind, FileSig)>> {
        match self.folder_of(rel, Walk::Open)? {
            Some((folder, name)) => folder.stat(name),
            None => Ok(None),
        }
    }

    /// The folder that holds `rel`, created (each part a real folder) if
    /// missing, and the file's name in it.
    pub fn create_folder_of<'r>(&self, rel: &'r RelPath) -> io::Result<(Arc<Folder>, &'r str)> {
        self.folder_of(rel, Walk::Create)?
            .ok_or_else(|| io::Error::from(io::ErrorKind::NotFound))
    }

    /// The folder that holds `rel` and the file's name in it; `None` if
    /// the folder is missing.
    pub fn open_folder_of<'r>(
        &self,
        rel: &'r RelPath,
    ) -> io::Result<Option<(Arc<Folder>, &'r str)>> {
        self.folder_of(rel, Walk::Open)
    }

    /// [`Folder::sha256`] of the file at `rel`.
    pub fn sha256(&self, rel: &RelPath, limit: u64) -> Option<([u8; 32], FileSig)> {
        let (folder, name) = self.folder_of(rel, Walk::Open).ok()??;
        folder.sha256(name, limit)
    }

    /// Removes the regular file at `rel`; `false` if it was missing.
    pub fn remove_file(&self, rel: &RelPath) -> io::Result<bool> {
        match self.folder_of(rel, Walk::Open)? {
            Some((folder, name)) => folder.remove_file(name),
            None => Ok(false),
        }
    }

    /// Removes the file at `rel` only if it is what kiln wrote there: a
    /// regular file with the stat signature kiln recorded (`sig`), or else
    /// with its `bytes` and `sha256` (read through a fixed buffer). A file
    /// the user put in its place, or changed, stays.
    pub fn remove_made(
        &self,
        rel: &RelPath,
        bytes: u64,
        sha256: &[u8; 32],
        sig: &FileSig,
    ) -> io::Result<Removal> {
        let Some((folder, name)) = self.folder_of(rel, Walk::Open)? else {
            return Ok(Removal::Missing);
        };
        let made = match folder.stat(name)? {
            None => return Ok(Removal::Missing),
            Some((EntryKind::File, found)) if found == *sig => true,
            Some((EntryKind::File, found)) if found.size == bytes => folder
                .sha256(name, bytes)
                .is_some_and(|(h, _)| h == *sha256),
            Some(_) => false,
        };
        match made {
            true => folder.remove_file(name).map(|_| Removal::Removed),
            false => Ok(Removal::NotMade),
        }
    }
}

/// How many names the file has.
#[cfg(unix)]
fn links(meta: &std::fs::Metadata) -> u64 {
    std::os::unix::fs::MetadataExt::nlink(meta)
}

#[cfg(not(unix))]
fn links(_: &std::fs::Metadata) -> u64 {
    1
}

/// What [`OutTree::remove_made`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Removal {
    Removed,
    /// Nothing was there.
    Missing,
    /// What is there is not what kiln wrote (a user's file, or one changed
    /// since): kept.
    NotMade,
}

#[cfg(unix)]
mod sys {
    use std::fs::File;
    use std::io;
    use std::os::fd::OwnedFd;
    use std::path::Path;

    use rustix::fs::{AtFlags, FileType, Mode as Perm, OFlags};

    use super::EntryKind;
    use crate::pipeline::paths::{self, FileSig};

    pub type Handle = OwnedFd;

    pub enum Mode {
        Read,
        CreateNew,
        Append,
        Lock,
    }

    const DIR_FLAGS: OFlags = OFlags::DIRECTORY
        .union(OFlags::RDONLY)
        .union(OFlags::CLOEXEC)
        .union(OFlags::NOFOLLOW);

    fn err(e: rustix::io::Errno) -> io::Error {
        io::Error::from(e)
    }

    pub fn open_dir(real: &Path) -> io::Result<Handle> {
        // `real` is canonical: following is harmless, and the output folder
        // itself may be a link the user made.
        let flags = OFlags::DIRECTORY | OFlags::RDONLY | OFlags::CLOEXEC;
        rustix::fs::open(real, flags, Perm::empty()).map_err(err)
    }

    pub fn open_child_dir(dir: &Handle, _path: &Path, name: &str) -> io::Result<Handle> {
        rustix::fs::openat(dir, name, DIR_FLAGS, Perm::empty()).map_err(err)
    }

    pub fn mkdir(dir: &Handle, _path: &Path, name: &str) -> io::Result<()> {
        rustix::fs::mkdirat(dir, name, Perm::from_raw_mode(0o777)).map_err(err)
    }

    pub fn lstat(dir: &Handle, _path: &Path, name: &str) -> io::Result<(EntryKind, FileSig)> {
        let st = rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW).map_err(err)?;
        let kind = match FileType::from_raw_mode(st.st_mode as _) {
            FileType::RegularFile => EntryKind::File,
            FileType::Directory => EntryKind::Folder,
            FileType::Symlink => EntryKind::Symlink,
            _ => EntryKind::Other,
        };
        Ok((kind, paths::sig_of_stat(&st)))
    }

    pub fn open_file(dir: &Handle, _path: &Path, name: &str, mode: Mode) -> io::Result<File> {
        // NONBLOCK: opening a FIFO planted in kiln's place must fail or
        // return at once, never wait for its other end.
        let base = OFlags::CLOEXEC | OFlags::NOFOLLOW | OFlags::NOCTTY | OFlags::NONBLOCK;
        let flags = match mode {
            Mode::Read => base | OFlags::RDONLY,
            Mode::CreateNew => base | OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL,
            Mode::Append => base | OFlags::WRONLY | OFlags::APPEND,
            Mode::Lock => base | OFlags::WRONLY | OFlags::CREATE,
        };
        let fd = rustix::fs::openat(dir, name, flags, Perm::from_raw_mode(0o666)).map_err(err)?;
        let file = File::from(fd);
        if !file.metadata()?.is_file() {
            return Err(io::Error::other(format!("{name} is not a regular file")));
        }
        Ok(file)
    }

    pub fn rename(dir: &Handle, _path: &Path, from: &str, to: &str) -> io::Result<()> {
        rustix::fs::renameat(dir, from, dir, to).map_err(err)
    }

    pub fn unlink(dir: &Handle, _path: &Path, name: &str) -> io::Result<()> {
        rustix::fs::unlinkat(dir, name, AtFlags::empty()).map_err(err)
    }

    pub fn rmdir(dir: &Handle, _path: &Path, name: &str) -> io::Result<()> {
        rustix::fs::unlinkat(dir, name, AtFlags::REMOVEDIR).map_err(err)
    }

    pub fn list(dir: &Handle, _path: &Path) -> io::Result<Vec<(String, EntryKind)>> {
        let mut out = Vec::new();
        for entry in rustix::fs::Dir::read_from(dir).map_err(err)? {
            let entry = entry.map_err(err)?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if name == "." || name == ".." {
                continue;
            }
            let kind = match entry.file_type() {
                FileType::RegularFile => EntryKind::File,
                FileType::Directory => EntryKind::Folder,
                FileType::Symlink => EntryKind::Symlink,
                FileType::Unknown => match lstat(dir, _path, &name) {
                    Ok((kind, _)) => kind,
                    Err(_) => EntryKind::Other,
                },
                _ => EntryKind::Other,
            };
            out.push((name, kind));
        }
        Ok(out)
    }
}

#[cfg(not(unix))]
mod sys {
    use std::fs::{self, File, OpenOptions};
    use std::io;
    use std::path::{Path, PathBuf};

    use super::EntryKind;
    use crate::pipeline::paths::FileSig;

    pub type Handle = ();

    pub enum Mode {
        Read,
        CreateNew,
        Append,
        Lock,
    }

    pub fn open_dir(real: &Path) -> io::Result<Handle> {
        if fs::metadata(real)?.is_dir() {
            Ok(())
        } else {
            Err(io::Error::other(format!(
                "{} is not a folder",
                real.display()
            )))
        }
    }

    pub fn open_child_dir(_dir: &Handle, path: &Path, name: &str) -> io::Result<Handle> {
        match lstat(&(), path, name)?.0 {
            EntryKind::Folder => Ok(()),
            _ => Err(io::Error::other(format!("{name} is not a folder"))),
        }
    }

    pub fn mkdir(_dir: &Handle, path: &Path, name: &str) -> io::Result<()> {
        fs::create_dir(path.join(name))
    }

    pub fn lstat(_dir: &Handle, path: &Path, name: &str) -> io::Result<(EntryKind, FileSig)> {
        let meta = fs::symlink_metadata(path.join(name))?;
        let t = meta.file_type();
        let kind = if t.is_symlink() {
            EntryKind::Symlink
        } else if t.is_dir() {
            EntryKind::Folder
        } else if t.is_file() {
            EntryKind::File
        } else {
            EntryKind::Other
        };
        Ok((kind, FileSig::of(&meta)))
    }

    pub fn open_file(_dir: &Handle, path: &Path, name: &str, mode: Mode) -> io::Result<File> {
        let full: PathBuf = path.join(name);
        if let Ok((kind, _)) = lstat(&(), path, name)
            && kind != EntryKind::File
        {
            return Err(io::Error::other(format!("{name} is not a regular file")));
        }
        let mut o = OpenOptions::new();
        match mode {
            Mode::Read => o.read(true),
            Mode::CreateNew => o.write(true).create_new(true),
            Mode::Append => o.append(true),
            Mode::Lock => o.write(true).create(true).truncate(false),
        };
        o.open(full)
    }

    pub fn rename(_dir: &Handle, path: &Path, from: &str, to: &str) -> io::Result<()> {
        fs::rename(path.join(from), path.join(to))
    }

    pub fn unlink(_dir: &Handle, path: &Path, name: &str) -> io::Result<()> {
        fs::remove_file(path.join(name))
    }

    pub fn rmdir(_dir: &Handle, path: &Path, name: &str) -> io::Result<()> {
        fs::remove_dir(path.join(name))
    }

    pub fn list(_dir: &Handle, path: &Path) -> io::Result<Vec<(String, EntryKind)>> {
        let mut out = Vec::new();
        for entry in fs::read_dir(path)? {
            let name = entry?.file_name().to_string_lossy().into_owned();
            let kind = lstat(&(), path, &name).map_or(EntryKind::Other, |(k, _)| k);
            out.push((name, kind));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_go_through_real_folders_only() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let out = Folder::create_out(&dir.path().join("out")).unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(outside.path(), dir.path().join("out/poses")).unwrap();
        let tree = OutTree::new(out);
        let write = |rel: &RelPath, bytes: &[u8]| {
            let (folder, name) = tree.create_folder_of(rel)?;
            folder.write_atomic(name, bytes)
        };
        let rel = RelPath::parse("poses/a.ospc").unwrap();
        let e = write(&rel, b"x").unwrap_err();
        assert!(
            e.to_string()
                .contains("is a symbolic link, not a folder; kiln follows no links"),
            "{e}"
        );
        std::fs::write(dir.path().join("out/plain"), b"x").unwrap();
        let rel_under_file = RelPath::parse("plain/a.ospc").unwrap();
        let e = write(&rel_under_file, b"x").unwrap_err().to_string();
        assert!(e.ends_with("plain is a file, not a folder"), "{e}");
        assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0);
        let rel = RelPath::parse("gen/deep/a.ospc").unwrap();
        write(&rel, b"abc").unwrap();
        assert_eq!(
            std::fs::read(dir.path().join("out/gen/deep/a.ospc")).unwrap(),
            b"abc"
        );
        assert!(tree.remove_file(&rel).unwrap());
        assert!(!tree.remove_file(&rel).unwrap());
    }

    #[test]
    fn folder_reads_are_exact_to_the_limit_and_regular_only() {
        let dir = tempfile::tempdir().unwrap();
        let out = Folder::create_out(dir.path()).unwrap();
        out.write_atomic("f", &[5u8; 10]).unwrap();
        assert_eq!(out.read("f", 10), Some(vec![5u8; 10]));
        assert_eq!(out.read("f", 9), None);
        assert_eq!(out.read("missing", 10), None);
        out.create_child("sub").unwrap();
        assert_eq!(out.read("sub", 10), None);
        #[cfg(unix)]
        {
            let fifo = dir.path().join("fifo");
            rustix::fs::mknodat(
                rustix::fs::CWD,
                &fifo,
                rustix::fs::FileType::Fifo,
                rustix::fs::Mode::from_raw_mode(0o600),
                0,
            )
            .unwrap();
            assert_eq!(out.read("fifo", 10), None);
        }
    }

    #[test]
    fn opening_and_statting_tell_missing_from_broken() {
        let dir = tempfile::tempdir().unwrap();
        assert!(
            Folder::open_out(&dir.path().join("none"))
                .unwrap()
                .is_none()
        );
        std::fs::write(dir.path().join("file"), b"x").unwrap();
        // A file is not a folder, and a path through a file is not missing.
        assert!(Folder::open_out(&dir.path().join("file")).is_err());
        assert!(Folder::open_out(&dir.path().join("file/below")).is_err());
        let out = Folder::open_out(dir.path()).unwrap().unwrap();
        assert_eq!(out.stat("none").unwrap(), None);
        assert!(
            out.stat(&"x".repeat(300)).is_err(),
            "a name too long is an error"
        );
        assert!(out.create_child("file").is_err());
        assert!(out.create_child(&"x".repeat(300)).is_err());
    }

    #[test]
    fn only_empty_folders_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let out = Folder::create_out(dir.path()).unwrap();
        let sub = out.create_child("sub").unwrap();
        sub.write_atomic("keep", b"x").unwrap();
        assert!(!out.remove_empty_child("sub"));
        assert!(dir.path().join("sub/keep").is_file());
        assert!(sub.remove_file("keep").unwrap());
        assert!(out.remove_empty_child("sub"));
        assert!(!dir.path().join("sub").exists());
        assert!(!out.remove_empty_child("sub"));
    }

    #[test]
    fn a_link_named_like_a_file_is_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let victim = outside.path().join("victim");
        std::fs::write(&victim, b"keep").unwrap();
        let out = Folder::create_out(dir.path()).unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&victim, dir.path().join("a")).unwrap();
            std::os::unix::fs::symlink(&victim, dir.path().join(".b.kiln-tmp")).unwrap();
        }
        assert!(out.read("a", 100).is_none());
        assert!(out.remove_file("a").is_err());
        assert_eq!(
            out.remove_stale_temps(),
            0,
            "a link is not kiln's temporary"
        );
        assert!(out.open_append("a").is_err());
        // Writing `a` replaces the link itself, not its target.
        out.write_atomic("a", b"new").unwrap();
        out.write_atomic("b", b"new").unwrap();
        assert_eq!(std::fs::read(&victim).unwrap(), b"keep");
        assert_eq!(out.kind("a").unwrap(), Some(EntryKind::File));
    }

    /// A file hard-linked from outside the folder is not appended to (the
    /// journal writes a new file of its own in its place instead).
    #[cfg(unix)]
    #[test]
    fn a_hard_linked_file_is_not_opened_for_appending() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let out = Folder::create_out(dir.path()).unwrap();
        out.write_atomic("journal", b"kiln's").unwrap();
        assert!(out.open_append("journal").unwrap().is_some());
        std::fs::hard_link(dir.path().join("journal"), outside.path().join("victim")).unwrap();
        assert!(out.open_append("journal").unwrap().is_none());
    }
}
