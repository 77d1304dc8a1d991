//! Running one subtask's ops on a worker: arguments from the store or from earlier
//! ops, and kernel panics turned into errors.

use super::store::ChunkStore;
use super::ChunkKernel;
use crate::plan::{OpArg, Subtask};
use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

/// Runs a subtask's ops in order on inputs from the store, pushing every op's value
/// onto the empty `values`.
pub fn run_ops<K: ChunkKernel>(
    subtask: &Subtask<K>,
    store: &ChunkStore<K>,
    values: &mut Vec<Arc<K::Value>>,
) -> Result<(), String> {
    for op in &subtask.ops {
        let args = op
            .args
            .iter()
            .map(|&arg| match arg {
                OpArg::Input(i) => {
                    let chunk = subtask.inputs[i as usize];
                    let value = store.get(chunk).ok_or_else(|| {
                        format!("internal error: input {chunk} is missing from the store")
                    })?;
                    Ok(&**value)
                }
                OpArg::Local(i) => Ok(&*values[i as usize]),
            })
            .collect::<Result<Vec<&K::Value>, String>>()?;
        let value = run_kernel(&op.kernel, &args)?;
        values.push(Arc::new(value));
    }
    Ok(())
}

/// Runs one kernel, turning a panic into an error.
fn run_kernel<K: ChunkKernel>(kernel: &K, args: &[&K::Value]) -> Result<K::Value, String> {
    match catch_unwind(AssertUnwindSafe(|| kernel.run(args))) {
        Ok(result) => result,
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
