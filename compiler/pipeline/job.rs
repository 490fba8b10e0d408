//! A planned job, and `JobIo`: the only way a kind's run reads a file or
//! writes an output.
//!
//! Inputs stream: [`JobIo::open`] gives an [`InputFile`] that hashes the
//! file (BLAKE3) as it is read, in order, exactly once, and can also be
//! read at any offset (a byte range before the hashed point is read again,
//! one past it is hashed on the way). [`JobIo::finish`] hashes whatever the
//! job did not read and records the file, with its hash, for the job's key.
//! A file that changes while it is read fails the job.
//!
//! Outputs stream too: [`JobIo::create`] gives an [`OutputFile`] onto a
//! temporary file beside the output's final place, hashed (SHA-256, what
//! an output is known by) as it is written, a large output on a helper
//! thread beside the job ([`super::output_hash`]). Nothing is renamed
//! here: the engine commits the whole set once the run has succeeded (see
//! `engine::commit`), or discards it.

use std::any::Any;
use std::fs::File;
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use sha2::{Digest, Sha256};

use super::input::{self, ReadError};
use super::manifest::Pos;
pub use super::memo::{MAX_MEMO_BYTES, Memo};
use super::out_dir::{Folder, OutTree};
use super::output_hash::OutputHash;
use super::paths::{FileSig, RelPath, Resolver};

/// Largest input file any job kind reads (each kind passes its own limit
/// to [`JobIo::open`]); hashing an input for freshness stops here.
pub const MAX_INPUT_BYTES: u64 = 1 << 40;

/// Bytes an output is buffered by before they go to its file.
const WRITE_BUFFER_BYTES: usize = 1 << 20;
/// Bytes hashed at a time when an input is read past, or finished.
const HASH_BUFFER_BYTES: usize = 1 << 20;

/// A declared glob and the files it matched, in sorted byte order.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Glob {
    pub pattern: String,
    pub matches: Vec<RelPath>,
}

/// The outputs a job declares at plan time, relative to the output folder.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Outputs {
    /// Every file the run must write, in a fixed order.
    pub files: Vec<RelPath>,
    /// The index among `files` (`manifest.json`, `level.json`): committed
    /// last, and removed first, so whenever it is present it describes
    /// exactly the files beside it.
    pub index: Option<RelPath>,
}

impl Outputs {
    /// One output file, no index.
    pub fn one(file: RelPath) -> Outputs {
        Outputs {
            files: vec![file],
            index: None,
        }
    }
}

/// Why a job failed, and where in the manifest the problem was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobError {
    /// The setting's position (0:0: the entry itself).
    pub pos: Pos,
    pub message: String,
    /// The job did not fail: the build was asked to stop ([`Stop`]).
    pub interrupted: bool,
}

impl JobError {
    /// An error about the setting written at `pos` (a field's `At::pos`).
    pub fn at(pos: Pos, message: impl Into<String>) -> JobError {
        JobError {
            pos,
            message: message.into(),
            interrupted: false,
        }
    }

    /// The run stopped because the build was asked to stop.
    pub fn interrupted() -> JobError {
        JobError {
            interrupted: true,
            ..JobError::job("interrupted")
        }
    }

    /// An error about the job as a whole.
    pub fn job(message: impl Into<String>) -> JobError {
        JobError::at(Pos::default(), message)
    }
}

/// A file a job read, and the BLAKE3 hash of its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputRead {
    pub path: RelPath,
    pub hash: [u8; 32],
    /// The file's stat signature (it held still while read), for the hash
    /// cache.
    pub sig: FileSig,
}

/// An output written to its temporary file, waiting to be committed.
pub struct Staged {
    pub path: RelPath,
    /// The folder it goes in and its name there.
    pub folder: Arc<Folder>,
    pub name: String,
    pub bytes: u64,
    pub sha256: [u8; 32],
}

/// Progress of a long job: how much is done of the total, in `Unit`s.
pub type Progress<'a> = &'a (dyn Fn(u64, u64, Unit) + Sync);

/// What a job's progress counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Bytes of its input converted.
    Bytes,
    /// Steps of its own (frames encoded, say).
    Steps,
}

