//! `full` and `full_like` with a tensor or a list as the fill value. NumPy copies
//! the fill value into the new array with broadcasting and an unsafe cast
//! (`copyto`), which is `broadcast_to(fill.astype(dtype), shape)` here, chunked as
//! the call asks (`chunks=`, or automatically; `full_like` keeps its prototype's
//! chunks by default).

use super::bind::Arg;
use super::{LowerResult, Lowerer};
use crate::infer::shapes::{broadcast_to_check, compact_tuple};
use crate::ops::ShapeOp;
use crate::tileable::{TileOp, TileableId};
use marsc_grammar::{Diagnostic, Span};
use marsc_runtime::DType;

impl Lowerer<'_> {
    /// `fill` cast to `dtype` (its own dtype when `None`) and broadcast to `shape`.
    pub(super) fn broadcast_fill(
        &mut self,
        fill: &Arg,
        shape: &[usize],
        dtype: Option<DType>,
        span: Span,
    ) -> LowerResult<TileableId> {
        let mut id = self.tensor_of(fill, None, "`fill_value`")?;
        let dtype = dtype.unwrap_or(self.dtype(id));
        id = self.cast(id, dtype, span)?;
        let fill_shape = self.shape(id).to_vec();
        let cannot = || {
            Diagnostic::error(
                format!(
                    "could not broadcast input array from shape {} into shape {}",
                    compact_tuple(&fill_shape),
                    compact_tuple(shape)
                ),
                fill.span,
            )
        };
        // Like copyto, leading length-1 axes beyond the target's are dropped.
        let extra = fill_shape.len().saturating_sub(shape.len());
        if fill_shape[..extra].iter().any(|&len| len != 1) {
            return Err(cannot());
        }
        if extra > 0 {
            let kept: Vec<i64> = fill_shape[extra..].iter().map(|&len| len as i64).collect();
            id = self.reshape_tensor(id, &kept, fill.span, span)?;
        }
        broadcast_to_check(self.shape(id), shape).map_err(|_| cannot())?;
        if self.shape(id) == shape {
            return Ok(id);
        }
        self.add_derived(
            TileOp::Shape(ShapeOp::BroadcastTo),
            vec![id],
            shape.to_vec(),
            dtype,
            span,
        )
    }

    /// `input` rechunked to exactly `nsplits` (itself when it already has them).
    pub(super) fn rechunk_to_splits(
        &mut self,
        input: TileableId,
        nsplits: Vec<Vec<usize>>,
        span: Span,
    ) -> TileableId {
        let node = self.node(input);
        if node.nsplits == nsplits {
            return input;
        }
        let (shape, dtype) = (node.shape.clone(), node.dtype);
        self.add_with_splits(TileOp::Rechunk, vec![input], shape, dtype, nsplits, span)
    }
}
