//! Converting call arguments to what an op needs (an int, an axis or axes, a shape,
//! a chunk spec, an order, ...), with errors that name the parameter, what it must
//! be and what it got: "`axis` must be an int or a tuple of ints, got str".

use super::bind::Arg;
use super::value::Value;
use super::LowerResult;
use crate::infer::chunks::{AxisChunks, ChunkSpec};
use marsc_grammar::{Diagnostic, Span};

fn wrong_type(name: &str, expected: &str, arg: &Arg) -> Diagnostic {
    Diagnostic::error(
        format!("`{name}` must be {expected}, got {}", arg.value.type_name()),
        arg.span,
    )
}

/// An integer (Python's `operator.index`: bools count, floats do not).
pub(super) fn int_arg(arg: &Arg, name: &str) -> LowerResult<i64> {
    match arg.value {
        Value::Int(v) => Ok(v),
        Value::Bool(b) => Ok(b as i64),
        _ => Err(wrong_type(name, "an int", arg)),
    }
}

/// An integer as NumPy's C argument parsers read one (shapes, reduction and scan
/// axes, `eye`'s sizes): unlike `operator.index`, they refuse bools.
pub(super) fn strict_int_arg(arg: &Arg, name: &str) -> LowerResult<i64> {
    match arg.value {
        Value::Int(v) => Ok(v),
        _ => Err(wrong_type(name, "an int", arg)),
    }
}

pub(super) fn optional_int_arg(arg: &Arg, name: &str) -> LowerResult<Option<i64>> {
    match arg.value {
        Value::None => Ok(None),
        _ => int_arg(arg, name).map(Some),
    }
}

/// `None` or an integer, bools refused (`axis=` of scans, `argmax` and `concatenate`).
pub(super) fn optional_strict_int_arg(arg: &Arg, name: &str) -> LowerResult<Option<i64>> {
    match arg.value {
        Value::None => Ok(None),
        _ => strict_int_arg(arg, name).map(Some),
    }
}

/// A non-negative integer that fits the platform's sizes (bools refused, as
/// NumPy's size parameters do).
pub(super) fn count_arg(arg: &Arg, name: &str) -> LowerResult<usize> {
    let value = strict_int_arg(arg, name)?;
    usize::try_from(value).map_err(|_| {
        Diagnostic::error(
            format!("`{name}` must not be negative, got {value}"),
            arg.span,
        )
    })
}

/// A real number (ints and bools convert).
pub(super) fn float_arg(arg: &Arg, name: &str) -> LowerResult<f64> {
    arg.value
        .as_f64()
        .ok_or_else(|| wrong_type(name, "a number", arg))
}

/// A flag: bools, and ints as Python's truth value.
pub(super) fn bool_arg(arg: &Arg, name: &str) -> LowerResult<bool> {
    match arg.value {
        Value::Bool(b) => Ok(b),
        Value::Int(v) => Ok(v != 0),
        _ => Err(wrong_type(name, "a bool", arg)),
    }
}

pub(super) fn str_arg<'a>(arg: &'a Arg, name: &str) -> LowerResult<&'a str> {
    match &arg.value {
        Value::Str(text) => Ok(text),
        _ => Err(wrong_type(name, "a string", arg)),
    }
}

/// `axis=` as `normalize_axis_tuple` reads it (`expand_dims`): `None` (every axis),
/// an int, or a tuple/list of ints, bools counting as ints.
pub(super) fn axes_arg(arg: &Arg, name: &str) -> LowerResult<Option<Vec<i64>>> {
    match &arg.value {
        Value::None => Ok(None),
        Value::Int(_) | Value::Bool(_) => Ok(Some(vec![int_arg(arg, name)?])),
        Value::Tuple(items, _) | Value::List(items) => {
            axis_items(items, arg, name, |item| match item {
                Value::Int(v) => Some(*v),
                Value::Bool(b) => Some(*b as i64),
                _ => None,
            })
            .map(Some)
        }
        _ => Err(wrong_type(name, AXES_EXPECTED, arg)),
    }
}

