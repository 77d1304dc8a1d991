//! Graph shapes from the `dask.order` test suite (dask/tests/test_order.py), rebuilt
//! from their descriptions in the `.dag` format. Our contract does not count final
//! results as held; neither does dask's `diagnostics` pressure, which its tests bound,
//! so those bounds carry over as `max_live_results`. The checks are dask's structural
//! preferences and pressure bounds, plus live results against the exact optimum; a
//! property that does not hold is an ignored test saying why (table in README.md).
//! Every graph is checked as written and with its lines reversed, which flips every
//! tie broken by node index, so the order must come from the structure.

use super::optimal::optimal_max_live;
use crate::schedule::dag::{parse_dag_file, Dag};
use crate::schedule::priority::{bfs_order, max_live_results, order};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};

pub(super) struct Case {
    pub(super) dag: Dag,
    pub(super) index: HashMap<String, u32>,
    pub(super) priority: Vec<u32>,
}

impl Case {
    pub(super) fn at(&self, name: &str) -> i64 {
        i64::from(self.priority[self.index[name] as usize])
    }

    pub(super) fn live(&self) -> usize {
        max_live_results(&self.dag, &self.priority)
    }

    /// The node names in run order.
    pub(super) fn sequence(&self) -> Vec<&str> {
        let mut names: Vec<(&String, &u32)> = self.index.iter().collect();
        names.sort_by_key(|(_, &node)| self.priority[node as usize]);
        names.into_iter().map(|(name, _)| name.as_str()).collect()
    }
}

/// The graph as written and with its lines reversed, each with its order. With
/// `DUMP_DAGS=DIR` set, each graph is also written to `DIR/TEST-N.dag` with our peaks
/// in a first comment line, so the figures against dask.order can be made from them.
pub(super) fn both_ways(text: &str) -> [Case; 2] {
    let reversed: String = text.lines().rev().map(|line| format!("{line}\n")).collect();
    let cases = [text.to_string(), reversed].map(|text| {
        let (dag, names) = parse_dag_file(&text).unwrap();
        let priority = order(&dag, None);
        let index = names.into_iter().zip(0..).collect();
        Case {
            dag,
            index,
            priority,
        }
    });
    if let Some(dir) = std::env::var_os("DUMP_DAGS") {
        static DUMPED: AtomicUsize = AtomicUsize::new(0);
        let test = std::thread::current()
            .name()
            .unwrap_or("graph")
            .rsplit("::")
            .next()
            .unwrap_or("graph")
            .to_string();
        let path = std::path::Path::new(&dir).join(format!(
            "{test}-{}.dag",
            DUMPED.fetch_add(1, Ordering::Relaxed)
        ));
        let header = format!("# marsc {} {}\n", cases[0].live(), cases[1].live());
        std::fs::write(path, header + text).unwrap();
    }
    cases
}

pub(super) fn assert_optimal(case: &Case) {
    assert_eq!(
        case.live(),
        optimal_max_live(&case.dag),
        "{:?}",
        case.priority
    );
}

#[test]
fn keeps_groups_together() {
    for text in [
        "a0:\na1:\na2:\na3:\nb0: a0 a1\nb1: a2 a3\n",
        "a0:\na1:\na2:\na3:\nb0: a0 a2\nb1: a1 a3\n",
    ] {
        for case in both_ways(text) {
            let (first, second) = if text.contains("b0: a0 a1") {
                ("a1", "a2")
            } else {
                ("a2", "a1")
            };
            assert_eq!((case.at("a0") - case.at(first)).abs(), 1);
            assert_eq!((case.at(second) - case.at("a3")).abs(), 1);
            assert_optimal(&case);
        }
    }
}

#[test]
fn finishes_a_branch_around_a_broker_node() {
    for case in both_ways("a0:\na1:\nb0: a0\nb1: a1\nb2: a1\n") {
        // Whichever root runs first, its branch finishes before the other root loads.
        assert!(
            case.at("a1") < case.at("b0")
                || case.at("b1") < case.at("a0") && case.at("b2") < case.at("a0")
        );
        assert_optimal(&case);
    }
}

