//! The element-type traits that reduction and scan kernels are generic over, so each
//! kernel is written once for every dtype: `Element` (any stored type),
//! `Accumulator` (the int64/uint64/float32/float64 types sums and products are
//! computed in)
//! and `FloatAccumulator` (the types means and variances are computed in), plus
//! NumPy's pairwise summation.

use crate::array::ArrayData;
use crate::complex::{Cx, Part};
use crate::dtype::DType;
use half::f16;
use ndarray::ArrayD;

// One dispatch macro for every kernel family: the element kernels define it.
pub(in crate::kernels) use crate::kernels::element::with_element_type;

/// A type an `ArrayData` can hold.
pub(in crate::kernels) trait Element:
    Copy + PartialOrd + Default + std::fmt::Debug + Send + Sync + 'static
{
    const DTYPE: DType;
    /// What `sum`, `prod`, `cumsum` and `cumprod` compute in (int64 for bool and
    /// signed ints, uint64 for unsigned ones).
    type SumAcc: Accumulator;
    /// What `cumsum` and `cumprod` compute in: `SumAcc`, except float16's, which
    /// NumPy rounds to float16 after every step (each computed in float32).
    type ScanAcc: Accumulator;
    /// What `mean`, `var` and `std` compute in (float64, or float32 for float32 and
    /// float16).
    type MeanAcc: FloatAccumulator;
    /// The sum as NumPy's `sum` computes it, in `SumAcc`.
    fn sum(values: &[Self]) -> Self::SumAcc;
    /// The sum as NumPy's `mean` computes it, in `MeanAcc`.
    fn mean_sum(values: &[Self]) -> Self::MeanAcc;
    /// NumPy's `isnan` (always false for bool and ints).
    fn is_nan(self) -> bool;
    /// Truthiness as `all`/`any`/`count_nonzero` see it (NaN is truthy).
    fn is_nonzero(self) -> bool;
    fn to_f64(self) -> f64;
    /// Exact for bool and ints; only float32 inputs are ever accumulated in float32.
    fn to_f32(self) -> f32;
    /// Exact for bool and ints (wrapping for uint64); floats are never accumulated in
    /// int64.
    fn to_i64(self) -> i64;
    /// Exact for bool and unsigned ints; only those are accumulated in uint64.
    fn to_u64(self) -> u64;
    /// The value as complex128 parts (`(value, 0)` for the real types).
    fn to_c128(self) -> (f64, f64) {
        (self.to_f64(), 0.0)
    }
    fn into_data(array: ArrayD<Self>) -> ArrayData;
    fn from_data(data: &ArrayData) -> Option<&ArrayD<Self>>;
    fn take_data(data: ArrayData) -> Option<ArrayD<Self>>;
}

/// The three `Element` methods that move an array in and out of its `ArrayData`
/// variant, the same for every element type.
macro_rules! data_access {
    ($variant:ident) => {
        fn into_data(array: ArrayD<Self>) -> ArrayData {
            ArrayData::$variant(array)
        }
        fn from_data(data: &ArrayData) -> Option<&ArrayD<Self>> {
            match data {
                ArrayData::$variant(array) => Some(array),
                _ => None,
            }
        }
        fn take_data(data: ArrayData) -> Option<ArrayD<Self>> {
            match data {
                ArrayData::$variant(array) => Some(array),
                _ => None,
            }
        }
    };
}

macro_rules! impl_element {
    (
        $t:ty, $variant:ident, sum: $sum_acc:ty = $sum:ident, mean: $mean_acc:ty = $mean:ident,
        $nan:expr, $nonzero:expr, $f64:expr, $f32:expr, $i64:expr, $u64:expr
    ) => {
        impl_element!(
            $t, $variant, sum: $sum_acc = $sum, scan: $sum_acc, mean: $mean_acc = $mean,
            $nan, $nonzero, $f64, $f32, $i64, $u64
        );
    };
    (
        $t:ty, $variant:ident, sum: $sum_acc:ty = $sum:ident, scan: $scan_acc:ty,
        mean: $mean_acc:ty = $mean:ident,
        $nan:expr, $nonzero:expr, $f64:expr, $f32:expr, $i64:expr, $u64:expr
    ) => {
        impl Element for $t {
            const DTYPE: DType = DType::$variant;
            type SumAcc = $sum_acc;
            type ScanAcc = $scan_acc;
            type MeanAcc = $mean_acc;
            fn sum(values: &[Self]) -> $sum_acc {
                $sum(values)
            }
            fn mean_sum(values: &[Self]) -> $mean_acc {
                $mean(values)
            }
            fn is_nan(self) -> bool {
                ($nan)(self)
            }
            fn is_nonzero(self) -> bool {
                ($nonzero)(self)
            }
            fn to_f64(self) -> f64 {
                ($f64)(self)
            }
            fn to_f32(self) -> f32 {
                ($f32)(self)
            }
            fn to_i64(self) -> i64 {
                ($i64)(self)
            }
            fn to_u64(self) -> u64 {
                ($u64)(self)
            }
            data_access!($variant);
        }
    };
}

