//! Lowers a [`KernelKey`] to one Cranelift function over one row of the chunk:
//! `fn(args: *const u64, out: *mut u8, n: u64)`. The caller walks the outer axes and
//! calls it once per innermost row with `args` holding each leaf's row base (see
//! [`SLOTS_PER_LEAF`]). Inside: leaves that do not vary along the row are loaded once,
//! then a SIMD main loop (f64x2, f32x4 or i64x2, unrolled twice, with two accumulators
//! for a sum; a kernel computing on float16 has its own, `float16_lanes`) when every
//! node is a plain lane-wise op, then a scalar tail.

use super::call::{leaf_fill_address, FILL_SLOT_ELEMENTS};
use super::error::JitError;
use super::externs::{leaf_fill_extern, leaf_value_extern, Extern};
use super::float16;
use super::float16_lanes;
use super::graph::{LeafKind, NodeKind, SLOTS_PER_LEAF};
use super::key::{accumulator_dtype, uses_pairwise, KernelKey, Mode};
use super::loops::CountedLoop;
use super::scalar_ops::{
    add, binary_is_vector_friendly, float_keeps, int_extremum, scalar_type,
    unary_is_vector_friendly, ExternResolver, OpEmitter,
};
use crate::dtype::DType;
use crate::ops::ReduceOp;
use cranelift_codegen::ir::{
    types, Function, InstBuilder, MemFlagsData, StackSlotData, StackSlotKind, Type, Value,
};
use cranelift_codegen::isa::TargetFrontendConfig;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Variable};

/// Builds the body of `func` (whose signature is `(i64, i64, i64)`).
pub fn build_function(
    func: &mut Function,
    key: &KernelKey,
    resolver: &mut dyn ExternResolver,
    leaf_value_address: usize,
    frontend: TargetFrontendConfig,
) -> Result<(), JitError> {
    let mut context = FunctionBuilderContext::new();
    let mut b = FunctionBuilder::new(func, &mut context);
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    let params = b.block_params(entry).to_vec();
    let (args, out, n) = (params[0], params[1], params[2]);
    let mut lowering = Lowering {
        key,
        emitter: OpEmitter { resolver },
        leaves: Vec::new(),
        rows: Vec::new(),
        out,
        leaf_value: leaf_value_extern(leaf_value_address),
    };
    lowering.preload_leaves(&mut b, args)?;
    let acc_dtype = match key.graph.reduce {
        Some(op) => Some(accumulator_dtype(op, key.graph.root_dtype())?),
        None => None,
    };
    let acc = match (key.variant.mode, acc_dtype) {
        (Mode::FoldRow, Some(dtype)) => {
            let var = b.declare_var(scalar_type(dtype));
            let initial = b.ins().load(scalar_type(dtype), flags(), out, 0);
            b.def_var(var, initial);
            Some(var)
        }
        _ => None,
    };
    match (acc, acc_dtype) {
        (Some(acc), Some(acc_dtype)) if uses_pairwise(key) => {
            lowering.pairwise_row(&mut b, args, n, acc, acc_dtype)?;
        }
        _ => {
            let start = match lowering.vector_type() {
                Some(vector) => lowering.vector_loop(&mut b, n, vector, acc, acc_dtype)?,
                None => b.ins().iconst(types::I64, 0),
            };
            lowering.scalar_loop(&mut b, start, n, acc, acc_dtype)?;
        }
    }
    if let (Some(var), Some(_)) = (acc, acc_dtype) {
        let value = b.use_var(var);
        b.ins().store(flags(), value, out, 0);
    }
    b.ins().return_(&[]);
    b.seal_all_blocks();
    b.finalize(frontend);
    Ok(())
}

