//! Parsing speed on a generated 10 000-statement script (the target is well under
//! 0.1 s in release mode). Run with `cargo bench -p marsc-grammar`.

fn main() {
    divan::main();
}

/// A script in the shape of real ones: imports, creation calls with keyword
/// arguments, arithmetic, slicing, reductions, prints, comments.
fn generated_script(statements: usize) -> String {
    let mut source = String::from("import mars.tensor as mt\nimport numpy as np\n");
    for i in 0..statements {
        let line = match i % 6 {
            0 => format!("a{i} = mt.random.rand(1000, 1000, chunks=(250, 500))  # data\n"),
            1 => format!(
                "b{i} = (a{} + 2.5) * a{} - mt.sqrt(a{})\n",
                i - 1,
                i - 1,
                i - 1
            ),
            2 => format!(
                "c{i} = b{}[1:, ::2, None].sum(axis=(0, 1), keepdims=True)\n",
                i - 1
            ),
            3 => format!(
                "c{} += 0x1f ** -1; d{i} = c{} @ c{}.T\n",
                i - 1,
                i - 1,
                i - 1
            ),
            4 => format!(
                "e{i} = mt.where((d{} > 0) & (d{} < 1), d{}, 0)\n",
                i - 1,
                i - 1,
                i - 1
            ),
            _ => format!("print(e{}.mean(), 'done\\n', sep=\"\")\n", i - 1),
        };
        source.push_str(&line);
    }
    source
}

#[divan::bench]
fn parse_10k_statements(bencher: divan::Bencher) {
    let source = generated_script(10_000);
    bencher.bench(|| {
        let (module, diagnostics) = marsc_grammar::parse(divan::black_box(&source));
        assert!(diagnostics.is_empty());
        module
    });
}

#[divan::bench]
fn dump_10k_statements(bencher: divan::Bencher) {
    let source = generated_script(10_000);
    let (module, _) = marsc_grammar::parse(&source);
    bencher.bench(|| marsc_grammar::dump_ast(divan::black_box(&module), &source));
}
