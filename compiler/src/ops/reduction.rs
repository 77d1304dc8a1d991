//! The reduction family: reductions over a set of axes (`sum`, `mean`, `max`,
//! `argmax`, `var`/`std`, the NaN-aware ones, `all`, `count_nonzero`, the run-time
//! checks of `average` and `choose`) and inclusive scans along one axis (`cumsum`,
//! `cumprod`). Declared once here: the TileableGraph holds one as
//! [`TileOp::Reduce`](crate::tileable::TileOp::Reduce) (a [`ReductionOp`]), tiling
//! turns it into a tree of stages (`tile/reduce.rs`, `tile/scan.rs`), each step of
//! which is a [`ChunkOp::Reduce`](crate::chunk::ChunkOp::Reduce) (a
//! [`ReductionStage`]), and everything a pass asks of them is answered below:
//!
//! - names and dump parameters: [`ReductionOp::tile_name`],
//!   [`ReductionOp::tile_parameters`]; [`ReductionStage::name`] (the chunk dump's and
//!   the key's), [`ReductionStage::chunk_parameters`];
//! - the tileable's rules: [`ReductionOp::verify`] (shape, then dtype),
//!   [`ReductionOp::nsplits`], [`ReductionOp::graph_cost`] (the size estimate
//!   before tiling), [`ReductionOp::kind`];
//! - a stage's content key: [`ReductionStage::write_key`];
//! - a stage's structure and verification: [`ReductionStage::arity`],
//!   [`ReductionStage::reads_own_step`], [`ReductionStage::verify`] (through the
//!   chunk verifier's [`StageChunk`]);
//! - run-time behaviour: [`ReductionStage::may_fail`],
//!   [`ReductionStage::fusion_class`], [`ReductionStage::holds_state`];
//! - one chunk's runtime kernel: [`ReductionStage::chunk_kernel`], through the
//!   planner's [`ReduceSite`].
//!
//! A reduction is a tree: every data chunk is reduced to a partial state (`map`),
//! states of neighbouring blocks are merged a few at a time (`combine`, one step per
//! level), and the last state of each block of the kept axes becomes the result
//! (`finish`). A scan is a chain: each chunk but the last reports its `total`, a
//! chain of `carry`s accumulates them, and each chunk scans itself continued from
//! the carry before it (`chunk`).

use super::geometry::{expect_shape, with_ones, without};
use super::text::{list_text, python_bool, shape_text};
use super::{expect_dtype, write_usizes, FusionClass, TensorView};
use crate::error::{InternalError, Violation};
use marsc_runtime::chunk_kernel::{Kernel, ReduceSpec};
use marsc_runtime::kernels::reduce::reads_chunk_offset;
use marsc_runtime::ops::{ReduceOp, Reduction, ScanOp};
use marsc_runtime::plan::ChunkId;
use marsc_runtime::storage::KeySink;
use std::sync::Arc;

/// One reduction-like op of the TileableGraph; one input.
#[derive(Clone, Debug, PartialEq)]
pub enum ReductionOp {
    /// The input reduced over `axes` (sorted, unique, in range). With `keepdims` the
    /// reduced axes stay as length 1.
    Reduce {
        reduction: Reduction,
        axes: Vec<usize>,
        keepdims: bool,
    },
    /// The input's inclusive scan along `axis` (lowering ravels first for
    /// `axis=None`).
    Scan { op: ScanOp, axis: usize },
}

/// One stage of a reduction tree or a scan chain: what one chunk of a step computes
/// from its input chunks.
#[derive(Clone, Debug, PartialEq)]
pub enum ReductionStage {
    /// Reduces one data chunk over `axes` to a partial state (keepdims shape).
    /// `input_shape` is the whole tensor's (arg reductions report global indices).
    Map {
        reduction: Reduction,
        axes: Vec<usize>,
        input_shape: Vec<usize>,
    },
    /// Merges the states of neighbouring blocks along the reduced axes (inputs in C
    /// order of the blocks).
    Combine {
        reduction: Reduction,
        axes: Vec<usize>,
    },
    /// Turns one fully merged state into the result chunk.
    Finish {
        reduction: Reduction,
        axes: Vec<usize>,
        keepdims: bool,
    },
    /// The total of one data chunk along `axis` (length 1 there).
    ScanTotal { op: ScanOp, axis: usize },
    /// The running total before the next chunk: inputs `[previous carry?, total]`.
    ScanCarry { op: ScanOp, axis: usize },
    /// The inclusive scan of one data chunk, continued from the carry: inputs
    /// `[chunk, carry?]` (the first chunk of a line has no carry).
    ScanChunk { op: ScanOp, axis: usize },
}

