//! What a build remembers between runs, under `OUT/.kiln/`:
//!
//! - `journal`: one JSON line per finished job (its key, what went into the
//!   key, its outputs with size, SHA-256 and modification time), appended
//!   only after the job's outputs were renamed into place. The last record
//!   of an id wins. A torn last line (kiln killed mid-append) is ignored, so
//!   the job just rebuilds. Rewritten compactly when it holds more than
//!   twice as many lines as jobs.
//! - `files`: the content-hash cache, path -> (size, mtime, inode, BLAKE3),
//!   so a no-op build only stats its inputs. The cache never decides
//!   freshness by itself: a changed stat means re-hashing, and the content
//!   hash decides. Entries for files modified in the last two seconds are
//!   not kept (a write in the same timestamp tick could go unseen).
//! - `lock`: held for the whole build (see `engine`).
//!
//! Losing or corrupting any of these only costs a rebuild.

use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::fingerprint::KeyParts;
use super::paths::RelPath;

pub const STATE_DIR: &str = ".kiln";
const JOURNAL: &str = "journal";
const FILES: &str = "files";
const FORMAT: u32 = 1;

/// A file's stat signature: if any part changes, the content is re-hashed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileSig {
    pub size: u64,
    pub mtime_ns: u64,
    pub inode: u64,
}

impl FileSig {
    pub fn of(meta: &fs::Metadata) -> FileSig {
        FileSig {
            size: meta.len(),
            mtime_ns: mtime_ns(meta),
            inode: inode(meta),
        }
    }
}

fn mtime_ns(meta: &fs::Metadata) -> u64 {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
}

#[cfg(unix)]
fn inode(meta: &fs::Metadata) -> u64 {
    std::os::unix::fs::MetadataExt::ino(meta)
}

#[cfg(not(unix))]
fn inode(_meta: &fs::Metadata) -> u64 {
    0
}

/// path (relative to the root) -> (stat signature, BLAKE3 of the content).
#[derive(Default)]
pub struct HashCache {
    entries: BTreeMap<String, (FileSig, [u8; 32])>,
    changed: bool,
}

#[derive(Serialize, Deserialize)]
struct FilesDoc {
    format: u32,
    files: BTreeMap<String, (FileSig, String)>,
}

impl HashCache {
    /// Loads the cache; a missing or unreadable one is empty.
    pub fn load(state_dir: &Path) -> HashCache {
        let Ok(text) = fs::read(state_dir.join(FILES)) else {
            return HashCache::default();
        };
        let Ok(doc) = serde_json::from_slice::<FilesDoc>(&text) else {
            return HashCache::default();
        };
        if doc.format != FORMAT {
            return HashCache::default();
        }
        let entries = doc
            .files
            .into_iter()
            .filter_map(|(path, (sig, hex))| Some((path, (sig, from_hex(&hex)?))))
            .collect();
        HashCache {
            entries,
            changed: false,
        }
    }

    /// The content hash of `real` (the resolved file of `rel`, whose
    /// metadata is `meta`), from the cache when its stat signature is
    /// unchanged.
    pub fn hash(
        &mut self,
        rel: &RelPath,
        real: &Path,
        meta: &fs::Metadata,
    ) -> io::Result<[u8; 32]> {
        let sig = FileSig::of(meta);
        if let Some((cached, hash)) = self.entries.get(rel.as_str())
            && *cached == sig
        {
            return Ok(*hash);
        }
        let bytes = fs::read(real)?;
        let hash = *blake3::hash(&bytes).as_bytes();
        // Keep it only if the file did not change while we read it.
        if FileSig::of(&fs::metadata(real)?) == sig {
            self.remember(rel, sig, hash);
        }
        Ok(hash)
    }

    /// Records a hash computed elsewhere (a job that read the file).
    pub fn remember(&mut self, rel: &RelPath, sig: FileSig, hash: [u8; 32]) {
        if is_racy(sig) {
            self.entries.remove(rel.as_str());
            return;
        }
        let old = self.entries.insert(rel.to_string(), (sig, hash));
        if old != Some((sig, hash)) {
            self.changed = true;
        }
    }

    /// Writes the cache if it changed.
    pub fn save(&self, state_dir: &Path) -> io::Result<()> {
        if !self.changed {
            return Ok(());
        }
        let doc = FilesDoc {
            format: FORMAT,
            files: self
                .entries
                .iter()
                .map(|(p, (sig, hash))| (p.clone(), (*sig, to_hex(hash))))
                .collect(),
        };
        let bytes = serde_json::to_vec(&doc).map_err(io::Error::other)?;
        write_atomic(&state_dir.join(FILES), &bytes)
    }
}

/// Modified within the last two seconds: the timestamp may not yet tell
/// this version of the file from the next.
fn is_racy(sig: FileSig) -> bool {
    let now_ns = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX));
    now_ns.saturating_sub(sig.mtime_ns) < 2_000_000_000
}

/// An output as the job left it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutputRecord {
    /// Relative to the output folder.
    pub path: String,
    pub bytes: u64,
    pub sha256: String,
    pub mtime_ns: u64,
}

/// The record of a finished job.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub id: String,
    pub key: [u8; 32],
    pub parts: KeyParts,
    pub outputs: Vec<OutputRecord>,
}

#[derive(Serialize, Deserialize)]
struct RecordLine {
    id: String,
    key: String,
    kind: String,
    kind_version: u32,
    kiln: String,
    settings: Vec<(String, String)>,
    inputs: Vec<(String, String)>,
    outputs: Vec<OutputRecord>,
}

