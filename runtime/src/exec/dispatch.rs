//! The coordinator's dispatch policy: the ready queue (priority order, then subtask
//! id, so dispatch is deterministic for a given sequence of completions), the choice
//! of a worker for a subtask without a preferred one, and the size of each worker's
//! queue.

use crate::plan::SubtaskId;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

type ReadyKey = Reverse<(i64, u32)>;

/// Ready subtasks: one heap for those that may run anywhere, one per worker for
/// those pinned to a worker by the plan.
pub struct ReadyQueue {
    any: BinaryHeap<ReadyKey>,
    pinned: Vec<BinaryHeap<ReadyKey>>,
}

/// Which heap the next subtask comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NextReady {
    Any,
    Pinned(u32),
}

impl ReadyQueue {
    pub fn new(workers: u32) -> Self {
        ReadyQueue {
            any: BinaryHeap::new(),
            pinned: (0..workers).map(|_| BinaryHeap::new()).collect(),
        }
    }

    /// `worker` must be below the worker count.
    pub fn push(&mut self, subtask: SubtaskId, priority: i64, worker: Option<u32>) {
        let key = Reverse((priority, subtask.0));
        match worker {
            Some(worker) => self.pinned[worker as usize].push(key),
            None => self.any.push(key),
        }
    }

    /// The first ready subtask in (priority, id) order among the pinned heaps of
    /// workers with room and, when `include_any`, the shared heap.
    pub fn peek_next(
        &self,
        has_room: impl Fn(u32) -> bool,
        include_any: bool,
    ) -> Option<NextReady> {
        let mut best: Option<(ReadyKey, NextReady)> = None;
        let mut consider = |key: Option<&ReadyKey>, from: NextReady| {
            if let Some(&key) = key {
                if best.is_none_or(|(best_key, _)| key > best_key) {
                    best = Some((key, from));
                }
            }
        };
        if include_any {
            consider(self.any.peek(), NextReady::Any);
        }
        for (worker, heap) in self.pinned.iter().enumerate() {
            let worker = worker as u32;
            if has_room(worker) {
                consider(heap.peek(), NextReady::Pinned(worker));
            }
        }
        best.map(|(_, from)| from)
    }

    /// Empties a worker's pinned heap (the worker is gone), in no particular order.
    pub fn drain_pinned(&mut self, worker: u32) -> Vec<SubtaskId> {
        std::mem::take(&mut self.pinned[worker as usize])
            .into_iter()
            .map(|Reverse((_, id))| SubtaskId(id))
            .collect()
    }

    pub fn pop(&mut self, from: NextReady) -> Option<SubtaskId> {
        let heap = match from {
            NextReady::Any => &mut self.any,
            NextReady::Pinned(worker) => &mut self.pinned[worker as usize],
        };
        heap.pop().map(|Reverse((_, id))| SubtaskId(id))
    }
}

/// Picks a worker for a subtask that may run anywhere, or `None` to keep it waiting.
///
/// The worker holding the most input bytes gets it when its queue has room (ties go
/// to the less loaded, then the lower id). When that worker is full, the subtask
/// moves (and its inputs with it) only to a worker that is about to run dry, because
/// moving data costs more than a short wait. Without inputs on any worker, the least
/// loaded worker with room gets it.
pub fn choose_worker(bytes_on: &[u64], load: &[u32], depth: u32) -> Option<u32> {
    let least_loaded = (0..load.len()).min_by_key(|&w| (load[w], w))?;
    let holder = (0..bytes_on.len())
        .filter(|&w| bytes_on[w] > 0)
        .max_by_key(|&w| (bytes_on[w], Reverse(load[w]), Reverse(w)));
    let chosen = match holder {
        Some(holder) if load[holder] < depth => holder,
        Some(_) if load[least_loaded] < (depth / 2).max(1) => least_loaded,
        None if load[least_loaded] < depth => least_loaded,
        _ => return None,
    };
    Some(chosen as u32)
}