impl ReductionOp {
    /// The name in the tileable dump (NumPy's: `sum`, `argmax`, `cumsum`).
    pub fn tile_name(&self) -> String {
        match self {
            ReductionOp::Reduce { reduction, .. } => reduction.op.name().into(),
            ReductionOp::Scan { op, .. } => op.name().into(),
        }
    }

    /// The parameters in the tileable dump, as `name=value` texts in a fixed order.
    pub fn tile_parameters(&self) -> Vec<String> {
        match self {
            ReductionOp::Reduce {
                reduction,
                axes,
                keepdims,
            } => reduce_parameters(reduction, axes, *keepdims),
            ReductionOp::Scan { axis, .. } => vec![format!("axis={axis}")],
        }
    }

    /// What it is, in the size estimate's words (`this reduction of 40 chunks`).
    pub fn kind(&self) -> &'static str {
        match self {
            ReductionOp::Reduce { .. } => "reduction",
            ReductionOp::Scan { .. } => "scan",
        }
    }

    /// Checks a node of this op against its one input (the TileableGraph
    /// verifier's rules, which has checked the number of inputs: shape first, then
    /// dtype).
    pub fn verify(&self, node: TensorView, inputs: &[TensorView]) -> Result<(), Violation> {
        let (input_shape, input_dtype) = (inputs[0].shape, inputs[0].dtype);
        let (shape, dtype) = (node.shape, node.dtype);
        let expected = match self {
            ReductionOp::Reduce { axes, keepdims, .. } => {
                let in_range = axes.iter().all(|&a| a < input_shape.len());
                if axes.windows(2).any(|w| w[0] >= w[1]) || !in_range {
                    return Err(
                        format!("reduction axes {axes:?} not sorted, unique and in range").into(),
                    );
                }
                if *keepdims {
                    with_ones(input_shape, axes)
                } else {
                    without(input_shape, axes)
                }
            }
            ReductionOp::Scan { axis, .. } => {
                if *axis >= input_shape.len() {
                    return Err(format!("scan axis {axis} out of range").into());
                }
                input_shape.to_vec()
            }
        };
        if shape != expected {
            return Err(format!("shape {shape:?}, expected {expected:?}").into());
        }
        let result = match self {
            ReductionOp::Reduce { reduction, .. } => reduction.op.result_dtype(input_dtype),
            ReductionOp::Scan { op, .. } => op.result_dtype(input_dtype),
        };
        expect_dtype("the result", dtype, result)
    }

    /// The output's chunks given the input's (`splits(axis)`, over `ndim` axes): a
    /// reduced axis is one chunk (or gone), a scan keeps the input's chunks.
    pub fn nsplits(&self, ndim: usize, splits: impl Fn(usize) -> Vec<usize>) -> Vec<Vec<usize>> {
        match self {
            ReductionOp::Reduce { axes, keepdims, .. } => (0..ndim)
                .filter_map(|axis| match (axes.contains(&axis), keepdims) {
                    (false, _) => Some(splits(axis)),
                    (true, true) => Some(vec![1]),
                    (true, false) => None,
                })
                .collect(),
            ReductionOp::Scan { .. } => (0..ndim).map(splits).collect(),
        }
    }

    /// The chunk operations and edges tiling will make, as `(operations, edges)`,
    /// from the input's and the output's chunk counts and the tree's fan-in
    /// `combine` (at least 2).
    pub fn graph_cost(&self, input_chunks: u128, out_chunks: u128, combine: u128) -> (u128, u128) {
        match self {
            ReductionOp::Reduce { .. } => {
                // Map every input chunk, then a tree of combines of fan-in `combine`.
                let mapped = input_chunks;
                let combines = mapped / (combine - 1) + out_chunks;
                (
                    mapped.saturating_add(combines).saturating_add(out_chunks),
                    mapped
                        .saturating_mul(2)
                        .saturating_add(combines)
                        .saturating_add(out_chunks),
                )
            }
            ReductionOp::Scan { .. } => {
                // Per chunk: its totals, the carry into it, and the scan itself.
                let chunks = input_chunks.saturating_mul(3);
                (chunks, chunks.saturating_mul(2))
            }
        }
    }
}

