//! What a build remembers between runs, under `OUT/.kiln/`:
//!
//! - `journal`: one record per finished job (its key, what went into the
//!   key, its outputs with size, BLAKE3, SHA-256 and stat signature),
//!   appended only after the job's outputs were committed. Records are
//!   keyed by kind and id; the last record of a key wins. Each record is
//!   framed with its length and a checksum, so a torn last record (kiln
//!   killed mid-append) is ignored and the job just rebuilds. Rewritten
//!   compactly when a quarter of it is stale, or when records are dropped.
//! - `files`: the content-hash cache, path -> (size, mtime, ctime, inode, BLAKE3),
//!   so a no-op build only stats its inputs. The cache never decides
//!   freshness by itself: a changed stat means re-hashing, and the content
//!   hash decides. Entries for files modified in the last two seconds are
//!   not kept (a write in the same timestamp tick could go unseen).
//! - `plan`: the last plan's jobs (kind, id, settings digest, outputs,
//!   globs with their matches), by the hash of the manifests it came from,
//!   so a no-op build need not parse or plan.
//! - `lock`: held for the whole build (see `engine`).
//!
//! The values are plain structs encoded by serde (postcard): no codec is
//! written by hand, so a field added to a record is stored with it. Each
//! file is an envelope (magic, kiln's version, the BLAKE3 of the body), so
//! a file from another kiln version or a corrupted one is never trusted.
//! Losing or corrupting any of these only costs a rebuild.

use std::collections::BTreeMap;
use std::io::{self, Read};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::fingerprint::{self, InputHash, KeyParts};
use super::input::{self, ReadError};
use super::job::Glob;
use super::out_dir::{EntryKind, Folder, describe_kind};
use super::paths::{FileSig, RelPath};

mod log;

use log::FrameLog;
pub use log::MAX_FRAME_BYTES;

pub const STATE_DIR: &str = ".kiln";
pub const JOURNAL: &str = "journal";
pub const FILES: &str = "files";
pub const PLAN: &str = "plan";
// The digit is the layout's version: 3 for the journal and the hash cache
// since stat signatures hold the change time; 3 for the plan summary since
// a lone carriage return ends a manifest line (a plan made before could be
// of a manifest read wrongly).
// 4: records keep the job's warnings and notes (shown again when fresh).
// 6 (and details 2): a frame ends with its length again, so a log's last
// frame is checked from the end without reading the others.
const JOURNAL_MAGIC: &[u8; 8] = b"KILNJRN6";
const FILES_MAGIC: &[u8; 8] = b"KILNFIL3";
const PLAN_MAGIC: &[u8; 8] = b"KILNPLN3";
pub const DETAILS: &str = "details";
const DETAILS_MAGIC: &[u8; 8] = b"KILNDET2";
/// The lock file's name.
pub const LOCK: &str = "lock";
/// Every file kiln keeps in its state folder (what `clean` may remove);
/// `manifests` is the parsed-manifest cache of kiln 0.1 before issue 6.
pub const STATE_FILES: [&str; 6] = [JOURNAL, DETAILS, FILES, PLAN, LOCK, "manifests"];

/// What each state file holds, for a person.
fn state_file_what(name: &str) -> &'static str {
    match name {
        JOURNAL => "build journal",
        DETAILS => "jobs' details (for --explain)",
        FILES => "hash cache",
        PLAN => "plan summary",
        LOCK => "lock file",
        _ => "state",
    }
}

/// The state file `name` of `state_dir` as a person should find it: its
/// path and what kiln keeps in it.
pub fn state_file(state_dir: &Folder, name: &str) -> String {
    format!(
        "{} (kiln's {})",
        state_dir.path().join(name).display(),
        state_file_what(name)
    )
}

