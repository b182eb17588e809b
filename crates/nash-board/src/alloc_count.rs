//! A global allocator that counts the current thread's allocations, for the tests that check a
//! hot path allocates nothing once warm (feature `count-allocations`, which only the crates'
//! test builds turn on).
//!
//! A test binary declares `#[global_allocator] static GLOBAL: CountingAllocator =
//! CountingAllocator;` and compares [`allocations`] before and after the work. The count is per
//! thread, so tests running beside it do not disturb it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator, counting each allocation and reallocation of the calling thread.
#[derive(Debug)]
pub struct CountingAllocator;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

// SAFETY: every call is forwarded to the system allocator unchanged; the counter is a
// thread-local `Cell` with a const initialiser, which never allocates.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        // SAFETY: the caller's contract is passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        // SAFETY: the caller's contract is passed on. The system's zeroed allocation maps
        // fresh pages for a large table instead of writing zeros over it, as the default
        // method (`alloc`, then a fill) would.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is passed on.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        // SAFETY: the caller's contract is passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// How many times the calling thread has allocated or reallocated so far (with
/// [`CountingAllocator`] as the global allocator; 0 otherwise).
pub fn allocations() -> u64 {
    ALLOCATIONS.with(|n| n.get())
}
