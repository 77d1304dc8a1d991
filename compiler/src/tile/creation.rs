//! Creation ops (`full`, `arange`, `linspace`, `eye`, literals, random, `load`): one
//! chunk per grid position and no inputs. Each chunk computes its own elements from
//! its global offset (derived from its index), so random values, `arange` steps and
//! file regions never depend on the chunking.

use super::{TileError, TileResult, Tiler};
use crate::chunk::{ChunkOp, Layout, StepId};
use crate::tileable::{TileOp, TileableId, TileableNode};

impl Tiler<'_> {
    pub(super) fn tile_creation(
        &mut self,
        id: TileableId,
        node: &TileableNode,
    ) -> TileResult<StepId> {
        let op = creation_op(&node.op)
            .ok_or_else(|| TileError(format!("internal: {id} is not a creation op")))?;
        let layout = Layout::new(node.nsplits.clone());
        self.add_listed(op, id, node.dtype, layout, vec![], |_, _| {})
    }
}

/// The chunk op of a creation op (which carries the same parameters).
fn creation_op(op: &TileOp) -> Option<ChunkOp> {
    Some(match op {
        TileOp::Full(value) => ChunkOp::Full(*value),
        TileOp::Arange { start, step } => ChunkOp::Arange {
            start: *start,
            step: *step,
        },
        TileOp::Linspace {
            start,
            stop,
            num,
            endpoint,
        } => ChunkOp::Linspace {
            start: *start,
            stop: *stop,
            num: *num,
            endpoint: *endpoint,
        },
        TileOp::Eye { k } => ChunkOp::Eye { k: *k },
        TileOp::Literal(values) => ChunkOp::Literal(values.clone()),
        TileOp::Random { dist, seed, stream } => ChunkOp::Random {
            dist: *dist,
            seed: *seed,
            stream: *stream,
        },
        TileOp::Load { source } => ChunkOp::Load {
            source: source.clone(),
        },
        TileOp::Cached { key } => ChunkOp::Cached { key: *key },
        _ => return None,
    })
}
