//! Turns the text of number and string tokens into values, with the errors a user
//! can act on (too-large integers, leading zeros, bad escapes, unsupported prefixes).
//!
//! Errors come back boxed: they are rare, and a `Diagnostic` is large enough that an
//! unboxed `Result` would slow the common path.

use std::borrow::Cow;

use crate::diagnostic::Diagnostic;
use crate::span::Span;

/// The numeral systems an integer literal can be written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Radix {
    Decimal,
    Hex,
    Octal,
    Binary,
}

impl Radix {
    fn base(self) -> u32 {
        match self {
            Radix::Decimal => 10,
            Radix::Hex => 16,
            Radix::Octal => 8,
            Radix::Binary => 2,
        }
    }
}

/// Python writes `1_000_000`; Rust's parsers want the digits alone.
fn without_underscores(text: &str) -> Cow<'_, str> {
    if text.contains('_') {
        Cow::Owned(text.replace('_', ""))
    } else {
        Cow::Borrowed(text)
    }
}

/// The value of an integer literal; `start` is its byte offset in the source.
pub(crate) fn parse_int(text: &str, radix: Radix, start: usize) -> Result<i64, Box<Diagnostic>> {
    let span = Span::new(start, start + text.len());
    let digits = match radix {
        Radix::Decimal => text,
        // The scanner only produces these kinds with a two-character prefix.
        _ => text.get(2..).unwrap_or(""),
    };
    let digits = without_underscores(digits);
    if radix == Radix::Decimal && has_leading_zero(&digits) {
        return Err(
            Diagnostic::error("leading zeros in decimal integers are not allowed", span)
                .with_label("leading zero")
                .with_help(format!(
                    "write `0o{}` for an octal number, or drop the leading zeros",
                    digits.trim_start_matches('0')
                ))
                .into(),
        );
    }
    i64::from_str_radix(&digits, radix.base()).map_err(|_| {
        Diagnostic::error("integer literal is too large", span)
            .with_label("does not fit in a 64-bit signed integer")
            .with_help(format!(
                "integers must lie within ±{}; write a float such as `1e20` for larger values",
                i64::MAX
            ))
            .into()
    })
}

fn has_leading_zero(digits: &str) -> bool {
    digits.len() > 1 && digits.starts_with('0') && digits.bytes().any(|b| b != b'0')
}

/// The value of a float literal such as `1.5`, `.5`, `5.` or `1_0e-3`.
pub(crate) fn parse_float(text: &str, start: usize) -> Result<f64, Box<Diagnostic>> {
    without_underscores(text).parse::<f64>().map_err(|_| {
        Diagnostic::error(
            "invalid float literal",
            Span::new(start, start + text.len()),
        )
        .with_label("not a number")
        .into()
    })
}

/// How the body of a string literal is to be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum StringKind {
    Plain,
    Raw,
}

/// A closed string literal's prefix, where its body starts, and its body (between
/// the quotes, one or three of them).
fn split_literal(text: &str) -> (&str, usize, &str) {
    let prefix_len = text.find(['\'', '"']).unwrap_or(0);
    let quoted = &text[prefix_len..];
    let quote_len =
        if quoted.len() >= 6 && (quoted.starts_with("'''") || quoted.starts_with("\"\"\"")) {
            3
        } else {
            1
        };
    let body_start = prefix_len + quote_len;
    let body = text
        .get(body_start..text.len().saturating_sub(quote_len))
        .unwrap_or("");
    (&text[..prefix_len], body_start, body)
}

/// Splits a closed string literal into prefix, quote length and body, and decodes it.
///
/// `text` is the whole token, quotes included; `start` its offset in the source.
pub(crate) fn decode_string(text: &str, start: usize) -> Result<Cow<'_, str>, Box<Diagnostic>> {
    let (prefix, body_start, body) = split_literal(text);
    let kind = string_kind(prefix, Span::new(start, start + prefix.len()))?;
    match kind {
        StringKind::Raw => Ok(Cow::Borrowed(body)),
        StringKind::Plain if !body.contains('\\') => Ok(Cow::Borrowed(body)),
        StringKind::Plain => decode_escapes(body, start + body_start).map(Cow::Owned),
    }
}

/// A piece of an f-string before its fields are parsed.
#[derive(Debug, PartialEq)]
pub(crate) enum RawPiece {
    Text(String),
    Field {
        /// Where the field's expression is in the source.
        expr: std::ops::Range<usize>,
        debug: Option<String>,
        conversion: Option<char>,
        spec: String,
    },
}

