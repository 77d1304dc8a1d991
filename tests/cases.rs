//! Snapshot tests over `tests/cases/`: drop a `.mt` file into a stage's `ok/` or
//! `err/` folder and it is compiled up to that stage; `ok/` cases must compile and
//! their dump is pinned, `err/` cases must fail and their rendered diagnostics are
//! pinned. Review new snapshots with `cargo insta review` (or `INSTA_UPDATE=always`).

use marsc::driver::Stage;
use marsc_tests::{run_err, run_ok, run_staged};

#[test]
fn parse_ok() {
    insta::glob!("cases/parse/ok/*.mt", |path| {
        insta::assert_snapshot!(run_ok(path, Stage::Ast));
    });
}

#[test]
fn parse_err() {
    insta::glob!("cases/parse/err/*.mt", |path| {
        insta::assert_snapshot!(run_err(path, Stage::Ast));
    });
}

#[test]
fn lower_ok() {
    insta::glob!("cases/lower/ok/*.mt", |path| {
        insta::assert_snapshot!(run_ok(path, Stage::Tileable));
    });
}

#[test]
fn lower_err() {
    insta::glob!("cases/lower/err/*.mt", |path| {
        insta::assert_snapshot!(run_err(path, Stage::Tileable));
    });
}

#[test]
fn chunk_ok() {
    insta::glob!("cases/chunk/ok/*.mt", |path| {
        insta::assert_snapshot!(run_ok(path, Stage::Chunk));
    });
}

/// `--emit subtask`: how chunk operations are fused into subtasks (header options
/// choose the fusion level).
#[test]
fn subtask_ok() {
    insta::glob!("cases/subtask/ok/*.mt", |path| {
        insta::assert_snapshot!(run_ok(path, Stage::Subtask));
    });
}

#[test]
fn examples_compile() {
    insta::glob!("../examples", "*.mt", |path| {
        insta::assert_snapshot!(run_ok(path, Stage::Tileable));
    });
}

/// `--emit kernels`: the CLIF of each JIT kernel (golden: a change in instruction
/// selection, vector loops or the call ABI shows here). The IR is built before the
/// target's code generator runs, with fixed 128-bit vector types, so it is the same
/// on every x86-64 machine.
#[test]
fn kernels_ok() {
    insta::glob!("cases/kernels/ok/*.mt", |path| {
        insta::assert_snapshot!(run_ok(path, Stage::Kernels));
    });
}

/// `--emit` of a script that runs in stages: each stage's IR under a heading that
/// names the value it computes (every pass, `--emit all`).
#[test]
fn staged_ok() {
    insta::glob!("cases/staged/ok/*.mt", |path| {
        insta::assert_snapshot!(run_staged(path, Stage::All));
    });
}
