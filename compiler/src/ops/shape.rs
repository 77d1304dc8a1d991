//! The shape family: the relabels that move no element between positions of the
//! flat C-order sequence or only repeat them — `transpose`, `reshape` (also
//! `ravel`), `expand_dims`, `squeeze` and `broadcast_to`. Declared once here: the
//! TileableGraph holds one as [`TileOp::Shape`](crate::tileable::TileOp::Shape) (a
//! [`ShapeOp`]), tiling makes one step of
//! [`ChunkOp::Shape`](crate::chunk::ChunkOp::Shape) holding the same value (a chunk
//! applies the op to its one input chunk: its parameters are the tensor's), and
//! everything a pass asks of them is answered below:
//!
//! - names and dump parameters (the same in both dumps): [`ShapeOp::name`] (also
//!   the name its step key starts with), [`ShapeOp::parameters`];
//! - the tileable's rules: [`ShapeOp::arity`], [`ShapeOp::verify`] (shape, then
//!   dtype), [`ShapeOp::nsplits`] (with [`reshape_plan`], Dask's
//!   `reshape_rechunk`), [`ShapeOp::graph_cost`] and [`ShapeOp::aligns_input`] (the
//!   size estimate before tiling);
//! - a step's content key: [`ShapeOp::write_key`];
//! - a chunk's verification: [`ShapeOp::verify_chunk`] (through the chunk
//!   verifier's [`StageChunk`]);
//! - run-time behaviour: [`ShapeOp::fusion_class`], [`ShapeOp::may_fail`];
//! - one chunk's runtime kernel: [`ShapeOp::chunk_kernel`], through the planner's
//!   [`ShapeSite`].
//!
//! The tiling rules (`tile/relabel.rs`, `tile/reshape.rs`) and the lowering
//! (`lower/shape_ops.rs`, and the views that walk these ops back in
//! `lower/views.rs` and `lower/inplace.rs`) name particular ops.

mod reshape;

pub use reshape::reshape_plan;

use super::geometry::{
    axis_splits, broadcast_to_error, broadcastable, expect_node_shape, expect_ones, expect_shape,
    without,
};
use super::reduction::StageChunk;
use super::text::list_text;
use super::{expect_dtype, write_usizes, FusionClass, TensorView};
use crate::error::Violation;
use marsc_runtime::chunk_kernel::Kernel;
use marsc_runtime::storage::KeySink;
use std::sync::Arc;

/// One shape op, the same value in the TileableGraph and in the ChunkGraph; one
/// input. In a chunk graph "the node's shape" is the chunk's.
#[derive(Clone, Debug, PartialEq)]
pub enum ShapeOp {
    /// Permute axes: output axis i is input axis `axes[i]`.
    Transpose { axes: Vec<usize> },
    /// C-order reshape to the node's shape (also `ravel`).
    Reshape,
    /// Insert length-1 axes at these output positions (sorted).
    ExpandDims { axes: Vec<usize> },
    /// Remove these length-1 input axes (sorted).
    Squeeze { axes: Vec<usize> },
    /// Broadcast the input to the node's shape.
    BroadcastTo,
}

