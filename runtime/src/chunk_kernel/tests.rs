//! Tests of the plan kernel: dispatch, assembly of rechunked chunks, literal regions
//! and the save protocol. The kernels themselves are tested in `kernels/`.

use super::*;
use ndarray::{arr1, arr2, ArrayD, IxDyn};

fn ints(shape: &[usize], values: Vec<i64>) -> ChunkValue {
    ChunkValue::Array(ArrayData::Int64(
        ArrayD::from_shape_vec(IxDyn(shape), values).unwrap(),
    ))
}

fn run(kernel: &Kernel, args: &[&ChunkValue]) -> ChunkValue {
    kernel.compute(args).unwrap()
}

#[test]
fn runs_of_a_region_in_c_order() {
    let mut runs = Vec::new();
    // Rows 1..3, columns 2..4 of a 4x5 array.
    assemble::for_each_run(&[4, 5], &[1, 2], &[2, 2], |start, len| {
        runs.push((start, len))
    });
    assert_eq!(runs, vec![(7, 2), (12, 2)]);
    runs.clear();
    assemble::for_each_run(&[], &[], &[], |start, len| runs.push((start, len)));
    assert_eq!(runs, vec![(0, 1)]);
    runs.clear();
    assemble::for_each_run(&[3, 0], &[0, 0], &[3, 0], |start, len| {
        runs.push((start, len))
    });
    assert!(runs.is_empty());
}

#[test]
fn literal_chunk_takes_its_region() {
    let spec = Arc::new(LiteralSpec {
        values: (0..12).map(Scalar::Int64).collect(),
        dtype: DType::Float64,
        shape: vec![3, 4],
    });
    let kernel = Kernel::Literal {
        spec: spec.clone(),
        offset: vec![1, 1],
        shape: vec![2, 2],
    };
    let expected = ArrayData::Float64(arr2(&[[5.0, 6.0], [9.0, 10.0]]).into_dyn());
    assert_eq!(run(&kernel, &[]), ChunkValue::Array(expected));
    let outside = Kernel::Literal {
        spec,
        offset: vec![2, 3],
        shape: vec![2, 2],
    };
    assert!(outside.compute(&[]).is_err());
}

#[test]
fn assemble_places_each_piece() {
    // Output chunk covers columns 1..4 of a row made of input chunks [0..2) and [2..5).
    let left = ints(&[2], vec![10, 11]);
    let right = ints(&[3], vec![12, 13, 14]);
    let kernel = Kernel::Assemble {
        shape: vec![3],
        pieces: vec![
            AssemblePiece {
                region: one_axis(1..2),
                at: vec![0],
            },
            AssemblePiece {
                region: one_axis(0..2),
                at: vec![1],
            },
        ],
    };
    let expected = ChunkValue::Array(ArrayData::Int64(arr1(&[11, 12, 13]).into_dyn()));
    assert_eq!(run(&kernel, &[&left, &right]), expected);
}

#[test]
fn assemble_rejects_a_piece_outside_its_input() {
    let input = ints(&[2], vec![1, 2]);
    let kernel = Kernel::Assemble {
        shape: vec![3],
        pieces: vec![AssemblePiece {
            region: one_axis(0..3),
            at: vec![0],
        }],
    };
    let error = kernel.compute(&[&input]).unwrap_err().to_string();
    assert!(error.contains("internal error"), "{error}");
}

#[test]
fn reduction_runs_map_combine_finish() {
    use crate::ops::ReduceOp;
    let reduction = Reduction {
        op: ReduceOp::Sum,
        ddof: 0.0,
    };
    let spec = Arc::new(ReduceSpec {
        reduction,
        axes: vec![0],
        input_shape: vec![4],
    });
    let map = |offset: usize| Kernel::ReduceMap {
        spec: spec.clone(),
        offset: vec![offset],
    };
    let a = run(&map(0), &[&ints(&[2], vec![1, 2])]);
    let b = run(&map(2), &[&ints(&[2], vec![3, 4])]);
    assert!(matches!(a, ChunkValue::State(_)));
    let merged = run(&Kernel::ReduceCombine(reduction), &[&a, &b]);
    let total = run(
        &Kernel::ReduceFinish {
            reduction,
            keepdims: false,
        },
        &[&merged],
    );
    assert_eq!(total, ints(&[], vec![10]));
}

