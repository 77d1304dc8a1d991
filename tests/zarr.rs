//! Zarr stores against zarr-python, both ways: marsc reads what zarr-python writes
//! (v2 and v3, every marsc dtype, every codec marsc documents, sharding, odd shapes,
//! fill values and missing chunks, chunkings that cut store chunks) and zarr-python
//! reads what marsc writes (the same matrix, rechunked saves, groups); `mode=`
//! semantics; and a failed run leaves no store behind (nor a changed one).
//!
//! zarr-python comes from a virtual environment the tests make in `target/pyenv`
//! (`marsc_tests::python_env`); a test skips, loudly, only where it cannot be made.

mod run_support;

use marsc::driver::Options;
use marsc_tests::python_env::zarr_python_or_skip;
use run_support::{run_script, run_script_printing};
use std::path::Path;
use std::process::Command;

const DTYPES: [&str; 5] = ["bool", "int32", "int64", "float32", "float64"];

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

fn options_in(dir: &Path) -> Options {
    Options {
        base_dir: dir.to_path_buf(),
        ..Options::default()
    }
}

/// What a script run in `dir` prints (it must succeed).
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

/// Compares two outputs made of `== name` blocks, naming the first that differs.
fn assert_same_blocks(marsc: &str, numpy: &str) {
    let blocks =
        |text: &str| -> Vec<String> { text.split("== ").map(str::to_string).collect::<Vec<_>>() };
    let (ours, theirs) = (blocks(marsc), blocks(numpy));
    for (a, b) in ours.iter().zip(&theirs) {
        assert_eq!(a, b, "marsc printed (left), NumPy printed (right)");
    }
    assert_eq!(ours.len(), theirs.len(), "number of arrays printed");
}

/// The data of every store, the same in NumPy and in marsc: `(a * 7 % 11 - 3)`
/// over `arange`, as each dtype.
const PY_DATA: &str = r#"
import numpy as np, zarr, numcodecs
from zarr.codecs import BloscCodec, ZstdCodec, GzipCodec
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

#[test]
fn marsc_reads_what_zarr_python_writes() {
    let Some(py) = zarr_python_or_skip("marsc_reads_what_zarr_python_writes") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let writer = format!(
        r#"{PY_DATA}
import itertools
v3 = {{"zstd": [ZstdCodec()], "blosc-lz4": [BloscCodec(cname="lz4")],
      "blosc-zstd": [BloscCodec(cname="zstd")], "gzip": [GzipCodec()], "none": None}}
v2 = {{"zstd": numcodecs.Zstd(), "blosc-lz4": numcodecs.Blosc(cname="lz4"),
      "gzip": numcodecs.GZip(), "zlib": numcodecs.Zlib(), "none": None}}
odd = [((0, 4), (2, 2)), ((1,), (1,)), ((10,), (4,)), ((), ())]
names = []
def write(name, dtype, shape, chunks, fill=None, part=None, **kw):
    a = data(dtype, shape)
    z = zarr.create_array(name, shape=shape, dtype=dtype, chunks=chunks, fill_value=fill, **kw)
    if part is None:
        z[...] = a
    else:
        z[part] = a[part]
    names.append(name)
for dtype in {DTYPES:?}:
    for fmt, codecs in ((3, v3), (2, v2)):
        for cname, comp in codecs.items():
            write(f"v{{fmt}}_{{dtype}}_{{cname}}", dtype, (7, 5), (3, 2), zarr_format=fmt, compressors=comp)
        for shape, chunks in odd:
            write(f"v{{fmt}}_{{dtype}}_" + ("x".join(map(str, shape)) or "scalar"), dtype, shape, chunks, zarr_format=fmt)
        # Chunks 1 and 2 never written: they read as the fill value.
        fill = {{"bool": True, "int32": 7, "int64": -5, "float32": 0.5, "float64": float("nan")}}[dtype]
        write(f"v{{fmt}}_{{dtype}}_missing", dtype, (10,), (4,), fill=fill, part=slice(0, 4), zarr_format=fmt)
    write(f"v3_{{dtype}}_sharded", dtype, (7, 5), (2, 2), shards=(4, 4), compressors=[BloscCodec(cname="lz4")])
write("v2_float64_order_f", "float64", (7, 5), (3, 2), zarr_format=2, order="F")
zarr.create_group("grouped.zarr").create_group("inner").create_array("values", data=data("int64", (4, 6)), chunks=(2, 3))
names.append("grouped.zarr/inner/values")
for name in names:
    show(name, zarr.open_array(name, mode="r")[...])
    if name.endswith(("_none", "_10", "_sharded", "_missing")):
        show(name + " cut", zarr.open_array(name, mode="r")[...])
show("grouped", zarr.open_array("grouped.zarr/inner/values", mode="r")[...])
"#
    );
    let expected = python(&py, dir.path(), &writer);
    let mut script = String::from("import mars.tensor as mt\n");
    for block in expected.split("== ").skip(1) {
        let name = block.lines().next().unwrap();
        match name.strip_suffix(" cut") {
            // `group=`/`dataset=` name the same array.
            _ if name == "grouped" => script.push_str(
                "print('== grouped')\nprint(mt.from_zarr('grouped.zarr', group='inner', dataset='values'))\n",
            ),
            // A chunking that cuts the store's chunks reads regions.
            Some(store) => script.push_str(&format!(
                "print('== {name}')\nprint(mt.fromzarr('{store}', chunk_size=2))\n"
            )),
            None => script.push_str(&format!(
                "print('== {name}')\nprint(mt.fromzarr('{name}'))\n"
            )),
        }
    }
    assert_same_blocks(&marsc(dir.path(), &script), &expected);
}

