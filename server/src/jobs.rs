//! The job table: submission into a bounded queue, each job on a thread of its own
//! (through the library's job API), their states (QUEUED → PREPARING → RUNNING →
//! SUCCEEDED | FAILED | CANCELLED, with CANCELLING while a cancel is under way),
//! progress per op and per worker, and what each leaves: printed output,
//! diagnostics, stats, trace.
//!
//! **Sharing the machine.** At most `max_jobs` jobs compile at once (PREPARING).
//! A compiled job then needs a run slot, in one of two lanes: a *small* job (at
//! most [`SMALL_SUBTASKS`] subtasks over at most [`SMALL_BYTES`] of chunks, not
//! staged) takes one of `max_jobs` small-lane slots, any other one of `max_jobs`
//! regular slots, first come first served in each lane (it stays PREPARING while it
//! waits). Slots are not preempted, so without the small lane a burst of big jobs
//! would hold every slot and a one-millisecond job would wait for the slowest of
//! them; with it, small jobs pass big ones (their threads share the cores with the
//! big jobs' workers) and big jobs still run `max_jobs` at a time.
//!
//! Cancelling sets the job's own [`CancelToken`]: a queued job is dropped at once;
//! one preparing is marked and discarded once compiling returns; one running stops
//! at chunk granularity and the runtime removes its partial saves and temporary
//! files.

use crate::config::Config;
use crate::events::Bus;
use marsc::diagnostics::SourceFile;
use marsc::driver::Options;
use marsc::error::JobError;
use marsc::fuse::Fusion;
use marsc::job::{self, Compiled, PrintSink, Printed, PrintedItem};
use marsc::run::{CancelToken, Progress, ProgressFactory, RunOptions};
use marsc::subtask::SubtaskId;
use marsc_runtime::exec::{ExecObserver, SubtaskSpan, WorkerMemory};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tokio::sync::watch;

/// A job's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    Queued,
    Preparing,
    Running,
    Succeeded,
    Failed,
    Cancelling,
    Cancelled,
}

impl State {
    pub fn name(self) -> &'static str {
        match self {
            State::Queued => "QUEUED",
            State::Preparing => "PREPARING",
            State::Running => "RUNNING",
            State::Succeeded => "SUCCEEDED",
            State::Failed => "FAILED",
            State::Cancelling => "CANCELLING",
            State::Cancelled => "CANCELLED",
        }
    }

    pub fn parse(name: &str) -> Option<State> {
        [
            State::Queued,
            State::Preparing,
            State::Running,
            State::Succeeded,
            State::Failed,
            State::Cancelling,
            State::Cancelled,
        ]
        .into_iter()
        .find(|state| state.name().eq_ignore_ascii_case(name))
    }

    /// Whether the job has ended (nothing of it runs any more).
    pub fn is_terminal(self) -> bool {
        matches!(self, State::Succeeded | State::Failed | State::Cancelled)
    }
}

/// What a submission asks for besides the script.
#[derive(Clone, Debug)]
pub struct JobOptions {
    pub workers: u32,
    pub chunk_bytes: u64,
    pub jit: bool,
    pub fuse: bool,
    pub timeout: Option<Duration>,
}

/// One op of the TileableGraph that subtasks compute, with its progress.
#[derive(Clone, Debug)]
pub struct OpProgress {
    pub tileable: u32,
    pub line: usize,
    pub text: String,
    pub done: u64,
    pub total: u64,
}

/// Why a job failed: the error as JSON (`JobError::to_json`), as the terminal
/// shows it, and the exit status a local run would have.
#[derive(Clone, Debug)]
pub struct Failure {
    pub json: Value,
    pub text: String,
    pub exit_code: u8,
}

/// A printed tensor or saved file a job leaves.
#[derive(Clone, Debug)]
pub enum ResultArray {
    Printed(marsc::run::output::Shown),
    Saved(PathBuf),
}

