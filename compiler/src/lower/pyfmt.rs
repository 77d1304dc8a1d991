//! Python's `str()` and `repr()` of compile-time values, so `print(x.shape)` shows
//! `(3,)` and `print(0.1)` shows `0.1` exactly as Python would.

use super::value::Value;
use crate::tileable::TileableId;

/// `str(value)`; `None` for a tensor, which only the runtime can format.
pub(crate) fn python_str(value: &Value) -> Option<String> {
    python_str_with(value, &mut |_| None)
}

/// `str(value)` with `tensor_repr` giving the `repr()` of each tensor it holds (a
/// tuple's items are shown by their `repr()`); `None` where that gives `None`.
pub(crate) fn python_str_with(
    value: &Value,
    tensor_repr: &mut dyn FnMut(TileableId) -> Option<String>,
) -> Option<String> {
    match value {
        Value::Str(text) => Some(text.to_string()),
        Value::DType(dtype) => Some(dtype.name().to_string()),
        _ => python_repr_with(value, tensor_repr),
    }
}

/// `repr(value)` with `tensor_repr` giving the `repr()` of each tensor it holds.
pub(crate) fn python_repr_with(
    value: &Value,
    tensor_repr: &mut dyn FnMut(TileableId) -> Option<String>,
) -> Option<String> {
    let mut items_repr = |items: &[Value]| {
        items
            .iter()
            .map(|item| python_repr_with(item, tensor_repr))
            .collect::<Option<Vec<_>>>()
    };
    Some(match value {
        Value::Tensor(id) => return tensor_repr(*id),
        Value::Poison => return None,
        Value::Int(v) => v.to_string(),
        Value::Float(v) => float_repr(*v),
        // Python's complex repr is NumPy's str of a complex128 (`(1+2j)`, `2j`).
        Value::Complex(re, im) => marsc_runtime::format::format_scalar(
            marsc_runtime::Scalar::Complex128(marsc_runtime::C128::new(*re, *im)),
        ),
        Value::Bool(b) => bool_repr(*b).to_string(),
        Value::Str(text) => string_repr(text),
        Value::None => "None".to_string(),
        Value::Ellipsis => "Ellipsis".to_string(),
        // A named tuple's repr, as `collections.namedtuple`'s: `QRResult(Q=..., R=...)`.
        Value::Tuple(items, Some(class)) => {
            let parts = items_repr(items)?;
            let fields: Vec<String> = class
                .fields
                .iter()
                .zip(parts)
                .map(|(field, part)| format!("{field}={part}"))
                .collect();
            format!("{}({})", class.name, fields.join(", "))
        }
        Value::Tuple(items, None) => {
            let parts = items_repr(items)?;
            match parts.len() {
                1 => format!("({},)", parts[0]),
                _ => format!("({})", parts.join(", ")),
            }
        }
        Value::List(items) => {
            let parts = items_repr(items)?;
            format!("[{}]", parts.join(", "))
        }
        Value::DType(dtype) => format!("dtype('{}')", dtype.name()),
        // NumPy 2 names its scalar types after the dtypes (`numpy.bool`, `numpy.float64`).
        Value::ScalarType(dtype) => format!("<class 'numpy.{}'>", dtype.name()),
        Value::PyType(t) => format!("<class '{}'>", t.name()),
        Value::Namespace(namespace) => format!("<module '{}'>", namespace.module_name()),
        Value::Function(id) => format!("<function {}>", id.signature().name),
        Value::Method(_, id) => format!("<bound method {}>", id.signature().name),
        Value::Range(range) if range.step == 1 => format!("range({}, {})", range.start, range.stop),
        Value::Range(range) => format!("range({}, {}, {})", range.start, range.stop, range.step),
        // Python shows the function's address, which no two runs share.
        Value::UserFunction(function) => format!("<function {}>", function.def.name.name),
        Value::RandomState(stream) => format!("{}(Philox)", stream.class_name()),
        // NumPy 2's `repr(NpzFile)`: the first five keys.
        Value::NpzFile(npz) => {
            let keys: Vec<&str> = npz.archive.entries.iter().map(|e| e.key()).collect();
            let more = if keys.len() > 5 { "..." } else { "" };
            format!(
                "NpzFile {} with keys: {}{more}",
                string_repr(&npz.written),
                keys[..keys.len().min(5)].join(", ")
            )
        }
        Value::StreamMethod(stream, id) => format!(
            "<bound method {}.{}>",
            stream.class_name(),
            id.signature().name
        ),
    })
}

pub(crate) fn bool_repr(value: bool) -> &'static str {
    if value {
        "True"
    } else {
        "False"
    }
}