#[test]
fn base_of_reduce_preferred() {
    // A chain a0 <- a1 <- a2 <- a3 where each a_i also reads b_i, all b_i reading c.
    let text = "c:\nb0: c\nb1: c\nb2: c\nb3: c\na0: b0\na1: a0 b1\na2: a1 b2\na3: a2 b3\n";
    for case in both_ways(text) {
        assert!(case.at("b0") <= 1);
        assert!(case.at("b1") <= 3);
        assert_optimal(&case);
    }
}

#[test]
fn avoid_upwards_branching() {
    let text = "a1: a2\na2: a3\na3: b1 c1\nb1: b2\nc1: c2\nc2: c3\nd1: c1\nc3:\nb2:\n";
    for case in both_ways(text) {
        assert!(case.at("d1") < case.at("b1"));
        assert_optimal(&case);
    }
}

#[test]
fn avoid_upwards_branching_complex() {
    let text = "a1: a2\na2: a3\na3: b1 c1\nb1: b2\nb2:\nc1: c2\nc2: c3\nc3:\n\
                d1: c1\nd2: d1\nd3: d1\ne1: b1\ne2: e1\n";
    for case in both_ways(text) {
        assert!(case.at("c1") < case.at("b1"));
        assert_eq!((case.at("d2") - case.at("d3")).abs(), 1);
        assert_optimal(&case);
    }
}

#[test]
fn deep_bases_win_over_dependents() {
    for case in both_ways("a: b c d\nb: d e\nc: d\nd:\ne:\n") {
        assert!(case.at("b") < case.at("c"));
        assert_optimal(&case);
    }
}

#[test]
fn prefer_deep() {
    for case in both_ways("a:\nb: a\nc: b\nd:\ne: d\n") {
        assert!(case.at("a") < case.at("d") && case.at("b") < case.at("d"));
    }
}

#[test]
fn favor_longest_critical_path_unless_memory_says_otherwise() {
    // Dask runs b (the long path) before the short final results d and e. Under our
    // contract final results hold nothing, so running d and e while c is live lets c
    // go as soon as b runs: 1 live result instead of 2. Memory comes first.
    for case in both_ways("c:\nd: c\ne: c\nb: c\na: b\n") {
        assert_eq!(case.live(), 1);
        assert!(case.at("d") < case.at("a") && case.at("e") < case.at("a"));
    }
    // When memory does not decide, the longer path goes first.
    for case in both_ways("c3:\nc2: c3\nc1: c2\nd2:\nd1: d2\na: d1 c1\n") {
        assert!(case.at("c1") < case.at("d2"), "{:?}", case.priority);
        assert_optimal(&case);
    }
}

#[test]
#[ignore = "dask property favor_longest_critical_path does not hold: running b before the \
            final results d and e holds c and b together (peak 2 instead of 1); memory wins"]
fn favor_longest_critical_path() {
    for case in both_ways("c:\nd: c\ne: c\nb: c\na: b\n") {
        assert!(case.at("d") > case.at("b") && case.at("e") > case.at("b"));
    }
}

#[test]
fn run_smaller_sections() {
    let text = "a:\nc:\ne:\ncc:\nb: a c\nd: c e\nbb: cc\naa: d bb\ndd: cc\n";
    for case in both_ways(text) {
        // Dask pins its own peak, 3, and calls it optimal; without holding final
        // results the optimum is 2 (run dd before bb so cc goes at once).
        assert!(case.live() <= 3);
        assert_optimal(&case);
    }
}

#[test]
fn local_parents_of_reduction() {
    let text = "a3:\na2: a3\na1: a2\nb3:\nb2: b3 a2\nb1: b2\nc3:\nc2: c3 b2\nc1: c2\n";
    for case in both_ways(text) {
        let sequence: Vec<&str> = {
            let mut names: Vec<(&String, &u32)> = case.index.iter().collect();
            names.sort_by_key(|(_, &node)| case.priority[node as usize]);
            names.into_iter().map(|(name, _)| name.as_str()).collect()
        };
        assert_eq!(
            sequence,
            ["a3", "a2", "a1", "b3", "b2", "b1", "c3", "c2", "c1"]
        );
    }
}

