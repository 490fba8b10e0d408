//! A build's use of a shared remote cache (issue 28): a dirty job looks
//! for its outputs there before it runs, and a job built here puts them
//! there, over [`super::remote`].
//!
//! A job's key needs the hashes of the files it read, and which files a
//! job reads (a glTF's buffers and images) is known only once it has run.
//! So the lookup has two levels, as Unity Accelerator's "candidates, then
//! match": `ac/<probe>` (the probe a hash of the job's settings digest
//! alone) names one blob, the list of the paths the job read when it was
//! built; kiln hashes those files here, computes the key as a local build
//! would, and `ac/<key>` names the outputs. An entry is used only when its
//! paths are exactly the job's declared outputs (the plan's, never the
//! server's choice) and every blob streams in with its digest's length and
//! SHA-256; the outputs then go through the same commit as built ones.
//! Uploads go blobs first and entries last (bazel-remote answers 404 for an
//! entry whose blobs are missing), the key's entry before the probe's.

use std::collections::BTreeSet;
use std::io::Write;

use sha2::{Digest as _, Sha256};

use super::fingerprint::{self, InputHash};
use super::job::{self, JobIo};
use super::out_dir::OutTree;
use super::paths::{RelPath, Resolver};
use super::plan::Job;
use super::remote::{self, Remote};
use super::state::{HashCache, OutputRecord};
use crate::formats::action_result::{self, ActionResult, Digest, OutputFile};

/// The largest list of a job's inputs kiln reads from a cache: 16 MiB.
pub const MAX_INPUT_LIST_BYTES: u64 = 16 << 20;
/// The name the input list has in its action result.
const INPUT_LIST: &str = "kiln-inputs";
/// The name, beside a job's outputs in its entry, of what the job said
/// when it was built (its warnings and notes, JSON), shown again when it
/// is restored, as when it is fresh.
const MESSAGES: &str = "kiln-messages";
/// The largest such blob kiln reads: 1 MiB.
pub const MAX_MESSAGES_BYTES: u64 = 1 << 20;

/// A job's warnings and notes.
pub type Messages = (Vec<String>, Vec<String>);
/// Outputs of at most this many bytes also travel inside their entry
/// (`OutputFile.contents`), so a job of small outputs is restored with its
/// two entries alone; each is still stored as a blob too, for a server
/// that drops inlined bytes, and inlined bytes are used only when they are
/// their digest's.
pub const INLINE_BYTES: u64 = 64 << 10;
/// The most bytes one entry inlines in all.
pub const MAX_INLINE_BYTES: u64 = 1 << 20;

/// Writes the bytes of `f` to `to`: its inlined contents when they are its
/// digest's, else its blob; `false` when the server lacks the blob.
fn fetch(cache: &Cache, f: &OutputFile, to: &mut dyn Write) -> Result<bool, Error> {
    let inline_ok = f.contents.len() as u64 == f.digest.size
        && <[u8; 32]>::from(Sha256::digest(&f.contents)) == f.digest.sha256;
    if inline_ok {
        to.write_all(&f.contents)
            .map_err(|err| format!("{}: {err}", f.path))?;
        return Ok(true);
    }
    cache
        .remote
        .get_blob(&f.digest, to)
        .map_err(|err| err.to_string())
}

/// An entry's file for `bytes` under `path`, inlined when small.
fn entry_file(path: &str, digest: Digest, bytes: Option<&[u8]>) -> OutputFile {
    OutputFile {
        path: path.into(),
        digest,
        is_executable: false,
        contents: bytes
            .filter(|b| b.len() as u64 <= INLINE_BYTES)
            .map(<[u8]>::to_vec)
            .unwrap_or_default(),
    }
}

/// What the remote cache did for one dirty job (the build report's
/// `remote_cache`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Use {
    pub lookup: Lookup,
    pub store: Store,
}

