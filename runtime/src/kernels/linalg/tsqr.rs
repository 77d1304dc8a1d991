//! The thin QR of one tall chunk, cache-blocked: a tall-and-skinny QR (TSQR) inside
//! the kernel, over row blocks that fit in a core's L2 cache.
//!
//! faer's Householder QR factors a `(m, n)` matrix in panels of at most `n` columns,
//! so a tall chunk (W9: 300,000 x 50) is one panel whose every column step streams
//! all `m` rows from memory: level-2 work at memory speed (24 s for 2,000,000 x 50,
//! NumPy's LAPACK 28 s for the same reason). Here the rows are cut into blocks of
//! about [`BLOCK_BYTES`]; each block is factored in cache (`q_j r_j`), the stacked
//! `r_j`s are factored again (`q2 r`, recursively when they are many), and block `j`
//! of `q` is `q_j` applied to its `n` rows of `q2` (faer's block Householder sequence
//! on `[q2_j; 0]`, in cache too). So the matrix is read once and `q` written once.
//!
//! The blocks are fixed by `m`, `n` and the block size, never by the thread count,
//! and the blocks run on rayon's current pool: the result is the same bit for bit
//! whatever the number of threads.

use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::householder;
use faer::linalg::qr::no_pivoting::factor;
use faer::{Conj, Mat, MatMut, MatRef, Par};
use ndarray::{Array2, ArrayView2, ArrayViewMut2, Axis};
use rayon::prelude::*;

/// The bytes of one row block (float64): half of this machine's 2 MiB L2, so the
/// block, its Householder factors and the applied `q2` block stay in cache.
pub(super) const BLOCK_BYTES: usize = 512 * 1024;

/// The largest buffer of Householder factors a worker thread keeps for its next
/// chunk: on this VM a fresh page's first touch (the kernel clearing it) cost more
/// than the factorization (perf: 35% of W9's CPU in `clear_page_erms`).
const SCRATCH_KEPT_BYTES: usize = 256 << 20;

