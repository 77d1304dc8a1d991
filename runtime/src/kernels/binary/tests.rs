//! Property test: `binary` agrees with a slow scalar reference (explicit broadcast
//! index arithmetic, `cast_scalar`, and i128 integer arithmetic) for every operation
//! and every pair of input dtypes, on small random arrays of any memory layout.

use super::*;
use crate::scalar::cast_scalar;
use crate::scalar::Scalar;
use ndarray::IxDyn;
use proptest::prelude::*;

/// `floor(a / b)` for b != 0, computed exactly.
fn floor_div_exact(a: i128, b: i128) -> i128 {
    if b > 0 {
        a.div_euclid(b)
    } else {
        (-a).div_euclid(-b)
    }
}

/// `value` reduced to a `bits`-bit two's complement integer.
fn wrap(value: i128, bits: u32) -> i128 {
    if bits == 32 {
        value as i32 as i128
    } else {
        value as i64 as i128
    }
}

/// `base ** exponent` modulo 2^bits; `exponent` is split so `wrapping_pow` can take it.
fn wrapping_power(base: i128, exponent: i128, bits: u32) -> i128 {
    if bits == 32 {
        return (base as i32).wrapping_pow(exponent as u32) as i128;
    }
    let base = base as i64;
    let (high, low) = ((exponent >> 31) as u32, (exponent & 0x7fff_ffff) as u32);
    let high_part = base.wrapping_pow(1 << 31).wrapping_pow(high);
    high_part.wrapping_mul(base.wrapping_pow(low)) as i128
}

fn int_reference(op: BinaryOp, a: i128, b: i128, bits: u32) -> Result<i128, String> {
    use BinaryOp::*;
    Ok(wrap(
        match op {
            Add => a + b,
            Subtract => a - b,
            Multiply => a * b,
            FloorDivide if b == 0 => 0,
            FloorDivide => floor_div_exact(a, b),
            Remainder if b == 0 => 0,
            Remainder => a - b * floor_div_exact(a, b),
            Power if b < 0 => {
                return Err("Integers to negative integer powers are not allowed.".into())
            }
            Power => wrapping_power(a, b, bits),
            Maximum | Fmax => a.max(b),
            Minimum | Fmin => a.min(b),
            BitwiseAnd => a & b,
            BitwiseOr => a | b,
            BitwiseXor => a ^ b,
            _ => return Err(format!("no int loop for {}", op.name())),
        },
        bits,
    ))
}

fn float_reference<F: Float>(op: BinaryOp, a: F, b: F) -> Result<F, String> {
    use crate::kernels::scalar_semantics as sem;
    use BinaryOp::*;
    Ok(match op {
        Add => a + b,
        Subtract => a - b,
        Multiply => a * b,
        Divide => a / b,
        FloorDivide => sem::float_floor_divide(a, b),
        Remainder => sem::float_remainder(a, b),
        Power => a.powf(b),
        Maximum => sem::float_maximum(a, b),
        Minimum => sem::float_minimum(a, b),
        Fmax => sem::float_fmax(a, b),
        Fmin => sem::float_fmin(a, b),
        Arctan2 => a.atan2(b),
        Hypot => a.hypot(b),
        _ => return Err(format!("no float loop for {}", op.name())),
    })
}

fn bool_reference(op: BinaryOp, a: bool, b: bool) -> Result<bool, String> {
    use BinaryOp::*;
    match op {
        Add | Maximum | Fmax | BitwiseOr => Ok(a || b),
        Multiply | Minimum | Fmin | BitwiseAnd => Ok(a && b),
        BitwiseXor => Ok(a != b),
        _ => Err(format!("no bool loop for {}", op.name())),
    }
}

fn predicate_reference<T: Element>(op: BinaryOp, a: T, b: T) -> Option<bool> {
    use BinaryOp::*;
    Some(match op {
        Equal => a == b,
        NotEqual => a != b,
        Less => a < b,
        LessEqual => a <= b,
        Greater => a > b,
        GreaterEqual => a >= b,
        LogicalAnd => a.is_truthy() && b.is_truthy(),
        LogicalOr => a.is_truthy() || b.is_truthy(),
        LogicalXor => a.is_truthy() != b.is_truthy(),
        _ => return None,
    })
}

