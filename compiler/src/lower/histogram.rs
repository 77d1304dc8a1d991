//! `bincount`, `histogram` and `histogram_bin_edges` (issue 19), as NumPy's own
//! source computes them (`numpy/lib/_histograms_impl.py`, `bincount` in C).
//!
//! What decides the bins is read in a stage when it is data: `bincount`'s length
//! (`max(x) + 1`, with the minimum checked for a negative element), `histogram`'s
//! range when none is given (the data's minimum and maximum), edges given as a
//! tensor. With the bins known, every chunk of the values counts its own row of bins
//! (`TileOp::BinCounts`, `runtime/src/kernels/histogram.rs`), and an ordinary sum
//! over the rows finishes the count, so the result's shape is known and what follows
//! tiles as usual. `density=True` is composed from existing ops as NumPy writes it.

use super::bind::{Arg, BoundArgs};
use super::convert::{bool_arg, int_arg};
use super::pyfmt::{float_repr, python_str};
use super::stage::MAX_STAGED_ELEMENTS;
use super::value::Value;
use super::{LowerResult, Lowerer};
use crate::ops::Creation;
use crate::tileable::{TileOp, TileableId};
use marsc_grammar::{Diagnostic, Span};
use marsc_runtime::kernels::histogram::{Binning, Edges, SingleDenom};
use marsc_runtime::{ArrayData, DType, Scalar};
use std::sync::Arc;

/// The histogram functions of the library.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Counting {
    /// `bincount(x, weights=None, minlength=0)`.
    Bincount,
    /// `histogram(a, bins=10, range=None, density=None, weights=None)`.
    Histogram,
    /// `histogram_bin_edges(a, bins=10, range=None, weights=None)`.
    BinEdges,
}

/// A number of the bins' range: NumPy keeps integers apart from floats (their
/// difference is taken as integers).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Bound {
    Int(i64),
    Float(f64),
}

impl Bound {
    fn as_f64(self) -> f64 {
        match self {
            Bound::Int(v) => v as f64,
            Bound::Float(v) => v,
        }
    }

    /// As NumPy's `str()` of the scalar prints it in messages.
    fn text(self) -> String {
        match self {
            Bound::Int(v) => v.to_string(),
            Bound::Float(v) => float_repr(v),
        }
    }
}

/// How a call's `bins` were given, once read.
enum BinsSpec {
    /// `bins` equal bins.
    Count(usize),
    /// Explicit edges (their tensor, for `bin_edges`).
    Edges(Edges, TileableId),
}

