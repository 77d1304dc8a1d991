//! The multi-worker executor: runs a [`Plan`] on N workers and hands back the
//! result chunks and the run's figures.
//!
//! ```text
//!        WorkOrder (run, sources, free, spill)      ChunkRequest / ChunkReply
//!  coordinator ─────────────────────────────▶ worker 0 ◀──────────────────▶ worker 1
//!  (caller's   ◀───────────────────────────── (own store)                  (own store)
//!   thread)       CompletionReport / Failed
//! ```
//!
//! **Generic over the kernels.** The executor only calls [`ChunkKernel::run`] and
//! [`ChunkKernel::nbytes`] (and [`ChunkKernel::spill`] / [`ChunkKernel::unspill`]
//! under a memory limit); it is tested with toy kernels and runs real ones unchanged.
//!
//! **Threads and channels, not rayon's pool.** Each worker is a loop on a thread of
//! its own (taken from the process's [`pool::WorkerPool`], which keeps threads from
//! run to run), with its own chunk store and a single inbox, and workers share nothing but messages (see
//! [`message`] and [`transport`]). That is exactly the shape of a worker in another
//! process or an MPI rank, so the same worker loop can later run behind another
//! [`transport::Transport`]; `transfer_bytes` then counts real traffic rather than a
//! simulation. A rayon pool would share one address space implicitly (so "which worker
//! holds a chunk" would be fiction), and a rayon task that waits for a chunk from a
//! peer would block a pool thread, which is how such pools deadlock. Kernels remain
//! free to use rayon inside a chunk, but with one worker per core that would
//! oversubscribe, so it pays only for very large chunks.
//!
//! **Scheduling.** The coordinator (on the caller's thread, which would otherwise
//! just wait) releases a subtask once all its inputs exist and dispatches ready
//! subtasks in (priority, id) order: to the plan's preferred worker if any, else to the
//! worker holding most of its input bytes, else to the least loaded (see
//! `ready.rs`). Each worker keeps a small queue whose length adapts to the measured
//! subtask time, and reports completions halfway through it, so it never idles
//! waiting for the coordinator while a better-priority subtask never waits behind a
//! long queue. A chunk is freed on every worker holding it once its last consumer has
//! run; results are kept until they are handed back.
//!
//! **Bounded memory.** With [`ExecOptions::memory_limit`] the coordinator admits a
//! subtask only when the chunks held in memory plus the projected needs of running
//! subtasks fit, spilling the chunks needed furthest in the future to files in a
//! temporary directory (removed when the run ends, however it ends); see
//! [`memory`]. [`check_memory`] refuses a plan with a subtask too large for the
//! limit before anything runs.
//!
//! **Failures.** A kernel error or panic is retried up to
//! [`ExecOptions::max_retries`] times, on another worker when there is one; then the
//! coordinator returns [`ExecError::SubtaskFailed`] with the subtask's label, queued
//! work is dropped, and all worker threads are joined before [`execute`] returns. A
//! worker that dies loses its store; the chunks only it held are recomputed from
//! their lineage on the others. Both are exercised by deterministic fault injection
//! ([`ExecOptions::inject_faults`], [`ExecOptions::kill_worker`]).
//!
//! **Cancellation.** Setting [`ExecOptions::cancel`] stops the run between two
//! coordinator steps (it polls the flag every 20 ms) and between two subtasks on
//! each worker; a running kernel finishes its chunk first.
//!
//! **Determinism.** Results never depend on the worker count or scheduling, because
//! kernels are pure; figures such as `transfer_bytes` may.
//!
//! **Throughput.** Messages are batched (a work order carries many subtasks, a
//! report many completions, a chunk request all the chunks one order needs from one
//! peer) and subtasks travel as ids. The coordinator keeps one record per subtask
//! and one per chunk, indexed by the dense ids (a chunk's first copy on another
//! worker inline in it), and a worker's store finds a chunk by its id in a page
//! table, so the per-subtask cost is a few record visits and no hashing, even for a
//! chunk read on another worker: a million trivial subtasks run at roughly a million
//! per CPU second (`runtime/tests/exec_throughput.rs`). Without a memory limit the
//! spilling bookkeeping costs a few flag checks per chunk.

mod coordinator;
mod faults;
mod index;
mod inline;
mod kernel_call;
mod locations;
pub mod memory;
pub mod message;
#[cfg(feature = "mpi")]
pub mod mpi;
pub mod pool;
mod ready;
mod results;
mod stats;
mod store;
pub mod trace;
pub mod transport;
mod worker;

pub use memory::check_memory;
pub use ready::{choose_worker, QueueDepth};
pub use stats::{process_status_bytes, ExecStats};
pub use trace::{
    write_chrome_trace, write_chrome_trace_grouped, write_chrome_trace_with, ExecObserver,
    NoObserver, SubtaskSpan, TraceRecorder, WorkerMemory,
};

