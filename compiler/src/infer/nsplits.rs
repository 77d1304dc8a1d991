//! Chunking rules that know no op: the common refinement of two chunkings of an
//! axis, the normal form of an axis's splits, and the reshape plan. Which chunking
//! each op's output gets is the tileable IR's own (`tileable::nsplits`).

pub use crate::ops::shape::reshape_plan;

/// The common refinement of two chunkings of the same axis: (2,2)+(3,1) -> (2,1,1).
pub fn unify_splits(a: &[usize], b: &[usize]) -> Vec<usize> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut a_iter, mut b_iter) = (a.iter(), b.iter());
    let (mut a_end, mut b_end) = (a_iter.next().copied(), b_iter.next().copied());
    let mut position = 0;
    // Walk both lists of chunk ends in step, emitting a chunk at every end either has.
    loop {
        let next = match (a_end, b_end) {
            (None, None) => break,
            (Some(x), None) | (None, Some(x)) => x,
            (Some(x), Some(y)) => x.min(y),
        };
        if a_end == Some(next) {
            a_end = a_iter.next().map(|s| next + s);
        }
        if b_end == Some(next) {
            b_end = b_iter.next().map(|s| next + s);
        }
        if next > position {
            out.push(next - position);
            position = next;
        }
    }
    non_empty(out)
}

/// Drops empty chunks; an axis with nothing left is the single chunk `[0]`.
pub fn non_empty(mut splits: Vec<usize>) -> Vec<usize> {
    splits.retain(|&s| s > 0);
    if splits.is_empty() {
        splits.push(0);
    }
    splits
}
