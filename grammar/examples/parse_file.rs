//! Prints the AST dump and the diagnostics of `.mt` files, for looking at the parser
//! by hand before the `marsc` CLI exists:
//! `cargo run -p marsc-grammar --example parse_file -- script.mt`.

use std::process::ExitCode;

fn main() -> ExitCode {
    let mut status = ExitCode::SUCCESS;
    for path in std::env::args().skip(1) {
        let source = match std::fs::read_to_string(&path) {
            Ok(source) => source,
            Err(error) => {
                eprintln!("{path}: {error}");
                status = ExitCode::FAILURE;
                continue;
            }
        };
        let (module, diagnostics) = marsc_grammar::parse(&source);
        print!("{}", marsc_grammar::dump_ast(&module, &source));
        let lines = marsc_grammar::LineIndex::new(&source);
        for diagnostic in &diagnostics {
            let (line, column) = lines.line_col(diagnostic.span.start as usize);
            println!("{path}:{line}:{column}: error: {}", diagnostic.message);
            if !diagnostic.label.is_empty() {
                println!("    label: {}", diagnostic.label);
            }
            if let Some(help) = &diagnostic.help {
                println!("    help: {help}");
            }
        }
        if !diagnostics.is_empty() {
            status = ExitCode::FAILURE;
        }
    }
    status
}
