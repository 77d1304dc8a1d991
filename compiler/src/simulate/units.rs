//! The units of `marsc simulate`'s flags and table: rates such as `10GB/s`,
//! `10Gb/s` (bits), `500MiB/s` or `50GFLOP/s`, and durations such as `50us`.
//! Decimal prefixes (k, M, G, T) are powers of 1,000, binary ones (Ki, Mi, Gi, Ti)
//! of 1,024.

use crate::error::ParseError;

/// Splits `12.5GB/s` into `12.5` and `GB/s`.
fn split_number(text: &str) -> Option<(f64, &str)> {
    let text = text.trim();
    // No unit starts with `e`, so the number is the longest run of its characters.
    let end = text
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-')))
        .unwrap_or(text.len());
    let number: f64 = text[..end].parse().ok()?;
    number.is_finite().then_some((number, text[end..].trim()))
}

/// A multiplier prefix at the start of `unit`, and the rest.
fn split_prefix(unit: &str) -> (f64, &str) {
    const PREFIXES: [(&str, f64); 8] = [
        ("Ki", 1024.0),
        ("Mi", 1_048_576.0),
        ("Gi", 1_073_741_824.0),
        ("Ti", 1_099_511_627_776.0),
        ("k", 1e3),
        ("M", 1e6),
        ("G", 1e9),
        ("T", 1e12),
    ];
    for (prefix, factor) in PREFIXES {
        if let Some(rest) = unit.strip_prefix(prefix) {
            if !rest.is_empty() {
                return (factor, rest);
            }
        }
    }
    if let Some(rest) = unit.strip_prefix('K').filter(|rest| !rest.is_empty()) {
        return (1e3, rest);
    }
    (1.0, unit)
}

/// A data rate in bytes per second: `10GB/s`, `1.25GB/s`, `10Gb/s` (bits),
/// `500MiB/s`; the `/s` may be left out. Must be above zero.
pub fn parse_bandwidth(text: &str) -> Result<f64, ParseError> {
    let bad =
        || format!("`{text}` is not a data rate; write e.g. 10GB/s, 10Gb/s (bits) or 500MiB/s");
    let (number, unit) = split_number(text).ok_or_else(bad)?;
    let unit = unit.strip_suffix("/s").unwrap_or(unit);
    let (factor, unit) = split_prefix(unit);
    let per_unit = match unit {
        "B" => 1.0,
        "b" | "bit" => 0.125,
        _ => return Err(bad().into()),
    };
    positive(number * factor * per_unit, text)
}

/// A compute rate in floating-point operations per second: `50GFLOP/s`,
/// `50GFLOPS`, `2e10`. Must be above zero.
pub fn parse_flop_rate(text: &str) -> Result<f64, ParseError> {
    let bad = || format!("`{text}` is not a compute rate; write e.g. 50GFLOP/s");
    let (number, unit) = split_number(text).ok_or_else(bad)?;
    let (factor, unit) = split_prefix(unit);
    let factor = match unit {
        "FLOP/s" | "flop/s" | "FLOPS" | "flops" => factor,
        "" if factor == 1.0 => 1.0,
        _ => return Err(bad().into()),
    };
    positive(number * factor, text)
}

/// A duration in seconds: `50us` (or `50µs`), `1.5ms`, `100ns`, `2s`; `0` needs no
/// unit. Must not be negative.
pub fn parse_duration(text: &str) -> Result<f64, ParseError> {
    let bad = || format!("`{text}` is not a duration; write e.g. 50us, 1.5ms or 0");
    let (number, unit) = split_number(text).ok_or_else(bad)?;
    // Divided, not multiplied by 1e-6: `50us` is then exactly `50e-6`.
    let per_second = match unit {
        "ns" => 1e9,
        "us" | "µs" => 1e6,
        "ms" => 1e3,
        "s" | "" if unit == "s" || number == 0.0 => 1.0,
        _ => return Err(bad().into()),
    };
    if number < 0.0 {
        return Err(format!("the duration `{text}` is negative").into());
    }
    Ok(number / per_second)
}

fn positive(value: f64, text: &str) -> Result<f64, ParseError> {
    if value > 0.0 && value.is_finite() {
        Ok(value)
    } else {
        Err(format!("the rate `{text}` must be above zero").into())
    }
}

/// `seconds` with three significant digits in s, ms, µs or ns.
pub fn format_seconds(seconds: f64) -> String {
    let (value, unit) = if seconds >= 1.0 || seconds == 0.0 {
        (seconds, "s")
    } else if seconds >= 1e-3 {
        (seconds * 1e3, "ms")
    } else if seconds >= 1e-6 {
        (seconds * 1e6, "µs")
    } else {
        (seconds * 1e9, "ns")
    };
    format!("{} {unit}", three_digits(value))
}

/// `bytes` with three significant digits in B, kB, MB, GB or TB (decimal).
pub fn format_bytes(bytes: f64) -> String {
    const UNITS: [(f64, &str); 4] = [(1e12, "TB"), (1e9, "GB"), (1e6, "MB"), (1e3, "kB")];
    match UNITS.iter().find(|&&(unit, _)| bytes >= unit) {
        Some(&(unit, name)) => format!("{} {name}", three_digits(bytes / unit)),
        None => format!("{bytes:.0} B"),
    }
}

/// A rate of `per_second` units, e.g. `10 GB/s`.
pub fn format_rate(per_second: f64, unit: &str) -> String {
    const PREFIXES: [(f64, &str); 4] = [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")];
    match PREFIXES.iter().find(|&&(factor, _)| per_second >= factor) {
        Some(&(factor, prefix)) => format!("{} {prefix}{unit}", three_digits(per_second / factor)),
        None => format!("{} {unit}", three_digits(per_second)),
    }
}

fn three_digits(value: f64) -> String {
    if value >= 100.0 {
        format!("{value:.0}")
    } else if value >= 10.0 {
        format!("{value:.1}")
    } else {
        format!("{value:.2}")
    }
}
