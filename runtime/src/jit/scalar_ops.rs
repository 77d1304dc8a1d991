//! Instruction selection for one element (or one vector of elements) of each node:
//! NumPy's semantics for casts, unary and binary ops, comparisons and `where`, in
//! Cranelift instructions, with the handful of multi-instruction semantics (floor
//! division, remainders, powers, float to int casts, transcendental functions) as calls
//! of the interpreter's own Rust functions (see `externs`).

use super::error::JitError;
use super::externs::{binary_extern, float_to_int_extern, unary_extern, Extern};
use super::float16;
use crate::dtype::DType;
use crate::ops::semantics::{binary_scalar, BinaryScalar, Comparison, Logic};
use crate::ops::{BinaryOp, UnaryOp};
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{types, FuncRef, InstBuilder, Type, Value};
use cranelift_frontend::FunctionBuilder;

/// The Cranelift type holding one element of `dtype` (bool is a 0/1 byte; float16 its
/// bits, widened to float32 by each op that computes on it: see `float16`).
pub fn scalar_type(dtype: DType) -> Type {
    match dtype {
        DType::Bool | DType::Int8 | DType::UInt8 => types::I8,
        DType::Int16 | DType::UInt16 | DType::Float16 => types::I16,
        DType::Int32 | DType::UInt32 => types::I32,
        DType::Int64 | DType::UInt64 => types::I64,
        DType::Float32 => types::F32,
        DType::Float64 => types::F64,
        // Complex runs interpreted; these only size its bits.
        DType::Complex64 => types::I64,
        DType::Complex128 => types::I128,
    }
}

/// Resolves an extern to a function reference inside the function being built.
pub trait ExternResolver {
    fn func_ref(
        &mut self,
        builder: &mut FunctionBuilder<'_>,
        ext: Extern,
    ) -> Result<FuncRef, JitError>;
    /// The kernel's own pairwise `range_sum` function.
    fn range_sum(&mut self, builder: &mut FunctionBuilder<'_>) -> Result<FuncRef, JitError>;
}

/// Emits element-wise instructions for values of one lane count (1 = scalar).
pub struct OpEmitter<'r> {
    pub resolver: &'r mut dyn ExternResolver,
}

