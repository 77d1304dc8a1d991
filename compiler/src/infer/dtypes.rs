//! Result dtypes of NumPy 2 promotion, with NEP 50's "weak" Python scalars.

use super::{InferError, InferResult};
use marsc_runtime::DType;

/// One operand of an operation, as promotion sees it: a tensor has a strong dtype,
/// a Python scalar only a kind (and, for ints, a value that must fit).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Operand {
    Tensor(DType),
    PyBool,
    PyInt(i64),
    PyFloat,
}

/// `np.promote_types(a, b)`.
pub fn promote_types(a: DType, b: DType) -> DType {
    a.max(b)
}

/// `np.result_type` of the operands under NEP 50.
pub fn result_type(operands: &[Operand]) -> InferResult<DType> {
    let _ = operands;
    Err(InferError::new("not supported yet: result_type"))
}
