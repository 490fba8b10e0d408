//! Job kinds. A job kind is a recipe: named stage functions called in
//! order, plus a version number that goes into its cache key and changes
//! whenever its output bytes would.

pub mod pose_cache;

use super::input;
use super::manifest::Pos;
use super::paths::{FileSig, RelPath, Resolver};

/// Largest input file any job kind reads (each kind passes its own limit
/// to [`JobIo::read`]); hashing an input for freshness stops here.
pub const MAX_INPUT_BYTES: u64 = crate::import::gltf::MAX_FILE_BYTES;

/// One output to build, from one manifest entry.
#[derive(Clone, Debug, PartialEq)]
pub struct Job {
    /// Unique across all manifests; names the output file.
    pub id: String,
    /// The manifest (relative to the root) and the entry's position.
    pub manifest: String,
    pub pos: Pos,
    /// Where each setting was written, for errors found while running.
    pub positions: Vec<(&'static str, Pos)>,
    pub spec: JobSpec,
}

/// What a job does, by kind.
#[derive(Clone, Debug, PartialEq)]
pub enum JobSpec {
    PoseCache(pose_cache::PoseCacheJob),
}

impl Job {
    pub fn kind(&self) -> &'static str {
        match &self.spec {
            JobSpec::PoseCache(_) => pose_cache::KIND,
        }
    }

    /// The kind's version: bumped whenever its output bytes change.
    pub fn kind_version(&self) -> u32 {
        match &self.spec {
            JobSpec::PoseCache(_) => pose_cache::VERSION,
        }
    }

    /// Hands every setting, by name and in canonical text form, to `put`,
    /// in a fixed order. Every output path is among them (so the settings
    /// digest says which files a record's outputs are).
    pub fn settings(&self, put: &mut dyn FnMut(&'static str, std::fmt::Arguments)) {
        match &self.spec {
            JobSpec::PoseCache(j) => pose_cache::settings(j, put),
        }
    }

    /// The files the manifest names for this job (relative to the root).
    pub fn sources(&self) -> Vec<&str> {
        match &self.spec {
            JobSpec::PoseCache(j) => vec![j.source.as_str()],
        }
    }

    /// Paths of the outputs, relative to the output folder.
    pub fn outputs(&self) -> Vec<RelPath> {
        match &self.spec {
            JobSpec::PoseCache(j) => vec![j.output.clone()],
        }
    }

    pub fn run(&self, io: &mut JobIo) -> Result<Vec<Output>, JobError> {
        match &self.spec {
            JobSpec::PoseCache(j) => pose_cache::run(j, io),
        }
    }

    /// Where the manifest wrote `field` (the entry itself if it did not).
    pub fn pos_of(&self, field: Option<&str>) -> Pos {
        field
            .and_then(|f| self.positions.iter().find(|(name, _)| *name == f))
            .map_or(self.pos, |(_, pos)| *pos)
    }
}

/// A finished output's bytes.
pub struct Output {
    pub path: RelPath,
    pub bytes: Vec<u8>,
}

/// Why a job failed, and which manifest setting the problem concerns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobError {
    pub field: Option<&'static str>,
    pub message: String,
}

impl JobError {
    pub fn at(field: &'static str, message: impl Into<String>) -> JobError {
        JobError {
            field: Some(field),
            message: message.into(),
        }
    }
}

/// A file a job read, and the BLAKE3 hash of the bytes it read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputRead {
    pub path: RelPath,
    pub hash: [u8; 32],
    /// The file's stat signature, if it did not change while being read
    /// (then the hash may go into the hash cache).
    pub sig: Option<FileSig>,
}

/// The only way a recipe reads files: paths relative to the project root,
/// checked not to leave it, and every read recorded (with the hash of the
/// bytes actually read) so the next build knows what the job depended on.
pub struct JobIo<'a> {
    resolver: &'a Resolver,
    reads: Vec<InputRead>,
}

impl<'a> JobIo<'a> {
    pub fn new(resolver: &'a Resolver) -> JobIo<'a> {
        JobIo {
            resolver,
            reads: Vec::new(),
        }
    }

    /// Reads a file under the root, of at most `limit` bytes; `field` is
    /// the manifest setting to blame if it cannot be read.
    pub fn read(
        &mut self,
        path: &RelPath,
        field: &'static str,
        limit: u64,
    ) -> Result<Vec<u8>, JobError> {
        let (real, before) = self
            .resolver
            .resolve(path)
            .map_err(|e| JobError::at(field, e))?;
        let read = input::read_regular(&real, limit)
            .map_err(|e| JobError::at(field, format!("{path}: {e}")))?;
        let sig = before.sig;
        self.reads.push(InputRead {
            path: path.clone(),
            hash: *blake3::hash(&read.bytes).as_bytes(),
            sig: (read.unchanged && read.sig == sig).then_some(sig),
        });
        Ok(read.bytes)
    }

    /// Every file read, in the order read.
    pub fn into_reads(self) -> Vec<InputRead> {
        self.reads
    }
}
