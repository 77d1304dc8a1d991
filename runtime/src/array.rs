//! `ArrayData`: one chunk's values, an n-dimensional ndarray of one of the five dtypes.

use crate::dtype::DType;
use crate::scalar::Scalar;
use ndarray::ArrayD;

/// A dynamically typed n-d array (a chunk, or a whole result being printed).
#[derive(Clone, Debug, PartialEq)]
pub enum ArrayData {
    Bool(ArrayD<bool>),
    Int32(ArrayD<i32>),
    Int64(ArrayD<i64>),
    Float32(ArrayD<f32>),
    Float64(ArrayD<f64>),
}

/// Runs `$body` with `$a` bound to the inner `ArrayD<T>` whatever the dtype.
#[macro_export]
macro_rules! with_array {
    ($value:expr, $a:ident => $body:expr) => {
        match $value {
            $crate::array::ArrayData::Bool($a) => $body,
            $crate::array::ArrayData::Int32($a) => $body,
            $crate::array::ArrayData::Int64($a) => $body,
            $crate::array::ArrayData::Float32($a) => $body,
            $crate::array::ArrayData::Float64($a) => $body,
        }
    };
}

impl ArrayData {
    pub fn dtype(&self) -> DType {
        match self {
            ArrayData::Bool(_) => DType::Bool,
            ArrayData::Int32(_) => DType::Int32,
            ArrayData::Int64(_) => DType::Int64,
            ArrayData::Float32(_) => DType::Float32,
            ArrayData::Float64(_) => DType::Float64,
        }
    }

    pub fn shape(&self) -> &[usize] {
        with_array!(self, a => a.shape())
    }

    pub fn ndim(&self) -> usize {
        self.shape().len()
    }

    pub fn len(&self) -> usize {
        with_array!(self, a => a.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes of element data (what `transfer_bytes` and memory accounting count).
    pub fn nbytes(&self) -> usize {
        self.len() * self.dtype().itemsize()
    }

    /// A 0-d array holding `value`.
    pub fn from_scalar(value: Scalar) -> ArrayData {
        let shape = ndarray::IxDyn(&[]);
        match value {
            Scalar::Bool(v) => ArrayData::Bool(ArrayD::from_elem(shape, v)),
            Scalar::Int32(v) => ArrayData::Int32(ArrayD::from_elem(shape, v)),
            Scalar::Int64(v) => ArrayData::Int64(ArrayD::from_elem(shape, v)),
            Scalar::Float32(v) => ArrayData::Float32(ArrayD::from_elem(shape, v)),
            Scalar::Float64(v) => ArrayData::Float64(ArrayD::from_elem(shape, v)),
        }
    }

    /// The element at a C-order flat position, or `None` past the end.
    pub fn get_flat(&self, index: usize) -> Option<Scalar> {
        match self {
            ArrayData::Bool(a) => a.iter().nth(index).map(|v| Scalar::Bool(*v)),
            ArrayData::Int32(a) => a.iter().nth(index).map(|v| Scalar::Int32(*v)),
            ArrayData::Int64(a) => a.iter().nth(index).map(|v| Scalar::Int64(*v)),
            ArrayData::Float32(a) => a.iter().nth(index).map(|v| Scalar::Float32(*v)),
            ArrayData::Float64(a) => a.iter().nth(index).map(|v| Scalar::Float64(*v)),
        }
    }
}