/// Refuses a state folder where a folder has a state file's name: kiln
/// writes only files of its own there and will not remove a folder it did
/// not make (it may hold anything). The error says what to do. A link or
/// a FIFO there is replaced when the file is written (a new file renamed
/// over its name: what it pointed to is untouched).
pub fn check_state_files(state_dir: &Folder) -> Result<(), String> {
    for name in [LOCK, JOURNAL, DETAILS, FILES, PLAN] {
        match state_dir.stat(name) {
            Ok(Some((kind @ EntryKind::Folder, _))) => {
                return Err(format!(
                    "{} is {}, where kiln keeps its {}: remove it and build again (kiln writes only files of its own in {}, and removes nothing it did not make)",
                    state_dir.path().join(name).display(),
                    describe_kind(kind),
                    state_file_what(name),
                    state_dir.path().display()
                ));
            }
            Ok(_) => {}
            Err(e) => {
                return Err(format!("{}: {e}", state_dir.path().join(name).display()));
            }
        }
    }
    Ok(())
}

/// Largest state file kiln reads back: 1 GiB is millions of jobs' records.
/// A larger one is treated as missing (it only costs a rebuild).
pub const MAX_STATE_BYTES: u64 = 1 << 30;

/// Encodes a state value.
fn encode<T: Serialize>(value: &T) -> Vec<u8> {
    postcard::to_allocvec(value).expect("state values serialize")
}

/// Decodes a state value that must fill `bytes` exactly.
fn decode<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> Option<T> {
    match postcard::take_from_bytes(bytes) {
        Ok((value, [])) => Some(value),
        _ => None,
    }
}

/// `body` in the envelope of a state file of kind `magic`.
fn seal(magic: &[u8; 8], body: &[u8]) -> Vec<u8> {
    let mut file = header(magic);
    file.extend_from_slice(blake3::hash(body).as_bytes());
    file.extend_from_slice(body);
    file
}

/// Magic, then kiln's version with its length.
fn header(magic: &[u8; 8]) -> Vec<u8> {
    let mut file = magic.to_vec();
    file.push(u8::try_from(crate::VERSION.len()).expect("a short version"));
    file.extend_from_slice(crate::VERSION.as_bytes());
    file
}

/// What follows the header, if `file` starts with this kind's header.
fn after_header<'a>(magic: &[u8; 8], file: &'a [u8]) -> Option<&'a [u8]> {
    file.strip_prefix(header(magic).as_slice())
}

/// The body of a state file, if it is of kind `magic`, was written by this
/// kiln version and is intact.
fn open<'a>(magic: &[u8; 8], file: &'a [u8]) -> Option<&'a [u8]> {
    let rest = after_header(magic, file)?;
    let (sum, body) = rest.split_at_checked(32)?;
    (blake3::hash(body).as_bytes() == sum).then_some(body)
}

/// Reads a state file's value; `None` if missing, unreadable or stale.
/// The header is checked before the rest is read: a file of another kind
/// or version (or a hole of zeros) costs its first bytes, not its size.
fn load<T: for<'a> Deserialize<'a>>(state_dir: &Folder, name: &str, magic: &[u8; 8]) -> Option<T> {
    let mut file = state_dir.open_read(name, MAX_STATE_BYTES)?;
    let want = header(magic);
    let mut bytes = vec![0; want.len()];
    file.read_exact(&mut bytes).ok()?;
    if bytes != want {
        return None;
    }
    let rest = file
        .metadata()
        .ok()?
        .len()
        .saturating_sub(want.len() as u64);
    crate::memory::reserve(&mut bytes, usize::try_from(rest).ok()?).ok()?;
    file.take(MAX_STATE_BYTES).read_to_end(&mut bytes).ok()?;
    decode(open(magic, &bytes)?)
}

/// Hashes as one length-prefixed run of bytes, not as a sequence of
/// numbers: serde's default for `[u8; N]` visits every byte, a cost every
/// no-op build pays on the journal. The derived structs name these with
/// `#[serde(with)]`.
mod byte_string {
    use serde::Deserializer;
    use serde::de::{Error, Visitor};

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Vec<u8>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("bytes")
            }
            fn visit_bytes<E: Error>(self, v: &[u8]) -> Result<Vec<u8>, E> {
                Ok(v.to_vec())
            }
            fn visit_borrowed_bytes<E: Error>(self, v: &'de [u8]) -> Result<Vec<u8>, E> {
                Ok(v.to_vec())
            }
        }
        d.deserialize_bytes(V)
    }
}

