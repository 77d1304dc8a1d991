//! Turning result chunks into what the script prints: each printed tensor is
//! assembled from its chunks (C order, placed by the step's offsets) and formatted
//! exactly as NumPy's `str()` (a 0-d tensor as a NumPy scalar); `print`'s items are
//! joined by `sep` and followed by `end`, in program order.

use crate::chunk::{ChunkGraph, ChunkOutput, PrintItem, StepId};
use crate::plan::runtime_id;
use marsc_runtime::format::format_array;
use marsc_runtime::kernel::{AssemblePiece, ChunkValue, Kernel};
use marsc_runtime::plan::ChunkId as RuntimeChunk;
use marsc_runtime::ArrayData;
use std::collections::HashMap;
use std::io::Write;
use std::sync::Arc;

/// The result chunks of a run, by chunk.
pub type Results = HashMap<RuntimeChunk, Arc<ChunkValue>>;

/// Writes every `print` of the program to `out`, in order. Errors are internal
/// (a missing result) or from writing.
pub fn write_prints(
    chunks: &ChunkGraph,
    results: &Results,
    out: &mut dyn Write,
) -> Result<(), String> {
    let mut text = String::new();
    for output in &chunks.outputs {
        let ChunkOutput::Print { items, sep, end } = output else {
            continue;
        };
        for (position, item) in items.iter().enumerate() {
            if position > 0 {
                text.push_str(sep);
            }
            match item {
                PrintItem::Text(value) => text.push_str(value),
                PrintItem::Tensor(step) => {
                    text.push_str(&format_array(&tensor(chunks, results, *step)?));
                }
            }
        }
        text.push_str(end);
    }
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|error| format!("cannot write the output: {error}"))
}

/// A printed step's whole tensor, assembled from its result chunks.
pub fn tensor(chunks: &ChunkGraph, results: &Results, step: StepId) -> Result<ArrayData, String> {
    let step = chunks.step(step);
    let values = step
        .chunk_ids()
        .map(|chunk| {
            results
                .get(&runtime_id(chunk))
                .ok_or_else(|| format!("internal error: no result for {chunk}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if let [only] = values.as_slice() {
        return only.array().cloned();
    }
    let pieces = step
        .chunk_ids()
        .map(|chunk| AssemblePiece {
            region: chunks
                .chunk_shape(chunk)
                .into_iter()
                .map(|len| 0..len)
                .collect(),
            at: chunks.chunk_offset(chunk),
        })
        .collect();
    let whole = Kernel::Assemble {
        shape: step.layout.shape().to_vec(),
        pieces,
    };
    let args: Vec<&ChunkValue> = values.iter().map(|value| value.as_ref()).collect();
    match whole.compute(&args)? {
        ChunkValue::Array(data) => Ok(data),
        _ => Err("internal error: assembling a tensor gave no data".to_string()),
    }
}