/// One element of `np.<op>(a, b)` for operands already in the loop dtype.
fn scalar_reference(op: BinaryOp, a: Scalar, b: Scalar) -> Result<Scalar, String> {
    macro_rules! predicate_or {
        ($x:expr, $y:expr, $arith:expr) => {
            match predicate_reference(op, $x, $y) {
                Some(result) => Ok(Scalar::Bool(result)),
                None => $arith,
            }
        };
    }
    match (a, b) {
        (Scalar::Bool(x), Scalar::Bool(y)) => {
            predicate_or!(x, y, bool_reference(op, x, y).map(Scalar::Bool))
        }
        (Scalar::Int32(x), Scalar::Int32(y)) => predicate_or!(
            x,
            y,
            int_reference(op, x.into(), y.into(), 32).map(|v| Scalar::Int32(v as i32))
        ),
        (Scalar::Int64(x), Scalar::Int64(y)) => predicate_or!(
            x,
            y,
            int_reference(op, x.into(), y.into(), 64).map(|v| Scalar::Int64(v as i64))
        ),
        (Scalar::Float32(x), Scalar::Float32(y)) => {
            predicate_or!(x, y, float_reference(op, x, y).map(Scalar::Float32))
        }
        (Scalar::Float64(x), Scalar::Float64(y)) => {
            predicate_or!(x, y, float_reference(op, x, y).map(Scalar::Float64))
        }
        _ => Err("operands of different dtypes".into()),
    }
}

/// The C-order flat index into an operand of shape `operand` for the output position
/// `position` (of the broadcast shape), by NumPy's rules.
fn broadcast_source_index(position: &[usize], operand: &[usize]) -> usize {
    let skipped = position.len() - operand.len();
    operand.iter().enumerate().fold(0, |flat, (d, &len)| {
        let i = if len == 1 { 0 } else { position[skipped + d] };
        flat * len + i
    })
}

fn unravel(mut flat: usize, shape: &[usize]) -> Vec<usize> {
    let mut position = vec![0; shape.len()];
    for d in (0..shape.len()).rev() {
        position[d] = flat % shape[d];
        flat /= shape[d];
    }
    position
}

/// The whole of `np.<op>(a, b)` element by element: (shape, C-order values).
fn reference(
    op: BinaryOp,
    common: DType,
    a: &ArrayData,
    b: &ArrayData,
) -> Result<(Vec<usize>, Vec<Scalar>), String> {
    let loop_dtype = op.loop_dtype(common).map_err(|e| format!("{e:?}"))?;
    let shape = broadcast_shape(a.shape(), b.shape()).ok_or("shapes do not broadcast")?;
    let len: usize = shape.iter().product();
    let mut values = Vec::with_capacity(len);
    for flat in 0..len {
        let position = unravel(flat, &shape);
        let element = |x: &ArrayData| {
            let index = broadcast_source_index(&position, x.shape());
            x.get_flat(index)
                .map(|v| cast_scalar(v, loop_dtype))
                .ok_or("index out of range")
        };
        values.push(scalar_reference(op, element(a)?, element(b)?)?);
    }
    Ok((shape, values))
}

fn scalars(x: &ArrayData) -> Vec<Scalar> {
    (0..x.len()).filter_map(|i| x.get_flat(i)).collect()
}

/// Equal values, with NaN equal to NaN and `-0.0` different from `0.0`.
fn same_scalar(a: Scalar, b: Scalar) -> bool {
    match (a, b) {
        (Scalar::Float32(x), Scalar::Float32(y)) => {
            x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan())
        }
        (Scalar::Float64(x), Scalar::Float64(y)) => {
            x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan())
        }
        (x, y) => x == y,
    }
}

fn element_strategy(dtype: DType) -> BoxedStrategy<Scalar> {
    let special_floats = prop::sample::select(vec![
        0.0,
        -0.0,
        0.5,
        -7.5,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::MIN_POSITIVE,
        1e300,
    ]);
    match dtype {
        DType::Bool => any::<bool>().prop_map(Scalar::Bool).boxed(),
        DType::Int32 => prop_oneof![
            -12i32..12,
            any::<i32>(),
            prop::sample::select(vec![i32::MIN, i32::MAX, 0, -1]),
        ]
        .prop_map(Scalar::Int32)
        .boxed(),
        DType::Int64 => prop_oneof![
            -12i64..12,
            any::<i64>(),
            prop::sample::select(vec![i64::MIN, i64::MAX, 0, -1]),
        ]
        .prop_map(Scalar::Int64)
        .boxed(),
        DType::Float32 => prop_oneof![
            (-12i32..12).prop_map(|v| v as f32),
            -20.0f32..20.0,
            any::<f32>(),
            special_floats.prop_map(|v| v as f32),
        ]
        .prop_map(Scalar::Float32)
        .boxed(),
        DType::Float64 => prop_oneof![
            (-12i32..12).prop_map(f64::from),
            -20.0f64..20.0,
            any::<f64>(),
            special_floats,
        ]
        .prop_map(Scalar::Float64)
        .boxed(),
        other => any::<i64>()
            .prop_map(move |v| Scalar::Int64(v).cast(other))
            .boxed(),
    }
}

