//! `cov` and `corrcoef` as NumPy's own source computes them
//! (`numpy/lib/_function_base_impl.py`): the variables as rows (`ndmin=2`), `cov`'s
//! frequency and analytic weights (`fweights`, `aweights`) checked as NumPy checks
//! them (their shapes at compile time; their values, whole and not negative, by
//! run-time checks that fail with NumPy's messages at the argument), the (weighted)
//! row means subtracted, then `X @ (X * w).T` times `1 / fact`, squeezed.

use super::bind::{Arg, BoundArgs};
use super::convert::bool_arg;
use super::value::Value;
use super::{LowerResult, Lowerer};
use crate::infer::dtypes::promote_types;
use crate::tileable::TileableId;
use marsc_grammar::{Diagnostic, Span};
use marsc_runtime::ops::ReduceOp;
use marsc_runtime::DType;

/// `cov`'s observation weights: `w`, the product of those given, and `aweights`
/// alone when given (the normalization needs it), both float64 vectors.
struct Weights {
    w: TileableId,
    aweights: Option<TileableId>,
}

impl Lowerer<'_> {
    /// `cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None,
    /// aweights=None, *, dtype=None)` as NumPy computes it: variables as rows
    /// (`ndmin=2`), the (weighted) row means subtracted, then `X @ (X * w).T`
    /// times `1 / fact` (`n - ddof` unweighted; infinite when `fact <= 0`, as NumPy's
    /// `true_divide(1, 0.0)`), squeezed.
    pub(super) fn cov(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        Ok(Value::Tensor(self.covariance(args, "m")?))
    }

    /// The covariance matrix of `cov` (its first parameter `m`) or of `corrcoef`
    /// (`x`, which takes no `bias`, `ddof` or weights).
    fn covariance(&mut self, args: &BoundArgs, first: &str) -> LowerResult<TileableId> {
        let span = args.call_span;
        let rowvar = bool_arg(&args.get("rowvar"), "rowvar")?;
        let (bias, ddof_arg) = if first == "m" {
            (bool_arg(&args.get("bias"), "bias")?, args.get("ddof"))
        } else {
            (false, self.arg_at(Value::None, span))
        };
        let ddof = match &ddof_arg.value {
            Value::None => i64::from(!bias),
            Value::Int(v) => *v,
            Value::Float(v) if v.fract() == 0.0 => *v as i64,
            _ => return Err(Diagnostic::error("ddof must be integer", ddof_arg.span)),
        };
        let m_arg = args.get(first);
        let m = self.tensor_of(&m_arg, None, &format!("`{first}`"))?;
        let y_arg = args.get("y");
        let y = match y_arg.value {
            Value::None => None,
            _ => Some(self.tensor_of(&y_arg, None, "`y`")?),
        };
        for (tensor, arg, name) in [(Some(m), &m_arg, "m"), (y, &y_arg, "y")] {
            if let Some(tensor) = tensor {
                if self.shape(tensor).len() > 2 {
                    return Err(Diagnostic::error(
                        format!("{name} has more than 2 dimensions"),
                        arg.span,
                    ));
                }
            }
        }
        let mut dtype = promote_types(self.dtype(m), DType::Float64);
        if let Some(y) = y {
            dtype = promote_types(dtype, self.dtype(y));
        }
        if let Some(requested) = super::dtype_args::dtype_arg(&args.get("dtype"))? {
            dtype = requested;
        }
        let mut x = self.as_rows(m, rowvar, dtype, span)?;
        if let Some(y) = y {
            let y = self.as_rows(y, rowvar, dtype, span)?;
            if self.shape(y)[1] != self.shape(x)[1] {
                return Err(Diagnostic::error(
                    format!(
                        "all the input array dimensions except for the concatenation axis must \
                         match exactly, but along dimension 1, the array at index 0 has size {} \
                         and the array at index 1 has size {}",
                        self.shape(x)[1],
                        self.shape(y)[1]
                    ),
                    y_arg.span,
                ));
            }
            x = self.apply(
                "concatenate",
                vec![
                    Value::tuple(vec![Value::Tensor(x), Value::Tensor(y)]),
                    Value::Int(0),
                ],
                span,
            )?;
        }
        let (rows, observations) = (self.shape(x)[0], self.shape(x)[1]);
        if rows == 0 {
            return Err(Diagnostic::error(
                "not supported yet: `cov` of zero variables (NumPy returns an empty 0 x 0 array)",
                m_arg.span,
            ));
        }
        if !(dtype.is_float() || dtype.is_complex()) {
            // `X -= avg[:, None]` in place, as NumPy does it.
            return Err(Diagnostic::error(
                format!(
                    "Cannot cast ufunc 'subtract' output from dtype('float64') to dtype('{}') \
                     with casting rule 'same_kind'",
                    dtype.name()
                ),
                args.get("dtype").span,
            ));
        }
        let weights = match first {
            "m" => self.observation_weights(args, observations)?,
            _ => None,
        };
        let mean = match &weights {
            None => self.apply_args(
                "mean",
                vec![
                    (None, self.arg_at(Value::Tensor(x), span)),
                    (Some("axis"), self.arg_at(Value::Int(1), span)),
                    (Some("keepdims"), self.arg_at(Value::Bool(true), span)),
                ],
                span,
            )?,
            Some(weights) => {
                let average = self.apply_args(
                    "average",
                    vec![
                        (None, self.arg_at(Value::Tensor(x), span)),
                        (Some("axis"), self.arg_at(Value::Int(1), span)),
                        (Some("weights"), self.arg_at(Value::Tensor(weights.w), span)),
                    ],
                    span,
                )?;
                self.apply(
                    "reshape",
                    vec![Value::Tensor(average), Value::int_tuple(&[rows, 1])],
                    span,
                )?
            }
        };
        let centered = self.apply(
            "subtract",
            vec![Value::Tensor(x), Value::Tensor(mean)],
            span,
        )?;
        let centered = self.cast(centered, dtype, span)?;
        let weighted = match &weights {
            None => centered,
            Some(weights) => self.apply(
                "multiply",
                vec![Value::Tensor(centered), Value::Tensor(weights.w)],
                span,
            )?,
        };
        // NumPy conjugates `X_T`; complex `cov` is refused before it gets here
        // (`statistics.rs`), so real tensors need no conjugate.
        let transposed = self.transpose_tensor(weighted, None, span, span)?;
        let product = self.apply(
            "matmul",
            vec![Value::Tensor(centered), Value::Tensor(transposed)],
            span,
        )?;
        let factor = match &weights {
            None => {
                let fact = observations as f64 - ddof as f64;
                Value::Float(if fact <= 0.0 {
                    f64::INFINITY
                } else {
                    1.0 / fact
                })
            }
            Some(weights) => Value::Tensor(self.weighted_factor(weights, ddof, span)?),
        };
        let scaled = self.apply("multiply", vec![Value::Tensor(product), factor], span)?;
        // `c *= ...` keeps `c`'s dtype.
        let scaled = self.cast(scaled, self.dtype(product), span)?;
        self.apply("squeeze", vec![Value::Tensor(scaled)], span)
    }

    /// `fweights` and `aweights` as NumPy's `cov` takes them: float64 vectors with
    /// one weight per observation (a compile-time error otherwise), `fweights` whole
    /// numbers and neither negative (run-time checks, NumPy's errors at the
    /// argument); `None` when neither is given.
    fn observation_weights(
        &mut self,
        args: &BoundArgs,
        observations: usize,
    ) -> LowerResult<Option<Weights>> {
        let mut product: Option<TileableId> = None;
        let mut aweights = None;
        for name in ["fweights", "aweights"] {
            let arg = args.get(name);
            if matches!(arg.value, Value::None) {
                continue;
            }
            let weights = self.checked_weights(&arg, name, observations)?;
            product = Some(match product {
                None => weights,
                Some(w) => self.apply(
                    "multiply",
                    vec![Value::Tensor(w), Value::Tensor(weights)],
                    arg.span,
                )?,
            });
            if name == "aweights" {
                aweights = Some(weights);
            }
        }
        Ok(product.map(|w| Weights { w, aweights }))
    }

    /// One of `cov`'s weight vectors, as float64, once its checks have passed.
    fn checked_weights(
        &mut self,
        arg: &Arg,
        name: &str,
        observations: usize,
    ) -> LowerResult<TileableId> {
        let given = self.tensor_of(arg, None, &format!("`{name}`"))?;
        let whole = self.dtype(given).is_int() || self.dtype(given).is_bool();
        let mut weights = self.cast(given, DType::Float64, arg.span)?;
        if name == "fweights" && !whole {
            let rounded = self.apply("rint", vec![Value::Tensor(weights)], arg.span)?;
            let integral = self.apply(
                "equal",
                vec![Value::Tensor(weights), Value::Tensor(rounded)],
                arg.span,
            )?;
            weights = self.passing(weights, integral, ReduceOp::FweightsIntegerCheck, arg.span)?;
        }
        match self.shape(weights) {
            [] => {
                return Err(Diagnostic::error(
                    format!("incompatible numbers of samples and {name}"),
                    arg.span,
                )
                .with_note(format!(
                    "`{name}` is a scalar, where NumPy needs one weight per observation \
                     (it raises IndexError: tuple index out of range)"
                )))
            }
            [len] if *len != observations => {
                return Err(Diagnostic::error(
                    format!("incompatible numbers of samples and {name}"),
                    arg.span,
                )
                .with_note(format!("{observations} observations, {len} weights")))
            }
            [_] => {}
            _ => {
                return Err(Diagnostic::error(
                    format!("cannot handle multidimensional {name}"),
                    arg.span,
                ))
            }
        }
        // `any(w < 0)`: a NaN weight passes, as in NumPy.
        let negative = self.apply(
            "less",
            vec![Value::Tensor(weights), Value::Float(0.0)],
            arg.span,
        )?;
        let valid = self.apply("logical_not", vec![Value::Tensor(negative)], arg.span)?;
        let check = match name {
            "fweights" => ReduceOp::FweightsSignCheck,
            _ => ReduceOp::AweightsSignCheck,
        };
        self.passing(weights, valid, check, arg.span)
    }

    /// `value` itself once every element of `valid` is true; a run-time error with
    /// `check`'s message at `span` otherwise.
    fn passing(
        &mut self,
        value: TileableId,
        valid: TileableId,
        check: ReduceOp,
        span: Span,
    ) -> LowerResult<TileableId> {
        let ok = self.run_time_check(valid, check, span)?;
        self.apply(
            "where",
            vec![
                Value::Tensor(ok),
                Value::Tensor(value),
                Value::Float(f64::NAN),
            ],
            span,
        )
    }

    /// NumPy's `1 / fact` for weighted observations: `fact` is the weights' sum
    /// (less `ddof`, or for analytic weights `ddof * sum(w * aweights) / w_sum`),
    /// and 0 (an infinite factor) where it is not positive.
    fn weighted_factor(
        &mut self,
        weights: &Weights,
        ddof: i64,
        span: Span,
    ) -> LowerResult<TileableId> {
        let w_sum = self.apply("sum", vec![Value::Tensor(weights.w)], span)?;
        let fact = match (ddof, weights.aweights) {
            (0, _) => w_sum,
            (_, None) => self.apply(
                "subtract",
                vec![Value::Tensor(w_sum), Value::Int(ddof)],
                span,
            )?,
            (_, Some(aweights)) => {
                let both = self.apply(
                    "multiply",
                    vec![Value::Tensor(weights.w), Value::Tensor(aweights)],
                    span,
                )?;
                let total = self.apply("sum", vec![Value::Tensor(both)], span)?;
                let scaled = self.apply(
                    "multiply",
                    vec![Value::Int(ddof), Value::Tensor(total)],
                    span,
                )?;
                let ratio = self.apply(
                    "divide",
                    vec![Value::Tensor(scaled), Value::Tensor(w_sum)],
                    span,
                )?;
                self.apply(
                    "subtract",
                    vec![Value::Tensor(w_sum), Value::Tensor(ratio)],
                    span,
                )?
            }
        };
        let not_positive = self.apply(
            "less_equal",
            vec![Value::Tensor(fact), Value::Float(0.0)],
            span,
        )?;
        let fact = self.apply(
            "where",
            vec![
                Value::Tensor(not_positive),
                Value::Float(0.0),
                Value::Tensor(fact),
            ],
            span,
        )?;
        self.apply("divide", vec![Value::Float(1.0), Value::Tensor(fact)], span)
    }

    /// `array(t, ndmin=2, dtype=dtype)`, transposed when variables are columns.
    fn as_rows(
        &mut self,
        t: TileableId,
        rowvar: bool,
        dtype: DType,
        span: Span,
    ) -> LowerResult<TileableId> {
        let t = self.cast(t, dtype, span)?;
        let shape = self.shape(t).to_vec();
        let two_d = match shape.as_slice() {
            [] => self.apply(
                "reshape",
                vec![Value::Tensor(t), Value::int_tuple(&[1, 1])],
                span,
            )?,
            [n] => self.apply(
                "reshape",
                vec![Value::Tensor(t), Value::int_tuple(&[1, *n])],
                span,
            )?,
            _ => t,
        };
        if !rowvar && self.shape(two_d)[0] != 1 {
            return self.transpose_tensor(two_d, None, span, span);
        }
        Ok(two_d)
    }

    /// `corrcoef(x, y=None, rowvar=True, *, dtype=None)`: the covariance divided by
    /// the outer product of the standard deviations, clipped to [-1, 1]; `c / c` for a
    /// single variable, as NumPy.
    pub(super) fn corrcoef(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        let c = self.covariance(args, "x")?;
        if self.shape(c).is_empty() {
            let one = self.apply("divide", vec![Value::Tensor(c), Value::Tensor(c)], span)?;
            return Ok(Value::Tensor(one));
        }
        let d = self.apply("diagonal", vec![Value::Tensor(c)], span)?;
        let stddev = self.apply("sqrt", vec![Value::Tensor(d)], span)?;
        let n = self.shape(stddev)[0];
        let column = self.apply(
            "reshape",
            vec![Value::Tensor(stddev), Value::int_tuple(&[n, 1])],
            span,
        )?;
        let c = self.apply(
            "divide",
            vec![Value::Tensor(c), Value::Tensor(column)],
            span,
        )?;
        let c = self.apply(
            "divide",
            vec![Value::Tensor(c), Value::Tensor(stddev)],
            span,
        )?;
        let clipped = self.apply(
            "clip",
            vec![Value::Tensor(c), Value::Int(-1), Value::Int(1)],
            span,
        )?;
        Ok(Value::Tensor(clipped))
    }
}
