//! Parses byte sizes given on the command line: `64KiB`, `1MiB`, `2GiB`, `512`, `1.5GB`.

use crate::error::ParseError;

/// Parses a size in bytes. Binary units (`KiB`, `MiB`, `GiB`, `TiB`, and the short
/// `K`, `M`, `G`, `T`) are powers of 1024; decimal units (`KB`, `MB`, `GB`, `TB`) are
/// powers of 1000; no unit or `B` means bytes. Units are case-insensitive.
pub fn parse_size(text: &str) -> Result<u64, ParseError> {
    let trimmed = text.trim();
    let split = trimmed
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '_'))
        .unwrap_or(trimmed.len());
    let (number, unit) = trimmed.split_at(split);
    let number = number.replace('_', "");
    if number.is_empty() {
        return Err(format!(
            "`{text}` is not a size; write a number with an optional unit, e.g. `64KiB`, `1MiB`, `2GiB`"
        ).into());
    }
    let multiplier: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kib" => 1 << 10,
        "m" | "mib" => 1 << 20,
        "g" | "gib" => 1 << 30,
        "t" | "tib" => 1 << 40,
        "kb" => 1_000,
        "mb" => 1_000_000,
        "gb" => 1_000_000_000,
        "tb" => 1_000_000_000_000,
        other => {
            return Err(format!(
                "unknown size unit `{other}`; use B, KiB, MiB, GiB, TiB (or KB, MB, GB, TB)"
            )
            .into())
        }
    };
    let value: f64 = number
        .parse()
        .map_err(|_| format!("`{text}` is not a size"))?;
    let bytes = value * multiplier as f64;
    if !(1.0..=(u64::MAX as f64)).contains(&bytes) {
        return Err(format!("size `{text}` must be at least 1 byte").into());
    }
    Ok(bytes as u64)
}

#[cfg(test)]
mod tests {
    use super::parse_size;

    #[test]
    fn units() {
        assert_eq!(parse_size("64KiB"), Ok(65536));
        assert_eq!(parse_size("1MiB"), Ok(1 << 20));
        assert_eq!(parse_size("2GiB"), Ok(2 << 30));
        assert_eq!(parse_size("4096"), Ok(4096));
        assert_eq!(parse_size("1.5kb"), Ok(1500));
        assert_eq!(parse_size("128 MiB"), Ok(128 << 20));
    }

    #[test]
    fn rejects_nonsense() {
        assert!(parse_size("").is_err());
        assert!(parse_size("MiB").is_err());
        assert!(parse_size("12 parsecs").is_err());
        assert!(parse_size("0").is_err());
        assert!(parse_size("-5").is_err());
    }
}
