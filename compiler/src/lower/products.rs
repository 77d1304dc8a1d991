//! Tensor products built on `matmul`: `tensordot` (any `axes`), `inner`, `vdot`,
//! `kron` and `einsum`.
//!
//! A contraction of two tensors over some of their axes is one block product: the
//! summed axes are moved last in `a` and first in `b`, each side is reshaped to a
//! matrix, the matrices are multiplied (`TileOp::MatMul`, a chunked block product)
//! and the result is reshaped to the free axes of `a` then `b`. `einsum` takes
//! repeated labels of one operand as diagonals, sums labels only one operand has
//! first, then contracts its operands two at a time, always the pair whose result is
//! smallest (not left to right): a pair with no label that is still needed on both
//! sides is a block product as above; one with such *batch* labels is a broadcast
//! multiplication summed over the contracted labels (fused into one kernel).

use super::bind::{Arg, BoundArgs};
use super::convert::{int_arg, shape_text};
use super::dtype_args::dtype_arg;
use super::value::Value;
use super::{LowerResult, Lowerer};
use crate::infer::dtypes::{can_cast, promote_types, Casting};
use marsc_grammar::{Diagnostic, Span};
use marsc_runtime::DType;
use std::collections::BTreeMap;

use crate::tileable::TileableId;

/// The library's products of two tensors (`einsum`, of any number, is
/// `Builtin::Einsum`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Product {
    /// `tensordot(a, b, axes=2)`.
    Tensordot,
    /// `inner(a, b)`.
    Inner,
    /// `vdot(a, b)`.
    Vdot,
    /// `kron(a, b)`.
    Kron,
}

/// An einsum label: a letter, or the `n`-th axis an ellipsis stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Label {
    /// The ellipsis's axes come first in an implicit output, in order.
    Ellipsis(usize),
    Letter(char),
}

/// A parsed subscripts string: each operand's labels (an ellipsis still unexpanded)
/// and the explicit output's, if any.
struct Subscripts {
    inputs: Vec<Vec<Term>>,
    output: Option<Vec<Term>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Term {
    Letter(char),
    Ellipsis,
}

/// An operand of the contraction: its tensor and one label per axis.
#[derive(Clone)]
struct Operand {
    tensor: TileableId,
    labels: Vec<Label>,
}

impl Lowerer<'_> {
    pub(super) fn product(&mut self, kind: Product, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        let (a_arg, b_arg) = (args.get("a"), args.get("b"));
        let a = self.tensor_of(&a_arg, None, "`a`")?;
        let b = self.tensor_of(&b_arg, None, "`b`")?;
        let id = match kind {
            Product::Tensordot => {
                let (sum_a, sum_b) = self.tensordot_axes(a, b, &args.get("axes"))?;
                self.contract(a, b, &sum_a, &sum_b, span)?
            }
            Product::Inner => {
                if self.shape(a).is_empty() || self.shape(b).is_empty() {
                    return self
                        .apply("multiply", vec![Value::Tensor(a), Value::Tensor(b)], span)
                        .map(Value::Tensor);
                }
                let (last_a, last_b) = (self.shape(a).len() - 1, self.shape(b).len() - 1);
                let (k_a, k_b) = (self.shape(a)[last_a], self.shape(b)[last_b]);
                if k_a != k_b {
                    return Err(Diagnostic::error(
                        format!(
                            "shapes {} and {} not aligned: {k_a} (dim {last_a}) != {k_b} (dim {last_b})",
                            shape_text(self.shape(a)),
                            shape_text(self.shape(b))
                        ),
                        span,
                    ));
                }
                self.contract(a, b, &[last_a], &[last_b], span)?
            }
            Product::Vdot => {
                let mut a = self.ravel_tensor(a, span)?;
                if self.dtype(a).is_complex() {
                    // NumPy's `vdot` takes the complex conjugate of its first argument.
                    a = self.apply("conjugate", vec![Value::Tensor(a)], span)?;
                }
                let b = self.ravel_tensor(b, span)?;
                let (n_a, n_b) = (self.shape(a)[0], self.shape(b)[0]);
                if n_a != n_b {
                    return Err(Diagnostic::error(
                        format!(
                            "shapes ({n_a},) and ({n_b},) not aligned: {n_a} (dim 0) != {n_b} (dim 0)"
                        ),
                        span,
                    ));
                }
                self.contract(a, b, &[0], &[0], span)?
            }
            Product::Kron => self.kron(a, b, span)?,
        };
        Ok(Value::Tensor(id))
    }

