//! Planning and running with the session cache. Chunk keys are content hashes (the
//! same computation gives the same key in any program), so the session keeps the
//! values it computed by key and plans only the chunks an output needs whose keys
//! are not cached: the sweep back from the outputs stops at a cached chunk, whose
//! value is handed to each subtask that reads it as a local op. When every output
//! chunk is cached nothing runs at all.
//!
//! This is the REPL's own small planner over [`crate::plan::KernelBuilder`]: one
//! subtask per chunk operation, like [`crate::subtask::form_subtasks`], in chunk
//! order (which is topological).

use crate::chunk::{ChunkGraph, ChunkId, ChunkKey, ChunkOutput, PrintItem, StepId};
use crate::plan::{runtime_id, KernelBuilder};
use crate::run::memory::projected_chunk_bytes;
use marsc_runtime::exec::{execute, ChunkKernel, ExecError, ExecOptions, ExecStats, NoObserver};
use marsc_runtime::kernel::{ChunkValue, Kernel};
use marsc_runtime::plan::{self, OpArg, Plan, PlanOp};
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// How many bytes of chunk values a session keeps by default.
pub const DEFAULT_CACHE_BYTES: u64 = 1 << 30;

/// Values computed earlier in the session, by chunk key, within a byte budget
/// (nothing is evicted: a value that does not fit is simply not kept).
pub struct ChunkCache {
    values: HashMap<ChunkKey, Arc<ChunkValue>>,
    bytes: u64,
    budget: u64,
}

impl Default for ChunkCache {
    fn default() -> ChunkCache {
        ChunkCache::with_budget(DEFAULT_CACHE_BYTES)
    }
}

impl ChunkCache {
    pub fn with_budget(budget: u64) -> ChunkCache {
        ChunkCache {
            values: HashMap::new(),
            bytes: 0,
            budget,
        }
    }

    pub fn get(&self, key: &ChunkKey) -> Option<&Arc<ChunkValue>> {
        self.values.get(key)
    }

    /// Keeps `value` if it fits in the budget; returns whether it was kept.
    pub fn insert(&mut self, key: ChunkKey, value: Arc<ChunkValue>) -> bool {
        if self.values.contains_key(&key) {
            return true;
        }
        let size = Kernel::nbytes(&value) as u64;
        if self.bytes.saturating_add(size) > self.budget {
            return false;
        }
        self.bytes += size;
        self.values.insert(key, value);
        true
    }

    /// Bytes still free in the budget.
    pub fn remaining(&self) -> u64 {
        self.budget.saturating_sub(self.bytes)
    }

    pub fn len(&self) -> usize {
        self.values.len()
    }

    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    pub fn clear(&mut self) {
        self.values.clear();
        self.bytes = 0;
    }
}

/// A plan op: a cached value handed on, or a kernel that runs.
#[derive(Clone, Debug)]
pub enum SessionKernel {
    Cached(Arc<ChunkValue>),
    Run(Kernel),
}

impl ChunkKernel for SessionKernel {
    type Value = ChunkValue;

    fn run(&self, args: &[&ChunkValue]) -> Result<ChunkValue, String> {
        match self {
            SessionKernel::Cached(value) => Ok(ChunkValue::clone(value)),
            SessionKernel::Run(kernel) => kernel.run(args),
        }
    }

    fn nbytes(value: &ChunkValue) -> usize {
        Kernel::nbytes(value)
    }

    fn spill(value: &ChunkValue, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        Kernel::spill(value, out)
    }

    fn unspill(input: &mut dyn std::io::Read) -> std::io::Result<ChunkValue> {
        Kernel::unspill(input)
    }
}

/// What a run needs: the plan, and which of the output chunks were already cached.
pub struct SessionPlan {
    pub plan: Plan<SessionKernel>,
    /// Output chunks whose values come from the cache instead of the plan.
    pub cached: Vec<ChunkId>,
}

/// The steps whose chunks the outputs hand back: every printed tensor (a print's or
/// an echo's), and the save commits, which must run but give nothing back.
fn output_steps(outputs: &[ChunkOutput]) -> (Vec<StepId>, Vec<StepId>) {
    let mut printed = Vec::new();
    let mut commits = Vec::new();
    for output in outputs {
        match output {
            ChunkOutput::Print { items, .. } => {
                for item in items {
                    if let PrintItem::Tensor(step) = item {
                        printed.push(*step);
                    }
                }
            }
            ChunkOutput::Save { commit, .. } => commits.push(*commit),
        }
    }
    (printed, commits)
}

