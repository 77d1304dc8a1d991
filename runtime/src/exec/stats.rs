//! The figures of a run ([`ExecStats`]) and the live-chunk accounting behind
//! `peak_live_chunks` / `peak_live_bytes`.
//!
//! Liveness is logical and counted by the coordinator, over all workers at once: a
//! chunk is live while it is held in memory somewhere, from the moment the
//! coordinator learns its producer completed until it processes the completion of
//! the chunk's last consumer (a result stays live until it is handed back), or until
//! it is spilled to disk (it is live again once read back). A copy of a chunk on a
//! second worker is the same chunk and is not counted twice. Outputs of a subtask
//! are added before its inputs are released, so the peak includes a subtask's inputs
//! and outputs together.

use std::fmt;

/// What a run did; the runtime's share of the CLI's `--stats-json` fields.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExecStats {
    /// Subtasks of the plan (each counted once, however often it ran).
    pub subtasks: u64,
    pub workers: u32,
    pub run_seconds: f64,
    /// Chunk bytes a subtask needed from another worker's store.
    pub transfer_bytes: u64,
    pub peak_live_chunks: u64,
    pub peak_live_bytes: u64,
    /// Successful subtask runs on each worker (index = worker id); they add up to
    /// `subtasks + recomputed`.
    pub subtasks_per_worker: Vec<u64>,
    /// Bytes written to spill files (a chunk spilled twice is written once).
    pub spilled_bytes: u64,
    /// Subtask runs that failed and were retried.
    pub retries: u64,
    /// Subtasks run again to rebuild chunks lost with a killed worker.
    pub recomputed: u64,
    /// The most bytes each worker's store held in memory at once (index = worker
    /// id); copies shared between workers count on each.
    pub peak_worker_bytes: Vec<u64>,
}

impl fmt::Display for ExecStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "ran {} subtasks on {} workers in {:.3}s",
            self.subtasks, self.workers, self.run_seconds
        )?;
        writeln!(f, "subtasks per worker: {:?}", self.subtasks_per_worker)?;
        writeln!(f, "transferred: {} bytes", self.transfer_bytes)?;
        writeln!(
            f,
            "peak live: {} chunks, {} bytes",
            self.peak_live_chunks, self.peak_live_bytes
        )?;
        writeln!(
            f,
            "spilled: {} bytes, retries: {}",
            self.spilled_bytes, self.retries
        )?;
        write!(
            f,
            "recomputed: {} subtasks, peak bytes per worker: {:?}",
            self.recomputed, self.peak_worker_bytes
        )
    }
}

/// A byte figure of this process from `/proc/self/status` (`field` is e.g.
/// `"VmRSS:"` for the resident set, `"VmHWM:"` for its peak); 0 where it cannot be
/// read.
pub fn process_status_bytes(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix(field))
        .and_then(|rest| {
            rest.trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<u64>()
                .ok()
        })
        .map_or(0, |kib| kib * 1024)
}

/// Counts live chunks and bytes and remembers the peaks.
#[derive(Clone, Debug, Default)]
pub struct LiveTracker {
    chunks: u64,
    bytes: u64,
    peak_chunks: u64,
    peak_bytes: u64,
}

impl LiveTracker {
    #[inline]
    pub fn produced(&mut self, bytes: u64) {
        self.chunks += 1;
        self.bytes += bytes;
        self.peak_chunks = self.peak_chunks.max(self.chunks);
        self.peak_bytes = self.peak_bytes.max(self.bytes);
    }

    #[inline]
    pub fn released(&mut self, bytes: u64) {
        self.chunks = self.chunks.saturating_sub(1);
        self.bytes = self.bytes.saturating_sub(bytes);
    }

    #[inline]
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    pub fn peak_chunks(&self) -> u64 {
        self.peak_chunks
    }

    pub fn peak_bytes(&self) -> u64 {
        self.peak_bytes
    }
}
