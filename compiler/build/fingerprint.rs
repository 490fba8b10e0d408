//! Job keys: when is a job's output still right?
//!
//! A job's key is a BLAKE3 hash of, in this order:
//!
//! 1. [`KEY_FORMAT`], a tag bumped if this recipe for keys ever changes;
//! 2. the job kind's name and that kind's own version number (bumped when
//!    the kind's output bytes change for the same inputs);
//! 3. kiln's version;
//! 4. the job's settings, name and canonical text, in the kind's fixed
//!    order (this includes the source and output paths, relative to the
//!    project root and the output folder);
//! 5. every input file the job read last time, in the order it read them:
//!    its path relative to the root and the BLAKE3 hash of its content.
//!
//! Every string is followed by a NUL and every number is little endian, so
//! no two different lists hash the same bytes.
//!
//! What never goes in: modification times (a touched file with the same
//! content is still fresh), absolute paths (the checkout may move),
//! `std::hash::Hash` values (not stable across Rust releases), HashMap
//! iteration order, thread counts, the host name or the time.
//!
//! The inputs of item 5 are discovered by running the job (a `.gltf` names
//! its buffer files only inside itself), like cargo's dep-info: the first
//! build records them; later builds re-hash exactly those files. A job
//! whose settings changed is dirty anyway, whatever it read.
//!
//! A fresh job must also find its outputs as it left them: same size and
//! modification time as recorded. A deleted or edited output is rebuilt.

use super::jobs::Job;
use super::paths::RelPath;

/// Tag of the key recipe above.
pub const KEY_FORMAT: &str = "kiln-key-v1";

/// What went into a key, kept in the job's record so `--explain` can say
/// which part changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyParts {
    pub kind: String,
    pub kind_version: u32,
    pub kiln_version: String,
    pub settings: Vec<(String, String)>,
    pub inputs: Vec<(RelPath, [u8; 32])>,
}

impl KeyParts {
    /// The parts of `job`'s key, given the inputs and their hashes.
    pub fn of(job: &Job, inputs: Vec<(RelPath, [u8; 32])>) -> KeyParts {
        KeyParts {
            kind: job.kind().to_string(),
            kind_version: job.kind_version(),
            kiln_version: crate::VERSION.to_string(),
            settings: job
                .settings()
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
            inputs,
        }
    }

    pub fn key(&self) -> [u8; 32] {
        let mut h = blake3::Hasher::new();
        text_into(&mut h, KEY_FORMAT);
        text_into(&mut h, &self.kind);
        h.update(&self.kind_version.to_le_bytes());
        text_into(&mut h, &self.kiln_version);
        h.update(&(self.settings.len() as u64).to_le_bytes());
        for (name, value) in &self.settings {
            text_into(&mut h, name);
            text_into(&mut h, value);
        }
        h.update(&(self.inputs.len() as u64).to_le_bytes());
        for (path, hash) in &self.inputs {
            text_into(&mut h, path.as_str());
            h.update(hash);
        }
        *h.finalize().as_bytes()
    }
}

fn text_into(h: &mut blake3::Hasher, s: &str) {
    h.update(s.as_bytes());
    h.update(b"\0");
}

/// Why a job is dirty: each part of the key that differs from its record,
/// in words.
pub fn explain(old: &KeyParts, new: &KeyParts) -> Vec<String> {
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
    for (path, hash) in &new.inputs {
        match old.inputs.iter().find(|(p, _)| p == path) {
            Some((_, old_hash)) if old_hash == hash => {}
            Some(_) => why.push(format!("input {path} changed")),
            None => why.push(format!("input {path} is new")),
        }
    }
    why
}