/// Plans the chunks that the first `program_outputs` outputs need and the cache
/// lacks. Chunks of `keep_steps` that the run computes anyway are results too (so
/// the session can cache them), as far as the cache's free budget goes: a result
/// is held until the run ends, so a huge variable must not become one.
pub fn plan_with_cache(
    chunks: &ChunkGraph,
    program_outputs: usize,
    keep_steps: &[StepId],
    cache: &ChunkCache,
) -> Result<SessionPlan, String> {
    let (printed, commits) = output_steps(&chunks.outputs[..program_outputs]);
    let num_chunks = chunks.num_chunks();
    let mut needed = vec![false; num_chunks];
    let mut is_result = vec![false; num_chunks];
    let mut cached = Vec::new();
    let mut cached_seen = vec![false; num_chunks];
    for &step in &printed {
        for chunk in chunks.step(step).chunk_ids() {
            if cache.get(&chunks.chunk_key(chunk)).is_some() {
                if !std::mem::replace(&mut cached_seen[chunk.index()], true) {
                    cached.push(chunk);
                }
            } else {
                needed[chunk.index()] = true;
                is_result[chunk.index()] = true;
            }
        }
    }
    for &step in &commits {
        for chunk in chunks.step(step).chunk_ids() {
            needed[chunk.index()] = true;
        }
    }
    // Chunk ids are topological, so one backward sweep finds everything needed.
    let mut read_from_cache = vec![false; num_chunks];
    let mut consumed = vec![false; num_chunks];
    for chunk in (0..num_chunks as u32).rev().map(ChunkId) {
        if !needed[chunk.index()] {
            continue;
        }
        for &input in chunks.inputs(chunk) {
            if cache.get(&chunks.chunk_key(input)).is_some() {
                read_from_cache[input.index()] = true;
            } else {
                needed[input.index()] = true;
                consumed[input.index()] = true;
            }
        }
    }
    let projected = projected_chunk_bytes(chunks);
    let mut budget = cache.remaining();
    for &step in keep_steps {
        let computed: Vec<ChunkId> = chunks
            .step(step)
            .chunk_ids()
            .filter(|chunk| needed[chunk.index()] && !is_result[chunk.index()])
            .collect();
        let bytes: u64 = computed.iter().map(|c| projected[c.index()]).sum();
        if computed.is_empty() || bytes > budget {
            continue;
        }
        budget -= bytes;
        for chunk in computed {
            is_result[chunk.index()] = true;
        }
    }
    let mut kernels = KernelBuilder::new(chunks);
    let mut subtasks = Vec::new();
    let mut results = Vec::new();
    for chunk in chunks.chunk_ids().filter(|c| needed[c.index()]) {
        subtasks.push(plan_chunk(
            chunks,
            chunk,
            cache,
            &mut kernels,
            &consumed,
            &is_result,
        )?);
        if is_result[chunk.index()] {
            results.push(runtime_id(chunk));
        }
    }
    Ok(SessionPlan {
        plan: Plan {
            subtasks,
            num_chunks: num_chunks as u32,
            results,
        },
        cached,
    })
}

/// One subtask computing `chunk`; a cached input becomes a local op before it.
fn plan_chunk(
    chunks: &ChunkGraph,
    chunk: ChunkId,
    cache: &ChunkCache,
    kernels: &mut KernelBuilder<'_>,
    consumed: &[bool],
    is_result: &[bool],
) -> Result<plan::Subtask<SessionKernel>, String> {
    let mut ops = Vec::new();
    let mut inputs = Vec::new();
    let mut args = Vec::new();
    let mut local_of: Vec<(ChunkId, OpArg)> = Vec::new();
    for &input in chunks.inputs(chunk) {
        if let Some(&(_, arg)) = local_of.iter().find(|(seen, _)| *seen == input) {
            args.push(arg);
            continue;
        }
        let arg = match cache.get(&chunks.chunk_key(input)) {
            Some(value) => {
                ops.push(PlanOp {
                    kernel: SessionKernel::Cached(Arc::clone(value)),
                    args: Vec::new(),
                });
                OpArg::Local(ops.len() as u32 - 1)
            }
            None => {
                inputs.push(runtime_id(input));
                OpArg::Input(inputs.len() as u32 - 1)
            }
        };
        local_of.push((input, arg));
        args.push(arg);
    }
    ops.push(PlanOp {
        kernel: SessionKernel::Run(kernels.kernel(chunk)?),
        args,
    });
    let published = consumed[chunk.index()] || is_result[chunk.index()];
    let last = ops.len() as u32 - 1;
    Ok(plan::Subtask {
        ops,
        inputs,
        outputs: if published {
            vec![(last, runtime_id(chunk))]
        } else {
            Vec::new()
        },
        priority: i64::from(chunk.0),
        worker: None,
        label: chunks.step_of(chunk).tileable.0,
    })
}

/// Removes the temporary file of every save in the plan, where a failed or
/// cancelled run left one behind.
fn remove_partial_saves(plan: &Plan<SessionKernel>) {
    for op in plan.subtasks.iter().flat_map(|subtask| &subtask.ops) {
        if let SessionKernel::Run(Kernel::SaveInit(file)) = &op.kernel {
            // Absent is the normal case (committed, or never started).
            let _ = std::fs::remove_file(&file.temporary);
        }
    }
}

/// The values of a run: results computed now plus the cached output chunks.
pub type Values = HashMap<plan::ChunkId, Arc<ChunkValue>>;

/// Runs the plan (nothing at all when it is empty) and gathers every output chunk's
/// value; new results go into the cache.
pub fn run_with_cache(
    chunks: &ChunkGraph,
    planned: SessionPlan,
    workers: u32,
    cancel: Arc<AtomicBool>,
    cache: &mut ChunkCache,
) -> Result<(Values, ExecStats), ExecError> {
    let mut values = Values::new();
    let mut stats = ExecStats {
        workers,
        ..ExecStats::default()
    };
    if !planned.plan.subtasks.is_empty() {
        let options = ExecOptions {
            workers: workers.max(1),
            cancel: Some(cancel),
            ..ExecOptions::default()
        };
        let output = execute(&planned.plan, &options, &mut NoObserver).inspect_err(|_| {
            remove_partial_saves(&planned.plan);
        })?;
        stats = output.stats;
        for (chunk, value) in output.results {
            cache.insert(chunks.chunk_key(ChunkId(chunk.0)), Arc::clone(&value));
            values.insert(chunk, value);
        }
    }
    for chunk in planned.cached {
        if let Some(value) = cache.get(&chunks.chunk_key(chunk)) {
            values.insert(runtime_id(chunk), Arc::clone(value));
        }
    }
    Ok((values, stats))
}

#[cfg(test)]
#[path = "compute_tests.rs"]
mod tests;
