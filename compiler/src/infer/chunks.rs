//! Chunk specs (`chunks=` / `chunk_size=`) and automatic chunking under a byte budget.
//!
//! Automatic chunking follows Dask's `auto_chunks`: axes whose whole length fits the
//! near-square chunk edge are kept whole, which frees budget for the others, and the
//! remaining axes share the budget evenly. Unlike Dask's default, an axis's chunks are
//! balanced (sizes differ by at most one) so the last chunk is never a tiny remainder.
//!
//! The budget is an upper bound, not a target: a big tensor is cut into at least
//! [`PARALLEL_CHUNKS`] chunks (as long as each keeps [`PARALLEL_FLOOR_BYTES`]), so
//! that the workers share it evenly. Three 128 MiB chunks of a 400 MB tensor on two
//! workers leave one worker idle for a third of the run; sixteen 25 MB chunks do not.
//! The rule depends only on the tensor, never on the machine, so dumps stay the same
//! everywhere.

use super::{python_tuple, InferError, InferResult};
use marsc_runtime::DType;

/// A whole `chunks=` argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChunkSpec {
    /// `"auto"` (the default).
    Auto,
    /// One int for every axis (`-1` = whole axis).
    All(i64),
    /// One entry per axis.
    PerAxis(Vec<AxisChunks>),
}

/// The chunking of one axis inside a per-axis spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AxisChunks {
    /// Chunks of this size; `-1` = the whole axis.
    Size(i64),
    /// `None`: the whole axis.
    Whole,
    /// `"auto"`.
    Auto,
    /// Explicit split sizes.
    Splits(Vec<i64>),
}

/// Resolves a chunk spec for a tensor of this shape and dtype into nsplits.
pub fn resolve_chunks(
    spec: &ChunkSpec,
    shape: &[usize],
    dtype: DType,
    budget_bytes: u64,
) -> InferResult<Vec<Vec<usize>>> {
    let nsplits = match spec {
        ChunkSpec::Auto => auto_chunks(
            shape,
            dtype.itemsize(),
            budget_bytes,
            &vec![None; shape.len()],
        ),
        ChunkSpec::All(size) => {
            let size = chunk_size(*size)?;
            let sizes = vec![size; shape.len()];
            check_chunk_count(shape, &sizes)?;
            shape
                .iter()
                .map(|&len| regular_splits(len, size.unwrap_or(len)))
                .collect()
        }
        ChunkSpec::PerAxis(entries) => resolve_per_axis(entries, shape, dtype, budget_bytes)?,
    };
    let total: u128 = nsplits.iter().map(|s| s.len() as u128).product();
    if total > MAX_CHUNKS {
        return Err(too_many_chunks(shape, total));
    }
    Ok(nsplits)
}

/// More chunks than this would make compiling and scheduling the tensor too slow
/// to be useful, so such a spec is rejected before any chunk list is built.
const MAX_CHUNKS: u128 = 1 << 25;

/// Rejects fixed chunk sizes (`None` = whole axis) that would give too many chunks.
fn check_chunk_count(shape: &[usize], sizes: &[Option<usize>]) -> InferResult<()> {
    let total: u128 = shape
        .iter()
        .zip(sizes)
        .map(|(&len, size)| match size {
            Some(size) if len > 0 => len.div_ceil((*size).max(1)) as u128,
            _ => 1,
        })
        .product();
    if total > MAX_CHUNKS {
        return Err(too_many_chunks(shape, total));
    }
    Ok(())
}

fn too_many_chunks(shape: &[usize], total: u128) -> InferError {
    InferError::new(format!(
        "these chunks would split a tensor of shape {} into {total} chunks, more than the {MAX_CHUNKS} supported",
        python_tuple(shape)
    ))
    .with_help("use bigger chunks, or chunks=\"auto\"")
}

/// A size entry: `Some(size)` for a positive size, `None` for `-1` (whole axis).
fn chunk_size(size: i64) -> InferResult<Option<usize>> {
    match size {
        -1 => Ok(None),
        1.. => Ok(Some(usize::try_from(size).unwrap_or(usize::MAX))),
        _ => Err(
            InferError::new(format!("chunk size must be positive, got {size}"))
                .with_help("use a positive size, or -1 (or None) for the whole axis"),
        ),
    }
}

