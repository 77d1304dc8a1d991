//! Counter-based random numbers: every element's value is a pure function of
//! (seed, stream, global element index), so results never depend on chunking.

/// A distribution for `mt.random.*`. Parameters are already validated.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RandomDist {
    /// `rand`, `random`: uniform in [0, 1), float64.
    Uniform01,
    /// `uniform(low, high)`: float64 in [low, high).
    Uniform { low: f64, high: f64 },
    /// `randn`: standard normal, float64.
    StandardNormal,
    /// `normal(loc, scale)`.
    Normal { loc: f64, scale: f64 },
    /// `randint(low, high)`: int64 in [low, high).
    Randint { low: i64, high: i64 },
    /// `gamma(shape, scale)`: float64.
    Gamma { shape: f64, scale: f64 },
    /// `beta(a, b)`: float64 in [0, 1].
    Beta { a: f64, b: f64 },
    /// `poisson(lam)`: int64.
    Poisson { lam: f64 },
    /// `binomial(n, p)`: int64 in [0, n].
    Binomial { n: i64, p: f64 },
}

impl RandomDist {
    /// The dtype of the values it draws.
    pub fn dtype(self) -> DType {
        match self {
            RandomDist::Randint { .. }
            | RandomDist::Poisson { .. }
            | RandomDist::Binomial { .. } => DType::Int64,
            _ => DType::Float64,
        }
    }
}

use crate::array::ArrayData;
use crate::dtype::DType;
use crate::kernels::{checked_len, KernelError};
use ndarray::{ArrayD, IxDyn};

mod batch;
pub mod samplers;
pub mod simd;

pub use batch::{fill_normal, fill_randint, fill_standard_normal, fill_uniform, fill_uniform01};

/// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", 2011):
/// a keyed bijection of 128-bit counters that passes BigCrush, so hashing each
/// element's index gives independent-looking values without any sequential state.
pub fn philox4x32_10(counter: [u32; 4], key: [u32; 2]) -> [u32; 4] {
    const MULTIPLIERS: [u32; 2] = [0xD251_1F53, 0xCD9E_8D57];
    const KEY_BUMPS: [u32; 2] = [0x9E37_79B9, 0xBB67_AE85];
    let mut x = counter;
    let mut k = key;
    for round in 0..10 {
        if round > 0 {
            k = [
                k[0].wrapping_add(KEY_BUMPS[0]),
                k[1].wrapping_add(KEY_BUMPS[1]),
            ];
        }
        let product0 = u64::from(MULTIPLIERS[0]) * u64::from(x[0]);
        let product1 = u64::from(MULTIPLIERS[1]) * u64::from(x[2]);
        let (hi0, lo0) = ((product0 >> 32) as u32, product0 as u32);
        let (hi1, lo1) = ((product1 >> 32) as u32, product1 as u32);
        x = [hi1 ^ x[1] ^ k[0], lo1, hi0 ^ x[3] ^ k[1], lo0];
    }
    x
}

/// Which random stream a value belongs to: the script's seed and the call's stream
/// number (the compiler gives each `random.*` call its own).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RandomKey {
    pub seed: u64,
    pub stream: u64,
}

impl RandomKey {
    /// The 128 random bits of one element, as two 64-bit words. `draw` numbers the
    /// extra blocks a rejection sampler needs; draw 0 is the element's own block.
    ///
    /// Layout: Philox key = the seed; counter = (index, stream), with the draw number
    /// in the index's top byte. No array has 2^56 elements (that is 64 PiB of bools),
    /// so the top byte of a real index is always zero.
    pub fn block(self, index: u64, draw: u8) -> [u64; 2] {
        let index = index ^ (u64::from(draw) << 56);
        let counter = [
            index as u32,
            (index >> 32) as u32,
            self.stream as u32,
            (self.stream >> 32) as u32,
        ];
        let key = [self.seed as u32, (self.seed >> 32) as u32];
        let [w0, w1, w2, w3] = philox4x32_10(counter, key);
        [
            u64::from(w0) | (u64::from(w1) << 32),
            u64::from(w2) | (u64::from(w3) << 32),
        ]
    }

    /// Uniform in [0, 1): the top 53 bits of the first word, scaled by 2^-53, so every
    /// value is a multiple of 2^-53 and each is equally likely.
    pub fn uniform01(self, index: u64) -> f64 {
        unit_interval(self.block(index, 0)[0])
    }

    /// Standard normal by the Box–Muller transform of the element's two words (only
    /// the cosine branch is used, so each element needs only its own counter).
    pub fn standard_normal(self, index: u64) -> f64 {
        normal_from_block(self.block(index, 0))
    }

