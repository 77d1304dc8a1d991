//! Every `tests/cases/parse/ok/*.mt` parses with no diagnostics and every
//! `tests/cases/parse/err/*.mt` reports at least one; each file says in its first
//! line what it checks. (The snapshot harness elsewhere pins the exact output.)

use std::fs;
use std::path::{Path, PathBuf};

fn case_files(kind: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/cases/parse")
        .join(kind);
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "mt"))
        .collect();
    files.sort();
    files
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

fn describes_itself(path: &Path, source: &str) {
    let first_line = source
        .trim_start_matches('\u{feff}')
        .lines()
        .next()
        .unwrap_or("");
    // A docstring says what the file checks just as well as a comment does.
    assert!(
        first_line.starts_with("# ") || first_line.starts_with("\"\"\""),
        "{}: the first line must be a `# ` comment saying what the case checks",
        path.display()
    );
}

#[test]
fn ok_cases_parse_without_diagnostics() {
    let files = case_files("ok");
    assert!(files.len() >= 25, "only {} ok cases", files.len());
    for path in files {
        let source = read(&path);
        describes_itself(&path, &source);
        let (module, diagnostics) = marsc_grammar::parse(&source);
        assert!(
            diagnostics.is_empty(),
            "{}: unexpected diagnostics {diagnostics:#?}",
            path.display()
        );
        // Lines end with LF, CRLF or a lone CR, as the lexer reads them.
        let has_code = source
            .split(['\n', '\r'])
            .any(|line| !line.trim().is_empty() && !line.trim_start().starts_with('#'));
        assert_eq!(!module.stmts.is_empty(), has_code, "{}", path.display());
    }
}

#[test]
fn err_cases_report_at_least_one_diagnostic() {
    let files = case_files("err");
    assert!(files.len() >= 25, "only {} err cases", files.len());
    for path in files {
        let source = read(&path);
        describes_itself(&path, &source);
        let (_, diagnostics) = marsc_grammar::parse(&source);
        assert!(!diagnostics.is_empty(), "{}: no diagnostic", path.display());
        for diagnostic in &diagnostics {
            assert!(
                diagnostic.span.end as usize <= source.len(),
                "{}: span out of range",
                path.display()
            );
        }
    }
}
