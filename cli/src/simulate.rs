//! `marsc simulate`: compiles a script for N workers as a run would (the same
//! passes, worker assignment included) and replays the plan on the cluster model of
//! `marsc::simulate`, without running any kernel; prints one row per assignment
//! policy (or JSON). The model lives in the library; this is its flags and its table.

use clap::{Args, ValueEnum};
use marsc::driver::{self, Options};
use marsc::error::JobError;
use marsc::fuse::Fusion;
use marsc::run::preflight::projected_chunk_bytes;
use marsc::simulate::units::{
    format_bytes, format_rate, format_seconds, parse_bandwidth, parse_duration, parse_flop_rate,
};
use marsc::simulate::{from_subtasks, simulate, Cluster, SimReport};
use marsc::size::parse_size;
use marsc::subtask::AssignPolicy;
use std::path::PathBuf;
use std::process::ExitCode;

/// What `marsc simulate --help` says about the model.
pub const ABOUT: &str = "\
Replay a script's plan on a simulated cluster of N workers (no kernel runs): prints
the makespan, the bytes moved between workers, peak memory per worker and how busy
the coordinator is, for each worker-assignment policy.

The model: each worker has one core and runs the subtasks the coordinator hands it,
pinned ones where the scheduling pass put them, others where most of their input
bytes are (as the executor does), at most a queue depth at a time. A subtask computes
for the bytes it streams (what it reads from other subtasks, plus every value its
operations compute) / --compute-rate, plus 2*m*k*n / --flop-rate per block matrix
product. A chunk read on another worker travels in --latency +
size / --bandwidth and holds the sender's uplink and the receiver's downlink while it
does (one port each way, first come first served: transfers into one worker queue
up). Each work order and each completion report is one --latency hop; the coordinator
spends --coordinator-cost per subtask, one subtask at a time. Chunk sizes are the
compiler's projections (what --memory-limit budgets with); a worker holds a chunk
from its computation or arrival until its last reader finishes. Not modelled:
spilling, failures, kernels' own parallelism, memory bandwidth shared by cores.

Columns: makespan (until the coordinator learns of the last completion), bytes moved
between workers and the number of transfers, peak memory per worker (the largest and
the mean), the coordinator's busy share of the makespan (near 100%: it is the
bottleneck) and the workers' mean busy share. Scripts that run in stages are not
supported yet.";

#[derive(Args, Debug)]
pub struct SimulateArgs {
    /// The .mt script whose plan is simulated.
    script: PathBuf,

    /// Number of simulated workers (each one core with its own links).
    #[arg(long, value_name = "N", default_value_t = 100,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    workers: u32,

    /// Each worker's link speed in each direction: 10GB/s, 10Gb/s (bits), 500MiB/s.
    #[arg(long, value_name = "RATE", default_value = "10GB/s", value_parser = parse_bandwidth)]
    bandwidth: f64,

    /// One message hop (a work order, a report, the start of a transfer): 50us,
    /// 1.5ms, 0.
    #[arg(long, value_name = "TIME", default_value = "50us", value_parser = parse_duration)]
    latency: f64,

    /// Which initial worker assignment to simulate; `all` prints one row each.
    #[arg(long, value_name = "POLICY", value_enum, default_value = "all")]
    assign: SimAssign,

    /// Bytes per second one core streams: a subtask's inputs plus every value it
    /// computes (fitted on release runs here: see docs/simulate.md).
    #[arg(long, value_name = "RATE", default_value = "5GB/s", value_parser = parse_bandwidth)]
    compute_rate: f64,

    /// Floating-point operations per second of one core in block matrix products.
    #[arg(long, value_name = "RATE", default_value = "45GFLOP/s", value_parser = parse_flop_rate)]
    flop_rate: f64,

    /// The coordinator's time per subtask (it handles one at a time).
    #[arg(long, value_name = "TIME", default_value = "1us", value_parser = parse_duration)]
    coordinator_cost: f64,

    /// Subtasks in flight per worker (default: adapts as the executor's does, to
    /// about 200us of work, between 2 and 1024).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    queue_depth: Option<u32>,

    /// Largest automatically sized chunk, as for a run.
    #[arg(long, value_name = "SIZE", default_value = "128MiB", value_parser = parse_size)]
    chunk_bytes: u64,

    /// Simulate the plan without fusion (every chunk operation its own subtask).
    #[arg(long)]
    no_fuse: bool,

    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

/// `--assign` of `marsc simulate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum SimAssign {
    /// The Mars breadth-first assignment (what runs use by default).
    Bfs,
    /// The i-th initial subtask goes to worker i mod N.
    RoundRobin,
    /// A fixed-seed random permutation of the initial subtasks, dealt round-robin.
    Random,
    /// Each of the three, one row each.
    All,
}

impl SimAssign {
    fn policies(self) -> Vec<(&'static str, AssignPolicy)> {
        let all = [
            ("bfs", AssignPolicy::Bfs),
            ("round-robin", AssignPolicy::RoundRobin),
            ("random", AssignPolicy::Random),
        ];
        let wanted = match self {
            SimAssign::Bfs => "bfs",
            SimAssign::RoundRobin => "round-robin",
            SimAssign::Random => "random",
            SimAssign::All => return all.to_vec(),
        };
        all.into_iter()
            .filter(|(name, _)| *name == wanted)
            .collect()
    }
}