/// A 32-byte hash as bytes (see `byte_string`).
mod hash32 {
    use serde::de::Error;
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &[u8; 32], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(v)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[u8; 32], D::Error> {
        let v = super::byte_string::deserialize(d)?;
        v.try_into()
            .map_err(|_| D::Error::custom("a hash is 32 bytes"))
    }
}

/// A hash that serializes as bytes, for hashes inside tuples and maps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Hash(#[serde(with = "hash32")] [u8; 32]);

/// `Vec<(RelPath, [u8; 32])>` with the hashes as bytes.
mod path_hashes {
    use serde::{Deserialize, Deserializer, Serializer};

    use super::{Hash, RelPath};

    pub fn serialize<S: Serializer>(v: &[(RelPath, [u8; 32])], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(v.iter().map(|(p, h)| (p, Hash(*h))))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Vec<(RelPath, [u8; 32])>, D::Error> {
        let v: Vec<(RelPath, Hash)> = Vec::deserialize(d)?;
        Ok(v.into_iter().map(|(p, h)| (p, h.0)).collect())
    }

    /// The hash cache's map, likewise.
    pub mod map {
        use std::collections::BTreeMap;

        use serde::{Deserialize, Deserializer, Serializer};

        use super::super::{FileSig, Hash, RelPath};

        type Entries = BTreeMap<RelPath, (FileSig, [u8; 32])>;

        pub fn serialize<S: Serializer>(v: &Entries, s: S) -> Result<S::Ok, S::Error> {
            s.collect_seq(v.iter().map(|(p, (sig, h))| (p, sig, Hash(*h))))
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Entries, D::Error> {
            let v: Vec<(RelPath, FileSig, Hash)> = Vec::deserialize(d)?;
            Ok(v.into_iter().map(|(p, sig, h)| (p, (sig, h.0))).collect())
        }
    }
}

/// The hash cache as stored.
#[derive(Default, Serialize, Deserialize)]
struct Files(#[serde(with = "path_hashes::map")] BTreeMap<RelPath, (FileSig, [u8; 32])>);

/// path (relative to the root) -> (stat signature, BLAKE3 of the content).
#[derive(Default)]
pub struct HashCache {
    entries: BTreeMap<RelPath, (FileSig, [u8; 32])>,
    changed: bool,
}

impl HashCache {
    /// Loads the cache; a missing or unreadable one is empty.
    pub fn load(state_dir: &Folder) -> HashCache {
        HashCache {
            entries: load::<Files>(state_dir, FILES, FILES_MAGIC)
                .unwrap_or_default()
                .0,
            changed: false,
        }
    }

    /// The content hash of `real` (the resolved file of `rel`, whose stat
    /// signature was `sig`), from the cache when its stat signature is
    /// unchanged, else streamed from the file (at most `limit` bytes).
    pub fn hash(
        &mut self,
        rel: &RelPath,
        real: &Path,
        sig: FileSig,
        limit: u64,
    ) -> Result<[u8; 32], ReadError> {
        if let Some((cached, hash)) = self.entries.get(rel)
            && *cached == sig
        {
            return Ok(*hash);
        }
        let (hash, held) = input::hash_regular(real, limit)?;
        // Keep it only if the file is the one that was stat'ed and did not
        // change while it was read.
        if held == Some(sig) {
            self.remember(rel, sig, hash);
        }
        Ok(hash)
    }

    /// Records a hash computed elsewhere (a job that read the file).
    pub fn remember(&mut self, rel: &RelPath, sig: FileSig, hash: [u8; 32]) {
        if is_racy(sig) {
            // Not kept. An older entry of the path need not be saved away:
            // its signature (the change time at least) is not this one.
            self.entries.remove(rel);
            return;
        }
        let old = self.entries.insert(rel.clone(), (sig, hash));
        if old != Some((sig, hash)) {
            self.changed = true;
        }
    }

    /// Writes the cache if it changed since it was loaded or last saved.
    pub fn save(&mut self, state_dir: &Folder) -> io::Result<()> {
        if !self.changed {
            return Ok(());
        }
        let files = Files(std::mem::take(&mut self.entries));
        let written = state_dir.write_atomic(FILES, &seal(FILES_MAGIC, &encode(&files)));
        self.entries = files.0;
        written?;
        self.changed = false;
        Ok(())
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

/// What the freshness check needs of a planned job.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Planned {
    pub kind: String,
    pub id: String,
    pub manifest: String,
    /// `fingerprint::digest` of the job.
    #[serde(with = "hash32")]
    pub digest: [u8; 32],
    /// Relative to the output folder.
    pub outputs: Vec<RelPath>,
    /// The job's globs and what they matched: the no-op path expands them
    /// again, since a new match changes the digest.
    pub globs: Vec<Glob>,
}

/// The last plan made from a given set of manifest texts: with it, a build
/// whose manifests are unchanged decides freshness without planning, and
/// plans only the manifests of the jobs that are not fresh (see
/// `engine::summary`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanSummary {
    /// `manifests_hash` of the manifests the plan was made from.
    #[serde(with = "hash32")]
    pub manifests: [u8; 32],
    pub jobs: Vec<Planned>,
}

impl PlanSummary {
    pub fn load(state_dir: &Folder) -> Option<PlanSummary> {
        load(state_dir, PLAN, PLAN_MAGIC)
    }

    pub fn save(&self, state_dir: &Folder) -> io::Result<()> {
        state_dir.write_atomic(PLAN, &seal(PLAN_MAGIC, &encode(self)))?;
        Ok(())
    }
}

/// The hash of a build's manifests: their names and texts, in order.
pub fn manifests_hash<'a>(manifests: impl Iterator<Item = (&'a str, &'a str)>) -> [u8; 32] {
    let mut h = blake3::Hasher::new();
    for (file, text) in manifests {
        h.update(&(file.len() as u64).to_le_bytes());
        h.update(file.as_bytes());
        h.update(&(text.len() as u64).to_le_bytes());
        h.update(text.as_bytes());
    }
    *h.finalize().as_bytes()
}

/// An output as the job left it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutputRecord {
    /// Relative to the output folder.
    pub path: RelPath,
    pub bytes: u64,
    /// Its SHA-256: what it is known by, here and in a shared cache.
    #[serde(with = "hash32")]
    pub sha256: [u8; 32],
    /// Its stat signature once in place: any difference (a write, a copy
    /// put back with the old modification time) rebuilds the job.
    pub sig: FileSig,
}

/// A job's key in the journal.
pub type JobKey = (String, String);

/// The record of a finished job.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub kind: String,
    pub id: String,
    #[serde(with = "hash32")]
    pub key: [u8; 32],
    /// `KeyParts::digest` of the job as it was built.
    #[serde(with = "hash32")]
    pub digest: [u8; 32],
    /// Every file the job read, in the order read, with its content hash.
    #[serde(with = "path_hashes")]
    pub inputs: Vec<InputHash>,
    pub outputs: Vec<OutputRecord>,
    /// What the job said when it was built, shown again while it is fresh
    /// (as cargo replays warnings).
    pub warnings: Vec<String>,
    pub notes: Vec<String>,
}