/// Builds the recursive pairwise sum `fn(args, start, n) -> acc` of a pairwise kernel.
pub fn build_range_sum(
    func: &mut Function,
    key: &KernelKey,
    resolver: &mut dyn ExternResolver,
    leaf_value_address: usize,
    frontend: TargetFrontendConfig,
) -> Result<(), JitError> {
    let mut context = FunctionBuilderContext::new();
    let mut b = FunctionBuilder::new(func, &mut context);
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    let params = b.block_params(entry).to_vec();
    let (args, start, n) = (params[0], params[1], params[2]);
    let mut lowering = Lowering {
        key,
        emitter: OpEmitter { resolver },
        leaves: Vec::new(),
        rows: Vec::new(),
        out: args,
        leaf_value: leaf_value_extern(leaf_value_address),
    };
    lowering.preload_leaves(&mut b, args)?;
    let op = key
        .graph
        .reduce
        .ok_or("internal error: a range sum without a reduction")?;
    let acc_dtype = accumulator_dtype(op, key.graph.root_dtype())?;
    lowering.range_sum_body(&mut b, args, start, n, acc_dtype)?;
    b.seal_all_blocks();
    b.finalize(frontend);
    Ok(())
}

pub(super) fn flags() -> MemFlagsData {
    MemFlagsData::new().with_notrap()
}

/// A leaf's values as preloaded in the entry block.
#[derive(Clone, Copy)]
enum LeafState {
    /// The same value for the whole row.
    Fixed(Value),
    /// A buffer read at `base + j * itemsize`.
    Strided { base: Value },
    /// Elements `base + j` of an indexed source, not yet filled: only the pairwise
    /// base case reads them, after `fill_indexed_blocks` turns them into `Strided`.
    Indexed { source: Value, base: Value },
}

pub(super) struct Lowering<'k, 'r> {
    pub key: &'k KernelKey,
    pub emitter: OpEmitter<'r>,
    /// The leaves as `eval` reads them: those of the row being evaluated.
    leaves: Vec<LeafState>,
    /// Every grouped row's leaves (only row 0 unless `Variant::rows` > 1).
    rows: Vec<Vec<LeafState>>,
    out: Value,
    leaf_value: Extern,
}

impl Lowering<'_, '_> {
    pub fn preload_leaves(
        &mut self,
        b: &mut FunctionBuilder<'_>,
        args: Value,
    ) -> Result<(), JitError> {
        for (index, (kind, dtype)) in self.key.graph.leaves().into_iter().enumerate() {
            let broadcast = self
                .key
                .variant
                .broadcast
                .get(index)
                .copied()
                .unwrap_or(false);
            let slot = |k: usize| ((index * SLOTS_PER_LEAF + k) * 8) as i32;
            let first = b.ins().load(types::I64, flags(), args, slot(0));
            let state = match kind {
                LeafKind::Buffer if broadcast => {
                    LeafState::Fixed(b.ins().load(scalar_type(dtype), flags(), first, 0))
                }
                LeafKind::Buffer => LeafState::Strided { base: first },
                LeafKind::Constant => LeafState::Fixed(from_bits(b, first, dtype)),
                LeafKind::Indexed => {
                    let source = b.ins().load(types::I64, flags(), args, slot(2));
                    if broadcast {
                        let bits = self.call_leaf(b, source, first)?;
                        LeafState::Fixed(from_bits(b, bits, dtype))
                    } else if uses_pairwise(self.key) {
                        LeafState::Indexed {
                            source,
                            base: first,
                        }
                    } else {
                        // `call::run_row` filled a block of the leaf's values and
                        // passes its address.
                        LeafState::Strided { base: first }
                    }
                }
            };
            self.leaves.push(state);
        }
        self.preload_grouped_rows(b, args)
    }

