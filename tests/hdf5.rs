//! HDF5 files against h5py, both ways: marsc reads what h5py writes (every marsc
//! dtype, contiguous, chunked and gzip datasets, big-endian data, odd shapes,
//! groups, chunkings that cut the dataset's chunks) and h5py reads what marsc
//! writes (the same matrix, several datasets into one file, rechunked saves);
//! a failed run leaves no new file and an existing file's datasets as they were.
//!
//! These tests need marsc built with HDF5 support: `cargo test --workspace
//! --features hdf5 --test hdf5` (libhdf5-dev). Without the feature only the
//! "not supported yet" error is checked. h5py comes from the virtual environment
//! in `target/pyenv` (`marsc_tests::python_env`); a test skips, loudly, only where
//! it cannot be made (and fails instead under `MARSC_REQUIRE_HDF5=1`, as in CI).

mod run_support;

use marsc::driver::Options;
use run_support::{run_script, run_script_printing};
use std::path::Path;

fn options_in(dir: &Path) -> Options {
    Options {
        base_dir: dir.to_path_buf(),
        ..Options::default()
    }
}

/// What a script run in `dir` prints (it must succeed).
#[cfg_attr(not(feature = "hdf5"), allow(dead_code))]
fn marsc(dir: &Path, text: &str) -> String {
    match run_script(text, &options_in(dir), 2) {
        Ok((output, _)) => output,
        Err(error) => panic!("the script failed:\n{error}\n--- script ---\n{text}"),
    }
}

/// The error a script gets, compiling or running, in `dir`.
fn marsc_error(dir: &Path, text: &str) -> String {
    match run_script_printing(text, &options_in(dir), 2).1 {
        Ok(_) => panic!("the script should fail:\n{text}"),
        Err(error) => error,
    }
}

#[cfg(not(feature = "hdf5"))]
#[test]
fn without_the_feature_hdf5_is_not_supported_yet() {
    let dir = tempfile::tempdir().unwrap();
    for script in [
        "mt.fromhdf5('f.h5', dataset='x')",
        "mt.to_hdf5('f.h5', mt.ones(2), dataset='x')",
    ] {
        let error = marsc_error(dir.path(), &format!("import mars.tensor as mt\n{script}\n"));
        assert!(
            error.contains("not supported yet: this marsc was built without HDF5 support (rebuild with `--features hdf5`"),
            "{script}: {error}"
        );
    }
    assert!(!dir.path().join("f.h5").exists());
}

#[cfg(feature = "hdf5")]
mod with_hdf5 {
    use super::{marsc, marsc_error};
    use marsc_tests::python_env::h5py_python_or_skip;
    use std::path::Path;
    use std::process::Command;

    const DTYPES: [&str; 9] = [
        "bool", "int8", "int16", "int32", "int64", "uint8", "uint64", "float32", "float64",
    ];

