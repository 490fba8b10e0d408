//! Parts of jobs this process made before (`kiln watch`'s builds), kept
//! to be used again through [`super::job::JobIo::memo_get`] when what they
//! were made from is the same: a level rebuilt because one model's source
//! changed takes its other models from here. A part is found by a key its
//! kind makes of everything it was made from but files, and is used only
//! if each file it read then is read again now (recorded as the job's
//! input, as a rebuild would) with the same hash. One part a key (the
//! last made); in memory only; a one-off build keeps nothing.

use std::any::Any;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::paths::RelPath;

/// Most bytes the parts a [`Memo`] holds may take together (the oldest
/// are let go past it).
pub const MAX_MEMO_BYTES: usize = 512 << 20;

/// The parts, their bound, and how often one was used again.
pub struct Memo {
    parts: Mutex<VecDeque<MemoPart>>,
    max_bytes: usize,
    /// Parts used again.
    hits: AtomicU64,
}

struct MemoPart {
    key: [u8; 32],
    /// Each file read to make it: path, length, hash.
    reads: Vec<(RelPath, u64, [u8; 32])>,
    value: Arc<dyn Any + Send + Sync>,
    bytes: usize,
}

impl Memo {
    /// A memo that keeps parts of up to `max_bytes` together.
    pub fn new(max_bytes: usize) -> Memo {
        Memo {
            parts: Mutex::new(VecDeque::new()),
            max_bytes,
            hits: AtomicU64::new(0),
        }
    }

    /// A memo that keeps nothing.
    pub fn none() -> Memo {
        Memo::new(0)
    }

    /// How many times a part was used again.
    pub fn hits(&self) -> u64 {
        self.hits.load(Ordering::Relaxed)
    }

    /// Parts held, and their bytes.
    pub fn held(&self) -> (usize, usize) {
        let parts = self.parts.lock().unwrap_or_else(|e| e.into_inner());
        (parts.len(), parts.iter().map(|p| p.bytes).sum())
    }
}

impl Default for Memo {
    fn default() -> Memo {
        Memo::none()
    }
}

/// Each file read to make a part: path, length, hash.
pub type Reads = Vec<(RelPath, u64, [u8; 32])>;

impl Memo {
    /// The part under `key`: the files it was made from, and it.
    pub fn find(&self, key: &[u8; 32]) -> Option<(Reads, Arc<dyn Any + Send + Sync>)> {
        let parts = self.parts.lock().unwrap_or_else(|e| e.into_inner());
        parts
            .iter()
            .find(|p| p.key == *key)
            .map(|p| (p.reads.clone(), p.value.clone()))
    }

    /// Whether a part of `bytes` would be kept (never, by a memo that
    /// keeps nothing).
    pub fn keeps(&self, bytes: usize) -> bool {
        self.max_bytes > 0 && bytes <= self.max_bytes
    }

    /// Counts a part used again.
    pub fn hit(&self) {
        self.hits.fetch_add(1, Ordering::Relaxed);
    }

    /// Keeps `value` (`bytes` of it) under `key`, in place of the part
    /// there; the oldest parts go past the bound (and a part larger than
    /// it is not kept).
    pub fn keep(
        &self,
        key: [u8; 32],
        reads: Reads,
        value: Arc<dyn Any + Send + Sync>,
        bytes: usize,
    ) {
        if !self.keeps(bytes) {
            return;
        }
        let mut parts = self.parts.lock().unwrap_or_else(|e| e.into_inner());
        parts.retain(|p| p.key != key);
        parts.push_back(MemoPart {
            key,
            reads,
            value,
            bytes,
        });
        let mut held: usize = parts.iter().map(|p| p.bytes).sum();
        while held > self.max_bytes {
            match parts.pop_front() {
                Some(p) => held -= p.bytes,
                None => break,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(name: &str) -> RelPath {
        RelPath::parse(name).unwrap()
    }

    #[test]
    fn a_key_holds_its_last_part_and_the_oldest_go_past_the_bound() {
        let memo = Memo::new(100);
        memo.keep(
            [1; 32],
            vec![(path("a.glb"), 3, [7; 32])],
            Arc::new(10u32),
            40,
        );
        memo.keep([2; 32], Vec::new(), Arc::new(20u32), 40);
        assert_eq!(memo.held(), (2, 80));
        // The same key: the new part in place of the old.
        memo.keep([1; 32], Vec::new(), Arc::new(11u32), 40);
        assert_eq!(memo.held(), (2, 80));
        let (reads, value) = memo.find(&[1; 32]).unwrap();
        assert!(reads.is_empty());
        assert_eq!(value.downcast::<u32>().ok().map(|v| *v), Some(11));
        // Past the bound: the oldest (key 2) goes.
        memo.keep([3; 32], Vec::new(), Arc::new(30u32), 40);
        assert_eq!(memo.held(), (2, 80));
        assert!(memo.find(&[2; 32]).is_none());
        assert!(memo.find(&[3; 32]).is_some());
        // Larger than the bound alone: not kept, nothing let go.
        memo.keep([4; 32], Vec::new(), Arc::new(40u32), 101);
        assert!(memo.find(&[4; 32]).is_none());
        assert_eq!(memo.held(), (2, 80));
        // Exactly the bound: kept, the rest let go.
        memo.keep([5; 32], Vec::new(), Arc::new(50u32), 100);
        assert_eq!(memo.held(), (1, 100));
        assert_eq!(memo.hits(), 0);
        memo.hit();
        assert_eq!(memo.hits(), 1);
        // A memo that keeps nothing.
        let none = Memo::none();
        none.keep([1; 32], Vec::new(), Arc::new(1u32), 1);
        none.keep([2; 32], Vec::new(), Arc::new(1u32), 0);
        assert_eq!(none.held(), (0, 0));
        assert!(!none.keeps(0) && memo.keeps(100) && !memo.keeps(101));
    }
}
