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
    /// Expects a plan that passed [`Plan::verify`].
    pub fn new<K>(plan: &Plan<K>) -> Self {
        let num_chunks = plan.num_chunks as usize;
        let mut consumer_start = vec![0u32; num_chunks + 1];
        for subtask in &plan.subtasks {
            for chunk in &subtask.inputs {
                consumer_start[chunk.index() + 1] += 1;
            }
        }
        for i in 0..num_chunks {
            consumer_start[i + 1] += consumer_start[i];
        }
        let mut next = consumer_start.clone();
        let mut consumers = vec![SubtaskId(0); consumer_start[num_chunks] as usize];
        for (index, subtask) in plan.subtasks.iter().enumerate() {
            for chunk in &subtask.inputs {
                let slot = &mut next[chunk.index()];
                consumers[*slot as usize] = SubtaskId(index as u32);
                *slot += 1;
            }
        }
        let mut producer = vec![SubtaskId(0); num_chunks];
        for (index, subtask) in plan.subtasks.iter().enumerate() {
            for &(_, chunk) in &subtask.outputs {
                producer[chunk.index()] = SubtaskId(index as u32);
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
