//! Adding nodes to the graph: derived nodes get their chunk splits from
//! `infer_nsplits`, creation nodes from a chunk spec; Python scalars and literal
//! lists become tensors where a tensor is needed; and the size checks that keep
//! absurd shapes from reaching the chunk planner.

use super::bind::Arg;
use super::convert::shape_text;
use super::value::Value;
use super::{LowerResult, Lowerer};
use crate::infer::budget::{fit_to_budget, largest_chunk};
use crate::infer::chunks::{resolve_chunks, AxisChunks, ChunkSpec};
use crate::infer::dtypes::Operand;
use crate::ops::{Creation, ElementwiseOp, ShapeOp};
use crate::tileable::nsplits::{infer_nsplits, InputLayout};
use crate::tileable::{TileOp, TileableId, TileableNode};
use marsc_grammar::{Diagnostic, Span};
use marsc_runtime::ops::DTypeRuleError;
use marsc_runtime::{DType, Scalar};

/// The most chunks one tensor may have: the most chunk operations a whole program may
/// have (a tensor with more could never be planned, see [`super::graph_size`]).
/// Checked before the splits are materialized, so that `ones(10**12, chunks=1)` is an
/// error rather than a huge allocation.
const MAX_CHUNKS: u128 = super::graph_size::MAX_GRAPH_CHUNKS;

impl Lowerer<'_> {
    pub(super) fn node(&self, id: TileableId) -> &TileableNode {
        self.graph.node(id)
    }

    pub(super) fn shape(&self, id: TileableId) -> &[usize] {
        &self.graph.node(id).shape
    }

    pub(super) fn dtype(&self, id: TileableId) -> DType {
        self.graph.node(id).dtype
    }

    /// Adds a node computed from `inputs`; its splits follow the op's rule.
    pub(super) fn add_derived(
        &mut self,
        op: TileOp,
        inputs: Vec<TileableId>,
        shape: Vec<usize>,
        dtype: DType,
        span: Span,
    ) -> LowerResult<TileableId> {
        check_size(&shape, dtype, span)?;
        if let Some(what) = refused_for_complex(&op) {
            let complex = inputs
                .iter()
                .map(|&id| self.graph.node(id).dtype)
                .find(|dtype| dtype.is_complex());
            if let Some(complex) = complex {
                return Err(Diagnostic::error(
                    format!("not supported yet: {what} of {complex} tensors"),
                    span,
                ));
            }
        }
        let layouts: Vec<InputLayout> = inputs
            .iter()
            .map(|&id| {
                let node = self.graph.node(id);
                InputLayout {
                    shape: &node.shape,
                    nsplits: &node.nsplits,
                }
            })
            .collect();
        let mut nsplits = infer_nsplits(&op, &layouts, &shape);
        if may_outgrow_inputs(&op) {
            let largest_input_bytes = inputs
                .iter()
                .map(|&id| {
                    let node = self.graph.node(id);
                    largest_chunk(&node.nsplits) * node.dtype.itemsize() as u128
                })
                .max()
                .unwrap_or(0);
            let budget = self.options.chunk_bytes;
            nsplits = fit_to_budget(
                nsplits,
                &shape,
                dtype.itemsize(),
                budget,
                largest_input_bytes,
            );
            check_split_count(&nsplits, span)?;
        }
        Ok(self.graph.add(TileableNode {
            op,
            inputs,
            shape,
            dtype,
            nsplits,
            span,
        }))
    }

    /// Adds a node with explicit splits (creation ops, rechunks, reshapes).
    pub(super) fn add_with_splits(
        &mut self,
        op: TileOp,
        inputs: Vec<TileableId>,
        shape: Vec<usize>,
        dtype: DType,
        nsplits: Vec<Vec<usize>>,
        span: Span,
    ) -> TileableId {
        self.graph.add(TileableNode {
            op,
            inputs,
            shape,
            dtype,
            nsplits,
            span,
        })
    }

    /// The splits a chunk spec gives a tensor of this shape and dtype. `spec` is the
    /// `chunks=` argument, if any (`"auto"` otherwise).
    pub(super) fn resolve_spec(
        &self,
        spec: Option<&Arg>,
        shape: &[usize],
        dtype: DType,
        span: Span,
    ) -> LowerResult<Vec<Vec<usize>>> {
        check_size(shape, dtype, span)?;
        let (spec, span) = match spec {
            Some(arg) => (super::convert::chunk_spec(arg)?, arg.span),
            None => (ChunkSpec::Auto, span),
        };
        check_chunk_count(&spec, shape, dtype, self.options.chunk_bytes, span)?;
        resolve_chunks(&spec, shape, dtype, self.options.chunk_bytes).map_err(|e| {
            let mut diagnostic = Diagnostic::error(e.message, span);
            if let Some(help) = e.help {
                diagnostic = diagnostic.with_help(help);
            }
            diagnostic
        })
    }

    /// Adds a creation node chunked by `spec` (or automatically).
    pub(super) fn add_created(
        &mut self,
        op: TileOp,
        shape: Vec<usize>,
        dtype: DType,
        spec: Option<&Arg>,
        span: Span,
    ) -> LowerResult<TileableId> {
        let nsplits = self.resolve_spec(spec, &shape, dtype, span)?;
        Ok(self.add_with_splits(op, vec![], shape, dtype, nsplits, span))
    }

    /// A 0-d tensor holding `value`.
    pub(super) fn scalar_tensor(&mut self, value: Scalar, span: Span) -> TileableId {
        self.add_with_splits(
            TileOp::Create(Creation::Full(value)),
            vec![],
            vec![],
            value.dtype(),
            vec![],
            span,
        )
    }

    /// `id` converted to `dtype` (itself when it already has it).
    pub(super) fn cast(
        &mut self,
        id: TileableId,
        dtype: DType,
        span: Span,
    ) -> LowerResult<TileableId> {
        if self.dtype(id) == dtype {
            return Ok(id);
        }
        let shape = self.shape(id).to_vec();
        let cast = TileOp::Elementwise(ElementwiseOp::Cast);
        self.add_derived(cast, vec![id], shape, dtype, span)
    }

    /// How promotion sees a value, once lists have been made tensors.
    pub(super) fn operand(&self, value: &Value) -> Option<Operand> {
        Some(match value {
            Value::Tensor(id) => Operand::Tensor(self.dtype(*id)),
            Value::Int(v) => Operand::PyInt(*v),
            Value::Float(_) => Operand::PyFloat,
            Value::Complex(..) => Operand::PyComplex,
            Value::Bool(_) => Operand::PyBool,
            _ => return None,
        })
    }

    /// A tensor for an argument: tensors as they are; Python scalars as 0-d tensors
    /// of `dtype` (or of their own default dtype); nested lists and tuples as literals.
    pub(super) fn tensor_of(
        &mut self,
        arg: &Arg,
        dtype: Option<DType>,
        what: &str,
    ) -> LowerResult<TileableId> {
        match &arg.value {
            Value::Tensor(id) => Ok(*id),
            Value::Int(_) | Value::Float(_) | Value::Complex(..) | Value::Bool(_) => {
                let scalar = python_scalar(&arg.value, dtype, arg.span)?;
                Ok(self.scalar_tensor(scalar, arg.span))
            }
            Value::Tuple(..) | Value::List(_) => self.literal_tensor(arg, dtype, None),
            other => Err(Diagnostic::error(
                format!(
                    "{what} must be a tensor or a number, got {}",
                    other.type_name()
                ),
                arg.span,
            )),
        }
    }
}

