//! Counting kernels of `bincount` and `histogram`: one chunk of values (and of
//! weights, if any) gives one row of per-bin counts (int64) or weight sums (float64);
//! the compiler adds the rows of every chunk with a sum tree. Which bin a value
//! falls in follows NumPy's own source (`numpy/lib/_histograms_impl.py`) step by
//! step, so the counts equal NumPy's bit for bit, values on edges included:
//! equal-width bins through `f_indices = (a - first) / denom * n` and its
//! corrections against the edges, explicit edges as `searchsorted` (the last bin
//! closed), `bincount` by value.

use crate::array::{try_filled, ArrayData};
use crate::kernels::KernelError;
use ndarray::{ArrayD, IxDyn};
use std::sync::Arc;

/// How values map to bins.
#[derive(Clone, Debug, PartialEq)]
pub enum Binning {
    /// `bincount`: value `v` counts in bin `v`, of `length` bins (the compiler has
    /// checked, in a stage, that every value lies in `0..length`).
    Integers { length: usize },
    /// `histogram` with `edges.len() - 1` equal bins from `first` to `last`, in
    /// float64: `denom` is NumPy's `last - first` (computed as integers when both
    /// are) and `edges` the bins' `linspace`.
    Uniform {
        first: f64,
        last: f64,
        denom: f64,
        edges: Arc<[f64]>,
    },
    /// `histogram` with explicit increasing edges.
    Edges(Edges),
    /// `histogram` of float32 data with equal bins, whose edges NumPy keeps in
    /// float32: values outside `first..=last` are dropped, `x - first` is taken in
    /// float32, then divided by `denom` in its precision.
    UniformSingle {
        first: f32,
        last: f32,
        denom: SingleDenom,
        edges: Arc<[f32]>,
    },
}

/// The divisor of float32 data's bin index: float32 when NumPy's range is the
/// data's own (float32 scalars), float64 when it is given in Python numbers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SingleDenom {
    Single(f32),
    Double(f64),
}

/// Explicit bin edges, compared with the values in NumPy's common type: integers
/// with integer data, float64 otherwise.
#[derive(Clone, Debug, PartialEq)]
pub enum Edges {
    Int(Arc<[i64]>),
    Float(Arc<[f64]>),
}

impl Binning {
    /// The number of bins.
    pub fn bins(&self) -> usize {
        match self {
            Binning::Integers { length } => *length,
            Binning::Uniform { edges, .. } | Binning::Edges(Edges::Float(edges)) => {
                edges.len().saturating_sub(1)
            }
            Binning::Edges(Edges::Int(edges)) => edges.len().saturating_sub(1),
            Binning::UniformSingle { edges, .. } => edges.len().saturating_sub(1),
        }
    }
}

/// The row (shape `[1, bins]`) of per-bin counts of a chunk of `values`, or with
/// `weights` (a chunk of the same length) their per-bin sums in float64. Values
/// outside every bin are dropped.
pub fn bin_counts(
    binning: &Binning,
    values: &ArrayData,
    weights: Option<&ArrayData>,
) -> Result<ArrayData, KernelError> {
    let bins = binning.bins();
    let weights = weights.map(float_values).transpose()?;
    let weighted = weights.is_some();
    if let Some(weights) = &weights {
        if weights.len() != values.len() {
            return Err(KernelError::new(format!(
                "internal error: {} weights for {} values",
                weights.len(),
                values.len()
            )));
        }
    }
    let counts = if weighted {
        Vec::new()
    } else {
        try_filled(bins, 0i64)?
    };
    let mut counts = counts;
    let mut sums = if weighted {
        try_filled(bins, 0.0f64)?
    } else {
        Vec::new()
    };
    let mut add = |position: usize, bin: usize| match &weights {
        Some(weights) => sums[bin] += weights[position],
        None => counts[bin] += 1,
    };
    match binning {
        Binning::Integers { length } => {
            for (position, v) in int_values(values)?.iter().enumerate() {
                let bin = usize::try_from(*v).ok().filter(|b| b < length);
                let Some(bin) = bin else {
                    return Err(KernelError::new(format!(
                        "internal error: value {v} outside the {length} bins of a bincount"
                    )));
                };
                add(position, bin);
            }
        }
        Binning::Uniform {
            first,
            last,
            denom,
            edges,
        } => {
            let uniform = UniformBins {
                first: *first,
                last: *last,
                denom: *denom,
                edges,
            };
            for (position, x) in float_values(values)?.iter().enumerate() {
                if let Some(bin) = uniform.bin(*x) {
                    add(position, bin);
                }
            }
        }
        Binning::UniformSingle {
            first,
            last,
            denom,
            edges,
        } => {
            let ArrayData::Float32(data) = values else {
                return Err(KernelError::new(format!(
                    "internal error: float32 bins for a {} chunk",
                    values.dtype()
                )));
            };
            let n = edges.len().saturating_sub(1);
            for (position, &x) in data.iter().enumerate() {
                if !(x >= *first && x <= *last) || n == 0 {
                    continue;
                }
                let difference = x - *first;
                let f_index = match denom {
                    SingleDenom::Single(d) => f64::from((difference / d) * n as f32),
                    SingleDenom::Double(d) => (f64::from(difference) / d) * n as f64,
                };
                add(position, corrected_bin(x, f_index, edges));
            }
        }
        Binning::Edges(Edges::Int(edges)) if values.dtype().is_int() => {
            for (position, x) in int_values(values)?.iter().enumerate() {
                if let Some(bin) = edge_bin(edges, x) {
                    add(position, bin);
                }
            }
        }
        Binning::Edges(edges) => {
            let edges: Vec<f64> = match edges {
                Edges::Float(edges) => edges.to_vec(),
                Edges::Int(edges) => edges.iter().map(|&e| e as f64).collect(),
            };
            for (position, x) in float_values(values)?.iter().enumerate() {
                if let Some(bin) = edge_bin(&edges, x) {
                    add(position, bin);
                }
            }
        }
    }
    let shape = IxDyn(&[1, bins]);
    let internal = |e: ndarray::ShapeError| KernelError::new(format!("internal error: {e}"));
    Ok(if weighted {
        ArrayData::Float64(ArrayD::from_shape_vec(shape, sums).map_err(internal)?)
    } else {
        ArrayData::Int64(ArrayD::from_shape_vec(shape, counts).map_err(internal)?)
    })
}