fn resolve_per_axis(
    entries: &[AxisChunks],
    shape: &[usize],
    dtype: DType,
    budget_bytes: u64,
) -> InferResult<Vec<Vec<usize>>> {
    if entries.len() != shape.len() {
        return Err(InferError::new(format!(
            "chunks has {} entries but the tensor has {} dimensions",
            entries.len(),
            shape.len()
        ))
        .with_help(format!(
            "give one entry per dimension of the shape {}, or a single int for all of them",
            python_tuple(shape)
        )));
    }
    // Explicit splits take part in the budget through their largest chunk.
    let mut fixed = Vec::with_capacity(shape.len());
    let mut explicit = Vec::with_capacity(shape.len());
    for (axis, (entry, &len)) in entries.iter().zip(shape).enumerate() {
        let (size, splits) = match entry {
            AxisChunks::Size(size) => (Some(chunk_size(*size)?.unwrap_or(len)), None),
            AxisChunks::Whole => (Some(len), None),
            AxisChunks::Auto => (None, None),
            AxisChunks::Splits(splits) => {
                let splits = explicit_splits(splits, axis, len)?;
                (splits.iter().max().copied(), Some(splits))
            }
        };
        fixed.push(size);
        explicit.push(splits);
    }
    check_chunk_count(shape, &fixed)?;
    let mut nsplits = auto_chunks(shape, dtype.itemsize(), budget_bytes, &fixed);
    for (axis, splits) in explicit.into_iter().enumerate() {
        if let Some(splits) = splits {
            nsplits[axis] = splits;
        }
    }
    Ok(nsplits)
}

/// Checks user-given split sizes; zero-size entries are dropped as they hold nothing.
fn explicit_splits(splits: &[i64], axis: usize, len: usize) -> InferResult<Vec<usize>> {
    if let Some(&negative) = splits.iter().find(|&&s| s < 0) {
        return Err(InferError::new(format!(
            "chunk size must be positive, got {negative}"
        )));
    }
    let total: i128 = splits.iter().map(|&s| i128::from(s)).sum();
    if total != len as i128 {
        let example = if len > 1 {
            format!(", e.g. {}", python_tuple(&[len / 2, len - len / 2]))
        } else {
            String::new()
        };
        return Err(InferError::new(format!(
            "chunk splits {} sum to {total}, but axis {axis} has length {len}",
            python_tuple(splits)
        ))
        .with_help(format!(
            "the splits of an axis must add up to its length{example}"
        )));
    }
    let kept: Vec<usize> = splits
        .iter()
        .filter(|&&s| s > 0)
        .map(|&s| s as usize)
        .collect();
    Ok(if kept.is_empty() { vec![0] } else { kept })
}

/// `[size, .., size, rem]` covering `len`; a length of 0 gives `[0]`.
pub fn regular_splits(len: usize, size: usize) -> Vec<usize> {
    if len == 0 || size == 0 || size >= len {
        return vec![len];
    }
    let mut splits = vec![size; len / size];
    if !len.is_multiple_of(size) {
        splits.push(len % size);
    }
    splits
}

/// `len` split into as few chunks of at most `edge` as possible, sizes within one.
fn balanced_splits(len: usize, edge: usize) -> Vec<usize> {
    let edge = edge.max(1);
    let count = len.div_ceil(edge).max(1);
    let (base, extra) = (len / count, len % count);
    (0..count).map(|i| base + usize::from(i < extra)).collect()
}

/// The largest `c` with `c^k <= value` (`k >= 1`), at least 1.
fn integer_root(value: u128, k: u32) -> u128 {
    let fits = |c: u128| c.checked_pow(k).is_some_and(|p| p <= value);
    // The float estimate is within one or two of the answer; the loops make it exact.
    let mut root = ((value as f64).powf(1.0 / f64::from(k)) as u128).max(1);
    while root > 1 && !fits(root) {
        root -= 1;
    }
    while fits(root + 1) {
        root += 1;
    }
    root
}

