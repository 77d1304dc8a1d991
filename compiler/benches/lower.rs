//! How long lowering takes on a generated 10,000-statement script (parsing is
//! measured separately, so the lowering figure stands on its own).
//!
//! Run with `cargo bench -p marsc-compiler --bench lower`.

use marsc::lower::{lower, LowerOptions};
use std::fmt::Write;

fn main() {
    divan::main();
}

/// A script of `statements` lines exercising creation, arithmetic with scalars,
/// reductions, shape changes, indexing and prints, with names reused as a real
/// script would.
fn generated_script(statements: usize) -> String {
    let mut source = String::from("import mars.tensor as mt\n");
    let body = [
        "a{i} = mt.ones((100, 80), chunks=20)",
        "b{i} = a{i} * 2.5 + {i}",
        "c{i} = b{i}.sum(axis=0, keepdims=True)",
        "d{i} = (b{i} - c{i}).T @ a{i}",
        "e{i} = d{i}[1:, ::2].reshape(-1)",
        "n{i} = e{i}.shape[0] // 2 + {i}",
        "f{i} = mt.where(b{i} > n{i}, b{i}, 0.0).mean()",
        "g{i} = mt.random.rand(50, 4, chunks=(10, 4)).cumsum(axis=0)",
        "h{i} = mt.concatenate([g{i}, g{i}], axis=1)",
        "print(f{i}, h{i}.max(), n{i})",
    ];
    for i in 0..statements.div_ceil(body.len()) {
        for line in body {
            let _ = writeln!(source, "{}", line.replace("{i}", &i.to_string()));
        }
    }
    source
}

#[divan::bench]
fn lower_10k_statements(bencher: divan::Bencher) {
    let source = generated_script(10_000);
    let (module, errors) = marsc_grammar::parse(&source);
    assert!(errors.is_empty());
    let options = LowerOptions::default();
    bencher.bench(|| lower(divan::black_box(&module), &options).expect("lowers"));
}

#[divan::bench]
fn parse_10k_statements(bencher: divan::Bencher) {
    let source = generated_script(10_000);
    bencher.bench(|| marsc_grammar::parse(divan::black_box(&source)));
}