    /// `tensordot`'s `axes`: an int `N` (the last `N` axes of `a` with the first
    /// `N` of `b`) or a pair of axis sequences (or of ints), checked as NumPy does.
    fn tensordot_axes(
        &self,
        a: TileableId,
        b: TileableId,
        axes: &Arg,
    ) -> LowerResult<(Vec<usize>, Vec<usize>)> {
        let (shape_a, shape_b) = (self.shape(a).to_vec(), self.shape(b).to_vec());
        let mismatch = || Diagnostic::error("shape-mismatch for sum", axes.span);
        let (sum_a, sum_b): (Vec<i64>, Vec<i64>) = match &axes.value {
            Value::Int(_) | Value::Bool(_) => {
                let n = int_arg(axes, "axes")?;
                if n < 0 {
                    return Err(Diagnostic::error(
                        "negative `axes` is not allowed in tensordot",
                        axes.span,
                    ));
                }
                let n = n as usize;
                if n > shape_a.len() || n > shape_b.len() {
                    return Err(mismatch());
                }
                (
                    (shape_a.len() - n..shape_a.len())
                        .map(|a| a as i64)
                        .collect(),
                    (0..n).map(|a| a as i64).collect(),
                )
            }
            Value::Tuple(pair, _) | Value::List(pair) if pair.len() == 2 => {
                let side = |value: &Value| -> LowerResult<Vec<i64>> {
                    let arg = Arg {
                        value: value.clone(),
                        span: axes.span,
                    };
                    match value {
                        Value::Tuple(items, _) | Value::List(items) => items
                            .iter()
                            .map(|item| {
                                int_arg(
                                    &Arg {
                                        value: item.clone(),
                                        span: axes.span,
                                    },
                                    "axes",
                                )
                            })
                            .collect(),
                        _ => Ok(vec![int_arg(&arg, "axes")?]),
                    }
                };
                (side(&pair[0])?, side(&pair[1])?)
            }
            _ => {
                return Err(Diagnostic::error(
                    "tensordot `axes` must be an int or a pair of axis sequences",
                    axes.span,
                ))
            }
        };
        if sum_a.len() != sum_b.len() {
            return Err(mismatch());
        }
        let normalize = |axis: i64, ndim: usize| -> LowerResult<usize> {
            let axis = if axis < 0 { axis + ndim as i64 } else { axis };
            if (0..ndim as i64).contains(&axis) {
                Ok(axis as usize)
            } else {
                Err(Diagnostic::error(
                    format!("tuple index out of range (axis {axis} of a {ndim}-d operand)"),
                    axes.span,
                ))
            }
        };
        let mut pairs = Vec::with_capacity(sum_a.len());
        for (&x, &y) in sum_a.iter().zip(&sum_b) {
            let (x, y) = (normalize(x, shape_a.len())?, normalize(y, shape_b.len())?);
            if shape_a[x] != shape_b[y] {
                return Err(mismatch());
            }
            pairs.push((x, y));
        }
        let distinct = |axes: Vec<usize>| {
            let mut seen = axes.clone();
            seen.sort_unstable();
            seen.dedup();
            (seen.len() == axes.len()).then_some(axes)
        };
        let sum_a = distinct(pairs.iter().map(|p| p.0).collect())
            .ok_or_else(|| Diagnostic::error("repeated axis in tensordot `axes`", axes.span))?;
        let sum_b = distinct(pairs.iter().map(|p| p.1).collect())
            .ok_or_else(|| Diagnostic::error("repeated axis in tensordot `axes`", axes.span))?;
        Ok((sum_a, sum_b))
    }

