//! `marsc simulate`: replays a compiled SubtaskGraph on a discrete-event model of a
//! cluster, without running any kernel, to see how a plan behaves on more workers
//! than this machine has (makespan, bytes moved between workers, peak memory per
//! worker, and how busy the coordinator is).
//!
//! The model ([`Cluster`]), in brief:
//! - **Workers** have one core each. The coordinator hands out ready subtasks in the
//!   plan's priority order, a pinned subtask to its worker, any other to the worker
//!   holding most of its input bytes (the runtime's `exec/ready.rs` rule, with its
//!   queue depth), and at most `depth` subtasks in flight per worker. A worker asks
//!   for its missing inputs as soon as an order arrives and runs the subtasks whose
//!   inputs are all present, first come first served.
//! - **Compute** takes the bytes a subtask streams (what it reads from other
//!   subtasks, plus every value its operations compute) / `compute_rate`, plus the
//!   flops of block matrix products / `flop_rate`.
//! - **Network**: a transfer takes `latency + bytes / bandwidth` and holds the
//!   sender's uplink and the receiver's downlink for that long (one port per
//!   direction, first come first served), so concurrent transfers to or from one
//!   worker queue up. The source is the holder whose uplink frees first; a fetched
//!   chunk stays on the fetching worker as a replica.
//! - **Control**: every work order and every completion report is one hop of
//!   `latency`; the coordinator spends `coordinator_cost` per subtask dispatched,
//!   one at a time, so past some rate of subtasks it is the bottleneck.
//! - **Memory**: a worker holds a chunk from the start of the subtask computing it
//!   (or of the transfer bringing it) until the last subtask reading it finishes;
//!   results nobody reads go to the coordinator and are not counted.
//!
//! Everything is deterministic: times are integer picoseconds and ties break by
//! event order. [`graph::from_subtasks`] turns the compiler's SubtaskGraph into the
//! plain [`SimGraph`] the event loop ([`engine`]) replays.

pub mod engine;
pub mod graph;
pub mod units;

#[cfg(test)]
mod tests;

pub use engine::simulate;
pub use graph::from_subtasks;

/// A plan reduced to what the model needs: tasks (subtasks) that read and write
/// chunks. Chunk and task indices are dense; a task's inputs are chunks other tasks
/// produce.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SimGraph {
    pub tasks: Vec<SimTask>,
    /// Each chunk's size in bytes and the task producing it.
    pub chunks: Vec<SimChunk>,
}

/// One subtask.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SimTask {
    /// The worker the plan pins it to (taken modulo the worker count), or `None` to
    /// let the coordinator place it.
    pub worker: Option<u32>,
    /// Among ready tasks, smaller runs first (then the lower index).
    pub priority: i64,
    /// Chunks read (each once), produced by other tasks.
    pub inputs: Vec<u32>,
    /// Chunks published.
    pub outputs: Vec<u32>,
    /// Bytes it streams: the chunks it reads from other subtasks, once, plus every
    /// value its operations compute (a fused chain's intermediates included: they
    /// stay in registers, but each is still computed).
    pub work_bytes: u64,
    /// Floating-point operations beyond streaming its bytes (block matrix products).
    pub flops: u64,
}

/// One published chunk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SimChunk {
    pub bytes: u64,
    pub producer: u32,
}

/// The cluster and cost model; see the module documentation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cluster {
    pub workers: u32,
    /// Bytes per second of each worker's uplink and downlink.
    pub bandwidth: f64,
    /// Seconds per message hop (control or data).
    pub latency: f64,
    /// Bytes (read plus written) per second a core streams through a kernel.
    pub compute_rate: f64,
    /// Floating-point operations per second of a core in matrix products.
    pub flop_rate: f64,
    /// The coordinator's seconds per subtask.
    pub coordinator_cost: f64,
    /// Subtasks in flight per worker; `None` adapts as the runtime's `QueueDepth`
    /// does (enough work for 200 µs, between 2 and 1,024), from the mean modelled
    /// subtask time.
    pub queue_depth: Option<u32>,
}

impl Default for Cluster {
    fn default() -> Cluster {
        Cluster {
            workers: 1,
            bandwidth: DEFAULT_BANDWIDTH,
            latency: DEFAULT_LATENCY,
            compute_rate: DEFAULT_COMPUTE_RATE,
            flop_rate: DEFAULT_FLOP_RATE,
            coordinator_cost: DEFAULT_COORDINATOR_COST,
            queue_depth: None,
        }
    }
}

/// 10 GB/s per link (an 80–100 Gb/s NIC; a 10 Gb/s link is `1.25GB/s`).
pub const DEFAULT_BANDWIDTH: f64 = 10e9;
/// 50 µs per hop: a message through an MPI comm thread that sleeps when idle.
pub const DEFAULT_LATENCY: f64 = 50e-6;
/// Fitted on this project's 2-core VM: the geometric mean of (modelled bytes / real
/// seconds) over release runs with `--workers 1` of thirteen element-wise,
/// reduction, random and linear-algebra scripts, which ranged from 0.7 GB/s (normal
/// draws) to 15 GB/s (fused element-wise chains); see docs/simulate.md.
pub const DEFAULT_COMPUTE_RATE: f64 = 5e9;
/// Fitted the same way on a 2048 x 2048 product of 512 x 512 blocks (faer): 47–48
/// GFLOP/s once its bytes are paid for.
pub const DEFAULT_FLOP_RATE: f64 = 45e9;
/// The coordinator's cost per subtask (`runtime/tests/exec_throughput.rs`: 0.8–1 M
/// subtasks per CPU second).
pub const DEFAULT_COORDINATOR_COST: f64 = 1e-6;

/// What one simulated run gives.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SimReport {
    pub workers: u32,
    pub subtasks: usize,
    /// From the first dispatch to the coordinator learning of the last completion.
    pub makespan: f64,
    /// Chunk bytes moved between workers, and how many transfers moved them.
    pub transfer_bytes: u64,
    pub transfers: u64,
    /// Each worker's most chunk bytes held at once.
    pub peak_memory: Vec<u64>,
    /// Seconds the coordinator spent dispatching.
    pub coordinator_busy: f64,
    /// Seconds all cores spent computing (the sum over workers).
    pub compute_busy: f64,
    /// The bytes all subtasks streamed and the flops of their matrix products (the
    /// figures `compute_rate` and `flop_rate` turn into time; for calibration).
    pub work_bytes: u64,
    pub flops: u64,
    /// The queue depth used.
    pub queue_depth: u32,
}

impl SimReport {
    pub fn peak_memory_max(&self) -> u64 {
        self.peak_memory.iter().copied().max().unwrap_or(0)
    }

    pub fn peak_memory_mean(&self) -> f64 {
        if self.peak_memory.is_empty() {
            return 0.0;
        }
        self.peak_memory.iter().map(|&b| b as f64).sum::<f64>() / self.peak_memory.len() as f64
    }

    /// The share of the makespan the coordinator was busy (1 means saturated).
    pub fn coordinator_share(&self) -> f64 {
        share(self.coordinator_busy, self.makespan)
    }

    /// The mean share of the makespan the workers' cores computed.
    pub fn worker_utilization(&self) -> f64 {
        share(
            self.compute_busy,
            self.makespan * f64::from(self.workers.max(1)),
        )
    }
}

fn share(part: f64, whole: f64) -> f64 {
    if whole > 0.0 {
        part / whole
    } else {
        0.0
    }
}