/// A request to stop a build, made from outside it (the CLI's signal
/// handlers store into [`Stop::flag`]): 0 while none, else the exit
/// status the requester wants (the pipeline only tests for non-zero). A
/// running job sees it at its next progress report, input opened or
/// output created, and stops as if it had failed; its temporary files are
/// removed and nothing of it is committed.
#[derive(Clone, Debug, Default)]
pub struct Stop(Arc<AtomicUsize>);

impl Stop {
    /// The shared word a signal handler sets.
    pub fn flag(&self) -> Arc<AtomicUsize> {
        self.0.clone()
    }

    /// The status asked for, once a stop was requested.
    pub fn requested(&self) -> Option<usize> {
        match self.0.load(Ordering::SeqCst) {
            0 => None,
            status => Some(status),
        }
    }

    /// `Err(JobError::interrupted())` once a stop was requested.
    pub fn check(&self) -> Result<(), JobError> {
        match self.requested() {
            None => Ok(()),
            Some(_) => Err(JobError::interrupted()),
        }
    }
}

/// What a job reads and writes, through the engine.
pub struct JobIo<'a> {
    resolver: &'a Resolver,
    tree: &'a OutTree,
    outputs: &'a Outputs,
    globs: &'a [Glob],
    progress: Option<Progress<'a>>,
    stop: Option<&'a Stop>,
    /// The most bytes the job's outputs may hold together.
    output_budget: u64,
    /// Bytes of the outputs closed so far.
    closed_bytes: u64,
    /// The output folder's real path: no input may resolve into it.
    out_real: Option<std::path::PathBuf>,
    warnings: Vec<String>,
    notes: Vec<String>,
    reads: Vec<InputRead>,
    /// Inputs opened and not yet finished.
    open_inputs: usize,
    /// Temporary files created, closed or not (to discard on failure).
    created: Vec<(Arc<Folder>, String, RelPath)>,
    staged: Vec<Staged>,
    memo: Option<&'a Memo>,
}

impl<'a> JobIo<'a> {
    pub fn new(resolver: &'a Resolver, tree: &'a OutTree, outputs: &'a Outputs) -> JobIo<'a> {
        JobIo {
            resolver,
            tree,
            outputs,
            globs: &[],
            progress: None,
            stop: None,
            output_budget: u64::MAX,
            closed_bytes: 0,
            out_real: tree.root().path().canonicalize().ok(),
            warnings: Vec::new(),
            notes: Vec::new(),
            reads: Vec::new(),
            open_inputs: 0,
            created: Vec::new(),
            staged: Vec::new(),
            memo: None,
        }
    }

    /// The same, for a planned job (its outputs, and its globs' matches),
    /// with where to report progress and the build's stop request.
    pub fn for_job(
        resolver: &'a Resolver,
        tree: &'a OutTree,
        (outputs, globs): (&'a Outputs, &'a [Glob]),
        progress: Option<Progress<'a>>,
        stop: Option<&'a Stop>,
    ) -> JobIo<'a> {
        let mut io = JobIo::new(resolver, tree, outputs);
        io.globs = globs;
        io.progress = progress;
        io.stop = stop;
        io
    }

    /// Sets the most bytes the job's outputs may hold together (the
    /// build's `--max-output-bytes`); `None`: no budget.
    pub fn set_output_budget(&mut self, bytes: Option<u64>) {
        self.output_budget = bytes.unwrap_or(u64::MAX);
    }

    /// The bytes the job may still write (all its outputs together).
    pub fn output_budget_left(&self) -> u64 {
        self.output_budget.saturating_sub(self.closed_bytes)
    }

    /// `Err` naming the budget when `bytes` more would pass it: for a job
    /// that knows its outputs' size before it makes them.
    pub fn check_budget(&self, bytes: u64, pos: Pos) -> Result<(), JobError> {
        match bytes > self.output_budget_left() {
            true => Err(JobError::at(
                pos,
                format!(
                    "the job would write up to {bytes} bytes, more than the {} bytes --max-output-bytes allows a job",
                    self.output_budget
                ),
            )),
            false => Ok(()),
        }
    }

    /// Lets the job use and keep parts in `memo`.
    pub fn set_memo(&mut self, memo: &'a Memo) {
        self.memo = Some(memo);
    }

