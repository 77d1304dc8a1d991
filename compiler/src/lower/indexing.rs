//! Subscripts: basic indexing of tensors (ints, slices, `None`, `...`) as `Index`
//! nodes, and Python indexing of tuples, lists and strings (`x.shape[0]`,
//! `x.shape[1:]`). Errors point at the offending index item.

use super::convert::shape_text;
use super::elementwise::at;
use super::value::Value;
use super::{LowerResult, Lowerer};
use crate::infer::index::{normalize_index, RawIndexItem};
use crate::infer::InferError;
use crate::tileable::{TileOp, TileableId};
use marsc_grammar::ast::SubscriptItem;
use marsc_grammar::{Diagnostic, Span};

/// An evaluated subscript item with its span.
#[derive(Clone)]
pub(super) enum Item {
    Value(Value, Span),
    Slice {
        parts: [Option<(Value, Span)>; 3],
        span: Span,
    },
}

impl Item {
    pub(super) fn span(&self) -> Span {
        match self {
            Item::Value(_, span) | Item::Slice { span, .. } => *span,
        }
    }
}

impl Lowerer<'_> {
    pub(super) fn subscript(
        &mut self,
        object: Value,
        object_span: Span,
        items: &[SubscriptItem],
        span: Span,
    ) -> Value {
        match self.subscript_items(items) {
            Some(evaluated) if !object.is_poison() => {
                self.subscript_evaluated(object, object_span, evaluated, span)
            }
            _ => Value::Poison,
        }
    }

    /// The subscript's items, evaluated in order; `None` when one is poison.
    pub(super) fn subscript_items(&mut self, items: &[SubscriptItem]) -> Option<Vec<Item>> {
        let mut evaluated = Vec::with_capacity(items.len());
        let mut poisoned = false;
        for item in items {
            let item = self.subscript_item(item);
            poisoned |= match &item {
                Item::Value(value, _) => value.is_poison(),
                Item::Slice { parts, .. } => parts.iter().flatten().any(|(v, _)| v.is_poison()),
            };
            evaluated.push(item);
        }
        (!poisoned).then_some(evaluated)
    }

    /// `object[items]` of evaluated items.
    pub(super) fn subscript_evaluated(
        &mut self,
        object: Value,
        object_span: Span,
        mut evaluated: Vec<Item>,
        span: Span,
    ) -> Value {
        // `a[(i, j)]` is `a[i, j]`, as in NumPy.
        if let [Item::Value(Value::Tuple(inner, _), tuple_span)] = evaluated.as_slice() {
            if matches!(object, Value::Tensor(_)) {
                let tuple_span = *tuple_span;
                evaluated = inner
                    .iter()
                    .map(|value| Item::Value(value.clone(), tuple_span))
                    .collect();
            }
        }
        let result = match object {
            Value::Tensor(id) => self.index_tensor(id, &evaluated, span),
            Value::Tuple(..) | Value::List(_) | Value::Str(_) => {
                index_sequence(&object, &evaluated)
            }
            Value::NpzFile(npz) => self.npz_member(&npz, &evaluated, span),
            other => Err(Diagnostic::error(
                format!("{} value is not subscriptable", other.a_type_name()),
                object_span,
            )),
        };
        self.value_or_report(result)
    }

    fn subscript_item(&mut self, item: &SubscriptItem) -> Item {
        match item {
            SubscriptItem::Expr(expr) => Item::Value(self.eval(expr), expr.span),
            SubscriptItem::Slice {
                lower,
                upper,
                step,
                span,
            } => {
                let mut part = |expr: &Option<marsc_grammar::ast::Expr>| {
                    expr.as_ref().map(|e| (self.eval(e), e.span))
                };
                Item::Slice {
                    parts: [part(lower), part(upper), part(step)],
                    span: *span,
                }
            }
        }
    }

    /// `x[i]` for a Python int `i` (Python's builtins iterate a tensor this way).
    pub(super) fn index_int(&mut self, id: TileableId, i: i64, span: Span) -> LowerResult<Value> {
        self.index_tensor(id, &[Item::Value(Value::Int(i), span)], span)
    }

    pub(super) fn index_tensor(
        &mut self,
        id: TileableId,
        items: &[Item],
        span: Span,
    ) -> LowerResult<Value> {
        // A 0-d integer tensor indexes as its value does (`x[x.argmax()]`,
        // `x[:n.sum()]`): a stage computes it.
        let mut staged: Vec<Item> = Vec::new();
        let mut items = items;
        // A list index is the tensor NumPy makes of it (`x[[0, 2]]`, `x[[True, False]]`).
        if items.iter().any(|item| {
            self.has_scalar_int_tensor(item) || matches!(item, Item::Value(Value::List(_), _))
        }) {
            for item in items {
                let item = match item {
                    Item::Value(list @ Value::List(_), span) => {
                        let arg = super::bind::Arg {
                            value: list.clone(),
                            span: *span,
                        };
                        // An empty list indexes as an empty integer array, as NumPy's does.
                        let dtype = is_empty_sequence(list).then_some(marsc_runtime::DType::Int64);
                        Item::Value(
                            Value::Tensor(self.literal_tensor(&arg, dtype, None)?),
                            *span,
                        )
                    }
                    other => match self.staged_item(other) {
                        Some(item) => item,
                        None => return Ok(Value::Poison),
                    },
                };
                staged.push(item);
            }
            items = &staged;
        }
        match self.array_positions(items)?.as_slice() {
            [] => {}
            [position] => return self.index_with_array(id, items, *position, span),
            _ => return self.index_with_arrays(id, items, span),
        }
        let raw = items
            .iter()
            .map(raw_index_item)
            .collect::<LowerResult<Vec<RawIndexItem>>>()?;
        let shape = self.shape(id).to_vec();
        let (normalized, out_shape) =
            normalize_index(&shape, &raw).map_err(|e| index_error(e, &shape, &raw, items, span))?;
        let is_identity = out_shape == shape
            && normalized.iter().zip(&shape).all(|(item, &len)| {
                matches!(item, crate::tileable::IndexItem::Slice { start: 0, step: 1, len: l } if *l == len)
            })
            && normalized.len() == shape.len();
        if is_identity {
            return Ok(Value::Tensor(id));
        }
        let dtype = self.dtype(id);
        let index = TileOp::Index { items: normalized };
        Ok(Value::Tensor(self.add_derived(
            index,
            vec![id],
            out_shape,
            dtype,
            span,
        )?))
    }
}

