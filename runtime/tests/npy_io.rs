//! `.npy` data I/O: round trips, regions of NumPy-written C- and Fortran-order files
//! (tests/fixtures/npy, made by gen_format.py), region-by-region writing, files NumPy
//! reads back (checked with python3 and NumPy, required unless `MARSC_SKIP_NUMPY=1`), and error messages.

use marsc_runtime::storage::npy::codec::{
    create_npy, read_array, read_region, write_array, write_region,
};
use marsc_runtime::storage::npy::header::{read_header, NpyError};
use marsc_runtime::{f16, ArrayData, DType};
use ndarray::{ArrayD, IxDyn};
use std::path::{Path, PathBuf};
use std::process::Command;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/npy")
        .join(format!("{name}.npy"))
}

/// The region of the fixture arrays: each element is its C-order flat index in the
/// whole array of `global` shape (bool: flat index % 3 == 0).
fn expected(dtype: DType, global: &[usize], offset: &[usize], shape: &[usize]) -> ArrayData {
    let flat = |index: IxDyn| -> usize {
        let mut flat = 0;
        for axis in 0..global.len() {
            flat = flat * global[axis] + offset[axis] + index[axis];
        }
        flat
    };
    let shape = IxDyn(shape);
    match dtype {
        DType::Bool => ArrayData::Bool(ArrayD::from_shape_fn(shape, |i| flat(i) % 3 == 0)),
        DType::Int8 => ArrayData::Int8(ArrayD::from_shape_fn(shape, |i| flat(i) as i8)),
        DType::Int16 => ArrayData::Int16(ArrayD::from_shape_fn(shape, |i| flat(i) as i16)),
        DType::Int32 => ArrayData::Int32(ArrayD::from_shape_fn(shape, |i| flat(i) as i32)),
        DType::Int64 => ArrayData::Int64(ArrayD::from_shape_fn(shape, |i| flat(i) as i64)),
        DType::UInt8 => ArrayData::UInt8(ArrayD::from_shape_fn(shape, |i| flat(i) as u8)),
        DType::UInt16 => ArrayData::UInt16(ArrayD::from_shape_fn(shape, |i| flat(i) as u16)),
        DType::UInt32 => ArrayData::UInt32(ArrayD::from_shape_fn(shape, |i| flat(i) as u32)),
        DType::UInt64 => ArrayData::UInt64(ArrayD::from_shape_fn(shape, |i| flat(i) as u64)),
        DType::Float16 => ArrayData::Float16(ArrayD::from_shape_fn(shape, |i| {
            f16::from_f64(flat(i) as f64)
        })),
        DType::Float32 => ArrayData::Float32(ArrayD::from_shape_fn(shape, |i| flat(i) as f32)),
        DType::Float64 => ArrayData::Float64(ArrayD::from_shape_fn(shape, |i| flat(i) as f64)),
        DType::Complex64 => ArrayData::Complex64(ArrayD::from_shape_fn(shape, |i| {
            let v = flat(i) as f32;
            marsc_runtime::C64::new(v, -0.5 * v)
        })),
        DType::Complex128 => ArrayData::Complex128(ArrayD::from_shape_fn(shape, |i| {
            let v = flat(i) as f64;
            marsc_runtime::C128::new(v, -0.5 * v)
        })),
    }
}

/// Some regions of an array of `global` shape: whole, corners, middles, single
/// elements, and empty ones.
fn regions(global: &[usize]) -> Vec<(Vec<usize>, Vec<usize>)> {
    let ndim = global.len();
    let mut out = vec![(vec![0; ndim], global.to_vec())];
    out.push((vec![0; ndim], global.iter().map(|&d| d.min(1)).collect()));
    out.push((
        global.iter().map(|&d| d / 2).collect(),
        global.iter().map(|&d| d - d / 2).collect(),
    ));
    out.push((
        global.iter().map(|&d| d.min(1)).collect(),
        global.iter().map(|&d| d.saturating_sub(2)).collect(),
    ));
    out.push((
        global.iter().map(|&d| d.saturating_sub(1)).collect(),
        global.iter().map(|&d| d.min(1)).collect(),
    ));
    if ndim > 0 {
        let mut empty = global.to_vec();
        empty[ndim - 1] = 0;
        out.push((vec![0; ndim], empty));
    }
    if ndim > 1 {
        // A single column: one element per run.
        let mut column = global.to_vec();
        column[ndim - 1] = 1;
        let mut at = vec![0; ndim];
        at[ndim - 1] = global[ndim - 1] / 2;
        out.push((at, column));
    }
    out
}