impl Record {
    pub fn new(
        id: String,
        parts: &KeyParts,
        inputs: Vec<InputHash>,
        outputs: Vec<OutputRecord>,
    ) -> Record {
        let digest = parts.digest();
        Record {
            kind: parts.kind.clone(),
            id,
            key: fingerprint::key(&digest, &inputs),
            digest,
            inputs,
            outputs,
            warnings: Vec::new(),
            notes: Vec::new(),
        }
    }

    pub fn job_key(&self) -> JobKey {
        (self.kind.clone(), self.id.clone())
    }
}

/// What a job was (its `KeyParts`), kept beside its record in
/// `.kiln/details` and read only to explain a rebuild: the journal, which
/// every build reads, stays small.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Detail {
    pub kind: String,
    pub id: String,
    pub parts: KeyParts,
}

/// The job records (`journal`, read by every build) and what each job was
/// (`details`, read only to explain a rebuild).
pub struct Journal {
    log: FrameLog<Record>,
    details: Option<FrameLog<Detail>>,
}

impl Journal {
    /// Loads every record; a torn or corrupt tail is dropped.
    pub fn load(state_dir: &Folder) -> Journal {
        Journal {
            log: FrameLog::load(state_dir, JOURNAL, JOURNAL_MAGIC),
            details: None,
        }
    }

