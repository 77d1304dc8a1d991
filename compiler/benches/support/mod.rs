//! What the compiler's benchmarks share: the CPU time a pass took on this thread, so
//! that a busy machine does not inflate their per-chunk figures.

use std::time::Instant;

/// Nanoseconds this thread has run on a CPU (Linux), so a busy machine does not
/// inflate the figures; wall time since `wall` where that is unavailable.
pub fn cpu_nanos(wall: Instant) -> u128 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|text| text.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| wall.elapsed().as_nanos())
}
