//! The run-time side of a kernel's leaves: the values a compiled function reads that
//! are not part of its structure (a `full` value, an arange's start and step, a
//! literal's values, a random stream), and where a creation leaf's chunk lies in its
//! tensor, or which mapped file a leaf reads in place. Indexed leaves compute one
//! element from its global flat index with the same functions the interpreter's
//! creation kernels use, so values are bit-identical.

use crate::dtype::DType;
use crate::kernel::{LiteralSpec, MappedNpy, RandomSpec};
use crate::kernels::{
    cast_scalar, float_arange_at, int_arange_at, linspace_at, CastFrom, FromScalar,
};
use crate::random::{RandomDist, RandomKey};
use crate::scalar::Scalar;
use std::sync::Arc;

/// A creation op whose element is a function of its global flat index.
#[derive(Clone, Debug, PartialEq)]
pub enum IndexedSource {
    Arange {
        start: Scalar,
        step: Scalar,
    },
    Linspace {
        start: f64,
        stop: f64,
        num: usize,
        endpoint: bool,
        dtype: DType,
    },
    Literal(Arc<LiteralSpec>),
    Random(Arc<RandomSpec>),
}

impl IndexedSource {
    /// The element at global flat `index`, as the low bits of a u64.
    pub fn bits_at(&self, index: u64) -> u64 {
        let i = index as usize;
        let value = match self {
            IndexedSource::Arange { start, step } => arange_at(*start, *step, i),
            IndexedSource::Linspace {
                start,
                stop,
                num,
                endpoint,
                dtype,
            } => {
                let value = linspace_at(*start, *stop, *num, *endpoint, *dtype, i);
                cast_scalar(Scalar::Float64(value), *dtype)
            }
            IndexedSource::Literal(spec) => match spec.values.get(i) {
                Some(&value) => cast_scalar(value, spec.dtype),
                // The caller checks bounds before calling; a stray index reads 0.
                None => cast_scalar(Scalar::Int64(0), spec.dtype),
            },
            IndexedSource::Random(spec) => random_at(spec, index),
        };
        scalar_bits(value)
    }
}

fn arange_at(start: Scalar, step: Scalar, i: usize) -> Scalar {
    match start {
        Scalar::Float64(start) => {
            Scalar::Float64(float_arange_at(start, f64::from_scalar(step), i))
        }
        Scalar::Float32(start) => {
            Scalar::Float32(float_arange_at(start, f32::from_scalar(step), i))
        }
        Scalar::Int32(start) => Scalar::Int32(i32::cast_from(int_arange_at(
            start.into(),
            i64::from_scalar(step),
            i,
        ))),
        Scalar::Int64(start) => Scalar::Int64(int_arange_at(start, i64::from_scalar(step), i)),
        // Bool aranges are never JIT leaves (the interpreter checks their length).
        Scalar::Bool(start) => Scalar::Bool(start),
    }
}

fn random_at(spec: &RandomSpec, index: u64) -> Scalar {
    let key = RandomKey {
        seed: spec.seed,
        stream: spec.stream,
    };
    match spec.dist {
        RandomDist::Uniform01 => Scalar::Float64(key.uniform01(index)),
        RandomDist::Uniform { low, high } => {
            Scalar::Float64(low + (high - low) * key.uniform01(index))
        }
        RandomDist::StandardNormal => Scalar::Float64(key.standard_normal(index)),
        RandomDist::Normal { loc, scale } => {
            Scalar::Float64(loc + scale * key.standard_normal(index))
        }
        RandomDist::Randint { low, high } => Scalar::Int64(key.randint(index, low, high)),
    }
}

/// A scalar's bits, zero-extended to 64.
pub fn scalar_bits(value: Scalar) -> u64 {
    match value {
        Scalar::Bool(v) => u64::from(v),
        Scalar::Int32(v) => u64::from(v as u32),
        Scalar::Int64(v) => v as u64,
        Scalar::Float32(v) => u64::from(v.to_bits()),
        Scalar::Float64(v) => v.to_bits(),
    }
}

/// One leaf of a kernel instance: what it reads and, for creation leaves, where this
/// chunk lies in the whole tensor.
#[derive(Clone, Debug, PartialEq)]
pub enum LeafInstance {
    /// The next argument chunk.
    Buffer,
    Constant {
        value: Scalar,
        shape: Vec<usize>,
    },
    Indexed {
        source: Arc<IndexedSource>,
        /// The whole tensor's shape (its C-order flat index is the source's index).
        global_shape: Vec<usize>,
        offset: Vec<usize>,
        shape: Vec<usize>,
    },
    /// The chunk's region of a C-order `.npy` file loaded with `mmap_mode='r'`, read
    /// in place from the file's mapping (compiled as a buffer leaf whose strides are
    /// the file's).
    Mapped {
        file: Arc<MappedNpy>,
        /// The file's array shape.
        global_shape: Vec<usize>,
        offset: Vec<usize>,
        shape: Vec<usize>,
    },
}
