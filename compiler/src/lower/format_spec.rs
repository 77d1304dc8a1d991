//! Python's `format(value, spec)` for the Python values a format string shows (f-strings
//! and `str.format`): the format-spec mini-language
//! `[[fill]align][sign][z][#][0][width][grouping][.precision][type]` for `int`, `float`,
//! `bool` and `str`, with Python's results and Python's `ValueError` messages. A NumPy
//! scalar formats as the Python `int` or `float` it converts to (NumPy's own rule).

use super::pyfmt::float_repr;
use std::fmt;

/// A Python value `format` shows.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Formattable<'a> {
    Int(i64),
    Float(f64),
    Bool(bool),
    Str(&'a str),
}

impl Formattable<'_> {
    fn type_name(&self) -> &'static str {
        match self {
            Formattable::Int(_) => "int",
            Formattable::Float(_) => "float",
            Formattable::Bool(_) => "bool",
            Formattable::Str(_) => "str",
        }
    }
}

#[derive(Debug, Default)]
struct Spec {
    fill: Option<char>,
    align: Option<char>,
    sign: Option<char>,
    alternate: bool,
    zero: bool,
    width: usize,
    grouping: Option<char>,
    precision: Option<usize>,
    kind: Option<char>,
}

/// Why a value cannot be formatted with a spec; the text is what the user reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum FormatError {
    /// Python's `ValueError` for the spec (an invalid specifier, an option the
    /// type does not take).
    Invalid(String),
    /// A spec Python takes that marsc does not format yet.
    NotSupported(String),
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::Invalid(message) | FormatError::NotSupported(message) => {
                f.write_str(message)
            }
        }
    }
}

impl std::error::Error for FormatError {}

impl From<String> for FormatError {
    fn from(message: String) -> FormatError {
        FormatError::Invalid(message)
    }
}

impl From<&str> for FormatError {
    fn from(message: &str) -> FormatError {
        FormatError::Invalid(message.to_string())
    }
}

/// The message, as a diagnostic takes it.
impl From<FormatError> for String {
    fn from(error: FormatError) -> String {
        error.to_string()
    }
}

/// `format(value, spec)`, or Python's error message.
pub(crate) fn format_value(value: Formattable, spec: &str) -> Result<String, FormatError> {
    if spec.is_empty() {
        return Ok(match value {
            Formattable::Int(v) => v.to_string(),
            Formattable::Float(v) => float_repr(v),
            Formattable::Bool(b) => if b { "True" } else { "False" }.to_string(),
            Formattable::Str(s) => s.to_string(),
        });
    }
    let parsed = parse(spec, value.type_name())?;
    match value {
        Formattable::Str(s) => format_str(s, &parsed),
        // A bool with a spec formats as the int it is.
        Formattable::Bool(b) => format_int(i64::from(b), &parsed, "bool"),
        Formattable::Int(v) => format_int(v, &parsed, "int"),
        Formattable::Float(v) => format_float(v, &parsed),
    }
}

fn invalid(spec: &str, type_name: &str) -> String {
    format!("Invalid format specifier '{spec}' for object of type '{type_name}'")
}

fn parse(spec: &str, type_name: &str) -> Result<Spec, FormatError> {
    let chars: Vec<char> = spec.chars().collect();
    let mut out = Spec::default();
    let mut i = 0;
    let is_align = |c: char| matches!(c, '<' | '>' | '=' | '^');
    if chars.len() >= 2 && is_align(chars[1]) {
        out.fill = Some(chars[0]);
        out.align = Some(chars[1]);
        i = 2;
    } else if !chars.is_empty() && is_align(chars[0]) {
        out.align = Some(chars[0]);
        i = 1;
    }
    if let Some(&c) = chars.get(i) {
        if matches!(c, '+' | '-' | ' ') {
            out.sign = Some(c);
            i += 1;
        }
    }
    if chars.get(i) == Some(&'z') {
        i += 1;
    }
    if chars.get(i) == Some(&'#') {
        out.alternate = true;
        i += 1;
    }
    if chars.get(i) == Some(&'0') {
        out.zero = true;
        i += 1;
    }
    let digits = |i: &mut usize| -> Option<usize> {
        let start = *i;
        while chars.get(*i).is_some_and(char::is_ascii_digit) {
            *i += 1;
        }
        (*i > start).then(|| chars[start..*i].iter().collect::<String>().parse().ok())?
    };
    out.width = digits(&mut i).unwrap_or(0);
    if let Some(&c) = chars.get(i) {
        if c == ',' || c == '_' {
            out.grouping = Some(c);
            i += 1;
        }
    }
    if chars.get(i) == Some(&'.') {
        i += 1;
        out.precision = Some(digits(&mut i).ok_or("Format specifier missing precision")?);
    }
    match chars.len() - i {
        0 => {}
        1 => out.kind = Some(chars[i]),
        _ => return Err(invalid(spec, type_name).into()),
    }
    if out.zero && out.align.is_none() {
        out.fill.get_or_insert('0');
        out.align = Some('=');
    }
    Ok(out)
}

