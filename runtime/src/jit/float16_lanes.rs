//! float16 kernels in SIMD lanes: four elements at a time, a float16 (or float32)
//! node's lanes an `f32x4` of its float32 values (a float16 one rounded to float16 after
//! each op, see `float16::round_lanes`), a bool node's lanes an `i32x4` mask (all ones
//! for true). Besides arithmetic this covers comparisons, `logical_*`/bitwise ops of
//! bools, `where`, casts between float16, float32 and bool, and the tails NumPy folds
//! a float16 kernel with: its float32 sums (pairwise, see `pairwise`), counts,
//! `any`/`all` of a bool root, and the float32 totals of reductions over leading
//! axes. Everything keeps the scalar loop's bits: the lanes hold exactly the float32
//! values the scalar ops widen to, and a tail folds them in the scalar loop's order
//! (or in one whose result cannot differ). A kernel with anything else runs one
//! element at a time.

use super::codegen::{flags, Lowering};
use super::error::JitError;
use super::float16;
use super::graph::{JitGraph, LeafKind, Node, NodeKind};
use super::key::{accumulator_dtype, uses_pairwise, KernelKey, Mode};
use super::loops::CountedLoop;
use super::scalar_ops::{
    binary_is_vector_friendly, float_keeps, unary_is_vector_friendly, OpEmitter,
};
use crate::dtype::DType;
use crate::ops::semantics::{binary_scalar, BinaryScalar, Comparison, Logic};
use crate::ops::{BinaryOp, ReduceOp, UnaryOp};
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{types, Endianness, InstBuilder, MemFlagsData, Type, Value};
use cranelift_frontend::{FunctionBuilder, Variable};

/// Whether the graph computes on float16 anywhere (its SIMD loop is then this
/// module's, or none).
pub fn has_float16(graph: &JitGraph) -> bool {
    graph.nodes.iter().any(|node| node.dtype == DType::Float16)
}

/// The lane type of a node of `dtype` (float16 and float32: `f32x4`; bool: `i32x4`).
pub fn lane_type(dtype: DType) -> Type {
    if dtype == DType::Bool {
        types::I32X4
    } else {
        types::F32X4
    }
}

fn is_lane_float(dtype: DType) -> bool {
    matches!(dtype, DType::Float16 | DType::Float32)
}

/// The float32 semantics of a binary op on float16 or float32 lanes, if lanes have it.
fn float_scalar(op: BinaryOp) -> Option<BinaryScalar> {
    binary_scalar(op, DType::Float32)
}

/// Whether every node of a float16 kernel has a lane form and its tail a lane fold.
pub fn lanes_supported(key: &KernelKey) -> bool {
    let graph = &key.graph;
    let nodes_ok = graph.nodes.iter().all(|node| node_supported(graph, node));
    nodes_ok && tail_supported(key)
}

fn node_supported(graph: &JitGraph, node: &Node) -> bool {
    let arg = |i: usize| &graph.nodes[node.args[i] as usize];
    let dtype = node.dtype;
    match node.kind {
        // Indexed float16 leaves are not compiled (creation runs interpreted); bool
        // leaves would need byte loads.
        NodeKind::Leaf(_, kind) => is_lane_float(dtype) && kind != LeafKind::Indexed,
        NodeKind::Unary(op) => {
            let input = arg(0).dtype;
            match op {
                UnaryOp::IsNan | UnaryOp::IsInf | UnaryOp::IsFinite | UnaryOp::LogicalNot => {
                    dtype == DType::Bool
                        && (is_lane_float(input) || input == DType::Bool)
                        && (op == UnaryOp::LogicalNot || input != DType::Bool)
                }
                UnaryOp::Invert => dtype == DType::Bool && input == DType::Bool,
                _ => {
                    is_lane_float(dtype)
                        && input == dtype
                        && unary_is_vector_friendly(op, DType::Float32)
                }
            }
        }
        NodeKind::Binary { op, common } => {
            let (x, y) = (arg(0).dtype, arg(1).dtype);
            if x != common || y != common || op.loop_dtype(common) != Ok(common) {
                return false;
            }
            match (common, float_scalar(op)) {
                (DType::Float16 | DType::Float32, Some(BinaryScalar::Compare(_))) => {
                    dtype == DType::Bool
                }
                (DType::Float16 | DType::Float32, Some(_)) => {
                    dtype == common && binary_is_vector_friendly(op, DType::Float32)
                }
                (DType::Bool, _) => {
                    dtype == DType::Bool
                        && matches!(
                            binary_scalar(op, DType::Bool),
                            Some(BinaryScalar::Logical(_) | BinaryScalar::Bits(_))
                        )
                }
                _ => false,
            }
        }
        NodeKind::Where => {
            // A float16 buffer's own bits (a signalling NaN's) pass through a scalar
            // `where` unchanged but not through float32 lanes: only computed values
            // (and constants, which are quiet) are selected in lanes.
            let value_ok = |i: usize| {
                let value = arg(i);
                value.dtype == dtype
                    && !(dtype == DType::Float16
                        && matches!(value.kind, NodeKind::Leaf(_, LeafKind::Buffer)))
            };
            arg(0).dtype == DType::Bool && is_lane_float(dtype) && value_ok(1) && value_ok(2)
        }
        NodeKind::Cast => {
            let from = arg(0).dtype;
            let lane = |d: DType| is_lane_float(d) || d == DType::Bool;
            // Both loops widen float16 to float32 (quieting a signalling NaN) and
            // round float32 to float16 once.
            lane(from) && lane(dtype) && from != dtype
        }
    }
}

