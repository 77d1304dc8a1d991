//! Literal data: nested lists and tuples of Python scalars (`mt.tensor([[1, 2], [3,
//! 4]])`, or a list used as an operand) become `Literal` nodes, with NumPy's dtype
//! inference (bool < int64 < float64) and its error for ragged nesting.

use super::bind::Arg;
use super::convert::shape_text;
use super::nodes::python_scalar;
use super::value::Value;
use super::{LowerResult, Lowerer};
use crate::ops::Creation;
use crate::tileable::{TileOp, TileableId};
use marsc_grammar::Diagnostic;
use marsc_runtime::{DType, Scalar};
use std::sync::Arc;

impl Lowerer<'_> {
    /// A tensor holding the nested sequence in `arg`, of `dtype` if given; one chunk
    /// unless `chunks` says otherwise.
    pub(super) fn literal_tensor(
        &mut self,
        arg: &Arg,
        dtype: Option<DType>,
        chunks: Option<&Arg>,
    ) -> LowerResult<TileableId> {
        let shape = discover_shape(&arg.value);
        let mut leaves = Vec::new();
        if let Err(depth) = collect_leaves(&arg.value, &shape, 0, &mut leaves) {
            return Err(ragged_error(&shape, depth, arg));
        }
        let dtype = dtype.unwrap_or_else(|| infer_dtype(&leaves));
        let values = leaves
            .iter()
            .map(|leaf| match leaf {
                Value::Tensor(_) => Err(Diagnostic::error(
                    "not supported yet: tensors inside a list literal",
                    arg.span,
                )
                .with_help("use `mt.stack([...])` to join tensors along a new axis")),
                _ => python_scalar(leaf, Some(dtype), arg.span),
            })
            .collect::<LowerResult<Vec<Scalar>>>()?;
        let nsplits = match chunks {
            Some(_) => self.resolve_spec(chunks, &shape, dtype, arg.span)?,
            None => shape.iter().map(|&len| vec![len]).collect(),
        };
        Ok(self.add_with_splits(
            TileOp::Create(Creation::Literal(Arc::from(values))),
            vec![],
            shape,
            dtype,
            nsplits,
            arg.span,
        ))
    }
}

/// The shape implied by following the first element of each nested sequence.
fn discover_shape(value: &Value) -> Vec<usize> {
    let mut shape = Vec::new();
    let mut current = value;
    while let Some(items) = current.as_sequence() {
        shape.push(items.len());
        match items.first() {
            Some(first) => current = first,
            None => break,
        }
    }
    shape
}

/// Appends the leaves in C order; on ragged nesting returns the depth where the
/// nesting stopped matching `shape`.
fn collect_leaves<'v>(
    value: &'v Value,
    shape: &[usize],
    depth: usize,
    leaves: &mut Vec<&'v Value>,
) -> Result<(), usize> {
    match (value.as_sequence(), shape.get(depth)) {
        (Some(items), Some(&len)) if items.len() == len => {
            for item in items {
                collect_leaves(item, shape, depth + 1, leaves)?;
            }
            Ok(())
        }
        (None, None) => {
            leaves.push(value);
            Ok(())
        }
        _ => Err(depth),
    }
}

fn ragged_error(shape: &[usize], depth: usize, arg: &Arg) -> Diagnostic {
    Diagnostic::error(
        format!(
            "setting an array element with a sequence. The requested array has an \
             inhomogeneous shape after {depth} dimensions. The detected shape was {} + \
             inhomogeneous part.",
            shape_text(&shape[..depth])
        ),
        arg.span,
    )
    .with_help("every nested list must have the same length")
}

/// NumPy's dtype for a list of Python scalars: complex128 if any is a complex,
/// float64 if any is a float, int64 if any is an int, bool if all are bools; float64
/// for an empty list.
fn infer_dtype(leaves: &[&Value]) -> DType {
    let mut dtype = if leaves.is_empty() {
        DType::Float64
    } else {
        DType::Bool
    };
    for leaf in leaves {
        match leaf {
            Value::Complex(..) => return DType::Complex128,
            Value::Float(_) => dtype = DType::Float64,
            Value::Int(_) if dtype == DType::Bool => dtype = DType::Int64,
            _ => {}
        }
    }
    dtype
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_and_leaves() {
        let nested = Value::tuple(vec![Value::int_tuple(&[1, 2]), Value::int_tuple(&[3, 4])]);
        let shape = discover_shape(&nested);
        assert_eq!(shape, vec![2, 2]);
        let mut leaves = Vec::new();
        collect_leaves(&nested, &shape, 0, &mut leaves).unwrap();
        assert_eq!(leaves.len(), 4);
        let ragged = Value::tuple(vec![Value::int_tuple(&[1, 2]), Value::int_tuple(&[3])]);
        let shape = discover_shape(&ragged);
        assert_eq!(collect_leaves(&ragged, &shape, 0, &mut Vec::new()), Err(1));
    }

    #[test]
    fn dtype_inference() {
        assert_eq!(
            infer_dtype(&[&Value::Bool(true), &Value::Int(2)]),
            DType::Int64
        );
        assert_eq!(
            infer_dtype(&[&Value::Int(1), &Value::Float(2.0)]),
            DType::Float64
        );
        assert_eq!(infer_dtype(&[&Value::Bool(true)]), DType::Bool);
        assert_eq!(infer_dtype(&[]), DType::Float64);
    }
}