/// What a job's thread updates as it goes.
#[derive(Debug, Default)]
pub struct Status {
    pub state: Option<State>,
    pub started_at: Option<f64>,
    pub running_at: Option<f64>,
    pub finished_at: Option<f64>,
    pub done: u64,
    pub total: u64,
    pub workers: u32,
    pub ops: Vec<OpProgress>,
    /// Per subtask, its op's index in `ops`.
    pub subtask_op: Vec<u32>,
    /// Recorded spans `[worker, start µs, end µs, op, subtask]`, at most [`MAX_SPANS`].
    pub spans: Vec<[u64; 5]>,
    /// Whether the job runs in stages: each run is then one entry of `ops`
    /// ("stage N"), and counts and span times go on from the runs before.
    pub staged: bool,
    /// Subtasks done and planned, and the latest span end (µs), over the runs
    /// before the current one (zero unless staged).
    pub before: (u64, u64, u64),
    /// The latest span end so far, µs.
    pub span_end: u64,
    /// Per worker, as it last reported: `[held, peak, spilled]` bytes.
    pub memory: Vec<[u64; 3]>,
    /// Each running job's share of the server's memory limit, if any.
    pub memory_limit: Option<u64>,
    pub prints: Vec<Printed>,
    pub output_bytes: u64,
    pub failure: Option<Failure>,
    pub stats: Option<Value>,
    pub saved: Vec<PathBuf>,
    pub trace: Option<PathBuf>,
    pub timed_out: bool,
}

/// Spans a job keeps for the task stream.
pub const MAX_SPANS: usize = 200_000;

/// A submitted job.
pub struct Job {
    pub id: u64,
    pub name: String,
    pub script: String,
    pub options: JobOptions,
    pub cancel: CancelToken,
    pub submitted_at: f64,
    status: Mutex<Status>,
    state: watch::Sender<State>,
    dir: PathBuf,
}

impl Job {
    pub fn status(&self) -> MutexGuard<'_, Status> {
        self.status.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub fn state(&self) -> State {
        *self.state.borrow()
    }

    /// Waits until the job has ended or `timeout` has passed; returns its state.
    pub async fn wait(&self, timeout: Duration) -> State {
        let mut receiver = self.state.subscribe();
        let _ = tokio::time::timeout(timeout, receiver.wait_for(|state| state.is_terminal())).await;
        self.state()
    }

    /// The compile options of the job (for IR dumps too).
    pub fn compile_options(&self, config: &Config) -> Options {
        Options {
            chunk_bytes: self.options.chunk_bytes,
            base_dir: config.root.clone().unwrap_or_else(|| PathBuf::from(".")),
            root: config.root.clone(),
            jit: self.options.jit,
            fusion: if self.options.fuse {
                Fusion::default()
            } else {
                Fusion::Off
            },
            ..Options::default()
        }
    }

    /// The job as `GET /api/jobs/{id}` shows it (`detail` adds per-op progress).
    pub fn to_json(&self, detail: bool) -> Value {
        let state = self.state();
        let status = self.status();
        let mut value = json!({
            "id": self.id,
            "name": self.name,
            "state": state.name(),
            "submitted_at": self.submitted_at,
            "started_at": status.started_at,
            "running_at": status.running_at,
            "finished_at": status.finished_at,
            "progress": { "done": status.done, "total": status.total, "workers": status.workers },
            "output_bytes": status.output_bytes,
            "error": status.failure.as_ref().map(|failure| failure.json.clone()),
            "error_text": status.failure.as_ref().map(|failure| failure.text.clone()),
            "exit_code": match state {
                State::Succeeded => Some(0),
                State::Cancelled => Some(130),
                State::Failed => status.failure.as_ref().map(|failure| failure.exit_code),
                _ => None,
            },
        });
        if detail {
            value["progress"]["ops"] = ops_json(&status.ops);
            value["progress"]["memory"] = json!(status.memory);
            value["progress"]["memory_limit"] = json!(status.memory_limit);
            value["stats"] = status.stats.clone().unwrap_or(Value::Null);
            value["options"] = json!({
                "workers": self.options.workers,
                "chunk_bytes": self.options.chunk_bytes,
                "jit": self.options.jit,
                "fuse": self.options.fuse,
                "timeout_s": self.options.timeout.map(|t| t.as_secs_f64()),
            });
        }
        value
    }

