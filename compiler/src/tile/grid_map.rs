//! Which input chunk a chunk reads, for the many rules where that is a per-axis
//! function of the chunk's grid position: element-wise ops, relabels, slices, the map
//! stage of reductions. A table per output axis gives each grid coordinate's
//! contribution to the input chunk's index, so wiring a chunk costs a few additions.

use crate::chunk::Layout;

/// Input chunk index = `base + Σ per_axis[axis][position[axis]]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GridMap {
    base: usize,
    per_axis: Vec<Vec<usize>>,
}

impl GridMap {
    /// Every output position reads input chunk `base` until axes are set.
    pub fn constant(out_grid: &[usize], base: usize) -> GridMap {
        GridMap {
            base,
            per_axis: out_grid.iter().map(|&n| vec![0; n]).collect(),
        }
    }

    /// Output and input grids are the same; position p reads input chunk p.
    pub fn identity(layout: &Layout) -> GridMap {
        let mut map = GridMap::constant(&layout.grid(), 0);
        for (axis, stride) in layout.grid_strides().into_iter().enumerate() {
            map.follow(axis, stride);
        }
        map
    }

    /// Output axis `out_axis`'s coordinate j reads input coordinate j along an input
    /// axis with grid stride `in_stride`.
    pub fn follow(&mut self, out_axis: usize, in_stride: usize) {
        for (j, entry) in self.per_axis[out_axis].iter_mut().enumerate() {
            *entry = j * in_stride;
        }
    }

    /// Output axis `out_axis`'s coordinate j reads input coordinate `coords[j]`.
    pub fn set(
        &mut self,
        out_axis: usize,
        in_stride: usize,
        coords: impl IntoIterator<Item = usize>,
    ) {
        for (entry, coord) in self.per_axis[out_axis].iter_mut().zip(coords) {
            *entry = coord * in_stride;
        }
    }

    /// Adds a fixed input coordinate (an axis the output does not have).
    pub fn add_fixed(&mut self, in_stride: usize, coord: usize) {
        self.base += coord * in_stride;
    }

    /// The input chunk index read at `position`.
    #[inline]
    pub fn index(&self, position: &[usize]) -> usize {
        position
            .iter()
            .zip(&self.per_axis)
            .fold(self.base, |index, (&p, table)| index + table[p])
    }
}

/// Pushes the ids of the input chunks in a box of grid coordinates (inclusive
/// `(first, last)` per axis), in C order: `first_chunk + Σ coord * stride`.
pub fn push_box(
    ranges: &[(usize, usize)],
    strides: &[usize],
    first_chunk: u32,
    inputs: &mut Vec<crate::chunk::ChunkId>,
) {
    let mut coords: Vec<usize> = ranges.iter().map(|r| r.0).collect();
    loop {
        let index: usize = coords.iter().zip(strides).map(|(c, s)| c * s).sum();
        inputs.push(crate::chunk::ChunkId(first_chunk + index as u32));
        let mut axis = coords.len();
        loop {
            if axis == 0 {
                return;
            }
            axis -= 1;
            if coords[axis] < ranges[axis].1 {
                coords[axis] += 1;
                break;
            }
            coords[axis] = ranges[axis].0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transposed_reads() {
        // Input grid 2x3 (strides 3, 1); output is its transpose, grid 3x2.
        let mut map = GridMap::constant(&[3, 2], 0);
        map.follow(0, 1);
        map.follow(1, 3);
        assert_eq!(map.index(&[2, 1]), 5);
        assert_eq!(map.index(&[1, 0]), 1);
    }
}