    /// The hash of `path` as this job read it (its first read).
    pub fn read_hash(&self, path: &RelPath) -> Option<[u8; 32]> {
        self.reads.iter().find(|r| r.path == *path).map(|r| r.hash)
    }

    /// A mark of the files read so far, for [`JobIo::memo_put`] and
    /// [`JobIo::read_since`].
    pub fn reads_mark(&self) -> usize {
        self.reads.len()
    }

    /// The files read since `mark`.
    pub fn read_since(&self, mark: usize) -> Vec<RelPath> {
        self.reads
            .iter()
            .skip(mark)
            .map(|r| r.path.clone())
            .collect()
    }

    /// The part kept under `key`, when every file it was made from reads
    /// the same now (each read again and recorded, `pos` naming it in an
    /// error); `None` when there is none, a file differs or cannot be read
    /// (the job then makes the part, reading them the ordinary way). A
    /// file that changes while it is read again fails the job, as it would
    /// when read to make the part.
    pub fn memo_get<T: Any + Send + Sync>(
        &mut self,
        key: &[u8; 32],
        pos: Pos,
    ) -> Result<Option<Arc<T>>, JobError> {
        let Some(memo) = self.memo else {
            return Ok(None);
        };
        let Some((reads, value)) = memo.find(key) else {
            return Ok(None);
        };
        let Ok(value) = value.downcast::<T>() else {
            return Ok(None);
        };
        for (path, len, hash) in reads {
            let Ok(input) = self.open(&path, pos, len) else {
                return Ok(None);
            };
            if input.len != len {
                self.open_inputs -= 1;
                return Ok(None);
            }
            self.finish(input)?;
            if self.reads.last().map(|r| r.hash) != Some(hash) {
                return Ok(None);
            }
        }
        memo.hit();
        Ok(Some(value))
    }

    /// Keeps `value` under `key` (taking `bytes`), made from the files this
    /// job read since `mark` and `also` (paths it read before the mark).
    pub fn memo_put<T: Any + Send + Sync>(
        &self,
        key: [u8; 32],
        (mark, also): (usize, &[RelPath]),
        value: Arc<T>,
        bytes: usize,
    ) {
        let Some(memo) = self.memo.filter(|m| m.keeps(bytes)) else {
            return;
        };
        let mut reads: Vec<(RelPath, u64, [u8; 32])> = Vec::new();
        let earlier = also
            .iter()
            .filter_map(|p| self.reads.iter().find(|r| r.path == *p));
        for r in earlier.chain(self.reads.iter().skip(mark)) {
            if !reads.iter().any(|(p, _, _)| *p == r.path) {
                reads.push((r.path.clone(), r.sig.size, r.hash));
            }
        }
        memo.keep(key, reads, value, bytes);
    }

    /// `Err` (an interruption) once the build was asked to stop.
    pub fn check_stop(&self) -> Result<(), JobError> {
        self.stop.map_or(Ok(()), Stop::check)
    }

    /// What the glob `pattern` matched when the job was planned (sorted).
    pub fn glob_matches(&self, pattern: &str) -> &[RelPath] {
        self.globs
            .iter()
            .find(|g| g.pattern == pattern)
            .map_or(&[], |g| g.matches.as_slice())
    }

    /// Reports progress (`done` of `total`, in `unit`s), for a terminal or
    /// a log; `Err` (an interruption) once the build was asked to stop, for
    /// the job to return at once.
    pub fn progress(&self, done: u64, total: u64, unit: Unit) -> Result<(), JobError> {
        if let Some(report) = self.progress {
            report(done, total, unit);
        }
        self.check_stop()
    }

    /// A warning for the build's report (the job still succeeds).
    pub fn warn(&mut self, message: impl Into<String>) {
        self.warnings.push(message.into());
    }

    /// A measure of what the job built, for the build's report (a fit's
    /// residual, say): not a problem, shown when the job runs.
    pub fn note(&mut self, message: impl Into<String>) {
        self.notes.push(message.into());
    }

    /// The warnings and the notes so far.
    pub fn take_messages(&mut self) -> (Vec<String>, Vec<String>) {
        (
            std::mem::take(&mut self.warnings),
            std::mem::take(&mut self.notes),
        )
    }

