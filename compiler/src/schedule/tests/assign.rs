//! Worker assignment: balanced shares, locality on a tree reduction (BFS moves fewer
//! bytes than round-robin or random), placement by input bytes, and broadcasters.

use crate::schedule::assign::{
    assign_workers, broadcaster_threshold, initial_nodes, transfer_bytes, InitialAssignment,
};
use crate::schedule::dag::{parse_dag_file, Dag};
use crate::schedule::shapes::{block_matmul, map_then_reduce, relabeled, tree_reduction};

const POLICIES: [InitialAssignment; 3] = [
    InitialAssignment::Bfs,
    InitialAssignment::RoundRobin,
    InitialAssignment::Random { seed: 7 },
];

/// How many initial nodes (reading nothing but broadcasters) each worker got.
fn initial_counts(dag: &Dag, assignment: &[u32], workers: usize) -> Vec<usize> {
    let initial = initial_nodes(dag, workers);
    let mut counts = vec![0; workers];
    for node in dag.nodes().filter(|&n| initial[n as usize]) {
        counts[assignment[node as usize] as usize] += 1;
    }
    counts
}

#[test]
fn every_policy_balances_initial_nodes_within_one() {
    let shapes = [
        tree_reduction(1_000, 2),
        map_then_reduce(37, 4),
        block_matmul(5),
    ];
    for dag in &shapes {
        let sizes = vec![8; dag.len()];
        for workers in [1, 2, 3, 4, 7] {
            for policy in POLICIES {
                let assignment = assign_workers(dag, &sizes, workers, policy);
                assert!(assignment.iter().all(|&w| (w as usize) < workers));
                let counts = initial_counts(dag, &assignment, workers);
                let (least, most) = (counts.iter().min().unwrap(), counts.iter().max().unwrap());
                assert!(
                    most - least <= 1,
                    "{policy:?} on {workers} workers: {counts:?}"
                );
            }
        }
    }
}

#[test]
fn bfs_splits_the_seed_tree_reduction_into_halves_and_quarters() {
    // 8 leaves summed pairwise: on 2 workers each takes a half, on 4 a quarter, so only
    // the partial sums that cross halves move.
    let dag = tree_reduction(8, 2);
    let sizes = vec![100; dag.len()];
    let halves = assign_workers(&dag, &sizes, 2, InitialAssignment::Bfs);
    assert_eq!(&halves[..8], [0, 0, 0, 0, 1, 1, 1, 1]);
    assert_eq!(transfer_bytes(&dag, &sizes, &halves), 100);
    let quarters = assign_workers(&dag, &sizes, 4, InitialAssignment::Bfs);
    assert_eq!(&quarters[..8], [0, 0, 1, 1, 2, 2, 3, 3]);
    assert_eq!(transfer_bytes(&dag, &sizes, &quarters), 300);
    // Round-robin splits every pair: each of the 7 sums reads one input remotely.
    let round_robin = assign_workers(&dag, &sizes, 2, InitialAssignment::RoundRobin);
    assert_eq!(transfer_bytes(&dag, &sizes, &round_robin), 700);
}

#[test]
fn bfs_moves_fewer_bytes_than_random_on_tree_reductions() {
    for (leaves, fan_in) in [(1_000, 2), (4_096, 4), (10_000, 2)] {
        let (dag, _) = relabeled(&tree_reduction(leaves, fan_in), leaves as u64);
        let sizes = vec![1 << 20; dag.len()];
        let bfs = transfer_bytes(
            &dag,
            &sizes,
            &assign_workers(&dag, &sizes, 2, InitialAssignment::Bfs),
        );
        for seed in 0..5 {
            let random = assign_workers(&dag, &sizes, 2, InitialAssignment::Random { seed });
            let random = transfer_bytes(&dag, &sizes, &random);
            // Random leaves make about a quarter of the pairs straddle workers; BFS
            // regions only meet along one path to the root.
            assert!(
                bfs * 20 < random,
                "{leaves} leaves: bfs {bfs} vs random {random}"
            );
        }
        let round_robin = assign_workers(&dag, &sizes, 2, InitialAssignment::RoundRobin);
        assert!(bfs < transfer_bytes(&dag, &sizes, &round_robin));
    }
}