impl Lowerer<'_> {
    /// A call of one of the histogram functions.
    pub(super) fn histogram_call(
        &mut self,
        which: Counting,
        args: &BoundArgs,
    ) -> LowerResult<Value> {
        match which {
            Counting::Bincount => self.bincount(args),
            Counting::Histogram | Counting::BinEdges => self.histogram(which, args),
        }
    }

    /// `bincount(x, weights=None, minlength=0)`.
    fn bincount(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        let x_arg = args.get("x");
        let x = self.tensor_of(&x_arg, None, "`x`")?;
        depth_one(self.shape(x).len(), x_arg.span)?;
        let dtype = self.dtype(x);
        if dtype.is_float() {
            return Err(Diagnostic::error(
                format!(
                    "Cannot cast array data from dtype('{dtype}') to dtype('int64') according \
                     to the rule 'safe'"
                ),
                x_arg.span,
            ));
        }
        let minlength = args.get("minlength");
        let min_length = match minlength.value {
            Value::None => {
                return Err(Diagnostic::error(
                    "use 0 instead of None for minlength",
                    minlength.span,
                ))
            }
            _ => int_arg(&minlength, "minlength")?,
        };
        let Ok(min_length) = usize::try_from(min_length) else {
            return Err(Diagnostic::error(
                "'minlength' must not be negative",
                minlength.span,
            ));
        };
        let weights = self.optional_tensor(&args.get("weights"), "`weights`")?;
        if let Some((w, w_span)) = weights {
            depth_one(self.shape(w).len(), w_span)?;
            if self.shape(w) != self.shape(x) {
                return Err(Diagnostic::error(
                    "The weights and list don't have the same length.",
                    w_span,
                ));
            }
        }
        let length = if self.size(x) == 0 {
            min_length
        } else {
            let Some([low, high]) = self.staged_extremes(x, DType::Int64, span)? else {
                return Ok(Value::Poison);
            };
            let (Bound::Int(low), Bound::Int(high)) = (low, high) else {
                return Err(internal("integer extremes", span));
            };
            if low < 0 {
                return Err(Diagnostic::error(
                    "'list' argument must have no negative elements",
                    span,
                ));
            }
            let bins = high
                .checked_add(1)
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| {
                    Diagnostic::error(format!("not supported yet: {high} + 1 bins"), span)
                })?;
            bins.max(min_length)
        };
        let counts = self.count_bins(
            x,
            weights.map(|(w, _)| w),
            Binning::Integers { length },
            span,
        )?;
        Ok(Value::Tensor(counts))
    }

    /// `histogram(...)` (the tuple `(hist, bin_edges)`) or `histogram_bin_edges(...)`.
    fn histogram(&mut self, which: Counting, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        let a_arg = args.get("a");
        let a = self.tensor_of(&a_arg, None, "`a`")?;
        if self.dtype(a) == DType::Bool {
            return Err(Diagnostic::error(
                "not supported yet: `histogram` of a boolean tensor (NumPy converts it to uint8)",
                a_arg.span,
            ));
        }
        let weights = self.optional_tensor(&args.get("weights"), "`weights`")?;
        if let Some((w, w_span)) = weights {
            if self.shape(w) != self.shape(a) {
                return Err(Diagnostic::error(
                    "weights should have the same shape as a.",
                    w_span,
                ));
            }
            if self.dtype(w).is_bool() {
                return Err(Diagnostic::error(
                    "not supported yet: boolean `weights` in `histogram`",
                    w_span,
                ));
            }
        }
        let density = match which {
            Counting::Histogram => {
                let density = args.get("density");
                match density.value {
                    Value::None => false,
                    _ => bool_arg(&density, "density")?,
                }
            }
            _ => false,
        };
        let range = self.histogram_range(&args.get("range"))?;
        let a = self.ravel_tensor(a, span)?;
        let weights = match weights {
            Some((w, _)) => Some(self.ravel_tensor(w, span)?),
            None => None,
        };
        let bins_arg = args.get("bins");
        let Some(bins) = self.histogram_bins(&bins_arg)? else {
            return Ok(Value::Poison);
        };
        let (binning, edges) = match bins {
            BinsSpec::Edges(edges, tensor) => (Binning::Edges(edges), tensor),
            BinsSpec::Count(count) => {
                if self.dtype(a) == DType::Float16 {
                    return Err(Diagnostic::error(
                        "not supported yet: bin counts of a float16 tensor (NumPy computes its \
                         edges and bins in float16)",
                        span,
                    )
                    .with_help("convert it first, e.g. `a.astype('float32')`"));
                }
                let single = self.dtype(a) == DType::Float32;
                let (first, last) = match range {
                    Some(range) => range,
                    None if self.size(a) == 0 => (Bound::Int(0), Bound::Int(1)),
                    None => {
                        let Some([first, last]) = self.staged_extremes(a, self.dtype(a), span)?
                        else {
                            return Ok(Value::Poison);
                        };
                        if !(first.as_f64().is_finite() && last.as_f64().is_finite()) {
                            return Err(Diagnostic::error(
                                format!(
                                    "autodetected range of [{}, {}] is not finite",
                                    first.text(),
                                    last.text()
                                ),
                                a_arg.span,
                            ));
                        }
                        (first, last)
                    }
                };
                if single {
                    let autodetected = range.is_none() && self.size(a) > 0;
                    self.single_uniform_bins(first, last, count, autodetected, bins_arg.span)?
                } else {
                    self.uniform_bins(first, last, count, bins_arg.span)?
                }
            }
        };
        if which == Counting::BinEdges {
            return Ok(Value::Tensor(edges));
        }
        let weights_dtype = weights.map(|w| self.dtype(w));
        let mut hist = self.count_bins(a, weights, binning, span)?;
        if let Some(dtype) = weights_dtype {
            hist = self.cast(hist, dtype, span)?;
        }
        if density {
            // `n / db / n.sum()` with `db = np.array(np.diff(bin_edges), float)`.
            let widths = self.apply("diff", vec![Value::Tensor(edges)], span)?;
            let widths = self.cast(widths, DType::Float64, span)?;
            let total = self.apply("sum", vec![Value::Tensor(hist)], span)?;
            let per_width = self.apply(
                "divide",
                vec![Value::Tensor(hist), Value::Tensor(widths)],
                span,
            )?;
            hist = self.apply(
                "divide",
                vec![Value::Tensor(per_width), Value::Tensor(total)],
                span,
            )?;
        }
        Ok(Value::tuple(vec![
            Value::Tensor(hist),
            Value::Tensor(edges),
        ]))
    }

    /// `range=`: `None`, or two finite numbers in order (NumPy's checks).
    fn histogram_range(&self, arg: &Arg) -> LowerResult<Option<(Bound, Bound)>> {
        let items = match &arg.value {
            Value::None => return Ok(None),
            Value::Tuple(items, _) | Value::List(items) => items,
            other => {
                return Err(Diagnostic::error(
                    format!(
                        "`range` must be None or a pair of numbers, got {}",
                        other.type_name()
                    ),
                    arg.span,
                ))
            }
        };
        let [first, last] = items.as_ref() else {
            let message = if items.len() > 2 {
                "too many values to unpack (expected 2)".to_string()
            } else {
                format!(
                    "not enough values to unpack (expected 2, got {})",
                    items.len()
                )
            };
            return Err(Diagnostic::error(message, arg.span));
        };
        let bound = |value: &Value| match value {
            Value::Int(v) => Ok(Bound::Int(*v)),
            Value::Bool(b) => Ok(Bound::Int(i64::from(*b))),
            Value::Float(v) => Ok(Bound::Float(*v)),
            other => Err(Diagnostic::error(
                format!(
                    "not supported yet: `range` of {} (Python numbers only)",
                    other.a_type_name()
                ),
                arg.span,
            )),
        };
        let (first_bound, last_bound) = (bound(first)?, bound(last)?);
        if first_bound.as_f64() > last_bound.as_f64() {
            return Err(Diagnostic::error(
                "max must be larger than min in range parameter.",
                arg.span,
            ));
        }
        if !(first_bound.as_f64().is_finite() && last_bound.as_f64().is_finite()) {
            let text = |v: &Value| python_str(v).unwrap_or_default();
            return Err(Diagnostic::error(
                format!(
                    "supplied range of [{}, {}] is not finite",
                    text(first),
                    text(last)
                ),
                arg.span,
            ));
        }
        Ok(Some((first_bound, last_bound)))
    }

    /// `bins=`: a positive int, or increasing edges (a list, or a 1-D tensor read in a
    /// stage); `None` when no stage could run.
    fn histogram_bins(&mut self, arg: &Arg) -> LowerResult<Option<BinsSpec>> {
        let not_an_integer =
            || Diagnostic::error("`bins` must be an integer, a string, or an array", arg.span);
        let values: Vec<Value> = match &arg.value {
            Value::Int(_) | Value::Bool(_) => {
                let count = int_arg(arg, "bins")?;
                return match usize::try_from(count) {
                    Ok(count) if count >= 1 => Ok(Some(BinsSpec::Count(count))),
                    _ => Err(Diagnostic::error(
                        "`bins` must be positive, when an integer",
                        arg.span,
                    )),
                };
            }
            Value::Str(_) => {
                return Err(Diagnostic::error(
                    "not supported yet: `bins` given as a string ('auto', 'fd', ...)",
                    arg.span,
                ))
            }
            Value::Tensor(id) => {
                let id = *id;
                match self.shape(id).len() {
                    0 => {
                        return Err(Diagnostic::error(
                            "not supported yet: `bins` as a 0-d tensor",
                            arg.span,
                        ))
                    }
                    1 => {}
                    _ => return Err(one_d_bins(arg.span)),
                }
                if self.size(id) > MAX_STAGED_ELEMENTS {
                    return Err(Diagnostic::error(
                        format!(
                            "not supported yet: more than {MAX_STAGED_ELEMENTS} bin edges from a tensor"
                        ),
                        arg.span,
                    ));
                }
                let edges = match self.dtype(id) {
                    DType::Bool => return Err(boolean_bins(arg.span)),
                    int if int.is_int() => self.stage_value(id, arg.span).map(|data| {
                        Edges::Int(cast_values(&data, |v| {
                            v.as_i128().and_then(|v| i64::try_from(v).ok())
                        }))
                    }),
                    _ => self
                        .stage_value(id, arg.span)
                        .map(|data| Edges::Float(cast_values(&data, |v| Some(v.as_f64())))),
                };
                let Some(edges) = edges else {
                    return Ok(None);
                };
                check_edges(&edges, arg.span)?;
                return Ok(Some(BinsSpec::Edges(edges, id)));
            }
            Value::List(items) | Value::Tuple(items, _) => items.to_vec(),
            _ => return Err(not_an_integer()),
        };
        let mut ints = Vec::with_capacity(values.len());
        let mut floats = Vec::with_capacity(values.len());
        let mut all_ints = true;
        for value in &values {
            match value {
                Value::Int(v) => {
                    ints.push(*v);
                    floats.push(*v as f64);
                }
                Value::Float(v) => {
                    all_ints = false;
                    floats.push(*v);
                }
                Value::Bool(_) => return Err(boolean_bins(arg.span)),
                Value::List(_) | Value::Tuple(..) => return Err(one_d_bins(arg.span)),
                other => {
                    return Err(Diagnostic::error(
                        format!("bin edges must be numbers, got {}", other.type_name()),
                        arg.span,
                    ))
                }
            }
        }
        let edges = if all_ints && !values.is_empty() {
            Edges::Int(ints.into())
        } else {
            Edges::Float(floats.into())
        };
        check_edges(&edges, arg.span)?;
        let dtype = match edges {
            Edges::Int(_) => DType::Int64,
            Edges::Float(_) => DType::Float64,
        };
        let tensor = self.tensor_of(arg, Some(dtype), "`bins`")?;
        Ok(Some(BinsSpec::Edges(edges, tensor)))
    }

    /// `count` equal bins from `first` to `last`: NumPy's widening of an empty range,
    /// its edges (`linspace`, float64) and its "too many bins" check.
    fn uniform_bins(
        &mut self,
        first: Bound,
        last: Bound,
        count: usize,
        span: Span,
    ) -> LowerResult<(Binning, TileableId)> {
        let (first, last) = widened(first, last);
        let denom = difference(first, last);
        let (start, stop) = (first.as_f64(), last.as_f64());
        let num = count
            .checked_add(1)
            .ok_or_else(|| Diagnostic::error("`bins` is too large", span))?;
        let edges_node = self.add_derived(
            TileOp::Create(Creation::Linspace {
                start,
                stop,
                num,
                endpoint: true,
            }),
            vec![],
            vec![num],
            DType::Float64,
            span,
        )?;
        let edges =
            marsc_runtime::kernels::linspace(start, stop, num, true, DType::Float64, 0, num)
                .map_err(|e| Diagnostic::error(e.to_string(), span))?;
        let ArrayData::Float64(edges) = edges else {
            return Err(internal("float64 edges", span));
        };
        let edges: Arc<[f64]> = edges.iter().copied().collect();
        if edges.windows(2).any(|w| w[0] >= w[1]) {
            return Err(Diagnostic::error(
                format!("Too many bins for data range. Cannot create {count} finite-sized bins."),
                span,
            ));
        }
        Ok((
            Binning::Uniform {
                first: start,
                last: stop,
                denom,
                edges,
            },
            edges_node,
        ))
    }

    /// [`uniform_bins`](Self::uniform_bins) for float32 data, whose edges NumPy keeps
    /// in float32: computed in float32 from the data's own extremes
    /// (`autodetected`, float32 scalars), else in float64 from the Python numbers of
    /// `range=` (or 0 and 1 for empty data) and rounded to float32.
    fn single_uniform_bins(
        &mut self,
        first: Bound,
        last: Bound,
        count: usize,
        autodetected: bool,
        span: Span,
    ) -> LowerResult<(Binning, TileableId)> {
        let num = count
            .checked_add(1)
            .ok_or_else(|| Diagnostic::error("`bins` is too large", span))?;
        let (first, last, denom, edges): (f32, f32, SingleDenom, Vec<f32>) = if autodetected {
            let (mut first, mut last) = (first.as_f64() as f32, last.as_f64() as f32);
            if first == last {
                first -= 0.5;
                last += 0.5;
            }
            let edges = single_linspace(first, last, num);
            (first, last, SingleDenom::Single(last - first), edges)
        } else {
            let (first, last) = widened(first, last);
            let (start, stop) = (first.as_f64(), last.as_f64());
            let edges =
                marsc_runtime::kernels::linspace(start, stop, num, true, DType::Float64, 0, num)
                    .map_err(|e| Diagnostic::error(e.to_string(), span))?;
            let ArrayData::Float64(edges) = edges else {
                return Err(internal("float64 edges", span));
            };
            let edges = edges.iter().map(|&e| e as f32).collect();
            let denom = SingleDenom::Double(difference(first, last));
            (start as f32, stop as f32, denom, edges)
        };
        if edges.windows(2).any(|w| w[0] >= w[1]) {
            return Err(Diagnostic::error(
                format!("Too many bins for data range. Cannot create {count} finite-sized bins."),
                span,
            ));
        }
        let values: Vec<Scalar> = edges.iter().map(|&e| Scalar::Float32(e)).collect();
        let edges_node = self.add_derived(
            TileOp::Create(Creation::Literal(values.into())),
            vec![],
            vec![num],
            DType::Float32,
            span,
        )?;
        Ok((
            Binning::UniformSingle {
                first,
                last,
                denom,
                edges: edges.into(),
            },
            edges_node,
        ))
    }

    /// The sum over x's chunks of each chunk's bin counts: int64 counts, or float64
    /// sums of `weights` (of x's shape, chunked alike here).
    fn count_bins(
        &mut self,
        x: TileableId,
        weights: Option<TileableId>,
        binning: Binning,
        span: Span,
    ) -> LowerResult<TileableId> {
        let chunks = self.node(x).nsplits[0].len();
        let mut inputs = vec![x];
        if let Some(w) = weights {
            let splits = self.node(x).nsplits.clone();
            inputs.push(self.rechunk_to_splits(w, splits, span));
        }
        let dtype = match weights {
            Some(_) => DType::Float64,
            None => DType::Int64,
        };
        let bins = binning.bins();
        let rows = self.add_derived(
            TileOp::BinCounts(Arc::new(binning)),
            inputs,
            vec![chunks, bins],
            dtype,
            span,
        )?;
        self.apply("sum", vec![Value::Tensor(rows), Value::Int(0)], span)
    }

    /// An optional tensor argument (`None` stays `None`) with its span.
    fn optional_tensor(
        &mut self,
        arg: &Arg,
        what: &str,
    ) -> LowerResult<Option<(TileableId, Span)>> {
        match arg.value {
            Value::None => Ok(None),
            _ => Ok(Some((self.tensor_of(arg, None, what)?, arg.span))),
        }
    }

    /// `[min(x), max(x)]` computed in one stage (x not empty), as `dtype` bounds;
    /// `None` when no stage could run.
    fn staged_extremes(
        &mut self,
        x: TileableId,
        dtype: DType,
        span: Span,
    ) -> LowerResult<Option<[Bound; 2]>> {
        let low = self.apply("amin", vec![Value::Tensor(x)], span)?;
        let high = self.apply("amax", vec![Value::Tensor(x)], span)?;
        let pair = self.apply(
            "stack",
            vec![Value::tuple(vec![Value::Tensor(low), Value::Tensor(high)])],
            span,
        )?;
        let wanted = if dtype.is_float() {
            DType::Float64
        } else {
            DType::Int64
        };
        let pair = self.cast(pair, wanted, span)?;
        let Some(data) = self.stage_value(pair, span) else {
            return Ok(None);
        };
        let bounds: Vec<Bound> = match &data {
            ArrayData::Int64(values) => values.iter().map(|&v| Bound::Int(v)).collect(),
            ArrayData::Float64(values) => values.iter().map(|&v| Bound::Float(v)).collect(),
            _ => Vec::new(),
        };
        match bounds.as_slice() {
            [low, high] => Ok(Some([*low, *high])),
            _ => Err(internal("two extremes", span)),
        }
    }
}

