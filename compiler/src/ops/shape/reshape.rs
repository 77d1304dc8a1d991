//! The chunk plan of a C-order reshape, after Dask's `reshape_rechunk`, kept apart
//! from the other nsplits rules because it is the one with real arithmetic.
//!
//! The input and output axes of length > 1 are cut into groups whose lengths multiply
//! to the same number; a reshape never moves an element across groups, so each group
//! is planned alone. A chunk that a reshape can turn into exactly one output chunk
//! must be a contiguous run of the group's elements: the group's axes before some
//! axis have chunks of 1, that axis is split freely, and the axes after it are whole.
//! - Several input axes merging into one (Dask's `din < dout`): the leading input
//!   axis keeps (a refinement of) its chunks and the rest become whole, then chunks
//!   that grew are split again, moving to a lower axis once the leading one is all
//!   ones (`_smooth_chunks`). The output chunks are the input chunks in C order.
//! - One input axis splitting into several (Dask's `din > dout`): input chunks are
//!   grown to whole rows of the trailing output axes (`contract_tuple`) and smoothed
//!   the same way on the output side.
//! - Several into several (Dask refuses these): input boundaries are moved to whole
//!   rows of both sides, so the leading output axis can split where the input does.

/// Dask's `reshape_rechunk`: (the chunking the input must be rechunked to, the
/// output nsplits) such that every output chunk comes from exactly one input chunk
/// in C order. Axes are matched in groups whose lengths multiply to the same size;
/// within a group only the leading input axis stays split (in whole rows of the
/// group's output too) and only the leading output axis is split.
pub fn reshape_plan(
    in_shape: &[usize],
    in_nsplits: &[Vec<usize>],
    out_shape: &[usize],
) -> (Vec<Vec<usize>>, Vec<Vec<usize>>) {
    let whole = |shape: &[usize]| shape.iter().map(|&len| vec![len]).collect::<Vec<_>>();
    let size_in: u128 = in_shape.iter().map(|&l| l as u128).product();
    let size_out: u128 = out_shape.iter().map(|&l| l as u128).product();
    // An empty array has nothing to move, and a mismatch or a size beyond `usize` is a
    // caller bug; one chunk each side is right for the first and harmless otherwise.
    let fits = size_in <= usize::MAX as u128;
    if size_in == 0 || size_in != size_out || !fits || in_nsplits.len() != in_shape.len() {
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
        match (in_axes, out_axes) {
            ([input], [output]) => {
                self.in_plan[*input] = self.in_nsplits[*input].clone();
                self.out_plan[*output] = self.in_nsplits[*input].clone();
            }
            (_, [output]) => self.merge(in_axes, *output),
            ([input], _) => self.split(*input, out_axes),
            _ => self.regroup(in_axes, out_axes),
        }
    }

    fn merge(&mut self, in_axes: &[usize], output: usize) {
        let old = self.in_nsplits;
        let lower = &in_axes[..in_axes.len() - 1];
        if lower.iter().all(|&a| old[a].len() == self.in_shape[a]) {
            // Every chunk is already a contiguous run: blocks just move.
            for &a in in_axes {
                self.in_plan[a] = old[a].clone();
            }
        } else {
            for &a in &in_axes[1..] {
                self.in_plan[a] = vec![self.in_shape[a]];
            }
            let reduction = in_axes[1..].iter().map(|&a| old[a].len()).product();
            self.in_plan[in_axes[0]] = expand_tuple(&old[in_axes[0]], reduction);
            smooth_chunks(&mut self.in_plan, in_axes, largest_chunk(old, in_axes));
        }
        self.out_plan[output] = chunks_in_c_order(&self.in_plan, in_axes);
    }

    fn split(&mut self, input: usize, out_axes: &[usize]) {
        let row: usize = out_axes[1..].iter().map(|&a| self.out_shape[a]).product();
        let contracted = contract_tuple(&self.in_nsplits[input], row);
        for &a in &out_axes[1..] {
            self.out_plan[a] = vec![self.out_shape[a]];
        }
        self.out_plan[out_axes[0]] = contracted.iter().map(|&c| c / row).collect();
        let largest = self.in_nsplits[input].iter().copied().max().unwrap_or(1);
        smooth_chunks(&mut self.out_plan, out_axes, largest);
        self.in_plan[input] = chunks_in_c_order(&self.out_plan, out_axes);
    }

    fn regroup(&mut self, in_axes: &[usize], out_axes: &[usize]) {
        let (lead_in, lead_out) = (in_axes[0], out_axes[0]);
        // Elements in one row of the leading input / output axis.
        let in_row: usize = in_axes[1..].iter().map(|&a| self.in_shape[a]).product();
        let out_row: usize = out_axes[1..].iter().map(|&a| self.out_shape[a]).product();
        // Input boundaries must fall on multiples of this many input rows.
        let unit = out_row / gcd(in_row, out_row);
        let largest = largest_chunk(self.in_nsplits, in_axes);
        let cap = ((largest / in_row).max(1) / unit).max(1) * unit;
        let rows = lead_rows(&self.in_nsplits[lead_in], cap, unit);
        self.out_plan[lead_out] = rows.iter().map(|&r| r * in_row / out_row).collect();
        self.in_plan[lead_in] = rows;
        for &a in &in_axes[1..] {
            self.in_plan[a] = vec![self.in_shape[a]];
        }
    }
}

