//! The chunk plan of a C-order reshape (after Dask's `reshape_rechunk`), kept apart
//! from the other nsplits rules because it is the one with real arithmetic.
//!
//! The input and output axes of length > 1 are cut into groups whose lengths multiply
//! to the same number; a reshape never moves an element across groups, so each group
//! is planned alone. In a group only the leading input axis stays split (the others
//! become whole), so every input chunk is a contiguous run of the group's elements; its
//! boundaries are moved to multiples of a whole output row, so that the leading output
//! axis can be split at exactly the same places. Merging more axes into a chunk makes
//! it bigger, so the leading axis is split further to keep chunks near their old size.

/// See [`super::nsplits::reshape_plan`].
pub(crate) fn reshape_plan_impl(
    in_shape: &[usize],
    in_nsplits: &[Vec<usize>],
    out_shape: &[usize],
) -> (Vec<Vec<usize>>, Vec<Vec<usize>>) {
    let whole = |shape: &[usize]| shape.iter().map(|&len| vec![len]).collect::<Vec<_>>();
    let size_in: u128 = in_shape.iter().map(|&l| l as u128).product();
    let size_out: u128 = out_shape.iter().map(|&l| l as u128).product();
    // An empty array has nothing to move, and a mismatch is a caller bug; one chunk
    // each side is correct for the first and harmless for the second.
    if size_in == 0 || size_in != size_out || in_nsplits.len() != in_shape.len() {
        return (whole(in_shape), whole(out_shape));
    }
    let mut plan = Plan {
        in_shape,
        in_nsplits,
        out_shape,
        in_plan: whole(in_shape),
        out_plan: whole(out_shape),
    };
    let in_axes: Vec<usize> = (0..in_shape.len()).filter(|&a| in_shape[a] > 1).collect();
    let out_axes: Vec<usize> = (0..out_shape.len()).filter(|&a| out_shape[a] > 1).collect();
    let (mut i, mut o) = (0, 0);
    while i < in_axes.len() && o < out_axes.len() {
        let (i0, o0) = (i, o);
        let mut in_size = in_shape[in_axes[i]] as u128;
        let mut out_size = out_shape[out_axes[o]] as u128;
        i += 1;
        o += 1;
        while in_size != out_size {
            // Equal total sizes guarantee the smaller side has axes left.
            if in_size < out_size && i < in_axes.len() {
                in_size *= in_shape[in_axes[i]] as u128;
                i += 1;
            } else if out_size < in_size && o < out_axes.len() {
                out_size *= out_shape[out_axes[o]] as u128;
                o += 1;
            } else {
                return (whole(in_shape), whole(out_shape));
            }
        }
        plan.group(&in_axes[i0..i], &out_axes[o0..o]);
    }
    (plan.in_plan, plan.out_plan)
}

struct Plan<'a> {
    in_shape: &'a [usize],
    in_nsplits: &'a [Vec<usize>],
    out_shape: &'a [usize],
    in_plan: Vec<Vec<usize>>,
    out_plan: Vec<Vec<usize>>,
}

impl Plan<'_> {
    fn group(&mut self, in_axes: &[usize], out_axes: &[usize]) {
        let (lead_in, lead_out) = (in_axes[0], out_axes[0]);
        if in_axes.len() == 1 && out_axes.len() == 1 {
            self.in_plan[lead_in] = self.in_nsplits[lead_in].clone();
            self.out_plan[lead_out] = self.in_nsplits[lead_in].clone();
            return;
        }
        let product = |shape: &[usize], axes: &[usize]| -> u128 {
            axes.iter().map(|&a| shape[a] as u128).product()
        };
        // Elements in one row of the leading input / output axis.
        let in_row = product(self.in_shape, &in_axes[1..]);
        let out_row = product(self.out_shape, &out_axes[1..]);
        // Input boundaries must fall on multiples of this many input rows.
        let unit = out_row / gcd(in_row, out_row);
        let largest_chunk: u128 = in_axes
            .iter()
            .map(|&a| self.in_nsplits[a].iter().copied().max().unwrap_or(1).max(1) as u128)
            .product();
        let cap = ((largest_chunk / in_row).max(1) / unit).max(1) * unit;
        let rows = lead_rows(&self.in_nsplits[lead_in], cap, unit);
        self.out_plan[lead_out] = rows
            .iter()
            .map(|&r| (r as u128 * in_row / out_row) as usize)
            .collect();
        self.in_plan[lead_in] = rows;
    }
}

/// Splits of the leading input axis: the old chunks, each cut into near-equal pieces
/// of at most `cap` rows, then every boundary moved down to a multiple of `unit`.
fn lead_rows(old: &[usize], cap: u128, unit: u128) -> Vec<usize> {
    let total: u128 = old.iter().map(|&s| s as u128).sum();
    let mut boundaries = Vec::with_capacity(old.len());
    let mut start = 0u128;
    for &size in old {
        let size = size as u128;
        let pieces = size.div_ceil(cap).max(1);
        for piece in 1..=pieces {
            let boundary = start + size * piece / pieces;
            boundaries.push(boundary / unit * unit);
        }
        start += size;
    }
    // The axis length is a multiple of `unit` (the group's size is a multiple of a
    // whole output row), so the last boundary is the end of the axis.
    boundaries.push(total);
    let mut rows = Vec::with_capacity(boundaries.len());
    let mut previous = 0u128;
    for boundary in boundaries {
        if boundary > previous {
            rows.push((boundary - previous) as usize);
            previous = boundary;
        }
    }
    rows
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}
