//! Selection by a boolean mask — `x[mask]`, `x[1:, mask]`, and the functions built on
//! it (`nonzero`, `flatnonzero`, `argwhere`, one-argument `where`, `compress`,
//! `extract`) — whose result length is data.
//!
//! A selection runs in two stages, as Mars's iterative tiling does: x and the mask are
//! chunked into *blocks* along the mask's first axis (one chunk on the mask's other
//! axes), a stage counts the true elements of each block (`BlockCounts`, one int64
//! per block, fetched whole), and with those counts known the selection
//! (`Compress`) is an ordinary node whose shape and chunks are exact: each block that
//! selects anything becomes one chunk of the result, so everything after it tiles,
//! fuses and runs as usual. `.shape` of a selection is therefore NumPy's, never
//! unknown.

use super::bind::BoundArgs;
use super::convert::{bool_arg, int_arg};
use super::elementwise::at;
use super::indexing::Item;
use super::value::Value;
use super::{LowerResult, Lowerer};
use crate::infer::shapes::normalize_axis;
use crate::ops::{Creation, ShapeOp};
use crate::tileable::{TileOp, TileableId};
use marsc_grammar::{Diagnostic, Span};
use marsc_runtime::{ArrayData, DType, Scalar};
use std::sync::Arc;

/// The library's functions that select by a mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Selection {
    /// `nonzero(a)`, `a.nonzero()`, `where(condition)`.
    Nonzero,
    /// `flatnonzero(a)`.
    FlatNonzero,
    /// `argwhere(a)`.
    ArgWhere,
    /// `compress(condition, a, axis=None)`.
    Compress,
    /// `a.compress(condition, axis=None)`.
    CompressMethod,
    /// `extract(condition, arr)`.
    Extract,
    /// `take(a, indices, axis=None)`, `a.take(indices, axis=None)`.
    Take,
    /// `a.take(indices, axis=None)`.
    TakeMethod,
    /// `isin(element, test_elements, assume_unique=False, invert=False)`.
    IsIn,
    /// `digitize(x, bins, right=False)`.
    Digitize,
}

/// NumPy's error when a boolean index of shape `mask_shape` does not have the
/// lengths `lens` of the axes it stands for (the first being axis `x_axis`).
pub(super) fn mask_fits(
    lens: &[usize],
    mask_shape: &[usize],
    x_axis: usize,
    span: Span,
) -> LowerResult<()> {
    for (i, (&len, &mask_len)) in lens.iter().zip(mask_shape).enumerate() {
        if len != mask_len {
            return Err(Diagnostic::error(
                format!(
                    "boolean index did not match indexed array along axis {}; size of axis is \
                     {len} but size of corresponding boolean axis is {mask_len}",
                    x_axis + i
                ),
                span,
            ));
        }
    }
    Ok(())
}

/// The most test elements `isin` (or bin edges `digitize`) compares with one by one.
const MAX_ISIN_ELEMENTS: usize = 64;