/// `axis=` of reductions and `squeeze`, read by NumPy's C converter: `None`, an int
/// or a tuple of ints; a list or a bool is refused.
pub(super) fn reduction_axes_arg(arg: &Arg, name: &str) -> LowerResult<Option<Vec<i64>>> {
    match &arg.value {
        Value::None => Ok(None),
        Value::Int(v) => Ok(Some(vec![*v])),
        Value::Tuple(items, _) => axis_items(items, arg, name, |item| match item {
            Value::Int(v) => Some(*v),
            _ => None,
        })
        .map(Some),
        _ => Err(wrong_type(name, AXES_EXPECTED, arg)),
    }
}

const AXES_EXPECTED: &str = "an int or a tuple of ints";

fn axis_items(
    items: &[Value],
    arg: &Arg,
    name: &str,
    read: impl Fn(&Value) -> Option<i64>,
) -> LowerResult<Vec<i64>> {
    items
        .iter()
        .map(|item| {
            read(item).ok_or_else(|| {
                Diagnostic::error(
                    format!(
                        "`{name}` must be {AXES_EXPECTED}, got {} inside",
                        item.a_type_name()
                    ),
                    arg.span,
                )
            })
        })
        .collect()
}

/// A list of ints from an int or a tuple/list of ints (`reshape` dimensions,
/// `transpose` axes), without range checks. Bools are refused, as NumPy's shape
/// and axes converters refuse them.
pub(super) fn ints_arg(arg: &Arg, name: &str) -> LowerResult<Vec<i64>> {
    match &arg.value {
        Value::Int(v) => Ok(vec![*v]),
        Value::Tuple(items, _) | Value::List(items) => {
            axis_items(items, arg, name, |item| match item {
                Value::Int(v) => Some(*v),
                _ => None,
            })
        }
        _ => Err(wrong_type(name, AXES_EXPECTED, arg)),
    }
}

/// A shape: an int or a tuple/list of non-negative ints.
pub(super) fn shape_arg(arg: &Arg, name: &str) -> LowerResult<Vec<usize>> {
    let dims = ints_arg(arg, name)?;
    dims.iter()
        .map(|&d| {
            usize::try_from(d).map_err(|_| {
                Diagnostic::error("negative dimensions are not allowed", arg.span)
                    .with_label(format!("`{name}` is {}", ints_text(&dims)))
            })
        })
        .collect()
}