/// Splits a closed f-string literal (`text`, at `start` in the source) into literal
/// text and fields, as Python 3.11 does: `{{` and `}}` are braces, a field runs to the
/// `}` that closes it (brackets and quoted strings inside it skipped), `!r`/`!s`/`!a`
/// convert, `:` starts the spec, and a `=` ending the expression shows it (`{x=}`).
pub(crate) fn split_fstring(text: &str, start: usize) -> Result<Vec<RawPiece>, Box<Diagnostic>> {
    let (prefix, body_start, body) = split_literal(text);
    let raw = prefix.to_ascii_lowercase().contains('r');
    let at = |i: usize| start + body_start + i;
    let error = |message: &str, from: usize, to: usize| -> Box<Diagnostic> {
        Diagnostic::error(format!("f-string: {message}"), Span::new(at(from), at(to))).into()
    };
    let bytes = body.as_bytes();
    let mut pieces = Vec::new();
    let mut literal = String::new();
    let mut literal_start = 0;
    let mut i = 0;
    let flush = |literal: &mut String, literal_start: usize, pieces: &mut Vec<RawPiece>| {
        if literal.is_empty() {
            return Ok(());
        }
        let text = if raw || !literal.contains('\\') {
            std::mem::take(literal)
        } else {
            let decoded = decode_escapes(literal, at(literal_start))?;
            literal.clear();
            decoded
        };
        pieces.push(RawPiece::Text(text));
        Ok::<(), Box<Diagnostic>>(())
    };
    while i < bytes.len() {
        match bytes[i] {
            b'{' if bytes.get(i + 1) == Some(&b'{') => {
                literal.push('{');
                i += 2;
            }
            b'}' if bytes.get(i + 1) == Some(&b'}') => {
                literal.push('}');
                i += 2;
            }
            b'}' => return Err(error("single '}' is not allowed", i, i + 1)),
            b'{' => {
                flush(&mut literal, literal_start, &mut pieces)?;
                let (field, end) = split_field(body, i, &error)?;
                let RawField {
                    expr,
                    debug,
                    conversion,
                    spec,
                } = field;
                pieces.push(RawPiece::Field {
                    expr: at(expr.start)..at(expr.end),
                    debug,
                    conversion,
                    spec,
                });
                i = end;
                literal_start = i;
            }
            _ => {
                let c = body[i..].chars().next().unwrap_or(' ');
                literal.push(c);
                i += c.len_utf8();
            }
        }
    }
    flush(&mut literal, literal_start, &mut pieces)?;
    Ok(pieces)
}

struct RawField {
    expr: std::ops::Range<usize>,
    debug: Option<String>,
    conversion: Option<char>,
    spec: String,
}

