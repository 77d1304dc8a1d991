//! Keeps an op from making chunks bigger than the chunk byte budget. Results take
//! their chunks from their inputs, but broadcasting (`col + row`, `outer`, a matmul
//! of a tall and a wide operand) or a wider dtype (`mask.astype(float)`) can make a
//! result chunk far bigger than any input chunk: `ones((n, 1)) + ones((1, n))` would
//! be one n-by-n chunk. Such a result is split further, along the near-square chunks
//! automatic chunking would pick, so every chunk fits the budget again. The tiler
//! rechunks the operands to the finer splits (a split-only rechunk), and reads
//! broadcast axes from their single chunk as before.

use super::chunks::auto_chunks;
use super::nsplits::unify_splits;

/// The number of elements in the largest chunk of a chunking.
pub fn largest_chunk(nsplits: &[Vec<usize>]) -> u128 {
    nsplits
        .iter()
        .map(|splits| splits.iter().copied().max().unwrap_or(0) as u128)
        .product()
}

/// `nsplits` refined so that no chunk exceeds `budget_bytes`, when the op made a
/// chunk bigger than both the budget and its largest input chunk
/// (`largest_input_bytes`); otherwise `nsplits` unchanged. A user who chose huge
/// input chunks keeps them: only growth the op itself caused is undone.
pub fn fit_to_budget(
    nsplits: Vec<Vec<usize>>,
    shape: &[usize],
    itemsize: usize,
    budget_bytes: u64,
    largest_input_bytes: u128,
) -> Vec<Vec<usize>> {
    let largest = largest_chunk(&nsplits) * itemsize as u128;
    if largest <= u128::from(budget_bytes) || largest <= largest_input_bytes {
        return nsplits;
    }
    let target = auto_chunks(shape, itemsize, budget_bytes, &[]);
    nsplits
        .iter()
        .zip(&target)
        .map(|(splits, target)| unify_splits(splits, target))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broadcast_results_are_split_to_the_budget() {
        // (1000, 1) + (1, 1000) float64 in single chunks: one 8 MB result chunk
        // against a 1 MiB budget becomes near-square chunks of at most 1 MiB.
        let nsplits = vec![vec![1000], vec![1000]];
        let fitted = fit_to_budget(nsplits, &[1000, 1000], 8, 1 << 20, 8000);
        assert!(largest_chunk(&fitted) * 8 <= 1 << 20);
        assert_eq!(fitted[0].iter().sum::<usize>(), 1000);
        assert_eq!(fitted[1].iter().sum::<usize>(), 1000);
        assert_eq!(fitted[0], fitted[1]);
    }

    #[test]
    fn existing_boundaries_are_kept() {
        let nsplits = vec![vec![600, 400], vec![1000]];
        let fitted = fit_to_budget(nsplits, &[1000, 1000], 8, 1 << 20, 8000);
        let boundaries = |splits: &[usize]| {
            splits
                .iter()
                .scan(0, |end, s| {
                    *end += s;
                    Some(*end)
                })
                .collect::<Vec<usize>>()
        };
        assert!(boundaries(&fitted[0]).contains(&600));
    }

    #[test]
    fn chunks_within_the_budget_or_inherited_are_unchanged() {
        let small = vec![vec![100], vec![100]];
        assert_eq!(
            fit_to_budget(small.clone(), &[100, 100], 8, 1 << 20, 0),
            small
        );
        // The input already had a chunk this big: the user chose it.
        let big = vec![vec![1000], vec![1000]];
        assert_eq!(
            fit_to_budget(big.clone(), &[1000, 1000], 8, 1 << 20, 8_000_000),
            big
        );
    }
}
