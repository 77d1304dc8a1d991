//! Batch generation: the values of consecutive global indices at once, bit for bit the
//! values the scalar [`RandomKey`] methods give. Philox runs over [`LANES`] counters
//! side by side (struct of arrays, u32 lanes, the 32x32->64 multiplies as u64
//! products) so the compiler keeps each round in vector registers; `simd` compiles
//! these bodies once per instruction set and picks the best one the CPU has.

use super::simd::{self, Isa};
use super::{lemire_bounded, unit_interval, RandomKey};

/// Counters per Philox batch: a 512-bit vector of u32 lanes.
pub(super) const LANES: usize = 16;

/// Blocks per scratch batch of the distributions that finish element by element.
const SCRATCH_BLOCKS: usize = 64;

/// Philox4x32-10 of `LANES` consecutive counters starting at element `first`: lane
/// `l` of the four output words equals `key.block(first + l, 0)` split in u32s.
#[inline(always)]
fn philox_lanes(key: RandomKey, first: u64) -> [[u32; LANES]; 4] {
    const MULTIPLIERS: [u32; 2] = [0xD251_1F53, 0xCD9E_8D57];
    const KEY_BUMPS: [u32; 2] = [0x9E37_79B9, 0xBB67_AE85];
    let mut x0 = [0u32; LANES];
    let mut x1 = [0u32; LANES];
    let mut x2 = [key.stream as u32; LANES];
    let mut x3 = [(key.stream >> 32) as u32; LANES];
    for lane in 0..LANES {
        let index = first.wrapping_add(lane as u64);
        x0[lane] = index as u32;
        x1[lane] = (index >> 32) as u32;
    }
    let mut k = [key.seed as u32, (key.seed >> 32) as u32];
    for round in 0..10 {
        if round > 0 {
            k = [
                k[0].wrapping_add(KEY_BUMPS[0]),
                k[1].wrapping_add(KEY_BUMPS[1]),
            ];
        }
        for lane in 0..LANES {
            let product0 = u64::from(MULTIPLIERS[0]) * u64::from(x0[lane]);
            let product1 = u64::from(MULTIPLIERS[1]) * u64::from(x2[lane]);
            let next0 = (product1 >> 32) as u32 ^ x1[lane] ^ k[0];
            let next2 = (product0 >> 32) as u32 ^ x3[lane] ^ k[1];
            x0[lane] = next0;
            x1[lane] = product1 as u32;
            x2[lane] = next2;
            x3[lane] = product0 as u32;
        }
    }
    [x0, x1, x2, x3]
}

fn join(low: u32, high: u32) -> u64 {
    u64::from(low) | (u64::from(high) << 32)
}

/// `out[j] = key.uniform01(first + j)`; `simd` instantiates it per instruction set.
#[inline(always)]
pub(super) fn uniform01_body(key: RandomKey, first: u64, out: &mut [f64]) {
    let mut index = first;
    let mut groups = out.chunks_exact_mut(LANES);
    for group in &mut groups {
        let [x0, x1, _, _] = philox_lanes(key, index);
        for lane in 0..LANES {
            group[lane] = unit_interval(join(x0[lane], x1[lane]));
        }
        index = index.wrapping_add(LANES as u64);
    }
    let rest = groups.into_remainder();
    if !rest.is_empty() {
        let [x0, x1, _, _] = philox_lanes(key, index);
        for (lane, slot) in rest.iter_mut().enumerate() {
            *slot = unit_interval(join(x0[lane], x1[lane]));
        }
    }
}

/// `out[j] = key.block(first + j, 0)`; `simd` instantiates it per instruction set.
#[inline(always)]
pub(super) fn blocks_body(key: RandomKey, first: u64, out: &mut [[u64; 2]]) {
    let mut index = first;
    for group in out.chunks_mut(LANES) {
        let [x0, x1, x2, x3] = philox_lanes(key, index);
        for (lane, slot) in group.iter_mut().enumerate() {
            *slot = [join(x0[lane], x1[lane]), join(x2[lane], x3[lane])];
        }
        index = index.wrapping_add(LANES as u64);
    }
}

/// `out[j] = key.uniform01(first + j)`, with the fastest Philox build the CPU runs.
pub fn fill_uniform01(key: RandomKey, first: u64, out: &mut [f64]) {
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
    for_each_block(key, first, out, |index, [word0, word1]| {
        match lemire_bounded(word0, range).or_else(|| lemire_bounded(word1, range)) {
            Some(offset) => low.wrapping_add(offset as i64),
            None => key.randint(index, low, high),
        }
    });
}

/// `out[j] = finish(first + j, key.block(first + j, 0))`, Philox batched through a
/// small scratch buffer that stays in L1.
fn for_each_block<T>(
    key: RandomKey,
    first: u64,
    out: &mut [T],
    mut finish: impl FnMut(u64, [u64; 2]) -> T,
) {
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
