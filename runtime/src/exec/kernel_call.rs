//! Running one subtask's ops on a worker: arguments from the store or from earlier
//! ops, and kernel panics turned into errors.

use super::store::ChunkStore;
use super::ChunkKernel;
use crate::plan::{OpArg, Subtask};
use smallvec::SmallVec;
use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

/// What running a subtask needs besides its inputs, kept from one subtask to the
/// next so that running one allocates nothing of its own.
pub struct OpScratch<V> {
    /// Every op's value, in op order; `None` once its last reader has run.
    pub values: Vec<Option<Arc<V>>>,
    /// For each op, the index of the last op that reads it (see [`last_readers`]).
    last_reader: Vec<u32>,
}

impl<V> Default for OpScratch<V> {
    fn default() -> Self {
        OpScratch {
            values: Vec::new(),
            last_reader: Vec::new(),
        }
    }
}

impl<V> OpScratch<V> {
    /// Forgets the last subtask's values, keeping the allocations.
    pub fn clear(&mut self) {
        self.values.clear();
    }
}

/// Runs a subtask's ops in order on inputs from the store, pushing every op's value
/// onto `scratch.values` (emptied first). An intermediate value is dropped right after
/// its last reader runs (its slot becomes `None`), so a fused subtask never holds more
/// than its live intermediates; the published ops' values are kept.
pub fn run_ops<K: ChunkKernel>(
    subtask: &Subtask<K>,
    store: &ChunkStore<K>,
    scratch: &mut OpScratch<K::Value>,
) -> Result<(), String> {
    run_ops_with(subtask, |chunk| store.get(chunk), scratch)
}

/// [`run_ops`] with the inputs found by `input` (a worker's store, or the inline
/// executor's table).
pub fn run_ops_with<'v, K: ChunkKernel + 'v>(
    subtask: &Subtask<K>,
    input: impl Fn(crate::plan::ChunkId) -> Option<&'v Arc<K::Value>>,
    scratch: &mut OpScratch<K::Value>,
) -> Result<(), String> {
    let OpScratch {
        values,
        last_reader,
    } = scratch;
    values.clear();
    // A single op reads no other op's value: nothing to drop early.
    if subtask.ops.len() > 1 {
        last_readers(subtask, last_reader);
    }
    for (index, op) in subtask.ops.iter().enumerate() {
        // Kernels read one to three arguments: no allocation for them.
        let args = op
            .args
            .iter()
            .map(|&arg| match arg {
                OpArg::Input(i) => {
                    let chunk = subtask.inputs[i as usize];
                    let value = input(chunk).ok_or_else(|| {
                        format!("internal error: input {chunk} is missing from the store")
                    })?;
                    Ok(&**value)
                }
                OpArg::Local(i) => values[i as usize].as_deref().ok_or_else(|| {
                    format!("internal error: op {i}'s value was dropped before op {index} read it")
                }),
            })
            .collect::<Result<SmallVec<[&K::Value; 4]>, String>>()?;
        let value = run_kernel(&op.kernel, &args)?;
        drop(args);
        values.push(Some(Arc::new(value)));
        for &arg in &op.args {
            if let OpArg::Local(i) = arg {
                if last_reader[i as usize] == index as u32 {
                    values[i as usize] = None;
                }
            }
        }
    }
    Ok(())
}

/// Fills `last`, for each op, with the index of the last op that reads it; `u32::MAX`
/// for ops whose value is published (kept until the subtask ends) or never read.
fn last_readers<K>(subtask: &Subtask<K>, last: &mut Vec<u32>) {
    last.clear();
    last.resize(subtask.ops.len(), u32::MAX);
    for (index, op) in subtask.ops.iter().enumerate() {
        for &arg in &op.args {
            if let OpArg::Local(i) = arg {
                last[i as usize] = index as u32;
            }
        }
    }
    for &(op_index, _) in &subtask.outputs {
        last[op_index as usize] = u32::MAX;
    }
}

/// Runs one kernel, turning a panic into an error.
fn run_kernel<K: ChunkKernel>(kernel: &K, args: &[&K::Value]) -> Result<K::Value, String> {
    match catch_unwind(AssertUnwindSafe(|| kernel.run(args))) {
        Ok(result) => result.map_err(|error| error.to_string()),
        Err(payload) => Err(format!("kernel panicked: {}", panic_text(&*payload))),
    }
}

/// The message a panic carried, for error reports.
pub fn panic_text(payload: &(dyn Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "(no message)".to_string()
    }
}