impl Lowerer<'_> {
    /// Whether `value` is a 0-d integer tensor.
    fn is_scalar_int(&self, value: &Value) -> bool {
        matches!(value, Value::Tensor(id) if self.shape(*id).is_empty() && self.dtype(*id).is_int())
    }

    /// Whether the item is, or a slice bound of it is, a 0-d integer tensor.
    fn has_scalar_int_tensor(&self, item: &Item) -> bool {
        match item {
            Item::Value(value, _) => self.is_scalar_int(value),
            Item::Slice { parts, .. } => parts.iter().flatten().any(|(v, _)| self.is_scalar_int(v)),
        }
    }

    /// The item with its 0-d integer tensors replaced by their staged values;
    /// `None` when no stage could run.
    fn staged_item(&mut self, item: &Item) -> Option<Item> {
        let stage = |this: &mut Self, value: &Value, span: Span| match value {
            Value::Tensor(id) if this.is_scalar_int(value) => this.staged_scalar(*id, span),
            other => Some(other.clone()),
        };
        Some(match item {
            Item::Value(value, span) => Item::Value(stage(self, value, *span)?, *span),
            Item::Slice { parts, span } => {
                let mut staged = [None, None, None];
                for (slot, part) in staged.iter_mut().zip(parts) {
                    if let Some((value, span)) = part {
                        *slot = Some((stage(self, value, *span)?, *span));
                    }
                }
                Item::Slice {
                    parts: staged,
                    span: *span,
                }
            }
        })
    }

    /// The positions of the array indices (boolean or integer tensors) among the
    /// items.
    fn array_positions(&self, items: &[Item]) -> LowerResult<Vec<usize>> {
        let mut found = Vec::new();
        for (position, item) in items.iter().enumerate() {
            let Item::Value(Value::Tensor(index), span) = item else {
                continue;
            };
            let dtype = self.dtype(*index);
            if !dtype.is_bool() && !dtype.is_int() {
                return Err(Diagnostic::error(
                    "arrays used as indices must be of integer (or boolean) type",
                    *span,
                )
                .with_note(format!("this index is a {dtype} tensor")));
            }
            found.push(position);
        }
        Ok(found)
    }
}

/// Whether a list holds no scalar at all (`[]`, `[[], []]`).
fn is_empty_sequence(value: &Value) -> bool {
    match value {
        Value::List(items) | Value::Tuple(items, _) => items.iter().all(is_empty_sequence),
        _ => false,
    }
}

/// Points an index error at the first item whose prefix of the index fails.
fn index_error(
    error: InferError,
    shape: &[usize],
    raw: &[RawIndexItem],
    items: &[Item],
    span: Span,
) -> Diagnostic {
    let culprit = (1..=raw.len())
        .find(|&n| normalize_index(shape, &raw[..n]).is_err())
        .map_or(span, |n| items[n - 1].span());
    at(error, culprit).with_note(format!("the tensor's shape is {}", shape_text(shape)))
}

fn raw_index_item(item: &Item) -> LowerResult<RawIndexItem> {
    match item {
        Item::Value(value, span) => match value {
            Value::Int(i) => Ok(RawIndexItem::Int(*i)),
            Value::None => Ok(RawIndexItem::NewAxis),
            Value::Ellipsis => Ok(RawIndexItem::Ellipsis),
            Value::Tensor(_) | Value::List(_) | Value::Bool(_) => Err(Diagnostic::error(
                "not supported yet: indexing with a Python bool",
                *span,
            )),
            other => Err(Diagnostic::error(
                format!(
                    "only integers, slices (`:`), ellipsis (`...`) and None are valid indices, got {}",
                    other.type_name()
                ),
                *span,
            )),
        },
        Item::Slice { parts, .. } => {
            let [start, stop, step] = parts.each_ref().map(slice_part);
            Ok(RawIndexItem::Slice {
                start: start?,
                stop: stop?,
                step: step?,
            })
        }
    }
}

