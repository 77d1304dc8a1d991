//! Dense linear algebra kernels (issue 20) through faer: the solvers and
//! factorizations of `mt.linalg` on one chunk holding a whole matrix (`solve`, `inv`,
//! `det`, `slogdet`, `cholesky`, `eigh`, the small `svd` of a square `R`, the complete
//! QR, `solve_triangular`), and the three steps of a tall-and-skinny QR (TSQR) over
//! row chunks: a QR per chunk, a QR of the stacked `R`s, and each chunk's `Q` block as
//! its local `Q` times its block of the second `Q`. Each chunk's QR is itself a
//! cache-blocked TSQR (`linalg/tsqr.rs`).
//!
//! The ops NumPy broadcasts over leading axes ([`LinalgOp::stacks`]: `solve`, `inv`,
//! `det`, `slogdet`, `cholesky`, `eigh`, the singular values, the reduced and complete
//! QR, the SVD with its vectors) and those SciPy batches (`lu`, `solve_triangular`)
//! also take a chunk of stacked matrices `(..., n, n)` (and `solve` and
//! `solve_triangular` a `b` of `(..., n, k)` with the same leading axes) and give one
//! result per matrix, stacked the same way: `det` `(...)`, `slogdet` `(..., 2)`,
//! `eigh` `(..., n + 1, n)`, `lu` `(..., 3n, n)`.
//!
//! Inputs are float64 (lowering casts ints, bools and float32 first, as NumPy computes
//! them). A factorization that gives several results packs them into one matrix, which
//! lowering slices apart:
//! - `slogdet`: `[sign, logabsdet]`, shape `(2,)`;
//! - `eigh`: `[w; v]`, shape `(n + 1, n)` (row 0 the ascending eigenvalues);
//! - `svd` of a square `(n, n)` matrix: `[u; s; vh]`, shape `(2n + 1, n)`;
//! - the complete QR of an `(m, n)` matrix: `[q | r]`, shape `(m, m + n)`; the
//!   reduced one: `[q | 0; r]`, shape `(m + k, n)`, `k = min(m, n)`;
//! - the SVD of an `(m, n)` matrix with its vectors: `[u; s; vh]`, each padded with
//!   zeros to the width `max(ku, n)` ([`LinalgOp::SvdFactors`]);
//! - a TSQR chunk's local QR of an `(m_i, n)` block (`m_i >= n`): `[q_i; r_i]`, shape
//!   `(m_i + n, n)`; the QR of the stacked `r_i`s: `[q2; r]`, shape `(k n + n, n)`.
//!
//! `solve`, `inv`, `det` and `slogdet` share one LU factorization, done in place on
//! a copy of the chunk's row-major values (`linalg/lu.rs`); `lu` factors the matrix
//! itself, as SciPy's row pivoting gives `p`.
//!
//! NumPy's `LinAlgError`s are this module's errors: an exactly zero pivot of the LU
//! factorization is "Singular matrix" (LAPACK's `gesv` rule: a nearly singular matrix
//! is solved, with rounding error, as NumPy does), a matrix without a Cholesky factor
//! is "Matrix is not positive definite", and a zero on the diagonal of a triangular
//! system is SciPy's "singular matrix: resolution failed at diagonal i".

use crate::array::ArrayData;
use crate::kernels::KernelError;
use faer::{Mat, MatRef, Side};
use ndarray::{Array1, Array2, ArrayD, ArrayViewD, Axis, Ix2, IxDyn};

