//! Creation ops (`full`, `arange`, `linspace`, `eye`, literals, random, `load`): one
//! chunk per grid position and no inputs. Every chunk of the step holds the
//! tileable's own [`Creation`] and computes its own elements from its global offset
//! (derived from its index, see `ops::creation`), so random values, `arange` steps
//! and file regions never depend on the chunking.

use super::{TileResult, Tiler};
use crate::chunk::{ChunkOp, Layout, StepId};
use crate::ops::Creation;
use crate::tileable::{TileableId, TileableNode};

impl Tiler<'_> {
    pub(super) fn tile_creation(
        &mut self,
        id: TileableId,
        node: &TileableNode,
        op: &Creation,
    ) -> TileResult<StepId> {
        let op = ChunkOp::Create(op.clone());
        let layout = Layout::new(node.nsplits.clone());
        self.add_listed(op, id, node.dtype, layout, vec![], |_, _| {})
    }
}