fn tail_supported(key: &KernelKey) -> bool {
    let graph = &key.graph;
    let root = graph.root_dtype();
    let Some(op) = graph.reduce else {
        // A stored float16 buffer keeps its bits (a signalling NaN's) only when copied.
        let root_node = &graph.nodes[graph.root as usize];
        return !matches!(root_node.kind, NodeKind::Leaf(..));
    };
    let Ok(acc) = accumulator_dtype(op, root) else {
        return false;
    };
    match key.variant.mode {
        Mode::Store => false,
        // Pairwise float32 sums of float16 or float32 values (`pairwise`).
        Mode::FoldRow if uses_pairwise(key) => is_lane_float(root) && acc == DType::Float32,
        Mode::FoldRow => match op {
            ReduceOp::Sum | ReduceOp::CountNonzero | ReduceOp::Any | ReduceOp::All => {
                root == DType::Bool
            }
            ReduceOp::Max | ReduceOp::Min => is_lane_float(root),
            _ => false,
        },
        Mode::AccumulateRow => {
            acc == DType::Float32
                && match op {
                    ReduceOp::Sum | ReduceOp::Mean | ReduceOp::Prod => is_lane_float(root),
                    // float16 extremes keep the float16 bits, which lanes do not hold.
                    ReduceOp::Max | ReduceOp::Min => root == DType::Float32,
                    _ => false,
                }
        }
    }
}