impl ReductionStage {
    /// The short name in the chunk dump (`sum.map`, `cumsum.carry`), and the name
    /// its step key starts with.
    pub fn name(&self) -> String {
        match self {
            ReductionStage::Map { reduction, .. } => format!("{}.map", reduction.op.name()),
            ReductionStage::Combine { reduction, .. } => {
                format!("{}.combine", reduction.op.name())
            }
            ReductionStage::Finish { reduction, .. } => format!("{}.finish", reduction.op.name()),
            ReductionStage::ScanTotal { op, .. } => format!("{}.total", op.name()),
            ReductionStage::ScanCarry { op, .. } => format!("{}.carry", op.name()),
            ReductionStage::ScanChunk { op, .. } => format!("{}.chunk", op.name()),
        }
    }

    /// The number of inputs each chunk takes, as an inclusive range.
    pub fn arity(&self) -> (usize, usize) {
        match self {
            ReductionStage::Map { .. }
            | ReductionStage::Finish { .. }
            | ReductionStage::ScanTotal { .. } => (1, 1),
            ReductionStage::Combine { .. } => (1, usize::MAX),
            ReductionStage::ScanCarry { .. } | ReductionStage::ScanChunk { .. } => (1, 2),
        }
    }

    /// Whether a chunk may read chunks of its own step (a scan's carries form a
    /// chain inside their step).
    pub fn reads_own_step(&self) -> bool {
        matches!(self, ReductionStage::ScanCarry { .. })
    }

    /// The parameters in the chunk dump, as `name=value` texts in a fixed order.
    pub fn chunk_parameters(&self) -> Vec<String> {
        match self {
            ReductionStage::Map {
                reduction,
                axes,
                input_shape,
            } => with_ddof(
                vec![
                    format!("axes={}", list_text(axes)),
                    format!("input_shape={}", shape_text(input_shape)),
                ],
                reduction,
            ),
            ReductionStage::Combine { reduction, axes } => {
                with_ddof(vec![format!("axes={}", list_text(axes))], reduction)
            }
            ReductionStage::Finish {
                reduction,
                axes,
                keepdims,
            } => reduce_parameters(reduction, axes, *keepdims),
            ReductionStage::ScanTotal { axis, .. }
            | ReductionStage::ScanCarry { axis, .. }
            | ReductionStage::ScanChunk { axis, .. } => vec![format!("axis={axis}")],
        }
    }

    /// Writes the stage's parameters into its step's content key (`chunk/key.rs`
    /// writes the name before them, which tells the stages and ops apart, then the
    /// dtype, layout and inputs' keys).
    pub fn write_key(&self, key: &mut dyn KeySink) {
        match self {
            ReductionStage::Map {
                reduction,
                axes,
                input_shape,
            } => {
                write_reduction(key, reduction);
                write_usizes(key, axes);
                write_usizes(key, input_shape);
            }
            ReductionStage::Combine { reduction, axes } => {
                write_reduction(key, reduction);
                write_usizes(key, axes);
            }
            ReductionStage::Finish {
                reduction,
                axes,
                keepdims,
            } => {
                write_reduction(key, reduction);
                write_usizes(key, axes);
                key.tag(*keepdims as u8);
            }
            ReductionStage::ScanTotal { axis, .. }
            | ReductionStage::ScanCarry { axis, .. }
            | ReductionStage::ScanChunk { axis, .. } => key.u64(*axis as u64),
        }
    }

