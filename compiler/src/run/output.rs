//! Turning result chunks into what the script prints: each printed tensor is
//! assembled from its chunks (C order, placed by the step's offsets) and formatted
//! exactly as NumPy's `str()` (a 0-d tensor as a NumPy scalar); `print`'s items are
//! joined by `sep` and followed by `end`, in program order. A tensor NumPy summarizes
//! arrives as its corners only ([`PrintItem::Summary`]) and is laid out with `...`
//! from them and its full shape.

use crate::chunk::{ChunkGraph, ChunkOutput, PrintItem, StepId};
use crate::plan::runtime_id;
use marsc_runtime::format::{format_array, format_corners, repr_array, repr_corners, repr_scalar};
use marsc_runtime::kernel::{AssemblePiece, ChunkValue, Kernel};
use marsc_runtime::plan::ChunkId as RuntimeChunk;
use marsc_runtime::ArrayData;
use std::collections::HashMap;
use std::io::Write;
use std::sync::Arc;

/// The result chunks of a run, by chunk.
pub type Results = HashMap<RuntimeChunk, Arc<ChunkValue>>;

/// What printing a tensor shows: its values (only the corners of a summarized
/// tensor) and the tensor's whole shape.
#[derive(Clone, Debug, PartialEq)]
pub struct Shown {
    pub data: ArrayData,
    pub shape: Vec<usize>,
}

impl Shown {
    /// NumPy's `str()`, as `print` shows it (a 0-d tensor as its scalar).
    pub fn str(&self) -> String {
        if self.data.shape() == self.shape.as_slice() {
            format_array(&self.data)
        } else {
            format_corners(&self.data, &self.shape)
        }
    }

    /// NumPy's `repr()` as Python's REPL echoes it: a 0-d tensor is a NumPy scalar.
    pub fn repr(&self) -> String {
        if self.data.shape() != self.shape.as_slice() {
            return repr_corners(&self.data, &self.shape);
        }
        match (self.data.ndim(), self.data.get_flat(0)) {
            (0, Some(scalar)) => repr_scalar(scalar),
            _ => repr_array(&self.data),
        }
    }

    /// Bytes of the values held to print it.
    pub fn nbytes(&self) -> usize {
        self.data.nbytes()
    }
}

/// Writes the first `count` outputs of the program (its prints; saves print
/// nothing) to `out`, in order; returns the most bytes of printed values held at
/// once. Errors are internal (a missing result) or from writing.
pub fn write_prints(
    chunks: &ChunkGraph,
    results: &Results,
    count: usize,
    out: &mut dyn Write,
) -> Result<u64, String> {
    let mut text = String::new();
    let mut held = 0;
    for output in chunks.outputs.iter().take(count) {
        let ChunkOutput::Print { items, sep, end } = output else {
            continue;
        };
        for (position, item) in items.iter().enumerate() {
            if position > 0 {
                text.push_str(sep);
            }
            match item {
                PrintItem::Text(value) => text.push_str(value),
                PrintItem::Tensor(_) | PrintItem::Summary { .. } => {
                    let value = shown(chunks, results, item)?;
                    held = held.max(value.nbytes() as u64);
                    text.push_str(&value.str());
                }
            }
        }
        text.push_str(end);
    }
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|error| format!("cannot write the output: {error}"))?;
    Ok(held + text.len() as u64)
}

/// What printing a tensor item shows, from its result chunks.
pub fn shown(chunks: &ChunkGraph, results: &Results, item: &PrintItem) -> Result<Shown, String> {
    let (Some(printed), Some(whole)) = (item.printed_step(), item.tensor_step()) else {
        return Err("internal error: a text item has no tensor".to_string());
    };
    Ok(Shown {
        data: tensor(chunks, results, printed)?,
        shape: chunks.step(whole).layout.shape().to_vec(),
    })
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
