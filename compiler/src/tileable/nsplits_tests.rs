//! Unit and property tests of the nsplits rules (a separate file to keep
//! `nsplits.rs` readable).

use super::*;
use crate::infer::index::{normalize_index, RawIndexItem};
use crate::infer::nsplits::unify_splits;
use crate::ops::shape::reshape_plan;
use crate::ops::{ElementwiseOp, ReductionOp, ShapeOp};
use marsc_runtime::ops::{BinaryOp, ReduceOp, Reduction};
use marsc_runtime::DType;
use proptest::prelude::*;

fn layout<'a>(shape: &'a [usize], nsplits: &'a [Vec<usize>]) -> InputLayout<'a> {
    InputLayout { shape, nsplits }
}

fn add() -> TileOp {
    TileOp::Elementwise(ElementwiseOp::Binary {
        op: BinaryOp::Add,
        common: DType::Float64,
    })
}

#[test]
fn unify() {
    assert_eq!(unify_splits(&[2, 2], &[3, 1]), vec![2, 1, 1]);
    assert_eq!(unify_splits(&[5], &[1, 4]), vec![1, 4]);
    assert_eq!(unify_splits(&[3, 3], &[3, 3]), vec![3, 3]);
    assert_eq!(unify_splits(&[0], &[0]), vec![0]);
}

#[test]
fn elementwise_ignores_broadcast_axes() {
    let a_splits = vec![vec![2, 2], vec![3, 3]];
    let b_splits = vec![vec![1], vec![1, 5]];
    let c_splits = vec![vec![4, 2]];
    let inputs = [
        layout(&[4, 6], &a_splits),
        layout(&[1, 6], &b_splits),
        layout(&[6], &c_splits),
    ];
    assert_eq!(
        infer_nsplits(&TileOp::Elementwise(ElementwiseOp::Where), &inputs, &[4, 6]),
        vec![vec![2, 2], vec![1, 2, 1, 2]]
    );
    // An axis only broadcast inputs reach is one chunk.
    let inputs = [layout(&[4, 1], &a_splits[..1]), layout(&[1, 6], &b_splits)];
    let col = vec![vec![4], vec![1]];
    let inputs = [layout(&[4, 1], &col), inputs[1]];
    assert_eq!(
        infer_nsplits(&add(), &inputs, &[4, 6]),
        vec![vec![4], vec![1, 5]]
    );
}

#[test]
fn shape_ops() {
    let splits = vec![vec![2, 2], vec![1], vec![3, 3]];
    let input = [layout(&[4, 1, 6], &splits)];
    let reduce = |keepdims| {
        TileOp::Reduce(ReductionOp::Reduce {
            reduction: Reduction {
                op: ReduceOp::Sum,
                ddof: 0.0,
            },
            axes: vec![0, 2],
            keepdims,
        })
    };
    assert_eq!(
        infer_nsplits(&reduce(true), &input, &[1, 1, 1]),
        vec![vec![1]; 3]
    );
    assert_eq!(infer_nsplits(&reduce(false), &input, &[1]), vec![vec![1]]);
    assert_eq!(
        infer_nsplits(
            &TileOp::Shape(ShapeOp::Transpose {
                axes: vec![2, 0, 1]
            }),
            &input,
            &[6, 4, 1]
        ),
        vec![vec![3, 3], vec![2, 2], vec![1]]
    );
    assert_eq!(
        infer_nsplits(
            &TileOp::Shape(ShapeOp::Squeeze { axes: vec![1] }),
            &input,
            &[4, 6]
        ),
        vec![vec![2, 2], vec![3, 3]]
    );
    assert_eq!(
        infer_nsplits(
            &TileOp::Shape(ShapeOp::ExpandDims { axes: vec![0, 4] }),
            &input,
            &[1, 4, 1, 6, 1]
        ),
        vec![vec![1], vec![2, 2], vec![1], vec![3, 3], vec![1]]
    );
    assert_eq!(
        infer_nsplits(&TileOp::Shape(ShapeOp::BroadcastTo), &input, &[5, 4, 3, 6]),
        vec![vec![5], vec![2, 2], vec![3], vec![3, 3]]
    );
    let b_splits = vec![vec![3, 3], vec![5]];
    let matmul_inputs = [layout(&[4, 6], &splits[..1]), layout(&[6, 5], &b_splits)];
    let a_splits = vec![vec![2, 2], vec![6]];
    let matmul_inputs = [layout(&[4, 6], &a_splits), matmul_inputs[1]];
    assert_eq!(
        infer_nsplits(&TileOp::MatMul, &matmul_inputs, &[4, 5]),
        vec![vec![2, 2], vec![5]]
    );
}