/// The field opening at `open` (a `{`) in `body`, and where the text after it starts.
fn split_field(
    body: &str,
    open: usize,
    error: &dyn Fn(&str, usize, usize) -> Box<Diagnostic>,
) -> Result<(RawField, usize), Box<Diagnostic>> {
    let bytes = body.as_bytes();
    let mut depth = 0usize;
    let mut i = open + 1;
    let mut expr_end = None;
    let mut debug_end = None;
    while i < bytes.len() {
        match bytes[i] {
            quote @ (b'\'' | b'"') => {
                let close = body[i + 1..]
                    .find(quote as char)
                    .ok_or_else(|| error("unterminated string in a field", i, i + 1))?;
                i += close + 2;
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' if depth > 0 => depth -= 1,
            b'}' | b':' if depth == 0 => break,
            b'!' if depth == 0 && bytes.get(i + 1) != Some(&b'=') => break,
            b'=' if depth == 0
                && bytes.get(i + 1) != Some(&b'=')
                && !matches!(
                    bytes.get(i.wrapping_sub(1)),
                    Some(b'=' | b'!' | b'<' | b'>')
                ) =>
            {
                // `{x=}`: the expression ends here; blanks after the `=` are shown too.
                expr_end = Some(i);
                let mut j = i + 1;
                while bytes.get(j).is_some_and(|b| b.is_ascii_whitespace()) {
                    j += 1;
                }
                debug_end = Some(j);
                i = j;
                break;
            }
            b'\\' => return Err(error("a field may not contain a backslash", i, i + 1)),
            _ => {}
        }
        i += 1;
    }
    let expr_end = expr_end.unwrap_or(i);
    let expr = open + 1..expr_end;
    if body[expr.clone()].trim().is_empty() {
        return Err(error(
            "empty expression not allowed",
            open,
            expr_end.max(open + 1),
        ));
    }
    let debug = debug_end.map(|end| body[open + 1..end].to_string());
    let mut conversion = None;
    if bytes.get(i) == Some(&b'!') {
        match body[i + 1..].chars().next() {
            Some(c @ ('r' | 's' | 'a')) => conversion = Some(c),
            _ => {
                return Err(error(
                    "invalid conversion character: expected 's', 'r', or 'a'",
                    i,
                    i + 2,
                ))
            }
        }
        i += 2;
    }
    let mut spec = String::new();
    if bytes.get(i) == Some(&b':') {
        let spec_start = i + 1;
        let close = body[spec_start..]
            .find(['{', '}'])
            .map(|p| p + spec_start)
            .ok_or_else(|| error("expecting '}'", open, open + 1))?;
        if bytes[close] == b'{' {
            return Err(error(
                "not supported yet: a replacement field inside a format spec",
                close,
                close + 1,
            ));
        }
        spec = body[spec_start..close].to_string();
        i = close;
    }
    if bytes.get(i) != Some(&b'}') {
        return Err(error("expecting '}'", open, open + 1));
    }
    Ok((
        RawField {
            expr,
            debug,
            conversion,
            spec,
        },
        i + 1,
    ))
}

fn string_kind(prefix: &str, span: Span) -> Result<StringKind, Box<Diagnostic>> {
    match prefix.to_ascii_lowercase().as_str() {
        "" | "u" => Ok(StringKind::Plain),
        "r" => Ok(StringKind::Raw),
        "f" | "fr" | "rf" => Err(Diagnostic::error("f-strings are not supported yet", span)
            .with_label("f-string prefix")
            .with_help("pass the values to print separately: `print(\"x =\", x)`")
            .into()),
        "b" | "br" | "rb" => Err(
            Diagnostic::error("bytes literals are not supported yet", span)
                .with_label("bytes prefix")
                .with_help("drop the `b`: strings are enough for paths and dtype names")
                .into(),
        ),
        _ => Err(
            Diagnostic::error(format!("unknown string prefix `{prefix}`"), span)
                .with_label("not a string prefix")
                .with_help("the only prefixes marsc accepts are `r` (raw) and `u`")
                .into(),
        ),
    }
}

/// Applies Python's backslash escapes; `body_start` is the offset of `body` in the source.
fn decode_escapes(body: &str, body_start: usize) -> Result<String, Box<Diagnostic>> {
    let mut out = String::with_capacity(body.len());
    let mut rest = body;
    while let Some(backslash) = rest.find('\\') {
        out.push_str(&rest[..backslash]);
        let escape_start = body_start + (body.len() - rest.len()) + backslash;
        let after = &rest[backslash + 1..];
        let (decoded, consumed) = decode_one_escape(after, escape_start)?;
        if let Some(decoded) = decoded {
            decoded.push_to(&mut out);
        }
        rest = &after[consumed..];
    }
    out.push_str(rest);
    Ok(out)
}

/// Decodes the escape whose text (after the backslash) starts `after`.
///
/// Returns the replacement text (`None` for an escaped newline) and how many bytes
/// of `after` it used.
fn decode_one_escape(
    after: &str,
    escape_start: usize,
) -> Result<(Option<EscapeText>, usize), Box<Diagnostic>> {
    let Some(first) = after.chars().next() else {
        // The scanner never ends a closed literal on a lone backslash; keep it anyway.
        return Ok((Some(EscapeText::Char('\\')), 0));
    };
    let simple = match first {
        '\n' => return Ok((None, 1)),
        '\r' => return Ok((None, if after.starts_with("\r\n") { 2 } else { 1 })),
        '\\' => Some('\\'),
        '\'' => Some('\''),
        '"' => Some('"'),
        'a' => Some('\x07'),
        'b' => Some('\x08'),
        'f' => Some('\x0c'),
        'n' => Some('\n'),
        'r' => Some('\r'),
        't' => Some('\t'),
        'v' => Some('\x0b'),
        _ => None,
    };
    if let Some(c) = simple {
        return Ok((Some(EscapeText::Char(c)), 1));
    }
    match first {
        '0'..='7' => Ok(decode_octal(after)),
        'x' => decode_hex(after, 2, escape_start),
        'u' => decode_hex(after, 4, escape_start),
        'U' => decode_hex(after, 8, escape_start),
        'N' => Err(Diagnostic::error(
            "named Unicode escapes (`\\N{...}`) are not supported",
            Span::new(escape_start, escape_start + 2),
        )
        .with_label("named escape")
        .with_help("write the character itself, or use `\\u` with its code point")
        .into()),
        // Python keeps unknown escapes as written, backslash included.
        other => Ok((Some(EscapeText::Pair('\\', other)), other.len_utf8())),
    }
}

/// The text an escape stands for: one char, or an unknown escape kept verbatim.
enum EscapeText {
    Char(char),
    Pair(char, char),
}

impl EscapeText {
    fn push_to(&self, out: &mut String) {
        match *self {
            EscapeText::Char(c) => out.push(c),
            EscapeText::Pair(a, b) => {
                out.push(a);
                out.push(b);
            }
        }
    }
}

fn decode_octal(after: &str) -> (Option<EscapeText>, usize) {
    let len = after
        .bytes()
        .take(3)
        .take_while(|b| (b'0'..=b'7').contains(b))
        .count();
    let value = u32::from_str_radix(&after[..len], 8).unwrap_or(0);
    // Three octal digits reach at most 0o777, always a valid scalar value.
    let c = char::from_u32(value).unwrap_or('\u{fffd}');
    (Some(EscapeText::Char(c)), len)
}

fn decode_hex(
    after: &str,
    digits: usize,
    escape_start: usize,
) -> Result<(Option<EscapeText>, usize), Box<Diagnostic>> {
    let letter = &after[..1];
    let hex = after
        .get(1..1 + digits)
        .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()));
    let Some(hex) = hex else {
        let written = after
            .char_indices()
            .take(1 + digits)
            .last()
            .map_or(1, |(at, c)| at + c.len_utf8());
        return Err(Diagnostic::error(
            format!("invalid `\\{letter}` escape"),
            Span::new(escape_start, escape_start + 1 + written),
        )
        .with_label(format!("expected {digits} hex digits after `\\{letter}`"))
        .with_help(format!(
            "write exactly {digits} hex digits, e.g. `\\{letter}{}`",
            "0".repeat(digits.saturating_sub(2)) + "41"
        ))
        .into());
    };
    let value = u32::from_str_radix(hex, 16).unwrap_or(u32::MAX);
    match char::from_u32(value) {
        Some(c) => Ok((Some(EscapeText::Char(c)), 1 + digits)),
        None => Err(Diagnostic::error(
            format!("`\\{letter}{hex}` is not a valid Unicode character"),
            Span::new(escape_start, escape_start + 2 + digits),
        )
        .with_label("no such character")
        .with_help("Unicode code points stop at 10FFFF and exclude D800-DFFF")
        .into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_in_every_radix() {
        assert_eq!(parse_int("42", Radix::Decimal, 0), Ok(42));
        assert_eq!(parse_int("1_000_000", Radix::Decimal, 0), Ok(1_000_000));
        assert_eq!(parse_int("0x1f", Radix::Hex, 0), Ok(31));
        assert_eq!(parse_int("0o17", Radix::Octal, 0), Ok(15));
        assert_eq!(parse_int("0b101", Radix::Binary, 0), Ok(5));
        assert_eq!(parse_int("00", Radix::Decimal, 0), Ok(0));
        assert_eq!(
            parse_int("9223372036854775807", Radix::Decimal, 0),
            Ok(i64::MAX)
        );
    }

    #[test]
    fn integer_errors() {
        let too_big = parse_int("9223372036854775808", Radix::Decimal, 3).unwrap_err();
        assert_eq!(too_big.message, "integer literal is too large");
        assert_eq!(too_big.span, Span::new(3, 22));
        assert!(parse_int("0x8000000000000000", Radix::Hex, 0).is_err());
        let octal = parse_int("017", Radix::Decimal, 0).unwrap_err();
        assert!(octal.help.unwrap().contains("0o17"));
    }

    #[test]
    fn floats() {
        assert_eq!(parse_float("1.5", 0), Ok(1.5));
        assert_eq!(parse_float(".5", 0), Ok(0.5));
        assert_eq!(parse_float("5.", 0), Ok(5.0));
        assert_eq!(parse_float("1e-3", 0), Ok(0.001));
        assert_eq!(parse_float("1_0.5", 0), Ok(10.5));
    }

    #[test]
    fn strings_and_escapes() {
        assert_eq!(decode_string("'abc'", 0).unwrap(), "abc");
        assert_eq!(decode_string(r#""a\n\t\\\"b""#, 0).unwrap(), "a\n\t\\\"b");
        assert_eq!(
            decode_string(r"'\x41\u00e9\101\q'", 0).unwrap(),
            "Aé\u{41}\\q"
        );
        assert_eq!(decode_string(r"r'\n'", 0).unwrap(), "\\n");
        assert_eq!(decode_string("'''a'b\nc'''", 0).unwrap(), "a'b\nc");
        assert_eq!(decode_string("''", 0).unwrap(), "");
        assert_eq!(decode_string("'a\\\nb'", 0).unwrap(), "ab");
    }

    #[test]
    fn string_errors() {
        let bad_hex = decode_string(r"'ab\x4'", 10).unwrap_err();
        assert_eq!(bad_hex.message, "invalid `\\x` escape");
        assert_eq!(bad_hex.span, Span::new(13, 16));
        let fstring = decode_string("f'{x}'", 0).unwrap_err();
        assert_eq!(fstring.span, Span::new(0, 1));
        assert!(decode_string(r"'\ud800'", 0).is_err());
        assert!(decode_string(r"'\N{DASH}'", 0).is_err());
        assert!(decode_string("b'x'", 0).is_err());
    }
}