thread_local! {
    /// The last call's buffer of Householder factors, reused by the next.
    static SCRATCH: std::cell::RefCell<Vec<f64>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The rows of a block for `n` columns: at least `2n` (a block's QR needs `n`, and
/// fewer rows would make the stacked `r`s as tall as the matrix).
pub(super) fn block_rows(n: usize) -> usize {
    (BLOCK_BYTES / (8 * n.max(1))).max(2 * n).max(64)
}

/// The thin QR `(q (m, n), r (n, n))` of `a` (`m >= n`), in row blocks of `block`
/// rows (see the module's comment); `r`'s strict lower triangle is zero.
pub(super) fn tall_qr(a: ArrayView2<'_, f64>, block: usize) -> (Array2<f64>, Array2<f64>) {
    let mut q = Array2::<f64>::zeros(a.dim());
    let r = tall_qr_into(a, block, q.view_mut());
    (q, r)
}

/// [`tall_qr`] writing `q` into `q` (`(m, n)`), returning `r`.
///
/// The blocks' Householder factors live in one column-major buffer the size of `a`,
/// kept by the thread for its next call (fresh pages cost more than the
/// factorization), and each block of `q` is computed in place in `q`'s rows.
pub(super) fn tall_qr_into(
    a: ArrayView2<'_, f64>,
    block: usize,
    q: ArrayViewMut2<'_, f64>,
) -> Array2<f64> {
    let (m, n) = a.dim();
    let block = block.max(2 * n).max(1);
    if m < 2 * block {
        return direct_qr(a, q);
    }
    let blocks = m / block;
    let bounds = |j: usize| (j * block, if j + 1 == blocks { m } else { (j + 1) * block });
    let mut factors = SCRATCH.with(|scratch| std::mem::take(&mut *scratch.borrow_mut()));
    factors.clear();
    factors.resize(m * n, 0.0);
    let mut stacked = Array2::<f64>::zeros((blocks * n, n));
    let mut work: Vec<(usize, &mut [f64], ArrayViewMut2<'_, f64>)> = Vec::with_capacity(blocks);
    let mut rest = factors.as_mut_slice();
    for (j, r_rows) in stacked.axis_chunks_iter_mut(Axis(0), n).enumerate() {
        let (start, end) = bounds(j);
        let (head, tail) = rest.split_at_mut((end - start) * n);
        work.push((j, head, r_rows));
        rest = tail;
    }
    let coeffs: Vec<Mat<f64>> = work
        .into_par_iter()
        .map(|(j, buffer, mut r_rows)| {
            let (start, end) = bounds(j);
            let mut block_qr = MatMut::from_column_major_slice_mut(buffer, end - start, n);
            copy_rows(a.slice(ndarray::s![start..end, ..]), block_qr.as_mut());
            let coeff = factor_in_place(block_qr.as_mut());
            // `r_j` out, then the unit lower trapezoid left as the Householder basis.
            for ((i, k), x) in r_rows.indexed_iter_mut() {
                if k >= i {
                    *x = block_qr[(i, k)];
                }
            }
            for k in 0..n {
                for i in 0..k {
                    block_qr[(i, k)] = 0.0;
                }
                block_qr[(k, k)] = 1.0;
            }
            coeff
        })
        .collect();
    let (q2, r) = tall_qr(stacked.view(), block);
    let mut pieces: Vec<(usize, ArrayViewMut2<'_, f64>)> = Vec::with_capacity(blocks);
    let mut rest = q;
    for j in 0..blocks {
        let (start, end) = bounds(j);
        let (head, tail) = rest.split_at(Axis(0), end - start);
        pieces.push((j, head));
        rest = tail;
    }
    let factor_slice = factors.as_slice();
    pieces.into_par_iter().for_each(|(j, mut out)| {
        let (start, end) = bounds(j);
        let basis =
            MatRef::from_column_major_slice(&factor_slice[start * n..end * n], end - start, n);
        out.fill(0.0);
        out.slice_mut(ndarray::s![..n, ..])
            .assign(&q2.slice(ndarray::s![j * n..(j + 1) * n, ..]));
        match out.as_slice_mut() {
            Some(slice) => {
                let target = MatMut::from_row_major_slice_mut(slice, end - start, n);
                apply_in_place(basis, coeffs[j].as_ref(), target);
            }
            None => {
                let mut target = Mat::from_fn(end - start, n, |i, c| out[[i, c]]);
                apply_in_place(basis, coeffs[j].as_ref(), target.as_mut());
                write_rows(target.as_ref(), &mut out);
            }
        }
    });
    if factors.len() * 8 <= SCRATCH_KEPT_BYTES && crate::huge_alloc::keeping_allowed() {
        factors.clear();
        SCRATCH.with(|scratch| *scratch.borrow_mut() = factors);
    }
    r
}

/// faer's Householder QR of `a` in place (sequential): its upper triangle becomes
/// `r`, its strict lower part the Householder vectors; returns their block factors.
fn factor_in_place(a: MatMut<'_, f64>) -> Mat<f64> {
    let (m, n) = a.shape();
    let block_size = factor::recommended_block_size::<f64>(m, n);
    let mut coeff = Mat::zeros(block_size, m.min(n));
    let mut buffer = MemBuffer::new(factor::qr_in_place_scratch::<f64>(
        m,
        n,
        block_size,
        Par::Seq,
        Default::default(),
    ));
    factor::qr_in_place(
        a,
        coeff.as_mut(),
        Par::Seq,
        MemStack::new(&mut buffer),
        Default::default(),
    );
    coeff
}

/// `target <- q target`, `q` the Householder sequence of `basis` (unit lower
/// trapezoidal) and `coeff` (sequential).
fn apply_in_place(basis: MatRef<'_, f64>, coeff: MatRef<'_, f64>, target: MatMut<'_, f64>) {
    let mut buffer = MemBuffer::new(
        householder::apply_block_householder_sequence_on_the_left_in_place_scratch::<f64>(
            basis.nrows(),
            coeff.nrows(),
            target.ncols(),
        ),
    );
    householder::apply_block_householder_sequence_on_the_left_in_place_with_conj(
        basis,
        coeff,
        Conj::No,
        target,
        Par::Seq,
        MemStack::new(&mut buffer),
    );
}

/// The QR of a matrix small enough to factor whole, `q` written into `q_out`.
fn direct_qr(a: ArrayView2<'_, f64>, mut q_out: ArrayViewMut2<'_, f64>) -> Array2<f64> {
    let (m, n) = a.dim();
    let size = m.min(n);
    let mut qr = to_column_major(a);
    let coeff = factor_in_place(qr.as_mut());
    let r = Array2::from_shape_fn((size, n), |(i, j)| if j >= i { qr[(i, j)] } else { 0.0 });
    let basis = Mat::from_fn(m, size, |i, j| match i.cmp(&j) {
        std::cmp::Ordering::Less => 0.0,
        std::cmp::Ordering::Equal => 1.0,
        std::cmp::Ordering::Greater => qr[(i, j)],
    });
    let mut q = Mat::from_fn(m, size, |i, j| f64::from(u8::from(i == j)));
    apply_in_place(basis.as_ref(), coeff.as_ref(), q.as_mut());
    write_rows(q.as_ref(), &mut q_out);
    r
}

/// Copies a row-major (or any) view into a column-major block.
fn copy_rows(a: ArrayView2<'_, f64>, mut out: MatMut<'_, f64>) {
    let (m, n) = a.dim();
    match a.as_slice() {
        Some(slice) => out.copy_from(MatRef::from_row_major_slice(slice, m, n)),
        None => {
            for ((i, j), &x) in a.indexed_iter() {
                out[(i, j)] = x;
            }
        }
    }
}

/// A column-major copy of a view (faer's QR wants columns contiguous).
pub(super) fn to_column_major(a: ArrayView2<'_, f64>) -> Mat<f64> {
    let (m, n) = a.dim();
    match a.as_slice() {
        Some(slice) => MatRef::from_row_major_slice(slice, m, n).to_owned(),
        None => Mat::from_fn(m, n, |i, j| a[[i, j]]),
    }
}

/// Copies `src` into `out` (same shape).
pub(super) fn write_rows(src: MatRef<'_, f64>, out: &mut ArrayViewMut2<'_, f64>) {
    match out.as_slice_mut() {
        Some(slice) => {
            let (m, n) = src.shape();
            MatMut::from_row_major_slice_mut(slice, m, n).copy_from(src);
        }
        None => {
            for ((i, j), x) in out.indexed_iter_mut() {
                *x = src[(i, j)];
            }
        }
    }
}
