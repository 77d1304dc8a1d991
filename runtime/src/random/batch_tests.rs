//! The batch generators against the scalar reference, element by element and bit for
//! bit: every compiled build the CPU runs, every distribution, random keys, start
//! indices (also just below a 2^32 carry) and lengths.

use super::simd::{self, Isa};
use super::*;
use proptest::prelude::*;

fn start_index() -> impl Strategy<Value = u64> {
    prop_oneof![
        0u64..1_000_000,
        // Runs that cross a carry into the counter's second word.
        (0u64..300).prop_map(|back| (1u64 << 32) - back),
        (0u64..300).prop_map(|back| (3u64 << 32) - back),
        0u64..(1u64 << 48),
    ]
}

fn key() -> impl Strategy<Value = RandomKey> {
    (any::<u64>(), any::<u64>()).prop_map(|(seed, stream)| RandomKey { seed, stream })
}

fn assert_same_bits(batch: &[f64], scalar: impl Fn(u64) -> f64, first: u64) {
    for (j, value) in batch.iter().enumerate() {
        let expected = scalar(first.wrapping_add(j as u64));
        assert_eq!(
            value.to_bits(),
            expected.to_bits(),
            "element {j} from {first}"
        );
    }
}

proptest! {
    #[test]
    fn every_build_gives_the_scalar_uniforms(key in key(), first in start_index(), len in 0usize..300) {
        for isa in Isa::supported() {
            let mut out = vec![f64::NAN; len];
            simd::uniform01(isa, key, first, &mut out);
            assert_same_bits(&out, |i| key.uniform01(i), first);
        }
    }

    #[test]
    fn every_build_gives_the_scalar_blocks(key in key(), first in start_index(), len in 0usize..300) {
        for isa in Isa::supported() {
            let mut out = vec![[0u64; 2]; len];
            simd::blocks(isa, key, first, &mut out);
            for (j, block) in out.iter().enumerate() {
                prop_assert_eq!(*block, key.block(first + j as u64, 0), "{:?} element {}", isa, j);
            }
        }
    }

    #[test]
    fn batch_distributions_equal_the_scalar_ones(key in key(), first in start_index(), len in 0usize..300) {
        let mut out = vec![f64::NAN; len];
        fill_uniform01(key, first, &mut out);
        assert_same_bits(&out, |i| key.uniform01(i), first);
        fill_uniform(key, first, -2.5, 7.0, &mut out);
        assert_same_bits(&out, |i| -2.5 + 9.5 * key.uniform01(i), first);
        fill_standard_normal(key, first, &mut out);
        assert_same_bits(&out, |i| key.standard_normal(i), first);
        fill_normal(key, first, 3.0, 0.25, &mut out);
        assert_same_bits(&out, |i| 3.0 + 0.25 * key.standard_normal(i), first);
    }

    #[test]
    fn batch_randint_equals_the_scalar_one(
        key in key(),
        first in start_index(),
        len in 0usize..300,
        (low, high) in prop_oneof![
            (-10i64..10, -10i64..10),
            Just((i64::MIN, i64::MAX)),
            // Ranges just above 2^63 reject almost half the words.
            (0i64..4).prop_map(|k| (i64::MIN, k)),
        ],
    ) {
        let mut out = vec![0i64; len];
        fill_randint(key, first, low, high, &mut out);
        for (j, &value) in out.iter().enumerate() {
            prop_assert_eq!(value, key.randint(first + j as u64, low, high), "element {}", j);
        }
    }
}

#[test]
fn rejected_draws_take_the_scalar_path() {
    // With range 2^63 + 1 about half the words are rejected, so in 2000 elements some
    // element rejects both words of its first block.
    let key = RandomKey { seed: 7, stream: 1 };
    let (low, high) = (i64::MIN, 1i64);
    let range = high.wrapping_sub(low) as u64;
    let both_rejected = (0..2000u64).any(|i| {
        let [a, b] = key.block(i, 0);
        lemire_bounded(a, range).is_none() && lemire_bounded(b, range).is_none()
    });
    assert!(both_rejected);
    let mut out = vec![0i64; 2000];
    fill_randint(key, 0, low, high, &mut out);
    for (i, &value) in out.iter().enumerate() {
        assert_eq!(value, key.randint(i as u64, low, high));
    }
}

#[test]
fn the_portable_build_is_always_supported_and_listed_first() {
    let builds = Isa::supported();
    assert_eq!(builds.first(), Some(&Isa::Portable));
    assert!(builds.contains(&Isa::best()));
}