impl ShapeOp {
    /// The short name in both dumps, and the name its step key starts with.
    pub fn name(&self) -> &'static str {
        match self {
            ShapeOp::Transpose { .. } => "transpose",
            ShapeOp::Reshape => "reshape",
            ShapeOp::ExpandDims { .. } => "expand_dims",
            ShapeOp::Squeeze { .. } => "squeeze",
            ShapeOp::BroadcastTo => "broadcast_to",
        }
    }

    /// The parameters in both dumps, as `name=value` texts in a fixed order.
    pub fn parameters(&self) -> Vec<String> {
        match self.axes() {
            Some(axes) => vec![format!("axes={}", list_text(axes))],
            None => vec![],
        }
    }

    /// The axes a transpose, an expansion or a squeeze names.
    fn axes(&self) -> Option<&[usize]> {
        match self {
            ShapeOp::Transpose { axes }
            | ShapeOp::ExpandDims { axes }
            | ShapeOp::Squeeze { axes } => Some(axes),
            ShapeOp::Reshape | ShapeOp::BroadcastTo => None,
        }
    }

    /// The number of inputs of a node, and of each chunk, of this op.
    pub fn arity(&self) -> usize {
        1
    }

    /// Writes the op's parameters into its step's content key (`chunk/key.rs`
    /// writes the name before them, then the dtype, layout and inputs' keys): the
    /// axes as a list (its length, then each), nothing for the others.
    pub fn write_key(&self, key: &mut dyn KeySink) {
        if let Some(axes) = self.axes() {
            write_usizes(key, axes);
        }
    }

    /// Checks a node of this op against its input (the TileableGraph verifier's
    /// rules, which has checked the number of inputs): the shape first, then the
    /// dtype, which is the input's.
    pub fn verify(&self, node: TensorView, inputs: &[TensorView]) -> Result<(), Violation> {
        self.verify_shape(node.shape, inputs[0].shape)?;
        expect_dtype("the input", inputs[0].dtype, node.dtype)
    }

    fn verify_shape(&self, shape: &[usize], first: &[usize]) -> Result<(), Violation> {
        match self {
            ShapeOp::Transpose { axes } => {
                let mut sorted = axes.clone();
                sorted.sort_unstable();
                if sorted != (0..first.len()).collect::<Vec<_>>() {
                    return Err(format!("{axes:?} is not a permutation of the input axes").into());
                }
                let expected: Vec<usize> = axes.iter().map(|&a| first[a]).collect();
                expect_node_shape(shape, &expected)
            }
            ShapeOp::Reshape => {
                let input_size: usize = first.iter().product();
                let size: usize = shape.iter().product();
                if input_size == size {
                    Ok(())
                } else {
                    Err(format!("reshape from {input_size} to {size} elements").into())
                }
            }
            ShapeOp::ExpandDims { axes } => {
                if axes.iter().any(|&a| a >= shape.len() || shape[a] != 1) {
                    return Err(format!("expanded axes {axes:?} are not new length-1 axes").into());
                }
                expect_node_shape(&without(shape, axes), first)
            }
            ShapeOp::Squeeze { axes } => {
                if axes.iter().any(|&a| a >= first.len() || first[a] != 1) {
                    return Err(
                        format!("squeezed axes {axes:?} are not length-1 input axes").into(),
                    );
                }
                expect_node_shape(shape, &without(first, axes))
            }
            ShapeOp::BroadcastTo => match broadcast_to_error(first, shape) {
                Some((message, _help)) => Err(message.into()),
                None => Ok(()),
            },
        }
    }

    /// The output's chunks given the input's shape and chunks and the output's
    /// shape: a relabel keeps the chunks of the axes it keeps (a new or broadcast
    /// axis is one chunk), a reshape takes [`reshape_plan`]'s.
    pub fn nsplits(
        &self,
        in_shape: &[usize],
        in_nsplits: &[Vec<usize>],
        out_shape: &[usize],
    ) -> Vec<Vec<usize>> {
        let splits = |axis: usize| axis_splits(in_shape, in_nsplits, axis);
        match self {
            ShapeOp::Transpose { axes } => axes.iter().map(|&a| splits(a)).collect(),
            ShapeOp::ExpandDims { axes } => {
                let mut input_axis = 0;
                (0..out_shape.len())
                    .map(|position| {
                        if axes.contains(&position) {
                            vec![1]
                        } else {
                            input_axis += 1;
                            splits(input_axis - 1)
                        }
                    })
                    .collect()
            }
            ShapeOp::Squeeze { axes } => (0..in_shape.len())
                .filter(|axis| !axes.contains(axis))
                .map(splits)
                .collect(),
            ShapeOp::BroadcastTo => {
                let offset = out_shape.len().saturating_sub(in_shape.len());
                (0..out_shape.len())
                    .map(|axis| {
                        let kept =
                            axis >= offset && in_shape.get(axis - offset) == Some(&out_shape[axis]);
                        if kept {
                            splits(axis - offset)
                        } else {
                            vec![out_shape[axis]]
                        }
                    })
                    .collect()
            }
            ShapeOp::Reshape => reshape_plan(in_shape, in_nsplits, out_shape).1,
        }
    }

    /// The chunk operations and edges tiling will make, as `(operations, edges)`,
    /// from the output's and the input's chunk counts: one chunk per output chunk
    /// reading one input chunk, and for a reshape as many again for the rechunk of
    /// its input (the rechunk [`ShapeOp::aligns_input`] brings is counted apart).
    pub fn graph_cost(&self, out_chunks: u128, in_chunks: u128) -> (u128, u128) {
        match self {
            ShapeOp::Reshape => (
                out_chunks.saturating_mul(2),
                out_chunks.saturating_add(in_chunks).saturating_mul(2),
            ),
            ShapeOp::BroadcastTo => (out_chunks, out_chunks),
            ShapeOp::Transpose { .. } | ShapeOp::ExpandDims { .. } | ShapeOp::Squeeze { .. } => {
                (out_chunks, out_chunks.saturating_add(in_chunks))
            }
        }
    }

    /// Whether tiling rechunks the input to the node's chunks first (aligned at the
    /// last axis, as an element-wise operand): a broadcast's.
    pub fn aligns_input(&self) -> bool {
        matches!(self, ShapeOp::BroadcastTo)
    }

    /// Checks one chunk of the op against its input chunk (the chunk verifier's
    /// shape rules): a transposed chunk permutes its input's shape, an expanded one
    /// is its input's with length-1 axes added, a squeezed one without them, a
    /// broadcast input broadcasts to the chunk, a reshape keeps the element count.
    pub fn verify_chunk(&self, chunk: &dyn StageChunk) -> Result<(), Violation> {
        let input = chunk.shape(chunk.inputs()[0]);
        let out = chunk.shape(chunk.id());
        match self {
            ShapeOp::Transpose { axes } => {
                let permuted: Option<Vec<usize>> =
                    axes.iter().map(|&a| input.get(a).copied()).collect();
                expect_shape(&permuted.unwrap_or_default(), &out, "transposed")
            }
            ShapeOp::ExpandDims { axes } => {
                expect_ones(&out, axes)?;
                expect_shape(&input, &without(&out, axes), "expanded")
            }
            ShapeOp::Squeeze { axes } => {
                expect_ones(&input, axes)?;
                expect_shape(&without(&input, axes), &out, "squeezed")
            }
            ShapeOp::BroadcastTo => broadcastable(&input, &out),
            ShapeOp::Reshape => {
                let (from, to) = (
                    input.iter().product::<usize>(),
                    out.iter().product::<usize>(),
                );
                if from == to {
                    Ok(())
                } else {
                    Err(format!("reshape of {from} elements into {to}").into())
                }
            }
        }
    }

    /// How it takes part in fusion: a relabel is plain (each chunk reads one input
    /// chunk).
    pub fn fusion_class(&self) -> FusionClass {
        FusionClass::Plain
    }

    /// Whether a chunk can fail on valid input when it runs: no relabel can.
    pub fn may_fail(&self) -> bool {
        false
    }

    /// The runtime kernel computing one chunk (the planner's `plan/kernel.rs` asks
    /// once per chunk): the axes are the step's (one `Arc` for all its chunks), a
    /// broadcast's and a reshape's target is the chunk's shape.
    pub fn chunk_kernel(&self, site: &mut dyn ShapeSite) -> Kernel {
        match self {
            ShapeOp::Transpose { axes } => Kernel::Transpose(shared_axes(site, axes)),
            ShapeOp::ExpandDims { axes } => Kernel::ExpandDims(shared_axes(site, axes)),
            ShapeOp::Squeeze { axes } => Kernel::Squeeze(shared_axes(site, axes)),
            ShapeOp::BroadcastTo => Kernel::BroadcastTo(site.shape()),
            ShapeOp::Reshape => Kernel::Reshape(site.shape()),
        }
    }
}

