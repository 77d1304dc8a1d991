//! The session's runner: what runs an input's outputs, and the [`Stager`] that runs
//! a stage in the middle of lowering an input (staged execution, see
//! [`crate::lower::stage`]). Both are one mechanism: a [`SessionLowering`] tiled,
//! planned against the session's [`ChunkCache`] (what an earlier stage or input
//! computed is not computed again) and run; a stage's last program output is the
//! hidden print of the value lowering asked for.
//!
//! The runner is shared (`Rc<RefCell<_>>`) by the session and its lowering state,
//! since a stage starts from inside lowering. What the stages of an input print is
//! kept until the input ends, in program order, before the input's own outputs; a
//! stage's failure is kept too, and the input fails with it.

use super::compute::{plan_with_cache, plan_with_cache_inspected, run_with_cache, ChunkCache};
use super::handle_steps;
use crate::chunk::{ChunkGraph, ChunkOutput};
use crate::driver::{render_ir, tile_graph, EmitFormat, Options, Stage};
use crate::error::JobError;
use crate::lower::incremental::SessionLowering;
use crate::lower::stage::{Staged, Stager};
use crate::run::output::{shown, write_outputs, PrintSink, Printed};
use crate::run::{RunOptions, RunStats};
use crate::subtask::SubtaskGraph;
use crate::tileable::prune::prune;
use marsc_grammar::LineIndex;
use marsc_runtime::ArrayData;
use std::time::Instant;

/// What a run gives back.
pub struct Ran {
    /// What its shown outputs print, in order.
    pub printed: Vec<Printed>,
    /// The hidden output's value (a stage's).
    pub value: Option<ArrayData>,
    /// Per print handle: the step key its chunks are all cached under, if they are.
    pub cached: Vec<Option<u64>>,
}

/// Runs a session's inputs and stages.
pub struct Runner<'s> {
    pub cache: ChunkCache,
    /// The session's compile options, with the worker count placement is for.
    pub options: Options,
    /// The running input's run options (its own cancel token).
    pub run_options: RunOptions,
    /// What the stages of the running input printed, in order.
    shown: Vec<Printed>,
    /// Why a stage of the running input failed.
    failure: Option<JobError>,
    /// The figures of the running input's runs, added up.
    stats: Option<RunStats>,
    /// Where a stage's prints go as soon as it has run (a script's output, so a
    /// long loop shows its progress); `None` keeps them for the input's end.
    sink: Option<&'s mut dyn PrintSink>,
    /// `--emit` of a script that runs in stages: each run is dumped here, and only
    /// what a stage's decision needs is executed.
    emit: Option<StageDumps>,
}

/// The dumps of `--emit` for a script that runs in stages: one per run, under a
/// heading that says which value of the source the stage computes.
pub struct StageDumps {
    stage: Stage,
    format: EmitFormat,
    /// The script (spans index it).
    source: String,
    /// The dumps so far, each with its heading.
    pub text: String,
    /// Stages dumped so far.
    pub stages: usize,
}

impl StageDumps {
    pub fn new(stage: Stage, format: EmitFormat, source: &str) -> StageDumps {
        StageDumps {
            stage,
            format,
            source: source.to_string(),
            text: String::new(),
            stages: 0,
        }
    }