/// A job's lookup in the remote cache.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lookup {
    /// Its kind is rebuilt, not shared ([`REBUILT_NOT_DOWNLOADED`], without
    /// `--remote-cache-conversions`).
    #[default]
    NotShared,
    /// Its outputs were restored from the cache.
    Hit,
    /// The cache does not hold it (or lacks a blob, or an input it names).
    Miss,
    /// The lookup failed or an entry was refused (a warning; built here).
    Error,
    /// In `--remote-cache-verify`'s sample: built here and compared.
    Sampled,
}

/// Storing a job built here.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Store {
    /// Not tried: read-only, restored, sampled, not shared, or the job
    /// failed first.
    #[default]
    None,
    Stored,
    /// The server refused or failed (a warning).
    Error,
}

impl Lookup {
    pub fn as_str(self) -> &'static str {
        match self {
            Lookup::NotShared => "not_shared",
            Lookup::Hit => "hit",
            Lookup::Miss => "miss",
            Lookup::Error => "error",
            Lookup::Sampled => "sampled",
        }
    }
}

impl Store {
    pub fn as_str(self) -> &'static str {
        match self {
            Store::None => "none",
            Store::Stored => "stored",
            Store::Error => "error",
        }
    }
}

/// A build's remote cache and how to use it.
pub struct Cache {
    pub remote: Remote,
    /// Look up, never store (developers read; CI writes).
    pub read_only: bool,
    /// Percent of the jobs (a fixed sample, by their settings) built here
    /// even when the cache holds them, and compared with its entry.
    pub verify_percent: u8,
    /// Kinds on [`REBUILT_NOT_DOWNLOADED`] are shared too.
    pub share_conversions: bool,
}

impl Cache {
    /// Whether jobs of `kind` go through this cache.
    pub fn shares(&self, kind: &str) -> bool {
        self.share_conversions || worth_sharing(kind)
    }
}

/// Whether the job of settings digest `digest` is in the sample that
/// `--remote-cache-verify` builds and compares: the same jobs every run.
pub fn sampled(digest: &[u8; 32], percent: u8) -> bool {
    u32::from(u16::from_le_bytes([digest[0], digest[1]])) * 100 < u32::from(percent) * 65_536
}

/// `--remote-cache-verify`: the cache's entry for a job built here (at the
/// key its inputs give) against what was built; an error naming each
/// output whose bytes differ. No entry: nothing to compare.
pub fn verify(
    cache: &Cache,
    job: &Job,
    digest: &[u8; 32],
    inputs: &[InputHash],
    built: &[(RelPath, u64, [u8; 32])],
) -> Result<bool, Error> {
    let key = fingerprint::key(digest, inputs);
    let Some(entry) = cache.remote.get_action(&key).map_err(|e| e.to_string())? else {
        return Ok(false);
    };
    let mut differ = Vec::new();
    for (path, bytes, sha) in built {
        match entry.output_files.iter().find(|f| f.path == path.as_str()) {
            Some(f) if (f.digest.size, f.digest.sha256) == (*bytes, *sha) => {}
            Some(f) => differ.push(format!(
                "{path}: the cache holds {} bytes, SHA-256 {}; built here {bytes} bytes, SHA-256 {}",
                f.digest.size,
                crate::formats::hex(&f.digest.sha256),
                crate::formats::hex(sha)
            )),
            None => differ.push(format!("{path}: not in the cache's entry")),
        }
    }
    match differ.is_empty() {
        true => Ok(true),
        false => Err(format!(
            "job {:?} built here differs from the cache's entry (a nondeterministic build, or a poisoned cache): {}",
            job.id,
            differ.join("; ")
        )),
    }
}

/// Kinds whose jobs are rebuilt rather than downloaded: a conversion
/// streams its checkpoint, which is already on this machine, at about
/// 1 GB/s (the 778 MB MotionBricks extraction converts in 0.81–0.88 s
/// here, BENCHMARKS.md), where a 1 Gbit/s network brings its 733 MB
/// bundle in about 6 s, and even nginx on loopback in 1.99 s against a
/// 1.18 s conversion (BENCHMARKS.md, "The bundle, measured"); storing it
/// would also double the cache's bytes for nothing. `--remote-cache-
/// conversions` shares them all the same. Every other kind compiles at tens of MB/s of output (the
/// demo's forest level: 1.9 MB in 116 ms), slower than a download.
pub const REBUILT_NOT_DOWNLOADED: &[&str] = &[super::kinds::model_bundle::KIND];

