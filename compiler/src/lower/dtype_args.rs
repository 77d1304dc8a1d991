//! The `dtype=` and `casting=` arguments: dtype names as NumPy reads them (with
//! byte-order marks, type codes and C-type names), a clear message for NumPy dtypes
//! marsc lacks, and NumPy's casting rules with its error messages.

use super::bind::Arg;
use super::convert::str_arg;
use super::value::Value;
use super::LowerResult;
use crate::infer::dtypes::{can_cast, Casting};
use marsc_grammar::{Diagnostic, Span};
use marsc_runtime::DType;

/// `dtype=`: `None`, a dtype, a scalar type (`mt.float32`, `float`) or a name.
pub(super) fn dtype_arg(arg: &Arg) -> LowerResult<Option<DType>> {
    match &arg.value {
        Value::None => Ok(None),
        Value::Str(name) => dtype_from_name(name).map(Some).map_err(|message| {
            Diagnostic::error(message, arg.span)
                .with_help("the dtypes are bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64, complex64 and complex128")
        }),
        other => other.as_dtype().map(Some).ok_or_else(|| {
            Diagnostic::error(
                format!(
                    "`dtype` must be a dtype or its name, got {}",
                    other.type_name()
                ),
                arg.span,
            )
        }),
    }
}

/// A dtype name as NumPy reads it: marsc's dtypes' names and type codes, with a
/// byte-order mark that changes nothing for them (`=` native, `|` not applicable,
/// `<` little-endian; `>` only on bools), and the C-type names that mean them on
/// 64-bit Linux (`long`, `intp`, `intc`, `'l'`, `'d'`, ...). A name NumPy knows
/// but marsc lacks says so rather than "not understood".
fn dtype_from_name(name: &str) -> Result<DType, String> {
    let unmarked = name.strip_prefix(['=', '|', '<']).unwrap_or(name);
    let big_endian = unmarked.strip_prefix('>');
    let base = big_endian.unwrap_or(unmarked);
    let dtype = DType::from_name(base).or(match base {
        "long" | "longlong" | "intp" | "l" | "q" | "p" => Some(DType::Int64),
        "ulonglong" | "P" => Some(DType::UInt64),
        "intc" | "i" => Some(DType::Int32),
        "f" => Some(DType::Float32),
        "d" => Some(DType::Float64),
        _ => None,
    });
    match (dtype, big_endian) {
        (Some(dtype), None) | (Some(dtype @ DType::Bool), Some(_)) => Ok(dtype),
        (Some(_), Some(_)) => Err(format!(
            "not supported yet: the big-endian data type '{name}' (marsc computes in native byte order)"
        )),
        (None, _) if is_other_numpy_dtype(base) => {
            Err(format!("data type '{name}' is not supported by marsc"))
        }
        (None, _) => Err(format!("data type '{name}' not understood")),
    }
}

/// NumPy dtype names and type codes marsc lacks.
fn is_other_numpy_dtype(name: &str) -> bool {
    const NAMES: &[&str] = &[
        "float128",
        "longdouble",
        "complex256",
        "clongdouble",
        "str",
        "str_",
        "unicode",
        "bytes",
        "bytes_",
        "object",
        "object_",
        "void",
        "datetime64",
        "timedelta64",
    ];
    let base = name.split('[').next().unwrap_or(name);
    let mut chars = base.chars();
    let code_with_size = chars
        .next()
        .is_some_and(|code| "bBhHiIlLqQpPuefFdDgGcOSUVMma".contains(code))
        && chars.all(|c| c.is_ascii_digit());
    NAMES.contains(&base) || code_with_size
}

/// `casting=`: one of NumPy's rule names. NumPy 2.4's `same_value` (checked value
/// by value at run time) is taken as `safe`, which never changes a value, and
/// refused where a cast could.
pub(super) fn casting_arg(arg: &Arg) -> LowerResult<Casting> {
    let name = str_arg(arg, "casting")?;
    if name == "same_value" {
        return Ok(Casting::Safe);
    }
    Casting::from_name(name).ok_or_else(|| {
        Diagnostic::error(
            format!(
                "casting must be one of 'no', 'equiv', 'safe', 'same_kind', 'unsafe' (got '{name}')"
            ),
            arg.span,
        )
    })
}

/// NumPy's error for a cast that the `casting` rule forbids.
pub(super) fn check_cast(from: DType, to: DType, casting: Casting, span: Span) -> LowerResult<()> {
    if can_cast(from, to, casting) {
        return Ok(());
    }
    Err(Diagnostic::error(
        format!(
            "Cannot cast array data from dtype('{from}') to dtype('{to}') according to the rule '{}'",
            casting.name()
        ),
        span,
    )
    .with_help("pass `casting='unsafe'` to allow it"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lower::value::PyType;

    fn arg(value: Value) -> Arg {
        Arg {
            value,
            span: Span::new(3, 5),
        }
    }

    #[test]
    fn dtype_names_as_numpy_reads_them() {
        assert_eq!(dtype_arg(&arg(Value::str("f4"))), Ok(Some(DType::Float32)));
        assert_eq!(dtype_arg(&arg(Value::str("=f8"))), Ok(Some(DType::Float64)));
        assert_eq!(dtype_arg(&arg(Value::str("intc"))), Ok(Some(DType::Int32)));
        assert_eq!(dtype_arg(&arg(Value::str(">?"))), Ok(Some(DType::Bool)));
        assert_eq!(
            dtype_arg(&arg(Value::PyType(PyType::Float))),
            Ok(Some(DType::Float64))
        );
        let message = |name: &str| dtype_arg(&arg(Value::str(name))).unwrap_err().message;
        assert_eq!(message("foo"), "data type 'foo' not understood");
        assert_eq!(
            message("float128"),
            "data type 'float128' is not supported by marsc"
        );
        for name in ["float16", "f2", "<f2", "=f2", "e", "half"] {
            assert_eq!(dtype_arg(&arg(Value::str(name))), Ok(Some(DType::Float16)));
        }
        assert_eq!(dtype_arg(&arg(Value::str("u8"))), Ok(Some(DType::UInt64)));
        assert_eq!(dtype_arg(&arg(Value::str("|u1"))), Ok(Some(DType::UInt8)));
        assert_eq!(dtype_arg(&arg(Value::str("short"))), Ok(Some(DType::Int16)));
        assert!(message(">f4").starts_with("not supported yet: the big-endian"));
    }

    #[test]
    fn casts_follow_numpy_rules() {
        assert_eq!(
            casting_arg(&arg(Value::str("same_kind"))),
            Ok(Casting::SameKind)
        );
        assert!(casting_arg(&arg(Value::str("strict"))).is_err());
        let error = check_cast(
            DType::Float64,
            DType::Int32,
            Casting::SameKind,
            Span::new(0, 1),
        );
        assert_eq!(
            error.unwrap_err().message,
            "Cannot cast array data from dtype('float64') to dtype('int32') according to the rule 'same_kind'"
        );
        assert!(check_cast(
            DType::Int64,
            DType::Float32,
            Casting::SameKind,
            Span::new(0, 1)
        )
        .is_ok());
    }
}
