//! The inline executor: every subtask of a small plan run on the caller's thread,
//! in plan order (a topological order), with no worker threads and no messages.
//!
//! A stage of a staged loop over a small tensor is a plan of a few subtasks of a
//! few microseconds each; handing them to worker threads costs a thread wake-up per
//! message (tens of microseconds on a virtual machine), more than the work. The
//! caller decides what is small ([`ExecOptions::inline`]); the values are the same
//! as on workers, since kernels are pure. A chunk is dropped once its last reader
//! has run, results are kept, and cancellation is checked between subtasks. An
//! observer that wants spans gets them (all on worker 0), and worker 0's memory at
//! the end, as from a threaded run.

use super::kernel_call::{run_ops_with, OpScratch};
use super::trace::{ExecObserver, SubtaskSpan, WorkerMemory};
use super::{ChunkKernel, ExecError, ExecOptions, ExecOutput, ExecStats};
use crate::plan::{ChunkId, Plan, SubtaskId};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

pub(super) fn execute_inline<K: ChunkKernel>(
    plan: &Arc<Plan<K>>,
    options: &ExecOptions,
    observer: &mut dyn ExecObserver,
) -> Result<ExecOutput<K::Value>, ExecError> {
    let started = Instant::now();
    let total = plan.subtasks.len() as u64;
    observer.on_start(total, options.workers);
    let chunks = plan.num_chunks as usize;
    // How many subtasks still read each chunk; results are read by the caller too.
    let mut readers = vec![0u32; chunks];
    for subtask in &plan.subtasks {
        for input in &subtask.inputs {
            readers[input.0 as usize] += 1;
        }
    }
    let mut is_result = vec![false; chunks];
    for result in &plan.results {
        is_result[result.0 as usize] = true;
    }
    let mut held: Vec<Option<Arc<K::Value>>> = vec![None; chunks];
    let wants_spans = observer.wants_spans();
    let mut scratch = OpScratch::default();
    let (mut live_chunks, mut live_bytes) = (0u64, 0u64);
    let (mut peak_chunks, mut peak_bytes) = (0u64, 0u64);
    for (index, subtask) in plan.subtasks.iter().enumerate() {
        if options
            .cancel
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
        {
            return Err(ExecError::Cancelled);
        }
        let span_start = wants_spans.then(|| started.elapsed().as_nanos() as u64);
        let ran = run_ops_with(
            subtask,
            |chunk: ChunkId| held[chunk.0 as usize].as_ref(),
            &mut scratch,
        );
        if let Err(message) = ran {
            return Err(ExecError::SubtaskFailed {
                subtask: SubtaskId(index as u32),
                label: subtask.label,
                worker: 0,
                message,
            });
        }
        for &(op, chunk) in &subtask.outputs {
            let value = scratch.values[op as usize].clone().ok_or_else(|| {
                ExecError::Internal(format!("the value of published op {op} was dropped"))
            })?;
            live_chunks += 1;
            live_bytes += K::nbytes(&value) as u64;
            held[chunk.0 as usize] = Some(value);
        }
        scratch.clear();
        peak_chunks = peak_chunks.max(live_chunks);
        peak_bytes = peak_bytes.max(live_bytes);
        if let Some(start_nanos) = span_start {
            observer.on_subtask_span(&SubtaskSpan {
                subtask: SubtaskId(index as u32),
                label: subtask.label,
                worker: 0,
                start_nanos,
                end_nanos: started.elapsed().as_nanos() as u64,
            });
        }
        for input in &subtask.inputs {
            let slot = input.0 as usize;
            readers[slot] -= 1;
            if readers[slot] == 0 && !is_result[slot] {
                if let Some(value) = held[slot].take() {
                    live_chunks -= 1;
                    live_bytes -= K::nbytes(&value) as u64;
                }
            }
        }
        observer.on_subtask_done(index as u64 + 1, total);
    }
    observer.on_worker_memory(&WorkerMemory {
        worker: 0,
        held_bytes: live_bytes,
        peak_bytes,
        spilled_bytes: 0,
    });
    let results = plan
        .results
        .iter()
        .map(|&chunk| {
            held[chunk.0 as usize]
                .clone()
                .map(|value| (chunk, value))
                .ok_or_else(|| ExecError::Internal(format!("result {chunk} was never computed")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    // The run's workers are the ones asked for; the caller's thread, worker 0, did
    // all the work.
    let workers = options.workers.max(1) as usize;
    let mut subtasks_per_worker = vec![0; workers];
    subtasks_per_worker[0] = total;
    let mut peak_worker_bytes = vec![0; workers];
    peak_worker_bytes[0] = peak_bytes;
    let stats = ExecStats {
        subtasks: total,
        workers: options.workers,
        run_seconds: started.elapsed().as_secs_f64(),
        transfer_bytes: 0,
        peak_live_chunks: peak_chunks,
        peak_live_bytes: peak_bytes,
        subtasks_per_worker,
        spilled_bytes: 0,
        retries: 0,
        recomputed: 0,
        peak_worker_bytes,
    };
    Ok(ExecOutput { results, stats })
}
