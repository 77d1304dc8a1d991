//! Planning and running with the session cache. Chunk keys are content hashes (the
//! same computation gives the same key in any program), so the session keeps the
//! values it computed by key and plans only the chunks an output needs whose keys
//! are not cached: the sweep back from the outputs stops at a cached chunk, whose
//! value is handed to each subtask that reads it as a local op. When every output
//! chunk is cached nothing runs at all.
//!
//! The chunks to compute then go through the script's passes
//! ([`crate::driver::plan_needed`]: fusion, scheduling, planning and, unless
//! `--no-jit`, the JIT). A chunk that must come out of the run (a printed one, or a
//! variable's that the session will cache) is a result, so fusion publishes it
//! rather than swallowing it; a cached chunk is an input that no subtask produces, which the JIT
//! reads like any other and [`hand_in_cached`] then supplies from the cache.

pub use super::session_kernel::SessionKernel;

use super::session_kernel::hand_in_cached;
use crate::chunk::{ChunkGraph, ChunkId, ChunkKey, ChunkOutput, StepId};
use crate::driver::{plan_needed, Options};
use crate::error::{InternalError, JobError};
use crate::run::execute::{execute_plan, PlanFailure};
use crate::run::failure::failure_error;
use crate::run::preflight::projected_chunk_bytes;
use crate::run::RunOptions;
use crate::subtask::SubtaskGraph;
use crate::tileable::TileableGraph;
use marsc_runtime::chunk_kernel::{ChunkValue, Kernel};
use marsc_runtime::exec::{ChunkKernel, ExecStats};
use marsc_runtime::jit_rewrite::JitSummary;
use marsc_runtime::plan::{self, Plan};
use std::collections::HashMap;
use std::sync::Arc;

/// How many bytes of chunk values a session keeps by default.
pub const DEFAULT_CACHE_BYTES: u64 = 1 << 30;

/// Values computed earlier in the session, by chunk key, within a byte budget
/// (nothing is evicted: a value that does not fit is simply not kept).
pub struct ChunkCache {
    values: HashMap<ChunkKey, Arc<ChunkValue>>,
    /// The chunk keys kept for each step key, so a step no name can reach any more
    /// can be dropped whole ([`evict_steps`](Self::evict_steps)).
    by_step: HashMap<u64, Vec<ChunkKey>>,
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
            by_step: HashMap::new(),
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

    /// [`insert`](Self::insert) of a chunk of the step whose key is `step`.
    pub fn insert_in_step(&mut self, step: u64, key: ChunkKey, value: Arc<ChunkValue>) -> bool {
        let fresh = !self.values.contains_key(&key);
        let kept = self.insert(key, value);
        if kept && fresh {
            self.by_step.entry(step).or_default().push(key);
        }
        kept
    }

    /// Drops the chunks of the steps `steps` (their values are no longer reachable
    /// from the program: the lowering forgot them, see
    /// `SessionLowering::evicted`), freeing their bytes for later ones.
    pub fn evict_steps(&mut self, steps: &[u64]) {
        for step in steps {
            for key in self.by_step.remove(step).unwrap_or_default() {
                if let Some(value) = self.values.remove(&key) {
                    self.bytes = self.bytes.saturating_sub(Kernel::nbytes(&value) as u64);
                }
            }
        }
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
        self.by_step.clear();
        self.bytes = 0;
    }
}

/// What a run needs: the plan, and which of the output chunks were already cached.
pub struct SessionPlan {
    pub plan: Arc<Plan<SessionKernel>>,
    /// Output chunks whose values come from the cache instead of the plan.
    pub cached: Vec<ChunkId>,
    /// What the JIT compiled for the plan (all zero with `--no-jit`).
    pub jit: JitSummary,
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
                    if let Some(step) = item.printed_step() {
                        printed.push(step);
                    }
                }
            }
            ChunkOutput::Save { commit, .. } => commits.push(*commit),
        }
    }
    (printed, commits)
}

/// Which chunks a run computes and hands back.
struct Selection {
    /// Per chunk: the run computes it (it is needed and not cached).
    needed: Vec<bool>,
    /// Per chunk: the run hands it back (a printed chunk, or a kept variable's).
    is_result: Vec<bool>,
    /// Printed chunks already cached, each once.
    cached: Vec<ChunkId>,
}

