//! Fusion on real scripts: which chunks share a subtask, for each [`Fusion`] level.

use super::*;
use crate::chunk::ChunkId;
use crate::driver::{self, Options};
use crate::subtask::{verify, SubtaskId};

fn subtasks(script: &str, fusion: Fusion) -> (ChunkGraph, SubtaskGraph) {
    let text = format!("import mars.tensor as mt\n{script}\n");
    let (_, chunks) = driver::chunk(&text, &Options::default())
        .unwrap_or_else(|error| panic!("the script does not compile: {error:?}"));
    let graph = fuse(&chunks, fusion);
    verify(&graph, &chunks).unwrap_or_else(|message| panic!("{message}"));
    (chunks, graph)
}

/// Each subtask's ops by name, in order.
fn op_names(chunks: &ChunkGraph, graph: &SubtaskGraph) -> Vec<Vec<String>> {
    graph
        .ids()
        .map(|id| {
            graph
                .ops(id)
                .iter()
                .map(|&chunk| chunks.step_of(chunk).op.name())
                .collect()
        })
        .collect()
}

fn names(groups: &[&[&str]]) -> Vec<Vec<String>> {
    groups
        .iter()
        .map(|group| group.iter().map(|name| name.to_string()).collect())
        .collect()
}

const SEED_EXAMPLE: &str = "a = mt.random.rand(100, chunks=100)\n\
                            b = mt.random.rand(100, chunks=100)\n\
                            print((a + b).sum())";

#[test]
fn without_fusion_every_op_is_a_subtask() {
    let (chunks, graph) = subtasks(SEED_EXAMPLE, Fusion::Off);
    assert_eq!(graph.len(), graph.num_ops());
    assert_eq!(graph.num_ops(), chunks.num_chunks());
}

#[test]
fn chain_fusion_merges_add_and_sum_but_leaves_the_random_inputs() {
    // The seed's picture: ADD and SUM become one FUSE node, RAND stays out.
    let (chunks, graph) = subtasks(SEED_EXAMPLE, Fusion::Chain);
    assert_eq!(
        op_names(&chunks, &graph),
        names(&[&["random"], &["random"], &["add", "sum.map", "sum.finish"]])
    );
}

#[test]
fn blockwise_fusion_runs_the_seed_example_as_one_subtask() {
    let (chunks, graph) = subtasks(SEED_EXAMPLE, Fusion::Blockwise);
    assert_eq!(
        op_names(&chunks, &graph),
        names(&[&["random", "random", "add", "sum.map", "sum.finish"]])
    );
    assert_eq!(
        graph.outputs(SubtaskId(0)).count(),
        1,
        "only the sum leaves"
    );
}

#[test]
fn a_reduction_map_ends_each_chunks_group() {
    // Four chunks: each is rand, rand, add, map; the combine and finish are one more.
    let (chunks, graph) = subtasks(
        "print((mt.random.rand(8, chunks=2) + mt.random.rand(8, chunks=2)).sum())",
        Fusion::Blockwise,
    );
    let groups = op_names(&chunks, &graph);
    let per_chunk = names(&[&["random", "random", "add", "sum.map"]]);
    assert_eq!(groups[..4], [&per_chunk[..]; 4].concat()[..]);
    assert_eq!(groups[4..], names(&[&["sum.combine", "sum.finish"]])[..]);
}

#[test]
fn a_shared_producer_stays_its_own_subtask() {
    let (chunks, graph) = subtasks(
        "a = mt.ones(4, chunks=4) * 2\nprint(a + 1, (a - 1).sum())",
        Fusion::Blockwise,
    );
    let groups = op_names(&chunks, &graph);
    // Scalar operands are one-chunk `full` tensors, fused where they are read once.
    assert_eq!(
        groups,
        names(&[
            &["full", "full", "multiply"],
            &["full", "add"],
            &["full", "subtract", "sum.map", "sum.finish"],
        ])
    );
}

#[test]
fn a_printed_tensor_is_not_absorbed() {
    let (chunks, graph) = subtasks(
        "a = mt.ones(4, chunks=4) + 1\nprint(a)\nprint(a.sum())",
        Fusion::Blockwise,
    );
    assert_eq!(
        op_names(&chunks, &graph),
        names(&[&["full", "full", "add"], &["sum.map", "sum.finish"]])
    );
}

#[test]
fn a_saved_chunk_read_only_by_its_save_joins_the_region_and_the_save_parts_stay_apart() {
    let (chunks, graph) = subtasks(
        "mt.save(\"target/fuse_unit.npy\", mt.ones(4, chunks=2) + 1)",
        Fusion::Blockwise,
    );
    let groups = op_names(&chunks, &graph);
    assert_eq!(
        groups,
        // The scalar `1` is read by both chunks of the sum, so it stays apart.
        names(&[
            &["full"],
            &["save.init"],
            &["full", "add", "save.region"],
            &["full", "add", "save.region"],
            &["save.commit"],
        ])
    );
}

#[test]
fn a_saved_tensor_that_is_also_printed_is_not_absorbed() {
    let (chunks, graph) = subtasks(
        "a = mt.ones(4, chunks=4) + 1\nmt.save(\"target/fuse_unit.npy\", a)\nprint(a)",
        Fusion::Blockwise,
    );
    assert_eq!(
        op_names(&chunks, &graph),
        names(&[
            &["full", "full", "add"],
            &["save.init"],
            &["save.region"],
            &["save.commit"],
        ])
    );
}

