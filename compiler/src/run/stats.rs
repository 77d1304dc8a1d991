//! The figures of a run: every `--stats-json` field of the CLI contract (plus
//! `subtasks_per_worker`), and the human summary `--stats` prints.

use marsc_runtime::exec::ExecStats;
use serde_json::json;
use std::fmt;

/// What compiling and running a script took.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunStats {
    pub tileables: u64,
    pub chunks: u64,
    pub subtasks: u64,
    /// Distinct JIT-compiled kernels the plan runs (0 with `--no-jit`).
    pub kernels: u64,
    /// Time spent compiling them (0 when every kernel was already cached).
    pub jit_seconds: f64,
    pub compile_seconds: f64,
    /// Runs the job made: 1, or one per stage of a script that needs tensor values
    /// to go on (the figures are then added up over the stages, peaks are maxima).
    pub stages: u64,
    /// The executor's figures (workers, run time, transfers, liveness, ...).
    pub exec: ExecStats,
    /// Each compiler pass's time and the resident set after it (empty for a script
    /// run in stages, whose passes run once per stage).
    pub passes: crate::driver::PassFigures,
}

impl RunStats {
    /// The `--stats-json` object.
    pub fn to_json(&self) -> serde_json::Value {
        json!({
            "tileables": self.tileables,
            "chunks": self.chunks,
            "subtasks": self.subtasks,
            "stages": self.stages,
            "kernels": self.kernels,
            "workers": self.exec.workers,
            "compile_seconds": self.compile_seconds,
            "jit_seconds": self.jit_seconds,
            "run_seconds": self.exec.run_seconds,
            "transfer_bytes": self.exec.transfer_bytes,
            "peak_live_chunks": self.exec.peak_live_chunks,
            "peak_live_bytes": self.exec.peak_live_bytes,
            "spilled_bytes": self.exec.spilled_bytes,
            "retries": self.exec.retries,
            "subtasks_per_worker": self.exec.subtasks_per_worker,
            "passes": self.passes.0.iter().map(|pass| json!({
                "pass": pass.pass,
                "seconds": pass.seconds,
                "rss_bytes_after": pass.rss_bytes,
            })).collect::<Vec<_>>(),
        })
    }
}

impl fmt::Display for RunStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "compiled {} tileables into {} chunks and {} subtasks ({} JIT kernels) in {:.3}s",
            self.tileables, self.chunks, self.subtasks, self.kernels, self.compile_seconds
        )?;
        if self.stages > 1 {
            writeln!(f, "ran in {} stages", self.stages)?;
        }
        if !self.passes.0.is_empty() {
            let split: Vec<String> = self
                .passes
                .0
                .iter()
                .map(|pass| format!("{} {:.3}s", pass.pass, pass.seconds))
                .collect();
            writeln!(f, "passes: {}", split.join(", "))?;
        }
        write!(f, "{}", self.exec)
    }
}