#[test]
fn nearest_neighbor() {
    // Nine readers over four roots, neighbours sharing a root.
    let text = "b1:\nb2:\nb3:\nb4:\na1: b1\na2: b1\na3: b1 b2\na4: b2\na5: b2 b3\n\
                a6: b3\na7: b3 b4\na8: b4\na9: b4\n";
    for case in both_ways(text) {
        let half = case.dag.len() as i64 / 2;
        let early_a = (1..=9).filter(|i| case.at(&format!("a{i}")) < half).count();
        let early_b = (1..=4).filter(|i| case.at(&format!("b{i}")) < half).count();
        assert!(3 < early_a && early_a < 7, "{early_a}");
        assert!(1 < early_b && early_b < 4, "{early_b}");
        assert_optimal(&case);
    }
}

#[test]
fn prefer_short_narrow_and_short_ancestor() {
    let narrow = "a0:\nb0:\nc0:\nc1: c0 a0 b0\na1:\nb1:\nc2: c1 a1 b1\n";
    for case in both_ways(narrow) {
        assert!(case.at("b0") < case.at("b1") && case.at("b0") < case.at("c2"));
        assert!(case.at("c1") < case.at("c2"));
        assert_optimal(&case);
    }
    let ancestor = "ab:\na0: ab\nb0: ab\nc0:\nc1: c0 a0 b0\na1: ab\nb1: ab\nc2: c1 a1 b1\n";
    for case in both_ways(ancestor) {
        assert!(case.at("a0") < case.at("a1") && case.at("b0") < case.at("b1"));
        assert!(case.at("c1") < case.at("c2") && case.at("c1") < case.at("a1"));
        assert_optimal(&case);
    }
}

#[test]
fn map_overlap() {
    let text = "e1:\nd1: e1\nc1: d1\nb1: c1 c2\nd2:\nc2: d1 d2 d3\ne3:\nd3: e3\nc3: d3\n\
                b3: c2 c3 c4\nd4:\nc4: d3 d4 d5\ne5:\nd5: e5\nc5: d5\nb5: c4 c5\n";
    for case in both_ways(text) {
        assert!(case.at("b1") < case.at("e5") || case.at("b5") < case.at("e1"));
        assert_optimal(&case);
    }
}

/// Ten roots, ten readers of three roots each, wired in a ring by a scrambled
/// numbering: a good order alternates roots and readers.
fn structure_not_keys_text() -> String {
    let readers = [
        (5, [2, 2, 2]),
        (7, [0, 2, 2]),
        (9, [7, 0, 2]),
        (1, [4, 7, 0]),
        (2, [9, 4, 7]),
        (4, [6, 9, 4]),
        (3, [5, 6, 9]),
        (8, [1, 5, 6]),
        (6, [8, 1, 5]),
        (0, [3, 8, 1]),
    ];
    let mut text: String = (0..10).map(|i| format!("a{i}:\n")).collect();
    for (reader, inputs) in readers {
        let mut names: Vec<String> = inputs.iter().map(|i| format!("a{i}")).collect();
        names.dedup();
        text += &format!("b{reader}: {}\n", names.join(" "));
    }
    text
}

#[test]
fn use_structure_not_keys() {
    for case in both_ways(&structure_not_keys_text()) {
        assert_eq!(case.live(), 3);
        assert_optimal(&case);
    }
}

#[test]
#[ignore = "dask property does not hold: the walk starts from the most demanding reader, \
            loading two roots before the first reader (peak 3 either way)"]
