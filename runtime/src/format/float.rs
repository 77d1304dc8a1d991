//! How NumPy prints floats: `FloatingFormat` for array elements (one notation and one
//! column width for all the printed elements) and the `str()` of a float scalar.

use super::digits::{dragon4_digits, positional, scientific, Cutoff, Layout, PrintFloat, Trim};

/// NumPy's default `precision` print option.
const PRECISION: usize = 8;

/// The shared layout of the elements of one printed float array (NumPy's
/// `FloatingFormat` with precision 8, floatmode `'maxprec'`, suppress off).
#[derive(Clone, Debug)]
pub(crate) struct FloatFormat {
    scientific: bool,
    /// In scientific notation, the number of fraction digits every element gets.
    fraction_digits: usize,
    pad_left: usize,
    pad_right: usize,
    exp_digits: usize,
    /// Non-negative values get a `+` (the imaginary parts of complex numbers).
    plus_sign: bool,
}

impl FloatFormat {
    /// Mirrors `FloatingFormat.fillFormat` over the elements that will be printed.
    pub(crate) fn new<T: PrintFloat>(values: &[T]) -> FloatFormat {
        FloatFormat::with_sign(values, false)
    }

    /// [`FloatFormat::new`] with NumPy's `sign='+'` when `plus_sign` (how a complex
    /// array's imaginary parts are laid out).
    pub(crate) fn with_sign<T: PrintFloat>(values: &[T], plus_sign: bool) -> FloatFormat {
        let finite: Vec<T> = values.iter().copied().filter(|v| v.is_finite()).collect();
        let mut format = FloatFormat {
            scientific: chooses_scientific(&finite),
            fraction_digits: 0,
            pad_left: 0,
            pad_right: 0,
            exp_digits: 0,
            plus_sign,
        };
        if finite.is_empty() {
            // NumPy leaves the notation decision to the (absent) finite values.
        } else if format.scientific {
            format.fill_scientific(&finite);
        } else {
            format.fill_positional(&finite);
        }
        if finite.len() != values.len() {
            let negative_inf = plus_sign
                || values
                    .iter()
                    .any(|v| !v.is_finite() && !v.is_nan() && v.is_sign_negative());
            // Room for `nan`/`inf`/`-inf` right-aligned in the column.
            let offset = format.pad_right + 1;
            let needed = (3 + usize::from(negative_inf)).saturating_sub(offset);
            format.pad_left = format.pad_left.max(needed);
        }
        format
    }

    fn fill_scientific<T: PrintFloat>(&mut self, finite: &[T]) {
        let layout = Layout {
            plus_sign: self.plus_sign,
            ..Layout::plain(Trim::Point)
        };
        let mut exp_len = 0;
        for &value in finite {
            let digits = dragon4_digits(value, Some(Cutoff::Significant(PRECISION + 1)), None);
            let text = scientific(&digits, value.is_sign_negative(), &layout);
            let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, ""));
            let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
            exp_len = exp_len.max(exponent.len());
            self.fraction_digits = self.fraction_digits.max(fraction.len());
            self.pad_left = self.pad_left.max(whole.len());
        }
        // `exp_len` counts the exponent's sign.
        self.exp_digits = exp_len.saturating_sub(1);
        self.pad_right = self.exp_digits + 2 + self.fraction_digits;
    }

    fn fill_positional<T: PrintFloat>(&mut self, finite: &[T]) {
        let layout = Layout {
            plus_sign: self.plus_sign,
            ..Layout::plain(Trim::Point)
        };
        for &value in finite {
            let digits = dragon4_digits(value, Some(Cutoff::Fraction(PRECISION)), None);
            let text = positional(&digits, value.is_sign_negative(), &layout);
            let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
            self.pad_left = self.pad_left.max(whole.len());
            self.pad_right = self.pad_right.max(fraction.len());
        }
    }

    /// Mirrors `FloatingFormat.__call__`.
    pub(crate) fn format<T: PrintFloat>(&self, value: T) -> String {
        if !value.is_finite() {
            let word = non_finite_word(value);
            let sign = if self.plus_sign && !word.starts_with('-') {
                "+"
            } else {
                ""
            };
            let width = self.pad_left + self.pad_right + 1;
            return format!("{:>width$}", format!("{sign}{word}"));
        }
        let negative = value.is_sign_negative();
        if self.scientific {
            let significant = Cutoff::Significant(self.fraction_digits + 1);
            let digits = dragon4_digits(value, Some(significant), Some(significant));
            let layout = Layout {
                trim: Trim::Keep,
                min_fraction: self.fraction_digits,
                pad_left: Some(self.pad_left),
                pad_right: None,
                exp_digits: Some(self.exp_digits),
                plus_sign: self.plus_sign,
            };
            scientific(&digits, negative, &layout)
        } else {
            let digits = dragon4_digits(value, Some(Cutoff::Fraction(PRECISION)), None);
            let layout = Layout {
                trim: Trim::Point,
                min_fraction: 0,
                pad_left: Some(self.pad_left),
                pad_right: Some(self.pad_right),
                exp_digits: None,
                plus_sign: self.plus_sign,
            };
            positional(&digits, negative, &layout)
        }
    }
}