    /// `a` and `b` contracted over `sum_a` with `sum_b` (pairwise, of equal
    /// lengths): one block product; the free axes of `a`, then `b`'s, remain.
    fn contract(
        &mut self,
        a: TileableId,
        b: TileableId,
        sum_a: &[usize],
        sum_b: &[usize],
        span: Span,
    ) -> LowerResult<TileableId> {
        let (shape_a, shape_b) = (self.shape(a).to_vec(), self.shape(b).to_vec());
        let free_a: Vec<usize> = (0..shape_a.len()).filter(|x| !sum_a.contains(x)).collect();
        let free_b: Vec<usize> = (0..shape_b.len()).filter(|x| !sum_b.contains(x)).collect();
        let size =
            |shape: &[usize], axes: &[usize]| axes.iter().map(|&x| shape[x]).product::<usize>();
        let (m, k, n) = (
            size(&shape_a, &free_a),
            size(&shape_a, sum_a),
            size(&shape_b, &free_b),
        );
        let order_a: Vec<i64> = free_a.iter().chain(sum_a).map(|&x| x as i64).collect();
        let order_b: Vec<i64> = sum_b.iter().chain(&free_b).map(|&x| x as i64).collect();
        let moved_a = self.transpose_tensor(a, Some(&order_a), span, span)?;
        let moved_b = self.transpose_tensor(b, Some(&order_b), span, span)?;
        let matrix_a = self.reshape_tensor(moved_a, &[m as i64, k as i64], span, span)?;
        let matrix_b = self.reshape_tensor(moved_b, &[k as i64, n as i64], span, span)?;
        let Value::Tensor(product) = self.matmul_tensors(matrix_a, matrix_b, span, span)? else {
            return Err(Diagnostic::error(
                "internal error: a block product gave no tensor",
                span,
            ));
        };
        let result: Vec<i64> = free_a
            .iter()
            .map(|&x| shape_a[x] as i64)
            .chain(free_b.iter().map(|&x| shape_b[x] as i64))
            .collect();
        self.reshape_tensor(product, &result, span, span)
    }

    /// `kron(a, b)`: the axes of both (the shorter shape padded with leading 1s)
    /// interleaved by a broadcast multiplication, then merged pairwise.
    fn kron(&mut self, a: TileableId, b: TileableId, span: Span) -> LowerResult<TileableId> {
        let nd = self.shape(a).len().max(self.shape(b).len());
        let pad = |this: &mut Self, x: TileableId| -> LowerResult<TileableId> {
            let missing = nd - this.shape(x).len();
            if missing == 0 {
                return Ok(x);
            }
            let axes: Vec<i64> = (0..missing as i64).collect();
            this.expand_dims_tensor(x, &axes, span, span)
        };
        let a = pad(self, a)?;
        let b = pad(self, b)?;
        let (shape_a, shape_b) = (self.shape(a).to_vec(), self.shape(b).to_vec());
        let odd: Vec<i64> = (0..nd as i64).map(|i| 2 * i + 1).collect();
        let even: Vec<i64> = (0..nd as i64).map(|i| 2 * i).collect();
        let spread_a = self.expand_dims_tensor(a, &odd, span, span)?;
        let spread_b = self.expand_dims_tensor(b, &even, span, span)?;
        let product = self.apply(
            "multiply",
            vec![Value::Tensor(spread_a), Value::Tensor(spread_b)],
            span,
        )?;
        let merged: Vec<i64> = shape_a
            .iter()
            .zip(&shape_b)
            .map(|(&x, &y)| (x * y) as i64)
            .collect();
        self.reshape_tensor(product, &merged, span, span)
    }

