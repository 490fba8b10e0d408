//! Reading a file kiln did not make: only a regular file, never more bytes
//! than a limit, never blocking.
//!
//! Every file kiln reads from a project (manifests, sources, their external
//! buffers) or that a user names on the command line (`inspect`, `verify`)
//! goes through here:
//! - it is opened without blocking (`O_NONBLOCK`: opening a FIFO for reading
//!   would otherwise wait for a writer forever) and `fstat`ed: a FIFO, a
//!   device, a socket or a folder is refused at once, naming what it is;
//! - the open file's size is checked against the caller's limit before a
//!   byte is read, and the read itself stops one byte past the limit, so a
//!   file that grows while it is read, or lies about its size (`/proc`), is
//!   refused without holding more than the limit;
//! - hashing streams the file through a fixed 64 KiB buffer.
//!
//! The caller picks the limit: the format's own (`MAX_MANIFEST_BYTES`,
//! `ospc::MAX_FILE_BYTES`, `gltf::MAX_FILE_BYTES`).

use std::borrow::Cow;
use std::fmt;
use std::fs::{File, Metadata};
use std::io::{self, Read};
use std::path::Path;
use std::sync::mpsc;

use super::paths::FileSig;
use crate::formats::cgeo;
use crate::memory;

/// Why a file could not be read.
#[derive(Debug)]
pub enum ReadError {
    NotFound,
    /// Not a regular file: what it is instead.
    NotRegular(&'static str),
    /// Larger than the limit by its size.
    TooLarge {
        bytes: u64,
        limit: u64,
    },
    /// Reading gave more than the limit although its size did not say so
    /// (it grew while read, or, like `/proc` files, has no true size).
    ReadPastLimit {
        limit: u64,
    },
    /// The memory to hold the bytes could not be had.
    Memory {
        bytes: u64,
    },
    Io(io::Error),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::NotFound => f.write_str("no such file"),
            ReadError::NotRegular(what) => write!(f, "is {what}, not a regular file"),
            // The byte where the file passes the limit, as every error
            // names a byte (seed 000).
            ReadError::TooLarge { bytes, limit } => write!(
                f,
                "at byte {limit}: the file is {bytes} bytes, more than the {limit} bytes kiln reads of this kind of file"
            ),
            ReadError::ReadPastLimit { limit } => write!(
                f,
                "at byte {limit}: gave more than {limit} bytes when read (it grew, or its size is not what it says), more than kiln reads of this kind of file"
            ),
            ReadError::Memory { bytes } => write!(
                f,
                "needs {bytes} bytes of memory to read, more than kiln could get; free memory or raise the process's memory limit"
            ),
            ReadError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl From<io::Error> for ReadError {
    fn from(e: io::Error) -> ReadError {
        match e.kind() {
            io::ErrorKind::NotFound => ReadError::NotFound,
            _ => ReadError::Io(e),
        }
    }
}

/// What a file system object is, in words.
pub fn kind_of(meta: &Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_file() {
        return "a regular file";
    }
    if t.is_dir() {
        return "a folder";
    }
    if t.is_symlink() {
        return "a symbolic link";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    "not a regular file"
}

/// Opens `path` for reading without blocking and checks that it is a
/// regular file of at most `limit` bytes.
pub fn open_regular(path: &Path, limit: u64) -> Result<(File, Metadata), ReadError> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc_flags::NONBLOCK | libc_flags::NOCTTY);
    }
    check_regular(options.open(path)?, limit)
}

/// `file`, if it is a regular file of at most `limit` bytes by its size.
pub fn check_regular(file: File, limit: u64) -> Result<(File, Metadata), ReadError> {
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular(kind_of(&meta)));
    }
    if meta.len() > limit {
        return Err(ReadError::TooLarge {
            bytes: meta.len(),
            limit,
        });
    }
    Ok((file, meta))
}

/// The open flags, from rustix (no libc dependency of our own).
#[cfg(unix)]
mod libc_flags {
    pub const NONBLOCK: i32 = rustix::fs::OFlags::NONBLOCK.bits() as i32;
    pub const NOCTTY: i32 = rustix::fs::OFlags::NOCTTY.bits() as i32;
}

