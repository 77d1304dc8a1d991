//! Scheduling algorithms that work on any DAG, not only the graphs tensors produce:
//! a memory-frugal execution order (`priority`), the initial worker assignment of the
//! Mars design (`assign`), and the `.dag` text format `marsc order` reads.
//!
//! Everything here speaks in plain node indices (`u32`, `0..dag.len()`) over a
//! [`Dag`], so the same passes can later be applied to the SubtaskGraph by building a
//! `Dag` from its edges and reading the results back by index.

pub mod assign;
mod buckets;
pub mod dag;
mod dag_file;
mod order_report;
pub mod priority;
mod section;
pub mod shapes;
mod shuffle;
mod walk;

#[cfg(test)]
mod tests;

pub use assign::{assign_workers, transfer_bytes, InitialAssignment};
pub use dag::{parse_dag_file, Dag, DagError};
pub use order_report::{order_report, render_dag_error};
pub use priority::{bfs_order, max_live_results, order};
