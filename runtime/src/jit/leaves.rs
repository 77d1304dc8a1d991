//! The run-time side of a kernel's leaves: the values a compiled function reads that
//! are not part of its structure (a `full` value, an arange's start and step, a
//! literal's values, a random stream), and where a creation leaf's chunk lies in its
//! tensor, or which mapped file a leaf reads in place. Indexed leaves compute their
//! elements from their global flat indices with the same functions the interpreter's
//! creation kernels use, so values are bit-identical; compiled code reads them a block
//! at a time ([`IndexedSource::fill`]).

use crate::chunk_value::{LiteralSpec, RandomSpec};
use crate::dtype::DType;
use crate::kernels::{
    cast_scalar, float_arange_at, int_arange_at, linspace_at, CastFrom, FromScalar,
};
use crate::random::{
    fill_normal, fill_randint, fill_standard_normal, fill_uniform, fill_uniform01, RandomDist,
    RandomKey,
};
use crate::scalar::Scalar;
use crate::storage::ReaderRef;
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
    /// `eye`: 1 where column - row is `k`, in a tensor `width` columns wide.
    Eye {
        width: usize,
        k: i64,
        dtype: DType,
    },
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
            IndexedSource::Eye { width, k, dtype } => {
                let width = (*width).max(1);
                let (row, column) = ((i / width) as i64, (i % width) as i64);
                cast_scalar(Scalar::Int64(i64::from(column - row == *k)), *dtype)
            }
        };
        scalar_bits(value)
    }
}

