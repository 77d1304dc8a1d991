//! Shared helpers of the data-driven tests: read a case file, honour its header
//! options, run it through the driver (the same path the CLI takes), and render
//! the outcome as the text that snapshots pin.
//!
//! A case is a `.mt` file under `tests/cases/<stage>/{ok,err}/`. Header comment lines
//! of the form `# key: value` set options: `# chunk-bytes: 64KiB`, `# fuse: off`
//! (or `chain`; fusion is blockwise by default), `# workers: 3` (assign subtasks to
//! that many workers, as a run would; dumps show no workers otherwise).

use marsc::diagnostics::{render_plain, SourceFile};
use marsc::driver::{self, EmitFormat, Options, Stage};
use marsc::fuse::Fusion;
use marsc::job::JobError;
use std::path::{Path, PathBuf};

pub mod python_env;

/// The repository root: scripts name data files relative to it (`load("tests/...")`),
/// as they would when run with `marsc` from the root. Cases save into its `target/`,
/// made here when the build's own target directory is elsewhere (`CARGO_TARGET_DIR`).
pub fn repo_root() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests crate lives in the repository")
        .to_path_buf();
    // Best effort: a case that then cannot save reports the path it could not write.
    let _ = std::fs::create_dir_all(root.join("target"));
    root
}

/// Options read from a case's leading `# key: value` comments. Cases run with the
/// repository root as the working directory and paths left relative, as `marsc` run
/// from the root would see them, so dumps do not depend on where the checkout is.
pub fn case_options(text: &str) -> Options {
    // Every case wants the same directory, so concurrent tests setting it agree.
    std::env::set_current_dir(repo_root()).expect("the repository root is accessible");
    let mut options = Options::default();
    for line in text.lines().take_while(|l| l.starts_with('#')) {
        if let Some((key, value)) = line.trim_start_matches('#').split_once(':') {
            match key.trim() {
                "chunk-bytes" => {
                    options.chunk_bytes =
                        marsc::size::parse_size(value.trim()).expect("valid chunk-bytes header");
                }
                "fuse" => options.fusion = fusion_header(value.trim()),
                "workers" => {
                    options.workers = Some(value.trim().parse().expect("valid workers header"));
                }
                _ => {}
            }
        }
    }
    options
}

/// The fusion level a `# fuse:` header names.
fn fusion_header(value: &str) -> Fusion {
    match value {
        "off" => Fusion::Off,
        "chain" => Fusion::Chain,
        "blockwise" => Fusion::Blockwise,
        other => panic!("`# fuse: {other}` is not off, chain or blockwise"),
    }
}

/// The name a case is shown under in diagnostics: its path below `tests/cases`.
pub fn display_name(path: &Path) -> String {
    let text = path.to_string_lossy().replace('\\', "/");
    match text.find("cases/") {
        Some(at) => text[at + "cases/".len()..].to_string(),
        None => text,
    }
}

/// Compiles a case that must succeed and returns the dump of `stage`.
pub fn run_ok(path: &Path, stage: Stage) -> String {
    let text = std::fs::read_to_string(path).expect("readable case");
    let options = case_options(&text);
    match driver::emit(&text, stage, EmitFormat::Text, &options) {
        Ok(dump) => dump,
        // A script steered by tensor values has no one graph to show; it must
        // check (everything up to the first value it needs).
        Err(JobError::NeedsStages(diagnostic)) => {
            driver::check(&text, &options).expect("a staged script checks");
            let line = text[..diagnostic.span.start as usize].matches('\n').count() + 1;
            format!("runs in stages: the first tensor value it needs is on line {line}\n")
        }
        Err(error) => panic!(
            "{} should compile but failed:\n{}",
            path.display(),
            render_error(path, &text, error)
        ),
    }
}

/// `--emit STAGE` of a case that runs in stages: every stage's dump, as the CLI
/// prints it (each stage computes only the value its decision needs).
pub fn run_staged(path: &Path, stage: Stage) -> String {
    let text = std::fs::read_to_string(path).expect("readable case");
    let options = case_options(&text);
    let run_options = marsc::job::RunOptions {
        workers: 2,
        ..Default::default()
    };
    match marsc::job::emit(&text, stage, EmitFormat::Text, &options, &run_options) {
        Ok(dump) => {
            assert!(
                matches!(
                    driver::emit(&text, stage, EmitFormat::Text, &options),
                    Err(JobError::NeedsStages(_))
                ),
                "{} does not run in stages",
                path.display()
            );
            dump
        }
        Err(error) => panic!(
            "{} should compile but failed:\n{}",
            path.display(),
            render_error(path, &text, error)
        ),
    }
}

/// Compiles a case that must fail with diagnostics and returns them rendered.
pub fn run_err(path: &Path, stage: Stage) -> String {
    let text = std::fs::read_to_string(path).expect("readable case");
    let options = case_options(&text);
    match driver::emit(&text, stage, EmitFormat::Text, &options) {
        Ok(_) => panic!("{} should fail to compile but succeeded", path.display()),
        Err(error @ JobError::Diagnostics(_)) => render_error(path, &text, error),
        Err(other) => panic!("{} failed without a diagnostic: {other:?}", path.display()),
    }
}

fn render_error(path: &Path, text: &str, error: JobError) -> String {
    match error {
        JobError::Diagnostics(diagnostics) => {
            let name = display_name(path);
            render_plain(&SourceFile { name: &name, text }, &diagnostics)
        }
        other => format!("{other:?}"),
    }
}