    /// The results it leaves: printed tensors (`p{print}-{item}`) and saved files
    /// (`s{n}`), by name.
    pub fn results(&self) -> Vec<(String, ResultArray)> {
        let status = self.status();
        let mut results = Vec::new();
        for (print, printed) in status.prints.iter().enumerate() {
            for (item, value) in printed.items.iter().enumerate() {
                if let PrintedItem::Tensor(shown) = value {
                    results.push((
                        format!("p{print}-{item}"),
                        ResultArray::Printed(shown.clone()),
                    ));
                }
            }
        }
        if self.state() == State::Succeeded {
            for (n, path) in status.saved.iter().enumerate() {
                results.push((format!("s{n}"), ResultArray::Saved(path.clone())));
            }
        }
        results
    }

    /// What the job printed, exactly as a local run prints it.
    pub fn output_text(&self) -> String {
        self.status().prints.iter().map(Printed::text).collect()
    }

    fn set_state(&self, bus: &Bus, state: State) {
        {
            let mut status = self.status();
            status.state = Some(state);
            let now = Some(now());
            match state {
                State::Preparing => status.started_at = now,
                State::Running => status.running_at = now,
                _ if state.is_terminal() => status.finished_at = now,
                _ => {}
            }
        }
        self.state.send_replace(state);
        bus.send(self.id, "state", self.to_json(false));
    }
}

fn ops_json(ops: &[OpProgress]) -> Value {
    ops.iter()
        .map(|op| {
            json!({
                "tileable": op.tileable, "line": op.line, "text": op.text,
                "done": op.done, "total": op.total,
            })
        })
        .collect()
}

/// The job table and its queue.
pub struct Manager {
    pub config: Arc<Config>,
    pub bus: Bus,
    pub address: SocketAddr,
    table: Mutex<Table>,
    shutting_down: AtomicBool,
    idle: tokio::sync::Notify,
    /// Signalled when a run slot is given back.
    slot_freed: std::sync::Condvar,
    dir: PathBuf,
}

#[derive(Default)]
struct Table {
    jobs: BTreeMap<u64, Arc<Job>>,
    queue: VecDeque<u64>,
    /// Job threads alive (compiling, waiting for a slot, or running).
    running: usize,
    /// Job threads compiling, at most `max_jobs`.
    preparing: usize,
    /// Per lane: slots taken, and the compiled jobs waiting for one (oldest first).
    lanes: [Lane; 2],
    next_id: u64,
}

impl Table {
    /// Jobs admitted that do not run yet: queued, compiling, or waiting for a slot.
    fn pending(&self) -> usize {
        let waiting: usize = self.lanes.iter().map(|lane| lane.waiting.len()).sum();
        self.queue.len() + self.preparing + waiting
    }
}

/// One lane of run slots.
#[derive(Default)]
struct Lane {
    taken: usize,
    waiting: std::collections::BTreeSet<u64>,
}

/// The two lanes of run slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LaneKind {
    Small = 0,
    Regular = 1,
}

/// A small job: at most this many subtasks ...
pub const SMALL_SUBTASKS: usize = 256;
/// ... over at most this many bytes of chunks.
pub const SMALL_BYTES: u64 = 16 << 20;

/// The lane of a compiled job.
fn lane_of(compiled: &Compiled) -> LaneKind {
    let small = compiled.subtasks.len() <= SMALL_SUBTASKS
        && marsc::run::preflight::projected_chunk_bytes(&compiled.chunks)
            .iter()
            .sum::<u64>()
            <= SMALL_BYTES;
    if small {
        LaneKind::Small
    } else {
        LaneKind::Regular
    }
}

/// Why a submission was refused.
#[derive(Debug)]
pub enum Refused {
    QueueFull(usize),
    ShuttingDown,
}

impl Manager {
    pub fn new(config: Arc<Config>, address: SocketAddr) -> Arc<Manager> {
        let dir = std::env::temp_dir().join(format!(
            "marsc-serve-{}-{}",
            std::process::id(),
            address.port()
        ));
        Arc::new(Manager {
            config,
            bus: Bus::new(),
            address,
            table: Mutex::new(Table {
                next_id: 1,
                ..Table::default()
            }),
            shutting_down: AtomicBool::new(false),
            idle: tokio::sync::Notify::new(),
            slot_freed: std::sync::Condvar::new(),
            dir,
        })
    }

