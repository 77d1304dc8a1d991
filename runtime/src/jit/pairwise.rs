//! NumPy's pairwise summation in JIT code, operation for operation as the
//! interpreter's `pairwise_sum` does it, so a JIT float sum or mean equals the
//! interpreter's bit for bit: runs of more than 128 elements split in two at a
//! multiple of 8 (a recursive call each), shorter runs of at least 8 use eight
//! interleaved partial sums (four f64x2 or two f32x4 vectors when every node is
//! lane-wise) combined as `((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7))`, and the rest is added
//! one by one. Sums that convert their input (int or float32 data into a float64
//! mean) go through NumPy's 8192-element cast buffers, summed one after another.

use super::codegen::Lowering;
use super::error::JitError;
use super::loops::CountedLoop;
use super::scalar_ops::add;
use crate::dtype::DType;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, InstBuilder, Type, Value};
use cranelift_frontend::{FunctionBuilder, Variable};

/// NumPy's PW_BLOCKSIZE.
const PAIRWISE_BLOCK: i64 = 128;
/// NumPy's ufunc buffer size, the run a casting reduction sums pairwise at a time.
const CAST_BUFFER: i64 = 8192;

impl Lowering<'_, '_> {
    /// The main function's body for a pairwise kernel: `acc += run sum` of the row.
    pub fn pairwise_row(
        &mut self,
        b: &mut FunctionBuilder<'_>,
        args: Value,
        n: Value,
        acc: Variable,
        acc_dtype: DType,
    ) -> Result<(), JitError> {
        let range_sum = self.emitter.resolver.range_sum(b)?;
        let converted = self.key.graph.root_dtype() != acc_dtype;
        if !converted {
            // The interpreter's `sum_run`: 0.0 + pairwise(run).
            let zero_start = b.ins().iconst(types::I64, 0);
            let call = b.ins().call(range_sum, &[args, zero_start, n]);
            let run = b.inst_results(call)[0];
            let zero = zero_of(b, acc_dtype);
            let run = add(b, acc_dtype, zero, run);
            let before = b.use_var(acc);
            let after = add(b, acc_dtype, before, run);
            b.def_var(acc, after);
            return Ok(());
        }
        let zero = b.ins().iconst(types::I64, 0);
        let counted = CountedLoop::open(b, zero, n);
        let current = counted.current;
        let left = b.ins().isub(n, current);
        let buffer = b.ins().iconst(types::I64, CAST_BUFFER);
        let len = b.ins().umin(left, buffer);
        let call = b.ins().call(range_sum, &[args, current, len]);
        let block_sum = b.inst_results(call)[0];
        let before = b.use_var(acc);
        let after = add(b, acc_dtype, before, block_sum);
        b.def_var(acc, after);
        let next = b.ins().iadd(current, len);
        counted.close(b, next);
        Ok(())
    }

    /// `range_sum(args, start, n)`: the pairwise sum of elements `start..start + n`.
    pub fn range_sum_body(
        &mut self,
        b: &mut FunctionBuilder<'_>,
        args: Value,
        start: Value,
        n: Value,
        acc_dtype: DType,
    ) -> Result<(), JitError> {
        let split_block = b.create_block();
        let small_block = b.create_block();
        let tiny_block = b.create_block();
        let unrolled_block = b.create_block();
        let large = b
            .ins()
            .icmp_imm_s(IntCC::UnsignedGreaterThan, n, PAIRWISE_BLOCK);
        b.ins().brif(large, split_block, &[], small_block, &[]);

        b.switch_to_block(split_block);
        let range_sum = self.emitter.resolver.range_sum(b)?;
        let half = b.ins().ushr_imm_s(n, 1);
        let split = b.ins().band_imm_s(half, -8);
        let call = b.ins().call(range_sum, &[args, start, split]);
        let left = b.inst_results(call)[0];
        let right_start = b.ins().iadd(start, split);
        let right_len = b.ins().isub(n, split);
        let call = b.ins().call(range_sum, &[args, right_start, right_len]);
        let right = b.inst_results(call)[0];
        let total = add(b, acc_dtype, left, right);
        b.ins().return_(&[total]);

        b.switch_to_block(small_block);
        // Both base cases below read the indexed leaves' values from filled blocks.
        self.fill_indexed_blocks(b, start, n)?;
        let below_eight = b.ins().icmp_imm_s(IntCC::UnsignedLessThan, n, 8);
        b.ins()
            .brif(below_eight, tiny_block, &[], unrolled_block, &[]);

        b.switch_to_block(tiny_block);
        let end = b.ins().iadd(start, n);
        let zero = zero_of(b, acc_dtype);
        let total = self.sequential(b, start, end, zero, acc_dtype)?;
        b.ins().return_(&[total]);

        b.switch_to_block(unrolled_block);
        let head = self.eight_lanes(b, start, n, acc_dtype)?;
        let unrolled = b.ins().band_imm_s(n, -8);
        let tail_start = b.ins().iadd(start, unrolled);
        let end = b.ins().iadd(start, n);
        let total = self.sequential(b, tail_start, end, head, acc_dtype)?;
        b.ins().return_(&[total]);
        Ok(())
    }

