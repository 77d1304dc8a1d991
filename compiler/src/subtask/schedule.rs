//! The scheduling pass over the SubtaskGraph: builds a [`Dag`] from the subtasks'
//! data edges and applies the generic passes of `crate::schedule` — an execution
//! priority that keeps few results alive, and (given a worker count) the initial
//! worker assignment of the Mars design. The switches exist so the effect of each
//! pass can be measured against a naive alternative (`--order`, `--assign`).

use super::{SubtaskGraph, SubtaskId};
use crate::chunk::{ChunkGraph, ChunkId, ChunkOp};
use crate::error::InternalError;
use crate::schedule::{self, Dag, InitialAssignment};

/// How the execution priority of subtasks is chosen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OrderPolicy {
    /// The memory-frugal demand-driven order (finish a branch before starting another).
    #[default]
    Priority,
    /// Breadth-first: every subtask of one depth before any deeper one.
    Bfs,
}

/// How the initial subtasks (those reading no other subtask) are spread over workers;
/// the rest follow the bytes of their inputs whatever the policy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AssignPolicy {
    /// The Mars breadth-first assignment: neighbouring initial subtasks share a worker.
    #[default]
    Bfs,
    /// The i-th initial subtask goes to worker i mod workers.
    RoundRobin,
    /// A fixed-seed random permutation of the initial subtasks, dealt round-robin.
    Random,
}

/// The seed of `--assign random`, fixed so that runs are reproducible.
const RANDOM_ASSIGNMENT_SEED: u64 = 0x6d61_7273;

impl AssignPolicy {
    fn initial(self) -> InitialAssignment {
        match self {
            AssignPolicy::Bfs => InitialAssignment::Bfs,
            AssignPolicy::RoundRobin => InitialAssignment::RoundRobin,
            AssignPolicy::Random => InitialAssignment::Random {
                seed: RANDOM_ASSIGNMENT_SEED,
            },
        }
    }
}

/// The subtask graph as a plain DAG over subtask indices, with each subtask's output
/// size in bytes; an `Err` is an internal error (subtasks that form a cycle).
///
/// A subtask that only opens a save's temporary file, reading nothing, is left out
/// of the edges (`openers`, see [`opens_a_file_early`]).
fn subtask_dag(
    graph: &SubtaskGraph,
    chunks: &ChunkGraph,
    openers: &[bool],
) -> Result<(Dag, Vec<u64>), String> {
    let mut edges = Vec::new();
    let mut sizes = Vec::with_capacity(graph.len());
    let mut inputs = Vec::new();
    for id in graph.ids() {
        graph.inputs_into(chunks, id, &mut inputs);
        for &input in &inputs {
            if let Some(producer) = graph.subtask_of(input) {
                if !openers[producer.index()] {
                    edges.push((producer.0, id.0));
                }
            }
        }
        sizes.push(
            graph
                .outputs(id)
                .map(|chunk| chunk_bytes(chunks, chunk))
                .sum(),
        );
    }
    let dag = Dag::from_edges(graph.len(), &edges)
        .map_err(|error| format!("the subtask graph is not a DAG: {error}"))?;
    Ok((dag, sizes))
}

/// Whether a subtask only creates a save's temporary file from nothing. It holds no
/// data and reads nothing, so it can run first; left in the ordering DAG it would be
/// an input of every region of the save, and the walk would compute every region's
/// data before opening the file — holding (or, under a memory limit, spilling) all of
/// it — instead of writing each region as soon as its data exists.
fn opens_a_file_early(graph: &SubtaskGraph, chunks: &ChunkGraph, id: SubtaskId) -> bool {
    graph.ops(id).iter().all(|&chunk| {
        matches!(chunks.step_of(chunk).op, ChunkOp::SaveInit { .. })
            && chunks.inputs(chunk).is_empty()
    })
}

/// Renumbers `priorities` so that the file openers come first (in their order), the
/// rest keeping theirs; still a topological order, since openers read nothing. Linear:
/// `priorities` is a permutation of the subtask indices.
fn run_file_openers_first(openers: &[bool], priorities: &mut [u32]) {
    if !openers.contains(&true) {
        return;
    }
    let mut sequence = vec![u32::MAX; priorities.len()];
    for (index, &priority) in priorities.iter().enumerate() {
        sequence[priority as usize] = index as u32;
    }
    let (first, rest): (Vec<u32>, Vec<u32>) = sequence
        .into_iter()
        .partition(|&index| openers[index as usize]);
    for (rank, index) in first.into_iter().chain(rest).enumerate() {
        priorities[index as usize] = rank as u32;
    }
}

/// The bytes of a chunk's data (a reduction state counts as its data shape).
fn chunk_bytes(chunks: &ChunkGraph, chunk: ChunkId) -> u64 {
    (chunks.data_len(chunk) * chunks.step_of(chunk).dtype.itemsize()) as u64
}

/// Sets every subtask's priority by `order`, and, when `workers` is given, its worker
/// by `assign`.
pub fn schedule_subtasks(
    graph: &mut SubtaskGraph,
    chunks: &ChunkGraph,
    order: OrderPolicy,
    assign: AssignPolicy,
    workers: Option<u32>,
) -> Result<(), InternalError> {
    let openers: Vec<bool> = graph
        .ids()
        .map(|id| opens_a_file_early(graph, chunks, id))
        .collect();
    let (dag, sizes) =
        subtask_dag(graph, chunks, &openers).map_err(|e| InternalError::new("schedule", e))?;
    let mut priorities = match order {
        OrderPolicy::Priority => schedule::order(&dag, Some(&sizes)),
        OrderPolicy::Bfs => schedule::bfs_order(&dag),
    };
    run_file_openers_first(&openers, &mut priorities);
    let assignment = workers
        .map(|workers| schedule::assign_workers(&dag, &sizes, workers as usize, assign.initial()));
    for (index, &priority) in priorities.iter().enumerate() {
        let subtask = graph.subtask_mut(SubtaskId(index as u32));
        subtask.priority = i64::from(priority);
        subtask.worker = assignment.as_ref().map(|workers| workers[index]);
    }
    Ok(())
}