fn use_structure_not_keys_alternates() {
    for case in both_ways(&structure_not_keys_text()) {
        // Dask's exact pattern: roots and readers alternate, the first reader at 1 or
        // 3 (after one or two roots).
        let sorted = |letter: char| {
            let mut at: Vec<i64> = (0..10).map(|i| case.at(&format!("{letter}{i}"))).collect();
            at.sort_unstable();
            at
        };
        let (a, b) = (sorted('a'), sorted('b'));
        let odd: Vec<i64> = (0..10).map(|i| 2 * i + 1).collect();
        let even: Vec<i64> = (0..10).map(|i| 2 * i).collect();
        if b[0] == 3 {
            assert_eq!(a, [0, 1, 2, 4, 6, 8, 10, 12, 14, 16]);
            assert_eq!(b, [3, 5, 7, 9, 11, 13, 15, 17, 18, 19]);
        } else {
            assert_eq!((a, b), (even, odd));
        }
    }
}

#[test]
fn dont_run_all_dependents_too_early() {
    let mut text = String::from("a0:\nb0:\nc0:\nd0: a0 b0 c0\n");
    for i in 1..10 {
        text += &format!("b{i}: b0\nc{i}: c0\nd{i}: d{} b{i} c{i}\n", i - 1);
    }
    // Dask's ideal runs d_i at 3i + 3: each step loads just the b and c it needs.
    let ideal: Vec<u32> = {
        let (dag, names) = parse_dag_file(&text).unwrap();
        let mut sequence = vec!["a0".to_string(), "b0".into(), "c0".into(), "d0".into()];
        for i in 1..10 {
            sequence.extend([format!("b{i}"), format!("c{i}"), format!("d{i}")]);
        }
        let mut priority = vec![0; dag.len()];
        for (at, name) in sequence.iter().enumerate() {
            priority[names.iter().position(|n| n == name).unwrap()] = at as u32;
        }
        priority
    };
    for case in both_ways(&text) {
        for i in 0..10 {
            let at = case.at(&format!("d{i}"));
            assert!((at - (3 * i + 3)).abs() <= 1, "d{i} at {at}");
        }
        let (ideal_dag, _) = parse_dag_file(&text).unwrap();
        assert!(case.live() <= max_live_results(&ideal_dag, &ideal));
    }
}

#[test]
#[ignore = "dask property does not hold exactly: b9 (the last reader of b0) runs early \
            because it frees as much as it creates, so d8 is one step late"]
fn dont_run_all_dependents_too_early_exactly() {
    // Dask's exact positions: d_i at 3i + 3.
    let mut text = String::from("a0:\nb0:\nc0:\nd0: a0 b0 c0\n");
    for i in 1..10 {
        text += &format!("b{i}: b0\nc{i}: c0\nd{i}: d{} b{i} c{i}\n", i - 1);
    }
    for case in both_ways(&text) {
        let at: Vec<i64> = (0..10).map(|i| case.at(&format!("d{i}"))).collect();
        assert_eq!(at, (0..10).map(|i| 3 * i + 3).collect::<Vec<i64>>());
    }
}

#[test]
fn many_branches_use_ndependencies() {
    let text = "a0:\na1: a0\na2: a1\nb1: a0\nb2: b1\nc1: a0\nd1: a0\nd2: d1\ndd1: a0\n\
                dd2: dd1\ndd3: d2 dd2\ne1: a0\ne2: e1\nee1: a0\nee2: ee1\nee3: e2 ee2\n\
                a3: a2 b2 c1 dd3 ee3\n";
    for case in both_ways(text) {
        let mut wide: Vec<i64> = [
            "d1", "d2", "dd1", "dd2", "dd3", "e1", "e2", "ee1", "ee2", "ee3",
        ]
        .iter()
        .map(|name| case.at(name))
        .collect();
        wide.sort_unstable();
        assert_eq!(wide, (1..=10).collect::<Vec<i64>>());
        assert_eq!(case.at("c1"), case.at("a3") - 1);
        assert_optimal(&case);
    }
}