/// The marsc and NumPy expression of the data of `dtype` with `shape`, chunked
/// `chunks` in marsc (`tensor(..., chunks=)` ignores them in NumPy).
fn data_expr(dtype: &str, shape: &str, size: usize, chunks: &str) -> String {
    let base = format!("(mt.arange({size}).reshape({shape}) * 7 % 11 - 3)");
    let typed = match dtype {
        "bool" => format!("{base} % 3 == 0"),
        "float32" | "float64" => format!("({base} / 4).astype(mt.{dtype})"),
        _ => format!("{base}.astype(mt.{dtype})"),
    };
    format!("mt.tensor({typed}, chunks={chunks})")
}

/// What the Python side checks of one array marsc wrote.
struct Written {
    path: String,
    expr: String,
    dtype: &'static str,
    zarr_format: u8,
    compressor: &'static str,
    chunks: String,
    shards: String,
}

#[test]
fn zarr_python_reads_what_marsc_writes() {
    let Some(py) = zarr_python_or_skip("zarr_python_reads_what_marsc_writes") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut script = String::from("import mars.tensor as mt\n");
    let mut cases: Vec<Written> = Vec::new();
    let mut add = |path: String,
                   expr: String,
                   dtype,
                   options: &str,
                   format,
                   compressor,
                   chunks: &str,
                   shards: &str| {
        // `path` names the array; a store's groups come from `group=`/`dataset=`.
        let store = path.split('/').next().unwrap_or(&path);
        script.push_str(&format!("mt.tozarr('{store}', {expr}{options})\n"));
        cases.push(Written {
            path,
            expr,
            dtype,
            zarr_format: format,
            compressor,
            chunks: chunks.into(),
            shards: shards.into(),
        });
    };
    for dtype in DTYPES {
        for format in [2u8, 3] {
            for (compressor, option) in [
                ("zstd", ""),
                ("none", ", compressor=None"),
                ("zstd", ", compressor='zstd'"),
                ("gzip", ", compressor='gzip'"),
                ("blosc", ", compressor='blosc-lz4'"),
                ("blosc", ", compressor='blosc-zstd'"),
            ] {
                let name = option
                    .trim_start_matches(", compressor=")
                    .replace(['\'', '-'], "");
                add(
                    format!(
                        "v{format}_{dtype}_{}.zarr",
                        if name.is_empty() { "default" } else { &name }
                    ),
                    data_expr(dtype, "7, 5", 35, "(3, 2)"),
                    dtype,
                    &format!(", zarr_format={format}{option}"),
                    format,
                    compressor,
                    "(3, 2)",
                    "None",
                );
            }
            // Store chunks the tensor's chunks cut: rechunked before writing.
            add(
                format!("v{format}_{dtype}_rechunked.zarr"),
                data_expr(dtype, "7, 5", 35, "(3, 2)"),
                dtype,
                &format!(", zarr_format={format}, chunks=(4, 3)"),
                format,
                "zstd",
                "(4, 3)",
                "None",
            );
            for (shape, size, chunks, stored) in [
                ("0, 4", 0, "(2, 2)", "(1, 2)"),
                ("1,", 1, "1", "(1,)"),
                ("10,", 10, "3", "(4,)"),
                ("", 1, "()", "()"),
            ] {
                let options = if stored == "(4,)" {
                    format!(", zarr_format={format}, chunks=4")
                } else {
                    format!(", zarr_format={format}")
                };
                add(
                    format!(
                        "v{format}_{dtype}_shape{}.zarr",
                        shape.replace([',', ' '], "_")
                    ),
                    data_expr(dtype, &format!("({shape})"), size, chunks),
                    dtype,
                    &options,
                    format,
                    "zstd",
                    stored,
                    "None",
                );
            }
        }
        add(
            format!("v3_{dtype}_sharded.zarr"),
            data_expr(dtype, "7, 5", 35, "(3, 2)"),
            dtype,
            ", chunks=(2, 2), shards=(4, 4), compressor='blosc'",
            3,
            "blosc",
            "(2, 2)",
            "(4, 4)",
        );
    }
    add(
        "store.zarr/group/values".into(),
        data_expr("float64", "7, 5", 35, "(3, 2)"),
        "float64",
        ", group='group', dataset='values'",
        3,
        "zstd",
        "(3, 2)",
        "None",
    );
    let _ = marsc(dir.path(), &script);
    let mut checks = String::from(
        r#"
import numpy as np, zarr
class MT:
    def __getattr__(self, name):
        return getattr(np, name)
    def tensor(self, x, chunks=None):
        return np.asarray(x)
mt = MT()
def check(path, expr, dtype, zarr_format, compressor, chunks, shards):
    z = zarr.open_array(path, mode="r")
    expected = np.asarray(eval(expr))
    assert z.metadata.zarr_format == zarr_format, (path, z.metadata.zarr_format)
    assert z.dtype == np.dtype(dtype), (path, z.dtype)
    assert z.shape == expected.shape, (path, z.shape, expected.shape)
    assert np.array_equal(z[...], expected), (path, z[...], expected)
    assert z.chunks == chunks, (path, z.chunks, chunks)
    assert z.shards == shards, (path, z.shards, shards)
    names = [type(c).__name__.lower() for c in z.compressors]
    if compressor == "none":
        assert names == [], (path, names)
    else:
        assert len(names) == 1 and compressor in names[0], (path, names)
"#,
    );
    for case in &cases {
        checks.push_str(&format!(
            "check({:?}, {:?}, {:?}, {}, {:?}, {}, {})\n",
            case.path,
            case.expr,
            case.dtype,
            case.zarr_format,
            case.compressor,
            case.chunks,
            case.shards
        ));
    }
    checks.push_str("print('checked', flush=True)\n");
    assert_eq!(python(&py, dir.path(), &checks), "checked\n");
    // The store's root and group are groups zarr-python opens.
    let group = python(
        &py,
        dir.path(),
        "import zarr; print(sorted(zarr.open_group('store.zarr')['group'].array_keys()))",
    );
    assert_eq!(group, "['values']\n");
    assert_no_leftovers(dir.path());
}

