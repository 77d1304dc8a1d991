//! The sorting family: a sort (or argsort) of each chunk along an axis, and the
//! stages of a distributed sort by regular sampling that `lower/sort.rs` plans —
//! grouping each chunk by the pivots' parts (`bucket`), finding where values fall
//! in each sorted chunk (`search_blocks`, which is also `searchsorted`), and merging
//! the pieces of one part (`merge_sorted`). Declared once here: the TileableGraph
//! holds one as [`TileOp::Sort`](crate::tileable::TileOp::Sort) (a [`SortOp`]),
//! tiling makes one step of [`ChunkOp::Sort`](crate::chunk::ChunkOp::Sort) (a
//! [`SortStage`]: the same op without what only tiling reads), and everything a pass
//! asks of them is answered below:
//!
//! - names and dump parameters: [`SortOp::tile_name`], [`SortOp::tile_parameters`];
//!   [`SortStage::name`] (the chunk dump's and the key's),
//!   [`SortStage::chunk_parameters`];
//! - the tileable's rules: [`SortOp::arity`], [`SortOp::verify`] (shape, then
//!   dtype), [`SortOp::nsplits`], [`SortOp::graph_cost`], [`SortOp::fetched_whole`];
//! - a stage's content key: [`SortStage::write_key`];
//! - a stage's structure and verification: [`SortStage::arity`],
//!   [`SortStage::verify`] (through the chunk verifier's
//!   [`StageChunk`](super::reduction::StageChunk));
//! - run-time behaviour: [`SortStage::fusion_class`] (no sorting stage fails at
//!   run time);
//! - one chunk's runtime kernel: [`SortStage::chunk_kernel`], through the planner's
//!   [`SortSite`].

use super::geometry::{expect_node_shape, expect_shape};
use super::reduction::StageChunk;
use super::{expect_dtype, FusionClass, TensorView};
use crate::error::Violation;
use marsc_runtime::chunk_kernel::Kernel;
use marsc_runtime::storage::KeySink;
use marsc_runtime::DType;
use std::sync::Arc;

/// One sorting op of the TileableGraph.
#[derive(Clone, Debug, PartialEq)]
pub enum SortOp {
    /// Each chunk sorted along `axis` on its own (with `arg`, the int64 positions
    /// along the whole axis that sort it, stably): the whole sort when the axis is
    /// one chunk, PSRS's first step otherwise. Shape and chunks are the input's.
    Sort { axis: usize, arg: bool },
    /// Inputs `[x, pivots]`, both 1-D, `pivots` sorted and one chunk: each chunk of
    /// `x` grouped stably by the part each element falls in (above pivot `j - 1`, at
    /// most pivot `j`); with `arg`, the int64 positions of its elements in that order.
    /// Shape and chunks are x's (PSRS's first step).
    Bucket { arg: bool },
    /// Inputs `[a, v]`, `a` 1-D: per chunk `i` of `a`, NumPy's `searchsorted` of
    /// each element of `v` in that chunk alone; shape `[chunks of a, *v.shape]`,
    /// one row of chunks per chunk of `a`. A stage fetches it whole when it places
    /// a sort's pivots, so a print of it is never summarized.
    SearchBlocks { right: bool },
    /// Inputs `[pieces]` (values) or `[pieces, index pieces]` (`arg`), 1-D, chunked
    /// alike: output chunk `j` sorts, stably, the pieces `sources[j]` (chunk indices
    /// of the inputs, in order; one part of the sort) — its last step. 1-D, of the
    /// pieces' length.
    MergeSorted { arg: bool, sources: Arc<[Vec<u32>]> },
}

/// What one chunk of a sorting step computes from its input chunks.
#[derive(Clone, Debug, PartialEq)]
pub enum SortStage {
    /// The input chunk sorted along `axis`; with `arg`, the int64 positions along
    /// the whole axis that sort it (stably).
    Sort { axis: usize, arg: bool },
    /// Inputs `[x, pivots]`: the 1-D chunk grouped stably by the sort's part of each
    /// element (with `arg`, its positions along the whole axis in that order).
    Bucket { arg: bool },
    /// Inputs `[a, v]`: per element of `v`, NumPy's `searchsorted` in the sorted 1-D
    /// chunk `a` alone (`right`: side='right'); shape `[1, *v.shape]`.
    SearchBlocks { right: bool },
    /// Inputs: sorted 1-D pieces, then (with `arg`) their positions in the whole
    /// array: the pieces merged stably, or their positions in merged order.
    MergeSorted { arg: bool },
}

