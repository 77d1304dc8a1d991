//! The factorizations of one whole matrix, each in place on one copy of the chunk
//! (and `cholesky`, at the end, the same way on a row-major view).
//!
//! The LU factorization behind `solve`, `inv`, `det` and `slogdet`: faer's recursive
//! partial-pivoting LU (parallel on rayon's pool), run in place on one copy of the
//! chunk's row-major values.
//!
//! A row-major `(n, n)` matrix `a` read as column-major is `a.T`, so the chunk's
//! values are copied once, as they lie, into a buffer that faer factors as `m = a.T`:
//! `p m = l u`. Then `a x = b` is `m.T x = b`, faer's transposed solve with the same
//! factors; `inv(a) = inv(m).T`, whose column-major values are `inv(a)`'s row-major
//! ones (the result buffer becomes the output as it is); `det(a) = det(m)`. Before,
//! the matrix went through a transposing copy into faer's layout, a second copy that
//! faer's `PartialPivLu` makes of its input, and a third into separate `l` and `u`
//! matrices: three fresh buffers of the matrix's size, whose first touch costs more
//! than a copy on this VM (see `huge_alloc.rs`), and as many passes over memory. The
//! one copy left runs on rayon's pool, so the threads share its page clearing.
//!
//! Pivoting is over the rows of `a.T`, the columns of `a`: as stable as LAPACK's row
//! pivoting (`dgesv`, which NumPy calls), with different rounding. Which matrices are
//! exactly singular ("Singular matrix", NumPy's `LinAlgError`: a pivot exactly zero)
//! must not change with that, so a factorization with a pivot that is not clearly
//! away from zero is done again over `a`'s rows, as LAPACK does, and that one used
//! (see [`TransposedLu::new`]).

use super::super::KernelError;
use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::cholesky::llt::factor as llt;
use faer::linalg::lu::partial_pivoting::{factor, inverse, solve};
use faer::perm::PermRef;
use faer::{MatMut, MatRef, Par};
use ndarray::{Array2, ArrayD, ArrayView2, ArrayViewD, Ix1, Ix2};
use rayon::prelude::*;

/// The factors of `m` for a square `a`: `p m = l u`, packed as LAPACK packs them
/// (`l` unit lower below the diagonal, `u` on and above it), column-major. `m` is
/// `a.T` (`transposed`, the fast path) or `a` itself (LAPACK's row pivoting, for a
/// matrix whose pivots were not clearly away from zero).
pub(super) struct TransposedLu {
    packed: Vec<f64>,
    n: usize,
    forward: Vec<usize>,
    inverse: Vec<usize>,
    transpositions: usize,
    transposed: bool,
}

impl TransposedLu {
    /// Factors the square matrix `a`: as `a.T`, and again over `a`'s rows when a
    /// pivot of that is (nearly) zero, so that an exactly singular matrix is found as
    /// LAPACK finds it. Pivoting over columns turns exact cancellations into rounding
    /// (`[[1, 2, 3], [2, 4, 6], [1, 0, 1]]`: its rows are multiples, a zero pivot for
    /// LAPACK, a pivot of 2e-16 for the transposed factorization, where NumPy raises
    /// "Singular matrix"), so a pivot at most `n` epsilons of the largest one is
    /// settled by the row-pivoted factorization, used from then on.
    pub(super) fn new(a: ArrayView2<'_, f64>) -> Self {
        let n = a.nrows();
        debug_assert_eq!(a.ncols(), n);
        let mut packed = vec![0.0; n * n];
        copy_rows(a, &mut packed);
        let lu = Self::factor(packed, n, true);
        let largest = lu.pivots().fold(0.0f64, |top, pivot| top.max(pivot.abs()));
        let tiny = largest * n as f64 * f64::EPSILON;
        if lu.pivots().all(|pivot| pivot.abs() > tiny) {
            return lu;
        }
        let mut packed = lu.packed;
        MatMut::from_column_major_slice_mut(&mut packed, n, n)
            .copy_from(MatRef::from_row_major_slice(&to_rows(a), n, n));
        Self::factor(packed, n, false)
    }

