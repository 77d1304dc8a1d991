//! The `marsc` command line (clap): argument definitions, help texts, and the
//! mapping from outcomes to the exit statuses of the CLI contract
//! (0 success, 1 an error in the script or its data, 2 bad usage, 128 + the signal
//! when stopped by one: 130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP).

use crate::choices::{AssignArg, FormatArg, OrderArg, StageArg};
use crate::interrupt;
use crate::progress::ProgressObserver;
use crate::ranks::RankFigures;
use crate::report::report;
use clap::{Args, Parser, Subcommand};
use marsc::driver::{self, Options};
use marsc::error::JobError;
use marsc::fuse::Fusion;
use marsc::job;
use marsc::run::{CancelToken, ProgressFactory, RunOptions, RunStats};
use marsc::size::parse_size;
use marsc_runtime::paths::{file_identity, FileIdentity};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const ABOUT: &str = "Compile and run chunked tensor programs (.mt scripts)";

const LONG_ABOUT: &str = "\
marsc compiles a .mt script — a subset of Python whose library mirrors mars.tensor and
NumPy — into a graph of chunk operations and runs it on several workers. Every static
error in the script is reported, with its source location, before anything runs.

Examples:
  marsc examples/monte_carlo_pi.mt          compile and run a script
  marsc check script.mt                     only compile; report errors
  marsc --emit tileable script.mt           print an intermediate representation
  marsc --emit tileable --format dot s.mt | dot -Tsvg > graph.svg";

#[derive(Parser, Debug)]
#[command(
    name = "marsc",
    version,
    about = ABOUT,
    long_about = LONG_ABOUT,
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,

    #[command(flatten)]
    run: RunArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Compile a script without running it; print every diagnostic; exit 0 if none.
    /// A script that needs a tensor's value to go on (it runs in stages) is checked
    /// up to there.
    Check {
        /// The .mt script to check.
        script: PathBuf,
        #[command(flatten)]
        compile: CompileArgs,
    },
    /// Start an interactive session (also what `marsc` with no script does).
    Repl {
        /// Number of workers (default: the number of cores); `:workers N` changes it.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
        workers: Option<u32>,
        #[command(flatten)]
        compile: CompileArgs,
        /// Run every chunk operation as its own subtask instead of fusing them (for
        /// comparison; values are the same).
        #[arg(long)]
        no_fuse: bool,
        /// Run every chunk operation in the interpreter instead of JIT-compiled code
        /// (`:stats` then shows 0 JIT kernels).
        #[arg(long)]
        no_jit: bool,
        /// Keep each input's chunk data within SIZE (e.g. 512MiB), spilling to disk
        /// past it; a step that alone cannot fit is refused before anything runs.
        #[arg(long, value_name = "SIZE", value_parser = parse_size)]
        memory_limit: Option<u64>,
    },
    /// Run the priority pass on a raw DAG file and print the execution order.
    Order {
        /// A DAG file: one `name: dep1 dep2 ...` line per node.
        graph: PathBuf,
    },
    /// Start the job service: a REST API and a web dashboard that run submitted
    /// scripts (on 127.0.0.1 with a random token by default; see docs/api.md).
    Serve(crate::serve::ServeArgs),
    /// Run a script on a `marsc serve` server; prints what a local run prints and
    /// exits with its status; Ctrl-C cancels the job.
    Submit(crate::client::SubmitArgs),
    /// List a server's jobs.
    Jobs(crate::client::JobsArgs),
    /// Show a job's state and its progress by op.
    Status(crate::client::JobArgs),
    /// Cancel a job.
    Cancel(crate::client::JobArgs),
    /// Replay a script's plan on a simulated cluster (makespan, bytes moved, peak
    /// memory per worker), for each worker-assignment policy; runs no kernel.
    #[command(long_about = crate::simulate::ABOUT)]
    Simulate(crate::simulate::SimulateArgs),
}

/// Options that shape compilation.
#[derive(Args, Debug, Clone)]
struct CompileArgs {
    /// Largest automatically sized chunk ("auto" chunks): 64KiB, 1MiB, 2GiB, ... A big
    /// tensor is cut finer, into at least 16 chunks of at least 8MiB, so that the
    /// workers share it evenly.
    #[arg(long, value_name = "SIZE", default_value = "128MiB", value_parser = parse_size)]
    chunk_bytes: u64,
}

