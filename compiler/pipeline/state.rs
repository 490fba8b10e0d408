//! What a build remembers between runs, under `OUT/.kiln/`:
//!
//! - `journal`: one record per finished job (its key, what went into the
//!   key, its outputs with size, SHA-256 and modification time), appended
//!   only after the job's outputs were renamed into place. The last record
//!   of an id wins. Each record is framed with its length and a checksum,
//!   so a torn last record (kiln killed mid-append) is ignored and the job
//!   just rebuilds. Rewritten compactly when a quarter of it is stale.
//! - `files`: the content-hash cache, path -> (size, mtime, inode, BLAKE3),
//!   so a no-op build only stats its inputs. The cache never decides
//!   freshness by itself: a changed stat means re-hashing, and the content
//!   hash decides. Entries for files modified in the last two seconds are
//!   not kept (a write in the same timestamp tick could go unseen).
//! - `manifests`: each manifest's parsed form, by the BLAKE3 of its text,
//!   so an unchanged manifest is not parsed again.
//! - `plan`: the last plan's jobs (id, settings digest, outputs), by the
//!   hash of the manifests it came from, so a no-op build need not plan.
//! - `lock`: held for the whole build (see `engine`).
//!
//! All are in kiln's own state encoding (`wire`), tied to the kiln version
//! that wrote them. Losing or corrupting any of these only costs a rebuild.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Write};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use super::fingerprint::{self, InputHash, KeyParts};
use super::input::{self, ReadError};
use super::out_dir::Folder;
use super::paths::{FileSig, RelPath};
use super::wire::{self, Reader, Writer};

pub const STATE_DIR: &str = ".kiln";
const JOURNAL: &str = "journal";
const FILES: &str = "files";
const MANIFESTS: &str = "manifests";
const JOURNAL_MAGIC: &[u8; 8] = b"KILNJRN1";
const FILES_MAGIC: &[u8; 8] = b"KILNFIL1";
const MANIFESTS_MAGIC: &[u8; 8] = b"KILNMAN1";
const PLAN: &str = "plan";
const PLAN_MAGIC: &[u8; 8] = b"KILNPLN1";
/// The lock file's name.
pub const LOCK: &str = "lock";
/// Every file kiln keeps in its state folder (what `clean` may remove).
pub const STATE_FILES: [&str; 5] = [JOURNAL, FILES, MANIFESTS, PLAN, LOCK];

/// Largest state file kiln reads back: 1 GiB is millions of jobs' records.
/// A larger one is treated as missing (it only costs a rebuild).
pub const MAX_STATE_BYTES: u64 = 1 << 30;

/// path (relative to the root) -> (stat signature, BLAKE3 of the content).
#[derive(Default)]
pub struct HashCache {
    entries: BTreeMap<RelPath, (FileSig, [u8; 32])>,
    changed: bool,
}

impl HashCache {
    /// Loads the cache; a missing or unreadable one is empty.
    pub fn load(state_dir: &Folder) -> HashCache {
        let file = state_dir.read(FILES, MAX_STATE_BYTES).unwrap_or_default();
        let entries = wire::open(FILES_MAGIC, &file)
            .and_then(decode_files)
            .unwrap_or_default();
        HashCache {
            entries,
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
            self.changed |= self.entries.remove(rel).is_some();
            return;
        }
        let old = self.entries.insert(rel.clone(), (sig, hash));
        if old != Some((sig, hash)) {
            self.changed = true;
        }
    }

    /// Writes the cache if it changed.
    pub fn save(&self, state_dir: &Folder) -> io::Result<()> {
        if !self.changed {
            return Ok(());
        }
        let mut w = Writer::default();
        w.var(self.entries.len() as u64);
        for (path, (sig, hash)) in &self.entries {
            w.str(path.as_str());
            w.u64(sig.size);
            w.u64(sig.mtime_ns);
            w.u64(sig.inode);
            w.hash(hash);
        }
        state_dir.write_atomic(FILES, &wire::seal(FILES_MAGIC, &w.buf))?;
        Ok(())
    }
}

fn decode_files(body: &[u8]) -> Option<BTreeMap<RelPath, (FileSig, [u8; 32])>> {
    let mut r = Reader::new(body);
    let n = r.count(58)?;
    let mut entries = BTreeMap::new();
    for _ in 0..n {
        let path = RelPath::parse(r.str()?).ok()?;
        let sig = FileSig {
            size: r.u64()?,
            mtime_ns: r.u64()?,
            inode: r.u64()?,
        };
        entries.insert(path, (sig, r.hash()?));
    }
    r.is_empty().then_some(entries)
}

