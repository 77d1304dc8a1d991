//! How a step's chunks tile its tensor: the shape, the chunk sizes along each axis
//! (nsplits) and their precomputed start offsets, so a chunk's grid position, offset
//! and shape follow from its index alone. Chunks are numbered in C order of the grid.

/// The chunking of one tensor-shaped step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    shape: Vec<usize>,
    nsplits: Vec<Vec<usize>>,
    /// Per axis, the start of every chunk followed by the axis length (`len + 1` entries).
    offsets: Vec<Vec<usize>>,
}

impl Layout {
    /// A layout from chunk sizes; the shape is their per-axis sums.
    pub fn new(nsplits: Vec<Vec<usize>>) -> Layout {
        let offsets: Vec<Vec<usize>> = nsplits
            .iter()
            .map(|splits| {
                let mut starts = Vec::with_capacity(splits.len() + 1);
                let mut position = 0;
                starts.push(0);
                for &size in splits {
                    position += size;
                    starts.push(position);
                }
                starts
            })
            .collect();
        let shape = offsets
            .iter()
            .map(|starts| *starts.last().unwrap_or(&0))
            .collect();
        Layout {
            shape,
            nsplits,
            offsets,
        }
    }

    /// One chunk per axis (a 0-d layout when `shape` is empty).
    pub fn single(shape: &[usize]) -> Layout {
        Layout::new(shape.iter().map(|&len| vec![len]).collect())
    }

    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    pub fn nsplits(&self) -> &[Vec<usize>] {
        &self.nsplits
    }

    pub fn ndim(&self) -> usize {
        self.shape.len()
    }

    /// The number of chunks along each axis.
    pub fn grid(&self) -> Vec<usize> {
        self.nsplits.iter().map(Vec::len).collect()
    }

    /// Chunks along `axis`.
    pub fn chunks_along(&self, axis: usize) -> usize {
        self.nsplits[axis].len()
    }

    /// The total number of chunks (wide, so an absurd grid cannot overflow).
    pub fn num_chunks(&self) -> u128 {
        self.nsplits.iter().map(|s| s.len() as u128).product()
    }

    /// Chunk starts along `axis` followed by the axis length.
    pub fn offsets(&self, axis: usize) -> &[usize] {
        &self.offsets[axis]
    }

    /// Row-major strides of the chunk grid.
    pub fn grid_strides(&self) -> Vec<usize> {
        let mut strides = vec![1; self.ndim()];
        for axis in (0..self.ndim().saturating_sub(1)).rev() {
            strides[axis] = strides[axis + 1] * self.nsplits[axis + 1].len();
        }
        strides
    }

    /// The grid position of chunk `index`, written into `position`.
    pub fn grid_position_into(&self, index: usize, position: &mut [usize]) {
        let mut rest = index;
        for axis in (0..self.ndim()).rev() {
            let count = self.nsplits[axis].len();
            position[axis] = rest % count;
            rest /= count;
        }
    }

    pub fn grid_position(&self, index: usize) -> Vec<usize> {
        let mut position = vec![0; self.ndim()];
        self.grid_position_into(index, &mut position);
        position
    }

    /// The chunk index of a grid position.
    pub fn index_of(&self, position: &[usize]) -> usize {
        position
            .iter()
            .zip(&self.nsplits)
            .fold(0, |index, (&p, splits)| index * splits.len() + p)
    }

    /// Global offset of chunk `index`'s first element.
    pub fn chunk_offset(&self, index: usize) -> Vec<usize> {
        let position = self.grid_position(index);
        position
            .iter()
            .enumerate()
            .map(|(axis, &p)| self.offsets[axis][p])
            .collect()
    }

    /// The number of elements of chunk `index` along the axes from `first_axis` on,
    /// without allocating its shape.
    pub fn chunk_len_from(&self, index: usize, first_axis: usize) -> usize {
        let mut rest = index;
        let mut len = 1;
        for axis in (0..self.ndim()).rev() {
            let count = self.nsplits[axis].len();
            if axis >= first_axis {
                len *= self.nsplits[axis][rest % count];
            }
            rest /= count;
        }
        len
    }

    /// Shape of chunk `index`.
    pub fn chunk_shape(&self, index: usize) -> Vec<usize> {
        let position = self.grid_position(index);
        position
            .iter()
            .enumerate()
            .map(|(axis, &p)| self.nsplits[axis][p])
            .collect()
    }

    /// The chunk along `axis` holding element `position` (the last chunk for the
    /// axis length itself, so empty ranges at the end still find a chunk).
    pub fn chunk_at(&self, axis: usize, position: usize) -> usize {
        let starts = &self.offsets[axis];
        let chunks = starts.len() - 1;
        starts[1..chunks]
            .partition_point(|&start| start <= position)
            .min(chunks - 1)
    }
}

/// Visits every position of a grid in C order.
pub fn for_each_position(grid: &[usize], mut visit: impl FnMut(&[usize])) {
    if grid.contains(&0) {
        return;
    }
    let mut position = vec![0; grid.len()];
    loop {
        visit(&position);
        let mut axis = grid.len();
        loop {
            if axis == 0 {
                return;
            }
            axis -= 1;
            position[axis] += 1;
            if position[axis] < grid[axis] {
                break;
            }
            position[axis] = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_and_positions() {
        let layout = Layout::new(vec![vec![2, 2], vec![3, 3, 1]]);
        assert_eq!(layout.shape(), &[4, 7]);
        assert_eq!(layout.num_chunks(), 6);
        assert_eq!(layout.grid_strides(), vec![3, 1]);
        assert_eq!(layout.grid_position(5), vec![1, 2]);
        assert_eq!(layout.index_of(&[1, 2]), 5);
        assert_eq!(layout.chunk_offset(5), vec![2, 6]);
        assert_eq!(layout.chunk_shape(5), vec![2, 1]);
        assert_eq!(layout.chunk_at(1, 0), 0);
        assert_eq!(layout.chunk_at(1, 3), 1);
        assert_eq!(layout.chunk_at(1, 6), 2);
        assert_eq!(layout.chunk_at(1, 7), 2);
    }

    #[test]
    fn zero_dimensional_has_one_chunk() {
        let layout = Layout::single(&[]);
        assert_eq!(layout.num_chunks(), 1);
        assert_eq!(layout.chunk_offset(0), Vec::<usize>::new());
        let mut visits = 0;
        for_each_position(&layout.grid(), |_| visits += 1);
        assert_eq!(visits, 1);
    }

    #[test]
    fn positions_in_c_order() {
        let mut seen = Vec::new();
        for_each_position(&[2, 3], |p| seen.push(p.to_vec()));
        assert_eq!(seen.len(), 6);
        assert_eq!(seen[1], vec![0, 1]);
        assert_eq!(seen[3], vec![1, 0]);
    }
}