#[test]
fn concatenate_joins_and_unifies() {
    let a = vec![vec![2, 2], vec![3, 3]];
    let b = vec![vec![0], vec![6]];
    let c = vec![vec![3], vec![1, 5]];
    let inputs = [
        layout(&[4, 6], &a),
        layout(&[0, 6], &b),
        layout(&[3, 6], &c),
    ];
    assert_eq!(
        infer_nsplits(&TileOp::Concatenate { axis: 0 }, &inputs, &[7, 6]),
        vec![vec![2, 2, 3], vec![1, 2, 3]]
    );
}

#[test]
fn slices_follow_input_chunks() {
    let splits = vec![vec![3, 3, 4]];
    let input = [layout(&[10], &splits)];
    let cases: [(RawIndexItem, Vec<usize>); 5] = [
        (
            RawIndexItem::Slice {
                start: Some(1),
                stop: None,
                step: Some(2),
            },
            vec![1, 2, 2],
        ),
        (
            RawIndexItem::Slice {
                start: None,
                stop: None,
                step: Some(-1),
            },
            vec![4, 3, 3],
        ),
        (
            RawIndexItem::Slice {
                start: Some(-2),
                stop: Some(1),
                step: Some(-3),
            },
            vec![1, 1, 1],
        ),
        (
            RawIndexItem::Slice {
                start: Some(4),
                stop: Some(4),
                step: None,
            },
            vec![0],
        ),
        (RawIndexItem::NewAxis, vec![1]),
    ];
    for (item, expected) in cases {
        let (items, shape) = normalize_index(&[10], &[item]).unwrap();
        let nsplits = infer_nsplits(&TileOp::Index { items }, &input, &shape);
        assert_eq!(nsplits[0], expected, "{item:?}");
    }
    let (items, shape) = normalize_index(&[10], &[RawIndexItem::Int(4)]).unwrap();
    assert_eq!(
        infer_nsplits(&TileOp::Index { items }, &input, &shape),
        Vec::<Vec<usize>>::new()
    );
}

/// (input shape, input nsplits, output shape, Dask's input rechunk, Dask's output
/// nsplits), from `dask.array.reshape.reshape_rechunk` of Dask 2026.8.0.
type DaskCase = (
    &'static [usize],
    Vec<Vec<usize>>,
    &'static [usize],
    Vec<Vec<usize>>,
    Vec<Vec<usize>>,
);

#[test]
fn reshape_merges_and_splits_like_dask() {
    let cases: Vec<DaskCase> = vec![
        (
            &[4, 4, 4],
            vec![vec![2, 2], vec![2, 2], vec![2, 2]],
            &[64],
            vec![vec![1; 4], vec![2, 2], vec![4]],
            vec![vec![8; 8]],
        ),
        (
            &[64],
            vec![vec![10, 10, 10, 10, 10, 10, 4]],
            &[4, 16],
            vec![vec![8; 8]],
            vec![vec![1; 4], vec![8, 8]],
        ),
        (
            &[2, 3, 4],
            vec![vec![1, 1], vec![3], vec![2, 2]],
            &[6, 1, 4],
            vec![vec![1, 1], vec![3], vec![2, 2]],
            vec![vec![3, 3], vec![1], vec![2, 2]],
        ),
        (
            &[10, 1000],
            vec![vec![10], vec![100; 10]],
            &[10000],
            vec![vec![1; 10], vec![1000]],
            vec![vec![1000; 10]],
        ),
        (
            &[6, 5, 4],
            vec![vec![3, 3], vec![2, 2, 1], vec![2, 2]],
            &[30, 4],
            vec![vec![1; 6], vec![5], vec![2, 2]],
            vec![vec![5; 6], vec![2, 2]],
        ),
        (
            &[6, 5, 4],
            vec![vec![3, 3], vec![2, 2, 1], vec![2, 2]],
            &[3, 2, 5, 4],
            vec![vec![2, 2, 2], vec![2, 2, 1], vec![2, 2]],
            vec![vec![1, 1, 1], vec![2], vec![2, 2, 1], vec![2, 2]],
        ),
        (
            &[4, 3],
            vec![vec![1; 4], vec![2, 1]],
            &[12],
            vec![vec![1; 4], vec![2, 1]],
            vec![vec![2, 1, 2, 1, 2, 1, 2, 1]],
        ),
        (
            &[24],
            vec![vec![5, 5, 5, 5, 4]],
            &[2, 3, 4],
            vec![vec![4; 6]],
            vec![vec![1, 1], vec![1, 1, 1], vec![4]],
        ),
        (
            &[7, 6],
            vec![vec![3, 4], vec![6]],
            &[42],
            vec![vec![3, 4], vec![6]],
            vec![vec![18, 24]],
        ),
        (
            &[100],
            vec![vec![7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 2]],
            &[10, 10],
            vec![vec![5; 20]],
            vec![vec![1; 10], vec![5, 5]],
        ),
        (
            &[3, 8],
            vec![vec![1, 2], vec![3, 5]],
            &[24],
            vec![vec![1, 1, 1], vec![8]],
            vec![vec![8, 8, 8]],
        ),
        (
            &[1, 12, 1],
            vec![vec![1], vec![5, 7], vec![1]],
            &[3, 1, 4],
            vec![vec![1], vec![4, 4, 4], vec![1]],
            vec![vec![1, 1, 1], vec![1], vec![4]],
        ),
    ];
    for (in_shape, in_nsplits, out_shape, in_plan, out_plan) in cases {
        assert_eq!(
            reshape_plan(in_shape, &in_nsplits, out_shape),
            (in_plan, out_plan),
            "{in_shape:?} {in_nsplits:?} -> {out_shape:?}"
        );
    }
}