fn unknown(kind: char, type_name: &str) -> String {
    format!("Unknown format code '{kind}' for object of type '{type_name}'")
}

fn format_str(s: &str, spec: &Spec) -> Result<String, FormatError> {
    if let Some(kind) = spec.kind.filter(|&k| k != 's') {
        return Err(unknown(kind, "str").into());
    }
    if spec.sign.is_some() {
        return Err("Sign not allowed in string format specifier".into());
    }
    if spec.alternate {
        return Err("Alternate form (#) not allowed in string format specifier".into());
    }
    if spec.grouping.is_some() {
        return Err("Cannot specify ',' with 's'.".into());
    }
    if spec.align == Some('=') {
        return Err("'=' alignment not allowed in string format specifier".into());
    }
    let body: String = match spec.precision {
        Some(p) => s.chars().take(p).collect(),
        None => s.to_string(),
    };
    Ok(pad("", &body, spec, '<'))
}

fn format_int(v: i64, spec: &Spec, type_name: &str) -> Result<String, FormatError> {
    let kind = spec.kind.unwrap_or('d');
    if matches!(kind, 'e' | 'E' | 'f' | 'F' | 'g' | 'G' | '%') {
        return format_float(v as f64, spec);
    }
    if spec.precision.is_some() {
        return Err("Precision not allowed in integer format specifier".into());
    }
    let magnitude = v.unsigned_abs();
    let (prefix, digits) = match kind {
        'd' | 'n' => ("", magnitude.to_string()),
        'x' => ("0x", format!("{magnitude:x}")),
        'X' => ("0X", format!("{magnitude:X}")),
        'o' => ("0o", format!("{magnitude:o}")),
        'b' => ("0b", format!("{magnitude:b}")),
        'c' => {
            let c = u32::try_from(v)
                .ok()
                .and_then(char::from_u32)
                .ok_or("%c arg not in range(0x110000)")?;
            return Ok(pad("", &c.to_string(), spec, '<'));
        }
        other => return Err(unknown(other, type_name).into()),
    };
    let digits = match spec.grouping {
        Some(separator) => {
            let every = if kind == 'd' || kind == 'n' { 3 } else { 4 };
            if separator == ',' && every == 4 {
                return Err(format!("Cannot specify ',' with '{kind}'.").into());
            }
            group(&digits, separator, every)
        }
        None => digits,
    };
    let sign = sign_text(v < 0, spec);
    let prefix = if spec.alternate { prefix } else { "" };
    zero_grouping_check(spec)?;
    Ok(pad(&format!("{sign}{prefix}"), &digits, spec, '>'))
}