    /// The leaf states of rows 1.. of a grouped call: each buffer leaf's row 0 moved on
    /// by its row stride (slot 1) per row; constants are the same in every row.
    fn preload_grouped_rows(
        &mut self,
        b: &mut FunctionBuilder<'_>,
        args: Value,
    ) -> Result<(), JitError> {
        if self.key.variant.rows <= 1 {
            return Ok(());
        }
        let rows = self.key.variant.rows;
        self.rows = vec![self.leaves.clone(); rows];
        for (index, (kind, dtype)) in self.key.graph.leaves().into_iter().enumerate() {
            match (kind, self.leaves[index]) {
                (LeafKind::Constant, _) => continue,
                (LeafKind::Buffer, state) => {
                    let slot = |k: usize| ((index * SLOTS_PER_LEAF + k) * 8) as i32;
                    let first = b.ins().load(types::I64, flags(), args, slot(0));
                    let stride = b.ins().load(types::I64, flags(), args, slot(1));
                    for row in 1..rows {
                        let offset = b.ins().imul_imm_s(stride, row as i64);
                        let address = b.ins().iadd(first, offset);
                        self.rows[row][index] = match state {
                            LeafState::Fixed(_) => LeafState::Fixed(b.ins().load(
                                scalar_type(dtype),
                                flags(),
                                address,
                                0,
                            )),
                            _ => LeafState::Strided { base: address },
                        };
                    }
                }
                _ => return Err("internal error: an indexed leaf in grouped JIT rows".into()),
            }
        }
        Ok(())
    }

    /// The root's value at element `j` of grouped row `row` (see `Variant::rows`).
    pub(super) fn eval_row(
        &mut self,
        b: &mut FunctionBuilder<'_>,
        row: usize,
        j: Value,
        vector: Option<Type>,
    ) -> Result<Value, JitError> {
        if let (true, Some(states)) = (self.key.variant.rows > 1, self.rows.get(row)) {
            self.leaves.clone_from(states);
        }
        self.eval(b, j, vector)
    }