    fn table(&self) -> MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Queues a job; starts it if a slot is free.
    pub fn submit(
        self: &Arc<Self>,
        name: String,
        script: String,
        options: JobOptions,
    ) -> Result<Arc<Job>, Refused> {
        if self.shutting_down.load(Ordering::SeqCst) {
            return Err(Refused::ShuttingDown);
        }
        let job = {
            let mut table = self.table();
            if table.pending() >= self.config.max_queued {
                return Err(Refused::QueueFull(self.config.max_queued));
            }
            let id = table.next_id;
            table.next_id += 1;
            let job = Arc::new(Job {
                id,
                name,
                script,
                options,
                cancel: CancelToken::new(),
                submitted_at: now(),
                status: Mutex::new(Status {
                    state: Some(State::Queued),
                    ..Status::default()
                }),
                state: watch::Sender::new(State::Queued),
                dir: self.dir.join(format!("job-{id}")),
            });
            table.jobs.insert(id, Arc::clone(&job));
            table.queue.push_back(id);
            self.forget_old(&mut table);
            job
        };
        self.bus.send(job.id, "state", job.to_json(false));
        self.pump();
        Ok(job)
    }

    /// Forgets the oldest finished jobs beyond `max_kept`.
    fn forget_old(&self, table: &mut Table) {
        let finished: Vec<u64> = table
            .jobs
            .values()
            .filter(|job| job.state().is_terminal())
            .map(|job| job.id)
            .collect();
        let excess = finished.len().saturating_sub(self.config.max_kept);
        for id in finished.into_iter().take(excess) {
            if let Some(job) = table.jobs.remove(&id) {
                let _ = std::fs::remove_dir_all(&job.dir);
                self.bus.send(id, "removed", json!({ "id": id }));
            }
        }
    }