    /// Runs `code` with the environment's Python in `dir`; returns what it printed.
    fn python(python: &Path, dir: &Path, code: &str) -> String {
        let output = Command::new(python)
            .args(["-c", code])
            .current_dir(dir)
            .output()
            .expect("python runs");
        assert!(
            output.status.success(),
            "python failed:\n{}\n--- code ---\n{code}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8(output.stdout).expect("utf-8 output")
    }

    /// Compares two outputs made of `== name` blocks, naming the first that differs.
    fn assert_same_blocks(marsc: &str, numpy: &str) {
        let blocks =
            |text: &str| -> Vec<String> { text.split("== ").map(str::to_string).collect() };
        let (ours, theirs) = (blocks(marsc), blocks(numpy));
        for (a, b) in ours.iter().zip(&theirs) {
            assert_eq!(a, b, "marsc printed (left), NumPy printed (right)");
        }
        assert_eq!(ours.len(), theirs.len(), "number of arrays printed");
    }

    /// The data of every dataset, the same in NumPy and in marsc: `(a * 7 % 11 - 3)`
    /// over `arange`, as each dtype.
    const PY_DATA: &str = r#"
import numpy as np, h5py
def data(dtype, shape):
    n = int(np.prod(shape))
    a = (np.arange(n) * 7 % 11 - 3).reshape(shape)
    if dtype == "bool":
        return a % 3 == 0
    if dtype.startswith("float"):
        return (a / 4).astype(dtype)
    return a.astype(dtype)
def show(name, array):
    print("== " + name)
    print(array)
"#;

    /// The marsc expression of the same data, chunked `chunks`.
    fn data_expr(dtype: &str, shape: &str, size: usize, chunks: &str) -> String {
        let base = format!("(mt.arange({size}).reshape({shape}) * 7 % 11 - 3)");
        let typed = match dtype {
            "bool" => format!("{base} % 3 == 0"),
            "float32" | "float64" => format!("({base} / 4).astype(mt.{dtype})"),
            _ => format!("{base}.astype(mt.{dtype})"),
        };
        format!("mt.tensor({typed}, chunks={chunks})")
    }

    #[test]
    fn marsc_reads_what_h5py_writes() {
        let Some(py) = h5py_python_or_skip("marsc_reads_what_h5py_writes") else {
            return;
        };
        let dir = tempfile::tempdir().unwrap();
        let writer = format!(
            r#"{PY_DATA}
names = []
odd = [((0, 4), None), ((1,), (1,)), ((10,), (4,)), ((), None), ((7, 5), (7, 5))]
with h5py.File("all.h5", "w") as f:
    for dtype in {DTYPES:?}:
        for layout, kw in (("contiguous", {{}}), ("chunked", {{"chunks": (3, 2)}}),
                           ("gzip", {{"chunks": (3, 2), "compression": "gzip", "compression_opts": 6}})):
            name = f"{{dtype}}_{{layout}}"
            f.create_dataset(name, data=data(dtype, (7, 5)), **kw)
            names.append(name)
        for shape, chunks in odd:
            name = f"{{dtype}}_" + ("x".join(map(str, shape)) or "scalar") + ("_chunked" if chunks else "")
            f.create_dataset(name, data=data(dtype, shape), chunks=chunks)
            names.append(name)
    for dtype in ("int16", "int32", "int64", "uint16", "float32", "float64"):
        name = f"{{dtype}}_big_endian"
        f.create_dataset(name, data=data(dtype, (7, 5)).astype(np.dtype(dtype).newbyteorder(">")), chunks=(2, 5))
        names.append(name)
    f.create_group("g").create_group("h").create_dataset("values", data=data("int64", (4, 6)), chunks=(2, 3))
with h5py.File("all.h5", "r") as f:
    for name in names:
        show(name, f[name][...])
        if f[name].chunks and f[name].ndim:
            show(name + " cut", f[name][...])
    show("grouped", f["g/h/values"][...])
    show("grouped path", f["g/h/values"][...])
"#
        );
        let expected = python(&py, dir.path(), &writer);
        let mut script = String::from("import mars.tensor as mt\n");
        for block in expected.split("== ").skip(1) {
            let name = block.lines().next().unwrap();
            let line = match name {
                "grouped" => "mt.from_hdf5('all.h5', group='g/h', dataset='values')".to_string(),
                "grouped path" => "mt.fromhdf5('all.h5', dataset='/g/h/values')".to_string(),
                // A chunking that cuts the dataset's chunks reads hyperslabs.
                _ => match name.strip_suffix(" cut") {
                    Some(dataset) => {
                        format!("mt.fromhdf5('all.h5', dataset='{dataset}', chunk_size=2)")
                    }
                    None => format!("mt.fromhdf5('all.h5', dataset='{name}')"),
                },
            };
            script.push_str(&format!("print('== {name}')\nprint({line})\n"));
        }
        assert_same_blocks(&marsc(dir.path(), &script), &expected);
    }

    #[test]
    fn h5py_reads_what_marsc_writes() {
        let Some(py) = h5py_python_or_skip("h5py_reads_what_marsc_writes") else {
            return;
        };
        let dir = tempfile::tempdir().unwrap();
        let mut script = String::from("import mars.tensor as mt\n");
        // (file, dataset, dtype, shape, chunks h5py reports, gzip level)
        let mut checks: Vec<String> = Vec::new();
        for dtype in DTYPES {
            let x = data_expr(dtype, "7, 5", 35, "(3, 2)");
            // Several datasets into one new file, in program order.
            for (name, options, chunks, gzip) in [
                ("contiguous", "", "None", "None"),
                ("chunked", ", chunks=True", "(3, 2)", "None"),
                // Dataset chunks the tensor's chunks cut: rechunked first.
                ("rechunked", ", chunks=(4, 3)", "(4, 3)", "None"),
                ("gzip", ", compression='gzip'", "(3, 2)", "4"),
                (
                    "gzip9",
                    ", chunks=(7, 5), compression='gzip', compression_opts=9",
                    "(7, 5)",
                    "9",
                ),
            ] {
                script.push_str(&format!(
                    "mt.tohdf5('{dtype}.h5', {x}, dataset='{name}'{options})\n"
                ));
                checks.push(format!(
                    "check('{dtype}.h5', '{name}', '{dtype}', (7, 5), {chunks}, {gzip})"
                ));
            }
            for (shape, size, chunks, options, stored) in [
                ("0, 4", 0, "(2, 2)", ", chunks=True", "None"),
                ("1,", 1, "1", "", "None"),
                ("10,", 10, "3", ", chunks=4", "(4,)"),
                ("()", 1, "()", "", "None"),
            ] {
                let name = if shape == "()" {
                    "scalar".to_string()
                } else {
                    shape.replace(", ", "x").trim_end_matches(',').to_string()
                };
                let x = data_expr(dtype, shape, size, chunks);
                script.push_str(&format!(
                    "mt.to_hdf5('odd.h5', {x}, group='{dtype}', dataset='{name}'{options})\n"
                ));
                checks.push(format!(
                    "check('odd.h5', '{dtype}/{name}', '{dtype}', ({shape}), {stored}, None)"
                ));
            }
        }
        marsc(dir.path(), &script);
        let checker = format!(
            r#"{PY_DATA}
def check(file, name, dtype, shape, chunks, gzip):
    with h5py.File(file, "r") as f:
        d = f[name]
        a = d[...]
        want = data(dtype, shape)
        assert a.dtype == want.dtype, (file, name, a.dtype, want.dtype)
        assert a.shape == want.shape, (file, name, a.shape)
        assert np.array_equal(a, want), (file, name, a, want)
        assert d.chunks == chunks, (file, name, d.chunks, chunks)
        assert d.compression == ("gzip" if gzip is not None else None), (file, name, d.compression)
        if gzip is not None:
            assert d.compression_opts == gzip, (file, name, d.compression_opts)
        names = []
        f.visit(names.append)
        assert not [n for n in names if n.split("/")[-1].startswith(".")], names
{}
print("ok")
"#,
            checks.join("\n")
        );
        assert_eq!(python(&py, dir.path(), &checker), "ok\n");
        assert_no_leftovers(dir.path());
    }

    /// No hidden temporary file is left in `dir`.
    fn assert_no_leftovers(dir: &Path) {
        let hidden: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.starts_with('.'))
            .collect();
        assert!(hidden.is_empty(), "temporary files left: {hidden:?}");
    }

