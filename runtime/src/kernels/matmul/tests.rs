//! Block products against NumPy 2.4 values, and uneven block decompositions
//! (products summed over the contracted axis, stitched over rows and columns) against
//! the whole product.

use super::{add_blocks, matmul_block, matmul_blocks};
use crate::array::ArrayData;
use crate::dtype::DType;
use crate::kernels::reduce::Element;
use crate::kernels::shape::{concatenate, slice, SliceItem};
use ndarray::{ArrayD, IxDyn};
use proptest::prelude::*;

fn array<T: Element>(shape: &[usize], values: Vec<T>) -> ArrayData {
    T::into_data(ArrayD::from_shape_vec(IxDyn(shape), values).expect("test data fits its shape"))
}

/// `((np.arange(12) * 5) % 7 - 3).reshape(3, 4)`.
fn a_codes() -> Vec<i64> {
    (0..12).map(|i| (i * 5) % 7 - 3).collect()
}

/// `((np.arange(20) * 3) % 11 - 5).reshape(4, 5)`.
fn b_codes() -> Vec<i64> {
    (0..20).map(|i| (i * 3) % 11 - 5).collect()
}

fn both<T: Element>(convert: impl Fn(i64, bool) -> T) -> (ArrayData, ArrayData) {
    (
        array(
            &[3, 4],
            a_codes().into_iter().map(|c| convert(c, true)).collect(),
        ),
        array(
            &[4, 5],
            b_codes().into_iter().map(|c| convert(c, false)).collect(),
        ),
    )
}

#[test]
fn products_match_numpy_for_every_dtype() {
    let (a, b) = both(|c, _| c);
    let ints = [
        21, 12, 3, -28, 18, -7, 4, 4, -7, -7, -28, 3, 12, 21, -25_i64,
    ];
    assert_eq!(matmul_block(&a, &b), Ok(array(&[3, 5], ints.to_vec())));

    let (a, b) = both(|c, left| c as f64 / if left { 4.0 } else { 8.0 });
    let floats = [
        0.65625, 0.375, 0.09375, -0.875, 0.5625, -0.21875, 0.125, 0.125, -0.21875, -0.21875,
        -0.875, 0.09375, 0.375, 0.65625, -0.78125,
    ];
    assert_eq!(matmul_block(&a, &b), Ok(array(&[3, 5], floats.to_vec())));
    let (a32, b32) = both(|c, left| c as f32 / if left { 4.0 } else { 8.0 });
    let floats32: Vec<f32> = floats.iter().map(|&v| v as f32).collect();
    assert_eq!(matmul_block(&a32, &b32), Ok(array(&[3, 5], floats32)));

    // int32 products overflow and wrap as NumPy's do.
    let (a, b) = both(|c, left| (c * if left { 1_000_000 } else { 1000 }) as i32);
    let wrapped = [
        -474836480,
        -884901888,
        -1294967296,
        2064771072,
        820130816,
        1589934592,
        -294967296,
        -294967296,
        1589934592,
        1589934592,
        2064771072,
        -1294967296,
        -884901888,
        -474836480,
        769803776_i32,
    ];
    assert_eq!(matmul_block(&a, &b), Ok(array(&[3, 5], wrapped.to_vec())));
    let big = array(&[1, 2], vec![1_i64 << 62, 1 << 62]);
    let two = array(&[2, 1], vec![2_i64, 2]);
    assert_eq!(matmul_block(&big, &two), Ok(array(&[1, 1], vec![0_i64])));

    let (a, b) = both(|c, _| c > 0);
    let any = [0, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 0];
    let any: Vec<bool> = any.iter().map(|&v| v == 1).collect();
    assert_eq!(matmul_block(&a, &b), Ok(array(&[3, 5], any)));
}

#[test]
fn empty_contraction_gives_zeros() {
    let a = array::<f64>(&[2, 0], vec![]);
    let b = array::<f64>(&[0, 3], vec![]);
    assert_eq!(matmul_block(&a, &b), Ok(array(&[2, 3], vec![0.0; 6])));
    let a = array::<i64>(&[2, 0], vec![]);
    let b = array::<i64>(&[0, 3], vec![]);
    assert_eq!(matmul_block(&a, &b), Ok(array(&[2, 3], vec![0_i64; 6])));
}

