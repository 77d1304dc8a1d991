//! The `.dag` text format of `marsc order`: one node per line, `name: dep1 dep2 …`
//! (a root is `name:`), `#` starts a comment, names are `[A-Za-z0-9_.-]+`. Nodes are
//! numbered in the order their lines appear; a dependency may be defined on a later
//! line. Every error names the 1-based line it is about.

use super::dag::{Dag, DagError};
use std::collections::{HashMap, HashSet};

/// One definition line, names not yet resolved.
struct Definition<'a> {
    line: usize,
    name: &'a str,
    dependencies: Vec<&'a str>,
}

/// Parses a `.dag` file into a [`Dag`] and the node names, index by index.
pub fn parse_dag_file(text: &str) -> Result<(Dag, Vec<String>), DagError> {
    let definitions = parse_lines(text)?;
    let mut index_of: HashMap<&str, u32> = HashMap::with_capacity(definitions.len());
    for (index, definition) in definitions.iter().enumerate() {
        if let Some(&first) = index_of.get(definition.name) {
            let first_line = definitions[first as usize].line;
            return Err(line_error(
                definition.line,
                format!(
                    "`{}` is defined twice (first on line {first_line})",
                    definition.name
                ),
            ));
        }
        let index = u32::try_from(index).map_err(|_| DagError::TooLarge)?;
        index_of.insert(definition.name, index);
    }
    let mut edges = Vec::new();
    for (reader, definition) in definitions.iter().enumerate() {
        for &dependency in &definition.dependencies {
            let Some(&input) = index_of.get(dependency) else {
                return Err(line_error(
                    definition.line,
                    format!(
                        "`{}` depends on `{dependency}`, which is not defined",
                        definition.name
                    ),
                ));
            };
            edges.push((input, reader as u32));
        }
    }
    let dag = Dag::from_edges(definitions.len(), &edges).map_err(|error| match error {
        DagError::Cycle { cycle } => cycle_error(&definitions, cycle),
        other => other,
    })?;
    let names = definitions.iter().map(|d| d.name.to_string()).collect();
    Ok((dag, names))
}

fn parse_lines(text: &str) -> Result<Vec<Definition<'_>>, DagError> {
    let mut definitions = Vec::new();
    for (line_index, raw_line) in text.lines().enumerate() {
        let line = line_index + 1;
        let content = raw_line.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let Some((name, rest)) = content.split_once(':') else {
            return Err(line_error(
                line,
                format!("expected `name: dependencies...`, found `{content}`"),
            ));
        };
        let name = name.trim();
        if name.is_empty() {
            return Err(line_error(line, "missing node name before `:`".to_string()));
        }
        check_name(line, name)?;
        let mut dependencies: Vec<&str> = Vec::new();
        // A set per line, sized by the line: finding a repeated dependency stays
        // linear in the line's length however many dependencies it lists (a scan of
        // the list so far made a node of in-degree d cost d^2).
        let mut listed: HashSet<&str> = HashSet::new();
        for dependency in rest.split_whitespace() {
            check_name(line, dependency)?;
            if !listed.insert(dependency) {
                return Err(line_error(
                    line,
                    format!("`{dependency}` is listed twice as a dependency of `{name}`"),
                ));
            }
            dependencies.push(dependency);
        }
        definitions.push(Definition {
            line,
            name,
            dependencies,
        });
    }
    Ok(definitions)
}

fn check_name(line: usize, name: &str) -> Result<(), DagError> {
    let valid = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-');
    if name.chars().all(valid) {
        Ok(())
    } else {
        Err(line_error(
            line,
            format!(
                "`{name}` is not a valid node name (names use letters, digits, `_`, `.` and `-`)"
            ),
        ))
    }
}

/// Names a cycle starting from its node defined first, and reports it on that line.
fn cycle_error(definitions: &[Definition<'_>], mut cycle: Vec<u32>) -> DagError {
    let first = (0..cycle.len()).min_by_key(|&at| cycle[at]).unwrap_or(0);
    cycle.rotate_left(first);
    let Some(&start) = cycle.first() else {
        return DagError::Cycle { cycle };
    };
    let path: Vec<String> = cycle
        .iter()
        .chain(std::iter::once(&start))
        .map(|&node| format!("`{}`", definitions[node as usize].name))
        .collect();
    line_error(
        definitions[start as usize].line,
        format!(
            "dependency cycle: {} (each depends on the next)",
            path.join(" -> ")
        ),
    )
}

fn line_error(line: usize, message: String) -> DagError {
    DagError::Line { line, message }
}
