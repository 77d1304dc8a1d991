//! From a subtask's ops to a [`JitGraph`] and its leaves: walks the ops one published
//! value depends on, turning subtask inputs, creation ops and mapped loads into leaves
//! and the element-wise ops (and a `reduce.map` tail) into nodes. Any op the JIT does not
//! support makes the whole subtask ineligible (`None`): it then runs interpreted.

use crate::chunk_kernel::{Kernel, ReduceSpec};
use crate::dtype::DType;
use crate::jit::graph::{JitGraph, LeafKind, Node, NodeKind};
use crate::jit::leaves::{IndexedSource, LeafInstance};
use crate::kernels::binary::exact_int_comparison;
use crate::ops::semantics::{binary_scalar, BinaryScalar};
use crate::ops::{BinaryOp, ReduceOp, UnaryOp};
use crate::plan::{OpArg, PlanOp};
use crate::scalar::Scalar;
use std::sync::Arc;

/// A kernel's structure and this chunk's leaf values.
pub struct Built {
    pub graph: JitGraph,
    pub leaves: Vec<LeafInstance>,
    /// Per leaf: the subtask input a buffer leaf reads.
    pub buffer_inputs: Vec<u32>,
    pub reduce: Option<Arc<ReduceSpec>>,
    /// Where the reduced chunk sits in its tensor (argmax/argmin report global
    /// indices); empty without a reduction.
    pub reduce_offset: Vec<usize>,
}

struct Builder<'a> {
    ops: &'a [PlanOp<Kernel>],
    input_dtypes: &'a [DType],
    nodes: Vec<Node>,
    leaves: Vec<LeafInstance>,
    buffer_inputs: Vec<u32>,
    /// What lowering each op / input gave, once it was tried.
    op_nodes: Vec<Lowered>,
    input_nodes: Vec<Option<u32>>,
}

/// An op's lowering, remembered so that every op is tried once per builder.
#[derive(Clone, Copy, PartialEq)]
enum Lowered {
    NotYet,
    Node(u32),
    Unsupported,
}

impl<'a> Builder<'a> {
    fn new(ops: &'a [PlanOp<Kernel>], input_dtypes: &'a [DType]) -> Builder<'a> {
        Builder {
            ops,
            input_dtypes,
            nodes: Vec::new(),
            leaves: Vec::new(),
            buffer_inputs: Vec::new(),
            op_nodes: vec![Lowered::NotYet; ops.len()],
            input_nodes: vec![None; input_dtypes.len()],
        }
    }

    /// The root node of op `target`, its reduction and the reduced chunk's offset.
    fn target(&mut self, target: usize) -> Option<(u32, Option<Arc<ReduceSpec>>, Vec<usize>)> {
        let op = self.ops.get(target)?;
        Some(match &op.kernel {
            Kernel::ReduceMap { spec, offset } => {
                if !reduce_supported(spec.reduction.op) {
                    return None;
                }
                let [arg] = op.args.as_slice() else {
                    return None;
                };
                let input = self.arg(*arg)?;
                // float16 argmax/argmin tails run interpreted (the values they read
                // are compiled).
                let arg = matches!(spec.reduction.op, ReduceOp::ArgMax | ReduceOp::ArgMin);
                let half = self.dtype(input) == DType::Float16;
                if interpreted_only(self.dtype(input)) || (half && arg) {
                    return None;
                }
                (input, Some(spec.clone()), offset.clone())
            }
            _ => (self.op(target)?, None, Vec::new()),
        })
    }
}

/// The kernel computing op `target` of `ops`, or `None` if an op it needs is not
/// supported. `input_dtypes` are the dtypes of the subtask's inputs.
pub fn build(ops: &[PlanOp<Kernel>], target: usize, input_dtypes: &[DType]) -> Option<Built> {
    let mut builder = Builder::new(ops, input_dtypes);
    let (root, reduce, reduce_offset) = builder.target(target)?;
    Some(Built {
        graph: JitGraph {
            nodes: builder.nodes,
            root,
            reduce: reduce.as_ref().map(|spec| spec.reduction.op),
        },
        leaves: builder.leaves,
        buffer_inputs: builder.buffer_inputs,
        reduce,
        reduce_offset,
    })
}