/// Near-square chunks of at most `budget_bytes` each; axes with a fixed size keep it.
pub fn auto_chunks(
    shape: &[usize],
    itemsize: usize,
    budget_bytes: u64,
    fixed: &[Option<usize>],
) -> Vec<Vec<usize>> {
    let budget_bytes = budget_bytes.min(parallel_cap(shape, itemsize));
    let mut nsplits: Vec<Option<Vec<usize>>> = shape
        .iter()
        .enumerate()
        .map(|(axis, &len)| match fixed.get(axis) {
            Some(Some(size)) => Some(regular_splits(len, *size)),
            _ => None,
        })
        .collect();
    // An empty array holds no bytes; any chunking fits, so keep every axis whole.
    let empty = shape.contains(&0);
    let limit = u128::from(budget_bytes / itemsize.max(1) as u64).max(1);
    loop {
        let autos: Vec<usize> = (0..shape.len()).filter(|&a| nsplits[a].is_none()).collect();
        if autos.is_empty() {
            break;
        }
        let block: u128 = nsplits
            .iter()
            .flatten()
            .map(|splits| splits.iter().copied().max().unwrap_or(1).max(1) as u128)
            .product();
        let edge = integer_root((limit / block).max(1), autos.len() as u32);
        let small: Vec<usize> = autos
            .iter()
            .copied()
            .filter(|&a| empty || shape[a] as u128 <= edge)
            .collect();
        if small.is_empty() {
            let edge = usize::try_from(edge).unwrap_or(usize::MAX);
            for axis in autos {
                nsplits[axis] = Some(balanced_splits(shape[axis], edge));
            }
            break;
        }
        for axis in small {
            nsplits[axis] = Some(vec![shape[axis]]);
        }
    }
    nsplits.into_iter().flatten().collect()
}

/// The most bytes automatic chunking gives a tensor chunk read from a chunked
/// store (Zarr, a chunked HDF5 dataset) when `--chunk-bytes` allows more: every
/// byte is decoded into a fresh buffer, not mapped, so a bigger chunk only costs
/// fresh pages and memory (the 2 GB Zarr benchmark of `bench/peers/zarr_bench.py`:
/// 16 MiB chunks read 1.9x faster than 128 MiB ones, in a tenth of the memory).
pub const DECODED_CHUNK_BYTES: u64 = 16 << 20;

/// The chunks of a tensor read from a store chunked `store_chunks`: whole store
/// chunks, as many along each axis as automatic chunking's edge allows (at least
/// one), so no tensor chunk cuts a store chunk and reads decode each store chunk
/// once; the edge is that of `budget_bytes` but at most [`DECODED_CHUNK_BYTES`].
pub fn store_grid_chunks(
    shape: &[usize],
    store_chunks: &[usize],
    itemsize: usize,
    budget_bytes: u64,
) -> Vec<Vec<usize>> {
    let budget_bytes = budget_bytes.min(DECODED_CHUNK_BYTES);
    let auto = auto_chunks(shape, itemsize, budget_bytes, &vec![None; shape.len()]);
    shape
        .iter()
        .zip(store_chunks)
        .zip(&auto)
        .map(|((&len, &store), auto)| {
            let edge = auto.iter().copied().max().unwrap_or(len);
            let store = store.max(1);
            let size = if edge >= len {
                len
            } else {
                (edge / store).max(1) * store
            };
            regular_splits(len, size)
        })
        .collect()
}

/// How many chunks a big tensor is cut into at least, for load balance: enough for
/// every worker of a machine of up to 8 cores to get two.
pub const PARALLEL_CHUNKS: u64 = 16;

/// The smallest chunk the parallel rule makes: below this, per-chunk overheads
/// (scheduling, a kernel call) start to show next to the work.
pub const PARALLEL_FLOOR_BYTES: u64 = 8 << 20;

