//! Indexing with several arrays at once — `x[[0, 2], [1, 3]]`, `x[rows, :, cols]`,
//! `x[mask, idx]` — NumPy's advanced indexing: the index arrays (and the integers
//! among the items) broadcast together to one shape `B`, and the result holds
//! `x[i_1[b], ..., i_m[b]]` for every `b` in `B`, with `B`'s axes where the indexed
//! axes were when the advanced items are next to each other, first otherwise.
//!
//! It is built from parts that exist: basic indexing applies the other items (the
//! arrays' axes kept whole); the indexed axes are moved first and flattened into one
//! axis of length `N = n_1 · … · n_m`; the arrays become one linear index
//! `((i_1 · n_2 + i_2) · n_3 + i_3) …` (element-wise, after negative indices are
//! counted from the end), and one gather along the flattened axis reads it (the
//! gather of `x[idx]`, [`Lowerer::take_along`]). Each array is checked against its
//! own axis first — a linear index can be in bounds when one of its parts is not —
//! in one stage for all of them, with NumPy's `index 5 is out of bounds for axis 1
//! with size 4`. A boolean array among several stands for its `nonzero()`
//! coordinates, as in NumPy.

use super::indexing::Item;
use super::value::Value;
use super::{LowerResult, Lowerer};
use crate::infer::shapes::broadcast_shapes;
use crate::tileable::{TileOp, TileableId};
use marsc_grammar::{Diagnostic, Span};
use marsc_runtime::DType;
use std::sync::Arc;

/// An integer index array among the items, and where it stands.
struct IndexArray {
    tensor: TileableId,
    span: Span,
    /// The axis of x it indexes (for error messages).
    x_axis: usize,
    /// Its axis in x after the basic items are applied.
    out_axis: usize,
}

