//! Finding each chunk's fused group, in two linear sweeps over one table.
//!
//! The first sweep records each needed chunk's sole consumer (or that it has none, or
//! several); outputs count as having several, since their value must leave the
//! subtask anyway. The second sweep goes backwards (chunk ids are topological, so a
//! consumer is settled before its producers) and overwrites the same table with each
//! chunk's *root*: itself when it starts a group, else its consumer's root.

use super::rules::may_absorb;
use super::Fusion;
use crate::chunk::{ChunkGraph, ChunkId, ChunkOp};

/// The root of a chunk no subtask runs.
pub const NOT_RUN: u32 = u32::MAX;
/// A sole-consumer entry: no needed chunk reads this one yet.
const NO_CONSUMER: u32 = u32::MAX;
/// A sole-consumer entry: several chunks read this one, or it is an output. Chunk
/// ids stay below 2^32 - 1 (the tiler refuses more chunks), so it is no chunk's id.
const SEVERAL_CONSUMERS: u32 = u32::MAX - 1;

/// For every chunk, the chunk whose group runs it (itself for a root), or [`NOT_RUN`]
/// where `needed` is false. `results` are the printed chunks.
pub fn fused_roots(
    chunks: &ChunkGraph,
    needed: &[bool],
    results: &[ChunkId],
    fusion: Fusion,
) -> Vec<u32> {
    let mut table = sole_consumers(chunks, needed);
    for &chunk in results {
        table[chunk.index()] = SEVERAL_CONSUMERS;
    }
    mark_saved_data(chunks, &mut table);
    for chunk in (0..chunks.num_chunks() as u32).rev() {
        let index = chunk as usize;
        if !needed[index] {
            table[index] = NOT_RUN;
            continue;
        }
        let consumer = table[index];
        table[index] = if consumer < SEVERAL_CONSUMERS
            && may_absorb(chunks, fusion, ChunkId(consumer), ChunkId(chunk))
        {
            table[consumer as usize]
        } else {
            chunk
        };
    }
    table
}

/// Each chunk's only consumer among the needed chunks, or a marker.
fn sole_consumers(chunks: &ChunkGraph, needed: &[bool]) -> Vec<u32> {
    let mut sole = vec![NO_CONSUMER; chunks.num_chunks()];
    for consumer in chunks.chunk_ids().filter(|c| needed[c.index()]) {
        for &input in chunks.inputs(consumer) {
            let entry = &mut sole[input.index()];
            // `a + a` reads one chunk twice: still one consumer.
            if *entry != consumer.0 {
                *entry = if *entry == NO_CONSUMER {
                    consumer.0
                } else {
                    SEVERAL_CONSUMERS
                };
            }
        }
    }
    sole
}

/// Marks the data chunks that saves write: a saved tensor is an output, so its chunks
/// are published by their own groups.
fn mark_saved_data(chunks: &ChunkGraph, table: &mut [u32]) {
    for step in chunks.steps() {
        if matches!(step.op, ChunkOp::SaveRegion { .. }) {
            for region in step.chunk_ids() {
                if let Some(&data) = chunks.inputs(region).first() {
                    table[data.index()] = SEVERAL_CONSUMERS;
                }
            }
        }
    }
}