/// No hidden temporary directory is left in `dir`.
fn assert_no_leftovers(dir: &Path) {
    let hidden: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with('.'))
        .collect();
    assert!(hidden.is_empty(), "temporary directories left: {hidden:?}");
}

#[test]
fn a_failed_run_leaves_no_store_and_keeps_the_replaced_one() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    marsc(
        path,
        "import mars.tensor as mt\nmt.tozarr('good.zarr', mt.arange(12, chunks=4), chunks=4)\nmt.tozarr('kept.zarr', mt.ones(3))\n",
    );
    // Corrupt one chunk: reading it fails during the run.
    std::fs::write(path.join("good.zarr/c/1"), b"not zstd").unwrap();
    let error = marsc_error(
        path,
        "import mars.tensor as mt\nx = mt.fromzarr('good.zarr')\nmt.tozarr('new.zarr', x + 1)\nmt.tozarr('kept.zarr', mt.zeros(3) + x.sum())\n",
    );
    assert!(error.contains("good.zarr"), "{error}");
    assert!(
        !path.join("new.zarr").exists(),
        "a failed run wrote new.zarr"
    );
    let kept = marsc(
        path,
        "import mars.tensor as mt\nprint(mt.fromzarr('kept.zarr'))\n",
    );
    assert_eq!(kept, "[1. 1. 1.]\n", "the replaced array changed");
    assert_no_leftovers(path);
}

