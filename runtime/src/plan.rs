//! The plan the compiler hands to the runtime: subtasks (small DAGs of chunk
//! operations run together on one worker), the chunks they exchange, and the chunks
//! the caller wants back. It is plain data, generic over the kernel type `K`, so the
//! runtime never depends on the compiler and the executor never depends on what the
//! chunk operations are.
//!
//! [`Plan::check`] checks the invariants the executor relies on (reporting every
//! broken one):
//! - every chunk id is below `num_chunks` and is published by exactly one subtask;
//! - subtasks are in topological order: every input is published by an earlier subtask;
//! - op arguments refer to existing inputs or to earlier ops of the same subtask;
//! - every published op index exists, and every requested result is published.

use crate::problems::Problems;
use smallvec::SmallVec;
use std::fmt;
use std::sync::Arc;

/// A chunk exchanged between subtasks. Ids are dense: `0..plan.num_chunks`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ChunkId(pub u32);

impl ChunkId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for ChunkId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "c{}", self.0)
    }
}

/// A subtask's position in [`Plan::subtasks`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SubtaskId(pub u32);

impl SubtaskId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for SubtaskId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "st{}", self.0)
    }
}

/// Everything the runtime needs to run a job.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan<K> {
    /// In topological order: a subtask's inputs are published by earlier subtasks.
    pub subtasks: Vec<Subtask<K>>,
    pub num_chunks: u32,
    /// Chunks handed back to the caller, in this order; they are kept until then.
    pub results: Vec<ChunkId>,
}

/// A small DAG of chunk operations that one worker runs in order, without
/// publishing the intermediate values.
#[derive(Clone, Debug, PartialEq)]
pub struct Subtask<K> {
    /// Shared by subtasks whose ops are alike (the chunks of a uniform step usually
    /// are), so planning and the JIT pass store and rewrite each distinct list once.
    pub ops: Arc<[PlanOp<K>]>,
    /// Chunks produced by other subtasks; `OpArg::Input(i)` is `inputs[i]`.
    pub inputs: Inputs,
    /// `(op index, chunk)`: the op's value is published as that chunk.
    pub outputs: Outputs,
    /// Among ready subtasks, smaller runs first (then smaller subtask id).
    pub priority: i64,
    /// The worker the assignment pass chose; `None` lets the executor choose. Taken
    /// modulo the number of workers, so a plan runs with any worker count.
    pub worker: Option<u32>,
    /// The caller's tag (e.g. the source statement), reported with errors.
    pub label: u32,
}

/// One chunk operation and where its arguments come from.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanOp<K> {
    pub kernel: K,
    pub args: Args,
}

/// A subtask's inputs: inline up to four (a reduction tree's combine reads four), so
/// planning millions of subtasks allocates nothing per subtask for them.
pub type Inputs = SmallVec<[ChunkId; 4]>;

/// A subtask's published `(op index, chunk)` pairs, inline up to two.
pub type Outputs = SmallVec<[(u32, ChunkId); 2]>;

/// An op's arguments, inline up to three (`where`'s).
pub type Args = SmallVec<[OpArg; 3]>;

/// The last few values a pass made, replaced oldest first: a pass over a graph whose
/// steps are uniform finds the value it needs among the last few (the chunks of a step
/// come one after another), and a miss costs only the compares.
pub struct Recent<T> {
    entries: Vec<T>,
    next: usize,
}

impl<T> Recent<T> {
    /// How many values are kept.
    pub const LEN: usize = 4;

    pub fn find(&self, matches: impl FnMut(&&T) -> bool) -> Option<&T> {
        self.entries.iter().find(matches)
    }

    pub fn insert(&mut self, value: T) {
        if self.entries.len() < Self::LEN {
            self.entries.push(value);
        } else {
            self.entries[self.next] = value;
            self.next = (self.next + 1) % Self::LEN;
        }
    }
}

impl<T> Default for Recent<T> {
    fn default() -> Self {
        Recent {
            entries: Vec::with_capacity(Self::LEN),
            next: 0,
        }
    }
}

