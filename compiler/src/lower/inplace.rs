//! Augmented assignment (`x += e` and the other `OP=` forms) with NumPy's meaning:
//! on a tensor it is `OP(x, e, out=x)`, an update of the object in place that every
//! name bound to it, and every view of it, sees. The result must have `x`'s shape
//! and cast to `x`'s dtype under the same-kind rule, with NumPy's errors otherwise.
//! On a Python value, and on a NumPy scalar (which is immutable), it rebinds the
//! name as Python does.
//!
//! Updating a view writes its new value into its root: each view step is inverted
//! (a transpose by the inverse permutation, a slice by re-assembling the root around
//! the new region with `concatenate`). [`Lowerer::write_object`] is the mechanism
//! that assignment through an index (`x[i] = v`) can reuse.

use super::objects::{Binding, ObjectId, ObjectKind, ViewStep, ZeroD};
use super::value::Value;
use super::{LowerResult, Lowerer};
use crate::infer::dtypes::{can_cast, result_type, Casting, Operand};
use crate::ops::ShapeOp;
use crate::tileable::{IndexItem, TileOp, TileableId};
use marsc_grammar::ast::{BinOp, Expr, Ident};
use marsc_grammar::{Diagnostic, Span};
use marsc_runtime::DType;

impl Lowerer<'_> {
    /// `target OP= value`.
    pub(super) fn augmented_assignment(
        &mut self,
        target: &Ident,
        op: BinOp,
        op_span: Span,
        value: &Expr,
    ) {
        let object = match self.scope.get(&target.name).cloned() {
            Some(Binding::Object(object)) => object,
            Some(Binding::Seq {
                items,
                is_list: true,
                ..
            }) if matches!(op, BinOp::Add | BinOp::Mul) => {
                let references: usize = self
                    .all_bindings()
                    .map(|binding| super::objects::refers_to_list(binding, &items))
                    .sum();
                if references > 1 {
                    self.eval(value);
                    self.report(
                        Diagnostic::error(
                            format!(
                                "not supported yet: `{}=` on a list bound to more than one name (Python extends the list in place)",
                                op.symbol()
                            ),
                            op_span,
                        )
                        .with_help("build a new list: `a = a + b`"),
                    );
                    return;
                }
                return self.rebind(target, op, op_span, value, None);
            }
            _ => return self.rebind(target, op, op_span, value, None),
        };
        let current = match self.object_value(object, target.span) {
            Ok(current) => current,
            Err(diagnostic) => {
                self.report(diagnostic);
                self.eval(value);
                return;
            }
        };
        if self.shape(current).is_empty() {
            match self.zero_d_kind(object) {
                // A NumPy scalar is immutable: `s += 1` is `s = s + 1`.
                ZeroD::Scalar => return self.rebind(target, op, op_span, value, Some(true)),
                ZeroD::Array => {}
                ZeroD::Unknown if !self.is_shared(object) => {}
                ZeroD::Unknown => {
                    self.eval(value);
                    self.report(
                        Diagnostic::error(
                            format!(
                                "not supported yet: `{}=` on this 0-d tensor, which another name or view also denotes",
                                op.symbol()
                            ),
                            op_span,
                        )
                        .with_secondary(self.object(object).created, "made here")
                        .with_note("NumPy updates a 0-d array in place but rebinds a NumPy scalar, and marsc cannot tell which this is")
                        .with_help(format!("write `{0} = {0} {1} ...` to make a new value", target.name, op.symbol())),
                    );
                    return;
                }
            }
        }
        let rhs = self.eval(value);
        if rhs.is_poison() {
            return;
        }
        let updated = self
            .in_place_result(object, current, op, op_span, (target, rhs, value.span))
            .and_then(|result| self.write_object(object, result, op_span));
        if let Err(diagnostic) = updated {
            self.report(diagnostic);
        }
    }

    /// Python's `x = x OP e`, for a name that is not bound to a tensor object (or
    /// is bound to a NumPy scalar, `scalar`).
    fn rebind(
        &mut self,
        target: &Ident,
        op: BinOp,
        op_span: Span,
        value: &Expr,
        scalar: Option<bool>,
    ) {
        let current = self.lookup(&target.name, target.span);
        let rhs = self.eval(value);
        let result = self.binary_operator(op, op_span, (current, target.span), (rhs, value.span));
        let binding = self.fresh_binding(result, scalar.or(Some(true)), op_span);
        self.scope.insert(target.name.clone(), binding);
    }

    /// `OP(current, rhs)` checked as NumPy checks `out=current`, cast to its dtype.
    pub(super) fn in_place_result(
        &mut self,
        object: ObjectId,
        current: TileableId,
        op: BinOp,
        op_span: Span,
        (target, rhs, rhs_span): (&Ident, Value, Span),
    ) -> LowerResult<TileableId> {
        let created = self.object(object).created;
        match &self.object(object).kind {
            ObjectKind::View(view) if view.read_only => {
                return Err(Diagnostic::error("output array is read-only", op_span)
                    .with_secondary(created, "a read-only view (of `broadcast_to`) made here"));
            }
            ObjectKind::Opaque(opaque) => {
                return Err(Diagnostic::error(
                    format!(
                        "not supported yet: updating in place {}",
                        opaque.what
                    ),
                    op_span,
                )
                .with_secondary(created, "made here")
                .with_note("NumPy may share memory between it and the tensor it was made from, and marsc cannot tell whether it does")
                .with_help("make an explicit copy with `.copy()` first"));
            }
            _ => {}
        }
        let target_shape = self.shape(current).to_vec();
        let target_dtype = self.dtype(current);
        let ufunc = ufunc_name(op, &rhs);
        if op == BinOp::MatMul {
            let rhs_ndim = match &rhs {
                Value::Tensor(id) => self.shape(*id).len(),
                Value::List(_) | Value::Tuple(..) => usize::MAX,
                _ => 0,
            };
            if !target_shape.is_empty() && rhs_ndim < 2 {
                return Err(Diagnostic::error(
                    "inplace matrix multiplication requires the first operand to have at least one and the second at least two dimensions.",
                    op_span,
                )
                .with_secondary(rhs_span, format!("this has {rhs_ndim} dimension{}", if rhs_ndim == 1 { "" } else { "s" })));
            }
        }
        if let Some(result) = self.int8_result(target_dtype, op, &rhs) {
            return Err(cast_error(
                ufunc,
                result,
                target_dtype,
                op_span,
                (target, op),
            ));
        }
        let result = self.tensor_binary_operator(
            op,
            op_span,
            (Value::Tensor(current), target.span),
            (rhs, rhs_span),
        )?;
        let Value::Tensor(result) = result else {
            return Err(Diagnostic::error(
                "internal error: an operator on a tensor gave no tensor",
                op_span,
            ));
        };
        let result_dtype = self.dtype(result);
        if !can_cast(result_dtype, target_dtype, Casting::SameKind) {
            return Err(cast_error(
                ufunc,
                result_dtype.name(),
                target_dtype,
                op_span,
                (target, op),
            ));
        }
        let result_shape = self.shape(result).to_vec();
        if result_shape != target_shape {
            let message = if op == BinOp::MatMul {
                let last = |shape: &[usize]| shape.last().copied().unwrap_or(0);
                format!(
                    "matmul: Output operand 0 has a mismatch in its core dimension {}, with gufunc signature (n?,k),(k,m?)->(n?,m?) (size {} is different from {})",
                    target_shape.len() - 1,
                    last(&target_shape),
                    last(&result_shape)
                )
            } else {
                format!(
                    "non-broadcastable output operand with shape {} doesn't match the broadcast shape {}",
                    numpy_shape(&target_shape),
                    numpy_shape(&result_shape)
                )
            };
            return Err(Diagnostic::error(message, op_span)
                .with_secondary(target.span, format!("shape {}", numpy_shape(&target_shape)))
                .with_secondary(rhs_span, "the result would have a different shape"));
        }
        self.cast(result, target_dtype, op_span)
    }

    /// For a bool target: the int8 result NumPy computes for `//`, `%` and `**` of
    /// bools (an error as soon as it must go back into the bool target).
    fn int8_result(&self, target: DType, op: BinOp, rhs: &Value) -> Option<&'static str> {
        if target != DType::Bool || !matches!(op, BinOp::FloorDiv | BinOp::Mod | BinOp::Pow) {
            return None;
        }
        let operands = [Operand::Tensor(target), self.operand(rhs)?];
        let common = result_type(&operands).ok()?;
        (common == DType::Bool || (op == BinOp::Pow && *rhs == Value::Int(2))).then_some("int8")
    }

    /// Gives object `id` the new value `value` (of its shape and dtype): a base
    /// takes it; a view writes it into its root through its steps. Every name bound
    /// to the object, and every view of its root, sees the change.
    pub(super) fn write_object(
        &mut self,
        id: ObjectId,
        value: TileableId,
        span: Span,
    ) -> LowerResult<()> {
        let created = self.object(id).created;
        let (root, steps) =
            match &self.object(id).kind {
                ObjectKind::Base(_) => (id, Vec::new()),
                ObjectKind::View(view) => (view.root, view.steps.to_vec()),
                ObjectKind::Opaque(_) => return Err(Diagnostic::error(
                    "not supported yet: writing into a value that may share memory with another",
                    span,
                )
                .with_secondary(created, "made here")),
            };
        // The value before each step, from the root's current value.
        let mut parents = vec![self.base(root).value];
        for step in &steps[..steps.len().saturating_sub(1)] {
            let last = *parents.last().expect("starts with the root");
            parents.push(self.replay(step, last));
        }
        let mut child = value;
        for (step, &parent) in steps.iter().zip(&parents).rev() {
            child = self.invert_step(step, parent, child, span, created)?;
        }
        self.set_root_value(root, child, span);
        Ok(())
    }

    /// The parent's new value when the child `step` made from `parent` becomes `child`.
    fn invert_step(
        &mut self,
        step: &ViewStep,
        parent: TileableId,
        child: TileableId,
        span: Span,
        created: Span,
    ) -> LowerResult<TileableId> {
        let shape = self.shape(parent).to_vec();
        let dtype = self.dtype(parent);
        match &step.op {
            TileOp::Index { items } => self.write_region(parent, items, child, span, created),
            TileOp::Shape(ShapeOp::Transpose { axes }) => {
                let mut inverse = vec![0; axes.len()];
                for (i, &axis) in axes.iter().enumerate() {
                    inverse[axis] = i;
                }
                let op = TileOp::Shape(ShapeOp::Transpose { axes: inverse });
                self.add_derived(op, vec![child], shape, dtype, span)
            }
            TileOp::Shape(ShapeOp::ExpandDims { axes }) => {
                let op = TileOp::Shape(ShapeOp::Squeeze { axes: axes.clone() });
                self.add_derived(op, vec![child], shape, dtype, span)
            }
            TileOp::Shape(ShapeOp::Squeeze { axes }) => {
                let op = TileOp::Shape(ShapeOp::ExpandDims { axes: axes.clone() });
                self.add_derived(op, vec![child], shape, dtype, span)
            }
            TileOp::Shape(ShapeOp::Reshape) => {
                let dims: Vec<i64> = shape.iter().map(|&len| len as i64).collect();
                self.reshape_tensor(child, &dims, span, span)
            }
            TileOp::Rechunk => Ok(child),
            other => Err(Diagnostic::error(
                format!("not supported yet: writing through a view made by {other:?}"),
                span,
            )
            .with_secondary(created, "the view was made here")),
        }
    }

    /// `parent` with the region that basic index `items` selects replaced by `value`
    /// (of the indexed shape), assembled with `concatenate` around the region.
    fn write_region(
        &mut self,
        parent: TileableId,
        items: &[IndexItem],
        value: TileableId,
        span: Span,
        created: Span,
    ) -> LowerResult<TileableId> {
        let shape = self.shape(parent).to_vec();
        let dtype = self.dtype(parent);
        // Bring the value to the parent's axes: drop the axes `None` added, restore
        // the axes an integer removed.
        let (mut value_axis, mut parent_axis) = (0, 0);
        let (mut new_axes, mut int_axes) = (Vec::new(), Vec::new());
        let mut ranges = Vec::with_capacity(shape.len());
        let mut reversed = Vec::new();
        for item in items {
            match *item {
                IndexItem::NewAxis => {
                    new_axes.push(value_axis);
                    value_axis += 1;
                }
                IndexItem::Int(i) => {
                    int_axes.push(parent_axis);
                    ranges.push((i, i + 1));
                    parent_axis += 1;
                }
                IndexItem::Slice { start, step, len } => {
                    if len == 0 {
                        return Ok(parent);
                    }
                    let start = start as usize;
                    let range = match step {
                        1 => (start, start + len),
                        _ if len == 1 => (start, start + 1),
                        -1 => {
                            reversed.push(parent_axis);
                            (start + 1 - len, start + 1)
                        }
                        _ => {
                            return Err(Diagnostic::error(
                                format!(
                                    "not supported yet: updating in place a slice with step {step}"
                                ),
                                span,
                            )
                            .with_secondary(created, "the view was made here")
                            .with_help(
                                "make an explicit copy with `.copy()`, or use a step of 1 or -1",
                            ));
                        }
                    };
                    ranges.push(range);
                    value_axis += 1;
                    parent_axis += 1;
                }
            }
        }
        let mut region = value;
        if !new_axes.is_empty() {
            let squeezed: Vec<usize> = self
                .shape(region)
                .iter()
                .enumerate()
                .filter(|(axis, _)| !new_axes.contains(axis))
                .map(|(_, &len)| len)
                .collect();
            let op = TileOp::Shape(ShapeOp::Squeeze { axes: new_axes });
            region = self.add_derived(op, vec![region], squeezed, dtype, span)?;
        }
        let region_shape: Vec<usize> = ranges.iter().map(|&(lo, hi)| hi - lo).collect();
        if !int_axes.is_empty() {
            let op = TileOp::Shape(ShapeOp::ExpandDims { axes: int_axes });
            region = self.add_derived(op, vec![region], region_shape.clone(), dtype, span)?;
        }
        if !reversed.is_empty() {
            let items = region_shape
                .iter()
                .enumerate()
                .map(|(axis, &len)| {
                    if reversed.contains(&axis) {
                        IndexItem::Slice {
                            start: len as i64 - 1,
                            step: -1,
                            len,
                        }
                    } else {
                        whole(0, len)
                    }
                })
                .collect();
            let op = TileOp::Index { items };
            region = self.add_derived(op, vec![region], region_shape.clone(), dtype, span)?;
        }
        // From the last axis to the first, widen the region to the whole axis.
        for axis in (0..shape.len()).rev() {
            let (lo, hi) = ranges[axis];
            if lo == 0 && hi == shape[axis] {
                continue;
            }
            let piece = |this: &mut Self, from: usize, to: usize| {
                let items: Vec<IndexItem> = (0..shape.len())
                    .map(|k| match k.cmp(&axis) {
                        std::cmp::Ordering::Less => whole(ranges[k].0, ranges[k].1 - ranges[k].0),
                        std::cmp::Ordering::Equal => whole(from, to - from),
                        std::cmp::Ordering::Greater => whole(0, shape[k]),
                    })
                    .collect();
                let piece_shape: Vec<usize> = items
                    .iter()
                    .map(|item| match item {
                        IndexItem::Slice { len, .. } => *len,
                        _ => 1,
                    })
                    .collect();
                let op = TileOp::Index { items };
                this.add_derived(op, vec![parent], piece_shape, dtype, span)
            };
            let mut pieces = Vec::with_capacity(3);
            if lo > 0 {
                pieces.push(piece(self, 0, lo)?);
            }
            pieces.push(region);
            if hi < shape[axis] {
                pieces.push(piece(self, hi, shape[axis])?);
            }
            let joined_shape: Vec<usize> = (0..shape.len())
                .map(|k| {
                    if k < axis {
                        ranges[k].1 - ranges[k].0
                    } else {
                        shape[k]
                    }
                })
                .collect();
            let op = TileOp::Concatenate { axis };
            region = self.add_derived(op, pieces, joined_shape, dtype, span)?;
        }
        Ok(region)
    }
}