    /// Starts queued jobs while fewer than `max_jobs` compile.
    fn pump(self: &Arc<Self>) {
        loop {
            let job = {
                let mut table = self.table();
                if table.preparing >= self.config.max_jobs {
                    return;
                }
                let Some(id) = table.queue.pop_front() else {
                    return;
                };
                let Some(job) = table.jobs.get(&id).cloned() else {
                    continue;
                };
                if job.state().is_terminal() {
                    continue;
                }
                table.running += 1;
                table.preparing += 1;
                job
            };
            let manager = Arc::clone(self);
            let started = std::thread::Builder::new()
                .name(format!("marsc-job-{}", job.id))
                .spawn({
                    let job = Arc::clone(&job);
                    move || {
                        // A panic in a job (a compiler or kernel bug) fails that job
                        // only; the server and the other jobs go on.
                        let mut slot = Slot::Compiling;
                        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(
                            || manager.run_job(&job, &mut slot),
                        ));
                        manager.leave(slot);
                        if outcome.is_err() && !job.state().is_terminal() {
                            job.status().failure = Some(Failure {
                                json: json!({"kind": "internal", "errors": [{"file": job.name, "line": null, "column": null, "message": "internal error: the job panicked", "label": "", "help": null, "note": null}]}),
                                text: "error: internal error: the job panicked\n".to_string(),
                                exit_code: 101,
                            });
                            job.set_state(&manager.bus, State::Failed);
                        }
                        manager.job_ended();
                    }
                });
            if started.is_err() {
                let mut table = self.table();
                table.running -= 1;
                table.preparing -= 1;
                drop(table);
                let failure = JobError::Io("cannot start a thread for the job".to_string());
                self.fail(&job, failure);
            }
        }
    }

    /// Gives back what a job thread holds: its compile place or its run slot.
    fn leave(self: &Arc<Self>, slot: Slot) {
        let mut table = self.table();
        match slot {
            Slot::Compiling => table.preparing -= 1,
            Slot::Waiting => {}
            Slot::Running(lane) => {
                table.lanes[lane as usize].taken -= 1;
                drop(table);
                self.slot_freed.notify_all();
            }
        }
    }

    /// Compiling is over: frees the compile place (another queued job may start)
    /// and waits, first come first served, for a slot in `lane`. `false` if the
    /// job was cancelled meanwhile.
    fn take_slot(self: &Arc<Self>, job: &Job, lane: LaneKind, slot: &mut Slot) -> bool {
        {
            let mut table = self.table();
            table.preparing -= 1;
            table.lanes[lane as usize].waiting.insert(job.id);
        }
        *slot = Slot::Waiting;
        self.pump();
        let mut table = self.table();
        loop {
            let free = table.lanes[lane as usize].taken < self.config.max_jobs;
            let first = table.lanes[lane as usize].waiting.first() == Some(&job.id);
            if job.cancel.is_cancelled() || (free && first) {
                table.lanes[lane as usize].waiting.remove(&job.id);
                if job.cancel.is_cancelled() {
                    drop(table);
                    // The next in line may take the slot this one would have had.
                    self.slot_freed.notify_all();
                    return false;
                }
                table.lanes[lane as usize].taken += 1;
                *slot = Slot::Running(lane);
                drop(table);
                // The next in line may find a slot free too.
                self.slot_freed.notify_all();
                return true;
            }
            table = self
                .slot_freed
                .wait_timeout(table, Duration::from_millis(50))
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }

    fn job_ended(self: &Arc<Self>) {
        {
            let mut table = self.table();
            table.running = table.running.saturating_sub(1);
        }
        self.idle.notify_waiters();
        self.pump();
    }

    pub fn get(&self, id: u64) -> Option<Arc<Job>> {
        self.table().jobs.get(&id).cloned()
    }

    /// Every job, oldest first.
    pub fn list(&self) -> Vec<Arc<Job>> {
        self.table().jobs.values().cloned().collect()
    }

    /// Jobs that do not run yet (queued, compiling, waiting for a slot), and jobs
    /// running.
    pub fn load(&self) -> (usize, usize) {
        let table = self.table();
        let running = table.lanes.iter().map(|lane| lane.taken).sum();
        (table.pending(), running)
    }

    /// Asks a job to stop; returns its state after the request.
    pub fn cancel(&self, job: &Arc<Job>) -> State {
        job.cancel.cancel();
        let state = job.state();
        match state {
            State::Queued => {
                self.table().queue.retain(|id| *id != job.id);
                // The queue may have let it go to a thread meanwhile: that thread
                // sees the token and ends it.
                if job.state() == State::Queued {
                    job.status().failure = None;
                    job.set_state(&self.bus, State::Cancelled);
                }
            }
            State::Preparing | State::Running => job.set_state(&self.bus, State::Cancelling),
            _ => {}
        }
        job.state()
    }

    /// Forgets an ended job and its files; `false` if it has not ended.
    pub fn remove(&self, job: &Arc<Job>) -> bool {
        if !job.state().is_terminal() {
            return false;
        }
        self.table().jobs.remove(&job.id);
        let _ = std::fs::remove_dir_all(&job.dir);
        self.bus.send(job.id, "removed", json!({ "id": job.id }));
        true
    }

    /// Refuses new jobs and cancels every job that has not ended.
    pub fn shut_down(&self) {
        self.shutting_down.store(true, Ordering::SeqCst);
        for job in self.list() {
            if !job.state().is_terminal() {
                self.cancel(&job);
            }
        }
    }

    /// Waits until no job thread runs (or `grace` has passed), then removes the
    /// server's temporary files.
    pub async fn wait_idle(&self, grace: Duration) {
        let deadline = Instant::now() + grace;
        loop {
            let running = self.table().running;
            if running == 0 || Instant::now() >= deadline {
                break;
            }
            let _ = tokio::time::timeout(Duration::from_millis(50), self.idle.notified()).await;
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }

    fn fail(&self, job: &Job, error: JobError) {
        let source = SourceFile {
            name: &job.name,
            text: &job.script,
        };
        let failure = Failure {
            json: error.to_json(&source),
            text: error.render(&source),
            exit_code: error.exit_code(),
        };
        job.status().failure = Some(failure);
        job.set_state(&self.bus, State::Failed);
    }

    /// A job's whole life on its thread.
    fn run_job(self: &Arc<Self>, job: &Arc<Job>, slot: &mut Slot) {
        if job.cancel.is_cancelled() {
            job.set_state(&self.bus, State::Cancelled);
            return;
        }
        job.set_state(&self.bus, State::Preparing);
        let _timer = job.options.timeout.map(|limit| Watchdog::start(job, limit));
        let trace = std::fs::create_dir_all(&job.dir)
            .ok()
            .map(|()| job.dir.join("trace.json"));
        job.status().memory_limit = self.config.job_memory_limit();
        let run_options = RunOptions {
            workers: job.options.workers,
            progress: Some(progress_factory(Arc::clone(self), Arc::clone(job))),
            trace: trace.clone(),
            memory_limit: self.config.job_memory_limit(),
            cancel: job.cancel.clone(),
            ..RunOptions::default()
        };
        let options = job.compile_options(&self.config);
        let compiled = job::compile_for_run(&job.script, &options, &run_options);
        if job.cancel.is_cancelled() {
            return self.end_cancelled(job);
        }
        let compiled = match compiled {
            Ok(compiled) => compiled,
            Err(JobError::NeedsStages(_)) => {
                if !self.take_slot(job, LaneKind::Regular, slot) {
                    return self.end_cancelled(job);
                }
                return self.run_staged(job, &options, &run_options);
            }
            Err(error) => return self.fail(job, error),
        };
        let chunks = compiled.chunks.num_chunks() as u64;
        if chunks > self.config.max_chunks {
            return self.fail(
                job,
                JobError::Limit(format!(
                    "the script compiles to {chunks} chunks, more than this server's limit of {}",
                    self.config.max_chunks
                )),
            );
        }
        if !self.take_slot(job, lane_of(&compiled), slot) {
            return self.end_cancelled(job);
        }
        self.describe_ops(job, &compiled);
        job.set_state(&self.bus, State::Running);
        if job.cancel.is_cancelled() {
            // A cancel between the checks: the state must not stay RUNNING.
            job.set_state(&self.bus, State::Cancelling);
        }
        let mut sink = JobSink {
            job,
            limit: self.config.max_output,
        };
        let outcome = job::run_compiled_to(&compiled, &run_options, &mut sink);
        if let Some(path) = trace.filter(|path| path.exists()) {
            job.status().trace = Some(path);
        }
        match outcome {
            Ok(stats) => {
                {
                    let mut status = job.status();
                    status.stats = Some(stats.to_json());
                    status.saved = saved_files(&compiled);
                    status.done = status.total;
                }
                self.bus
                    .send(job.id, "progress", progress_json(job, Vec::new()));
                job.set_state(&self.bus, State::Succeeded);
            }
            Err(_) if job.cancel.is_cancelled() => self.end_cancelled(job),
            Err(error) => self.fail(job, error),
        }
    }

    /// Runs a script that needs tensor values to go on, stage by stage (its
    /// operations are not known in advance, so its progress counts subtasks only).
    fn run_staged(self: &Arc<Self>, job: &Arc<Job>, options: &Options, run_options: &RunOptions) {
        job.status().staged = true;
        job.set_state(&self.bus, State::Running);
        let mut sink = JobSink {
            job,
            limit: self.config.max_output,
        };
        match job::run_staged_to(&job.script, options, run_options, &mut sink) {
            Ok(stats) => {
                job.status().stats = Some(stats.to_json());
                self.bus
                    .send(job.id, "progress", progress_json(job, Vec::new()));
                job.set_state(&self.bus, State::Succeeded);
            }
            Err(_) if job.cancel.is_cancelled() => self.end_cancelled(job),
            Err(error) => self.fail(job, error),
        }
    }

    /// A cancelled job ends CANCELLED, or FAILED when its time limit cancelled it.
    fn end_cancelled(&self, job: &Job) {
        let timed_out = job.status().timed_out;
        match (timed_out, job.options.timeout) {
            (true, Some(limit)) => self.fail(
                job,
                JobError::Limit(format!(
                    "the job ran past its time limit of {} s",
                    limit.as_secs_f64()
                )),
            ),
            _ => job.set_state(&self.bus, State::Cancelled),
        }
    }

    /// Maps each subtask to the op (tileable) whose chunk it publishes last, and
    /// counts each op's subtasks.
    fn describe_ops(&self, job: &Job, compiled: &Compiled) {
        let mut ops: Vec<OpProgress> = Vec::new();
        let mut by_tileable: HashMap<u32, u32> = HashMap::new();
        let mut subtask_op = Vec::with_capacity(compiled.subtasks.len());
        for index in 0..compiled.subtasks.len() {
            let Some(&last) = compiled.subtasks.ops(SubtaskId(index as u32)).last() else {
                subtask_op.push(u32::MAX);
                continue;
            };
            let tileable = compiled.chunks.step_of(last).tileable;
            let op = *by_tileable.entry(tileable.0).or_insert_with(|| {
                let span = compiled.tileables.node(tileable).span;
                ops.push(OpProgress {
                    tileable: tileable.0,
                    line: line_of(&job.script, span.start as usize),
                    text: snippet(&job.script, span.start as usize, span.end as usize),
                    done: 0,
                    total: 0,
                });
                (ops.len() - 1) as u32
            });
            ops[op as usize].total += 1;
            subtask_op.push(op);
        }
        let mut status = job.status();
        status.ops = ops;
        status.subtask_op = subtask_op;
        status.total = compiled.subtasks.len() as u64;
    }
}

/// The files a compiled script saves.
fn saved_files(compiled: &Compiled) -> Vec<PathBuf> {
    let mut saved = Vec::new();
    for output in &compiled.tileables.outputs {
        if let marsc::tileable::Output::Save { path, .. } = output {
            if !saved.contains(path) {
                saved.push(path.clone());
            }
        }
    }
    saved
}

/// What a job thread holds.
#[derive(Clone, Copy, Debug)]
enum Slot {
    /// One of the `max_jobs` compile places.
    Compiling,
    /// Nothing: compiled, waiting for a run slot (or ended there).
    Waiting,
    /// A run slot of a lane.
    Running(LaneKind),
}

/// Seconds since the epoch.
pub fn now() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |elapsed| elapsed.as_secs_f64())
}