impl SortOp {
    /// The stage every chunk of its step runs.
    pub fn stage(&self) -> SortStage {
        match *self {
            SortOp::Sort { axis, arg } => SortStage::Sort { axis, arg },
            SortOp::Bucket { arg } => SortStage::Bucket { arg },
            SortOp::SearchBlocks { right } => SortStage::SearchBlocks { right },
            SortOp::MergeSorted { arg, .. } => SortStage::MergeSorted { arg },
        }
    }

    /// The name in the tileable dump (the chunk dump's).
    pub fn tile_name(&self) -> String {
        self.stage().name().into()
    }

    /// The parameters in the tileable dump, as `name=value` texts in a fixed order
    /// (a merge shows how many pieces it reads).
    pub fn tile_parameters(&self) -> Vec<String> {
        match self {
            SortOp::MergeSorted { sources, .. } => vec![format!(
                "pieces={}",
                sources.iter().map(Vec::len).sum::<usize>()
            )],
            _ => self.stage().chunk_parameters(),
        }
    }

    /// The number of inputs of a node of this op.
    pub fn arity(&self) -> usize {
        match self {
            SortOp::Sort { .. } => 1,
            SortOp::Bucket { .. } | SortOp::SearchBlocks { .. } => 2,
            SortOp::MergeSorted { arg, .. } => 1 + usize::from(*arg),
        }
    }

    /// Checks a node of this op against its inputs (the TileableGraph verifier's
    /// rules, which has checked the number of inputs: shape and chunks first, then
    /// dtypes).
    pub fn verify(&self, node: TensorView, inputs: &[TensorView]) -> Result<(), Violation> {
        self.verify_shape(node, inputs)?;
        self.verify_dtype(node, inputs)
    }

    fn verify_shape(&self, node: TensorView, inputs: &[TensorView]) -> Result<(), Violation> {
        let (shape, first) = (node.shape, inputs[0].shape);
        match self {
            SortOp::Sort { axis, .. } => {
                if *axis >= first.len() {
                    return Err(format!("sorts axis {axis} of a {}-d tensor", first.len()).into());
                }
                expect_node_shape(shape, first)
            }
            SortOp::Bucket { .. } => match (first.len(), inputs[1].nsplits) {
                (1, [pivots]) if pivots.len() <= 1 => expect_node_shape(shape, first),
                _ => Err("groups a tensor that is not 1-D, or by pivots not in one chunk".into()),
            },
            SortOp::SearchBlocks { .. } => match inputs[0].nsplits {
                [chunks] => {
                    let mut expected = vec![chunks.len()];
                    expected.extend_from_slice(inputs[1].shape);
                    expect_node_shape(shape, &expected)
                }
                _ => Err("searches in a tensor that is not 1-D".into()),
            },
            SortOp::MergeSorted { sources, .. } => {
                let [pieces] = inputs[0].nsplits else {
                    return Err("merges pieces that are not 1-D".into());
                };
                if inputs
                    .iter()
                    .any(|input| input.nsplits != inputs[0].nsplits)
                {
                    return Err("merges values and indices chunked differently".into());
                }
                let lengths: Option<Vec<usize>> = sources
                    .iter()
                    .map(|s| s.iter().map(|&p| pieces.get(p as usize).copied()).sum())
                    .collect();
                match (lengths, node.nsplits) {
                    (Some(lengths), [splits]) if &lengths == splits => {
                        expect_node_shape(shape, &[pieces.iter().sum::<usize>()])
                    }
                    _ => Err("a merge's sources do not give its chunks".into()),
                }
            }
        }
    }