/// A file's bytes and whether it held still while it was read.
#[derive(Debug)]
pub struct FileRead {
    pub bytes: Vec<u8>,
    /// The stat signature when opened.
    pub sig: FileSig,
    /// The signature was the same after the last byte was read.
    pub unchanged: bool,
}

/// The whole of a regular file of at most `limit` bytes.
pub fn read_regular(path: &Path, limit: u64) -> Result<FileRead, ReadError> {
    let (file, _) = open_regular(path, limit)?;
    read_open(file, limit)
}

/// The whole of an open file, checked as [`check_regular`] does.
pub fn read_open(file: File, limit: u64) -> Result<FileRead, ReadError> {
    let (file, meta) = check_regular(file, limit)?;
    let bytes = read_capped(&file, meta.len(), limit)?;
    let sig = FileSig::of(&meta);
    let unchanged = held_still(&file, sig);
    Ok(FileRead {
        bytes,
        sig,
        unchanged,
    })
}

/// The first bytes (at most `n`) of a regular file of any size, to tell
/// its format before choosing the limit to read it with.
pub fn read_prefix(path: &Path, n: usize) -> Result<Vec<u8>, ReadError> {
    let (file, meta) = open_regular(path, u64::MAX)?;
    let n = n.min(usize::try_from(meta.len()).unwrap_or(usize::MAX));
    let mut bytes = memory::with_capacity(n).map_err(|_| ReadError::Memory { bytes: n as u64 })?;
    file.take(n as u64).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// `n` zero bytes, or [`ReadError::Memory`] when the memory cannot be had
/// (never an abort).
pub fn zeroed(n: usize) -> Result<Vec<u8>, ReadError> {
    memory::zeroed(n).map_err(|_| ReadError::Memory { bytes: n as u64 })
}

/// Extends `bytes` with zeros to `n` bytes (if it is shorter), or
/// [`ReadError::Memory`] when the memory cannot be had.
pub fn grow(bytes: &mut Vec<u8>, n: usize) -> Result<(), ReadError> {
    memory::grow(bytes, n).map_err(|_| ReadError::Memory { bytes: n as u64 })
}

/// Reads at most `limit` bytes of `file` (whose size was `size`); more is
/// an error, not a longer buffer.
fn read_capped(file: &File, size: u64, limit: u64) -> Result<Vec<u8>, ReadError> {
    let expect = usize::try_from(size.min(limit)).unwrap_or(usize::MAX);
    let mut bytes = memory::with_capacity::<u8>(expect.saturating_add(1))
        .map_err(|_| ReadError::Memory { bytes: size })?;
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::ReadPastLimit { limit });
    }
    Ok(bytes)
}

/// The BLAKE3 hash of a regular file of at most `limit` bytes, streamed
/// through a fixed buffer, and its stat signature if it held still while
/// it was read (`None` if it changed).
pub fn hash_regular(path: &Path, limit: u64) -> Result<([u8; 32], Option<FileSig>), ReadError> {
    let (file, _) = open_regular(path, limit)?;
    hash_open(file, limit)
}

/// [`hash_regular`] of an open file, checked as [`check_regular`] does.
fn hash_open(file: File, limit: u64) -> Result<([u8; 32], Option<FileSig>), ReadError> {
    let (file, meta) = check_regular(file, limit)?;
    let mut hasher = blake3::Hasher::new();
    hasher.update_reader((&file).take(limit.saturating_add(1)))?;
    if hasher.count() > limit {
        return Err(ReadError::ReadPastLimit { limit });
    }
    let sig = FileSig::of(&meta);
    let unchanged = held_still(&file, sig);
    Ok((*hasher.finalize().as_bytes(), unchanged.then_some(sig)))
}

/// The SHA-256 of a regular file of at most `limit` bytes, streamed.
pub fn sha256_regular(path: &Path, limit: u64) -> Result<[u8; 32], ReadError> {
    let (file, _) = open_regular(path, limit)?;
    sha256_open(file, limit).map(|(sha, _)| sha)
}