    /// faer's LU in place on the column-major `packed` (`m`).
    fn factor(mut packed: Vec<f64>, n: usize, transposed: bool) -> Self {
        let mut forward = vec![0usize; n];
        let mut inverse = vec![0usize; n];
        let par = parallelism();
        let mut scratch = MemBuffer::new(factor::lu_in_place_scratch::<usize, f64>(
            n,
            n,
            par,
            Default::default(),
        ));
        let (info, _) = factor::lu_in_place(
            MatMut::from_column_major_slice_mut(&mut packed, n, n),
            &mut forward,
            &mut inverse,
            par,
            MemStack::new(&mut scratch),
            Default::default(),
        );
        TransposedLu {
            packed,
            n,
            forward,
            inverse,
            transpositions: info.transposition_count,
            transposed,
        }
    }

    fn factors(&self) -> MatRef<'_, f64> {
        MatRef::from_column_major_slice(&self.packed, self.n, self.n)
    }

    fn permutation(&self) -> PermRef<'_, usize> {
        PermRef::new_checked(&self.forward, &self.inverse, self.n)
    }

    /// `u`'s diagonal, the pivots.
    fn pivots(&self) -> impl Iterator<Item = f64> + '_ {
        (0..self.n).map(|i| self.packed[i * self.n + i])
    }

    /// Whether a pivot is exactly zero (LAPACK's `info > 0`).
    pub(super) fn singular(&self) -> bool {
        self.pivots().any(|pivot| pivot == 0.0)
    }

    /// `x` with `a @ x = b`, `b` `(n,)` or `(n, k)`, `x` of `b`'s shape.
    pub(super) fn solve(&self, b: ArrayViewD<'_, f64>) -> Result<ArrayD<f64>, KernelError> {
        let n = self.n;
        if b.ndim() == 0 || b.ndim() > 2 || b.shape()[0] != n {
            return Err(super::internal(format!(
                "solve of a {n}x{n} matrix and a b shaped {:?}",
                b.shape()
            )));
        }
        let k = if b.ndim() == 1 { 1 } else { b.shape()[1] };
        // `x` starts as `b`, row-major like the output, and is solved in place.
        let mut x = Array2::<f64>::zeros((n, k));
        match (
            b.view().into_dimensionality::<Ix2>(),
            b.view().into_dimensionality::<Ix1>(),
        ) {
            (Ok(b2), _) => x.assign(&b2),
            (_, Ok(b1)) => x.column_mut(0).assign(&b1),
            _ => {
                return Err(super::internal(
                    "solve's b is neither 1-D nor 2-D".to_string(),
                ))
            }
        }
        let par = parallelism();
        let mut scratch = MemBuffer::new(
            solve::solve_transpose_in_place_scratch::<usize, f64>(n, k, par)
                .or(solve::solve_in_place_scratch::<usize, f64>(n, k, par)),
        );
        let values = x
            .as_slice_mut()
            .ok_or_else(|| super::internal("solve's output is not contiguous".to_string()))?;
        let rhs = MatMut::from_row_major_slice_mut(values, n, k);
        let stack = MemStack::new(&mut scratch);
        if self.transposed {
            solve::solve_transpose_in_place(
                self.factors(),
                self.factors(),
                self.permutation(),
                rhs,
                par,
                stack,
            );
        } else {
            let (l, u) = (self.factors(), self.factors());
            solve::solve_in_place(l, u, self.permutation(), rhs, par, stack);
        }
        Ok(if b.ndim() == 1 {
            x.into_shape_with_order(n)
                .map_err(|error| super::internal(error.to_string()))?
                .into_dyn()
        } else {
            x.into_dyn()
        })
    }

    /// `inv(a)`: `inv(m)` computed column-major is `inv(a)` row-major when `m = a.T`.
    pub(super) fn inverse(&self) -> Result<Array2<f64>, KernelError> {
        let n = self.n;
        let mut out = vec![0.0; n * n];
        let par = parallelism();
        let mut scratch = MemBuffer::new(inverse::inverse_scratch::<usize, f64>(n, par));
        inverse::inverse(
            MatMut::from_column_major_slice_mut(&mut out, n, n),
            self.factors(),
            self.factors(),
            self.permutation(),
            par,
            MemStack::new(&mut scratch),
        );
        let inverse = Array2::from_shape_vec((n, n), out)
            .map_err(|error| super::internal(error.to_string()))?;
        if self.transposed {
            return Ok(inverse);
        }
        // `inv(a)` column-major: its transpose, laid out row-major.
        Ok(inverse.reversed_axes().as_standard_layout().into_owned())
    }

    /// `(sign, log|det|)`, NumPy's `slogdet`: the permutation's sign and the signs of
    /// the pivots, the sum of the logs of their magnitudes; a zero pivot gives
    /// `(0, -inf)`.
    pub(super) fn slogdet(&self) -> (f64, f64) {
        let mut sign = if self.transpositions.is_multiple_of(2) {
            1.0
        } else {
            -1.0
        };
        let mut logabs = 0.0;
        for pivot in self.pivots() {
            if pivot == 0.0 {
                return (0.0, f64::NEG_INFINITY);
            }
            if pivot < 0.0 {
                sign = -sign;
            }
            logabs += pivot.abs().ln();
        }
        (sign, logabs)
    }
}