    fn verify_dtype(&self, node: TensorView, inputs: &[TensorView]) -> Result<(), Violation> {
        let dtype = node.dtype;
        match self {
            SortOp::Sort { arg: true, .. } | SortOp::MergeSorted { arg: true, .. } => {
                if let Some(idx) = inputs.get(1) {
                    expect_dtype("the indices", idx.dtype, DType::Int64)?;
                }
                expect_dtype("the positions", dtype, DType::Int64)
            }
            SortOp::Sort { arg: false, .. } | SortOp::MergeSorted { arg: false, .. } => {
                expect_dtype("the input", inputs[0].dtype, dtype)
            }
            SortOp::Bucket { arg } => {
                expect_dtype("the pivots", inputs[1].dtype, inputs[0].dtype)?;
                let expected = if *arg { DType::Int64 } else { inputs[0].dtype };
                expect_dtype("the result", dtype, expected)
            }
            SortOp::SearchBlocks { .. } => {
                expect_dtype("v", inputs[1].dtype, inputs[0].dtype)?;
                expect_dtype("the counts", dtype, DType::Int64)
            }
        }
    }

    /// The output's chunks given the inputs' (`inputs[i]` is input `i`'s nsplits)
    /// and the output's shape: a sort and a grouping keep their input's chunks, a
    /// search has one row of chunks per chunk of `a` (then `v`'s chunks), and a
    /// merge is made with the merged pieces' lengths (`lower/sort.rs`), so none is
    /// inferred for it.
    pub fn nsplits(&self, inputs: &[&[Vec<usize>]], out_shape: &[usize]) -> Vec<Vec<usize>> {
        match self {
            SortOp::Sort { .. } | SortOp::Bucket { .. } => inputs[0].to_vec(),
            SortOp::SearchBlocks { .. } => {
                let mut nsplits = vec![vec![1; inputs[0].first().map_or(1, Vec::len)]];
                if let Some(v) = inputs.get(1) {
                    nsplits.extend(v.iter().cloned());
                }
                nsplits
            }
            SortOp::MergeSorted { .. } => out_shape.iter().map(|&len| vec![len]).collect(),
        }
    }

    /// The chunk operations and edges tiling will make, as `(operations, edges)`,
    /// from the output's chunk count: one chunk per output chunk, reading its input
    /// chunk (a sort), with the pivots (a grouping), a chunk of `a` and one of `v`
    /// (a search), or its pieces and their indices (a merge).
    pub fn graph_cost(&self, out_chunks: u128) -> (u128, u128) {
        match self {
            SortOp::Sort { .. } => (out_chunks, out_chunks),
            SortOp::Bucket { .. } | SortOp::SearchBlocks { .. } => {
                (out_chunks, out_chunks.saturating_mul(2))
            }
            SortOp::MergeSorted { sources, arg } => {
                let pieces: u128 = sources.iter().map(|s| s.len() as u128).sum();
                (out_chunks, pieces.saturating_mul(1 + u128::from(*arg)))
            }
        }
    }

    /// Whether only a stage reads it, whole, so that a print of it is never
    /// summarized (a search's counts place a sort's pivots).
    pub fn fetched_whole(&self) -> bool {
        matches!(self, SortOp::SearchBlocks { .. })
    }
}

