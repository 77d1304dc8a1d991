//! Decimal digits of binary floats, reproducing what NumPy's Dragon4 prints.
//!
//! NumPy prints floats with Dragon4 in "unique" mode: the shortest digit string that
//! reads back as the same float, optionally cut off after a maximum number of digits
//! (rounding the exact binary value there) or extended to a minimum number of digits
//! (again the exact binary value, rounded). Rust's formatter already produces the
//! shortest round-trip digits (`{:e}`) and exactly rounded digits (`{:.N}`, `{:.Ne}`,
//! ties to even), so we derive NumPy's digits from those and only re-implement the
//! layout: where the point goes, trimming, padding and the exponent.

use half::f16;
use std::fmt::{Display, LowerExp};

/// The float widths marsc prints, with the NumPy constants that depend on the width.
pub(crate) trait PrintFloat: Copy + PartialOrd {
    /// A type that formats the same value exactly (itself, float32 for float16, whose
    /// `half` formatting drops the requested precision).
    type Exact: Display + LowerExp;
    fn exact(self) -> Self::Exact;
    /// `np.finfo(dtype).precision` capped at 8, as a power of ten: at or above this
    /// magnitude an array switches to scientific notation.
    const ARRAY_EXP_CUTOFF: Self;
    /// Scalars at or above this magnitude print in scientific notation.
    const SCALAR_MAX_POSITIONAL: f64;

    fn is_finite(self) -> bool;
    fn is_nan(self) -> bool;
    fn is_sign_negative(self) -> bool;
    fn is_zero(self) -> bool;
    fn abs(self) -> Self;
    /// `self < 0.0001`, compared in this width as NumPy 2 does (the Python float is cast).
    fn below_ten_thousandth(self) -> bool;
    /// `self / smaller > 1000.`, divided in this width as NumPy does.
    fn ratio_exceeds_thousand(self, smaller: Self) -> bool;
    fn to_f64(self) -> f64;
    /// The exponent `q` of the value's last mantissa bit: the value is a multiple of
    /// `2^q`, so its decimal expansion ends at or before the `10^q` place.
    fn ulp_exponent(self) -> i32;
    /// The shortest digits that read back as the same value in this width, as
    /// Rust's `{:e}` writes them.
    fn shortest_exp(self) -> String {
        format!("{:e}", self.exact())
    }
    /// Whether the decimal `text` (`{:e}` form) reads back as this value; only
    /// float16 has to ask (its digits come from [`PrintFloat::shortest_exp`]'s search,
    /// not from a round-trip formatter).
    fn reads_back(self, _text: &str) -> bool {
        true
    }
}

impl PrintFloat for f64 {
    type Exact = f64;
    fn exact(self) -> f64 {
        self
    }
    const ARRAY_EXP_CUTOFF: f64 = 1e8;
    const SCALAR_MAX_POSITIONAL: f64 = 1e16;

    fn is_finite(self) -> bool {
        f64::is_finite(self)
    }
    fn is_nan(self) -> bool {
        f64::is_nan(self)
    }
    fn is_sign_negative(self) -> bool {
        f64::is_sign_negative(self)
    }
    fn is_zero(self) -> bool {
        self == 0.0
    }
    fn abs(self) -> f64 {
        f64::abs(self)
    }
    fn below_ten_thousandth(self) -> bool {
        self < 0.0001
    }
    fn ratio_exceeds_thousand(self, smaller: f64) -> bool {
        self / smaller > 1000.0
    }
    fn to_f64(self) -> f64 {
        self
    }
    fn ulp_exponent(self) -> i32 {
        let biased = ((self.to_bits() >> 52) & 0x7ff) as i32;
        biased.max(1) - 1075
    }
}

impl PrintFloat for f32 {
    type Exact = f32;
    fn exact(self) -> f32 {
        self
    }
    const ARRAY_EXP_CUTOFF: f32 = 1e6;
    const SCALAR_MAX_POSITIONAL: f64 = 1e6;