impl_element!(
    bool,
    Bool,
    sum: i64 = sum_converted,
    mean: f64 = sum_converted,
    |_| false,
    |v| v,
    |v| u8::from(v) as f64,
    |v| u8::from(v) as f32,
    i64::from,
    u64::from
);
macro_rules! impl_int_element {
    ($t:ty, $variant:ident, $acc:ty, $sum:ident) => {
        impl_element!(
            $t,
            $variant,
            sum: $acc = $sum,
            mean: f64 = sum_converted,
            |_| false,
            |v| v != 0,
            |v| v as f64,
            |v| v as f32,
            |v| v as i64,
            |v| v as u64
        );
    };
}
impl_int_element!(i8, Int8, i64, sum_converted);
impl_int_element!(i16, Int16, i64, sum_converted);
impl_int_element!(i32, Int32, i64, sum_converted);
impl_int_element!(i64, Int64, i64, sum_uncast);
impl_int_element!(u8, UInt8, u64, sum_converted);
impl_int_element!(u16, UInt16, u64, sum_converted);
impl_int_element!(u32, UInt32, u64, sum_converted);
impl_int_element!(u64, UInt64, u64, sum_uncast);
// float16 sums, products and means accumulate in float32 (NumPy's loops convert
// each float16 to float32 and round once at the end of a loop); the result is
// rounded to float16 once, at the tree's root.
impl_element!(
    f16,
    Float16,
    sum: f32 = sum_converted,
    scan: f16,
    mean: f32 = sum_converted,
    |v: f16| v.is_nan(),
    |v| v != f16::ZERO,
    |v: f16| v.to_f64(),
    |v: f16| v.to_f32(),
    |v: f16| v.to_f32() as i64,
    |v: f16| v.to_f32() as u64
);
impl_element!(
    f32,
    Float32,
    sum: f32 = sum_uncast,
    // NumPy's `mean` (and so `var`'s mean) of float32 sums in float32, pairwise.
    mean: f32 = sum_uncast,
    |v: f32| v.is_nan(),
    |v| v != 0.0,
    |v| v as f64,
    |v| v,
    |v| v as i64,
    |v| v as u64
);
impl_element!(
    f64,
    Float64,
    sum: f64 = sum_uncast,
    mean: f64 = sum_uncast,
    |v: f64| v.is_nan(),
    |v| v != 0.0,
    |v| v,
    |v| v as f32,
    |v| v as i64,
    |v| v as u64
);