/// NumPy's errors for an argument of `bincount` that is not 1-D.
fn depth_one(ndim: usize, span: Span) -> LowerResult<()> {
    match ndim {
        1 => Ok(()),
        0 => Err(Diagnostic::error(
            "object of too small depth for desired array",
            span,
        )),
        _ => Err(Diagnostic::error("object too deep for desired array", span)),
    }
}

fn one_d_bins(span: Span) -> Diagnostic {
    Diagnostic::error("`bins` must be 1d, when an array", span)
}

fn boolean_bins(span: Span) -> Diagnostic {
    Diagnostic::error("not supported yet: boolean `bins`", span)
}

/// NumPy's check of explicit edges (`bins must increase monotonically`); a NaN edge,
/// which NumPy's check lets through, is not supported.
fn check_edges(edges: &Edges, span: Span) -> LowerResult<()> {
    let increasing = match edges {
        Edges::Int(e) => e.windows(2).all(|w| w[0] <= w[1]),
        Edges::Float(e) => {
            if e.iter().any(|v| v.is_nan()) {
                return Err(Diagnostic::error("not supported yet: a NaN bin edge", span));
            }
            e.windows(2).all(|w| w[0] <= w[1])
        }
    };
    if increasing {
        Ok(())
    } else {
        Err(Diagnostic::error(
            "`bins` must increase monotonically, when an array",
            span,
        ))
    }
}