/// One dense linear algebra kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LinalgOp {
    /// `[a (n, n), b (n,) or (n, k)]` → `x` of `b`'s shape with `a @ x = b`.
    Solve,
    /// `[a (n, n)]` → its inverse.
    Inv,
    /// `[a (n, n)]` → its determinant, 0-d.
    Det,
    /// `[a (n, n)]` → `[sign, logabsdet]`.
    SlogDet,
    /// `[a (n, n)]` → the lower Cholesky factor (reading only the lower triangle).
    Cholesky,
    /// `[a (n, n)]` → `[w; v]` from the lower triangle, eigenvalues ascending.
    Eigh,
    /// `[a (n, n)]` → `[u; s; vh]`, singular values descending.
    Svd,
    /// `[a (m, n)]` → its singular values, descending, `(min(m, n),)`.
    SvdValues,
    /// `[a (n, n)]` → `[p; l; u]` (each `(n, n)`) with `a = p @ l @ u`, by partial
    /// pivoting (the largest magnitude in the column), as SciPy's and Mars's `lu`.
    Lu,
    /// TSQR, first step: `[a_i (m_i, n)]` with `m_i >= n` → `[q_i; r_i]`.
    QrLocal,
    /// TSQR, second step: every chunk's `[q_i; r_i]` → `[q2; r]`, the QR of the
    /// `r_i`s stacked in order.
    QrStack,
    /// TSQR, last step for chunk `index`: `[[q_i; r_i], [q2; r]]` → `q_i @ q2_i`, where
    /// `q2_i` is rows `index * n..(index + 1) * n` of `q2`.
    QrQ,
    /// `[[q2; r]]` → `r`.
    QrR,
    /// `[a (m, n)]` → `[q | r]`, NumPy's `mode='complete'`: `q` `(m, m)` orthogonal,
    /// `r` `(m, n)` upper trapezoidal.
    QrComplete,
    /// `[a (n, n), b (n,) or (n, k)]` → `x` with `t @ x = b`, `t` the lower (or upper)
    /// triangle of `a`, SciPy's `solve_triangular`.
    SolveTriangular { lower: bool },
    /// `[a (m, n)]` → `[q | 0; r]`, NumPy's `mode='reduced'` of one matrix of a
    /// stack, `k = min(m, n)`: shape `(m + k, n)`, `q` in rows `..m` and columns
    /// `..k`, `r` `(k, n)` upper trapezoidal in rows `m..`.
    QrReduced,
    /// `[a (m, n)]` → `[u | 0; s | 0; vh | 0]`, the SVD of one matrix of a stack,
    /// singular values descending: `u` `(m, ku)` in rows `..m`, `s` `(k,)` in row
    /// `m`, `vh` `(kv, n)` in rows `m + 1..`, the width `max(ku, n)`; `ku = m` and
    /// `kv = n` when `full` (NumPy's `full_matrices=True`), else both `k = min(m, n)`.
    SvdFactors { full: bool },
}

impl LinalgOp {
    /// The short name used in dumps and traces.
    pub fn name(self) -> &'static str {
        match self {
            LinalgOp::Solve => "solve",
            LinalgOp::Inv => "inv",
            LinalgOp::Det => "det",
            LinalgOp::SlogDet => "slogdet",
            LinalgOp::Cholesky => "cholesky",
            LinalgOp::Eigh => "eigh",
            LinalgOp::Svd => "svd",
            LinalgOp::SvdValues => "svd.values",
            LinalgOp::Lu => "lu",
            LinalgOp::QrLocal => "qr.local",
            LinalgOp::QrStack => "qr.stack",
            LinalgOp::QrQ => "qr.q",
            LinalgOp::QrR => "qr.r",
            LinalgOp::QrComplete => "qr.complete",
            LinalgOp::SolveTriangular { lower: true } => "solve_triangular.lower",
            LinalgOp::SolveTriangular { lower: false } => "solve_triangular.upper",
            LinalgOp::QrReduced => "qr.reduced",
            LinalgOp::SvdFactors { full: true } => "svd.full",
            LinalgOp::SvdFactors { full: false } => "svd.thin",
        }
    }

    /// Whether the op maps over leading axes, one result per stacked matrix.
    pub fn stacks(self) -> bool {
        matches!(
            self,
            LinalgOp::Solve
                | LinalgOp::Inv
                | LinalgOp::Det
                | LinalgOp::SlogDet
                | LinalgOp::Cholesky
                | LinalgOp::Eigh
                | LinalgOp::SvdValues
                | LinalgOp::QrComplete
                | LinalgOp::QrReduced
                | LinalgOp::SvdFactors { .. }
                | LinalgOp::Lu
                | LinalgOp::SolveTriangular { .. }
        )
    }
}

