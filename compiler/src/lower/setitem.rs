//! Assignment through an index, NumPy's `__setitem__`: `x[idx] = v` and
//! `x[idx] OP= v`. The tensor is updated in place, as augmented assignment updates
//! it (every name bound to it and every view of it sees the change): the indexed
//! region is a view of `x`'s object, and its new value is written through it with
//! the same mechanism ([`Lowerer::write_object`]).
//!
//! - A basic index (integers, slices, `None`, `...`): the value is broadcast to the
//!   region's shape (NumPy's "could not broadcast input array from shape ... into
//!   shape ..." otherwise) and cast to `x`'s dtype as NumPy's assignment casts
//!   (unsafely: `a[0] = 2.7` stores 2 in an int array). `x[idx] OP= v` is the
//!   in-place operator on the region (NumPy's same-kind rule).
//! - A boolean mask of `x`'s shape, or of its leading axes: `x[mask] = v` is
//!   `where(mask, v, x)` written into `x`, for a value that fills every selected
//!   element (a scalar, or a row of the trailing axes); a value with one entry per
//!   selected element needs the mask's count, known only at run time: "not
//!   supported yet". `x[mask] OP= v` is `where(mask, x OP v, x)`, NumPy's same-kind
//!   rule checked as for `x OP= v`.
//!
//! Python evaluates `v` before `x[idx]` for `=`, and after it for `OP=`; so does this
//! (it decides which random stream each `random` call gets).

use super::indexing::Item;
use super::inplace::numpy_shape;
use super::value::Value;
use super::{LowerResult, Lowerer};
use crate::ops::{Creation, ShapeOp};
use crate::tileable::TileableId;
use marsc_grammar::ast::{BinOp, Expr, ExprKind, Ident};
use marsc_grammar::{Diagnostic, Span};
use marsc_runtime::DType;

