//! Workers on several processes: MPI ranks (cargo feature `mpi`).
//!
//! Every rank compiles the same script to the same plan (plans hold JIT code and
//! file mappings, so they are built on each rank, never sent) and takes part in
//! every run, in the same order; the ranks check at each run that their plans'
//! fingerprints agree. Rank 0 runs the coordinator and its share of the workers;
//! the other ranks run only workers ([`super::serve_workers`]). Worker `w` lives on
//! rank `w / per_rank`: a message to a worker of this rank moves its `Arc` over a
//! channel, as between threads; one to another rank is encoded ([`codec`]) and
//! handed to the communication thread ([`world`]). Subtasks that touch a save's
//! temporary file run on rank 0's workers ([`super::ChunkKernel::runs_at_home`]).
//!
//! At the end of a run rank 0 sends every rank the outcome (result values and
//! figures, or the error), so all ranks go on from the same values: a script that
//! runs in stages takes every decision the same way on every rank, and rank 0
//! alone prints.
//!
//! The job ends with a handshake ([`MpiWorld::end_job`]): rank 0 says so, every
//! other rank answers with its exit status, then all finalize. A rank that stops
//! early (an error only it met) answers at once; rank 0 reports it.

mod codec;
pub mod world;

pub use world::{MpiError, MpiWorld};

use super::message::{CoordinatorMessage, WorkerMessage};
use super::transport::{Cluster, Disconnected, Inbox, Received, Transport};
use super::ExecOutput;
use super::{execute_on, serve_workers, ChunkKernel, ExecError, ExecObserver, ExecOptions};
use crate::plan::Plan;
use codec::{Reader, Writer};
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::Duration;
use world::{control, run_header, Route, RUN_HEADER};

/// Bytes of a run message before its body: the header, then whom it is for
/// (0 a worker, 1 the coordinator) and the worker's id.
const BODY: usize = RUN_HEADER + 5;

/// What a rank's inbox holds: a message from this rank, or the bytes of one from
/// another, decoded by the receiving thread.
enum Incoming<M> {
    Local(M),
    Remote(Vec<u8>),
}

/// One run's transport on this rank.
pub struct MpiTransport<K: ChunkKernel> {
    world: Arc<MpiWorld>,
    epoch: u32,
    per_rank: u32,
    workers: u32,
    /// The workers of this rank, from `rank * per_rank` on.
    local: Vec<Sender<Incoming<WorkerMessage<K::Value>>>>,
    /// On rank 0.
    coordinator: Option<Sender<Incoming<CoordinatorMessage<K::Value>>>>,
}

impl<K: ChunkKernel> MpiTransport<K> {
    fn send_remote(&self, rank: u32, to: u8, worker: u32, body: &[u8]) -> Result<(), Disconnected> {
        let mut message = run_header(self.epoch, 5 + body.len());
        message.push(to);
        message.extend_from_slice(&worker.to_le_bytes());
        message.extend_from_slice(body);
        self.world.send_run(rank, message).map_err(|_| Disconnected)
    }
}

impl<K: ChunkKernel> Transport<K::Value> for MpiTransport<K> {
    fn num_workers(&self) -> u32 {
        self.workers
    }

    fn to_worker(&self, worker: u32, message: WorkerMessage<K::Value>) -> Result<(), Disconnected> {
        let rank = worker / self.per_rank;
        if rank == self.world.rank() {
            let sender = self
                .local
                .get((worker % self.per_rank) as usize)
                .ok_or(Disconnected)?;
            return sender
                .send(Incoming::Local(message))
                .map_err(|_| Disconnected);
        }
        if rank >= self.world.size() {
            return Err(Disconnected);
        }
        let mut body = Writer(Vec::new());
        if let Err(error) = codec::write_worker::<K>(&mut body, &message) {
            // A value that cannot be encoded cannot reach the peer: as if it had none.
            eprintln!("marsc: cannot send a chunk to worker {worker}: {error}");
            return Err(Disconnected);
        }
        self.send_remote(rank, 0, worker, &body.0)
    }