/// Runs `op` on its arguments; `index` is the chunk's index in its step (only
/// [`LinalgOp::QrQ`] reads it).
pub fn linalg(op: LinalgOp, index: usize, args: &[&ArrayData]) -> Result<ArrayData, KernelError> {
    let views = (0..args.len())
        .map(|i| arg(args, i).map(|a| a.view()))
        .collect::<Result<Vec<_>, _>>()?;
    let out = match views.first() {
        Some(first) if op.stacks() && first.ndim() > 2 => stacked(op, &views)?,
        _ => one(op, index, &views)?,
    };
    Ok(ArrayData::Float64(out))
}

/// `op` on each matrix of a stack: every argument's leading axes are the first
/// argument's (lowering broadcasts them), the results stacked along the same axes.
fn stacked(op: LinalgOp, args: &[ArrayViewD<'_, f64>]) -> Result<ArrayD<f64>, KernelError> {
    let lead = &args[0].shape()[..args[0].ndim() - 2];
    let batch: usize = lead.iter().product();
    let mut flat = Vec::with_capacity(args.len());
    for a in args {
        if a.ndim() < lead.len() + 1 || &a.shape()[..lead.len()] != lead {
            return Err(KernelError::new(
                "internal error: stacked linalg operands disagree",
            ));
        }
        let mut shape = vec![batch];
        shape.extend_from_slice(&a.shape()[lead.len()..]);
        flat.push(a.to_shape(IxDyn(&shape)).map_err(shape_error)?.into_owned());
    }
    let mut results = Vec::with_capacity(batch);
    for i in 0..batch {
        let matrices: Vec<ArrayViewD<'_, f64>> =
            flat.iter().map(|f| f.index_axis(Axis(0), i)).collect();
        results.push(one(op, 0, &matrices)?);
    }
    let Some(first) = results.first() else {
        return Err(KernelError::new(
            "internal error: linalg kernel of an empty stack",
        ));
    };
    let mut shape = lead.to_vec();
    shape.extend_from_slice(first.shape());
    let data: Vec<f64> = results.iter().flat_map(|r| r.iter().copied()).collect();
    ArrayD::from_shape_vec(IxDyn(&shape), data).map_err(shape_error)
}

/// `op` on one matrix (or one pair of operands).
fn one(
    op: LinalgOp,
    index: usize,
    args: &[ArrayViewD<'_, f64>],
) -> Result<ArrayD<f64>, KernelError> {
    let out = match op {
        LinalgOp::Solve => {
            let (a, b) = (nonsingular_lu(matrix(args, 0)?)?, operand(args, 1)?);
            a.solve(b)?
        }
        LinalgOp::Inv => {
            let lu = nonsingular_lu(matrix(args, 0)?)?;
            lu.inverse()?.into_dyn()
        }
        LinalgOp::Det => {
            // NumPy's `det` is `sign * exp(logabsdet)` of the same factorization.
            let (sign, logabs) = lu_determinant(matrix(args, 0)?)?;
            ArrayD::from_elem(ndarray::IxDyn(&[]), sign * logabs.exp())
        }
        LinalgOp::SlogDet => {
            let (sign, logabs) = lu_determinant(matrix(args, 0)?)?;
            Array1::from_vec(vec![sign, logabs]).into_dyn()
        }
        LinalgOp::Cholesky => lu::cholesky(square_view(matrix(args, 0)?)?)
            .ok_or_else(|| KernelError::new("Matrix is not positive definite"))?
            .into_dyn(),
        LinalgOp::Eigh => {
            let a = square(matrix(args, 0)?)?;
            let n = a.nrows();
            let evd = a
                .self_adjoint_eigen(Side::Lower)
                .map_err(|_| KernelError::new("Eigenvalues did not converge"))?;
            let (w, v) = (evd.S().column_vector(), evd.U());
            Array2::from_shape_fn(
                (n + 1, n),
                |(i, j)| if i == 0 { w[j] } else { v[(i - 1, j)] },
            )
            .into_dyn()
        }
        LinalgOp::Svd => {
            let a = square(matrix(args, 0)?)?;
            let n = a.nrows();
            let svd = a
                .svd()
                .map_err(|_| KernelError::new("SVD did not converge"))?;
            let (u, s, v) = (svd.U(), svd.S().column_vector(), svd.V());
            Array2::from_shape_fn((2 * n + 1, n), |(i, j)| match i {
                i if i < n => u[(i, j)],
                i if i == n => s[j],
                i => v[(j, i - n - 1)],
            })
            .into_dyn()
        }
        LinalgOp::SvdValues => {
            let a = to_faer(matrix(args, 0)?);
            let s = a
                .singular_values()
                .map_err(|_| KernelError::new("SVD did not converge"))?;
            Array1::from_vec(s).into_dyn()
        }
        LinalgOp::Lu => {
            let a = square(matrix(args, 0)?)?;
            let n = a.nrows();
            let lu = a.partial_piv_lu();
            // faer's row permutation has `P a = L U` with row i of `P a` being row
            // `forward[i]` of `a`; SciPy's `p` is its transpose: `a = p L U`.
            let forward = lu.P().arrays().0;
            let (l, u) = (lu.L(), lu.U());
            Array2::from_shape_fn((3 * n, n), |(i, j)| match i / n {
                0 => f64::from(u8::from(forward[j] == i)),
                1 if j < i - n => l[(i - n, j)],
                1 if j == i - n => 1.0,
                2 if j >= i - 2 * n => u[(i - 2 * n, j)],
                _ => 0.0,
            })
            .into_dyn()
        }
        LinalgOp::QrLocal => {
            let a = matrix(args, 0)?;
            let (m, n) = a.dim();
            if m < n {
                return Err(KernelError::new(format!(
                    "internal error: a TSQR block of {m} rows has fewer rows than its {n} columns"
                )));
            }
            packed_qr(a)?
        }
        LinalgOp::QrStack => {
            let blocks = args
                .iter()
                .enumerate()
                .map(|(i, _)| matrix(args, i))
                .collect::<Result<Vec<_>, _>>()?;
            let n = blocks.first().map_or(0, |b| b.ncols());
            if blocks.iter().any(|b| b.ncols() != n || b.nrows() < n) {
                return Err(KernelError::new("internal error: TSQR blocks disagree"));
            }
            let stacked = Array2::from_shape_fn((blocks.len() * n, n), |(i, j)| {
                let block = &blocks[i / n];
                block[[block.nrows() - n + i % n, j]]
            });
            packed_qr(stacked.view())?
        }
        LinalgOp::QrQ => {
            let (local, second) = (matrix(args, 0)?, matrix(args, 1)?);
            let n = local.ncols();
            let rows = index * n;
            let m = match local.nrows().checked_sub(n) {
                Some(m) if second.ncols() == n && second.nrows() >= rows + 2 * n => m,
                _ => return Err(KernelError::new("internal error: TSQR blocks disagree")),
            };
            let q1 = local.slice(ndarray::s![..m, ..]);
            let q2 = second.slice(ndarray::s![rows..rows + n, ..]);
            crate::kernels::matmul::float_product(q1, q2, crate::kernels::matmul::Threads::Pool)
                .into_dyn()
        }
        LinalgOp::QrR => {
            let second = matrix(args, 0)?;
            let n = second.ncols();
            let Some(m) = second.nrows().checked_sub(n) else {
                return Err(KernelError::new(
                    "internal error: TSQR's R block is missing",
                ));
            };
            second.slice(ndarray::s![m.., ..]).to_owned().into_dyn()
        }
        LinalgOp::QrComplete => {
            let a = to_faer(matrix(args, 0)?);
            let (m, n) = a.shape();
            let qr = a.qr();
            let (q, r) = (qr.compute_Q(), qr.R());
            Array2::from_shape_fn((m, m + n), |(i, j)| {
                if j < m {
                    q[(i, j)]
                } else if j - m >= i {
                    r[(i, j - m)]
                } else {
                    0.0
                }
            })
            .into_dyn()
        }
        LinalgOp::QrReduced => {
            let a = to_faer(matrix(args, 0)?);
            let (m, n) = a.shape();
            let k = m.min(n);
            let qr = a.qr();
            let (q, r) = (qr.compute_thin_Q(), qr.thin_R());
            Array2::from_shape_fn((m + k, n), |(i, j)| match i {
                i if i < m && j < k => q[(i, j)],
                i if i >= m && j >= i - m => r[(i - m, j)],
                _ => 0.0,
            })
            .into_dyn()
        }
        LinalgOp::SvdFactors { full } => {
            let a = to_faer(matrix(args, 0)?);
            let (m, n) = a.shape();
            let k = m.min(n);
            let svd = if full { a.svd() } else { a.thin_svd() }
                .map_err(|_| KernelError::new("SVD did not converge"))?;
            let (u, s, v) = (svd.U(), svd.S().column_vector(), svd.V());
            let (ku, kv) = (u.ncols(), v.ncols());
            Array2::from_shape_fn((m + 1 + kv, ku.max(n)), |(i, j)| match i {
                i if i < m && j < ku => u[(i, j)],
                i if i < m => 0.0,
                i if i == m && j < k => s[j],
                i if i == m => 0.0,
                i if j < n => v[(j, i - m - 1)],
                _ => 0.0,
            })
            .into_dyn()
        }
        LinalgOp::SolveTriangular { lower } => {
            let (a, b) = (matrix(args, 0)?, operand(args, 1)?);
            let n = a.nrows();
            if a.ncols() != n || b.ndim() == 0 || b.ndim() > 2 || b.shape()[0] != n {
                return Err(KernelError::new(
                    "internal error: solve_triangular shapes disagree",
                ));
            }
            if let Some(i) = (0..n).find(|&i| a[[i, i]] == 0.0) {
                return Err(KernelError::new(format!(
                    "singular matrix: resolution failed at diagonal {i}"
                )));
            }
            // Only the named triangle is read, as LAPACK's `trtrs`.
            let t = Mat::from_fn(n, n, |i, j| {
                if (lower && j <= i) || (!lower && j >= i) {
                    a[[i, j]]
                } else {
                    0.0
                }
            });
            let k = if b.ndim() == 1 { 1 } else { b.shape()[1] };
            let mut x = Mat::from_fn(n, k, |i, j| if b.ndim() == 1 { b[[i]] } else { b[[i, j]] });
            let par = faer::get_global_parallelism();
            if lower {
                faer::linalg::triangular_solve::solve_lower_triangular_in_place(
                    t.as_ref(),
                    x.as_mut(),
                    par,
                );
            } else {
                faer::linalg::triangular_solve::solve_upper_triangular_in_place(
                    t.as_ref(),
                    x.as_mut(),
                    par,
                );
            }
            if b.ndim() == 1 {
                Array1::from_shape_fn(n, |i| x[(i, 0)]).into_dyn()
            } else {
                from_faer(x.as_ref()).into_dyn()
            }
        }
    };
    Ok(out)
}

/// Argument `index`, which must be float64.
fn arg<'a>(args: &[&'a ArrayData], index: usize) -> Result<&'a ArrayD<f64>, KernelError> {
    match args.get(index) {
        Some(ArrayData::Float64(a)) => Ok(a),
        Some(other) => Err(KernelError::new(format!(
            "internal error: linalg kernel got {} data",
            other.dtype()
        ))),
        None => Err(KernelError::new(format!(
            "internal error: linalg kernel is missing argument {index}"
        ))),
    }
}

