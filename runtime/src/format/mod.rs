//! NumPy-exact text for arrays and scalars: `str()` (what `print` shows) and `repr()`
//! (what the REPL echoes), byte for byte as NumPy 2 prints them with its default print
//! options (precision 8, floatmode `'maxprec'`, threshold 1000, edgeitems 3,
//! linewidth 75).
//!
//! An array of more than 1000 elements is summarized: only the first and last three
//! positions of each longer axis are printed, and NumPy fits the column widths to
//! those alone. So a summarized array can be printed from its *corners* (those
//! positions only, [`summary_shape`] gives their shape) and its full shape
//! ([`format_corners`], [`repr_corners`]); marsc computes nothing else of a printed
//! tensor.

mod digits;
mod float;
mod layout;

use crate::array::ArrayData;
use crate::dtype::DType;
use crate::scalar::Scalar;
use float::{complex_scalar_str, float_scalar_str, FloatFormat};
use layout::{corner_index, NestedLayout, LINE_WIDTH};
pub use layout::{is_summarized, shown_ranges, summary_shape};
use ndarray::{ArrayD, Axis, IxDyn};
use std::borrow::Cow;

/// NumPy's `str(array)`; a 0-d array prints as its scalar.
pub fn format_array(a: &ArrayData) -> String {
    if a.ndim() == 0 {
        return match a.get_flat(0) {
            Some(value) => format_scalar(value),
            None => "[]".to_string(),
        };
    }
    format_corners(&corners_of(a), a.shape())
}

/// NumPy's `str()` of an array of `shape` given only its `corners` (the positions
/// printing shows, as [`corners_of`] takes them; the whole array when nothing is
/// elided). Not for 0-d arrays, which print as scalars ([`format_array`]).
pub fn format_corners(corners: &ArrayData, shape: &[usize]) -> String {
    array_to_string(corners, shape, " ", "")
}

/// NumPy's `repr(array)`: `array([1., 2.])`, `array([1, 2], dtype=int32)`,
/// `array([], shape=(2, 0), dtype=float64)`, and a summarized array with its shape
/// (`array([1., 1., 1., ..., 1., 1., 1.], shape=(2000,))`).
pub fn repr_array(a: &ArrayData) -> String {
    repr_corners(&corners_of(a), a.shape())
}

/// NumPy's `repr()` of an array of `shape` given only its `corners` (see
/// [`format_corners`]).
pub fn repr_corners(corners: &ArrayData, shape: &[usize]) -> String {
    const PREFIX: &str = "array(";
    let body = array_to_string(corners, shape, ", ", PREFIX);
    let empty = shape.contains(&0);
    let mut extras = Vec::new();
    if (empty && shape != [0]) || is_summarized(shape) {
        extras.push(format!("shape={}", python_tuple(shape)));
    }
    if !dtype_is_implied(corners.dtype()) || empty {
        extras.push(format!("dtype={}", corners.dtype().name()));
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
        Scalar::Float16(v) => float_scalar_str(v),
        Scalar::Float32(v) => float_scalar_str(v),
        Scalar::Float64(v) => float_scalar_str(v),
        Scalar::Complex64(v) => complex_scalar_str(v.re(), v.im()),
        Scalar::Complex128(v) => complex_scalar_str(v.re(), v.im()),
        int => int.as_i128().map_or_else(String::new, |v| v.to_string()),
    }
}

