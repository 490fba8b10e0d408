//! The append-only logs under `.kiln/` (the journal and the details): a
//! file of this kiln's header and frames, each frame its body's length,
//! its CRC-32, the body (a postcard value) and the length again, so that
//! a reader stops at the first torn or corrupt frame and an appender can
//! check the last frame from the end without reading the others.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};

use serde::{Deserialize, Serialize};

use super::{Detail, JobKey, MAX_STATE_BYTES, Record, decode, encode, header};
use crate::pipeline::out_dir::Folder;

/// A value kept in a frame log, by job.
pub(super) trait Keyed {
    fn job_key(&self) -> JobKey;
}

impl Keyed for Record {
    fn job_key(&self) -> JobKey {
        Record::job_key(self)
    }
}

impl Keyed for Detail {
    fn job_key(&self) -> JobKey {
        (self.kind.clone(), self.id.clone())
    }
}

/// A value framed for a log: length, checksum, body, and the length again
/// (so the last frame is found from the end of the file).
pub(super) fn frame<T: Serialize>(value: &T) -> Vec<u8> {
    let body = encode(value);
    let len = u32::try_from(body.len())
        .expect("a frame under 4 GiB")
        .to_le_bytes();
    let mut frame = Vec::with_capacity(body.len() + FRAME_OVERHEAD);
    frame.extend_from_slice(&len);
    frame.extend_from_slice(&crc32fast::hash(&body).to_le_bytes());
    frame.extend_from_slice(&body);
    frame.extend_from_slice(&len);
    frame
}

/// The bytes of a frame around its body.
const FRAME_OVERHEAD: usize = 12;

/// Whether a log file starts with this kiln's header for `magic` and ends
/// with a whole, intact frame (or holds none): what appending to it
/// without reading its frames needs. Reads the header and the last frame.
fn ends_whole(file: &File, magic: &[u8; 8]) -> bool {
    use std::os::unix::fs::FileExt;
    let want = header(magic);
    let mut got = vec![0; want.len()];
    let (Ok(meta), Ok(())) = (file.metadata(), file.read_exact_at(&mut got, 0)) else {
        return false;
    };
    let start = want.len() as u64;
    // (The header was read: the file holds at least its bytes.)
    if got != want {
        return false;
    }
    if meta.len() == start {
        return true;
    }
    let mut len = [0u8; 4];
    let Some(Ok(())) = meta
        .len()
        .checked_sub(4)
        .map(|at| file.read_exact_at(&mut len, at))
    else {
        return false;
    };
    let body = u64::from(u32::from_le_bytes(len));
    let Some(at) = meta.len().checked_sub(body + FRAME_OVERHEAD as u64) else {
        return false;
    };
    if body > MAX_FRAME_BYTES as u64 {
        return false;
    }
    let Ok(mut frame) = usize::try_from(body + FRAME_OVERHEAD as u64)
        .map_err(|_| ())
        .and_then(|n| crate::memory::zeroed(n).map_err(|_| ()))
    else {
        return false;
    };
    at >= start
        && file.read_exact_at(&mut frame, at).is_ok()
        && read_frame_bytes(&mut frame.as_slice()).is_some()
}

/// An append-only file of framed values, one or more per job, the last
/// one of a job winning; compacted when a quarter of it is stale.
pub(super) struct FrameLog<T> {
    name: &'static str,
    magic: &'static [u8; 8],
    pub(super) entries: BTreeMap<JobKey, T>,
    pub(super) n_frames: usize,
    /// False when the file is missing, from another kiln version, or ends
    /// in a torn frame: the first append then rewrites it whole.
    pub(super) appendable: bool,
    /// The file held bytes that are not frames of this kiln (a torn or
    /// corrupt tail, another version's file): the next save rewrites it.
    pub(super) bad_tail: bool,
    file: Option<File>,
    /// Its frames were read (`entries` and `n_frames` are the file's);
    /// false when it was opened only to append ([`FrameLog::open_tail`]).
    pub(super) loaded: bool,
}

impl<T: Keyed + Serialize + for<'a> Deserialize<'a>> FrameLog<T> {
    /// Loads every frame, streamed a frame at a time (memory for the
    /// records, not the file); reading stops at the first frame that is
    /// torn, corrupt, or longer than [`MAX_FRAME_BYTES`], and that tail is
    /// dropped (the next save rewrites the file without it).
    pub(super) fn load(
        state_dir: &Folder,
        name: &'static str,
        magic: &'static [u8; 8],
    ) -> FrameLog<T> {
        let mut log = FrameLog {
            name,
            magic,
            entries: BTreeMap::new(),
            n_frames: 0,
            appendable: false,
            bad_tail: false,
            file: None,
            loaded: true,
        };
        let Some(file) = state_dir.open_read(name, MAX_STATE_BYTES) else {
            return log;
        };
        let mut r = BufReader::with_capacity(64 << 10, file);
        let want = header(magic);
        let mut got = vec![0; want.len()];
        if r.read_exact(&mut got).is_err() || got != want {
            log.bad_tail = true;
            return log;
        }
        log.appendable = true;
        loop {
            match r.fill_buf() {
                Ok([]) => break,
                Ok(_) => {}
                Err(_) => {
                    log.appendable = false;
                    break;
                }
            }
            match read_frame::<T>(&mut r) {
                Some(value) => {
                    log.n_frames += 1;
                    log.entries.insert(value.job_key(), value);
                }
                None => {
                    log.appendable = false;
                    log.bad_tail = true;
                    break;
                }
            }
        }
        log
    }

