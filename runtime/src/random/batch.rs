//! Batch generation: the values of consecutive global indices at once, bit for bit the
//! values the scalar [`RandomKey`] methods give. Philox runs over [`LANES`] counters
//! side by side (struct of arrays, u32 lanes, the 32x32->64 multiplies as u64
//! products) so the compiler keeps each round in vector registers; `simd` compiles
//! these bodies once per instruction set and picks the best one the CPU has.

use super::simd::{self, Isa};
use super::{lemire_bounded, RandomKey};

/// Counters per Philox batch: four 512-bit vectors of u64 lanes, enough independent
/// multiply chains to hide the multiplies' latency.
pub(super) const LANES: usize = 32;

/// Blocks per scratch batch of the distributions that finish element by element.
const SCRATCH_BLOCKS: usize = 64;

/// Below this many elements a batch would compute mostly unused lanes: the scalar
/// reference is faster (narrow chunk rows, short runs of a JIT leaf).
const SCALAR_BELOW: usize = 8;

/// Philox4x32-10 of `LANES` consecutive counters starting at element `first`: lane
/// `l` of the two output words equals `key.block(first + l, 0)`.
///
/// Each u32 of the state lives in a u64 lane (high half zero), so a round's
/// 32x32->64 products are plain u64 multiplies the compiler lowers to one unsigned
/// even-lane multiply (`pmuludq`) per vector, without packing and unpacking.
///
/// The state is four [`Lanes`] on cache-line boundaries: under AVX2 its 32 vectors do
/// not fit the 16 registers, so every round stores and reloads part of it on the
/// stack, and an unaligned frame made half of those 32-byte accesses straddle two
/// cache lines (`rand` ran 30% slower in a build whose callers' frames differed).
#[inline(always)]
fn philox_lanes(key: RandomKey, first: u64) -> [Lanes; 2] {
    const MULTIPLIERS: [u64; 2] = [0xD251_1F53, 0xCD9E_8D57];
    const KEY_BUMPS: [u32; 2] = [0x9E37_79B9, 0xBB67_AE85];
    const LOW: u64 = 0xFFFF_FFFF;
    let mut x0 = Lanes([0; LANES]);
    let mut x1 = Lanes([0; LANES]);
    let mut x2 = Lanes([key.stream & LOW; LANES]);
    let mut x3 = Lanes([key.stream >> 32; LANES]);
    for lane in 0..LANES {
        let index = first.wrapping_add(lane as u64);
        x0[lane] = index & LOW;
        x1[lane] = index >> 32;
    }
    let mut k = [key.seed as u32, (key.seed >> 32) as u32];
    for round in 0..10 {
        if round > 0 {
            k = [
                k[0].wrapping_add(KEY_BUMPS[0]),
                k[1].wrapping_add(KEY_BUMPS[1]),
            ];
        }
        let (k0, k1) = (u64::from(k[0]), u64::from(k[1]));
        for lane in 0..LANES {
            // The masks are no-ops on the values but tell the compiler the high
            // halves are zero, which it forgets across rounds.
            let product0 = MULTIPLIERS[0] * (x0[lane] & LOW);
            let product1 = MULTIPLIERS[1] * (x2[lane] & LOW);
            x0[lane] = (product1 >> 32) ^ x1[lane] ^ k0;
            x1[lane] = product1 & LOW;
            x2[lane] = (product0 >> 32) ^ x3[lane] ^ k1;
            x3[lane] = product0 & LOW;
        }
    }
    let mut words = [Lanes([0; LANES]); 2];
    for lane in 0..LANES {
        words[0][lane] = (x0[lane] & LOW) | (x1[lane] << 32);
        words[1][lane] = (x2[lane] & LOW) | (x3[lane] << 32);
    }
    words
}

/// [`LANES`] words of Philox state or output, on a cache line of their own.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Lanes([u64; LANES]);

impl std::ops::Index<usize> for Lanes {
    type Output = u64;

    #[inline(always)]
    fn index(&self, lane: usize) -> &u64 {
        &self.0[lane]
    }
}

impl std::ops::IndexMut<usize> for Lanes {
    #[inline(always)]
    fn index_mut(&mut self, lane: usize) -> &mut u64 {
        &mut self.0[lane]
    }
}

/// `unit_interval` with only operations every vector unit has (no u64 -> f64
/// conversion before AVX-512 DQ): the 53-bit value is split in 21 + 32 bits, each
/// turned into a float by the 2^52 magic-number trick, and recombined. Every step
/// is exact, so the result has the same bits as the scalar conversion.
#[inline(always)]
fn unit_interval(word: u64) -> f64 {
    const MAGIC: u64 = 0x4330_0000_0000_0000; // 2^52 as f64
    const TWO_52: f64 = 4_503_599_627_370_496.0;
    let value = word >> 11;
    let high = f64::from_bits(MAGIC | (value >> 32)) - TWO_52;
    let low = f64::from_bits(MAGIC | (value & 0xFFFF_FFFF)) - TWO_52;
    (high * 4_294_967_296.0 + low) * (1.0 / (1u64 << 53) as f64)
}

