//! `mt.linalg`'s solvers and decompositions (issue 20): `solve`, `inv`, `det`,
//! `slogdet`, `cholesky`, `eigh`, `matrix_power`, `qr`, `svd`, `pinv`,
//! `matrix_rank` and `lstsq`.
//!
//! Inputs are checked here with NumPy's errors (a matrix that is not 2-D or not
//! square, mismatched `solve`/`lstsq` operands). Stacked matrices `(..., M, N)` are
//! taken where NumPy 2 broadcasts over the leading axes (`solve`, `inv`, `det`,
//! `slogdet`, `cholesky`, `eigh`, `matrix_power`, `qr`, `svd`, `pinv`,
//! `matrix_rank`: the kernels run per matrix of a chunk, and `solve` broadcasts the
//! leading axes of `a` and `b` first), and where SciPy 1.16 batches them (`lu`,
//! `solve_triangular`, whose `b` follows `solve`'s rule); `lstsq` takes one matrix,
//! as NumPy's; `svd_compressed` one, as dask's ("not supported yet" for a stack).
//! Ints and bools compute in float64 and float32 in float64 then back to float32
//! (NumPy computes float32 in single precision: results agree within float32's
//! rounding). The kernels (`TileOp::Linalg`, `tile/linalg.rs`) gather a
//! whole matrix into one chunk, except `qr`, which is TSQR over row chunks. Results
//! a kernel packs into one matrix (`eigh`, `slogdet`, the small `svd`) are sliced
//! apart here. Everything else is composed from existing ops as NumPy's own code
//! does: `matrix_power` by repeated squaring, `svd` as TSQR then the SVD of `R`
//! (`u = q @ u_r`), a wide matrix's `svd` through its transpose, `lstsq` from the SVD
//! (LAPACK's `gelsd`, which NumPy calls, is an SVD solver too). `qr`, `svd`, `eigh`
//! and `slogdet` give NumPy 2's named tuples (`QRResult(Q=..., R=...)`, fields by
//! name); `lstsq` and `lu` plain tuples, as NumPy's and SciPy's.

use super::bind::{Arg, BoundArgs};
use super::convert::{bool_arg, int_arg, shape_text, str_arg};
use super::value::{Value, EIGH_RESULT, QR_RESULT, SLOGDET_RESULT, SVD_RESULT};
use super::{LowerResult, Lowerer};
use crate::infer::dtypes::promote_types;
use crate::infer::linalg::linalg_shape;
use crate::infer::shapes::broadcast_shapes;
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
    SolveTriangular,
    SvdCompressed,
    Pinv,
    MatrixRank,
}

/// A matrix argument made float64, with the dtype NumPy's result has.
struct Matrix {
    id: TileableId,
    result: DType,
}

/// The `(u, s, vh)` tensors of a singular value decomposition.
type Svd = (TileableId, TileableId, TileableId);

/// NumPy's `LinAlgError` for an argument of fewer than two dimensions.
fn at_least_2d(ndim: usize, span: Span) -> LowerResult<()> {
    if ndim < 2 {
        return Err(Diagnostic::error(
            format!(
                "LinAlgError: {ndim}-dimensional array given. Array must be at least \
                 two-dimensional"
            ),
            span,
        ));
    }
    Ok(())
}