#[test]
fn modes_follow_zarr() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    let write = "import mars.tensor as mt\nmt.tozarr('a.zarr', mt.arange(6).reshape(2, 3), chunks=(1, 3), compressor='gzip')\n";
    marsc(path, write);
    // 'w-' refuses an existing array at compile time.
    let error = marsc_error(
        path,
        "import mars.tensor as mt\nmt.tozarr('a.zarr', mt.ones(2), mode='w-')\n",
    );
    assert!(error.contains("already exists (mode='w-')"), "{error}");
    // 'a' writes into it, keeping its chunks and codecs; a different shape is refused.
    marsc(
        path,
        "import mars.tensor as mt\nmt.tozarr('a.zarr', mt.arange(6).reshape(2, 3) * 10, mode='a')\n",
    );
    let text = std::fs::read_to_string(path.join("a.zarr/zarr.json")).unwrap();
    assert!(text.contains("gzip"), "{text}");
    let read = "import mars.tensor as mt\nx = mt.fromzarr('a.zarr')\nprint(x, x.nsplits)\n";
    assert_eq!(
        marsc(path, read),
        "[[ 0 10 20]\n [30 40 50]] ((2,), (3,))\n"
    );
    let error = marsc_error(
        path,
        "import mars.tensor as mt\nmt.tozarr('a.zarr', mt.ones(2), mode='a')\n",
    );
    assert!(error.contains("it holds int64 of shape (2, 3)"), "{error}");
    // 'w' replaces it, whatever it held.
    marsc(
        path,
        "import mars.tensor as mt\nmt.tozarr('a.zarr', mt.ones(2, dtype=mt.int32), mode='w')\n",
    );
    assert_eq!(
        marsc(
            path,
            "import mars.tensor as mt\nprint(mt.fromzarr('a.zarr'))\n"
        ),
        "[1 1]\n"
    );
    // A directory that is no Zarr node is not replaced.
    std::fs::create_dir(path.join("mine")).unwrap();
    std::fs::write(path.join("mine/notes.txt"), "keep").unwrap();
    let error = marsc_error(
        path,
        "import mars.tensor as mt\nmt.tozarr('mine', mt.ones(2))\n",
    );
    assert!(error.contains("is not a Zarr array or group"), "{error}");
    assert!(path.join("mine/notes.txt").exists());
    // 'a' writes into arrays, not groups.
    marsc(
        path,
        "import mars.tensor as mt\nmt.tozarr('s.zarr', mt.ones(2), dataset='d')\n",
    );
    let error = marsc_error(
        path,
        "import mars.tensor as mt\nmt.tozarr('s.zarr', mt.ones(2), mode='a')\n",
    );
    assert!(
        error.contains("is a Zarr group; mode='a' writes into an array"),
        "{error}"
    );
    let error = marsc_error(
        path,
        "import mars.tensor as mt\nmt.tozarr('b.zarr', mt.ones(2), mode='r')\n",
    );
    assert!(error.contains("mode='r' opens a store to read"), "{error}");
    assert_no_leftovers(path);
}

