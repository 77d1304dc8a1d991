//! Dense linear algebra (issue 20). A solver or factorization of whole matrices
//! (`solve`, `inv`, `det`, `slogdet`, `cholesky`, `eigh`, the small `svd`) gathers
//! each operand into one chunk (a rechunk) and runs one faer kernel. `qr` of a tall
//! matrix is TSQR over row blocks, one level deep: a QR per block (`qr.local`, each
//! block at least as tall as the matrix is wide, see
//! [`tsqr_row_splits`](crate::infer::linalg::tsqr_row_splits)), one QR of the
//! stacked `R`s (`qr.stack`), then each block's `Q` as its local `Q` times its block
//! of the second `Q` (`qr.q`) and `R` as the second `R` (`qr.r`). `Q` and `R` are two
//! nodes of the TileableGraph; the first one tiled builds the two shared steps and
//! the other reuses them (`Tiler::tsqr`). Stacked matrices `(..., n, n)` keep their
//! chunking along the leading axes (the matrix axes are gathered whole) and each
//! chunk's kernel runs once per matrix it holds.

use super::{TileResult, Tiler};
use crate::chunk::{ChunkId, ChunkOp, Layout, StepId};
use crate::error::Violation;
use crate::infer::linalg::{linalg_shape, stacked_axes, tsqr_row_splits};
use crate::tileable::{TileableId, TileableNode};
use marsc_runtime::kernels::linalg::LinalgOp;
use marsc_runtime::DType;

impl Tiler<'_> {
    pub(super) fn tile_linalg(
        &mut self,
        id: TileableId,
        node: &TileableNode,
        op: LinalgOp,
    ) -> TileResult<StepId> {
        if matches!(op, LinalgOp::QrQ | LinalgOp::QrR) {
            return self.tile_tsqr(id, node, op);
        }
        // Stacked matrices keep their chunks along the leading axes; each chunk holds
        // whole matrices, and its result is the same chunk of the output.
        let first_shape = &self.source.node(node.inputs[0]).shape;
        let lead = stacked_axes(op, first_shape).min(node.shape.len());
        let lead_splits: Vec<Vec<usize>> = node.nsplits[..lead].to_vec();
        let mut steps = Vec::with_capacity(node.inputs.len());
        for (position, &input) in node.inputs.iter().enumerate() {
            let shape = &self.source.node(input).shape;
            let mut target = lead_splits.clone();
            target.extend(one_chunk(&shape[lead.min(shape.len())..]));
            let step = self.input(node, position);
            steps.push(self.ensure_nsplits(step, &target, input)?);
        }
        let firsts: Vec<u32> = steps
            .iter()
            .map(|&step| self.out.step(step).first_chunk.0)
            .collect();
        let mut splits = lead_splits.clone();
        splits.extend(one_chunk(&node.shape[lead..]));
        let lead_grid: Vec<usize> = lead_splits.iter().map(Vec::len).collect();
        let layout = Layout::new(splits);
        self.add_listed(
            ChunkOp::Linalg(op),
            id,
            node.dtype,
            layout,
            steps,
            |position, inputs| {
                // Every input's grid is the leading grid (its matrix axes whole).
                let index = position[..lead]
                    .iter()
                    .zip(&lead_grid)
                    .fold(0, |index, (&p, &n)| index * n + p);
                inputs.extend(firsts.iter().map(|&first| ChunkId(first + index as u32)));
            },
        )
    }

    fn tile_tsqr(
        &mut self,
        id: TileableId,
        node: &TileableNode,
        op: LinalgOp,
    ) -> TileResult<StepId> {
        let input = node.inputs[0];
        let n = self.source.node(input).shape[1];
        let source = self.input(node, 0);
        let rows = tsqr_row_splits(&self.layout(source).nsplits()[0], n);
        let a = self.ensure_nsplits(source, &[rows.clone(), vec![n]], input)?;
        let (local, stack) = match self.tsqr.get(&a) {
            Some(&steps) => steps,
            None => {
                let steps = self.tsqr_factors(id, a, &rows, n)?;
                self.tsqr.insert(a, steps);
                steps
            }
        };
        let (first_local, first_stack) = (
            self.out.step(local).first_chunk.0,
            self.out.step(stack).first_chunk,
        );
        match op {
            LinalgOp::QrQ => self.add_listed(
                ChunkOp::Linalg(LinalgOp::QrQ),
                id,
                DType::Float64,
                Layout::new(vec![rows, vec![n]]),
                vec![local, stack],
                |position, inputs| {
                    inputs.push(ChunkId(first_local + position[0] as u32));
                    inputs.push(first_stack);
                },
            ),
            _ => self.add_listed(
                ChunkOp::Linalg(LinalgOp::QrR),
                id,
                DType::Float64,
                Layout::new(vec![vec![n], vec![n]]),
                vec![stack],
                |_, inputs| inputs.push(first_stack),
            ),
        }
    }

    /// The local QR of each row block of `a` and the QR of their stacked `R`s.
    fn tsqr_factors(
        &mut self,
        id: TileableId,
        a: StepId,
        rows: &[usize],
        n: usize,
    ) -> TileResult<(StepId, StepId)> {
        let first_a = self.out.step(a).first_chunk.0;
        let local = self.add_listed(
            ChunkOp::Linalg(LinalgOp::QrLocal),
            id,
            DType::Float64,
            Layout::new(vec![rows.iter().map(|&len| len + n).collect(), vec![n]]),
            vec![a],
            |position, inputs| inputs.push(ChunkId(first_a + position[0] as u32)),
        )?;
        let first_local = self.out.step(local).first_chunk.0;
        let blocks = rows.len();
        let stack = self.add_listed(
            ChunkOp::Linalg(LinalgOp::QrStack),
            id,
            DType::Float64,
            Layout::new(vec![vec![blocks * n + n], vec![n]]),
            vec![local],
            |_, inputs| inputs.extend((0..blocks).map(|i| ChunkId(first_local + i as u32))),
        )?;
        Ok((local, stack))
    }
}

