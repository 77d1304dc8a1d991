//! `save` writes what NumPy would: a chunk read only by its save is computed by one
//! JIT kernel straight into the saved file (no `save.region` op left), whatever the
//! chunking (2-D column splits, odd chunks, 0-d and empty arrays, every dtype); a
//! saved tensor that is also printed, and one computed by an op the JIT does not
//! compile, are copied by `save.region`; and `--no-jit` writes the same bytes.
//! Expected values are NumPy's (computed with numpy 2.4 and pasted in).

mod run_support;

use marsc::driver::Compiled;
use marsc::job;
use marsc_runtime::array::ArrayData;
use marsc_runtime::chunk_kernel::Kernel;
use marsc_runtime::storage::npy::codec::read_array;
use marsc_tests::repo_root;
use run_support::{compile, options_in, render, run_options};
use std::path::Path;

fn data(name: &str) -> String {
    repo_root()
        .join("tests/cases/lower/data")
        .join(name)
        .display()
        .to_string()
}

/// Runs a compiled script; returns what it printed.
fn run(compiled: &Compiled, text: &str) -> String {
    let mut out = Vec::new();
    job::run_compiled(compiled, &run_options(), &mut out)
        .unwrap_or_else(|error| panic!("{}", render(text, error)));
    String::from_utf8(out).expect("utf-8 output")
}

/// How many `save.region` ops and JIT ops writing into a saved file the plan has.
fn region_ops(compiled: &Compiled) -> (usize, usize) {
    let kernels = compiled
        .plan
        .subtasks
        .iter()
        .flat_map(|subtask| subtask.ops.iter().map(|op| &op.kernel));
    let mut counts = (0, 0);
    for kernel in kernels {
        match kernel {
            Kernel::SaveRegion { .. } => counts.0 += 1,
            Kernel::Jit(jit) if jit.sink.is_some() => counts.1 += 1,
            _ => {}
        }
    }
    counts
}