/// The chunk byte size that cuts a tensor of this shape into [`PARALLEL_CHUNKS`]
/// chunks, but not below [`PARALLEL_FLOOR_BYTES`].
fn parallel_cap(shape: &[usize], itemsize: usize) -> u64 {
    let total = shape.iter().fold(itemsize as u128, |bytes, &len| {
        bytes.saturating_mul(len as u128)
    });
    let share = u64::try_from(total / u128::from(PARALLEL_CHUNKS)).unwrap_or(u64::MAX);
    share.max(PARALLEL_FLOOR_BYTES)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const MIB: u64 = 1 << 20;

    #[test]
    fn store_grids_are_kept_or_multiplied() {
        // Small store chunks are joined up to the automatic edge, whole multiples.
        assert_eq!(
            store_grid_chunks(&[4000, 4000], &[300, 300], 8, 128 * MIB),
            vec![vec![900, 900, 900, 900, 400], vec![900, 900, 900, 900, 400]]
        );
        // A small array is one chunk, however it is stored.
        assert_eq!(
            store_grid_chunks(&[10, 7], &[3, 2], 8, 128 * MIB),
            vec![vec![10], vec![7]]
        );
        // Decoded chunks stay small whatever `--chunk-bytes` allows: a 2 GB array
        // in 8 MiB store chunks is read one store chunk at a time, not 4x4.
        assert_eq!(
            store_grid_chunks(&[16384, 16384], &[1024, 1024], 8, 128 * MIB),
            vec![vec![1024; 16], vec![1024; 16]]
        );
        // A store chunk over the budget is still read whole.
        assert_eq!(
            store_grid_chunks(&[1 << 20], &[1 << 19], 8, MIB),
            vec![vec![1 << 19, 1 << 19]]
        );
        // Empty and 0-d arrays.
        assert_eq!(
            store_grid_chunks(&[0, 5], &[1, 5], 8, MIB),
            vec![vec![0], vec![5]]
        );
        assert_eq!(
            store_grid_chunks(&[], &[], 8, MIB),
            Vec::<Vec<usize>>::new()
        );
    }

    #[test]
    fn regular() {
        assert_eq!(regular_splits(10, 3), vec![3, 3, 3, 1]);
        assert_eq!(regular_splits(9, 3), vec![3, 3, 3]);
        assert_eq!(regular_splits(2, 5), vec![2]);
        assert_eq!(regular_splits(0, 5), vec![0]);
    }

    #[test]
    fn big_tensors_get_enough_chunks_for_the_workers() {
        // 50M float64 (400 MB) under the default 128 MiB budget: 16 chunks, not 3.
        let nsplits = auto_chunks(&[50_000_000], 8, 128 * MIB, &[None]);
        assert_eq!(nsplits[0].len(), 16);
        // 4000 x 4000 float64 (128 MB): 8 MiB chunks, a 4 x 4 grid of 1000 x 1000.
        assert_eq!(
            auto_chunks(&[4000, 4000], 8, 128 * MIB, &[None, None]),
            vec![vec![1000; 4], vec![1000; 4]]
        );
        // A 12 MiB tensor is cut at the 8 MiB floor: 2 chunks, not 16.
        assert_eq!(
            auto_chunks(&[12 << 17], 8, 128 * MIB, &[None]),
            vec![vec![6 << 17; 2]]
        );
        // At 8 MiB a tensor stays whole; a smaller budget still wins.
        assert_eq!(
            auto_chunks(&[1 << 20], 8, 128 * MIB, &[None]),
            vec![vec![1 << 20]]
        );
        assert_eq!(
            auto_chunks(&[1 << 20], 8, MIB, &[None]),
            vec![vec![1 << 17; 8]]
        );
    }

    #[test]
    fn auto_keeps_small_arrays_whole_and_squares_big_ones() {
        assert_eq!(
            auto_chunks(&[100, 100], 8, 128 * MIB, &[None, None]),
            vec![vec![100], vec![100]]
        );
        // 1024 x 1024 float64 is 8 MiB; with a 2 MiB budget the edge is 512.
        assert_eq!(
            auto_chunks(&[1024, 1024], 8, 2 * MIB, &[None, None]),
            vec![vec![512, 512], vec![512, 512]]
        );
        // A budget of 1000 elements in 2-D gives an edge of 31; 100 -> 4 chunks of 25.
        assert_eq!(
            auto_chunks(&[100, 100], 1, 1000, &[None, None]),
            vec![vec![25; 4], vec![25; 4]]
        );
        // A short axis is kept whole and the long one gets the rest of the budget.
        assert_eq!(
            auto_chunks(&[10, 1000], 1, 1000, &[None, None]),
            vec![vec![10], vec![100; 10]]
        );
        // Fixed axes keep their size and use up budget.
        assert_eq!(
            auto_chunks(&[100, 100], 1, 1000, &[Some(50), None]),
            vec![vec![50, 50], vec![20; 5]]
        );
        assert_eq!(
            auto_chunks(&[0, 1_000_000], 8, 1000, &[None, None]),
            vec![vec![0], vec![1_000_000]]
        );
        assert_eq!(auto_chunks(&[], 8, 1, &[]), Vec::<Vec<usize>>::new());
        // Balanced: 10 elements with an edge of 3 -> 3, 3, 2, 2 rather than 3, 3, 3, 1.
        assert_eq!(balanced_splits(10, 3), vec![3, 3, 2, 2]);
    }

    #[test]
    fn specs() {
        let f8 = DType::Float64;
        assert_eq!(
            resolve_chunks(&ChunkSpec::All(2), &[5, 3], f8, MIB),
            Ok(vec![vec![2, 2, 1], vec![2, 1]])
        );
        assert_eq!(
            resolve_chunks(&ChunkSpec::All(-1), &[5, 3], f8, 8),
            Ok(vec![vec![5], vec![3]])
        );
        let spec = ChunkSpec::PerAxis(vec![
            AxisChunks::Splits(vec![2, 0, 3]),
            AxisChunks::Whole,
            AxisChunks::Size(-1),
            AxisChunks::Size(4),
        ]);
        assert_eq!(
            resolve_chunks(&spec, &[5, 3, 2, 10], f8, MIB),
            Ok(vec![vec![2, 3], vec![3], vec![2], vec![4, 4, 2]])
        );
        let spec = ChunkSpec::PerAxis(vec![AxisChunks::Size(10), AxisChunks::Auto]);
        assert_eq!(
            resolve_chunks(&spec, &[100, 100], DType::Bool, 1000),
            Ok(vec![vec![10; 10], vec![100]])
        );
    }

    #[test]
    fn spec_errors() {
        let f8 = DType::Float64;
        let message = |spec: ChunkSpec, shape: &[usize]| {
            resolve_chunks(&spec, shape, f8, MIB).unwrap_err().message
        };
        assert_eq!(
            message(ChunkSpec::All(0), &[3]),
            "chunk size must be positive, got 0"
        );
        assert_eq!(
            message(ChunkSpec::PerAxis(vec![AxisChunks::Size(-2)]), &[3]),
            "chunk size must be positive, got -2"
        );
        assert_eq!(
            message(ChunkSpec::PerAxis(vec![AxisChunks::Auto; 3]), &[3, 4]),
            "chunks has 3 entries but the tensor has 2 dimensions"
        );
        assert_eq!(
            message(ChunkSpec::All(1), &[100_000, 100_000]),
            "these chunks would split a tensor of shape (100000, 100000) into 10000000000 chunks, more than the 33554432 supported"
        );
        let err = resolve_chunks(
            &ChunkSpec::PerAxis(vec![AxisChunks::Splits(vec![2, 2])]),
            &[5],
            f8,
            MIB,
        )
        .unwrap_err();
        assert_eq!(
            err.message,
            "chunk splits (2, 2) sum to 4, but axis 0 has length 5"
        );
        assert_eq!(
            err.help.as_deref(),
            Some("the splits of an axis must add up to its length, e.g. (2, 3)")
        );
    }

    fn shapes() -> impl Strategy<Value = Vec<usize>> {
        prop::collection::vec(0usize..3000, 0..4)
    }

    proptest! {
        #[test]
        fn auto_chunks_fit_the_budget_and_cover_the_shape(
            shape in shapes(),
            itemsize in prop::sample::select(vec![1usize, 4, 8]),
            budget in 8u64..100_000,
        ) {
            let nsplits = auto_chunks(&shape, itemsize, budget, &vec![None; shape.len()]);
            prop_assert_eq!(nsplits.len(), shape.len());
            for (splits, &len) in nsplits.iter().zip(&shape) {
                prop_assert_eq!(splits.iter().sum::<usize>(), len);
                prop_assert!(splits == &vec![0] || splits.iter().all(|&s| s > 0));
            }
            let chunk_bytes: usize = nsplits.iter().map(|s| s.iter().copied().max().unwrap_or(1)).product::<usize>() * itemsize;
            prop_assert!(shape.contains(&0) || chunk_bytes as u64 <= budget.max(itemsize as u64));
        }
    }
}