/// NumPy's `repr()` of a scalar: `np.float64(1.5)`, `np.int64(3)`, `np.True_`.
pub fn repr_scalar(s: Scalar) -> String {
    match s {
        Scalar::Bool(b) => format!("np.{}_", python_bool(b)),
        Scalar::Complex64(_) | Scalar::Complex128(_) => {
            let text = format_scalar(s);
            let inner = text
                .strip_prefix('(')
                .and_then(|t| t.strip_suffix(')'))
                .unwrap_or(&text);
            format!("np.{}({inner})", s.dtype().name())
        }
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

/// Python's tuple repr: `()`, `(3,)`, `(2, 0)` (also the `shape` of a `.npy` header).
pub fn python_tuple(shape: &[usize]) -> String {
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
    matches!(
        dtype,
        DType::Bool | DType::Int64 | DType::Float64 | DType::Complex128
    )
}

/// The positions of `a` that printing shows (the corners of each elided axis), or
/// `a` itself when printing elides nothing.
pub fn corners_of(a: &ArrayData) -> Cow<'_, ArrayData> {
    let summarize = is_summarized(a.shape());
    let mut corners = Cow::Borrowed(a);
    for axis in 0..a.ndim() {
        let ranges = shown_ranges(a.shape()[axis], summarize);
        if let [head, tail] = ranges.as_slice() {
            let indices: Vec<usize> = head.clone().chain(tail.clone()).collect();
            let axis = Axis(axis);
            corners = Cow::Owned(crate::with_array!(corners.as_ref(), values => {
                crate::kernels::Element::into_data(values.select(axis, &indices))
            }));
        }
    }
    corners
}

/// NumPy's `array2string` with default options of an array of `shape` given by its
/// printed `corners`, with the separator and the prefix whose width continuation
/// lines are indented by.
fn array_to_string(corners: &ArrayData, shape: &[usize], separator: &str, prefix: &str) -> String {
    if corners.is_empty() || shape.contains(&0) {
        return "[]".to_string();
    }
    // `repr` passes `suffix=")"`, which NumPy takes off the line width.
    let line_width = if prefix.is_empty() {
        LINE_WIDTH
    } else {
        LINE_WIDTH - 1
    };
    let summarize = is_summarized(shape);
    let kept = corners.shape();
    // Every element of the corners is printed, so the columns are fitted to all.
    let at = |index: &[usize]| IxDyn(&corner_index(shape, kept, index));
    let layout = |word: &dyn Fn(&[usize]) -> String| {
        NestedLayout {
            shape,
            separator,
            summarize,
            line_width,
            indent: 1 + prefix.len(),
            word,
        }
        .render()
    };
    match corners {
        ArrayData::Bool(values) => {
            let true_word = if values.ndim() == 0 { "True" } else { " True" };
            layout(&|index| {
                let word = if values[at(index)] {
                    true_word
                } else {
                    "False"
                };
                word.to_string()
            })
        }
        ArrayData::Int8(values) => int_layout(values, &at, &layout),
        ArrayData::Int16(values) => int_layout(values, &at, &layout),
        ArrayData::Int32(values) => int_layout(values, &at, &layout),
        ArrayData::Int64(values) => int_layout(values, &at, &layout),
        ArrayData::UInt8(values) => int_layout(values, &at, &layout),
        ArrayData::UInt16(values) => int_layout(values, &at, &layout),
        ArrayData::UInt32(values) => int_layout(values, &at, &layout),
        ArrayData::UInt64(values) => int_layout(values, &at, &layout),
        ArrayData::Float16(values) => {
            let format = FloatFormat::new(&values.iter().copied().collect::<Vec<_>>());
            layout(&|index| format.format(values[at(index)]))
        }
        ArrayData::Float32(values) => {
            let format = FloatFormat::new(&values.iter().copied().collect::<Vec<_>>());
            layout(&|index| format.format(values[at(index)]))
        }
        ArrayData::Float64(values) => {
            let format = FloatFormat::new(&values.iter().copied().collect::<Vec<_>>());
            layout(&|index| format.format(values[at(index)]))
        }
        ArrayData::Complex64(values) => complex_layout(values, &at, &layout),
        ArrayData::Complex128(values) => complex_layout(values, &at, &layout),
    }
}

/// A complex array laid out as NumPy's `ComplexFloatingFormat`: the real parts and
/// the imaginary parts each get a float column format (the imaginary one signed
/// with `+`), and the `j` goes before the imaginary part's right padding.
fn complex_layout<T>(
    values: &ArrayD<crate::complex::Cx<T>>,
    at: &dyn Fn(&[usize]) -> IxDyn,
    layout: &Layout<'_>,
) -> String
where
    T: crate::complex::Part + digits::PrintFloat,
{
    let reals: Vec<T> = values.iter().map(|v| v.re()).collect();
    let imags: Vec<T> = values.iter().map(|v| v.im()).collect();
    let real_format = FloatFormat::new(&reals);
    let imag_format = FloatFormat::with_sign(&imags, true);
    layout(&|index| {
        let value = values[at(index)];
        let real = real_format.format(value.re());
        let imag = imag_format.format(value.im());
        let end = imag.trim_end().len();
        format!("{real}{}j{}", &imag[..end], &imag[end..])
    })
}

/// Renders an array given the word at each printed index.
type Layout<'a> = dyn Fn(&dyn Fn(&[usize]) -> String) -> String + 'a;

/// An integer array laid out by `layout`, each word found through `at`.
fn int_layout<T: Copy + Ord + ToString>(
    values: &ArrayD<T>,
    at: &dyn Fn(&[usize]) -> IxDyn,
    layout: &Layout<'_>,
) -> String {
    let word = int_words(values);
    layout(&|index| word(values[at(index)]))
}

/// Integers right-aligned to the widest printed value (NumPy's `IntegerFormat`).
fn int_words<T>(values: &ArrayD<T>) -> impl Fn(T) -> String
where
    T: Copy + Ord + ToString,
{
    let width = values
        .iter()
        .copied()
        .max()
        .into_iter()
        .chain(values.iter().copied().min())
        .map(|v| v.to_string().len())
        .max()
        .unwrap_or(0);
    move |value| format!("{:>width$}", value.to_string())
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

    /// Expected strings from NumPy 2.4 (`str`/`repr` of `np.complex128`/`np.complex64`
    /// scalars and arrays).
    #[test]
    fn complex_scalars_and_arrays() {
        use crate::complex::Cx;
        let c = |re: f64, im: f64| Scalar::Complex128(Cx::new(re, im));
        assert_eq!(format_scalar(c(1.0, 2.0)), "(1+2j)");
        assert_eq!(format_scalar(c(0.0, 2.0)), "2j");
        assert_eq!(format_scalar(c(-0.0, 2.0)), "(-0+2j)");
        assert_eq!(format_scalar(c(1.0, f64::NAN)), "(1+nanj)");
        assert_eq!(
            format_scalar(c(f64::INFINITY, f64::NEG_INFINITY)),
            "(inf-infj)"
        );
        assert_eq!(format_scalar(c(1e20, 1e-5)), "(1e+20+1e-05j)");
        assert_eq!(repr_scalar(c(1.0, 2.0)), "np.complex128(1+2j)");
        assert_eq!(repr_scalar(c(0.0, 2.0)), "np.complex128(2j)");
        let single = Scalar::Complex64(Cx::new(0.1f32, -0.2));
        assert_eq!(repr_scalar(single), "np.complex64(0.1-0.2j)");
        let array = |values: Vec<(f64, f64)>| {
            let values = values.into_iter().map(|(re, im)| Cx::new(re, im)).collect();
            ArrayData::Complex128(ArrayD::from_shape_vec(IxDyn(&[3]), values).unwrap())
        };
        let mixed = array(vec![(1e10, 1.0), (f64::NAN, f64::INFINITY), (-1.0, -2.5)]);
        assert_eq!(
            format_array(&mixed),
            "[ 1.e+10+1.j      nan+infj -1.e+00-2.5j]"
        );
        let plain = array(vec![(1.0, 2.0), (3.0, -1.0), (-0.0, -0.5)]);
        assert_eq!(repr_array(&plain), "array([ 1.+2.j ,  3.-1.j , -0.-0.5j])");
    }

    #[test]
    fn scalar_reprs() {
        assert_eq!(repr_scalar(Scalar::Float64(1.5)), "np.float64(1.5)");
        assert_eq!(repr_scalar(Scalar::Int64(3)), "np.int64(3)");
        assert_eq!(repr_scalar(Scalar::Bool(true)), "np.True_");
        assert_eq!(repr_scalar(Scalar::Float32(f32::NAN)), "np.float32(nan)");
    }
}
