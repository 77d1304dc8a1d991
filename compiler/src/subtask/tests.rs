//! Tests of subtask formation, the priority pass and `verify`, on real scripts.

use super::*;
use crate::driver::{self, Options};

fn graphs(script: &str) -> (ChunkGraph, SubtaskGraph) {
    // One op per subtask, so priorities number ops.
    let options = Options {
        fusion: crate::fuse::Fusion::Off,
        ..Options::default()
    };
    match driver::subtasks(script, &options) {
        Ok((_, chunks, subtasks)) => (chunks, subtasks),
        Err(error) => panic!("the script does not compile: {error:?}"),
    }
}

fn read_example(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples")
        .join(format!("{name}.mt"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn priorities_are_a_topological_permutation() {
    for name in [
        "monte_carlo_pi",
        "heat_equation",
        "normal_equations",
        "random_walk",
    ] {
        let (chunks, subtasks) = graphs(&read_example(name));
        verify(&subtasks, &chunks).unwrap();
        let mut seen: Vec<i64> = subtasks
            .ids()
            .map(|id| subtasks.subtask(id).priority)
            .collect();
        seen.sort_unstable();
        let expected: Vec<i64> = (0..subtasks.len() as i64).collect();
        assert_eq!(seen, expected, "{name}: priorities are not 0..n");
        for id in subtasks.ids() {
            for input in subtasks.inputs(&chunks, id) {
                let producer = subtasks.subtask_of(input).expect("inputs are run");
                assert!(
                    subtasks.subtask(producer).priority < subtasks.subtask(id).priority,
                    "{name}: {id} runs before its input {input}"
                );
            }
        }
    }
}

#[test]
fn a_reduction_branch_finishes_before_the_next_starts() {
    // 12 leaves, combined four at a time: the first combine comes right after its
    // four leaves (and their maps), before any leaf of the second group.
    let (chunks, subtasks) =
        graphs("import mars.tensor as mt\nprint(mt.ones(12, chunks=1).sum())\n");
    let priority_of = |chunk: u32| {
        subtasks
            .subtask(subtasks.subtask_of(ChunkId(chunk)).unwrap())
            .priority
    };
    let first_combine = chunks.step(crate::chunk::StepId(2)).first_chunk;
    assert_eq!(chunks.step_of(first_combine).op.name(), "sum.combine");
    let leaf_of_second_group = 4;
    assert!(priority_of(first_combine.0) < priority_of(leaf_of_second_group));
    assert_eq!(
        priority_of(first_combine.0),
        8,
        "4 leaves and 4 maps come first"
    );
}

#[test]
fn only_chunks_an_output_needs_are_run() {
    let (chunks, subtasks) =
        graphs("import mars.tensor as mt\nx = mt.arange(10, chunks=1)\nprint(x[3])\n");
    // The slice reads one arange chunk; the other nine are never computed.
    assert_eq!(chunks.step(crate::chunk::StepId(0)).num_chunks, 10);
    let arange_run = chunks
        .step(crate::chunk::StepId(0))
        .chunk_ids()
        .filter(|&c| subtasks.subtask_of(c).is_some())
        .count();
    assert_eq!(arange_run, 1);
    assert_eq!(subtasks.results().len(), 1);
}

#[test]
fn verify_rejects_a_subtask_reading_a_later_one() {
    let (chunks, mut subtasks) =
        graphs("import mars.tensor as mt\nprint(mt.arange(4, chunks=2) + 1)\n");
    verify(&subtasks, &chunks).unwrap();
    // Run the first op last: its consumers now read a later subtask.
    let first = subtasks.ops[0];
    let last = subtasks.ops.len() - 1;
    subtasks.ops.swap(0, last);
    subtasks.subtask_of[first.index()] = last as u32;
    subtasks.subtask_of[subtasks.ops[0].index()] = 0;
    assert!(verify(&subtasks, &chunks).is_err());
}

#[test]
fn verify_rejects_an_unpublished_input() {
    let (chunks, mut subtasks) =
        graphs("import mars.tensor as mt\nprint(mt.arange(4, chunks=2) + 1)\n");
    let read = subtasks.inputs(&chunks, SubtaskId(subtasks.len() as u32 - 1))[0];
    subtasks.published[read.index()] = false;
    let error = verify(&subtasks, &chunks).unwrap_err().to_string();
    assert!(error.contains("does not publish"), "{error}");
}

#[test]
fn chunk_index_placement_pins_every_subtask() {
    let (chunks, mut subtasks) =
        graphs("import mars.tensor as mt\nprint(mt.ones((4, 4), chunks=2).T)\n");
    assign_workers(&mut subtasks, &chunks, Placement::ChunkIndex);
    for id in subtasks.ids() {
        let chunk = subtasks.ops(id)[0];
        assert_eq!(subtasks.subtask(id).worker, Some(chunks.chunk(chunk).index));
    }
    assign_workers(&mut subtasks, &chunks, Placement::Executor);
    assert!(subtasks
        .ids()
        .all(|id| subtasks.subtask(id).worker.is_none()));
}