    /// `einsum(subscripts, *operands)`.
    pub(super) fn einsum(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        let subscripts_arg = args.get("subscripts");
        let (text, given) = match &subscripts_arg.value {
            Value::Str(text) => (text.to_string(), args.rest().to_vec()),
            _ => operand_lists(&subscripts_arg, args.rest())?,
        };
        let parsed =
            parse_subscripts(&text).map_err(|m| Diagnostic::error(m, subscripts_arg.span))?;
        let given = given.as_slice();
        if parsed.inputs.len() != given.len() {
            // NumPy's own words (which read the other way round); the note says
            // what is what.
            let message = if parsed.inputs.len() > given.len() {
                "more operands provided to einstein sum function than specified in the subscripts string"
            } else {
                "fewer operands provided to einstein sum function than specified in the subscripts string"
            };
            return Err(Diagnostic::error(message, span).with_note(format!(
                "the subscripts name {} operand(s), the call gives {}",
                parsed.inputs.len(),
                given.len()
            )));
        }
        let dtype = dtype_arg(&args.get("dtype"))?;
        let mut tensors = Vec::with_capacity(given.len());
        for (index, arg) in given.iter().enumerate() {
            let tensor = self.tensor_of(arg, None, "an operand")?;
            if let Some(to) = dtype {
                let from = self.dtype(tensor);
                if !can_cast(from, to, Casting::Safe) {
                    return Err(Diagnostic::error(
                        format!(
                            "Iterator operand {index} dtype could not be cast from dtype('{}') to \
                             dtype('{}') according to the rule 'safe'",
                            from.name(),
                            to.name()
                        ),
                        arg.span,
                    ));
                }
            }
            if self.dtype(tensor).is_bool() && dtype.is_none() {
                return Err(Diagnostic::error(
                    "not supported yet: einsum of boolean operands",
                    arg.span,
                ));
            }
            tensors.push(tensor);
        }
        let common = match dtype {
            Some(dtype) => dtype,
            None => tensors
                .iter()
                .map(|&t| self.dtype(t))
                .reduce(promote_types)
                .unwrap_or(DType::Float64),
        };
        // Expand each ellipsis into labels of its own, aligned from the right.
        let ellipsis_dims: Vec<usize> = parsed
            .inputs
            .iter()
            .zip(&tensors)
            .map(|(terms, &t)| {
                let letters = terms
                    .iter()
                    .filter(|t| matches!(t, Term::Letter(_)))
                    .count();
                self.shape(t).len().saturating_sub(letters)
            })
            .collect();
        let widest = ellipsis_dims.iter().copied().max().unwrap_or(0);
        let mut operands = Vec::with_capacity(tensors.len());
        let mut sizes: BTreeMap<Label, usize> = BTreeMap::new();
        for (index, ((terms, &tensor), arg)) in
            parsed.inputs.iter().zip(&tensors).zip(given).enumerate()
        {
            let ndim = self.shape(tensor).len();
            let letters = terms
                .iter()
                .filter(|t| matches!(t, Term::Letter(_)))
                .count();
            let has_ellipsis = terms.contains(&Term::Ellipsis);
            if letters > ndim {
                return Err(Diagnostic::error(
                    format!("einstein sum subscripts string contains too many subscripts for operand {index}"),
                    arg.span,
                ));
            }
            if letters < ndim && !has_ellipsis {
                return Err(Diagnostic::error(
                    "operand has more dimensions than subscripts given in einstein sum, but no \
                     '...' ellipsis provided to broadcast the extra dimensions.",
                    arg.span,
                )
                .with_note(format!("operand {index} has {ndim} dimensions")));
            }
            let mut labels = Vec::with_capacity(ndim);
            for term in terms {
                match term {
                    Term::Letter(c) => labels.push(Label::Letter(*c)),
                    Term::Ellipsis => {
                        let dims = ellipsis_dims[index];
                        labels.extend((widest - dims..widest).map(Label::Ellipsis));
                    }
                }
            }
            let tensor = self.cast(tensor, common, arg.span)?;
            let shape = self.shape(tensor).to_vec();
            for (axis, label) in labels.iter().enumerate() {
                let len = shape[axis];
                if let (Some(first), Label::Letter(c)) =
                    (labels[..axis].iter().position(|l| l == label), label)
                {
                    if shape[first] != len {
                        return Err(Diagnostic::error(
                            format!(
                                "dimensions in single operand for collapsing index '{c}' don't \
                                 match ({} != {len})",
                                shape[first]
                            ),
                            arg.span,
                        ));
                    }
                }
                match sizes.get(label) {
                    Some(&known) if known != len => {
                        // An ellipsis axis of length 1 broadcasts, as NumPy's does.
                        let broadcastable =
                            matches!(label, Label::Ellipsis(_)) && (known == 1 || len == 1);
                        if !broadcastable {
                            let Label::Letter(c) = label else {
                                return Err(Diagnostic::error(
                                    format!(
                                        "operands could not be broadcast together with remapped \
                                         shapes: an ellipsis axis is {len} in operand {index} \
                                         and {known} before"
                                    ),
                                    arg.span,
                                ));
                            };
                            return Err(Diagnostic::error(
                                format!(
                                    "size of label '{c}' for operand {index} ({len}) does not \
                                     match previous terms ({known})."
                                ),
                                arg.span,
                            ));
                        }
                        sizes.insert(*label, known.max(len));
                    }
                    Some(_) => {}
                    None => {
                        sizes.insert(*label, len);
                    }
                }
            }
            operands.push(Operand { tensor, labels });
        }
        // Ellipsis axes of length 1 broadcast to the others' length.
        for operand in &mut operands {
            let shape = self.shape(operand.tensor).to_vec();
            let target: Vec<usize> = operand.labels.iter().map(|label| sizes[label]).collect();
            if target != shape {
                let dims: Vec<i64> = target.iter().map(|&n| n as i64).collect();
                operand.tensor = self.broadcast_tensor(operand.tensor, &dims, span)?;
            }
        }
        let output: Vec<Label> = match &parsed.output {
            Some(terms) => {
                let mut output = Vec::new();
                for term in terms {
                    match term {
                        Term::Letter(c) => {
                            let label = Label::Letter(*c);
                            if !sizes.contains_key(&label) {
                                return Err(Diagnostic::error(
                                    format!(
                                        "einstein sum subscripts string included output subscript \
                                         '{c}' which never appeared in an input"
                                    ),
                                    subscripts_arg.span,
                                ));
                            }
                            if output.contains(&label) {
                                return Err(Diagnostic::error(
                                    format!(
                                        "einstein sum subscripts string includes output subscript \
                                         '{c}' multiple times"
                                    ),
                                    subscripts_arg.span,
                                ));
                            }
                            output.push(label);
                        }
                        Term::Ellipsis => output.extend((0..widest).map(Label::Ellipsis)),
                    }
                }
                if parsed
                    .output
                    .as_ref()
                    .is_some_and(|o| !o.contains(&Term::Ellipsis))
                    && widest > 0
                {
                    return Err(Diagnostic::error(
                        "output has more dimensions than subscripts given in einstein sum, but no \
                         '...' ellipsis provided to broadcast the extra dimensions.",
                        subscripts_arg.span,
                    ));
                }
                output
            }
            None => {
                let mut counts: BTreeMap<Label, usize> = BTreeMap::new();
                for operand in &operands {
                    for label in &operand.labels {
                        *counts.entry(*label).or_default() += 1;
                    }
                }
                // The ellipsis's axes first, then the letters seen once, sorted.
                counts
                    .into_iter()
                    .filter(|(label, count)| matches!(label, Label::Ellipsis(_)) || *count == 1)
                    .map(|(label, _)| label)
                    .collect()
            }
        };
        let result = self.einsum_contract(operands, &output, span)?;
        Ok(Value::Tensor(result))
    }