/// Every element of `data` through `convert`, in C order.
fn cast_values<T>(
    data: &ArrayData,
    convert: impl Fn(marsc_runtime::Scalar) -> Option<T>,
) -> Arc<[T]> {
    (0..data.len())
        .filter_map(|i| data.get_flat(i).and_then(&convert))
        .collect()
}

fn internal(what: &str, span: Span) -> Diagnostic {
    Diagnostic::error(
        format!("internal error: a histogram stage did not give {what}"),
        span,
    )
}

/// NumPy's widening of an empty range of Python numbers: `first - 0.5, last + 0.5`.
fn widened(first: Bound, last: Bound) -> (Bound, Bound) {
    if first.as_f64() == last.as_f64() {
        (
            Bound::Float(first.as_f64() - 0.5),
            Bound::Float(last.as_f64() + 0.5),
        )
    } else {
        (first, last)
    }
}

/// `last - first` as NumPy's `_unsigned_subtract` takes it: two integers in uint64
/// (it cannot overflow), otherwise in float64.
fn difference(first: Bound, last: Bound) -> f64 {
    match (first, last) {
        (Bound::Int(first), Bound::Int(last)) => last.wrapping_sub(first) as u64 as f64,
        _ => last.as_f64() - first.as_f64(),
    }
}

/// NumPy's `linspace(first, last, num)` of float32 scalars, computed in float32:
/// `i * step + first` with `step = (last - first) / (num - 1)` (`i / div * delta`
/// when the step underflows to 0), the last element exactly `last`.
fn single_linspace(first: f32, last: f32, num: usize) -> Vec<f32> {
    let div = num.saturating_sub(1).max(1) as f32;
    let delta = last - first;
    let step = delta / div;
    (0..num)
        .map(|i| {
            if i + 1 == num && num > 1 {
                return last;
            }
            let position = i as f32;
            let scaled = if step == 0.0 {
                position / div * delta
            } else {
                position * step
            };
            scaled + first
        })
        .collect()
}