#[derive(Args, Debug)]
struct RunArgs {
    /// The .mt script to compile and run.
    script: Option<PathBuf>,

    /// Compile up to STAGE, print its dump to stdout, and run nothing. A script
    /// that runs in stages (it needs a tensor's value to go on) is shown stage by
    /// stage, each under a `# stage N` heading; only the values its decisions need
    /// are computed (nothing is printed or saved).
    #[arg(long, value_name = "STAGE", value_enum)]
    emit: Option<StageArg>,

    /// Output format of --emit: text, or a Graphviz picture (dot).
    #[arg(long, value_name = "FORMAT", value_enum, default_value = "text")]
    format: FormatArg,

    #[command(flatten)]
    compile: CompileArgs,

    /// Number of workers, each a thread with its own chunk store (default: the
    /// number of cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    workers: Option<u32>,

    /// Keep the run's chunk data within SIZE, spilling chunks to a temporary
    /// directory past it; a step that alone cannot fit is refused before running.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    memory_limit: Option<u64>,

    /// Testing aid: make each subtask attempt fail with probability RATE (seeded by
    /// SEED, default 0); failed subtasks are retried, so the output is unchanged.
    #[arg(long, value_name = "RATE[,SEED]", value_parser = parse_inject_faults)]
    inject_faults: Option<(f64, u64)>,

    /// Testing aid: drop worker N once FRACTION of the subtasks has run; its chunks
    /// are recomputed from their lineage, so the output is unchanged. Needs
    /// --workers 2 or more.
    #[arg(long, value_name = "N@FRACTION", value_parser = parse_kill_worker)]
    kill_worker: Option<(u32, f64)>,

    /// How the scheduling pass spreads the initial subtasks (those reading no other
    /// subtask) over the workers: bfs keeps neighbouring subtasks together (the Mars
    /// design), round-robin deals them out in order, random shuffles them with a fixed
    /// seed. The other subtasks go where most of their input bytes are. With --emit,
    /// workers are assigned only when --workers is given.
    #[arg(long, value_name = "POLICY", value_enum, default_value = "bfs")]
    assign: AssignArg,

    /// The order in which ready subtasks run: priority keeps few chunk results alive
    /// (it finishes a branch before starting another), bfs runs every subtask of one
    /// depth before any deeper one.
    #[arg(long, value_name = "POLICY", value_enum, default_value = "priority")]
    order: OrderArg,

    /// Run every chunk operation as its own subtask, instead of fusing each producer
    /// into the subtask of the chunks that read it (for comparison; results are the
    /// same).
    #[arg(long)]
    no_fuse: bool,

    /// Run every chunk operation in the interpreter instead of JIT-compiled code
    /// (`kernels` in --stats-json is then 0).
    #[arg(long)]
    no_jit: bool,

    /// Print a summary of the run to stderr.
    #[arg(long)]
    stats: bool,

    /// Write the run's figures as JSON to FILE: tileables, chunks, subtasks, kernels
    /// (JIT-compiled), workers, compile_seconds, jit_seconds, run_seconds, transfer_bytes,
    /// peak_live_chunks, peak_live_bytes, spilled_bytes, retries, subtasks_per_worker,
    /// and passes (each compiler pass's seconds and the resident set after it: parse,
    /// lower, tile, fuse, schedule, plan, jit; empty for a script run in stages).
    /// Refused (exit 2) if FILE is the script, a file it loads or saves, or the trace.
    #[arg(long, value_name = "FILE")]
    stats_json: Option<PathBuf>,

    /// Write a Chrome trace-event JSON of the run (one track per worker) to FILE.
    /// Refused (exit 2) if FILE is the script or a file it loads or saves.
    #[arg(long, value_name = "FILE")]
    trace: Option<PathBuf>,

    /// Do not show a progress bar (otherwise one appears on stderr, when it is a
    /// terminal, for runs longer than about a second).
    #[arg(long)]
    quiet: bool,
}