/// The op lists planned last, so that a subtask whose ops equal one of them shares
/// its allocation instead of holding a copy.
pub struct SharedOps<K> {
    recent: Recent<Arc<[PlanOp<K>]>>,
}

impl<K> Default for SharedOps<K> {
    fn default() -> Self {
        SharedOps {
            recent: Recent::default(),
        }
    }
}

impl<K> SharedOps<K> {
    /// `ops` as a shared list (emptying `ops`): one already made when `same` holds
    /// for it and `ops` op by op, a new one otherwise.
    pub fn share(
        &mut self,
        ops: &mut Vec<PlanOp<K>>,
        same: impl Fn(&K, &K) -> bool,
    ) -> Arc<[PlanOp<K>]> {
        let found = self.recent.find(|list| {
            list.len() == ops.len()
                && list
                    .iter()
                    .zip(ops.iter())
                    .all(|(a, b)| a.args == b.args && same(&a.kernel, &b.kernel))
        });
        if let Some(list) = found {
            ops.clear();
            return list.clone();
        }
        let list: Arc<[PlanOp<K>]> = ops.drain(..).collect();
        self.recent.insert(list.clone());
        list
    }
}

/// An operation's argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpArg {
    /// `Subtask::inputs[i]`.
    Input(u32),
    /// The value of an earlier op of the same subtask.
    Local(u32),
}

impl<K> Plan<K> {
    /// Checks the invariants listed in the module doc, reporting every broken one
    /// (the first of each subtask, naming it).
    pub fn check(&self) -> Result<(), Problems> {
        let mut problems = Problems::default();
        if u32::try_from(self.subtasks.len()).is_err() {
            problems.graph_wide(format!("too many subtasks ({})", self.subtasks.len()));
            return problems.into_result();
        }
        let mut published = vec![false; self.num_chunks as usize];
        for (index, subtask) in self.subtasks.iter().enumerate() {
            let id = SubtaskId(index as u32);
            let checked = verify_subtask(subtask, &published);
            // Its outputs count as published even when the subtask is broken, so
            // that one problem is not reported again by every reader of them.
            let recorded = subtask.outputs.iter().try_for_each(|&(_, chunk)| {
                let slot = self.chunk_slot(chunk, &mut published)?;
                if *slot {
                    return Err(format!("chunk {chunk} is published twice"));
                }
                *slot = true;
                Ok(())
            });
            problems.check(id, checked.and(recorded));
        }
        for &chunk in &self.results {
            if !published.get(chunk.index()).copied().unwrap_or(false) {
                problems.graph_wide(format!("result chunk {chunk} is never published"));
            }
        }
        problems.into_result()
    }

    fn chunk_slot<'a>(
        &self,
        chunk: ChunkId,
        published: &'a mut [bool],
    ) -> Result<&'a mut bool, String> {
        let num_chunks = self.num_chunks;
        published
            .get_mut(chunk.index())
            .ok_or_else(|| format!("chunk {chunk} is not below num_chunks {num_chunks}"))
    }
}

fn verify_subtask<K>(subtask: &Subtask<K>, published: &[bool]) -> Result<(), String> {
    for &chunk in &subtask.inputs {
        if !published.get(chunk.index()).copied().unwrap_or(false) {
            return Err(format!(
                "input {chunk} is not published by an earlier subtask"
            ));
        }
    }
    for (op_index, op) in subtask.ops.iter().enumerate() {
        for &arg in &op.args {
            let valid = match arg {
                OpArg::Input(i) => (i as usize) < subtask.inputs.len(),
                OpArg::Local(i) => (i as usize) < op_index,
            };
            if !valid {
                return Err(format!("op {op_index} has an invalid argument {arg:?}"));
            }
        }
    }
    for &(op_index, chunk) in &subtask.outputs {
        if op_index as usize >= subtask.ops.len() {
            return Err(format!(
                "output {chunk} names op {op_index}, which does not exist"
            ));
        }
    }
    Ok(())
}