impl Lowerer<'_> {
    /// `target = value` (`op` is `None`) or `target OP= value`, `target` a subscript.
    pub(super) fn set_item(&mut self, target: &Expr, op: Option<(BinOp, Span)>, value: &Expr) {
        let ExprKind::Subscript { value: base, items } = &target.kind else {
            self.report(Diagnostic::error(
                "internal error: an item assignment without a subscript",
                target.span,
            ));
            return;
        };
        let rhs = op.is_none().then(|| self.eval(value));
        let (object, origin) = self.eval_origin(base);
        let evaluated = self.subscript_items(items);
        let rhs = match rhs {
            Some(rhs) => rhs,
            None => self.eval(value),
        };
        let (Some(evaluated), false, false) = (evaluated, object.is_poison(), rhs.is_poison())
        else {
            return;
        };
        let base_id = match object {
            Value::Tensor(id) => id,
            other => {
                let message = match other {
                    Value::List(_) => {
                        "not supported yet: assigning to an item of a list (build a new list)"
                            .to_string()
                    }
                    other => format!(
                        "'{}' object does not support item assignment",
                        other.type_name()
                    ),
                };
                self.report(Diagnostic::error(message, target.span));
                return;
            }
        };
        let name = match &base.kind {
            ExprKind::Name(name) => name.clone(),
            _ => "the tensor".to_string(),
        };
        let target_ident = Ident {
            name,
            span: target.span,
        };
        let rhs = (rhs, value.span);
        let indices = match self.index_array_of(base_id, &evaluated) {
            Ok(indices) => indices,
            Err(diagnostic) => {
                self.report(diagnostic);
                return;
            }
        };
        let result = match mask_of(self, &evaluated) {
            _ if op.is_none() && self.is_read_only(origin.clone(), base_id, target.span) => Err(
                Diagnostic::error("assignment destination is read-only", target.span).with_help(
                    "`broadcast_to` gives a read-only view; assign into a `.copy()` of it",
                ),
            ),
            Some((mask, mask_span)) => {
                let Some(object) = self.origin_object(origin, base_id, target.span) else {
                    // Assigning into a temporary: nothing the program can see changes.
                    return;
                };
                self.set_masked(object, (base_id, &target_ident), (mask, mask_span), op, rhs)
            }
            None if indices.is_some() => {
                let Some(object) = self.origin_object(origin, base_id, target.span) else {
                    return;
                };
                let Some(indices) = indices else {
                    return;
                };
                self.set_indexed(object, (base_id, &target_ident), indices, op, rhs)
            }
            None if evaluated.iter().any(|item| match item {
                Item::Value(Value::List(_), _) => true,
                Item::Value(Value::Tensor(id), _) => !self.shape(*id).is_empty(),
                _ => false,
            }) =>
            {
                Err(Diagnostic::error(
                    "not supported yet: assigning through an integer array mixed with other \
                     indices than whole slices, or through a boolean mask mixed with other indices",
                    target.span,
                )
                .with_help("write `x = mt.where(mask, v, x)` with a mask of x's shape"))
            }
            None => {
                let region = self.subscript_evaluated(
                    Value::Tensor(base_id),
                    base.span,
                    evaluated,
                    target.span,
                );
                let Value::Tensor(region) = region else {
                    return;
                };
                let Some(object) = self.indexed_object(origin, base_id, region, target.span) else {
                    return;
                };
                self.set_region(object, region, &target_ident, op, rhs)
            }
        };
        if let Err(diagnostic) = result {
            self.report(diagnostic);
        }
    }

    /// Whether the value with this origin is a read-only view (of `broadcast_to`).
    fn is_read_only(
        &mut self,
        origin: super::views::Origin,
        value: TileableId,
        span: Span,
    ) -> bool {
        self.origin_object(origin, value, span).is_some_and(|object| {
            matches!(&self.object(object).kind, super::objects::ObjectKind::View(view) if view.read_only)
        })
    }

    /// `x[basic index] (OP)= v`: `region` is the view object's current value.
    fn set_region(
        &mut self,
        object: super::objects::ObjectId,
        region: TileableId,
        target: &Ident,
        op: Option<(BinOp, Span)>,
        (rhs, rhs_span): (Value, Span),
    ) -> LowerResult<()> {
        let span = target.span;
        let new = match op {
            None => {
                let dtype = self.dtype(region);
                let shape = self.shape(region).to_vec();
                self.assigned_value(rhs, rhs_span, &shape, dtype, span)?
            }
            Some((op, op_span)) => {
                self.in_place_result(object, region, op, op_span, (target, rhs, rhs_span))?
            }
        };
        self.write_object(object, new, span)
    }

    /// `x[mask] (OP)= v`.
    fn set_masked(
        &mut self,
        object: super::objects::ObjectId,
        (current, target): (TileableId, &Ident),
        (mask, mask_span): (TileableId, Span),
        op: Option<(BinOp, Span)>,
        (rhs, rhs_span): (Value, Span),
    ) -> LowerResult<()> {
        let span = target.span;
        let shape = self.shape(current).to_vec();
        let dtype = self.dtype(current);
        let mask_shape = self.shape(mask).to_vec();
        if mask_shape.len() > shape.len() {
            return Err(Diagnostic::error(
                format!(
                    "too many indices for array: array is {}-dimensional, but {} were indexed",
                    shape.len(),
                    mask_shape.len()
                ),
                mask_span,
            ));
        }
        if let Some(axis) = (0..mask_shape.len()).find(|&a| mask_shape[a] != shape[a]) {
            return Err(Diagnostic::error(
                format!(
                    "boolean index did not match indexed array along axis {axis}; size of axis is {} but size of corresponding boolean axis is {}",
                    shape[axis], mask_shape[axis]
                ),
                mask_span,
            ));
        }
        // The mask over `x`'s axes: its own, then length 1 along the trailing ones.
        let trailing = &shape[mask_shape.len()..];
        let mut dims: Vec<i64> = mask_shape.iter().map(|&n| n as i64).collect();
        dims.extend(trailing.iter().map(|_| 1));
        let full_mask = if trailing.is_empty() {
            mask
        } else {
            self.reshape_tensor(mask, &dims, mask_span, mask_span)?
        };
        let updated = match op {
            None => {
                // A list is made a tensor first, to see its shape.
                let rhs = match rhs {
                    Value::List(_) | Value::Tuple(..) => {
                        let arg = super::bind::Arg {
                            value: rhs,
                            span: rhs_span,
                        };
                        Value::Tensor(self.tensor_of(&arg, None, "the assigned value")?)
                    }
                    other => other,
                };
                let rhs_shape = self.value_shape(&rhs);
                let fills_each = rhs_shape
                    .as_deref()
                    .is_some_and(|s| fits_trailing(s, trailing));
                if !fills_each {
                    return Err(Diagnostic::error(
                        "not supported yet: assigning one value per selected element through a boolean mask (how many it selects is known only at run time)",
                        rhs_span,
                    )
                    .with_help("assign a single value, or a row of the trailing axes; or write `x = mt.where(mask, values, x)` when the values have x's shape"));
                }
                self.assigned_value(rhs, rhs_span, trailing, dtype, span)?
            }
            Some((op, op_span)) => {
                self.in_place_result(object, current, op, op_span, (target, rhs, rhs_span))?
            }
        };
        let chosen = self.library_call(
            "where",
            vec![
                Value::Tensor(full_mask),
                Value::Tensor(updated),
                Value::Tensor(current),
            ],
            span,
        )?;
        let Value::Tensor(chosen) = chosen else {
            return Err(Diagnostic::error(
                "internal error: `where` of tensors gave no tensor",
                span,
            ));
        };
        let new = self.cast(chosen, dtype, span)?;
        self.write_object(object, new, span)
    }

    /// The integer array of a subscript that indexes one axis with it and takes
    /// every other axis whole (`x[idx]`, `x[:, idx]`): the index as a tensor, its
    /// span and the axis. `None` for any other subscript; NumPy's error for an
    /// array of floats.
    fn index_array_of(
        &mut self,
        base: TileableId,
        items: &[Item],
    ) -> LowerResult<Option<(TileableId, Span, usize)>> {
        let whole = |item: &Item| {
            matches!(
                item,
                Item::Slice {
                    parts: [None, None, None],
                    ..
                }
            )
        };
        let arrays: Vec<usize> = (0..items.len()).filter(|&p| !whole(&items[p])).collect();
        let [axis] = arrays.as_slice() else {
            return Ok(None);
        };
        if items.len() > self.shape(base).len() {
            return Ok(None);
        }
        let (index, span) = match &items[*axis] {
            Item::Value(Value::Tensor(id), span) if !self.shape(*id).is_empty() => (*id, *span),
            Item::Value(value @ Value::List(_), span) => {
                let arg = super::bind::Arg {
                    value: value.clone(),
                    span: *span,
                };
                // An empty list indexes nothing, as NumPy's empty integer index.
                let dtype = match value.as_sequence() {
                    Some([]) => Some(DType::Int64),
                    _ => None,
                };
                (self.tensor_of(&arg, dtype, "the index")?, *span)
            }
            _ => return Ok(None),
        };
        match self.dtype(index) {
            int if int.is_int() => Ok(Some((index, span, *axis))),
            // A boolean list is a mask, left to the mask's rules.
            DType::Bool => Ok(None),
            _ => Err(Diagnostic::error(
                "arrays used as indices must be of integer (or boolean) type",
                span,
            )),
        }
    }

    /// `x[..., idx, ...] (OP)= v` with an integer index on one axis: the values (for
    /// `OP=`, NumPy's buffered `x[idx] OP v`: each distinct position updated once)
    /// are scattered into x, the last of repeated indices winning, as in NumPy. A
    /// stage finds which index chunks each block of x needs, and an index out of
    /// bounds (the `IndexError` of reading `x[idx]`).
    fn set_indexed(
        &mut self,
        object: super::objects::ObjectId,
        (current, target): (TileableId, &Ident),
        (index, index_span, axis): (TileableId, Span, usize),
        op: Option<(BinOp, Span)>,
        (rhs, rhs_span): (Value, Span),
    ) -> LowerResult<()> {
        let span = target.span;
        let shape = self.shape(current).to_vec();
        let dtype = self.dtype(current);
        let index_shape = self.shape(index).to_vec();
        let mut region_shape = shape[..axis].to_vec();
        region_shape.extend_from_slice(&index_shape);
        region_shape.extend_from_slice(&shape[axis + 1..]);
        let (values, counted) = match op {
            None => {
                // A list is made a tensor first, to see its shape.
                let rhs = match rhs {
                    Value::List(_) | Value::Tuple(..) => {
                        let arg = super::bind::Arg {
                            value: rhs,
                            span: rhs_span,
                        };
                        Value::Tensor(self.tensor_of(&arg, None, "the assigned value")?)
                    }
                    other => other,
                };
                let value_shape = self.value_shape(&rhs).unwrap_or_default();
                if !broadcasts_into(&value_shape, &region_shape) {
                    return Err(Diagnostic::error(
                        format!(
                            "shape mismatch: value array of shape {} could not be broadcast to \
                             indexing result of shape {}",
                            numpy_shape(&value_shape),
                            numpy_shape(&region_shape)
                        ),
                        rhs_span,
                    ));
                }
                let values = self.assigned_value(rhs, rhs_span, &region_shape, dtype, span)?;
                (values, None)
            }
            Some((op, op_span)) => {
                // NumPy's checks of `x[idx] OP v` (dtypes, shapes) on a stand-in of
                // the region, so that they come before the stage.
                let stand_in = self.add_derived(
                    crate::tileable::TileOp::Create(Creation::Full(
                        marsc_runtime::Scalar::from_f64(0.0, dtype),
                    )),
                    vec![],
                    region_shape.clone(),
                    dtype,
                    span,
                )?;
                let operands = (target, rhs.clone(), rhs_span);
                self.in_place_result(object, stand_in, op, op_span, operands)?;
                let Some((flat, rows)) = self.count_index(current, index, axis, index_span)? else {
                    return Ok(());
                };
                let region =
                    self.gather_counted(current, (flat, &index_shape), &rows, axis, index_span)?;
                let values =
                    self.in_place_result(object, region, op, op_span, (target, rhs, rhs_span))?;
                (values, Some((flat, rows)))
            }
        };
        let (flat, rows) = match counted {
            Some(counted) => counted,
            None => match self.count_index(current, index, axis, index_span)? {
                Some(counted) => counted,
                None => return Ok(()),
            },
        };
        let count = self.shape(flat)[0];
        let values = if index_shape.len() == 1 {
            values
        } else {
            let mut dims: Vec<i64> = shape.iter().map(|&n| n as i64).collect();
            dims[axis] = count as i64;
            self.reshape_tensor(values, &dims, span, span)?
        };
        let blocks = self.node(current).nsplits[axis].len();
        let touched: Vec<Vec<u32>> = (0..blocks)
            .map(|b| {
                (0..rows.len() as u32)
                    .filter(|&i| rows[i as usize][b] > 0)
                    .collect()
            })
            .collect();
        let mut splits = self.node(current).nsplits.clone();
        splits[axis] = self.node(flat).nsplits[0].clone();
        let values = self.rechunk_to_splits(values, splits, span);
        let op = crate::tileable::TileOp::Scatter {
            axis,
            touched: touched.into(),
        };
        let new = self.add_derived(op, vec![current, flat, values], shape, dtype, span)?;
        self.write_object(object, new, span)
    }

    /// The raveled index and, per chunk of it, how many of its indices fall in each
    /// block of `x` along `axis` (one stage, which also finds an index out of
    /// bounds); `None` when no stage could run.
    fn count_index(
        &mut self,
        x: TileableId,
        index: TileableId,
        axis: usize,
        index_span: Span,
    ) -> LowerResult<Option<(TileableId, Vec<Vec<i64>>)>> {
        let flat = self.ravel_tensor(index, index_span)?;
        let blocks = self.node(x).nsplits[axis].clone();
        Ok(self
            .index_block_counts(&blocks, flat, axis, index_span)?
            .map(|rows| (flat, rows)))
    }

    /// The shape of a value assigned into a tensor (a Python scalar is 0-d), `None`
    /// for anything else.
    fn value_shape(&self, value: &Value) -> Option<Vec<usize>> {
        match value {
            Value::Tensor(id) => Some(self.shape(*id).to_vec()),
            Value::Int(_) | Value::Float(_) | Value::Complex(..) | Value::Bool(_) => {
                Some(Vec::new())
            }
            _ => None,
        }
    }

    /// `value` as NumPy stores it into a region of `shape` and `dtype`: made a
    /// tensor, broadcast to the shape, cast (unsafely, as assignment casts).
    fn assigned_value(
        &mut self,
        value: Value,
        value_span: Span,
        shape: &[usize],
        dtype: DType,
        span: Span,
    ) -> LowerResult<TileableId> {
        // A Python int is checked against an integer dtype's range, as NumPy does.
        let typed = match (&value, dtype) {
            (Value::Int(_) | Value::Bool(_), int) if int.is_int() => Some(dtype),
            _ => None,
        };
        let arg = super::bind::Arg {
            value,
            span: value_span,
        };
        let tensor = self.tensor_of(&arg, typed, "the assigned value")?;
        let mut value_shape = self.shape(tensor).to_vec();
        // Leading length-1 axes beyond the region's are dropped, as NumPy does.
        let extra = value_shape.len().saturating_sub(shape.len());
        if !broadcasts_into(&value_shape, shape) {
            return Err(Diagnostic::error(
                format!(
                    "could not broadcast input array from shape {} into shape {}",
                    numpy_shape(&value_shape),
                    numpy_shape(shape)
                ),
                value_span,
            ));
        }
        let mut tensor = tensor;
        if extra > 0 {
            value_shape.drain(..extra);
            let dims: Vec<i64> = value_shape.iter().map(|&n| n as i64).collect();
            tensor = self.reshape_tensor(tensor, &dims, value_span, value_span)?;
        }
        if value_shape != shape {
            let value_dtype = self.dtype(tensor);
            tensor = self.add_derived(
                crate::tileable::TileOp::Shape(ShapeOp::BroadcastTo),
                vec![tensor],
                shape.to_vec(),
                value_dtype,
                span,
            )?;
        }
        self.cast(tensor, dtype, span)
    }
}

/// The boolean mask a subscript is (its only item, a bool tensor).
fn mask_of(lowerer: &Lowerer<'_>, items: &[Item]) -> Option<(TileableId, Span)> {
    match items {
        [Item::Value(Value::Tensor(id), span)] if lowerer.dtype(*id) == DType::Bool => {
            Some((*id, *span))
        }
        _ => None,
    }
}

/// Whether a value of `shape` fills each selected row of `trailing` axes (a scalar,
/// or something that broadcasts to one row).
fn fits_trailing(shape: &[usize], trailing: &[usize]) -> bool {
    shape.len() <= trailing.len()
        && shape
            .iter()
            .rev()
            .zip(trailing.iter().rev())
            .all(|(&v, &t)| v == t || v == 1)
}

/// Whether a value of `shape` broadcasts into a region of `region` (leading
/// length-1 axes beyond the region's dropped), as NumPy's assignment allows.
fn broadcasts_into(shape: &[usize], region: &[usize]) -> bool {
    let extra = shape.len().saturating_sub(region.len());
    shape[..extra].iter().all(|&n| n == 1)
        && shape[extra..]
            .iter()
            .rev()
            .zip(region.iter().rev())
            .all(|(&v, &r)| v == r || v == 1)
}
