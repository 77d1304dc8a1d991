//! float16 in compiled code: a float16 value lives as its 16 bits (an `i16`), is
//! widened to float32 exactly to be computed on, and every float32 result whose NumPy
//! dtype is float16 is rounded back to nearest even, as NumPy's float16 loops (and the
//! interpreter's `widen_f16`/`narrow_to_f16`) do after each op. Cranelift 0.135 has no
//! float16 `fpromote`/`fdemote` on x86-64, so both conversions are branch-free integer
//! (and one float add) sequences, bit-identical to `half`'s conversions (its F16C
//! instructions and its software fallback agree), NaN payloads included. Being
//! branch-free, the same sequences run on four lanes at once (`i32x4`/`f32x4`) in the
//! SIMD loop, where a float16 node's lanes hold its float32 value (see [`round_lanes`]).

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, Endianness, InstBuilder, MemFlagsData, Type, Value};
use cranelift_frontend::FunctionBuilder;

/// float16 bits (an `i16`) to the float32 of the same value: exact, a NaN quieted with
/// its payload kept (`half::f16::to_f32`).
pub fn widen(b: &mut FunctionBuilder<'_>, bits: Value) -> Value {
    let h = b.ins().uextend(types::I32, bits);
    widen_bits(b, h)
}

/// A float32 rounded to float16 bits (an `i16`), to nearest even; overflow gives ±inf,
/// a NaN the quiet NaN with the payload's top bits (`half::f16::from_f32`).
pub fn narrow(b: &mut FunctionBuilder<'_>, value: Value) -> Value {
    let bits = narrow_bits(b, value);
    b.ins().ireduce(types::I16, bits)
}

/// Four float16s at `address` as an `f32x4` of their values.
pub fn load_lanes(b: &mut FunctionBuilder<'_>, flags: MemFlagsData, address: Value) -> Value {
    let h = b.ins().uload16x4(flags, address, 0);
    widen_bits(b, h)
}

/// An `f32x4` rounded to float16 and stored as four float16s at `address`.
pub fn store_lanes(b: &mut FunctionBuilder<'_>, flags: MemFlagsData, value: Value, address: Value) {
    let bits = narrow_bits(b, value);
    // Every lane is in 0..=0xffff, so the saturating pack keeps it.
    let packed = b.ins().unarrow(bits, bits);
    let little = MemFlagsData::new().with_endianness(Endianness::Little);
    let packed = b.ins().bitcast(types::I64X2, little, packed);
    let low = b.ins().extractlane(packed, 0);
    b.ins().store(flags, low, address, 0);
}

/// `f32x4` lanes rounded to float16 precision (and range): the float32 values of the
/// float16s NumPy's loop would store, which the next op reads.
pub fn round_lanes(b: &mut FunctionBuilder<'_>, value: Value) -> Value {
    let bits = narrow_bits(b, value);
    widen_bits(b, bits)
}

/// `value` as an `i32` of its type's lane shape (a scalar, or splat over the lanes).
fn int_const(b: &mut FunctionBuilder<'_>, ty: Type, value: i64) -> Value {
    let scalar = b.ins().iconst(types::I32, value);
    if ty.is_vector() {
        b.ins().splat(ty, scalar)
    } else {
        scalar
    }
}

fn float_const(b: &mut FunctionBuilder<'_>, ty: Type, value: f32) -> Value {
    let scalar = b.ins().f32const(value);
    if ty.is_vector() {
        b.ins().splat(ty, scalar)
    } else {
        scalar
    }
}

/// `if mask { x } else { y }` for a scalar bool or lane masks.
fn choose(b: &mut FunctionBuilder<'_>, mask: Value, x: Value, y: Value) -> Value {
    if b.func.dfg.value_type(x).is_vector() {
        b.ins().bitselect(mask, x, y)
    } else {
        b.ins().select(mask, x, y)
    }
}

fn float_type(int: Type) -> Type {
    if int.is_vector() {
        types::F32X4
    } else {
        types::F32
    }
}

fn int_type(float: Type) -> Type {
    if float.is_vector() {
        types::I32X4
    } else {
        types::I32
    }
}