    /// Opens a file under the root (a regular file of at most `limit`
    /// bytes); `pos` is the setting that named it.
    pub fn open(&mut self, path: &RelPath, pos: Pos, limit: u64) -> Result<InputFile, JobError> {
        self.check_stop()?;
        let (real, _) = self
            .resolver
            .resolve(path)
            .map_err(|e| JobError::at(pos, e))?;
        if let Some(out) = &self.out_real
            && real.starts_with(out)
        {
            return Err(JobError::at(
                pos,
                format!(
                    "{path} resolves (through a link) into the output folder {}; a job may not read what kiln writes: name the source itself",
                    out.display()
                ),
            ));
        }
        let fail = |e: ReadError| JobError::at(pos, format!("{path}: {e}"));
        let (file, meta) = input::open_regular(&real, limit).map_err(fail)?;
        self.open_inputs += 1;
        Ok(InputFile {
            path: path.clone(),
            pos,
            file,
            len: meta.len(),
            sig: FileSig::of(&meta),
            hasher: blake3::Hasher::new(),
            hashed: 0,
        })
    }

    /// Hashes the rest of `input`, checks that it held still while read,
    /// and records it as an input of the job.
    pub fn finish(&mut self, mut input: InputFile) -> Result<(), JobError> {
        input.hash_to(input.len)?;
        let after = input.file.metadata().map(|m| FileSig::of(&m));
        if after.ok() != Some(input.sig) {
            return Err(JobError::at(
                input.pos,
                format!(
                    "{} changed while kiln read it; build again once it is written",
                    input.path
                ),
            ));
        }
        self.open_inputs -= 1;
        self.reads.push(InputRead {
            path: input.path,
            hash: *input.hasher.finalize().as_bytes(),
            sig: input.sig,
        });
        Ok(())
    }

    /// The whole of a file under the root of at most `limit` bytes, read
    /// and recorded.
    pub fn read(&mut self, path: &RelPath, pos: Pos, limit: u64) -> Result<Vec<u8>, JobError> {
        let mut input = self.open(path, pos, limit)?;
        let bytes = input.read_all()?;
        self.finish(input)?;
        Ok(bytes)
    }

    /// Creates the output `path` (one the job declared, once), as a
    /// temporary file beside its final place.
    pub fn create(&mut self, path: &RelPath) -> Result<OutputFile, JobError> {
        self.check_stop()?;
        if !self.outputs.files.contains(path) {
            return Err(JobError::job(format!(
                "the job writes {path}, which it did not declare (a bug in kiln)"
            )));
        }
        if self.created.iter().any(|(_, _, p)| p == path) {
            return Err(JobError::job(format!(
                "the job writes {path} twice (a bug in kiln)"
            )));
        }
        let io_error = |e: io::Error| JobError::job(format!("{path}: {e}"));
        let (folder, name) = self.tree.create_folder_of(path).map_err(io_error)?;
        let file = folder.create_temp(name).map_err(io_error)?;
        self.created
            .push((folder.clone(), name.to_string(), path.clone()));
        Ok(OutputFile {
            path: path.clone(),
            folder,
            name: name.to_string(),
            file: BufWriter::with_capacity(WRITE_BUFFER_BYTES, file),
            sha256: OutputHash::new(OutputHash::may_go_beside()),
            bytes: 0,
            limit: self.output_budget_left(),
        })
    }

    /// Flushes `output` and stages it for the commit; its size and
    /// SHA-256.
    pub fn close(&mut self, output: OutputFile) -> Result<(u64, [u8; 32]), JobError> {
        let path = output.path.clone();
        let io_error = |e: io::Error| JobError::job(format!("{path}: {e}"));
        let file = output
            .file
            .into_inner()
            .map_err(|e| io_error(e.into_error()))?;
        drop(file);
        let sha256 = output.sha256.finish();
        let bytes = output.bytes;
        // Outputs written side by side each had the whole budget left:
        // together they may not pass it.
        self.closed_bytes = self.closed_bytes.saturating_add(bytes);
        if self.closed_bytes > self.output_budget {
            return Err(io_error(io::Error::other(format!(
                "the job's outputs come to {} bytes, more than the {} bytes --max-output-bytes allows a job",
                self.closed_bytes, self.output_budget
            ))));
        }
        self.staged.push(Staged {
            path: output.path,
            folder: output.folder,
            name: output.name,
            bytes: output.bytes,
            sha256,
        });
        Ok((bytes, sha256))
    }