    pub fn records(&self) -> &BTreeMap<JobKey, Record> {
        &self.log.entries
    }

    /// The details, read (every frame): to explain a job, to drop some,
    /// or to compact them.
    fn details(&mut self, state_dir: &Folder) -> &mut FrameLog<Detail> {
        if !self.details.as_ref().is_some_and(|d| d.loaded) {
            // An append-only log's frames are all in the file: read them.
            self.details = Some(FrameLog::load(state_dir, DETAILS, DETAILS_MAGIC));
        }
        self.details.as_mut().expect("loaded above")
    }

    /// What the job of `key` was when it was last built, if known.
    pub fn parts(&mut self, state_dir: &Folder, key: &JobKey) -> Option<KeyParts> {
        self.details(state_dir)
            .entries
            .get(key)
            .map(|d| d.parts.clone())
    }

    /// Appends a record and its job's parts. Call only after the record's
    /// outputs are in place.
    pub fn append(
        &mut self,
        state_dir: &Folder,
        record: Record,
        parts: KeyParts,
    ) -> io::Result<()> {
        let detail = Detail {
            kind: record.kind.clone(),
            id: record.id.clone(),
            parts,
        };
        // Appended without reading the log (a build that changed one job
        // touches one job's details).
        self.details
            .get_or_insert_with(|| FrameLog::open_tail(state_dir, DETAILS, DETAILS_MAGIC))
            .append(state_dir, detail)?;
        self.log.append(state_dir, record)
    }

    /// Appends `record` again with its outputs' new stat signatures (the
    /// same bytes, checked by hash); its job's parts are unchanged.
    pub fn refresh(&mut self, state_dir: &Folder, record: Record) -> io::Result<()> {
        self.log.append(state_dir, record)
    }

    /// Drops the records of `keys` (jobs gone from the manifests); both
    /// files are rewritten without them.
    pub fn drop_records(&mut self, state_dir: &Folder, keys: &[JobKey]) -> io::Result<()> {
        if keys.is_empty() {
            return Ok(());
        }
        self.details(state_dir).drop_keys(state_dir, keys)?;
        self.log.drop_keys(state_dir, keys)
    }

    /// Rewrites the journal (and the details) with one frame per job when
    /// a quarter of its frames are superseded. The details gain a frame
    /// only with a record, so compacting them with the journal keeps them
    /// as small (they are read then, and only then, unless asked for).
    pub fn compact_if_large(&mut self, state_dir: &Folder) -> io::Result<()> {
        if self.log.is_large() {
            self.log.rewrite(state_dir)?;
            self.details(state_dir).rewrite(state_dir)?;
        } else if self.details.as_ref().is_some_and(FrameLog::is_large) {
            self.details(state_dir).rewrite(state_dir)?;
        }
        Ok(())
    }
}

/// Lowercase hex (one implementation, in `formats`).
pub fn to_hex(bytes: &[u8]) -> String {
    crate::formats::hex(bytes)
}

#[cfg(test)]
mod tests {
    use super::log::frame;
    use super::*;
    use std::fs;

    fn parts() -> KeyParts {
        KeyParts {
            kind: "k".into(),
            kind_version: 1,
            kiln_version: "0".into(),
            settings: vec![("a".into(), "1".into())],
        }
    }

    fn rec(id: &str) -> Record {
        let parts = parts();
        Record::new(
            id.into(),
            &parts,
            vec![(RelPath::parse("s/a.glb").unwrap(), [1; 32])],
            vec![OutputRecord {
                path: RelPath::parse("poses/x.ospc").unwrap(),
                bytes: 3,
                sha256: [7; 32],
                sig: FileSig {
                    size: 3,
                    mtime_ns: 9,
                    ctime_ns: 10,
                    inode: 11,
                },
            }],
        )
    }

    fn key(id: &str) -> JobKey {
        ("k".into(), id.into())
    }

    fn ids(j: &Journal) -> Vec<&str> {
        j.records().keys().map(|(_, id)| id.as_str()).collect()
    }

