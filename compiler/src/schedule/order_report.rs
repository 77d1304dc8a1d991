//! What `marsc order GRAPH.dag` prints: the nodes in execution order, one
//! `PRIORITY NAME` line each, then `max_live_results N`; and how a bad file is reported.
//! The CLI and the snapshot tests share these functions.

use super::dag::{parse_dag_file, DagError};
use super::priority::{max_live_results, order};
use std::fmt::Write;

/// Parses a `.dag` file, runs the priority pass, and renders the report.
pub fn order_report(text: &str) -> Result<String, DagError> {
    let (dag, names) = parse_dag_file(text)?;
    let priority = order(&dag, None);
    let mut sequence: Vec<u32> = dag.nodes().collect();
    sequence.sort_unstable_by_key(|&node| priority[node as usize]);
    let mut report = String::with_capacity(names.iter().map(|n| n.len() + 9).sum::<usize>() + 32);
    for node in sequence {
        let _ = writeln!(
            report,
            "{} {}",
            priority[node as usize], names[node as usize]
        );
    }
    let _ = writeln!(
        report,
        "max_live_results {}",
        max_live_results(&dag, &priority)
    );
    Ok(report)
}

/// One line, `error: FILE:LINE: message` (or `error: FILE: message` when the problem
/// is not on a line), as compilers print them.
pub fn render_dag_error(file_name: &str, error: &DagError) -> String {
    match error {
        DagError::Line { line, message } => format!("error: {file_name}:{line}: {message}"),
        other => format!("error: {file_name}: {other}"),
    }
}
