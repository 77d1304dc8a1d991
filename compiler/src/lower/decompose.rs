//! `mt.linalg`'s solvers and decompositions (issue 20): `solve`, `inv`, `det`,
//! `slogdet`, `cholesky`, `eigh`, `matrix_power`, `qr`, `svd` and `lstsq`.
//!
//! Inputs are checked here with NumPy's errors (a matrix that is not 2-D or not
//! square, mismatched `solve`/`lstsq` operands); stacked matrices (ndim > 2) are
//! "not supported yet". Ints and bools compute in float64 and float32 in float64 then
//! back to float32 (NumPy computes float32 in single precision: results agree within
//! float32's rounding). The kernels (`TileOp::Linalg`, `tile/linalg.rs`) gather a
//! whole matrix into one chunk, except `qr`, which is TSQR over row chunks. Results
//! a kernel packs into one matrix (`eigh`, `slogdet`, the small `svd`) are sliced
//! apart here. Everything else is composed from existing ops as NumPy's own code
//! does: `matrix_power` by repeated squaring, `svd` as TSQR then the SVD of `R`
//! (`u = q @ u_r`), a wide matrix's `svd` through its transpose, `lstsq` from the SVD
//! (LAPACK's `gelsd`, which NumPy calls, is an SVD solver too).

use super::bind::{Arg, BoundArgs};
use super::convert::{bool_arg, str_arg};
use super::value::Value;
use super::{LowerResult, Lowerer};
use crate::infer::dtypes::promote_types;
use crate::infer::linalg::linalg_shape;
use crate::tileable::{IndexItem, TileOp, TileableId};
use marsc_grammar::{Diagnostic, Span};
use marsc_runtime::kernels::linalg::LinalgOp;
use marsc_runtime::DType;

/// The functions of this module, as the library table names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Decomposition {
    Solve,
    Inv,
    Det,
    SlogDet,
    Cholesky,
    Eigh,
    MatrixPower,
    Qr,
    Svd,
    Lstsq,
    Lu,
}

/// A matrix argument made float64, with the dtype NumPy's result has.
struct Matrix {
    id: TileableId,
    result: DType,
}

