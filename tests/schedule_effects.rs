//! What the scheduling passes buy, measured on real runs (issue 5's "done when"):
//! - on 2 workers, the Mars breadth-first assignment moves fewer bytes between
//!   workers than a random one;
//! - the memory-frugal priority order holds fewer chunk results at once than a
//!   breadth-first order on a tree reduction;
//! - and neither switch changes a printed value.

mod run_support;

use marsc::driver::Options;
use marsc::run::RunStats;
use marsc::subtask::{AssignPolicy, OrderPolicy};
use run_support::{options, run_script};

/// Two random inputs, each read by two subtasks per chunk (so they stay their own
/// subtasks), combined chunk by chunk: where an input chunk lands decides whether
/// the product must fetch it from the other worker.
const PAIRED_INPUTS: &str = "\
import mars.tensor as mt
a = mt.random.rand(64 * 1024, chunks=1024)
b = mt.random.rand(64 * 1024, chunks=1024)
print((a * b).sum())
print(a.sum() + b.sum())
";

/// A 64-leaf reduction tree. The chunks are large enough (256 KiB) that each
/// subtask takes a while, so the executor keeps its worker queues short and the
/// order decides what is alive; with tiny chunks it queues hundreds of subtasks per
/// worker and any order degenerates to breadth-first (cheaply: tiny chunks).
const TREE_REDUCTION: &str = "\
import mars.tensor as mt
x = mt.arange(64 * 32768, chunks=32768)
print((x * 2).sum())
";

fn run_with(script: &str, assign: AssignPolicy, order: OrderPolicy) -> (String, RunStats) {
    let options = Options {
        assign,
        order,
        ..options()
    };
    run_script(script, &options, 2).unwrap_or_else(|error| panic!("the script failed:\n{error}"))
}

#[test]
fn bfs_assignment_moves_fewer_bytes_than_random() {
    let (bfs_output, bfs) = run_with(PAIRED_INPUTS, AssignPolicy::Bfs, OrderPolicy::Priority);
    let (random_output, random) =
        run_with(PAIRED_INPUTS, AssignPolicy::Random, OrderPolicy::Priority);
    assert_eq!(bfs_output, random_output);
    assert!(
        bfs.exec.transfer_bytes < random.exec.transfer_bytes,
        "bfs moved {} bytes, random {}",
        bfs.exec.transfer_bytes,
        random.exec.transfer_bytes
    );
    // Round-robin deals neighbours apart too; it must still give the same values.
    let (round_robin_output, _) = run_with(
        PAIRED_INPUTS,
        AssignPolicy::RoundRobin,
        OrderPolicy::Priority,
    );
    assert_eq!(bfs_output, round_robin_output);
}

#[test]
fn priority_order_holds_fewer_live_chunks_than_bfs_order() {
    let (priority_output, priority) =
        run_with(TREE_REDUCTION, AssignPolicy::Bfs, OrderPolicy::Priority);
    let (bfs_output, bfs) = run_with(TREE_REDUCTION, AssignPolicy::Bfs, OrderPolicy::Bfs);
    assert_eq!(priority_output, bfs_output);
    assert_eq!(priority_output, "4398044413952\n");
    assert!(
        priority.exec.peak_live_chunks < bfs.exec.peak_live_chunks,
        "priority held {} chunks at once, bfs {}",
        priority.exec.peak_live_chunks,
        bfs.exec.peak_live_chunks
    );
}