impl Lowerer<'_> {
    /// `x[items]` where one item is a boolean or integer tensor (an *array* index):
    /// the other items index x as basic indexing does, with the array's axes kept
    /// whole, then a mask selects along them or integer indices gather along it. As
    /// in NumPy, integer items count as advanced indices with the array: when they
    /// are not next to it, the array's result axes come first.
    pub(super) fn index_with_array(
        &mut self,
        id: TileableId,
        items: &[Item],
        mask_position: usize,
        span: Span,
    ) -> LowerResult<Value> {
        let Item::Value(Value::Tensor(mask), mask_span) = &items[mask_position] else {
            return Err(Diagnostic::error(
                "internal error: no array to index with",
                span,
            ));
        };
        let (mask, mask_span) = (*mask, *mask_span);
        let is_mask = self.dtype(mask).is_bool();
        // The axes of x the array stands for, and the axes of the result it makes.
        let (k, result_axes) = if is_mask {
            (self.shape(mask).len(), 1)
        } else {
            (1, self.shape(mask).len())
        };
        if k == 0 {
            return Err(Diagnostic::error(
                "not supported yet: a 0-d boolean index",
                mask_span,
            ));
        }
        // The mask stands for k whole axes while the other items are applied.
        let whole = || Item::Slice {
            parts: [None, None, None],
            span: mask_span,
        };
        let mut basic: Vec<Item> = Vec::with_capacity(items.len() + k);
        for (position, item) in items.iter().enumerate() {
            if position == mask_position {
                basic.extend((0..k).map(|_| whole()));
            } else {
                basic.push(item.clone());
            }
        }
        let Value::Tensor(indexed) = self.index_tensor(id, &basic, span)? else {
            return Ok(Value::Poison);
        };
        // Where the mask's axes are, in x and in the basic-indexed result.
        let ndim = self.shape(id).len();
        let (x_axis, out_axis) = self.item_axes(items, ndim)[mask_position];
        let indexed_shape = self.shape(indexed).to_vec();
        if !is_mask {
            let taken = self.take_along(indexed, mask, out_axis, x_axis, mask_span)?;
            return self.advanced_first(taken, items, mask_position, out_axis, result_axes, span);
        }
        let mask_shape = self.shape(mask).to_vec();
        mask_fits(
            &indexed_shape[out_axis..out_axis + k],
            &mask_shape,
            x_axis,
            mask_span,
        )?;
        let selected = self.select(indexed, mask, out_axis, span)?;
        self.advanced_first(selected, items, mask_position, out_axis, 1, span)
    }

    /// Where each item of a subscript starts: its first axis in the indexed tensor
    /// (of `ndim` axes), and in the tensor the basic items make with every array
    /// item kept whole — a boolean array standing for as many axes as it has, an
    /// integer array for one, `...` for what the others leave. One more entry at
    /// the end: where the items end (the axes they index in all).
    pub(super) fn item_axes(&self, items: &[Item], ndim: usize) -> Vec<(usize, usize)> {
        let axes_of = |item: &Item| match item {
            Item::Value(Value::Tensor(t), _) if self.dtype(*t).is_bool() => self.shape(*t).len(),
            Item::Value(Value::None | Value::Ellipsis, _) => 0,
            _ => 1,
        };
        let consumed: usize = items.iter().map(axes_of).sum();
        let (mut x_axis, mut out_axis) = (0, 0);
        let mut starts = Vec::with_capacity(items.len() + 1);
        for item in items {
            starts.push((x_axis, out_axis));
            let (taken, made) = match item {
                Item::Value(Value::Int(_), _) => (1, 0),
                Item::Value(Value::None, _) => (0, 1),
                Item::Value(Value::Ellipsis, _) => {
                    let expanded = ndim.saturating_sub(consumed);
                    (expanded, expanded)
                }
                other => (axes_of(other), axes_of(other)),
            };
            x_axis += taken;
            out_axis += made;
        }
        starts.push((x_axis, out_axis));
        starts
    }

    /// `result` (of an array index at `array_position` whose `result_axes` axes sit
    /// at `out_axis`) with those axes moved first when integer items are apart from
    /// the array, as NumPy places advanced indices.
    fn advanced_first(
        &mut self,
        result: Option<TileableId>,
        items: &[Item],
        array_position: usize,
        out_axis: usize,
        result_axes: usize,
        span: Span,
    ) -> LowerResult<Value> {
        let Some(selected) = result else {
            return Ok(Value::Poison);
        };
        let advanced: Vec<usize> = items
            .iter()
            .enumerate()
            .filter(|(p, item)| {
                *p == array_position || matches!(item, Item::Value(Value::Int(_), _))
            })
            .map(|(p, _)| p)
            .collect();
        let adjacent = advanced.last().map_or(0, |last| last + 1) - advanced[0] == advanced.len();
        if adjacent || out_axis == 0 {
            return Ok(Value::Tensor(selected));
        }
        let ndim = self.shape(selected).len();
        let moved = out_axis..out_axis + result_axes;
        let axes: Vec<i64> = moved
            .clone()
            .chain((0..ndim).filter(|a| !moved.contains(a)))
            .map(|a| a as i64)
            .collect();
        Ok(Value::Tensor(self.transpose_tensor(
            selected,
            Some(&axes),
            span,
            span,
        )?))
    }

    /// `x` with its axes `axis..axis + mask.ndim` replaced by the positions where
    /// `mask` (a boolean tensor of those axes' shape) is true, in C order. Runs the
    /// stage that counts each block's selection; `None` when no stage could run.
    pub(super) fn select(
        &mut self,
        x: TileableId,
        mask: TileableId,
        axis: usize,
        span: Span,
    ) -> LowerResult<Option<TileableId>> {
        Ok(self
            .select_all(&[x], mask, axis, span)?
            .and_then(|selected| selected.first().copied()))
    }

    /// [`select`](Self::select) of several tensors of one shape by one mask, with
    /// one stage counting the mask's blocks for all of them.
    pub(super) fn select_all(
        &mut self,
        xs: &[TileableId],
        mask: TileableId,
        axis: usize,
        span: Span,
    ) -> LowerResult<Option<Vec<TileableId>>> {
        let Some(&first) = xs.first() else {
            return Ok(Some(Vec::new()));
        };
        let k = self.shape(mask).len();
        let x_shape = self.shape(first).to_vec();
        let blocks = self.block_splits(first, axis, k);
        let mut mask_splits = vec![blocks.clone()];
        mask_splits.extend(x_shape[axis + 1..axis + k].iter().map(|&len| vec![len]));
        let mask = self.rechunk_to_splits(mask, mask_splits, span);
        let counts_node = self.add_with_splits(
            TileOp::BlockCounts,
            vec![mask],
            vec![blocks.len()],
            DType::Int64,
            vec![vec![1; blocks.len()]],
            span,
        );
        let Some(data) = self.stage_value(counts_node, span) else {
            return Ok(None);
        };
        let width: usize = x_shape[axis + 1..axis + k].iter().product();
        let counts: Option<Vec<usize>> = match data {
            ArrayData::Int64(values) => values
                .iter()
                .zip(&blocks)
                .map(|(&c, &rows)| usize::try_from(c).ok().filter(|&c| c <= rows * width))
                .collect(),
            _ => None,
        };
        let Some(counts) = counts.filter(|counts| counts.len() == blocks.len()) else {
            return Err(Diagnostic::error(
                "internal error: a stage gave block counts that do not fit the mask",
                span,
            ));
        };
        let counts: Arc<[usize]> = Arc::from(counts);
        let mut shape = x_shape[..axis].to_vec();
        shape.push(counts.iter().sum());
        shape.extend_from_slice(&x_shape[axis + k..]);
        xs.iter()
            .map(|&x| {
                let mut x_splits = self.node(x).nsplits.clone();
                x_splits[axis] = blocks.clone();
                for a in axis + 1..axis + k {
                    x_splits[a] = vec![x_shape[a]];
                }
                let x = self.rechunk_to_splits(x, x_splits, span);
                let op = TileOp::Compress {
                    axis,
                    counts: counts.clone(),
                };
                let dtype = self.dtype(x);
                self.add_derived(op, vec![x, mask], shape.clone(), dtype, span)
            })
            .collect::<LowerResult<Vec<_>>>()
            .map(Some)
    }

    /// A call of one of the selection functions.
    pub(super) fn selection(&mut self, kind: Selection, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        let selected = match kind {
            Selection::Nonzero => {
                // `where(condition)` names its argument `condition`.
                let arg = match args.signature().name {
                    "where" => args.get("condition"),
                    _ => args.get("a"),
                };
                let a = self.tensor_of(&arg, None, "`a`")?;
                self.nonzero(a, span)?
                    .map(|ids| Value::tuple(ids.into_iter().map(Value::Tensor).collect()))
            }
            Selection::FlatNonzero => {
                let a = self.tensor_of(&args.get("a"), None, "`a`")?;
                let flat = self.ravel_tensor(a, span)?;
                self.nonzero(flat, span)?
                    .and_then(|mut coordinates| coordinates.pop())
                    .map(Value::Tensor)
            }
            Selection::ArgWhere => {
                let a = self.tensor_of(&args.get("a"), None, "`a`")?;
                self.argwhere(a, span)?.map(Value::Tensor)
            }
            Selection::Compress | Selection::CompressMethod => {
                let condition = self.tensor_of(&args.get("condition"), None, "`condition`")?;
                let a = match kind {
                    Selection::CompressMethod => args.receiver(),
                    _ => args.get("a"),
                };
                let a = self.tensor_of(&a, None, "`a`")?;
                let axis = args.get("axis");
                let axis = match axis.value {
                    Value::None => None,
                    _ => Some((int_arg(&axis, "axis")?, axis.span)),
                };
                self.compress(condition, a, axis, span)?.map(Value::Tensor)
            }
            Selection::Take | Selection::TakeMethod => {
                let a = match kind {
                    Selection::TakeMethod => args.receiver(),
                    _ => args.get("a"),
                };
                let a = self.tensor_of(&a, None, "`a`")?;
                let indices = args.get("indices");
                let axis = args.get("axis");
                let (a, axis) = match axis.value {
                    Value::None => (self.ravel_tensor(a, span)?, 0),
                    _ => {
                        let ndim = self.shape(a).len();
                        let axis = normalize_axis(int_arg(&axis, "axis")?, ndim)
                            .map_err(|e| at(e, axis.span))?;
                        (a, axis)
                    }
                };
                // `take` is indexing along one axis: `a[:, ..., indices]`.
                let mut items: Vec<Item> = (0..axis)
                    .map(|_| Item::Slice {
                        parts: [None, None, None],
                        span,
                    })
                    .collect();
                // NumPy takes a list of bools as the indices 0 and 1, not as a mask.
                let index = match indices.value {
                    Value::List(_) | Value::Tuple(..) => {
                        Value::Tensor(self.tensor_of(&indices, Some(DType::Int64), "`indices`")?)
                    }
                    ref other => other.clone(),
                };
                items.push(Item::Value(index, indices.span));
                if let Value::Tensor(t) = indices.value {
                    if self.dtype(t).is_bool() {
                        return Err(Diagnostic::error(
                            "not supported yet: `take` with boolean indices",
                            indices.span,
                        ));
                    }
                }
                Some(self.index_tensor(a, &items, span)?)
            }
            Selection::IsIn => {
                let element = self.tensor_of(&args.get("element"), None, "`element`")?;
                let tests = args.get("test_elements");
                bool_arg(&args.get("assume_unique"), "assume_unique")?;
                let invert = bool_arg(&args.get("invert"), "invert")?;
                self.isin(element, &tests, invert, span)?.map(Value::Tensor)
            }
            Selection::Digitize => {
                let x = self.tensor_of(&args.get("x"), None, "`x`")?;
                let right = bool_arg(&args.get("right"), "right")?;
                self.digitize(x, &args.get("bins"), right, span)?
                    .map(Value::Tensor)
            }
            Selection::Extract => {
                let condition = self.tensor_of(&args.get("condition"), None, "`condition`")?;
                let arr = self.tensor_of(&args.get("arr"), None, "`arr`")?;
                let (size, condition_size) = (self.size(arr), self.size(condition));
                if size != condition_size {
                    return Err(Diagnostic::error(
                        format!(
                            "not supported yet: `extract` with a condition of {condition_size} \
                             elements for an array of {size}"
                        ),
                        args.get("condition").span,
                    ));
                }
                let flat = self.ravel_tensor(condition, span)?;
                let arr = self.ravel_tensor(arr, span)?;
                self.compress(flat, arr, Some((0, span)), span)?
                    .map(Value::Tensor)
            }
        };
        Ok(selected.unwrap_or(Value::Poison))
    }

    /// `isin(element, tests)`: whether each element equals one of the test
    /// elements (NaN equals none), compared one by one; a tensor of tests is read
    /// in a stage. More than [`MAX_ISIN_ELEMENTS`] tests is not supported yet.
    fn isin(
        &mut self,
        element: TileableId,
        tests: &super::bind::Arg,
        invert: bool,
        span: Span,
    ) -> LowerResult<Option<TileableId>> {
        let Some(values) = self.few_values(tests, "`isin` with", "test elements", span)? else {
            return Ok(None);
        };
        let mut found: Option<TileableId> = None;
        for value in values {
            let equal = self.apply("equal", vec![Value::Tensor(element), value], span)?;
            found = Some(match found {
                None => equal,
                Some(so_far) => self.apply(
                    "logical_or",
                    vec![Value::Tensor(so_far), Value::Tensor(equal)],
                    span,
                )?,
            });
        }
        let found = match found {
            Some(found) => found,
            None => {
                // No test elements: nothing is in them.
                self.apply(
                    "zeros_like",
                    vec![Value::Tensor(element), Value::str("bool")],
                    span,
                )?
            }
        };
        if invert {
            return Ok(Some(self.apply(
                "logical_not",
                vec![Value::Tensor(found)],
                span,
            )?));
        }
        Ok(Some(found))
    }

    /// The values of a Python list (flattened), a scalar, or a small tensor (read in
    /// a stage; `None` when no stage could run): at most [`MAX_ISIN_ELEMENTS`], else
    /// "not supported yet: {what} N {things}".
    fn few_values(
        &mut self,
        arg: &super::bind::Arg,
        what: &str,
        things: &str,
        span: Span,
    ) -> LowerResult<Option<Vec<Value>>> {
        let too_many = |count: usize| {
            Diagnostic::error(
                format!("not supported yet: {what} {count} {things} (at most {MAX_ISIN_ELEMENTS})"),
                arg.span,
            )
        };
        let values: Vec<Value> = match &arg.value {
            Value::Tensor(id) => {
                if self.size(*id) > MAX_ISIN_ELEMENTS {
                    return Err(too_many(self.size(*id)));
                }
                let flat = self.ravel_tensor(*id, span)?;
                match self.staged_list(flat, span) {
                    Some(Value::List(items)) => items.to_vec(),
                    Some(other) => vec![other],
                    None => return Ok(None),
                }
            }
            Value::List(items) | Value::Tuple(items, _) => flatten_python(items),
            scalar => vec![scalar.clone()],
        };
        if values.len() > MAX_ISIN_ELEMENTS {
            return Err(too_many(values.len()));
        }
        Ok(Some(values))
    }

    /// `digitize(x, bins, right)`: the index of each element's bin, as NumPy's
    /// `searchsorted` gives it (a NaN sorts after every edge), counted edge by edge.
    fn digitize(
        &mut self,
        x: TileableId,
        bins: &super::bind::Arg,
        right: bool,
        span: Span,
    ) -> LowerResult<Option<TileableId>> {
        if let Value::Tensor(id) = bins.value {
            if self.shape(id).len() != 1 {
                return Err(
                    Diagnostic::error("object too deep for desired array", bins.span)
                        .with_note("`bins` must be 1-D"),
                );
            }
        }
        let Some(edges) = self.few_values(bins, "`digitize` with", "bin edges", span)? else {
            return Ok(None);
        };
        let numbers: Vec<f64> = edges
            .iter()
            .map(|value| match value {
                Value::Int(v) => Ok(*v as f64),
                Value::Float(v) => Ok(*v),
                Value::Bool(b) => Ok(f64::from(u8::from(*b))),
                other => Err(Diagnostic::error(
                    format!("bin edges must be numbers, got {}", other.type_name()),
                    bins.span,
                )),
            })
            .collect::<LowerResult<_>>()?;
        let increasing = numbers.windows(2).all(|w| w[0] <= w[1]);
        let decreasing = numbers.windows(2).all(|w| w[0] >= w[1]);
        if !increasing && !decreasing {
            return Err(Diagnostic::error(
                "bins must be monotonically increasing or decreasing",
                bins.span,
            ));
        }
        // Increasing: how many edges lie at or below x (below it with `right`).
        // Decreasing: that count taken from the end, as NumPy reverses the bins.
        let compare = if right { "less" } else { "less_equal" };
        let mut count = self.apply(
            "zeros_like",
            vec![Value::Tensor(x), Value::str("int64")],
            span,
        )?;
        for edge in edges {
            let below = self.apply(compare, vec![edge, Value::Tensor(x)], span)?;
            let below = self.cast(below, DType::Int64, span)?;
            count = self.apply(
                "add",
                vec![Value::Tensor(count), Value::Tensor(below)],
                span,
            )?;
        }
        let len = Value::Int(numbers.len() as i64);
        if !increasing {
            count = self.apply("subtract", vec![len.clone(), Value::Tensor(count)], span)?;
        }
        if !self.dtype(x).is_float() {
            return Ok(Some(count));
        }
        // A NaN sorts after every edge: the last bin when increasing, the first when not.
        let nan = self.apply("isnan", vec![Value::Tensor(x)], span)?;
        let at_nan = if increasing { len } else { Value::Int(0) };
        Ok(Some(self.apply(
            "where",
            vec![Value::Tensor(nan), at_nan, Value::Tensor(count)],
            span,
        )?))
    }

    /// NumPy's truth of each element (`a != 0`; a boolean tensor is its own).
    fn truth_mask(&mut self, a: TileableId, span: Span) -> LowerResult<TileableId> {
        if self.dtype(a).is_bool() {
            return Ok(a);
        }
        self.apply("not_equal", vec![Value::Tensor(a), Value::Int(0)], span)
    }

    /// `nonzero(a)`: per axis, the coordinates of a's nonzero elements in C order.
    pub(super) fn nonzero(
        &mut self,
        a: TileableId,
        span: Span,
    ) -> LowerResult<Option<Vec<TileableId>>> {
        if self.shape(a).is_empty() {
            return Err(Diagnostic::error(
                "Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() instead.",
                span,
            ));
        }
        let mask = self.truth_mask(a, span)?;
        let coordinates = self.coordinates(mask, span)?;
        self.select_all(&coordinates, mask, 0, span)
    }

    /// `argwhere(a)`: the coordinates of a's nonzero elements as the rows of an
    /// `(N, a.ndim)` tensor.
    fn argwhere(&mut self, a: TileableId, span: Span) -> LowerResult<Option<TileableId>> {
        let ndim = self.shape(a).len();
        if ndim == 0 {
            return Err(Diagnostic::error(
                "not supported yet: `argwhere` of a 0-d tensor",
                span,
            ));
        }
        let mask = self.truth_mask(a, span)?;
        let coordinates = self.coordinates(mask, span)?;
        // Each coordinate with a trailing axis, joined along it: (..., ndim).
        let columns = coordinates
            .into_iter()
            .map(|c| self.expand_dims_tensor(c, &[-1], span, span))
            .collect::<LowerResult<Vec<_>>>()?;
        let stacked = self.apply(
            "concatenate",
            vec![
                Value::tuple(columns.into_iter().map(Value::Tensor).collect()),
                Value::Int(-1),
            ],
            span,
        )?;
        self.select(stacked, mask, 0, span)
    }

    /// `compress(condition, a, axis)`: the positions of `a` along `axis` (of the
    /// flattened `a` without one) where the 1-D condition is true; a shorter
    /// condition selects among the first positions only, as NumPy's does.
    fn compress(
        &mut self,
        condition: TileableId,
        a: TileableId,
        axis: Option<(i64, Span)>,
        span: Span,
    ) -> LowerResult<Option<TileableId>> {
        if self.shape(condition).len() != 1 {
            return Err(Diagnostic::error("condition must be a 1-d array", span));
        }
        let (a, axis) = match axis {
            None => (self.ravel_tensor(a, span)?, 0),
            Some((axis, axis_span)) => {
                let ndim = self.shape(a).len();
                (a, normalize_axis(axis, ndim).map_err(|e| at(e, axis_span))?)
            }
        };
        let (len, n) = (self.shape(a)[axis], self.shape(condition)[0]);
        if n > len {
            return Err(Diagnostic::error(
                format!(
                    "not supported yet: `compress` with a condition of length {n} along an axis of length {len}"
                ),
                span,
            ));
        }
        let a = if n < len {
            self.slice_axis(a, axis, 0, n, span)?
        } else {
            a
        };
        let mask = self.truth_mask(condition, span)?;
        self.select(a, mask, axis, span)
    }

    /// Per axis of `mask`, a tensor of its shape and chunks holding each element's
    /// coordinate along that axis (int64), made of a broadcast `arange`.
    fn coordinates(&mut self, mask: TileableId, span: Span) -> LowerResult<Vec<TileableId>> {
        let shape = self.shape(mask).to_vec();
        let nsplits = self.node(mask).nsplits.clone();
        let zeros = (shape.len() > 1).then(|| {
            self.add_with_splits(
                TileOp::Create(Creation::Full(Scalar::Int64(0))),
                vec![],
                shape.clone(),
                DType::Int64,
                nsplits.clone(),
                span,
            )
        });
        (0..shape.len())
            .map(|axis| {
                let arange = self.add_with_splits(
                    TileOp::Create(Creation::Arange {
                        start: Scalar::Int64(0),
                        step: Scalar::Int64(1),
                    }),
                    vec![],
                    vec![shape[axis]],
                    DType::Int64,
                    vec![nsplits[axis].clone()],
                    span,
                );
                let Some(zeros) = zeros else {
                    return Ok(arange);
                };
                let others: Vec<i64> = (0..shape.len())
                    .filter(|&a| a != axis)
                    .map(|a| a as i64)
                    .collect();
                let placed = self.expand_dims_tensor(arange, &others, span, span)?;
                self.apply(
                    "add",
                    vec![Value::Tensor(placed), Value::Tensor(zeros)],
                    span,
                )
            })
            .collect()
    }

    /// `x` with its axis `axis` replaced by the axes of `idx` (integer indices into
    /// it; negative ones count from the end): a stage finds which chunks of x along
    /// the axis each index chunk needs (and any index out of bounds, NumPy's
    /// `IndexError` against `x_axis` of the indexed tensor, at `span`), then a gather
    /// reads only those. `None` when no stage could run.
    pub(super) fn take_along(
        &mut self,
        x: TileableId,
        idx: TileableId,
        axis: usize,
        x_axis: usize,
        span: Span,
    ) -> LowerResult<Option<TileableId>> {
        let idx_shape = self.shape(idx).to_vec();
        let flat = self.ravel_tensor(idx, span)?;
        let blocks = self.node(x).nsplits[axis].clone();
        let Some(rows) = self.index_block_counts(&blocks, flat, x_axis, span)? else {
            return Ok(None);
        };
        self.gather_counted(x, (flat, &idx_shape), &rows, axis, span)
            .map(Some)
    }

    /// [`take_along`](Self::take_along) once the stage has counted, per chunk of
    /// the raveled index `flat` (of shape `idx_shape`), its indices in each block of
    /// x along `axis` (`rows`, from [`index_block_counts`](Self::index_block_counts)).
    pub(super) fn gather_counted(
        &mut self,
        x: TileableId,
        (flat, idx_shape): (TileableId, &[usize]),
        rows: &[Vec<i64>],
        axis: usize,
        span: Span,
    ) -> LowerResult<TileableId> {
        let blocks = self.node(x).nsplits[axis].len();
        let touched: Vec<Vec<u32>> = rows
            .iter()
            .map(|row| {
                let mut reads: Vec<u32> = (0..blocks as u32)
                    .filter(|&b| row[b as usize] > 0)
                    .collect();
                if reads.is_empty() {
                    reads.push(0);
                }
                reads
            })
            .collect();
        let mut shape = self.shape(x).to_vec();
        shape[axis] = self.shape(flat)[0];
        let dtype = self.dtype(x);
        let op = TileOp::Gather {
            axis,
            touched: Arc::from(touched),
        };
        let gathered = self.add_derived(op, vec![x, flat], shape.clone(), dtype, span)?;
        if idx_shape.len() == 1 {
            return Ok(gathered);
        }
        // The index's own shape in place of the gathered axis.
        let mut target: Vec<i64> = shape[..axis].iter().map(|&n| n as i64).collect();
        target.extend(idx_shape.iter().map(|&n| n as i64));
        target.extend(shape[axis + 1..].iter().map(|&n| n as i64));
        self.reshape_tensor(gathered, &target, span, span)
    }

    /// Per chunk of the 1-D integer index `flat`, how many of its indices fall in
    /// each block (`blocks`, the chunk lengths of an axis) — counted in a stage,
    /// which also finds an index out of bounds: NumPy's `IndexError` against axis
    /// `x_axis`, at `span`. `None` when no stage could run.
    pub(super) fn index_block_counts(
        &mut self,
        blocks: &[usize],
        flat: TileableId,
        x_axis: usize,
        span: Span,
    ) -> LowerResult<Option<Vec<Vec<i64>>>> {
        let len: usize = blocks.iter().sum();
        let index_chunks = self.node(flat).nsplits[0].len();
        let counts_node = self.add_with_splits(
            TileOp::IndexBlocks {
                splits: Arc::from(blocks),
            },
            vec![flat],
            vec![index_chunks, blocks.len() + 2],
            DType::Int64,
            vec![vec![1; index_chunks], vec![blocks.len() + 2]],
            span,
        );
        let width = blocks.len() + 2;
        let Some(values) = self.staged_counts(counts_node, index_chunks * width, span)? else {
            return Ok(None);
        };
        let mut counts = Vec::with_capacity(index_chunks);
        for row in values.chunks_exact(width) {
            if row[blocks.len()] > 0 {
                let bad = row[blocks.len() + 1];
                return Err(Diagnostic::error(
                    format!("index {bad} is out of bounds for axis {x_axis} with size {len}"),
                    span,
                ));
            }
            counts.push(row[..blocks.len()].to_vec());
        }
        Ok(Some(counts))
    }

    /// The `len` int64 counts of node `counts` (a stage's index or block counts),
    /// computed in a stage, in C order; `None` when no stage could run.
    pub(super) fn staged_counts(
        &mut self,
        counts: TileableId,
        len: usize,
        span: Span,
    ) -> LowerResult<Option<Vec<i64>>> {
        let Some(data) = self.stage_value(counts, span) else {
            return Ok(None);
        };
        let ArrayData::Int64(values) = data else {
            return Err(Diagnostic::error(
                "internal error: index counts are not int64",
                span,
            ));
        };
        let values = values.as_standard_layout();
        match values.as_slice().filter(|v| v.len() == len) {
            Some(values) => Ok(Some(values.to_vec())),
            None => Err(Diagnostic::error(
                "internal error: a stage gave index counts that do not fit the index",
                span,
            )),
        }
    }

    /// Whether `id` is the result of an array index (a copy, never a view).
    pub(super) fn is_selection(&self, id: TileableId) -> bool {
        match &self.node(id).op {
            TileOp::Compress { .. } | TileOp::Gather { .. } => true,
            TileOp::Shape(ShapeOp::Transpose { .. } | ShapeOp::Reshape) => matches!(
                self.node(self.node(id).inputs[0]).op,
                TileOp::Compress { .. } | TileOp::Gather { .. }
            ),
            _ => false,
        }
    }

    /// How x is blocked along `axis` for a selection by a k-D mask: its own splits,
    /// cut finer where merging the mask's other axes into one chunk would make a
    /// block much bigger than a chunk may be.
    fn block_splits(&self, x: TileableId, axis: usize, k: usize) -> Vec<usize> {
        let node = self.node(x);
        let splits = node.nsplits[axis].clone();
        if k == 1 {
            return splits;
        }
        let widest_rest: usize = node
            .nsplits
            .iter()
            .enumerate()
            .filter(|&(a, _)| a != axis)
            .map(|(a, s)| {
                if a > axis && a < axis + k {
                    node.shape[a]
                } else {
                    s.iter().copied().max().unwrap_or(1)
                }
            })
            .product::<usize>()
            .max(1);
        let row_bytes = (widest_rest * node.dtype.itemsize()) as u64;
        let rows = (self.options.chunk_bytes / row_bytes.max(1)).max(1) as usize;
        splits
            .iter()
            .flat_map(|&len| {
                let pieces = len.div_ceil(rows).max(1);
                (0..pieces).map(move |p| {
                    let start = p * len / pieces;
                    (p + 1) * len / pieces - start
                })
            })
            .collect()
    }
}

/// The scalars of nested Python lists and tuples, in order.
fn flatten_python(items: &[Value]) -> Vec<Value> {
    items
        .iter()
        .flat_map(|item| match item {
            Value::List(inner) | Value::Tuple(inner, _) => flatten_python(inner),
            other => vec![other.clone()],
        })
        .collect()
}
