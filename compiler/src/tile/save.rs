//! `save(path, x)`: every chunk writes its own region of one `.npy` file. An init
//! chunk writes the header and sizes a temporary file, each data chunk writes its
//! region into it, and a commit chunk renames it to `path` once all regions are
//! written, so a failed run never leaves a half-written file under the real name.
//! Saves to the same path are ordered: a later init waits for the earlier commit.

use super::grid_map::GridMap;
use super::{TileResult, Tiler};
use crate::chunk::{ChunkId, ChunkOp, Layout, StepId};
use crate::tileable::TileableId;
use marsc_runtime::storage::SaveFormat;
use std::path::Path;

impl Tiler<'_> {
    /// Tiles one save of `tensor`; returns its commit step.
    pub(super) fn tile_save(
        &mut self,
        tensor: TileableId,
        path: &Path,
        format: &SaveFormat,
        previous: Option<StepId>,
    ) -> TileResult<StepId> {
        let data = self.steps_of[tensor.index()];
        let layout = self.layout(data).clone();
        let dtype = self.out.step(data).dtype;
        let init_op = ChunkOp::SaveInit {
            path: path.to_path_buf(),
            shape: layout.shape().to_vec(),
            format: format.clone(),
        };
        let previous_chunk = previous.map(|s| self.out.step(s).first_chunk);
        let init = self.add_listed(
            init_op,
            tensor,
            dtype,
            Layout::single(&[]),
            previous.into_iter().collect(),
            |_, inputs| {
                inputs.extend(previous_chunk);
            },
        )?;
        let init_map = GridMap::constant(&layout.grid(), 0);
        let region_op = ChunkOp::SaveRegion {
            path: path.to_path_buf(),
        };
        let regions = self.add_mapped(
            region_op,
            tensor,
            dtype,
            layout.clone(),
            &[(data, GridMap::identity(&layout)), (init, init_map)],
        )?;
        let region_ids: Vec<ChunkId> = self.out.step(regions).chunk_ids().collect();
        let commit_op = ChunkOp::SaveCommit {
            path: path.to_path_buf(),
        };
        self.add_listed(
            commit_op,
            tensor,
            dtype,
            Layout::single(&[]),
            vec![regions],
            |_, inputs| {
                inputs.extend_from_slice(&region_ids);
            },
        )
    }
}