    /// Fills elements `start..start + n` (n <= FILL_SLOT_ELEMENTS) of every unfilled
    /// indexed leaf into a stack block with one call each, and reads them from there.
    pub fn fill_indexed_blocks(
        &mut self,
        b: &mut FunctionBuilder<'_>,
        start: Value,
        n: Value,
    ) -> Result<(), JitError> {
        let dtypes = self.key.graph.leaf_dtypes();
        for (index, dtype) in dtypes.into_iter().enumerate() {
            let LeafState::Indexed { source, base } = self.leaves[index] else {
                continue;
            };
            // Eight bytes per element whatever the dtype, 16-aligned for vector loads.
            let size = (FILL_SLOT_ELEMENTS * 8) as u32;
            let slot =
                b.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, size, 4));
            let block = b.ins().stack_addr(types::I64, slot, 0);
            let first = b.ins().iadd(base, start);
            let fill = self
                .emitter
                .resolver
                .func_ref(b, leaf_fill_extern(leaf_fill_address()))?;
            b.ins().call(fill, &[source, first, n, block]);
            // Element j of the row lives at block + (j - start) * itemsize.
            let skipped = b.ins().imul_imm_s(start, dtype.itemsize() as i64);
            let base = b.ins().isub(block, skipped);
            self.leaves[index] = LeafState::Strided { base };
        }
        Ok(())
    }

    fn call_leaf(
        &mut self,
        b: &mut FunctionBuilder<'_>,
        source: Value,
        index: Value,
    ) -> Result<Value, JitError> {
        let func = self.emitter.resolver.func_ref(b, self.leaf_value)?;
        let inst = b.ins().call(func, &[source, index]);
        Ok(b.inst_results(inst)[0])
    }

    /// The lane type of the SIMD loop, when every node is a lane-wise op on one dtype.
    pub fn vector_type(&self) -> Option<Type> {
        let graph = &self.key.graph;
        let dtype = graph.root_dtype();
        if float16_lanes::has_float16(graph) {
            // Lanes of float32 values or bool masks (see `float16_lanes`).
            return float16_lanes::lanes_supported(self.key).then_some(types::F32X4);
        }
        let vector = match dtype {
            DType::Float64 => types::F64X2,
            DType::Float32 => types::F32X4,
            DType::Int64 => types::I64X2,
            _ => return None,
        };
        let nodes_ok = graph.nodes.iter().all(|node| {
            node.dtype == dtype
                && match node.kind {
                    // Indexed leaves are read from filled blocks, like buffers.
                    NodeKind::Leaf(..) => true,
                    NodeKind::Unary(op) => {
                        graph.nodes[node.args[0] as usize].dtype == dtype
                            && unary_is_vector_friendly(op, dtype)
                    }
                    NodeKind::Binary { op, common } => {
                        common == dtype
                            && op.loop_dtype(common) == Ok(dtype)
                            && binary_is_vector_friendly(op, dtype)
                    }
                    NodeKind::Where | NodeKind::Cast => false,
                }
        });
        let tail_ok = match graph.reduce {
            None => true,
            Some(op @ (ReduceOp::Sum | ReduceOp::Mean)) => {
                accumulator_dtype(op, dtype) == Ok(dtype)
            }
            Some(op) if self.key.variant.mode == Mode::AccumulateRow => {
                super::accumulate::lanes_supported(op, dtype)
            }
            Some(_) => false,
        };
        (nodes_ok && tail_ok).then_some(vector)
    }

    /// Every node's value at element `j` (lanes `j..j + lanes` for a vector type).
    pub fn eval(
        &mut self,
        b: &mut FunctionBuilder<'_>,
        j: Value,
        vector: Option<Type>,
    ) -> Result<Value, JitError> {
        let graph = &self.key.graph;
        // float16 kernels' lanes hold float32 values or bool masks (`float16_lanes`).
        let half_lanes = vector.is_some() && float16_lanes::has_float16(graph);
        let mut values: Vec<Value> = Vec::with_capacity(graph.nodes.len());
        for (index, node) in graph.nodes.iter().enumerate() {
            let arg = |i: usize| values[node.args[i] as usize];
            let arg_dtype = |i: usize| graph.nodes[node.args[i] as usize].dtype;
            let value = match node.kind {
                NodeKind::Leaf(index, _) if half_lanes => match self.leaves[index as usize] {
                    LeafState::Fixed(value) if node.dtype == DType::Float16 => {
                        let wide = float16::widen(b, value);
                        b.ins().splat(types::F32X4, wide)
                    }
                    LeafState::Fixed(value) => b.ins().splat(types::F32X4, value),
                    LeafState::Strided { base } if node.dtype == DType::Float16 => {
                        let offset = b.ins().imul_imm_s(j, 2);
                        let address = b.ins().iadd(base, offset);
                        float16::load_lanes(b, flags(), address)
                    }
                    LeafState::Strided { base } => {
                        let offset = b.ins().imul_imm_s(j, 4);
                        let address = b.ins().iadd(base, offset);
                        b.ins().load(types::F32X4, flags(), address, 0)
                    }
                    LeafState::Indexed { .. } => {
                        return Err("internal error: an indexed float16 JIT leaf".into())
                    }
                },
                // The root's lanes are rounded by their consumer (a store rounds).
                _ if half_lanes => {
                    let args: Vec<Value> = node.args.iter().map(|&a| values[a as usize]).collect();
                    let rounded = index != graph.root as usize;
                    float16_lanes::node_lanes(b, &mut self.emitter, graph, node, &args, rounded)?
                }
                NodeKind::Leaf(index, _) => match self.leaves[index as usize] {
                    LeafState::Fixed(value) => match vector {
                        Some(ty) => b.ins().splat(ty, value),
                        None => value,
                    },
                    LeafState::Strided { base } => {
                        let offset = b.ins().imul_imm_s(j, node.dtype.itemsize() as i64);
                        let address = b.ins().iadd(base, offset);
                        let ty = vector.unwrap_or(scalar_type(node.dtype));
                        b.ins().load(ty, flags(), address, 0)
                    }
                    LeafState::Indexed { .. } => {
                        return Err(
                            "internal error: an indexed JIT leaf read outside a filled block"
                                .into(),
                        )
                    }
                },
                NodeKind::Unary(op) => {
                    self.emitter
                        .unary(b, op, arg(0), arg_dtype(0), node.dtype)?
                }
                NodeKind::Binary { op, common } => self.emitter.binary(
                    b,
                    op,
                    common,
                    (arg(0), arg_dtype(0)),
                    (arg(1), arg_dtype(1)),
                )?,
                NodeKind::Cast => self.emitter.cast(b, arg(0), arg_dtype(0), node.dtype)?,
                NodeKind::Where => {
                    let cond = self.emitter.cast(b, arg(0), arg_dtype(0), DType::Bool)?;
                    b.ins().select(cond, arg(1), arg(2))
                }
            };
            values.push(value);
        }
        Ok(values[graph.root as usize])
    }

    fn scalar_loop(
        &mut self,
        b: &mut FunctionBuilder<'_>,
        start: Value,
        n: Value,
        acc: Option<Variable>,
        acc_dtype: Option<DType>,
    ) -> Result<(), JitError> {
        let counted = CountedLoop::open(b, start, n);
        let current = counted.current;
        let value = self.eval_row(b, 0, current, None)?;
        let dtype = self.key.graph.root_dtype();
        match (self.key.variant.mode, acc_dtype) {
            (Mode::Store, _) | (_, None) => {
                let address = self.element_address(b, current, dtype);
                b.ins().store(flags(), value, address, 0);
            }
            (Mode::FoldRow, Some(acc_dtype)) => {
                let acc = acc.ok_or("internal error: fold without an accumulator")?;
                let before = b.use_var(acc);
                let after = self.fold(b, before, value, dtype, acc_dtype)?;
                b.def_var(acc, after);
            }
            (Mode::AccumulateRow, Some(acc_dtype)) => {
                let address = self.element_address(b, current, acc_dtype);
                let mut acc = b.ins().load(scalar_type(acc_dtype), flags(), address, 0);
                acc = self.fold(b, acc, value, dtype, acc_dtype)?;
                for row in 1..self.key.variant.rows {
                    let value = self.eval_row(b, row, current, None)?;
                    acc = self.fold(b, acc, value, dtype, acc_dtype)?;
                }
                b.ins().store(flags(), acc, address, 0);
            }
        }
        let next = b.ins().iadd_imm_s(current, 1);
        counted.close(b, next);
        Ok(())
    }

    pub(super) fn element_address(
        &self,
        b: &mut FunctionBuilder<'_>,
        j: Value,
        dtype: DType,
    ) -> Value {
        let offset = b.ins().imul_imm_s(j, dtype.itemsize() as i64);
        b.ins().iadd(self.out, offset)
    }

    /// The SIMD main loop over `0..n & !(2 * lanes - 1)`; returns where it stopped.
    fn vector_loop(
        &mut self,
        b: &mut FunctionBuilder<'_>,
        n: Value,
        vector: Type,
        acc: Option<Variable>,
        acc_dtype: Option<DType>,
    ) -> Result<Value, JitError> {
        if float16_lanes::has_float16(&self.key.graph) {
            return self.float16_vector_loop(b, n, acc, acc_dtype);
        }
        let lanes = i64::from(vector.lane_count());
        let step = 2 * lanes;
        let end = b.ins().band_imm_s(n, -step);
        let dtype = self.key.graph.root_dtype();
        let folding = self.key.variant.mode == Mode::FoldRow && acc.is_some();
        let zero_lane = match dtype {
            DType::Float32 => b.ins().f32const(0.0),
            DType::Float64 => b.ins().f64const(0.0),
            _ => b.ins().iconst(types::I64, 0),
        };
        let partials = [b.declare_var(vector), b.declare_var(vector)];
        for partial in partials {
            let zero = b.ins().splat(vector, zero_lane);
            b.def_var(partial, zero);
        }
        let zero = b.ins().iconst(types::I64, 0);
        let counted = CountedLoop::open(b, zero, end);
        let current = counted.current;
        for (unroll, partial) in partials.into_iter().enumerate() {
            let position = b.ins().iadd_imm_s(current, unroll as i64 * lanes);
            let value = self.eval_row(b, 0, position, Some(vector))?;
            let address = self.element_address(b, position, dtype);
            match self.key.variant.mode {
                Mode::FoldRow if folding => {
                    let before = b.use_var(partial);
                    let after = add(b, dtype, before, value);
                    b.def_var(partial, after);
                }
                Mode::AccumulateRow if acc_dtype.is_some() => {
                    let op = self.key.graph.reduce.unwrap_or(ReduceOp::Sum);
                    let mut acc = b.ins().load(vector, flags(), address, 0);
                    acc = super::accumulate::combine_lanes(b, op, dtype, vector, acc, value)?;
                    for row in 1..self.key.variant.rows {
                        let value = self.eval_row(b, row, position, Some(vector))?;
                        acc = super::accumulate::combine_lanes(b, op, dtype, vector, acc, value)?;
                    }
                    b.ins().store(flags(), acc, address, 0);
                }
                _ => {
                    b.ins().store(flags(), value, address, 0);
                }
            }
        }
        let next = b.ins().iadd_imm_s(current, step);
        counted.close(b, next);
        if let (true, Some(acc)) = (folding, acc) {
            let first = b.use_var(partials[0]);
            let second = b.use_var(partials[1]);
            let both = add(b, dtype, first, second);
            let mut total = b.use_var(acc);
            for lane in 0..vector.lane_count() {
                let value = b.ins().extractlane(both, lane as u8);
                total = add(b, dtype, total, value);
            }
            b.def_var(acc, total);
        }
        Ok(end)
    }

    /// One step of the reduction: `acc` combined with an element of dtype `dtype`.
    pub(super) fn fold(
        &mut self,
        b: &mut FunctionBuilder<'_>,
        acc: Value,
        value: Value,
        dtype: DType,
        acc_dtype: DType,
    ) -> Result<Value, JitError> {
        let op = self
            .key
            .graph
            .reduce
            .ok_or("internal error: fold without a reduction")?;
        Ok(match op {
            ReduceOp::Sum | ReduceOp::Mean => {
                let value = self.emitter.cast(b, value, dtype, acc_dtype)?;
                add(b, acc_dtype, acc, value)
            }
            ReduceOp::Prod => {
                let value = self.emitter.cast(b, value, dtype, acc_dtype)?;
                if acc_dtype.is_float() {
                    b.ins().fmul(acc, value)
                } else {
                    b.ins().imul(acc, value)
                }
            }
            ReduceOp::Max | ReduceOp::Min => extreme(b, op == ReduceOp::Max, acc, value, dtype),
            ReduceOp::All => {
                let truth = self.emitter.truthy(b, value, dtype);
                b.ins().band(acc, truth)
            }
            ReduceOp::Any => {
                let truth = self.emitter.truthy(b, value, dtype);
                b.ins().bor(acc, truth)
            }
            ReduceOp::CountNonzero => {
                let truth = self.emitter.truthy(b, value, dtype);
                let one = b.ins().uextend(types::I64, truth);
                b.ins().iadd(acc, one)
            }
            other => {
                return Err(format!("not supported yet: {} in JIT kernels", other.name()).into())
            }
        })
    }
}

