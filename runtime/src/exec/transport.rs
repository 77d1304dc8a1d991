//! How messages move between the coordinator and the workers. The executor talks to
//! the [`Transport`] and [`Inbox`] traits only, so a worker could live in another
//! process or be an MPI rank; [`thread_transport`] is the in-process implementation
//! on std's channels (unbounded, so a send never blocks and never deadlocks).
//!
//! A run is handed its participants by a [`Cluster`] ([`super::execute_on`]):
//! [`Threads`] connects every worker in this process; a cluster of processes (MPI
//! ranks) would hand back only the workers this process runs, the others being
//! reached through its transport.

use super::message::{CoordinatorMessage, WorkerMessage};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::Duration;

/// The receiving end is gone (its owner has stopped).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Disconnected;

/// Sends messages to any participant; shared by all of them.
pub trait Transport<V>: Sync {
    fn num_workers(&self) -> u32;
    fn to_worker(&self, worker: u32, message: WorkerMessage<V>) -> Result<(), Disconnected>;
    fn to_coordinator(&self, message: CoordinatorMessage<V>) -> Result<(), Disconnected>;
}

/// The outcome of a blocking receive.
#[derive(Debug)]
pub enum Received<M> {
    Message(M),
    TimedOut,
    /// Every sender is gone; nothing will ever arrive.
    Closed,
}

/// One participant's incoming messages, in the order they were sent by each sender.
pub trait Inbox<M>: Send {
    /// Waits for a message, at most `timeout` when one is given.
    fn recv(&mut self, timeout: Option<Duration>) -> Received<M>;
    /// A message if one is waiting.
    fn try_recv(&mut self) -> Option<M>;
}

/// Where a run's workers live: it connects the participants of one run of
/// `workers` workers, giving the transport every participant sends with, the inboxes
/// of the workers this process runs (with their ids), and the coordinator's inbox.
pub trait Cluster<V> {
    type Transport: Transport<V> + Send + Sync + 'static;
    type WorkerInbox: Inbox<WorkerMessage<V>> + 'static;
    type CoordinatorInbox: Inbox<CoordinatorMessage<V>>;

    #[allow(clippy::type_complexity)] // reason: the triple is what a connection is
    fn connect(
        &self,
        workers: u32,
    ) -> (
        Self::Transport,
        Vec<(u32, Self::WorkerInbox)>,
        Self::CoordinatorInbox,
    );
}

/// Every worker a thread of this process, on channels ([`thread_transport`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Threads;

impl<V: Send + Sync + 'static> Cluster<V> for Threads {
    type Transport = ThreadTransport<V>;
    type WorkerInbox = ThreadInbox<WorkerMessage<V>>;
    type CoordinatorInbox = ThreadInbox<CoordinatorMessage<V>>;

    fn connect(
        &self,
        workers: u32,
    ) -> (
        ThreadTransport<V>,
        Vec<(u32, ThreadInbox<WorkerMessage<V>>)>,
        ThreadInbox<CoordinatorMessage<V>>,
    ) {
        let (transport, inboxes, coordinator) = thread_transport(workers);
        (transport, (0u32..).zip(inboxes).collect(), coordinator)
    }
}

/// The in-process transport: one channel per participant.
pub struct ThreadTransport<V> {
    workers: Vec<Sender<WorkerMessage<V>>>,
    coordinator: Sender<CoordinatorMessage<V>>,
}

/// An inbox backed by a std channel.
pub struct ThreadInbox<M>(Receiver<M>);

/// The transport, each worker's inbox (index = worker id) and the coordinator's inbox.
#[allow(clippy::type_complexity)] // reason: a plain triple reads better than a one-use struct
pub fn thread_transport<V: Send + Sync>(
    workers: u32,
) -> (
    ThreadTransport<V>,
    Vec<ThreadInbox<WorkerMessage<V>>>,
    ThreadInbox<CoordinatorMessage<V>>,
) {
    let (coordinator, coordinator_inbox) = mpsc::channel();
    let (senders, inboxes) = (0..workers)
        .map(|_| {
            let (sender, receiver) = mpsc::channel();
            (sender, ThreadInbox(receiver))
        })
        .unzip();
    let transport = ThreadTransport {
        workers: senders,
        coordinator,
    };
    (transport, inboxes, ThreadInbox(coordinator_inbox))
}

impl<V: Send + Sync> Transport<V> for ThreadTransport<V> {
    fn num_workers(&self) -> u32 {
        self.workers.len() as u32
    }

    fn to_worker(&self, worker: u32, message: WorkerMessage<V>) -> Result<(), Disconnected> {
        let sender = self.workers.get(worker as usize).ok_or(Disconnected)?;
        sender.send(message).map_err(|_| Disconnected)
    }

    fn to_coordinator(&self, message: CoordinatorMessage<V>) -> Result<(), Disconnected> {
        self.coordinator.send(message).map_err(|_| Disconnected)
    }
}

impl<M: Send> Inbox<M> for ThreadInbox<M> {
    fn recv(&mut self, timeout: Option<Duration>) -> Received<M> {
        match timeout {
            None => match self.0.recv() {
                Ok(message) => Received::Message(message),
                Err(_) => Received::Closed,
            },
            Some(timeout) => match self.0.recv_timeout(timeout) {
                Ok(message) => Received::Message(message),
                Err(RecvTimeoutError::Timeout) => Received::TimedOut,
                Err(RecvTimeoutError::Disconnected) => Received::Closed,
            },
        }
    }

    fn try_recv(&mut self) -> Option<M> {
        // Disconnected also reads as "nothing waiting": the blocking `recv` is where
        // a closed inbox is noticed.
        self.0.try_recv().ok()
    }
}