    fn is_finite(self) -> bool {
        f32::is_finite(self)
    }
    fn is_nan(self) -> bool {
        f32::is_nan(self)
    }
    fn is_sign_negative(self) -> bool {
        f32::is_sign_negative(self)
    }
    fn is_zero(self) -> bool {
        self == 0.0
    }
    fn abs(self) -> f32 {
        f32::abs(self)
    }
    fn below_ten_thousandth(self) -> bool {
        self < 0.0001
    }
    fn ratio_exceeds_thousand(self, smaller: f32) -> bool {
        self / smaller > 1000.0
    }
    fn to_f64(self) -> f64 {
        self as f64
    }
    fn ulp_exponent(self) -> i32 {
        let biased = ((self.to_bits() >> 23) & 0xff) as i32;
        biased.max(1) - 150
    }
}

impl PrintFloat for f16 {
    type Exact = f32;
    fn exact(self) -> f32 {
        self.to_f32()
    }
    // `np.finfo(np.float16).precision` is 3.
    const ARRAY_EXP_CUTOFF: f16 = f16::from_f32_const(1e3);
    const SCALAR_MAX_POSITIONAL: f64 = 1e3;

    fn is_finite(self) -> bool {
        f16::is_finite(self)
    }
    fn is_nan(self) -> bool {
        f16::is_nan(self)
    }
    fn is_sign_negative(self) -> bool {
        f16::is_sign_negative(self)
    }
    fn is_zero(self) -> bool {
        self == f16::ZERO
    }
    fn abs(self) -> f16 {
        f16::from_bits(self.to_bits() & 0x7fff)
    }
    fn below_ten_thousandth(self) -> bool {
        self < crate::kernels::f64_to_f16(0.0001)
    }
    fn ratio_exceeds_thousand(self, smaller: f16) -> bool {
        f16::from_f32(self.to_f32() / smaller.to_f32()) > f16::from_f32(1000.0)
    }
    fn to_f64(self) -> f64 {
        f16::to_f64(self)
    }
    fn ulp_exponent(self) -> i32 {
        let biased = ((self.to_bits() >> 10) & 0x1f) as i32;
        biased.max(1) - 25
    }
    /// `half` formats through float32, whose shortest digits are longer than
    /// float16's: the fewest significant digits whose nearest decimal (or, where
    /// the float16's interval is lopsided, the other neighbour) reads back as it.
    fn shortest_exp(self) -> String {
        let value = self.to_f32();
        for fraction in 0..5 {
            let nearest = format!("{value:.fraction$e}");
            if self.reads_back(&nearest) {
                return nearest;
            }
            if let Some(other) = other_neighbour(&nearest, value, fraction) {
                if self.reads_back(&other) {
                    return other;
                }
            }
        }
        format!("{value:e}")
    }
    fn reads_back(self, text: &str) -> bool {
        text.parse::<f64>()
            .is_ok_and(|x| crate::kernels::f64_to_f16(x).to_bits() == self.to_bits())
    }
}

/// The decimal of `fraction + 1` significant digits on the other side of `value`
/// from `nearest` (Rust's `{:.fraction$e}` of it), as `{:e}` text.
fn other_neighbour(nearest: &str, value: f32, fraction: usize) -> Option<String> {
    let (mantissa, exponent) = nearest.split_once('e')?;
    let mut exponent: i32 = exponent.parse().ok()?;
    let units: u64 = mantissa.replace('.', "").parse().ok()?;
    let below = nearest.parse::<f64>().ok()? < f64::from(value);
    let other = if below {
        units + 1
    } else {
        units.checked_sub(1)?
    };
    let mut digits = other.to_string();
    if digits.len() == fraction + 2 {
        // 9.99 + 0.01 carried into a new leading digit.
        digits.pop();
        exponent += 1;
    }
    if digits.len() != fraction + 1 {
        return None;
    }
    let (lead, rest) = digits.split_at(1);
    Some(if rest.is_empty() {
        format!("{lead}e{exponent}")
    } else {
        format!("{lead}.{rest}e{exponent}")
    })
}

/// A non-negative decimal `d0.d1d2... × 10^exponent`; `digits` is never empty and has
/// no leading zero unless the value is zero (then it is `"0"` with exponent 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Digits {
    pub digits: Vec<u8>,
    pub exponent: i32,
}