    #[test]
    fn a_failed_run_leaves_no_new_file_and_an_existing_file_as_it_was() {
        let Some(py) =
            h5py_python_or_skip("a_failed_run_leaves_no_new_file_and_an_existing_file_as_it_was")
        else {
            return;
        };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path();
        python(
            &py,
            path,
            "import h5py, numpy as np\n\
             with h5py.File('keep.h5', 'w') as f:\n\
             \x20   f['x'] = np.arange(3.0)\n\
             \x20   f['other'] = np.arange(4)\n",
        );
        marsc(
            path,
            "import mars.tensor as mt\nmt.tozarr('good.zarr', mt.arange(12, chunks=4), chunks=4)\n",
        );
        // Corrupt one chunk: reading it fails during the run.
        std::fs::write(path.join("good.zarr/c/1"), b"not zstd").unwrap();
        let error = marsc_error(
            path,
            "import mars.tensor as mt\nx = mt.fromzarr('good.zarr')\n\
             mt.tohdf5('new.h5', x + 1, dataset='d')\n\
             mt.tohdf5('keep.h5', mt.zeros(3) + x.sum(), dataset='x')\n\
             mt.tohdf5('keep.h5', x, group='g', dataset='y', compression='gzip')\n",
        );
        assert!(error.contains("good.zarr"), "{error}");
        assert!(!path.join("new.h5").exists(), "a failed run wrote new.h5");
        let unchanged = "import h5py\n\
             with h5py.File('keep.h5', 'r') as f:\n\
             \x20   names = []\n\
             \x20   f.visit(names.append)\n\
             \x20   print(sorted(names), f['x'][...], f['other'][...])\n";
        assert_eq!(
            python(&py, path, unchanged),
            "['other', 'x'] [0. 1. 2.] [0 1 2 3]\n",
            "the failed run changed keep.h5"
        );
        assert_no_leftovers(path);
        // A successful run replaces the dataset and adds one in a new group, and
        // leaves the file's other datasets alone.
        marsc(
            path,
            "import mars.tensor as mt\nmt.tohdf5('keep.h5', mt.arange(2), dataset='x')\n\
             mt.tohdf5('keep.h5', mt.ones(2, dtype=mt.bool), group='g/h', dataset='y')\n",
        );
        assert_eq!(
            python(&py, path, unchanged),
            "['g', 'g/h', 'g/h/y', 'other', 'x'] [0 1] [0 1 2 3]\n"
        );
        assert_no_leftovers(path);
    }