/// NumPy's `LinAlgError` for matrices (of at least two dimensions) that are not square.
fn last_two_square(shape: &[usize], span: Span) -> LowerResult<()> {
    let ndim = shape.len();
    if shape[ndim - 2] != shape[ndim - 1] {
        return Err(Diagnostic::error(
            "LinAlgError: Last 2 dimensions of the array must be square",
            span,
        ));
    }
    Ok(())
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
                let last = self.shape(packed).len() - 1;
                let sign = self.take_at(packed, last, 0, span)?;
                let logabsdet = self.take_at(packed, last, 1, span)?;
                Ok(Value::named_tuple(
                    &SLOGDET_RESULT,
                    vec![
                        self.tensor_result(sign, a.result, span)?,
                        self.tensor_result(logabsdet, a.result, span)?,
                    ],
                ))
            }
            Decomposition::Cholesky => {
                let a = self.square_matrix(&args.get("a"), "cholesky")?;
                let upper = bool_arg(&args.get("upper"), "upper")?;
                let lower = self.linalg_node(LinalgOp::Cholesky, vec![a.id], span)?;
                let factor = if upper {
                    self.matrix_transpose(lower, span)?
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
            Decomposition::SolveTriangular => self.solve_triangular(args),
            Decomposition::SvdCompressed => self.svd_compressed(args),
            Decomposition::Pinv => self.pinv(args),
            Decomposition::MatrixRank => self.matrix_rank(args),
            Decomposition::Lu => {
                // SciPy's `lu` of a stack: `p`, `l` and `u` of each matrix, packed
                // along the rows axis.
                let a = self.square_matrix(&args.get("a"), "lu")?;
                let shape = self.shape(a.id).to_vec();
                let (rows, n) = (shape.len() - 2, shape[shape.len() - 1]);
                let packed = self.linalg_node(LinalgOp::Lu, vec![a.id], span)?;
                let mut factors = Vec::with_capacity(3);
                for k in 0..3 {
                    let factor = self.slice_axis(packed, rows, k * n, n, span)?;
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
        self.matrix_or_stack(arg, function, stacks(function))
    }

    /// A 2-D matrix argument, or a stack of them when `stacked`, as float64.
    fn matrix_or_stack(&mut self, arg: &Arg, function: &str, stacked: bool) -> LowerResult<Matrix> {
        let id = self.tensor_of(arg, None, "`a`")?;
        let ndim = self.shape(id).len();
        at_least_2d(ndim, arg.span)?;
        if ndim > 2 && !stacked {
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
        if self.dtype(id) == DType::Float16 {
            return Err(Diagnostic::error(
                "array type float16 is unsupported in linalg",
                arg.span,
            ));
        }
        let result = float_result(self.dtype(id));
        let id = self.cast(id, DType::Float64, arg.span)?;
        Ok(Matrix { id, result })
    }

    /// A square matrix argument (a stack of them where NumPy takes one).
    fn square_matrix(&mut self, arg: &Arg, function: &str) -> LowerResult<Matrix> {
        let matrix = self.matrix_arg(arg, function)?;
        last_two_square(self.shape(matrix.id), arg.span)?;
        Ok(matrix)
    }

    /// NumPy 2's `solve`: a 1-D `b` is one vector for every matrix of `a`; otherwise
    /// `b` is `(..., M, K)` and the leading axes of `a` and `b` broadcast.
    fn solve(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        let a = self.square_matrix(&args.get("a"), "solve")?;
        let b_arg = args.get("b");
        let b = self.tensor_of(&b_arg, None, "`b`")?;
        let a_shape = self.shape(a.id).to_vec();
        let n = a_shape[a_shape.len() - 1];
        let a_lead = a_shape[..a_shape.len() - 2].to_vec();
        let b_shape = self.shape(b).to_vec();
        let (signature, name) = match b_shape.len() {
            1 => ("(m,m),(m)->(m)", "solve1"),
            0 => {
                return Err(Diagnostic::error(
                    "solve1: Input operand 1 does not have enough dimensions (has 0, gufunc \
                     core with signature (m,m),(m)->(m) requires 1)",
                    b_arg.span,
                ))
            }
            _ => ("(m,m),(m,n)->(m,n)", "solve"),
        };
        let core = b_shape[b_shape.len().saturating_sub(2)];
        if core != n {
            return Err(Diagnostic::error(
                format!(
                    "{name}: Input operand 1 has a mismatch in its core dimension 0, with gufunc \
                     signature {signature} (size {core} is different from {n})"
                ),
                b_arg.span,
            ));
        }
        let result = float_result(promote_types(a.result, self.dtype(b)));
        let b = self.cast(b, DType::Float64, b_arg.span)?;
        if b_shape.len() == 1 && a_lead.is_empty() {
            let x = self.linalg_node(LinalgOp::Solve, vec![a.id, b], span)?;
            return self.tensor_result(x, result, span);
        }
        // A vector `b` is a one-column matrix here, its column squeezed away after.
        let vector = b_shape.len() == 1;
        let (b, b_core) = if vector {
            (self.expand_dims_tensor(b, &[1], span, span)?, vec![n, 1])
        } else {
            (b, b_shape[b_shape.len() - 2..].to_vec())
        };
        let b_lead = if vector {
            Vec::new()
        } else {
            b_shape[..b_shape.len() - 2].to_vec()
        };
        let lead = broadcast_shapes(&[&a_lead, &b_lead]).map_err(|_| {
            let remapped = |shape: &[usize], lead: usize| {
                let mut items: Vec<String> = shape[..lead].iter().map(usize::to_string).collect();
                items.extend(["newaxis".to_string(), "newaxis".to_string()]);
                format!("({})", items.join(","))
            };
            let text = |shape: &[usize]| {
                let items: Vec<String> = shape.iter().map(usize::to_string).collect();
                format!("({})", items.join(","))
            };
            Diagnostic::error(
                format!(
                    "operands could not be broadcast together with remapped shapes \
                     [original->remapped]: {}->{} {}->{}  and requested shape {}",
                    text(&a_shape),
                    remapped(&a_shape, a_lead.len()),
                    text(&b_shape),
                    remapped(&b_shape, b_lead.len()),
                    text(&b_core),
                ),
                span,
            )
        })?;
        let broadcast = |this: &mut Self, id: TileableId, core: &[usize]| {
            let mut shape = lead.clone();
            shape.extend_from_slice(core);
            if this.shape(id) == shape.as_slice() {
                return Ok(id);
            }
            this.apply(
                "broadcast_to",
                vec![Value::Tensor(id), Value::int_tuple(&shape)],
                span,
            )
        };
        let a_full = broadcast(self, a.id, &[n, n])?;
        let b_full = broadcast(self, b, &b_core)?;
        let mut x = self.linalg_node(LinalgOp::Solve, vec![a_full, b_full], span)?;
        if vector {
            let last = self.shape(x).len() - 1;
            x = self.squeeze_tensor(x, Some(&[last as i64]), span, span)?;
        }
        self.tensor_result(x, result, span)
    }

    /// SciPy's (and Mars's) `solve_triangular(a, b, lower=False)`: `x` with `t @ x =
    /// b`, `t` the lower or upper triangle of `a` (the other is never read). Stacks as
    /// SciPy 1.16 batches it: `a` is `(..., M, M)`; a 1-D `b` is one vector for every
    /// matrix, otherwise `b` is `(..., M, K)`; the leading axes of both broadcast.
    fn solve_triangular(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        let a_arg = args.get("a");
        let a = self.tensor_of(&a_arg, None, "`a`")?;
        let a_shape = self.shape(a).to_vec();
        let ndim = a_shape.len();
        if ndim < 2 || a_shape[ndim - 2] != a_shape[ndim - 1] {
            return Err(Diagnostic::error("expected square matrix", a_arg.span));
        }
        let n = a_shape[ndim - 1];
        let a = self.matrix_arg(&a_arg, "solve_triangular")?;
        let b_arg = args.get("b");
        let b = self.tensor_of(&b_arg, None, "`b`")?;
        let b_shape = self.shape(b).to_vec();
        let vector = b_shape.len() < 2;
        let (b_lead, b_core) = if vector {
            (Vec::new(), b_shape.clone())
        } else {
            let split = b_shape.len() - 2;
            (b_shape[..split].to_vec(), b_shape[split..].to_vec())
        };
        let a_lead = a_shape[..ndim - 2].to_vec();
        // SciPy broadcasts the batch shapes before it looks at a matrix.
        let lead = broadcast_shapes(&[&a_lead, &b_lead]).map_err(|_| {
            Diagnostic::error(
                format!(
                    "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch \
                     is between arg 0 with shape {} and arg 1 with shape {}.",
                    shape_text(&a_lead),
                    shape_text(&b_lead)
                ),
                span,
            )
        })?;
        if b_core.first() != Some(&n) {
            return Err(Diagnostic::error(
                format!(
                    "shapes of a {} and b {} are incompatible",
                    shape_text(&a_shape[ndim - 2..]),
                    shape_text(&b_core)
                ),
                b_arg.span,
            ));
        }
        let lower = bool_arg(&args.get("lower"), "lower")?;
        let result = float_result(promote_types(a.result, self.dtype(b)));
        let b = self.cast(b, DType::Float64, b_arg.span)?;
        let op = LinalgOp::SolveTriangular { lower };
        if lead.is_empty() {
            let x = self.linalg_node(op, vec![a.id, b], span)?;
            return self.tensor_result(x, result, span);
        }
        let (a_full, b_full) = self.broadcast_matrices(a.id, b, &lead, vector, span)?;
        let mut x = self.linalg_node(op, vec![a_full, b_full], span)?;
        if vector {
            let last = self.shape(x).len() - 1;
            x = self.squeeze_tensor(x, Some(&[last as i64]), span, span)?;
        }
        self.tensor_result(x, result, span)
    }

    /// `a` `(..., n, n)` and `b` broadcast to the leading axes `lead`: `b` a vector
    /// `(n,)` made one column `(lead..., n, 1)` (the caller squeezes it from the
    /// result), otherwise `(..., n, k)` made `(lead..., n, k)`.
    fn broadcast_matrices(
        &mut self,
        a: TileableId,
        b: TileableId,
        lead: &[usize],
        vector: bool,
        span: Span,
    ) -> LowerResult<(TileableId, TileableId)> {
        let b = if vector {
            self.expand_dims_tensor(b, &[1], span, span)?
        } else {
            b
        };
        let broadcast = |this: &mut Self, id: TileableId| {
            let shape = this.shape(id).to_vec();
            let mut target = lead.to_vec();
            target.extend_from_slice(&shape[shape.len() - 2..]);
            if shape == target {
                return Ok(id);
            }
            this.apply(
                "broadcast_to",
                vec![Value::Tensor(id), Value::int_tuple(&target)],
                span,
            )
        };
        Ok((broadcast(self, a)?, broadcast(self, b)?))
    }

    fn eigh(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        let a = self.square_matrix(&args.get("a"), "eigh")?;
        let uplo_arg = args.get("UPLO");
        let uplo = str_arg(&uplo_arg, "UPLO")?;
        let input = match uplo {
            "L" | "l" => a.id,
            // The upper triangle is the lower triangle of the transpose.
            "U" | "u" => self.matrix_transpose(a.id, span)?,
            _ => {
                return Err(Diagnostic::error(
                    "UPLO argument must be 'L' or 'U'",
                    uplo_arg.span,
                ))
            }
        };
        let n = *self.shape(a.id).last().unwrap_or(&0);
        let packed = self.linalg_node(LinalgOp::Eigh, vec![input], span)?;
        let rows = self.shape(packed).len() - 2;
        let w = self.take_at(packed, rows, 0, span)?;
        let v = self.slice_axis(packed, rows, 1, n, span)?;
        Ok(Value::named_tuple(
            &EIGH_RESULT,
            vec![
                self.tensor_result(w, a.result, span)?,
                self.tensor_result(v, a.result, span)?,
            ],
        ))
    }

    /// NumPy's `matrix_power`: the binary decomposition of `n`, multiplying in
    /// NumPy's order; `n < 0` inverts first; `n == 0` is the identity of `a`'s dtype.
    fn matrix_power(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        let a_arg = args.get("a");
        let a = self.tensor_of(&a_arg, None, "`a`")?;
        let shape = self.shape(a).to_vec();
        let ndim = shape.len();
        at_least_2d(ndim, a_arg.span)?;
        last_two_square(&shape, a_arg.span)?;
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
            let eye = self.apply("eye", vec![Value::Int(shape[ndim - 1] as i64)], span)?;
            let eye = self.cast(eye, self.dtype(a), span)?;
            if ndim == 2 {
                return Ok(Value::Tensor(eye));
            }
            let stack = self.apply(
                "broadcast_to",
                vec![Value::Tensor(eye), Value::int_tuple(&shape)],
                span,
            )?;
            return Ok(Value::Tensor(stack));
        }
        let mut base = a;
        if n < 0 {
            let matrix = self.square_matrix(&a_arg, "matrix_power")?;
            base = self.linalg_node(LinalgOp::Inv, vec![matrix.id], span)?;
            base = self.cast(base, matrix.result, span)?;
        }
        let mut n = n.unsigned_abs();
        // Stacked matrices multiply pairwise along the leading axes.
        let product = |this: &mut Self, x: TileableId, y: TileableId| {
            if ndim == 2 {
                return this.apply("matmul", vec![Value::Tensor(x), Value::Tensor(y)], span);
            }
            // Booleans as NumPy's matmul takes them: any of the pairwise ands, here
            // a sum of int products that is not zero.
            let boolean = this.dtype(x).is_bool();
            let (x, y) = if boolean {
                (
                    this.cast(x, DType::Int64, span)?,
                    this.cast(y, DType::Int64, span)?,
                )
            } else {
                (x, y)
            };
            let product = this.apply(
                "einsum",
                vec![
                    Value::Str("...ij,...jk->...ik".into()),
                    Value::Tensor(x),
                    Value::Tensor(y),
                ],
                span,
            )?;
            if boolean {
                this.apply(
                    "not_equal",
                    vec![Value::Tensor(product), Value::Int(0)],
                    span,
                )
            } else {
                Ok(product)
            }
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

    /// NumPy's `qr` modes: `'reduced'` (and its deprecated alias `'full'`), `'r'`, and
    /// `'complete'`, whose `q` of a tall matrix is square: one kernel on the whole
    /// matrix (faer's Householder QR), since `q` is `(m, m)` anyway.
    fn qr(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        let a = self.matrix_arg(&args.get("a"), "qr")?;
        let mode_arg = args.get("mode");
        let mode = str_arg(&mode_arg, "mode")?;
        let shape = self.shape(a.id).to_vec();
        let ndim = shape.len();
        let (m, n) = (shape[ndim - 2], shape[ndim - 1]);
        let (q, r) = match mode {
            "reduced" | "r" | "full" | "f" | "complete" if ndim > 2 => {
                self.stacked_qr(a.id, mode == "complete", span)?
            }
            "reduced" | "r" | "full" | "f" => self.qr_tensors(a.id, span)?,
            "complete" if m <= n => self.qr_tensors(a.id, span)?,
            "complete" => {
                let packed = self.linalg_node(LinalgOp::QrComplete, vec![a.id], span)?;
                let q = self.slice_axis(packed, 1, 0, m, span)?;
                let r = self.slice_axis(packed, 1, m, n, span)?;
                (q, r)
            }
            "raw" | "economic" | "e" => {
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
        };
        let r = self.tensor_result(r, a.result, span)?;
        if mode == "r" {
            return Ok(r);
        }
        Ok(Value::named_tuple(
            &QR_RESULT,
            vec![self.tensor_result(q, a.result, span)?, r],
        ))
    }

    /// `(q, r)` of each matrix of a float64 stack `(..., m, n)`: one kernel per matrix
    /// (faer's Householder QR, as LAPACK's), the packed result sliced apart.
    fn stacked_qr(
        &mut self,
        a: TileableId,
        complete: bool,
        span: Span,
    ) -> LowerResult<(TileableId, TileableId)> {
        let shape = self.shape(a).to_vec();
        let (rows, columns) = (shape.len() - 2, shape.len() - 1);
        let (m, n) = (shape[rows], shape[columns]);
        if complete {
            let packed = self.linalg_node(LinalgOp::QrComplete, vec![a], span)?;
            let q = self.slice_axis(packed, columns, 0, m, span)?;
            let r = self.slice_axis(packed, columns, m, n, span)?;
            return Ok((q, r));
        }
        let k = m.min(n);
        let packed = self.linalg_node(LinalgOp::QrReduced, vec![a], span)?;
        let q_rows = self.slice_axis(packed, rows, 0, m, span)?;
        let q = self.slice_axis(q_rows, columns, 0, k, span)?;
        let r = self.slice_axis(packed, rows, m, k, span)?;
        Ok((q, r))
    }

    /// `(u, s, vh)` of each matrix of a float64 stack `(..., m, n)`, `full_matrices`
    /// or not: one kernel per matrix, the packed result sliced apart.
    fn stacked_svd(&mut self, a: TileableId, full: bool, span: Span) -> LowerResult<Svd> {
        let shape = self.shape(a).to_vec();
        let (rows, columns) = (shape.len() - 2, shape.len() - 1);
        let (m, n) = (shape[rows], shape[columns]);
        let k = m.min(n);
        let (ku, kv) = if full { (m, n) } else { (k, k) };
        let packed = self.linalg_node(LinalgOp::SvdFactors { full }, vec![a], span)?;
        let u_rows = self.slice_axis(packed, rows, 0, m, span)?;
        let u = self.slice_axis(u_rows, columns, 0, ku, span)?;
        let s_row = self.take_at(packed, rows, m, span)?;
        let s = self.slice_axis(s_row, rows, 0, k, span)?;
        let vh_rows = self.slice_axis(packed, rows, m + 1, kv, span)?;
        let vh = self.slice_axis(vh_rows, columns, 0, n, span)?;
        Ok((u, s, vh))
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
        let full = bool_arg(&args.get("full_matrices"), "full_matrices")?;
        let compute_uv = bool_arg(&args.get("compute_uv"), "compute_uv")?;
        // `hermitian=True` lets NumPy use `eigh`; the SVD gives the same `s`.
        bool_arg(&args.get("hermitian"), "hermitian")?;
        // A stack of matrices: one kernel per matrix.
        let a = self.matrix_or_stack(&a_arg, "svd", true)?;
        if self.shape(a.id).len() > 2 && !compute_uv {
            let s = self.linalg_node(LinalgOp::SvdValues, vec![a.id], span)?;
            return self.tensor_result(s, a.result, span);
        }
        let ndim = self.shape(a.id).len();
        let (m, n) = (self.shape(a.id)[ndim - 2], self.shape(a.id)[ndim - 1]);
        let (u, s, vh) = if ndim > 2 {
            self.stacked_svd(a.id, full, span)?
        } else if full && compute_uv && m != n {
            self.svd_full_tensors(a.id, span)?
        } else {
            self.svd_tensors(a.id, span)?
        };
        let s = self.tensor_result(s, a.result, span)?;
        if !compute_uv {
            return Ok(s);
        }
        Ok(Value::named_tuple(
            &SVD_RESULT,
            vec![
                self.tensor_result(u, a.result, span)?,
                s,
                self.tensor_result(vh, a.result, span)?,
            ],
        ))
    }

    /// The SVD of a wide matrix from `svd` of its (tall) transpose: `a = u s vh` where
    /// `a.T = u_t s vh_t`, so `u = vh_t.T` and `vh = u_t.T`.
    fn svd_of_transpose(
        &mut self,
        a: TileableId,
        span: Span,
        svd: fn(&mut Self, TileableId, Span) -> LowerResult<Svd>,
    ) -> LowerResult<Svd> {
        let at = self.apply("transpose", vec![Value::Tensor(a)], span)?;
        let (u, s, vh) = svd(self, at, span)?;
        let u_wide = self.apply("transpose", vec![Value::Tensor(vh)], span)?;
        let vh_wide = self.apply("transpose", vec![Value::Tensor(u)], span)?;
        Ok((u_wide, s, vh_wide))
    }

    /// `(u, s, vh)` of a non-square float64 matrix with NumPy's `full_matrices=True`:
    /// for a tall one, the complete QR `a = q [r; 0]` and the SVD `r = u_r s vh` give
    /// `u = [q[:, :n] @ u_r, q[:, n:]]` (`(m, m)`); a wide one through its transpose.
    fn svd_full_tensors(
        &mut self,
        a: TileableId,
        span: Span,
    ) -> LowerResult<(TileableId, TileableId, TileableId)> {
        let (m, n) = (self.shape(a)[0], self.shape(a)[1]);
        if m < n {
            return self.svd_of_transpose(a, span, Self::svd_full_tensors);
        }
        let packed = self.linalg_node(LinalgOp::QrComplete, vec![a], span)?;
        let q = self.slice_axis(packed, 1, 0, n, span)?;
        let rest = self.slice_axis(packed, 1, n, m - n, span)?;
        let r_rows = self.slice_axis(packed, 0, 0, n, span)?;
        let r = self.slice_axis(r_rows, 1, m, n, span)?;
        let svd = self.linalg_node(LinalgOp::Svd, vec![r], span)?;
        let u_r = self.slice_axis(svd, 0, 0, n, span)?;
        let s = self.element(svd, n, span)?;
        let vh = self.slice_axis(svd, 0, n + 1, n, span)?;
        let u_left = self.apply("matmul", vec![Value::Tensor(q), Value::Tensor(u_r)], span)?;
        let u = self.apply_args(
            "concatenate",
            vec![
                (
                    None,
                    self.arg_at(
                        Value::tuple(vec![Value::Tensor(u_left), Value::Tensor(rest)]),
                        span,
                    ),
                ),
                (Some("axis"), self.arg_at(Value::Int(1), span)),
            ],
            span,
        )?;
        Ok((u, s, vh))
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
            return self.svd_of_transpose(a, span, Self::svd_tensors);
        }
        let (q, r) = self.qr_tensors(a, span)?;
        let packed = self.linalg_node(LinalgOp::Svd, vec![r], span)?;
        let u_r = self.slice_axis(packed, 0, 0, n, span)?;
        let s = self.element(packed, n, span)?;
        let vh = self.slice_axis(packed, 0, n + 1, n, span)?;
        let u = self.apply("matmul", vec![Value::Tensor(q), Value::Tensor(u_r)], span)?;
        Ok((u, s, vh))
    }

    /// Each matrix's largest singular value, `s.max(axis=-1, keepdims=True)`, for the
    /// cutoffs of `pinv`, `lstsq` and `matrix_rank`.
    fn largest_singular_values(&mut self, s: TileableId, span: Span) -> LowerResult<TileableId> {
        self.apply_args(
            "amax",
            vec![
                (None, self.arg_at(Value::Tensor(s), span)),
                (Some("axis"), self.arg_at(Value::Int(-1), span)),
                (Some("keepdims"), self.arg_at(Value::Bool(true), span)),
            ],
            span,
        )
    }

    /// Which singular values a pseudo-inverse and `lstsq` keep (`s > rcond * top`, `top`
    /// the largest, broadcast against `s`) and their reciprocals (0 where not kept).
    fn kept_reciprocals(
        &mut self,
        s: TileableId,
        top: TileableId,
        rcond: f64,
        span: Span,
    ) -> LowerResult<(TileableId, TileableId)> {
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
        Ok((kept, inverse))
    }

    /// NumPy 2's `pinv(a, rcond=None, hermitian=False, *, rtol)`: from the reduced
    /// SVD of each matrix, singular values at most `rcond * max(s)` taken as zero
    /// (`rcond` is `rtol` when `rcond` is None: by default 1e-15, and for `rtol=None`
    /// machine epsilon times `max(m, n)`), `vh.T @ (1/s * u.T)` per matrix.
    fn pinv(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        let a = self.matrix_arg(&args.get("a"), "pinv")?;
        bool_arg(&args.get("hermitian"), "hermitian")?;
        let shape = self.shape(a.id).to_vec();
        let ndim = shape.len();
        let (m, n) = (shape[ndim - 2], shape[ndim - 1]);
        let rcond = match number_or_none(&args.get("rcond"), "rcond")? {
            Some(rcond) => rcond,
            None => number_or_none(&args.get("rtol"), "rtol")?
                .unwrap_or(epsilon(a.result) * m.max(n) as f64),
        };
        let (u, s, vh) = if ndim == 2 {
            self.svd_tensors(a.id, span)?
        } else {
            self.stacked_svd(a.id, false, span)?
        };
        let top = self.largest_singular_values(s, span)?;
        let (_, inverse) = self.kept_reciprocals(s, top, rcond, span)?;
        let pinv = self.apply(
            "einsum",
            vec![
                Value::Str("...ji,...j,...lj->...il".into()),
                Value::Tensor(vh),
                Value::Tensor(inverse),
                Value::Tensor(u),
            ],
            span,
        )?;
        self.tensor_result(pinv, a.result, span)
    }

    /// NumPy 2's `matrix_rank(A, tol=None, hermitian=False, *, rtol=None)`: the
    /// singular values of each matrix above `tol` (by default `rtol * max(s)`, `rtol`
    /// by default machine epsilon of the values' dtype times `max(m, n)`), counted; a
    /// vector or scalar has rank 1 unless it is all zeros.
    fn matrix_rank(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        let a_arg = args.get("A");
        let id = self.tensor_of(&a_arg, None, "`A`")?;
        bool_arg(&args.get("hermitian"), "hermitian")?;
        let tol_arg = args.get("tol");
        let tol = number_or_none(&tol_arg, "tol")?;
        let rtol = number_or_none(&args.get("rtol"), "rtol")?;
        if tol.is_some() && rtol.is_some() {
            return Err(Diagnostic::error(
                "ValueError: `tol` and `rtol` can't be both set.",
                tol_arg.span,
            ));
        }
        let shape = self.shape(id).to_vec();
        let ndim = shape.len();
        if ndim < 2 {
            let nonzero = self.apply("any", vec![Value::Tensor(id)], span)?;
            return Ok(Value::Tensor(self.cast(nonzero, DType::Int64, span)?));
        }
        let a = self.matrix_arg(&a_arg, "matrix_rank")?;
        let (m, n) = (shape[ndim - 2], shape[ndim - 1]);
        let s = self.linalg_node(LinalgOp::SvdValues, vec![a.id], span)?;
        // The values in NumPy's dtype (float32 stays), compared in it.
        let s = self.cast(s, a.result, span)?;
        let tol = match tol {
            Some(tol) => Value::Float(tol),
            None => {
                let rtol = rtol.unwrap_or(epsilon(a.result) * m.max(n) as f64);
                let top = self.largest_singular_values(s, span)?;
                Value::Tensor(self.apply(
                    "multiply",
                    vec![Value::Tensor(top), Value::Float(rtol)],
                    span,
                )?)
            }
        };
        let above = self.apply("greater", vec![Value::Tensor(s), tol], span)?;
        let rank = self.apply_args(
            "count_nonzero",
            vec![
                (None, self.arg_at(Value::Tensor(above), span)),
                (Some("axis"), self.arg_at(Value::Int(-1), span)),
            ],
            span,
        )?;
        Ok(Value::Tensor(rank))
    }

    /// NumPy's `lstsq`: the minimum-norm least-squares solution through the SVD,
    /// singular values at most `rcond * max(s)` taken as zero (`rcond=None` is
    /// machine epsilon times `max(m, n)`); residuals only when the rank is `n < m`
    /// (the rank is computed in a stage, since the residuals' shape depends on it).
    fn lstsq(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        let a_arg = args.get("a");
        if let Value::Tensor(id) = a_arg.value {
            // NumPy's `lstsq` takes one matrix, not a stack.
            let ndim = self.shape(id).len();
            if ndim > 2 {
                return Err(Diagnostic::error(
                    format!(
                        "LinAlgError: {ndim}-dimensional array given. Array must be \
                         two-dimensional"
                    ),
                    a_arg.span,
                ));
            }
        }
        let a = self.matrix_arg(&a_arg, "lstsq")?;
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
        let (kept, inverse) = self.kept_reciprocals(s, top, rcond, span)?;
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

    /// dask.array's `svd_compressed(a, k, ...)`: the randomized SVD of Halko, Martinsson
    /// and Tropp, composed as dask composes it. A Gaussian test matrix `omega`
    /// `(n, l)`, `l = min(max(20, k + n_oversamples), min(m, n))`, gives the range
    /// `q` of `a @ omega` (TSQR), refined by `n_power_iter` power iterations (a QR
    /// between each product); then the SVD of the small `q.T @ a` (through the TSQR
    /// SVD of its transpose) lifted back by `q`, the first `k` triplets kept, and the
    /// signs made those of dask's `svd_flip` (each row of `vh` sums to >= 0). Exact,
    /// up to rounding, for a matrix of rank at most `l`.
    fn svd_compressed(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        let a_arg = args.get("a");
        let a = self.matrix_arg(&a_arg, "svd_compressed")?;
        let (m, n) = (self.shape(a.id)[0], self.shape(a.id)[1]);
        let k_arg = args.get("k");
        let k = int_arg(&k_arg, "k")?;
        if k < 1 {
            return Err(Diagnostic::error(
                format!("not supported yet: `k` = {k} (the number of singular values must be at least 1)"),
                k_arg.span,
            ));
        }
        let iterator_arg = args.get("iterator");
        let iterator = str_arg(&iterator_arg, "iterator")?;
        if iterator != "power" {
            return Err(Diagnostic::error(
                format!("not supported yet: `iterator='{iterator}'` (only 'power')"),
                iterator_arg.span,
            ));
        }
        let count = |this: &BoundArgs, name: &str| -> LowerResult<usize> {
            let arg = this.get(name);
            let value = int_arg(&arg, name)?;
            usize::try_from(value)
                .map_err(|_| Diagnostic::error(format!("`{name}` must be non-negative"), arg.span))
        };
        let power_iterations = count(args, "n_power_iter")?;
        let oversamples = count(args, "n_oversamples")?;
        let seed_arg = args.get("seed");
        let seed = match seed_arg.value {
            Value::None => None,
            _ => Some(self.seed_value(&seed_arg)?),
        };
        bool_arg(&args.get("compute"), "compute")?;
        let coerce_signs = bool_arg(&args.get("coerce_signs"), "coerce_signs")?;
        let l = (k as usize + oversamples).max(20).min(m.min(n));
        let k = (k as usize).min(l);
        let omega = self.standard_normal_draws(vec![n, l], seed, span)?;
        let matmul = |this: &mut Self, x: TileableId, y: TileableId| {
            this.apply("matmul", vec![Value::Tensor(x), Value::Tensor(y)], span)
        };
        let transpose =
            |this: &mut Self, x: TileableId| this.apply("transpose", vec![Value::Tensor(x)], span);
        let a_t = transpose(self, a.id)?;
        let mut y = matmul(self, a.id, omega)?;
        for _ in 0..power_iterations {
            let (q, _) = self.qr_tensors(y, span)?;
            let z = matmul(self, a_t, q)?;
            let (q, _) = self.qr_tensors(z, span)?;
            y = matmul(self, a.id, q)?;
        }
        let (q, _) = self.qr_tensors(y, span)?;
        let q_t = transpose(self, q)?;
        let small = matmul(self, q_t, a.id)?;
        let small_t = transpose(self, small)?;
        // small.T = v s w.T, so a ~ q small = (q w) s v.T.
        let (v, s, w_t) = self.svd_tensors(small_t, span)?;
        let w = transpose(self, w_t)?;
        let u = matmul(self, q, w)?;
        let mut u = self.slice_axis(u, 1, 0, k, span)?;
        let s = self.slice_axis(s, 0, 0, k, span)?;
        let vh = transpose(self, v)?;
        let mut vh = self.slice_axis(vh, 0, 0, k, span)?;
        if coerce_signs {
            let sums = self.apply_args(
                "sum",
                vec![
                    (None, self.arg_at(Value::Tensor(vh), span)),
                    (Some("axis"), self.arg_at(Value::Int(1), span)),
                ],
                span,
            )?;
            let positive = self.apply(
                "greater_equal",
                vec![Value::Tensor(sums), Value::Float(0.0)],
                span,
            )?;
            let signs = self.apply(
                "where",
                vec![
                    Value::Tensor(positive),
                    Value::Float(1.0),
                    Value::Float(-1.0),
                ],
                span,
            )?;
            u = self.apply(
                "multiply",
                vec![Value::Tensor(u), Value::Tensor(signs)],
                span,
            )?;
            let column = self.expand_dims_tensor(signs, &[1], span, span)?;
            vh = self.apply(
                "multiply",
                vec![Value::Tensor(vh), Value::Tensor(column)],
                span,
            )?;
        }
        Ok(Value::tuple(vec![
            self.tensor_result(u, a.result, span)?,
            self.tensor_result(s, a.result, span)?,
            self.tensor_result(vh, a.result, span)?,
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

    /// Element `k` along `axis` of `packed`, that axis dropped.
    fn take_at(
        &mut self,
        packed: TileableId,
        axis: usize,
        k: usize,
        span: Span,
    ) -> LowerResult<TileableId> {
        let shape = self.shape(packed).to_vec();
        let items = shape
            .iter()
            .enumerate()
            .map(|(i, &len)| {
                if i == axis {
                    IndexItem::Int(k)
                } else {
                    IndexItem::Slice {
                        start: 0,
                        step: 1,
                        len,
                    }
                }
            })
            .collect();
        let mut out_shape = shape;
        out_shape.remove(axis);
        self.add_derived(
            TileOp::Index { items },
            vec![packed],
            out_shape,
            DType::Float64,
            span,
        )
    }

    /// The transpose of each matrix of a stack (its last two axes swapped).
    fn matrix_transpose(&mut self, a: TileableId, span: Span) -> LowerResult<TileableId> {
        self.apply(
            "swapaxes",
            vec![Value::Tensor(a), Value::Int(-1), Value::Int(-2)],
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

impl Lowerer<'_> {
    /// `ord=2`, `-2` or `'nuc'` over axes `row` and `column` of a tensor of more than
    /// two dimensions: the singular values of each matrix (one kernel per chunk of
    /// whole matrices, the other axes in order first), reduced by `reduce`.
    pub(super) fn stacked_singular_value_norm(
        &mut self,
        x: TileableId,
        row: usize,
        column: usize,
        reduce: &str,
        span: Span,
    ) -> LowerResult<TileableId> {
        let shape = self.shape(x).to_vec();
        let mut axes: Vec<usize> = (0..shape.len())
            .filter(|&axis| axis != row && axis != column)
            .collect();
        axes.extend([row, column]);
        let result = self.dtype(x);
        let x = self.cast(x, DType::Float64, span)?;
        let moved = self.apply(
            "transpose",
            vec![Value::Tensor(x), Value::int_tuple(&axes)],
            span,
        )?;
        let values = self.linalg_node(LinalgOp::SvdValues, vec![moved], span)?;
        let norm = self.apply_args(
            reduce,
            vec![
                (None, self.arg_at(Value::Tensor(values), span)),
                (Some("axis"), self.arg_at(Value::Int(-1), span)),
            ],
            span,
        )?;
        self.cast(norm, result, span)
    }
}

/// Whether NumPy's `linalg.FUNCTION` broadcasts over stacked matrices here.
fn stacks(function: &str) -> bool {
    matches!(
        function,
        "solve"
            | "inv"
            | "det"
            | "slogdet"
            | "cholesky"
            | "eigh"
            | "matrix_power"
            | "qr"
            | "svd"
            | "pinv"
            | "matrix_rank"
            | "lu"
            | "solve_triangular"
    )
}

/// Machine epsilon of a float result dtype (NumPy's `finfo(dtype).eps`).
fn epsilon(dtype: DType) -> f64 {
    if dtype == DType::Float32 {
        f64::from(f32::EPSILON)
    } else {
        f64::EPSILON
    }
}

/// A float parameter that may be None (ints and bools taken as numbers).
fn number_or_none(arg: &Arg, name: &str) -> LowerResult<Option<f64>> {
    match arg.value {
        Value::None => Ok(None),
        Value::Int(v) => Ok(Some(v as f64)),
        Value::Bool(b) => Ok(Some(f64::from(u8::from(b)))),
        Value::Float(v) => Ok(Some(v)),
        _ => Err(Diagnostic::error(
            format!("not supported yet: `{name}` must be None or a number"),
            arg.span,
        )),
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