/// The SHA-256 of an open file checked as [`check_regular`] does, and its
/// stat signature if it held still while read.
pub fn sha256_open(file: File, limit: u64) -> Result<([u8; 32], Option<FileSig>), ReadError> {
    use sha2::Digest;
    let (file, meta) = check_regular(file, limit)?;
    let mut sha = sha2::Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    let mut reader = (&file).take(limit.saturating_add(1));
    let mut total = 0u64;
    loop {
        let n = reader.read(&mut buf)?;
        if n == 0 {
            break;
        }
        total += n as u64;
        sha.update(&buf[..n]);
    }
    if total > limit {
        return Err(ReadError::ReadPastLimit { limit });
    }
    let sig = FileSig::of(&meta);
    let unchanged = held_still(&file, sig);
    Ok((sha.finalize().into(), unchanged.then_some(sig)))
}

/// Whether `file` still has the stat signature `sig` it was opened with.
fn held_still(file: &File, sig: FileSig) -> bool {
    file.metadata()
        .is_ok_and(|after| FileSig::of(&after) == sig)
}

/// The largest piece of a file kiln reads at once for a format read a
/// piece at a time (a CGeo section, by a job or by `inspect` and
/// `verify`): 1 GiB (a snapshot of 16 million vertices with normals and a
/// map channel is 600 MB). Such files are read a snapshot at a time, so
/// this bounds their memory.
pub const MAX_PIECE_BYTES: usize = 1 << 30;

/// Why a [`Pieces`] read failed.
#[derive(Debug)]
pub enum PieceFailed<E> {
    /// The piece was beyond what kiln reads at once.
    Limit(PieceLimit),
    /// The positional read's own error.
    Read(E),
}

/// A piece kiln would not read.
#[derive(Debug, PartialEq, Eq)]
pub enum PieceLimit {
    /// The format asked for more than [`MAX_PIECE_BYTES`] at once.
    TooLarge { offset: u64, len: usize },
    /// The memory for the piece could not be had.
    Memory { offset: u64, len: usize },
}

impl fmt::Display for PieceLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PieceLimit::TooLarge { offset, len } => write!(
                f,
                "a section of {len} bytes at byte {offset} is more than the {MAX_PIECE_BYTES} bytes kiln reads at once"
            ),
            PieceLimit::Memory { offset, len } => write!(
                f,
                "the {len} bytes at byte {offset} need more memory than could be had: give kiln more memory"
            ),
        }
    }
}

/// A file read a piece at a time through a positional read (`read(offset,
/// buf)` fills `buf` with the bytes at `offset`: a job's `InputFile`, or a
/// file `inspect` opened): the one adapter from the pipeline's reads to a
/// format's [`cgeo::Source`]. Each piece is at most [`MAX_PIECE_BYTES`],
/// allocated fallibly. The format's reader only learns that a read failed;
/// the read's own error is kept, and [`Pieces::settle`] gives it in place
/// of the reader's.
pub struct Pieces<E, R> {
    len: u64,
    read: R,
    failed: Option<PieceFailed<E>>,
    ahead: Option<Ahead>,
}

/// The most bytes [`Pieces::read_ahead`] reads ahead at once: 64 MiB (a
/// CGeo snapshot of 1.8 million vertices with normals and a map channel).
/// A larger span is read when it is asked for, so memory stays one piece
/// and at most this much beside it.
pub const MAX_AHEAD_BYTES: usize = 64 << 20;

/// A second thread reading the span a format said it will read next.
struct Ahead {
    ask: mpsc::Sender<(u64, usize)>,
    got: mpsc::Receiver<Option<Vec<u8>>>,
    /// The span asked for and not received yet.
    asked: Option<(u64, usize)>,
    /// The span received, and its bytes.
    ready: Option<(u64, Vec<u8>)>,
}

impl<E, R: FnMut(u64, &mut [u8]) -> Result<(), E>> Pieces<E, R> {
    /// A file of `len` bytes read through `read`.
    pub fn new(len: u64, read: R) -> Pieces<E, R> {
        Pieces {
            len,
            read,
            failed: None,
            ahead: None,
        }
    }