/// A Python scalar as a typed scalar: of `dtype` if given (ints checked against its
/// range, as NumPy does), else of its default dtype.
pub(super) fn python_scalar(
    value: &Value,
    dtype: Option<DType>,
    span: Span,
) -> LowerResult<Scalar> {
    let scalar = match value {
        Value::Int(v) => Scalar::Int64(*v),
        Value::Float(v) => Scalar::Float64(*v),
        Value::Complex(re, im) => Scalar::Complex128(marsc_runtime::C128::new(*re, *im)),
        Value::Bool(b) => Scalar::Bool(*b),
        other => {
            return Err(Diagnostic::error(
                format!("expected a number, got {}", other.type_name()),
                span,
            ))
        }
    };
    let Some(dtype) = dtype else {
        return Ok(scalar);
    };
    if let (Scalar::Int64(v), DType::Int32) = (scalar, dtype) {
        if i32::try_from(v).is_err() {
            return Err(Diagnostic::error(
                format!("Python integer {v} out of bounds for int32"),
                span,
            ));
        }
    }
    Ok(scalar.cast(dtype))
}

/// Refuses tensors whose byte size does not fit in an `i64`, with NumPy's message.
/// As in NumPy, a length-0 axis does not excuse the others: the product of the
/// non-zero lengths must fit too, so no product of lengths overflows later on.
pub(super) fn check_size(shape: &[usize], dtype: DType, span: Span) -> LowerResult<()> {
    check_ndim(shape.len(), span)?;
    let bytes = shape
        .iter()
        .filter(|&&d| d != 0)
        .try_fold(dtype.itemsize() as u128, |acc, &d| {
            acc.checked_mul(d as u128)
        });
    match bytes {
        Some(b) if b <= i64::MAX as u128 => Ok(()),
        _ => Err(Diagnostic::error(
            "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size",
            span,
        )
        .with_note(format!("the shape is {}", shape_text(shape)))),
    }
}

/// NumPy's limit on the number of dimensions (`NPY_MAXDIMS`): it cannot make, or
/// load, an array of more.
pub(super) const MAX_DIMS: usize = 64;

