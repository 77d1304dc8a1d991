//! The event loop of the simulator: a heap of timed events (orders reaching
//! workers, inputs arriving, subtasks finishing, reports reaching the coordinator,
//! the coordinator becoming free) replayed in time order, ties in the order they
//! were scheduled.

use super::{Cluster, SimGraph, SimReport};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// Simulated time, in picoseconds.
type Time = u64;

const PICOS: f64 = 1e12;

fn picos(seconds: f64) -> Time {
    if seconds.is_finite() && seconds > 0.0 {
        (seconds * PICOS).round() as Time
    } else {
        0
    }
}

fn seconds(time: Time) -> f64 {
    time as f64 / PICOS
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Event {
    /// The coordinator may dispatch again.
    CoordinatorFree,
    /// A work order for the task reached its worker.
    OrderArrives { worker: u32, task: u32 },
    /// The task's last input reached its worker.
    InputsReady { worker: u32, task: u32 },
    /// The task's kernel finished.
    Finished { worker: u32, task: u32 },
    /// The coordinator learns the task is done.
    Reported { worker: u32, task: u32 },
}

type ReadyKey = Reverse<(i64, u32)>;

/// Replays `graph` on `cluster` (see the module documentation of `simulate`).
pub fn simulate(graph: &SimGraph, cluster: &Cluster) -> SimReport {
    Simulation::new(graph, cluster).run()
}

struct Simulation<'a> {
    graph: &'a SimGraph,
    cluster: Cluster,
    workers: usize,
    depth: u32,
    latency: Time,
    coordinator_cost: Time,
    /// The compute time of each task.
    compute: Vec<Time>,
    /// Tasks reading each task's outputs (each once), CSR.
    dependent_offsets: Vec<u32>,
    dependents: Vec<u32>,
    /// Producer tasks not yet reported, per task.
    waiting_for: Vec<u32>,
    /// Reading tasks not yet finished, per chunk.
    readers_left: Vec<u32>,
    /// Where each chunk is, and from when.
    holders: Vec<Vec<(u32, Time)>>,
    // The coordinator.
    any: BinaryHeap<ReadyKey>,
    pinned: Vec<BinaryHeap<ReadyKey>>,
    /// The best pinned subtask of each worker with room, as `(priority, task,
    /// worker)`; stale entries (the worker's best changed, or it filled up) are
    /// dropped when met, so finding the next subtask does not scan every worker.
    tops: BinaryHeap<Reverse<(i64, u32, u32)>>,
    load: Vec<u32>,
    coordinator_free: Time,
    wake_scheduled: bool,
    bytes_on: Vec<u64>,
    // The workers.
    runnable: Vec<VecDeque<u32>>,
    busy: Vec<bool>,
    uplink_free: Vec<Time>,
    downlink_free: Vec<Time>,
    /// (time, worker, bytes): memory taken (positive) and given back.
    memory: Vec<(Time, u32, i64)>,
    // The clock.
    events: BinaryHeap<Reverse<(Time, u64, Event)>>,
    sequence: u64,
    report: SimReport,
    last: Time,
}

impl<'a> Simulation<'a> {
    fn new(graph: &'a SimGraph, cluster: &Cluster) -> Self {
        let workers = cluster.workers.max(1) as usize;
        let tasks = graph.tasks.len();
        let compute: Vec<Time> = graph
            .tasks
            .iter()
            .map(|task| {
                picos(
                    task.work_bytes as f64 / cluster.compute_rate
                        + task.flops as f64 / cluster.flop_rate,
                )
            })
            .collect();
        let mean = compute.iter().map(|&t| seconds(t)).sum::<f64>() / tasks.max(1) as f64;
        let depth = marsc_runtime::exec::QueueDepth::for_mean(cluster.queue_depth, mean * 1e9);
        // Dependents: the producers of each task's inputs, each once.
        let mut edges: Vec<(u32, u32)> = Vec::new();
        let mut waiting_for = vec![0u32; tasks];
        let mut readers_left = vec![0u32; graph.chunks.len()];
        for (index, task) in graph.tasks.iter().enumerate() {
            let mut producers: Vec<u32> = task
                .inputs
                .iter()
                .map(|&chunk| graph.chunks[chunk as usize].producer)
                .collect();
            producers.sort_unstable();
            producers.dedup();
            waiting_for[index] = producers.len() as u32;
            edges.extend(producers.into_iter().map(|p| (p, index as u32)));
            for &chunk in &task.inputs {
                readers_left[chunk as usize] += 1;
            }
        }
        edges.sort_unstable();
        let mut dependent_offsets = vec![0u32; tasks + 1];
        for &(producer, _) in &edges {
            dependent_offsets[producer as usize + 1] += 1;
        }
        for index in 0..tasks {
            dependent_offsets[index + 1] += dependent_offsets[index];
        }
        Simulation {
            graph,
            cluster: *cluster,
            workers,
            depth,
            latency: picos(cluster.latency),
            coordinator_cost: picos(cluster.coordinator_cost),
            compute,
            dependent_offsets,
            dependents: edges.into_iter().map(|(_, reader)| reader).collect(),
            waiting_for,
            readers_left,
            holders: vec![Vec::new(); graph.chunks.len()],
            any: BinaryHeap::new(),
            pinned: vec![BinaryHeap::new(); workers],
            tops: BinaryHeap::new(),
            load: vec![0; workers],
            coordinator_free: 0,
            wake_scheduled: false,
            bytes_on: vec![0; workers],
            runnable: vec![VecDeque::new(); workers],
            busy: vec![false; workers],
            uplink_free: vec![0; workers],
            downlink_free: vec![0; workers],
            memory: Vec::new(),
            events: BinaryHeap::new(),
            sequence: 0,
            report: SimReport {
                workers: workers as u32,
                subtasks: tasks,
                queue_depth: depth,
                ..SimReport::default()
            },
            last: 0,
        }
    }

