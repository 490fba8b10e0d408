//! Job keys: when is a job's output still right?
//!
//! A job's key is a BLAKE3 hash of, in this order:
//!
//! 1. [`KEY_FORMAT`], a tag bumped if this recipe for keys ever changes;
//! 2. the job kind's name and that kind's own version number (bumped when
//!    the kind's output bytes change for the same inputs);
//! 3. kiln's version;
//! 4. the job's settings (`Job::settings`): every field of the kind's
//!    manifest entry as serialized by serde (defaults applied; a field
//!    cannot be left out, and the test `every_setting_changes_the_key`
//!    walks them all), then the declared outputs and the declared inputs
//!    (glob matches included), each as name and canonical JSON text;
//! 5. every input file the job read last time, declared or discovered, in
//!    the order read: its path relative to the root and the BLAKE3 hash of
//!    its content.
//!
//! Every string is followed by a NUL (strings hold no NUL) and every
//! number is little endian, with list lengths included, so no two different
//! jobs hash the same bytes. Items 1 to 4 are hashed first into the job's
//! **settings digest**; the key hashes the digest and item 5.
//!
//! So a key is found in two steps, which is how a shared cache can look a
//! job up from a fresh clone: the settings digest (known from the
//! manifests and the declared inputs' names alone) names the job's
//! recorded input list; hashing those files gives the full key, which
//! names the outputs. A job whose inputs are all declared needs no record
//! at all to compute its key.
//!
//! Inputs a job **declares** (the files its manifest entry names, and what
//! its globs match, in sorted byte order) are in the digest by name, so a
//! new file matching a glob changes the digest. Inputs it **discovers**
//! while running (a `.gltf` names its buffer files only inside itself) are
//! known only from its record, like cargo's dep-info: the first build
//! records them; later builds re-hash exactly those files.
//!
//! What never goes in: modification times (a touched file with the same
//! content is still fresh), absolute paths (the checkout may move), the
//! manifest positions (moving an entry does not rebuild it),
//! `std::hash::Hash` values (not stable across Rust releases), HashMap
//! iteration order, thread counts, the host name or the time.
//!
//! A fresh job must also find its outputs as it left them: same size and
//! modification time as recorded. A deleted or edited output is rebuilt.

use super::paths::RelPath;
use super::plan::Job;

/// Tag of the key recipe above.
pub const KEY_FORMAT: &str = "kiln-key-v3";

/// What the job is (items 2 to 4 above), kept in the job's record so
/// `--explain` can say which part changed.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct KeyParts {
    pub kind: String,
    pub kind_version: u32,
    pub kiln_version: String,
    pub settings: Vec<(String, String)>,
}

/// An input file and the BLAKE3 hash of its content.
pub type InputHash = (RelPath, [u8; 32]);

impl KeyParts {
    /// What `job` is, as text.
    pub fn of(job: &Job) -> KeyParts {
        KeyParts {
            kind: job.kind().to_string(),
            kind_version: job.kind_version(),
            kiln_version: crate::VERSION.to_string(),
            settings: job.settings(),
        }
    }

    /// The hash of items 1 to 4: equal digests, equal jobs. Equals
    /// [`digest`]`(job)` for the job these parts came from.
    pub fn digest(&self) -> [u8; 32] {
        let mut d = DigestBuf::new(&self.kind, self.kind_version, &self.kiln_version);
        for (name, value) in &self.settings {
            d.setting(name, value);
        }
        d.finish()
    }
}

/// A job's settings digest.
pub fn digest(job: &Job) -> [u8; 32] {
    KeyParts::of(job).digest()
}

/// The bytes of items 1 to 4, hashed once at the end.
struct DigestBuf {
    buf: Vec<u8>,
    n_settings: u64,
}

impl DigestBuf {
    fn new(kind: &str, kind_version: u32, kiln_version: &str) -> DigestBuf {
        let mut d = DigestBuf {
            buf: Vec::with_capacity(512),
            n_settings: 0,
        };
        for text in [KEY_FORMAT, kind, kiln_version] {
            d.buf.extend_from_slice(text.as_bytes());
            d.buf.push(0);
        }
        d.buf.extend_from_slice(&kind_version.to_le_bytes());
        d
    }

    fn setting(&mut self, name: &str, value: &str) {
        for text in [name, value] {
            self.buf.extend_from_slice(text.as_bytes());
            self.buf.push(0);
        }
        self.n_settings += 1;
    }