/// How many subtasks each worker may have in flight: enough to cover the time the
/// coordinator takes to answer a report, yet small enough that a subtask which
/// becomes ready later with a better priority does not wait behind a long queue.
/// Adapts to the measured time per subtask unless fixed by the caller.
#[derive(Clone, Debug)]
pub struct QueueDepth {
    fixed: Option<u32>,
    mean_subtask_nanos: Option<f64>,
}

impl QueueDepth {
    /// Work a full queue should hold.
    const TARGET_QUEUE_NANOS: f64 = 200_000.0;
    const MIN: u32 = 2;
    const MAX: u32 = 1024;

    pub fn new(fixed: Option<u32>) -> Self {
        QueueDepth {
            fixed: fixed.map(|depth| depth.max(1)),
            mean_subtask_nanos: None,
        }
    }

    /// The depth for subtasks that take `mean_subtask_nanos` each (what a run
    /// settles on once it has measured them), unless `fixed`.
    pub fn for_mean(fixed: Option<u32>, mean_subtask_nanos: f64) -> u32 {
        QueueDepth {
            mean_subtask_nanos: Some(mean_subtask_nanos),
            ..QueueDepth::new(fixed)
        }
        .current()
    }

    pub fn current(&self) -> u32 {
        if let Some(depth) = self.fixed {
            return depth;
        }
        match self.mean_subtask_nanos {
            None => Self::MIN,
            Some(mean) => {
                let depth = Self::TARGET_QUEUE_NANOS / mean.max(1.0);
                depth.clamp(f64::from(Self::MIN), f64::from(Self::MAX)) as u32
            }
        }
    }

    /// How often a worker should report: halfway through its queue.
    pub fn report_every(&self) -> u32 {
        (self.current() / 2).max(1)
    }

    pub fn observe(&mut self, busy_nanos: u64, subtasks: usize) {
        if subtasks == 0 {
            return;
        }
        let sample = busy_nanos as f64 / subtasks as f64;
        self.mean_subtask_nanos = Some(match self.mean_subtask_nanos {
            None => sample,
            Some(mean) => 0.7 * mean + 0.3 * sample,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ready_queue_orders_by_priority_then_id_across_heaps() {
        let mut queue = ReadyQueue::new(2);
        queue.push(SubtaskId(5), 1, None);
        queue.push(SubtaskId(3), 1, Some(1));
        queue.push(SubtaskId(9), 0, Some(0));
        let mut order = Vec::new();
        while let Some(next) = queue.peek_next(|_| true, true) {
            order.push(queue.pop(next).map(|s| s.0));
        }
        assert_eq!(order, [Some(9), Some(3), Some(5)]);
        assert_eq!(queue.peek_next(|_| true, true), None);
    }

    #[test]
    fn ready_queue_skips_full_workers() {
        let mut queue = ReadyQueue::new(2);
        queue.push(SubtaskId(1), 0, Some(0));
        queue.push(SubtaskId(2), 5, Some(1));
        assert_eq!(
            queue.peek_next(|w| w == 1, false),
            Some(NextReady::Pinned(1))
        );
        assert_eq!(queue.peek_next(|_| false, false), None);
    }

    #[test]
    fn choose_worker_prefers_data_then_load() {
        assert_eq!(choose_worker(&[0, 8, 16], &[0, 0, 1], 4), Some(2));
        assert_eq!(choose_worker(&[0, 0, 0], &[3, 1, 1], 4), Some(1));
        // The holder is full; worker 0 is nearly idle, so the subtask moves there.
        assert_eq!(choose_worker(&[0, 8], &[1, 4], 4), Some(0));
        // The holder is full and nobody is about to idle: wait.
        assert_eq!(choose_worker(&[0, 8], &[2, 4], 4), None);
        assert_eq!(choose_worker(&[0, 0], &[4, 4], 4), None);
    }

    #[test]
    fn queue_depth_adapts_to_subtask_time() {
        let mut depth = QueueDepth::new(None);
        assert_eq!(depth.current(), 2);
        depth.observe(1_000, 10);
        assert_eq!(depth.current(), 1024);
        let mut slow = QueueDepth::new(None);
        slow.observe(50_000_000, 1);
        assert_eq!(slow.current(), 2);
        assert_eq!(QueueDepth::new(Some(0)).current(), 1);
    }
}