    /// These pieces with a thread of `scope` reading ahead through
    /// `read_at` (the same reads as `read`'s, answering whether they
    /// worked) what the format says it will read next
    /// ([`cgeo::Source::will_read`]), so that the file's next bytes come
    /// in while this part is decoded. What a read gives is the same; a
    /// read ahead that failed is read again the ordinary way, which gives
    /// its error.
    pub fn read_ahead<'scope>(
        mut self,
        scope: &'scope std::thread::Scope<'scope, '_>,
        read_at: impl Fn(u64, &mut [u8]) -> bool + Send + 'scope,
    ) -> Pieces<E, R> {
        let (ask, asks) = mpsc::channel::<(u64, usize)>();
        let (give, got) = mpsc::channel();
        scope.spawn(move || {
            // The memory too is had on this thread (fallibly; a refusal is
            // a read ahead that failed).
            for (offset, len) in asks {
                let read = memory::zeroed_buffer(len)
                    .ok()
                    .and_then(|mut buf| read_at(offset, &mut buf).then_some(buf));
                if give.send(read).is_err() {
                    break;
                }
            }
        });
        self.ahead = Some(Ahead {
            ask,
            got,
            asked: None,
            ready: None,
        });
        self
    }

    /// Where in the span read ahead the `len` bytes at `offset` are, if
    /// they are inside it (waiting for a span asked for that holds them).
    fn ahead_holds(&mut self, offset: u64, len: usize) -> Option<usize> {
        let a = self.ahead.as_mut()?;
        let inside =
            |start: u64, n: usize| offset >= start && offset - start + len as u64 <= n as u64;
        if let Some((start, n)) = a.asked
            && inside(start, n)
        {
            a.asked = None;
            a.ready = a.got.recv().ok().flatten().map(|buf| (start, buf));
        }
        match &a.ready {
            Some((start, buf)) if inside(*start, buf.len()) => Some((offset - start) as usize),
            _ => None,
        }
    }

    /// `result` of reading through these pieces, with a failed read's own
    /// error (through `map`) in place of the reader's "could not read".
    pub fn settle<T, X>(
        self,
        result: Result<T, X>,
        map: impl FnOnce(PieceFailed<E>) -> X,
    ) -> Result<T, X> {
        match (result, self.failed) {
            (Err(_), Some(failed)) => Err(map(failed)),
            (result, _) => result,
        }
    }
}

impl<E, R: FnMut(u64, &mut [u8]) -> Result<(), E>> cgeo::Source for Pieces<E, R> {
    fn size(&self) -> u64 {
        self.len
    }