    /// The element at `position` converted to the accumulator dtype.
    fn element(
        &mut self,
        b: &mut FunctionBuilder<'_>,
        position: Value,
        vector: Option<Type>,
        acc_dtype: DType,
    ) -> Result<Value, JitError> {
        let value = self.eval(b, position, vector)?;
        let dtype = self.key.graph.root_dtype();
        if vector.is_some() {
            // A float16 root's lanes are its float32 values once rounded.
            return Ok(if dtype == DType::Float16 {
                super::float16::round_lanes(b, value)
            } else {
                value
            });
        }
        self.emitter.cast(b, value, dtype, acc_dtype)
    }

    /// `acc + v[from] + ... + v[to - 1]`, left to right.
    fn sequential(
        &mut self,
        b: &mut FunctionBuilder<'_>,
        from: Value,
        to: Value,
        acc: Value,
        acc_dtype: DType,
    ) -> Result<Value, JitError> {
        let total = b.declare_var(super::scalar_ops::scalar_type(acc_dtype));
        b.def_var(total, acc);
        let counted = CountedLoop::open(b, from, to);
        let current = counted.current;
        let value = self.element(b, current, None, acc_dtype)?;
        let before = b.use_var(total);
        let after = add(b, acc_dtype, before, value);
        b.def_var(total, after);
        let next = b.ins().iadd_imm_s(current, 1);
        counted.close(b, next);
        Ok(b.use_var(total))
    }

    /// The eight interleaved partial sums of elements `start..start + (n & !7)`,
    /// combined in NumPy's order.
    fn eight_lanes(
        &mut self,
        b: &mut FunctionBuilder<'_>,
        start: Value,
        n: Value,
        acc_dtype: DType,
    ) -> Result<Value, JitError> {
        // float16 lanes are float32 values, summed in float32 (`float16_lanes`).
        let vector = self.vector_type().filter(|_| {
            self.key.graph.root_dtype() == acc_dtype
                || super::float16_lanes::has_float16(&self.key.graph)
        });
        let (group_type, lanes) = match vector {
            Some(ty) => (ty, ty.lane_count() as i64),
            None => (super::scalar_ops::scalar_type(acc_dtype), 1),
        };
        let groups = (8 / lanes) as usize;
        let vars: Vec<Variable> = (0..groups).map(|_| b.declare_var(group_type)).collect();
        for (g, var) in vars.iter().enumerate() {
            let position = b.ins().iadd_imm_s(start, g as i64 * lanes);
            let value = self.element(b, position, vector, acc_dtype)?;
            b.def_var(*var, value);
        }
        let unrolled = b.ins().band_imm_s(n, -8);
        let end = b.ins().iadd(start, unrolled);
        let first = b.ins().iadd_imm_s(start, 8);
        let counted = CountedLoop::open(b, first, end);
        let current = counted.current;
        for (g, var) in vars.iter().enumerate() {
            let position = b.ins().iadd_imm_s(current, g as i64 * lanes);
            let value = self.element(b, position, vector, acc_dtype)?;
            let before = b.use_var(*var);
            let after = add(b, acc_dtype, before, value);
            b.def_var(*var, after);
        }
        let next = b.ins().iadd_imm_s(current, 8);
        counted.close(b, next);
        let mut lane_values = Vec::with_capacity(8);
        for var in &vars {
            let group = b.use_var(*var);
            if vector.is_some() {
                for lane in 0..lanes {
                    lane_values.push(b.ins().extractlane(group, lane as u8));
                }
            } else {
                lane_values.push(group);
            }
        }
        let r = lane_values;
        let p01 = add(b, acc_dtype, r[0], r[1]);
        let p23 = add(b, acc_dtype, r[2], r[3]);
        let p45 = add(b, acc_dtype, r[4], r[5]);
        let p67 = add(b, acc_dtype, r[6], r[7]);
        let low = add(b, acc_dtype, p01, p23);
        let high = add(b, acc_dtype, p45, p67);
        Ok(add(b, acc_dtype, low, high))
    }
}

fn zero_of(b: &mut FunctionBuilder<'_>, dtype: DType) -> Value {
    if dtype == DType::Float32 {
        b.ins().f32const(0.0)
    } else {
        b.ins().f64const(0.0)
    }
}