fn ints_text(dims: &[i64]) -> String {
    match dims {
        [only] => format!("({only},)"),
        _ => format!(
            "({})",
            dims.iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// A shape as Python writes a tuple: `(3,)`, `(2, 3)`.
pub(super) fn shape_text(shape: &[usize]) -> String {
    crate::tileable::display::shape_text(shape)
}

/// `order=`: marsc stores every tensor in C order; orders that change only the
/// memory layout are accepted, `'F'` where it changes values (`reshape`, `ravel`)
/// is not supported.
pub(super) fn c_order_arg(arg: &Arg, function: &str) -> LowerResult<()> {
    match &arg.value {
        Value::Str(order) if matches!(&**order, "C" | "K" | "A") => Ok(()),
        Value::None => Ok(()),
        Value::Str(order) if &**order == "F" => Err(Diagnostic::error(
            format!("not supported yet: `order='F'` in `{function}()`"),
            arg.span,
        )),
        _ => Err(bad_order(arg)),
    }
}

/// `order=` where it only chooses a memory layout (creation functions, `copy`,
/// `astype`).
pub(super) fn layout_order_arg(arg: &Arg) -> LowerResult<()> {
    match &arg.value {
        Value::Str(order) if matches!(&**order, "C" | "F" | "K" | "A") => Ok(()),
        Value::None => Ok(()),
        _ => Err(bad_order(arg)),
    }
}

/// NumPy's messages for an `order=` that is not a string, or not one of the four.
fn bad_order(arg: &Arg) -> Diagnostic {
    let message = match &arg.value {
        Value::Str(order) => format!("order must be one of 'C', 'F', 'A', or 'K' (got '{order}')"),
        other => format!("order must be str, not {}", other.type_name()),
    };
    Diagnostic::error(message, arg.span)
}

/// `chunks=` / `chunk_size=`: an int, `"auto"`/`None`, or one entry per axis, each
/// an int, `-1`/`None`, `"auto"` or a tuple of explicit split sizes.
pub(super) fn chunk_spec(arg: &Arg) -> LowerResult<ChunkSpec> {
    match &arg.value {
        Value::Int(v) => Ok(ChunkSpec::All(*v)),
        Value::None => Ok(ChunkSpec::Auto),
        Value::Str(text) if &**text == "auto" => Ok(ChunkSpec::Auto),
        Value::Tuple(items, _) | Value::List(items) => items
            .iter()
            .map(|item| axis_chunks(item, arg.span))
            .collect::<LowerResult<Vec<_>>>()
            .map(ChunkSpec::PerAxis),
        _ => Err(bad_chunks(&arg.value, arg.span)),
    }
}

fn axis_chunks(value: &Value, span: Span) -> LowerResult<AxisChunks> {
    match value {
        Value::Int(v) => Ok(AxisChunks::Size(*v)),
        Value::None => Ok(AxisChunks::Whole),
        Value::Str(text) if &**text == "auto" => Ok(AxisChunks::Auto),
        Value::Tuple(items, _) | Value::List(items) => items
            .iter()
            .map(|item| match item {
                Value::Int(v) => Ok(*v),
                other => Err(bad_chunks(other, span)),
            })
            .collect::<LowerResult<Vec<i64>>>()
            .map(AxisChunks::Splits),
        other => Err(bad_chunks(other, span)),
    }
}

fn bad_chunks(value: &Value, span: Span) -> Diagnostic {
    Diagnostic::error(
        format!(
            "`chunks` must be an int, \"auto\", or a tuple with one entry per axis, got {}",
            value.type_name()
        ),
        span,
    )
    .with_help("e.g. `chunks=100`, `chunks=(100, None)` or `chunks=((60, 40), 50)`")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arg(value: Value) -> Arg {
        Arg {
            value,
            span: Span::new(3, 5),
        }
    }

    #[test]
    fn axes() {
        assert_eq!(axes_arg(&arg(Value::None), "axis"), Ok(None));
        assert_eq!(axes_arg(&arg(Value::Int(-1)), "axis"), Ok(Some(vec![-1])));
        assert_eq!(
            axes_arg(&arg(Value::int_tuple(&[0, 2])), "axis"),
            Ok(Some(vec![0, 2]))
        );
        let error = axes_arg(&arg(Value::str("a")), "axis").unwrap_err();
        assert_eq!(
            error.message,
            "`axis` must be an int or a tuple of ints, got str"
        );
        assert_eq!(error.span, Span::new(3, 5));
    }

    #[test]
    fn shapes() {
        assert_eq!(shape_arg(&arg(Value::Int(3)), "shape"), Ok(vec![3]));
        let error = shape_arg(
            &arg(Value::tuple(vec![Value::Int(2), Value::Int(-1)])),
            "shape",
        )
        .unwrap_err();
        assert_eq!(error.message, "negative dimensions are not allowed");
    }

    #[test]
    fn chunk_specs() {
        assert_eq!(chunk_spec(&arg(Value::Int(5))), Ok(ChunkSpec::All(5)));
        assert_eq!(chunk_spec(&arg(Value::str("auto"))), Ok(ChunkSpec::Auto));
        let spec = Value::tuple(vec![
            Value::int_tuple(&[2, 3]),
            Value::None,
            Value::Int(-1),
            Value::str("auto"),
        ]);
        assert_eq!(
            chunk_spec(&arg(spec)),
            Ok(ChunkSpec::PerAxis(vec![
                AxisChunks::Splits(vec![2, 3]),
                AxisChunks::Whole,
                AxisChunks::Size(-1),
                AxisChunks::Auto,
            ]))
        );
        assert!(chunk_spec(&arg(Value::Float(1.5))).is_err());
    }
}