    /// The value of element `index` drawn from `dist`.
    pub fn value_at(self, dist: RandomDist, index: u64) -> crate::Scalar {
        use crate::Scalar;
        use samplers::Words;
        match dist {
            RandomDist::Uniform01 => Scalar::Float64(self.uniform01(index)),
            RandomDist::Uniform { low, high } => {
                Scalar::Float64(low + (high - low) * self.uniform01(index))
            }
            RandomDist::StandardNormal => Scalar::Float64(self.standard_normal(index)),
            RandomDist::Normal { loc, scale } => {
                Scalar::Float64(loc + scale * self.standard_normal(index))
            }
            RandomDist::Randint { low, high } => Scalar::Int64(self.randint(index, low, high)),
            RandomDist::Gamma { shape, scale } => Scalar::Float64(
                scale * samplers::standard_gamma(&mut Words::new(self, index), shape),
            ),
            RandomDist::Beta { a, b } => {
                Scalar::Float64(samplers::beta(&mut Words::new(self, index), a, b))
            }
            RandomDist::Poisson { lam } => {
                Scalar::Int64(samplers::poisson(&mut Words::new(self, index), lam))
            }
            RandomDist::Binomial { n, p } => {
                Scalar::Int64(samplers::binomial(&mut Words::new(self, index), n, p))
            }
        }
    }

    /// Uniform integer in [low, high) by Lemire's multiply-and-reject method, which
    /// is exactly unbiased: rejected words are replaced by the next word of the
    /// element's blocks (two per block, blocks numbered by `draw`).
    pub fn randint(self, index: u64, low: i64, high: i64) -> i64 {
        if high <= low {
            return low;
        }
        let range = high.wrapping_sub(low) as u64;
        let mut last = 0;
        for draw in 0..=u8::MAX {
            for word in self.block(index, draw) {
                last = word;
                if let Some(offset) = lemire_bounded(word, range) {
                    return low.wrapping_add(offset as i64);
                }
            }
        }
        // 512 rejections in a row have probability below 2^-512; stay total anyway.
        low.wrapping_add((last % range) as i64)
    }
}

/// Box–Muller of one element's block (shared by the scalar and batch paths so both
/// do the same operations in the same order).
fn normal_from_block([first, second]: [u64; 2]) -> f64 {
    // 1 - u lies in (0, 1], so the logarithm is finite.
    let radius_source = 1.0 - unit_interval(first);
    let angle = std::f64::consts::TAU * unit_interval(second);
    (-2.0 * radius_source.ln()).sqrt() * angle.cos()
}