/// Whether jobs of `kind` go through the remote cache by default
/// (`--remote-cache-conversions` shares every kind).
pub fn worth_sharing(kind: &str) -> bool {
    !REBUILT_NOT_DOWNLOADED.contains(&kind)
}

/// The probe of a job: where its input list is stored.
pub fn probe(digest: &[u8; 32]) -> [u8; 32] {
    let mut h = blake3::Hasher::new();
    h.update(b"kiln.remote.inputs.v1\0");
    h.update(digest);
    *h.finalize().as_bytes()
}

/// Why a lookup or a store did not happen: the cache's error, for a
/// warning (or a failure under `--remote-cache-strict`).
pub type Error = String;

/// Looks `job` up; on a hit, its outputs are written through `io` (staged
/// for the commit, each checked against its digest) and the job's inputs
/// (as a local build would record them) and messages returned.
pub fn restore(
    cache: &Cache,
    job: &Job,
    digest: &[u8; 32],
    io: &mut JobIo,
    resolver: &Resolver,
    hashes: &std::sync::Mutex<&mut HashCache>,
) -> Result<Option<(Vec<InputHash>, Messages)>, Error> {
    let e = |err: remote::Error| err.to_string();
    let Some(list_entry) = cache.remote.get_action(&probe(digest)).map_err(e)? else {
        return Ok(None);
    };
    let [file] = &list_entry.output_files[..] else {
        return Err(format!(
            "the input list of job {:?} names {} files, not one",
            job.id,
            list_entry.output_files.len()
        ));
    };
    if file.path != INPUT_LIST || file.digest.size > MAX_INPUT_LIST_BYTES {
        return Err(format!(
            "the input list of job {:?} is {:?} of {} bytes, not {INPUT_LIST} of at most {MAX_INPUT_LIST_BYTES}",
            job.id, file.path, file.digest.size
        ));
    }
    let mut list = Vec::new();
    if !fetch(cache, file, &mut list)? {
        return Ok(None);
    }
    let text = std::str::from_utf8(&list)
        .map_err(|_| format!("the input list of job {:?} is not UTF-8", job.id))?;
    let mut inputs: Vec<InputHash> = Vec::new();
    for line in text.lines() {
        let path =
            RelPath::parse(line).map_err(|m| format!("the input list of job {:?}: {m}", job.id))?;
        // A file missing here, or refused, is a miss: a local build
        // reports it.
        let Ok((real, stat)) = resolver.resolve(&path) else {
            return Ok(None);
        };
        let hash = hashes.lock().expect("no panics while held").hash(
            &path,
            &real,
            stat.sig,
            job::MAX_INPUT_BYTES,
        );
        let Ok(hash) = hash else {
            return Ok(None);
        };
        inputs.push((path, hash));
    }
    let key = fingerprint::key(digest, &inputs);
    let Some(result) = cache.remote.get_action(&key).map_err(e)? else {
        return Ok(None);
    };
    if let Some(problem) = action_result::validate(&result).into_iter().next() {
        return Err(format!("the entry of job {:?}: {problem}", job.id));
    }
    let mut messages = Messages::default();
    if let Some(m) = result.output_files.iter().find(|f| f.path == MESSAGES) {
        if m.digest.size > MAX_MESSAGES_BYTES {
            return Err(format!(
                "the messages of job {:?} are {} bytes, more than {MAX_MESSAGES_BYTES}",
                job.id, m.digest.size
            ));
        }
        let mut bytes = Vec::new();
        if !fetch(cache, m, &mut bytes)? {
            return Ok(None);
        }
        messages = serde_json::from_slice(&bytes)
            .map_err(|err| format!("the messages of job {:?}: {err}", job.id))?;
    }
    let files: Vec<&OutputFile> = result
        .output_files
        .iter()
        .filter(|f| f.path != MESSAGES)
        .collect();
    let named: BTreeSet<&str> = files.iter().map(|f| f.path.as_str()).collect();
    let declared: BTreeSet<&str> = job.outputs.files.iter().map(RelPath::as_str).collect();
    if named != declared || named.len() != files.len() {
        return Err(format!(
            "the entry of job {:?} names {:?}, not its outputs {:?}",
            job.id, named, declared
        ));
    }
    for path in &job.outputs.files {
        let f = files
            .iter()
            .find(|f| f.path == path.as_str())
            .expect("the same set");
        let mut out = io.create(path).map_err(|m| m.message)?;
        let found = fetch(cache, f, &mut out)?;
        out.flush().map_err(|err| format!("{path}: {err}"))?;
        let (bytes, sha) = io.close(out).map_err(|m| m.message)?;
        if !found {
            return Ok(None);
        }
        if (bytes, sha) != (f.digest.size, f.digest.sha256) {
            return Err(format!(
                "{path}: the restored bytes are not the entry's digest"
            ));
        }
    }
    Ok(Some((inputs, messages)))
}