/// `out[j] = key.uniform01(first + j)`; `simd` instantiates it per instruction set.
#[inline(always)]
pub(super) fn uniform01_body(key: RandomKey, first: u64, out: &mut [f64]) {
    let mut index = first;
    let mut groups = out.chunks_exact_mut(LANES);
    for group in &mut groups {
        let [words, _] = philox_lanes(key, index);
        for (slot, &word) in group.iter_mut().zip(&words.0) {
            *slot = unit_interval(word);
        }
        index = index.wrapping_add(LANES as u64);
    }
    let rest = groups.into_remainder();
    if !rest.is_empty() {
        let [words, _] = philox_lanes(key, index);
        for (slot, &word) in rest.iter_mut().zip(&words.0) {
            *slot = unit_interval(word);
        }
    }
}

/// `out[j] = key.block(first + j, 0)`; `simd` instantiates it per instruction set.
#[inline(always)]
pub(super) fn blocks_body(key: RandomKey, first: u64, out: &mut [[u64; 2]]) {
    let mut index = first;
    for group in out.chunks_mut(LANES) {
        let [first_words, second_words] = philox_lanes(key, index);
        for (lane, slot) in group.iter_mut().enumerate() {
            *slot = [first_words[lane], second_words[lane]];
        }
        index = index.wrapping_add(LANES as u64);
    }
}

/// `out[j] = key.uniform01(first + j)`, with the fastest Philox build the CPU runs.
pub fn fill_uniform01(key: RandomKey, first: u64, out: &mut [f64]) {
    if out.len() < SCALAR_BELOW {
        for (offset, slot) in out.iter_mut().enumerate() {
            *slot = key.uniform01(first.wrapping_add(offset as u64));
        }
        return;
    }
    simd::uniform01(Isa::best(), key, first, out);
}

/// `out[j]` is element `first + j` of `uniform(low, high)`, computed as the
/// interpreter always has: `low + (high - low) * u`.
pub fn fill_uniform(key: RandomKey, first: u64, low: f64, high: f64, out: &mut [f64]) {
    fill_uniform01(key, first, out);
    let width = high - low;
    for value in out.iter_mut() {
        *value = low + width * *value;
    }
}

/// `out[j] = key.standard_normal(first + j)`: Philox in batches, then the same
/// per-element Box–Muller arithmetic (`ln`, `cos`) as the scalar function.
pub fn fill_standard_normal(key: RandomKey, first: u64, out: &mut [f64]) {
    for_each_block(key, first, out, |_, block| super::normal_from_block(block));
}

/// `out[j]` is element `first + j` of `normal(loc, scale)`: `loc + scale * z`.
pub fn fill_normal(key: RandomKey, first: u64, loc: f64, scale: f64, out: &mut [f64]) {
    for_each_block(key, first, out, |_, block| {
        loc + scale * super::normal_from_block(block)
    });
}

/// `out[j] = key.randint(first + j, low, high)`: the first block of every element in
/// batches; the rare element whose two words are both rejected takes the scalar path.
pub fn fill_randint(key: RandomKey, first: u64, low: i64, high: i64, out: &mut [i64]) {
    if high <= low {
        out.fill(low);
        return;
    }
    let range = high.wrapping_sub(low) as u64;
    for_each_block(
        key,
        first,
        out,
        |index, [word0, word1]| match lemire_bounded(word0, range)
            .or_else(|| lemire_bounded(word1, range))
        {
            Some(offset) => low.wrapping_add(offset as i64),
            None => key.randint(index, low, high),
        },
    );
}

/// `out[j] = finish(first + j, key.block(first + j, 0))`, Philox batched through a
/// small scratch buffer that stays in L1.
fn for_each_block<T>(
    key: RandomKey,
    first: u64,
    out: &mut [T],
    mut finish: impl FnMut(u64, [u64; 2]) -> T,
) {
    if out.len() < SCALAR_BELOW {
        for (offset, slot) in out.iter_mut().enumerate() {
            let index = first.wrapping_add(offset as u64);
            *slot = finish(index, key.block(index, 0));
        }
        return;
    }
    let isa = Isa::best();
    let mut scratch = [[0u64; 2]; SCRATCH_BLOCKS];
    let mut index = first;
    for group in out.chunks_mut(SCRATCH_BLOCKS) {
        let blocks = &mut scratch[..group.len()];
        simd::blocks(isa, key, index, blocks);
        for (offset, (slot, &block)) in group.iter_mut().zip(blocks.iter()).enumerate() {
            *slot = finish(index.wrapping_add(offset as u64), block);
        }
        index = index.wrapping_add(group.len() as u64);
    }
}
