//! Shared by the executor tests: a toy kernel over `Vec<i64>`, a small plan builder,
//! random plans, and a sequential reference evaluator that defines the expected
//! results.

#![allow(dead_code)] // reason: each test binary uses a different part of this module

pub mod random_dag;

use marsc_runtime::exec::{execute, ChunkKernel, ExecError, ExecOptions, ExecOutput, NoObserver};
use marsc_runtime::plan::{ChunkId, OpArg, Plan, PlanOp, Subtask};
use std::collections::HashMap;
use std::io::{self, Read, Write};
use std::sync::{mpsc, Arc};
use std::time::Duration;

/// Toy chunk operations. `Add` adds its arguments element-wise, cycling shorter ones
/// (like `np.resize`), so any arguments are valid and every op is total and pure.
#[derive(Clone, Debug, PartialEq)]
pub enum Toy {
    Const(Vec<i64>),
    Add,
    /// `k * Add(args)`.
    Scale(i64),
    /// The sum of all elements of all arguments, as a one-element vector.
    Sum,
    Fail(String),
    Panic,
    /// Sleeps this many milliseconds, then acts like `Add`.
    Sleep(u64),
}

impl ChunkKernel for Toy {
    type Value = Vec<i64>;
    type Error = String;

    fn run(&self, args: &[&Vec<i64>]) -> Result<Vec<i64>, String> {
        match self {
            Toy::Const(values) => Ok(values.clone()),
            Toy::Add => Ok(add(args)),
            Toy::Scale(k) => Ok(add(args).iter().map(|x| x.wrapping_mul(*k)).collect()),
            Toy::Sum => Ok(vec![args
                .iter()
                .flat_map(|a| a.iter())
                .fold(0i64, |acc, x| acc.wrapping_add(*x))]),
            Toy::Fail(message) => Err(message.clone()),
            Toy::Panic => panic!("boom"),
            Toy::Sleep(millis) => {
                std::thread::sleep(std::time::Duration::from_millis(*millis));
                Ok(add(args))
            }
        }
    }

    fn nbytes(value: &Vec<i64>) -> usize {
        value.len() * 8
    }

    /// A length, then the elements, all little-endian.
    fn spill(value: &Vec<i64>, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(&(value.len() as u64).to_le_bytes())?;
        for element in value {
            out.write_all(&element.to_le_bytes())?;
        }
        Ok(())
    }

    fn unspill(input: &mut dyn Read) -> io::Result<Vec<i64>> {
        let mut word = [0u8; 8];
        input.read_exact(&mut word)?;
        let len = u64::from_le_bytes(word);
        (0..len)
            .map(|_| {
                input.read_exact(&mut word)?;
                Ok(i64::from_le_bytes(word))
            })
            .collect()
    }
}

fn add(args: &[&Vec<i64>]) -> Vec<i64> {
    let len = args.iter().map(|a| a.len()).max().unwrap_or(0);
    (0..len)
        .map(|i| {
            args.iter()
                .filter(|a| !a.is_empty())
                .fold(0i64, |acc, a| acc.wrapping_add(a[i % a.len()]))
        })
        .collect()
}

/// Builds plans one subtask at a time, handing out chunk ids in order.
pub struct PlanBuilder {
    pub plan: Plan<Toy>,
}

impl PlanBuilder {
    pub fn new() -> Self {
        PlanBuilder {
            plan: Plan {
                subtasks: Vec::new(),
                num_chunks: 0,
                results: Vec::new(),
            },
        }
    }

    /// A subtask running `kernel` on all of `inputs`, publishing one new chunk.
    pub fn single(&mut self, kernel: Toy, inputs: &[ChunkId], worker: Option<u32>) -> ChunkId {
        let args = (0..inputs.len() as u32).map(OpArg::Input).collect();
        self.subtask(vec![PlanOp { kernel, args }], inputs, &[0], 0, worker)[0]
    }