#[test]
fn terminal_node_backtrack() {
    // Two halves joined only by the final node; a1 and a4 are shared inside a half.
    let text = "a0:\na1:\na2:\nb0: a0 a1\nb1: a1 a2\ns00: b0\ns10: b1\n\
                a3:\na4:\na5:\nb2: a3 a4\nb3: a4 a5\ns01: b2\ns11: b3\n\
                s: s00 s10 s01 s11\n";
    for case in both_ways(text) {
        let left_last = ["a0", "a1", "a2"]
            .map(|n| case.at(n))
            .into_iter()
            .max()
            .unwrap();
        let right_first = ["a3", "a4", "a5"]
            .map(|n| case.at(n))
            .into_iter()
            .min()
            .unwrap();
        let right_last = ["a3", "a4", "a5"]
            .map(|n| case.at(n))
            .into_iter()
            .max()
            .unwrap();
        let left_first = ["a0", "a1", "a2"]
            .map(|n| case.at(n))
            .into_iter()
            .min()
            .unwrap();
        assert!(left_last < right_first || right_last < left_first);
        assert_optimal(&case);
    }
}

/// Three shared roots, four reducers each reading one mapped copy of every root.
fn flux_reduction_text() -> String {
    let mut text = String::from("a0:\na1:\na2:\n");
    for (i, j) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
        for k in 0..3 {
            text += &format!("b{i}{j}{k}: a{k}\n");
        }
        text += &format!("c{i}{j}: b{i}{j}0 b{i}{j}1 b{i}{j}2\nd{i}{j}: c{i}{j}\n");
    }
    text
}

#[test]
fn order_flux_reduction() {
    for case in both_ways(&flux_reduction_text()) {
        // Optimal: before the first reducer runs it holds its three inputs, and all
        // three roots are still needed by the other reducers.
        assert_eq!(case.live(), 6);
        // Each reducer runs right after its last input.
        for name in ["c00", "c01", "c10", "c11"] {
            let last_input = (0..3)
                .map(|k| case.at(&format!("b{}{k}", &name[1..])))
                .max()
                .unwrap();
            assert_eq!(case.at(name), last_input + 1, "{name}");
        }
    }
}

#[test]
#[ignore = "dask property order_flox_reduction_2 does not hold: the last reader of a \
            shared root runs as soon as it frees the root, pulling the next group's \
            mapped nodes into the current one (final nodes not 5 apart)"]
fn order_flux_reduction_spacing() {
    for case in both_ways(&flux_reduction_text()) {
        // Dask: once the roots are in, each final node follows the previous one after
        // exactly its four private inputs (three mapped copies and the reducer).
        let mut finals: Vec<i64> = ["d00", "d01", "d10", "d11"]
            .iter()
            .map(|name| case.at(name))
            .collect();
        finals.sort_unstable();
        assert!(
            finals.windows(2).all(|pair| pair[1] - pair[0] == 5),
            "{finals:?}"
        );
    }
}

#[test]
fn reduce_with_many_common_dependents() {
    // A grid of blocks, each reading all of a few shared trivial inputs, summed along
    // rows: a reducer's inputs should run back to back. With `keep_self` the blocks
    // are kept as results too, so each block and its chunk sum are two nodes, and the
    // reducer's inputs run every other step.
    for keep_self in [false, true] {
        for (shared, rows) in [(2, 4), (5, 4), (2, 7), (5, 7)] {
            let mut text: String = (0..shared).map(|k| format!("o{k}:\n")).collect();
            let objects: Vec<String> = (0..shared).map(|k| format!("o{k}")).collect();
            let input = |i: usize, j: usize| {
                if keep_self {
                    format!("p{i}_{j}")
                } else {
                    format!("s{i}_{j}")
                }
            };
            for i in 0..rows {
                for j in 0..rows {
                    text += &format!("s{i}_{j}: {}\n", objects.join(" "));
                    if keep_self {
                        text += &format!("p{i}_{j}: s{i}_{j}\n");
                    }
                }
                let inputs: Vec<String> = (0..rows).map(|j| input(i, j)).collect();
                text += &format!("agg{i}: {}\n", inputs.join(" "));
            }
            for case in both_ways(&text) {
                assert!(case.live() <= rows + shared, "{}", case.live());
                for i in 0..rows {
                    let at: Vec<i64> = (0..rows).map(|j| case.at(&input(i, j))).collect();
                    let spread = at.iter().max().unwrap() - at.iter().min().unwrap();
                    let step = if keep_self { 2 } else { 1 };
                    assert_eq!(spread, step * (rows as i64 - 1), "row {i}: {at:?}");
                }
            }
        }
    }
}