/// Operand `index` of one matrix's computation.
fn operand<'a>(
    args: &'a [ArrayViewD<'_, f64>],
    index: usize,
) -> Result<ArrayViewD<'a, f64>, KernelError> {
    args.get(index).map(|a| a.view()).ok_or_else(|| {
        KernelError::new(format!(
            "internal error: linalg kernel is missing argument {index}"
        ))
    })
}

/// Operand `index` as a 2-D view.
fn matrix<'a>(
    args: &'a [ArrayViewD<'_, f64>],
    index: usize,
) -> Result<ndarray::ArrayView2<'a, f64>, KernelError> {
    operand(args, index)?
        .into_dimensionality::<Ix2>()
        .map_err(shape_error)
}

fn shape_error(error: ndarray::ShapeError) -> KernelError {
    KernelError::new(format!("internal error: linalg kernel operand: {error}"))
}

/// The thin QR of an `(m, n)` matrix, `m >= n`, packed as TSQR passes it on:
/// `[q (m, n); r (n, n)]`, r's strict lower triangle zero (cache-blocked, `tsqr.rs`).
fn packed_qr(a: ndarray::ArrayView2<'_, f64>) -> Result<ArrayD<f64>, KernelError> {
    let (m, n) = a.dim();
    let mut packed = Array2::<f64>::zeros((m + n, n));
    let (q, mut r_rows) = packed.view_mut().split_at(Axis(0), m);
    let r = tsqr::tall_qr_into(a, tsqr::block_rows(n), q);
    if r.dim() != (n, n) {
        return Err(KernelError::new("internal error: TSQR's R is not square"));
    }
    r_rows.assign(&r);
    Ok(packed.into_dyn())
}