#[test]
fn an_integer_power_ends_its_group_so_its_failure_names_it() {
    let (chunks, graph) = subtasks(
        "b = mt.arange(4, chunks=4) - 3\nprint((2 ** b).sum())",
        Fusion::Blockwise,
    );
    assert_eq!(
        op_names(&chunks, &graph),
        names(&[
            &["arange", "full", "subtract", "full", "power"],
            &["sum.map", "sum.finish"]
        ])
    );
}

#[test]
fn a_rechunk_does_not_absorb_its_parallel_inputs() {
    let (chunks, graph) = subtasks(
        "print((mt.ones(4, chunks=1) + 1).rechunk(4))",
        Fusion::Blockwise,
    );
    let groups = op_names(&chunks, &graph);
    // The scalar `1`, four chunks of `ones + 1`, and the assembly of all four.
    assert_eq!(groups.len(), 6, "{groups:?}");
    assert_eq!(groups[1], names(&[&["full", "add"]])[0]);
    assert_eq!(groups[5], names(&[&["assemble"]])[0]);
}

#[test]
fn a_chunk_read_twice_by_one_consumer_is_still_fused() {
    let (_, graph) = subtasks("print((mt.ones(3) * 2) * (mt.ones(3) * 2))", Fusion::Chain);
    assert_eq!(graph.len(), 7, "a consumer reading two chunks is no chain");
    let (chunks, graph) = subtasks("x = mt.ones(3) + 1\nprint(x * x)", Fusion::Chain);
    assert_eq!(
        op_names(&chunks, &graph),
        names(&[&["full"], &["full"], &["add", "multiply"]])
    );
}

#[test]
fn unneeded_chunks_belong_to_no_subtask() {
    let (chunks, graph) = subtasks(
        "x = mt.arange(10, chunks=1) + 1\nprint(x[3])",
        Fusion::Blockwise,
    );
    assert_eq!(graph.len(), 1);
    assert_eq!(
        graph.num_ops(),
        4,
        "arange, the scalar 1, add, slice of one chunk"
    );
    assert!(graph.subtask_of(ChunkId(0)).is_none());
    assert_eq!(chunks.num_chunks(), 22);
}

#[test]
fn every_example_fuses_to_a_valid_graph_with_fewer_subtasks() {
    let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut paths: Vec<_> = std::fs::read_dir(&examples)
        .expect("examples directory")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "mt"))
        .collect();
    paths.sort();
    for path in paths {
        let text = std::fs::read_to_string(&path).expect("readable example");
        let options = Options {
            base_dir: examples.clone(),
            ..Options::default()
        };
        let Ok((_, chunks)) = driver::chunk(&text, &options) else {
            continue;
        };
        let unfused = fuse(&chunks, Fusion::Off);
        let chained = fuse(&chunks, Fusion::Chain);
        let fused = fuse(&chunks, Fusion::Blockwise);
        for graph in [&unfused, &chained, &fused] {
            verify(graph, &chunks).unwrap_or_else(|m| panic!("{}: {m}", path.display()));
            assert_eq!(graph.num_ops(), unfused.num_ops());
        }
        assert!(fused.len() <= chained.len() && chained.len() <= unfused.len());
    }
}

#[test]
fn a_producer_whose_consumers_share_one_group_joins_it() {
    let script = "x = mt.ones(4) + 1\nprint(mt.sqrt(x) * x)";
    let (chunks, graph) = subtasks(script, Fusion::Blockwise);
    assert_eq!(
        op_names(&chunks, &graph),
        names(&[&["full", "full", "add", "sqrt", "multiply"]])
    );
    // Under chain fusion the multiply reads two chunks, so `x` is published.
    let (chunks, graph) = subtasks(script, Fusion::Chain);
    assert_eq!(
        op_names(&chunks, &graph),
        names(&[&["full"], &["full"], &["add"], &["sqrt"], &["multiply"]])
    );
}

#[test]
fn a_fused_subtask_plans_as_ops_reading_each_other() {
    let text = "import mars.tensor as mt\nx = mt.arange(4, chunks=4)\nprint(x * x)\n";
    // The interpreted plan: the JIT would compile the pair into one op.
    let options = Options {
        jit: false,
        ..Options::default()
    };
    let compiled = driver::compile(text, &options).expect("compiles");
    let [subtask] = compiled.plan.subtasks.as_slice() else {
        panic!("expected one subtask: {:?}", compiled.plan.subtasks.len());
    };
    assert!(subtask.inputs.is_empty());
    assert_eq!(subtask.ops.len(), 2);
    use marsc_runtime::plan::OpArg;
    assert_eq!(subtask.ops[1].args[..], [OpArg::Local(0), OpArg::Local(0)]);
    assert_eq!(subtask.outputs[..], [(1, compiled.plan.results[0])]);
}

#[test]
fn a_long_chain_is_split_into_groups_of_bounded_size() {
    // 1,000 links of `a + 1`: 2,001 chunk operations (ones, then a scalar and an add
    // per link), which would otherwise be one group.
    let script = format!("a = mt.ones(8)\n{}print(a)", "a = a + 1\n".repeat(1000));
    let (_, graph) = subtasks(&script, Fusion::Blockwise);
    assert_eq!(graph.num_ops(), 2001);
    let sizes: Vec<usize> = graph.ids().map(|id| graph.ops(id).len()).collect();
    assert_eq!(sizes.iter().max(), Some(&(MAX_GROUP_OPS as usize)));
    // Full groups but the first (a scalar always joins its add's group).
    assert_eq!(
        sizes.len(),
        2001usize.div_ceil(MAX_GROUP_OPS as usize),
        "{sizes:?}"
    );
}
