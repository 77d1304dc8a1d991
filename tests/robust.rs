//! Robustness: random mutations of real scripts and random token soup go through the
//! whole front end (parse + lower + verify) without a panic. Bounded so it runs in CI
//! in seconds; raise `PROPTEST_CASES` to search longer.

use marsc::driver::{self, EmitFormat, Options, Stage};
use proptest::prelude::*;
use std::path::PathBuf;

/// The scripts to mutate, read from disk once per test binary.
fn corpus() -> &'static [String] {
    static CORPUS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    CORPUS.get_or_init(read_corpus)
}

fn read_corpus() -> Vec<String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut scripts = Vec::new();
    for dir in [
        root.join("../examples"),
        root.join("cases/lower/ok"),
        root.join("cases/parse/ok"),
    ] {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for path in paths {
            if path.extension().is_some_and(|e| e == "mt") {
                scripts.push(std::fs::read_to_string(&path).expect("readable script"));
            }
        }
    }
    assert!(!scripts.is_empty(), "the robustness corpus is empty");
    scripts
}

const TOKENS: &[&str] = &[
    "x", "y", "mt", "np", ".", "(", ")", "[", "]", ",", ":", "=", "+", "-", "*", "/", "//", "%",
    "**", "@", "&", "|", "^", "~", "<", "==", "1", "0", "-1", "2.5", "None", "True", "...",
    "\"s\"", "\n", " ", "ones", "sum", "reshape", "axis", "keepdims", "chunks", "print", "tensor",
    "arange", "random", "rand", "T", "shape", "and", "not", "import", "as", "\\\n", ";", "#",
    "    ",
];

/// Applies one mutation: delete, duplicate or replace a random byte range, or insert a
/// random token, at a char boundary.
fn mutate(text: &str, kind: u8, at: usize, len: usize, token: usize) -> String {
    let boundary = |mut i: usize| {
        i = i.min(text.len());
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let start = boundary(at % (text.len() + 1));
    let end = boundary(start + len % 12);
    let token = TOKENS[token % TOKENS.len()];
    match kind % 4 {
        0 => format!("{}{}", &text[..start], &text[end..]),
        1 => format!("{}{}{}", &text[..end], &text[start..end], &text[end..]),
        2 => format!("{}{}{}", &text[..start], token, &text[end..]),
        _ => format!("{}{}{}", &text[..start], token, &text[start..]),
    }
}

fn compile_everything(text: &str) {
    let options = Options {
        chunk_bytes: 4096,
        ..Options::default()
    };
    for stage in [Stage::Ast, Stage::Tileable, Stage::Chunk] {
        let _ = driver::emit(text, stage, EmitFormat::Text, &options);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn mutated_scripts_never_panic(
        script in any::<prop::sample::Index>(),
        edits in prop::collection::vec((any::<u8>(), any::<usize>(), any::<usize>(), any::<usize>()), 1..6),
    ) {
        let corpus = corpus();
        let mut text = corpus[script.index(corpus.len())].clone();
        for (kind, at, len, token) in edits {
            text = mutate(&text, kind, at, len, token);
        }
        compile_everything(&text);
    }

    #[test]
    fn token_soup_never_panics(tokens in prop::collection::vec(any::<prop::sample::Index>(), 0..60)) {
        let text: String = tokens.iter().map(|i| TOKENS[i.index(TOKENS.len())]).collect::<Vec<_>>().join(" ");
        compile_everything(&text);
    }
}