impl OpEmitter<'_> {
    fn call(
        &mut self,
        b: &mut FunctionBuilder<'_>,
        ext: Extern,
        args: &[Value],
    ) -> Result<Value, JitError> {
        let func = self.resolver.func_ref(b, ext)?;
        let inst = b.ins().call(func, args);
        Ok(b.inst_results(inst)[0])
    }

    fn float_const(b: &mut FunctionBuilder<'_>, dtype: DType, value: f64) -> Value {
        if dtype == DType::Float32 {
            b.ins().f32const(value as f32)
        } else {
            b.ins().f64const(value)
        }
    }

    /// NumPy's truth value as a 0/1 byte (NaN is true).
    pub fn truthy(&mut self, b: &mut FunctionBuilder<'_>, value: Value, dtype: DType) -> Value {
        if dtype == DType::Float16 {
            // Any bits but a signed zero's.
            let magnitude = b.ins().band_imm_s(value, 0x7fff);
            b.ins().icmp_imm_s(IntCC::NotEqual, magnitude, 0)
        } else if dtype.is_float() {
            let zero = Self::float_const(b, dtype, 0.0);
            b.ins().fcmp(FloatCC::NotEqual, value, zero)
        } else {
            b.ins().icmp_imm_s(IntCC::NotEqual, value, 0)
        }
    }

    /// `value.astype(to)` with the interpreter's `cast` semantics.
    pub fn cast(
        &mut self,
        b: &mut FunctionBuilder<'_>,
        value: Value,
        from: DType,
        to: DType,
    ) -> Result<Value, JitError> {
        use DType::*;
        if from == to {
            return Ok(value);
        }
        let to_type = scalar_type(to);
        Ok(match (from, to) {
            (_, Bool) => self.truthy(b, value, from),
            // float16 reads as the float32 it widens to (`kernels::cast`).
            (Float16, _) => {
                let wide = float16::widen(b, value);
                self.cast(b, wide, Float32, to)?
            }
            (Bool, Float16) => {
                let one = b.ins().iconst(types::I16, 0x3c00);
                let zero = b.ins().iconst(types::I16, 0);
                b.ins().select(value, one, zero)
            }
            (Float32, Float16) => float16::narrow(b, value),
            (Float64, Float16) => float16::narrow_f64(b, value),
            // An integer through float32 (which rounds it once), as `kernels::cast`.
            (_, Float16) => {
                let single = self.cast(b, value, from, Float32)?;
                float16::narrow(b, single)
            }
            (Bool, _) if to.is_int() => resize_int(b, value, DType::UInt8, to),
            (Bool, Float32 | Float64) => {
                let wide = b.ins().uextend(types::I32, value);
                b.ins().fcvt_from_uint(to_type, wide)
            }
            _ if from.is_int() && to.is_int() => resize_int(b, value, from, to),
            (_, Float32 | Float64) if from.is_int() => {
                // Widened to a signed integer that holds every value, converted once.
                match from {
                    UInt64 => b.ins().fcvt_from_uint(to_type, value),
                    UInt32 => {
                        let wide = b.ins().uextend(types::I64, value);
                        b.ins().fcvt_from_sint(to_type, wide)
                    }
                    Int8 | Int16 => {
                        let wide = b.ins().sextend(types::I32, value);
                        b.ins().fcvt_from_sint(to_type, wide)
                    }
                    UInt8 | UInt16 => {
                        let wide = b.ins().uextend(types::I32, value);
                        b.ins().fcvt_from_sint(to_type, wide)
                    }
                    _ => b.ins().fcvt_from_sint(to_type, value),
                }
            }
            (Float32, Float64) => b.ins().fpromote(types::F64, value),
            (Float64, Float32) => b.ins().fdemote(types::F32, value),
            (Float32 | Float64, _) if to.is_int() => {
                let wide = if from == Float32 {
                    b.ins().fpromote(types::F64, value)
                } else {
                    value
                };
                // The interpreter's conversion: through int32 for 8- to 16-bit
                // targets, int64 for uint32, then the low bits (`kernels::cast`).
                let via = match to {
                    Int64 | UInt32 => Int64,
                    UInt64 => UInt64,
                    _ => Int32,
                };
                let ext = float_to_int_extern(via).ok_or("no float to int extern")?;
                let converted = self.call(b, ext, &[wide])?;
                resize_int(b, converted, via, to)
            }
            _ => return Err(format!("no cast from {from} to {to}").into()),
        })
    }

    /// `np.<op>(x)` where `x` has dtype `input` and the result dtype `output`.
    pub fn unary(
        &mut self,
        b: &mut FunctionBuilder<'_>,
        op: UnaryOp,
        x: Value,
        input: DType,
        output: DType,
    ) -> Result<Value, JitError> {
        use UnaryOp::*;
        match op {
            LogicalNot => return Ok(self.predicate(b, op, x, input)),
            IsNan | IsInf | IsFinite if input == DType::Float16 => {
                let wide = float16::widen(b, x);
                return Ok(self.predicate(b, op, wide, DType::Float32));
            }
            IsNan | IsInf | IsFinite => return Ok(self.predicate(b, op, x, input)),
            _ => {}
        }
        let x = self.cast(b, x, input, output)?;
        if output == DType::Float16 {
            // Computed in float32 and rounded back, as NumPy's float16 loops.
            let wide = float16::widen(b, x);
            let result = self.float_unary(b, op, wide, DType::Float32)?;
            Ok(float16::narrow(b, result))
        } else if output.is_float() {
            self.float_unary(b, op, x, output)
        } else if output.is_int() {
            self.int_unary(b, op, x, output)
        } else {
            match op {
                Absolute | Floor | Ceil | Trunc => Ok(x),
                Invert => Ok(b.ins().bxor_imm_s(x, 1)),
                _ => Err(format!("{} has no bool loop", op.name()).into()),
            }
        }
    }

    fn predicate(
        &mut self,
        b: &mut FunctionBuilder<'_>,
        op: UnaryOp,
        x: Value,
        input: DType,
    ) -> Value {
        if op == UnaryOp::LogicalNot {
            let truth = self.truthy(b, x, input);
            return b.ins().bxor_imm_s(truth, 1);
        }
        if !input.is_float() {
            let constant = i64::from(op == UnaryOp::IsFinite);
            return b.ins().iconst(types::I8, constant);
        }
        match op {
            UnaryOp::IsNan => b.ins().fcmp(FloatCC::Unordered, x, x),
            UnaryOp::IsInf => {
                let magnitude = b.ins().fabs(x);
                let inf = Self::float_const(b, input, f64::INFINITY);
                b.ins().fcmp(FloatCC::Equal, magnitude, inf)
            }
            _ => {
                let magnitude = b.ins().fabs(x);
                let inf = Self::float_const(b, input, f64::INFINITY);
                b.ins().fcmp(FloatCC::LessThan, magnitude, inf)
            }
        }
    }

    pub(super) fn float_unary(
        &mut self,
        b: &mut FunctionBuilder<'_>,
        op: UnaryOp,
        x: Value,
        dtype: DType,
    ) -> Result<Value, JitError> {
        use UnaryOp::*;
        Ok(match op {
            Negative => b.ins().fneg(x),
            Positive => x,
            Absolute => b.ins().fabs(x),
            Sqrt => b.ins().sqrt(x),
            Square => b.ins().fmul(x, x),
            Floor => b.ins().floor(x),
            Ceil => b.ins().ceil(x),
            Trunc => b.ins().trunc(x),
            Rint => b.ins().nearest(x),
            Reciprocal => {
                let one = Self::float_const(b, dtype, 1.0);
                b.ins().fdiv(one, x)
            }
            _ => {
                let ext = unary_extern(op, dtype)
                    .ok_or_else(|| format!("{} has no {dtype} loop", op.name()))?;
                self.call(b, ext, &[x])?
            }
        })
    }

    fn int_unary(
        &mut self,
        b: &mut FunctionBuilder<'_>,
        op: UnaryOp,
        x: Value,
        dtype: DType,
    ) -> Result<Value, JitError> {
        use UnaryOp::*;
        Ok(match op {
            Negative => b.ins().ineg(x),
            Positive | Floor | Ceil | Trunc => x,
            Absolute if dtype.is_unsigned() => x,
            Absolute if matches!(dtype, DType::Int32 | DType::Int64) => b.ins().iabs(x),
            Absolute => {
                let negated = b.ins().ineg(x);
                let negative = b.ins().icmp_imm_s(IntCC::SignedLessThan, x, 0);
                b.ins().select(negative, negated, x)
            }
            Square => b.ins().imul(x, x),
            Invert => b.ins().bnot(x),
            Sign if dtype.is_unsigned() => {
                let nonzero = b.ins().icmp_imm_s(IntCC::NotEqual, x, 0);
                resize_int(b, nonzero, DType::UInt8, dtype)
            }
            Sign => {
                let positive = b.ins().icmp_imm_s(IntCC::SignedGreaterThan, x, 0);
                let negative = b.ins().icmp_imm_s(IntCC::SignedLessThan, x, 0);
                let sign = b.ins().isub(positive, negative);
                resize_int(b, sign, DType::Int8, dtype)
            }
            Reciprocal => {
                let ext = unary_extern(op, dtype).ok_or("no int reciprocal extern")?;
                self.call(b, ext, &[x])?
            }
            _ => return Err(format!("{} has no {dtype} loop", op.name()).into()),
        })
    }

    /// `np.<op>(x, y)` where both were promoted to `common`, with the semantics
    /// `ops::semantics` gives it (the interpreter's table).
    #[allow(clippy::too_many_arguments)]
    pub fn binary(
        &mut self,
        b: &mut FunctionBuilder<'_>,
        op: BinaryOp,
        common: DType,
        (x, x_dtype): (Value, DType),
        (y, y_dtype): (Value, DType),
    ) -> Result<Value, JitError> {
        use BinaryScalar as S;
        let no_loop = |dtype: DType| format!("{} has no {dtype} loop", op.name());
        let loop_dtype = op.loop_dtype(common).map_err(|_| no_loop(common))?;
        let scalar = binary_scalar(op, loop_dtype).ok_or_else(|| no_loop(loop_dtype))?;
        let mut x = self.cast(b, x, x_dtype, loop_dtype)?;
        let mut y = self.cast(b, y, y_dtype, loop_dtype)?;
        // A float16 loop computes in float32 and rounds its float results back.
        let half = loop_dtype == DType::Float16;
        let loop_dtype = if half {
            x = float16::widen(b, x);
            y = float16::widen(b, y);
            DType::Float32
        } else {
            loop_dtype
        };
        let float = loop_dtype.is_float();
        let value = match scalar {
            S::Compare(comparison) => compare(b, comparison, x, y, loop_dtype),
            S::Logical(logic) => {
                let x = self.truthy(b, x, loop_dtype);
                let y = self.truthy(b, y, loop_dtype);
                bits(b, logic, x, y)
            }
            S::Bits(logic) => bits(b, logic, x, y),
            S::Add if float => b.ins().fadd(x, y),
            S::Add => b.ins().iadd(x, y),
            S::Subtract if float => b.ins().fsub(x, y),
            S::Subtract => b.ins().isub(x, y),
            S::Multiply if float => b.ins().fmul(x, y),
            S::Multiply => b.ins().imul(x, y),
            S::Divide => b.ins().fdiv(x, y),
            S::Extremum { max, nan_wins } if float => {
                let cc = if max {
                    FloatCC::GreaterThan
                } else {
                    FloatCC::LessThan
                };
                // x is kept when it wins, or when the NaN that decides is x's
                // (maximum: x is NaN; fmax: y is NaN).
                let nan_side = if nan_wins { x } else { y };
                let is_nan = b.ins().fcmp(FloatCC::Unordered, nan_side, nan_side);
                let wins = b.ins().fcmp(cc, x, y);
                let keep_x = b.ins().bor(is_nan, wins);
                b.ins().select(keep_x, x, y)
            }
            S::Extremum { max, .. } => int_extremum(b, max, x, y, loop_dtype),
            S::Function(function) => {
                let ext = binary_extern(function, loop_dtype).ok_or_else(|| no_loop(loop_dtype))?;
                self.call(b, ext, &[x, y])?
            }
        };
        Ok(match scalar {
            S::Compare(_) | S::Logical(_) | S::Bits(_) => value,
            _ if half => float16::narrow(b, value),
            _ => value,
        })
    }
}