/// Plans the chunks that the first `program_outputs` outputs need and the cache
/// lacks, fused and compiled as `options` says (its `workers` is the count the
/// scheduling pass places subtasks for). Chunks of `keep_steps` that the run
/// computes anyway are results too (so the session can cache them), as far as the
/// cache's free budget goes: a result is held until the run ends, so a huge
/// variable must not become one.
pub fn plan_with_cache(
    chunks: &ChunkGraph,
    program_outputs: usize,
    keep_steps: &[StepId],
    cache: &ChunkCache,
    options: &Options,
) -> Result<SessionPlan, InternalError> {
    plan_with_cache_inspected(
        chunks,
        program_outputs,
        keep_steps,
        cache,
        options,
        &mut |_, _| {},
    )
}

/// [`plan_with_cache`], showing `inspect` the subtasks and the plan before the
/// cached values are handed in (`--emit` of a script that runs in stages).
pub fn plan_with_cache_inspected(
    chunks: &ChunkGraph,
    program_outputs: usize,
    keep_steps: &[StepId],
    cache: &ChunkCache,
    options: &Options,
    inspect: &mut dyn FnMut(&SubtaskGraph, &Plan<Kernel>),
) -> Result<SessionPlan, InternalError> {
    let selection = select(chunks, program_outputs, keep_steps, cache);
    let results: Vec<ChunkId> = chunks
        .chunk_ids()
        .filter(|chunk| selection.is_result[chunk.index()])
        .collect();
    let (subtasks, plan, jit) = plan_needed(chunks, &selection.needed, results, options)?;
    inspect(&subtasks, &plan);
    let plan = hand_in_cached(plan, |chunk| {
        cache.get(&chunks.chunk_key(chunk)).map(Arc::clone)
    });
    Ok(SessionPlan {
        plan: Arc::new(plan),
        cached: selection.cached,
        jit,
    })
}

/// The chunks to compute (the sweep back from the outputs stops at cached ones) and
/// the results, with the kept variables' chunks within the cache's free budget.
fn select(
    chunks: &ChunkGraph,
    program_outputs: usize,
    keep_steps: &[StepId],
    cache: &ChunkCache,
) -> Selection {
    let (printed, commits) = output_steps(&chunks.outputs[..program_outputs]);
    let num_chunks = chunks.num_chunks();
    let is_cached = |chunk: ChunkId| cache.get(&chunks.chunk_key(chunk)).is_some();
    let mut needed = vec![false; num_chunks];
    let mut is_result = vec![false; num_chunks];
    let mut cached = Vec::new();
    let mut cached_seen = vec![false; num_chunks];
    for &step in &printed {
        for chunk in chunks.step(step).chunk_ids() {
            if is_cached(chunk) {
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
    for chunk in (0..num_chunks as u32).rev().map(ChunkId) {
        if !needed[chunk.index()] {
            continue;
        }
        for &input in chunks.inputs(chunk) {
            if !is_cached(input) {
                needed[input.index()] = true;
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
    Selection {
        needed,
        is_result,
        cached,
    }
}

/// The values of a run: results computed now plus the cached output chunks.
pub type Values = HashMap<plan::ChunkId, Arc<ChunkValue>>;

/// Runs the plan (nothing at all when it is empty) and gathers every output chunk's
/// value; new results go into the cache. A failure is told as a script's is
/// ([`failure_error`]: at the failing expression, or the `save` that failed).
pub fn run_with_cache(
    chunks: &ChunkGraph,
    tileables: &TileableGraph,
    planned: SessionPlan,
    options: &RunOptions,
    cache: &mut ChunkCache,
) -> Result<(Values, ExecStats), JobError> {
    let mut values = Values::new();
    let mut stats = ExecStats {
        workers: options.workers,
        ..ExecStats::default()
    };
    if !planned.plan.subtasks.is_empty() {
        let output = execute_plan(&planned.plan, chunks, tileables, options).map_err(
            |failure| match failure {
                PlanFailure::Refused(error) => error,
                PlanFailure::Failed(error) => failure_error(&error, &planned.plan, tileables),
            },
        )?;
        stats = output.stats;
        for (chunk, value) in output.results {
            let value = Arc::unwrap_or_clone(value);
            let id = chunk;
            cache.insert_in_step(
                chunks.step_of(id).key,
                chunks.chunk_key(id),
                Arc::clone(&value),
            );
            values.insert(chunk, value);
        }
    }
    for chunk in planned.cached {
        if let Some(value) = cache.get(&chunks.chunk_key(chunk)) {
            values.insert(chunk, Arc::clone(value));
        }
    }
    Ok((values, stats))
}

#[cfg(test)]
#[path = "compute_tests.rs"]
mod tests;