/// Per op of `ops`, whether [`build`] would give it a kernel, found in one walk over
/// the ops (one builder lowers each op once), so a subtask of n ops costs O(n) here
/// and only the values the rewrite needs are built on their own.
pub fn eligible(ops: &[PlanOp<Kernel>], input_dtypes: &[DType]) -> Vec<bool> {
    let mut builder = Builder::new(ops, input_dtypes);
    (0..ops.len())
        .map(|index| builder.target(index).is_some())
        .collect()
}

fn reduce_supported(op: ReduceOp) -> bool {
    use ReduceOp::*;
    matches!(
        op,
        Sum | Prod | Mean | Max | Min | All | Any | CountNonzero | ArgMax | ArgMin
    )
}

impl Builder<'_> {
    fn push(&mut self, kind: NodeKind, dtype: DType, args: Vec<u32>) -> u32 {
        self.nodes.push(Node { kind, dtype, args });
        (self.nodes.len() - 1) as u32
    }

    fn leaf(&mut self, kind: LeafKind, dtype: DType, instance: LeafInstance) -> u32 {
        let index = self.leaves.len() as u32;
        self.leaves.push(instance);
        self.push(NodeKind::Leaf(index, kind), dtype, Vec::new())
    }

    fn arg(&mut self, arg: OpArg) -> Option<u32> {
        match arg {
            OpArg::Local(op) => self.op(op as usize),
            OpArg::Input(input) => {
                let slot = input as usize;
                if let Some(node) = *self.input_nodes.get(slot)? {
                    return Some(node);
                }
                let dtype = *self.input_dtypes.get(slot)?;
                let node = self.leaf(LeafKind::Buffer, dtype, LeafInstance::Buffer);
                self.buffer_inputs.push(input);
                self.input_nodes[slot] = Some(node);
                Some(node)
            }
        }
    }

    fn dtype(&self, node: u32) -> DType {
        self.nodes[node as usize].dtype
    }

    /// Whether `node` is a constant that is not negative once cast to `common` (an
    /// integer power by it cannot raise NumPy's error). The kernel takes the value at
    /// run time, but every op is checked here before it can use a kernel.
    fn nonnegative_constant(&self, node: u32, common: DType) -> bool {
        let NodeKind::Leaf(leaf, LeafKind::Constant) = self.nodes[node as usize].kind else {
            return false;
        };
        match self.leaves.get(leaf as usize) {
            Some(LeafInstance::Constant { value, .. }) => match value.cast(common) {
                Scalar::Int32(v) => v >= 0,
                Scalar::Int64(v) => v >= 0,
                _ => false,
            },
            _ => false,
        }
    }

    fn op(&mut self, index: usize) -> Option<u32> {
        match *self.op_nodes.get(index)? {
            Lowered::Node(node) => return Some(node),
            Lowered::Unsupported => return None,
            Lowered::NotYet => {}
        }
        let node = self.lower_op(index);
        self.op_nodes[index] = node.map_or(Lowered::Unsupported, Lowered::Node);
        node
    }

    fn lower_op(&mut self, index: usize) -> Option<u32> {
        let op = &self.ops[index];
        let args = op
            .args
            .iter()
            .map(|&arg| self.arg(arg))
            .collect::<Option<Vec<u32>>>()?;
        // Complex runs interpreted: no kernel reads or writes it.
        if args.iter().any(|&arg| interpreted_only(self.dtype(arg))) {
            return None;
        }
        let node = match &op.kernel {
            Kernel::Unary(unary) => {
                let [x] = args.as_slice() else { return None };
                let dtype = unary_result(*unary, self.dtype(*x))?;
                self.push(NodeKind::Unary(*unary), dtype, args)
            }
            Kernel::Binary { op, common } => {
                let [_, exponent] = args.as_slice() else {
                    return None;
                };
                let exponent_known = self.nonnegative_constant(*exponent, *common);
                // Compared exactly by the interpreter (`kernels::binary`).
                let loop_dtype = op.loop_dtype(*common).ok()?;
                let compares = matches!(
                    binary_scalar(*op, loop_dtype),
                    Some(BinaryScalar::Compare(_))
                );
                let (a, b) = (self.dtype(args[0]), self.dtype(args[1]));
                if compares && exact_int_comparison(a, b, loop_dtype) {
                    return None;
                }
                let dtype = binary_result(*op, *common, exponent_known)?;
                self.push(
                    NodeKind::Binary {
                        op: *op,
                        common: *common,
                    },
                    dtype,
                    args,
                )
            }
            Kernel::Where => {
                let [_, x, y] = args.as_slice() else {
                    return None;
                };
                let dtype = self.dtype(*x);
                if self.dtype(*y) != dtype {
                    return None;
                }
                self.push(NodeKind::Where, dtype, args)
            }
            Kernel::Cast(dtype) => {
                let [_] = args.as_slice() else { return None };
                self.push(NodeKind::Cast, *dtype, args)
            }
            creation => self.creation(creation)?,
        };
        (!interpreted_only(self.dtype(node))).then_some(node)
    }

    fn creation(&mut self, kernel: &Kernel) -> Option<u32> {
        let indexed =
            |source: IndexedSource, global: Vec<usize>, offset: Vec<usize>, shape: Vec<usize>| {
                LeafInstance::Indexed {
                    source: Arc::new(source),
                    global_shape: global,
                    offset,
                    shape,
                }
            };
        let (kind, dtype, instance) = match kernel {
            Kernel::Full { shape, value } => (
                LeafKind::Constant,
                value.dtype(),
                LeafInstance::Constant {
                    value: *value,
                    shape: shape.clone(),
                },
            ),
            Kernel::Arange {
                start,
                step,
                offset,
                len,
            } if start.dtype() != DType::Bool => (
                LeafKind::Indexed,
                start.dtype(),
                indexed(
                    IndexedSource::Arange {
                        start: *start,
                        step: *step,
                    },
                    vec![offset.checked_add(*len)?],
                    vec![*offset],
                    vec![*len],
                ),
            ),
            Kernel::Linspace {
                start,
                stop,
                num,
                endpoint,
                dtype,
                offset,
                len,
            } => (
                LeafKind::Indexed,
                *dtype,
                indexed(
                    IndexedSource::Linspace {
                        start: *start,
                        stop: *stop,
                        num: *num,
                        endpoint: *endpoint,
                        dtype: *dtype,
                    },
                    vec![offset.checked_add(*len)?],
                    vec![*offset],
                    vec![*len],
                ),
            ),
            Kernel::Literal {
                spec,
                offset,
                shape,
            } if chunk_inside(&spec.shape, offset, shape)
                && spec.values.len() == spec.shape.iter().product::<usize>() =>
            {
                (
                    LeafKind::Indexed,
                    spec.dtype,
                    indexed(
                        IndexedSource::Literal(spec.clone()),
                        spec.shape.clone(),
                        offset.clone(),
                        shape.clone(),
                    ),
                )
            }
            Kernel::Eye {
                shape,
                row_offset,
                col_offset,
                k,
                dtype,
            } => {
                // The leaf's tensor is the eye's top-left corner down to this chunk:
                // only its width matters for the global flat index.
                let width = col_offset.checked_add(shape[1])?;
                (
                    LeafKind::Indexed,
                    *dtype,
                    indexed(
                        IndexedSource::Eye {
                            width,
                            k: *k,
                            dtype: *dtype,
                        },
                        vec![row_offset.checked_add(shape[0])?, width],
                        vec![*row_offset, *col_offset],
                        shape.to_vec(),
                    ),
                )
            }
            Kernel::Random {
                spec,
                offset,
                shape,
            } if chunk_inside(&spec.shape, offset, shape) => {
                let dtype = spec.dist.dtype();
                (
                    LeafKind::Indexed,
                    dtype,
                    indexed(
                        IndexedSource::Random(spec.clone()),
                        spec.shape.clone(),
                        offset.clone(),
                        shape.clone(),
                    ),
                )
            }
            // Bools stay a copy: the interpreter reads any nonzero byte as true, while
            // compiled code assumes 0 or 1.
            Kernel::Load {
                spec,
                offset,
                shape,
            } if spec.reader.reads_in_place()
                && spec.store.metadata().dtype != DType::Bool
                && chunk_inside(&spec.store.metadata().shape, offset, shape) =>
            {
                let metadata = spec.store.metadata();
                (
                    LeafKind::Buffer,
                    metadata.dtype,
                    LeafInstance::Mapped {
                        file: spec.reader.clone(),
                        dtype: metadata.dtype,
                        global_shape: metadata.shape.clone(),
                        offset: offset.clone(),
                        shape: shape.clone(),
                    },
                )
            }
            _ => return None,
        };
        if kind == LeafKind::Indexed && !indexed_dtype(dtype) {
            return None;
        }
        Some(self.leaf(kind, dtype, instance))
    }
}