    /// Contracts `operands` down to one tensor with the `output` labels, in order.
    fn einsum_contract(
        &mut self,
        operands: Vec<Operand>,
        output: &[Label],
        span: Span,
    ) -> LowerResult<TileableId> {
        let mut operands: Vec<Operand> = operands
            .into_iter()
            .map(|operand| self.take_diagonals(operand, span))
            .collect::<LowerResult<_>>()?;
        // Labels only one operand has and the output does not: summed at once.
        for i in 0..operands.len() {
            let lonely: Vec<usize> = operands[i]
                .labels
                .iter()
                .enumerate()
                .filter(|(_, label)| {
                    !output.contains(label)
                        && operands
                            .iter()
                            .enumerate()
                            .all(|(j, other)| j == i || !other.labels.contains(label))
                })
                .map(|(axis, _)| axis)
                .collect();
            if !lonely.is_empty() {
                operands[i] = self.sum_labels(operands[i].clone(), &lonely, span)?;
            }
        }
        while operands.len() > 1 {
            // The pair whose result is smallest goes first.
            let mut best: Option<(u128, usize, usize)> = None;
            for i in 0..operands.len() {
                for j in i + 1..operands.len() {
                    let kept = kept_labels(&operands, i, j, output);
                    let size = kept
                        .iter()
                        .map(|label| self.label_size(&operands, label))
                        .product::<u128>();
                    if best.is_none_or(|(s, _, _)| size < s) {
                        best = Some((size, i, j));
                    }
                }
            }
            let (_, i, j) = best.expect("two operands at least");
            let kept = kept_labels(&operands, i, j, output);
            let right = operands.remove(j);
            let left = operands.remove(i);
            let joined = self.contract_pair(left, right, &kept, span)?;
            operands.insert(i, joined);
        }
        let last = operands.pop().expect("one operand");
        let order: Vec<i64> = output
            .iter()
            .map(|label| {
                last.labels
                    .iter()
                    .position(|l| l == label)
                    .map(|p| p as i64)
                    .ok_or_else(|| {
                        Diagnostic::error("internal error: an output label went missing", span)
                    })
            })
            .collect::<LowerResult<_>>()?;
        self.transpose_tensor(last.tensor, Some(&order), span, span)
    }