/// The axes every chunk of the step shares, made by its first chunk.
fn shared_axes(site: &mut dyn ShapeSite, axes: &[usize]) -> Arc<[usize]> {
    site.shared()
        .axes
        .get_or_insert_with(|| Arc::from(axes))
        .clone()
}

/// One chunk of a shape step as the planner sees it (`plan/kernel.rs` implements
/// it).
pub trait ShapeSite {
    /// The chunk's shape.
    fn shape(&mut self) -> Vec<usize>;
    /// What the step's chunks share, built by its first chunk.
    fn shared(&mut self) -> &mut ShapeShared;
}

/// What every chunk of one shape step shares (its axes, handed to each chunk's
/// kernel through an `Arc`).
#[derive(Default)]
pub struct ShapeShared {
    axes: Option<Arc<[usize]>>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::tensor;
    use marsc_runtime::plan::ChunkId;
    use marsc_runtime::DType;

    #[test]
    fn names_and_parameters() {
        let transpose = ShapeOp::Transpose { axes: vec![1, 0] };
        assert_eq!(
            (transpose.name(), transpose.parameters()),
            ("transpose", vec!["axes=[1, 0]".to_string()])
        );
        assert_eq!(ShapeOp::ExpandDims { axes: vec![0] }.name(), "expand_dims");
        assert_eq!(
            ShapeOp::Squeeze { axes: vec![2] }.parameters(),
            ["axes=[2]"]
        );
        assert!(ShapeOp::Reshape.parameters().is_empty());
        assert_eq!(ShapeOp::BroadcastTo.name(), "broadcast_to");
    }