/// Where Dragon4 stops or must continue generating digits.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Cutoff {
    /// This many significant digits.
    Significant(usize),
    /// This many digits after the decimal point.
    Fraction(usize),
}

impl Digits {
    fn zero() -> Digits {
        Digits {
            digits: vec![b'0'],
            exponent: 0,
        }
    }

    /// The digits as `{:e}` text (`1.5625e-2`).
    fn exp_text(&self) -> String {
        let (lead, rest) = self.digits.split_at(1);
        let text = |d: &[u8]| String::from_utf8_lossy(d).into_owned();
        if rest.is_empty() {
            format!("{}e{}", text(lead), self.exponent)
        } else {
            format!("{}.{}e{}", text(lead), text(rest), self.exponent)
        }
    }

    /// Decimal position (power of ten) of the last digit.
    fn last_position(&self) -> i32 {
        self.exponent - (self.digits.len() as i32 - 1)
    }

    /// Parses Rust's `{:e}` output (`1.2345e-5`, `0e0`).
    fn from_scientific(text: &str) -> Digits {
        let (mantissa, exponent) = text.split_once('e').unwrap_or((text, "0"));
        let digits: Vec<u8> = mantissa.bytes().filter(u8::is_ascii_digit).collect();
        if digits.iter().all(|d| *d == b'0') {
            return Digits::zero();
        }
        Digits {
            digits,
            exponent: exponent.parse().unwrap_or(0),
        }
    }

    /// Parses Rust's `{:.N}` output (`0.00195312`, `123.5`).
    fn from_positional(text: &str) -> Digits {
        let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
        let all: Vec<u8> = whole.bytes().chain(fraction.bytes()).collect();
        let Some(first_nonzero) = all.iter().position(|d| *d != b'0') else {
            return Digits::zero();
        };
        Digits {
            digits: all[first_nonzero..].to_vec(),
            exponent: whole.len() as i32 - 1 - first_nonzero as i32,
        }
    }
}

/// The digits NumPy's Dragon4 (unique mode) prints for `|value|`, given an optional
/// cutoff (`precision`) and an optional minimum (`min_digits`).
pub(crate) fn dragon4_digits<T: PrintFloat>(
    value: T,
    max: Option<Cutoff>,
    min: Option<Cutoff>,
) -> Digits {
    let magnitude = value.abs();
    if magnitude.is_zero() {
        return Digits::zero();
    }
    let shortest = shortest_digits(magnitude);
    let position_of = |cutoff: Cutoff| match cutoff {
        Cutoff::Significant(count) => shortest.exponent - (count.max(1) as i32 - 1),
        Cutoff::Fraction(count) => -(count as i32),
    };
    if let Some(max) = max {
        if shortest.last_position() < position_of(max) {
            return exactly_rounded(magnitude, max);
        }
    }
    if let Some(min) = min {
        if shortest.last_position() > position_of(min) {
            return exactly_rounded(magnitude, min);
        }
    }
    shortest
}

/// The shortest round-trip digits, choosing the even last digit when the value lies
/// exactly halfway between two shortest candidates (Dragon4 does; Rust rounds up).
fn shortest_digits<T: PrintFloat>(magnitude: T) -> Digits {
    let shortest = Digits::from_scientific(&magnitude.shortest_exp());
    let count = shortest.digits.len();
    // A tie means the exact value has exactly one more digit, a 5.
    let one_more = format!("{:.*e}", count, magnitude.exact());
    if !one_more.split('e').next().is_some_and(|m| m.ends_with('5')) {
        return shortest;
    }
    let last_exact_position = magnitude.ulp_exponent().min(0);
    let exact_count = (shortest.exponent - last_exact_position + 1).max(1) as usize;
    let exact = Digits::from_scientific(&format!("{:.*e}", exact_count - 1, magnitude.exact()));
    let significant = exact.digits.len()
        - exact
            .digits
            .iter()
            .rev()
            .take_while(|d| **d == b'0')
            .count();
    if significant == count + 1 && exact.exponent == shortest.exponent {
        // The even candidate, unless it falls outside a float16's interval (lopsided
        // at a power of two) where only the other one reads back.
        let even = exactly_rounded(magnitude, Cutoff::Significant(count));
        if magnitude.reads_back(&even.exp_text()) {
            even
        } else {
            shortest
        }
    } else {
        shortest
    }
}