/// The interpreter's `Direction::replaces` fold: a NaN stays, and anything not
/// strictly worse than the current value (a NaN, an equal value) replaces it.
fn extreme(
    b: &mut FunctionBuilder<'_>,
    largest: bool,
    acc: Value,
    value: Value,
    dtype: DType,
) -> Value {
    if dtype == DType::Float16 {
        // Compared as float32, the float16 bits kept as they are.
        let (wide_acc, wide_value) = (float16::widen(b, acc), float16::widen(b, value));
        let keep = float_keeps(b, largest, wide_acc, wide_value);
        b.ins().select(keep, acc, value)
    } else if dtype.is_float() {
        let keep = float_keeps(b, largest, acc, value);
        b.ins().select(keep, acc, value)
    } else if dtype == DType::Bool {
        if largest {
            b.ins().bor(acc, value)
        } else {
            b.ins().band(acc, value)
        }
    } else {
        int_extremum(b, largest, acc, value, dtype)
    }
}

/// A value of `dtype` from the low bits of an i64.
fn from_bits(b: &mut FunctionBuilder<'_>, bits: Value, dtype: DType) -> Value {
    match dtype {
        DType::Float64 => b.ins().bitcast(types::F64, MemFlagsData::new(), bits),
        DType::Int64 | DType::UInt64 => bits,
        DType::Float32 => {
            let low = b.ins().ireduce(types::I32, bits);
            b.ins().bitcast(types::F32, MemFlagsData::new(), low)
        }
        narrow => b.ins().ireduce(scalar_type(narrow), bits),
    }
}
