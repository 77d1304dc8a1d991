//! Turning result chunks into what the script prints: each printed tensor is
//! assembled from its chunks (C order, placed by the step's offsets) and formatted
//! exactly as NumPy's `str()` (a 0-d tensor as a NumPy scalar); `print`'s items are
//! joined by `sep` and followed by `end`, in program order. A tensor NumPy summarizes
//! arrives as its corners only ([`PrintItem::Summary`]) and is laid out with `...`
//! from them and its full shape.

use crate::chunk::{ChunkGraph, ChunkId, ChunkOutput, PrintItem, StepId};
use crate::error::{InternalError, JobError};
use marsc_runtime::chunk_kernel::{AssemblePiece, ChunkValue, Kernel};
use marsc_runtime::format::{format_array, format_corners, repr_array, repr_corners, repr_scalar};
use marsc_runtime::ArrayData;
use std::collections::HashMap;
use std::io::Write;
use std::sync::Arc;

/// The result chunks of a run, by chunk.
pub type Results = HashMap<ChunkId, Arc<ChunkValue>>;

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

/// One `print` (or a REPL echo) as data: its items and its `sep` and `end`. A
/// front-end renders it ([`Printed::text`] is what `print` writes); a server can
/// send the values themselves.
#[derive(Clone, Debug, PartialEq)]
pub struct Printed {
    pub items: Vec<PrintedItem>,
    pub sep: String,
    pub end: String,
}

/// One item of a [`Printed`].
#[derive(Clone, Debug, PartialEq)]
pub enum PrintedItem {
    /// A Python value, already as `print` shows it.
    Text(String),
    /// A tensor's values (only the corners of a summarized one) and shape.
    Tensor(Shown),
    /// A tensor the REPL echoes (an expression statement's value): shown as NumPy's
    /// `repr()`, as Python's REPL does.
    Echo(Shown),
}

impl PrintedItem {
    /// The item as `print` shows it (an echo as the REPL does, with `repr`).
    pub fn text(&self) -> String {
        match self {
            PrintedItem::Text(value) => value.clone(),
            PrintedItem::Tensor(shown) => shown.str(),
            PrintedItem::Echo(shown) => shown.repr(),
        }
    }
}

impl Printed {
    /// The text `print` writes: the items' `str()` joined by `sep`, then `end`.
    pub fn text(&self) -> String {
        let mut text = String::new();
        for (position, item) in self.items.iter().enumerate() {
            if position > 0 {
                text.push_str(&self.sep);
            }
            text.push_str(&item.text());
        }
        text.push_str(&self.end);
        text
    }

    /// Bytes of the values it holds.
    pub fn nbytes(&self) -> usize {
        self.items
            .iter()
            .map(|item| match item {
                PrintedItem::Text(text) => text.len(),
                PrintedItem::Tensor(shown) | PrintedItem::Echo(shown) => shown.nbytes(),
            })
            .sum()
    }
}

/// Where a run's prints go, one [`Printed`] per `print`, in program order.
pub trait PrintSink {
    /// Takes one print; returns the bytes the sink holds for it (its share of the
    /// run's peak).
    fn print(&mut self, printed: Printed) -> Result<u64, JobError>;
}

/// Keeps the prints as data (a server, tests).
impl PrintSink for Vec<Printed> {
    fn print(&mut self, printed: Printed) -> Result<u64, JobError> {
        let bytes = printed.nbytes() as u64;
        self.push(printed);
        Ok(bytes)
    }
}

/// Renders prints as `print` does, into a writer (the CLI's stdout), all at once
/// when [`TextSink::finish`] is called: nothing of a run appears before it has
/// computed every output, and a failed run's earlier prints appear before its error.
pub struct TextSink<'w> {
    out: &'w mut dyn Write,
    text: String,
    /// Each print is written (and flushed) at once, not at `finish`.
    streaming: bool,
}