/// The lower Cholesky factor of `a` from its lower triangle, or `None` when `a` is
/// not positive definite: faer's blocked Cholesky in place on one row-major copy of
/// `a` (faer reads a matrix of any strides), the strict upper triangle then zeroed.
/// faer's `Llt` would copy the triangle into a zeroed matrix of its own and the
/// result out again.
pub(super) fn cholesky(a: ArrayView2<'_, f64>) -> Option<Array2<f64>> {
    let n = a.nrows();
    let mut l = Array2::<f64>::zeros((n, n));
    copy_rows(a, l.as_slice_mut()?);
    let par = parallelism();
    let mut scratch = MemBuffer::new(llt::cholesky_in_place_scratch::<f64>(
        n,
        par,
        Default::default(),
    ));
    llt::cholesky_in_place(
        MatMut::from_row_major_slice_mut(l.as_slice_mut()?, n, n),
        Default::default(),
        par,
        MemStack::new(&mut scratch),
        Default::default(),
    )
    .ok()?;
    for (i, mut row) in l.rows_mut().into_iter().enumerate() {
        row.slice_mut(ndarray::s![i + 1..]).fill(0.0);
    }
    Some(l)
}

/// `a`'s values in row-major order (a view when it is laid out so, else a copy).
fn to_rows(a: ArrayView2<'_, f64>) -> std::borrow::Cow<'_, [f64]> {
    match a.to_slice() {
        Some(values) => std::borrow::Cow::Borrowed(values),
        None => std::borrow::Cow::Owned(a.iter().copied().collect()),
    }
}

/// Copies `a` into `out` in row-major order, in blocks of rows on rayon's pool. A
/// matrix-sized buffer is fresh memory (a zeroed allocation this large is a new
/// mapping, not yet touched): its first touch, the kernel clearing every page, cost
/// as much as the copy itself (perf of W11: a third of the CPU in `clear_page_erms`),
/// and it runs on whichever thread touches the page, so the threads share it.
fn copy_rows(a: ArrayView2<'_, f64>, out: &mut [f64]) {
    let n = a.ncols().max(1);
    let rows = (COPY_BLOCK_VALUES / n).max(1);
    out.par_chunks_mut(rows * n)
        .enumerate()
        .for_each(|(block, out)| {
            let first = block * rows;
            let last = (first + out.len() / n).min(a.nrows());
            let source = a.slice(ndarray::s![first..last, ..]);
            match source.as_slice() {
                Some(values) => out.copy_from_slice(values),
                None => {
                    for (to, from) in out.iter_mut().zip(source.iter()) {
                        *to = *from;
                    }
                }
            }
        });
}

/// The values one task of [`copy_rows`] copies: one 2 MiB huge page of float64.
const COPY_BLOCK_VALUES: usize = (2 << 20) / 8;

/// faer's global setting: rayon's current pool, all of its threads.
fn parallelism() -> Par {
    faer::get_global_parallelism()
}