    /// Dumps one run: `hidden` is 1 for a stage (its last output is the value the
    /// program needs), 0 for the script's last run; `planned` is its subtasks and
    /// kernel listing when the stage dumped needs them.
    fn dump(
        &mut self,
        lowering: &SessionLowering,
        chunks: &ChunkGraph,
        planned: Option<&(SubtaskGraph, String)>,
        hidden: usize,
    ) {
        use std::fmt::Write as _;
        self.stages += 1;
        let wanted = lowering
            .graph
            .outputs
            .get(lowering.program_outputs.wrapping_sub(1))
            .filter(|_| hidden == 1)
            .map(|output| output.span());
        let what = match wanted {
            Some(span) => {
                let (line, _) = LineIndex::new(&self.source).line_col(span.start as usize);
                let code = self
                    .source
                    .get(span.start as usize..span.end as usize)
                    .and_then(|code| code.lines().next())
                    .unwrap_or("");
                format!("computes `{code}` (line {line}), which the script needs to go on")
            }
            None => "the rest of the script".to_string(),
        };
        let comment = match self.format {
            EmitFormat::Text => "#",
            EmitFormat::Dot => "//",
        };
        let _ = writeln!(self.text, "{comment} stage {}: {what}", self.stages);
        let body = match (self.stage, planned) {
            (Stage::Kernels, Some((_, kernels))) => kernels.clone(),
            (stage, planned) => render_ir(
                stage,
                self.format,
                &self.source,
                &lowering.graph,
                Some(chunks),
                planned.map(|(subtasks, _)| subtasks),
            ),
        };
        self.text.push_str(&body);
        if !self.text.ends_with('\n') {
            self.text.push('\n');
        }
    }
}