/// The 1-based line of byte `offset`.
fn line_of(text: &str, offset: usize) -> usize {
    let offset = offset.min(text.len());
    text.as_bytes()[..offset]
        .iter()
        .filter(|&&byte| byte == b'\n')
        .count()
        + 1
}

/// The source of a span on one line, shortened to 60 characters.
fn snippet(text: &str, start: usize, end: usize) -> String {
    let piece = text.get(start..end.min(text.len())).unwrap_or("");
    let line = piece.lines().next().unwrap_or("").trim();
    if line.chars().count() > 60 {
        let short: String = line.chars().take(57).collect();
        format!("{short}...")
    } else {
        line.to_string()
    }
}

/// Cancels a job that runs past its time limit.
struct Watchdog {
    stop: Arc<(Mutex<bool>, std::sync::Condvar)>,
}

impl Watchdog {
    fn start(job: &Arc<Job>, limit: Duration) -> Watchdog {
        let stop = Arc::new((Mutex::new(false), std::sync::Condvar::new()));
        let (job, watching) = (Arc::clone(job), Arc::clone(&stop));
        let _ = std::thread::Builder::new()
            .name("marsc-job-timer".to_string())
            .spawn(move || {
                let (stopped, condvar) = &*watching;
                let guard = stopped.lock().unwrap_or_else(PoisonError::into_inner);
                let (guard, _) = condvar
                    .wait_timeout_while(guard, limit, |stopped| !*stopped)
                    .unwrap_or_else(PoisonError::into_inner);
                if !*guard {
                    job.status().timed_out = true;
                    job.cancel.cancel();
                }
            });
        Watchdog { stop }
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        let (stopped, condvar) = &*self.stop;
        *stopped.lock().unwrap_or_else(PoisonError::into_inner) = true;
        condvar.notify_all();
    }
}