    fn to_coordinator(&self, message: CoordinatorMessage<K::Value>) -> Result<(), Disconnected> {
        if let Some(coordinator) = &self.coordinator {
            return coordinator
                .send(Incoming::Local(message))
                .map_err(|_| Disconnected);
        }
        let mut body = Writer(Vec::new());
        let encoded = codec::write_coordinator::<K>(&mut body, &message);
        if let Err(error) = encoded {
            let failed = CoordinatorMessage::<K::Value>::Failed {
                worker: self.world.rank() * self.per_rank,
                subtask: None,
                message: format!("cannot send a report to rank 0: {error}"),
            };
            body = Writer(Vec::new());
            codec::write_coordinator::<K>(&mut body, &failed).map_err(|_| Disconnected)?;
        }
        self.send_remote(0, 1, 0, &body.0)
    }
}

impl<K: ChunkKernel> Drop for MpiTransport<K> {
    fn drop(&mut self) {
        self.world.disconnect(self.epoch);
    }
}

/// A participant's inbox on this rank.
pub struct MpiInbox<M> {
    incoming: Receiver<Incoming<M>>,
    decode: fn(&[u8]) -> M,
}

impl<M: Send> MpiInbox<M> {
    fn open(&self, incoming: Incoming<M>) -> M {
        match incoming {
            Incoming::Local(message) => message,
            Incoming::Remote(bytes) => (self.decode)(&bytes),
        }
    }
}

impl<M: Send> Inbox<M> for MpiInbox<M> {
    fn recv(&mut self, timeout: Option<Duration>) -> Received<M> {
        let incoming = match timeout {
            None => self
                .incoming
                .recv()
                .map_err(|_| RecvTimeoutError::Disconnected),
            Some(timeout) => self.incoming.recv_timeout(timeout),
        };
        match incoming {
            Ok(incoming) => Received::Message(self.open(incoming)),
            Err(RecvTimeoutError::Timeout) => Received::TimedOut,
            Err(RecvTimeoutError::Disconnected) => Received::Closed,
        }
    }

    fn try_recv(&mut self) -> Option<M> {
        let incoming = self.incoming.try_recv().ok()?;
        Some(self.open(incoming))
    }
}

fn decode_worker<K: ChunkKernel>(bytes: &[u8]) -> WorkerMessage<K::Value> {
    let body = bytes.get(BODY..).unwrap_or_default();
    codec::read_worker::<K>(&mut Reader(body)).unwrap_or_else(|error| {
        // A message this rank cannot read is a bug; the worker stops as a dead one
        // would, and the coordinator recomputes what it held.
        eprintln!("marsc: internal error: {error}");
        WorkerMessage::Kill
    })
}

fn decode_coordinator<K: ChunkKernel>(bytes: &[u8]) -> CoordinatorMessage<K::Value> {
    let worker = bytes
        .get(RUN_HEADER + 1..BODY)
        .and_then(|id| id.try_into().ok())
        .map_or(0, u32::from_le_bytes);
    let body = bytes.get(BODY..).unwrap_or_default();
    codec::read_coordinator::<K>(&mut Reader(body)).unwrap_or_else(|error| {
        CoordinatorMessage::Failed {
            worker,
            subtask: None,
            message: format!("internal error: {error}"),
        }
    })
}

/// Where one run's messages from other ranks go on this rank.
struct RunRoute<V> {
    local: Vec<Sender<Incoming<WorkerMessage<V>>>>,
    per_rank: u32,
    coordinator: Option<Sender<Incoming<CoordinatorMessage<V>>>>,
}

