//! Snapshot tests of `marsc order` over `tests/cases/order/`: every `ok/*.dag` file is
//! ordered and its report pinned (`PRIORITY NAME` lines in execution order, then
//! `max_live_results N`); every `err/*.dag` file must be rejected and its one-line
//! error, naming the line, is pinned. Review new snapshots with `cargo insta review`.

use marsc::schedule::{order_report, render_dag_error};
use marsc_tests::display_name;
use std::path::Path;

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).expect("readable case")
}

#[test]
fn order_ok() {
    insta::glob!("cases/order/ok/*.dag", |path| {
        let report = order_report(&read(path))
            .unwrap_or_else(|error| panic!("{} should order: {error}", path.display()));
        insta::assert_snapshot!(report);
    });
}

#[test]
fn order_err() {
    insta::glob!("cases/order/err/*.dag", |path| {
        match order_report(&read(path)) {
            Ok(report) => panic!("{} should be rejected, got:\n{report}", path.display()),
            Err(error) => insta::assert_snapshot!(render_dag_error(&display_name(path), &error)),
        }
    });
}