fn format_float(v: f64, spec: &Spec) -> Result<String, FormatError> {
    let kind = spec.kind;
    let negative = v.is_sign_negative() && !v.is_nan();
    let magnitude = v.abs();
    let upper = matches!(kind, Some('F' | 'E' | 'G'));
    let mut body = if !magnitude.is_finite() {
        let text = if magnitude.is_nan() { "nan" } else { "inf" };
        text.to_string()
    } else {
        match kind {
            None => match spec.precision {
                None => float_repr(magnitude),
                Some(p) => general(magnitude, p.max(1), spec.alternate, true),
            },
            Some('f' | 'F') => fixed(magnitude, spec.precision.unwrap_or(6), spec.alternate),
            Some('e' | 'E') => scientific(magnitude, spec.precision.unwrap_or(6), spec.alternate),
            Some('g' | 'G') => general(
                magnitude,
                spec.precision.unwrap_or(6).max(1),
                spec.alternate,
                false,
            ),
            Some('%') => {
                format!(
                    "{}%",
                    fixed(
                        magnitude * 100.0,
                        spec.precision.unwrap_or(6),
                        spec.alternate
                    )
                )
            }
            Some('n') => general(magnitude, spec.precision.unwrap_or(6).max(1), false, false),
            Some(other) => return Err(unknown(other, "float").into()),
        }
    };
    if upper {
        body = body.to_uppercase();
    }
    if let Some(separator) = spec.grouping {
        let end = body.find(['.', 'e', 'E', '%']).unwrap_or(body.len());
        if body[..end].bytes().all(|b| b.is_ascii_digit()) {
            body = format!("{}{}", group(&body[..end], separator, 3), &body[end..]);
        }
    }
    zero_grouping_check(spec)?;
    Ok(pad(&sign_text(negative, spec), &body, spec, '>'))
}

/// Zero padding with a grouping option puts separators in the padding too; marsc
/// does not, so it refuses rather than print something else.
fn zero_grouping_check(spec: &Spec) -> Result<(), FormatError> {
    if spec.grouping.is_some() && spec.fill == Some('0') && spec.align == Some('=') {
        return Err(FormatError::NotSupported(
            "not supported yet: zero padding with a grouping option".into(),
        ));
    }
    Ok(())
}

fn sign_text(negative: bool, spec: &Spec) -> String {
    match (negative, spec.sign) {
        (true, _) => "-".into(),
        (false, Some('+')) => "+".into(),
        (false, Some(' ')) => " ".into(),
        _ => String::new(),
    }
}

/// `digits` with `separator` between groups of `every`, from the right.
fn group(digits: &str, separator: char, every: usize) -> String {
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(every) {
            out.push(separator);
        }
        out.push(c);
    }
    out
}

/// `sign` and `body` padded to the spec's width.
fn pad(sign: &str, body: &str, spec: &Spec, default_align: char) -> String {
    let len = sign.chars().count() + body.chars().count();
    if len >= spec.width {
        return format!("{sign}{body}");
    }
    let fill = spec.fill.unwrap_or(' ').to_string();
    let missing = spec.width - len;
    match spec.align.unwrap_or(default_align) {
        '<' => format!("{sign}{body}{}", fill.repeat(missing)),
        '^' => format!(
            "{}{sign}{body}{}",
            fill.repeat(missing / 2),
            fill.repeat(missing - missing / 2)
        ),
        '=' => format!("{sign}{}{body}", fill.repeat(missing)),
        _ => format!("{}{sign}{body}", fill.repeat(missing)),
    }
}

fn fixed(v: f64, precision: usize, alternate: bool) -> String {
    let mut text = format!("{v:.precision$}");
    if alternate && precision == 0 {
        text.push('.');
    }
    text
}

/// `d.ddde+XX` with `precision` digits after the point.
fn scientific(v: f64, precision: usize, alternate: bool) -> String {
    let text = format!("{v:.precision$e}");
    let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let point = if alternate && precision == 0 { "." } else { "" };
    let sign = if exponent < 0 { '-' } else { '+' };
    format!("{mantissa}{point}e{sign}{:02}", exponent.abs())
}

/// Python's `g` with `precision` significant digits; `no_type` is the spec without a
/// type, which keeps one digit after the point in positional notation.
fn general(v: f64, precision: usize, alternate: bool, no_type: bool) -> String {
    if v == 0.0 {
        return match (alternate, no_type) {
            (true, _) => format!("{:.*}", precision.saturating_sub(1), 0.0),
            (false, true) => "0.0".into(),
            (false, false) => "0".into(),
        };
    }
    // The exponent after rounding to `precision` significant digits.
    let rounded = format!("{v:.*e}", precision - 1);
    let exponent: i32 = rounded
        .split_once('e')
        .and_then(|(_, e)| e.parse().ok())
        .unwrap_or(0);
    // Without a type, scientific notation starts one exponent earlier (Python's rule).
    let limit = precision as i32 - i32::from(no_type);
    let mut text = if -4 <= exponent && exponent < limit {
        let decimals = (precision as i32 - 1 - exponent).max(0) as usize;
        format!("{v:.decimals$}")
    } else {
        scientific(v, precision - 1, alternate)
    };
    if !alternate {
        text = strip_zeros(&text);
    }
    if no_type && !text.contains(['.', 'e', 'n', 'i']) {
        text.push_str(".0");
    }
    text
}

