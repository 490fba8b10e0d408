//! A global allocator for tests that records, per thread, the largest
//! single allocation, and how many allocations and bytes there were, so a
//! test can show that hostile lengths and headers allocate nothing big and
//! that work stays bounded, by counting rather than by the clock. A test file installs it with
//! `#[global_allocator] static ALLOC: alloc_support::Tracking = alloc_support::Tracking;`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

pub struct Tracking;

thread_local! {
    static LARGEST_ALLOC: Cell<usize> = const { Cell::new(0) };
    static BIG_ALLOCS: Cell<usize> = const { Cell::new(0) };
    static ALLOCS: Cell<usize> = const { Cell::new(0) };
    static ALLOC_BYTES: Cell<usize> = const { Cell::new(0) };
    /// Bytes allocated and not yet freed on this thread (a block freed on
    /// another thread is not subtracted), and the most there have been.
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK_LIVE: Cell<isize> = const { Cell::new(0) };
}

fn live(change: isize) {
    let _ = LIVE.try_with(|l| {
        l.set(l.get() + change);
        let _ = PEAK_LIVE.try_with(|p| p.set(p.get().max(l.get())));
    });
}

/// Allocations (and reallocations) of at least this many bytes are
/// counted by [`big_allocs_in`].
pub const BIG: usize = 1 << 20;

fn note(size: usize) {
    let _ = LARGEST_ALLOC.try_with(|m| {
        if size > m.get() {
            m.set(size)
        }
    });
    if size >= BIG {
        let _ = BIG_ALLOCS.try_with(|c| c.set(c.get() + 1));
    }
    let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
    let _ = ALLOC_BYTES.try_with(|c| c.set(c.get().saturating_add(size)));
}

unsafe impl GlobalAlloc for Tracking {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            live(layout.size() as isize);
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            live(layout.size() as isize);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        live(-(layout.size() as isize));
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(new_size);
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            live(new_size as isize - layout.size() as isize);
        }
        p
    }
}

/// Runs `f` and returns its result with the largest single allocation it
/// made on this thread (0 if it made none). Needs `Tracking` installed.
pub fn largest_alloc_in<T>(f: impl FnOnce() -> T) -> (T, usize) {
    LARGEST_ALLOC.with(|m| m.set(0));
    let out = f();
    (out, LARGEST_ALLOC.with(|m| m.get()))
}

/// Runs `f` and returns its result with the most bytes it held allocated
/// at once on this thread, over what was live when it started (its peak
/// memory, counted rather than sampled).
#[allow(dead_code)]
pub fn peak_live_in<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let start = LIVE.with(|l| l.get());
    PEAK_LIVE.with(|p| p.set(start));
    let out = f();
    let peak = PEAK_LIVE.with(|p| p.get());
    (out, (peak - start).max(0) as usize)
}

/// Runs `f` and returns its result with the number of allocations and
/// reallocations of at least [`BIG`] bytes it made on this thread.
#[allow(dead_code)]
pub fn big_allocs_in<T>(f: impl FnOnce() -> T) -> (T, usize) {
    BIG_ALLOCS.with(|c| c.set(0));
    let out = f();
    (out, BIG_ALLOCS.with(|c| c.get()))
}

/// What `f` allocated on this thread: the largest single allocation, the
/// number of allocations and reallocations, and the bytes they asked for
/// in all (a reallocation counts its new size). A bound on these is a bound
/// on the work that allocates, whatever the machine's load.
#[derive(Debug, Clone, Copy)]
pub struct Counts {
    pub largest: usize,
    pub allocs: usize,
    pub bytes: usize,
}

/// Runs `f` and returns its result with what it allocated on this thread.
pub fn counts_in<T>(f: impl FnOnce() -> T) -> (T, Counts) {
    LARGEST_ALLOC.with(|m| m.set(0));
    ALLOCS.with(|c| c.set(0));
    ALLOC_BYTES.with(|c| c.set(0));
    let out = f();
    let counts = Counts {
        largest: LARGEST_ALLOC.with(|m| m.get()),
        allocs: ALLOCS.with(|c| c.get()),
        bytes: ALLOC_BYTES.with(|c| c.get()),
    };
    (out, counts)
}