/// A comparison of two values of `dtype`, as a 0/1 byte (bool compares unsigned).
fn compare(
    b: &mut FunctionBuilder<'_>,
    comparison: Comparison,
    x: Value,
    y: Value,
    dtype: DType,
) -> Value {
    use Comparison::*;
    let (float_cc, int_cc, unsigned_cc) = match comparison {
        Equal => (FloatCC::Equal, IntCC::Equal, IntCC::Equal),
        NotEqual => (FloatCC::NotEqual, IntCC::NotEqual, IntCC::NotEqual),
        Less => (
            FloatCC::LessThan,
            IntCC::SignedLessThan,
            IntCC::UnsignedLessThan,
        ),
        LessEqual => (
            FloatCC::LessThanOrEqual,
            IntCC::SignedLessThanOrEqual,
            IntCC::UnsignedLessThanOrEqual,
        ),
        Greater => (
            FloatCC::GreaterThan,
            IntCC::SignedGreaterThan,
            IntCC::UnsignedGreaterThan,
        ),
        GreaterEqual => (
            FloatCC::GreaterThanOrEqual,
            IntCC::SignedGreaterThanOrEqual,
            IntCC::UnsignedGreaterThanOrEqual,
        ),
    };
    match dtype {
        DType::Float32 | DType::Float64 => b.ins().fcmp(float_cc, x, y),
        DType::Bool => b.ins().icmp(unsigned_cc, x, y),
        unsigned if unsigned.is_unsigned() => b.ins().icmp(unsigned_cc, x, y),
        _ => b.ins().icmp(int_cc, x, y),
    }
}