use crate::plan::{ChunkId, Plan, SubtaskId};
use coordinator::Coordinator;
use faults::FaultInjection;
use index::PlanIndex;
use message::WorkerMessage;
use std::fmt;
use std::io::{self, Read, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;
use tempfile::TempDir;
use transport::Transport;
use worker::{run_worker, WorkerContext};

/// The chunk operations a plan is made of, as the executor sees them.
pub trait ChunkKernel: Send + Sync + 'static {
    type Value: Send + Sync + 'static;
    /// Why an operation failed; its text is the failure the run reports (and, with
    /// workers in several processes, what travels to the coordinator).
    type Error: fmt::Display;
    /// Runs one chunk operation on its arguments.
    fn run(&self, args: &[&Self::Value]) -> Result<Self::Value, Self::Error>;
    /// Bytes of a value (for memory accounting and transfer_bytes).
    fn nbytes(value: &Self::Value) -> usize;
    /// Writes a value to a spill file (needed only under a memory limit); for
    /// arrays, [`crate::spill_format::write_array`] does it.
    fn spill(_value: &Self::Value, _out: &mut dyn Write) -> io::Result<()> {
        Err(spill_unsupported())
    }
    /// Reads back a value written by [`ChunkKernel::spill`].
    fn unspill(_input: &mut dyn Read) -> io::Result<Self::Value> {
        Err(spill_unsupported())
    }
    /// Whether the operation touches state that only the coordinating process holds
    /// (a save's temporary file), so that with workers in several processes it must
    /// run on one of [`ExecOptions::home_workers`].
    fn runs_at_home(&self) -> bool {
        false
    }
}

fn spill_unsupported() -> io::Error {
    io::Error::new(
        io::ErrorKind::Unsupported,
        "not supported yet: spilling this kind of chunk to disk",
    )
}

/// How to run a plan.
#[derive(Clone, Debug)]
pub struct ExecOptions {
    /// Number of workers, at least 1.
    pub workers: u32,
    /// Subtasks each worker may have in flight; `None` adapts it to the measured
    /// time per subtask (from 2 for slow kernels up to 1024 for trivial ones).
    pub queue_depth: Option<u32>,
    /// When set to true (e.g. from a Ctrl-C handler) the run stops with
    /// [`ExecError::Cancelled`] within a few tens of milliseconds plus the
    /// longest running kernel.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Bytes of chunks the run may hold in memory; past it, chunks are spilled to
    /// disk. A single subtask may exceed it (see [`check_memory`]).
    pub memory_limit: Option<u64>,
    /// The projected bytes of every chunk, indexed by chunk id (what the caller
    /// also gives [`check_memory`]). Under a memory limit it makes admission exact;
    /// without it, output sizes are learnt during the run and may be
    /// underestimated (see [`memory`]).
    pub projected_chunk_bytes: Option<Arc<[u64]>>,
    /// Where the run's spill directory is created; the system's temporary
    /// directory when `None`.
    pub spill_dir: Option<PathBuf>,
    /// How many times a failed subtask is run again before the job stops.
    pub max_retries: u32,
    /// `(rate, seed)`: each subtask attempt fails with probability `rate`,
    /// deterministically per (seed, subtask, attempt); the last attempt allowed
    /// by `max_retries` never does. For testing recovery.
    pub inject_faults: Option<(f64, u64)>,
    /// `(worker, fraction)`: the worker dies once that fraction of the subtasks
    /// has completed, losing its store. For testing recovery; needs 2 workers.
    pub kill_worker: Option<(u32, f64)>,
    /// Run every subtask on the caller's thread, in plan order, with no worker
    /// threads and no messages: for plans too small to be worth handing to workers
    /// (a stage of a staged loop over a small tensor, where waking a worker costs
    /// more than the work). Ignored under a memory limit or fault injection.
    pub inline: bool,
    /// Workers live in processes (MPI ranks) of this many each, the coordinator's
    /// first: subtasks with a kernel that [`ChunkKernel::runs_at_home`] run on one of
    /// the coordinator's, and a memory limit holds for each process's workers (past
    /// [`memory::MAX_PROCESSES`] processes, one budget of the limit times the
    /// processes covers them all). `None`: all in one process.
    pub workers_per_process: Option<u32>,
}

/// The machine's cores, asked once per process: `available_parallelism` reads the
/// cgroup files on Linux, which cost more than a small run (every stage of a
/// staged script, every REPL input) takes.
fn cores() -> u32 {
    static CORES: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        u32::try_from(cores).unwrap_or(1)
    })
}