    fn at(&mut self, time: Time, event: Event) {
        self.sequence += 1;
        self.events.push(Reverse((time, self.sequence, event)));
    }

    fn run(mut self) -> SimReport {
        for task in 0..self.graph.tasks.len() as u32 {
            if self.waiting_for[task as usize] == 0 {
                self.make_ready(task);
            }
        }
        self.dispatch(0);
        while let Some(Reverse((now, _, event))) = self.events.pop() {
            self.last = self.last.max(now);
            match event {
                Event::CoordinatorFree => {
                    self.wake_scheduled = false;
                    self.dispatch(now);
                }
                Event::OrderArrives { worker, task } => self.order_arrives(now, worker, task),
                Event::InputsReady { worker, task } => {
                    self.runnable[worker as usize].push_back(task);
                    self.start_next(now, worker);
                }
                Event::Finished { worker, task } => self.finished(now, worker, task),
                Event::Reported { worker, task } => self.reported(now, worker, task),
            }
        }
        self.report.makespan = seconds(self.last);
        self.report.coordinator_busy =
            seconds(self.coordinator_cost) * self.graph.tasks.len() as f64;
        self.report.compute_busy = self.compute.iter().map(|&t| seconds(t)).sum();
        self.report.work_bytes = self.graph.tasks.iter().map(|t| t.work_bytes).sum();
        self.report.flops = self.graph.tasks.iter().map(|t| t.flops).sum();
        self.report.peak_memory = peaks(&mut self.memory, self.workers);
        self.report
    }

    fn make_ready(&mut self, task: u32) {
        let spec = &self.graph.tasks[task as usize];
        let key = Reverse((spec.priority, task));
        match spec.worker {
            Some(worker) => {
                let worker = (worker as usize % self.workers) as u32;
                self.pinned[worker as usize].push(key);
                self.refresh_top(worker);
            }
            None => self.any.push(key),
        }
    }

    /// Records `worker`'s best pinned subtask in `tops` if it has room.
    fn refresh_top(&mut self, worker: u32) {
        if self.load[worker as usize] >= self.depth {
            return;
        }
        if let Some(&Reverse((priority, task))) = self.pinned[worker as usize].peek() {
            self.tops.push(Reverse((priority, task, worker)));
        }
    }

    /// The coordinator hands out the best ready subtask if it is free, else wakes
    /// when it is.
    fn dispatch(&mut self, now: Time) {
        if self.coordinator_free > now {
            if !self.wake_scheduled {
                self.wake_scheduled = true;
                self.at(self.coordinator_free, Event::CoordinatorFree);
            }
            return;
        }
        let mut any_blocked = false;
        loop {
            let Some((key, from)) = self.peek_next(!any_blocked) else {
                return;
            };
            let Reverse((_, task)) = key;
            let worker = match from {
                Some(worker) => {
                    self.pinned[worker as usize].pop();
                    self.load[worker as usize] += 1;
                    self.refresh_top(worker);
                    worker
                }
                None => {
                    self.any.pop();
                    match self.place(task) {
                        Some(worker) => {
                            self.load[worker as usize] += 1;
                            self.refresh_top(worker);
                            worker
                        }
                        None => {
                            // The best subtask waits; later ones may not overtake
                            // it through the shared heap.
                            self.any.push(key);
                            any_blocked = true;
                            continue;
                        }
                    }
                }
            };
            let sent = now + self.coordinator_cost;
            self.coordinator_free = sent;
            self.at(sent + self.latency, Event::OrderArrives { worker, task });
            if sent > now {
                self.wake_scheduled = true;
                self.at(sent, Event::CoordinatorFree);
                return;
            }
        }
    }

    /// The first ready subtask in (priority, index) order among the pinned heaps of
    /// workers with room and, when `include_any`, the shared heap; with its worker
    /// when pinned.
    fn peek_next(&mut self, include_any: bool) -> Option<(ReadyKey, Option<u32>)> {
        let pinned = loop {
            let Some(&Reverse((priority, task, worker))) = self.tops.peek() else {
                break None;
            };
            let key = Reverse((priority, task));
            if self.load[worker as usize] < self.depth
                && self.pinned[worker as usize].peek() == Some(&key)
            {
                break Some((key, Some(worker)));
            }
            self.tops.pop();
        };
        let any = self
            .any
            .peek()
            .filter(|_| include_any)
            .map(|&key| (key, None));
        match (pinned, any) {
            (Some(pinned), Some(any)) => Some(if pinned.0 > any.0 { pinned } else { any }),
            (pinned, any) => pinned.or(any),
        }
    }

