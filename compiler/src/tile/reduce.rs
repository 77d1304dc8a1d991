//! Reductions as trees of the stages `ops::reduction` declares: every data chunk is
//! reduced to a partial state (`ReductionStage::Map`), states of neighbouring blocks
//! are merged `combine_size` at a time, the fan-in spread over the reduced axes
//! (`Combine`, one step per level), and the last state of each kept-axes block
//! becomes the result (`Finish`).
//!
//! The state steps are laid out as a tensor whose reduced axes count blocks: a map
//! over a grid with 5 chunks along a reduced axis has length 5 there, split `[1; 5]`;
//! each combine level shrinks that count until it is 1.
//!
//! `var` and `std` are NumPy's two passes: a `mean` tree finished with keepdims, then
//! element-wise `square(x - mean)` and a `sum` tree whose root (`var.finish` or
//! `std.finish`) divides by `max(n - ddof, 0)`.

use super::grid_map::{push_box, GridMap};
use super::{TileResult, Tiler};
use crate::chunk::{ChunkOp, Layout, StepId};
use crate::ops::{Creation, ElementwiseOp, ReductionOp, ReductionStage};
use crate::tileable::{TileableId, TileableNode};
use marsc_runtime::ops::{BinaryOp, ReduceOp, Reduction, UnaryOp};
use marsc_runtime::DType;

/// How many blocks along each reduced axis one combine chunk merges, given the
/// current block counts: the product stays within `combine_size`, and each step of
/// the greedy choice widens the axis with the most groups left, so the fan-in is
/// spread over the axes (4 over two long axes is 2×2).
pub fn combine_groups(blocks: &[usize], combine_size: usize) -> Vec<usize> {
    let mut groups = vec![1; blocks.len()];
    loop {
        let product: usize = groups.iter().product();
        let widest = (0..blocks.len())
            .filter(|&a| {
                groups[a] < blocks[a] && product / groups[a] * (groups[a] + 1) <= combine_size
            })
            .max_by_key(|&a| (blocks[a].div_ceil(groups[a]), std::cmp::Reverse(a)));
        match widest {
            Some(axis) => groups[axis] += 1,
            None => return groups,
        }
    }
}

/// The block counts along the reduced axes after each combine level, from `blocks`
/// down to all ones (empty when there is a single block already).
pub fn reduction_levels(blocks: &[usize], combine_size: usize) -> Vec<Vec<usize>> {
    let mut levels = Vec::new();
    let mut current = blocks.to_vec();
    while current.iter().any(|&n| n > 1) {
        let groups = combine_groups(&current, combine_size.max(2));
        current = current
            .iter()
            .zip(&groups)
            .map(|(n, g)| n.div_ceil(*g))
            .collect();
        levels.push(current.clone());
    }
    levels
}