#[test]
fn xarray_like_reduction() {
    let mut text = String::new();
    for ix in 0..3 {
        text += &format!(
            "a0_{ix}:\na1_{ix}:\nb0_{ix}: a0_{ix}\nb1_{ix}: a0_{ix} a1_{ix}\nb2_{ix}: a1_{ix}\n\
             c0_{ix}: b0_{ix}\nc1_{ix}: b1_{ix}\nc2_{ix}: b2_{ix}\n"
        );
    }
    for ix in 0..3 {
        text += &format!("d{ix}: c{ix}_0 c{ix}_1 c{ix}_2\n");
    }
    let text = text
        .replace("c0_", "cX0_")
        .replace("c1_", "cX1_")
        .replace("c2_", "cX2_");
    // d{ix} reads the ix-th c of every part: rename to match.
    let text = (0..3).fold(text, |t, ix| {
        t.replace(&format!("c{ix}_"), &format!("cX{ix}_"))
    });
    for case in both_ways(&text) {
        assert!(case.live() <= max_live_results(&case.dag, &bfs_order(&case.dag)));
        assert!(case.live() <= 9);
    }
}

/// dask's `(maxima, argmax)` graph: four groups crossed pairwise, each cross ending in
/// a bundle of two chains (`x5_i_0 -> x6_i_0`, `x5_i_1 -> x6_i_1`). `tails` says which
/// chain ends exist: 0 none past x5, 1 only x6_i_0, 2 both x6 (dask's graph), 3 both
/// and an x7_i_0 after x6_i_0.
fn equal_dependents_text(tails: usize) -> String {
    let groups = ["a", "b", "c", "d"];
    let mut text = String::new();
    for x in groups {
        text += &format!("{x}0:\n{x}1: {x}0\n{x}20: {x}0\n{x}21: {x}1\n");
    }
    for x in groups {
        for (i, y) in groups.iter().enumerate() {
            text += &format!(
                "{x}3_{i}: {x}20 {y}21\n{x}4_{i}: {x}3_{i}\n{x}5_{i}_0: {x}4_{i}\n\
                 {x}5_{i}_1: {x}4_{i}\n"
            );
            if tails >= 1 {
                text += &format!("{x}6_{i}_0: {x}5_{i}_0\n");
            }
            if tails >= 2 {
                text += &format!("{x}6_{i}_1: {x}5_{i}_1\n");
            }
            if tails >= 3 {
                text += &format!("{x}7_{i}_0: {x}6_{i}_0\n");
            }
        }
    }
    text
}

#[test]
fn order_with_equal_dependents() {
    // Per variant: the two chain ends of a bundle, and how far apart they may be in
    // total over the 16 bundles (dask: ideally the bundle's length, 2 or 3, each).
    let variants = [
        (2, ("6", "1"), ("6", "0"), 32),
        (3, ("6", "1"), ("7", "0"), 48),
        (1, ("5", "1"), ("6", "0"), 32),
        (0, ("5", "1"), ("5", "0"), 32),
    ];
    for (tails, (step_a, chain_a), (step_b, chain_b), most) in variants {
        for case in both_ways(&equal_dependents_text(tails)) {
            assert!(case.live() <= 10, "tails {tails}: {}", case.live());
            let mut spread = 0;
            for x in ["a", "b", "c", "d"] {
                for i in 0..4 {
                    let gap = (case.at(&format!("{x}{step_a}_{i}_{chain_a}"))
                        - case.at(&format!("{x}{step_b}_{i}_{chain_b}")))
                    .abs();
                    // Without tails dask asks each bundle's two ends within 2.
                    assert!(tails != 0 || gap <= 2, "{x} {i}: {gap}");
                    spread += gap;
                }
            }
            assert!(spread <= most, "tails {tails}: {spread}");
        }
    }
}
