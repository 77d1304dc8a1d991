//! Not a test: prints how far each variant of the walk is from the optimum on random
//! small DAGs, to tune it. Run with
//! `cargo test -p marsc --lib evaluate -- --ignored --nocapture`.

use super::optimal::optimal_max_live;
use crate::schedule::dag::Dag;
use crate::schedule::priority::{bfs_order, max_live_results, seed_order, tuned_memory_order};
use crate::schedule::shuffle::SplitMix64;
use crate::schedule::walk::Tuning;

fn random_dag(rng: &mut SplitMix64, n: usize, density: usize) -> Dag {
    let mut edges = Vec::new();
    for reader in 1..n {
        let inputs = rng.below(density + 1);
        for _ in 0..inputs {
            // Prefer recent nodes, like real programs.
            let back = 1 + rng.below(reader.min(6));
            edges.push(((reader - back) as u32, reader as u32));
        }
    }
    Dag::from_edges(n, &edges).unwrap()
}

#[test]
#[ignore]
fn evaluate() {
    let variants = [
        ("default", Tuning::DEFAULT),
        ("no-neutral", Tuning { neutral_eager: false, ..Tuning::DEFAULT }),
        ("no-sections", Tuning { section_nodes: 0, ..Tuning::DEFAULT }),
        ("extra0", Tuning { section_extra: 0, ..Tuning::DEFAULT }),
        ("extra2", Tuning { section_extra: 2, ..Tuning::DEFAULT }),
    ];
    let mut rng = SplitMix64::new(1);
    let mut gap = vec![(0usize, 0usize); variants.len() + 2];
    let trials = 400;
    for _ in 0..trials {
        let n = 8 + rng.below(11);
        let density = 1 + rng.below(3);
        let dag = random_dag(&mut rng, n, density);
        let best = optimal_max_live(&dag);
        let mut record = |slot: usize, live: usize| {
            gap[slot].0 += live - best;
            gap[slot].1 += usize::from(live > best);
        };
        for (slot, (_, tuning)) in variants.iter().enumerate() {
            record(slot, max_live_results(&dag, &tuned_memory_order(&dag, None, *tuning)));
        }
        record(variants.len(), max_live_results(&dag, &bfs_order(&dag)));
        record(variants.len() + 1, max_live_results(&dag, &seed_order(&dag, None)));
    }
    let names = variants.iter().map(|(n, _)| *n).chain(["bfs", "seed"]);
    for (name, (total, worse)) in names.zip(gap) {
        println!("{name:12} total gap {total:4}  suboptimal {worse:3}/{trials}");
    }
}