#[test]
fn reads_regions_of_numpy_files() {
    let names = [
        "c_float64",
        "f_float64",
        "f_int32",
        "c_int64",
        "f_float32",
        "c_bool",
        "f_bool",
        "c_float64_0d",
        "c_int32_empty",
        "f_float64_4d",
        "v2_int64",
    ];
    for name in names {
        let path = fixture(name);
        let header = read_header(&path).unwrap();
        assert_eq!(header.fortran_order, name.starts_with("f_"), "{name}");
        for (offset, shape) in regions(&header.shape) {
            let got = read_region(&path, &header, &offset, &shape).unwrap();
            let want = expected(header.dtype, &header.shape, &offset, &shape);
            assert_eq!(got, want, "{name} at {offset:?} shape {shape:?}");
            assert!(standard_layout(&got), "{name}: result is not C-contiguous");
        }
        let whole = read_array(&path).unwrap();
        assert_eq!(
            whole,
            expected(
                header.dtype,
                &header.shape,
                &vec![0; header.shape.len()],
                &header.shape
            )
        );
    }
}

fn standard_layout(data: &ArrayData) -> bool {
    marsc_runtime::with_array!(data, a => a.is_standard_layout())
}

fn sample(dtype: DType, shape: &[usize]) -> ArrayData {
    let origin = vec![0; shape.len()];
    expected(dtype, shape, &origin, shape)
}

#[test]
fn round_trips_every_dtype_and_rank() {
    let dir = tempfile::tempdir().unwrap();
    for dtype in DType::ALL {
        for shape in [
            vec![],
            vec![0],
            vec![7],
            vec![3, 4],
            vec![2, 0, 3],
            vec![2, 3, 4, 2],
        ] {
            let data = sample(dtype, &shape);
            let path = dir.path().join(format!("{dtype}_{}.npy", shape.len()));
            write_array(&path, &data).unwrap();
            assert_eq!(read_array(&path).unwrap(), data, "{dtype} {shape:?}");
            let header = read_header(&path).unwrap();
            assert_eq!((header.dtype, header.shape), (dtype, shape.clone()));
        }
    }
    // Leftover temporary files would show up next to the results.
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert!(
        names
            .iter()
            .all(|n| n.ends_with(".npy") && !n.starts_with('.')),
        "{names:?}"
    );
}

#[test]
fn writes_a_transposed_view_in_logical_order() {
    let dir = tempfile::tempdir().unwrap();
    let base = ArrayD::from_shape_fn(IxDyn(&[3, 5]), |i| (i[0] * 10 + i[1]) as i64);
    let transposed = ArrayData::Int64(base.t().to_owned());
    let path = dir.path().join("t.npy");
    write_array(&path, &transposed).unwrap();
    assert_eq!(read_array(&path).unwrap(), transposed);
}

#[test]
fn writes_regions_into_a_created_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("regions.npy");
    let global = [5, 4, 3];
    let data_offset = create_npy(&path, DType::Float32, &global).unwrap();
    assert_eq!(data_offset % 64, 0);
    // Chunks of 2 along the first axis and 3 along the second, written out of order.
    let mut chunks = Vec::new();
    for i in (0..5).step_by(2) {
        for j in (0..4).step_by(3) {
            let shape = [2.min(5 - i), 3.min(4 - j), 3];
            chunks.push(([i, j, 0], shape));
        }
    }
    chunks.reverse();
    for (offset, shape) in &chunks {
        let chunk = expected(DType::Float32, &global, offset, shape);
        write_region(&path, data_offset, &global, offset, &chunk).unwrap();
    }
    let whole = read_array(&path).unwrap();
    assert_eq!(whole, sample(DType::Float32, &global));
}

