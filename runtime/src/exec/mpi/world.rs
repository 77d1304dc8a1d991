//! The process's MPI connection: one communication thread that makes every MPI call
//! (rsmpi's communicators cannot be shared between threads on Open MPI, and a
//! blocking MPI call spins a core), and a handle the rest of the process talks to it
//! through, on channels.
//!
//! The thread posts non-blocking sends for what it is given, receives whatever
//! arrives (`immediate_matched_probe`), spins while traffic flows and backs off to
//! short sleeps when idle. Sent buffers live in an arena for the lifetime of one MPI
//! request scope, which ends whenever no send is pending; large messages therefore
//! never hold small ones back (each is its own non-blocking send).
//!
//! Every message starts with a channel byte: a *run* message (a transport message of
//! one run, [`super::MpiConnector`]) carries the run's epoch and goes to that run's
//! route, buffered if the run has not connected here yet and dropped if it has ended;
//! a *control* message (the job's own protocol: plan fingerprints, outcomes, the
//! end-of-job handshake) goes to the main thread's [`MpiWorld::receive_from`].

use mpi::point_to_point::MatchedReceiveVec;
use mpi::topology::{Communicator, SimpleCommunicator};
use mpi::traits::{Destination, Source};
use mpi::Threading;
use std::collections::{BTreeMap, VecDeque};
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// The first byte of a run message.
pub(super) const RUN_CHANNEL: u8 = 0;
/// The first byte of a control message.
const CONTROL_CHANNEL: u8 = 1;
/// Bytes before a run message's own content: channel, epoch.
pub(super) const RUN_HEADER: usize = 5;

/// Bytes of sent messages an arena may hold before the thread waits for them to be
/// received (and frees them) instead of posting more.
const ARENA_LIMIT: usize = 256 << 20;

/// The kinds of control messages.
pub mod control {
    /// A rank's fingerprint of the plan it compiled for the next run.
    pub const FINGERPRINT: u8 = 1;
    /// Rank 0's outcome of a run (results and figures, or the error).
    pub const OUTCOME: u8 = 2;
    /// Rank 0 ends the job: a rank waiting for a run that will not come stops.
    pub const END: u8 = 3;
    /// A rank other than 0 is done: its exit status and message.
    pub const EXIT: u8 = 4;
    /// Rank 0 has heard every rank's exit: all may finalize.
    pub const BYE: u8 = 5;
    /// The script's text, from rank 0.
    pub const SCRIPT: u8 = 6;
}

/// A control message as received (its channel and kind bytes, then its payload).
pub struct Control(Vec<u8>);

impl Control {
    /// One of [`control`]'s kinds.
    pub fn kind(&self) -> u8 {
        self.0.get(1).copied().unwrap_or(0)
    }

    pub fn payload(&self) -> &[u8] {
        self.0.get(2..).unwrap_or_default()
    }
}

/// Where a run's messages go on this rank.
pub(super) trait Route: Send {
    /// A message of this run (with its [`RUN_HEADER`]).
    fn deliver(&mut self, message: Vec<u8>);
    /// The job ended before this run could: stop its workers.
    fn shut_down(&mut self);
}

enum Command {
    Send {
        rank: u32,
        message: Vec<u8>,
    },
    Connect {
        epoch: u32,
        route: Box<dyn Route>,
    },
    Disconnect {
        epoch: u32,
    },
    Abort(i32),
    /// A benchmark's own MPI calls, made on this thread.
    Raw(Box<dyn FnOnce(&SimpleCommunicator) + Send>),
    Stop,
}

/// Bytes that crossed between this rank and the others.
#[derive(Default)]
struct Traffic {
    sent: AtomicU64,
    received: AtomicU64,
}

/// This process's place in an MPI job, and its link to the communication thread.
pub struct MpiWorld {
    rank: u32,
    size: u32,
    commands: Mutex<Sender<Command>>,
    control: Mutex<ControlInbox>,
    next_epoch: AtomicU32,
    traffic: Arc<Traffic>,
    thread: Mutex<Option<JoinHandle<()>>>,
    /// Ranks that ended early, as they told rank 0 (see `end_job`).
    pub(super) exits: Mutex<Vec<super::RankExit>>,
}

/// Why this process could not talk to the other ranks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MpiError {
    /// MPI could not be started (it was already, or its thread could not start).
    Init(String),
    /// The communication thread has stopped (MPI was finalized, or the thread
    /// crashed).
    Stopped,
    /// Another rank sent what this one cannot use here.
    Protocol(String),
}

impl fmt::Display for MpiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MpiError::Init(message) | MpiError::Protocol(message) => f.write_str(message),
            MpiError::Stopped => f.write_str("the MPI communication thread has stopped"),
        }
    }
}

impl std::error::Error for MpiError {}

/// Control messages received, per source rank, until the main thread asks for them.
struct ControlInbox {
    incoming: Receiver<(u32, Vec<u8>)>,
    held: Vec<VecDeque<Vec<u8>>>,
}

