//! The element-wise family: the ops whose every output element is computed from the
//! elements of its inputs at the same (broadcast) position — a ufunc of one tensor
//! (`negative`, `sqrt`, `isnan`, ...), a ufunc of two (`add`, `power`, `maximum`,
//! ...), `where` and `astype`. Declared once here: the TileableGraph holds one as
//! [`TileOp::Elementwise`](crate::tileable::TileOp::Elementwise) (an
//! [`ElementwiseOp`]), tiling makes one step of
//! [`ChunkOp::Elementwise`](crate::chunk::ChunkOp::Elementwise) holding the same
//! value (a chunk applies the op to its inputs' chunks covering its region), and
//! everything a pass asks of them is answered below:
//!
//! - names and dump parameters (the same in both dumps): [`ElementwiseOp::name`]
//!   (also the name its step key starts with), [`ElementwiseOp::parameters`];
//! - the tileable's rules: [`ElementwiseOp::arity`], [`ElementwiseOp::verify`]
//!   (the broadcast shape, then the result's dtype), [`ElementwiseOp::nsplits`]
//!   (the common refinement of the operands' chunks), [`ElementwiseOp::graph_cost`]
//!   (the size estimate before tiling; every operand is rechunked to the node's
//!   chunks first, counted apart);
//! - a step's content key: [`ElementwiseOp::write_key`];
//! - a chunk's verification: [`ElementwiseOp::verify_chunk`] (through the chunk
//!   verifier's [`ElementwiseChunk`]);
//! - run-time behaviour: [`ElementwiseOp::fusion_class`],
//!   [`ElementwiseOp::may_fail`];
//! - one chunk's runtime kernel: [`ElementwiseOp::chunk_kernel`].
//!
//! What a ufunc computes, and its result dtype for each input dtype, is the
//! runtime's (`marsc_runtime::ops`: [`UnaryOp`], [`BinaryOp`]); this family only
//! carries it through the passes. The tiling rules (`tile/elementwise.rs`, and
//! `tile/reduce.rs`, `tile/matmul.rs` where a tree or a product needs element-wise
//! steps) and the lowering (`lower/elementwise.rs`) name particular ops.

use super::geometry::{
    axis_splits, broadcast_shapes_error, broadcast_together, broadcastable, expect_node_shape,
    unify_splits,
};
use super::reduction::StageChunk;
use super::{expect_dtype, FusionClass, TensorView};
use crate::error::Violation;
use marsc_runtime::chunk_kernel::Kernel;
use marsc_runtime::ops::{BinaryOp, UnaryOp};
use marsc_runtime::plan::ChunkId;
use marsc_runtime::storage::KeySink;
use marsc_runtime::DType;

/// One element-wise op, the same value in the TileableGraph and in the ChunkGraph.
/// Inputs are broadcast against each other (a chunk's inputs cover its region, or
/// are the single chunk of a broadcast axis).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElementwiseOp {
    /// One input; computes in `op.result_dtype(input)`.
    Unary(UnaryOp),
    /// Two inputs; `common` is their promoted dtype (NEP 50), the kernel casts both
    /// to `op.loop_dtype(common)`.
    Binary { op: BinaryOp, common: DType },
    /// `where(cond, x, y)`: inputs `[cond (bool), x, y]`, x and y already of the
    /// node's dtype.
    Where,
    /// `astype(dtype)`: one input, converted to the node's (the step's) dtype.
    Cast,
}