/// Python's `repr` of a str: single quotes unless the text contains one and no
/// double quote.
fn string_repr(text: &str) -> String {
    let quote = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(text.len() + 2);
    out.push(quote);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// Python's `repr(float)`: the shortest digits that round-trip, positional when the
/// decimal exponent is in -4..16, otherwise scientific with a signed two-digit exponent.
pub(crate) fn float_repr(value: f64) -> String {
    if value.is_nan() {
        return "nan".to_string();
    }
    if value.is_infinite() {
        return if value > 0.0 { "inf" } else { "-inf" }.to_string();
    }
    // Rust's `{:e}` gives the shortest round-trip digits, e.g. `-1.2345e-5`.
    let scientific = format!("{value:e}");
    let (mantissa, exponent) = scientific
        .split_once('e')
        .expect("`{:e}` always writes an exponent");
    let exponent: i32 = exponent.parse().expect("the exponent is an integer");
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", mantissa),
    };
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    if (-4..16).contains(&exponent) {
        format!("{sign}{}", positional(&digits, exponent))
    } else {
        let mut text = format!("{sign}{}", &digits[..1]);
        if digits.len() > 1 {
            text.push('.');
            text.push_str(&digits[1..]);
        }
        let exponent_sign = if exponent < 0 { '-' } else { '+' };
        text.push_str(&format!("e{exponent_sign}{:02}", exponent.abs()));
        text
    }
}

/// Places the decimal point in `digits` (d.ddd × 10^exponent), always keeping at least
/// one digit after it as Python does (`2.0`).
fn positional(digits: &str, exponent: i32) -> String {
    if exponent < 0 {
        let zeros = "0".repeat((-exponent - 1) as usize);
        return format!("0.{zeros}{digits}");
    }
    let point = exponent as usize + 1;
    if digits.len() <= point {
        let zeros = "0".repeat(point - digits.len());
        format!("{digits}{zeros}.0")
    } else {
        format!("{}.{}", &digits[..point], &digits[point..])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use marsc_runtime::DType;

    #[test]
    fn floats_as_python_repr() {
        // Expected values from Python 3's repr().
        let cases = [
            (0.1, "0.1"),
            (1e-5, "1e-05"),
            (1e16, "1e+16"),
            (1e15, "1000000000000000.0"),
            (123456789012345678.0, "1.2345678901234568e+17"),
            (1.5e-4, "0.00015"),
            (0.0001, "0.0001"),
            (-0.0, "-0.0"),
            (2.0, "2.0"),
            (1e300, "1e+300"),
            (5e-324, "5e-324"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (0.30000000000000004, "0.30000000000000004"),
            (12345.678, "12345.678"),
            (-2.5, "-2.5"),
            (f64::INFINITY, "inf"),
            (f64::NEG_INFINITY, "-inf"),
            (f64::NAN, "nan"),
        ];
        for (value, expected) in cases {
            assert_eq!(float_repr(value), expected, "{value:e}");
        }
    }

    #[test]
    fn values_as_python_str() {
        let shape = Value::int_tuple(&[3]);
        assert_eq!(python_str(&shape).unwrap(), "(3,)");
        let nsplits = Value::tuple(vec![Value::int_tuple(&[2, 2]), Value::int_tuple(&[3])]);
        assert_eq!(python_str(&nsplits).unwrap(), "((2, 2), (3,))");
        assert_eq!(
            python_str(&Value::DType(DType::Float64)).unwrap(),
            "float64"
        );
        assert_eq!(
            python_str(&Value::tuple(vec![
                Value::DType(DType::Int32),
                Value::str("a'b")
            ]))
            .unwrap(),
            "(dtype('int32'), \"a'b\")"
        );
        assert_eq!(python_str(&Value::str("hi")).unwrap(), "hi");
        assert_eq!(python_str(&Value::None).unwrap(), "None");
        assert_eq!(python_str(&Value::Bool(true)).unwrap(), "True");
        assert_eq!(python_str(&Value::tuple(vec![])).unwrap(), "()");
        assert_eq!(
            python_str(&Value::ScalarType(DType::Bool)).unwrap(),
            "<class 'numpy.bool'>"
        );
        assert_eq!(
            python_str(&Value::List(vec![Value::Float(1.0), Value::None].into())).unwrap(),
            "[1.0, None]"
        );
        assert!(python_str(&Value::Tensor(crate::tileable::TileableId(0))).is_none());
    }

    #[test]
    fn named_tuples_as_namedtuple_repr() {
        use super::super::value::{QR_RESULT, SLOGDET_RESULT};
        let result = Value::named_tuple(&SLOGDET_RESULT, vec![Value::Float(1.0), Value::Int(2)]);
        assert_eq!(
            python_str(&result).unwrap(),
            "SlogdetResult(sign=1.0, logabsdet=2)"
        );
        // Each tensor shows its repr, multi-line ones as NumPy lays them out.
        let result = Value::named_tuple(
            &QR_RESULT,
            vec![
                Value::Tensor(crate::tileable::TileableId(0)),
                Value::Tensor(crate::tileable::TileableId(1)),
            ],
        );
        let shown = python_str_with(&result, &mut |id| {
            Some(format!("array([[{}.],\n       [1.]])", id.0))
        });
        assert_eq!(
            shown.unwrap(),
            "QRResult(Q=array([[0.],\n       [1.]]), R=array([[1.],\n       [1.]]))"
        );
        let plain = Value::named_tuple(&SLOGDET_RESULT, vec![Value::Float(1.0), Value::Int(2)]);
        assert_eq!(python_str(&plain.named(None)).unwrap(), "(1.0, 2)");
    }
}
