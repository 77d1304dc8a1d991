//! `.npz` archives and raw binary files against NumPy, both ways: NumPy reads what
//! `savez`, `savez_compressed` and `x.tofile` write (every dtype, odd shapes, chunks that do not divide
//! them, several workers), marsc reads what `np.savez`/`np.savez_compressed` and
//! `x.tofile` write (small chunks, so members are read a region at a time); a
//! failed run leaves no archive or file behind and an existing one as it was.
//! python3 with NumPy is required (as for tests/oracle.rs).

mod run_support;

use marsc::driver::Options;
use run_support::{run_script, run_script_printing};
use std::path::Path;
use std::process::Command;

const DTYPES: [&str; 5] = ["bool", "int32", "int64", "float32", "float64"];

/// (shape as Python writes it, its size, the tensor's chunks in marsc, a name).
const SHAPES: [(&str, usize, &str, &str); 5] = [
    ("(7, 5)", 35, "(3, 2)", "7x5"),
    ("(0, 4)", 0, "(2, 2)", "0x4"),
    ("(1,)", 1, "1", "1"),
    ("(10,)", 10, "3", "10"),
    ("()", 1, "()", "scalar"),
];

fn options_in(dir: &Path, chunk_bytes: Option<u64>) -> Options {
    let mut options = Options {
        base_dir: dir.to_path_buf(),
        ..Options::default()
    };
    if let Some(bytes) = chunk_bytes {
        options.chunk_bytes = bytes;
    }
    options
}

fn marsc(dir: &Path, text: &str, chunk_bytes: Option<u64>) -> String {
    match run_script(text, &options_in(dir, chunk_bytes), 2) {
        Ok((output, _)) => output,
        Err(error) => panic!("the script failed:\n{error}\n--- script ---\n{text}"),
    }
}

fn marsc_error(dir: &Path, text: &str) -> String {
    match run_script_printing(text, &options_in(dir, None), 2).1 {
        Ok(_) => panic!("the script should fail:\n{text}"),
        Err(error) => error,
    }
}