impl ElementwiseOp {
    /// The short name in both dumps (NumPy's name of a ufunc), and the name its step
    /// key starts with.
    pub fn name(&self) -> &'static str {
        match self {
            ElementwiseOp::Unary(op) => op.name(),
            ElementwiseOp::Binary { op, .. } => op.name(),
            ElementwiseOp::Where => "where",
            ElementwiseOp::Cast => "astype",
        }
    }

    /// The parameters in both dumps, as `name=value` texts: a binary op's common
    /// dtype, nothing for the others.
    pub fn parameters(&self) -> Vec<String> {
        match self {
            ElementwiseOp::Binary { common, .. } => vec![format!("common={common}")],
            ElementwiseOp::Unary(_) | ElementwiseOp::Where | ElementwiseOp::Cast => vec![],
        }
    }

    /// The number of inputs of a node, and of each chunk, of this op.
    pub fn arity(&self) -> usize {
        match self {
            ElementwiseOp::Unary(_) | ElementwiseOp::Cast => 1,
            ElementwiseOp::Binary { .. } => 2,
            ElementwiseOp::Where => 3,
        }
    }

    /// Writes the op's parameters into its step's content key (`chunk/key.rs`
    /// writes the name before them, then the dtype, layout and inputs' keys): a
    /// binary op's common dtype as its code, nothing for the others.
    pub fn write_key(&self, key: &mut dyn KeySink) {
        if let ElementwiseOp::Binary { common, .. } = self {
            key.tag(common.code());
        }
    }

    /// Checks a node of this op against its inputs (the TileableGraph verifier's
    /// rules, which has checked the number of inputs): the shape first (the
    /// input's, or the inputs' broadcast together), then the dtype (the unary
    /// op's result dtype of its input; a binary op's `common` is `promote` of its
    /// inputs' dtypes — NumPy's lattice, which is inference's — and its result the
    /// op's result dtype of `common`; `where`'s condition is bool and its values of
    /// the node's dtype; a cast makes any dtype).
    pub fn verify(
        &self,
        node: TensorView,
        inputs: &[TensorView],
        promote: fn(DType, DType) -> DType,
    ) -> Result<(), Violation> {
        self.verify_shape(node.shape, inputs)?;
        self.verify_dtype(node.dtype, inputs, promote)
    }

    fn verify_shape(&self, shape: &[usize], inputs: &[TensorView]) -> Result<(), Violation> {
        match self {
            ElementwiseOp::Unary(_) | ElementwiseOp::Cast => {
                expect_node_shape(shape, inputs.first().map_or(&[][..], |input| input.shape))
            }
            ElementwiseOp::Binary { .. } | ElementwiseOp::Where => {
                let shapes: Vec<&[usize]> = inputs.iter().map(|input| input.shape).collect();
                match broadcast_together(&shapes) {
                    Some(expected) => expect_node_shape(shape, &expected),
                    None => Err(broadcast_shapes_error(&shapes).0.into()),
                }
            }
        }
    }

    fn verify_dtype(
        &self,
        dtype: DType,
        inputs: &[TensorView],
        promote: fn(DType, DType) -> DType,
    ) -> Result<(), Violation> {
        match self {
            ElementwiseOp::Unary(op) => {
                let expected = op
                    .result_dtype(inputs[0].dtype)
                    .map_err(|e| format!("{e:?}"))?;
                expect_dtype("the result", dtype, expected)
            }
            ElementwiseOp::Binary { op, common } => {
                let promoted = promote(inputs[0].dtype, inputs[1].dtype);
                expect_dtype("`common`", *common, promoted)?;
                let expected = op.result_dtype(*common).map_err(|e| format!("{e:?}"))?;
                expect_dtype("the result", dtype, expected)
            }
            ElementwiseOp::Where => {
                expect_dtype("the condition", inputs[0].dtype, DType::Bool)?;
                expect_dtype("x", inputs[1].dtype, dtype)?;
                expect_dtype("y", inputs[2].dtype, dtype)
            }
            ElementwiseOp::Cast => Ok(()),
        }
    }

    /// The output's chunks given each input's shape and chunks and the output's
    /// shape: axes aligned from the right, the inputs spanning an axis (not
    /// broadcast along it) decide its chunks, the common refinement of theirs; an
    /// axis only broadcast inputs reach is one chunk.
    pub fn nsplits(
        &self,
        inputs: &[(&[usize], &[Vec<usize>])],
        out_shape: &[usize],
    ) -> Vec<Vec<usize>> {
        let ndim = out_shape.len();
        (0..ndim)
            .map(|axis| {
                let len = out_shape[axis];
                let mut unified: Option<Vec<usize>> = None;
                for &(shape, nsplits) in inputs {
                    let Some(offset) = ndim.checked_sub(shape.len()) else {
                        continue;
                    };
                    if axis < offset || shape[axis - offset] != len {
                        continue;
                    }
                    let splits = axis_splits(shape, nsplits, axis - offset);
                    unified = Some(match unified {
                        None => splits,
                        Some(so_far) => unify_splits(&so_far, &splits),
                    });
                }
                unified.unwrap_or_else(|| vec![len])
            })
            .collect()
    }

    /// The chunk operations and edges tiling will make, as `(operations, edges)`,
    /// from the output's chunk count and the number of inputs: one chunk per output
    /// chunk reading one chunk of each input (the rechunks that bring each operand
    /// to the node's chunks are counted apart).
    pub fn graph_cost(&self, out_chunks: u128, inputs: usize) -> (u128, u128) {
        (out_chunks, out_chunks.saturating_mul(inputs as u128))
    }

    /// Checks one chunk of the op against its input chunks (the chunk verifier's
    /// shape rules): each input covers the chunk's region — the same length and
    /// offset on every axis where its tensor is not broadcast (length 1 against a
    /// longer axis), and a chunk shape that broadcasts to the chunk's.
    pub fn verify_chunk(&self, chunk: &dyn ElementwiseChunk) -> Result<(), Violation> {
        chunk
            .inputs()
            .iter()
            .try_for_each(|&input| aligned(chunk, input))
    }

    /// How it takes part in fusion: element-wise work is plain (each chunk reads
    /// one chunk of each input).
    pub fn fusion_class(&self) -> FusionClass {
        FusionClass::Plain
    }

    /// Whether a chunk can fail on valid input when it runs: an integer power can
    /// (a negative exponent is NumPy's error), nothing else.
    pub fn may_fail(&self) -> bool {
        match self {
            ElementwiseOp::Binary {
                op: BinaryOp::Power,
                common,
            } => common.is_int(),
            _ => false,
        }
    }

    /// The runtime kernel computing one chunk (the planner's `plan/kernel.rs` asks
    /// once per chunk); `dtype` is the step's, which a cast converts to.
    pub fn chunk_kernel(&self, dtype: DType) -> Kernel {
        match *self {
            ElementwiseOp::Unary(op) => Kernel::Unary(op),
            ElementwiseOp::Binary { op, common } => Kernel::Binary { op, common },
            ElementwiseOp::Where => Kernel::Where,
            ElementwiseOp::Cast => Kernel::Cast(dtype),
        }
    }
}