/// Keeps a job's prints, within the output limit.
struct JobSink<'j> {
    job: &'j Job,
    limit: u64,
}

impl PrintSink for JobSink<'_> {
    fn print(&mut self, printed: Printed) -> Result<u64, JobError> {
        let bytes = printed.text().len() as u64;
        let mut status = self.job.status();
        if status.output_bytes + bytes > self.limit {
            return Err(JobError::Limit(format!(
                "the job printed more than this server's output limit of {} bytes",
                self.limit
            )));
        }
        status.output_bytes += bytes;
        let held = printed.nbytes() as u64;
        status.prints.push(printed);
        Ok(held)
    }
}

/// The progress event of a job: counts, per-op counts, and new spans.
fn progress_json(job: &Job, spans: Vec<[u64; 5]>) -> Value {
    let status = job.status();
    json!({
        "id": job.id,
        "done": status.done,
        "total": status.total,
        "workers": status.workers,
        "ops": status.ops.iter().map(|op| [op.done, op.total]).collect::<Vec<_>>(),
        "memory": status.memory,
        "spans": spans,
    })
}

/// How often progress events go out while a job runs.
const PROGRESS_EVERY: Duration = Duration::from_millis(100);

fn progress_factory(manager: Arc<Manager>, job: Arc<Job>) -> ProgressFactory {
    ProgressFactory::new(move || {
        Box::new(JobProgress {
            manager: Arc::clone(&manager),
            job: Arc::clone(&job),
            pending: Vec::new(),
            last: Instant::now(),
        })
    })
}