/// Whether a chunk of `shape` at `offset` lies inside a tensor of `global` (else the
/// interpreter reports the planner bug).
fn chunk_inside(global: &[usize], offset: &[usize], shape: &[usize]) -> bool {
    offset.len() == global.len()
        && shape.len() == global.len()
        && (0..global.len()).all(|d| {
            offset[d]
                .checked_add(shape[d])
                .is_some_and(|end| end <= global[d])
        })
}

/// The dtypes no JIT kernel reads or writes: complex64/complex128.
fn interpreted_only(dtype: DType) -> bool {
    dtype.is_complex()
}

/// Whether creation leaves (ranges, literals, random draws) of `dtype` are filled by
/// the JIT's block filler (the version 1 dtypes; others run interpreted).
fn indexed_dtype(dtype: DType) -> bool {
    matches!(
        dtype,
        DType::Bool | DType::Int32 | DType::Int64 | DType::Float32 | DType::Float64
    )
}

/// The result dtype of a unary op the JIT implements for this input, if any.
fn unary_result(op: UnaryOp, input: DType) -> Option<DType> {
    use UnaryOp::*;
    let output = op.result_dtype(input).ok()?;
    let supported = match op {
        // Complex inputs run interpreted, and these are only planned for them.
        Real | Imag | Conjugate | Angle => false,
        IsNan | IsInf | IsFinite | LogicalNot => true,
        _ if output.is_float() => op != Invert,
        // The integer reciprocal calls the interpreter's int32/int64 function.
        Reciprocal if output.is_int() => matches!(output, DType::Int32 | DType::Int64),
        _ if output.is_int() => matches!(
            op,
            Negative | Positive | Floor | Ceil | Trunc | Absolute | Square | Sign | Invert
        ),
        _ => matches!(op, Absolute | Floor | Ceil | Trunc | Invert),
    };
    supported.then_some(output)
}