/// float16 bits in the low half of an `i32` (or of each `i32x4` lane) to the float32
/// value(s).
fn widen_bits(b: &mut FunctionBuilder<'_>, h: Value) -> Value {
    let ty = b.func.dfg.value_type(h);
    let (sixteen, thirteen) = (
        b.ins().iconst(types::I32, 16),
        b.ins().iconst(types::I32, 13),
    );
    let sign_mask = int_const(b, ty, 0x8000);
    let sign = b.ins().band(h, sign_mask);
    let sign = b.ins().ishl(sign, sixteen);
    let magnitude_mask = int_const(b, ty, 0x7fff);
    let magnitude = b.ins().band(h, magnitude_mask);
    let shifted = b.ins().ishl(magnitude, thirteen);
    // Normal numbers: the exponent rebiased from 15 to 127.
    let rebias = int_const(b, ty, (127 - 15) << 23);
    let normal = b.ins().iadd(shifted, rebias);
    // Infinities and NaNs: all exponent bits set, a NaN's quiet bit too.
    let exponent = int_const(b, ty, 0x7f80_0000);
    let special = b.ins().bor(shifted, exponent);
    let infinity = int_const(b, ty, 0x7c00);
    let is_nan = b
        .ins()
        .icmp(IntCC::UnsignedGreaterThan, magnitude, infinity);
    let quiet_bit = int_const(b, ty, 0x0040_0000);
    let zero = int_const(b, ty, 0);
    let quiet = choose(b, is_nan, quiet_bit, zero);
    let special = b.ins().bor(special, quiet);
    // Zeros and subnormals: magnitude * 2^-24, exact in float32.
    let count = b.ins().fcvt_from_sint(float_type(ty), magnitude);
    let unit = float_const(b, float_type(ty), 2f32.powi(-24));
    let small = b.ins().fmul(count, unit);
    let small = b.ins().bitcast(ty, MemFlagsData::new(), small);
    let is_special = b
        .ins()
        .icmp(IntCC::UnsignedGreaterThanOrEqual, magnitude, infinity);
    let smallest_normal = int_const(b, ty, 0x0400);
    let is_small = b
        .ins()
        .icmp(IntCC::UnsignedLessThan, magnitude, smallest_normal);
    let wide = choose(b, is_special, special, normal);
    let wide = choose(b, is_small, small, wide);
    let wide = b.ins().bor(wide, sign);
    b.ins().bitcast(float_type(ty), MemFlagsData::new(), wide)
}

/// A float32 (or `f32x4`) rounded to float16 bits, in the low half of an `i32` (of
/// each lane).
fn narrow_bits(b: &mut FunctionBuilder<'_>, value: Value) -> Value {
    let ty = int_type(b.func.dfg.value_type(value));
    let x = b.ins().bitcast(ty, MemFlagsData::new(), value);
    let (thirteen, sixteen) = (
        b.ins().iconst(types::I32, 13),
        b.ins().iconst(types::I32, 16),
    );
    let magnitude_mask = int_const(b, ty, 0x7fff_ffff);
    let magnitude = b.ins().band(x, magnitude_mask);
    let sign = b.ins().bxor(x, magnitude);
    let sign = b.ins().ushr(sign, sixteen);
    // |x| >= 2^16 (or inf, NaN): ±inf, or a NaN keeping its payload's top 10 bits.
    let top = b.ins().ushr(magnitude, thirteen);
    let payload_mask = int_const(b, ty, 0x3ff);
    let payload = b.ins().band(top, payload_mask);
    let quiet_nan = int_const(b, ty, 0x7e00);
    let nan = b.ins().bor(payload, quiet_nan);
    let inf = int_const(b, ty, 0x7c00);
    let exponent = int_const(b, ty, 0x7f80_0000);
    let is_nan = b
        .ins()
        .icmp(IntCC::UnsignedGreaterThan, magnitude, exponent);
    let huge = choose(b, is_nan, nan, inf);
    // Below float16's smallest normal: adding 0.5 (whose ulp is 2^-24, float16's
    // subnormal step) rounds to nearest even, leaving the float16 bits at the bottom.
    let absolute = b
        .ins()
        .bitcast(float_type(ty), MemFlagsData::new(), magnitude);
    let half = float_const(b, float_type(ty), 0.5);
    let aligned = b.ins().fadd(absolute, half);
    let aligned = b.ins().bitcast(ty, MemFlagsData::new(), aligned);
    let half_bits = int_const(b, ty, 0x3f00_0000);
    let small = b.ins().isub(aligned, half_bits);
    // Normal: rebias the exponent and round the 13 dropped bits to nearest even (a
    // carry may reach the exponent, up to inf).
    let one = int_const(b, ty, 1);
    let odd = b.ins().band(top, one);
    let rebias = int_const(b, ty, ((15 - 127) << 23) + 0xfff);
    let biased = b.ins().iadd(magnitude, rebias);
    let biased = b.ins().iadd(biased, odd);
    let normal = b.ins().ushr(biased, thirteen);
    let smallest_normal = int_const(b, ty, 113 << 23);
    let is_small = b
        .ins()
        .icmp(IntCC::UnsignedLessThan, magnitude, smallest_normal);
    let overflow = int_const(b, ty, 143 << 23);
    let is_huge = b
        .ins()
        .icmp(IntCC::UnsignedGreaterThanOrEqual, magnitude, overflow);
    let bits = choose(b, is_small, small, normal);
    let bits = choose(b, is_huge, huge, bits);
    b.ins().bor(bits, sign)
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