impl Lowerer<'_> {
    /// `x[items]` where two or more items are boolean or integer tensors.
    pub(super) fn index_with_arrays(
        &mut self,
        id: TileableId,
        items: &[Item],
        span: Span,
    ) -> LowerResult<Value> {
        let Some(items) = self.masks_as_coordinates(id, items)? else {
            return Ok(Value::Poison);
        };
        let starts = self.item_axes(&items, self.shape(id).len());
        let mut basic: Vec<Item> = Vec::with_capacity(items.len());
        let mut arrays: Vec<IndexArray> = Vec::new();
        for (item, &(x_axis, out_axis)) in items.iter().zip(&starts) {
            let Item::Value(Value::Tensor(tensor), span) = item else {
                basic.push(item.clone());
                continue;
            };
            arrays.push(IndexArray {
                tensor: *tensor,
                span: *span,
                x_axis,
                out_axis,
            });
            // The array's axis is kept whole while the basic items are applied.
            basic.push(Item::Slice {
                parts: [None, None, None],
                span: *span,
            });
        }
        let Value::Tensor(indexed) = self.index_tensor(id, &basic, span)? else {
            return Ok(Value::Poison);
        };
        let indexed_shape = self.shape(indexed).to_vec();
        let shapes: Vec<Vec<usize>> = arrays
            .iter()
            .map(|array| self.shape(array.tensor).to_vec())
            .collect();
        let refs: Vec<&[usize]> = shapes.iter().map(Vec::as_slice).collect();
        let broadcast = broadcast_shapes(&refs).map_err(|_| {
            let listed: Vec<String> = shapes
                .iter()
                .map(|shape| super::convert::shape_text(shape))
                .collect();
            Diagnostic::error(
                format!(
                    "shape mismatch: indexing arrays could not be broadcast together with \
                     shapes {}",
                    listed.join(" ")
                ),
                arrays[1].span,
            )
        })?;
        let lengths: Vec<usize> = arrays
            .iter()
            .map(|array| indexed_shape[array.out_axis])
            .collect();
        // Every array in bounds of its own axis, found by one stage for all.
        let mut checks = Vec::with_capacity(arrays.len());
        for (array, &len) in arrays.iter().zip(&lengths) {
            let flat = self.ravel_tensor(array.tensor, span)?;
            checks.push((flat, len, array.x_axis, array.span));
        }
        if !self.indices_in_bounds(&checks, span)? {
            return Ok(Value::Poison);
        }
        // The linear index into the indexed axes, flattened in C order.
        let mut linear: Option<TileableId> = None;
        for (array, &len) in arrays.iter().zip(&lengths) {
            // In bounds, so Python's modulo counts a negative index from the end.
            let index = self.cast(array.tensor, DType::Int64, array.span)?;
            let index = self.apply(
                "remainder",
                vec![Value::Tensor(index), Value::Int(len as i64)],
                span,
            )?;
            linear = Some(match linear {
                None => index,
                Some(outer) => {
                    let scaled = self.apply(
                        "multiply",
                        vec![Value::Tensor(outer), Value::Int(len as i64)],
                        span,
                    )?;
                    self.apply(
                        "add",
                        vec![Value::Tensor(scaled), Value::Tensor(index)],
                        span,
                    )?
                }
            });
        }
        // Every array takes part in it, so its shape is the broadcast one.
        let Some(linear) = linear.filter(|&linear| self.shape(linear) == broadcast.as_slice())
        else {
            return Err(Diagnostic::error(
                "internal error: the linear index lost the broadcast shape",
                span,
            ));
        };
        // The indexed axes first, flattened into one.
        let first: Vec<usize> = arrays.iter().map(|array| array.out_axis).collect();
        let rest: Vec<usize> = (0..indexed_shape.len())
            .filter(|axis| !first.contains(axis))
            .collect();
        let permutation: Vec<i64> = first.iter().chain(&rest).map(|&a| a as i64).collect();
        let moved = self.transpose_tensor(indexed, Some(&permutation), span, span)?;
        let mut flat_shape = vec![lengths.iter().product::<usize>() as i64];
        flat_shape.extend(rest.iter().map(|&axis| indexed_shape[axis] as i64));
        let flattened = self.reshape_tensor(moved, &flat_shape, span, span)?;
        let Some(gathered) = self.take_along(flattened, linear, 0, 0, span)? else {
            return Ok(Value::Poison);
        };
        // NumPy puts the broadcast axes where the indexed ones were when the
        // advanced items (arrays and integers) are next to each other.
        let advanced: Vec<usize> = items
            .iter()
            .enumerate()
            .filter(|(_, item)| matches!(item, Item::Value(Value::Tensor(_) | Value::Int(_), _)))
            .map(|(position, _)| position)
            .collect();
        let adjacent = advanced.last().map_or(0, |last| last + 1) - advanced[0] == advanced.len();
        let before = arrays[0].out_axis;
        if !adjacent || before == 0 {
            return Ok(Value::Tensor(gathered));
        }
        let b = broadcast.len();
        let total = self.shape(gathered).len();
        let order: Vec<i64> = (b..b + before)
            .chain(0..b)
            .chain(b + before..total)
            .map(|a| a as i64)
            .collect();
        Ok(Value::Tensor(self.transpose_tensor(
            gathered,
            Some(&order),
            span,
            span,
        )?))
    }

    /// The items with each boolean array replaced by the integer arrays of its
    /// `nonzero()` coordinates (a stage counts them), after checking its shape
    /// against the axes it stands for. `None` when no stage could run.
    fn masks_as_coordinates(
        &mut self,
        id: TileableId,
        items: &[Item],
    ) -> LowerResult<Option<Vec<Item>>> {
        let shape = self.shape(id).to_vec();
        let starts = self.item_axes(items, shape.len());
        let mut expanded = Vec::with_capacity(items.len());
        for (item, &(x_axis, _)) in items.iter().zip(&starts) {
            let mask = match item {
                Item::Value(Value::Tensor(mask), _) if self.dtype(*mask).is_bool() => *mask,
                other => {
                    expanded.push(other.clone());
                    continue;
                }
            };
            let span = item.span();
            let mask_shape = self.shape(mask).to_vec();
            if mask_shape.is_empty() {
                return Err(Diagnostic::error(
                    "not supported yet: a 0-d boolean index",
                    span,
                ));
            }
            let Some(lens) = shape.get(x_axis..x_axis + mask_shape.len()) else {
                let indexed = starts.last().map_or(0, |&(x, _)| x);
                return Err(Diagnostic::error(
                    format!(
                        "too many indices for array: array is {}-dimensional, but {indexed} were \
                         indexed",
                        shape.len()
                    ),
                    span,
                ));
            };
            super::select::mask_fits(lens, &mask_shape, x_axis, span)?;
            let Some(coordinates) = self.nonzero(mask, span)? else {
                return Ok(None);
            };
            expanded.extend(
                coordinates
                    .into_iter()
                    .map(|coordinate| Item::Value(Value::Tensor(coordinate), span)),
            );
        }
        Ok(Some(expanded))
    }

    /// Whether every index of each `(flat, len, x_axis, span)` (a 1-D integer tensor
    /// indexing an axis of length `len`) is in bounds, found by one stage for all;
    /// the first one out of bounds is NumPy's `IndexError` against `x_axis`, at its
    /// span. `false` when no stage could run.
    fn indices_in_bounds(
        &mut self,
        checks: &[(TileableId, usize, usize, Span)],
        span: Span,
    ) -> LowerResult<bool> {
        // Per index chunk: [indices in the one block, out of bounds, the first such].
        const WIDTH: usize = 3;
        let mut counts = Vec::with_capacity(checks.len());
        let mut rows = Vec::with_capacity(checks.len());
        for &(flat, len, _, check_span) in checks {
            let index_chunks = self.node(flat).nsplits[0].len();
            counts.push(self.add_with_splits(
                TileOp::IndexBlocks {
                    splits: Arc::from(vec![len]),
                },
                vec![flat],
                vec![index_chunks, WIDTH],
                DType::Int64,
                vec![vec![1; index_chunks], vec![WIDTH]],
                check_span,
            ));
            rows.push(index_chunks);
        }
        let all = if counts.len() == 1 {
            counts[0]
        } else {
            let shape = vec![rows.iter().sum(), WIDTH];
            self.add_derived(
                TileOp::Concatenate { axis: 0 },
                counts,
                shape,
                DType::Int64,
                span,
            )?
        };
        let total: usize = rows.iter().sum();
        let Some(values) = self.staged_counts(all, total * WIDTH, span)? else {
            return Ok(false);
        };
        let mut row = values.chunks_exact(WIDTH);
        for (&(_, len, x_axis, check_span), &chunks) in checks.iter().zip(&rows) {
            for counted in row.by_ref().take(chunks) {
                if counted[1] > 0 {
                    let bad = counted[2];
                    return Err(Diagnostic::error(
                        format!("index {bad} is out of bounds for axis {x_axis} with size {len}"),
                        check_span,
                    ));
                }
            }
        }
        Ok(true)
    }
}