/// The element count of the largest chunk over these axes.
fn largest_chunk(nsplits: &[Vec<usize>], axes: &[usize]) -> usize {
    axes.iter()
        .map(|&a| nsplits[a].iter().copied().max().unwrap_or(1))
        .product()
}

/// The sizes of the chunks of these axes taken together, in C order.
fn chunks_in_c_order(nsplits: &[Vec<usize>], axes: &[usize]) -> Vec<usize> {
    let mut sizes = vec![1];
    for &a in axes {
        sizes = sizes
            .iter()
            .flat_map(|&outer| nsplits[a].iter().map(move |&inner| outer * inner))
            .collect();
    }
    sizes
}

/// Dask's `expand_tuple`: each chunk cut into about `factor` pieces of at least 1.
fn expand_tuple(chunks: &[usize], factor: usize) -> Vec<usize> {
    if factor == 1 {
        return chunks.to_vec();
    }
    let mut out = Vec::with_capacity(chunks.len() * factor);
    for &chunk in chunks {
        let part = (chunk as f64 / factor as f64).max(1.0);
        let whole_part = part as usize;
        let mut left = chunk;
        while left as f64 >= 2.0 * part {
            out.push(whole_part);
            left -= whole_part;
        }
        if left > 0 {
            out.push(left);
        }
    }
    out
}

/// Dask's `contract_tuple`: chunks merged forward until each is a multiple of `factor`.
fn contract_tuple(chunks: &[usize], factor: usize) -> Vec<usize> {
    let mut out = Vec::with_capacity(chunks.len());
    let mut residual = 0;
    for &chunk in chunks {
        let chunk = chunk + residual;
        let good = chunk / factor * factor;
        residual = chunk - good;
        if good > 0 {
            out.push(good);
        }
    }
    out
}

/// `len` cut into `count` pieces as Dask does: all `ceil(len / count)` except that
/// the first few are one smaller.
fn dask_pieces(len: usize, count: usize) -> Vec<usize> {
    let count = count.clamp(1, len.max(1));
    let ceil = len.div_ceil(count);
    let mut pieces = vec![ceil; count];
    for piece in pieces.iter_mut().take(ceil * count - len) {
        *piece -= 1;
    }
    pieces
}

/// Dask's `_smooth_chunks`: splits the first axis of `axes` that is not all ones
/// until the largest chunk is no bigger than `target` elements (as far as one axis
/// allows, moving to the next axis when this one ends up all ones).
fn smooth_chunks(plan: &mut [Vec<usize>], axes: &[usize], target: usize) {
    let target = target.max(1);
    loop {
        let largest = largest_chunk(plan, axes);
        if largest <= target {
            return;
        }
        let Some(position) = axes.iter().position(|&a| plan[a].iter().any(|&c| c != 1)) else {
            return;
        };
        let axis = axes[position];
        let factor = largest.div_ceil(target);
        if let [only] = plan[axis][..] {
            let pieces = dask_pieces(only, factor);
            let all_ones = pieces.iter().all(|&p| p == 1);
            plan[axis] = pieces;
            if all_ones && position + 1 < axes.len() {
                continue;
            }
            return;
        }
        let axis_largest = plan[axis].iter().copied().max().unwrap_or(1);
        let others = largest / axis_largest;
        plan[axis] = plan[axis]
            .iter()
            .flat_map(|&chunk| {
                if chunk * others <= target {
                    vec![chunk]
                } else {
                    dask_pieces(chunk, (chunk * others).div_ceil(target))
                }
            })
            .collect();
        return;
    }
}

/// Splits of the leading input axis: the old chunks, each cut into near-equal pieces
/// of at most `cap` rows, then every boundary moved down to a multiple of `unit`.
fn lead_rows(old: &[usize], cap: usize, unit: usize) -> Vec<usize> {
    let total: usize = old.iter().sum();
    let mut boundaries = Vec::with_capacity(old.len());
    let mut start = 0;
    for &size in old {
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
    let mut previous = 0;
    for boundary in boundaries {
        if boundary > previous {
            rows.push(boundary - previous);
            previous = boundary;
        }
    }
    rows
}

fn gcd(mut a: usize, mut b: usize) -> usize {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}