    #[test]
    fn verify_checks_shape_then_dtype() {
        let splits = [vec![2], vec![3]];
        let x = tensor(&[2, 3], &splits, DType::Float64);
        let t_splits = [vec![3], vec![2]];
        let t = tensor(&[3, 2], &t_splits, DType::Float64);
        let transpose = ShapeOp::Transpose { axes: vec![1, 0] };
        assert_eq!(transpose.verify(t, &[x]), Ok(()));
        assert_eq!(
            ShapeOp::Transpose { axes: vec![0, 0] }.verify(t, &[x]),
            Err("[0, 0] is not a permutation of the input axes".into())
        );
        assert_eq!(
            transpose.verify(x, &[x]),
            Err("shape [2, 3], expected [3, 2]".into())
        );
        let t_int = tensor(&[3, 2], &t_splits, DType::Int64);
        assert_eq!(
            transpose.verify(t_int, &[x]),
            Err("the input is float64, expected int64".into())
        );
        let e_splits = [vec![2], vec![1], vec![3]];
        let expanded = tensor(&[2, 1, 3], &e_splits, DType::Float64);
        assert_eq!(
            ShapeOp::ExpandDims { axes: vec![1] }.verify(expanded, &[x]),
            Ok(())
        );
        assert_eq!(
            ShapeOp::ExpandDims { axes: vec![0] }.verify(expanded, &[x]),
            Err("expanded axes [0] are not new length-1 axes".into())
        );
        assert_eq!(
            ShapeOp::Squeeze { axes: vec![1] }.verify(x, &[expanded]),
            Ok(())
        );
        assert_eq!(
            ShapeOp::Squeeze { axes: vec![0] }.verify(x, &[expanded]),
            Err("squeezed axes [0] are not length-1 input axes".into())
        );
        let r_splits = [vec![6]];
        let flat = tensor(&[6], &r_splits, DType::Float64);
        assert_eq!(ShapeOp::Reshape.verify(flat, &[x]), Ok(()));
        let b_splits = [vec![4], vec![2], vec![3]];
        let broadcast = tensor(&[4, 2, 3], &b_splits, DType::Float64);
        assert_eq!(ShapeOp::BroadcastTo.verify(broadcast, &[x]), Ok(()));
        assert_eq!(
            ShapeOp::BroadcastTo.verify(flat, &[x]),
            Err("input operand has more dimensions than allowed by the axis remapping".into())
        );
    }

