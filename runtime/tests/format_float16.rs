//! float16 printing against NumPy's, generated at test time with python3 and NumPy
//! (required unless `MARSC_SKIP_NUMPY=1`): `str()` and `repr()` of every one of the
//! 65536 float16 values as a scalar, and `str()`/`repr()` of arrays of float16 values
//! of mixed magnitudes (positional and scientific columns, nan/inf, subnormals).

use marsc_runtime::format::{format_array, format_scalar, repr_array, repr_scalar};
use marsc_runtime::{f16, ArrayData, Scalar};
use ndarray::{ArrayD, IxDyn};
use serde_json::Value;
use std::process::Command;

const SCRIPT: &str = r#"
import json, numpy as np
rng = np.random.default_rng(16)
scalars = [[int(b), str(x), repr(x)] for b in range(65536)
           for x in [np.array([b], dtype=np.uint16).view(np.float16)[0]]]
def case(values, shape):
    a = np.asarray(values, dtype=np.float16).reshape(shape)
    return {"shape": list(shape), "bits": [int(b) for b in a.view(np.uint16).ravel()],
            "str": str(a), "repr": repr(a)}
arrays = [
    case([0.1, 1/3], (2,)),
    case([0.1, 0.2, 0.3, 1.5], (2, 2)),
    case([1000, 1], (2,)),
    case([999, 1], (2,)),
    case([1e-4, 1], (2,)),
    case([65504, np.nan, -np.inf], (3,)),
    case([6e-8, 1e-5, 6.1e-5], (3,)),
    case([-0.0, 0.0, 2.5], (3,)),
    case([100.5, 0.2, -7], (3,)),
    case(np.arange(2000) / 7, (2000,)),
]
for size in [1, 5, 12]:
    for scale in [1e-6, 1e-3, 1, 30, 1e3, 3e4]:
        arrays.append(case(rng.standard_normal(size) * scale, (size,)))
for _ in range(40):
    bits = rng.integers(0, 65536, 6).astype(np.uint16)
    arrays.append(case(bits.view(np.float16), (2, 3)))
print(json.dumps({"scalars": scalars, "arrays": arrays}))
"#;

/// NumPy's printing of float16 values, or `None` when `MARSC_SKIP_NUMPY=1` says the
/// machine has no NumPy (otherwise a missing NumPy fails the test).
fn numpy_printing() -> Option<Value> {
    if std::env::var("MARSC_SKIP_NUMPY").is_ok_and(|v| v == "1") {
        eprintln!("skipped: MARSC_SKIP_NUMPY=1");
        return None;
    }
    let output = Command::new("python3")
        .args(["-c", SCRIPT])
        .output()
        .expect("python3 with NumPy is required (pip install numpy), or set MARSC_SKIP_NUMPY=1");
    assert!(
        output.status.success(),
        "python3 with NumPy failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    Some(serde_json::from_slice(&output.stdout).expect("NumPy's JSON"))
}

fn text(value: &Value) -> &str {
    value.as_str().expect("a string")
}

fn bits(value: &Value) -> u16 {
    value
        .as_u64()
        .and_then(|b| u16::try_from(b).ok())
        .expect("16 bits")
}

#[test]
fn float16_prints_like_numpy() {
    let Some(expected) = numpy_printing() else {
        return;
    };
    let mut failures = Vec::new();
    let scalars = expected["scalars"].as_array().expect("scalars");
    assert_eq!(scalars.len(), 65536);
    for row in scalars {
        let value = Scalar::Float16(f16::from_bits(bits(&row[0])));
        let (got_str, got_repr) = (format_scalar(value), repr_scalar(value));
        if got_str != text(&row[1]) || got_repr != text(&row[2]) {
            failures.push(format!(
                "bits {:#06x}: NumPy {} / {}, marsc {got_str} / {got_repr}",
                bits(&row[0]),
                text(&row[1]),
                text(&row[2])
            ));
        }
    }
    let arrays = expected["arrays"].as_array().expect("arrays");
    for case in arrays {
        let shape: Vec<usize> = case["shape"]
            .as_array()
            .expect("shape")
            .iter()
            .map(|d| d.as_u64().expect("a length") as usize)
            .collect();
        let values: Vec<f16> = case["bits"]
            .as_array()
            .expect("bits")
            .iter()
            .map(|b| f16::from_bits(bits(b)))
            .collect();
        let array = ArrayData::Float16(ArrayD::from_shape_vec(IxDyn(&shape), values).unwrap());
        let (got_str, got_repr) = (format_array(&array), repr_array(&array));
        if got_str != text(&case["str"]) || got_repr != text(&case["repr"]) {
            failures.push(format!(
                "array:\nNumPy:\n{}\n{}\nmarsc:\n{got_str}\n{got_repr}",
                text(&case["str"]),
                text(&case["repr"])
            ));
        }
    }
    let shown: Vec<&String> = failures.iter().take(20).collect();
    assert!(
        failures.is_empty(),
        "{} of {} float16 values or arrays print differently:\n{}",
        failures.len(),
        scalars.len() + arrays.len(),
        shown
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}