    /// Checks one chunk of the stage against its inputs (the chunk verifier's
    /// shape rules): a state keeps the reduced axes as length 1 and the kept axes'
    /// offsets, merged parts and carries have the chunk's shape, a result drops the
    /// reduced axes unless `keepdims`.
    pub fn verify(&self, chunk: &dyn StageChunk) -> Result<(), Violation> {
        let inputs = chunk.inputs();
        let out = chunk.shape(chunk.id());
        let shape = |i: usize| chunk.shape(inputs[i]);
        match self {
            ReductionStage::Map { axes, .. } => {
                expect_shape(&with_ones(&shape(0), axes), &out, "state")?;
                let (in_offset, out_offset) = (chunk.offset(inputs[0]), chunk.offset(chunk.id()));
                let misaligned = (0..in_offset.len())
                    .any(|a| !axes.contains(&a) && in_offset[a] != out_offset[a]);
                if misaligned {
                    return Err(
                        format!("input {} is not aligned on the kept axes", inputs[0]).into(),
                    );
                }
                Ok(())
            }
            ReductionStage::Combine { .. } => {
                (0..inputs.len()).try_for_each(|i| expect_shape(&shape(i), &out, "part"))
            }
            ReductionStage::Finish { axes, keepdims, .. } => {
                let expected = if *keepdims {
                    shape(0)
                } else {
                    without(&shape(0), axes)
                };
                expect_shape(&expected, &out, "result")
            }
            ReductionStage::ScanTotal { axis, .. } => {
                expect_shape(&with_ones(&shape(0), &[*axis]), &out, "total")
            }
            ReductionStage::ScanCarry { .. } => {
                (0..inputs.len()).try_for_each(|i| expect_shape(&shape(i), &out, "carry"))
            }
            ReductionStage::ScanChunk { axis, .. } => {
                expect_shape(&shape(0), &out, "scan")?;
                match inputs.get(1) {
                    Some(&carry) => {
                        expect_shape(&chunk.shape(carry), &with_ones(&out, &[*axis]), "carry")
                    }
                    None => Ok(()),
                }
            }
        }
    }

    /// Whether a chunk of it can fail on valid input when it runs: the root of a
    /// NaN-aware arg reduction (an all-NaN slice, NumPy's ValueError), of
    /// `average`'s weights check (they sum to zero) and of `choose`'s index check
    /// (an entry out of range).
    pub fn may_fail(&self) -> bool {
        match self {
            ReductionStage::Finish { reduction, .. } => {
                matches!(reduction.op, ReduceOp::NanArgMax | ReduceOp::NanArgMin)
                    || reduction.op.check_failure().is_some()
            }
            _ => false,
        }
    }

    /// How it takes part in fusion: a map and a scan's totals and carries contract
    /// (a tree or chain of partial results begins there), a combine merges (it
    /// contracts and gathers: its parts are meant to be computed in parallel), a
    /// finish and a scanned chunk are plain.
    pub fn fusion_class(&self) -> FusionClass {
        match self {
            ReductionStage::Map { .. }
            | ReductionStage::ScanTotal { .. }
            | ReductionStage::ScanCarry { .. } => FusionClass::Contracts,
            ReductionStage::Combine { .. } => FusionClass::Merges,
            ReductionStage::Finish { .. } | ReductionStage::ScanChunk { .. } => FusionClass::Plain,
        }
    }

    /// Whether its chunks hold partial reduction states rather than data of the
    /// step's dtype (the memory check sizes them apart).
    pub fn holds_state(&self) -> bool {
        matches!(
            self,
            ReductionStage::Map { .. } | ReductionStage::Combine { .. }
        )
    }