    #[test]
    fn chunks_follow_the_kept_axes() {
        let nsplits = [vec![2, 2], vec![3, 3]];
        let shape = [4, 6];
        assert_eq!(
            ShapeOp::Transpose { axes: vec![1, 0] }.nsplits(&shape, &nsplits, &[6, 4]),
            [vec![3, 3], vec![2, 2]]
        );
        assert_eq!(
            ShapeOp::ExpandDims { axes: vec![0, 2] }.nsplits(&shape, &nsplits, &[1, 4, 1, 6]),
            [vec![1], vec![2, 2], vec![1], vec![3, 3]]
        );
        assert_eq!(
            ShapeOp::BroadcastTo.nsplits(&[1, 6], &[vec![1], vec![3, 3]], &[5, 4, 6]),
            [vec![5], vec![4], vec![3, 3]]
        );
        assert_eq!(
            ShapeOp::Reshape.nsplits(&shape, &nsplits, &[24]),
            reshape_plan(&shape, &nsplits, &[24]).1
        );
        assert_eq!(ShapeOp::Reshape.graph_cost(4, 2), (8, 12));
        assert_eq!(ShapeOp::Squeeze { axes: vec![0] }.graph_cost(4, 4), (4, 8));
        assert!(ShapeOp::BroadcastTo.aligns_input() && !ShapeOp::Reshape.aligns_input());
    }

    /// The bytes are the encoding `chunk/key.rs` always wrote, so keys stay the same.
    #[test]
    fn key_bytes_are_pinned() {
        let mut bytes = super::super::KeyBytes::default();
        ShapeOp::Transpose {
            axes: vec![2, 0, 1],
        }
        .write_key(&mut bytes);
        let expected: Vec<u8> = [3u64, 2, 0, 1]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        assert_eq!(bytes.0, expected);
        let mut bytes = super::super::KeyBytes::default();
        ShapeOp::BroadcastTo.write_key(&mut bytes);
        assert!(bytes.0.is_empty());
    }

    struct Chunk {
        shapes: Vec<Vec<usize>>,
        inputs: Vec<ChunkId>,
    }

    impl StageChunk for Chunk {
        fn id(&self) -> ChunkId {
            ChunkId(1)
        }
        fn inputs(&self) -> &[ChunkId] {
            &self.inputs
        }
        fn shape(&self, chunk: ChunkId) -> Vec<usize> {
            self.shapes[chunk.index()].clone()
        }
        fn offset(&self, _: ChunkId) -> Vec<usize> {
            vec![]
        }
    }

    #[test]
    fn a_chunk_is_checked_against_its_input() {
        let chunk = |input: Vec<usize>, out: Vec<usize>| Chunk {
            shapes: vec![input, out],
            inputs: vec![ChunkId(0)],
        };
        let squeeze = ShapeOp::Squeeze { axes: vec![0] };
        assert_eq!(squeeze.verify_chunk(&chunk(vec![1, 3], vec![3])), Ok(()));
        assert_eq!(
            squeeze.verify_chunk(&chunk(vec![2, 3], vec![3])),
            Err("axes [0] of [2, 3] are not all length 1".into())
        );
        assert_eq!(
            ShapeOp::BroadcastTo.verify_chunk(&chunk(vec![2], vec![3])),
            Err("[2] does not broadcast to [3]".into())
        );
        assert_eq!(
            ShapeOp::Reshape.verify_chunk(&chunk(vec![2, 3], vec![5])),
            Err("reshape of 6 elements into 5".into())
        );
        assert_eq!(
            ShapeOp::Transpose { axes: vec![1, 0] }.verify_chunk(&chunk(vec![2, 3], vec![3, 2])),
            Ok(())
        );
    }

    #[test]
    fn the_steps_chunks_share_their_axes() {
        #[derive(Default)]
        struct Site(ShapeShared);
        impl ShapeSite for Site {
            fn shape(&mut self) -> Vec<usize> {
                vec![2, 5]
            }
            fn shared(&mut self) -> &mut ShapeShared {
                &mut self.0
            }
        }
        let mut site = Site::default();
        let op = ShapeOp::Transpose { axes: vec![1, 0] };
        let (Kernel::Transpose(first), Kernel::Transpose(second)) =
            (op.chunk_kernel(&mut site), op.chunk_kernel(&mut site))
        else {
            panic!("not a transpose kernel");
        };
        assert!(Arc::ptr_eq(&first, &second) && *first == [1, 0]);
        assert_eq!(
            ShapeOp::BroadcastTo.chunk_kernel(&mut site),
            Kernel::BroadcastTo(vec![2, 5])
        );
        assert!(!op.may_fail() && op.fusion_class() == FusionClass::Plain);
    }
}