impl Tiler<'_> {
    /// A reduction as a tree of stages, a scan as a chain (`scan.rs`).
    pub(super) fn tile_reduction(
        &mut self,
        id: TileableId,
        node: &TileableNode,
        op: &ReductionOp,
    ) -> TileResult<StepId> {
        match op {
            ReductionOp::Reduce {
                reduction,
                axes,
                keepdims,
            } => self.tile_reduce(id, node, *reduction, axes, *keepdims),
            ReductionOp::Scan { op, axis } => self.tile_scan(id, node, *op, *axis),
        }
    }

    fn tile_reduce(
        &mut self,
        id: TileableId,
        node: &TileableNode,
        reduction: Reduction,
        axes: &[usize],
        keepdims: bool,
    ) -> TileResult<StepId> {
        let source = self.input(node, 0);
        if matches!(reduction.op, ReduceOp::Var | ReduceOp::Std) {
            return self.tile_moments(id, node.dtype, source, reduction, axes, keepdims);
        }
        let merged = self.reduce_tree(id, source, reduction, axes)?;
        self.finish_reduce(merged, id, node.dtype, reduction, axes, keepdims)
    }

    /// The map stage and the combine levels: one merged state per block of the kept
    /// axes.
    fn reduce_tree(
        &mut self,
        id: TileableId,
        source: StepId,
        reduction: Reduction,
        axes: &[usize],
    ) -> TileResult<StepId> {
        let in_layout = self.layout(source).clone();
        let in_dtype = self.out.step(source).dtype;
        let blocks: Vec<usize> = axes.iter().map(|&a| in_layout.chunks_along(a)).collect();
        let map_layout = Layout::new(with_block_counts(in_layout.nsplits(), axes, &blocks));
        let map_op = ChunkOp::Reduce(ReductionStage::Map {
            reduction,
            axes: axes.to_vec(),
            input_shape: in_layout.shape().to_vec(),
        });
        let identity = GridMap::identity(&in_layout);
        let mut current =
            self.add_mapped(map_op, id, in_dtype, map_layout, &[(source, identity)])?;
        for level in reduction_levels(&blocks, self.options.combine_size) {
            current = self.combine_level(current, id, reduction, axes, &level)?;
        }
        Ok(current)
    }

    /// `var`/`std` as NumPy's `_var` computes them: the mean over `axes` (kept as
    /// length-1 axes, in the variance's `dtype`), then the sum of `(x - mean)²`, which
    /// the root divides by `max(n - ddof, 0)` (and takes the square root of, for
    /// `std`). The global mean first, rather than merging per-chunk means, keeps data
    /// far from zero (`1e10 + small`) as accurate as NumPy; the price is that `x` is
    /// read twice, so it is kept until the second pass has read it.
    ///
    /// This is NumPy's algorithm, not a more accurate one (such as subtracting
    /// `(Σ(x - mean))² / n`, which cancels the mean's rounding): NumPy's own result
    /// carries `n · (its mean's error)²`, 6e-11 relative on `1e10 + [0.1, 0.2, 0.3]`,
    /// and the contract is NumPy's values. Chunked sums round the mean differently
    /// from NumPy's one pairwise sum only by an ulp or so.
    fn tile_moments(
        &mut self,
        id: TileableId,
        dtype: DType,
        source: StepId,
        reduction: Reduction,
        axes: &[usize],
        keepdims: bool,
    ) -> TileResult<StepId> {
        let in_layout = self.layout(source).clone();
        // Complex data: the mean and the deviations are complex, and NumPy sums
        // `(d * conj(d)).real`, real numbers of the variance's `dtype`.
        let in_dtype = self.out.step(source).dtype;
        let complex = in_dtype.is_complex();
        let moment_dtype = if complex { in_dtype } else { dtype };
        let mean = if dtype == DType::Float16 {
            self.float16_var_mean(id, source, axes)?
        } else {
            let mean_reduction = Reduction {
                op: ReduceOp::Mean,
                ddof: 0.0,
            };
            let sums = self.reduce_tree(id, source, mean_reduction, axes)?;
            self.finish_reduce(sums, id, moment_dtype, mean_reduction, axes, true)?
        };
        // Each chunk reads the mean of its kept block, broadcast along the reduced axes.
        let mean_strides = self.layout(mean).grid_strides();
        let mut mean_map = GridMap::constant(&in_layout.grid(), 0);
        for (axis, &stride) in mean_strides.iter().enumerate() {
            if !axes.contains(&axis) {
                mean_map.follow(axis, stride);
            }
        }
        let subtract = ChunkOp::Elementwise(ElementwiseOp::Binary {
            op: BinaryOp::Subtract,
            common: moment_dtype,
        });
        let identity = GridMap::identity(&in_layout);
        let inputs = [(source, identity.clone()), (mean, mean_map)];
        let deviation = self.add_mapped(subtract, id, moment_dtype, in_layout.clone(), &inputs)?;
        let squared = if complex {
            let conjugate = ChunkOp::Elementwise(ElementwiseOp::Unary(UnaryOp::Conjugate));
            let deviation_in = [(deviation, identity.clone())];
            let conjugated = self.add_mapped(
                conjugate,
                id,
                moment_dtype,
                in_layout.clone(),
                &deviation_in,
            )?;
            let multiply = ChunkOp::Elementwise(ElementwiseOp::Binary {
                op: BinaryOp::Multiply,
                common: moment_dtype,
            });
            let factors = [
                (deviation, identity.clone()),
                (conjugated, identity.clone()),
            ];
            let product =
                self.add_mapped(multiply, id, moment_dtype, in_layout.clone(), &factors)?;
            let real = ChunkOp::Elementwise(ElementwiseOp::Unary(UnaryOp::Real));
            self.add_mapped(real, id, dtype, in_layout, &[(product, identity)])?
        } else {
            let square = ChunkOp::Elementwise(ElementwiseOp::Unary(UnaryOp::Square));
            self.add_mapped(square, id, dtype, in_layout, &[(deviation, identity)])?
        };
        let sum = Reduction {
            op: ReduceOp::Sum,
            ddof: 0.0,
        };
        let squares = self.reduce_tree(id, squared, sum, axes)?;
        self.finish_reduce(squares, id, dtype, reduction, axes, keepdims)
    }

    /// The mean NumPy's `_var` subtracts from float16 data: the sum in float16 (no
    /// `dtype=` is passed to its `umr_sum`), divided by the count (an intp, so in
    /// float64) and rounded to float16 again, not `mean`'s float32 quotient.
    fn float16_var_mean(
        &mut self,
        id: TileableId,
        source: StepId,
        axes: &[usize],
    ) -> TileResult<StepId> {
        let count: usize = axes
            .iter()
            .map(|&a| self.layout(source).shape()[a])
            .product();
        let sum = Reduction {
            op: ReduceOp::Sum,
            ddof: 0.0,
        };
        let sums = self.reduce_tree(id, source, sum, axes)?;
        let total = self.finish_reduce(sums, id, DType::Float16, sum, axes, true)?;
        let layout = self.layout(total).clone();
        let identity = GridMap::identity(&layout);
        let divisor = ChunkOp::Create(Creation::Full(marsc_runtime::Scalar::Float64(count as f64)));
        let divisor = self.add_mapped(divisor, id, DType::Float64, layout.clone(), &[])?;
        let divide = ChunkOp::Elementwise(ElementwiseOp::Binary {
            op: BinaryOp::Divide,
            common: DType::Float64,
        });
        let inputs = [(total, identity.clone()), (divisor, identity.clone())];
        let quotient = self.add_mapped(divide, id, DType::Float64, layout.clone(), &inputs)?;
        self.add_mapped(
            ChunkOp::Elementwise(ElementwiseOp::Cast),
            id,
            DType::Float16,
            layout,
            &[(quotient, identity)],
        )
    }

    /// One level of the tree: `source`'s blocks merged into `counts` blocks per
    /// reduced axis.
    fn combine_level(
        &mut self,
        source: StepId,
        id: TileableId,
        reduction: Reduction,
        axes: &[usize],
        counts: &[usize],
    ) -> TileResult<StepId> {
        let in_layout = self.layout(source).clone();
        let dtype = self.out.step(source).dtype;
        let layout = Layout::new(with_block_counts(in_layout.nsplits(), axes, counts));
        // Group size per axis (1 on kept axes): block j covers inputs j*g ..= j*g+g-1.
        let mut group = vec![1; in_layout.ndim()];
        for (&axis, &count) in axes.iter().zip(counts) {
            group[axis] = in_layout.chunks_along(axis).div_ceil(count);
        }
        let grid_in = in_layout.grid();
        let strides = in_layout.grid_strides();
        let first = self.out.step(source).first_chunk.0;
        let mut ranges = vec![(0, 0); in_layout.ndim()];
        let op = ChunkOp::Reduce(ReductionStage::Combine {
            reduction,
            axes: axes.to_vec(),
        });
        self.add_listed(op, id, dtype, layout, vec![source], |position, inputs| {
            for (axis, &j) in position.iter().enumerate() {
                let start = j * group[axis];
                ranges[axis] = (start, (start + group[axis]).min(grid_in[axis]) - 1);
            }
            push_box(&ranges, &strides, first, inputs);
        })
    }

    /// The result chunks (of `dtype`), one per block of the kept axes.
    fn finish_reduce(
        &mut self,
        source: StepId,
        id: TileableId,
        dtype: DType,
        reduction: Reduction,
        axes: &[usize],
        keepdims: bool,
    ) -> TileResult<StepId> {
        let in_layout = self.layout(source).clone();
        let strides = in_layout.grid_strides();
        let nsplits: Vec<Vec<usize>> = in_layout
            .nsplits()
            .iter()
            .enumerate()
            .filter(|(axis, _)| keepdims || !axes.contains(axis))
            .map(|(_, splits)| splits.clone())
            .collect();
        let layout = Layout::new(nsplits);
        let mut map = GridMap::constant(&layout.grid(), 0);
        let kept = (0..in_layout.ndim()).filter(|a| keepdims || !axes.contains(a));
        for (out_axis, in_axis) in kept.enumerate() {
            map.follow(out_axis, strides[in_axis]);
        }
        let op = ChunkOp::Reduce(ReductionStage::Finish {
            reduction,
            axes: axes.to_vec(),
            keepdims,
        });
        self.add_mapped(op, id, dtype, layout, &[(source, map)])
    }
}

