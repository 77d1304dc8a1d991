//! How to run a compiled program ([`RunOptions`]), and how a run reports its
//! progress to the front-end that asked ([`Progress`], made per run by a
//! [`ProgressFactory`]).

use super::CancelToken;
use marsc_runtime::exec::{ExecObserver, ExecOptions};
use std::path::PathBuf;
use std::sync::Arc;

/// How to run a compiled program.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Number of workers, at least 1.
    pub workers: u32,
    /// Makes the observer each run reports its progress to (the CLI's bar on
    /// stderr, a server's live job state); `None` for none.
    pub progress: Option<ProgressFactory>,
    /// Write a Chrome trace of the run here.
    pub trace: Option<PathBuf>,
    /// Keep chunk data within this many bytes, spilling to disk past it; a subtask
    /// that alone cannot fit is refused before anything runs.
    pub memory_limit: Option<u64>,
    /// `(rate, seed)`: fail subtask attempts at random, for testing recovery.
    pub inject_faults: Option<(f64, u64)>,
    /// `(worker, fraction)`: drop a worker part-way, for testing recovery.
    pub kill_worker: Option<(u32, f64)>,
    /// The job's cancel token: once cancelled (e.g. by [`interrupt`]'s signal
    /// thread) the run stops at chunk granularity, removes its temporary files and
    /// partial saves, and fails with [`JobError::Cancelled`].
    pub cancel: CancelToken,
    /// Run a plan too small to be worth worker threads (a few subtasks over at most
    /// a mebibyte of chunks: a stage of a loop over a small tensor) on the caller's
    /// thread. Tests of the workers' own figures turn it off.
    pub inline_small: bool,
    /// The MPI job this process is a rank of: every run takes place on the workers
    /// of all its ranks ([`marsc_runtime::exec::mpi`], cargo feature `mpi`); `None`:
    /// the workers are threads of this process.
    pub ranks: Option<Ranks>,
}

/// The MPI job a process is a rank of.
#[cfg(feature = "mpi")]
pub type Ranks = Arc<marsc_runtime::exec::mpi::MpiWorld>;

/// The MPI job a process is a rank of: none can exist in a build without the cargo
/// feature `mpi`.
#[cfg(not(feature = "mpi"))]
#[derive(Clone, Debug)]
pub enum Ranks {}

#[cfg(not(feature = "mpi"))]
impl Ranks {
    /// The number of ranks (none exist in this build).
    pub fn size(&self) -> u32 {
        match *self {}
    }
}

impl Default for RunOptions {
    /// One worker per core, no progress bar, no trace.
    fn default() -> RunOptions {
        RunOptions {
            workers: ExecOptions::default().workers,
            progress: None,
            trace: None,
            memory_limit: None,
            inject_faults: None,
            kill_worker: None,
            cancel: CancelToken::new(),
            inline_small: true,
            ranks: None,
        }
    }
}

/// What a run tells about its progress: the executor's events (subtasks done out
/// of the total), then [`Progress::finish`] once it has stopped.
pub trait Progress: ExecObserver + Send {
    /// The run has stopped (call before printing results).
    fn finish(&mut self);
}

/// Makes a fresh [`Progress`] for each run of a job.
#[derive(Clone)]
pub struct ProgressFactory(pub Arc<dyn Fn() -> Box<dyn Progress> + Send + Sync>);

impl ProgressFactory {
    pub fn new(make: impl Fn() -> Box<dyn Progress> + Send + Sync + 'static) -> ProgressFactory {
        ProgressFactory(Arc::new(make))
    }

    /// A new observer.
    pub fn make(&self) -> Box<dyn Progress> {
        (self.0)()
    }
}

impl std::fmt::Debug for ProgressFactory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ProgressFactory")
    }
}
