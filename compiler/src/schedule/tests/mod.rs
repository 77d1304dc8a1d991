//! Tests of the scheduling passes: the `.dag` format and the DAG builder, the
//! priority order's memory on the shapes it is judged on (including graphs from the
//! `dask.order` test suite, rebuilt here by shape: which of dask's properties hold is
//! tabled in README.md), and worker assignment.

mod assign;
mod dag;
mod dask_graphs;
mod dask_shapes;
mod evaluate;
mod optimal;
mod priority;
