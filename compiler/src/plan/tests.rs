//! Tests of planning: plans verify, a chunk read twice is one input, and kernels get
//! each chunk's own placement.

use super::*;
use crate::driver::{self, Options};
use marsc_runtime::plan::OpArg;
use std::sync::Arc;

/// The plan without fusion or the JIT, so each subtask is the one op these tests
/// look at.
fn plan_of(script: &str) -> Plan<Kernel> {
    let options = Options {
        fusion: crate::fuse::Fusion::Off,
        jit: false,
        ..Options::default()
    };
    match driver::compile(script, &options) {
        Ok(compiled) => Arc::unwrap_or_clone(compiled.plan),
        Err(error) => panic!("the script does not compile: {error:?}"),
    }
}

#[test]
fn a_chunk_read_twice_is_one_input() {
    let plan = plan_of("import mars.tensor as mt\nx = mt.arange(4, chunks=4)\nprint(x * x)\n");
    plan.check().unwrap();
    let multiply = plan.subtasks.last().unwrap();
    assert_eq!(multiply.inputs.len(), 1);
    assert_eq!(multiply.ops[0].args[..], [OpArg::Input(0), OpArg::Input(0)]);
    assert_eq!(multiply.outputs[..], [(0, plan.results[0])]);
}

#[test]
fn kernels_carry_their_chunks_placement() {
    let plan = plan_of("import mars.tensor as mt\nprint(mt.arange(10, chunks=4)[::-3])\n");
    let aranges: Vec<(usize, usize)> = plan
        .subtasks
        .iter()
        .filter_map(|subtask| match subtask.ops[0].kernel {
            Kernel::Arange { offset, len, .. } => Some((offset, len)),
            _ => None,
        })
        .collect();
    assert_eq!(aranges, vec![(0, 4), (4, 4), (8, 2)]);
    let slices = plan
        .subtasks
        .iter()
        .filter(|subtask| matches!(subtask.ops[0].kernel, Kernel::Slice(_)))
        .count();
    assert_eq!(slices, 3);
}

#[test]
fn labels_name_the_tileable() {
    let compiled = driver::compile(
        "import mars.tensor as mt\na = mt.ones(4, chunks=2)\nprint((a + 1).sum())\n",
        &Options::default(),
    )
    .unwrap();
    for subtask in &compiled.plan.subtasks {
        assert!((subtask.label as usize) < compiled.tileables.len());
    }
}