#[test]
fn a_reader_goes_where_most_of_its_input_bytes_are() {
    let (dag, _) = parse_dag_file("a:\nb:\nc: a b\n").unwrap();
    for (sizes, expected) in [([10, 100, 1], 1), ([100, 10, 1], 0)] {
        let assignment = assign_workers(&dag, &sizes, 2, InitialAssignment::RoundRobin);
        assert_eq!(assignment[..2], [0, 1]);
        assert_eq!(assignment[2], expected);
    }
}

#[test]
fn readers_of_a_broadcaster_follow_their_other_inputs() {
    // r is read by 8 nodes, more than the threshold on 2 workers, so its large size
    // does not pull every reader onto its worker.
    assert_eq!(broadcaster_threshold(2), 4);
    let mut text = String::from("r:\n");
    for i in 0..8 {
        text += &format!("leaf{i}:\nread{i}: r leaf{i}\n");
    }
    let (dag, names) = parse_dag_file(&text).unwrap();
    let sizes: Vec<u64> = names
        .iter()
        .map(|n| if n == "r" { 1_000 } else { 10 })
        .collect();
    let assignment = assign_workers(&dag, &sizes, 2, InitialAssignment::RoundRobin);
    for i in 0..8 {
        let at = |name: String| assignment[names.iter().position(|n| *n == name).unwrap()];
        assert_eq!(at(format!("read{i}")), at(format!("leaf{i}")), "read{i}");
    }
    let per_worker = (0..2).map(|w| assignment.iter().filter(|&&a| a == w).count());
    assert!(
        per_worker.clone().min() >= Some(8),
        "{:?}",
        per_worker.collect::<Vec<_>>()
    );
}

#[test]
fn readers_with_only_broadcast_inputs_spread_out() {
    let mut text = String::from("r:\n");
    for i in 0..8 {
        text += &format!("read{i}: r\n");
    }
    let (dag, _) = parse_dag_file(&text).unwrap();
    let assignment = assign_workers(&dag, &[64; 9], 2, InitialAssignment::Bfs);
    let on_first = assignment[1..].iter().filter(|&&w| w == 0).count();
    // The readers read nothing but the broadcaster, so they are initial nodes: the
    // walk gives each worker a share of neighbours (read0-3, then read4-7), rather
    // than dealing them out alternately, and r goes to the less loaded worker.
    assert_eq!(on_first, 4, "{assignment:?}");
    assert_eq!(&assignment[1..], &[0, 0, 0, 0, 1, 1, 1, 1]);
}

#[test]
fn chunks_that_read_only_a_broadcast_scalar_keep_their_reduction_local() {
    // `(ones(8, chunks=1) + 1).sum()` fused: eight leaves read the scalar `one`
    // (a broadcaster), combines of four sum them. Before, the leaves were placed by
    // input bytes (none: a broadcaster counts zero) and alternated between workers,
    // so each combine fetched two of its four inputs from the other worker.
    let mut text = String::from("one:\n");
    for i in 0..8 {
        text += &format!("leaf{i}: one\n");
    }
    text += "sum0: leaf0 leaf1 leaf2 leaf3\nsum1: leaf4 leaf5 leaf6 leaf7\ntotal: sum0 sum1\n";
    let (dag, names) = parse_dag_file(&text).unwrap();
    let sizes = vec![8; dag.len()];
    let assignment = assign_workers(&dag, &sizes, 2, InitialAssignment::Bfs);
    let at = |name: &str| assignment[names.iter().position(|n| n == name).unwrap()];
    for i in 0..4 {
        assert_eq!(
            at(&format!("leaf{i}")),
            at("sum0"),
            "leaf{i}: {assignment:?}"
        );
        assert_eq!(at(&format!("leaf{}", i + 4)), at("sum1"), "leaf{}", i + 4);
    }
    assert_ne!(at("sum0"), at("sum1"));
    // Only the broadcast scalar and one partial sum cross between workers.
    assert_eq!(transfer_bytes(&dag, &sizes, &assignment), 8 * 5);
}