    /// Opens the log to append without reading its frames: appendable
    /// when the file is this kiln's and ends with a whole frame (see
    /// [`ends_whole`]); otherwise the first append reads it all.
    pub(super) fn open_tail(
        state_dir: &Folder,
        name: &'static str,
        magic: &'static [u8; 8],
    ) -> FrameLog<T> {
        let appendable = state_dir
            .open_read(name, MAX_STATE_BYTES)
            .is_some_and(|file| ends_whole(&file, magic));
        FrameLog {
            name,
            magic,
            entries: BTreeMap::new(),
            n_frames: 0,
            appendable,
            bad_tail: false,
            file: None,
            loaded: false,
        }
    }

    pub(super) fn append(&mut self, state_dir: &Folder, value: T) -> io::Result<()> {
        if !self.loaded && !self.appendable {
            // Its frames are needed to start it over.
            *self = FrameLog::load(state_dir, self.name, self.magic);
        }
        let bytes = frame(&value);
        self.entries.insert(value.job_key(), value);
        if !self.appendable {
            // Start over with every frame we trust.
            self.file = None;
            self.rewrite(state_dir)?;
            self.appendable = true;
            return Ok(());
        }
        if self.file.is_none() {
            match state_dir.open_append(self.name)? {
                Some(file) => self.file = Some(file),
                // Hard-linked from elsewhere: a new file of kiln's own
                // takes its place, the other name keeps the old bytes.
                None => return self.rewrite(state_dir),
            }
        }
        self.file
            .as_mut()
            .expect("opened above")
            .write_all(&bytes)?;
        self.n_frames += 1;
        Ok(())
    }

    pub(super) fn drop_keys(&mut self, state_dir: &Folder, keys: &[JobKey]) -> io::Result<()> {
        for key in keys {
            self.entries.remove(key);
        }
        self.file = None;
        self.rewrite(state_dir)?;
        self.appendable = true;
        Ok(())
    }

    /// A quarter of its frames are superseded, or it holds bytes that are
    /// not frames: time to rewrite it.
    pub(super) fn is_large(&self) -> bool {
        self.loaded
            && (self.bad_tail || self.n_frames > self.entries.len() + self.entries.len() / 4 + 16)
    }

    /// Writes the file anew with one frame per entry. Only a loaded log
    /// knows its entries.
    pub(super) fn rewrite(&mut self, state_dir: &Folder) -> io::Result<()> {
        assert!(self.loaded, "only a loaded log is rewritten");
        self.file = None;
        let mut file = header(self.magic);
        for value in self.entries.values() {
            file.extend_from_slice(&frame(value));
        }
        state_dir.write_atomic(self.name, &file)?;
        self.n_frames = self.entries.len();
        self.bad_tail = false;
        Ok(())
    }
}

/// Longest frame a log's reader takes: one job's record (a job of 100,000
/// glob matches is about 10 MB). A longer length is a corrupt frame.
pub const MAX_FRAME_BYTES: usize = 64 << 20;

/// The next frame of a log, if it is whole, intact and decodes.
pub(super) fn read_frame<T: for<'a> Deserialize<'a>>(r: &mut impl Read) -> Option<T> {
    decode(&read_frame_bytes(r)?)
}

/// The body of the next frame of a log, if it is whole and intact.
fn read_frame_bytes(r: &mut impl Read) -> Option<Vec<u8>> {
    let mut head = [0u8; 8];
    r.read_exact(&mut head).ok()?;
    let len = u32::from_le_bytes(head[..4].try_into().ok()?);
    let crc = u32::from_le_bytes(head[4..].try_into().ok()?);
    if usize::try_from(len).ok()? > MAX_FRAME_BYTES {
        return None;
    }
    let mut body = crate::memory::zeroed(usize::try_from(len).ok()?).ok()?;
    r.read_exact(&mut body).ok()?;
    let mut tail = [0u8; 4];
    r.read_exact(&mut tail).ok()?;
    (crc32fast::hash(&body) == crc && u32::from_le_bytes(tail) == len).then_some(body)
}