    #[test]
    fn file_effects_follow_program_order() {
        let dir = tempfile::tempdir().unwrap();
        // A read of a dataset the script wrote is the written tensor.
        let output = marsc(
            dir.path(),
            "import mars.tensor as mt\nmt.tohdf5('x.h5', mt.arange(5), dataset='a')\n\
             mt.tohdf5('x.h5', mt.arange(3), dataset='b')\n\
             print(mt.fromhdf5('x.h5', dataset='a') * 2, mt.fromhdf5('x.h5', dataset='b'))\n",
        );
        assert_eq!(output, "[0 2 4 6 8] [0 1 2]\n");
        // Writing a file the script reads is refused.
        let error = marsc_error(
            dir.path(),
            "import mars.tensor as mt\nx = mt.fromhdf5('x.h5', dataset='a')\nmt.tohdf5('x.h5', x + 1, dataset='c')\n",
        );
        assert!(
            error.contains(
                "not supported yet: writing the HDF5 file `x.h5`, which the script reads"
            ),
            "{error}"
        );
    }

    #[test]
    fn errors_are_clear() {
        let Some(py) = h5py_python_or_skip("errors_are_clear") else {
            return;
        };
        let dir = tempfile::tempdir().unwrap();
        python(
            &py,
            dir.path(),
            "import h5py, numpy as np\n\
             with h5py.File('f.h5', 'w') as f:\n\
             \x20   f['c16'] = np.arange(4, dtype=np.complex128)\n\
             \x20   f.create_group('g')['d'] = np.arange(4)\n\
             open('text.h5', 'w').write('not hdf5')\n",
        );
        for (script, message) in [
            (
                "mt.fromhdf5('f.h5')",
                "ValueError: `dataset` should be provided",
            ),
            (
                "mt.tohdf5('o.h5', mt.ones(2))",
                "ValueError: `dataset` should be provided",
            ),
            (
                "mt.fromhdf5('f.h5', dataset='c16')",
                "not supported yet: the HDF5 dataset 'c16'",
            ),
            (
                "mt.fromhdf5('f.h5', dataset='nope')",
                "has no dataset 'nope'",
            ),
            ("mt.fromhdf5('f.h5', dataset='g')", "is not a dataset"),
            ("mt.fromhdf5('text.h5', dataset='x')", "is not an HDF5 file"),
            ("mt.fromhdf5('none.h5', dataset='x')", "cannot open"),
            (
                "mt.fromhdf5('f.h5', group='g', dataset='../u8')",
                "no `.` or `..`",
            ),
            (
                "mt.tohdf5('text.h5', mt.ones(2), dataset='x')",
                "exists and is not an HDF5 file",
            ),
            (
                "mt.tohdf5('o.h5', mt.ones(2), dataset='x', compression='lzf')",
                "not supported yet: compression 'lzf'",
            ),
            (
                "mt.tohdf5('o.h5', mt.ones(2), dataset='x', chunks=False, compression='gzip')",
                "compression needs a chunked dataset",
            ),
            (
                "mt.tohdf5('o.h5', mt.ones(2), dataset='x', maxshape=(None,))",
                "not supported yet: the `maxshape` argument",
            ),
            // A group is not replaced by a dataset.
            ("mt.tohdf5('f.h5', mt.ones(2), dataset='g')", "'g' in '"),
        ] {
            let error = marsc_error(dir.path(), &format!("import mars.tensor as mt\n{script}\n"));
            assert!(error.contains(message), "{script}: {error}");
        }
        assert!(!dir.path().join("o.h5").exists());
        let output = marsc(
            dir.path(),
            "import mars.tensor as mt\nprint(mt.fromhdf5('f.h5', group='/g/', dataset='d').sum())\n",
        );
        assert_eq!(output, "6\n");
        assert_no_leftovers(dir.path());
    }
}