impl Default for ExecOptions {
    /// One worker per core.
    fn default() -> Self {
        ExecOptions {
            workers: cores(),
            queue_depth: None,
            cancel: None,
            memory_limit: None,
            projected_chunk_bytes: None,
            spill_dir: None,
            max_retries: 3,
            inline: false,
            workers_per_process: None,
            inject_faults: None,
            kill_worker: None,
        }
    }
}

/// What a successful run hands back.
#[derive(Clone, Debug)]
pub struct ExecOutput<V> {
    /// The values of `plan.results`, in that order.
    pub results: Vec<(ChunkId, Arc<V>)>,
    pub stats: ExecStats,
}

impl<V> ExecOutput<V> {
    pub fn result(&self, chunk: ChunkId) -> Option<&Arc<V>> {
        self.results
            .iter()
            .find(|(id, _)| *id == chunk)
            .map(|(_, value)| value)
    }
}

/// Why a run failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExecError {
    /// The plan breaks an invariant of [`Plan::check`] (a compiler bug).
    InvalidPlan(String),
    InvalidOptions(String),
    /// A kernel returned an error or panicked, on every attempt.
    SubtaskFailed {
        subtask: SubtaskId,
        /// The subtask's `label`, e.g. the source statement.
        label: u32,
        worker: u32,
        message: String,
    },
    Cancelled,
    /// The runtime itself broke down (a bug, or a worker thread could not start).
    Internal(String),
}

impl fmt::Display for ExecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExecError::InvalidPlan(message) => write!(f, "invalid plan: {message}"),
            ExecError::InvalidOptions(message) => write!(f, "invalid options: {message}"),
            ExecError::SubtaskFailed {
                subtask,
                label,
                worker,
                message,
            } => write!(
                f,
                "subtask {subtask} (label {label}) failed on worker {worker}: {message}"
            ),
            ExecError::Cancelled => write!(f, "cancelled"),
            ExecError::Internal(message) => write!(f, "runtime error: {message}"),
        }
    }
}

impl std::error::Error for ExecError {}

/// Runs `plan` on `options.workers` workers (loops on threads of the process's
/// [`pool::WorkerPool`]) and returns the result chunks.
pub fn execute<K: ChunkKernel>(
    plan: &Arc<Plan<K>>,
    options: &ExecOptions,
    observer: &mut dyn ExecObserver,
) -> Result<ExecOutput<K::Value>, ExecError> {
    let plain = options.memory_limit.is_none()
        && options.inject_faults.is_none()
        && options.kill_worker.is_none();
    if options.inline && plain {
        plan.check()
            .map_err(|problems| ExecError::InvalidPlan(problems.to_string()))?;
        return inline::execute_inline(plan, options, observer);
    }
    execute_on(&transport::Threads, plan, options, observer)
}

/// [`execute`] with the run's participants connected by `cluster`: the workers it
/// hands back run here (on the worker pool), and every message goes through its
/// transport.
pub fn execute_on<K: ChunkKernel, C: transport::Cluster<K::Value>>(
    cluster: &C,
    plan: &Arc<Plan<K>>,
    options: &ExecOptions,
    observer: &mut dyn ExecObserver,
) -> Result<ExecOutput<K::Value>, ExecError> {
    let started = Instant::now();
    let record_spans = observer.wants_spans();
    let (local, coordinator_inbox) = start_workers(cluster, plan, options, started, record_spans)?;
    observer.on_start(plan.subtasks.len() as u64, options.workers);
    let outcome = match local.spawn_error.clone() {
        Some(error) => Err(error),
        None => {
            let coordinator = Coordinator::new(
                plan,
                &local.index,
                &*local.transport,
                options,
                local.spill_dir(),
            );
            // A panic here (a runtime bug, or in the caller's observer) must still
            // reach the shutdown below, or the workers would wait for work forever.
            catch_unwind(AssertUnwindSafe(|| {
                coordinator.run(coordinator_inbox, observer)
            }))
            .unwrap_or_else(|payload| {
                Err(ExecError::Internal(format!(
                    "the coordinator crashed: {}",
                    kernel_call::panic_text(&*payload)
                )))
            })
        }
    };
    // Workers that already stopped have dropped their inbox; that is fine.
    for worker in 0..local.transport.num_workers() {
        let _ = local.transport.to_worker(worker, WorkerMessage::Shutdown);
    }
    local.join();
    let (results, mut stats) = outcome?;
    stats.run_seconds = started.elapsed().as_secs_f64();
    Ok(ExecOutput { results, stats })
}