impl MpiWorld {
    /// Initializes MPI on a communication thread of its own.
    pub fn init() -> Result<Arc<MpiWorld>, MpiError> {
        let (commands, command_inbox) = mpsc::channel();
        let (control_sender, control_inbox) = mpsc::channel();
        let (ready, started) = mpsc::channel();
        let traffic = Arc::new(Traffic::default());
        let thread_traffic = Arc::clone(&traffic);
        let thread = std::thread::Builder::new()
            .name("marsc-mpi".to_string())
            .spawn(move || {
                let Some((universe, _)) = mpi::initialize_with_threading(Threading::Funneled)
                else {
                    let _ =
                        ready.send(Err(MpiError::Init("MPI was initialized twice".to_string())));
                    return;
                };
                let world = universe.world();
                let (rank, size) = (world.rank(), world.size());
                let _ = ready.send(Ok((rank as u32, size as u32)));
                let served = catch_unwind(AssertUnwindSafe(|| {
                    serve(&world, &command_inbox, &control_sender, &thread_traffic)
                }));
                if served.is_err() {
                    eprintln!("marsc: rank {rank}: the MPI communication thread crashed");
                    world.abort(70);
                }
                // Dropping the universe finalizes MPI.
                drop(universe);
            })
            .map_err(|error| MpiError::Init(format!("cannot start the MPI thread: {error}")))?;
        let (rank, size) = started.recv().map_err(|_| {
            MpiError::Init("the MPI thread stopped while initializing MPI".to_string())
        })??;
        Ok(Arc::new(MpiWorld {
            rank,
            size,
            commands: Mutex::new(commands),
            control: Mutex::new(ControlInbox {
                incoming: control_inbox,
                held: vec![VecDeque::new(); size as usize],
            }),
            next_epoch: AtomicU32::new(0),
            traffic,
            thread: Mutex::new(Some(thread)),
            exits: Mutex::new(Vec::new()),
        }))
    }

    pub fn rank(&self) -> u32 {
        self.rank
    }

    pub fn size(&self) -> u32 {
        self.size
    }

    /// Bytes sent to and received from the other ranks so far.
    pub fn traffic(&self) -> (u64, u64) {
        (
            self.traffic.sent.load(Ordering::Relaxed),
            self.traffic.received.load(Ordering::Relaxed),
        )
    }

    /// The next run's epoch: every rank runs the same sequence of runs, so the
    /// ranks agree on it without talking.
    pub(super) fn next_epoch(&self) -> u32 {
        self.next_epoch.fetch_add(1, Ordering::Relaxed)
    }

    fn command(&self, command: Command) -> Result<(), MpiError> {
        self.commands
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .send(command)
            .map_err(|_| MpiError::Stopped)
    }

    /// Sends a run message (it starts with [`run_header`]) to `rank`.
    pub(super) fn send_run(&self, rank: u32, message: Vec<u8>) -> Result<(), MpiError> {
        self.command(Command::Send { rank, message })
    }

    pub(super) fn connect(&self, epoch: u32, route: Box<dyn Route>) {
        let _ = self.command(Command::Connect { epoch, route });
    }

    pub(super) fn disconnect(&self, epoch: u32) {
        let _ = self.command(Command::Disconnect { epoch });
    }

    /// Sends a control message of `kind` to `rank`.
    pub fn send_control(&self, rank: u32, kind: u8, payload: &[u8]) -> Result<(), MpiError> {
        let mut message = Vec::with_capacity(payload.len() + 2);
        message.extend_from_slice(&[CONTROL_CHANNEL, kind]);
        message.extend_from_slice(payload);
        self.command(Command::Send { rank, message })
    }

    /// Waits for the next control message from `rank`.
    pub fn receive_from(&self, rank: u32) -> Result<Control, MpiError> {
        let mut inbox = self
            .control
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        loop {
            if let Some(message) = inbox.held[rank as usize].pop_front() {
                return Ok(Control(message));
            }
            let (source, message) = inbox.incoming.recv().map_err(|_| MpiError::Stopped)?;
            if let Some(held) = inbox.held.get_mut(source as usize) {
                held.push_back(message);
            }
        }
    }

    /// Runs `calls` on the communication thread with the job's communicator and
    /// returns what they return: a benchmark's raw MPI calls (`examples/mpi_pingpong.rs`
    /// in the runtime), made while the transport is otherwise idle.
    pub fn with_communicator<R: Send + 'static>(
        &self,
        calls: impl FnOnce(&SimpleCommunicator) -> R + Send + 'static,
    ) -> Result<R, MpiError> {
        let (done, result) = mpsc::channel();
        self.command(Command::Raw(Box::new(move |world| {
            let _ = done.send(calls(world));
        })))?;
        result.recv().map_err(|_| MpiError::Stopped)
    }

    /// Ends the job on every rank at once, with `code` (for fatal paths: a panic, a
    /// rank that cannot go on). Never returns.
    pub fn abort(&self, code: i32) -> ! {
        let _ = self.command(Command::Abort(code));
        // The communication thread ends the process; wait for it.
        loop {
            std::thread::sleep(Duration::from_secs(1));
        }
    }

    /// Sends what is pending, then finalizes MPI. The ranks must have agreed to stop
    /// (the end-of-job handshake), or `MPI_Finalize` waits for the others.
    pub fn finish(&self) {
        let _ = self.command(Command::Stop);
        let thread = self
            .thread
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .take();
        if let Some(thread) = thread {
            let _ = thread.join();
        }
    }
}

