//! The JIT changes nothing a script prints: every example and every
//! `tests/cases/run/ok` script prints exactly the same with the JIT (the default) as
//! with `--no-jit`, with the default chunking and with small chunks on several workers
//! (which puts many chunks through one kernel, and float sums through NumPy's pairwise
//! order in both), and the JIT does compile kernels for them.

mod run_support;

use marsc::driver::Options;
use marsc_tests::repo_root;
use run_support::{options, run_script, scripts_in};
use std::path::{Path, PathBuf};

fn same_with_and_without_jit(script: &Path, options: &Options, workers: u32) -> u64 {
    let text = std::fs::read_to_string(script).expect("readable script");
    let jit = Options {
        jit: true,
        ..options.clone()
    };
    let interpreted = Options {
        jit: false,
        ..options.clone()
    };
    let (with_jit, stats) = run_script(&text, &jit, workers)
        .unwrap_or_else(|error| panic!("{} with the JIT: {error}", script.display()));
    let (without_jit, plain_stats) = run_script(&text, &interpreted, workers)
        .unwrap_or_else(|error| panic!("{} with --no-jit: {error}", script.display()));
    assert_eq!(
        with_jit,
        without_jit,
        "{} prints differently with the JIT",
        script.display()
    );
    assert_eq!(plain_stats.kernels, 0, "--no-jit compiles nothing");
    stats.kernels
}

fn all_scripts() -> Vec<PathBuf> {
    let root = repo_root();
    let mut scripts = scripts_in(&root.join("examples"));
    scripts.extend(scripts_in(&root.join("tests/cases/run/ok")));
    scripts
}

#[test]
fn scripts_print_the_same_with_and_without_the_jit() {
    let mut kernels = 0;
    for script in all_scripts() {
        kernels += same_with_and_without_jit(&script, &options(), 1);
    }
    assert!(kernels > 20, "the JIT compiled only {kernels} kernels");
}

#[test]
fn small_chunks_on_three_workers_print_the_same_with_and_without_the_jit() {
    let small = Options {
        chunk_bytes: 4096,
        ..options()
    };
    for script in all_scripts() {
        same_with_and_without_jit(&script, &small, 3);
    }
}

#[test]
fn a_fused_expression_compiles_one_kernel_for_all_its_chunks() {
    let script = "import mars.tensor as mt\n\
                  a = mt.arange(100000, chunks=1000) * 1.5\n\
                  print(a.sum())\n";
    let (output, stats) = run_script(script, &options(), 2).expect("runs");
    assert_eq!(output, "7499925000.0\n");
    assert!(
        stats.kernels <= 4,
        "100 chunks of each step share kernels, got {}",
        stats.kernels
    );
}