/// The lanes of a non-leaf node, from its arguments' lanes (float16 ones rounded).
/// A float16 result is rounded to float16 unless `rounded` is false (the root, which
/// its consumer rounds).
pub fn node_lanes(
    b: &mut FunctionBuilder<'_>,
    emitter: &mut OpEmitter<'_>,
    graph: &JitGraph,
    node: &Node,
    args: &[Value],
    rounded: bool,
) -> Result<Value, JitError> {
    let arg_dtype = |i: usize| graph.nodes[node.args[i] as usize].dtype;
    let round = |b: &mut FunctionBuilder<'_>, value: Value| {
        if rounded && node.dtype == DType::Float16 {
            float16::round_lanes(b, value)
        } else {
            value
        }
    };
    Ok(match node.kind {
        NodeKind::Leaf(..) => return Err("internal error: a leaf in node_lanes".into()),
        NodeKind::Unary(op) => match op {
            UnaryOp::LogicalNot if arg_dtype(0) == DType::Bool => b.ins().bnot(args[0]),
            UnaryOp::Invert => b.ins().bnot(args[0]),
            UnaryOp::LogicalNot => {
                let zero = zero_lanes(b);
                b.ins().fcmp(FloatCC::Equal, args[0], zero)
            }
            UnaryOp::IsNan => b.ins().fcmp(FloatCC::Unordered, args[0], args[0]),
            UnaryOp::IsInf | UnaryOp::IsFinite => {
                let magnitude = b.ins().fabs(args[0]);
                let inf = b.ins().f32const(f32::INFINITY);
                let inf = b.ins().splat(types::F32X4, inf);
                let cc = if op == UnaryOp::IsInf {
                    FloatCC::Equal
                } else {
                    FloatCC::LessThan
                };
                b.ins().fcmp(cc, magnitude, inf)
            }
            _ => {
                let value = emitter.float_unary(b, op, args[0], DType::Float32)?;
                round(b, value)
            }
        },
        NodeKind::Binary { op, .. } => {
            let (x, y) = (args[0], args[1]);
            if arg_dtype(0) == DType::Bool {
                // Masks: their logic and bitwise ops are the same.
                return Ok(match binary_scalar(op, DType::Bool) {
                    Some(BinaryScalar::Logical(logic) | BinaryScalar::Bits(logic)) => match logic {
                        Logic::And => b.ins().band(x, y),
                        Logic::Or => b.ins().bor(x, y),
                        Logic::Xor => b.ins().bxor(x, y),
                    },
                    _ => return Err(format!("internal error: bool {} in lanes", op.name()).into()),
                });
            }
            let scalar = float_scalar(op).ok_or("internal error: no float32 loop in lanes")?;
            let value = match scalar {
                BinaryScalar::Compare(comparison) => {
                    let cc = match comparison {
                        Comparison::Equal => FloatCC::Equal,
                        Comparison::NotEqual => FloatCC::NotEqual,
                        Comparison::Less => FloatCC::LessThan,
                        Comparison::LessEqual => FloatCC::LessThanOrEqual,
                        Comparison::Greater => FloatCC::GreaterThan,
                        Comparison::GreaterEqual => FloatCC::GreaterThanOrEqual,
                    };
                    // A mask: not rounded.
                    return Ok(b.ins().fcmp(cc, x, y));
                }
                BinaryScalar::Add => b.ins().fadd(x, y),
                BinaryScalar::Subtract => b.ins().fsub(x, y),
                BinaryScalar::Multiply => b.ins().fmul(x, y),
                BinaryScalar::Divide => b.ins().fdiv(x, y),
                _ => return Err(format!("internal error: {} in float16 lanes", op.name()).into()),
            };
            round(b, value)
        }
        // Both branches hold values of the node's dtype, already rounded.
        NodeKind::Where => select(b, args[0], args[1], args[2]),
        NodeKind::Cast => match (arg_dtype(0), node.dtype) {
            (DType::Bool, _) => {
                let one = b.ins().f32const(1.0);
                let one = b.ins().splat(types::F32X4, one);
                let zero = zero_lanes(b);
                select(b, args[0], one, zero)
            }
            // NumPy's truth value: not zero (a NaN is true).
            (_, DType::Bool) => {
                let zero = zero_lanes(b);
                b.ins().fcmp(FloatCC::NotEqual, args[0], zero)
            }
            // float16 widens exactly; float32 rounds once to float16.
            (_, DType::Float32) => args[0],
            _ => round(b, args[0]),
        },
    })
}

fn zero_lanes(b: &mut FunctionBuilder<'_>) -> Value {
    let zero = b.ins().f32const(0.0);
    b.ins().splat(types::F32X4, zero)
}

/// `mask ? x : y` lane by lane (`mask` an `i32x4`, `x` and `y` `f32x4`).
fn select(b: &mut FunctionBuilder<'_>, mask: Value, x: Value, y: Value) -> Value {
    let mask = b.ins().bitcast(types::F32X4, MemFlagsData::new(), mask);
    b.ins().bitselect(mask, x, y)
}

/// Four bool masks stored as four 0/1 bytes at `address`.
fn store_bools(b: &mut FunctionBuilder<'_>, mask: Value, address: Value) {
    let one = b.ins().iconst(types::I32, 1);
    let one = b.ins().splat(types::I32X4, one);
    let bytes = b.ins().band(mask, one);
    let shorts = b.ins().snarrow(bytes, bytes);
    let bytes = b.ins().snarrow(shorts, shorts);
    let little = MemFlagsData::new().with_endianness(Endianness::Little);
    let words = b.ins().bitcast(types::I32X4, little, bytes);
    let low = b.ins().extractlane(words, 0);
    b.ins().store(flags(), low, address, 0);
}