impl SortStage {
    /// The short name in the chunk dump and the tileable dump, and the name its step
    /// key starts with.
    pub fn name(&self) -> &'static str {
        match self {
            SortStage::Sort { arg: false, .. } => "sort",
            SortStage::Sort { arg: true, .. } => "argsort",
            SortStage::SearchBlocks { .. } => "search_blocks",
            SortStage::Bucket { arg: false } => "bucket",
            SortStage::Bucket { arg: true } => "bucket_positions",
            SortStage::MergeSorted { arg: false } => "merge_sorted",
            SortStage::MergeSorted { arg: true } => "merge_argsorted",
        }
    }

    /// The number of inputs each chunk takes, as an inclusive range.
    pub fn arity(&self) -> (usize, usize) {
        match self {
            SortStage::Sort { .. } => (1, 1),
            SortStage::SearchBlocks { .. } | SortStage::Bucket { .. } => (2, 2),
            SortStage::MergeSorted { .. } => (1, usize::MAX),
        }
    }

    /// The parameters in the chunk dump, as `name=value` texts in a fixed order.
    pub fn chunk_parameters(&self) -> Vec<String> {
        match self {
            SortStage::Sort { axis, .. } => vec![format!("axis={axis}")],
            SortStage::SearchBlocks { right } => {
                vec![format!("side={}", if *right { "right" } else { "left" })]
            }
            SortStage::MergeSorted { .. } | SortStage::Bucket { .. } => vec![],
        }
    }

    /// Writes the stage's parameters into its step's content key (`chunk/key.rs`
    /// writes the name before them, then the dtype, layout and inputs' keys).
    pub fn write_key(&self, key: &mut dyn KeySink) {
        match self {
            SortStage::Sort { axis, arg } => {
                key.u64(*axis as u64);
                key.u64(u64::from(*arg));
            }
            SortStage::SearchBlocks { right } => key.u64(u64::from(*right)),
            SortStage::Bucket { arg } | SortStage::MergeSorted { arg } => key.u64(u64::from(*arg)),
        }
    }

    /// Checks one chunk of the stage against its inputs (the chunk verifier's
    /// shape rules): a sorted or grouped chunk has its input's shape, a search's
    /// counts are one row for `v`'s chunk, a merge is as long as its value pieces.
    pub fn verify(&self, chunk: &dyn StageChunk) -> Result<(), Violation> {
        let inputs = chunk.inputs();
        let out = chunk.shape(chunk.id());
        let shape = |i: usize| chunk.shape(inputs[i]);
        match self {
            SortStage::Sort { .. } | SortStage::Bucket { .. } => {
                expect_shape(&shape(0), &out, "sorted")
            }
            SortStage::SearchBlocks { .. } => {
                let mut expected = vec![1];
                expected.extend(shape(1));
                expect_shape(&expected, &out, "search counts")
            }
            SortStage::MergeSorted { arg } => {
                let values = if *arg { inputs.len() / 2 } else { inputs.len() };
                let total: usize = (0..values)
                    .map(|i| shape(i).iter().product::<usize>())
                    .sum();
                expect_shape(&[total], &out, "merged")
            }
        }
    }

    /// How it takes part in fusion: a search's counts contract (a stage sums them),
    /// a merge gathers its pieces, a sort and a grouping are plain. No sorting stage
    /// fails at run time.
    pub fn fusion_class(&self) -> FusionClass {
        match self {
            SortStage::SearchBlocks { .. } => FusionClass::Contracts,
            SortStage::MergeSorted { .. } => FusionClass::Gathers,
            SortStage::Sort { .. } | SortStage::Bucket { .. } => FusionClass::Plain,
        }
    }

    /// The runtime kernel computing one chunk (the planner's `plan/kernel.rs` asks
    /// once per chunk): a sort's and a grouping's positions count from the chunk's
    /// offset along the sorted axis.
    pub fn chunk_kernel(&self, site: &mut dyn SortSite) -> Kernel {
        match *self {
            SortStage::Sort { axis, arg } => Kernel::Sort {
                axis,
                arg,
                offset: site.offset()[axis] as i64,
            },
            SortStage::SearchBlocks { right } => Kernel::SearchSorted { right },
            SortStage::Bucket { arg } => Kernel::Bucket {
                arg,
                offset: site.offset()[0] as i64,
            },
            SortStage::MergeSorted { arg } => Kernel::MergeSorted { arg },
        }
    }
}

/// One chunk of a sorting step as the planner sees it (`plan/kernel.rs`
/// implements it).
pub trait SortSite {
    /// The chunk's offset in its step's tensor.
    fn offset(&mut self) -> Vec<usize>;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::tensor;

    #[test]
    fn names_and_parameters_in_both_dumps() {
        let merge = SortOp::MergeSorted {
            arg: true,
            sources: Arc::from([vec![0, 1], vec![2]]),
        };
        assert_eq!(merge.tile_name(), "merge_argsorted");
        assert_eq!(merge.tile_parameters(), ["pieces=3"]);
        assert_eq!(merge.stage(), SortStage::MergeSorted { arg: true });
        assert!(merge.stage().chunk_parameters().is_empty());
        let search = SortOp::SearchBlocks { right: true };
        assert_eq!(search.tile_name(), "search_blocks");
        assert_eq!(search.tile_parameters(), ["side=right"]);
        let sort = SortOp::Sort { axis: 1, arg: true };
        assert_eq!(
            (sort.tile_name(), sort.tile_parameters()),
            ("argsort".into(), vec!["axis=1".into()])
        );
        assert_eq!(SortStage::Bucket { arg: true }.name(), "bucket_positions");
    }

