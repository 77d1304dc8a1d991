//! A seeded Fisher–Yates shuffle on SplitMix64, for the random worker assignment and
//! for relabelling test graphs; small enough not to need a crate, and stable across
//! platforms and crate versions, so seeded results never change.

/// SplitMix64 (Steele, Lea and Flood, 2014): a 64-bit state advanced by a Weyl
/// sequence and finalized by a bijective mix.
pub(crate) struct SplitMix64(u64);

impl SplitMix64 {
    pub(crate) fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value in `0..bound` (`bound > 0`), by Lemire's multiply-shift; the bias is
    /// below 2^-32 for the sizes used here, which does not matter for shuffling.
    pub(crate) fn below(&mut self, bound: usize) -> usize {
        ((u128::from(self.next_u64()) * bound as u128) >> 64) as usize
    }
}

/// Shuffles `items` in place; the same seed always gives the same permutation.
pub fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut rng = SplitMix64::new(seed);
    for last in (1..items.len()).rev() {
        let pick = rng.below(last + 1);
        items.swap(last, pick);
    }
}
