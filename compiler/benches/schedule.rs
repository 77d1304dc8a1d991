//! How long the scheduling passes take on million-node graphs: the priority order
//! (with its breadth-first comparison), the memory walk alone, and the initial worker
//! assignment. Divide by the node count for the per-node figure (target: under 1 µs).
//!
//! Run with `cargo bench -p marsc --bench schedule`.

use marsc::schedule::assign::{assign_workers, InitialAssignment};
use marsc::schedule::priority::{bfs_order, max_live_results, order};
use marsc::schedule::shapes::{independent_chains, relabeled, tree_reduction};
use marsc::schedule::Dag;

fn main() {
    divan::main();
}

/// A fan-in-2 tree reduction of 1,000,000 nodes (500,000 leaves), numbered randomly.
fn tree_1m() -> Dag {
    relabeled(&tree_reduction(500_000, 2), 1).0
}

/// 100,000 independent chains of 10 nodes: 1,000,000 nodes, numbered randomly.
fn chains_1m() -> Dag {
    relabeled(&independent_chains(100_000, 10), 2).0
}

#[divan::bench(sample_count = 10)]
fn order_tree_1m_natural_numbering(bencher: divan::Bencher) {
    let dag = tree_reduction(500_000, 2);
    bencher.bench(|| order(divan::black_box(&dag), None));
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