    /// The runtime kernel computing one chunk (the planner's `plan/kernel.rs` asks
    /// once per chunk). A map's parameters are built once per step and shared; its
    /// chunk's offset is carried only by the reductions that read it (arg
    /// reductions report global indices), so the step's other map kernels are alike.
    pub fn chunk_kernel(&self, site: &mut dyn ReduceSite) -> Result<Kernel, InternalError> {
        Ok(match self {
            ReductionStage::Map {
                reduction,
                axes,
                input_shape,
            } => {
                let input = site.only_input()?;
                let spec = site
                    .shared()
                    .spec
                    .get_or_insert_with(|| {
                        Arc::new(ReduceSpec {
                            reduction: *reduction,
                            axes: axes.clone(),
                            input_shape: input_shape.clone(),
                        })
                    })
                    .clone();
                let offset = if reads_chunk_offset(reduction.op) {
                    site.offset(input)
                } else {
                    Vec::new()
                };
                Kernel::ReduceMap { spec, offset }
            }
            ReductionStage::Combine { reduction, .. } => Kernel::ReduceCombine(*reduction),
            ReductionStage::Finish {
                reduction,
                keepdims,
                ..
            } => Kernel::ReduceFinish {
                reduction: *reduction,
                keepdims: *keepdims,
            },
            ReductionStage::ScanTotal { op, axis } => Kernel::ScanTotal {
                op: *op,
                axis: *axis,
            },
            ReductionStage::ScanCarry { op, .. } => Kernel::ScanCarry(*op),
            ReductionStage::ScanChunk { op, axis } => Kernel::ScanChunk {
                op: *op,
                axis: *axis,
            },
        })
    }
}

/// One chunk of a reduction step as the chunk verifier sees it (`chunk/verify.rs`
/// implements it): its inputs, and any chunk's data shape and offset.
pub trait StageChunk {
    /// The chunk.
    fn id(&self) -> ChunkId;
    /// Its input chunks, in order.
    fn inputs(&self) -> &[ChunkId];
    /// A chunk's data shape.
    fn shape(&self, chunk: ChunkId) -> Vec<usize>;
    /// A chunk's offset in its step's tensor.
    fn offset(&self, chunk: ChunkId) -> Vec<usize>;
}

/// One chunk of a reduction step as the planner sees it (`plan/kernel.rs`
/// implements it).
pub trait ReduceSite {
    /// The chunk's only input, or an internal error.
    fn only_input(&self) -> Result<ChunkId, InternalError>;
    /// A chunk's offset in its step's tensor.
    fn offset(&mut self, chunk: ChunkId) -> Vec<usize>;
    /// What the step's chunks share, built by its first chunk.
    fn shared(&mut self) -> &mut ReductionShared;
}

/// What every chunk of one reduction step shares (a map's parameters, built once
/// per step and handed to each chunk's kernel through an `Arc`).
#[derive(Default)]
pub struct ReductionShared {
    spec: Option<Arc<ReduceSpec>>,
}

/// `parameters`, then `ddof` where it is not 0 (`var`, `std`).
/// The dump parameters of a whole reduction (the tileable op and its finish stage):
/// its axes, `keepdims`, and `ddof` when it is not 0.
fn reduce_parameters(reduction: &Reduction, axes: &[usize], keepdims: bool) -> Vec<String> {
    with_ddof(
        vec![
            format!("axes={}", list_text(axes)),
            format!("keepdims={}", python_bool(keepdims)),
        ],
        reduction,
    )
}

fn with_ddof(mut parameters: Vec<String>, reduction: &Reduction) -> Vec<String> {
    if reduction.ddof != 0.0 {
        parameters.push(format!("ddof={:?}", reduction.ddof));
    }
    parameters
}

/// A reduction in the key's encoding: its op's tag, then `ddof`'s bits.
fn write_reduction(key: &mut dyn KeySink, reduction: &Reduction) {
    key.tag(reduction.op as u8);
    key.u64(reduction.ddof.to_bits());
}

#[cfg(test)]
mod tests {
    use super::*;
    use marsc_runtime::DType;

    fn sum() -> Reduction {
        Reduction {
            op: ReduceOp::Sum,
            ddof: 0.0,
        }
    }

    fn var(ddof: f64) -> Reduction {
        Reduction {
            op: ReduceOp::Var,
            ddof,
        }
    }

