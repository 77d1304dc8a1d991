//! NumPy-exact text for arrays and scalars: `str()` (what `print` shows) and `repr()`
//! (what the REPL echoes), byte for byte as NumPy 2 prints them with its default print
//! options (precision 8, floatmode `'maxprec'`, threshold 1000, edgeitems 3,
//! linewidth 75).

mod digits;
mod float;
mod layout;

use crate::array::ArrayData;
use crate::dtype::DType;
use crate::scalar::Scalar;
use digits::PrintFloat;
use float::{float_scalar_str, FloatFormat};
use layout::{shown_positions, NestedLayout, LINE_WIDTH, THRESHOLD};
use ndarray::{ArrayD, IxDyn};

/// NumPy's `str(array)`; a 0-d array prints as its scalar.
pub fn format_array(a: &ArrayData) -> String {
    if a.ndim() == 0 {
        return match a.get_flat(0) {
            Some(value) => format_scalar(value),
            None => "[]".to_string(),
        };
    }
    array_to_string(a, " ", "")
}

/// NumPy's `repr(array)`: `array([1., 2.])`, `array([1, 2], dtype=int32)`,
/// `array([], shape=(2, 0), dtype=float64)`.
pub fn repr_array(a: &ArrayData) -> String {
    const PREFIX: &str = "array(";
    let body = array_to_string(a, ", ", PREFIX);
    let mut extras = Vec::new();
    if (a.is_empty() && a.shape() != [0]) || a.len() > THRESHOLD {
        extras.push(format!("shape={}", python_tuple(a.shape())));
    }
    if !dtype_is_implied(a.dtype()) || a.is_empty() {
        extras.push(format!("dtype={}", a.dtype().name()));
    }
    if extras.is_empty() {
        return format!("{PREFIX}{body})");
    }
    let text = format!("{PREFIX}{body},");
    let extra_text = format!("{})", extras.join(", "));
    let last_line_len = text.len() - text.rfind('\n').map_or(0, |i| i + 1);
    let spacer = if last_line_len + extra_text.len() + 1 > LINE_WIDTH {
        format!("\n{}", " ".repeat(PREFIX.len()))
    } else {
        " ".to_string()
    };
    format!("{text}{spacer}{extra_text}")
}

/// NumPy's `str()` of a scalar: `0.1`, `1e-05`, `1e+16`, `-0.0`, `nan`, `3`, `True`.
pub fn format_scalar(s: Scalar) -> String {
    match s {
        Scalar::Bool(b) => python_bool(b).to_string(),
        Scalar::Int32(v) => v.to_string(),
        Scalar::Int64(v) => v.to_string(),
        Scalar::Float32(v) => float_scalar_str(v),
        Scalar::Float64(v) => float_scalar_str(v),
    }
}

/// NumPy's `repr()` of a scalar: `np.float64(1.5)`, `np.int64(3)`, `np.True_`.
pub fn repr_scalar(s: Scalar) -> String {
    match s {
        Scalar::Bool(b) => format!("np.{}_", python_bool(b)),
        other => format!("np.{}({})", other.dtype().name(), format_scalar(other)),
    }
}

fn python_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