/// Refuses a tensor of more than [`MAX_DIMS`] dimensions, as NumPy does.
pub(super) fn check_ndim(ndim: usize, span: Span) -> LowerResult<()> {
    if ndim <= MAX_DIMS {
        return Ok(());
    }
    Err(Diagnostic::error(
        format!("maximum supported dimension for an ndarray is currently {MAX_DIMS}, found {ndim}"),
        span,
    ))
}

/// Ops whose result chunks can be bigger than their operands' (broadcasting, a
/// wider dtype) and whose tiling rechunks the operands to whatever splits the
/// result has; see [`fit_to_budget`].
fn may_outgrow_inputs(op: &TileOp) -> bool {
    matches!(
        op,
        TileOp::Elementwise(_) | TileOp::Shape(ShapeOp::BroadcastTo) | TileOp::MatMul
    )
}

/// Refuses a result split into more than [`MAX_CHUNKS`] chunks.
fn check_split_count(nsplits: &[Vec<usize>], span: Span) -> LowerResult<()> {
    let count = nsplits.iter().fold(1u128, |count, splits| {
        count.saturating_mul(splits.len() as u128)
    });
    if count > MAX_CHUNKS {
        return Err(Diagnostic::error(
            format!("this result would be split into {count} chunks, more than the {MAX_CHUNKS} a tensor may have"),
            span,
        )
        .with_note("this result is too big to split into chunks within the chunk byte budget")
        .with_help("raise the budget with `--chunk-bytes`, or compute a smaller result"));
    }
    Ok(())
}

/// Refuses chunk specs that would give more than [`MAX_CHUNKS`] chunks, before the
/// splits are materialized.
fn check_chunk_count(
    spec: &ChunkSpec,
    shape: &[usize],
    dtype: DType,
    budget: u64,
    span: Span,
) -> LowerResult<()> {
    let per_axis = |len: usize, size: i64| -> u128 {
        if size <= 0 {
            1
        } else {
            (len as u128).div_ceil(size as u128).max(1)
        }
    };
    let bytes: u128 = shape.iter().map(|&d| d as u128).product::<u128>() * dtype.itemsize() as u128;
    let auto = bytes / budget.max(1) as u128 + 1;
    let count: u128 = match spec {
        ChunkSpec::Auto => auto,
        ChunkSpec::All(size) => shape
            .iter()
            .map(|&len| per_axis(len, *size))
            .fold(1u128, |a, b| a.saturating_mul(b)),
        ChunkSpec::PerAxis(axes) => axes
            .iter()
            .zip(shape)
            .map(|(axis, &len)| match axis {
                AxisChunks::Size(size) => per_axis(len, *size),
                AxisChunks::Splits(splits) => splits.len() as u128,
                AxisChunks::Whole => 1,
                AxisChunks::Auto => auto,
            })
            .fold(1u128, |a, b| a.saturating_mul(b)),
    };
    if count > MAX_CHUNKS {
        return Err(Diagnostic::error(
            format!("these chunks would split the tensor into {count} chunks, more than the {MAX_CHUNKS} a tensor may have"),
            span,
        )
        .with_help("use bigger chunks, or chunks=\"auto\""));
    }
    Ok(())
}

/// What an op that has no complex kernel yet is called in its "not supported yet"
/// message; `None` for the ops complex tensors go through.
fn refused_for_complex(op: &TileOp) -> Option<&'static str> {
    Some(match op {
        TileOp::Linalg(_) => "linear algebra",
        TileOp::Sort(_) => "sorting",
        _ => return None,
    })
}

/// The user error for an op that has no result dtype for its input dtype.
pub(super) fn dtype_rule_error(
    name: &str,
    dtype: DType,
    error: DTypeRuleError,
    span: Span,
) -> Diagnostic {
    match error {
        DTypeRuleError::NoLoop => {
            let diagnostic = Diagnostic::error(
                format!("`{name}` is not supported for {dtype} tensors"),
                span,
            );
            let help = match (name, dtype) {
                ("negative", DType::Bool) => "use `~` or `logical_not`",
                ("subtract", DType::Bool) => "use `^` or `logical_xor`",
                ("invert" | "bitwise_and" | "bitwise_or" | "bitwise_xor", _) => {
                    "`~`, `&`, `|` and `^` work on bool and integer tensors"
                }
                (_, DType::Complex64 | DType::Complex128) => {
                    "NumPy has no complex loop for it: take `x.real`, `x.imag` or `abs(x)` first"
                }
                _ => "cast first: `x.astype(int)`",
            };
            diagnostic.with_help(help)
        }
        DTypeRuleError::UnsupportedResult(_) if dtype.is_complex() => Diagnostic::error(
            format!("not supported yet: `{name}` of {dtype} tensors"),
            span,
        ),
        DTypeRuleError::UnsupportedResult(result) => Diagnostic::error(
            format!("not supported yet: NumPy would give {result} here"),
            span,
        )
        .with_help("cast first: `x.astype(float)`"),
    }
}
