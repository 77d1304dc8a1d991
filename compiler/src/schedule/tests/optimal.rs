//! The exact best `max_live_results` of a small DAG, by dynamic programming over the
//! sets of nodes already run: the live count depends only on that set, so the best
//! peak to reach each set is the minimum over its last node. Exponential; for graphs
//! of up to about 20 nodes.

use crate::schedule::dag::Dag;

pub(super) fn optimal_max_live(dag: &Dag) -> usize {
    let n = dag.len();
    assert!(n <= 22, "brute force is for small graphs");
    let mask_of = |nodes: &[u32]| nodes.iter().fold(0u32, |m, &v| m | (1 << v));
    let inputs: Vec<u32> = dag.nodes().map(|v| mask_of(dag.dependencies(v))).collect();
    let readers: Vec<u32> = dag.nodes().map(|v| mask_of(dag.dependents(v))).collect();
    let live = |done: u32| {
        (0..n)
            .filter(|&v| done & (1 << v) != 0 && readers[v] & !done != 0)
            .count()
    };
    let mut best = vec![usize::MAX; 1 << n];
    best[0] = 0;
    for done in 0..(1u32 << n) {
        if best[done as usize] == usize::MAX {
            continue;
        }
        let peak = best[done as usize].max(live(done));
        for (v, &needs) in inputs.iter().enumerate() {
            if done & (1 << v) == 0 && needs & !done == 0 {
                let next = (done | (1 << v)) as usize;
                best[next] = best[next].min(peak);
            }
        }
    }
    best[(1usize << n) - 1]
}
