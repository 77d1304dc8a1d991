//! Read-only facts derived from a plan once before running it: who produces and who
//! consumes each chunk, and which chunks are results. Every participant can derive the same index
//! from the same plan, so it never has to travel in messages.

use crate::plan::{ChunkId, Plan, SubtaskId};

pub struct PlanIndex {
    /// Consumers of chunk `c` are `consumers[consumer_start[c]..consumer_start[c + 1]]`;
    /// a subtask appears once per time it lists the chunk among its inputs.
    consumer_start: Vec<u32>,
    consumers: Vec<SubtaskId>,
    /// The subtask publishing each chunk: a lost chunk's lineage.
    producer: Vec<SubtaskId>,
    is_result: Vec<bool>,
}

impl PlanIndex {
    /// Expects a plan that passed [`Plan::check`]. Two passes over the subtasks:
    /// one counts each chunk's consumers (and notes its producer), one fills the
    /// consumer lists from the back, which leaves each list's start in place of its
    /// end, so no second copy of the starts is needed.
    pub fn new<K>(plan: &Plan<K>) -> Self {
        let num_chunks = plan.num_chunks as usize;
        // First `consumer_start[c]` counts c's consumers, then (summed) ends c's list.
        let mut consumer_start = vec![0u32; num_chunks + 1];
        let mut producer = vec![SubtaskId(0); num_chunks];
        for (index, subtask) in plan.subtasks.iter().enumerate() {
            for chunk in &subtask.inputs {
                consumer_start[chunk.index()] += 1;
            }
            for &(_, chunk) in &subtask.outputs {
                producer[chunk.index()] = SubtaskId(index as u32);
            }
        }
        let mut total = 0u32;
        for slot in &mut consumer_start[..num_chunks] {
            total += *slot;
            *slot = total;
        }
        consumer_start[num_chunks] = total;
        let mut consumers = vec![SubtaskId(0); total as usize];
        for (index, subtask) in plan.subtasks.iter().enumerate().rev() {
            for chunk in subtask.inputs.iter().rev() {
                let slot = &mut consumer_start[chunk.index()];
                *slot -= 1;
                consumers[*slot as usize] = SubtaskId(index as u32);
            }
        }
        let mut is_result = vec![false; num_chunks];
        for chunk in &plan.results {
            is_result[chunk.index()] = true;
        }
        PlanIndex {
            consumer_start,
            consumers,
            producer,
            is_result,
        }
    }

    #[inline]
    pub fn consumers(&self, chunk: ChunkId) -> &[SubtaskId] {
        let start = self.consumer_start[chunk.index()] as usize;
        let end = self.consumer_start[chunk.index() + 1] as usize;
        &self.consumers[start..end]
    }

    #[inline]
    pub fn consumer_count(&self, chunk: ChunkId) -> u32 {
        self.consumer_start[chunk.index() + 1] - self.consumer_start[chunk.index()]
    }

    #[inline]
    pub fn producer(&self, chunk: ChunkId) -> SubtaskId {
        self.producer[chunk.index()]
    }

    #[inline]
    pub fn is_result(&self, chunk: ChunkId) -> bool {
        self.is_result[chunk.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::{OpArg, PlanOp, Subtask};

    fn subtask(inputs: &[u32], output: u32) -> Subtask<()> {
        Subtask {
            ops: vec![PlanOp {
                kernel: (),
                args: (0..inputs.len() as u32).map(OpArg::Input).collect(),
            }]
            .into(),
            inputs: inputs.iter().map(|&c| ChunkId(c)).collect(),
            outputs: [(0, ChunkId(output))].into_iter().collect(),
            priority: 0,
            worker: None,
            label: 0,
        }
    }

    #[test]
    fn consumers_are_listed_in_subtask_order_once_per_use() {
        let plan = Plan {
            subtasks: vec![
                subtask(&[], 0),
                subtask(&[], 1),
                subtask(&[0, 1, 0], 2),
                subtask(&[1], 3),
                subtask(&[2, 0], 4),
            ],
            num_chunks: 5,
            results: vec![ChunkId(4), ChunkId(3)],
        };
        let index = PlanIndex::new(&plan);
        let ids = |chunk: u32| -> Vec<u32> {
            index
                .consumers(ChunkId(chunk))
                .iter()
                .map(|s| s.0)
                .collect()
        };
        assert_eq!(ids(0), [2, 2, 4]);
        assert_eq!(ids(1), [2, 3]);
        assert_eq!(ids(2), [4]);
        assert!(ids(3).is_empty() && ids(4).is_empty());
        assert_eq!(index.consumer_count(ChunkId(0)), 3);
        assert_eq!(index.producer(ChunkId(3)), SubtaskId(3));
        assert!(index.is_result(ChunkId(3)) && !index.is_result(ChunkId(2)));
    }
}