impl<V: Send + Sync + 'static> Route for RunRoute<V> {
    fn deliver(&mut self, message: Vec<u8>) {
        let worker = message
            .get(RUN_HEADER + 1..BODY)
            .and_then(|id| id.try_into().ok())
            .map_or(0, u32::from_le_bytes);
        match message.get(RUN_HEADER) {
            Some(0) => {
                if let Some(sender) = self.local.get((worker % self.per_rank) as usize) {
                    let _ = sender.send(Incoming::Remote(message));
                }
            }
            Some(1) => {
                if let Some(coordinator) = &self.coordinator {
                    let _ = coordinator.send(Incoming::Remote(message));
                }
            }
            _ => {}
        }
    }

    fn shut_down(&mut self) {
        for sender in &self.local {
            let _ = sender.send(Incoming::Local(WorkerMessage::Shutdown));
        }
    }
}

/// Connects one run's participants on this rank.
pub struct MpiConnector<K> {
    world: Arc<MpiWorld>,
    epoch: u32,
    per_rank: u32,
    kernels: PhantomData<fn() -> K>,
}

impl<K: ChunkKernel> Cluster<K::Value> for MpiConnector<K> {
    type Transport = MpiTransport<K>;
    type WorkerInbox = MpiInbox<WorkerMessage<K::Value>>;
    type CoordinatorInbox = MpiInbox<CoordinatorMessage<K::Value>>;

    fn connect(
        &self,
        workers: u32,
    ) -> (
        MpiTransport<K>,
        Vec<(u32, Self::WorkerInbox)>,
        Self::CoordinatorInbox,
    ) {
        let rank = self.world.rank();
        let base = rank * self.per_rank;
        let (local, inboxes): (Vec<_>, Vec<_>) = (0..self.per_rank)
            .map(|offset| {
                let (sender, incoming) = mpsc::channel();
                let inbox = MpiInbox {
                    incoming,
                    decode: decode_worker::<K>,
                };
                (sender, (base + offset, inbox))
            })
            .unzip();
        let (coordinator, incoming) = mpsc::channel();
        let coordinator = (rank == 0).then_some(coordinator);
        self.world.connect(
            self.epoch,
            Box::new(RunRoute {
                local: local.clone(),
                per_rank: self.per_rank,
                coordinator: coordinator.clone(),
            }),
        );
        let transport = MpiTransport {
            world: Arc::clone(&self.world),
            epoch: self.epoch,
            per_rank: self.per_rank,
            workers,
            local,
            coordinator,
        };
        let inbox = MpiInbox {
            incoming,
            decode: decode_coordinator::<K>,
        };
        (transport, inboxes, inbox)
    }
}

/// A fingerprint of what the ranks must agree on to run a plan together: its
/// subtasks' shape (inputs, outputs, priority, placement, operations and their
/// arguments) and results.
fn fingerprint<K>(plan: &Plan<K>) -> u64 {
    // `DefaultHasher::new` has fixed keys: the same binary hashes alike on every rank.
    let mut hasher = std::hash::DefaultHasher::new();
    (plan.num_chunks, &plan.results).hash(&mut hasher);
    for subtask in &plan.subtasks {
        (&subtask.inputs, &subtask.outputs).hash(&mut hasher);
        (subtask.priority, subtask.worker, subtask.label).hash(&mut hasher);
        subtask.ops.len().hash(&mut hasher);
        for op in subtask.ops.iter() {
            op.args.hash(&mut hasher);
        }
    }
    hasher.finish()
}