// complex64 and complex128 sum, average and scan in their own dtype (each part in
// its float, as NumPy's loops); their real-valued conversions read the real part.
macro_rules! impl_complex_element {
    ($part:ty, $variant:ident) => {
        impl Element for Cx<$part> {
            const DTYPE: DType = DType::$variant;
            type SumAcc = Cx<$part>;
            type ScanAcc = Cx<$part>;
            type MeanAcc = Cx<$part>;
            fn sum(values: &[Self]) -> Self {
                Self::sum_run(values)
            }
            fn mean_sum(values: &[Self]) -> Self {
                Self::sum_run(values)
            }
            fn is_nan(self) -> bool {
                Cx::is_nan(self)
            }
            fn is_nonzero(self) -> bool {
                self.is_truthy()
            }
            fn to_f64(self) -> f64 {
                self.re() as f64
            }
            fn to_f32(self) -> f32 {
                self.re() as f32
            }
            fn to_i64(self) -> i64 {
                self.re() as i64
            }
            fn to_u64(self) -> u64 {
                self.re() as u64
            }
            fn to_c128(self) -> (f64, f64) {
                (self.re() as f64, self.im() as f64)
            }
            data_access!($variant);
        }

        impl Accumulator for Cx<$part> {
            const ZERO: Self = Cx(num_complex::Complex::new(0.0, 0.0));
            const ONE: Self = Cx(num_complex::Complex::new(1.0, 0.0));
            fn from_element<E: Element>(value: E) -> Self {
                let (re, im) = value.to_c128();
                Cx::new(re as $part, im as $part)
            }
            fn add(self, other: Self) -> Self {
                self + other
            }
            // NumPy's reduction loops multiply without fused operations.
            fn mul(self, other: Self) -> Self {
                self.mul_plain(other)
            }
            fn sum_run(values: &[Self]) -> Self {
                Self::ZERO + pairwise_sum_complex(values)
            }
        }

        impl FloatAccumulator for Cx<$part> {
            fn from_f64(value: f64) -> Self {
                Cx::new(value as $part, 0.0)
            }
            fn sqrt(self) -> Self {
                Cx::sqrt(self)
            }
            /// NumPy's `true_divide(sum, count)`: a complex128 division by
            /// `count + 0j` (Smith's algorithm, so a product with `1 / count`), cast
            /// back.
            fn div_count(self, count: f64) -> Self {
                let (re, im) = self.to_c128();
                let quotient = Cx::new(re, im) / Cx::new(count, 0.0);
                Cx::new(quotient.re() as $part, quotient.im() as $part)
            }
        }
    };
}
impl_complex_element!(f32, Complex64);
impl_complex_element!(f64, Complex128);

/// NumPy's pairwise summation of complex values (`@TYPE@_pairwise_sum` for CFLOAT and
/// CDOUBLE): the same blocks as [`pairwise_sum`] counted in parts, so four complex
/// lanes, blocks of 64 values, each part summed on its own.
fn pairwise_sum_complex<T: Part>(values: &[Cx<T>]) -> Cx<T> {
    let n = values.len();
    let zero = Cx::new(T::ZERO, T::ZERO);
    if n < 4 {
        values.iter().fold(zero, |acc, &v| acc + v)
    } else if n <= PAIRWISE_BLOCK / 2 {
        let mut lanes = [zero; 4];
        lanes.copy_from_slice(&values[..4]);
        let unrolled_end = n - n % 4;
        for block in values[4..unrolled_end].chunks_exact(4) {
            for (lane, &v) in lanes.iter_mut().zip(block) {
                *lane = *lane + v;
            }
        }
        let [r0, r1, r2, r3] = lanes;
        let head = (r0 + r1) + (r2 + r3);
        values[unrolled_end..].iter().fold(head, |acc, &v| acc + v)
    } else {
        // NumPy halves the count of parts and rounds down to a multiple of 8 parts.
        let half_parts = n;
        let split = (half_parts - half_parts % 8) / 2;
        pairwise_sum_complex(&values[..split]) + pairwise_sum_complex(&values[split..])
    }
}

/// A type sums, products and scans are computed in: int64 or uint64 (wrapping, as
/// NumPy's integer arithmetic does), float32 or float64.
pub(in crate::kernels) trait Accumulator: Element {
    const ZERO: Self;
    const ONE: Self;
    fn from_element<E: Element>(value: E) -> Self;
    fn add(self, other: Self) -> Self;
    fn mul(self, other: Self) -> Self;
    /// The sum of a contiguous run as NumPy computes it (`0 + pairwise(values)` for
    /// floats; integer sums are exact modulo 2^64 in any order).
    fn sum_run(values: &[Self]) -> Self;
}

macro_rules! impl_int_accumulator {
    ($t:ty, $convert:ident) => {
        impl Accumulator for $t {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            fn from_element<E: Element>(value: E) -> Self {
                value.$convert()
            }
            fn add(self, other: Self) -> Self {
                self.wrapping_add(other)
            }
            fn mul(self, other: Self) -> Self {
                self.wrapping_mul(other)
            }
            fn sum_run(values: &[Self]) -> Self {
                values.iter().fold(0, |acc, &v| acc.wrapping_add(v))
            }
        }
    };
}
impl_int_accumulator!(i64, to_i64);
impl_int_accumulator!(u64, to_u64);

