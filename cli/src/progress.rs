//! The progress bar on stderr (indicatif). It appears only once a run has taken
//! about a second, so short runs print nothing extra; the caller leaves it out with
//! `--quiet` or when stderr is not a terminal.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use marsc::run::Progress;
use marsc_runtime::exec::ExecObserver;
use std::time::{Duration, Instant};

/// How long a run goes before the bar is shown.
const SHOW_AFTER: Duration = Duration::from_secs(1);

/// An [`ExecObserver`] drawing subtasks done out of the total.
pub struct ProgressObserver {
    started: Instant,
    total: u64,
    bar: Option<ProgressBar>,
}

impl ProgressObserver {
    pub fn new() -> ProgressObserver {
        ProgressObserver {
            started: Instant::now(),
            total: 0,
            bar: None,
        }
    }

    fn show(&mut self) -> &ProgressBar {
        let total = self.total;
        self.bar.get_or_insert_with(|| {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            // The template is a constant, so this only fails if it is edited badly;
            // the default style is a fine fallback.
            if let Ok(style) = ProgressStyle::with_template(
                "{elapsed_precise} [{bar:40}] {pos}/{len} subtasks ({eta} left)",
            ) {
                bar.set_style(style.progress_chars("=> "));
            }
            bar
        })
    }
}

impl Default for ProgressObserver {
    fn default() -> Self {
        Self::new()
    }
}

impl Progress for ProgressObserver {
    /// Removes the bar from the terminal (before results are printed).
    fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

impl ExecObserver for ProgressObserver {
    fn on_start(&mut self, total_subtasks: u64, _workers: u32) {
        self.started = Instant::now();
        self.total = total_subtasks;
    }

    fn on_subtask_done(&mut self, done: u64, _total: u64) {
        if self.bar.is_none() && self.started.elapsed() < SHOW_AFTER {
            return;
        }
        self.show().set_position(done);
    }
}

impl Drop for ProgressObserver {
    fn drop(&mut self) {
        self.finish();
    }
}