/// `nsplits` with each reduced axis replaced by `count` blocks of length 1.
fn with_block_counts(nsplits: &[Vec<usize>], axes: &[usize], counts: &[usize]) -> Vec<Vec<usize>> {
    let mut out = nsplits.to_vec();
    for (&axis, &count) in axes.iter().zip(counts) {
        out[axis] = vec![1; count];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fan_in_is_spread_over_axes() {
        assert_eq!(combine_groups(&[1000, 1000], 4), vec![2, 2]);
        assert_eq!(combine_groups(&[10], 4), vec![4]);
        assert_eq!(combine_groups(&[3], 4), vec![3]);
        assert_eq!(combine_groups(&[3, 1000], 4), vec![1, 4]);
        assert_eq!(combine_groups(&[5, 5, 5], 8), vec![2, 2, 2]);
        assert_eq!(combine_groups(&[1, 1], 4), vec![1, 1]);
        assert_eq!(combine_groups(&[2, 9], 6), vec![1, 6]);
    }

    #[test]
    fn tree_depth_is_logarithmic() {
        // 1000 x 1000 blocks, fan-in 4 as 2x2: ten levels down to one block.
        let levels = reduction_levels(&[1000, 1000], 4);
        assert_eq!(levels.len(), 10);
        assert_eq!(levels[0], vec![500, 500]);
        assert_eq!(levels[9], vec![1, 1]);
        assert_eq!(reduction_levels(&[9], 4), vec![vec![3], vec![1]]);
        assert!(reduction_levels(&[1, 1], 4).is_empty());
    }
}