/// The result dtype of a binary op the JIT implements in this common dtype, if any;
/// `exponent_known` says the right operand is a constant that is not negative.
fn binary_result(op: BinaryOp, common: DType, exponent_known: bool) -> Option<DType> {
    use BinaryOp::*;
    let loop_dtype = op.loop_dtype(common).ok()?;
    let output = op.result_dtype(common).ok()?;
    let supported = match loop_dtype {
        // NumPy raises on negative integer exponents, which the interpreter checks
        // element by element; a power by a constant that is not negative cannot.
        DType::Int32 | DType::Int64 => op != Power || exponent_known,
        // The other integers have no floor division, remainder or power externs.
        int if int.is_int() => !matches!(op, FloorDivide | Remainder | Power),
        DType::Bool => matches!(
            op,
            Add | Maximum
                | Fmax
                | BitwiseOr
                | Multiply
                | Minimum
                | Fmin
                | BitwiseAnd
                | BitwiseXor
                | Equal
                | NotEqual
                | Less
                | LessEqual
                | Greater
                | GreaterEqual
                | LogicalAnd
                | LogicalOr
                | LogicalXor
        ),
        // float16 computes in float32 (see `float16`), with float32's functions.
        DType::Float16 | DType::Float32 | DType::Float64 => true,
        _ => false,
    };
    supported.then_some(output)
}
