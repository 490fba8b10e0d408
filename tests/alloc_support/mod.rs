//! A global allocator for tests that records, per thread, the largest
//! single allocation, so a test can show that hostile lengths and headers
//! allocate nothing big. A test file installs it with
//! `#[global_allocator] static ALLOC: alloc_support::Tracking = alloc_support::Tracking;`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

pub struct Tracking;

thread_local! {
    static LARGEST_ALLOC: Cell<usize> = const { Cell::new(0) };
    static BIG_ALLOCS: Cell<usize> = const { Cell::new(0) };
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
}

unsafe impl GlobalAlloc for Tracking {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(new_size);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Runs `f` and returns its result with the largest single allocation it
/// made on this thread (0 if it made none). Needs `Tracking` installed.
pub fn largest_alloc_in<T>(f: impl FnOnce() -> T) -> (T, usize) {
    LARGEST_ALLOC.with(|m| m.set(0));
    let out = f();
    (out, LARGEST_ALLOC.with(|m| m.get()))
}

/// Runs `f` and returns its result with the number of allocations and
/// reallocations of at least [`BIG`] bytes it made on this thread.
#[allow(dead_code)]
pub fn big_allocs_in<T>(f: impl FnOnce() -> T) -> (T, usize) {
    BIG_ALLOCS.with(|c| c.set(0));
    let out = f();
    (out, BIG_ALLOCS.with(|c| c.get()))
}