/// A block of an indexed leaf's values, typed by the leaf's dtype.
pub enum LeafBlock<'a> {
    Bool(&'a mut [bool]),
    Int32(&'a mut [i32]),
    Int64(&'a mut [i64]),
    Float32(&'a mut [f32]),
    Float64(&'a mut [f64]),
}

impl<'a> LeafBlock<'a> {
    pub fn len(&self) -> usize {
        match self {
            LeafBlock::Bool(v) => v.len(),
            LeafBlock::Int32(v) => v.len(),
            LeafBlock::Int64(v) => v.len(),
            LeafBlock::Float32(v) => v.len(),
            LeafBlock::Float64(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The first `mid` elements (at most all of them) and the rest.
    fn split_at(self, mid: usize) -> (LeafBlock<'a>, LeafBlock<'a>) {
        fn split<T>(values: &mut [T], mid: usize) -> (&mut [T], &mut [T]) {
            values.split_at_mut(mid.min(values.len()))
        }
        match self {
            LeafBlock::Bool(v) => {
                let (a, b) = split(v, mid);
                (LeafBlock::Bool(a), LeafBlock::Bool(b))
            }
            LeafBlock::Int32(v) => {
                let (a, b) = split(v, mid);
                (LeafBlock::Int32(a), LeafBlock::Int32(b))
            }
            LeafBlock::Int64(v) => {
                let (a, b) = split(v, mid);
                (LeafBlock::Int64(a), LeafBlock::Int64(b))
            }
            LeafBlock::Float32(v) => {
                let (a, b) = split(v, mid);
                (LeafBlock::Float32(a), LeafBlock::Float32(b))
            }
            LeafBlock::Float64(v) => {
                let (a, b) = split(v, mid);
                (LeafBlock::Float64(a), LeafBlock::Float64(b))
            }
        }
    }
}

/// Writes `eye`'s elements at global flat indices `first..first + block.len()` of a
/// tensor `width` columns wide: zeros, then a one at each diagonal element in range.
fn fill_eye(width: usize, k: i64, first: u64, block: LeafBlock<'_>) {
    let width = width.max(1) as u64;
    let end = first.saturating_add(block.len() as u64);
    let ones = (first / width..end.div_ceil(width)).filter_map(|row| {
        let column = u64::try_from(i64::try_from(row).ok()?.checked_add(k)?).ok()?;
        let index = row.checked_mul(width)?.checked_add(column)?;
        (column < width && (first..end).contains(&index)).then(|| (index - first) as usize)
    });
    match block {
        LeafBlock::Bool(out) => set_ones(out, false, true, ones),
        LeafBlock::Int32(out) => set_ones(out, 0, 1, ones),
        LeafBlock::Int64(out) => set_ones(out, 0, 1, ones),
        LeafBlock::Float32(out) => set_ones(out, 0.0, 1.0, ones),
        LeafBlock::Float64(out) => set_ones(out, 0.0, 1.0, ones),
    }
}

fn set_ones<T: Copy>(out: &mut [T], zero: T, one: T, ones: impl Iterator<Item = usize>) {
    out.fill(zero);
    for index in ones {
        out[index] = one;
    }
}

impl LeafInstance {
    /// The dtype of an indexed leaf's values; `None` for other leaves.
    pub fn indexed_dtype(&self) -> Option<DType> {
        match self {
            LeafInstance::Indexed { source, .. } => Some(source.dtype()),
            _ => None,
        }
    }

    /// Writes an indexed leaf's elements at chunk-local C-order indices
    /// `first..first + block.len()`, each from its global flat index (compiled code
    /// reads indexed leaves by local index, so a chunk's rows merge like a buffer's).
    pub fn fill_local(&self, first: u64, block: LeafBlock<'_>) {
        let LeafInstance::Indexed {
            source,
            global_shape,
            offset,
            shape,
        } = self
        else {
            return;
        };
        let mut left = block.len();
        let mut rest = block;
        for (global, len) in GlobalRuns::new(global_shape, offset, shape, first) {
            if left == 0 {
                break;
            }
            let (head, tail) = rest.split_at(len);
            left -= head.len();
            source.fill(global, head);
            rest = tail;
        }
    }

    /// An indexed leaf's element at chunk-local C-order index `local`, as bits.
    pub fn bits_at_local(&self, local: u64) -> u64 {
        match self {
            LeafInstance::Indexed {
                source,
                global_shape,
                offset,
                shape,
            } => match GlobalRuns::new(global_shape, offset, shape, local).next() {
                Some((global, _)) => source.bits_at(global),
                None => 0,
            },
            _ => 0,
        }
    }
}

/// The runs of a chunk's elements from a local C-order index on, each contiguous in
/// its tensor's C order: `(global flat index of the run's start, run length)`, one
/// per chunk row (the last one unbounded: the caller stops reading).
struct GlobalRuns<'a> {
    global_shape: &'a [usize],
    offset: &'a [usize],
    shape: &'a [usize],
    /// The multi-index of the next run's start within the chunk.
    index: Vec<usize>,
    done: bool,
}

impl<'a> GlobalRuns<'a> {
    fn new(
        global_shape: &'a [usize],
        offset: &'a [usize],
        shape: &'a [usize],
        local: u64,
    ) -> GlobalRuns<'a> {
        let mut index = vec![0; shape.len()];
        let mut rest = local as usize;
        for (axis, &extent) in shape.iter().enumerate().rev() {
            index[axis] = rest % extent.max(1);
            rest /= extent.max(1);
        }
        GlobalRuns {
            global_shape,
            offset,
            shape,
            index,
            // Past the chunk's end (or an empty chunk): nothing to read.
            done: rest > 0 || shape.contains(&0),
        }
    }
}

impl Iterator for GlobalRuns<'_> {
    type Item = (u64, usize);

    fn next(&mut self) -> Option<(u64, usize)> {
        if self.done {
            return None;
        }
        // Horner's rule over the global shape; wrapping like the interpreter's fill.
        let global = (0..self.shape.len()).fold(0u64, |acc, axis| {
            acc.wrapping_mul(self.global_shape[axis] as u64)
                .wrapping_add((self.offset[axis] + self.index[axis]) as u64)
        });
        let Some(last) = self.shape.len().checked_sub(1) else {
            self.done = true;
            return Some((global, 1));
        };
        let len = self.shape[last] - self.index[last];
        self.index[last] = 0;
        self.done = true;
        for axis in (0..last).rev() {
            self.index[axis] += 1;
            if self.index[axis] < self.shape[axis] {
                self.done = false;
                break;
            }
            self.index[axis] = 0;
        }
        Some((global, len))
    }
}

impl IndexedSource {
    /// The dtype of the source's values (the leaf's dtype in the kernel graph).
    pub fn dtype(&self) -> DType {
        match self {
            IndexedSource::Arange { start, .. } => start.dtype(),
            IndexedSource::Linspace { dtype, .. } => *dtype,
            IndexedSource::Literal(spec) => spec.dtype,
            IndexedSource::Eye { dtype, .. } => *dtype,
            IndexedSource::Random(spec) => spec.dist.dtype(),
        }
    }

    /// Writes the elements at global flat indices `first..first + block.len()`:
    /// random sources in batches, the others element by element.
    pub fn fill(&self, first: u64, block: LeafBlock<'_>) {
        match (self, block) {
            (IndexedSource::Random(spec), LeafBlock::Float64(out)) => {
                fill_random_floats(spec, first, out)
            }
            (IndexedSource::Random(spec), LeafBlock::Int64(out))
                if spec.dist.dtype() == DType::Int64 =>
            {
                if let RandomDist::Randint { low, high } = spec.dist {
                    fill_randint(random_key(spec), first, low, high, out);
                } else {
                    let key = random_key(spec);
                    for (j, value) in out.iter_mut().enumerate() {
                        if let Scalar::Int64(v) =
                            key.value_at(spec.dist, first.wrapping_add(j as u64))
                        {
                            *value = v;
                        }
                    }
                }
            }
            (IndexedSource::Eye { width, k, .. }, block) => fill_eye(*width, *k, first, block),
            (source, block) => source.fill_each(first, block),
        }
    }

    /// The per-element path: each value from [`IndexedSource::bits_at`].
    fn fill_each(&self, first: u64, block: LeafBlock<'_>) {
        let bits = |j: usize| self.bits_at(first.wrapping_add(j as u64));
        match block {
            LeafBlock::Bool(out) => out
                .iter_mut()
                .enumerate()
                .for_each(|(j, v)| *v = bits(j) != 0),
            LeafBlock::Int32(out) => out
                .iter_mut()
                .enumerate()
                .for_each(|(j, v)| *v = bits(j) as u32 as i32),
            LeafBlock::Int64(out) => out
                .iter_mut()
                .enumerate()
                .for_each(|(j, v)| *v = bits(j) as i64),
            LeafBlock::Float32(out) => out
                .iter_mut()
                .enumerate()
                .for_each(|(j, v)| *v = f32::from_bits(bits(j) as u32)),
            LeafBlock::Float64(out) => out
                .iter_mut()
                .enumerate()
                .for_each(|(j, v)| *v = f64::from_bits(bits(j))),
        }
    }
}

fn random_key(spec: &RandomSpec) -> RandomKey {
    RandomKey {
        seed: spec.seed,
        stream: spec.stream,
    }
}

fn fill_random_floats(spec: &RandomSpec, first: u64, out: &mut [f64]) {
    let key = random_key(spec);
    match spec.dist {
        RandomDist::Uniform01 => fill_uniform01(key, first, out),
        RandomDist::Uniform { low, high } => fill_uniform(key, first, low, high, out),
        RandomDist::StandardNormal => fill_standard_normal(key, first, out),
        RandomDist::Normal { loc, scale } => fill_normal(key, first, loc, scale, out),
        // An int64 source read as float64 bits, as `bits_at` would give them.
        RandomDist::Randint { .. } | RandomDist::Poisson { .. } | RandomDist::Binomial { .. } => {
            for (j, value) in out.iter_mut().enumerate() {
                if let Scalar::Int64(drawn) = key.value_at(spec.dist, first.wrapping_add(j as u64))
                {
                    *value = f64::from_bits(drawn as u64);
                }
            }
        }
        RandomDist::Gamma { .. } | RandomDist::Beta { .. } => {
            for (j, value) in out.iter_mut().enumerate() {
                *value = key
                    .value_at(spec.dist, first.wrapping_add(j as u64))
                    .as_f64();
            }
        }
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
        // Other integers wrap like a cast from the int64 arange (as NumPy's).
        int => Scalar::from_i64(
            int_arange_at(int.as_i128().unwrap_or(0) as i64, i64::from_scalar(step), i),
            int.dtype(),
        ),
    }
}

fn random_at(spec: &RandomSpec, index: u64) -> Scalar {
    random_key(spec).value_at(spec.dist, index)
}

/// A scalar's bits, zero-extended to 64.
pub fn scalar_bits(value: Scalar) -> u64 {
    match value {
        Scalar::Bool(v) => u64::from(v),
        Scalar::Int8(v) => u64::from(v as u8),
        Scalar::Int16(v) => u64::from(v as u16),
        Scalar::Int32(v) => u64::from(v as u32),
        Scalar::Int64(v) => v as u64,
        Scalar::UInt8(v) => u64::from(v),
        Scalar::UInt16(v) => u64::from(v),
        Scalar::UInt32(v) => u64::from(v),
        Scalar::UInt64(v) => v,
        Scalar::Float16(v) => u64::from(v.to_bits()),
        Scalar::Float32(v) => u64::from(v.to_bits()),
        Scalar::Float64(v) => v.to_bits(),
        // Complex runs interpreted; no kernel holds a complex constant.
        Scalar::Complex64(v) => u64::from(v.re().to_bits()),
        Scalar::Complex128(v) => v.re().to_bits(),
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
    /// The chunk's region of a loaded store read in place (a C-order `.npy` file
    /// loaded with `mmap_mode='r'`: its mapping), compiled as a buffer leaf whose
    /// strides are the store's.
    Mapped {
        file: ReaderRef,
        /// The store's element dtype.
        dtype: DType,
        /// The store's array shape.
        global_shape: Vec<usize>,
        offset: Vec<usize>,
        shape: Vec<usize>,
    },
}

#[cfg(test)]
mod tests;