#[test]
fn mismatched_blocks_are_errors() {
    let (a, b) = both(|c, _| c);
    assert!(matmul_block(&b, &a).is_err());
    let (_, floats) = both(|c, _| c as f64);
    assert!(matmul_block(&a, &floats).is_err());
    assert!(matmul_block(&array(&[4], vec![1_i64; 4]), &b).is_err());
    assert!(add_blocks(&[]).is_err());
    assert!(add_blocks(&[&a, &b]).is_err());
}

fn cut(extent: usize, cuts: &[bool]) -> Vec<(usize, usize)> {
    let mut bounds = vec![0];
    bounds.extend((1..extent).filter(|&i| cuts[i - 1]));
    bounds.push(extent);
    bounds.windows(2).map(|w| (w[0], w[1])).collect()
}

fn block(x: &ArrayData, rows: (usize, usize), cols: (usize, usize)) -> ArrayData {
    let range = |(start, end): (usize, usize)| SliceItem::Range {
        start,
        step: 1,
        len: end - start,
    };
    slice(x, &[range(rows), range(cols)]).expect("block inside the matrix")
}

fn matrix(dtype: DType, shape: [usize; 2], codes: &[i64]) -> ArrayData {
    let codes = &codes[..shape[0] * shape[1]];
    match dtype {
        DType::Bool => array(&shape, codes.iter().map(|&c| c > 0).collect()),
        DType::Int32 => array(&shape, codes.iter().map(|&c| c as i32 * 40_000).collect()),
        DType::Int64 => array(&shape, codes.iter().map(|&c| c << 40).collect()),
        DType::Float16 => array(
            &shape,
            codes
                .iter()
                .map(|&c| half::f16::from_f32(c as f32 / 4.0))
                .collect(),
        ),
        DType::Float32 => array(&shape, codes.iter().map(|&c| c as f32 / 4.0).collect()),
        DType::Float64 => array(&shape, codes.iter().map(|&c| c as f64 / 8.0).collect()),
        // Wrapping products and sums, as NumPy's integer matmul.
        narrow => crate::kernels::cast(
            &array::<i64>(&shape, codes.iter().map(|&c| c * 37).collect()),
            narrow,
        ),
    }
}

proptest! {
    /// Values are exact in binary (floats) or wrap identically in any order (ints), so
    /// blocked products must equal the whole product exactly.
    #[test]
    fn uneven_blocks_equal_the_whole_product(
        // Complex matmul is not supported yet.
        dtype in prop::sample::select(
            DType::ALL.into_iter().filter(|d| !d.is_complex()).collect::<Vec<_>>()
        ),
        (n, k, m) in (1usize..7, 1usize..7, 1usize..7),
        codes in prop::collection::vec(-4i64..5, 72),
        cuts in prop::collection::vec(any::<bool>(), 18),
    ) {
        let a = matrix(dtype, [n, k], &codes[..36]);
        let b = matrix(dtype, [k, m], &codes[36..]);
        let whole = matmul_block(&a, &b).expect("whole product");
        let (row_blocks, inner_blocks, col_blocks) =
            (cut(n, &cuts[..6]), cut(k, &cuts[6..12]), cut(m, &cuts[12..]));
        let mut block_rows = Vec::new();
        for &rows in &row_blocks {
            let mut row = Vec::new();
            for &cols in &col_blocks {
                let products: Vec<ArrayData> = inner_blocks
                    .iter()
                    .map(|&inner| matmul_block(&block(&a, rows, inner), &block(&b, inner, cols)))
                    .collect::<Result<_, _>>()
                    .expect("block products");
                let refs: Vec<&ArrayData> = products.iter().collect();
                let summed = add_blocks(&refs).expect("sum over k");
                // The same run summed inside one kernel.
                let pieces: Vec<ArrayData> = inner_blocks
                    .iter()
                    .flat_map(|&inner| [block(&a, rows, inner), block(&b, inner, cols)])
                    .collect();
                let run = matmul_blocks(&pieces.iter().collect::<Vec<_>>());
                prop_assert_eq!(run.as_ref(), Ok(&summed));
                row.push(summed);
            }
            let refs: Vec<&ArrayData> = row.iter().collect();
            block_rows.push(concatenate(&refs, 1).expect("stitch columns"));
        }
        let refs: Vec<&ArrayData> = block_rows.iter().collect();
        prop_assert_eq!(concatenate(&refs, 0).expect("stitch rows"), whole);
    }
}
