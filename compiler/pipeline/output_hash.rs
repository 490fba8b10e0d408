//! The SHA-256 of an output as it is written, made beside the job.
//!
//! SHA-256 cannot be split: one stream takes one core. An output that
//! grows past one chunk (when the build has a second worker) hands its
//! bytes, a chunk at a time, to a helper thread, which hashes chunk `k`
//! while the job reads, converts and writes chunk `k + 1`. A large output
//! then costs its job a copy of its bytes, not their hash. At most
//! [`CHUNKS`] chunks are in flight (the job waits for a free one); small
//! outputs, and every output of a one-worker build (`-j 1`), are hashed on
//! the job's own thread.
//!
//! Not a `rayon` task: a worker blocked on a full queue while its helper
//! waits for a free worker would be a deadlock.

use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;

use sha2::{Digest, Sha256};

/// Bytes handed to the helper at a time.
pub const CHUNK_BYTES: usize = 1 << 20;
/// Chunks in flight at most: one hashed, one queued, one filling.
pub const CHUNKS: usize = 3;

/// The SHA-256 of the bytes given to [`OutputHash::update`], in order.
pub struct OutputHash {
    state: State,
    /// Whether a helper thread may be started.
    beside: bool,
}

enum State {
    Here(Sha256),
    Beside(Helper),
}

struct Helper {
    /// The chunk being filled.
    chunk: Vec<u8>,
    /// Full chunks to the helper (`None` once closed).
    work: Option<SyncSender<Vec<u8>>>,
    /// Chunks the helper is done with.
    back: Receiver<Vec<u8>>,
    /// Chunks made so far (at most [`CHUNKS`]).
    made: usize,
    thread: JoinHandle<Sha256>,
}

impl OutputHash {
    /// `beside`: whether a large output may be hashed on a helper thread
    /// (the build runs more than one worker).
    pub fn new(beside: bool) -> OutputHash {
        OutputHash {
            state: State::Here(Sha256::new()),
            beside,
        }
    }

    /// Whether the calling thread is a worker of a pool of more than one:
    /// a build that may use a second core.
    pub fn may_go_beside() -> bool {
        rayon::current_thread_index().is_some() && rayon::current_num_threads() > 1
    }

    pub fn update(&mut self, mut bytes: &[u8]) {
        if let State::Here(sha) = &mut self.state {
            if !self.beside || bytes.len() < CHUNK_BYTES {
                sha.update(bytes);
                return;
            }
            match Helper::start(sha) {
                Some(helper) => self.state = State::Beside(helper),
                None => {
                    // No thread to be had: hash here.
                    self.beside = false;
                    sha.update(bytes);
                    return;
                }
            }
        }
        let State::Beside(h) = &mut self.state else {
            unreachable!("started above")
        };
        while !bytes.is_empty() {
            let n = (CHUNK_BYTES - h.chunk.len()).min(bytes.len());
            h.chunk.extend_from_slice(&bytes[..n]);
            bytes = &bytes[n..];
            if h.chunk.len() == CHUNK_BYTES {
                h.pass_on();
            }
        }
    }

    pub fn finish(self) -> [u8; 32] {
        match self.state {
            State::Here(sha) => sha.finalize().into(),
            State::Beside(mut h) => {
                if !h.chunk.is_empty() {
                    h.pass_on();
                }
                drop(h.work.take());
                let sha = h
                    .thread
                    .join()
                    .unwrap_or_else(|p| std::panic::resume_unwind(p));
                sha.finalize().into()
            }
        }
    }
}

impl Helper {
    /// A helper thread that continues from `sha`; `None` if no thread
    /// could be started.
    fn start(sha: &Sha256) -> Option<Helper> {
        let (work, queue) = sync_channel::<Vec<u8>>(1);
        let (done, back) = sync_channel::<Vec<u8>>(CHUNKS);
        let mut theirs = sha.clone();
        let thread = std::thread::Builder::new()
            .name("kiln-sha256".into())
            .spawn(move || {
                for chunk in queue {
                    theirs.update(&chunk);
                    // The job may be gone (a failed job drops its output).
                    let _ = done.send(chunk);
                }
                theirs
            })
            .ok()?;
        Some(Helper {
            chunk: Vec::with_capacity(CHUNK_BYTES),
            work: Some(work),
            back,
            made: 1,
            thread,
        })
    }

