//! A global allocator that counts, per thread, the allocations (and
//! reallocations, which are allocations too) made while counting is on,
//! and follows the bytes live on the thread and their peak.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::hint::black_box;

/// The system allocator, counting.
pub struct Counting;

/// What the allocator counts on one thread.
struct Counters {
    allocations: Cell<u64>,
    bytes: Cell<u64>,
    /// Bytes allocated minus bytes freed on this thread (negative when the
    /// thread frees memory another thread allocated).
    live: Cell<i64>,
    /// The highest `live` since [`peak`] last reset it.
    peak: Cell<i64>,
}

thread_local! {
    static COUNTERS: Counters = const {
        Counters {
            allocations: Cell::new(0),
            bytes: Cell::new(0),
            live: Cell::new(0),
            peak: Cell::new(0),
        }
    };
}

/// One allocation (or reallocation) of `bytes` bytes that changes the bytes
/// live by `change`.
fn record(bytes: usize, change: i64) {
    // `try_with`: never fails for a const thread local without a destructor,
    // but an allocator must not panic.
    let _ = COUNTERS.try_with(|counters| {
        counters.allocations.set(counters.allocations.get() + 1);
        counters.bytes.set(counters.bytes.get() + bytes as u64);
        freed(counters, change);
    });
}

/// `change` more bytes live (negative: freed).
fn freed(counters: &Counters, change: i64) {
    let live = counters.live.get() + change;
    counters.live.set(live);
    counters.peak.set(counters.peak.get().max(live));
}

// SAFETY: every call is forwarded to `System` unchanged; counting touches
// only thread-local cells.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        record(layout.size(), layout.size() as i64);
        // SAFETY: the caller's contract is passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        record(layout.size(), layout.size() as i64);
        // SAFETY: the caller's contract is passed on.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        record(new_size, new_size as i64 - layout.size() as i64);
        // SAFETY: the caller's contract is passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let _ = COUNTERS.try_with(|counters| freed(counters, -(layout.size() as i64)));
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
    let counts = || COUNTERS.with(|counters| (counters.allocations.get(), counters.bytes.get()));
    let (allocations, bytes) = counts();
    for _ in 0..calls {
        results.push(black_box(operation()));
    }
    let (after, after_bytes) = counts();
    let (allocations, bytes) = (after - allocations, after_bytes - bytes);
    drop(results);
    PerCall {
        allocations: allocations as f64 / f64::from(calls),
        bytes: bytes as f64 / f64::from(calls),
    }
}

/// Runs `operation` once on this thread and returns the peak of the bytes
/// live on the thread while it ran, above those live when it began, with
/// its result still live at the end (so it counts); the result is dropped
/// after.
pub fn peak<R>(operation: impl FnOnce() -> R) -> u64 {
    let start = COUNTERS.with(|counters| {
        let live = counters.live.get();
        counters.peak.set(live);
        live
    });
    let result = black_box(operation());
    let peak = COUNTERS.with(|counters| counters.peak.get()) - start;
    drop(result);
    peak.max(0) as u64
}

/// The median of [`peak`] over `calls` calls of `operation`.
pub fn median_peak<R>(calls: usize, mut operation: impl FnMut() -> R) -> u64 {
    let mut peaks = Vec::with_capacity(calls);
    for _ in 0..calls {
        peaks.push(peak(&mut operation));
    }
    peaks.sort_unstable();
    peaks[peaks.len() / 2]
}