#[test]
fn untouched_regions_read_as_zeros() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("zeros.npy");
    create_npy(&path, DType::Int32, &[2, 3]).unwrap();
    let ones = ArrayData::Int32(ArrayD::from_elem(IxDyn(&[1, 3]), 1));
    let data_offset = read_header(&path).unwrap().data_offset;
    write_region(&path, data_offset, &[2, 3], &[1, 0], &ones).unwrap();
    let want = ArrayD::from_shape_vec(IxDyn(&[2, 3]), vec![0, 0, 0, 1, 1, 1]).unwrap();
    assert_eq!(read_array(&path).unwrap(), ArrayData::Int32(want));
}

/// Whether to check with NumPy: always, unless `MARSC_SKIP_NUMPY=1` says the machine
/// has none. A missing python3 or NumPy without that variable fails the test, so a
/// CI machine that lost NumPy cannot pass silently.
fn numpy_required() -> bool {
    if std::env::var("MARSC_SKIP_NUMPY").is_ok_and(|v| v == "1") {
        eprintln!("skipped: MARSC_SKIP_NUMPY=1");
        return false;
    }
    let found = Command::new("python3")
        .args(["-c", "import numpy"])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        found,
        "python3 with NumPy is required (pip install numpy), or set MARSC_SKIP_NUMPY=1"
    );
    true
}