macro_rules! impl_float_accumulator {
    ($t:ty, $convert:ident) => {
        impl Accumulator for $t {
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            fn from_element<E: Element>(value: E) -> Self {
                value.$convert()
            }
            fn add(self, other: Self) -> Self {
                self + other
            }
            fn mul(self, other: Self) -> Self {
                self * other
            }
            fn sum_run(values: &[Self]) -> Self {
                0.0 + pairwise_sum(values)
            }
        }

        impl FloatAccumulator for $t {
            fn from_f64(value: f64) -> Self {
                value as $t
            }
            fn sqrt(self) -> Self {
                self.sqrt()
            }
        }
    };
}

/// float16 as `cumsum`/`cumprod` accumulate it: each step computed in float32 and
/// rounded to float16, as NumPy's float16 loops.
impl Accumulator for f16 {
    const ZERO: Self = f16::ZERO;
    const ONE: Self = f16::ONE;
    fn from_element<E: Element>(value: E) -> Self {
        f16::from_f32(value.to_f32())
    }
    fn add(self, other: Self) -> Self {
        f16::from_f32(self.to_f32() + other.to_f32())
    }
    fn mul(self, other: Self) -> Self {
        f16::from_f32(self.to_f32() * other.to_f32())
    }
    fn sum_run(values: &[Self]) -> Self {
        let widened: Vec<f32> = values.iter().map(|v| v.to_f32()).collect();
        f16::from_f32(f32::sum_run(&widened))
    }
}

/// A type means and variances are computed in: float64, or float32 for float32 input.
pub(in crate::kernels) trait FloatAccumulator: Accumulator {
    fn from_f64(value: f64) -> Self;
    fn sqrt(self) -> Self;
    /// A mean from its sum: divided by the count in float64 and cast back, as NumPy.
    fn div_count(self, count: f64) -> Self {
        Self::from_f64(self.to_f64() / count)
    }
}

impl_float_accumulator!(f32, to_f32);
impl_float_accumulator!(f64, to_f64);

/// Below this many elements pairwise summation stops splitting (NumPy's PW_BLOCKSIZE).
const PAIRWISE_BLOCK: usize = 128;

/// NumPy's pairwise summation (`pairwise_sum` in `loops_utils.h.src`), reproduced
/// operation for operation so that a chunk's sum is bit-identical to NumPy's sum of
/// the same contiguous run: eight interleaved partial sums in blocks of up to 128
/// elements, halving (at a multiple of 8) above that.
fn pairwise_sum<A: Accumulator>(values: &[A]) -> A {
    let n = values.len();
    if n < 8 {
        values.iter().fold(A::ZERO, |acc, &v| acc.add(v))
    } else if n <= PAIRWISE_BLOCK {
        let mut lanes = [A::ZERO; 8];
        lanes.copy_from_slice(&values[..8]);
        let unrolled_end = n - n % 8;
        for block in values[8..unrolled_end].chunks_exact(8) {
            for (lane, &v) in lanes.iter_mut().zip(block) {
                *lane = lane.add(v);
            }
        }
        let [r0, r1, r2, r3, r4, r5, r6, r7] = lanes;
        let head = r0.add(r1).add(r2.add(r3)).add(r4.add(r5).add(r6.add(r7)));
        values[unrolled_end..]
            .iter()
            .fold(head, |acc, &v| acc.add(v))
    } else {
        let half = n / 2;
        let split = half - half % 8;
        pairwise_sum(&values[..split]).add(pairwise_sum(&values[split..]))
    }
}

/// How many elements NumPy converts per buffer when a reduction casts its input (its
/// default ufunc buffer size); each buffer is summed pairwise, buffers one after another.
const CAST_BUFFER: usize = 8192;

/// The sum of `values` converted to `A`, in NumPy's order for a casting reduction.
fn sum_converted<E: Element, A: Accumulator>(values: &[E]) -> A {
    let mut buffer = Vec::with_capacity(values.len().min(CAST_BUFFER));
    let mut total = A::ZERO;
    for block in values.chunks(CAST_BUFFER) {
        buffer.clear();
        buffer.extend(block.iter().map(|&v| A::from_element(v)));
        total = total.add(pairwise_sum(&buffer));
    }
    total
}

/// The sum of a run already in the accumulator type, summed in place as NumPy does.
fn sum_uncast<A: Accumulator>(values: &[A]) -> A {
    A::sum_run(values)
}