fn slice_part(part: &Option<(Value, Span)>) -> LowerResult<Option<i64>> {
    match part {
        None | Some((Value::None, _)) => Ok(None),
        Some((Value::Int(i), _)) => Ok(Some(*i)),
        Some((Value::Bool(b), _)) => Ok(Some(*b as i64)),
        Some((other, span)) => Err(Diagnostic::error(
            format!(
                "slice indices must be integers or None, got {}",
                other.type_name()
            ),
            *span,
        )),
    }
}

/// Python indexing of a tuple, list or string by one int or slice.
fn index_sequence(object: &Value, items: &[Item]) -> LowerResult<Value> {
    let kind = object.type_name();
    let [item] = items else {
        let span = items.first().map_or(Span::default(), Item::span);
        return Err(Diagnostic::error(
            format!("{kind} indices must be integers or slices, not tuple"),
            span,
        ));
    };
    let elements: Vec<Value> = match object {
        Value::Str(text) => text.chars().map(|c| Value::str(&c.to_string())).collect(),
        other => other.as_sequence().unwrap_or_default().to_vec(),
    };
    let len = elements.len() as i64;
    let integer = match item {
        Item::Value(Value::Int(i), span) => Some((*i, *span)),
        Item::Value(Value::Bool(b), span) => Some((*b as i64, *span)),
        _ => None,
    };
    if let Some((i, span)) = integer {
        let position = if i < 0 { i + len } else { i };
        if !(0..len).contains(&position) {
            return Err(
                Diagnostic::error(format!("{kind} index out of range"), span)
                    .with_note(format!("the {kind} has length {len}")),
            );
        }
        return Ok(elements[position as usize].clone());
    }
    match item {
        Item::Value(other, span) => Err(Diagnostic::error(
            format!(
                "{kind} indices must be integers or slices, not {}",
                other.type_name()
            ),
            *span,
        )),
        Item::Slice { parts, .. } => {
            let [start, stop, step] = parts.each_ref().map(slice_part);
            let (start, stop, step) = (start?, stop?, step?);
            let step = step.unwrap_or(1);
            if step == 0 {
                let span = parts[2].as_ref().map_or(item.span(), |(_, s)| *s);
                return Err(Diagnostic::error("slice step cannot be zero", span));
            }
            let picked: Vec<Value> = slice_positions(len, start, stop, step)
                .map(|i| elements[i as usize].clone())
                .collect();
            Ok(match object {
                Value::Str(_) => Value::str(
                    &picked
                        .iter()
                        .map(|v| match v {
                            Value::Str(s) => s.to_string(),
                            _ => String::new(),
                        })
                        .collect::<String>(),
                ),
                Value::List(_) => Value::List(picked.into()),
                _ => Value::tuple(picked),
            })
        }
    }
}

/// The positions Python's `slice(start, stop, step).indices(len)` visits.
pub(super) fn slice_positions(
    len: i64,
    start: Option<i64>,
    stop: Option<i64>,
    step: i64,
) -> impl Iterator<Item = i64> {
    let clamp = |bound: Option<i64>, default: i64| match bound {
        None => default,
        Some(b) if b < 0 => (b + len).max(if step < 0 { -1 } else { 0 }),
        Some(b) => b.min(if step < 0 { len - 1 } else { len }),
    };
    let (first, last) = if step > 0 {
        (clamp(start, 0), clamp(stop, len))
    } else {
        (clamp(start, len - 1), clamp(stop, -1))
    };
    let mut position = first;
    std::iter::from_fn(move || {
        let inside = if step > 0 {
            position < last
        } else {
            position > last
        };
        if !inside {
            return None;
        }
        let current = position;
        // Past the end either way: a huge step overflowing ends the iteration.
        position = position.checked_add(step).unwrap_or(last);
        Some(current)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn positions(len: i64, start: Option<i64>, stop: Option<i64>, step: i64) -> Vec<i64> {
        slice_positions(len, start, stop, step).collect()
    }

    #[test]
    fn python_slices() {
        // list(range(5))[a:b:c] in Python.
        assert_eq!(positions(5, None, None, 1), vec![0, 1, 2, 3, 4]);
        assert_eq!(positions(5, Some(1), None, 1), vec![1, 2, 3, 4]);
        assert_eq!(positions(5, None, None, -1), vec![4, 3, 2, 1, 0]);
        assert_eq!(positions(5, Some(-2), None, 1), vec![3, 4]);
        assert_eq!(positions(5, Some(10), None, -2), vec![4, 2, 0]);
        assert_eq!(positions(5, Some(-10), Some(2), 1), vec![0, 1]);
        assert_eq!(positions(5, None, Some(-10), -1), vec![4, 3, 2, 1, 0]);
        assert_eq!(positions(0, None, None, -1), Vec::<i64>::new());
    }
}