impl Lowerer<'_> {
    pub(super) fn decompose(
        &mut self,
        which: Decomposition,
        args: &BoundArgs,
    ) -> LowerResult<Value> {
        let span = args.call_span;
        match which {
            Decomposition::Solve => self.solve(args),
            Decomposition::Inv => {
                let a = self.square_matrix(&args.get("a"), "inv")?;
                let inverse = self.linalg_node(LinalgOp::Inv, vec![a.id], span)?;
                self.tensor_result(inverse, a.result, span)
            }
            Decomposition::Det => {
                let a = self.square_matrix(&args.get("a"), "det")?;
                let det = self.linalg_node(LinalgOp::Det, vec![a.id], span)?;
                self.tensor_result(det, a.result, span)
            }
            Decomposition::SlogDet => {
                let a = self.square_matrix(&args.get("a"), "slogdet")?;
                let packed = self.linalg_node(LinalgOp::SlogDet, vec![a.id], span)?;
                let sign = self.element(packed, 0, span)?;
                let logabsdet = self.element(packed, 1, span)?;
                Ok(Value::tuple(vec![
                    self.tensor_result(sign, a.result, span)?,
                    self.tensor_result(logabsdet, a.result, span)?,
                ]))
            }
            Decomposition::Cholesky => {
                let a = self.square_matrix(&args.get("a"), "cholesky")?;
                let upper = bool_arg(&args.get("upper"), "upper")?;
                let lower = self.linalg_node(LinalgOp::Cholesky, vec![a.id], span)?;
                let factor = if upper {
                    self.apply("transpose", vec![Value::Tensor(lower)], span)?
                } else {
                    lower
                };
                self.tensor_result(factor, a.result, span)
            }
            Decomposition::Eigh => self.eigh(args),
            Decomposition::MatrixPower => self.matrix_power(args),
            Decomposition::Qr => self.qr(args),
            Decomposition::Svd => self.svd_call(args),
            Decomposition::Lstsq => self.lstsq(args),
            Decomposition::Lu => {
                let a = self.square_matrix(&args.get("a"), "lu")?;
                let n = self.shape(a.id)[0];
                let packed = self.linalg_node(LinalgOp::Lu, vec![a.id], span)?;
                let mut factors = Vec::with_capacity(3);
                for k in 0..3 {
                    let factor = self.slice_axis(packed, 0, k * n, n, span)?;
                    factors.push(self.tensor_result(factor, a.result, span)?);
                }
                Ok(Value::tuple(factors))
            }
        }
    }

    /// A `TileOp::Linalg` node on float64 inputs.
    fn linalg_node(
        &mut self,
        op: LinalgOp,
        inputs: Vec<TileableId>,
        span: Span,
    ) -> LowerResult<TileableId> {
        let shapes: Vec<&[usize]> = inputs.iter().map(|&id| self.shape(id)).collect();
        let shape = linalg_shape(op, &shapes).ok_or_else(|| {
            Diagnostic::error(
                format!("internal error: {} of inputs shaped {shapes:?}", op.name()),
                span,
            )
        })?;
        self.add_derived(TileOp::Linalg(op), inputs, shape, DType::Float64, span)
    }

    /// `id` (float64) as a value of NumPy's result dtype.
    fn tensor_result(&mut self, id: TileableId, dtype: DType, span: Span) -> LowerResult<Value> {
        Ok(Value::Tensor(self.cast(id, dtype, span)?))
    }

    /// An argument that must be a 2-D matrix (NumPy's errors otherwise), as float64.
    fn matrix_arg(&mut self, arg: &Arg, function: &str) -> LowerResult<Matrix> {
        let id = self.tensor_of(arg, None, "`a`")?;
        let ndim = self.shape(id).len();
        if ndim < 2 {
            return Err(Diagnostic::error(
                format!(
                    "LinAlgError: {ndim}-dimensional array given. Array must be at least \
                     two-dimensional"
                ),
                arg.span,
            ));
        }
        if ndim > 2 {
            return Err(Diagnostic::error(
                format!(
                    "not supported yet: `linalg.{function}` of stacked matrices (a tensor with \
                     {ndim} dimensions)"
                ),
                arg.span,
            ));
        }
        if self.shape(id).contains(&0) {
            return Err(Diagnostic::error(
                format!("not supported yet: `linalg.{function}` of an empty matrix"),
                arg.span,
            ));
        }
        let result = float_result(self.dtype(id));
        let id = self.cast(id, DType::Float64, arg.span)?;
        Ok(Matrix { id, result })
    }

    /// A 2-D square matrix argument.
    fn square_matrix(&mut self, arg: &Arg, function: &str) -> LowerResult<Matrix> {
        let matrix = self.matrix_arg(arg, function)?;
        let shape = self.shape(matrix.id);
        if shape[0] != shape[1] {
            return Err(Diagnostic::error(
                "LinAlgError: Last 2 dimensions of the array must be square",
                arg.span,
            ));
        }
        Ok(matrix)
    }

    fn solve(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        let a = self.square_matrix(&args.get("a"), "solve")?;
        let b_arg = args.get("b");
        let b = self.tensor_of(&b_arg, None, "`b`")?;
        let n = self.shape(a.id)[0];
        let b_shape = self.shape(b).to_vec();
        let (signature, name) = match b_shape.len() {
            1 => ("(m,m),(m)->(m)", "solve1"),
            2 => ("(m,m),(m,n)->(m,n)", "solve"),
            0 => {
                return Err(Diagnostic::error(
                    "solve1: Input operand 1 does not have enough dimensions (has 0, gufunc \
                     core with signature (m,m),(m)->(m) requires 1)",
                    b_arg.span,
                ))
            }
            ndim => {
                return Err(Diagnostic::error(
                    format!(
                        "not supported yet: `linalg.solve` of a stacked `b` (a tensor with \
                         {ndim} dimensions)"
                    ),
                    b_arg.span,
                ))
            }
        };
        if b_shape[0] != n {
            return Err(Diagnostic::error(
                format!(
                    "{name}: Input operand 1 has a mismatch in its core dimension 0, with gufunc \
                     signature {signature} (size {} is different from {n})",
                    b_shape[0]
                ),
                b_arg.span,
            ));
        }
        let result = float_result(promote_types(a.result, self.dtype(b)));
        let b = self.cast(b, DType::Float64, b_arg.span)?;
        let x = self.linalg_node(LinalgOp::Solve, vec![a.id, b], span)?;
        self.tensor_result(x, result, span)
    }

    fn eigh(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        let a = self.square_matrix(&args.get("a"), "eigh")?;
        let uplo_arg = args.get("UPLO");
        let uplo = str_arg(&uplo_arg, "UPLO")?;
        let input = match uplo {
            "L" | "l" => a.id,
            // The upper triangle is the lower triangle of the transpose.
            "U" | "u" => self.apply("transpose", vec![Value::Tensor(a.id)], span)?,
            _ => {
                return Err(Diagnostic::error(
                    "UPLO argument must be 'L' or 'U'",
                    uplo_arg.span,
                ))
            }
        };
        let n = self.shape(a.id)[0];
        let packed = self.linalg_node(LinalgOp::Eigh, vec![input], span)?;
        let w = self.element(packed, 0, span)?;
        let v = self.slice_axis(packed, 0, 1, n, span)?;
        Ok(Value::tuple(vec![
            self.tensor_result(w, a.result, span)?,
            self.tensor_result(v, a.result, span)?,
        ]))
    }

    /// NumPy's `matrix_power`: the binary decomposition of `n`, multiplying in
    /// NumPy's order; `n < 0` inverts first; `n == 0` is the identity of `a`'s dtype.
    fn matrix_power(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        let a_arg = args.get("a");
        let a = self.tensor_of(&a_arg, None, "`a`")?;
        let shape = self.shape(a).to_vec();
        match shape.len() {
            0 | 1 => {
                return Err(Diagnostic::error(
                    format!(
                        "LinAlgError: {}-dimensional array given. Array must be at least \
                         two-dimensional",
                        shape.len()
                    ),
                    a_arg.span,
                ))
            }
            2 => {}
            ndim => {
                return Err(Diagnostic::error(
                    format!(
                        "not supported yet: `linalg.matrix_power` of stacked matrices (a \
                         tensor with {ndim} dimensions)"
                    ),
                    a_arg.span,
                ))
            }
        }
        if shape[0] != shape[1] {
            return Err(Diagnostic::error(
                "LinAlgError: Last 2 dimensions of the array must be square",
                a_arg.span,
            ));
        }
        let n_arg = args.get("n");
        let n = match n_arg.value {
            Value::Int(n) => n,
            Value::Bool(b) => i64::from(b),
            _ => {
                return Err(Diagnostic::error(
                    "TypeError: exponent must be an integer",
                    n_arg.span,
                ))
            }
        };
        if n == 0 {
            let eye = self.apply("eye", vec![Value::Int(shape[0] as i64)], span)?;
            return Ok(Value::Tensor(self.cast(eye, self.dtype(a), span)?));
        }
        let mut base = a;
        if n < 0 {
            let matrix = self.square_matrix(&a_arg, "matrix_power")?;
            base = self.linalg_node(LinalgOp::Inv, vec![matrix.id], span)?;
            base = self.cast(base, matrix.result, span)?;
        }
        let mut n = n.unsigned_abs();
        let product = |this: &mut Self, x: TileableId, y: TileableId| {
            this.apply("matmul", vec![Value::Tensor(x), Value::Tensor(y)], span)
        };
        let result = match n {
            1 => base,
            2 => product(self, base, base)?,
            3 => {
                let square = product(self, base, base)?;
                product(self, square, base)?
            }
            _ => {
                let (mut z, mut result) = (None::<TileableId>, None::<TileableId>);
                while n > 0 {
                    let next = match z {
                        None => base,
                        Some(z) => product(self, z, z)?,
                    };
                    z = Some(next);
                    let bit = n % 2;
                    n /= 2;
                    if bit == 1 {
                        result = Some(match result {
                            None => next,
                            Some(r) => product(self, r, next)?,
                        });
                    }
                }
                result.unwrap_or(base)
            }
        };
        Ok(Value::Tensor(result))
    }

    fn qr(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        let a = self.matrix_arg(&args.get("a"), "qr")?;
        let mode_arg = args.get("mode");
        let mode = str_arg(&mode_arg, "mode")?;
        let (m, n) = (self.shape(a.id)[0], self.shape(a.id)[1]);
        match mode {
            "reduced" | "r" => {}
            "complete" if m <= n => {}
            "complete" | "raw" => {
                return Err(Diagnostic::error(
                    format!("not supported yet: `linalg.qr(..., mode='{mode}')`"),
                    mode_arg.span,
                ))
            }
            _ => {
                return Err(Diagnostic::error(
                    format!("Unrecognized mode '{mode}'"),
                    mode_arg.span,
                ))
            }
        }
        let (q, r) = self.qr_tensors(a.id, span)?;
        let r = self.tensor_result(r, a.result, span)?;
        if mode == "r" {
            return Ok(r);
        }
        Ok(Value::tuple(vec![
            self.tensor_result(q, a.result, span)?,
            r,
        ]))
    }

    /// The reduced QR of a float64 matrix: TSQR when it is tall; for a wide one, `q`
    /// from the square matrix of its first columns and `r = triu(q.T @ a)`.
    fn qr_tensors(&mut self, a: TileableId, span: Span) -> LowerResult<(TileableId, TileableId)> {
        let (m, n) = (self.shape(a)[0], self.shape(a)[1]);
        if m >= n {
            let q = self.linalg_node(LinalgOp::QrQ, vec![a], span)?;
            let r = self.linalg_node(LinalgOp::QrR, vec![a], span)?;
            return Ok((q, r));
        }
        let left = self.slice_axis(a, 1, 0, m, span)?;
        let q = self.linalg_node(LinalgOp::QrQ, vec![left], span)?;
        let qt = self.apply("transpose", vec![Value::Tensor(q)], span)?;
        let full = self.apply("matmul", vec![Value::Tensor(qt), Value::Tensor(a)], span)?;
        let r = self.apply("triu", vec![Value::Tensor(full)], span)?;
        Ok((q, r))
    }

    fn svd_call(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        let a_arg = args.get("a");
        let a = self.matrix_arg(&a_arg, "svd")?;
        let full = bool_arg(&args.get("full_matrices"), "full_matrices")?;
        let compute_uv = bool_arg(&args.get("compute_uv"), "compute_uv")?;
        // `hermitian=True` lets NumPy use `eigh`; the SVD gives the same `s`.
        bool_arg(&args.get("hermitian"), "hermitian")?;
        let (m, n) = (self.shape(a.id)[0], self.shape(a.id)[1]);
        if full && compute_uv && m != n {
            return Err(Diagnostic::error(
                "not supported yet: `linalg.svd` with `full_matrices=True` of a non-square \
                 matrix (pass `full_matrices=False`)",
                a_arg.span,
            ));
        }
        let (u, s, vh) = self.svd_tensors(a.id, span)?;
        let s = self.tensor_result(s, a.result, span)?;
        if !compute_uv {
            return Ok(s);
        }
        Ok(Value::tuple(vec![
            self.tensor_result(u, a.result, span)?,
            s,
            self.tensor_result(vh, a.result, span)?,
        ]))
    }

    /// `(u, s, vh)` of a float64 matrix, reduced: TSQR, then the SVD of `R`; a wide
    /// matrix through its transpose.
    pub(super) fn svd_tensors(
        &mut self,
        a: TileableId,
        span: Span,
    ) -> LowerResult<(TileableId, TileableId, TileableId)> {
        let (m, n) = (self.shape(a)[0], self.shape(a)[1]);
        if m < n {
            let at = self.apply("transpose", vec![Value::Tensor(a)], span)?;
            let (u, s, vh) = self.svd_tensors(at, span)?;
            let u_wide = self.apply("transpose", vec![Value::Tensor(vh)], span)?;
            let vh_wide = self.apply("transpose", vec![Value::Tensor(u)], span)?;
            return Ok((u_wide, s, vh_wide));
        }
        let (q, r) = self.qr_tensors(a, span)?;
        let packed = self.linalg_node(LinalgOp::Svd, vec![r], span)?;
        let u_r = self.slice_axis(packed, 0, 0, n, span)?;
        let s = self.element(packed, n, span)?;
        let vh = self.slice_axis(packed, 0, n + 1, n, span)?;
        let u = self.apply("matmul", vec![Value::Tensor(q), Value::Tensor(u_r)], span)?;
        Ok((u, s, vh))
    }

    /// NumPy's `lstsq`: the minimum-norm least-squares solution through the SVD,
    /// singular values at most `rcond * max(s)` taken as zero (`rcond=None` is
    /// machine epsilon times `max(m, n)`); residuals only when the rank is `n < m`
    /// (the rank is computed in a stage, since the residuals' shape depends on it).
    fn lstsq(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        let a = self.matrix_arg(&args.get("a"), "lstsq")?;
        let b_arg = args.get("b");
        let b = self.tensor_of(&b_arg, None, "`b`")?;
        let (m, n) = (self.shape(a.id)[0], self.shape(a.id)[1]);
        let b_shape = self.shape(b).to_vec();
        if !matches!(b_shape.len(), 1 | 2) {
            return Err(Diagnostic::error(
                format!(
                    "not supported yet: `linalg.lstsq` of a `b` with {} dimensions",
                    b_shape.len()
                ),
                b_arg.span,
            ));
        }
        if b_shape[0] != m {
            return Err(Diagnostic::error(
                "LinAlgError: Incompatible dimensions",
                b_arg.span,
            ));
        }
        let result = float_result(promote_types(a.result, self.dtype(b)));
        let rcond_arg = args.get("rcond");
        let rcond = match rcond_arg.value {
            Value::None => f64::EPSILON * m.max(n) as f64,
            Value::Int(v) => v as f64,
            Value::Float(v) => v,
            _ => {
                return Err(Diagnostic::error(
                    "not supported yet: `rcond` must be None or a number",
                    rcond_arg.span,
                ))
            }
        };
        let b = self.cast(b, DType::Float64, b_arg.span)?;
        let vector = b_shape.len() == 1;
        let b2 = if vector {
            self.expand_dims_tensor(b, &[1], span, span)?
        } else {
            b
        };
        let (u, s, vh) = self.svd_tensors(a.id, span)?;
        let top = self.apply("max", vec![Value::Tensor(s)], span)?;
        let cutoff = self.apply(
            "multiply",
            vec![Value::Tensor(top), Value::Float(rcond)],
            span,
        )?;
        let kept = self.apply(
            "greater",
            vec![Value::Tensor(s), Value::Tensor(cutoff)],
            span,
        )?;
        let inverse = self.apply("divide", vec![Value::Float(1.0), Value::Tensor(s)], span)?;
        let inverse = self.apply(
            "where",
            vec![
                Value::Tensor(kept),
                Value::Tensor(inverse),
                Value::Float(0.0),
            ],
            span,
        )?;
        let k = self.shape(s)[0];
        let column = self.apply(
            "reshape",
            vec![Value::Tensor(inverse), Value::int_tuple(&[k, 1])],
            span,
        )?;
        let ut = self.apply("transpose", vec![Value::Tensor(u)], span)?;
        let utb = self.apply("matmul", vec![Value::Tensor(ut), Value::Tensor(b2)], span)?;
        let scaled = self.apply(
            "multiply",
            vec![Value::Tensor(column), Value::Tensor(utb)],
            span,
        )?;
        let v = self.apply("transpose", vec![Value::Tensor(vh)], span)?;
        let x2 = self.apply(
            "matmul",
            vec![Value::Tensor(v), Value::Tensor(scaled)],
            span,
        )?;
        let x = if vector {
            self.squeeze_tensor(x2, Some(&[1]), span, span)?
        } else {
            x2
        };
        let rank = self.apply("count_nonzero", vec![Value::Tensor(kept)], span)?;
        let rank = self.cast(rank, DType::Int32, span)?;
        let full_rank = if m > n {
            match self.staged_scalar(rank, span) {
                Some(Value::Int(r)) => r as usize == n,
                _ => return Ok(Value::Poison),
            }
        } else {
            false
        };
        let residuals = if full_rank {
            let fitted =
                self.apply("matmul", vec![Value::Tensor(a.id), Value::Tensor(x2)], span)?;
            let error = self.apply(
                "subtract",
                vec![Value::Tensor(b2), Value::Tensor(fitted)],
                span,
            )?;
            let squares = self.apply(
                "multiply",
                vec![Value::Tensor(error), Value::Tensor(error)],
                span,
            )?;
            self.apply_args(
                "sum",
                vec![
                    (None, self.arg_at(Value::Tensor(squares), span)),
                    (Some("axis"), self.arg_at(Value::Int(0), span)),
                ],
                span,
            )?
        } else {
            self.apply("zeros", vec![Value::Int(0)], span)?
        };
        Ok(Value::tuple(vec![
            self.tensor_result(x, result, span)?,
            self.tensor_result(residuals, result, span)?,
            Value::Tensor(rank),
            self.tensor_result(s, result, span)?,
        ]))
    }

    /// Row `row` of a 2-D tensor, 1-D.
    fn element(&mut self, packed: TileableId, row: usize, span: Span) -> LowerResult<TileableId> {
        let shape = self.shape(packed).to_vec();
        let mut items = vec![IndexItem::Int(row)];
        let out_shape = shape[1..].to_vec();
        if shape.len() == 2 {
            items.push(IndexItem::Slice {
                start: 0,
                step: 1,
                len: shape[1],
            });
        }
        self.add_derived(
            TileOp::Index { items },
            vec![packed],
            out_shape,
            DType::Float64,
            span,
        )
    }

    /// `ord=2`, `-2` or `'nuc'` of a 2-D float matrix: the largest, the smallest or
    /// the sum of its singular values (for `norm.rs`).
    pub(super) fn singular_value_norm(
        &mut self,
        x: TileableId,
        reduce: &str,
        span: Span,
    ) -> LowerResult<TileableId> {
        let result = self.dtype(x);
        let x = self.cast(x, DType::Float64, span)?;
        let (_, s, _) = self.svd_tensors(x, span)?;
        let norm = self.apply(reduce, vec![Value::Tensor(s)], span)?;
        self.cast(norm, result, span)
    }
}

/// NumPy's result dtype of a linalg function: float32 stays, everything else is
/// float64.
fn float_result(dtype: DType) -> DType {
    if dtype == DType::Float32 {
        DType::Float32
    } else {
        DType::Float64
    }
}