    fn read(&mut self, offset: u64, len: usize) -> Result<Cow<'_, [u8]>, cgeo::SourceFailed> {
        if let Some(at) = self.ahead_holds(offset, len)
            && let Some(Ahead {
                ready: Some((_, buf)),
                ..
            }) = &self.ahead
        {
            return Ok(Cow::Borrowed(&buf[at..at + len]));
        }
        let piece = if len > MAX_PIECE_BYTES {
            Err(PieceFailed::Limit(PieceLimit::TooLarge { offset, len }))
        } else {
            memory::zeroed_buffer(len)
                .map_err(|_| PieceFailed::Limit(PieceLimit::Memory { offset, len }))
                .and_then(|mut buf| match (self.read)(offset, &mut buf) {
                    Ok(()) => Ok(buf),
                    Err(e) => Err(PieceFailed::Read(e)),
                })
        };
        piece.map(Cow::Owned).map_err(|failed| {
            self.failed = Some(failed);
            cgeo::SourceFailed
        })
    }

    fn will_read(&mut self, offset: u64, len: usize) {
        let Some(a) = &mut self.ahead else {
            return;
        };
        if len > MAX_AHEAD_BYTES || offset.saturating_add(len as u64) > self.len {
            return;
        }
        // One read ahead at a time: a span asked for before (the one about
        // to be read, usually) is received first, and becomes the one held.
        if let Some((start, _)) = a.asked.take() {
            a.ready = a.got.recv().ok().flatten().map(|buf| (start, buf));
        }
        if a.ask.send((offset, len)).is_ok() {
            a.asked = Some((offset, len));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_exact() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, [7u8; 100]).unwrap();
        assert_eq!(read_regular(&path, 100).unwrap().bytes.len(), 100);
        assert!(matches!(
            read_regular(&path, 99),
            Err(ReadError::TooLarge {
                bytes: 100,
                limit: 99
            })
        ));
        let (hash, sig) = hash_regular(&path, 100).unwrap();
        assert_eq!(hash, *blake3::hash(&[7u8; 100]).as_bytes());
        assert_eq!(sig.unwrap().size, 100);
        assert!(hash_regular(&path, 99).is_err());
        assert!(matches!(
            read_regular(dir.path(), 1 << 20),
            Err(ReadError::NotRegular("a folder"))
        ));
        assert!(matches!(
            read_regular(&dir.path().join("none"), 1),
            Err(ReadError::NotFound)
        ));
    }

    #[test]
    fn a_file_that_reads_longer_than_its_size_stops_at_the_limit() {
        // /proc files report size 0 and read longer.
        let Ok(file) = File::open("/proc/self/status") else {
            return;
        };
        let size = file.metadata().unwrap().len();
        assert_eq!(size, 0);
        let e = read_capped(&file, size, 8).unwrap_err();
        assert!(matches!(e, ReadError::ReadPastLimit { limit: 8 }));
        assert!(
            e.to_string()
                .starts_with("at byte 8: gave more than 8 bytes when read"),
            "{e}"
        );
        // Hashing stops there too.
        let e = hash_regular(Path::new("/proc/self/status"), 8).unwrap_err();
        assert!(matches!(e, ReadError::ReadPastLimit { limit: 8 }), "{e}");
        // One past a true size is refused by the size; the message names it.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, [1u8; 10]).unwrap();
        let e = read_regular(&path, 9).unwrap_err().to_string();
        assert_eq!(
            e,
            "at byte 9: the file is 10 bytes, more than the 9 bytes kiln reads of this kind of file"
        );
    }

    /// A source over `bytes` that counts its reads and fails at `bad`.
    fn pieces_of(
        bytes: &[u8],
        bad: u64,
        reads: &mut usize,
    ) -> Pieces<String, impl FnMut(u64, &mut [u8]) -> Result<(), String>> {
        Pieces::new(bytes.len() as u64, move |offset, buf: &mut [u8]| {
            *reads += 1;
            if offset == bad {
                return Err(format!("no bytes at {offset}"));
            }
            let at = offset as usize;
            buf.copy_from_slice(&bytes[at..at + buf.len()]);
            Ok(())
        })
    }

    #[test]
    fn pieces_read_at_offsets_and_keep_the_first_failure() {
        use cgeo::Source;
        let bytes: Vec<u8> = (0..100).collect();
        let mut reads = 0;
        let mut p = pieces_of(&bytes, 50, &mut reads);
        assert_eq!(p.size(), 100);
        assert_eq!(&*p.read(10, 3).unwrap(), &[10, 11, 12]);
        assert_eq!(p.read(50, 1), Err(cgeo::SourceFailed));
        // A read's own error replaces the reader's; an Ok stays.
        let settled = p.settle(Err::<(), _>("could not read".to_string()), |f| match f {
            PieceFailed::Read(m) => m,
            PieceFailed::Limit(l) => l.to_string(),
        });
        assert_eq!(settled, Err("no bytes at 50".to_string()));
        assert_eq!(reads, 2);
        let p = pieces_of(&bytes, 50, &mut reads);
        assert_eq!(p.settle(Ok::<u8, String>(7), |_| unreachable!()), Ok(7));
        // With no failed read, the reader's own error is the answer.
        let p = pieces_of(&bytes, 50, &mut reads);
        assert_eq!(
            p.settle(Err::<(), _>("bad tag".to_string()), |_| unreachable!()),
            Err("bad tag".to_string())
        );
    }

    /// What is read ahead is what a read would give; reads inside the span
    /// said to come are served from it, others read the ordinary way, and
    /// a read ahead that failed is read again the ordinary way.
    #[test]
    fn pieces_read_ahead_what_the_format_will_read() {
        use cgeo::Source;
        let bytes: Vec<u8> = (0..=255).collect();
        let ahead_reads = std::sync::atomic::AtomicUsize::new(0);
        for ahead_works in [true, false] {
            let mut reads = 0;
            std::thread::scope(|scope| {
                let bytes = &bytes;
                let ahead_reads = &ahead_reads;
                let mut p =
                    pieces_of(bytes, 200, &mut reads).read_ahead(scope, move |offset, buf| {
                        ahead_reads.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let at = offset as usize;
                        buf.copy_from_slice(&bytes[at..at + buf.len()]);
                        // Failing where the ordinary read fails, at 200.
                        ahead_works && !(at..at + buf.len()).contains(&200)
                    });
                p.will_read(100, 50);
                assert_eq!(&*p.read(100, 3).unwrap(), &[100, 101, 102]);
                assert_eq!(&*p.read(140, 10).unwrap(), &bytes[140..150]);
                // Past the span, and over it: read the ordinary way.
                assert_eq!(&*p.read(149, 2).unwrap(), &[149, 150]);
                assert_eq!(&*p.read(10, 1).unwrap(), &[10]);
                // A span past the file, or over the limit, is not read ahead;
                // a failing span still fails with the read's own error.
                // A span that ends at the file's end is read ahead; one
                // past it is not.
                p.will_read(240, 16);
                assert_eq!(&*p.read(250, 6).unwrap(), &bytes[250..256]);
                p.will_read(250, 7);
                p.will_read(0, MAX_AHEAD_BYTES + 1);
                p.will_read(190, 20);
                assert!(p.read(200, 1).is_err());
                assert!(matches!(p.failed, Some(PieceFailed::Read(_))));
            });
            // Served from the span: the two reads inside it (when the read
            // ahead worked); the ordinary reads are the rest.
            assert_eq!(
                reads,
                if ahead_works { 3 } else { 6 },
                "ahead works: {ahead_works}"
            );
        }
        assert_eq!(ahead_reads.into_inner(), 6);
        // At most MAX_AHEAD_BYTES is read ahead, exactly that much is (a
        // file as long as can be: only the limit decides).
        let asked = std::sync::Mutex::new(Vec::new());
        std::thread::scope(|scope| {
            let asked = &asked;
            let mut p = Pieces::new(u64::MAX, |_, _: &mut [u8]| Ok::<(), String>(())).read_ahead(
                scope,
                move |_, buf| {
                    asked.lock().unwrap().push(buf.len());
                    true
                },
            );
            p.will_read(0, MAX_AHEAD_BYTES + 1);
            p.will_read(1, MAX_AHEAD_BYTES);
        });
        assert_eq!(asked.into_inner().unwrap(), [MAX_AHEAD_BYTES]);
    }

    #[test]
    fn a_piece_over_the_limit_is_refused_before_any_memory_or_read() {
        use cgeo::Source;
        let mut reads = 0;
        let mut p = pieces_of(&[], u64::MAX, &mut reads);
        assert!(p.read(8, MAX_PIECE_BYTES + 1).is_err());
        let failed = p.failed.take().expect("the failure is kept");
        let PieceFailed::Limit(limit) = failed else {
            panic!("not a limit: {failed:?}")
        };
        assert_eq!(
            limit,
            PieceLimit::TooLarge {
                offset: 8,
                len: MAX_PIECE_BYTES + 1
            }
        );
        assert_eq!(
            limit.to_string(),
            "a section of 1073741825 bytes at byte 8 is more than the 1073741824 bytes kiln reads at once"
        );
        drop(p);
        assert_eq!(reads, 0);
        // Exactly the limit is read (its memory asked for, not touched).
        let mut asked = 0;
        let mut p = Pieces::new(u64::MAX, |_, buf: &mut [u8]| {
            asked = buf.len();
            Ok::<(), String>(())
        });
        assert!(p.read(0, MAX_PIECE_BYTES).is_ok());
        drop(p);
        assert_eq!(asked, MAX_PIECE_BYTES);
    }
}