    /// Sends the full chunk and takes an empty one: a returned one, a new
    /// one while fewer than [`CHUNKS`] exist, or else the next returned.
    fn pass_on(&mut self) {
        let next = match self.back.try_recv() {
            Ok(c) => c,
            Err(_) if self.made < CHUNKS => {
                self.made += 1;
                Vec::with_capacity(CHUNK_BYTES)
            }
            Err(_) => self
                .back
                .recv()
                .expect("the helper lives while `work` is open"),
        };
        let full = std::mem::replace(&mut self.chunk, next);
        self.chunk.clear();
        self.work
            .as_ref()
            .expect("open until finish")
            .send(full)
            .expect("the helper lives while `work` is open");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes that differ at every offset.
    fn data(n: usize) -> Vec<u8> {
        (0..n).map(|i| (i * 7 + i / 251) as u8).collect()
    }

    fn hash_in_pieces(bytes: &[u8], pieces: &[usize], beside: bool) -> [u8; 32] {
        let mut h = OutputHash::new(beside);
        let mut rest = bytes;
        for &p in pieces.iter().cycle() {
            if rest.is_empty() {
                break;
            }
            let n = p.min(rest.len());
            h.update(&rest[..n]);
            rest = &rest[n..];
        }
        h.finish()
    }

    #[test]
    fn any_pattern_of_writes_hashes_the_bytes_in_order() {
        let bytes = data(7 * CHUNK_BYTES + 12_345);
        let want: [u8; 32] = Sha256::digest(&bytes).into();
        let patterns: [&[usize]; 6] = [
            &[usize::MAX],                 // one write
            &[CHUNK_BYTES],                // chunk by chunk
            &[100, CHUNK_BYTES + 1],       // small, then large: the helper starts mid-stream
            &[3 * CHUNK_BYTES - 1, 7, 13], // large, then small ones after it
            &[70_001],                     // never one chunk at once: hashed here
            &[1],
        ];
        for pattern in patterns {
            for beside in [false, true] {
                if pattern == [1] && beside {
                    continue; // byte by byte is slow and says nothing new
                }
                assert_eq!(
                    hash_in_pieces(&bytes, pattern, beside),
                    want,
                    "{pattern:?} {beside}"
                );
            }
        }
        assert_eq!(
            OutputHash::new(true).finish(),
            <[u8; 32]>::from(Sha256::digest([]))
        );
    }

    #[test]
    fn a_helper_holds_at_most_its_chunks_and_ends_when_its_queue_closes() {
        let bytes = data(20 * CHUNK_BYTES);
        let mut h = OutputHash::new(true);
        h.update(&bytes);
        let State::Beside(mut helper) = h.state else {
            panic!("a large write goes beside")
        };
        assert_eq!(helper.made, CHUNKS, "20 chunks passed through {CHUNKS}");
        // What a dropped hash (a failed job's output) does: the queue
        // closes, and the thread ends with what it was given.
        drop(helper.work.take());
        let sha = helper.thread.join().unwrap();
        assert!(helper.chunk.is_empty(), "every full chunk was passed on");
        let want: [u8; 32] = Sha256::digest(&bytes).into();
        assert_eq!(<[u8; 32]>::from(sha.finalize()), want);
    }

    #[test]
    fn only_a_worker_of_a_pool_of_two_or_more_may_go_beside() {
        assert!(!OutputHash::may_go_beside());
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        assert!(!one.install(OutputHash::may_go_beside));
        let two = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        assert!(two.install(OutputHash::may_go_beside));
    }
}
