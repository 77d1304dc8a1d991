//! Random plans for property tests: arbitrary subtask specs (proptest strategies)
//! turned into valid plans of toy kernels.

use super::{PlanBuilder, Toy};
use marsc_runtime::plan::{ChunkId, OpArg, Plan, PlanOp};
use proptest::prelude::*;

#[derive(Clone, Debug)]
pub struct OpSpec {
    pub kind: u8,
    pub constants: Vec<i64>,
    pub args: Vec<usize>,
}

#[derive(Clone, Debug)]
pub struct SubtaskSpec {
    pub inputs: Vec<usize>,
    pub ops: Vec<OpSpec>,
    pub published: Vec<usize>,
    pub priority: i64,
    pub worker: Option<u32>,
}

pub fn op_spec() -> impl Strategy<Value = OpSpec> {
    (
        0u8..4,
        prop::collection::vec(-100i64..100, 1..5),
        prop::collection::vec(any::<usize>(), 0..3),
    )
        .prop_map(|(kind, constants, args)| OpSpec {
            kind,
            constants,
            args,
        })
}

pub fn subtask_spec() -> impl Strategy<Value = SubtaskSpec> {
    (
        prop::collection::vec(any::<usize>(), 0..4),
        prop::collection::vec(op_spec(), 1..4),
        prop::collection::vec(any::<usize>(), 1..3),
        -3i64..3,
        prop::option::of(0u32..6),
    )
        .prop_map(|(inputs, ops, published, priority, worker)| SubtaskSpec {
            inputs,
            ops,
            published,
            priority,
            worker,
        })
}

/// Turns arbitrary specs into a valid plan: every index is taken modulo what exists.
pub fn build_plan(specs: &[SubtaskSpec], result_picks: &[usize]) -> Plan<Toy> {
    let mut builder = PlanBuilder::new();
    let mut published: Vec<ChunkId> = Vec::new();
    for spec in specs {
        let inputs: Vec<ChunkId> = if published.is_empty() {
            Vec::new()
        } else {
            spec.inputs
                .iter()
                .map(|i| published[i % published.len()])
                .collect()
        };
        let ops = spec
            .ops
            .iter()
            .enumerate()
            .map(|(position, op)| {
                let sources = inputs.len() + position;
                if op.kind == 0 || sources == 0 {
                    return PlanOp {
                        kernel: Toy::Const(op.constants.clone()),
                        args: Default::default(),
                    };
                }
                let args = op
                    .args
                    .iter()
                    .map(|a| {
                        let j = a % sources;
                        if j < inputs.len() {
                            OpArg::Input(j as u32)
                        } else {
                            OpArg::Local((j - inputs.len()) as u32)
                        }
                    })
                    .collect();
                let kernel = match op.kind {
                    1 => Toy::Add,
                    2 => Toy::Scale(3),
                    _ => Toy::Sum,
                };
                PlanOp { kernel, args }
            })
            .collect::<Vec<_>>();
        let outputs: Vec<u32> = spec
            .published
            .iter()
            .map(|p| (p % ops.len()) as u32)
            .collect();
        let chunks = builder.subtask(ops, &inputs, &outputs, spec.priority, spec.worker);
        published.extend(chunks);
    }
    for pick in result_picks {
        let chunk = published[pick % published.len()];
        builder.result(chunk);
    }
    builder.finish()
}