impl Lowering<'_, '_> {
    /// The root's lanes at `position` (of grouped row `row`), a float16 root rounded.
    fn rounded_root(
        &mut self,
        b: &mut FunctionBuilder<'_>,
        row: usize,
        position: Value,
    ) -> Result<Value, JitError> {
        let value = self.eval_row(b, row, position, Some(types::F32X4))?;
        Ok(if self.key.graph.root_dtype() == DType::Float16 {
            float16::round_lanes(b, value)
        } else {
            value
        })
    }

    /// The SIMD main loop of a float16 kernel over `0..n & !7` (two steps of four
    /// lanes per iteration); returns where it stopped, for the scalar loop to go on.
    pub fn float16_vector_loop(
        &mut self,
        b: &mut FunctionBuilder<'_>,
        n: Value,
        acc: Option<Variable>,
        acc_dtype: Option<DType>,
    ) -> Result<Value, JitError> {
        let lanes = 4i64;
        let end = b.ins().band_imm_s(n, -2 * lanes);
        let root = self.key.graph.root_dtype();
        let reduce = self.key.graph.reduce;
        let mode = self.key.variant.mode;
        // A count's two i64x2 halves, an any/all mask, or the lanes' extremes.
        let (mut count, mut mask, mut extreme) = (None, None, None);
        match (mode, reduce, acc) {
            (Mode::FoldRow, Some(ReduceOp::Sum | ReduceOp::CountNonzero), Some(_)) => {
                let zero = b.ins().iconst(types::I64, 0);
                let zero = b.ins().splat(types::I64X2, zero);
                let halves = [b.declare_var(types::I64X2), b.declare_var(types::I64X2)];
                for half in halves {
                    b.def_var(half, zero);
                }
                count = Some(halves);
            }
            (Mode::FoldRow, Some(op @ (ReduceOp::Any | ReduceOp::All)), Some(_)) => {
                let initial = b.ins().iconst(types::I32, -i64::from(op == ReduceOp::All));
                let initial = b.ins().splat(types::I32X4, initial);
                let var = b.declare_var(types::I32X4);
                b.def_var(var, initial);
                mask = Some(var);
            }
            (Mode::FoldRow, Some(op @ (ReduceOp::Max | ReduceOp::Min)), Some(_)) => {
                let worst = if op == ReduceOp::Max {
                    f32::NEG_INFINITY
                } else {
                    f32::INFINITY
                };
                let worst = b.ins().f32const(worst);
                let worst = b.ins().splat(types::F32X4, worst);
                let var = b.declare_var(types::F32X4);
                b.def_var(var, worst);
                extreme = Some((op, var));
            }
            (Mode::FoldRow, ..) => {
                return Err("internal error: a float16 lane fold without its tail".into())
            }
            _ => {}
        }
        let zero = b.ins().iconst(types::I64, 0);
        let counted = CountedLoop::open(b, zero, end);
        let current = counted.current;
        for unroll in 0..2 {
            let position = b.ins().iadd_imm_s(current, unroll * lanes);
            match (mode, acc_dtype) {
                (Mode::AccumulateRow, Some(acc_dtype)) => {
                    let op = reduce.ok_or("internal error: accumulate without a reduction")?;
                    let address = self.element_address(b, position, acc_dtype);
                    let mut total = b.ins().load(types::F32X4, flags(), address, 0);
                    for row in 0..self.key.variant.rows {
                        let value = self.rounded_root(b, row, position)?;
                        total = super::accumulate::combine_lanes(
                            b,
                            op,
                            DType::Float32,
                            types::F32X4,
                            total,
                            value,
                        )?;
                    }
                    b.ins().store(flags(), total, address, 0);
                }
                (Mode::FoldRow, _) if extreme.is_some() => {
                    let (op, var) = extreme.ok_or("internal error: no extreme lanes")?;
                    let value = self.rounded_root(b, 0, position)?;
                    let before = b.use_var(var);
                    let after = super::accumulate::combine_lanes(
                        b,
                        op,
                        DType::Float32,
                        types::F32X4,
                        before,
                        value,
                    )?;
                    b.def_var(var, after);
                }
                (Mode::FoldRow, _) => {
                    let value = self.eval_row(b, 0, position, Some(lane_type(root)))?;
                    if let Some(halves) = count {
                        // A true lane is -1: subtracting counts it.
                        let low = b.ins().swiden_low(value);
                        let high = b.ins().swiden_high(value);
                        for (half, part) in halves.into_iter().zip([low, high]) {
                            let before = b.use_var(half);
                            let after = b.ins().isub(before, part);
                            b.def_var(half, after);
                        }
                    } else if let Some(var) = mask {
                        let before = b.use_var(var);
                        let after = if reduce == Some(ReduceOp::All) {
                            b.ins().band(before, value)
                        } else {
                            b.ins().bor(before, value)
                        };
                        b.def_var(var, after);
                    }
                }
                _ => {
                    let value = self.eval_row(b, 0, position, Some(lane_type(root)))?;
                    let address = self.element_address(b, position, root);
                    match root {
                        DType::Float16 => float16::store_lanes(b, flags(), value, address),
                        DType::Bool => store_bools(b, value, address),
                        _ => {
                            b.ins().store(flags(), value, address, 0);
                        }
                    }
                }
            }
        }
        let next = b.ins().iadd_imm_s(current, 2 * lanes);
        counted.close(b, next);
        if let (Some(halves), Some(acc)) = (count, acc) {
            let low = b.use_var(halves[0]);
            let high = b.use_var(halves[1]);
            let both = b.ins().iadd(low, high);
            let mut total = b.use_var(acc);
            for lane in 0..2 {
                let value = b.ins().extractlane(both, lane);
                total = b.ins().iadd(total, value);
            }
            b.def_var(acc, total);
        }
        if let (Some(var), Some(acc)) = (mask, acc) {
            let lanes = b.use_var(var);
            let before = b.use_var(acc);
            let after = if reduce == Some(ReduceOp::All) {
                let all = b.ins().vall_true(lanes);
                b.ins().band(before, all)
            } else {
                let any = b.ins().vany_true(lanes);
                b.ins().bor(before, any)
            };
            b.def_var(acc, after);
        }
        match (extreme, acc, acc_dtype) {
            (Some((op, var)), Some(acc), Some(acc_dtype)) => {
                let lanes = b.use_var(var);
                self.fold_extreme_lanes(b, op, lanes, end, acc, acc_dtype)
            }
            _ => Ok(end),
        }
    }

