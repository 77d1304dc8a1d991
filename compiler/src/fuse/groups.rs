//! Finding each chunk's fused group in one backward sweep over one table.
//!
//! Chunk ids are topological, so going backwards every consumer is settled before its
//! producers. When a chunk is settled, its entry becomes its *root* (itself if it
//! starts a group, else the group it joins), and it tells each of its inputs which
//! group it may join through this edge: its own root if the rules allow, else
//! "nowhere". An input's entry, until it is settled in turn, collects those messages:
//! the one root every consumer offered, or a marker when there are none, or they
//! disagree, or one refused. So a producer joins a group only when all its consumers
//! are in that group — no chunk is ever computed twice — and outputs are marked up
//! front as joining nowhere, since their values must leave the subtask anyway.
//!
//! A saved chunk is not an output: its save region is its reader like any other, so
//! when nothing else reads it, it and its producers join the region's group, and the
//! JIT computes it straight into the saved file (`marsc_runtime::jit::SaveSink`).
//!
//! A group stops growing at [`MAX_GROUP_OPS`] chunk operations: a producer offered a
//! full group starts its own, which publishes its value like any root. So 50,000 lines
//! of `a = a + 1` become a chain of subtasks of bounded size, each one JIT kernel of
//! bounded size (and, the links being alike, the same kernel), instead of one kernel
//! whose compile time and memory grow with the script. A second table counts each
//! group's operations.

use super::rules::{may_fail, may_join};
use super::Fusion;
use crate::chunk::{ChunkGraph, ChunkId};

/// The most chunk operations one fused group holds. Far more than an element-wise
/// expression of a real script has, it bounds what one subtask's JIT kernel compiles.
pub const MAX_GROUP_OPS: u32 = 256;

/// The root of a chunk no subtask runs.
pub const NOT_RUN: u32 = u32::MAX;
/// An unsettled entry: no consumer has offered a group yet.
const NO_OFFER: u32 = u32::MAX;
/// An unsettled entry: the chunk must start its own group. Chunk ids stay below
/// 2^32 - 1 (the tiler refuses more chunks), so it is no chunk's id.
const OWN_GROUP: u32 = u32::MAX - 1;

/// For every chunk, the chunk whose group runs it (itself for a root), or [`NOT_RUN`]
/// where `needed` is false. `results` are the printed chunks.
pub fn fused_roots(
    chunks: &ChunkGraph,
    needed: &[bool],
    results: &[ChunkId],
    fusion: Fusion,
) -> Vec<u32> {
    let mut table = vec![NO_OFFER; chunks.num_chunks()];
    // Per root, the operations its group holds so far.
    let mut sizes = vec![0u32; chunks.num_chunks()];
    for &chunk in results {
        table[chunk.index()] = OWN_GROUP;
    }
    for chunk in (0..chunks.num_chunks() as u32).rev().map(ChunkId) {
        if !needed[chunk.index()] {
            table[chunk.index()] = NOT_RUN;
            continue;
        }
        let root = settle(chunks, &table, &sizes, chunk);
        table[chunk.index()] = root;
        sizes[root as usize] += 1;
        offer_group(chunks, fusion, chunk, root, &mut table);
    }
    table
}

/// The root of `chunk`, from what its consumers offered and how full that group is.
fn settle(chunks: &ChunkGraph, table: &[u32], sizes: &[u32], chunk: ChunkId) -> u32 {
    let offered = table[chunk.index()];
    let step = chunks.step_of(chunk);
    if offered < OWN_GROUP
        && sizes[offered as usize] < MAX_GROUP_OPS
        && !may_fail(&step.op, step.dtype)
    {
        offered
    } else {
        chunk.0
    }
}

/// Tells each input of `consumer` whether it may join the group `root`.
fn offer_group(
    chunks: &ChunkGraph,
    fusion: Fusion,
    consumer: ChunkId,
    root: u32,
    table: &mut [u32],
) {
    let inputs = chunks.inputs(consumer);
    let Some(&first) = inputs.first() else {
        return;
    };
    // `x * x` reads one chunk twice and is still a chain.
    let reads_one_chunk = inputs.iter().all(|&input| input == first);
    let consumer_op = &chunks.step_of(consumer).op;
    for &input in inputs {
        let joins = may_join(
            fusion,
            consumer_op,
            reads_one_chunk,
            &chunks.step_of(input).op,
        );
        let entry = &mut table[input.index()];
        *entry = match *entry {
            NO_OFFER if joins => root,
            offered if joins && offered == root => root,
            _ => OWN_GROUP,
        };
    }
}