/// The exact binary value rounded (ties to even) at the cutoff.
fn exactly_rounded<T: PrintFloat>(magnitude: T, cutoff: Cutoff) -> Digits {
    match cutoff {
        Cutoff::Significant(count) => {
            Digits::from_scientific(&format!("{:.*e}", count.max(1) - 1, magnitude.exact()))
        }
        Cutoff::Fraction(count) => {
            Digits::from_positional(&format!("{:.count$}", magnitude.exact()))
        }
    }
}

/// NumPy's `trim` argument: what happens to trailing zeros and the decimal point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Trim {
    /// `'k'`: keep trailing zeros (pad to the minimum digits) and the point.
    Keep,
    /// `'.'`: drop trailing zeros, keep the point (`1.`).
    Point,
    /// `'0'`: drop trailing zeros but leave one after the point (`1.0`).
    OneZero,
    /// `'-'`: drop trailing zeros and a bare point (`1`).
    PointAndZeros,
}

/// Layout options shared by positional and scientific rendering.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Layout {
    pub trim: Trim,
    /// Zeros are added (in `Trim::Keep`) up to this many fraction digits.
    pub min_fraction: usize,
    /// Spaces are added on the left until this many characters precede the point.
    pub pad_left: Option<usize>,
    /// Spaces are added on the right until this many characters follow the point.
    pub pad_right: Option<usize>,
    /// A non-negative value gets a `+` (NumPy's `sign='+'`, the imaginary parts).
    pub plus_sign: bool,
    /// The exponent has at least this many digits (2 when `None`).
    pub exp_digits: Option<usize>,
}

impl Layout {
    pub fn plain(trim: Trim) -> Layout {
        Layout {
            trim,
            min_fraction: 0,
            pad_left: None,
            pad_right: None,
            exp_digits: None,
            plus_sign: false,
        }
    }
}

/// Trims or pads `fraction` per `trim`; returns whether the decimal point is kept.
fn apply_trim(fraction: &mut String, layout: &Layout) -> bool {
    let mut point = !(layout.trim == Trim::PointAndZeros && fraction.is_empty());
    match layout.trim {
        Trim::OneZero if fraction.is_empty() => fraction.push('0'),
        Trim::Keep => {
            while fraction.len() < layout.min_fraction {
                fraction.push('0');
            }
        }
        _ => {}
    }
    if layout.trim != Trim::Keep && !fraction.is_empty() {
        while fraction.ends_with('0') {
            fraction.pop();
        }
        if fraction.is_empty() {
            match layout.trim {
                Trim::OneZero => fraction.push('0'),
                Trim::PointAndZeros => point = false,
                _ => {}
            }
        }
    }
    point
}

/// The sign a number is written with: `-`, `+` when the layout asks for it, or none.
fn sign_char(negative: bool, layout: &Layout) -> Option<char> {
    if negative {
        Some('-')
    } else if layout.plus_sign {
        Some('+')
    } else {
        None
    }
}

/// `ddd.ddd` (NumPy's `FormatPositional`).
pub(crate) fn positional(digits: &Digits, negative: bool, layout: &Layout) -> String {
    let text = |d: &[u8]| String::from_utf8_lossy(d).into_owned();
    let (whole, mut fraction) = if digits.exponent >= 0 {
        let whole_len = digits.exponent as usize + 1;
        if digits.digits.len() <= whole_len {
            let mut whole = text(&digits.digits);
            whole.extend(std::iter::repeat_n('0', whole_len - digits.digits.len()));
            (whole, String::new())
        } else {
            let (w, f) = digits.digits.split_at(whole_len);
            (text(w), text(f))
        }
    } else {
        let mut fraction: String = "0".repeat((-digits.exponent - 1) as usize);
        fraction.push_str(&text(&digits.digits));
        ("0".to_string(), fraction)
    };
    let point = apply_trim(&mut fraction, layout);

    let mut out = String::new();
    let sign = sign_char(negative, layout);
    if let Some(pad_left) = layout.pad_left {
        let used = whole.len() + usize::from(sign.is_some());
        out.extend(std::iter::repeat_n(' ', pad_left.saturating_sub(used)));
    }
    out.extend(sign);
    out.push_str(&whole);
    if point {
        out.push('.');
    }
    out.push_str(&fraction);
    if let Some(pad_right) = layout.pad_right {
        if pad_right >= fraction.len() {
            if !point {
                out.push(' ');
            }
            out.extend(std::iter::repeat_n(' ', pad_right - fraction.len()));
        }
    }
    out
}

