//! Statistics built from existing ops (issue 20): the NaN-aware reductions and scans
//! that NumPy itself writes as a replacement of NaNs followed by the plain reduction
//! (`nansum`, `nanprod`, `nanmean`, `nanvar`, `nanstd`, `nancumsum`, `nancumprod`),
//! each lowered exactly as NumPy's `lib/_nanfunctions_impl.py` computes it, so the
//! trees are the ordinary `sum`/`prod`/scan trees (JIT-compiled, chunking-independent)
//! and an all-NaN slice gives what NumPy gives (`nanmean` is `0 / 0`, NaN). The
//! NaN-skipping extremes (`nanmax`, `nanmin`, `nanargmax`, `nanargmin`) are reductions
//! of their own (`ReduceOp::NanMax`, ...), since their all-NaN rules are not a
//! replacement: they go through [`Lowerer::reduce_input`] directly. Int and bool
//! inputs hold no NaN: every function is then the plain one, as in NumPy.

use super::bind::{bind, Arg, BoundArgs, CallArg};
use super::library::{self, Home};
use super::value::Value;
use super::{LowerResult, Lowerer};
use crate::tileable::TileableId;
use marsc_grammar::{Diagnostic, Span};
use marsc_runtime::ops::{ReduceOp, ScanOp};

/// The functions of this module, as the library table names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Statistic {
    NanSum,
    NanProd,
    NanMean,
    NanVar,
    NanStd,
    NanCumSum,
    NanCumProd,
    Ptp,
    Average,
    Diff,
    Ediff1d,
    IsClose,
    AllClose,
    ArrayEqual,
    Trace,
    Diag,
    Diagonal,
    Tril,
    Triu,
    Norm,
    Cov,
    Corrcoef,
    Around,
}