#[test]
fn numpy_reads_what_we_write() {
    if !numpy_required() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut checks = Vec::new();
    for dtype in DType::ALL {
        for shape in [vec![], vec![0, 2], vec![6], vec![3, 4, 2]] {
            let name = format!("{dtype}_{}.npy", shape.len());
            let path = dir.path().join(&name);
            write_array(&path, &sample(dtype, &shape)).unwrap();
            checks.push((path, dtype, shape));
        }
    }
    let region_path = dir.path().join("regions.npy");
    let data_offset = create_npy(&region_path, DType::Float64, &[4, 5]).unwrap();
    for (offset, shape) in [([0, 0], [2, 5]), ([2, 0], [2, 2]), ([2, 2], [2, 3])] {
        let chunk = expected(DType::Float64, &[4, 5], &offset, &shape);
        write_region(&region_path, data_offset, &[4, 5], &offset, &chunk).unwrap();
    }
    checks.push((region_path, DType::Float64, vec![4, 5]));

    let script = "
import sys, numpy as np
for path, dtype, shape in zip(*[iter(sys.argv[1:])] * 3):
    shape = tuple(int(d) for d in shape.split(',') if d)
    a = np.load(path)
    flat = np.arange(int(np.prod(shape)))
    want = (flat % 3 == 0) if dtype == 'bool' else flat.astype(dtype)
    if dtype.startswith('complex'):
        want = (flat - 0.5j * flat).astype(dtype)
    assert a.dtype == np.dtype(dtype), (path, a.dtype)
    assert a.shape == shape, (path, a.shape)
    assert np.array_equal(a, want.reshape(shape)), path
print('ok')
";
    let mut command = Command::new("python3");
    command.args(["-c", script]);
    for (path, dtype, shape) in &checks {
        let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
        command.arg(path).arg(dtype.name()).arg(dims.join(","));
    }
    let output = command.output().unwrap();
    assert!(
        output.status.success() && output.stdout == b"ok\n",
        "numpy rejected our files: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// A float16 file NumPy writes (`<f2`, C and Fortran order) reads back bit for bit:
/// subnormals, the largest finite value, infinities, NaN and -0.0.
#[test]
fn reads_float16_files_numpy_writes() {
    if !numpy_required() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let script = "
import sys, numpy as np
v = np.array([0.1, 1/3, 6e-8, -6.1e-5, 65504, -np.inf, np.inf, -0.0, 2049, 0.5, -7, 1e4], dtype=np.float16)
np.save(sys.argv[1] + '/c.npy', v.reshape(3, 4))
np.save(sys.argv[1] + '/f.npy', np.asfortranarray(v.reshape(3, 4)))
np.save(sys.argv[1] + '/nan.npy', np.array([np.nan], dtype=np.float16))
print(' '.join(str(b) for b in v.view(np.uint16)))
";
    let output = Command::new("python3")
        .args(["-c", script])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let bits: Vec<u16> = String::from_utf8(output.stdout)
        .unwrap()
        .split_whitespace()
        .map(|b| b.parse().unwrap())
        .collect();
    for name in ["c", "f"] {
        let path = dir.path().join(format!("{name}.npy"));
        let header = read_header(&path).unwrap();
        assert_eq!(header.dtype, DType::Float16);
        let ArrayData::Float16(read) = read_array(&path).unwrap() else {
            panic!("{name}.npy did not read as float16");
        };
        assert_eq!(read.shape(), &[3, 4]);
        let read_bits: Vec<u16> = read.iter().map(|v| v.to_bits()).collect();
        assert_eq!(read_bits, bits, "{name}.npy");
        // Written back, the bytes after the header are NumPy's.
        let again = dir.path().join(format!("{name}_again.npy"));
        write_array(&again, &ArrayData::Float16(read)).unwrap();
        let ArrayData::Float16(twice) = read_array(&again).unwrap() else {
            panic!("{name}_again.npy did not read as float16");
        };
        assert_eq!(twice.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), bits);
    }
    let ArrayData::Float16(nan) = read_array(&dir.path().join("nan.npy")).unwrap() else {
        panic!("nan.npy did not read as float16");
    };
    assert!(nan[[0]].is_nan());
}

#[test]
fn errors_name_the_file_and_the_cause() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.npy");
    let error = read_array(&missing).unwrap_err().to_string();
    assert!(error.contains("missing.npy"), "{error}");

    let truncated = dir.path().join("truncated.npy");
    write_array(&truncated, &sample(DType::Int64, &[10])).unwrap();
    let bytes = std::fs::read(&truncated).unwrap();
    std::fs::write(&truncated, &bytes[..bytes.len() - 8]).unwrap();
    let error = read_array(&truncated).unwrap_err();
    assert!(matches!(error, NpyError::Malformed(_)), "{error:?}");
    assert!(error.to_string().contains("truncated.npy"), "{error}");
    assert!(error.to_string().contains("truncated"), "{error}");

    let garbage = dir.path().join("garbage.npy");
    std::fs::write(&garbage, b"not an array at all").unwrap();
    let error = read_array(&garbage).unwrap_err().to_string();
    assert!(
        error.contains("garbage.npy") && error.contains("magic"),
        "{error}"
    );

    let path = fixture("c_float64");
    let header = read_header(&path).unwrap();
    let error = read_region(&path, &header, &[3, 0, 0], &[2, 5, 6]).unwrap_err();
    assert!(error.to_string().contains("does not fit"), "{error}");
    let error = read_region(&path, &header, &[0, 0], &[1, 1]).unwrap_err();
    assert!(error.to_string().contains("does not fit"), "{error}");

    let hostile = marsc_runtime::storage::npy::header::NpyHeader {
        shape: vec![1 << 40, 1 << 40],
        ..header
    };
    let error = read_region(&path, &hostile, &[0, 0], &[1, 1]).unwrap_err();
    assert!(error.to_string().contains("too large"), "{error}");

    let nowhere = dir.path().join("no/such/dir/out.npy");
    let error = write_array(&nowhere, &sample(DType::Bool, &[2])).unwrap_err();
    assert!(error.to_string().contains("out.npy"), "{error}");
    assert!(!nowhere.exists());
}

#[test]
fn write_array_replaces_an_existing_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.npy");
    write_array(&path, &sample(DType::Float64, &[100])).unwrap();
    let small = sample(DType::Int32, &[2]);
    write_array(&path, &small).unwrap();
    assert_eq!(read_array(&path).unwrap(), small);
}