/// Trailing zeros of the fraction removed, and the point if nothing follows it.
fn strip_zeros(text: &str) -> String {
    let (mantissa, exponent) = match text.find('e') {
        Some(at) => (&text[..at], &text[at..]),
        None => (text, ""),
    };
    let mantissa = if mantissa.contains('.') {
        mantissa.trim_end_matches('0').trim_end_matches('.')
    } else {
        mantissa
    };
    format!("{mantissa}{exponent}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use Formattable::*;

    fn f(value: Formattable, spec: &str) -> String {
        format_value(value, spec).unwrap()
    }

    #[test]
    fn numbers_as_python_formats_them() {
        // Expected values from Python 3.11's format().
        let cases = [
            (Float(2.34567), ".2f", "2.35"),
            (Float(-0.0), ".1f", "-0.0"),
            (Float(1.0), ".3", "1.0"),
            (Float(123.0), ".3", "1.23e+02"),
            (Float(1234.5), ".3", "1.23e+03"),
            (Float(12.0), ".3", "12.0"),
            (Float(99.95), ".3", "1e+02"),
            (Float(5.0), ".1", "5e+00"),
            (Float(10.0), ".2", "1e+01"),
            (Float(0.0001), ".3", "0.0001"),
            (Float(1e-5), ".3", "1e-05"),
            (Float(1234.5), ",", "1,234.5"),
            (Float(1.5), "%", "150.000000%"),
            (Float(3.0), "g", "3"),
            (Float(1e20), "g", "1e+20"),
            (Float(0.5), "e", "5.000000e-01"),
            (Float(2.5), "10.3f", "     2.500"),
            (Float(2.5), "<8", "2.5     "),
            (Float(-2.5), "=+8.1f", "-    2.5"),
            (Float(2.5), "+.1e", "+2.5e+00"),
            (Float(f64::NAN), "f", "nan"),
            (Float(f64::INFINITY), "F", "INF"),
            (Float(1234567.891), ",.2f", "1,234,567.89"),
            (Float(0.000123456), "g", "0.000123456"),
            (Float(123456789.0), "g", "1.23457e+08"),
            (Float(100000.0), "g", "100000"),
            (Float(1e-10), ".2g", "1e-10"),
            (Float(2.0), "#g", "2.00000"),
            (Float(7.0), "08.2f", "00007.00"),
            (Int(255), "#x", "0xff"),
            (Int(-42), "05d", "-0042"),
            (Int(1234567), ",", "1,234,567"),
            (Int(1234567), "_", "1_234_567"),
            (Int(5), ".2f", "5.00"),
            (Int(3), "*^7", "***3***"),
            (Int(10), "b", "1010"),
            (Int(65), "c", "A"),
            (Bool(true), ">5", "    1"),
            (Bool(true), "", "True"),
            (Str("ab"), "^6", "  ab  "),
            (Str("abcdef"), ".3", "abc"),
            (Str("ab"), ">4", "  ab"),
        ];
        for (value, spec, expected) in cases {
            assert_eq!(f(value, spec), expected, "{value:?} {spec:?}");
        }
    }

    #[test]
    fn errors_as_python_reports_them() {
        assert_eq!(
            format_value(Float(1.0), "d").unwrap_err(),
            FormatError::Invalid("Unknown format code 'd' for object of type 'float'".into())
        );
        assert_eq!(
            format_value(Int(1), ".2d").unwrap_err(),
            FormatError::Invalid("Precision not allowed in integer format specifier".into())
        );
        assert_eq!(
            format_value(Str("a"), "+").unwrap_err(),
            FormatError::Invalid("Sign not allowed in string format specifier".into())
        );
        assert_eq!(
            format_value(Float(1.0), ".2ff").unwrap_err(),
            FormatError::Invalid(
                "Invalid format specifier '.2ff' for object of type 'float'".into()
            )
        );
        assert_eq!(
            format_value(Float(1.0), ".").unwrap_err(),
            FormatError::Invalid("Format specifier missing precision".into())
        );
    }
}