    /// Writes the whole output `path` from memory.
    pub fn write(&mut self, path: &RelPath, bytes: &[u8]) -> Result<(), JobError> {
        let mut out = self.create(path)?;
        out.write_all(bytes)
            .map_err(|e| JobError::job(format!("{path}: {e}")))?;
        self.close(out).map(|_| ())
    }

    /// After a successful run: every input finished and exactly the
    /// declared outputs staged. The reads and the staged outputs, in the
    /// order declared.
    pub fn complete(&mut self) -> Result<(Vec<InputRead>, Vec<Staged>), JobError> {
        if self.open_inputs != 0 {
            return Err(JobError::job(format!(
                "{} input(s) opened and not finished (a bug in kiln)",
                self.open_inputs
            )));
        }
        let missing: Vec<&str> = self
            .outputs
            .files
            .iter()
            .filter(|f| !self.staged.iter().any(|s| s.path == **f))
            .map(RelPath::as_str)
            .collect();
        if !missing.is_empty() {
            return Err(JobError::job(format!(
                "the job did not write {} (a bug in kiln)",
                missing.join(", ")
            )));
        }
        let mut staged = std::mem::take(&mut self.staged);
        staged.sort_by_key(|s| self.outputs.files.iter().position(|f| *f == s.path));
        self.created.clear();
        Ok((std::mem::take(&mut self.reads), staged))
    }
}

impl Drop for JobIo<'_> {
    /// A job that failed (or did not complete) leaves no temporary file.
    fn drop(&mut self) {
        for (folder, name, _) in &self.created {
            folder.discard_temp(name);
        }
    }
}

/// An input being read (see the module's notes).
pub struct InputFile {
    path: RelPath,
    pos: Pos,
    file: File,
    len: u64,
    sig: FileSig,
    hasher: blake3::Hasher,
    /// Bytes `[0, hashed)` are hashed.
    hashed: u64,
}

impl InputFile {
    /// The file's size when it was opened.
    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn path(&self) -> &RelPath {
        &self.path
    }

    fn error(&self, e: impl std::fmt::Display) -> JobError {
        JobError::at(self.pos, format!("{}: {e}", self.path))
    }

    /// Fills `buf` with the bytes at `offset`.
    pub fn read_exact_at(&mut self, offset: u64, buf: &mut [u8]) -> Result<(), JobError> {
        let end = offset
            .checked_add(buf.len() as u64)
            .filter(|&end| end <= self.len)
            .ok_or_else(|| {
                self.error(format_args!(
                    "reading {} bytes at byte {offset} goes past its end ({} bytes)",
                    buf.len(),
                    self.len
                ))
            })?;
        if end <= self.hashed {
            return self.pread(offset, buf);
        }
        // Hash up to `offset` first if there is a gap, then hash the new
        // part of `buf` as it is read.
        self.hash_to(offset)?;
        let split = usize::try_from(self.hashed - offset).expect("within buf");
        self.pread(offset, &mut buf[..split])?;
        let hashed = self.hashed;
        self.pread(hashed, &mut buf[split..])?;
        self.hasher.update(&buf[split..]);
        self.hashed = end;
        Ok(())
    }