#[test]
fn reshape_beyond_dask() {
    // (4, 6) -> (6, 4): two input rows (12 elements) are three output rows.
    assert_eq!(
        reshape_plan(&[4, 6], &[vec![2, 2], vec![3, 3]], &[6, 4]),
        (vec![vec![2, 2], vec![6]], vec![vec![3, 3], vec![4]])
    );
    // Lengths that neither merge nor split evenly end up in one chunk.
    assert_eq!(
        reshape_plan(&[6, 35], &[vec![3, 3], vec![5; 7]], &[35, 6]),
        (vec![vec![6], vec![35]], vec![vec![35], vec![6]])
    );
    assert_eq!(
        reshape_plan(&[0, 3], &[vec![0], vec![3]], &[3, 0]),
        (vec![vec![0], vec![3]], vec![vec![3], vec![0]])
    );
    assert_eq!(
        reshape_plan(&[1, 1], &[vec![1], vec![1]], &[]),
        (vec![vec![1], vec![1]], vec![])
    );
}

// ---- property tests ----

/// A random chunking of an axis of length `len`.
fn splits_of(len: usize) -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(1usize..5, 1..8).prop_map(move |sizes| {
        let mut out = Vec::new();
        let mut left = len;
        for size in sizes.into_iter().cycle() {
            if left == 0 {
                break;
            }
            let take = size.min(left);
            out.push(take);
            left -= take;
        }
        if out.is_empty() {
            out.push(0);
        }
        out
    })
}

fn layout_of(
    max_ndim: usize,
    max_len: usize,
) -> impl Strategy<Value = (Vec<usize>, Vec<Vec<usize>>)> {
    prop::collection::vec(0..=max_len, 0..=max_ndim).prop_flat_map(|shape| {
        let splits: Vec<_> = shape.iter().map(|&len| splits_of(len)).collect();
        (Just(shape), splits)
    })
}

/// Which chunk of `splits` holds position `at`.
fn chunk_of(splits: &[usize], at: usize) -> usize {
    let mut end = 0;
    for (chunk, &size) in splits.iter().enumerate() {
        end += size;
        if at < end {
            return chunk;
        }
    }
    splits.len()
}

fn assert_covers(nsplits: &[Vec<usize>], shape: &[usize]) -> Result<(), TestCaseError> {
    prop_assert_eq!(nsplits.len(), shape.len());
    for (splits, &len) in nsplits.iter().zip(shape) {
        prop_assert_eq!(splits.iter().sum::<usize>(), len);
        prop_assert!(
            splits == &vec![0] || splits.iter().all(|&s| s > 0),
            "{:?}",
            splits
        );
    }
    Ok(())
}

/// The C-order flat index of a multi-index, and the chunk multi-index it lies in.
fn chunk_ids(shape: &[usize], nsplits: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let size: usize = shape.iter().product();
    (0..size)
        .map(|mut flat| {
            let mut ids = vec![0; shape.len()];
            for axis in (0..shape.len()).rev() {
                ids[axis] = chunk_of(&nsplits[axis], flat % shape[axis]);
                flat /= shape[axis];
            }
            ids
        })
        .collect()
}

/// Random prime factors of a shape's size regrouped into another shape, with 1s.
fn reshaped(shape: Vec<usize>, seed: u64) -> Vec<usize> {
    let mut factors = Vec::new();
    for &len in &shape {
        let mut rest = len;
        let mut p = 2;
        while rest > 1 {
            while rest % p == 0 {
                factors.push(p);
                rest /= p;
            }
            p += 1;
        }
    }
    let mut state = seed | 1;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for i in (1..factors.len()).rev() {
        factors.swap(i, (next() % (i as u64 + 1)) as usize);
    }
    let mut out = Vec::new();
    for factor in factors {
        match out.last_mut() {
            Some(last) if next() % 2 == 0 => *last *= factor,
            _ => out.push(factor),
        }
        if next() % 5 == 0 {
            out.push(1);
        }
    }
    if shape.contains(&0) {
        out.push(0);
    }
    out
}

