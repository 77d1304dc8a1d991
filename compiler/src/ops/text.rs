//! The small texts every dump writes alike (Python's `True`/`False`, axis lists,
//! shapes as tuples, and as NumPy's messages write them), shared by the op families and the IRs' dumps
//! (`tileable/display.rs` re-exports them), so a family writes its parameters
//! exactly as the dumps always have.

/// Python's spelling of a boolean.
pub fn python_bool(value: bool) -> &'static str {
    if value {
        "True"
    } else {
        "False"
    }
}

/// A list of axes or counts: `[0, 2]`.
pub fn list_text(values: &[usize]) -> String {
    let items: Vec<String> = values.iter().map(|v| v.to_string()).collect();
    format!("[{}]", items.join(", "))
}

/// A shape as Python writes a tuple: `()`, `(3,)`, `(2, 3)`.
pub fn shape_text(shape: &[usize]) -> String {
    tuple_text(shape.iter().map(|d| d.to_string()))
}

/// A shape as NumPy's ufunc errors write it, without spaces: `(2,3)`, `(4,)`, `()`.
pub fn compact_tuple(shape: &[usize]) -> String {
    match shape {
        [] => "()".to_string(),
        [only] => format!("({only},)"),
        _ => {
            let parts: Vec<String> = shape.iter().map(usize::to_string).collect();
            format!("({})", parts.join(","))
        }
    }
}

/// Items as a Python tuple (a one-item tuple keeps its comma).
pub fn tuple_text(items: impl Iterator<Item = String>) -> String {
    let items: Vec<String> = items.collect();
    match items.len() {
        1 => format!("({},)", items[0]),
        _ => format!("({})", items.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_pythons() {
        assert_eq!(python_bool(false), "False");
        assert_eq!(list_text(&[0, 2]), "[0, 2]");
        assert_eq!(shape_text(&[]), "()");
        assert_eq!(shape_text(&[3]), "(3,)");
        assert_eq!(shape_text(&[2, 3]), "(2, 3)");
        assert_eq!(compact_tuple(&[2, 3]), "(2,3)");
        assert_eq!(compact_tuple(&[4]), "(4,)");
    }
}