impl Record {
    fn to_line(&self) -> String {
        let line = RecordLine {
            id: self.id.clone(),
            key: to_hex(&self.key),
            kind: self.parts.kind.clone(),
            kind_version: self.parts.kind_version,
            kiln: self.parts.kiln_version.clone(),
            settings: self.parts.settings.clone(),
            inputs: self
                .parts
                .inputs
                .iter()
                .map(|(p, h)| (p.to_string(), to_hex(h)))
                .collect(),
            outputs: self.outputs.clone(),
        };
        let mut text = serde_json::to_string(&line).expect("a record serializes");
        text.push('\n');
        text
    }

    fn from_line(line: &str) -> Option<Record> {
        let r: RecordLine = serde_json::from_str(line).ok()?;
        let inputs = r
            .inputs
            .into_iter()
            .map(|(p, h)| Some((RelPath::parse(&p).ok()?, from_hex(&h)?)))
            .collect::<Option<Vec<_>>>()?;
        Some(Record {
            id: r.id,
            key: from_hex(&r.key)?,
            parts: KeyParts {
                kind: r.kind,
                kind_version: r.kind_version,
                kiln_version: r.kiln,
                settings: r.settings,
                inputs,
            },
            outputs: r.outputs,
        })
    }
}

/// The job records, and the open journal to append to.
pub struct Journal {
    pub records: BTreeMap<String, Record>,
    path: PathBuf,
    n_lines: usize,
    file: Option<File>,
}

impl Journal {
    /// Loads every record; unreadable lines (a torn append) are skipped.
    pub fn load(state_dir: &Path) -> Journal {
        let path = state_dir.join(JOURNAL);
        let text = fs::read(&path).unwrap_or_default();
        let text = String::from_utf8_lossy(&text);
        let mut records = BTreeMap::new();
        let mut n_lines = 0;
        for line in text.lines() {
            n_lines += 1;
            if let Some(r) = Record::from_line(line) {
                records.insert(r.id.clone(), r);
            }
        }
        Journal {
            records,
            path,
            n_lines,
            file: None,
        }
    }

    /// Appends a record. Call only after the record's outputs are in place.
    pub fn append(&mut self, record: Record) -> io::Result<()> {
        if self.file.is_none() {
            // A torn last line must not swallow the next record.
            let needs_newline = fs::read(&self.path)
                .map(|b| b.last().is_some_and(|&c| c != b'\n'))
                .unwrap_or(false);
            let mut f = OpenOptions::new()
                .create(true)
                .append(true)
                .open(&self.path)?;
            if needs_newline {
                f.write_all(b"\n")?;
            }
            self.file = Some(f);
        }
        let file = self.file.as_mut().expect("opened above");
        file.write_all(record.to_line().as_bytes())?;
        self.n_lines += 1;
        self.records.insert(record.id.clone(), record);
        Ok(())
    }

    /// Rewrites the journal with one line per job when it has grown to more
    /// than twice that.
    pub fn compact_if_large(&mut self) -> io::Result<()> {
        if self.n_lines <= 2 * self.records.len() + 16 {
            return Ok(());
        }
        let text: String = self.records.values().map(Record::to_line).collect();
        self.file = None;
        write_atomic(&self.path, text.as_bytes())?;
        self.n_lines = self.records.len();
        Ok(())
    }
}

/// Writes `bytes` to a temporary file beside `path`, then renames it into
/// place: readers (and a kiln killed at any moment) see the old complete
/// file or the new complete file, never a torn one.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let tmp = temp_path(path);
    let result = (|| {
        let mut f = File::create(&tmp)?;
        f.write_all(bytes)?;
        drop(f);
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// Suffix of kiln's temporary files; any left over by a killed build are
/// removed by the next one.
pub const TEMP_SUFFIX: &str = ".kiln-tmp";

fn temp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(Default::default, |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}{TEMP_SUFFIX}"))
}

/// Removes temporary files a killed build left in `dir`.
pub fn remove_stale_temps(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') && name.ends_with(TEMP_SUFFIX) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

pub fn to_hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[usize::from(b >> 4)] as char);
        s.push(DIGITS[usize::from(b & 15)] as char);
    }
    s
}

fn from_hex<const N: usize>(text: &str) -> Option<[u8; N]> {
    if text.len() != N * 2 {
        return None;
    }
    let mut out = [0u8; N];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(text.get(i * 2..i * 2 + 2)?, 16).ok()?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trip() {
        let h = *blake3::hash(b"x").as_bytes();
        assert_eq!(from_hex::<32>(&to_hex(&h)), Some(h));
        assert_eq!(from_hex::<2>("zz00"), None);
    }

    #[test]
    fn torn_journal_line_is_skipped_and_next_append_is_readable() {
        let dir = std::env::temp_dir().join(format!("kiln-journal-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let rec = |id: &str| Record {
            id: id.into(),
            key: [7; 32],
            parts: KeyParts {
                kind: "k".into(),
                kind_version: 1,
                kiln_version: "0".into(),
                settings: vec![("a".into(), "1".into())],
                inputs: vec![(RelPath::parse("s/a.glb").unwrap(), [1; 32])],
            },
            outputs: vec![],
        };
        let mut j = Journal::load(&dir);
        j.append(rec("one")).unwrap();
        drop(j);
        // Simulate a kill in the middle of the next append.
        let mut f = OpenOptions::new()
            .append(true)
            .open(dir.join(JOURNAL))
            .unwrap();
        f.write_all(b"{\"id\":\"two\",\"ke").unwrap();
        drop(f);
        let mut j = Journal::load(&dir);
        assert_eq!(j.records.keys().collect::<Vec<_>>(), ["one"]);
        j.append(rec("three")).unwrap();
        let j = Journal::load(&dir);
        assert_eq!(j.records.keys().collect::<Vec<_>>(), ["one", "three"]);
        assert_eq!(j.records["one"], rec("one"));
        fs::remove_dir_all(&dir).unwrap();
    }
}
