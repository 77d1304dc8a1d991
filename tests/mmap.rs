//! `load(path, mmap_mode='r')`: mapped inputs fused into their readers are read in
//! place by one JIT kernel per chunk (no load op left in the plan), Fortran-order and
//! bool files are copied out of the mapping, both paths print NumPy's values, and a
//! file removed, changed or truncated after compiling fails the run at its `load`.
//! (Every dtype and order against NumPy, with and without the JIT, is
//! `tests/cases/run/ok/mmap.mt`, run by `run.rs` and `jit.rs`.)

mod run_support;

use marsc::driver::{Compiled, Options};
use marsc::job::{self, JobError};
use marsc_runtime::chunk_kernel::{Kernel, LoadSpec};
use marsc_runtime::jit::leaves::LeafInstance;
use marsc_runtime::storage::npy::header::encode_header;
use marsc_runtime::storage::npy::MappedNpy;
use marsc_runtime::DType;
use run_support::{compile, options_in, render, run_options};
use std::path::Path;

/// Writes a C-order float64 `.npy` file of `values` by hand: header, then the data.
fn write_f64(path: &Path, values: &[f64]) {
    let mut bytes = encode_header(DType::Float64, &[values.len()]);
    for value in values {
        bytes.extend_from_slice(&value.to_le_bytes());
    }
    std::fs::write(path, bytes).expect("write a .npy file");
}

/// `a = arange(1000) * 0.5` and `b = 1000 - arange(1000)` in `dir`.
fn write_inputs(dir: &Path) {
    let a: Vec<f64> = (0..1000).map(|i| f64::from(i) * 0.5).collect();
    let b: Vec<f64> = (0..1000).map(|i| 1000.0 - f64::from(i)).collect();
    write_f64(&dir.join("a.npy"), &a);
    write_f64(&dir.join("b.npy"), &b);
}

const SUM_OF_MAPPED: &str = "import mars.tensor as mt\n\
    a = mt.load(\"a.npy\", mmap_mode=\"r\", chunks=100)\n\
    b = mt.load(\"b.npy\", mmap_mode=\"r\", chunks=100)\n\
    print((a + b).sum())\n";

fn run(compiled: &Compiled) -> Result<String, JobError> {
    let mut out = Vec::new();
    job::run_compiled(compiled, &run_options(), &mut out)?;
    Ok(String::from_utf8(out).expect("utf-8 output"))
}

fn kernels(compiled: &Compiled) -> impl Iterator<Item = &Kernel> {
    compiled
        .plan
        .subtasks
        .iter()
        .flat_map(|subtask| subtask.ops.iter().map(|op| &op.kernel))
}

#[test]
fn two_mapped_inputs_are_read_in_place_by_one_kernel_per_chunk() {
    let dir = tempfile::tempdir().unwrap();
    write_inputs(dir.path());
    let compiled = compile(SUM_OF_MAPPED, &options_in(dir.path(), true));
    assert!(
        !kernels(&compiled).any(|kernel| matches!(kernel, Kernel::Load { .. })),
        "no load op is left: the JIT reads the mapping"
    );
    let mapped_kernels: Vec<_> = compiled
        .plan
        .subtasks
        .iter()
        .filter(|subtask| {
            matches!(&subtask.ops[..], [op] if matches!(&op.kernel, Kernel::Jit(jit)
                if jit.leaves.len() == 2
                    && jit.leaves.iter().all(|leaf| matches!(leaf, LeafInstance::Mapped { .. }))
                    && op.args.is_empty()))
        })
        .collect();
    assert_eq!(mapped_kernels.len(), 10, "one kernel per chunk");
    // NumPy: (np.arange(1000) * 0.5 + (1000 - np.arange(1000))).sum() == 750250.0
    assert_eq!(run(&compiled).unwrap(), "750250.0\n");
    let interpreted = compile(SUM_OF_MAPPED, &options_in(dir.path(), false));
    assert!(kernels(&interpreted)
        .any(|kernel| matches!(kernel, Kernel::Load { spec, .. } if reads_a_mapping(spec))));
    assert_eq!(run(&interpreted).unwrap(), "750250.0\n");
}

#[test]
fn fortran_order_and_bool_files_are_copied_out_of_the_mapping() {
    let options = Options {
        jit: true,
        ..run_support::options()
    };
    let script = "import mars.tensor as mt\n\
        f = mt.load(\"tests/cases/lower/data/f64_fortran_4x5.npy\", mmap_mode=\"r\", chunks=2)\n\
        b = mt.load(\"tests/cases/lower/data/bool_5.npy\", mmap_mode=\"r\", chunks=2)\n\
        print((f * 2.0).sum(), (b | b).sum())\n";
    let compiled = compile(script, &options);
    let copies = kernels(&compiled)
        .filter(|kernel| matches!(kernel, Kernel::Load { spec, .. } if reads_a_mapping(spec)))
        .count();
    assert_eq!(copies, 6 + 3, "every chunk of both files is a copy");
    // NumPy: (np.load(f) * 2.0).sum() == 70.0; (b | b).sum() == 3
    assert_eq!(run(&compiled).unwrap(), "70.0 3\n");
}

/// The rendered error of running `SUM_OF_MAPPED` after `change` edits the files.
fn error_after(change: impl Fn(&Path)) -> String {
    let dir = tempfile::tempdir().unwrap();
    write_inputs(dir.path());
    let compiled = compile(SUM_OF_MAPPED, &options_in(dir.path(), true));
    change(dir.path());
    let error = run(&compiled).expect_err("the run fails");
    assert!(matches!(error, JobError::RunFailed(_)), "{error:?}");
    let shown = render(SUM_OF_MAPPED, error);
    assert!(
        shown.contains("b = mt.load(") && shown.contains("while loading this"),
        "the error points at the load of b:\n{shown}"
    );
    shown
}

#[test]
fn a_file_removed_after_compiling_fails_the_run_at_its_load() {
    let shown = error_after(|dir| std::fs::remove_file(dir.join("b.npy")).unwrap());
    assert!(
        shown.contains("cannot map") && shown.contains("No such file"),
        "{shown}"
    );
}

#[test]
fn a_file_changed_after_compiling_fails_the_run_at_its_load() {
    let shown = error_after(|dir| write_f64(&dir.join("b.npy"), &[1.0; 999]));
    assert!(
        shown.contains("changed since the script was compiled")
            && shown.contains("float64 [999], not float64 [1000]"),
        "{shown}"
    );
}

#[test]
fn a_file_truncated_after_compiling_fails_the_run_at_its_load() {
    let shown = error_after(|dir| {
        let path = dir.join("b.npy");
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() - 8]).unwrap();
    });
    assert!(shown.contains("the file is truncated"), "{shown}");
}

/// Whether a load reads through the file's mapping (`mmap_mode='r'`).
fn reads_a_mapping(spec: &LoadSpec) -> bool {
    let reader: &dyn std::any::Any = &*spec.reader.0;
    reader.is::<MappedNpy>()
}