impl Lowerer<'_> {
    pub(super) fn statistic(&mut self, stat: Statistic, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        // The statistics are composed of ops whose complex semantics (NaN masks,
        // tolerances, orderings) have not been checked against NumPy's yet.
        let complex = args.given_args().any(|arg| match &arg.value {
            Value::Complex(..) => true,
            Value::Tensor(id) => self.dtype(*id).is_complex(),
            _ => false,
        });
        if complex {
            return Err(Diagnostic::error(
                format!(
                    "not supported yet: `{}` of complex values",
                    args.signature().name
                ),
                span,
            ));
        }
        let composed = match stat {
            Statistic::Ptp => Some(self.ptp(args)),
            Statistic::Average => Some(self.average(args)),
            Statistic::Diff => Some(self.diff(args)),
            Statistic::Ediff1d => Some(self.ediff1d(args)),
            Statistic::IsClose => Some(self.isclose(args)),
            Statistic::AllClose => Some(self.allclose(args)),
            Statistic::ArrayEqual => Some(self.array_equal(args)),
            Statistic::Trace => Some(self.trace(args)),
            Statistic::Diag => Some(self.diag(args)),
            Statistic::Diagonal => Some(self.diagonal_call(args)),
            Statistic::Tril => Some(self.triangle(args, false)),
            Statistic::Triu => Some(self.triangle(args, true)),
            Statistic::Norm => Some(self.norm(args)),
            Statistic::Cov => Some(self.cov(args)),
            Statistic::Corrcoef => Some(self.corrcoef(args)),
            Statistic::Around => Some(self.around(args)),
            _ => None,
        };
        if let Some(result) = composed {
            return result;
        }
        let a = self.tensor_of(&args.get("a"), None, "`a`")?;
        match stat {
            Statistic::NanSum => {
                let replaced = self.nan_replaced(a, 0, span)?;
                self.reduce_input(ReduceOp::Sum, replaced, args)
            }
            Statistic::NanProd => {
                let replaced = self.nan_replaced(a, 1, span)?;
                self.reduce_input(ReduceOp::Prod, replaced, args)
            }
            Statistic::NanCumSum => {
                let replaced = self.nan_replaced(a, 0, span)?;
                self.scan_input(ScanOp::CumSum, replaced, args)
            }
            Statistic::NanCumProd => {
                let replaced = self.nan_replaced(a, 1, span)?;
                self.scan_input(ScanOp::CumProd, replaced, args)
            }
            Statistic::NanMean => self.nanmean(a, args),
            Statistic::NanVar => self.nanvar(a, args, false),
            Statistic::NanStd => self.nanvar(a, args, true),
            _ => Err(internal(
                format!("{stat:?} is not a NaN-aware reduction"),
                span,
            )),
        }
    }

    /// `where(isnan(a), fill, a)` for a float `a`; `a` itself otherwise.
    fn nan_replaced(&mut self, a: TileableId, fill: i64, span: Span) -> LowerResult<TileableId> {
        if !self.dtype(a).is_float() {
            return Ok(a);
        }
        let mask = self.apply("isnan", vec![Value::Tensor(a)], span)?;
        self.apply(
            "where",
            vec![Value::Tensor(mask), Value::Int(fill), Value::Tensor(a)],
            span,
        )
    }

    /// NumPy's `nanmean`: `sum(where(isnan(a), 0, a)) / sum(~isnan(a))`, divided in
    /// float64 and cast back to the sum's dtype (`_divide_by_count`).
    fn nanmean(&mut self, a: TileableId, args: &BoundArgs) -> LowerResult<Value> {
        if !self.dtype(a).is_float() {
            return self.reduce_input(ReduceOp::Mean, a, args);
        }
        let span = args.call_span;
        let (mask, replaced) = self.nan_mask_and_replaced(a, span)?;
        let total = self.reduce_of("sum", replaced, args, args.get("keepdims"), true)?;
        let valid = self.apply("logical_not", vec![Value::Tensor(mask)], span)?;
        let count = self.reduce_of("sum", valid, args, args.get("keepdims"), false)?;
        let mean = self.divide_by_count(total, count, span)?;
        Ok(Value::Tensor(mean))
    }

    /// NumPy's `nanvar`/`nanstd`: the mean of the non-NaN values (kept dims), the
    /// squared deviations with NaNs' set to 0, their sum over `count - ddof`, and NaN
    /// where `count - ddof <= 0`; `nanstd` is its square root.
    fn nanvar(&mut self, a: TileableId, args: &BoundArgs, std: bool) -> LowerResult<Value> {
        if !self.dtype(a).is_float() {
            let op = if std { ReduceOp::Std } else { ReduceOp::Var };
            return self.reduce_input(op, a, args);
        }
        let span = args.call_span;
        let kept = Arg {
            value: Value::Bool(true),
            span,
        };
        let (mask, replaced) = self.nan_mask_and_replaced(a, span)?;
        let valid = self.apply("logical_not", vec![Value::Tensor(mask)], span)?;
        let count = self.reduce_of("sum", valid, args, kept.clone(), false)?;
        let total = self.reduce_of("sum", replaced, args, kept, true)?;
        let mean = self.divide_by_count(total, count, span)?;
        // `np.subtract(arr, avg, out=arr, casting='unsafe')`: in `a`'s dtype.
        let deviation = self.apply(
            "subtract",
            vec![Value::Tensor(replaced), Value::Tensor(mean)],
            span,
        )?;
        let deviation = self.cast(deviation, self.dtype(a), span)?;
        let deviation = self.apply(
            "where",
            vec![Value::Tensor(mask), Value::Int(0), Value::Tensor(deviation)],
            span,
        )?;
        let squares = self.apply(
            "multiply",
            vec![Value::Tensor(deviation), Value::Tensor(deviation)],
            span,
        )?;
        let sum = self.reduce_of("sum", squares, args, args.get("keepdims"), true)?;
        let result_shape = Value::int_tuple(self.shape(sum));
        let count = self.apply("reshape", vec![Value::Tensor(count), result_shape], span)?;
        let ddof = args.get("ddof");
        let dof = self.apply_args(
            "subtract",
            vec![(None, self.arg(Value::Tensor(count), span)), (None, ddof)],
            span,
        )?;
        let var = self.divide_by_count(sum, dof, span)?;
        let bad = self.apply("less_equal", vec![Value::Tensor(dof), Value::Int(0)], span)?;
        let var = self.apply(
            "where",
            vec![
                Value::Tensor(bad),
                Value::Float(f64::NAN),
                Value::Tensor(var),
            ],
            span,
        )?;
        if std {
            return Ok(Value::Tensor(self.apply(
                "sqrt",
                vec![Value::Tensor(var)],
                span,
            )?));
        }
        Ok(Value::Tensor(var))
    }

    /// `isnan(a)` and `where(isnan(a), 0, a)`.
    fn nan_mask_and_replaced(
        &mut self,
        a: TileableId,
        span: Span,
    ) -> LowerResult<(TileableId, TileableId)> {
        let mask = self.apply("isnan", vec![Value::Tensor(a)], span)?;
        let replaced = self.apply(
            "where",
            vec![Value::Tensor(mask), Value::Int(0), Value::Tensor(a)],
            span,
        )?;
        Ok((mask, replaced))
    }

    /// `reduction(x, axis=<the call's axis>, [dtype=<the call's dtype>,]
    /// keepdims=keepdims)`, with errors pointing at the call's own arguments.
    fn reduce_of(
        &mut self,
        reduction: &str,
        x: TileableId,
        args: &BoundArgs,
        keepdims: Arg,
        with_dtype: bool,
    ) -> LowerResult<TileableId> {
        let span = args.call_span;
        let mut call = vec![
            (None, self.arg(Value::Tensor(x), span)),
            (Some("axis"), args.get("axis")),
            (Some("keepdims"), keepdims),
        ];
        if with_dtype {
            call.push((Some("dtype"), args.get("dtype")));
        }
        self.apply_args(reduction, call, span)
    }

    /// `total / count` computed in float64 and cast back to `total`'s dtype, as
    /// NumPy's `_divide_by_count` does (`true_divide(..., casting='unsafe')`).
    fn divide_by_count(
        &mut self,
        total: TileableId,
        count: TileableId,
        span: Span,
    ) -> LowerResult<TileableId> {
        let quotient = self.apply(
            "divide",
            vec![Value::Tensor(total), Value::Tensor(count)],
            span,
        )?;
        self.cast(quotient, self.dtype(total), span)
    }

    fn arg(&self, value: Value, span: Span) -> Arg {
        Arg { value, span }
    }

    /// The tensor `mt.NAME(*args)` gives; every error points at `span`.
    pub(super) fn apply(
        &mut self,
        name: &str,
        args: Vec<Value>,
        span: Span,
    ) -> LowerResult<TileableId> {
        let args = args
            .into_iter()
            .map(|value| (None, Arg { value, span }))
            .collect();
        self.apply_args(name, args, span)
    }

    /// The tensor `mt.NAME(...)` gives for positional (`None`) and keyword arguments,
    /// each with the span its errors point at.
    pub(super) fn apply_args(
        &mut self,
        name: &str,
        args: Vec<(Option<&str>, Arg)>,
        span: Span,
    ) -> LowerResult<TileableId> {
        let Some(id) = library::find(name, Home::Library) else {
            return Err(internal(format!("`{name}` is not in the library"), span));
        };
        let call_args = args
            .into_iter()
            .map(|(keyword, arg)| CallArg {
                keyword: keyword.map(|keyword| (keyword.to_string(), arg.span)),
                value: arg.value,
                span: arg.span,
            })
            .collect();
        let bound = bind(id, None, call_args, span)?;
        match self.dispatch(bound)? {
            Value::Tensor(id) => Ok(id),
            _ => Err(internal(format!("`{name}` gave no tensor"), span)),
        }
    }
}

fn internal(message: String, span: Span) -> Diagnostic {
    Diagnostic::error(format!("internal error: {message}"), span)
}
