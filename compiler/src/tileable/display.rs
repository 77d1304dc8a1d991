//! The `--emit tileable` text dump: `Display` for [`TileableGraph`] *is* the format.
//!
//! One line per node, then one line per output, in program order:
//!
//! ```text
//! %3 = add(%1, %2, common=float64) : float64 (1000, 1000) chunks (500x2, 500x2)   @4:5
//! print(%3, "done", sep=" ", end="\n")   @5:1
//! ```
//!
//! Chunk splits are run-length compressed per axis (`500x2+3` is 500, 500, 3).
//! `Display` for the bare graph shows spans as byte ranges; [`WithSource`] resolves
//! them to `line:col` against the script text.

use super::{IndexItem, Output, PrintItem, TileOp, TileableGraph, TileableId, TileableNode};
use marsc_grammar::{LineIndex, Span};
use marsc_runtime::kernels::histogram::Binning;
use std::fmt::{self, Write};

pub use crate::ops::text::shape_text;
use crate::ops::text::tuple_text;

/// A graph paired with its source text, so the dump can show `line:col`.
pub struct WithSource<'a> {
    pub graph: &'a TileableGraph,
    pub source: &'a str,
}

impl TileableGraph {
    /// The dump with source positions as `line:col` (1-based).
    pub fn with_source<'a>(&'a self, source: &'a str) -> WithSource<'a> {
        WithSource {
            graph: self,
            source,
        }
    }
}

impl fmt::Display for TileableGraph {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_dump(f, self, &|span: Span| {
            format!("{}..{}", span.start, span.end)
        })
    }
}

impl fmt::Display for WithSource<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let lines = LineIndex::new(self.source);
        write_dump(f, self.graph, &|span: Span| {
            let (line, col) = lines.line_col(span.start as usize);
            format!("{line}:{col}")
        })
    }
}

fn write_dump(
    f: &mut fmt::Formatter<'_>,
    graph: &TileableGraph,
    location: &dyn Fn(Span) -> String,
) -> fmt::Result {
    for id in graph.ids() {
        let node = graph.node(id);
        let line = format!("{id} = {}", node_text(node));
        writeln!(f, "{line}   @{}", location(node.span))?;
    }
    for output in &graph.outputs {
        let (text, span) = output_text(output);
        writeln!(f, "{text}   @{}", location(span))?;
    }
    Ok(())
}

impl fmt::Display for TileableId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "%{}", self.0)
    }
}

/// Everything after `%N = ` for one node, without its location.
pub fn node_text(node: &TileableNode) -> String {
    let mut arguments: Vec<String> = node.inputs.iter().map(|i| i.to_string()).collect();
    arguments.extend(op_parameters(&node.op));
    format!(
        "{}({}) : {} {} chunks {}",
        op_name(&node.op),
        arguments.join(", "),
        node.dtype,
        shape_text(&node.shape),
        nsplits_text(&node.nsplits)
    )
}

/// The short name of an op (`add`, `sum`, `transpose`, `random.normal`).
pub fn op_name(op: &TileOp) -> String {
    match op {
        TileOp::Create(op) => op.tile_name(),
        TileOp::Elementwise(op) => op.name().into(),
        TileOp::Reduce(op) => op.tile_name(),
        TileOp::MatMul => "matmul".into(),
        TileOp::Shape(op) => op.name().into(),
        TileOp::Index { .. } => "index".into(),
        TileOp::Concatenate { .. } => "concatenate".into(),
        TileOp::Rechunk => "rechunk".into(),
        TileOp::BlockCounts => "block_counts".into(),
        TileOp::Compress { .. } => "compress".into(),
        TileOp::IndexBlocks { .. } => "index_blocks".into(),
        TileOp::Gather { .. } => "gather".into(),
        TileOp::BinCounts(_) => "bin_counts".into(),
        TileOp::Scatter { .. } => "scatter".into(),
        TileOp::Linalg(op) => format!("linalg.{}", op.name()),
        TileOp::Sort(op) => op.tile_name(),
    }
}

/// Long lists (a compress's block counts) show their first values, as a literal's
/// do (`ops::creation`), so dumps stay one line per node.
const LITERAL_SHOWN: usize = 8;

/// The op's parameters as `name=value` texts, in a fixed order.
fn op_parameters(op: &TileOp) -> Vec<String> {
    match op {
        TileOp::Create(op) => op.tile_parameters(),
        TileOp::IndexBlocks { splits } => vec![format!("blocks={}", splits.len())],
        TileOp::BinCounts(binning) => binning_parameters(binning),
        TileOp::Scatter { axis, touched } => vec![
            format!("axis={axis}"),
            format!("reads={}", touched.iter().map(Vec::len).sum::<usize>()),
        ],
        TileOp::Gather { axis, touched } => vec![
            format!("axis={axis}"),
            format!("reads={}", touched.iter().map(Vec::len).sum::<usize>()),
        ],
        TileOp::Compress { axis, counts } => {
            let mut shown: Vec<String> = counts
                .iter()
                .take(LITERAL_SHOWN)
                .map(|c| c.to_string())
                .collect();
            if counts.len() > LITERAL_SHOWN {
                shown.push(format!("... {} blocks", counts.len()));
            }
            vec![
                format!("axis={axis}"),
                format!("counts=[{}]", shown.join(", ")),
            ]
        }
        TileOp::Elementwise(op) => op.parameters(),
        TileOp::Reduce(op) => op.tile_parameters(),
        TileOp::Shape(op) => op.parameters(),
        TileOp::Index { items } => {
            let items: Vec<String> = items.iter().map(index_item_text).collect();
            vec![format!("[{}]", items.join(", "))]
        }
        TileOp::Concatenate { axis } => vec![format!("axis={axis}")],
        TileOp::MatMul | TileOp::Rechunk | TileOp::BlockCounts => vec![],
        TileOp::Linalg(_) => vec![],
        TileOp::Sort(op) => op.tile_parameters(),
    }
}