/// Feeds a job's status and the event bus from the executor.
struct JobProgress {
    manager: Arc<Manager>,
    job: Arc<Job>,
    pending: Vec<[u64; 5]>,
    last: Instant,
}

impl JobProgress {
    fn flush(&mut self, force: bool) {
        if !force && self.last.elapsed() < PROGRESS_EVERY {
            return;
        }
        self.last = Instant::now();
        let spans = std::mem::take(&mut self.pending);
        let event = progress_json(&self.job, spans);
        self.manager.bus.send(self.job.id, "progress", event);
    }
}

impl ExecObserver for JobProgress {
    fn on_start(&mut self, total: u64, workers: u32) {
        let mut status = self.job.status();
        if status.staged {
            // Each stage's run goes on from the ones before: its counts, its
            // task-stream times, and an entry of its own in the per-op list.
            status.before = (status.done, status.total, status.span_end);
            let stage = status.ops.len() + 1;
            status.ops.push(OpProgress {
                tileable: u32::MAX,
                line: 0,
                text: format!("stage {stage}"),
                done: 0,
                total,
            });
        }
        status.total = status.before.1 + total;
        status.workers = workers;
        status.memory = vec![[0; 3]; workers as usize];
        drop(status);
        self.flush(true);
    }

    fn on_subtask_done(&mut self, done: u64, _total: u64) {
        let mut status = self.job.status();
        status.done = status.before.0 + done;
        drop(status);
        self.flush(false);
    }

    fn wants_spans(&self) -> bool {
        true
    }

    fn on_subtask_span(&mut self, span: &SubtaskSpan) {
        let mut status = self.job.status();
        let op = if status.staged {
            status.ops.len().saturating_sub(1) as u32
        } else {
            status
                .subtask_op
                .get(span.subtask.index())
                .copied()
                .unwrap_or(u32::MAX)
        };
        if let Some(progress) = status.ops.get_mut(op as usize) {
            progress.done = (progress.done + 1).min(progress.total);
        }
        let offset = status.before.2;
        let row = [
            u64::from(span.worker),
            offset + span.start_nanos / 1000,
            offset + span.end_nanos / 1000,
            u64::from(op),
            u64::from(span.subtask.0),
        ];
        status.span_end = status.span_end.max(row[2]);
        if status.spans.len() < MAX_SPANS {
            status.spans.push(row);
            drop(status);
            if self.pending.len() < 5000 {
                self.pending.push(row);
            }
        }
    }

    fn on_worker_memory(&mut self, memory: &WorkerMemory) {
        let mut status = self.job.status();
        let worker = memory.worker as usize;
        if status.memory.len() <= worker {
            status.memory.resize(worker + 1, [0; 3]);
        }
        status.memory[worker] = [memory.held_bytes, memory.peak_bytes, memory.spilled_bytes];
    }
}

impl Progress for JobProgress {
    fn finish(&mut self) {
        self.flush(true);
    }
}