/// Equal-width bins, as NumPy's `_histogram` places a value.
struct UniformBins<'a> {
    first: f64,
    last: f64,
    denom: f64,
    edges: &'a [f64],
}

impl UniformBins<'_> {
    fn bin(&self, x: f64) -> Option<usize> {
        // `keep = (a >= first_edge) & (a <= last_edge)` (a NaN is never kept).
        if !(x >= self.first && x <= self.last) {
            return None;
        }
        let n = self.edges.len().checked_sub(1).filter(|&n| n > 0)?;
        let f_index = ((x - self.first) / self.denom) * n as f64;
        Some(corrected_bin(x, f_index, self.edges))
    }
}

/// NumPy's bin of a kept value `x` from its estimate `f_index` among `edges`
/// (at least two): truncated, the last edge moved into the last bin, then one down
/// if x lies below its bin's left edge, one up if at or past its right edge.
fn corrected_bin<T: PartialOrd + Copy>(x: T, f_index: f64, edges: &[T]) -> usize {
    let n = edges.len() as i64 - 1;
    // `f_indices.astype(np.intp)` truncates toward zero.
    let mut index = f_index as i64;
    if index == n {
        index -= 1;
    }
    let edge = |i: i64| edges[i.clamp(0, n) as usize];
    if x < edge(index) {
        index -= 1;
    }
    if x >= edge(index + 1) && index != n - 1 {
        index += 1;
    }
    // NumPy's corrections keep the index within the bins; clamped so that a value
    // at the limits of the floats cannot leave them here either.
    index.clamp(0, n - 1) as usize
}

/// The bin of `x` among increasing `edges` as NumPy's `searchsorted` counts it:
/// bin `i` holds `edges[i] <= x < edges[i + 1]`, the last bin also its right edge;
/// `None` outside every bin (and for NaN).
fn edge_bin<T: PartialOrd + Copy>(edges: &[T], x: &T) -> Option<usize> {
    let n = edges.len().checked_sub(1).filter(|&n| n > 0)?;
    // How many of the left edges lie at or below x.
    let below = edges[..n].partition_point(|e| e <= x);
    if below == 0 {
        return None;
    }
    if below == n && *x > edges[n] {
        return None;
    }
    Some(below - 1)
}

/// A chunk's values as int64 (integers and bools).
fn int_values(values: &ArrayData) -> Result<Vec<i64>, KernelError> {
    Ok(match values {
        ArrayData::Bool(a) => a.iter().map(|&b| i64::from(b)).collect(),
        ArrayData::Int8(a) => a.iter().map(|&v| i64::from(v)).collect(),
        ArrayData::Int16(a) => a.iter().map(|&v| i64::from(v)).collect(),
        ArrayData::Int32(a) => a.iter().map(|&v| i64::from(v)).collect(),
        ArrayData::Int64(a) => a.iter().copied().collect(),
        ArrayData::UInt8(a) => a.iter().map(|&v| i64::from(v)).collect(),
        ArrayData::UInt16(a) => a.iter().map(|&v| i64::from(v)).collect(),
        ArrayData::UInt32(a) => a.iter().map(|&v| i64::from(v)).collect(),
        ArrayData::UInt64(a) => a
            .iter()
            .map(|&v| {
                i64::try_from(v).map_err(|_| {
                    KernelError::new(format!("the value {v} is too large to count by"))
                })
            })
            .collect::<Result<_, _>>()?,
        other => {
            return Err(KernelError::new(format!(
                "internal error: counting a {} chunk by integer value",
                other.dtype()
            )))
        }
    })
}