/// Where each run's messages go: runs connected here, messages of runs not
/// connected yet (a peer may start a run first), and which runs are over.
#[derive(Default)]
struct Routes {
    active: BTreeMap<u32, Box<dyn Route>>,
    early: BTreeMap<u32, Vec<Vec<u8>>>,
    /// Every epoch below it has connected here (and may have ended).
    connected_below: u32,
    /// Rank 0 ended the job: runs stop as they connect.
    ended: bool,
}

impl Routes {
    fn deliver(&mut self, message: Vec<u8>) {
        let Some(epoch) = message
            .get(1..RUN_HEADER)
            .and_then(|bytes| bytes.try_into().ok())
            .map(u32::from_le_bytes)
        else {
            return;
        };
        if let Some(route) = self.active.get_mut(&epoch) {
            route.deliver(message);
        } else if epoch >= self.connected_below {
            self.early.entry(epoch).or_default().push(message);
        }
        // Else a late message of a run that is over (a stale chunk reply): dropped.
    }

    fn connect(&mut self, epoch: u32, mut route: Box<dyn Route>) {
        for message in self.early.remove(&epoch).unwrap_or_default() {
            route.deliver(message);
        }
        if self.ended {
            route.shut_down();
        }
        self.connected_below = self.connected_below.max(epoch + 1);
        self.active.insert(epoch, route);
    }

    fn end(&mut self) {
        self.ended = true;
        for route in self.active.values_mut() {
            route.shut_down();
        }
    }
}

/// The communication thread's loop, until told to stop (and every send is done).
fn serve(
    world: &SimpleCommunicator,
    commands: &Receiver<Command>,
    control: &Sender<(u32, Vec<u8>)>,
    traffic: &Traffic,
) {
    let mut routes = Routes::default();
    let mut stopping = false;
    while !stopping {
        let arena = typed_arena::Arena::<Vec<u8>>::new();
        stopping = mpi::request::scope(|scope| {
            let mut pending = Vec::new();
            let mut held = 0usize;
            let mut idle = 0u32;
            let mut stop = false;
            loop {
                let mut busy = false;
                while held < ARENA_LIMIT && !stop {
                    match commands.try_recv() {
                        Ok(Command::Send { rank, message }) => {
                            held += message.len();
                            traffic
                                .sent
                                .fetch_add(message.len() as u64, Ordering::Relaxed);
                            let buffer: &Vec<u8> = arena.alloc(message);
                            let process = world.process_at_rank(rank as i32);
                            pending.push(process.immediate_send(scope, &buffer[..]));
                            busy = true;
                        }
                        Ok(Command::Connect { epoch, route }) => routes.connect(epoch, route),
                        Ok(Command::Disconnect { epoch }) => {
                            routes.active.remove(&epoch);
                        }
                        Ok(Command::Abort(code)) => world.abort(code),
                        Ok(Command::Raw(calls)) => calls(world),
                        Ok(Command::Stop) | Err(TryRecvError::Disconnected) => stop = true,
                        Err(TryRecvError::Empty) => break,
                    }
                }
                while let Some(probed) = world.any_process().immediate_matched_probe() {
                    let source = probed.1.source_rank() as u32;
                    let (bytes, _) = probed.matched_receive_vec::<u8>();
                    traffic
                        .received
                        .fetch_add(bytes.len() as u64, Ordering::Relaxed);
                    match bytes.first() {
                        Some(&RUN_CHANNEL) => routes.deliver(bytes),
                        Some(&CONTROL_CHANNEL) => {
                            if source == 0 && bytes.get(1) == Some(&control::END) {
                                routes.end();
                            }
                            let _ = control.send((source, bytes));
                        }
                        _ => {}
                    }
                    busy = true;
                }
                pending = pending
                    .into_iter()
                    .filter_map(|request| request.test().err())
                    .collect();
                if pending.is_empty() && (held > 0 || stop) {
                    // Every buffer of this arena is delivered: free them.
                    return stop;
                }
                if busy {
                    idle = 0;
                } else {
                    idle = idle.saturating_add(1);
                    if idle < 200 {
                        std::thread::yield_now();
                    } else {
                        std::thread::sleep(Duration::from_micros(50));
                    }
                }
            }
        });
    }
}

/// The header of a run message of `epoch`.
pub(super) fn run_header(epoch: u32, capacity: usize) -> Vec<u8> {
    let mut message = Vec::with_capacity(RUN_HEADER + capacity);
    message.push(RUN_CHANNEL);
    message.extend_from_slice(&epoch.to_le_bytes());
    message
}

impl std::fmt::Debug for MpiWorld {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "MpiWorld {{ rank: {}, size: {} }}", self.rank, self.size)
    }
}