/// One chunk of an element-wise step as the chunk verifier sees it
/// (`chunk/verify.rs` implements it): a [`StageChunk`] that also knows the shape
/// of the tensor each chunk belongs to.
pub trait ElementwiseChunk: StageChunk {
    /// The shape of the tensor (the step) `chunk` is a chunk of.
    fn tensor_shape(&self, chunk: ChunkId) -> Vec<usize>;
}

/// An input covers the chunk's region: same length and offset on every axis where
/// its tensor is not broadcast.
fn aligned(chunk: &dyn ElementwiseChunk, input: ChunkId) -> Result<(), Violation> {
    let (in_shape, out_shape) = (chunk.shape(input), chunk.shape(chunk.id()));
    broadcastable(&in_shape, &out_shape)?;
    let in_tensor = chunk.tensor_shape(input);
    let out_tensor = chunk.tensor_shape(chunk.id());
    let shift = out_tensor.len() - in_tensor.len();
    let (in_offset, out_offset) = (chunk.offset(input), chunk.offset(chunk.id()));
    for axis in 0..in_tensor.len() {
        let broadcast = in_tensor[axis] == 1 && out_tensor[axis + shift] != 1;
        if !broadcast
            && (in_shape[axis] != out_shape[axis + shift]
                || in_offset[axis] != out_offset[axis + shift])
        {
            return Err(format!("input {input} is not aligned on axis {}", axis + shift).into());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::tensor;
    use marsc_runtime::DType::{Bool, Float64, Int64};

    fn add(common: DType) -> ElementwiseOp {
        ElementwiseOp::Binary {
            op: BinaryOp::Add,
            common,
        }
    }

    /// The promotion the verifiers hand in, enough for these dtypes.
    fn promote(a: DType, b: DType) -> DType {
        if a == b || b == Bool {
            a
        } else if a == Bool {
            b
        } else {
            Float64
        }
    }

    #[test]
    fn names_parameters_and_arity() {
        let negative = ElementwiseOp::Unary(UnaryOp::Negative);
        assert_eq!(
            (negative.name(), negative.parameters(), negative.arity()),
            ("negative", vec![], 1)
        );
        assert_eq!(
            (
                add(Int64).name(),
                add(Int64).parameters(),
                add(Int64).arity()
            ),
            ("add", vec!["common=int64".to_string()], 2)
        );
        assert_eq!(
            (ElementwiseOp::Where.name(), ElementwiseOp::Where.arity()),
            ("where", 3)
        );
        assert_eq!(
            (ElementwiseOp::Cast.name(), ElementwiseOp::Cast.arity()),
            ("astype", 1)
        );
    }

    #[test]
    fn verify_checks_the_broadcast_shape_then_the_dtype() {
        let (s23, s3, s4) = ([vec![2], vec![3]], [vec![3]], [vec![4]]);
        let x = tensor(&[2, 3], &s23, Float64);
        let row = tensor(&[3], &s3, Float64);
        let long = tensor(&[4], &s4, Float64);
        assert_eq!(add(Float64).verify(x, &[x, row], promote), Ok(()));
        assert_eq!(
            add(Float64).verify(row, &[x, row], promote),
            Err("shape [3], expected [2, 3]".into())
        );
        assert_eq!(
            add(Float64).verify(x, &[x, long], promote),
            Err("operands could not be broadcast together with shapes (2,3) (4,)".into())
        );
        assert_eq!(
            add(Int64).verify(x, &[x, row], promote),
            Err("`common` is int64, expected float64".into())
        );
        let int_x = tensor(&[2, 3], &s23, Int64);
        assert_eq!(
            ElementwiseOp::Unary(UnaryOp::Sqrt).verify(int_x, &[x], promote),
            Err("the result is int64, expected float64".into())
        );
        assert_eq!(
            ElementwiseOp::Unary(UnaryOp::Invert).verify(x, &[x], promote),
            Err("NoLoop".into())
        );
        assert_eq!(ElementwiseOp::Cast.verify(int_x, &[x], promote), Ok(()));
        assert_eq!(
            ElementwiseOp::Cast.verify(row, &[x], promote),
            Err("shape [3], expected [2, 3]".into())
        );
        let cond = tensor(&[2, 3], &s23, Bool);
        assert_eq!(
            ElementwiseOp::Where.verify(x, &[cond, x, row], promote),
            Ok(())
        );
        assert_eq!(
            ElementwiseOp::Where.verify(x, &[x, x, row], promote),
            Err("the condition is float64, expected bool".into())
        );
        assert_eq!(
            ElementwiseOp::Where.verify(x, &[cond, x, int_x], promote),
            Err("y is int64, expected float64".into())
        );
    }

    #[test]
    fn chunks_are_the_common_refinement_of_the_spanning_inputs() {
        let a = [vec![2, 2], vec![3, 3]];
        let b = [vec![1], vec![1, 5]];
        let c = [vec![4, 2]];
        let inputs: [(&[usize], &[Vec<usize>]); 3] = [(&[4, 6], &a), (&[1, 6], &b), (&[6], &c)];
        assert_eq!(
            ElementwiseOp::Where.nsplits(&inputs, &[4, 6]),
            [vec![2, 2], vec![1, 2, 1, 2]]
        );
        // An axis only broadcast inputs reach is one chunk.
        let col = [vec![4], vec![1]];
        let inputs: [(&[usize], &[Vec<usize>]); 2] = [(&[4, 1], &col), (&[1, 6], &b)];
        assert_eq!(
            add(Float64).nsplits(&inputs, &[4, 6]),
            [vec![4], vec![1, 5]]
        );
        assert_eq!(add(Float64).graph_cost(6, 2), (6, 12));
    }

    /// The bytes are the encoding `chunk/key.rs` always wrote, so keys stay the same.
    #[test]
    fn key_bytes_are_pinned() {
        let mut bytes = super::super::KeyBytes::default();
        add(Float64).write_key(&mut bytes);
        assert_eq!(bytes.0, [Float64.code()]);
        for op in [
            ElementwiseOp::Unary(UnaryOp::Exp),
            ElementwiseOp::Where,
            ElementwiseOp::Cast,
        ] {
            let mut bytes = super::super::KeyBytes::default();
            op.write_key(&mut bytes);
            assert!(bytes.0.is_empty());
        }
    }

    /// Chunks 0 and 1 are inputs (of tensors shaped as `tensors` says), chunk 2 the
    /// output.
    struct Chunk {
        shapes: Vec<Vec<usize>>,
        offsets: Vec<Vec<usize>>,
        tensors: Vec<Vec<usize>>,
        inputs: Vec<ChunkId>,
    }

    impl StageChunk for Chunk {
        fn id(&self) -> ChunkId {
            ChunkId(2)
        }
        fn inputs(&self) -> &[ChunkId] {
            &self.inputs
        }
        fn shape(&self, chunk: ChunkId) -> Vec<usize> {
            self.shapes[chunk.index()].clone()
        }
        fn offset(&self, chunk: ChunkId) -> Vec<usize> {
            self.offsets[chunk.index()].clone()
        }
    }

    impl ElementwiseChunk for Chunk {
        fn tensor_shape(&self, chunk: ChunkId) -> Vec<usize> {
            self.tensors[chunk.index()].clone()
        }
    }

    #[test]
    fn a_chunks_inputs_cover_its_region() {
        // x (4, 6) in 2x3 chunks plus a row (1, 6) broadcast along axis 0.
        let chunk = |x_offset: Vec<usize>, row_shape: Vec<usize>| Chunk {
            shapes: vec![vec![2, 3], row_shape, vec![2, 3]],
            offsets: vec![x_offset, vec![0, 3], vec![2, 3]],
            tensors: vec![vec![4, 6], vec![1, 6], vec![4, 6]],
            inputs: vec![ChunkId(0), ChunkId(1)],
        };
        let op = add(Float64);
        assert_eq!(op.verify_chunk(&chunk(vec![2, 3], vec![1, 3])), Ok(()));
        assert_eq!(
            op.verify_chunk(&chunk(vec![0, 3], vec![1, 3])),
            Err("input c0 is not aligned on axis 0".into())
        );
        assert_eq!(
            op.verify_chunk(&chunk(vec![2, 3], vec![1, 2])),
            Err("[1, 2] does not broadcast to [2, 3]".into())
        );
    }

    #[test]
    fn only_an_integer_power_may_fail() {
        let power = |common| ElementwiseOp::Binary {
            op: BinaryOp::Power,
            common,
        };
        assert!(power(Int64).may_fail() && !power(Float64).may_fail());
        assert!(!add(Int64).may_fail() && !ElementwiseOp::Cast.may_fail());
        assert_eq!(ElementwiseOp::Cast.fusion_class(), FusionClass::Plain);
        assert_eq!(ElementwiseOp::Cast.chunk_kernel(Int64), Kernel::Cast(Int64));
        assert_eq!(
            add(Float64).chunk_kernel(Bool),
            Kernel::Binary {
                op: BinaryOp::Add,
                common: Float64
            }
        );
    }
}
