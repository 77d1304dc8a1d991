//! The DAG builder and the `.dag` file format: what is accepted, and that every
//! rejected file is rejected with the right line.

use crate::schedule::dag::{parse_dag_file, Dag, DagError};

fn line_of(text: &str) -> (usize, String) {
    match parse_dag_file(text) {
        Err(DagError::Line { line, message }) => (line, message),
        other => panic!("expected a line error, got {other:?}"),
    }
}

#[test]
fn parses_nodes_in_line_order_with_comments_and_forward_references() {
    let text = "# a diamond\n\nd: b c   # the join\nb: a\nc: a\n  a:\n";
    let (dag, names) = parse_dag_file(text).unwrap();
    assert_eq!(names, ["d", "b", "c", "a"]);
    assert_eq!(dag.dependencies(0), [1, 2]);
    assert_eq!(dag.dependents(3), [1, 2]);
    assert!(dag.is_root(3) && dag.is_sink(0));
    assert_eq!(dag.topological_order(), [3, 1, 2, 0]);
    assert_eq!(dag.depths(), [2, 1, 1, 0]);
}

#[test]
fn names_allow_letters_digits_underscore_dot_dash_and_tabs_separate() {
    let (dag, names) = parse_dag_file("x.1-a_B:\ny:\tx.1-a_B\n").unwrap();
    assert_eq!(names, ["x.1-a_B", "y"]);
    assert_eq!(dag.dependencies(1), [0]);
}

#[test]
fn an_empty_file_is_an_empty_graph() {
    let (dag, names) = parse_dag_file("# nothing\n\n").unwrap();
    assert!(dag.is_empty() && names.is_empty());
}

#[test]
fn a_line_without_colon_is_malformed() {
    let (line, message) = line_of("a:\nb a\n");
    assert_eq!(line, 2);
    assert!(
        message.contains("expected `name: dependencies...`"),
        "{message}"
    );
}

#[test]
fn a_missing_name_is_malformed() {
    assert_eq!(line_of("a:\n : a\n").0, 2);
}

#[test]
fn invalid_characters_in_a_name_are_reported() {
    let (line, message) = line_of("a:\nb: a+c\n");
    assert_eq!(line, 2);
    assert!(
        message.contains("`a+c` is not a valid node name"),
        "{message}"
    );
    assert_eq!(line_of("a:b: c\n").0, 1);
}

#[test]
fn a_missing_dependency_names_its_reader_line() {
    let (line, message) = line_of("a:\nb: a\nc: b zz\n");
    assert_eq!(line, 3);
    assert!(
        message.contains("`c` depends on `zz`, which is not defined"),
        "{message}"
    );
}

#[test]
fn a_duplicate_node_names_both_lines() {
    let (line, message) = line_of("a:\nb: a\na: b\n");
    assert_eq!(line, 3);
    assert!(
        message.contains("defined twice (first on line 1)"),
        "{message}"
    );
}

#[test]
fn a_repeated_dependency_is_reported() {
    let (line, message) = line_of("a:\nb: a a\n");
    assert_eq!(line, 2);
    assert!(message.contains("listed twice"), "{message}");
}

#[test]
fn a_cycle_is_reported_on_the_line_of_its_first_node() {
    let (line, message) = line_of("r:\n# loop below\nx: r z\ny: x\nz: y\n");
    assert_eq!(line, 3);
    assert!(message.contains("`x` -> `z` -> `y` -> `x`"), "{message}");
    let (line, message) = line_of("a:\nself: self\n");
    assert_eq!(line, 2);
    assert!(message.contains("`self` -> `self`"), "{message}");
}

#[test]
fn repeated_edges_collapse() {
    let dag = Dag::from_edges(3, &[(0, 2), (1, 2), (0, 2), (0, 1)]).unwrap();
    assert_eq!(dag.dependencies(2), [0, 1]);
    assert_eq!(dag.dependents(0), [1, 2]);
    assert_eq!(dag.edge_count(), 3);
}

#[test]
fn edges_outside_the_graph_and_cycles_are_errors() {
    assert_eq!(
        Dag::from_edges(2, &[(0, 5)]),
        Err(DagError::UnknownNode {
            node: 5,
            node_count: 2
        })
    );
    assert_eq!(
        Dag::from_edges(3, &[(0, 1), (1, 2), (2, 1)]),
        Err(DagError::Cycle { cycle: vec![1, 2] })
    );
}

#[test]
fn errors_read_as_sentences() {
    assert_eq!(
        DagError::Cycle { cycle: vec![1, 2] }.to_string(),
        "dependency cycle: 1 -> 2 -> 1"
    );
    assert_eq!(
        DagError::Line {
            line: 4,
            message: "oops".into()
        }
        .to_string(),
        "line 4: oops"
    );
}

#[test]
fn crlf_line_endings_are_accepted() {
    let (dag, names) = parse_dag_file("a:\r\nb: a\r\n").unwrap();
    assert_eq!(names, ["a", "b"]);
    assert_eq!(dag.dependencies(1), [0]);
}
