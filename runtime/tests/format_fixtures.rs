//! Byte-for-byte comparison of marsc's printing with NumPy's, over the corpus that
//! tests/fixtures/gen_format.py wrote with NumPy 2 (arrays as .npy files with their
//! `str()`/`repr()`, and scalars given by their bit patterns).

use marsc_runtime::format::{format_array, format_scalar, repr_array, repr_scalar};
use marsc_runtime::storage::npy::codec::read_array;
use marsc_runtime::{ArrayData, Scalar};
use ndarray::{ArrayD, IxDyn};
use std::path::{Path, PathBuf};

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/format")
}

struct ArrayCase {
    name: String,
    str_text: String,
    repr_text: String,
}

/// Parses blocks of `=== name`, `--- str`, text lines, `--- repr`, text lines.
fn parse_expected(text: &str) -> Vec<ArrayCase> {
    let mut cases: Vec<ArrayCase> = Vec::new();
    let mut in_repr = false;
    for line in text.lines() {
        if let Some(name) = line.strip_prefix("=== ") {
            cases.push(ArrayCase {
                name: name.to_string(),
                str_text: String::new(),
                repr_text: String::new(),
            });
            continue;
        }
        let case = cases
            .last_mut()
            .expect("expected.txt starts with a case header");
        match line {
            "--- str" => in_repr = false,
            "--- repr" => in_repr = true,
            _ => {
                let target = if in_repr {
                    &mut case.repr_text
                } else {
                    &mut case.str_text
                };
                if !target.is_empty() {
                    target.push('\n');
                }
                target.push_str(line);
            }
        }
    }
    cases
}

/// Reports every mismatch (up to a limit) with the pass rate, then fails if any.
fn report(kind: &str, total: usize, failures: &[String]) {
    let passed = total - failures.len();
    println!("{kind}: {passed}/{total} match NumPy");
    for failure in failures.iter().take(20) {
        println!("{failure}");
    }
    assert!(
        failures.is_empty(),
        "{kind}: {} of {total} differ from NumPy (first ones above)",
        failures.len()
    );
}

#[test]
fn arrays_print_like_numpy() {
    let dir = fixture_dir();
    let expected = std::fs::read_to_string(dir.join("expected.txt")).unwrap();
    let cases = parse_expected(&expected);
    assert!(cases.len() >= 300, "only {} cases", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        let array = read_array(&dir.join(format!("{}.npy", case.name)))
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        let got_str = format_array(&array);
        if got_str != case.str_text {
            failures.push(format!(
                "--- {} str\nexpected:\n{}\ngot:\n{got_str}",
                case.name, case.str_text
            ));
        }
        let got_repr = repr_array(&array);
        if got_repr != case.repr_text {
            failures.push(format!(
                "--- {} repr\nexpected:\n{}\ngot:\n{got_repr}",
                case.name, case.repr_text
            ));
        }
    }
    report("array str/repr", 2 * cases.len(), &failures);
}

fn parse_scalar(kind: &str, key: &str) -> Scalar {
    match kind {
        "float32" => Scalar::Float32(f32::from_bits(u32::from_str_radix(key, 16).unwrap())),
        "float64" => Scalar::Float64(f64::from_bits(u64::from_str_radix(key, 16).unwrap())),
        "int32" => Scalar::Int32(key.parse().unwrap()),
        "int64" => Scalar::Int64(key.parse().unwrap()),
        "bool" => Scalar::Bool(key == "True"),
        other => panic!("unknown dtype {other}"),
    }
}

/// A 1-d array of scalars of one dtype.
fn vector(values: &[Scalar]) -> ArrayData {
    let shape = IxDyn(&[values.len()]);
    macro_rules! collect {
        ($variant:ident) => {
            ArrayData::$variant(
                ArrayD::from_shape_vec(
                    shape,
                    values
                        .iter()
                        .map(|v| match v {
                            Scalar::$variant(x) => *x,
                            _ => panic!("mixed dtypes"),
                        })
                        .collect(),
                )
                .unwrap(),
            )
        };
    }
    match values[0] {
        Scalar::Bool(_) => collect!(Bool),
        Scalar::Int32(_) => collect!(Int32),
        Scalar::Int64(_) => collect!(Int64),
        Scalar::Float32(_) => collect!(Float32),
        Scalar::Float64(_) => collect!(Float64),
        Scalar::Int8(_) => collect!(Int8),
        Scalar::Int16(_) => collect!(Int16),
        Scalar::UInt8(_) => collect!(UInt8),
        Scalar::UInt16(_) => collect!(UInt16),
        Scalar::UInt32(_) => collect!(UInt32),
        Scalar::UInt64(_) => collect!(UInt64),
        Scalar::Float16(_) => collect!(Float16),
        Scalar::Complex64(_) => collect!(Complex64),
        Scalar::Complex128(_) => collect!(Complex128),
    }
}

#[test]
fn scalars_print_like_numpy() {
    let text = std::fs::read_to_string(fixture_dir().join("scalars.txt")).unwrap();
    let lines: Vec<Vec<&str>> = text.lines().map(|l| l.split('\t').collect()).collect();
    let values: Vec<Scalar> = lines.iter().map(|f| parse_scalar(f[0], f[1])).collect();
    let mut failures = Vec::new();
    let mut check = |what: &str, expected: &str, got: String| {
        if expected != got {
            failures.push(format!("{what}: expected {expected:?}, got {got:?}"));
        }
    };
    for (i, fields) in lines.iter().enumerate() {
        let value = values[i];
        let label = format!("{} {}", fields[0], fields[1]);
        check(&format!("str {label}"), fields[2], format_scalar(value));
        check(&format!("repr {label}"), fields[3], repr_scalar(value));
        check(
            &format!("[x] {label}"),
            fields[4],
            format_array(&vector(&[value])),
        );
        let partner: usize = fields[5].parse().unwrap();
        check(
            &format!("[x, y] {label}"),
            fields[6],
            format_array(&vector(&[value, values[partner]])),
        );
    }
    report("scalar str/repr", 4 * lines.len(), &failures);
}
