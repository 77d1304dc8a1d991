//! The executor's seams: a run's participants come from the [`Cluster`] it is given
//! (every message goes through that cluster's transport), and runs take their
//! workers' threads from the process's pool, which keeps them from run to run.

mod exec_support;

use exec_support::{PlanBuilder, Toy};
use marsc_runtime::exec::message::{CoordinatorMessage, WorkerMessage};
use marsc_runtime::exec::pool::WorkerPool;
use marsc_runtime::exec::transport::{
    Cluster, Disconnected, ThreadInbox, ThreadTransport, Threads, Transport,
};
use marsc_runtime::exec::{execute, execute_on, ExecOptions, NoObserver};
use marsc_runtime::plan::Plan;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The thread transport, counting the messages sent through it (and, among those
/// to workers, the chunk requests between workers).
struct Counting {
    inner: ThreadTransport<Vec<i64>>,
    to_workers: Arc<AtomicU64>,
    to_coordinator: Arc<AtomicU64>,
    chunk_requests: Arc<AtomicU64>,
}

impl Transport<Vec<i64>> for Counting {
    fn num_workers(&self) -> u32 {
        self.inner.num_workers()
    }
    fn to_worker(&self, worker: u32, message: WorkerMessage<Vec<i64>>) -> Result<(), Disconnected> {
        self.to_workers.fetch_add(1, Ordering::SeqCst);
        if let WorkerMessage::ChunkRequest { .. } = message {
            self.chunk_requests.fetch_add(1, Ordering::SeqCst);
        }
        self.inner.to_worker(worker, message)
    }
    fn to_coordinator(&self, message: CoordinatorMessage<Vec<i64>>) -> Result<(), Disconnected> {
        self.to_coordinator.fetch_add(1, Ordering::SeqCst);
        self.inner.to_coordinator(message)
    }
}

#[derive(Default)]
struct CountingCluster {
    to_workers: Arc<AtomicU64>,
    to_coordinator: Arc<AtomicU64>,
    chunk_requests: Arc<AtomicU64>,
}

impl Cluster<Vec<i64>> for CountingCluster {
    type Transport = Counting;
    type WorkerInbox = ThreadInbox<WorkerMessage<Vec<i64>>>;
    type CoordinatorInbox = ThreadInbox<CoordinatorMessage<Vec<i64>>>;

    fn connect(
        &self,
        workers: u32,
    ) -> (
        Counting,
        Vec<(u32, Self::WorkerInbox)>,
        Self::CoordinatorInbox,
    ) {
        let (inner, inboxes, coordinator) = Threads.connect(workers);
        let transport = Counting {
            inner,
            to_workers: Arc::clone(&self.to_workers),
            to_coordinator: Arc::clone(&self.to_coordinator),
            chunk_requests: Arc::clone(&self.chunk_requests),
        };
        (transport, inboxes, coordinator)
    }
}

/// c0 c1 on two workers, their sum and a scaled copy, then the sum of those.
fn plan() -> Arc<Plan<Toy>> {
    let mut b = PlanBuilder::new();
    let c0 = b.single(Toy::Const(vec![1, 2, 3]), &[], Some(0));
    let c1 = b.single(Toy::Const(vec![10, 20]), &[], Some(1));
    let c2 = b.single(Toy::Add, &[c0, c1], Some(1));
    let c3 = b.single(Toy::Scale(2), &[c0, c1], Some(1));
    let c4 = b.single(Toy::Sum, &[c2, c3], Some(0));
    b.result(c4);
    Arc::new(b.finish())
}

fn two_workers() -> ExecOptions {
    ExecOptions {
        workers: 2,
        ..ExecOptions::default()
    }
}

#[test]
fn every_message_goes_through_the_clusters_transport() {
    let cluster = CountingCluster::default();
    let plan = plan();
    let output = execute_on(&cluster, &plan, &two_workers(), &mut NoObserver).expect("runs");
    let local = execute(&plan, &two_workers(), &mut NoObserver).expect("runs");
    assert_eq!(output.results, local.results);
    assert_eq!(*output.results[0].1, vec![138]);
    // Work orders and shutdowns to the workers, reports back, and the chunk
    // requests and replies between the two workers.
    assert!(cluster.to_workers.load(Ordering::SeqCst) >= 4);
    assert!(cluster.to_coordinator.load(Ordering::SeqCst) >= 2);
}

/// A worker asks a peer once per work order for every chunk the order's subtasks
/// need from it, not once per chunk: here 64 chunks of worker 0 are read by eight
/// subtasks of worker 1, which its first order holds together.
#[test]
fn a_worker_asks_a_peer_for_many_chunks_in_one_message() {
    let mut b = PlanBuilder::new();
    let leaves: Vec<_> = (0..64)
        .map(|i| b.single(Toy::Const(vec![i]), &[], Some(0)))
        .collect();
    let sums: Vec<_> = leaves
        .chunks(8)
        .map(|eight| b.single(Toy::Sum, eight, Some(1)))
        .collect();
    let total = b.single(Toy::Sum, &sums, Some(1));
    b.result(total);
    let plan = Arc::new(b.finish());
    let cluster = CountingCluster::default();
    let options = ExecOptions {
        queue_depth: Some(1024),
        ..two_workers()
    };
    let output = execute_on(&cluster, &plan, &options, &mut NoObserver).expect("runs");
    assert_eq!(*output.results[0].1, vec![(0..64).sum::<i64>()]);
    assert_eq!(output.stats.transfer_bytes, 64 * 8);
    // One order per step at most: one request per order of worker 1 that needs
    // chunks of worker 0 (asked one at a time, there were 64).
    let requests = cluster.chunk_requests.load(Ordering::SeqCst);
    assert!((1..=8).contains(&requests), "{requests} chunk requests");
}

#[test]
fn runs_reuse_the_pools_threads() {
    let plan = plan();
    execute(&plan, &two_workers(), &mut NoObserver).expect("runs");
    let threads = WorkerPool::global().threads();
    assert!(threads >= 2, "{threads}");
    for _ in 0..20 {
        execute(&plan, &two_workers(), &mut NoObserver).expect("runs");
    }
    // The other test of this file may run at the same time with its own two
    // workers; sequential runs here add none.
    assert!(WorkerPool::global().threads() <= threads + 4);
}
