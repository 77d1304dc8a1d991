//! float16 in compiled code: a float16 value lives as its 16 bits (an `i16`), is
//! widened to float32 exactly to be computed on, and every float32 result whose NumPy
//! dtype is float16 is rounded back to nearest even, as NumPy's float16 loops (and the
//! interpreter's `widen_f16`/`narrow_to_f16`) do after each op. Cranelift 0.135 has no
//! float16 `fpromote`/`fdemote` on x86-64, so both conversions are branch-free integer
//! (and one float add) sequences, bit-identical to `half`'s conversions (its F16C
//! instructions and its software fallback agree), NaN payloads included.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, InstBuilder, MemFlagsData, Value};
use cranelift_frontend::FunctionBuilder;

/// float16 bits (an `i16`) to the float32 of the same value: exact, a NaN quieted with
/// its payload kept (`half::f16::to_f32`).
pub fn widen(b: &mut FunctionBuilder<'_>, bits: Value) -> Value {
    let h = b.ins().uextend(types::I32, bits);
    let sign = b.ins().band_imm_s(h, 0x8000);
    let sign = b.ins().ishl_imm_s(sign, 16);
    let magnitude = b.ins().band_imm_s(h, 0x7fff);
    let shifted = b.ins().ishl_imm_s(magnitude, 13);
    // Normal numbers: the exponent rebiased from 15 to 127.
    let normal = b.ins().iadd_imm_s(shifted, (127 - 15) << 23);
    // Infinities and NaNs: all exponent bits set, a NaN's quiet bit too.
    let special = b.ins().bor_imm_s(shifted, 0x7f80_0000);
    let is_nan = b
        .ins()
        .icmp_imm_s(IntCC::UnsignedGreaterThan, magnitude, 0x7c00);
    let quiet = b.ins().uextend(types::I32, is_nan);
    let quiet = b.ins().ishl_imm_s(quiet, 22);
    let special = b.ins().bor(special, quiet);
    // Zeros and subnormals: magnitude * 2^-24, exact in float32.
    let count = b.ins().fcvt_from_sint(types::F32, magnitude);
    let unit = b.ins().f32const(2f32.powi(-24));
    let small = b.ins().fmul(count, unit);
    let small = b.ins().bitcast(types::I32, MemFlagsData::new(), small);
    let is_special = b
        .ins()
        .icmp_imm_s(IntCC::UnsignedGreaterThanOrEqual, magnitude, 0x7c00);
    let is_small = b
        .ins()
        .icmp_imm_s(IntCC::UnsignedLessThan, magnitude, 0x0400);
    let wide = b.ins().select(is_special, special, normal);
    let wide = b.ins().select(is_small, small, wide);
    let wide = b.ins().bor(wide, sign);
    b.ins().bitcast(types::F32, MemFlagsData::new(), wide)
}

/// A float32 rounded to float16 bits (an `i16`), to nearest even; overflow gives ±inf,
/// a NaN the quiet NaN with the payload's top bits (`half::f16::from_f32`).
pub fn narrow(b: &mut FunctionBuilder<'_>, value: Value) -> Value {
    let x = b.ins().bitcast(types::I32, MemFlagsData::new(), value);
    let magnitude = b.ins().band_imm_s(x, 0x7fff_ffff);
    let sign = b.ins().ushr_imm_s(x, 31);
    let sign = b.ins().ishl_imm_s(sign, 15);
    // |x| >= 2^16 (or inf, NaN): ±inf, or a NaN keeping its payload's top 10 bits.
    let top = b.ins().ushr_imm_s(magnitude, 13);
    let payload = b.ins().band_imm_s(top, 0x3ff);
    let nan = b.ins().bor_imm_s(payload, 0x7e00);
    let inf = b.ins().iconst(types::I32, 0x7c00);
    let is_nan = b
        .ins()
        .icmp_imm_s(IntCC::UnsignedGreaterThan, magnitude, 0x7f80_0000);
    let huge = b.ins().select(is_nan, nan, inf);
    // Below float16's smallest normal: adding 0.5 (whose ulp is 2^-24, float16's
    // subnormal step) rounds to nearest even, leaving the float16 bits at the bottom.
    let absolute = b.ins().bitcast(types::F32, MemFlagsData::new(), magnitude);
    let half = b.ins().f32const(0.5);
    let aligned = b.ins().fadd(absolute, half);
    let aligned = b.ins().bitcast(types::I32, MemFlagsData::new(), aligned);
    let small = b.ins().iadd_imm_s(aligned, -0x3f00_0000);
    // Normal: rebias the exponent and round the 13 dropped bits to nearest even (a
    // carry may reach the exponent, up to inf).
    let odd = b.ins().band_imm_s(top, 1);
    let biased = b.ins().iadd_imm_s(magnitude, ((15 - 127) << 23) + 0xfff);
    let biased = b.ins().iadd(biased, odd);
    let normal = b.ins().ushr_imm_s(biased, 13);
    let is_small = b
        .ins()
        .icmp_imm_s(IntCC::UnsignedLessThan, magnitude, 113 << 23);
    let is_huge = b
        .ins()
        .icmp_imm_s(IntCC::UnsignedGreaterThanOrEqual, magnitude, 143 << 23);
    let bits = b.ins().select(is_small, small, normal);
    let bits = b.ins().select(is_huge, huge, bits);
    let bits = b.ins().bor(bits, sign);
    b.ins().ireduce(types::I16, bits)
}

/// A float64 rounded once to float16 bits, as `kernels::f64_to_f16`: to float32
/// rounding to odd (which keeps the bits that decide the float16 rounding), then
/// [`narrow`].
pub fn narrow_f64(b: &mut FunctionBuilder<'_>, value: Value) -> Value {
    use cranelift_codegen::ir::condcodes::FloatCC;
    let near = b.ins().fdemote(types::F32, value);
    let back = b.ins().fpromote(types::F64, near);
    let exact = b.ins().fcmp(FloatCC::Equal, back, value);
    let near_magnitude = b.ins().fabs(near);
    let inf = b.ins().f32const(f32::INFINITY);
    let finite = b.ins().fcmp(FloatCC::LessThan, near_magnitude, inf);
    let back_magnitude = b.ins().fabs(back);
    let magnitude = b.ins().fabs(value);
    let above = b
        .ins()
        .fcmp(FloatCC::GreaterThan, back_magnitude, magnitude);
    let near_bits = b.ins().bitcast(types::I32, MemFlagsData::new(), near);
    let above = b.ins().uextend(types::I32, above);
    let toward_zero = b.ins().isub(near_bits, above);
    let odd = b.ins().bor_imm_s(toward_zero, 1);
    let not_finite = b.ins().bxor_imm_s(finite, 1);
    let keep = b.ins().bor(exact, not_finite);
    let bits = b.ins().select(keep, near_bits, odd);
    let single = b.ins().bitcast(types::F32, MemFlagsData::new(), bits);
    narrow(b, single)
}
