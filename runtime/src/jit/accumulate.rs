//! SIMD steps of an `AccumulateRow` kernel (a reduction over leading axes): a vector of
//! row values combined lane by lane into the output row, `out[j] = out[j] op x[j]`,
//! with exactly the scalar fold's semantics so both loops give the same bits.

use super::error::JitError;
use super::scalar_ops::float_keeps;
use crate::dtype::DType;
use crate::ops::ReduceOp;
use cranelift_codegen::ir::{InstBuilder, MemFlagsData, Type, Value};
use cranelift_frontend::FunctionBuilder;

/// Whether the SIMD loop can combine `op` over `dtype` lanes in place: the tails that
/// accumulate in the element's own float type. (Integer products and extremes would
/// need 64-bit lane multiplies and comparisons that SSE lacks; all/any/count store
/// another dtype than they read.)
pub fn lanes_supported(op: ReduceOp, dtype: DType) -> bool {
    matches!(op, ReduceOp::Prod | ReduceOp::Max | ReduceOp::Min) && dtype.is_float()
}

/// `acc op value` lane by lane, for an op [`lanes_supported`] accepts or a sum.
pub fn combine_lanes(
    b: &mut FunctionBuilder<'_>,
    op: ReduceOp,
    dtype: DType,
    vector: Type,
    acc: Value,
    value: Value,
) -> Result<Value, JitError> {
    Ok(match op {
        ReduceOp::Sum | ReduceOp::Mean => super::scalar_ops::add(b, dtype, acc, value),
        ReduceOp::Prod if dtype.is_float() => b.ins().fmul(acc, value),
        ReduceOp::Max | ReduceOp::Min if dtype.is_float() => {
            extreme_lanes(b, op == ReduceOp::Max, vector, acc, value)
        }
        other => {
            return Err(format!(
                "internal error: no SIMD accumulation for {} of {dtype}",
                other.name()
            )
            .into())
        }
    })
}

/// The interpreter's `Direction::replaces` per lane: a NaN stays, a strictly larger
/// (smaller) one too; anything else (a NaN, an equal value) replaces it.
fn extreme_lanes(
    b: &mut FunctionBuilder<'_>,
    largest: bool,
    vector: Type,
    acc: Value,
    value: Value,
) -> Value {
    let keep = float_keeps(b, largest, acc, value);
    let mask = b.ins().bitcast(vector, MemFlagsData::new(), keep);
    b.ins().bitselect(mask, acc, value)
}