    /// The SHA-256 of the whole file, read in order (which also hashes it
    /// for the key, so later reads at any offset cost no more hashing).
    /// The two hashes, and the read of the next chunk, run side by side on
    /// the build's worker threads (`side_by_side`).
    pub fn sha256(&mut self) -> Result<[u8; 32], JobError> {
        let chunk = HASH_BUFFER_BYTES.min(self.len as usize).max(1);
        let (mut cur, mut next) = (vec![0u8; chunk], vec![0u8; chunk]);
        let mut sha = Sha256::new();
        let mut n = chunk.min(self.len as usize);
        self.pread(0, &mut cur[..n])?;
        let mut at = 0u64;
        while n > 0 {
            let after = at + n as u64;
            let m = chunk.min((self.len - after) as usize);
            // BLAKE3 takes only what it has not hashed yet (a header read
            // before this, say): the file stays hashed once, in order.
            let fresh = self.hashed.saturating_sub(at).min(n as u64) as usize;
            let (file, hasher, part) = (&self.file, &mut self.hasher, &cur[..n]);
            let (read, _) = side_by_side(
                || pread_file(file, after, &mut next[..m]),
                || side_by_side(|| sha.update(part), || hasher.update(&part[fresh..])),
            );
            read.map_err(|e| self.read_error(e))?;
            self.hashed = self.hashed.max(after);
            std::mem::swap(&mut cur, &mut next);
            at = after;
            n = m;
        }
        Ok(sha.finalize().into())
    }

    /// The whole file (opened under a limit the caller chose for files
    /// held in memory).
    pub fn read_all(&mut self) -> Result<Vec<u8>, JobError> {
        let len = usize::try_from(self.len).map_err(|_| self.error("too large for memory"))?;
        let mut bytes = input::zeroed(len).map_err(|e| self.error(e))?;
        self.read_exact_at(0, &mut bytes)?;
        Ok(bytes)
    }

    fn pread(&self, offset: u64, buf: &mut [u8]) -> Result<(), JobError> {
        pread_file(&self.file, offset, buf).map_err(|e| self.read_error(e))
    }

    fn read_error(&self, e: io::Error) -> JobError {
        match e.kind() {
            io::ErrorKind::UnexpectedEof => {
                self.error("it became shorter while kiln read it; build again once it is written")
            }
            _ => self.error(e),
        }
    }

    /// Hashes bytes `[hashed, to)` through a fixed buffer.
    fn hash_to(&mut self, to: u64) -> Result<(), JobError> {
        if to <= self.hashed {
            return Ok(());
        }
        let mut buf = vec![0; HASH_BUFFER_BYTES.min((to - self.hashed) as usize)];
        while self.hashed < to {
            let n = buf.len().min((to - self.hashed) as usize);
            self.pread(self.hashed, &mut buf[..n])?;
            self.hasher.update(&buf[..n]);
            self.hashed += n as u64;
        }
        Ok(())
    }
}

/// Fills `buf` from `file` at `offset`.
fn pread_file(mut file: &File, offset: u64, buf: &mut [u8]) -> io::Result<()> {
    if buf.is_empty() {
        return Ok(());
    }
    file.seek(SeekFrom::Start(offset))?;
    file.read_exact(buf)
}

/// An output being written (see the module's notes).
pub struct OutputFile {
    path: RelPath,
    folder: Arc<Folder>,
    name: String,
    file: BufWriter<File>,
    sha256: OutputHash,
    bytes: u64,
    /// The most bytes this file may take (what the job's budget leaves).
    limit: u64,
}

impl OutputFile {
    pub fn path(&self) -> &RelPath {
        &self.path
    }
}

impl Write for OutputFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.bytes.saturating_add(buf.len() as u64) > self.limit {
            return Err(io::Error::other(format!(
                "the job's outputs would pass {} bytes, the budget --max-output-bytes allows a job",
                self.limit
            )));
        }
        let n = self.file.write(buf)?;
        self.sha256.update(&buf[..n]);
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

/// [`InputFile::sha256`] of each of `inputs`, in order, the files side by
/// side on the build's worker threads (in turn on a one-worker build).
pub fn sha256_each(inputs: &mut [&mut InputFile]) -> Vec<Result<[u8; 32], JobError>> {
    match inputs {
        [] => Vec::new(),
        [one] => vec![one.sha256()],
        _ => {
            let (a, b) = inputs.split_at_mut(inputs.len() / 2);
            let (mut a, b) = side_by_side(|| sha256_each(a), || sha256_each(b));
            a.extend(b);
            a
        }
    }
}

