//! The invariant that makes chunked reductions correct: for any shape, dtype, axis
//! set, splitting of the reduced axes into blocks, order of the blocks and tree of
//! merges, map → combine → finish gives the single-chunk result (bit for bit for
//! integers, booleans, extremes and arg-extremes; within rounding for float sums,
//! products, means and variances).

use super::element::Element;
use super::{reduce_combine, reduce_finish, reduce_map, ReduceState};
use crate::array::ArrayData;
use crate::dtype::DType;
use crate::kernels::KernelError;
use crate::ops::{ReduceOp, Reduction};
use ndarray::{ArrayD, IxDyn, Slice};
use proptest::prelude::*;

#[derive(Clone, Debug)]
struct Case {
    red: Reduction,
    keepdims: bool,
    x: ArrayData,
    axes: Vec<usize>,
    /// Per axis, whether to cut a block boundary after each position.
    cuts: Vec<Vec<bool>>,
    /// Group sizes used, in turn, when building the merge tree.
    fan_ins: Vec<usize>,
    shuffle_seed: u64,
}

fn build_array(
    dtype: DType,
    shape: &[usize],
    codes: &[i64],
    nans: &[bool],
    offset: f64,
) -> ArrayData {
    fn make<T: Element>(shape: &[usize], values: Vec<T>) -> ArrayData {
        T::into_data(ArrayD::from_shape_vec(IxDyn(shape), values).expect("sized to shape"))
    }
    let float = |(&code, &nan): (&i64, &bool)| {
        if nan {
            f64::NAN
        } else {
            code as f64 / 8.0 + offset
        }
    };
    let pairs = codes.iter().zip(nans);
    match dtype {
        DType::Bool => make(shape, codes.iter().map(|&c| c > 0).collect()),
        DType::Int32 => make(shape, codes.iter().map(|&c| (c * 7) as i32).collect()),
        // Large enough that sums and products wrap around.
        DType::Int64 => make(shape, codes.iter().map(|&c| c * 1_000_000_007).collect()),
        DType::Float16 => make(
            shape,
            pairs.map(|p| half::f16::from_f64(float(p))).collect(),
        ),
        DType::Float32 => make(shape, pairs.map(|p| float(p) as f32).collect()),
        DType::Float64 => make(shape, pairs.map(float).collect()),
        narrow => crate::kernels::cast(
            &make(
                shape,
                codes
                    .iter()
                    .map(|&c| c * 1_000_000_007)
                    .collect::<Vec<i64>>(),
            ),
            narrow,
        ),
    }
}

fn case() -> impl Strategy<Value = Case> {
    let header = (
        prop::collection::vec(0usize..=5, 1..=4),
        // Complex reductions are checked end to end (`tests/run_props.rs`).
        prop::sample::select(
            DType::ALL
                .into_iter()
                .filter(|d| !d.is_complex())
                .collect::<Vec<_>>(),
        ),
        // `var`/`std` are two trees (a mean, then a sum), built by the tiler.
        prop::sample::select(
            ReduceOp::ALL
                .iter()
                .copied()
                .filter(|op| !matches!(op, ReduceOp::Var | ReduceOp::Std))
                .collect::<Vec<_>>(),
        ),
        prop::sample::select(vec![0.0, 1.0, 2.5]),
        any::<bool>(),
        prop::sample::select(vec![0.0, 100.0]),
    );
    header.prop_flat_map(|(shape, dtype, op, ddof, keepdims, offset)| {
        let n: usize = shape.iter().product();
        let ndim = shape.len();
        let cuts = shape
            .iter()
            .map(|&extent| prop::collection::vec(any::<bool>(), extent.saturating_sub(1)))
            .collect::<Vec<_>>();
        (
            prop::collection::vec(-6i64..6, n),
            prop::collection::vec(prop::bool::weighted(0.05), n),
            prop::collection::vec(any::<bool>(), ndim),
            cuts,
            prop::collection::vec(1usize..=4, 1..8),
            any::<u64>(),
        )
            .prop_map(
                move |(codes, nans, axis_mask, cuts, fan_ins, shuffle_seed)| Case {
                    red: Reduction { op, ddof },
                    keepdims,
                    x: build_array(dtype, &shape, &codes, &nans, offset),
                    axes: (0..ndim).filter(|&axis| axis_mask[axis]).collect(),
                    cuts,
                    fan_ins,
                    shuffle_seed,
                },
            )
    })
}

/// The blocks `[start, end)` of one axis: cut where asked if the axis is reduced,
/// whole otherwise (merging is only across the reduced axes).
fn blocks(extent: usize, cuts: &[bool], reduced: bool) -> Vec<(usize, usize)> {
    let mut blocks = Vec::new();
    let mut start = 0;
    for (position, &cut) in cuts.iter().enumerate() {
        if reduced && cut {
            blocks.push((start, position + 1));
            start = position + 1;
        }
    }
    blocks.push((start, extent));
    blocks
}