/// Modified within the last two seconds: the timestamp may not yet tell
/// this version of the file from the next.
fn is_racy(sig: FileSig) -> bool {
    let now_ns = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX));
    now_ns.saturating_sub(sig.mtime_ns) < 2_000_000_000
}

/// Parsed manifests by the BLAKE3 of their text (see `manifest::encode_parsed`).
#[derive(Default)]
pub struct ManifestCache {
    /// Entries from the file not (yet) used by this build.
    unused: BTreeMap<[u8; 32], Vec<u8>>,
    used: BTreeMap<[u8; 32], Vec<u8>>,
    added: bool,
}

impl ManifestCache {
    /// Loads the cache (no lock needed: the file is replaced atomically and
    /// checksummed); a missing or unreadable one is empty.
    pub fn load(state_dir: &Folder) -> ManifestCache {
        let file = state_dir
            .read(MANIFESTS, MAX_STATE_BYTES)
            .unwrap_or_default();
        let unused = wire::open(MANIFESTS_MAGIC, &file)
            .and_then(|body| {
                let mut r = Reader::new(body);
                let n = r.count(33)?;
                let mut entries = BTreeMap::new();
                for _ in 0..n {
                    entries.insert(r.hash()?, r.bytes()?.to_vec());
                }
                r.is_empty().then_some(entries)
            })
            .unwrap_or_default();
        ManifestCache {
            unused,
            ..ManifestCache::default()
        }
    }

    /// The parsed form of the manifest whose text hashes to `text_hash`.
    pub fn get(&mut self, text_hash: &[u8; 32]) -> Option<&[u8]> {
        if let Some(bytes) = self.unused.remove(text_hash) {
            self.used.insert(*text_hash, bytes);
        }
        self.used.get(text_hash).map(Vec::as_slice)
    }

    pub fn put(&mut self, text_hash: [u8; 32], parsed: Vec<u8>) {
        self.used.insert(text_hash, parsed);
        self.added = true;
    }

    /// Keeps the entries this build used, if that differs from the file.
    pub fn save(&self, state_dir: &Folder) -> io::Result<()> {
        if !self.added && self.unused.is_empty() {
            return Ok(());
        }
        let mut w = Writer::default();
        w.var(self.used.len() as u64);
        for (hash, bytes) in &self.used {
            w.hash(hash);
            w.bytes(bytes);
        }
        let sealed = wire::seal(MANIFESTS_MAGIC, &w.buf);
        state_dir.write_atomic(MANIFESTS, &sealed)?;
        Ok(())
    }
}

/// What the freshness check needs of a planned job.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Planned {
    pub id: String,
    pub kind: String,
    pub manifest: String,
    /// `fingerprint::digest` of the job.
    pub digest: [u8; 32],
    /// Relative to the output folder.
    pub outputs: Vec<RelPath>,
}

/// The last plan made from a given set of manifest texts: with it, a build
/// whose manifests are unchanged can decide that every job is fresh without
/// planning at all (see `engine::try_noop`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlanSummary {
    /// `manifests_hash` of the manifests the plan was made from.
    pub manifests: [u8; 32],
    pub jobs: Vec<Planned>,
}

impl PlanSummary {
    pub fn load(state_dir: &Folder) -> Option<PlanSummary> {
        let file = state_dir.read(PLAN, MAX_STATE_BYTES)?;
        let mut r = Reader::new(wire::open(PLAN_MAGIC, &file)?);
        let manifests = r.hash()?;
        let n = r.count(39)?;
        let mut jobs = Vec::with_capacity(n);
        for _ in 0..n {
            let id = r.string()?;
            let kind = r.string()?;
            let manifest = r.string()?;
            let digest = r.hash()?;
            let n_outputs = r.count(2)?;
            let mut outputs = Vec::with_capacity(n_outputs);
            for _ in 0..n_outputs {
                outputs.push(RelPath::parse(r.str()?).ok()?);
            }
            jobs.push(Planned {
                id,
                kind,
                manifest,
                digest,
                outputs,
            });
        }
        r.is_empty().then_some(PlanSummary { manifests, jobs })
    }