/// Runs `marsc simulate`.
pub fn main(args: SimulateArgs) -> ExitCode {
    let name = args.script.display().to_string();
    let text = match std::fs::read(&args.script) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(_) => {
                eprintln!("error: {name} is not valid UTF-8 text");
                return ExitCode::from(1);
            }
        },
        Err(error) => {
            eprintln!("error: cannot read {name}: {error}");
            return ExitCode::from(1);
        }
    };
    let options = Options {
        chunk_bytes: args.chunk_bytes,
        fusion: if args.no_fuse {
            Fusion::Off
        } else {
            Fusion::default()
        },
        workers: Some(args.workers),
        ..Options::default()
    };
    let chunks = match driver::chunk(&text, &options) {
        Ok((_, chunks)) => chunks,
        Err(error) => return report(&name, &text, error),
    };
    let projected = projected_chunk_bytes(&chunks);
    let cluster = Cluster {
        workers: args.workers,
        bandwidth: args.bandwidth,
        latency: args.latency,
        compute_rate: args.compute_rate,
        flop_rate: args.flop_rate,
        coordinator_cost: args.coordinator_cost,
        queue_depth: args.queue_depth,
    };
    let mut rows = Vec::new();
    for (policy_name, policy) in args.assign.policies() {
        let options = Options {
            assign: policy,
            ..options.clone()
        };
        let subtasks = match driver::subtask_graph(&chunks, &options) {
            Ok(subtasks) => subtasks,
            Err(error) => return report(&name, &text, error),
        };
        let graph = from_subtasks(&subtasks, &chunks, &projected);
        rows.push((policy_name, simulate(&graph, &cluster)));
    }
    if args.json {
        println!("{:#}", to_json(&name, &cluster, &rows));
    } else {
        print!("{}", table(&name, &cluster, &rows));
    }
    ExitCode::SUCCESS
}

fn report(name: &str, text: &str, error: JobError) -> ExitCode {
    match error {
        JobError::NeedsStages(_) => {
            eprintln!(
                "error: not supported yet: simulating {name}, a script that runs in stages \
                 (it needs a tensor's value before its plan is known)"
            );
            ExitCode::from(1)
        }
        other => crate::report::report(name, text, other),
    }
}

fn model_line(cluster: &Cluster) -> String {
    format!(
        "links {} each way, latency {}, a core computes {} and {}, coordinator {} per subtask",
        format_rate(cluster.bandwidth, "B/s"),
        format_seconds(cluster.latency),
        format_rate(cluster.compute_rate, "B/s"),
        format_rate(cluster.flop_rate, "FLOP/s"),
        format_seconds(cluster.coordinator_cost),
    )
}

fn table(name: &str, cluster: &Cluster, rows: &[(&str, SimReport)]) -> String {
    let mut out = String::new();
    let subtasks = rows.first().map_or(0, |(_, report)| report.subtasks);
    let depth = rows.first().map_or(0, |(_, report)| report.queue_depth);
    out += &format!(
        "{name}: {subtasks} subtasks on {} simulated workers (queue depth {depth})\n",
        cluster.workers
    );
    out += &format!("model: {}\n", model_line(cluster));
    let header = [
        "assign",
        "makespan",
        "moved",
        "transfers",
        "peak mem max",
        "peak mem mean",
        "coordinator",
        "cores busy",
    ];
    let mut lines: Vec<[String; 8]> = vec![header.map(String::from)];
    for (policy, report) in rows {
        lines.push([
            policy.to_string(),
            format_seconds(report.makespan),
            format_bytes(report.transfer_bytes as f64),
            report.transfers.to_string(),
            format_bytes(report.peak_memory_max() as f64),
            format_bytes(report.peak_memory_mean()),
            format!("{:.0}%", 100.0 * report.coordinator_share()),
            format!("{:.0}%", 100.0 * report.worker_utilization()),
        ]);
    }
    let widths: Vec<usize> = (0..8)
        .map(|column| {
            lines
                .iter()
                .map(|line| line[column].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for line in &lines {
        let cells: Vec<String> = line
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(column, (cell, &width))| {
                if column == 0 {
                    format!("{cell:<width$}")
                } else {
                    format!("{cell:>width$}")
                }
            })
            .collect();
        out += cells.join("  ").trim_end();
        out.push('\n');
    }
    out
}

fn to_json(name: &str, cluster: &Cluster, rows: &[(&str, SimReport)]) -> serde_json::Value {
    let runs: Vec<serde_json::Value> = rows
        .iter()
        .map(|(policy, report)| {
            serde_json::json!({
                "assign": policy,
                "subtasks": report.subtasks,
                "queue_depth": report.queue_depth,
                "makespan_seconds": report.makespan,
                "transfer_bytes": report.transfer_bytes,
                "transfers": report.transfers,
                "peak_memory_bytes_max": report.peak_memory_max(),
                "peak_memory_bytes_mean": report.peak_memory_mean(),
                "coordinator_busy_seconds": report.coordinator_busy,
                "coordinator_busy_share": report.coordinator_share(),
                "worker_utilization": report.worker_utilization(),
                "compute_busy_seconds": report.compute_busy,
                "work_bytes": report.work_bytes,
                "flops": report.flops,
            })
        })
        .collect();
    serde_json::json!({
        "script": name,
        "workers": cluster.workers,
        "bandwidth_bytes_per_second": cluster.bandwidth,
        "latency_seconds": cluster.latency,
        "compute_bytes_per_second": cluster.compute_rate,
        "flops_per_second": cluster.flop_rate,
        "coordinator_seconds_per_subtask": cluster.coordinator_cost,
        "runs": runs,
    })
}