pub(crate) fn index_item_text(item: &IndexItem) -> String {
    match item {
        IndexItem::Int(i) => i.to_string(),
        IndexItem::Slice { start, step, len } => slice_text(*start, *step, *len),
        IndexItem::NewAxis => "newaxis".into(),
    }
}

/// A resolved slice as Python would write it; the stop is left empty when the slice
/// runs past the front of the axis (a negative step to index 0), where Python's `-1`
/// would mean something else.
fn slice_text(start: i64, step: i64, len: usize) -> String {
    let stop = start + step * len as i64;
    if stop < 0 {
        format!("{start}::{step}")
    } else {
        format!("{start}:{stop}:{step}")
    }
}

/// Chunk splits with each axis run-length compressed: `((500, 500), (3,))` is
/// written `(500x2, 3)`, and `[3, 3, 1]` becomes `3x2+1`.
pub fn nsplits_text(nsplits: &[Vec<usize>]) -> String {
    tuple_text(nsplits.iter().map(|axis| run_length_text(axis)))
}

fn run_length_text(splits: &[usize]) -> String {
    let mut text = String::new();
    let mut i = 0;
    while i < splits.len() {
        let run = splits[i..].iter().take_while(|&&s| s == splits[i]).count();
        if !text.is_empty() {
            text.push('+');
        }
        let _ = write!(text, "{}", splits[i]);
        if run > 1 {
            let _ = write!(text, "x{run}");
        }
        i += run;
    }
    text
}

fn output_text(output: &Output) -> (String, Span) {
    match output {
        Output::Print {
            items,
            sep,
            end,
            span,
        } => {
            let mut parts: Vec<String> = items
                .iter()
                .map(|item| match item {
                    PrintItem::Text(text) => format!("{text:?}"),
                    PrintItem::Tensor(id) => id.to_string(),
                })
                .collect();
            parts.push(format!("sep={sep:?}"));
            parts.push(format!("end={end:?}"));
            (format!("print({})", parts.join(", ")), *span)
        }
        Output::Save {
            path,
            tensor,
            span,
            format,
        } => {
            let options: String = format
                .dump_parameters()
                .iter()
                .map(|p| format!(", {p}"))
                .collect();
            (
                format!("save({:?}, {tensor}{options})", path.display().to_string()),
                *span,
            )
        }
    }
}

/// The dump's parameters of a `bin_counts` step (shared with the ChunkGraph's).
pub(crate) fn binning_parameters(binning: &Binning) -> Vec<String> {
    let bins = format!("bins={}", binning.bins());
    match binning {
        Binning::Integers { .. } => vec![bins, "by=value".into()],
        Binning::Uniform { first, last, .. } => {
            vec![bins, format!("range=({first:?}, {last:?})")]
        }
        Binning::UniformSingle { first, last, .. } => {
            vec![
                bins,
                format!("range=({first:?}, {last:?})"),
                "float32".into(),
            ]
        }
        Binning::Edges(_) => vec![bins, "by=edges".into()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::{Creation, ElementwiseOp};
    use marsc_runtime::ops::BinaryOp;
    use marsc_runtime::{DType, Scalar};

    fn node(op: TileOp, inputs: Vec<TileableId>, shape: Vec<usize>, span: Span) -> TileableNode {
        let nsplits = shape.iter().map(|&d| vec![d]).collect();
        TileableNode {
            op,
            inputs,
            shape,
            dtype: DType::Float64,
            nsplits,
            span,
        }
    }

    #[test]
    fn run_lengths() {
        assert_eq!(run_length_text(&[500, 500]), "500x2");
        assert_eq!(run_length_text(&[3, 3, 1]), "3x2+1");
        assert_eq!(run_length_text(&[7]), "7");
        assert_eq!(nsplits_text(&[vec![2, 2], vec![3]]), "(2x2, 3)");
        assert_eq!(nsplits_text(&[vec![4]]), "(4,)");
        assert_eq!(nsplits_text(&[]), "()");
    }

    #[test]
    fn dump_with_line_and_column() {
        let source = "a = 1\nb = a + 2\n";
        let mut graph = TileableGraph::new();
        let a = graph.add(node(
            TileOp::Create(Creation::Full(Scalar::Float64(1.0))),
            vec![],
            vec![1000, 1000],
            Span::new(4, 5),
        ));
        let mut sum = node(
            TileOp::Elementwise(ElementwiseOp::Binary {
                op: BinaryOp::Add,
                common: DType::Float64,
            }),
            vec![a, a],
            vec![1000, 1000],
            Span::new(10, 15),
        );
        sum.nsplits = vec![vec![500, 500], vec![500, 500]];
        let b = graph.add(sum);
        graph.outputs.push(Output::Print {
            items: vec![PrintItem::Tensor(b), PrintItem::Text("x".into())],
            sep: " ".into(),
            end: "\n".into(),
            span: Span::new(6, 15),
        });
        let dump = graph.with_source(source).to_string();
        assert_eq!(
            dump,
            "%0 = full(value=1.0f64) : float64 (1000, 1000) chunks (1000, 1000)   @1:5\n\
             %1 = add(%0, %0, common=float64) : float64 (1000, 1000) chunks (500x2, 500x2)   @2:5\n\
             print(%1, \"x\", sep=\" \", end=\"\\n\")   @2:1\n"
        );
    }
}