#[test]
fn transfer_bytes_counts_each_cross_worker_edge() {
    let (dag, _) = parse_dag_file("a:\nb: a\nc: a\nd: b c\n").unwrap();
    let sizes = [1, 10, 100, 1000];
    assert_eq!(transfer_bytes(&dag, &sizes, &[0, 0, 0, 0]), 0);
    assert_eq!(
        transfer_bytes(&dag, &sizes, &[0, 1, 1, 0]),
        1 + 1 + 10 + 100
    );
}

#[test]
fn random_assignment_depends_only_on_its_seed() {
    let dag = tree_reduction(64, 2);
    let sizes = vec![1; dag.len()];
    let draw = |seed| assign_workers(&dag, &sizes, 3, InitialAssignment::Random { seed });
    assert_eq!(draw(5), draw(5));
    assert_ne!(draw(5), draw(6));
}

#[test]
fn degenerate_inputs_do_not_panic() {
    let empty = Dag::from_edges(0, &[]).unwrap();
    assert!(assign_workers(&empty, &[], 4, InitialAssignment::Bfs).is_empty());
    let dag = tree_reduction(5, 2);
    // No workers means one; missing sizes count as zero.
    assert!(assign_workers(&dag, &[], 0, InitialAssignment::Bfs)
        .iter()
        .all(|&w| w == 0));
    assert_eq!(transfer_bytes(&dag, &[], &[]), 0);
}

/// `(a * 2 + b).sum()` without fusion: `a_i` and `b_i` (initial, in that order), the
/// scalar `2` (initial, read by every multiply), `m_i = a_i * 2`, `p_i = m_i + b_i`,
/// `r_i` the 8-byte partial sum of `p_i`, then a tree reduction of the `r_i` with
/// fan-in 4. Returns the DAG and its sizes (1 MB chunks).
fn scaled_sum_unfused(pairs: usize) -> (Dag, Vec<u64>) {
    let mut text = String::new();
    for i in 0..pairs {
        text += &format!("a{i}:\n");
    }
    for i in 0..pairs {
        text += &format!("b{i}:\n");
    }
    text += "two:\n";
    let mut level: Vec<String> = (0..pairs)
        .map(|i| {
            text += &format!("m{i}: a{i} two\np{i}: m{i} b{i}\nr{i}: p{i}\n");
            format!("r{i}")
        })
        .collect();
    let mut depth = 0;
    while level.len() > 1 {
        level = level
            .chunks(4)
            .enumerate()
            .map(|(j, group)| {
                let name = format!("s{depth}_{j}");
                text += &format!("{name}: {}\n", group.join(" "));
                name
            })
            .collect();
        depth += 1;
    }
    let (dag, names) = parse_dag_file(&text).unwrap();
    let sizes = names
        .iter()
        .map(|name| match name.as_bytes()[0] {
            b't' | b'r' | b's' => 8,
            _ => 1 << 20,
        })
        .collect();
    (dag, sizes)
}

#[test]
fn bfs_does_not_walk_through_a_broadcaster() {
    // Walking through `2` used to give one worker a_0..a_k while b_0 went to the
    // worker after the last a: every b_i then moved (4 GB at 4,000 pairs of 1 MB).
    // Now the walk meets a_i, b_i pairs and moves no more than round-robin, which
    // keeps a_i and b_i together when the pair count is a multiple of the workers.
    for (pairs, workers) in [(200, 10), (400, 100), (64, 4)] {
        let (dag, sizes) = scaled_sum_unfused(pairs);
        assert!(dag.dependents(2 * pairs as u32).len() > broadcaster_threshold(workers));
        let moved =
            |policy| transfer_bytes(&dag, &sizes, &assign_workers(&dag, &sizes, workers, policy));
        let (bfs, round_robin) = (
            moved(InitialAssignment::Bfs),
            moved(InitialAssignment::RoundRobin),
        );
        assert!(
            bfs <= round_robin,
            "{pairs} pairs on {workers} workers: bfs {bfs} vs round-robin {round_robin}"
        );
        // At most a few pairs straddle each boundary between workers' regions.
        assert!(bfs < (workers as u64 * 4) << 20, "{pairs} pairs: bfs {bfs}");
    }
}