fn python(dir: &Path, code: &str) -> String {
    let output = Command::new("python3")
        .args(["-c", code])
        .current_dir(dir)
        .output()
        .expect("python3 runs");
    assert!(
        output.status.success(),
        "python failed:\n{}\n--- code ---\n{code}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("utf-8 output")
}

/// The data, the same in NumPy and marsc: `(a * 7 % 11 - 3)` over `arange`.
const PY_DATA: &str = r#"
import numpy as np, zipfile
def data(dtype, shape):
    n = int(np.prod(shape))
    a = (np.arange(n) * 7 % 11 - 3).reshape(shape)
    if dtype == "bool":
        return a % 3 == 0
    if dtype.startswith("float"):
        return (a / 4).astype(dtype)
    return a.astype(dtype)
def same(name, got, want):
    assert got.dtype == want.dtype and got.shape == want.shape and np.array_equal(got, want), (name, got, want)
"#;

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
fn numpy_reads_what_savez_and_tofile_write() {
    let dir = tempfile::tempdir().unwrap();
    let mut script = String::from("import mars.tensor as mt\n");
    let mut checks = String::new();
    let mut members = Vec::new();
    for dtype in DTYPES {
        for (shape, size, chunks, name) in SHAPES {
            let x = data_expr(dtype, shape, size, chunks);
            members.push(format!("{dtype}_{name}={x}"));
            script.push_str(&format!("({x}).tofile('{dtype}_{name}.bin')\n"));
            checks.push_str(&format!(
                "same('{dtype}_{name}', d['{dtype}_{name}'], data('{dtype}', {shape}))\n\
                 same('{dtype}_{name}.bin', np.fromfile('{dtype}_{name}.bin', dtype='{dtype}').reshape({shape}), data('{dtype}', {shape}))\n"
            ));
        }
    }
    // Positional arrays are arr_0, arr_1, ... after the named ones; the suffix is added.
    script.push_str(&format!(
        "mt.savez('all', {}, {})\n",
        data_expr("int64", "(4, 3)", 12, "(3, 2)"),
        members.join(", ")
    ));
    script.push_str("mt.savez('pos.npz', mt.arange(3), mt.ones((2, 2), chunks=1))\n");
    // The same members deflated.
    script.push_str(&format!(
        "mt.savez_compressed('allc', {})\n",
        members.join(", ")
    ));
    marsc(dir.path(), &script, None);
    let checker = format!(
        r#"{PY_DATA}
assert zipfile.ZipFile("all.npz").testzip() is None
d = np.load("all.npz")
assert d.files[-1] == "arr_0" and len(d.files) == {}, d.files
same("arr_0", d["arr_0"], data("int64", (4, 3)))
{checks}
c = np.load("allc.npz")
assert zipfile.ZipFile("allc.npz").testzip() is None
assert all(i.compress_type == zipfile.ZIP_DEFLATED for i in zipfile.ZipFile("allc.npz").infolist())
assert c.files == d.files[:-1], c.files
for name in c.files:
    same(name, c[name], d[name])
p = np.load("pos.npz")
assert p.files == ["arr_0", "arr_1"], p.files
same("pos", p["arr_1"], np.ones((2, 2)))
print("ok")
"#,
        members.len() + 1
    );
    assert_eq!(python(dir.path(), &checker), "ok\n");
    assert_no_leftovers(dir.path());
}

#[test]
fn marsc_reads_what_numpy_writes() {
    let dir = tempfile::tempdir().unwrap();
    let writer = format!(
        r#"{PY_DATA}
arrays = {{}}
for dtype in {DTYPES:?}:
    for shape, name in (((7, 5), "7x5"), ((0, 4), "0x4"), ((1,), "1"), ((10,), "10"), ((), "scalar")):
        arrays[f"{{dtype}}_{{name}}"] = data(dtype, shape)
    arrays[f"{{dtype}}_fortran"] = np.asfortranarray(data(dtype, (6, 9)))
    data(dtype, (300,)).tofile(f"{{dtype}}.bin")
np.savez("stored.npz", **arrays)
np.savez_compressed("deflated.npz", **arrays)
for name, a in arrays.items():
    print("== " + name)
    print(a)
    print(a.sum(axis=0) if a.ndim else a)
for dtype in {DTYPES:?}:
    print("== " + dtype + ".bin")
    print(np.fromfile(dtype + ".bin", dtype=dtype, count=250, offset=np.dtype(dtype).itemsize * 3)[::17])
"#
    );
    let expected = python(dir.path(), &writer);
    for archive in ["stored.npz", "deflated.npz"] {
        let mut script = format!("import mars.tensor as mt\nd = mt.load('{archive}')\n");
        for block in expected.split("== ").skip(1) {
            let name = block.lines().next().unwrap();
            if let Some(dtype) = name.strip_suffix(".bin") {
                let itemsize = match dtype {
                    "bool" => 1,
                    "int32" | "float32" => 4,
                    _ => 8,
                };
                script.push_str(&format!(
                    "print('== {name}')\nprint(mt.fromfile('{name}', dtype=mt.{dtype}, count=250, offset={itemsize} * 3)[::17])\n"
                ));
                continue;
            }
            script.push_str(&format!(
                "print('== {name}')\nx = d['{name}']\nprint(x)\nprint(x.sum(axis=0) if x.ndim else x)\n"
            ));
        }
        // Small chunks: members and raw files are read a region at a time.
        let output = marsc(dir.path(), &script, Some(64));
        for (ours, theirs) in output.split("== ").zip(expected.split("== ")) {
            assert_eq!(ours, theirs, "{archive}: marsc (left), NumPy (right)");
        }
        assert_eq!(output.split("== ").count(), expected.split("== ").count());
    }
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
fn a_failed_run_leaves_no_archive_and_keeps_the_old_one() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    marsc(
        path,
        "import mars.tensor as mt\nmt.savez('kept.npz', a=mt.arange(3))\nmt.arange(3).tofile('kept.bin')\n",
        None,
    );
    let before = (
        std::fs::read(path.join("kept.npz")).unwrap(),
        std::fs::read(path.join("kept.bin")).unwrap(),
    );
    // `inv` of a singular matrix fails during the run, after the first members.
    let error = marsc_error(
        path,
        "import mars.tensor as mt\nbad = mt.linalg.inv(mt.zeros((2, 2)))\n\
         mt.savez('kept.npz', a=mt.ones(3), b=bad)\nmt.savez('new.npz', mt.ones(3), bad)\n\
         mt.savez_compressed('newc.npz', mt.ones(3), bad)\n\
         (bad + 1).tofile('kept.bin')\nbad.tofile('new.bin')\n",
    );
    assert!(error.contains("Singular matrix"), "{error}");
    assert!(!path.join("new.npz").exists() && !path.join("new.bin").exists());
    assert!(!path.join("newc.npz").exists());
    assert_eq!(
        before,
        (
            std::fs::read(path.join("kept.npz")).unwrap(),
            std::fs::read(path.join("kept.bin")).unwrap()
        ),
        "a failed run changed kept.npz or kept.bin"
    );
    assert_no_leftovers(path);
}

#[test]
fn errors_are_numpys() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    marsc(
        path,
        "import mars.tensor as mt\nmt.savez('a.npz', x=mt.arange(3))\nmt.arange(4).tofile('r.bin')\n",
        None,
    );
    for (script, message) in [
        (
            "mt.load('a.npz')['y']",
            "KeyError: 'y is not a file in the archive'",
        ),
        (
            "mt.savez('b.npz', mt.ones(2), arr_0=mt.ones(2))",
            "ValueError: Cannot use un-named variables and keyword arr_0",
        ),
        (
            "mt.savez('a.npz', x=mt.ones(2))\nmt.load('a.npz')",
            "not supported yet: loading `a.npz`, which the script writes with `savez`",
        ),
        (
            "mt.fromfile('r.bin', dtype=mt.int64, offset=100)",
            "ValueError: negative dimensions are not allowed",
        ),
        ("mt.fromfile('none.bin')", "cannot read `none.bin`"),
        (
            "mt.fromfile('r.bin', sep=' ')",
            "not supported yet: `fromfile` of text",
        ),
        (
            "mt.ones(2).tofile('t.txt', sep=',')",
            "not supported yet: `tofile` of text",
        ),
        (
            "mt.arange(3).tofile('r.bin')\nmt.fromfile('r.bin', dtype=mt.int32)",
            "not supported yet: `fromfile` of `r.bin` other than as the whole int64",
        ),
    ] {
        let error = marsc_error(path, &format!("import mars.tensor as mt\n{script}\n"));
        assert!(error.contains(message), "{script}: {error}");
    }
    // A file the script writes with `tofile` reads back as the tensor, flat.
    let output = marsc(
        path,
        "import mars.tensor as mt\nmt.arange(6).reshape(2, 3).tofile('w.bin')\nprint(mt.fromfile('w.bin', dtype=mt.int64))\n",
        None,
    );
    assert_eq!(output, "[0 1 2 3 4 5]\n");
}