/// Every chunk of the splitting with its offset, in C order of block indices.
fn chunks(case: &Case) -> Vec<(ArrayData, Vec<usize>)> {
    let shape = case.x.shape().to_vec();
    let per_axis: Vec<Vec<(usize, usize)>> = (0..shape.len())
        .map(|axis| blocks(shape[axis], &case.cuts[axis], case.axes.contains(&axis)))
        .collect();
    let mut boxes: Vec<Vec<(usize, usize)>> = vec![Vec::new()];
    for axis_blocks in &per_axis {
        boxes = boxes
            .into_iter()
            .flat_map(|prefix| {
                axis_blocks.iter().map(move |&block| {
                    let mut next = prefix.clone();
                    next.push(block);
                    next
                })
            })
            .collect();
    }
    boxes
        .into_iter()
        .map(|bounds| {
            let chunk = crate::with_array!(&case.x, a => {
                let view = a.slice_each_axis(|axis| {
                    let (start, end) = bounds[axis.axis.index()];
                    Slice::from(start..end)
                });
                Element::into_data(view.as_standard_layout().into_owned())
            });
            (chunk, bounds.iter().map(|&(start, _)| start).collect())
        })
        .collect()
}

fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut state = seed | 1;
    for i in (1..items.len()).rev() {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        items.swap(i, (state >> 33) as usize % (i + 1));
    }
}

fn tree_result(case: &Case) -> Result<ArrayData, KernelError> {
    let shape = case.x.shape();
    let mut states: Vec<ReduceState> = chunks(case)
        .iter()
        .map(|(chunk, offset)| reduce_map(case.red, chunk, &case.axes, shape, offset))
        .collect::<Result<_, _>>()?;
    shuffle(&mut states, case.shuffle_seed);
    let mut fan_ins = case.fan_ins.iter().cycle();
    while states.len() > 1 {
        let mut next = Vec::new();
        let mut rest = states.as_slice();
        while !rest.is_empty() {
            // The first group of a round has at least two parts, so every round shrinks.
            let drawn = fan_ins.next().copied().unwrap_or(2);
            let fan_in = if next.is_empty() { drawn.max(2) } else { drawn };
            let (group, tail) = rest.split_at(fan_in.min(rest.len()));
            let refs: Vec<&ReduceState> = group.iter().collect();
            next.push(reduce_combine(case.red, &refs)?);
            rest = tail;
        }
        states = next;
    }
    reduce_finish(case.red, &states[0], case.keepdims)
}

fn whole_result(case: &Case) -> Result<ArrayData, KernelError> {
    let offset = vec![0; case.x.ndim()];
    let state = reduce_map(case.red, &case.x, &case.axes, case.x.shape(), &offset)?;
    reduce_finish(case.red, &state, case.keepdims)
}

fn close(a: f64, b: f64, tolerance: f64) -> bool {
    a.to_bits() == b.to_bits()
        || (a.is_nan() && b.is_nan())
        || (a - b).abs() <= tolerance * a.abs().max(b.abs())
}

fn assert_equivalent(
    op: ReduceOp,
    whole: &ArrayData,
    tree: &ArrayData,
) -> Result<(), TestCaseError> {
    prop_assert_eq!(whole.dtype(), tree.dtype());
    prop_assert_eq!(whole.shape(), tree.shape());
    let rounding = matches!(op, ReduceOp::Sum | ReduceOp::Prod | ReduceOp::Mean);
    match (whole, tree) {
        (ArrayData::Float64(w), ArrayData::Float64(t)) => {
            let tolerance = if rounding { 1e-12 } else { 0.0 };
            for (&a, &b) in w.iter().zip(t) {
                prop_assert!(close(a, b, tolerance), "{} vs {}", a, b);
            }
        }
        (ArrayData::Float32(w), ArrayData::Float32(t)) => {
            let tolerance = if rounding { 1e-5 } else { 0.0 };
            for (&a, &b) in w.iter().zip(t) {
                prop_assert!(close(a as f64, b as f64, tolerance), "{} vs {}", a, b);
            }
        }
        // Accumulated in float32 and rounded to float16 once: at most one float16
        // step apart (2^-10 relative, or one subnormal step, 2^-24).
        (ArrayData::Float16(w), ArrayData::Float16(t)) => {
            let (tolerance, step) = if rounding {
                (1e-3, 2f64.powi(-24))
            } else {
                (0.0, 0.0)
            };
            for (&a, &b) in w.iter().zip(t) {
                let (a, b) = (a.to_f64(), b.to_f64());
                prop_assert!(
                    close(a, b, tolerance) || (a - b).abs() <= step,
                    "{} vs {}",
                    a,
                    b
                );
            }
        }
        _ => prop_assert_eq!(whole, tree),
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn chunked_tree_equals_single_chunk(case in case()) {
        let whole = whole_result(&case);
        let tree = tree_result(&case);
        match (&whole, &tree) {
            (Ok(w), Ok(t)) => assert_equivalent(case.red.op, w, t)?,
            _ => prop_assert_eq!(whole, tree),
        }
    }
}
