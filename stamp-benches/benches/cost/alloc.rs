//! A global allocator that counts, per thread, the allocations (and
//! reallocations, which are allocations too) made while counting is on.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::hint::black_box;

/// The system allocator, counting.
pub struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
    static BYTES: Cell<u64> = const { Cell::new(0) };
}

fn record(bytes: usize) {
    // `try_with`: never fails for a const thread local without a destructor,
    // but an allocator must not panic.
    let _ = ALLOCATIONS.try_with(|count| count.set(count.get() + 1));
    let _ = BYTES.try_with(|total| total.set(total.get() + bytes as u64));
}

// SAFETY: every call is forwarded to `System` unchanged; counting touches
// only thread-local cells.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        record(layout.size());
        // SAFETY: the caller's contract is passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        record(layout.size());
        // SAFETY: the caller's contract is passed on.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        record(new_size);
        // SAFETY: the caller's contract is passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// Allocations and bytes of one call of an operation.
#[derive(Debug, Clone, Copy)]
pub struct PerCall {
    pub allocations: f64,
    pub bytes: f64,
}

/// Runs `operation` `calls` times on this thread and returns what one call
/// allocated on average (its result is dropped outside the count).
pub fn per_call<R>(calls: u32, mut operation: impl FnMut() -> R) -> PerCall {
    let mut results = Vec::with_capacity(calls as usize);
    let (allocations, bytes) = (ALLOCATIONS.get(), BYTES.get());
    for _ in 0..calls {
        results.push(black_box(operation()));
    }
    let (allocations, bytes) = (ALLOCATIONS.get() - allocations, BYTES.get() - bytes);
    drop(results);
    PerCall {
        allocations: allocations as f64 / f64::from(calls),
        bytes: bytes as f64 / f64::from(calls),
    }
}