impl<'w> TextSink<'w> {
    pub fn new(out: &'w mut dyn Write) -> TextSink<'w> {
        TextSink {
            out,
            text: String::new(),
            streaming: false,
        }
    }

    /// A sink that writes each print as it comes (a script run in stages shows
    /// each stage's prints when the stage ends).
    pub fn streaming(out: &'w mut dyn Write) -> TextSink<'w> {
        TextSink {
            streaming: true,
            ..TextSink::new(out)
        }
    }

    /// Writes what was printed and flushes.
    pub fn finish(self) -> Result<(), JobError> {
        self.out
            .write_all(self.text.as_bytes())
            .and_then(|()| self.out.flush())
            .map_err(|error| JobError::Io(format!("cannot write the output: {error}")))
    }
}

impl PrintSink for TextSink<'_> {
    fn print(&mut self, printed: Printed) -> Result<u64, JobError> {
        let text = printed.text();
        if self.streaming {
            self.out
                .write_all(text.as_bytes())
                .and_then(|()| self.out.flush())
                .map_err(|error| JobError::Io(format!("cannot write the output: {error}")))?;
            return Ok(0);
        }
        self.text.push_str(&text);
        Ok(text.len() as u64)
    }
}

/// Hands the first `count` outputs of the program (its prints; saves print
/// nothing) to `sink`, in order; returns the most bytes of printed values held at
/// once (the largest value assembled, plus what the sink holds).
pub fn write_prints(
    chunks: &ChunkGraph,
    results: &Results,
    count: usize,
    sink: &mut dyn PrintSink,
) -> Result<u64, JobError> {
    write_outputs(chunks, results, count, |_| false, sink)
}

/// [`write_prints`], with the outputs for which `is_echo` holds (by index) shown
/// as the REPL echoes a value ([`PrintedItem::Echo`]).
pub fn write_outputs(
    chunks: &ChunkGraph,
    results: &Results,
    count: usize,
    is_echo: impl Fn(usize) -> bool,
    sink: &mut dyn PrintSink,
) -> Result<u64, JobError> {
    let mut held = 0;
    let mut in_sink = 0;
    for (index, output) in chunks.outputs.iter().take(count).enumerate() {
        let ChunkOutput::Print { items, sep, end } = output else {
            continue;
        };
        let mut printed = Printed {
            items: Vec::with_capacity(items.len()),
            sep: sep.clone(),
            end: end.clone(),
        };
        for item in items {
            printed.items.push(match item {
                PrintItem::Text(value) => PrintedItem::Text(value.clone()),
                PrintItem::Tensor(_) | PrintItem::Summary { .. } => {
                    let value = shown(chunks, results, item)?;
                    held = held.max(value.nbytes() as u64);
                    if is_echo(index) {
                        PrintedItem::Echo(value)
                    } else {
                        PrintedItem::Tensor(value)
                    }
                }
            });
        }
        in_sink += sink.print(printed)?;
    }
    Ok(held + in_sink)
}

/// What printing a tensor item shows, from its result chunks.
pub fn shown(
    chunks: &ChunkGraph,
    results: &Results,
    item: &PrintItem,
) -> Result<Shown, InternalError> {
    let (Some(printed), Some(whole)) = (item.printed_step(), item.tensor_step()) else {
        return Err(InternalError::new("print", "a text item has no tensor"));
    };
    Ok(Shown {
        data: tensor(chunks, results, printed)?,
        shape: chunks.step(whole).layout.shape().to_vec(),
    })
}

/// A printed step's whole tensor, assembled from its result chunks.
pub fn tensor(
    chunks: &ChunkGraph,
    results: &Results,
    step: StepId,
) -> Result<ArrayData, InternalError> {
    let internal = |message: String| InternalError::new("print", message);
    let step = chunks.step(step);
    let values = step
        .chunk_ids()
        .map(|chunk| {
            results
                .get(&chunk)
                .ok_or_else(|| internal(format!("no result for {chunk}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if let [only] = values.as_slice() {
        return only.array().cloned().map_err(|e| internal(e.to_string()));
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
    match whole.compute(&args).map_err(|e| internal(e.to_string()))? {
        ChunkValue::Array(data) => Ok(data),
        _ => Err(internal("assembling a tensor gave no data".to_string())),
    }
}