/// An integer `value` of `from`'s width as `to`'s: sign- or zero-extended by `from`'s
/// signedness, or cut to the low bits (C's conversions between integers).
pub fn resize_int(b: &mut FunctionBuilder<'_>, value: Value, from: DType, to: DType) -> Value {
    let (from_bytes, to_bytes) = (from.itemsize(), to.itemsize());
    if from_bytes == to_bytes {
        value
    } else if from_bytes > to_bytes {
        b.ins().ireduce(scalar_type(to), value)
    } else if from.is_signed_int() {
        b.ins().sextend(scalar_type(to), value)
    } else {
        b.ins().uextend(scalar_type(to), value)
    }
}

/// The larger (`max`) or smaller of two integers of `dtype`.
pub fn int_extremum(
    b: &mut FunctionBuilder<'_>,
    max: bool,
    x: Value,
    y: Value,
    dtype: DType,
) -> Value {
    match (dtype, max) {
        (DType::Int32 | DType::Int64, true) => b.ins().smax(x, y),
        (DType::Int32 | DType::Int64, false) => b.ins().smin(x, y),
        _ => {
            let cc = match (dtype.is_unsigned(), max) {
                (true, true) => IntCC::UnsignedGreaterThan,
                (true, false) => IntCC::UnsignedLessThan,
                (false, true) => IntCC::SignedGreaterThan,
                (false, false) => IntCC::SignedLessThan,
            };
            let keep_x = b.ins().icmp(cc, x, y);
            b.ins().select(keep_x, x, y)
        }
    }
}

