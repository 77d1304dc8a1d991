//! How long the scheduling passes take on million-node graphs: the priority order
//! (which includes its breadth-first comparison) and the initial worker assignment.
//! Divide by the node count for the per-node figure (target: under 1 µs).
//!
//! Graphs come numbered as the compiler numbers them (topological creation order,
//! neighbours close together), and also randomly renumbered: the worst case for the
//! caches, since every step then touches memory far from the last.
//!
//! Run with `cargo bench -p marsc-compiler --bench schedule`.

use marsc::schedule::assign::{assign_workers, InitialAssignment};
use marsc::schedule::priority::{bfs_order, max_live_results, order};
use marsc::schedule::shapes::{independent_chains, relabeled, tree_reduction};
use marsc::schedule::Dag;

fn main() {
    divan::main();
}

/// A fan-in-2 tree reduction of 999,999 nodes (500,000 leaves).
fn tree_1m() -> Dag {
    tree_reduction(500_000, 2)
}

/// 100,000 independent chains of 10 nodes: 1,000,000 nodes.
fn chains_1m() -> Dag {
    independent_chains(100_000, 10)
}

fn shuffled(dag: Dag) -> Dag {
    relabeled(&dag, 1).0
}

#[divan::bench(sample_count = 10)]
fn order_tree_1m(bencher: divan::Bencher) {
    let dag = tree_1m();
    bencher.bench(|| order(divan::black_box(&dag), None));
}

#[divan::bench(sample_count = 10)]
fn order_chains_1m(bencher: divan::Bencher) {
    let dag = chains_1m();
    bencher.bench(|| order(divan::black_box(&dag), None));
}

#[divan::bench(sample_count = 5)]
fn order_tree_1m_shuffled(bencher: divan::Bencher) {
    let dag = shuffled(tree_1m());
    bencher.bench(|| order(divan::black_box(&dag), None));
}

#[divan::bench(sample_count = 5)]
fn order_chains_1m_shuffled(bencher: divan::Bencher) {
    let dag = shuffled(chains_1m());
    bencher.bench(|| order(divan::black_box(&dag), None));
}

/// The breadth-first order and one `max_live_results`: a floor for comparison.
#[divan::bench(sample_count = 10)]
fn bfs_order_and_live_tree_1m(bencher: divan::Bencher) {
    let dag = tree_1m();
    bencher.bench(|| {
        let priority = bfs_order(divan::black_box(&dag));
        max_live_results(&dag, &priority)
    });
}

#[divan::bench(sample_count = 10)]
fn assign_bfs_tree_1m_4_workers(bencher: divan::Bencher) {
    let dag = tree_1m();
    let sizes = vec![1u64 << 20; dag.len()];
    bencher.bench(|| assign_workers(divan::black_box(&dag), &sizes, 4, InitialAssignment::Bfs));
}

#[divan::bench(sample_count = 10)]
fn assign_bfs_chains_1m_4_workers(bencher: divan::Bencher) {
    let dag = chains_1m();
    let sizes = vec![1u64 << 20; dag.len()];
    bencher.bench(|| assign_workers(divan::black_box(&dag), &sizes, 4, InitialAssignment::Bfs));
}