proptest! {
    #[test]
    fn unify_refines_both(
        (len, a, b) in (0usize..40).prop_flat_map(|len| (Just(len), splits_of(len), splits_of(len))),
    ) {
        let unified = unify_splits(&a, &b);
        prop_assert_eq!(unified.iter().sum::<usize>(), len);
        let ends = |s: &[usize]| s.iter().scan(0, |acc, &x| { *acc += x; Some(*acc) }).collect::<Vec<_>>();
        let unified_ends = ends(&unified);
        for end in ends(&a).into_iter().chain(ends(&b)) {
            prop_assert!(unified_ends.contains(&end));
        }
        for end in &unified_ends {
            prop_assert!(ends(&a).contains(end) || ends(&b).contains(end));
        }
    }

    #[test]
    fn slices_never_straddle_input_chunks(
        (shape, nsplits) in layout_of(1, 30).prop_filter("1-d", |(s, _)| s.len() == 1),
        start in prop::option::of(-35i64..35),
        stop in prop::option::of(-35i64..35),
        step in prop::option::of(prop::sample::select(vec![-7i64, -3, -2, -1, 1, 2, 3, 7])),
    ) {
        let (items, out_shape) = normalize_index(&shape, &[RawIndexItem::Slice { start, stop, step }]).unwrap();
        let nsplits_out = infer_nsplits(&TileOp::Index { items: items.clone() }, &[layout(&shape, &nsplits)], &out_shape);
        assert_covers(&nsplits_out, &out_shape)?;
        let IndexItem::Slice { start, step, len } = items[0] else { unreachable!() };
        let source = |k: usize| chunk_of(&nsplits[0], (start + k as i64 * step) as usize);
        let mut k = 0;
        let mut previous_source = None;
        for &size in &nsplits_out[0] {
            if len == 0 { break; }
            let first = source(k);
            for j in k..k + size {
                prop_assert_eq!(source(j), first);
            }
            // Maximal: a new output chunk starts only where the source chunk changes.
            prop_assert_ne!(Some(first), previous_source);
            previous_source = Some(first);
            k += size;
        }
    }

    #[test]
    fn elementwise_covers_and_refines(
        (shape, nsplits) in layout_of(3, 6),
        (other_shape, other_nsplits) in layout_of(3, 6),
    ) {
        // Make the second operand broadcast-compatible: drop leading axes, 1 or full.
        let keep = other_shape.len().min(shape.len());
        let b_shape: Vec<usize> = (0..keep).map(|i| {
            let axis = shape.len() - keep + i;
            if other_shape[i] % 2 == 0 { 1 } else { shape[axis] }
        }).collect();
        let b_splits: Vec<Vec<usize>> = (0..keep).map(|i| {
            let axis = shape.len() - keep + i;
            if b_shape[i] == shape[axis] && other_shape[i] == shape[axis] { other_nsplits[i].clone() }
            else if b_shape[i] == shape[axis] { nsplits[axis].clone() }
            else { vec![1] }
        }).collect();
        let inputs = [layout(&shape, &nsplits), layout(&b_shape, &b_splits)];
        let out = infer_nsplits(&add(), &inputs, &shape);
        assert_covers(&out, &shape)?;
        for (axis, splits) in out.iter().enumerate() {
            for position in 0..shape[axis] {
                // Output chunks never straddle a chunk of either input.
                let at_chunk_start = |s: &[usize]| chunk_of(s, position) != chunk_of(s, position.wrapping_sub(1));
                if position > 0 && at_chunk_start(&nsplits[axis]) {
                    prop_assert!(at_chunk_start(splits));
                }
            }
        }
    }

    #[test]
    fn reshape_plan_maps_each_output_chunk_to_one_input_chunk(
        (shape, nsplits) in layout_of(3, 12),
        seed in any::<u64>(),
    ) {
        let out_shape = reshaped(shape.clone(), seed);
        prop_assume!(shape.iter().product::<usize>() == out_shape.iter().product::<usize>());
        let (in_plan, out_plan) = reshape_plan(&shape, &nsplits, &out_shape);
        assert_covers(&in_plan, &shape)?;
        assert_covers(&out_plan, &out_shape)?;
        let input_chunks = chunk_ids(&shape, &in_plan);
        let output_chunks = chunk_ids(&out_shape, &out_plan);
        let mut source = std::collections::HashMap::new();
        for (out_chunk, in_chunk) in output_chunks.iter().zip(&input_chunks) {
            let first = source.entry(out_chunk.clone()).or_insert_with(|| in_chunk.clone());
            prop_assert_eq!(&*first, in_chunk);
        }
    }
}