    fn label_size(&self, operands: &[Operand], label: &Label) -> u128 {
        operands
            .iter()
            .find_map(|operand| {
                operand
                    .labels
                    .iter()
                    .position(|l| l == label)
                    .map(|axis| self.shape(operand.tensor)[axis] as u128)
            })
            .unwrap_or(1)
    }

    /// An operand with each repeated label taken as a diagonal (`ii -> i`).
    fn take_diagonals(&mut self, mut operand: Operand, span: Span) -> LowerResult<Operand> {
        loop {
            let repeated = operand.labels.iter().enumerate().find_map(|(p, label)| {
                operand.labels[p + 1..]
                    .iter()
                    .position(|l| l == label)
                    .map(|q| (p, p + 1 + q))
            });
            let Some((p, q)) = repeated else {
                return Ok(operand);
            };
            let int = |v: usize| Arg {
                value: Value::Int(v as i64),
                span,
            };
            let whole = Arg {
                value: Value::Tensor(operand.tensor),
                span,
            };
            operand.tensor = self.diagonal_of(operand.tensor, 0, &int(p), &int(q), &whole, span)?;
            let label = operand.labels[p];
            operand.labels = operand
                .labels
                .iter()
                .enumerate()
                .filter(|&(axis, _)| axis != p && axis != q)
                .map(|(_, l)| *l)
                .chain(std::iter::once(label))
                .collect();
        }
    }

    /// An operand summed over its axes `axes`.
    fn sum_labels(&mut self, operand: Operand, axes: &[usize], span: Span) -> LowerResult<Operand> {
        let axis = Value::tuple(axes.iter().map(|&a| Value::Int(a as i64)).collect());
        let tensor = self.apply_args(
            "sum",
            vec![
                (
                    None,
                    Arg {
                        value: Value::Tensor(operand.tensor),
                        span,
                    },
                ),
                (Some("axis"), Arg { value: axis, span }),
            ],
            span,
        )?;
        let labels = operand
            .labels
            .iter()
            .enumerate()
            .filter(|(axis, _)| !axes.contains(axis))
            .map(|(_, l)| *l)
            .collect();
        Ok(Operand { tensor, labels })
    }