impl<'s> Runner<'s> {
    pub fn new(options: Options, run_options: RunOptions) -> Runner<'s> {
        Runner {
            cache: ChunkCache::default(),
            options,
            run_options,
            shown: Vec::new(),
            failure: None,
            stats: None,
            sink: None,
            emit: None,
        }
    }

    /// Makes the runner dump each run for `--emit` instead of running it, running
    /// only what a stage's decision needs.
    pub fn emit_to(&mut self, dumps: StageDumps) {
        self.emit = Some(dumps);
    }

    /// The dumps made since [`emit_to`](Self::emit_to).
    pub fn take_dumps(&mut self) -> Option<StageDumps> {
        self.emit.take()
    }

    /// A runner whose stages print to `sink` as soon as each has run.
    pub fn printing_to(
        options: Options,
        run_options: RunOptions,
        sink: &'s mut dyn PrintSink,
    ) -> Runner<'s> {
        Runner {
            sink: Some(sink),
            ..Runner::new(options, run_options)
        }
    }

    /// Shows what a stage printed: to the sink at once, else kept for the input's
    /// end. A sink that fails (a closed pipe) fails the input.
    fn show(&mut self, printed: Vec<Printed>) -> Result<(), JobError> {
        match &mut self.sink {
            Some(sink) => {
                for one in printed {
                    sink.print(one)?;
                }
                Ok(())
            }
            None => {
                self.shown.extend(printed);
                Ok(())
            }
        }
    }

    /// Starts an input run with these options.
    pub fn begin_input(&mut self, options: &Options, run_options: &RunOptions) {
        self.options = options.clone();
        self.run_options = run_options.clone();
        self.shown.clear();
        self.failure = None;
        self.stats = None;
    }

    /// What the input's stages printed, and why a stage failed (if one did).
    pub fn take_stage_outcome(&mut self) -> (Vec<Printed>, Option<JobError>) {
        (std::mem::take(&mut self.shown), self.failure.take())
    }

    /// The figures of the input's runs so far, added up (`None`: nothing ran).
    pub fn input_stats(&self) -> Option<&RunStats> {
        self.stats.as_ref()
    }

    /// Runs `lowering`: shows its first `program_outputs - hidden` outputs, and
    /// gives back the value of the last one when `hidden` is 1.
    pub fn run(
        &mut self,
        lowering: &SessionLowering,
        compile_started: Instant,
        hidden: usize,
    ) -> Result<Ran, JobError> {
        // What the program can no longer reach frees its room in the cache.
        self.cache.evict_steps(&lowering.evicted);
        if self.emit.is_some() {
            return self.dump_and_decide(lowering, hidden);
        }
        let chunks = tile_graph(&lowering.graph)?;
        let keep_steps = handle_steps(&chunks, lowering.program_outputs);
        // Subtasks are placed for this session's workers, as a script's are for its run.
        let options = Options {
            workers: self.options.workers.or(Some(self.run_options.workers)),
            ..self.options.clone()
        };
        let planned = plan_with_cache(
            &chunks,
            lowering.program_outputs,
            &keep_steps,
            &self.cache,
            &options,
        )
        .map_err(JobError::from)?;
        let subtasks = planned.plan.subtasks.len() as u64;
        let jit = planned.jit.clone();
        let compile_seconds = compile_started.elapsed().as_secs_f64();
        let (values, exec) = run_with_cache(
            &chunks,
            &lowering.graph,
            planned,
            &self.run_options,
            &mut self.cache,
        )?;
        self.add_stats(RunStats {
            tileables: lowering.graph.len() as u64,
            chunks: chunks.num_chunks() as u64,
            subtasks,
            kernels: jit.kernels,
            jit_seconds: jit.jit_seconds,
            compile_seconds,
            stages: 1,
            exec,
            passes: Default::default(),
        });
        let shown_outputs = lowering.program_outputs - hidden;
        let mut printed: Vec<Printed> = Vec::new();
        write_outputs(
            &chunks,
            &values,
            shown_outputs,
            |index| lowering.tensor_echoes.contains(&index),
            &mut printed,
        )?;
        let value = match chunks.outputs.get(shown_outputs) {
            Some(ChunkOutput::Print { items, .. }) if hidden == 1 => {
                let item = items
                    .first()
                    .ok_or_else(|| JobError::internal("stage", "the staged value has no item"))?;
                let value = shown(&chunks, &values, item)?;
                Some(value.data)
            }
            _ => None,
        };
        let cache = &self.cache;
        let cached = chunks.outputs[lowering.program_outputs..]
            .iter()
            .map(|output| match output {
                ChunkOutput::Print { items, .. } => items
                    .first()
                    .and_then(|item| item.tensor_step())
                    .filter(|&step| {
                        chunks
                            .step(step)
                            .chunk_ids()
                            .all(|chunk| cache.get(&chunks.chunk_key(chunk)).is_some())
                    })
                    .map(|step| chunks.step(step).key),
                ChunkOutput::Save { .. } => None,
            })
            .collect();
        Ok(Ran {
            printed,
            value,
            cached,
        })
    }

    /// `--emit` of a run: dumps it as it would run; for a stage, then runs only
    /// the value the program needs (not the stage's prints and saves: `--emit`
    /// writes nothing the user asked to keep), so lowering can go on.
    fn dump_and_decide(
        &mut self,
        lowering: &SessionLowering,
        hidden: usize,
    ) -> Result<Ran, JobError> {
        let chunks = tile_graph(&lowering.graph)?;
        let keep_steps = handle_steps(&chunks, lowering.program_outputs);
        let wants_plan = self.emit.as_ref().is_some_and(|dumps| {
            matches!(dumps.stage, Stage::Subtask | Stage::Kernels | Stage::All)
        });
        let mut planned = None;
        if wants_plan {
            let mut capture = |subtasks: &SubtaskGraph,
                               plan: &marsc_runtime::plan::Plan<
                marsc_runtime::chunk_kernel::Kernel,
            >| {
                planned = Some((
                    subtasks.clone(),
                    marsc_runtime::jit_rewrite::kernel_listing(plan),
                ));
            };
            plan_with_cache_inspected(
                &chunks,
                lowering.program_outputs,
                &keep_steps,
                &self.cache,
                &self.options,
                &mut capture,
            )
            .map_err(JobError::from)?;
        }
        if let Some(dumps) = &mut self.emit {
            dumps.dump(lowering, &chunks, planned.as_ref(), hidden);
        }
        if hidden == 0 {
            return Ok(Ran {
                printed: Vec::new(),
                value: None,
                cached: Vec::new(),
            });
        }
        // The value the stage decides on, with the session's variables' handles (so
        // the cache keeps what later stages reuse), and nothing else.
        let wanted = lowering.program_outputs - 1;
        let mut graph = lowering.graph.clone();
        graph.outputs = lowering.graph.outputs[wanted..].to_vec();
        let decision = SessionLowering {
            graph: prune(&graph),
            program_outputs: 1,
            tensor_echoes: Vec::new(),
            loads: lowering.loads.clone(),
            handles: lowering.handles.clone(),
            evicted: Vec::new(),
        };
        let dumps = self.emit.take();
        let ran = self.run(&decision, Instant::now(), 1);
        self.emit = dumps;
        ran
    }

    /// [`run`](Self::run); when it fails, also what the outputs before the failing
    /// one print, as a script's failed run shows them: each shown output is run on
    /// its own, in program order, until one fails (what they share is cached by
    /// then, so little is computed again).
    pub fn run_or_salvage(
        &mut self,
        lowering: &SessionLowering,
        compile_started: Instant,
        hidden: usize,
    ) -> Result<Ran, (JobError, Vec<Printed>)> {
        let error = match self.run(lowering, compile_started, hidden) {
            Ok(ran) => return Ok(ran),
            Err(error) => error,
        };
        let mut printed = Vec::new();
        if matches!(error, JobError::Cancelled) {
            return Err((error, printed));
        }
        for index in 0..lowering.program_outputs - hidden {
            let mut graph = lowering.graph.clone();
            graph.outputs = vec![lowering.graph.outputs[index].clone()];
            let single = SessionLowering {
                graph: prune(&graph),
                program_outputs: 1,
                tensor_echoes: if lowering.tensor_echoes.contains(&index) {
                    vec![0]
                } else {
                    Vec::new()
                },
                loads: Vec::new(),
                handles: Vec::new(),
                evicted: Vec::new(),
            };
            match self.run(&single, Instant::now(), 0) {
                Ok(ran) => printed.extend(ran.printed),
                Err(_) => break,
            }
        }
        Err((error, printed))
    }

    fn add_stats(&mut self, run: RunStats) {
        let Some(total) = &mut self.stats else {
            self.stats = Some(run);
            return;
        };
        total.tileables += run.tileables;
        total.chunks += run.chunks;
        total.subtasks += run.subtasks;
        total.kernels += run.kernels;
        total.jit_seconds += run.jit_seconds;
        total.compile_seconds = run.compile_seconds;
        total.stages += run.stages;
        let (sum, one) = (&mut total.exec, run.exec);
        sum.subtasks += one.subtasks;
        sum.run_seconds += one.run_seconds;
        sum.transfer_bytes += one.transfer_bytes;
        sum.peak_live_chunks = sum.peak_live_chunks.max(one.peak_live_chunks);
        sum.peak_live_bytes = sum.peak_live_bytes.max(one.peak_live_bytes);
        sum.spilled_bytes += one.spilled_bytes;
        sum.retries += one.retries;
        sum.recomputed += one.recomputed;
        add_per_worker(
            &mut sum.subtasks_per_worker,
            &one.subtasks_per_worker,
            |a, b| *a += b,
        );
        add_per_worker(
            &mut sum.peak_worker_bytes,
            &one.peak_worker_bytes,
            |a, b| *a = (*a).max(b),
        );
    }
}

fn add_per_worker(sum: &mut Vec<u64>, one: &[u64], combine: impl Fn(&mut u64, u64)) {
    if sum.len() < one.len() {
        sum.resize(one.len(), 0);
    }
    for (a, &b) in sum.iter_mut().zip(one) {
        combine(a, b);
    }
}

impl Stager for Runner<'_> {
    fn run_stage(&mut self, lowering: SessionLowering) -> Option<Staged> {
        match self.run_or_salvage(&lowering, Instant::now(), 1) {
            Ok(ran) => {
                if let Err(error) = self.show(ran.printed) {
                    self.failure = Some(error);
                    return None;
                }
                ran.value.map(|value| Staged {
                    value,
                    cached: ran.cached,
                })
            }
            Err((error, printed)) => {
                let shown = self.show(printed);
                self.failure = Some(shown.err().unwrap_or(error));
                None
            }
        }
    }
}