    pub fn save(&self, state_dir: &Folder) -> io::Result<()> {
        let mut w = Writer::default();
        w.hash(&self.manifests);
        w.var(self.jobs.len() as u64);
        for j in &self.jobs {
            w.str(&j.id);
            w.str(&j.kind);
            w.str(&j.manifest);
            w.hash(&j.digest);
            w.var(j.outputs.len() as u64);
            for o in &j.outputs {
                w.str(o.as_str());
            }
        }
        state_dir.write_atomic(PLAN, &wire::seal(PLAN_MAGIC, &w.buf))?;
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputRecord {
    /// Relative to the output folder.
    pub path: String,
    pub bytes: u64,
    pub sha256: [u8; 32],
    pub mtime_ns: u64,
}

/// The record of a finished job.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub id: String,
    pub key: [u8; 32],
    /// `KeyParts::digest` of the job as it was built.
    pub digest: [u8; 32],
    /// Every file the job read, in the order read, with its content hash.
    pub inputs: Vec<InputHash>,
    pub outputs: Vec<OutputRecord>,
    /// The job's `KeyParts` in the state encoding, decoded only to explain
    /// a rebuild.
    detail: Vec<u8>,
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
            id,
            key: fingerprint::key(&digest, &inputs),
            digest,
            inputs,
            outputs,
            detail: encode_parts(parts),
        }
    }

    /// What the job was, if the record says so legibly.
    pub fn parts(&self) -> Option<KeyParts> {
        decode_parts(&self.detail)
    }

    fn encode(&self, w: &mut Writer) {
        w.str(&self.id);
        w.hash(&self.key);
        w.hash(&self.digest);
        w.var(self.inputs.len() as u64);
        for (path, hash) in &self.inputs {
            w.str(path.as_str());
            w.hash(hash);
        }
        w.var(self.outputs.len() as u64);
        for o in &self.outputs {
            w.str(&o.path);
            w.u64(o.bytes);
            w.hash(&o.sha256);
            w.u64(o.mtime_ns);
        }
        w.bytes(&self.detail);
    }

    fn decode(r: &mut Reader) -> Option<Record> {
        let id = r.string()?;
        let key = r.hash()?;
        let digest = r.hash()?;
        let n_inputs = r.count(34)?;
        let mut inputs = Vec::with_capacity(n_inputs);
        for _ in 0..n_inputs {
            inputs.push((RelPath::parse(r.str()?).ok()?, r.hash()?));
        }
        let n_outputs = r.count(32)?;
        let mut outputs = Vec::with_capacity(n_outputs);
        for _ in 0..n_outputs {
            outputs.push(OutputRecord {
                path: r.string()?,
                bytes: r.u64()?,
                sha256: r.hash()?,
                mtime_ns: r.u64()?,
            });
        }
        Some(Record {
            id,
            key,
            digest,
            inputs,
            outputs,
            detail: r.bytes()?.to_vec(),
        })
    }

    /// The record framed for the journal: length, checksum, body.
    fn frame(&self) -> Vec<u8> {
        let mut body = Writer::default();
        self.encode(&mut body);
        let mut w = Writer::default();
        w.var(body.buf.len() as u64);
        w.u32(crc32fast::hash(&body.buf));
        w.buf.extend_from_slice(&body.buf);
        w.buf
    }
}

fn encode_parts(parts: &KeyParts) -> Vec<u8> {
    let mut w = Writer::default();
    w.str(&parts.kind);
    w.u32(parts.kind_version);
    w.str(&parts.kiln_version);
    w.var(parts.settings.len() as u64);
    for (name, value) in &parts.settings {
        w.str(name);
        w.str(value);
    }
    w.buf
}

fn decode_parts(bytes: &[u8]) -> Option<KeyParts> {
    let mut r = Reader::new(bytes);
    let kind = r.string()?;
    let kind_version = r.u32()?;
    let kiln_version = r.string()?;
    let n = r.count(3)?;
    let mut settings = Vec::with_capacity(n);
    for _ in 0..n {
        settings.push((r.string()?, r.string()?));
    }
    r.is_empty().then_some(KeyParts {
        kind,
        kind_version,
        kiln_version,
        settings,
    })
}

/// The job records, and the open journal to append to.
pub struct Journal {
    pub records: BTreeMap<String, Record>,
    n_frames: usize,
    /// False when the file is missing, from another kiln version, or ends
    /// in a torn record: the first append then rewrites it whole.
    appendable: bool,
    file: Option<File>,
}

impl Journal {
    /// Loads every record; a torn or corrupt tail is dropped.
    pub fn load(state_dir: &Folder) -> Journal {
        let bytes = state_dir.read(JOURNAL, MAX_STATE_BYTES).unwrap_or_default();
        let mut records = BTreeMap::new();
        let mut n_frames = 0;
        let mut appendable = false;
        let mut r = Reader::new(&bytes);
        let header_ok = r.take_exact(JOURNAL_MAGIC.len()) == Some(JOURNAL_MAGIC.as_slice())
            && r.str() == Some(crate::VERSION);
        if header_ok {
            appendable = true;
            while !r.is_empty() {
                match read_frame(&mut r) {
                    Some(record) => {
                        n_frames += 1;
                        records.insert(record.id.clone(), record);
                    }
                    None => {
                        appendable = false;
                        break;
                    }
                }
            }
        }
        Journal {
            records,
            n_frames,
            appendable,
            file: None,
        }
    }