/// Scientific notation when the non-zero finite magnitudes are huge, tiny, or spread
/// over more than three orders of magnitude.
fn chooses_scientific<T: PrintFloat>(finite: &[T]) -> bool {
    let mut magnitudes = finite.iter().filter(|v| !v.is_zero()).map(|v| v.abs());
    let Some(first) = magnitudes.next() else {
        return false;
    };
    let (min, max) = magnitudes.fold((first, first), |(min, max), v| {
        (if v < min { v } else { min }, if v > max { v } else { max })
    });
    max >= T::ARRAY_EXP_CUTOFF || min.below_ten_thousandth() || max.ratio_exceeds_thousand(min)
}

fn non_finite_word<T: PrintFloat>(value: T) -> &'static str {
    if value.is_nan() {
        "nan"
    } else if value.is_sign_negative() {
        "-inf"
    } else {
        "inf"
    }
}

/// `str()` of a NumPy float scalar: shortest round-trip digits, positional between
/// 1e-4 and the width's cutoff (1e16 for float64, 1e6 for float32), else scientific.
pub(crate) fn float_scalar_str<T: PrintFloat>(value: T) -> String {
    if !value.is_finite() {
        return non_finite_word(value).to_string();
    }
    let magnitude = value.abs().to_f64();
    let digits = dragon4_digits(value, None, None);
    let negative = value.is_sign_negative();
    if magnitude == 0.0 || (magnitude < T::SCALAR_MAX_POSITIONAL && magnitude >= 1e-4) {
        positional(&digits, negative, &Layout::plain(Trim::OneZero))
    } else {
        scientific(&digits, negative, &Layout::plain(Trim::PointAndZeros))
    }
}

/// One part of a complex scalar's `str()` (NumPy's `_either` with trim mode
/// `DptZeros`: `1`, `1.5`, `1e+20`), with a `+` for a non-negative `plus_sign` part.
pub(crate) fn complex_part_str<T: PrintFloat>(value: T, plus_sign: bool) -> String {
    if !value.is_finite() {
        let word = non_finite_word(value);
        let sign = if plus_sign && !word.starts_with('-') {
            "+"
        } else {
            ""
        };
        return format!("{sign}{word}");
    }
    let magnitude = value.abs().to_f64();
    let digits = dragon4_digits(value, None, None);
    let negative = value.is_sign_negative();
    let layout = Layout {
        plus_sign,
        ..Layout::plain(Trim::PointAndZeros)
    };
    if magnitude == 0.0 || (magnitude < T::SCALAR_MAX_POSITIONAL && magnitude >= 1e-4) {
        positional(&digits, negative, &layout)
    } else {
        scientific(&digits, negative, &layout)
    }
}

/// `str()` of a complex scalar as NumPy 2 (and Python's `complex`) writes it:
/// `(1+2j)`, `(-0-1.5j)`, `(nan+infj)`, and `2j` when the real part is `+0`.
pub(crate) fn complex_scalar_str<T: PrintFloat>(re: T, im: T) -> String {
    if re.is_zero() && !re.is_sign_negative() {
        return format!("{}j", complex_part_str(im, false));
    }
    format!(
        "({}{}j)",
        complex_part_str(re, false),
        complex_part_str(im, true)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn print_all<T: PrintFloat>(values: &[T]) -> Vec<String> {
        let format = FloatFormat::new(values);
        values.iter().map(|v| format.format(*v)).collect()
    }

    #[test]
    fn positional_columns() {
        // str(np.array([-1.5, 2.25, np.nan])) == '[-1.5   2.25   nan]'
        assert_eq!(
            print_all(&[-1.5f64, 2.25, f64::NAN]),
            ["-1.5 ", " 2.25", "  nan"]
        );
        // str(np.array([0.001953125, 1])) == '[0.00195312 1.        ]'
        assert_eq!(
            print_all(&[0.001953125f64, 1.0]),
            ["0.00195312", "1.        "]
        );
    }

    #[test]
    fn scientific_columns() {
        // str(np.array([1e100, 1e-5])) == '[1.e+100 1.e-005]'
        assert_eq!(print_all(&[1e100f64, 1e-5]), ["1.e+100", "1.e-005"]);
        // str(np.array([1e20, np.nan, -np.inf])) == '[1.e+20    nan   -inf]'
        assert_eq!(
            print_all(&[1e20f64, f64::NAN, f64::NEG_INFINITY]),
            ["1.e+20", "   nan", "  -inf"]
        );
        // str(np.array([1.1, 1.2345678e-5], dtype=np.float32))
        assert_eq!(
            print_all(&[1.1f32, 1.2345678e-5]),
            ["1.1000000e+00", "1.2345678e-05"]
        );
    }

    #[test]
    fn scalar_strings() {
        assert_eq!(float_scalar_str(0.1f64), "0.1");
        assert_eq!(float_scalar_str(1e-5f64), "1e-05");
        assert_eq!(float_scalar_str(1e16f64), "1e+16");
        assert_eq!(float_scalar_str(1e15f64), "1000000000000000.0");
        assert_eq!(float_scalar_str(-0.0f64), "-0.0");
        assert_eq!(float_scalar_str(1e15f32), "1e+15");
        assert_eq!(float_scalar_str(1e-4f32), "1e-04");
        assert_eq!(float_scalar_str(f32::NEG_INFINITY), "-inf");
    }
}