/// A bitwise logic function of two integers (or 0/1 bytes).
fn bits(b: &mut FunctionBuilder<'_>, logic: Logic, x: Value, y: Value) -> Value {
    match logic {
        Logic::And => b.ins().band(x, y),
        Logic::Or => b.ins().bor(x, y),
        Logic::Xor => b.ins().bxor(x, y),
    }
}

/// The float and integer unary ops that SIMD lanes support directly.
pub fn unary_is_vector_friendly(op: UnaryOp, dtype: DType) -> bool {
    use UnaryOp::*;
    if dtype.is_float() {
        matches!(
            op,
            Negative | Positive | Absolute | Sqrt | Square | Floor | Ceil | Trunc | Rint
        )
    } else {
        dtype == DType::Int64 && matches!(op, Positive | Floor | Ceil | Trunc | Invert)
    }
}

/// The binary ops that SIMD lanes support directly (operands already of `dtype`).
pub fn binary_is_vector_friendly(op: BinaryOp, dtype: DType) -> bool {
    use BinaryOp::*;
    if dtype.is_float() {
        matches!(op, Add | Subtract | Multiply | Divide)
    } else {
        dtype == DType::Int64 && matches!(op, Add | Subtract | BitwiseAnd | BitwiseOr | BitwiseXor)
    }
}

pub(super) fn add(b: &mut FunctionBuilder<'_>, dtype: DType, x: Value, y: Value) -> Value {
    if dtype.is_float() {
        b.ins().fadd(x, y)
    } else {
        b.ins().iadd(x, y)
    }
}

/// Whether a max (`largest`) or min fold keeps `acc` rather than taking `value`, as
/// the interpreter's `Direction::replaces` (NumPy's `maximum`) decides: `acc` stays
/// when it is a NaN or strictly larger (smaller); otherwise `value` replaces it, so a
/// NaN value replaces a number and an equal value (the other signed zero) replaces
/// `acc`. Works on scalars and, lane by lane, on vectors.
pub(super) fn float_keeps(
    b: &mut FunctionBuilder<'_>,
    largest: bool,
    acc: Value,
    value: Value,
) -> Value {
    let cc = if largest {
        FloatCC::GreaterThan
    } else {
        FloatCC::LessThan
    };
    let acc_nan = b.ins().fcmp(FloatCC::Unordered, acc, acc);
    let better = b.ins().fcmp(cc, acc, value);
    b.ins().bor(acc_nan, better)
}