    #[test]
    fn torn_journal_record_is_dropped_and_the_next_append_starts_clean() {
        let dir = tempfile::tempdir().unwrap();
        let state = Folder::create_out(dir.path()).unwrap();
        let mut j = Journal::load(&state);
        j.append(&state, rec("one"), parts()).unwrap();
        j.append(&state, rec("two"), parts()).unwrap();
        drop(j);
        let path = dir.path().join(JOURNAL);
        let full = fs::read(&path).unwrap();
        // Every cut of the last record (a kill mid-append) loses just it.
        let two = frame(&rec("two")).len();
        for cut in 1..two {
            fs::write(&path, &full[..full.len() - cut]).unwrap();
            let j = Journal::load(&state);
            assert_eq!(ids(&j), ["one"], "cut {cut}");
            assert_eq!(j.records()[&key("one")], rec("one"));
        }
        let mut j = Journal::load(&state);
        j.append(&state, rec("three"), parts()).unwrap();
        let mut j = Journal::load(&state);
        assert_eq!(ids(&j), ["one", "three"]);
        // What each job was is kept beside, read only when asked.
        assert!(j.details.is_none());
        assert_eq!(j.parts(&state, &key("one")).unwrap().settings[0].1, "1");
        assert_eq!(j.parts(&state, &key("none")), None);
    }

    /// A journal of `n` jobs (`j0`, `j1`, ...), each with its details, each
    /// job's settings its number.
    fn journal_of(state: &Folder, n: usize) -> Journal {
        let mut j = Journal::load(state);
        for i in 0..n {
            let mut p = parts();
            p.settings[0].1 = i.to_string();
            j.append(state, rec(&format!("j{i}")), p).unwrap();
        }
        j
    }

    fn setting(j: &mut Journal, state: &Folder, id: &str) -> Option<String> {
        j.parts(state, &key(id)).map(|p| p.settings[0].1.clone())
    }

    #[test]
    fn appending_reads_no_details() {
        // A build that records one job touches one job's details: the
        // log is appended to after a look at its header and last frame.
        let dir = tempfile::tempdir().unwrap();
        let state = Folder::create_out(dir.path()).unwrap();
        drop(journal_of(&state, 3));
        let mut j = Journal::load(&state);
        j.append(&state, rec("new"), parts()).unwrap();
        let details = j.details.as_ref().unwrap();
        assert!(!details.loaded && details.appendable);
        assert_eq!(details.entries.len(), 1, "only the frame appended");
        // Every frame is there for the next reader, this one included.
        let mut j = Journal::load(&state);
        assert_eq!(setting(&mut j, &state, "j2").as_deref(), Some("2"));
        assert_eq!(setting(&mut j, &state, "new").as_deref(), Some("1"));
        // Asked to explain after appending, the log is read whole.
        let mut j = Journal::load(&state);
        j.append(&state, rec("j0"), parts()).unwrap();
        assert_eq!(setting(&mut j, &state, "j0").as_deref(), Some("1"));
        assert_eq!(setting(&mut j, &state, "j1").as_deref(), Some("1"));
        assert!(j.details.as_ref().unwrap().loaded);
    }

    #[test]
    fn a_torn_or_corrupt_details_tail_is_found_before_appending() {
        let dir = tempfile::tempdir().unwrap();
        let state = Folder::create_out(dir.path()).unwrap();
        drop(journal_of(&state, 2));
        let path = dir.path().join(DETAILS);
        let full = fs::read(&path).unwrap();
        let mut p1 = parts();
        p1.settings[0].1 = "1".into();
        let last = frame(&Detail {
            kind: "k".into(),
            id: "j1".into(),
            parts: p1,
        })
        .len();
        // Every cut of the last frame, and a flipped bit in each of its
        // bytes: the append finds the tail is not whole, reads the log,
        // and starts it over with what it trusts (j0) and the new frame.
        let cuts = (1..last).map(|cut| full[..full.len() - cut].to_vec());
        let flips = (full.len() - last..full.len()).map(|at| {
            let mut bytes = full.clone();
            bytes[at] ^= 0x01;
            bytes
        });
        for (n, bytes) in cuts.chain(flips).enumerate() {
            fs::write(&path, &bytes).unwrap();
            let mut j = Journal::load(&state);
            j.append(&state, rec("new"), parts()).unwrap();
            let mut j = Journal::load(&state);
            assert_eq!(setting(&mut j, &state, "j0").as_deref(), Some("0"), "{n}");
            assert_eq!(setting(&mut j, &state, "new").as_deref(), Some("1"), "{n}");
            assert_eq!(setting(&mut j, &state, "j1"), None, "{n}");
            fs::write(&path, &full).unwrap();
        }
        // Another version's log, or none: started over too.
        for bytes in [&b"KILNDET1 old"[..], &[]] {
            fs::write(&path, bytes).unwrap();
            let mut j = Journal::load(&state);
            j.append(&state, rec("new"), parts()).unwrap();
            let mut j = Journal::load(&state);
            assert_eq!(setting(&mut j, &state, "new").as_deref(), Some("1"));
        }
        fs::remove_file(&path).unwrap();
        let mut j = Journal::load(&state);
        j.append(&state, rec("new"), parts()).unwrap();
        assert_eq!(
            setting(&mut Journal::load(&state), &state, "new").as_deref(),
            Some("1")
        );
    }