    /// Folds the lanes' extremes `lanes` of elements `0..end` into `acc`; returns where
    /// the scalar loop goes on. The scalar fold keeps the first NaN and, of equal
    /// values, the last: the lanes' extreme `m` gives the same result unless it is a
    /// NaN or a zero (whose sign depends on which zero came last), so then the scalar
    /// loop goes over the whole row again instead, from `acc` as it was.
    fn fold_extreme_lanes(
        &mut self,
        b: &mut FunctionBuilder<'_>,
        op: ReduceOp,
        lanes: Value,
        end: Value,
        acc: Variable,
        acc_dtype: DType,
    ) -> Result<Value, JitError> {
        let largest = op == ReduceOp::Max;
        let mut m = b.ins().extractlane(lanes, 0);
        for lane in 1..4 {
            let value = b.ins().extractlane(lanes, lane);
            let keep = float_keeps(b, largest, m, value);
            m = b.ins().select(keep, m, value);
        }
        let zero = b.ins().f32const(0.0);
        // Unordered or equal: a NaN or a zero.
        let ambiguous = b.ins().fcmp(FloatCC::UnorderedOrEqual, m, zero);
        let none = b.ins().icmp_imm_s(IntCC::Equal, end, 0);
        let rescan = b.ins().bor(ambiguous, none);
        let start = b.declare_var(types::I64);
        let zero_start = b.ins().iconst(types::I64, 0);
        b.def_var(start, zero_start);
        let fold_block = b.create_block();
        let done = b.create_block();
        b.ins().brif(rescan, done, &[], fold_block, &[]);
        b.switch_to_block(fold_block);
        let value = if acc_dtype == DType::Float16 {
            // Not a NaN: the float16 bits the lanes' value was rounded from.
            float16::narrow(b, m)
        } else {
            m
        };
        let before = b.use_var(acc);
        let after = self.fold(b, before, value, acc_dtype, acc_dtype)?;
        b.def_var(acc, after);
        b.def_var(start, end);
        b.ins().jump(done, &[]);
        b.switch_to_block(done);
        Ok(b.use_var(start))
    }
}
