//! Measuring tools, not tests (all `#[ignore]`): how far each variant of the walk is
//! from the exact optimum on random small DAGs (`evaluate`), how the variants fare on
//! the large shapes (`evaluate_shapes`), and the figures quoted in reports
//! (`figures`: live results per order, bytes moved per assignment). Run with
//! `cargo test -p marsc --lib NAME -- --ignored --nocapture` (`SEED=n` varies the
//! random graphs of `evaluate`).

use super::optimal::optimal_max_live;
use super::priority::local_random_dag;
use crate::schedule::priority::{bfs_order, max_live_results, seed_order, tuned_memory_order};
use crate::schedule::section::SectionLimits;
use crate::schedule::shuffle::SplitMix64;
use crate::schedule::walk::Tuning;

#[test]
#[ignore]
fn evaluate() {
    let variants = [
        ("default", Tuning::DEFAULT),
        (
            "no-neutral",
            Tuning {
                neutral_eager: false,
                ..Tuning::DEFAULT
            },
        ),
        (
            "no-sections",
            Tuning {
                sections: SectionLimits {
                    nodes: 0,
                    extra_results: 1,
                },
                ..Tuning::DEFAULT
            },
        ),
        (
            "extra0",
            Tuning {
                sections: SectionLimits {
                    nodes: 8,
                    extra_results: 0,
                },
                ..Tuning::DEFAULT
            },
        ),
        (
            "extra2",
            Tuning {
                sections: SectionLimits {
                    nodes: 8,
                    extra_results: 2,
                },
                ..Tuning::DEFAULT
            },
        ),
        (
            "nodes4",
            Tuning {
                sections: SectionLimits {
                    nodes: 4,
                    extra_results: 1,
                },
                ..Tuning::DEFAULT
            },
        ),
        (
            "nodes16",
            Tuning {
                sections: SectionLimits {
                    nodes: 16,
                    extra_results: 1,
                },
                ..Tuning::DEFAULT
            },
        ),
        (
            "no-runnable",
            Tuning {
                prefer_runnable: false,
                ..Tuning::DEFAULT
            },
        ),
    ];
    let mut rng = SplitMix64::new(
        std::env::var("SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(1),
    );
    let mut gap = vec![(0usize, 0usize); variants.len() + 2];
    let trials = 1000;
    for _ in 0..trials {
        let dag = local_random_dag(&mut rng);
        let best = optimal_max_live(&dag);
        let mut record = |slot: usize, live: usize| {
            gap[slot].0 += live - best;
            gap[slot].1 += usize::from(live > best);
        };
        for (slot, (_, tuning)) in variants.iter().enumerate() {
            record(
                slot,
                max_live_results(&dag, &tuned_memory_order(&dag, None, *tuning)),
            );
        }
        record(variants.len(), max_live_results(&dag, &bfs_order(&dag)));
        record(
            variants.len() + 1,
            max_live_results(&dag, &seed_order(&dag, None)),
        );
    }
    let names = variants.iter().map(|(n, _)| *n).chain(["bfs", "seed"]);
    for (name, (total, worse)) in names.zip(gap) {
        println!("{name:12} total gap {total:4}  suboptimal {worse:3}/{trials}");
    }
}

#[test]
#[ignore]
fn evaluate_shapes() {
    use crate::schedule::shapes::*;
    let variants = [
        ("default", Tuning::DEFAULT),
        (
            "no-neutral",
            Tuning {
                neutral_eager: false,
                ..Tuning::DEFAULT
            },
        ),
        (
            "no-sections",
            Tuning {
                sections: SectionLimits {
                    nodes: 0,
                    extra_results: 1,
                },
                ..Tuning::DEFAULT
            },
        ),
        (
            "extra0",
            Tuning {
                sections: SectionLimits {
                    nodes: 8,
                    extra_results: 0,
                },
                ..Tuning::DEFAULT
            },
        ),
        (
            "extra2",
            Tuning {
                sections: SectionLimits {
                    nodes: 8,
                    extra_results: 2,
                },
                ..Tuning::DEFAULT
            },
        ),
        (
            "nodes4",
            Tuning {
                sections: SectionLimits {
                    nodes: 4,
                    extra_results: 1,
                },
                ..Tuning::DEFAULT
            },
        ),
        (
            "nodes16",
            Tuning {
                sections: SectionLimits {
                    nodes: 16,
                    extra_results: 1,
                },
                ..Tuning::DEFAULT
            },
        ),
        (
            "no-runnable",
            Tuning {
                prefer_runnable: false,
                ..Tuning::DEFAULT
            },
        ),
    ];
    let shapes = [
        ("matmul4", block_matmul(4)),
        ("matmul8", block_matmul(8)),
        ("matmul16", block_matmul(16)),
        ("tree2-1000", tree_reduction(1000, 2)),
        ("tree4-1000", tree_reduction(1000, 4)),
        ("mapred-1000", map_then_reduce(1000, 2)),
    ];
    for (name, dag) in &shapes {
        for seed in [None, Some(1), Some(2)] {
            let dag = match seed {
                None => dag.clone(),
                Some(seed) => relabeled(dag, seed).0,
            };
            let mut line = format!(
                "{name:12} {seed:?}: bfs {}",
                max_live_results(&dag, &bfs_order(&dag))
            );
            for (vname, tuning) in variants {
                line += &format!(
                    "  {vname} {}",
                    max_live_results(&dag, &tuned_memory_order(&dag, None, tuning))
                );
            }
            println!("{line}");
        }
    }
}

#[test]
#[ignore]
fn figures() {
    use crate::schedule::assign::{assign_workers, transfer_bytes, InitialAssignment};
    use crate::schedule::priority::order;
    use crate::schedule::shapes::*;
    let shapes = [
        ("tree2 100k leaves", tree_reduction(100_000, 2)),
        ("tree4 100k leaves", tree_reduction(100_000, 4)),
        ("chains 10k x 10", independent_chains(10_000, 10)),
        ("matmul 16x16 blocks", block_matmul(16)),
        ("(x+y).sum() 10k chunks", map_then_reduce(10_000, 2)),
    ];
    for (name, dag) in &shapes {
        let (dag, _) = relabeled(dag, 3);
        let live = |p: &[u32]| max_live_results(&dag, p);
        let sizes = vec![1u64 << 20; dag.len()];
        let moved =
            |policy| transfer_bytes(&dag, &sizes, &assign_workers(&dag, &sizes, 2, policy)) >> 20;
        println!(
            "{name:24} nodes {:7} live: order {:4} seed {:6} bfs {:6} | MiB moved on 2 workers: bfs {:5} round-robin {:6} random {:6}",
            dag.len(),
            live(&order(&dag, None)),
            live(&seed_order(&dag, None)),
            live(&bfs_order(&dag)),
            moved(InitialAssignment::Bfs),
            moved(InitialAssignment::RoundRobin),
            moved(InitialAssignment::Random { seed: 1 }),
        );
    }
}