/// A step-1 slice of `len` elements from `start`.
fn whole(start: usize, len: usize) -> IndexItem {
    IndexItem::Slice {
        start: start as i64,
        step: 1,
        len,
    }
}

/// The ufunc NumPy runs for `x OP= rhs`, as its errors name it.
fn ufunc_name(op: BinOp, rhs: &Value) -> &'static str {
    match op {
        BinOp::Add => "add",
        BinOp::Sub => "subtract",
        BinOp::Mul => "multiply",
        BinOp::Div => "divide",
        BinOp::FloorDiv => "floor_divide",
        BinOp::Mod => "remainder",
        BinOp::Pow if *rhs == Value::Int(2) => "square",
        BinOp::Pow => "power",
        BinOp::MatMul => "matmul",
        BinOp::BitAnd => "bitwise_and",
        BinOp::BitOr => "bitwise_or",
        BinOp::BitXor => "bitwise_xor",
    }
}

/// NumPy's `UFuncTypeError` for an in-place result that does not cast back.
fn cast_error(
    ufunc: &str,
    from: &str,
    to: DType,
    op_span: Span,
    (target, op): (&Ident, BinOp),
) -> Diagnostic {
    Diagnostic::error(
        format!(
            "Cannot cast ufunc '{ufunc}' output from dtype('{from}') to dtype('{}') with casting rule 'same_kind'",
            to.name()
        ),
        op_span,
    )
    .with_secondary(
        target.span,
        format!(
            "{} {} tensor, updated in place",
            if to.name().starts_with('i') { "an" } else { "a" },
            to.name()
        ),
    )
    .with_help(format!(
        "for a new tensor of the result's dtype, write `{0} = {0} {1} ...`",
        target.name,
        op.symbol()
    ))
}

/// A shape as NumPy's messages print it: `(2,3)`, `(3,)`, `()`.
pub(super) fn numpy_shape(shape: &[usize]) -> String {
    match shape {
        [one] => format!("({one},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(",")
        ),
    }
}
