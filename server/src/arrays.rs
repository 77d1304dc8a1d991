//! Result arrays as a client fetches them: a `.npy` file (format 1.0, C order,
//! little-endian, as `np.save` writes) or a JSON preview (dtype, shape and the
//! first values in C order).

use marsc::run::output::Shown;
use marsc_runtime::storage::npy::header::encode_header;
use marsc_runtime::{with_array, ArrayData};
use serde_json::{json, Value};

/// The `.npy` bytes of a whole array.
pub fn npy_bytes(data: &ArrayData) -> Vec<u8> {
    let mut bytes = encode_header(data.dtype(), data.shape());
    bytes.reserve(data.nbytes());
    match data {
        ArrayData::Bool(a) => bytes.extend(a.iter().map(|&v| u8::from(v))),
        ArrayData::Int8(a) => a.iter().for_each(|v| bytes.extend(v.to_le_bytes())),
        ArrayData::Int16(a) => a.iter().for_each(|v| bytes.extend(v.to_le_bytes())),
        ArrayData::Int32(a) => a.iter().for_each(|v| bytes.extend(v.to_le_bytes())),
        ArrayData::Int64(a) => a.iter().for_each(|v| bytes.extend(v.to_le_bytes())),
        ArrayData::UInt8(a) => a.iter().for_each(|v| bytes.extend(v.to_le_bytes())),
        ArrayData::UInt16(a) => a.iter().for_each(|v| bytes.extend(v.to_le_bytes())),
        ArrayData::UInt32(a) => a.iter().for_each(|v| bytes.extend(v.to_le_bytes())),
        ArrayData::UInt64(a) => a.iter().for_each(|v| bytes.extend(v.to_le_bytes())),
        ArrayData::Float16(a) => a.iter().for_each(|v| bytes.extend(v.to_le_bytes())),
        ArrayData::Float32(a) => a.iter().for_each(|v| bytes.extend(v.to_le_bytes())),
        ArrayData::Float64(a) => a.iter().for_each(|v| bytes.extend(v.to_le_bytes())),
        ArrayData::Complex64(a) => a.iter().for_each(|v| bytes.extend(v.to_le_bytes())),
        ArrayData::Complex128(a) => a.iter().for_each(|v| bytes.extend(v.to_le_bytes())),
    }
    bytes
}

/// Up to `limit` values of an array in C order, as JSON numbers (booleans as
/// `true`/`false`; NaN and infinities, which JSON lacks, as strings; a complex
/// number as the pair `[real, imag]`).
pub fn values(data: &ArrayData, limit: usize) -> Vec<Value> {
    with_array!(data, a => a.iter().take(limit).map(|v| scalar_json(f64_or_bool(*v))).collect())
}

/// A JSON preview of a printed tensor.
pub fn preview(shown: &Shown, limit: usize) -> Value {
    let whole = shown.data.shape() == shown.shape.as_slice();
    json!({
        "dtype": shown.data.dtype().to_string(),
        "shape": shown.shape,
        "summarized": !whole,
        "kept_shape": shown.data.shape(),
        "values": values(&shown.data, limit),
        "truncated": shown.data.len() > limit,
        "text": shown.str(),
    })
}

/// A value as JSON: the numeric kinds through f64 or i64 without loss.
#[derive(Clone, Copy)]
pub enum Num {
    Bool(bool),
    Int(i64),
    /// A uint64 beyond int64.
    UInt(u64),
    Float(f64),
    /// A complex number's real and imaginary parts.
    Complex(f64, f64),
}

fn scalar_json(value: Num) -> Value {
    match value {
        Num::Bool(b) => Value::Bool(b),
        Num::Int(i) => json!(i),
        Num::UInt(u) => json!(u),
        Num::Float(f) if f.is_finite() => json!(f),
        Num::Float(f) if f.is_nan() => json!("nan"),
        Num::Float(f) if f > 0.0 => json!("inf"),
        Num::Float(_) => json!("-inf"),
        Num::Complex(re, im) => json!([scalar_json(Num::Float(re)), scalar_json(Num::Float(im))]),
    }
}

/// Converts an element to [`Num`].
pub trait ToNum {
    fn to_num(self) -> Num;
}

impl ToNum for bool {
    fn to_num(self) -> Num {
        Num::Bool(self)
    }
}
macro_rules! to_num_int {
    ($($t:ty),*) => {$(
        impl ToNum for $t {
            fn to_num(self) -> Num {
                Num::Int(i64::from(self))
            }
        }
    )*};
}
to_num_int!(i8, i16, i32, i64, u8, u16, u32);
impl ToNum for u64 {
    fn to_num(self) -> Num {
        match i64::try_from(self) {
            Ok(v) => Num::Int(v),
            Err(_) => Num::UInt(self),
        }
    }
}
impl ToNum for marsc_runtime::f16 {
    fn to_num(self) -> Num {
        Num::Float(self.to_f64())
    }
}
impl ToNum for f32 {
    fn to_num(self) -> Num {
        Num::Float(f64::from(self))
    }
}
impl ToNum for f64 {
    fn to_num(self) -> Num {
        Num::Float(self)
    }
}

impl ToNum for marsc_runtime::C64 {
    fn to_num(self) -> Num {
        Num::Complex(f64::from(self.re()), f64::from(self.im()))
    }
}
impl ToNum for marsc_runtime::C128 {
    fn to_num(self) -> Num {
        Num::Complex(self.re(), self.im())
    }
}

fn f64_or_bool<T: ToNum>(value: T) -> Num {
    value.to_num()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::ArrayD;

    #[test]
    fn npy_has_numpy_header_and_little_endian_data() {
        let data =
            ArrayData::Int32(ArrayD::from_shape_vec(vec![2, 2], vec![1, 2, 3, 4]).expect("shape"));
        let bytes = npy_bytes(&data);
        assert_eq!(&bytes[..6], b"\x93NUMPY");
        assert_eq!(bytes.len() % 16, 0);
        assert_eq!(&bytes[bytes.len() - 4..], &4i32.to_le_bytes());
        assert_eq!(values(&data, 3), vec![json!(1), json!(2), json!(3)]);
    }

    #[test]
    fn complex_values_are_pairs() {
        let values_in = vec![
            marsc_runtime::C128::new(1.5, -2.0),
            marsc_runtime::C128::new(f64::NAN, f64::INFINITY),
        ];
        let data =
            ArrayData::Complex128(ArrayD::from_shape_vec(vec![2], values_in).expect("shape"));
        assert_eq!(
            values(&data, 2),
            vec![json!([1.5, -2.0]), json!(["nan", "inf"])]
        );
        let bytes = npy_bytes(&data);
        assert_eq!(&bytes[bytes.len() - 8..], &f64::INFINITY.to_le_bytes());
    }

    #[test]
    fn float16_values_are_their_exact_numbers() {
        let halves = [0.1, 2.5, f64::INFINITY, f64::NAN]
            .map(marsc_runtime::kernels::f64_to_f16)
            .to_vec();
        let data = ArrayData::Float16(ArrayD::from_shape_vec(vec![4], halves).expect("shape"));
        // Python's float() of np.float16(0.1) is 0.0999755859375.
        assert_eq!(
            values(&data, 4),
            vec![
                json!(0.0999755859375),
                json!(2.5),
                json!("inf"),
                json!("nan")
            ]
        );
        let bytes = npy_bytes(&data);
        assert_eq!(&bytes[bytes.len() - 8..bytes.len() - 6], &[0x66, 0x2e]);
    }
}