    #[test]
    fn names_and_parameters_in_both_dumps() {
        let reduce = ReductionOp::Reduce {
            reduction: var(1.0),
            axes: vec![0, 2],
            keepdims: true,
        };
        assert_eq!(reduce.tile_name(), "var");
        assert_eq!(
            reduce.tile_parameters(),
            ["axes=[0, 2]", "keepdims=True", "ddof=1.0"]
        );
        let scan = ReductionOp::Scan {
            op: ScanOp::CumProd,
            axis: 1,
        };
        assert_eq!(
            (scan.tile_name(), scan.tile_parameters()),
            ("cumprod".into(), vec!["axis=1".into()])
        );
        let map = ReductionStage::Map {
            reduction: sum(),
            axes: vec![1],
            input_shape: vec![4],
        };
        assert_eq!(map.name(), "sum.map");
        assert_eq!(map.chunk_parameters(), ["axes=[1]", "input_shape=(4,)"]);
        let finish = ReductionStage::Finish {
            reduction: var(0.0),
            axes: vec![0],
            keepdims: false,
        };
        assert_eq!(finish.name(), "var.finish");
        assert_eq!(finish.chunk_parameters(), ["axes=[0]", "keepdims=False"]);
        let carry = ReductionStage::ScanCarry {
            op: ScanOp::CumSum,
            axis: 0,
        };
        assert_eq!(
            (carry.name(), carry.chunk_parameters()),
            ("cumsum.carry".into(), vec!["axis=0".into()])
        );
    }