#[inline(always)]
fn unit_interval(word: u64) -> f64 {
    (word >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// `word` mapped to [0, range), or `None` when it falls in the biased sliver that
/// must be rejected.
fn lemire_bounded(word: u64, range: u64) -> Option<u64> {
    let product = u128::from(word) * u128::from(range);
    let low_bits = product as u64;
    if low_bits < range {
        let threshold = range.wrapping_neg() % range;
        if low_bits < threshold {
            return None;
        }
    }
    Some((product >> 64) as u64)
}

/// One chunk of a `random.*` tensor: the chunk of shape `shape` starting at `offset`
/// in a tensor of shape `global_shape`. Each element is drawn from its global C-order
/// flat index, so the values do not depend on how the tensor is chunked.
pub fn random_chunk(
    dist: RandomDist,
    seed: u64,
    stream: u64,
    global_shape: &[usize],
    offset: &[usize],
    shape: &[usize],
) -> Result<ArrayData, KernelError> {
    check_chunk_bounds(global_shape, offset, shape)?;
    let key = RandomKey { seed, stream };
    let chunk = ChunkPlacement {
        global_shape,
        offset,
        shape,
    };
    Ok(match dist {
        RandomDist::Uniform01 => {
            ArrayData::Float64(chunk.fill(0.0, |first, row| fill_uniform01(key, first, row))?)
        }
        RandomDist::Uniform { low, high } => ArrayData::Float64(
            chunk.fill(0.0, |first, row| fill_uniform(key, first, low, high, row))?,
        ),
        RandomDist::StandardNormal => {
            ArrayData::Float64(chunk.fill(0.0, |first, row| fill_standard_normal(key, first, row))?)
        }
        RandomDist::Normal { loc, scale } => ArrayData::Float64(
            chunk.fill(0.0, |first, row| fill_normal(key, first, loc, scale, row))?,
        ),
        RandomDist::Randint { low, high } => {
            ArrayData::Int64(chunk.fill(0, |first, row| fill_randint(key, first, low, high, row))?)
        }
        RandomDist::Gamma { .. } | RandomDist::Beta { .. } => {
            ArrayData::Float64(chunk.fill(0.0, |first, row| {
                for (j, out) in row.iter_mut().enumerate() {
                    *out = key.value_at(dist, first.wrapping_add(j as u64)).as_f64();
                }
            })?)
        }
        RandomDist::Poisson { .. } | RandomDist::Binomial { .. } => {
            ArrayData::Int64(chunk.fill(0, |first, row| {
                for (j, out) in row.iter_mut().enumerate() {
                    if let crate::Scalar::Int64(v) =
                        key.value_at(dist, first.wrapping_add(j as u64))
                    {
                        *out = v;
                    }
                }
            })?)
        }
    })
}

fn check_chunk_bounds(
    global_shape: &[usize],
    offset: &[usize],
    shape: &[usize],
) -> Result<(), KernelError> {
    let same_rank = offset.len() == global_shape.len() && shape.len() == global_shape.len();
    let inside = same_rank
        && (0..shape.len()).all(|d| {
            offset[d]
                .checked_add(shape[d])
                .is_some_and(|end| end <= global_shape[d])
        });
    if inside {
        Ok(())
    } else {
        Err(KernelError::new(format!(
            "internal error: a chunk of shape {shape:?} at {offset:?} is not inside a \
             tensor of shape {global_shape:?}"
        )))
    }
}

/// Where a chunk lies in its tensor (already checked to be inside it).
struct ChunkPlacement<'a> {
    global_shape: &'a [usize],
    offset: &'a [usize],
    shape: &'a [usize],
}

impl ChunkPlacement<'_> {
    /// How many leading axes are walked one run at a time: every axis after the
    /// last one the chunk does not span whole, except the innermost, which is always
    /// part of the run (0-d chunks have no axes and one run).
    fn merged_outer_axes(&self) -> usize {
        let ndim = self.shape.len();
        let mut outer = ndim.saturating_sub(1);
        while outer > 0 && self.shape[outer] == self.global_shape[outer] {
            outer -= 1;
        }
        outer
    }

    /// The chunk with each element computed from its global flat index, one run of
    /// global indices at a time: `fill_row(first, run)` writes the values of indices
    /// `first..first + run.len()`.
    fn fill<T: Copy>(
        &self,
        zero: T,
        fill_row: impl Fn(u64, &mut [T]),
    ) -> Result<ArrayD<T>, KernelError> {
        let len = checked_len(self.shape, DType::Float64)?;
        let mut values = crate::array::try_vec(len)?;
        if len > 0 {
            // Trailing axes the chunk spans whole are contiguous in the tensor: their
            // rows merge into one run (a batch over a narrow row would waste lanes).
            let outer = self.merged_outer_axes();
            let global_strides = c_order_strides(self.global_shape);
            let run_len: usize = self.shape[outer..].iter().product();
            let run_start_offset = self.offset[outer..]
                .iter()
                .zip(&global_strides[outer..])
                .map(|(&o, &stride)| (o as u64).wrapping_mul(stride))
                .fold(0u64, u64::wrapping_add);
            // The position of the current run within the chunk (the outer axes).
            let run_shape = &self.shape[..outer];
            let mut run = vec![0usize; outer];
            loop {
                // Wrapping: a chunk of a tensor too large to exist (more than 2^64
                // elements) still gets values instead of a panic.
                let run_base = run
                    .iter()
                    .enumerate()
                    .map(|(d, &i)| ((self.offset[d] + i) as u64).wrapping_mul(global_strides[d]))
                    .fold(run_start_offset, u64::wrapping_add);
                let run_start = values.len();
                values.resize(run_start + run_len, zero);
                fill_row(run_base, &mut values[run_start..]);
                if !advance(&mut run, run_shape) {
                    break;
                }
            }
        }
        ArrayD::from_shape_vec(IxDyn(self.shape), values)
            .map_err(|err| KernelError::new(format!("internal error: {err}")))
    }
}

fn c_order_strides(shape: &[usize]) -> Vec<u64> {
    let mut strides = vec![1u64; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        strides[d] = strides[d + 1].wrapping_mul(shape[d + 1] as u64);
    }
    strides
}

/// Steps a multi-index to the next position in C order; false once it wraps around.
fn advance(index: &mut [usize], shape: &[usize]) -> bool {
    for d in (0..index.len()).rev() {
        index[d] += 1;
        if index[d] < shape[d] {
            return true;
        }
        index[d] = 0;
    }
    false
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod batch_tests;
