//! Chunking rules that know no op: the common refinement of two chunkings of an
//! axis, the normal form of an axis's splits (both `ops::geometry`'s, which the
//! element-wise family's chunking uses too), and the reshape plan. Which chunking
//! each op's output gets is the tileable IR's own (`tileable::nsplits`).

pub use crate::ops::geometry::{non_empty, unify_splits};
pub use crate::ops::shape::reshape_plan;