    /// Two operands contracted over their shared labels not in `kept`.
    fn contract_pair(
        &mut self,
        left: Operand,
        right: Operand,
        kept: &[Label],
        span: Span,
    ) -> LowerResult<Operand> {
        let shared: Vec<Label> = left
            .labels
            .iter()
            .filter(|l| right.labels.contains(l))
            .copied()
            .collect();
        let batch = shared.iter().any(|l| kept.contains(l));
        if !batch {
            let sum_a: Vec<usize> = shared
                .iter()
                .map(|l| left.labels.iter().position(|x| x == l).expect("shared"))
                .collect();
            let sum_b: Vec<usize> = shared
                .iter()
                .map(|l| right.labels.iter().position(|x| x == l).expect("shared"))
                .collect();
            let tensor = self.contract(left.tensor, right.tensor, &sum_a, &sum_b, span)?;
            let labels = left
                .labels
                .iter()
                .chain(&right.labels)
                .filter(|l| !shared.contains(l))
                .copied()
                .collect();
            return Ok(Operand { tensor, labels });
        }
        // Batch labels: both aligned to one label order, multiplied (broadcast),
        // then summed over the contracted labels.
        let mut union = left.labels.clone();
        union.extend(right.labels.iter().filter(|l| !left.labels.contains(l)));
        let aligned_left = self.align(&left, &union, span)?;
        let aligned_right = self.align(&right, &union, span)?;
        let product = self.apply(
            "multiply",
            vec![Value::Tensor(aligned_left), Value::Tensor(aligned_right)],
            span,
        )?;
        let summed: Vec<usize> = union
            .iter()
            .enumerate()
            .filter(|(_, l)| shared.contains(l) && !kept.contains(l))
            .map(|(axis, _)| axis)
            .collect();
        let joined = Operand {
            tensor: product,
            labels: union,
        };
        if summed.is_empty() {
            return Ok(joined);
        }
        self.sum_labels(joined, &summed, span)
    }

    /// `operand` with its axes in the order of `union` (a superset of its labels),
    /// length-1 axes for the labels it lacks.
    fn align(&mut self, operand: &Operand, union: &[Label], span: Span) -> LowerResult<TileableId> {
        let own: Vec<Label> = union
            .iter()
            .filter(|l| operand.labels.contains(l))
            .copied()
            .collect();
        let order: Vec<i64> = own
            .iter()
            .map(|l| operand.labels.iter().position(|x| x == l).expect("own") as i64)
            .collect();
        let moved = self.transpose_tensor(operand.tensor, Some(&order), span, span)?;
        let missing: Vec<i64> = union
            .iter()
            .enumerate()
            .filter(|(_, l)| !operand.labels.contains(l))
            .map(|(axis, _)| axis as i64)
            .collect();
        if missing.is_empty() {
            return Ok(moved);
        }
        self.expand_dims_tensor(moved, &missing, span, span)
    }

    /// `x` broadcast to `shape`.
    fn broadcast_tensor(
        &mut self,
        x: TileableId,
        shape: &[i64],
        span: Span,
    ) -> LowerResult<TileableId> {
        let dims = Value::tuple(shape.iter().map(|&n| Value::Int(n)).collect());
        self.apply_args(
            "broadcast_to",
            vec![
                (
                    None,
                    Arg {
                        value: Value::Tensor(x),
                        span,
                    },
                ),
                (None, Arg { value: dims, span }),
            ],
            span,
        )
    }
}

/// The labels of operands `i` and `j` still needed after joining them: in the
/// output or in another operand.
fn kept_labels(operands: &[Operand], i: usize, j: usize, output: &[Label]) -> Vec<Label> {
    let mut kept = Vec::new();
    for label in operands[i].labels.iter().chain(&operands[j].labels) {
        if kept.contains(label) {
            continue;
        }
        let elsewhere = operands
            .iter()
            .enumerate()
            .any(|(k, other)| k != i && k != j && other.labels.contains(label));
        if output.contains(label) || elsewhere {
            kept.push(*label);
        }
    }
    kept
}

