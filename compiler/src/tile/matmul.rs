//! `a @ b` for 2-D operands as block products: one `MatMulBlock` per (row block i,
//! column block j, run g of up to `combine_size` contracted blocks) sums the products
//! of its run in place, in order; when there are several runs a tree sum over g with
//! fan-in `combine_size` (`SumBlocks`) follows. Summing a run inside one kernel spares
//! a partial block per contracted block and the pass that adds them up, and bounds a
//! subtask's inputs as the tree bounds a combine's. The contracted axis is never
//! concatenated (that blew up memory in Dask): the operands are only rechunked so
//! their contracted splits agree (the common refinement of both) and the rows and
//! columns match the result. While more than one partial block remains, steps carry a
//! leading axis counting them; the last level drops it.

use super::grid_map::GridMap;
use super::{TileResult, Tiler};
use crate::chunk::{ChunkId, ChunkOp, Layout, StepId};
use crate::infer::nsplits::unify_splits;
use crate::ops::ElementwiseOp;
use crate::tileable::{TileableId, TileableNode};
use marsc_runtime::DType;

impl Tiler<'_> {
    pub(super) fn tile_matmul(
        &mut self,
        id: TileableId,
        node: &TileableNode,
    ) -> TileResult<StepId> {
        let (a, b) = (self.input(node, 0), self.input(node, 1));
        let contracted = unify_splits(&self.layout(a).nsplits()[1], &self.layout(b).nsplits()[0]);
        let (rows, columns) = (node.nsplits[0].clone(), node.nsplits[1].clone());
        let a = self.ensure_nsplits(a, &[rows.clone(), contracted.clone()], node.inputs[0])?;
        let b = self.ensure_nsplits(b, &[contracted.clone(), columns.clone()], node.inputs[1])?;
        let (n_rows, n_columns, n_terms) = (rows.len(), columns.len(), contracted.len());
        let run = self.options.combine_size.min(n_terms).max(1);
        let n_runs = n_terms.div_ceil(run);
        let partial = n_runs > 1;
        let layout = block_layout(partial.then_some(n_runs), &rows, &columns);
        // NumPy's float16 matmul sums float32 products in float32 and rounds once: a
        // product summed over several runs is computed in float32 and rounded at the
        // end (one run's kernel does the same inside).
        let widened = partial && node.dtype == DType::Float16;
        let (a, b, dtype) = if widened {
            (
                self.cast_step(a, id, DType::Float32)?,
                self.cast_step(b, id, DType::Float32)?,
                DType::Float32,
            )
        } else {
            (a, b, node.dtype)
        };
        let (first_a, first_b) = (
            self.out.step(a).first_chunk.0,
            self.out.step(b).first_chunk.0,
        );
        let op = ChunkOp::MatMulBlock { partial };
        let mut current =
            self.add_listed(op, id, dtype, layout, vec![a, b], |position, inputs| {
                let (g, i, j) = match position {
                    [g, i, j] => (*g, *i, *j),
                    [i, j] => (0, *i, *j),
                    _ => return,
                };
                for l in g * run..((g + 1) * run).min(n_terms) {
                    inputs.push(ChunkId(first_a + (i * n_terms + l) as u32));
                    inputs.push(ChunkId(first_b + (l * n_columns + j) as u32));
                }
            })?;
        let mut terms = n_runs;
        while terms > 1 {
            let group = self.options.combine_size.min(terms);
            let next = terms.div_ceil(group);
            current =
                self.sum_level(current, id, dtype, (terms, next, group), (&rows, &columns))?;
            terms = next;
        }
        debug_assert_eq!(self.layout(current).grid(), vec![n_rows, n_columns]);
        if widened {
            current = self.cast_step(current, id, DType::Float16)?;
        }
        Ok(current)
    }

    /// `source` cast to `dtype`, chunk by chunk.
    fn cast_step(&mut self, source: StepId, id: TileableId, dtype: DType) -> TileResult<StepId> {
        let layout = self.layout(source).clone();
        let identity = GridMap::identity(&layout);
        let cast = ChunkOp::Elementwise(ElementwiseOp::Cast);
        self.add_mapped(cast, id, dtype, layout, &[(source, identity)])
    }

    /// One level of the tree sum: `terms` partial blocks per (i, j) summed `group` at
    /// a time into `next`.
    fn sum_level(
        &mut self,
        source: StepId,
        id: TileableId,
        dtype: DType,
        (terms, next, group): (usize, usize, usize),
        (rows, columns): (&[usize], &[usize]),
    ) -> TileResult<StepId> {
        let partial = next > 1;
        let layout = block_layout(partial.then_some(next), rows, columns);
        let first = self.out.step(source).first_chunk.0;
        let plane = rows.len() * columns.len();
        let op = ChunkOp::SumBlocks { partial };
        self.add_listed(op, id, dtype, layout, vec![source], |position, inputs| {
            let (l, cell) = match position {
                [l, i, j] => (*l, i * columns.len() + j),
                [i, j] => (0, i * columns.len() + j),
                _ => return,
            };
            for term in l * group..((l + 1) * group).min(terms) {
                inputs.push(ChunkId(first + (term * plane + cell) as u32));
            }
        })
    }
}

/// Rows × columns, with a leading axis of `terms` partial blocks when given.
fn block_layout(terms: Option<usize>, rows: &[usize], columns: &[usize]) -> Layout {
    let mut nsplits = Vec::with_capacity(3);
    if let Some(terms) = terms {
        nsplits.push(vec![1; terms]);
    }
    nsplits.push(rows.to_vec());
    nsplits.push(columns.to_vec());
    Layout::new(nsplits)
}
