//! Rechunking: moving a tensor's data to a new chunking. Each new chunk is assembled
//! from the regions of the old chunks it overlaps (`Assemble`), so a direct rechunk
//! costs one edge per overlapping (old, new) pair — per axis, one per piece of the
//! common refinement of the two splittings. When that product is far larger than the
//! number of chunks (rows to columns: n² edges for n chunks), the rechunk goes through
//! an intermediate chunking whose chunk sizes are the geometric means of the old and
//! new ones, as Dask's `plan_rechunk` does; its chunks are never larger than the
//! larger of the old and new ones, so memory stays bounded.

use super::grid_map::push_box;
use super::{TileResult, Tiler};
use crate::chunk::{ChunkOp, Layout, StepId};
use crate::infer::chunks::regular_splits;
use crate::infer::nsplits::unify_splits;
use crate::tileable::TileableId;

/// How many intermediate chunkings a plan may chain at most.
const MAX_PLAN_DEPTH: u32 = 3;

/// Edges of a direct rechunk from `old` to `new`: the number of (old chunk, new
/// chunk) pairs that overlap.
pub fn rechunk_edges(old: &[Vec<usize>], new: &[Vec<usize>]) -> u128 {
    old.iter()
        .zip(new)
        .map(|(o, n)| unify_splits(o, n).len().max(1) as u128)
        .product()
}

/// How many chunks a chunking has (wide, so an absurd grid cannot overflow).
pub(crate) fn chunk_count(nsplits: &[Vec<usize>]) -> u128 {
    nsplits.iter().fold(1u128, |count, splits| {
        count.saturating_mul(splits.len() as u128)
    })
}

/// The chunkings to pass through, ending with `new`. A direct rechunk is chosen
/// unless it needs more than `threshold` pieces per chunk on average and an
/// intermediate chunking at least halves the edges.
pub fn plan_rechunk(
    old: &[Vec<usize>],
    new: &[Vec<usize>],
    threshold: usize,
) -> Vec<Vec<Vec<usize>>> {
    plan(old, new, threshold as u128, MAX_PLAN_DEPTH)
}

fn plan(
    old: &[Vec<usize>],
    new: &[Vec<usize>],
    threshold: u128,
    depth: u32,
) -> Vec<Vec<Vec<usize>>> {
    let direct = rechunk_edges(old, new);
    let chunks = chunk_count(old).max(chunk_count(new));
    if depth == 0 || direct <= threshold * chunks {
        return vec![new.to_vec()];
    }
    let middle = intermediate(old, new);
    if middle == old || middle == new {
        return vec![new.to_vec()];
    }
    let two_steps = rechunk_edges(old, &middle) + rechunk_edges(&middle, new);
    if two_steps * 2 > direct {
        return vec![new.to_vec()];
    }
    let mut steps = plan(old, &middle, threshold, depth - 1);
    steps.extend(plan(&middle, new, threshold, depth - 1));
    steps
}

/// Per axis, regular chunks of the geometric mean of the old and new mean sizes.
fn intermediate(old: &[Vec<usize>], new: &[Vec<usize>]) -> Vec<Vec<usize>> {
    old.iter()
        .zip(new)
        .map(|(o, n)| {
            let len: usize = o.iter().sum();
            if o == n || len == 0 {
                return o.clone();
            }
            let mean_old = len as f64 / o.len() as f64;
            let mean_new = len as f64 / n.len() as f64;
            let size = ((mean_old * mean_new).sqrt().round() as usize).clamp(1, len);
            regular_splits(len, size)
        })
        .collect()
}

impl Tiler<'_> {
    /// `step`'s data chunked as `nsplits` (the same step when it already is).
    pub(super) fn ensure_nsplits(
        &mut self,
        step: StepId,
        nsplits: &[Vec<usize>],
        tileable: TileableId,
    ) -> TileResult<StepId> {
        if self.layout(step).nsplits() == nsplits {
            return Ok(step);
        }
        let cache_key = (step, nsplits.to_vec());
        if let Some(&done) = self.rechunks.get(&cache_key) {
            return Ok(done);
        }
        let plan = plan_rechunk(
            self.layout(step).nsplits(),
            nsplits,
            self.options.rechunk_threshold,
        );
        let mut current = step;
        for target in plan {
            current = self.assemble(current, target, tileable)?;
        }
        self.rechunks.insert(cache_key, current);
        Ok(current)
    }

    /// One direct rechunk of `source` to `target`.
    fn assemble(
        &mut self,
        source: StepId,
        target: Vec<Vec<usize>>,
        tileable: TileableId,
    ) -> TileResult<StepId> {
        let old = self.layout(source).clone();
        let new = Layout::new(target);
        debug_assert_eq!(old.shape(), new.shape(), "a rechunk keeps the shape");
        // Per axis, the old chunks each new chunk overlaps, as an inclusive range.
        let overlaps: Vec<Vec<(usize, usize)>> = (0..new.ndim())
            .map(|axis| {
                let starts = new.offsets(axis);
                (0..new.chunks_along(axis))
                    .map(|j| {
                        let (start, end) = (starts[j], starts[j + 1]);
                        let first = old.chunk_at(axis, start);
                        let last = if end > start {
                            old.chunk_at(axis, end - 1)
                        } else {
                            first
                        };
                        (first, last)
                    })
                    .collect()
            })
            .collect();
        let strides = old.grid_strides();
        let first = self.out.step(source).first_chunk.0;
        let dtype = self.out.step(source).dtype;
        let mut ranges = vec![(0, 0); new.ndim()];
        self.add_listed(
            ChunkOp::Assemble,
            tileable,
            dtype,
            new,
            vec![source],
            |position, inputs| {
                for (axis, &j) in position.iter().enumerate() {
                    ranges[axis] = overlaps[axis][j];
                }
                push_box(&ranges, &strides, first, inputs);
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edges_count_overlapping_pairs() {
        // (2,2)+(3,1) refine to (2,1,1): three pieces on that axis.
        assert_eq!(rechunk_edges(&[vec![2, 2]], &[vec![3, 1]]), 3);
        assert_eq!(
            rechunk_edges(&[vec![2, 2], vec![5]], &[vec![4], vec![1; 5]]),
            10
        );
    }

    #[test]
    fn small_rechunks_are_direct() {
        let plan = plan_rechunk(&[vec![2, 2]], &[vec![3, 1]], 4);
        assert_eq!(plan, vec![vec![vec![3, 1]]]);
    }

    #[test]
    fn rows_to_columns_goes_through_squares() {
        // A 100x100 tensor in row chunks to column chunks: 10,000 edges directly.
        let rows = vec![vec![1; 100], vec![100]];
        let columns = vec![vec![100], vec![1; 100]];
        assert_eq!(rechunk_edges(&rows, &columns), 10_000);
        let plan = plan_rechunk(&rows, &columns, 4);
        assert_eq!(plan.len(), 2);
        assert_eq!(plan[0], vec![vec![10; 10], vec![10; 10]]);
        assert_eq!(plan[1], columns);
        let total = rechunk_edges(&rows, &plan[0]) + rechunk_edges(&plan[0], &plan[1]);
        assert_eq!(total, 2_000);
    }
}