/// An array of `shape`, stored in C order or (when `fortran`) in Fortran order, so
/// kernels see non-contiguous-in-C layouts too.
fn build_array(shape: &[usize], values: Vec<Scalar>, dtype: DType, fortran: bool) -> ArrayData {
    fn typed<T: Element>(shape: &[usize], values: Vec<T>, fortran: bool) -> ArrayData {
        let array = if fortran {
            let reversed: Vec<usize> = shape.iter().rev().copied().collect();
            ArrayD::from_shape_vec(IxDyn(&reversed), values)
                .expect("value count matches")
                .reversed_axes()
        } else {
            ArrayD::from_shape_vec(IxDyn(shape), values).expect("value count matches")
        };
        T::into_data(array)
    }
    let cast = |v: &Scalar| cast_scalar(*v, dtype);
    macro_rules! pick {
        ($variant:ident) => {
            typed(
                shape,
                values
                    .iter()
                    .map(|v| match cast(v) {
                        Scalar::$variant(x) => x,
                        _ => unreachable!("cast_scalar gives the requested dtype"),
                    })
                    .collect(),
                fortran,
            )
        };
    }
    match dtype {
        DType::Bool => pick!(Bool),
        DType::Int32 => pick!(Int32),
        DType::Int64 => pick!(Int64),
        DType::Float32 => pick!(Float32),
        DType::Float64 => pick!(Float64),
        DType::Int8 => pick!(Int8),
        DType::Int16 => pick!(Int16),
        DType::UInt8 => pick!(UInt8),
        DType::UInt16 => pick!(UInt16),
        DType::UInt32 => pick!(UInt32),
        DType::UInt64 => pick!(UInt64),
        DType::Float16 => pick!(Float16),
        DType::Complex64 => pick!(Complex64),
        DType::Complex128 => pick!(Complex128),
    }
}

/// An operand shape derived from the output shape: some axes set to 1, some leading
/// axes dropped.
fn operand_shape(base: &[usize], ones: &[bool], dropped: usize) -> Vec<usize> {
    base.iter()
        .zip(ones)
        .skip(dropped.min(base.len()))
        .map(|(&len, &one)| if one { 1 } else { len })
        .collect()
}

fn operand_strategy(base: Vec<usize>) -> impl Strategy<Value = ArrayData> {
    (
        // The version 1 dtypes, whose promotion is their order (`common` below).
        prop::sample::select(DType::V1.to_vec()),
        prop::collection::vec(any::<bool>(), base.len()),
        0..=base.len(),
        any::<bool>(),
    )
        .prop_flat_map(move |(dtype, ones, dropped, fortran)| {
            let shape = operand_shape(&base, &ones, dropped);
            let len: usize = shape.iter().product();
            prop::collection::vec(element_strategy(dtype), len)
                .prop_map(move |values| build_array(&shape, values, dtype, fortran))
        })
}

fn operands() -> impl Strategy<Value = (ArrayData, ArrayData)> {
    prop::collection::vec(prop_oneof![1 => Just(0usize), 6 => 1usize..4], 0..=3)
        .prop_flat_map(|base| (operand_strategy(base.clone()), operand_strategy(base)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn binary_matches_the_scalar_reference_for_every_op((a, b) in operands()) {
        let common = a.dtype().max(b.dtype());
        for &op in BinaryOp::ALL {
            // The reference models the version 1 loops (bool's `//` computes in int8).
            if op.loop_dtype(common).is_ok_and(|d| !DType::V1.contains(&d)) {
                continue;
            }
            let expected = reference(op, common, &a, &b);
            let actual = binary(op, common, &a, &b);
            match (expected, actual) {
                (Ok((shape, values)), Ok(actual)) => {
                    prop_assert_eq!(actual.shape(), &shape[..], "{}", op.name());
                    prop_assert!(
                        crate::with_array!(&actual, x => x.is_standard_layout()),
                        "{} result is not C-contiguous",
                        op.name()
                    );
                    prop_assert_eq!(
                        Ok(actual.dtype()),
                        op.result_dtype(common),
                        "{}",
                        op.name()
                    );
                    let got = scalars(&actual);
                    for (i, (g, e)) in got.iter().zip(&values).enumerate() {
                        prop_assert!(
                            same_scalar(*g, *e),
                            "{}({:?}, {:?}) element {}: {:?} vs reference {:?}",
                            op.name(), a, b, i, g, e
                        );
                    }
                }
                (Err(_), Err(_)) => {}
                (expected, actual) => prop_assert!(
                    false,
                    "{}: reference {:?} but kernel {:?}",
                    op.name(),
                    expected.map(|_| "ok"),
                    actual.map(|_| "ok")
                ),
            }
        }
    }
}
