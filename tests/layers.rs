//! The one-way arrows between each crate's top-level modules (ARCHITECTURE.md): a
//! module uses another through `crate::name` paths, and the graph those uses make
//! (outside comments and test code) may hold only the import cycles ARCHITECTURE.md
//! lists as not yet broken. A new cycle fails this test, and so does a listed one
//! that is gone (take it off the list, here and in ARCHITECTURE.md).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The cycles still there, per crate: each is the set of top-level modules that
/// reach one another.
const KNOWN_CYCLES: &[(&str, &[&str])] = &[
    // The lexer parses an f-string's fields with the parser, which reads tokens.
    ("grammar", &["lexer", "parser"]),
];

const CRATES: &[&str] = &["grammar", "compiler", "runtime", "cli", "server"];

/// Every `.rs` file under `dir`, but test-only files (`tests.rs`, `*_tests.rs`,
/// anything under a `tests/` directory).
fn source_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            if name != "tests" {
                source_files(&path, out);
            }
        } else if name.ends_with(".rs") && name != "tests.rs" && !name.ends_with("_tests.rs") {
            out.push(path);
        }
    }
}

/// The `crate::name` paths in `code`, outside `//` comments.
fn crate_paths(code: &str) -> impl Iterator<Item = &str> {
    let code = code.split("//").next().unwrap_or("");
    code.match_indices("crate::").filter_map(move |(at, _)| {
        if at > 0
            && (code.as_bytes()[at - 1].is_ascii_alphanumeric() || code.as_bytes()[at - 1] == b'_')
        {
            return None;
        }
        let rest = &code[at + "crate::".len()..];
        let end = rest
            .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'))
            .unwrap_or(rest.len());
        Some(&rest[..end])
    })
}

/// Each top-level module of the crate whose sources are in `src`, with the other
/// top-level modules its non-test code names.
fn module_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut tops = BTreeSet::new();
    for entry in fs::read_dir(src).expect("the crate's src directory") {
        let path = entry.expect("a directory entry").path();
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("")
            .to_string();
        if path.is_dir() || path.extension().is_some_and(|e| e == "rs") {
            tops.insert(stem);
        }
    }
    tops.remove("lib");
    tops.remove("main");
    let mut graph: BTreeMap<String, BTreeSet<String>> =
        tops.iter().map(|t| (t.clone(), BTreeSet::new())).collect();
    let mut files = Vec::new();
    source_files(src, &mut files);
    for file in files {
        let relative = file.strip_prefix(src).expect("under src");
        let first = relative.components().next().expect("a component");
        let top = Path::new(first.as_os_str())
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("")
            .to_string();
        if !tops.contains(&top) {
            continue;
        }
        let text = fs::read_to_string(&file).expect("a source file");
        for line in text.lines() {
            if line.trim_start().starts_with("#[cfg(test)]") {
                break;
            }
            for used in crate_paths(line) {
                if used != top && tops.contains(used) {
                    graph
                        .get_mut(&top)
                        .expect("a module")
                        .insert(used.to_string());
                }
            }
        }
    }
    graph
}

/// The modules `from` reaches through the graph (itself included).
fn reachable(graph: &BTreeMap<String, BTreeSet<String>>, from: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::from([from.to_string()]);
    let mut stack = vec![from.to_string()];
    while let Some(node) = stack.pop() {
        for next in &graph[&node] {
            if seen.insert(next.clone()) {
                stack.push(next.clone());
            }
        }
    }
    seen
}

/// The graph's cycles: its strongly connected components of two or more modules.
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> BTreeSet<BTreeSet<String>> {
    let reach: BTreeMap<&String, BTreeSet<String>> =
        graph.keys().map(|m| (m, reachable(graph, m))).collect();
    graph
        .keys()
        .map(|m| {
            reach[m]
                .iter()
                .filter(|other| reach[other].contains(m))
                .cloned()
                .collect::<BTreeSet<String>>()
        })
        .filter(|component| component.len() > 1)
        .collect()
}

#[test]
fn top_level_modules_have_only_the_known_import_cycles() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace");
    let mut problems = Vec::new();
    for name in CRATES {
        let found = cycles(&module_graph(&root.join(name).join("src")));
        let known: BTreeSet<BTreeSet<String>> = KNOWN_CYCLES
            .iter()
            .filter(|(krate, _)| krate == name)
            .map(|(_, modules)| modules.iter().map(|m| m.to_string()).collect())
            .collect();
        for cycle in found.difference(&known) {
            problems.push(format!("{name}: new import cycle between {cycle:?}"));
        }
        for cycle in known.difference(&found) {
            problems.push(format!(
                "{name}: the cycle {cycle:?} is gone: take it off KNOWN_CYCLES and ARCHITECTURE.md"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_scan_sees_a_cycle_it_is_given() {
    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a"]),
        ("d", vec!["a"]),
    ]
    .into_iter()
    .map(|(m, uses)| (m.to_string(), uses.into_iter().map(String::from).collect()))
    .collect();
    let expected: BTreeSet<BTreeSet<String>> =
        BTreeSet::from([["a", "b", "c"].into_iter().map(String::from).collect()]);
    assert_eq!(cycles(&graph), expected);
    let paths: Vec<&str> = crate_paths("use crate::jit::x; // crate::exec").collect();
    assert_eq!(paths, ["jit"]);
    assert_eq!(
        crate_paths("$crate::array::A").collect::<Vec<_>>(),
        ["array"]
    );
}