    /// The runtime's choice for an unpinned subtask (`exec/ready.rs`
    /// `choose_worker`): the holder of most input bytes if its queue has room, a
    /// nearly idle worker if not, else wait.
    fn place(&mut self, task: u32) -> Option<u32> {
        let depth = self.depth;
        self.bytes_on.fill(0);
        for &chunk in &self.graph.tasks[task as usize].inputs {
            let bytes = self.graph.chunks[chunk as usize].bytes;
            for &(worker, _) in &self.holders[chunk as usize] {
                self.bytes_on[worker as usize] += bytes;
            }
        }
        marsc_runtime::exec::choose_worker(&self.bytes_on, &self.load, depth)
    }

    /// A work order arrives: fetch the inputs not here (each from the holder whose
    /// uplink frees first), then the subtask can run.
    fn order_arrives(&mut self, now: Time, worker: u32, task: u32) {
        let mut ready = now;
        for index in 0..self.graph.tasks[task as usize].inputs.len() {
            let chunk = self.graph.tasks[task as usize].inputs[index] as usize;
            let holders = &self.holders[chunk];
            if let Some(&(_, since)) = holders.iter().find(|&&(w, _)| w == worker) {
                ready = ready.max(since);
                continue;
            }
            let Some(&(source, available)) = holders
                .iter()
                .min_by_key(|&&(w, since)| (self.uplink_free[w as usize].max(since), w))
            else {
                continue;
            };
            let bytes = self.graph.chunks[chunk].bytes;
            let start = now
                .max(available)
                .max(self.uplink_free[source as usize])
                .max(self.downlink_free[worker as usize]);
            let end = start + self.latency + picos(bytes as f64 / self.cluster.bandwidth);
            self.uplink_free[source as usize] = end;
            self.downlink_free[worker as usize] = end;
            self.holders[chunk].push((worker, end));
            self.memory.push((start, worker, bytes as i64));
            self.report.transfer_bytes += bytes;
            self.report.transfers += 1;
            ready = ready.max(end);
        }
        if ready > now {
            self.at(ready, Event::InputsReady { worker, task });
        } else {
            self.runnable[worker as usize].push_back(task);
            self.start_next(now, worker);
        }
    }

    fn start_next(&mut self, now: Time, worker: u32) {
        if self.busy[worker as usize] {
            return;
        }
        let Some(task) = self.runnable[worker as usize].pop_front() else {
            return;
        };
        self.busy[worker as usize] = true;
        for &chunk in &self.graph.tasks[task as usize].outputs {
            if self.readers_left[chunk as usize] > 0 {
                let bytes = self.graph.chunks[chunk as usize].bytes;
                self.memory.push((now, worker, bytes as i64));
            }
        }
        self.at(
            now + self.compute[task as usize],
            Event::Finished { worker, task },
        );
    }

    fn finished(&mut self, now: Time, worker: u32, task: u32) {
        self.busy[worker as usize] = false;
        let spec = &self.graph.tasks[task as usize];
        for &chunk in &spec.outputs {
            if self.readers_left[chunk as usize] > 0 {
                self.holders[chunk as usize].push((worker, now));
            }
        }
        for &chunk in &spec.inputs {
            let left = &mut self.readers_left[chunk as usize];
            *left = left.saturating_sub(1);
            if *left == 0 {
                let bytes = self.graph.chunks[chunk as usize].bytes as i64;
                for &(holder, _) in &self.holders[chunk as usize] {
                    self.memory.push((now, holder, -bytes));
                }
            }
        }
        self.at(now + self.latency, Event::Reported { worker, task });
        self.start_next(now, worker);
    }

    fn reported(&mut self, now: Time, worker: u32, task: u32) {
        self.load[worker as usize] -= 1;
        self.refresh_top(worker);
        let (start, end) = (
            self.dependent_offsets[task as usize] as usize,
            self.dependent_offsets[task as usize + 1] as usize,
        );
        for index in start..end {
            let reader = self.dependents[index];
            self.waiting_for[reader as usize] -= 1;
            if self.waiting_for[reader as usize] == 0 {
                self.make_ready(reader);
            }
        }
        self.dispatch(now);
    }
}

/// Each worker's most bytes held at once (releases at an instant count before
/// what is taken at it).
fn peaks(memory: &mut [(Time, u32, i64)], workers: usize) -> Vec<u64> {
    memory.sort_unstable_by_key(|&(time, worker, bytes)| (worker, time, bytes));
    let mut peak = vec![0u64; workers];
    let mut held = vec![0i64; workers];
    for &(_, worker, bytes) in memory.iter() {
        let w = worker as usize;
        held[w] += bytes;
        peak[w] = peak[w].max(held[w].max(0) as u64);
    }
    peak
}