    #[test]
    fn the_details_are_compacted_with_the_journal() {
        let dir = tempfile::tempdir().unwrap();
        let state = Folder::create_out(dir.path()).unwrap();
        drop(journal_of(&state, 4));
        let path = dir.path().join(DETAILS);
        let one = fs::metadata(&path).unwrap().len();
        // Each rebuild of one job appends a frame to both logs; when the
        // journal is compacted, the details are too.
        let mut j = Journal::load(&state);
        for _ in 0..40 {
            j.append(&state, rec("j0"), parts()).unwrap();
            j.compact_if_large(&state).unwrap();
        }
        let size = fs::metadata(&path).unwrap().len();
        assert!(size < one * 6, "{size} bytes against {one} for 4 jobs");
        let mut j = Journal::load(&state);
        assert_eq!(setting(&mut j, &state, "j3").as_deref(), Some("3"));
        assert_eq!(j.details.as_ref().unwrap().entries.len(), 4);
    }

    #[test]
    fn a_flipped_bit_drops_the_record_not_the_build() {
        let dir = tempfile::tempdir().unwrap();
        let state = Folder::create_out(dir.path()).unwrap();
        let mut j = Journal::load(&state);
        j.append(&state, rec("one"), parts()).unwrap();
        drop(j);
        let path = dir.path().join(JOURNAL);
        let mut bytes = fs::read(&path).unwrap();
        let last = bytes.len() - 5;
        bytes[last] ^= 0x10;
        fs::write(&path, &bytes).unwrap();
        assert!(Journal::load(&state).records().is_empty());
    }

    #[test]
    fn plan_summary_round_trips() {
        let dir = tempfile::tempdir().unwrap();
        let state = Folder::create_out(dir.path()).unwrap();
        let plan = PlanSummary {
            manifests: [9; 32],
            jobs: vec![Planned {
                id: "a".into(),
                kind: "pose_cache".into(),
                globs: vec![Glob {
                    pattern: "s/*.glb".into(),
                    matches: vec![RelPath::parse("s/a.glb").unwrap()],
                }],
                manifest: "manifests/m.yaml".into(),
                digest: [4; 32],
                outputs: vec![RelPath::parse("poses/a.ospc").unwrap()],
            }],
        };
        plan.save(&state).unwrap();
        assert_eq!(PlanSummary::load(&state), Some(plan));
        let a = manifests_hash([("m.yaml", "ab")].into_iter());
        assert_ne!(a, manifests_hash([("m.yaml", "a"), ("b", "")].into_iter()));
    }

    #[test]
    fn hash_cache_round_trips() {
        let dir = tempfile::tempdir().unwrap();
        let state = Folder::create_out(dir.path()).unwrap();
        let mut c = HashCache::default();
        let old = FileSig {
            size: 1,
            mtime_ns: 1_000_000_000,
            ctime_ns: 1_000_000_000,
            inode: 5,
        };
        c.remember(&RelPath::parse("a/b").unwrap(), old, [3; 32]);
        c.save(&state).unwrap();
        let back = HashCache::load(&state);
        assert_eq!(back.entries, c.entries);
        assert_eq!(back.entries.len(), 1);
    }
}