    #[test]
    fn verify_checks_shape_then_dtype() {
        let splits = [vec![2, 2]];
        let x = tensor(&[4], &splits, DType::Float64);
        let sort = SortOp::Sort {
            axis: 1,
            arg: false,
        };
        assert_eq!(
            sort.verify(x, &[x]),
            Err("sorts axis 1 of a 1-d tensor".into())
        );
        let argsort = SortOp::Sort { axis: 0, arg: true };
        assert_eq!(
            argsort.verify(x, &[x]),
            Err("the positions is float64, expected int64".into())
        );
        let one = [vec![3]];
        let pivots = tensor(&[3], &one, DType::Float32);
        let bucket = SortOp::Bucket { arg: false };
        assert_eq!(
            bucket.verify(x, &[x, pivots]),
            Err("the pivots is float32, expected float64".into())
        );
        let counts_splits = [vec![1, 1], vec![3]];
        let counts = tensor(&[2, 3], &counts_splits, DType::Int64);
        let search = SortOp::SearchBlocks { right: false };
        let v = tensor(&[3], &one, DType::Float64);
        assert_eq!(search.verify(counts, &[x, v]), Ok(()));
        let merge = SortOp::MergeSorted {
            arg: false,
            sources: Arc::from([vec![0], vec![1]]),
        };
        assert_eq!(merge.verify(x, &[x]), Ok(()));
        // Both pieces in one chunk: 4 elements, where the node has chunks of 2.
        let merge = SortOp::MergeSorted {
            arg: false,
            sources: Arc::from([vec![0, 1]]),
        };
        assert_eq!(
            merge.verify(x, &[x]),
            Err("a merge's sources do not give its chunks".into())
        );
    }

    #[test]
    fn chunks_and_costs() {
        let x = [vec![2, 2]];
        let v = [vec![3], vec![1, 1]];
        let search = SortOp::SearchBlocks { right: false };
        assert_eq!(
            search.nsplits(&[&x, &v], &[2, 3, 2]),
            [vec![1, 1], vec![3], vec![1, 1]]
        );
        assert_eq!(SortOp::Bucket { arg: false }.nsplits(&[&x, &v], &[4]), x);
        let merge = SortOp::MergeSorted {
            arg: true,
            sources: Arc::from([vec![0, 1], vec![1]]),
        };
        assert_eq!(merge.nsplits(&[&x, &x], &[4]), [vec![4]]);
        assert_eq!(merge.graph_cost(2), (2, 6));
        assert_eq!(search.graph_cost(4), (4, 8));
        assert!(search.fetched_whole() && !merge.fetched_whole());
    }

    #[test]
    fn fusion_classes() {
        assert_eq!(
            SortStage::SearchBlocks { right: false }.fusion_class(),
            FusionClass::Contracts
        );
        assert_eq!(
            SortStage::MergeSorted { arg: false }.fusion_class(),
            FusionClass::Gathers
        );
        assert_eq!(
            SortStage::Sort { axis: 0, arg: true }.fusion_class(),
            FusionClass::Plain
        );
    }

    /// The bytes are the encoding `chunk/key.rs` always wrote, so keys stay the same.
    #[test]
    fn key_bytes_are_pinned() {
        let mut bytes = super::super::KeyBytes::default();
        SortStage::Sort { axis: 2, arg: true }.write_key(&mut bytes);
        let expected: Vec<u8> = [2u64, 1].iter().flat_map(|v| v.to_le_bytes()).collect();
        assert_eq!(bytes.0, expected);
    }

    #[test]
    fn positions_count_from_the_chunk_offset() {
        struct Site(Vec<usize>);
        impl SortSite for Site {
            fn offset(&mut self) -> Vec<usize> {
                self.0.clone()
            }
        }
        let mut site = Site(vec![4, 6]);
        assert_eq!(
            SortStage::Sort { axis: 1, arg: true }.chunk_kernel(&mut site),
            Kernel::Sort {
                axis: 1,
                arg: true,
                offset: 6,
            }
        );
        assert_eq!(
            SortStage::Bucket { arg: false }.chunk_kernel(&mut site),
            Kernel::Bucket {
                arg: false,
                offset: 4,
            }
        );
    }
}