    fn finish(mut self) -> [u8; 32] {
        self.buf.extend_from_slice(&self.n_settings.to_le_bytes());
        *blake3::hash(&self.buf).as_bytes()
    }
}

/// The job's key: its settings digest, then item 5.
pub fn key(digest: &[u8; 32], inputs: &[InputHash]) -> [u8; 32] {
    let mut buf = Vec::with_capacity(128);
    buf.extend_from_slice(KEY_FORMAT.as_bytes());
    buf.push(0);
    buf.extend_from_slice(digest);
    buf.extend_from_slice(&(inputs.len() as u64).to_le_bytes());
    for (path, hash) in inputs {
        buf.extend_from_slice(path.as_str().as_bytes());
        buf.push(0);
        buf.extend_from_slice(hash);
    }
    *blake3::hash(&buf).as_bytes()
}

/// Why a job is dirty: each part of what it is that differs from its
/// record, in words.
pub fn explain_parts(old: &KeyParts, new: &KeyParts) -> Vec<String> {
    let mut why = Vec::new();
    if old.kiln_version != new.kiln_version {
        why.push(format!(
            "kiln version changed: {} -> {}",
            old.kiln_version, new.kiln_version
        ));
    }
    if old.kind != new.kind || old.kind_version != new.kind_version {
        why.push(format!(
            "job kind changed: {} v{} -> {} v{}",
            old.kind, old.kind_version, new.kind, new.kind_version
        ));
    }
    for (name, value) in &new.settings {
        match old.settings.iter().find(|(n, _)| n == name) {
            Some((_, old_value)) if old_value == value => {}
            Some((_, old_value)) => {
                why.push(format!("setting {name} changed: {old_value} -> {value}"))
            }
            None => why.push(format!("setting {name} is new: {value}")),
        }
    }
    for (name, _) in &old.settings {
        if !new.settings.iter().any(|(n, _)| n == name) {
            why.push(format!("setting {name} was removed"));
        }
    }
    why
}

/// Which inputs changed content since the record.
pub fn explain_inputs(old: &[InputHash], new: &[InputHash]) -> Vec<String> {
    let mut why = Vec::new();
    for (path, hash) in new {
        match old.iter().find(|(p, _)| p == path) {
            Some((_, old_hash)) if old_hash == hash => {}
            Some(_) => why.push(format!("input {path} changed")),
            None => why.push(format!("input {path} is new")),
        }
    }
    why
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::kinds;

    fn job(rate_hz: &str) -> Job {
        let text = format!(
            "pose_caches:\n  - id: a\n    source: s/a.glb\n    animation: Run\n    rate_hz: {rate_hz}\n"
        );
        let sections = kinds::parse_manifest(&text).unwrap();
        let entry = sections.pose_caches[0].value.clone();
        Job {
            id: "a".into(),
            manifest: "m.yaml".into(),
            pos: Default::default(),
            outputs: crate::pipeline::job::Outputs::one(RelPath::parse("poses/a.ospc").unwrap()),
            inputs: vec![RelPath::parse("s/a.glb").unwrap()],
            globs: vec![],
            spec: crate::pipeline::kinds::Spec::PoseCache(Box::new(entry)),
        }
    }

    #[test]
    fn the_digest_depends_on_the_settings_not_the_positions() {
        let j = job("30");
        assert_eq!(digest(&j), KeyParts::of(&j).digest());
        assert_ne!(digest(&j), digest(&job("30.5")));
        assert_eq!(
            digest(&j),
            digest(&job("30.0")),
            "30 and 30.0 are one value"
        );
        let moved = job("    30").clone();
        assert_eq!(digest(&j), digest(&moved));
    }

    #[test]
    fn explain_names_the_changed_setting() {
        let why = explain_parts(&KeyParts::of(&job("30")), &KeyParts::of(&job("24")));
        assert_eq!(why, ["setting rate_hz changed: 30.0 -> 24.0"]);
    }

    #[test]
    fn keys_depend_on_every_input_hash_and_path() {
        let d = digest(&job("30"));
        let p = RelPath::parse("s/a.glb").unwrap();
        let q = RelPath::parse("s/b.glb").unwrap();
        let base = key(&d, &[(p.clone(), [1; 32])]);
        assert_ne!(base, key(&d, &[(p.clone(), [2; 32])]));
        assert_ne!(base, key(&d, &[(q, [1; 32])]));
        assert_ne!(base, key(&d, &[]));
        assert_eq!(base, key(&d, &[(p, [1; 32])]));
    }
}