/// einsum's operand-list form, `einsum(op0, sublist0, op1, sublist1, ...,
/// [sublistout])`, as NumPy reads it: its subscripts string (label `n` is the letter
/// `A`..`Z` for 0..25 and `a`..`z` for 26..51, so an implicit output orders labels
/// by number, as NumPy's) and its operands.
fn operand_lists(first: &Arg, rest: &[Arg]) -> LowerResult<(String, Vec<Arg>)> {
    let mut all: Vec<&Arg> = std::iter::once(first).chain(rest).collect();
    // An odd count: the last argument is the output's sublist.
    let output = match all.len() % 2 {
        1 => all.pop(),
        _ => None,
    };
    if all.is_empty() {
        return Err(Diagnostic::error(
            "must provide at least an operand and a subscripts list to einsum",
            first.span,
        )
        .with_help(
            "give a subscripts string first, or each operand followed by its list of subscripts",
        ));
    }
    let operands: Vec<Arg> = all.iter().step_by(2).map(|&arg| arg.clone()).collect();
    let mut text = all
        .iter()
        .skip(1)
        .step_by(2)
        .map(|arg| sublist_subscripts(arg))
        .collect::<LowerResult<Vec<_>>>()?
        .join(",");
    if let Some(output) = output {
        text.push_str("->");
        text.push_str(&sublist_subscripts(output)?);
    }
    Ok((text, operands))
}

/// One sublist (a list of ints in `[0, 52)` and at most one `...`) as subscripts.
fn sublist_subscripts(arg: &Arg) -> LowerResult<String> {
    let Some(items) = arg.value.as_sequence() else {
        return Err(Diagnostic::error(
            "the subscripts for each operand must be a list or a tuple",
            arg.span,
        ));
    };
    let mut text = String::new();
    for item in items.iter() {
        match item {
            Value::Ellipsis if text.contains("...") => {
                return Err(Diagnostic::error(
                    "each subscripts list may have only one ellipsis",
                    arg.span,
                ))
            }
            Value::Ellipsis => text.push_str("..."),
            Value::Int(label) if (0..26).contains(label) => {
                text.push(char::from(b'A' + *label as u8));
            }
            Value::Int(label) if (26..52).contains(label) => {
                text.push(char::from(b'a' + (*label - 26) as u8));
            }
            Value::Int(_) => {
                return Err(Diagnostic::error(
                    "subscript is not within the valid range [0, 52)",
                    arg.span,
                ))
            }
            other => {
                return Err(Diagnostic::error(
                    "each subscript must be either an integer or an ellipsis",
                    arg.span,
                )
                .with_note(format!("got {}", other.type_name())))
            }
        }
    }
    Ok(text)
}

/// Parses an einsum subscripts string (`"ij,jk->ik"`, `"ii"`, `"...ij->...ji"`),
/// with NumPy's messages for what it refuses.
fn parse_subscripts(text: &str) -> Result<Subscripts, String> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let (inputs, output) = match compact.split_once("->") {
        Some((inputs, output)) => {
            if output.contains("->") {
                return Err(
                    "einstein sum subscript string does not contain proper '->' output specified"
                        .to_string(),
                );
            }
            if output.contains(',') {
                return Err(
                    "einstein sum subscripts string contains a ',' in the output".to_string(),
                );
            }
            (inputs, Some(output))
        }
        None => (compact.as_str(), None),
    };
    let terms = |part: &str| -> Result<Vec<Term>, String> {
        let mut terms = Vec::new();
        let mut rest = part;
        while let Some(c) = rest.chars().next() {
            if let Some(after) = rest.strip_prefix("...") {
                if terms.contains(&Term::Ellipsis) {
                    return Err(
                        "einstein sum subscripts string contains more than one ellipsis"
                            .to_string(),
                    );
                }
                terms.push(Term::Ellipsis);
                rest = after;
                continue;
            }
            if !c.is_ascii_alphabetic() {
                return Err(format!(
                    "invalid subscript '{c}' in einstein sum subscripts string, subscripts must be letters"
                ));
            }
            terms.push(Term::Letter(c));
            rest = &rest[c.len_utf8()..];
        }
        Ok(terms)
    };
    let inputs = inputs
        .split(',')
        .map(terms)
        .collect::<Result<Vec<_>, _>>()?;
    let output = output.map(terms).transpose()?;
    Ok(Subscripts { inputs, output })
}