/// `d.ddde+xx` (NumPy's `FormatScientific`).
pub(crate) fn scientific(digits: &Digits, negative: bool, layout: &Layout) -> String {
    let mut out = String::new();
    let sign = sign_char(negative, layout);
    if let Some(pad_left) = layout.pad_left {
        let used = 1 + usize::from(sign.is_some());
        out.extend(std::iter::repeat_n(' ', pad_left.saturating_sub(used)));
    }
    out.extend(sign);
    out.push(digits.digits[0] as char);
    let mut fraction = String::from_utf8_lossy(&digits.digits[1..]).into_owned();
    let point = apply_trim(&mut fraction, layout);
    if point {
        out.push('.');
    }
    out.push_str(&fraction);
    let exponent = digits.exponent;
    out.push('e');
    out.push(if exponent >= 0 { '+' } else { '-' });
    let width = layout.exp_digits.unwrap_or(2);
    out.push_str(&format!("{:0width$}", exponent.unsigned_abs()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn digits(text: &str, exponent: i32) -> Digits {
        Digits {
            digits: text.as_bytes().to_vec(),
            exponent,
        }
    }

    #[test]
    fn parses_rust_output() {
        assert_eq!(Digits::from_scientific("1.2345e-5"), digits("12345", -5));
        assert_eq!(Digits::from_scientific("0e0"), digits("0", 0));
        assert_eq!(Digits::from_positional("0.00195312"), digits("195312", -3));
        assert_eq!(Digits::from_positional("123.50"), digits("12350", 2));
        assert_eq!(Digits::from_positional("0.00000000"), digits("0", 0));
    }

    #[test]
    fn cuts_off_with_exact_ties_to_even() {
        // np.format_float_positional(0.001953125, precision=8) == '0.00195312'
        let d = dragon4_digits(0.001953125f64, Some(Cutoff::Fraction(8)), None);
        assert_eq!(d, digits("195312", -3));
        // np.format_float_scientific(np.float32(1.1), precision=8, min_digits=8)
        // == '1.10000002e+00': extra digits come from the exact binary value.
        let d = dragon4_digits(
            1.1f32,
            Some(Cutoff::Significant(9)),
            Some(Cutoff::Significant(9)),
        );
        assert_eq!(d, digits("110000002", 0));
    }

    #[test]
    fn shortest_ties_go_to_the_even_digit() {
        // np.float32(2256698.25) lies halfway between 2256698.2 and 2256698.3;
        // NumPy prints '2256698.2' where Rust's `{}` prints 2256698.3.
        let d = dragon4_digits(2_256_698.0_f32 + 0.25, None, None);
        assert_eq!(d, digits("22566982", 6));
        // Not a tie: the exact value has more digits than one extra 5.
        let d = dragon4_digits(0.1f64, None, None);
        assert_eq!(d, digits("1", -1));
    }

    #[test]
    fn lays_out_like_numpy() {
        let layout = Layout::plain(Trim::OneZero);
        assert_eq!(
            positional(&digits("1", 15), false, &layout),
            "1000000000000000.0"
        );
        assert_eq!(positional(&digits("0", 0), true, &layout), "-0.0");
        let layout = Layout::plain(Trim::PointAndZeros);
        assert_eq!(scientific(&digits("15", 300), false, &layout), "1.5e+300");
        assert_eq!(scientific(&digits("1", -5), false, &layout), "1e-05");
        let padded = Layout {
            pad_left: Some(3),
            pad_right: Some(2),
            ..Layout::plain(Trim::Point)
        };
        assert_eq!(positional(&digits("1", 0), false, &padded), "  1.  ");
    }
}