    /// A tensor of `shape` and `dtype` (chunks do not matter to these rules).
    fn tensor(shape: &[usize], dtype: DType) -> TensorView<'_> {
        TensorView {
            shape,
            nsplits: &[],
            dtype,
        }
    }

    #[test]
    fn verify_checks_axes_then_shape_then_dtype() {
        let input = [tensor(&[2, 3], DType::Int32)];
        let reduce = ReductionOp::Reduce {
            reduction: sum(),
            axes: vec![1, 0],
            keepdims: false,
        };
        assert_eq!(
            reduce.verify(tensor(&[], DType::Int64), &input),
            Err("reduction axes [1, 0] not sorted, unique and in range".into())
        );
        let reduce = ReductionOp::Reduce {
            reduction: sum(),
            axes: vec![1],
            keepdims: true,
        };
        assert_eq!(reduce.verify(tensor(&[2, 1], DType::Int64), &input), Ok(()));
        assert_eq!(
            reduce.verify(tensor(&[2], DType::Int32), &input),
            Err("shape [2], expected [2, 1]".into())
        );
        assert_eq!(
            reduce.verify(tensor(&[2, 1], DType::Int32), &input),
            Err("the result is int32, expected int64".into())
        );
        let scan = ReductionOp::Scan {
            op: ScanOp::CumSum,
            axis: 2,
        };
        assert_eq!(
            scan.verify(tensor(&[2, 3], DType::Int64), &input),
            Err("scan axis 2 out of range".into())
        );
    }

    #[test]
    fn chunks_follow_the_input_off_the_reduced_axes() {
        let splits = |axis: usize| vec![vec![2, 2], vec![3], vec![1, 1, 1]][axis].clone();
        let reduce = |keepdims| ReductionOp::Reduce {
            reduction: sum(),
            axes: vec![0, 2],
            keepdims,
        };
        assert_eq!(reduce(true).nsplits(3, splits), [vec![1], vec![3], vec![1]]);
        assert_eq!(reduce(false).nsplits(3, splits), [vec![3]]);
        let scan = ReductionOp::Scan {
            op: ScanOp::CumSum,
            axis: 0,
        };
        assert_eq!(
            scan.nsplits(3, splits),
            [vec![2, 2], vec![3], vec![1, 1, 1]]
        );
        // 8 maps, 8 / 3 + 1 combines, 1 finish.
        assert_eq!(reduce(false).graph_cost(8, 1, 4), (8 + 3 + 1, 16 + 3 + 1));
        assert_eq!(scan.graph_cost(8, 8, 4), (24, 48));
    }

    #[test]
    fn fusion_and_failure() {
        let stage = |op| ReductionStage::Finish {
            reduction: Reduction { op, ddof: 0.0 },
            axes: vec![0],
            keepdims: false,
        };
        assert!(stage(ReduceOp::NanArgMax).may_fail());
        assert!(stage(ReduceOp::WeightsCheck).may_fail());
        assert!(!stage(ReduceOp::ArgMax).may_fail());
        let combine = ReductionStage::Combine {
            reduction: sum(),
            axes: vec![0],
        };
        assert_eq!(combine.fusion_class(), FusionClass::Merges);
        assert!(combine.fusion_class().contracts() && combine.fusion_class().gathers());
        assert!(combine.holds_state() && !stage(ReduceOp::Sum).holds_state());
        assert_eq!(stage(ReduceOp::Sum).fusion_class(), FusionClass::Plain);
        let total = ReductionStage::ScanTotal {
            op: ScanOp::CumSum,
            axis: 0,
        };
        assert_eq!(total.fusion_class(), FusionClass::Contracts);
        assert!(!total.reads_own_step());
    }

    /// The bytes are the encoding `chunk/key.rs` always wrote, so keys stay the same.
    #[test]
    fn key_bytes_are_pinned() {
        let key = |stage: ReductionStage| {
            let mut bytes = super::super::KeyBytes::default();
            stage.write_key(&mut bytes);
            bytes.0
        };
        let finish = ReductionStage::Finish {
            reduction: var(1.0),
            axes: vec![2],
            keepdims: true,
        };
        let mut expected = vec![ReduceOp::Var as u8];
        for value in [1.0f64.to_bits(), 1, 2] {
            expected.extend(value.to_le_bytes());
        }
        expected.push(1);
        assert_eq!(key(finish), expected);
        let chunk = ReductionStage::ScanChunk {
            op: ScanOp::CumSum,
            axis: 3,
        };
        assert_eq!(key(chunk), 3u64.to_le_bytes());
    }

    struct Site {
        offsets: Vec<Vec<usize>>,
        inputs: Vec<ChunkId>,
        shared: ReductionShared,
    }

    impl ReduceSite for Site {
        fn only_input(&self) -> Result<ChunkId, InternalError> {
            match self.inputs[..] {
                [input] => Ok(input),
                _ => Err(InternalError::new("plan", "not one input")),
            }
        }
        fn offset(&mut self, chunk: ChunkId) -> Vec<usize> {
            self.offsets[chunk.index()].clone()
        }
        fn shared(&mut self) -> &mut ReductionShared {
            &mut self.shared
        }
    }

    #[test]
    fn map_kernels_share_their_spec_and_carry_offsets_only_for_arg_reductions() {
        let mut site = Site {
            offsets: vec![vec![0, 0], vec![0, 3]],
            inputs: vec![ChunkId(1)],
            shared: ReductionShared::default(),
        };
        let map = |op| ReductionStage::Map {
            reduction: Reduction { op, ddof: 0.0 },
            axes: vec![1],
            input_shape: vec![2, 6],
        };
        let Ok(Kernel::ReduceMap { spec, offset }) = map(ReduceOp::ArgMax).chunk_kernel(&mut site)
        else {
            panic!("not a map kernel");
        };
        assert_eq!((spec.axes.as_slice(), offset), (&[1][..], vec![0, 3]));
        let Ok(Kernel::ReduceMap { spec: again, .. }) =
            map(ReduceOp::ArgMax).chunk_kernel(&mut site)
        else {
            panic!("not a map kernel");
        };
        assert!(Arc::ptr_eq(&spec, &again));
        let mut site = Site {
            shared: ReductionShared::default(),
            ..site
        };
        let Ok(Kernel::ReduceMap { offset, .. }) = map(ReduceOp::Sum).chunk_kernel(&mut site)
        else {
            panic!("not a map kernel");
        };
        assert!(offset.is_empty());
        site.inputs.push(ChunkId(0));
        assert_eq!(
            map(ReduceOp::Sum).chunk_kernel(&mut site),
            Err(InternalError::new("plan", "not one input"))
        );
    }
}