/// Stores a built job: its outputs' bytes (and its messages, if any), the
/// input list, the key's entry, then the probe's.
pub fn upload(
    cache: &Cache,
    tree: &OutTree,
    digest: &[u8; 32],
    inputs: &[InputHash],
    outputs: &[OutputRecord],
    messages: &Messages,
) -> Result<(), Error> {
    let e = |err: remote::Error| err.to_string();
    let mut files = Vec::with_capacity(outputs.len());
    let mut inlined = 0u64;
    for o in outputs {
        let d = Digest {
            sha256: o.sha256,
            size: o.bytes,
        };
        let unreadable = || format!("{}: could not be read back to store it", o.path);
        let (folder, name) = tree
            .open_folder_of(&o.path)
            .ok()
            .flatten()
            .ok_or_else(unreadable)?;
        if o.bytes <= INLINE_BYTES && inlined + o.bytes <= MAX_INLINE_BYTES {
            let bytes = folder
                .read(name, o.bytes)
                .filter(|b| b.len() as u64 == o.bytes)
                .ok_or_else(unreadable)?;
            cache.remote.put_blob(&d, &mut &bytes[..]).map_err(e)?;
            inlined += o.bytes;
            files.push(entry_file(o.path.as_str(), d, Some(&bytes)));
        } else {
            let file = folder.open_read(name, o.bytes).ok_or_else(unreadable)?;
            cache.remote.put_blob(&d, &mut (&file)).map_err(e)?;
            files.push(entry_file(o.path.as_str(), d, None));
        }
    }
    if !messages.0.is_empty() || !messages.1.is_empty() {
        let json = serde_json::to_vec(messages).expect("strings serialize");
        let d = Digest {
            sha256: Sha256::digest(&json).into(),
            size: json.len() as u64,
        };
        cache.remote.put_blob(&d, &mut &json[..]).map_err(e)?;
        files.push(entry_file(MESSAGES, d, Some(&json)));
    }
    let list: String = inputs.iter().map(|(p, _)| format!("{p}\n")).collect();
    let list_digest = Digest {
        sha256: Sha256::digest(list.as_bytes()).into(),
        size: list.len() as u64,
    };
    cache
        .remote
        .put_blob(&list_digest, &mut list.as_bytes())
        .map_err(e)?;
    let key = fingerprint::key(digest, inputs);
    cache
        .remote
        .put_action(
            &key,
            &ActionResult {
                output_files: files,
                exit_code: 0,
            },
        )
        .map_err(e)?;
    let probe_entry = ActionResult {
        output_files: vec![entry_file(INPUT_LIST, list_digest, Some(list.as_bytes()))],
        exit_code: 0,
    };
    cache
        .remote
        .put_action(&probe(digest), &probe_entry)
        .map_err(e)
}