/// Parses the command line, runs the requested command, and returns the exit status.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            // clap prints help/version to stdout (exit 0) and usage errors to stderr (exit 2).
            let _ = error.print();
            return ExitCode::from(error.exit_code() as u8);
        }
    };
    // Only a script's run takes part in an MPI job: any other command would run once
    // per rank (the REPL, a server, N copies of every diagnostic).
    let runs_a_script = cli.command.is_none() && cli.run.script.is_some();
    if !runs_a_script {
        if let Some(code) = crate::ranks::refuse_other_commands() {
            return code;
        }
    }
    match cli.command {
        Some(Command::Check { script, compile }) => check(&script, &compile),
        Some(Command::Repl {
            workers,
            compile,
            no_fuse,
            no_jit,
            memory_limit,
        }) => crate::repl::main(
            Options {
                jit: !no_jit,
                fusion: fusion(no_fuse),
                ..options(&compile)
            },
            RunOptions {
                workers: workers.unwrap_or_else(|| RunOptions::default().workers),
                memory_limit,
                ..RunOptions::default()
            },
        ),
        Some(Command::Order { graph }) => order(&graph),
        Some(Command::Serve(args)) => crate::serve::main(args),
        Some(Command::Submit(args)) => crate::client::submit(args),
        Some(Command::Jobs(args)) => crate::client::jobs(args),
        Some(Command::Status(args)) => crate::client::status(args),
        Some(Command::Cancel(args)) => crate::client::cancel(args),
        Some(Command::Simulate(args)) => crate::simulate::main(args),
        None => match cli.run.script.clone() {
            Some(script) => run(&script, &cli.run),
            None => crate::repl::main(
                run_args_options(&cli.run),
                RunOptions {
                    workers: cli
                        .run
                        .workers
                        .unwrap_or_else(|| RunOptions::default().workers),
                    memory_limit: cli.run.memory_limit,
                    ..RunOptions::default()
                },
            ),
        },
    }
}

/// The fusion level of `--no-fuse` (off) or its absence (the default).
fn fusion(no_fuse: bool) -> Fusion {
    if no_fuse {
        Fusion::Off
    } else {
        Fusion::default()
    }
}

/// The compile options the run flags set (all but the worker count, which a REPL
/// session places its subtasks for itself).
fn run_args_options(args: &RunArgs) -> Options {
    Options {
        jit: !args.no_jit,
        fusion: fusion(args.no_fuse),
        assign: args.assign.into(),
        order: args.order.into(),
        ..options(&args.compile)
    }
}

fn options(compile: &CompileArgs) -> Options {
    Options {
        chunk_bytes: compile.chunk_bytes,
        ..Options::default()
    }
}

/// Reads a script, reporting an unreadable file as an error in the script's data.
fn read_script(path: &Path) -> Result<String, ExitCode> {
    match std::fs::read(path) {
        Ok(bytes) => String::from_utf8(bytes).map_err(|_| {
            eprintln!("error: {} is not valid UTF-8 text", path.display());
            ExitCode::from(1)
        }),
        Err(error) => {
            eprintln!("error: cannot read {}: {error}", path.display());
            Err(ExitCode::from(1))
        }
    }
}

fn check(script: &Path, compile: &CompileArgs) -> ExitCode {
    let text = match read_script(script) {
        Ok(text) => text,
        Err(code) => return code,
    };
    let name = script.display().to_string();
    match driver::check(&text, &options(compile)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => report(&name, &text, error),
    }
}

fn run(script: &Path, args: &RunArgs) -> ExitCode {
    // Before any thread starts (MPI's among them): they inherit the blocked signals.
    if let Err(message) = interrupt::install() {
        eprintln!("error: {message}");
        return ExitCode::from(1);
    }
    let ranks = match crate::ranks::start() {
        Ok(ranks) => ranks,
        Err(code) => return code,
    };
    let Some(ranks) = ranks else {
        return match run_job(script, args, None) {
            Ok(Some(stats)) => report_stats(&stats, args, None),
            Ok(None) => ExitCode::SUCCESS,
            Err(code) => code,
        };
    };
    #[cfg(feature = "mpi")]
    {
        // A panic on one rank would leave the others waiting for it: end them all.
        let world = std::sync::Arc::clone(&ranks.world);
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            run_job(script, args, Some(&ranks))
        }))
        .unwrap_or_else(|_| world.abort(101));
        let status = match &outcome {
            Ok(_) => 0,
            Err(code) => exit_status_number(*code),
        };
        let (code, exits) = ranks.finish(status);
        match outcome {
            Ok(Some(stats)) if code == ExitCode::SUCCESS && world.rank() == 0 => {
                report_stats(&stats, args, Some(&exits))
            }
            _ => code,
        }
    }
    #[cfg(not(feature = "mpi"))]
    match ranks {}
}

