//! Grouped rows (`Variant::rows`): a reduction over the axis just outside the row folds
//! several rows per call, and must give the interpreter's bits. Shapes whose row count
//! the group divides or not, leaves broadcast along the row or across rows, every fold
//! the accumulating kernels take, float and integer dtypes.

use super::layout::ROW_GROUP;
use super::tests::{assert_same, f64_array, input_infos, jit, op, reduce_map, subtask};
use crate::array::ArrayData;
use crate::chunk_kernel::ChunkValue;
use crate::chunk_kernel::Kernel;
use crate::dtype::DType;
use crate::jit_rewrite::*;
use crate::ops::{BinaryOp, ReduceOp};
use crate::plan::OpArg;
use crate::plan::Subtask;
use ndarray::{ArrayD, IxDyn};

const VALUES: [f64; 9] = [1e16, 1.0, -1e16, 3.0, -0.0, 0.0, f64::NAN, -2.5, 7.0];

fn array(shape: &[usize], seed: usize, dtype: DType) -> ChunkValue {
    let len: usize = shape.iter().product();
    let values: Vec<f64> = (0..len)
        .map(|i| VALUES[(i * 7 + seed * 5 + i / 3) % VALUES.len()])
        .collect();
    match dtype {
        DType::Float32 => ChunkValue::Array(ArrayData::Float32(
            ArrayD::from_shape_vec(IxDyn(shape), values.iter().map(|&v| v as f32).collect())
                .expect("shape"),
        )),
        DType::Int64 => ChunkValue::Array(ArrayData::Int64(
            ArrayD::from_shape_vec(
                IxDyn(shape),
                values
                    .iter()
                    .map(|&v| if v.is_finite() { (v / 1e12) as i64 } else { 4 })
                    .collect(),
            )
            .expect("shape"),
        )),
        _ => f64_array(shape, values),
    }
}

/// `(a + b) * c` reduced over `axes`, where `b` varies only across rows (its last axis
/// is 1) and `c` only along the row (the last axis alone).
fn expression(shape: &[usize], axes: &[usize], reduce: ReduceOp, dtype: DType) -> Subtask<Kernel> {
    let binary = |op_kind, args: &[OpArg]| {
        op(
            Kernel::Binary {
                op: op_kind,
                common: dtype,
            },
            args,
        )
    };
    let ops = vec![
        binary(BinaryOp::Add, &[OpArg::Input(0), OpArg::Input(1)]),
        binary(BinaryOp::Multiply, &[OpArg::Local(0), OpArg::Input(2)]),
        op(reduce_map(reduce, axes.to_vec(), shape), &[OpArg::Local(1)]),
    ];
    subtask(ops, 3)
}

#[test]
fn grouped_rows_fold_as_the_interpreter_does() {
    let cases: [(&[usize], &[&[usize]]); 5] = [
        (&[4, 5], &[&[0]]),
        (&[7, 11], &[&[0]]),
        (&[9, 2], &[&[0]]),
        (&[5, 4, 3], &[&[0], &[1], &[0, 1]]),
        (&[3, 3], &[&[0]]),
    ];
    for (shape, axes_choices) in cases {
        let mut across = shape.to_vec();
        *across.last_mut().expect("2-d or more") = 1;
        let along = &shape[shape.len() - 1..];
        for dtype in [DType::Float64, DType::Float32, DType::Int64] {
            let inputs = [
                array(shape, 0, dtype),
                array(&across, 1, dtype),
                array(along, 2, dtype),
            ];
            for &axes in axes_choices {
                for reduce in [
                    ReduceOp::Sum,
                    ReduceOp::Max,
                    ReduceOp::Min,
                    ReduceOp::Prod,
                    ReduceOp::CountNonzero,
                    ReduceOp::Any,
                ] {
                    assert_same(&expression(shape, axes, reduce, dtype), &inputs);
                }
            }
        }
    }
}

#[test]
fn rows_are_grouped_only_when_the_axis_outside_the_row_is_reduced_and_long_enough() {
    let rows_of = |shape: &[usize], axes: &[usize]| {
        let inputs = [
            array(shape, 0, DType::Float64),
            array(&[shape[0], 1], 1, DType::Float64),
            array(&shape[1..], 2, DType::Float64),
        ];
        let subtask = expression(shape, axes, ReduceOp::Sum, DType::Float64);
        assert!(jit(&subtask, &inputs).is_some());
        let (ops, _) = jit_subtask(&subtask, &input_infos(&inputs))
            .expect("compiles")
            .expect("eligible");
        ops.iter()
            .find_map(|op| match &op.kernel {
                Kernel::Jit(jit) => Some(jit.kernel.key.variant.rows),
                _ => None,
            })
            .expect("a JIT op")
    };
    assert_eq!(rows_of(&[8, 5], &[0]), ROW_GROUP);
    assert_eq!(rows_of(&[3, 5], &[0]), 1, "fewer rows than a group");
    assert_eq!(rows_of(&[8, 5], &[1]), 1, "a fold along the row");
}