#[test]
fn file_effects_follow_program_order() {
    let dir = tempfile::tempdir().unwrap();
    // A read of an array the script wrote is the written tensor (no store yet).
    let output = marsc(
        dir.path(),
        "import mars.tensor as mt\nmt.tozarr('x.zarr', mt.arange(5))\nprint(mt.fromzarr('x.zarr') * 2)\n",
    );
    assert_eq!(output, "[0 2 4 6 8]\n");
    // Writing an array the script reads is refused.
    let error = marsc_error(
        dir.path(),
        "import mars.tensor as mt\nx = mt.fromzarr('x.zarr')\nmt.tozarr('x.zarr', x + 1)\n",
    );
    assert!(
        error.contains("not supported yet: writing the Zarr array"),
        "{error}"
    );
}

#[test]
fn reading_errors_are_clear() {
    let Some(py) = zarr_python_or_skip("reading_errors_are_clear") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    python(
        &py,
        dir.path(),
        "import zarr, numpy as np\n\
         zarr.create_array('u8.zarr', data=np.arange(4, dtype=np.uint8))\n\
         zarr.create_array('c8.zarr', data=np.arange(4, dtype=np.complex64))\n\
         zarr.create_group('g.zarr').create_array('d', data=np.arange(4))\n",
    );
    for (script, message) in [
        (
            "mt.fromzarr('c8.zarr')",
            "not supported yet: the Zarr array",
        ),
        ("mt.fromzarr('g.zarr')", "is a Zarr group, not an array"),
        (
            "mt.fromzarr('nothing.zarr')",
            "cannot read the Zarr array `nothing.zarr`",
        ),
        (
            "mt.fromzarr('g.zarr', dataset='../u8.zarr')",
            "`dataset` must be a path of names",
        ),
        (
            "mt.tozarr('o.zarr', mt.ones(2), compressor='lzma')",
            "not supported yet: compressor 'lzma'",
        ),
        (
            "mt.tozarr('o.zarr', mt.ones(2), zarr_format=2, shards=2)",
            "needs zarr_format=3",
        ),
        (
            "mt.tozarr('o.zarr', mt.ones(2), filters=[1])",
            "not supported yet: the `filters` argument",
        ),
    ] {
        let error = marsc_error(dir.path(), &format!("import mars.tensor as mt\n{script}\n"));
        assert!(error.contains(message), "{script}: {error}");
    }
    let output = marsc(
        dir.path(),
        "import mars.tensor as mt\nprint(mt.fromzarr('g.zarr', dataset='d').sum())\n",
    );
    assert_eq!(output, "6\n");
    let output = marsc(
        dir.path(),
        "import mars.tensor as mt\nu = mt.fromzarr('u8.zarr')\nprint(u - 1, u.dtype, u.sum().dtype)\n",
    );
    assert_eq!(output, "[255   0   1   2] uint8 uint64\n");
}

#[test]
fn float16_arrays_round_trip_with_zarr_python() {
    let Some(py) = zarr_python_or_skip("float16_arrays_round_trip_with_zarr_python") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    python(
        &py,
        dir.path(),
        "import zarr, numpy as np\n\
         zarr.create_array('f2.zarr', data=np.array([0.1, 1 / 3, -2.5, np.inf], dtype=np.float16), chunks=(3,))\n",
    );
    let output = marsc(
        dir.path(),
        "import mars.tensor as mt\n\
         h = mt.fromzarr('f2.zarr')\n\
         print(h, h.dtype, h[:3].sum())\n\
         mt.tozarr('v3.zarr', h * 2)\n\
         mt.tozarr('v2.zarr', h[:3], zarr_format=2, fill_value=0.1)\n",
    );
    assert_eq!(output, "[ 0.1     0.3333 -2.5        inf] float16 -2.066\n");
    let read = python(
        &py,
        dir.path(),
        "import zarr\n\
         for name in ['v3.zarr', 'v2.zarr']:\n    \
             a = zarr.open_array(name, mode='r')\n    \
             print(a.dtype, repr(a[:]), a.fill_value)\n",
    );
    assert_eq!(
        read,
        "float16 array([ 0.2   ,  0.6665, -5.    ,     inf], dtype=float16) 0.0\n\
         float16 array([ 0.1   ,  0.3333, -2.5   ], dtype=float16) 0.1\n"
    );
}