#[test]
fn scan_carry_takes_one_or_two_arguments() {
    let total = ints(&[1], vec![5]);
    let previous = ints(&[1], vec![7]);
    let carry = Kernel::ScanCarry(ScanOp::CumSum);
    assert_eq!(run(&carry, &[&total]), ints(&[1], vec![5]));
    assert_eq!(run(&carry, &[&previous, &total]), ints(&[1], vec![12]));
    assert!(carry.compute(&[]).is_err());
}

#[test]
fn kernel_errors_are_messages_not_panics() {
    // NumPy: "Integers to negative integer powers are not allowed."
    let power = Kernel::Binary {
        op: BinaryOp::Power,
        common: DType::Int64,
    };
    let error = power
        .compute(&[&ints(&[1], vec![2]), &ints(&[1], vec![-1])])
        .unwrap_err();
    assert!(matches!(error, ChunkError::Kernel(_)), "{error:?}");
    assert!(error.to_string().contains("negative"), "{error}");
    let state_as_data = Kernel::Unary(UnaryOp::Negative).compute(&[&ChunkValue::Done]);
    assert!(state_as_data.is_err());
}

#[test]
fn save_writes_a_file_numpy_can_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.npy");
    let file = Arc::new(SaveFile::new(&path, DType::Int64, &[2, 3]));
    assert_eq!(run(&Kernel::SaveInit(file.clone()), &[]), ChunkValue::Done);
    let region = |column: usize, values: Vec<i64>| {
        let data = ints(&[2, values.len() / 2], values);
        let kernel = Kernel::SaveRegion {
            file: file.clone(),
            offset: vec![0, column],
        };
        run(&kernel, &[&data, &ChunkValue::Done])
    };
    region(0, vec![1, 2, 4, 5]);
    region(2, vec![3, 6]);
    assert!(!path.exists(), "the file appears only on commit");
    run(&Kernel::SaveCommit(file.clone()), &[]);
    let back = crate::storage::npy::codec::read_array(&path).unwrap();
    assert_eq!(
        back,
        ArrayData::Int64(arr2(&[[1, 2, 3], [4, 5, 6]]).into_dyn())
    );
    assert_eq!(file.temporary(), None);
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(left.len(), 1, "only the saved file is left");
}

#[test]
fn save_into_a_missing_directory_names_the_users_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("missing").join("out.npy");
    let file = Arc::new(SaveFile::new(&path, DType::Float64, &[1]));
    let error = Kernel::SaveInit(file).compute(&[]).unwrap_err();
    assert!(
        matches!(error, ChunkError::Store(crate::storage::StoreError::Io(_))),
        "{error:?}"
    );
    let error = error.to_string();
    assert!(error.contains(&path.display().to_string()), "{error}");
    assert!(!error.contains("partial"), "{error}");
}

/// A region of a 1-D chunk.
fn one_axis(range: std::ops::Range<usize>) -> Vec<std::ops::Range<usize>> {
    vec![range]
}

#[test]
fn kernel_stays_small() {
    // A plan holds one kernel per chunk; a million chunks must not cost gigabytes.
    assert!(
        std::mem::size_of::<Kernel>() <= 64,
        "{}",
        std::mem::size_of::<Kernel>()
    );
}

fn spill_round_trip(value: &ChunkValue) -> ChunkValue {
    let mut bytes = Vec::new();
    <Kernel as ChunkKernel>::spill(value, &mut bytes).unwrap();
    <Kernel as ChunkKernel>::unspill(&mut bytes.as_slice()).unwrap()
}

#[test]
fn every_kind_of_chunk_value_spills_and_reads_back() {
    let data = ArrayData::Int32(
        ndarray::ArrayD::from_shape_vec(ndarray::IxDyn(&[2, 2]), vec![1, 2, 3, 4]).unwrap(),
    );
    let array = ChunkValue::Array(data.clone());
    assert_eq!(spill_round_trip(&array), array);
    let reduction = crate::ops::Reduction {
        op: crate::ops::ReduceOp::Sum,
        ddof: 0.0,
    };
    let state = ChunkValue::State(reduce_map(reduction, &data, &[0], &[2, 2], &[0, 0]).unwrap());
    assert_eq!(spill_round_trip(&state), state);
    assert_eq!(spill_round_trip(&ChunkValue::Done), ChunkValue::Done);
}

#[test]
fn an_unknown_spilled_kind_is_an_error() {
    let bytes = [9u8, 0, 0];
    assert!(<Kernel as ChunkKernel>::unspill(&mut bytes.as_slice()).is_err());
}