/// Runs `text` in a fresh directory with the JIT on and off; returns the directory
/// of the JIT run, after checking that both runs printed the same and wrote the
/// same bytes to every file in `files`, and that the JIT run's plan has
/// `regions` (save.region ops, JIT ops saving in place).
fn run_both_ways(text: &str, files: &[&str], regions: (usize, usize)) -> tempfile::TempDir {
    let jit_dir = tempfile::tempdir().unwrap();
    let interpreted_dir = tempfile::tempdir().unwrap();
    let jit = compile(text, &options_in(jit_dir.path(), true));
    assert_eq!(region_ops(&jit), regions, "save ops of the JIT plan");
    let interpreted = compile(text, &options_in(interpreted_dir.path(), false));
    assert_eq!(run(&jit, text), run(&interpreted, text));
    for file in files {
        let written = std::fs::read(jit_dir.path().join(file)).unwrap();
        let copied = std::fs::read(interpreted_dir.path().join(file)).unwrap();
        assert_eq!(written, copied, "{file} differs with --no-jit");
    }
    let leftovers: Vec<_> = std::fs::read_dir(jit_dir.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
    jit_dir
}

fn saved(dir: &Path, name: &str) -> ArrayData {
    read_array(&dir.join(name)).unwrap_or_else(|e| panic!("cannot read {name}: {e}"))
}

fn int64(shape: &[usize], values: Vec<i64>) -> ArrayData {
    ArrayData::Int64(ndarray::ArrayD::from_shape_vec(shape, values).unwrap())
}

fn float64(shape: &[usize], values: Vec<f64>) -> ArrayData {
    ArrayData::Float64(ndarray::ArrayD::from_shape_vec(shape, values).unwrap())
}

#[test]
fn fused_saves_write_numpys_values_in_place_with_column_splits_and_odd_chunks() {
    let text = format!(
        "import mars.tensor as mt\n\
         x = mt.load({x:?}, mmap_mode=\"r\", chunks=(2, 3))\n\
         y = mt.load({y:?}, mmap_mode=\"r\", chunks=(2, 3))\n\
         mt.save(\"ints.npy\", x * 3 + 1)\n\
         mt.save(\"floats.npy\", y * 2.0 - 1.0)\n\
         mt.save(\"bools.npy\", mt.load({x:?}, mmap_mode=\"r\", chunks=(3, 2)) > 0)\n\
         mt.save(\"singles.npy\", mt.load({f:?}, mmap_mode=\"r\", chunks=4) * 2)\n\
         mt.save(\"scalar.npy\", mt.load({s:?}) + 1)\n\
         mt.save(\"empty.npy\", mt.ones((0, 3)) + 1)\n",
        x = data("i64_5x7.npy"),
        y = data("f64_3x4.npy"),
        f = data("f32_6.npy"),
        s = data("i64_scalar.npy"),
    );
    let files = [
        "ints.npy",
        "floats.npy",
        "bools.npy",
        "singles.npy",
        "scalar.npy",
        "empty.npy",
    ];
    // ints 3x3 chunks, floats 2x2, bools 2x4, singles 2, the scalar 1: all in place.
    let dir = run_both_ways(&text, &files, (0, 9 + 4 + 8 + 2 + 1 + 1));
    let ints: Vec<i64> = vec![
        -149, -140, -131, -122, -113, -104, -95, -86, -77, -68, -59, -50, -41, -32, -23, -14, -5,
        4, 13, 22, 31, 40, 49, 58, 67, 76, 85, 94, 103, 112, 121, 130, 139, 148, 157,
    ];
    assert_eq!(saved(dir.path(), "ints.npy"), int64(&[5, 7], ints));
    let floats = vec![-1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5];
    assert_eq!(saved(dir.path(), "floats.npy"), float64(&[3, 4], floats));
    let positive: Vec<bool> = (0..35).map(|i| i >= 17).collect();
    assert_eq!(
        saved(dir.path(), "bools.npy"),
        ArrayData::Bool(ndarray::ArrayD::from_shape_vec(&[5, 7][..], positive).unwrap())
    );
    // f32_6.npy is linspace(-1, 1, 6) in float32; NumPy doubles it in float32.
    let singles: Vec<f32> = [-1.0f32, -0.6, -0.2, 0.2, 0.6, 1.0]
        .iter()
        .map(|v| v * 2.0)
        .collect();
    assert_eq!(
        saved(dir.path(), "singles.npy"),
        ArrayData::Float32(ndarray::ArrayD::from_shape_vec(&[6][..], singles).unwrap())
    );
    assert_eq!(saved(dir.path(), "scalar.npy"), int64(&[], vec![43]));
    assert_eq!(saved(dir.path(), "empty.npy"), float64(&[0, 3], Vec::new()));
}

#[test]
fn a_saved_tensor_that_is_also_printed_is_copied_by_its_regions() {
    let text = format!(
        "import mars.tensor as mt\n\
         a = mt.load({y:?}, mmap_mode=\"r\", chunks=(2, 3)) * 2.0 - 1.0\n\
         print(a)\n\
         mt.save(\"printed.npy\", a)\n",
        y = data("f64_3x4.npy"),
    );
    let dir = run_both_ways(&text, &["printed.npy"], (4, 0));
    let floats = vec![-1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5];
    assert_eq!(saved(dir.path(), "printed.npy"), float64(&[3, 4], floats));
}

#[test]
fn a_save_of_an_op_the_jit_does_not_compile_is_copied_by_its_regions() {
    let text = format!(
        "import mars.tensor as mt\n\
         b = mt.load({b:?}, chunks=1)\n\
         mt.save(\"cumsum.npy\", b.T.cumsum(axis=0))\n\
         mt.save(\"transposed.npy\", b.T)\n",
        b = data("i32_fortran_2x3.npy"),
    );
    let dir = run_both_ways(&text, &["cumsum.npy", "transposed.npy"], (12, 0));
    assert_eq!(
        saved(dir.path(), "cumsum.npy"),
        int64(&[3, 2], vec![-2, 1, -3, 3, -3, 6])
    );
    assert_eq!(
        saved(dir.path(), "transposed.npy"),
        ArrayData::Int32(
            ndarray::ArrayD::from_shape_vec(&[3, 2][..], vec![-2, 1, -1, 2, 0, 3]).unwrap()
        )
    );
}

#[test]
fn long_rows_are_streamed_into_the_file_a_block_at_a_time_at_any_alignment() {
    // Rows of 4099 and 2600 elements: longer than the JIT's 2048-element stream block
    // and the copy's 8 KiB block, and multiples of neither; the bools' column split
    // starts at an odd byte offset.
    let text = "import mars.tensor as mt\n\
         y = mt.cumsum(mt.ones(10007, chunks=4099))\n\
         mt.save(\"odds.npy\", y * 2.0 - 1.0)\n\
         mt.save(\"late.npy\", y > 5000)\n\
         z = mt.cumsum(mt.ones((3, 5003), chunks=(2, 2601)), axis=1)\n\
         mt.save(\"rows.npy\", z * 3.0)\n\
         mt.save(\"flags.npy\", z > 2601)\n\
         mt.save(\"copied.npy\", z)\n";
    let files = [
        "odds.npy",
        "late.npy",
        "rows.npy",
        "flags.npy",
        "copied.npy",
    ];
    // odds and late 3 chunks each, rows and flags 4 each, all in place; copied's 4
    // chunks are copied (z is read by the other saves too).
    let dir = run_both_ways(text, &files, (4, 3 + 3 + 4 + 4));
    // NumPy: np.cumsum(np.ones(10007)) is 1..=10007, so odds is 1, 3, 5, ...
    let odds: Vec<f64> = (0..10007).map(|k| (2 * k + 1) as f64).collect();
    assert_eq!(saved(dir.path(), "odds.npy"), float64(&[10007], odds));
    let late: Vec<bool> = (0..10007).map(|k| k + 1 > 5000).collect();
    assert_eq!(
        saved(dir.path(), "late.npy"),
        ArrayData::Bool(ndarray::ArrayD::from_shape_vec(&[10007][..], late).unwrap())
    );
    let column =
        |f: &dyn Fn(usize) -> f64| -> Vec<f64> { (0..3 * 5003).map(|i| f(i % 5003 + 1)).collect() };
    assert_eq!(
        saved(dir.path(), "rows.npy"),
        float64(&[3, 5003], column(&|j| 3.0 * j as f64))
    );
    assert_eq!(
        saved(dir.path(), "copied.npy"),
        float64(&[3, 5003], column(&|j| j as f64))
    );
    let flags: Vec<bool> = (0..3 * 5003).map(|i| i % 5003 + 1 > 2601).collect();
    assert_eq!(
        saved(dir.path(), "flags.npy"),
        ArrayData::Bool(ndarray::ArrayD::from_shape_vec(&[3, 5003][..], flags).unwrap())
    );
}
