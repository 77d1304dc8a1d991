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
pub(super) fn tall_qr_into(
    a: ArrayView2<'_, f64>,
    block: usize,
    mut q: ArrayViewMut2<'_, f64>,
) -> Array2<f64> {
    let (m, n) = a.dim();
    let block = block.max(2 * n).max(1);
    if m < 2 * block {
        return direct_qr(a, &mut q);
    }
    let blocks = m / block;
    let bounds = |j: usize| (j * block, if j + 1 == blocks { m } else { (j + 1) * block });
    let factored: Vec<Factored> = (0..blocks)
        .into_par_iter()
        .map(|j| {
            let (start, end) = bounds(j);
            Factored::new(a.slice(ndarray::s![start..end, ..]))
        })
        .collect();
    let mut stacked = Array2::<f64>::zeros((blocks * n, n));
    for (j, f) in factored.iter().enumerate() {
        let mut rows = stacked.slice_mut(ndarray::s![j * n..(j + 1) * n, ..]);
        for ((i, k), x) in rows.indexed_iter_mut() {
            if k >= i {
                *x = f.qr[(i, k)];
            }
        }
    }
    let (q2, r) = tall_qr(stacked.view(), block);
    let mut pieces: Vec<(usize, ArrayViewMut2<'_, f64>)> = Vec::with_capacity(blocks);
    let mut rest = q;
    for j in 0..blocks {
        let (start, end) = bounds(j);
        let (head, tail) = rest.split_at(Axis(0), end - start);
        pieces.push((j, head));
        rest = tail;
    }
    pieces.into_par_iter().for_each(|(j, mut out)| {
        let top = q2.slice(ndarray::s![j * n..(j + 1) * n, ..]);
        let target = factored[j].apply(top);
        write_rows(target.as_ref(), &mut out);
    });
    r
}

/// One block's Householder QR, in place: `qr`'s upper triangle is `r`, its strict
/// lower part the Householder vectors, `coeff` their block factors.
struct Factored {
    qr: Mat<f64>,
    coeff: Mat<f64>,
}

impl Factored {
    fn new(a: ArrayView2<'_, f64>) -> Self {
        let mut qr = to_column_major(a);
        let (m, n) = qr.shape();
        let size = m.min(n);
        let block_size = factor::recommended_block_size::<f64>(m, n);
        let mut coeff = Mat::zeros(block_size, size);
        let mut buffer = MemBuffer::new(factor::qr_in_place_scratch::<f64>(
            m,
            n,
            block_size,
            Par::Seq,
            Default::default(),
        ));
        factor::qr_in_place(
            qr.as_mut(),
            coeff.as_mut(),
            Par::Seq,
            MemStack::new(&mut buffer),
            Default::default(),
        );
        Factored { qr, coeff }
    }

    /// The Householder vectors with their unit diagonal, zeros above (as faer's
    /// `Qr` keeps its basis).
    fn basis(&self) -> Mat<f64> {
        let (m, n) = self.qr.shape();
        Mat::from_fn(m, n.min(m), |i, j| match i.cmp(&j) {
            std::cmp::Ordering::Less => 0.0,
            std::cmp::Ordering::Equal => 1.0,
            std::cmp::Ordering::Greater => self.qr[(i, j)],
        })
    }

    /// This block's `q` times `top` (`(n, k)`): the Householder sequence applied to
    /// `[top; 0]`, `(m, k)`.
    fn apply(&self, top: ArrayView2<'_, f64>) -> Mat<f64> {
        let m = self.qr.nrows();
        let (rows, k) = top.dim();
        let mut target = Mat::from_fn(m, k, |i, j| if i < rows { top[[i, j]] } else { 0.0 });
        let basis = self.basis();
        let mut buffer = MemBuffer::new(
            householder::apply_block_householder_sequence_on_the_left_in_place_scratch::<f64>(
                m,
                self.coeff.nrows(),
                k,
            ),
        );
        householder::apply_block_householder_sequence_on_the_left_in_place_with_conj(
            basis.as_ref(),
            self.coeff.as_ref(),
            Conj::No,
            target.as_mut(),
            Par::Seq,
            MemStack::new(&mut buffer),
        );
        target
    }
}

/// The QR of a matrix small enough to factor whole, `q` written into `q_out`.
fn direct_qr(a: ArrayView2<'_, f64>, q_out: &mut ArrayViewMut2<'_, f64>) -> Array2<f64> {
    let (m, n) = a.dim();
    let f = Factored::new(a);
    let size = m.min(n);
    let identity = Array2::from_shape_fn((size, size), |(i, j)| f64::from(u8::from(i == j)));
    let q = f.apply(identity.view());
    write_rows(q.as_ref(), q_out);
    Array2::from_shape_fn((size, n), |(i, j)| if j >= i { f.qr[(i, j)] } else { 0.0 })
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
