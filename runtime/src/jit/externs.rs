//! The Rust functions JIT code calls: math functions and the scalar semantics that are
//! more than one instruction (floor division, remainders, integer powers, float to
//! integer casts). Each wraps exactly the function the interpreter kernels use, so
//! JIT results are bit-identical to the interpreter's. An inline polynomial `exp` or
//! `log` would be faster but would differ in the last ulp from Rust's libm calls,
//! which would break the bit-for-bit contract with `--no-jit`; arithmetic, compares,
//! selects, casts between ints and floats, `sqrt` and rounding are inline.

use crate::dtype::DType;
use crate::kernels::scalar_semantics::{
    float_floor_divide, float_remainder, float_sign, int_floor_divide, int_power, int_reciprocal,
    int_remainder, Float,
};
use crate::kernels::{f64_to_i32, f64_to_i64};
use crate::ops::{BinaryOp, UnaryOp};

/// The value types of an extern's parameters and result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExternType {
    F32,
    F64,
    I32,
    I64,
}

/// A Rust function callable from JIT code.
#[derive(Clone, Copy, Debug)]
pub struct Extern {
    pub name: &'static str,
    pub address: usize,
    pub params: &'static [ExternType],
    pub result: ExternType,
}

macro_rules! unary_float_externs {
    ($($op:ident => $method:ident),* $(,)?) => {
        mod unary_f64 {
            use super::Float;
            $(pub extern "C" fn $method(x: f64) -> f64 { <f64 as Float>::$method(x) })*
        }
        mod unary_f32 {
            use super::Float;
            $(pub extern "C" fn $method(x: f32) -> f32 { <f32 as Float>::$method(x) })*
        }

        /// The extern computing `op` on floats of `dtype`, if it is a call.
        fn unary_float_extern(op: UnaryOp, dtype: DType) -> Option<Extern> {
            match (op, dtype) {
                $(
                    (UnaryOp::$op, DType::Float64) => Some(Extern {
                        name: concat!("marsc_", stringify!($method), "_f64"),
                        address: unary_f64::$method as *const () as usize,
                        params: &[ExternType::F64],
                        result: ExternType::F64,
                    }),
                    (UnaryOp::$op, DType::Float32) => Some(Extern {
                        name: concat!("marsc_", stringify!($method), "_f32"),
                        address: unary_f32::$method as *const () as usize,
                        params: &[ExternType::F32],
                        result: ExternType::F32,
                    }),
                )*
                _ => None,
            }
        }
    };
}

unary_float_externs!(
    Exp => exp, Expm1 => exp_m1, Log => ln, Log1p => ln_1p, Log2 => log2, Log10 => log10,
    Sin => sin, Cos => cos, Tan => tan, Arcsin => asin, Arccos => acos, Arctan => atan,
    Sinh => sinh, Cosh => cosh, Tanh => tanh,
);

extern "C" fn sign_f64(x: f64) -> f64 {
    float_sign(x)
}
extern "C" fn sign_f32(x: f32) -> f32 {
    float_sign(x)
}
extern "C" fn reciprocal_i32(x: i32) -> i32 {
    int_reciprocal(x)
}
extern "C" fn reciprocal_i64(x: i64) -> i64 {
    int_reciprocal(x)
}

macro_rules! binary_fns {
    ($($name:ident: ($t:ty) => $body:expr),* $(,)?) => {
        $(extern "C" fn $name(a: $t, b: $t) -> $t { ($body)(a, b) })*
    };
}

binary_fns!(
    floor_divide_f64: (f64) => float_floor_divide::<f64>,
    floor_divide_f32: (f32) => float_floor_divide::<f32>,
    remainder_f64: (f64) => float_remainder::<f64>,
    remainder_f32: (f32) => float_remainder::<f32>,
    power_f64: (f64) => <f64 as Float>::powf,
    power_f32: (f32) => <f32 as Float>::powf,
    arctan2_f64: (f64) => <f64 as Float>::atan2,
    arctan2_f32: (f32) => <f32 as Float>::atan2,
    hypot_f64: (f64) => <f64 as Float>::hypot,
    hypot_f32: (f32) => <f32 as Float>::hypot,
    floor_divide_i32: (i32) => int_floor_divide::<i32>,
    floor_divide_i64: (i64) => int_floor_divide::<i64>,
    remainder_i32: (i32) => int_remainder::<i32>,
    remainder_i64: (i64) => int_remainder::<i64>,
    power_i32: (i32) => int_power::<i32>,
    power_i64: (i64) => int_power::<i64>,
);

extern "C" fn f64_to_i32_extern(x: f64) -> i32 {
    f64_to_i32(x)
}
extern "C" fn f64_to_i64_extern(x: f64) -> i64 {
    f64_to_i64(x)
}
extern "C" fn f64_to_u64_extern(x: f64) -> u64 {
    crate::kernels::f64_to_u64(x)
}

fn value_type(dtype: DType) -> Option<ExternType> {
    match dtype {
        DType::Float32 => Some(ExternType::F32),
        DType::Float64 => Some(ExternType::F64),
        DType::Int32 => Some(ExternType::I32),
        DType::Int64 => Some(ExternType::I64),
        _ => None,
    }
}

fn one(name: &'static str, address: usize, dtype: DType) -> Option<Extern> {
    let ty = value_type(dtype)?;
    let params: &'static [ExternType] = match ty {
        ExternType::F32 => &[ExternType::F32],
        ExternType::F64 => &[ExternType::F64],
        ExternType::I32 => &[ExternType::I32],
        ExternType::I64 => &[ExternType::I64],
    };
    Some(Extern {
        name,
        address,
        params,
        result: ty,
    })
}