/// `a` and `b` on the build's worker threads (`rayon::join`: in turn when
/// no other worker is free), or in turn on a build that runs on the calling
/// thread alone (outside a pool, `rayon::join` would start rayon's global
/// pool of every core).
fn side_by_side<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    RA: Send,
    RB: Send,
{
    if rayon::current_thread_index().is_some() {
        rayon::join(a, b)
    } else {
        (a(), b())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) struct Place {
        _dir: tempfile::TempDir,
        pub root: std::path::PathBuf,
        pub resolver: Resolver,
        pub tree: OutTree,
    }

    /// A project root holding `files`, with its resolver and output tree
    /// (for tests of what reads through `JobIo`).
    pub(crate) fn place(files: &[(&str, &[u8])]) -> Place {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        for (name, bytes) in files {
            std::fs::write(root.join(name), bytes).unwrap();
        }
        let tree = OutTree::new(Folder::create_out(&root.join("out")).unwrap());
        Place {
            resolver: Resolver::new(&root),
            root,
            tree,
            _dir: dir,
        }
    }

    pub(crate) fn rel(s: &str) -> RelPath {
        RelPath::parse(s).unwrap()
    }

    /// Bytes that differ at every offset (a misplaced read shows).
    fn data(n: usize) -> Vec<u8> {
        (0..n).map(|i| (i * 7 + i / 251) as u8).collect()
    }

    #[test]
    fn any_read_pattern_hashes_the_whole_file_once_in_order() {
        let bytes = data(3 * HASH_BUFFER_BYTES + 12_345);
        let want = *blake3::hash(&bytes).as_bytes();
        let p = place(&[("in.bin", &bytes)]);
        let outputs = Outputs::default();
        let len = bytes.len() as u64;
        let patterns: Vec<Vec<(u64, usize)>> = vec![
            vec![],                 // nothing read
            vec![(0, bytes.len())], // all at once
            (0..len)
                .step_by(100_000)
                .map(|o| (o, 100_000.min((len - o) as usize)))
                .collect(),
            vec![(len - 10, 10), (0, 10), (5, 20)], // the tail first
            vec![(1_000_000, 5), (999_990, 20), (10, 1)], // overlapping
            vec![(len, 0), (len - 1, 1)],           // empty read at the end
        ];
        let sha: [u8; 32] = Sha256::digest(&bytes).into();
        for (pattern, then_sha) in patterns.iter().flat_map(|p| [(p, false), (p, true)]) {
            let mut io = JobIo::new(&p.resolver, &p.tree, &outputs);
            let mut input = io.open(&rel("in.bin"), Pos::default(), len).unwrap();
            for &(offset, n) in pattern {
                let mut buf = vec![0; n];
                input.read_exact_at(offset, &mut buf).unwrap();
                assert_eq!(
                    buf,
                    bytes[offset as usize..offset as usize + n],
                    "{pattern:?}"
                );
            }
            // The SHA-256 pass after some reads (a header first, as a
            // conversion does) leaves the BLAKE3 of the key right.
            if then_sha {
                assert_eq!(input.sha256().unwrap(), sha, "{pattern:?}");
            }
            io.finish(input).unwrap();
            let (reads, _) = io.complete().unwrap();
            assert_eq!(reads.len(), 1);
            assert_eq!(reads[0].hash, want, "{pattern:?}");
            assert_eq!(reads[0].sig.size, len);
        }
    }

    #[test]
    fn a_read_past_the_end_is_an_error_naming_the_file_and_offset() {
        let p = place(&[("in.bin", b"0123456789")]);
        let outputs = Outputs::default();
        let mut io = JobIo::new(&p.resolver, &p.tree, &outputs);
        let mut input = io.open(&rel("in.bin"), Pos::default(), 10).unwrap();
        let mut buf = [0; 4];
        let e = input.read_exact_at(7, &mut buf).unwrap_err();
        assert_eq!(
            e.message,
            "in.bin: reading 4 bytes at byte 7 goes past its end (10 bytes)"
        );
        let e = input.read_exact_at(u64::MAX, &mut buf).unwrap_err();
        assert!(e.message.contains("goes past its end"), "{e:?}");
        io.finish(input).unwrap();
        // The limit is the caller's.
        let e = io
            .open(&rel("in.bin"), Pos { line: 3, column: 4 }, 9)
            .err()
            .unwrap();
        assert_eq!(e.pos, Pos { line: 3, column: 4 });
        assert!(e.message.contains("more than the 9 bytes"), "{e:?}");
    }

    #[test]
    fn an_input_that_changes_while_read_fails_the_job() {
        let p = place(&[("in.bin", &data(1000))]);
        let outputs = Outputs::default();
        let mut io = JobIo::new(&p.resolver, &p.tree, &outputs);
        let mut input = io.open(&rel("in.bin"), Pos::default(), 1 << 20).unwrap();
        let mut buf = [0; 10];
        input.read_exact_at(0, &mut buf).unwrap();
        std::fs::write(p.root.join("in.bin"), data(2000)).unwrap();
        let e = io.finish(input).unwrap_err();
        assert_eq!(
            e.message,
            "in.bin changed while kiln read it; build again once it is written"
        );
        // Shorter than when opened: the read itself says so.
        let mut input = io.open(&rel("in.bin"), Pos::default(), 1 << 20).unwrap();
        std::fs::write(p.root.join("in.bin"), b"short").unwrap();
        let e = input.read_all().unwrap_err();
        assert!(e.message.contains("became shorter"), "{e:?}");
    }

    #[test]
    fn outputs_are_hashed_as_written_and_must_be_exactly_the_declared_set() {
        // On the calling thread, and as a build of two workers runs it
        // (a large output hashed beside the job).
        outputs_are_hashed_and_declared();
        let two = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        two.install(outputs_are_hashed_and_declared);
    }

    fn outputs_are_hashed_and_declared() {
        let p = place(&[]);
        let outputs = Outputs {
            files: vec![rel("m/a.bin"), rel("m/index.json")],
            index: Some(rel("m/index.json")),
        };
        let mut io = JobIo::new(&p.resolver, &p.tree, &outputs);
        let e = io.create(&rel("m/other.bin")).err().unwrap();
        assert!(e.message.contains("did not declare"), "{e:?}");
        let mut out = io.create(&rel("m/a.bin")).unwrap();
        let bytes = data(3 * WRITE_BUFFER_BYTES + 5);
        // Small writes, then large ones (a helper starts mid-file).
        let (small, large) = bytes.split_at(WRITE_BUFFER_BYTES);
        for chunk in small
            .chunks(70_001)
            .chain(large.chunks(WRITE_BUFFER_BYTES + 3))
        {
            out.write_all(chunk).unwrap();
        }
        io.close(out).unwrap();
        assert!(
            io.create(&rel("m/a.bin"))
                .err()
                .unwrap()
                .message
                .contains("twice")
        );
        let e = io.complete().err().unwrap();
        assert_eq!(
            e.message,
            "the job did not write m/index.json (a bug in kiln)"
        );
        io.write(&rel("m/index.json"), b"{}").unwrap();
        let (_, staged) = io.complete().unwrap();
        assert_eq!(staged.len(), 2);
        assert_eq!(staged[0].path, rel("m/a.bin"));
        assert_eq!(staged[0].bytes, bytes.len() as u64);
        assert_eq!(staged[0].sha256, <[u8; 32]>::from(Sha256::digest(&bytes)));
        // Staged, not in place: nothing but the temporaries exist yet.
        assert!(!p.root.join("out/m/a.bin").exists());
        let temps = std::fs::read_dir(p.root.join("out/m")).unwrap().count();
        assert_eq!(temps, 2);
    }

    #[test]
    fn a_job_that_fails_leaves_no_temporary_file() {
        let p = place(&[]);
        let outputs = Outputs::one(rel("m/a.bin"));
        let mut io = JobIo::new(&p.resolver, &p.tree, &outputs);
        let mut out = io.create(&rel("m/a.bin")).unwrap();
        out.write_all(b"half").unwrap();
        drop(out);
        drop(io);
        assert_eq!(std::fs::read_dir(p.root.join("out/m")).unwrap().count(), 0);
    }

    #[test]
    fn an_unfinished_input_fails_the_job() {
        let p = place(&[("in.bin", b"x")]);
        let outputs = Outputs::default();
        let mut io = JobIo::new(&p.resolver, &p.tree, &outputs);
        let _input = io.open(&rel("in.bin"), Pos::default(), 1).unwrap();
        assert!(
            io.complete()
                .err()
                .unwrap()
                .message
                .contains("not finished")
        );
    }
}