/// A chunk's values as float64 (NumPy's conversion of every dtype).
fn float_values(values: &ArrayData) -> Result<Vec<f64>, KernelError> {
    Ok(match values {
        ArrayData::Bool(a) => a.iter().map(|&b| f64::from(u8::from(b))).collect(),
        ArrayData::Int8(a) => a.iter().map(|&v| f64::from(v)).collect(),
        ArrayData::Int16(a) => a.iter().map(|&v| f64::from(v)).collect(),
        ArrayData::Int32(a) => a.iter().map(|&v| f64::from(v)).collect(),
        ArrayData::Int64(a) => a.iter().map(|&v| v as f64).collect(),
        ArrayData::UInt8(a) => a.iter().map(|&v| f64::from(v)).collect(),
        ArrayData::UInt16(a) => a.iter().map(|&v| f64::from(v)).collect(),
        ArrayData::UInt32(a) => a.iter().map(|&v| f64::from(v)).collect(),
        ArrayData::UInt64(a) => a.iter().map(|&v| v as f64).collect(),
        ArrayData::Float16(a) => a.iter().map(|&v| v.to_f64()).collect(),
        ArrayData::Float32(a) => a.iter().map(|&v| f64::from(v)).collect(),
        ArrayData::Float64(a) => a.iter().copied().collect(),
        ArrayData::Complex64(_) | ArrayData::Complex128(_) => {
            return Err(KernelError::new(format!(
                "not supported yet: histograms of {} values",
                values.dtype()
            )))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn floats(values: &[f64]) -> ArrayData {
        ArrayData::Float64(ArrayD::from_shape_vec(IxDyn(&[values.len()]), values.to_vec()).unwrap())
    }

    fn ints(values: &[i64]) -> ArrayData {
        ArrayData::Int64(ArrayD::from_shape_vec(IxDyn(&[values.len()]), values.to_vec()).unwrap())
    }

    fn row(data: ArrayData) -> Vec<f64> {
        assert_eq!(data.shape()[0], 1);
        (0..data.len())
            .map(|i| data.get_flat(i).unwrap().as_f64())
            .collect()
    }

    /// NumPy's `linspace(0, 1, 11)`.
    fn tenths() -> Binning {
        let edges: Vec<f64> = (0..11)
            .map(|i| if i == 10 { 1.0 } else { i as f64 * 0.1 })
            .collect();
        Binning::Uniform {
            first: 0.0,
            last: 1.0,
            denom: 1.0,
            edges: edges.into(),
        }
    }

    #[test]
    fn uniform_bins_correct_the_index_against_the_edges_as_numpy_does() {
        // 0.3 * 10 rounds to 3.0000000000000004, but 0.3 < edges[3] (3 * 0.1 =
        // 0.30000000000000004): NumPy moves it down to bin 2. 1.0 is in the last bin;
        // values outside the range and NaN are dropped.
        let counts = bin_counts(
            &tenths(),
            &floats(&[0.3, 0.0, 1.0, 0.7, -0.1, 1.5, f64::NAN]),
            None,
        )
        .unwrap();
        assert_eq!(row(counts), [1., 0., 1., 0., 0., 0., 1., 0., 0., 1.]);
    }

    #[test]
    fn explicit_edges_close_the_last_bin_and_skip_empty_bins() {
        let edges = Binning::Edges(Edges::Int(vec![0, 5, 5, 10].into()));
        let counts = bin_counts(&edges, &ints(&[-1, 0, 4, 5, 9, 10, 11]), None).unwrap();
        assert_eq!(row(counts), [2., 0., 3.]);
        let edges = Binning::Edges(Edges::Float(vec![0.5, 1.5].into()));
        let counts = bin_counts(&edges, &ints(&[0, 1, 2]), None).unwrap();
        assert_eq!(row(counts), [1.]);
    }

    #[test]
    fn bincount_counts_by_value_and_sums_weights() {
        let binning = Binning::Integers { length: 4 };
        let counts = bin_counts(&binning, &ints(&[3, 0, 3]), None).unwrap();
        assert!(matches!(counts, ArrayData::Int64(_)));
        assert_eq!(row(counts), [1., 0., 0., 2.]);
        let sums = bin_counts(&binning, &ints(&[3, 0, 3]), Some(&floats(&[0.5, 1.0, 2.0])));
        assert_eq!(row(sums.unwrap()), [1., 0., 0., 2.5]);
        assert!(bin_counts(&binning, &ints(&[4]), None).is_err());
        assert!(bin_counts(&binning, &ints(&[1]), Some(&floats(&[]))).is_err());
    }
}
