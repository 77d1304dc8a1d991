//! Basic indexing: turns the items written in `x[...]` into one normalized
//! [`IndexItem`] per input axis (plus new axes) and the result's shape.

use super::{InferError, InferResult};
use crate::tileable::IndexItem;

/// One item of an index as written, before it is checked against the shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RawIndexItem {
    Int(i64),
    Slice {
        start: Option<i64>,
        stop: Option<i64>,
        step: Option<i64>,
    },
    NewAxis,
    Ellipsis,
}

/// Normalizes `items` against `shape`; returns the items and the output shape.
pub fn normalize_index(
    shape: &[usize],
    items: &[RawIndexItem],
) -> InferResult<(Vec<IndexItem>, Vec<usize>)> {
    let _ = (shape, items);
    Err(InferError::new("not supported yet: normalize_index"))
}