/// An exit code's number (the MPI handshake carries it): `ExitCode` has no
/// accessor, but its `Debug` shows the number.
#[cfg(feature = "mpi")]
fn exit_status_number(code: ExitCode) -> u8 {
    format!("{code:?}")
        .chars()
        .filter(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .unwrap_or(1)
}

/// Compiles and runs a script, on this process's workers or, as one rank, on the
/// workers of every rank of an MPI job.
/// Returns the run's figures (none for `--emit`), or the exit status of its
/// failure (reported already).
fn run_job(
    script: &Path,
    args: &RunArgs,
    ranks: Option<&crate::ranks::Ranks>,
) -> Result<Option<RunStats>, ExitCode> {
    let root = ranks.is_none_or(crate::ranks::Ranks::is_root);
    let text = match ranks {
        None => read_script(script),
        Some(ranks) => ranks.read_script(|| read_script(script)),
    };
    let text = text?;
    let name = script.display().to_string();
    let workers = match ranks {
        None => args.workers,
        Some(ranks) => Some(ranks.workers_per_rank(args.workers) * ranks.size()),
    };
    let options = Options {
        // A dump is the same on every machine: it shows workers only when asked to.
        workers,
        ..run_args_options(args)
    };
    // From here on Ctrl-C, SIGTERM and SIGHUP cancel the job: compiling ends at once,
    // a run stops at chunk granularity and cleans up after itself.
    let cancel = CancelToken::new();
    let _watch = interrupt::watch(&cancel);
    let run_options = RunOptions {
        workers: workers.unwrap_or_else(|| RunOptions::default().workers),
        progress: (root && !args.quiet && std::io::stderr().is_terminal())
            .then(|| ProgressFactory::new(|| Box::new(ProgressObserver::new()))),
        trace: args.trace.clone().filter(|_| root),
        memory_limit: args.memory_limit,
        inject_faults: args.inject_faults,
        kill_worker: args.kill_worker,
        cancel,
        inline_small: true,
        ranks: ranks.map(crate::ranks::Ranks::world),
    };
    if let Some(stage) = args.emit {
        // A script that runs in stages computes the values its stages decide on.
        let dumped = job::emit(
            &text,
            stage.into(),
            args.format.into(),
            &options,
            &run_options,
        );
        if interrupt::is_set() {
            eprintln!("interrupted");
            return Err(ExitCode::from(interrupt::exit_status()));
        }
        return match dumped {
            Ok(dump) => {
                if root {
                    print!("{dump}");
                }
                Ok(None)
            }
            Err(error) => Err(report(&name, &text, error)),
        };
    }
    if let Err(message) = check_report_files(args, script, &[]) {
        eprintln!("error: {message}");
        return Err(ExitCode::from(2));
    }
    // Rank 0 of an MPI job alone prints (every rank computes the same values).
    let mut out: Box<dyn std::io::Write> = match root {
        true => Box::new(std::io::stdout().lock()),
        false => Box::new(std::io::sink()),
    };
    let compiled = interrupt::exit_if_interrupted_during(|| {
        job::compile_for_run(&text, &options, &run_options)
    });
    if let Ok(compiled) = &compiled {
        if let Err(message) = check_report_files(args, script, &compiled.tileables.files) {
            eprintln!("error: {message}");
            return Err(ExitCode::from(2));
        }
    }
    let outcome = match compiled {
        // The script needs tensor values to go on: it runs in stages.
        Err(JobError::NeedsStages(_)) => {
            let mut sink = job::TextSink::streaming(&mut out);
            let outcome = job::run_staged_to(&text, &options, &run_options, &mut sink);
            let written = sink.finish();
            outcome.and_then(|stats| written.map(|()| stats))
        }
        compiled => {
            compiled.and_then(|compiled| job::run_compiled(&compiled, &run_options, &mut out))
        }
    };
    if interrupt::is_set() {
        eprintln!("interrupted");
        return Err(ExitCode::from(interrupt::exit_status()));
    }
    match outcome {
        Ok(stats) => Ok(Some(stats)),
        Err(error) => Err(report(&name, &text, error)),
    }
}

/// Refuses a `--stats-json`/`--trace` file that would overwrite the script, one of
/// `files` (what the script loads and saves), or the other report: under any
/// spelling, hard link or symlink of it.
fn check_report_files(args: &RunArgs, script: &Path, files: &[PathBuf]) -> Result<(), String> {
    let script_identity = file_identity(script);
    let mut earlier: Vec<(&str, FileIdentity)> = Vec::new();
    for (flag, path) in [("--stats-json", &args.stats_json), ("--trace", &args.trace)] {
        let Some(path) = path else { continue };
        let shown = path.display();
        let identity = file_identity(path);
        if identity == script_identity {
            return Err(format!(
                "{flag} {shown} would overwrite the script {}",
                script.display()
            ));
        }
        if let Some(file) = files.iter().find(|file| file_identity(file) == identity) {
            return Err(format!(
                "{flag} {shown} would overwrite {}, which the script loads or saves",
                file.display()
            ));
        }
        if let Some((other, _)) = earlier.iter().find(|(_, seen)| *seen == identity) {
            return Err(format!("{flag} {shown} is also the file of {other}"));
        }
        earlier.push((flag, identity));
    }
    Ok(())
}

/// `--stats` on stderr and `--stats-json FILE`; under MPI with each rank's
/// figures (`ranks`).
fn report_stats(stats: &RunStats, args: &RunArgs, ranks: Option<&[RankFigures]>) -> ExitCode {
    if args.stats {
        eprintln!("{stats}");
        for rank in ranks.unwrap_or_default() {
            eprintln!(
                "rank {}: sent {} bytes, received {} bytes, peak RSS {} bytes",
                rank.rank, rank.bytes_sent, rank.bytes_received, rank.peak_rss_bytes
            );
        }
    }
    if let Some(path) = &args.stats_json {
        let mut json = stats.to_json();
        if let (Some(ranks), Some(fields)) = (ranks, json.as_object_mut()) {
            let ranks = ranks
                .iter()
                .map(|rank| {
                    serde_json::json!({
                        "rank": rank.rank,
                        "bytes_sent": rank.bytes_sent,
                        "bytes_received": rank.bytes_received,
                        "peak_rss_bytes": rank.peak_rss_bytes,
                    })
                })
                .collect();
            fields.insert("ranks".to_string(), serde_json::Value::Array(ranks));
        }
        let json = format!("{json:#}\n");
        if let Err(error) = std::fs::write(path, json) {
            eprintln!("error: cannot write {}: {error}", path.display());
            return ExitCode::from(1);
        }
    }
    ExitCode::SUCCESS
}

/// `RATE[,SEED]` of `--inject-faults`.
fn parse_inject_faults(text: &str) -> Result<(f64, u64), String> {
    let (rate, seed) = text.split_once(',').unwrap_or((text, "0"));
    let rate: f64 = rate
        .trim()
        .parse()
        .map_err(|_| format!("`{rate}` is not a rate; write e.g. 0.05 or 0.05,7"))?;
    if !(0.0..=1.0).contains(&rate) {
        return Err(format!("the fault rate {rate} is not between 0 and 1"));
    }
    let seed = seed
        .trim()
        .parse()
        .map_err(|_| format!("`{seed}` is not a seed (a whole number)"))?;
    Ok((rate, seed))
}

/// `N@FRACTION` of `--kill-worker`.
fn parse_kill_worker(text: &str) -> Result<(u32, f64), String> {
    let usage = || format!("`{text}` is not N@FRACTION; write e.g. 1@0.5");
    let (worker, fraction) = text.split_once('@').ok_or_else(usage)?;
    let worker = worker.trim().parse().map_err(|_| usage())?;
    let fraction: f64 = fraction.trim().parse().map_err(|_| usage())?;
    if !(0.0..=1.0).contains(&fraction) {
        return Err(format!("the fraction {fraction} is not between 0 and 1"));
    }
    Ok((worker, fraction))
}

fn order(graph: &Path) -> ExitCode {
    use std::io::Write;
    let text = match read_script(graph) {
        Ok(text) => text,
        Err(code) => return code,
    };
    match marsc::schedule::order_report(&text) {
        Ok(report) => {
            // A closed pipe (`marsc order g.dag | head`) is not an error of the graph.
            let _ = std::io::stdout().lock().write_all(report.as_bytes());
            ExitCode::SUCCESS
        }
        Err(error) => {
            let name = graph.display().to_string();
            eprintln!("{}", marsc::schedule::render_dag_error(&name, &error));
            ExitCode::from(1)
        }
    }
}