/// Runs `plan` on the workers of every rank (`options.workers` in all, a multiple
/// of the ranks). Every rank calls it for every run, in the same order; each gets
/// the same outcome.
pub fn execute<K: ChunkKernel>(
    world: &Arc<MpiWorld>,
    plan: &Arc<Plan<K>>,
    options: &ExecOptions,
    observer: &mut dyn ExecObserver,
) -> Result<ExecOutput<K::Value>, ExecError> {
    let size = world.size();
    let epoch = world.next_epoch();
    if options.workers < size || !options.workers.is_multiple_of(size) {
        return Err(ExecError::InvalidOptions(format!(
            "{} workers cannot be shared equally by {size} ranks",
            options.workers
        )));
    }
    let per_rank = options.workers / size;
    let options = ExecOptions {
        inline: false,
        // The memory limit then holds for each rank's workers.
        workers_per_process: Some(per_rank),
        ..options.clone()
    };
    let connector = MpiConnector::<K> {
        world: Arc::clone(world),
        epoch,
        per_rank,
        kernels: PhantomData,
    };
    let fingerprint = fingerprint(plan).to_le_bytes();
    let internal = |error: MpiError| ExecError::Internal(error.to_string());
    if world.rank() != 0 {
        world
            .send_control(0, control::FINGERPRINT, &fingerprint)
            .map_err(internal)?;
        let served = serve_workers(&connector, plan, &options);
        if let Err(error) = &served {
            // Rank 0's coordinator would wait for these workers for ever: tell it.
            let (transport, _, _) = connector.connect(options.workers);
            let _ = transport.to_coordinator(CoordinatorMessage::Failed {
                worker: world.rank() * per_rank,
                subtask: None,
                message: format!("rank {}: {error}", world.rank()),
            });
        }
        let message = world.receive_from(0).map_err(internal)?;
        return match message.kind() {
            control::OUTCOME => codec::read_outcome::<K>(&mut Reader(message.payload()))
                .map_err(|error| ExecError::Internal(error.to_string()))?
                .and_then(|output| served.map(|()| output)),
            control::END => Err(ExecError::Internal(
                "rank 0 ended the job before this run".to_string(),
            )),
            other => Err(ExecError::Internal(format!(
                "rank 0 sent message kind {other} where a run's outcome was due"
            ))),
        };
    }
    let mut refused = None;
    for rank in 1..size {
        let answer = world.receive_from(rank).map_err(internal)?;
        let problem = match (answer.kind(), answer.payload()) {
            (control::FINGERPRINT, theirs) if theirs == fingerprint => continue,
            (control::FINGERPRINT, _) => format!(
                "rank {rank} compiled a different plan from rank 0's (every rank must see \
                 the same script, files and options)"
            ),
            (control::EXIT, payload) => {
                let exit = world.note_exit(rank, payload);
                format!("rank {rank} stopped before this run: {}", exit.message)
            }
            (other, _) => format!("rank {rank} sent message kind {other} where a plan was due"),
        };
        refused.get_or_insert(problem);
    }
    let outcome = match refused {
        None => execute_on(&connector, plan, &options, observer),
        Some(problem) => {
            // The other ranks' workers have started: stop them.
            let (transport, _, _) = connector.connect(options.workers);
            for worker in per_rank..options.workers {
                let _ = transport.to_worker(worker, WorkerMessage::Shutdown);
            }
            Err(ExecError::Internal(problem))
        }
    };
    let mut message = Writer(Vec::new());
    if let Err(error) = codec::write_outcome::<K>(&mut message, &outcome) {
        message = Writer(Vec::new());
        let failed: Result<ExecOutput<K::Value>, ExecError> = Err(ExecError::Internal(format!(
            "cannot send the results to the other ranks: {error}"
        )));
        codec::write_outcome::<K>(&mut message, &failed)
            .map_err(|error| ExecError::Internal(error.to_string()))?;
    }
    for rank in 1..size {
        world
            .send_control(rank, control::OUTCOME, &message.0)
            .map_err(internal)?;
    }
    outcome
}

/// How a rank other than 0 ended the job, as it told rank 0.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RankExit {
    pub rank: u32,
    /// The process exit status it chose.
    pub status: u8,
    /// Its error message, if it failed.
    pub message: String,
    pub bytes_sent: u64,
    pub bytes_received: u64,
    /// Its peak resident set.
    pub peak_rss_bytes: u64,
}

impl RankExit {
    fn write(&self) -> Vec<u8> {
        let mut out = Writer(Vec::new());
        out.u8(self.status);
        out.u64(self.bytes_sent);
        out.u64(self.bytes_received);
        out.u64(self.peak_rss_bytes);
        out.text(&self.message);
        out.0
    }