fn one_chunk(shape: &[usize]) -> Vec<Vec<usize>> {
    shape.iter().map(|&len| vec![len]).collect()
}

/// The chunk graph verifier's check of one linalg chunk: its shape from its inputs'.
pub(crate) fn verify_linalg_chunk(
    op: LinalgOp,
    out: &[usize],
    inputs: &[Vec<usize>],
) -> Result<(), Violation> {
    let expected = match (op, inputs) {
        (LinalgOp::QrLocal, [a]) if a.len() == 2 && a[0] >= a[1] => Some(vec![a[0] + a[1], a[1]]),
        (LinalgOp::QrStack, blocks) => match blocks.first() {
            Some(first) if blocks.iter().all(|b| b.len() == 2 && b[1] == first[1]) => {
                Some(vec![(blocks.len() + 1) * first[1], first[1]])
            }
            _ => None,
        },
        (LinalgOp::QrQ, [local, stack]) if local.len() == 2 && stack.len() == 2 => {
            (local[1] == stack[1] && local[0] >= local[1])
                .then(|| vec![local[0] - local[1], local[1]])
        }
        (LinalgOp::QrR, [stack]) if stack.len() == 2 => Some(vec![stack[1], stack[1]]),
        (LinalgOp::QrLocal | LinalgOp::QrQ | LinalgOp::QrR, _) => None,
        (op, inputs) => {
            let shapes: Vec<&[usize]> = inputs.iter().map(Vec::as_slice).collect();
            linalg_shape(op, &shapes)
        }
    };
    match expected {
        Some(shape) if shape == out => Ok(()),
        _ => Err(format!(
            "{} of inputs shaped {inputs:?} does not give {out:?}",
            op.name()
        )
        .into()),
    }
}