/// Runs the workers `cluster` hands this process for a run coordinated elsewhere
/// (another MPI rank), until the coordinator shuts them down.
pub fn serve_workers<K: ChunkKernel, C: transport::Cluster<K::Value>>(
    cluster: &C,
    plan: &Arc<Plan<K>>,
    options: &ExecOptions,
) -> Result<(), ExecError> {
    // Spans cost little; the coordinator drops them unless it records them.
    let (local, _) = start_workers(cluster, plan, options, Instant::now(), true)?;
    let spawn_error = local.spawn_error.clone();
    if let Some(error) = &spawn_error {
        // The workers that did start wait for the coordinator's shutdown, which
        // this failure brings about.
        let _ = local
            .transport
            .to_coordinator(message::CoordinatorMessage::Failed {
                worker: local.first_worker,
                subtask: None,
                message: error.to_string(),
            });
    }
    local.join();
    spawn_error.map_or(Ok(()), Err)
}

/// The workers of one run that live in this process, started on the worker pool.
struct LocalWorkers<T> {
    transport: Arc<T>,
    /// The lowest id of this process's workers.
    first_worker: u32,
    index: Arc<PlanIndex>,
    handles: Vec<pool::TaskHandle>,
    /// A worker that could not start (the others were started and must be joined).
    spawn_error: Option<ExecError>,
    /// Declared last, so it is removed after the workers are joined.
    spill_area: Option<TempDir>,
}

/// Connects a run's participants and starts the workers of this process; hands
/// back the coordinator's inbox too.
#[allow(clippy::type_complexity)] // reason: the pair is what a start gives
fn start_workers<K: ChunkKernel, C: transport::Cluster<K::Value>>(
    cluster: &C,
    plan: &Arc<Plan<K>>,
    options: &ExecOptions,
    started: Instant,
    record_spans: bool,
) -> Result<(LocalWorkers<C::Transport>, C::CoordinatorInbox), ExecError> {
    plan.check()
        .map_err(|problems| ExecError::InvalidPlan(problems.to_string()))?;
    if options.workers == 0 {
        return Err(ExecError::InvalidOptions(
            "the number of workers must be at least 1".to_string(),
        ));
    }
    faults::validate(options)?;
    if let Some(projected) = &options.projected_chunk_bytes {
        if projected.len() != plan.num_chunks as usize {
            return Err(ExecError::InvalidOptions(format!(
                "projected_chunk_bytes has {} entries for {} chunks",
                projected.len(),
                plan.num_chunks
            )));
        }
    }
    let spill_area = options
        .memory_limit
        .map(|_| create_spill_dir(options))
        .transpose()?;
    let index = Arc::new(PlanIndex::new(plan));
    let (transport, worker_inboxes, coordinator_inbox) = cluster.connect(options.workers);
    if transport.num_workers() != options.workers {
        return Err(ExecError::InvalidOptions(format!(
            "the cluster connected {} workers for a run of {}",
            transport.num_workers(),
            options.workers
        )));
    }
    let transport = Arc::new(transport);
    let faults = FaultInjection::new(options);
    let pool = pool::WorkerPool::global();
    let first_worker = worker_inboxes.first().map_or(0, |(me, _)| *me);
    let mut local = LocalWorkers {
        transport,
        first_worker,
        index,
        handles: Vec::with_capacity(worker_inboxes.len()),
        spawn_error: None,
        spill_area,
    };
    for (me, inbox) in worker_inboxes {
        let context = WorkerContext {
            plan: Arc::clone(plan),
            index: Arc::clone(&local.index),
            transport: Arc::clone(&local.transport),
            me,
            epoch: started,
            record_spans,
            spill_dir: local.spill_dir().map(Path::to_path_buf),
            faults,
        };
        match pool.spawn(move || run_worker(context, inbox)) {
            Ok(handle) => local.handles.push(handle),
            Err(error) => {
                local.spawn_error = Some(ExecError::Internal(format!(
                    "cannot start worker thread {me}: {error}"
                )));
                break;
            }
        }
    }
    Ok((local, coordinator_inbox))
}

impl<T> LocalWorkers<T> {
    fn spill_dir(&self) -> Option<&Path> {
        self.spill_area.as_ref().map(TempDir::path)
    }

    /// Waits for every worker loop to end, then removes the spill directory: a
    /// worker's own panic was reported to the coordinator.
    fn join(self) {
        for handle in self.handles {
            handle.join();
        }
    }
}

/// A fresh directory for this run's spill files.
fn create_spill_dir(options: &ExecOptions) -> Result<TempDir, ExecError> {
    let parent = options.spill_dir.clone().unwrap_or_else(std::env::temp_dir);
    tempfile::Builder::new()
        .prefix("marsc-spill-")
        .tempdir_in(&parent)
        .map_err(|error| {
            ExecError::InvalidOptions(format!(
                "cannot create a spill directory in {}: {error}",
                parent.display()
            ))
        })
}