/// Python's tuple repr: `(3,)`, `(2, 0)`.
fn python_tuple(shape: &[usize]) -> String {
    match shape {
        [single] => format!("({single},)"),
        dims => format!(
            "({})",
            dims.iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The dtypes `repr` leaves implicit (NumPy's `dtype_is_implied`).
fn dtype_is_implied(dtype: DType) -> bool {
    matches!(dtype, DType::Bool | DType::Int64 | DType::Float64)
}

/// NumPy's `array2string` with default options, the given separator and the prefix
/// whose width continuation lines are indented by.
fn array_to_string(a: &ArrayData, separator: &str, prefix: &str) -> String {
    if a.is_empty() {
        return "[]".to_string();
    }
    // `repr` passes `suffix=")"`, which NumPy takes off the line width.
    let line_width = if prefix.is_empty() {
        LINE_WIDTH
    } else {
        LINE_WIDTH - 1
    };
    let summarize = a.len() > THRESHOLD;
    let positions = shown_positions(a.shape(), summarize);
    let layout = |word: &dyn Fn(&[usize]) -> String| {
        NestedLayout {
            shape: a.shape(),
            separator,
            summarize,
            line_width,
            indent: 1 + prefix.len(),
            word,
        }
        .render()
    };
    match a {
        ArrayData::Bool(values) => {
            let true_word = if values.ndim() == 0 { "True" } else { " True" };
            layout(&|index| {
                let word = if values[IxDyn(index)] {
                    true_word
                } else {
                    "False"
                };
                word.to_string()
            })
        }
        ArrayData::Int32(values) => layout(&int_words(values, &positions)),
        ArrayData::Int64(values) => layout(&int_words(values, &positions)),
        ArrayData::Float32(values) => layout(&float_words(values, &positions)),
        ArrayData::Float64(values) => layout(&float_words(values, &positions)),
    }
}

/// Integers right-aligned to the widest printed value (NumPy's `IntegerFormat`).
fn int_words<'a, T>(
    values: &'a ArrayD<T>,
    positions: &[Vec<usize>],
) -> impl Fn(&[usize]) -> String + 'a
where
    T: Copy + Ord + ToString,
{
    let shown = positions.iter().map(|p| values[IxDyn(p)]);
    let width = shown
        .clone()
        .max()
        .into_iter()
        .chain(shown.min())
        .map(|v| v.to_string().len())
        .max()
        .unwrap_or(0);
    move |index| format!("{:>width$}", values[IxDyn(index)].to_string())
}

/// Floats laid out by one `FloatFormat` fitted to the printed values.
fn float_words<'a, T: PrintFloat>(
    values: &'a ArrayD<T>,
    positions: &[Vec<usize>],
) -> impl Fn(&[usize]) -> String + 'a {
    let shown: Vec<T> = positions.iter().map(|p| values[IxDyn(p)]).collect();
    let format = FloatFormat::new(&shown);
    move |index| format.format(values[IxDyn(index)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::ArrayD;

    fn floats(shape: &[usize], values: Vec<f64>) -> ArrayData {
        ArrayData::Float64(ArrayD::from_shape_vec(IxDyn(shape), values).unwrap())
    }

    #[test]
    fn str_and_repr_of_small_arrays() {
        let a = floats(&[2], vec![1.0, 2.0]);
        assert_eq!(format_array(&a), "[1. 2.]");
        assert_eq!(repr_array(&a), "array([1., 2.])");
        let ints = ArrayData::Int32(ArrayD::from_shape_vec(IxDyn(&[2]), vec![1, 2]).unwrap());
        assert_eq!(repr_array(&ints), "array([1, 2], dtype=int32)");
        let empty = floats(&[2, 0], vec![]);
        assert_eq!(format_array(&empty), "[]");
        assert_eq!(repr_array(&empty), "array([], shape=(2, 0), dtype=float64)");
        let bools =
            ArrayData::Bool(ArrayD::from_shape_vec(IxDyn(&[2]), vec![true, false]).unwrap());
        assert_eq!(format_array(&bools), "[ True False]");
    }

    #[test]
    fn zero_d_arrays() {
        let a = ArrayData::from_scalar(Scalar::Float64(1e20));
        assert_eq!(format_array(&a), "1e+20");
        assert_eq!(repr_array(&a), "array(1.e+20)");
        let b = ArrayData::from_scalar(Scalar::Bool(true));
        assert_eq!(repr_array(&b), "array(True)");
    }

    #[test]
    fn scalar_reprs() {
        assert_eq!(repr_scalar(Scalar::Float64(1.5)), "np.float64(1.5)");
        assert_eq!(repr_scalar(Scalar::Int64(3)), "np.int64(3)");
        assert_eq!(repr_scalar(Scalar::Bool(true)), "np.True_");
        assert_eq!(repr_scalar(Scalar::Float32(f32::NAN)), "np.float32(nan)");
    }
}