    fn read(rank: u32, payload: &[u8]) -> RankExit {
        let mut input = Reader(payload);
        let mut exit = RankExit {
            rank,
            ..RankExit::default()
        };
        let read = (|| -> std::io::Result<()> {
            exit.status = input.u8()?;
            exit.bytes_sent = input.u64()?;
            exit.bytes_received = input.u64()?;
            exit.peak_rss_bytes = input.u64()?;
            exit.message = input.text()?;
            Ok(())
        })();
        if let Err(error) = read {
            exit.status = 70;
            exit.message = format!("its exit message was unreadable: {error}");
        }
        exit
    }
}

impl MpiWorld {
    /// Records a rank's early exit (it arrived where a run's message was due).
    fn note_exit(&self, rank: u32, payload: &[u8]) -> RankExit {
        let exit = RankExit::read(rank, payload);
        self.exits
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .push(exit.clone());
        exit
    }

    /// This rank's figures for the end of the job.
    fn own_exit(&self, status: u8, message: &str) -> RankExit {
        let (bytes_sent, bytes_received) = self.traffic();
        RankExit {
            rank: self.rank(),
            status,
            message: message.to_string(),
            bytes_sent,
            bytes_received,
            peak_rss_bytes: super::process_status_bytes("VmHWM:"),
        }
    }

    /// Sends the other ranks the script's text (`None`: rank 0 could not read it).
    pub fn share_script(&self, text: Option<&str>) -> Result<(), MpiError> {
        let mut out = Writer(Vec::new());
        match text {
            Some(text) => {
                out.u8(0);
                out.text(text);
            }
            None => out.u8(1),
        }
        for rank in 1..self.size() {
            self.send_control(rank, control::SCRIPT, &out.0)?;
        }
        Ok(())
    }

    /// The script's text as rank 0 read it.
    pub fn receive_script(&self) -> Result<Option<String>, MpiError> {
        let message = self.receive_from(0)?;
        if message.kind() != control::SCRIPT {
            return Err(MpiError::Protocol(format!(
                "rank 0 sent message kind {} where the script was due",
                message.kind()
            )));
        }
        let mut input = Reader(message.payload());
        let read = (|| -> std::io::Result<Option<String>> {
            Ok(match input.u8()? {
                0 => Some(input.text()?),
                _ => None,
            })
        })();
        read.map_err(|error| MpiError::Protocol(format!("rank 0 sent a garbled script: {error}")))
    }

    /// Ends the job on this rank: the handshake, then MPI is finalized. On rank 0
    /// it returns every other rank's exit (its own first).
    pub fn end_job(&self, status: u8, message: &str) -> Vec<RankExit> {
        let own = self.own_exit(status, message);
        if self.rank() != 0 {
            let _ = self.send_control(0, control::EXIT, &own.write());
            // Whatever rank 0 still sends before its goodbye is of no use now.
            while let Ok(message) = self.receive_from(0) {
                if message.kind() == control::BYE {
                    break;
                }
            }
            self.finish();
            return vec![own];
        }
        for rank in 1..self.size() {
            let _ = self.send_control(rank, control::END, &[]);
        }
        let mut exits = vec![own];
        let early = std::mem::take(
            &mut *self
                .exits
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner()),
        );
        for rank in 1..self.size() {
            if let Some(exit) = early.iter().find(|exit| exit.rank == rank) {
                exits.push(exit.clone());
                continue;
            }
            loop {
                match self.receive_from(rank) {
                    Ok(message) if message.kind() == control::EXIT => {
                        exits.push(RankExit::read(rank, message.payload()));
                        break;
                    }
                    Ok(_) => continue,
                    Err(error) => {
                        exits.push(RankExit {
                            rank,
                            status: 70,
                            message: error.to_string(),
                            ..RankExit::default()
                        });
                        break;
                    }
                }
            }
        }
        for rank in 1..self.size() {
            let _ = self.send_control(rank, control::BYE, &[]);
        }
        self.finish();
        exits
    }
}