fn to_faer(a: ndarray::ArrayView2<'_, f64>) -> Mat<f64> {
    tsqr::to_column_major(a)
}

fn from_faer(a: MatRef<'_, f64>) -> Array2<f64> {
    let mut out = Array2::zeros((a.nrows(), a.ncols()));
    tsqr::write_rows(a, &mut out.view_mut());
    out
}

/// A square matrix as faer's, or an internal error (lowering checks squareness).
fn square(a: ndarray::ArrayView2<'_, f64>) -> Result<Mat<f64>, KernelError> {
    Ok(to_faer(square_view(a)?))
}

/// `a`, or an internal error if it is not square.
fn square_view(
    a: ndarray::ArrayView2<'_, f64>,
) -> Result<ndarray::ArrayView2<'_, f64>, KernelError> {
    if a.nrows() != a.ncols() {
        return Err(KernelError::new(format!(
            "internal error: linalg kernel of a {}x{} matrix",
            a.nrows(),
            a.ncols()
        )));
    }
    Ok(a)
}

/// The LU factorization of `a` (`lu.rs`), or NumPy's "Singular matrix" for a zero
/// pivot.
fn nonsingular_lu(a: ndarray::ArrayView2<'_, f64>) -> Result<lu::TransposedLu, KernelError> {
    let lu = lu::TransposedLu::new(square_view(a)?);
    if lu.singular() {
        return Err(KernelError::new("Singular matrix"));
    }
    Ok(lu)
}

/// `(sign, log|det|)` from the LU factorization, as NumPy's `slogdet` computes them
/// (`lu.rs`); a zero pivot gives `(0, -inf)`.
fn lu_determinant(a: ndarray::ArrayView2<'_, f64>) -> Result<(f64, f64), KernelError> {
    Ok(lu::TransposedLu::new(square_view(a)?).slogdet())
}

/// An internal error of a kernel's own checks.
fn internal(message: String) -> KernelError {
    KernelError::new(format!("internal error: {message}"))
}

mod lu;
mod tsqr;

#[cfg(test)]
mod tests;