    /// A subtask with the given ops, publishing the values of `published` ops.
    pub fn subtask(
        &mut self,
        ops: Vec<PlanOp<Toy>>,
        inputs: &[ChunkId],
        published: &[u32],
        priority: i64,
        worker: Option<u32>,
    ) -> Vec<ChunkId> {
        let outputs: Vec<(u32, ChunkId)> = published
            .iter()
            .map(|&op| {
                let chunk = ChunkId(self.plan.num_chunks);
                self.plan.num_chunks += 1;
                (op, chunk)
            })
            .collect();
        let label = self.plan.subtasks.len() as u32;
        self.plan.subtasks.push(Subtask {
            ops: ops.into(),
            inputs: inputs.into(),
            outputs: outputs.iter().copied().collect(),
            priority,
            worker,
            label,
        });
        outputs.into_iter().map(|(_, chunk)| chunk).collect()
    }

    pub fn result(&mut self, chunk: ChunkId) {
        self.plan.results.push(chunk);
    }

    pub fn finish(self) -> Plan<Toy> {
        self.plan
    }
}

/// Runs a plan one op at a time on one thread: the value of every published chunk.
pub fn evaluate_all(plan: &Plan<Toy>) -> Result<HashMap<ChunkId, Vec<i64>>, String> {
    let mut chunks: HashMap<ChunkId, Vec<i64>> = HashMap::new();
    for subtask in &plan.subtasks {
        let mut values: Vec<Vec<i64>> = Vec::new();
        for op in subtask.ops.iter() {
            let args: Vec<&Vec<i64>> = op
                .args
                .iter()
                .map(|arg| match *arg {
                    OpArg::Input(i) => &chunks[&subtask.inputs[i as usize]],
                    OpArg::Local(i) => &values[i as usize],
                })
                .collect();
            let value = op.kernel.run(&args)?;
            values.push(value);
        }
        for &(op, chunk) in &subtask.outputs {
            chunks.insert(chunk, values[op as usize].clone());
        }
    }
    Ok(chunks)
}

/// The expected results of a plan, from [`evaluate_all`].
pub fn run_sequential(plan: &Plan<Toy>) -> Result<Vec<(ChunkId, Vec<i64>)>, String> {
    let chunks = evaluate_all(plan)?;
    Ok(plan
        .results
        .iter()
        .map(|chunk| (*chunk, chunks[chunk].clone()))
        .collect())
}

/// The bytes of every chunk, by chunk id: what a compiler would project.
pub fn chunk_bytes(plan: &Plan<Toy>) -> std::sync::Arc<[u64]> {
    let chunks = evaluate_all(plan).expect("toy plans never fail");
    (0..plan.num_chunks)
        .map(|c| chunks.get(&ChunkId(c)).map_or(0, |v| v.len() as u64 * 8))
        .collect()
}

/// The largest working set of one subtask: its distinct inputs plus its outputs.
pub fn largest_working_set(plan: &Plan<Toy>) -> u64 {
    let chunks = evaluate_all(plan).expect("toy plans never fail");
    let bytes = |chunk: &ChunkId| chunks[chunk].len() as u64 * 8;
    plan.subtasks
        .iter()
        .map(|subtask| {
            let mut inputs = subtask.inputs.clone();
            inputs.sort();
            inputs.dedup();
            inputs.iter().map(bytes).sum::<u64>()
                + subtask.outputs.iter().map(|(_, c)| bytes(c)).sum::<u64>()
        })
        .max()
        .unwrap_or(0)
}

/// The result values of a run, in order.
pub fn values(output: &ExecOutput<Vec<i64>>) -> Vec<(ChunkId, Vec<i64>)> {
    output
        .results
        .iter()
        .map(|(chunk, value)| (*chunk, (**value).clone()))
        .collect()
}

/// Runs `execute` on another thread and fails the test instead of hanging.
pub fn execute_within(
    seconds: u64,
    plan: &Plan<Toy>,
    options: &ExecOptions,
) -> Result<ExecOutput<Vec<i64>>, ExecError> {
    let (sender, receiver) = mpsc::channel();
    let (plan, options) = (plan.clone(), options.clone());
    std::thread::spawn(move || {
        let _ = sender.send(execute(&Arc::new(plan), &options, &mut NoObserver));
    });
    receiver
        .recv_timeout(Duration::from_secs(seconds))
        .unwrap_or_else(|_| panic!("execute did not return within {seconds} s"))
}