fn two(name: &'static str, address: usize, dtype: DType) -> Option<Extern> {
    let ty = value_type(dtype)?;
    let params: &'static [ExternType] = match ty {
        ExternType::F32 => &[ExternType::F32, ExternType::F32],
        ExternType::F64 => &[ExternType::F64, ExternType::F64],
        ExternType::I32 => &[ExternType::I32, ExternType::I32],
        ExternType::I64 => &[ExternType::I64, ExternType::I64],
    };
    Some(Extern {
        name,
        address,
        params,
        result: ty,
    })
}

/// The extern for a unary op computing in `dtype`, when the op is a call there.
pub fn unary_extern(op: UnaryOp, dtype: DType) -> Option<Extern> {
    if let Some(found) = unary_float_extern(op, dtype) {
        return Some(found);
    }
    match (op, dtype) {
        (UnaryOp::Sign, DType::Float64) => {
            one("marsc_sign_f64", sign_f64 as *const () as usize, dtype)
        }
        (UnaryOp::Sign, DType::Float32) => {
            one("marsc_sign_f32", sign_f32 as *const () as usize, dtype)
        }
        (UnaryOp::Reciprocal, DType::Int32) => one(
            "marsc_reciprocal_i32",
            reciprocal_i32 as *const () as usize,
            dtype,
        ),
        (UnaryOp::Reciprocal, DType::Int64) => one(
            "marsc_reciprocal_i64",
            reciprocal_i64 as *const () as usize,
            dtype,
        ),
        _ => None,
    }
}

/// The extern for a binary op computing in `dtype`, when the op is a call there.
pub fn binary_extern(op: BinaryOp, dtype: DType) -> Option<Extern> {
    use BinaryOp::*;
    use DType::*;
    let (name, address): (&'static str, usize) = match (op, dtype) {
        (FloorDivide, Float64) => (
            "marsc_floor_divide_f64",
            floor_divide_f64 as *const () as usize,
        ),
        (FloorDivide, Float32) => (
            "marsc_floor_divide_f32",
            floor_divide_f32 as *const () as usize,
        ),
        (Remainder, Float64) => ("marsc_remainder_f64", remainder_f64 as *const () as usize),
        (Remainder, Float32) => ("marsc_remainder_f32", remainder_f32 as *const () as usize),
        (Power, Float64) => ("marsc_power_f64", power_f64 as *const () as usize),
        (Power, Float32) => ("marsc_power_f32", power_f32 as *const () as usize),
        (Arctan2, Float64) => ("marsc_arctan2_f64", arctan2_f64 as *const () as usize),
        (Arctan2, Float32) => ("marsc_arctan2_f32", arctan2_f32 as *const () as usize),
        (Hypot, Float64) => ("marsc_hypot_f64", hypot_f64 as *const () as usize),
        (Hypot, Float32) => ("marsc_hypot_f32", hypot_f32 as *const () as usize),
        (FloorDivide, Int32) => (
            "marsc_floor_divide_i32",
            floor_divide_i32 as *const () as usize,
        ),
        (FloorDivide, Int64) => (
            "marsc_floor_divide_i64",
            floor_divide_i64 as *const () as usize,
        ),
        (Remainder, Int32) => ("marsc_remainder_i32", remainder_i32 as *const () as usize),
        (Remainder, Int64) => ("marsc_remainder_i64", remainder_i64 as *const () as usize),
        (Power, Int32) => ("marsc_power_i32", power_i32 as *const () as usize),
        (Power, Int64) => ("marsc_power_i64", power_i64 as *const () as usize),
        _ => return None,
    };
    two(name, address, dtype)
}

/// Float64 to an integer dtype with NumPy's x86 semantics (`MIN` for NaN, ±inf and
/// out-of-range values).
pub fn float_to_int_extern(to: DType) -> Option<Extern> {
    let (name, address, result) = match to {
        DType::Int32 => (
            "marsc_f64_to_i32",
            f64_to_i32_extern as *const () as usize,
            ExternType::I32,
        ),
        DType::Int64 => (
            "marsc_f64_to_i64",
            f64_to_i64_extern as *const () as usize,
            ExternType::I64,
        ),
        DType::UInt64 => (
            "marsc_f64_to_u64",
            f64_to_u64_extern as *const () as usize,
            ExternType::I64,
        ),
        _ => return None,
    };
    Some(Extern {
        name,
        address,
        params: &[ExternType::F64],
        result,
    })
}

/// Every extern a kernel may call, for the JIT's symbol lookup.
pub fn all_externs() -> Vec<Extern> {
    let mut all = vec![
        leaf_value_extern(super::call::leaf_value_address()),
        leaf_fill_extern(super::call::leaf_fill_address()),
    ];
    for dtype in DType::ALL {
        all.extend(
            UnaryOp::ALL
                .iter()
                .filter_map(|&op| unary_extern(op, dtype)),
        );
        all.extend(
            BinaryOp::ALL
                .iter()
                .filter_map(|&op| binary_extern(op, dtype)),
        );
        all.extend(float_to_int_extern(dtype));
    }
    all
}

/// The extern that computes an indexed leaf's value bits: `fn(source, index) -> u64`.
pub fn leaf_value_extern(address: usize) -> Extern {
    Extern {
        name: "marsc_leaf_value",
        address,
        params: &[ExternType::I64, ExternType::I64],
        result: ExternType::I64,
    }
}

/// The extern that writes an indexed leaf's block of values:
/// `fn(source, first_index, len, out) -> 0` (see `call::leaf_fill`).
pub fn leaf_fill_extern(address: usize) -> Extern {
    Extern {
        name: "marsc_leaf_fill",
        address,
        params: &[
            ExternType::I64,
            ExternType::I64,
            ExternType::I64,
            ExternType::I64,
        ],
        result: ExternType::I64,
    }
}