    /// Appends a record. Call only after the record's outputs are in place.
    pub fn append(&mut self, state_dir: &Folder, record: Record) -> io::Result<()> {
        let frame = record.frame();
        self.records.insert(record.id.clone(), record);
        if !self.appendable {
            // Start over with every record we trust.
            self.file = None;
            self.rewrite(state_dir)?;
            self.appendable = true;
            return Ok(());
        }
        if self.file.is_none() {
            self.file = Some(state_dir.open_append(JOURNAL)?);
        }
        self.file
            .as_mut()
            .expect("opened above")
            .write_all(&frame)?;
        self.n_frames += 1;
        Ok(())
    }

    /// Rewrites the journal with one record per job when a quarter of its
    /// records are superseded.
    pub fn compact_if_large(&mut self, state_dir: &Folder) -> io::Result<()> {
        if self.n_frames <= self.records.len() + self.records.len() / 4 + 16 {
            return Ok(());
        }
        self.file = None;
        self.rewrite(state_dir)
    }

    fn rewrite(&mut self, state_dir: &Folder) -> io::Result<()> {
        let mut w = Writer::default();
        w.buf.extend_from_slice(JOURNAL_MAGIC);
        w.str(crate::VERSION);
        for record in self.records.values() {
            w.buf.extend_from_slice(&record.frame());
        }
        state_dir.write_atomic(JOURNAL, &w.buf)?;
        self.n_frames = self.records.len();
        Ok(())
    }
}

fn read_frame(r: &mut Reader) -> Option<Record> {
    let len = usize::try_from(r.var()?).ok()?;
    let crc = r.u32()?;
    let mut body = Reader::new(r.take_exact(len)?);
    if crc32fast::hash(body.remaining()) != crc {
        return None;
    }
    let record = Record::decode(&mut body)?;
    body.is_empty().then_some(record)
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn rec(id: &str) -> Record {
        let parts = KeyParts {
            kind: "k".into(),
            kind_version: 1,
            kiln_version: "0".into(),
            settings: vec![("a".into(), "1".into())],
        };
        Record::new(
            id.into(),
            &parts,
            vec![(RelPath::parse("s/a.glb").unwrap(), [1; 32])],
            vec![OutputRecord {
                path: "poses/x.ospc".into(),
                bytes: 3,
                sha256: [7; 32],
                mtime_ns: 9,
            }],
        )
    }

    #[test]
    fn torn_journal_record_is_dropped_and_the_next_append_starts_clean() {
        let dir = tempfile::tempdir().unwrap();
        let state = Folder::create_out(dir.path()).unwrap();
        let mut j = Journal::load(&state);
        j.append(&state, rec("one")).unwrap();
        j.append(&state, rec("two")).unwrap();
        drop(j);
        let path = dir.path().join(JOURNAL);
        let full = fs::read(&path).unwrap();
        // Every cut of the last record (a kill mid-append) loses just it.
        let two = rec("two").frame().len();
        for cut in 1..two {
            fs::write(&path, &full[..full.len() - cut]).unwrap();
            let j = Journal::load(&state);
            assert_eq!(j.records.keys().collect::<Vec<_>>(), ["one"], "cut {cut}");
            assert_eq!(j.records["one"], rec("one"));
        }
        let mut j = Journal::load(&state);
        j.append(&state, rec("three")).unwrap();
        let j = Journal::load(&state);
        assert_eq!(j.records.keys().collect::<Vec<_>>(), ["one", "three"]);
        assert_eq!(j.records["one"].parts().unwrap().settings[0].1, "1");
    }

    #[test]
    fn a_flipped_bit_drops_the_record_not_the_build() {
        let dir = tempfile::tempdir().unwrap();
        let state = Folder::create_out(dir.path()).unwrap();
        let mut j = Journal::load(&state);
        j.append(&state, rec("one")).unwrap();
        drop(j);
        let path = dir.path().join(JOURNAL);
        let mut bytes = fs::read(&path).unwrap();
        let last = bytes.len() - 5;
        bytes[last] ^= 0x10;
        fs::write(&path, &bytes).unwrap();
        assert!(Journal::load(&state).records.is_empty());
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
            inode: 5,
        };
        c.remember(&RelPath::parse("a/b").unwrap(), old, [3; 32]);
        c.save(&state).unwrap();
        let back = HashCache::load(&state);
        assert_eq!(back.entries, c.entries);
        assert_eq!(back.entries.len(), 1);
    }
}
