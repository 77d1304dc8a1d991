//! `marsc serve`: starts the job service (the `marsc-server` crate) from the
//! command line, prints the dashboard's URL with its token (Jupyter style), and on
//! SIGINT/SIGTERM stops taking jobs, cancels the running ones and exits once they
//! have cleaned up.

use clap::Args;
use marsc::size::parse_size;
use marsc_server::config::{random_token, Config};
use marsc_server::Server;
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// The options of `marsc serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on. Only loopback is allowed without a token; for remote
    /// use keep loopback and tunnel (`ssh -L 8086:127.0.0.1:8086 host`), or put a
    /// TLS reverse proxy in front and pass --allow-host.
    #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:8086")]
    bind: SocketAddr,

    /// The token every request must carry (`Authorization: Bearer TOKEN`, or the
    /// URL printed at start for the dashboard). Default: a random one.
    #[arg(
        long,
        value_name = "TOKEN",
        env = "MARSC_TOKEN",
        hide_env_values = true
    )]
    token: Option<String>,

    /// Accept requests without a token (loopback only; anyone on this machine can
    /// then run code as you).
    #[arg(long, conflicts_with = "token")]
    no_token: bool,

    /// The only directory scripts may load from and save to; relative paths
    /// resolve against it, and paths escaping it (absolute, `..`, symlinks) are
    /// compile-time errors. Default: no restriction, relative to the working
    /// directory.
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,

    /// Workers of each job (default: the number of cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    workers: Option<u32>,

    /// Keep the chunk data of the running big jobs together within SIZE (each gets
    /// an equal share: SIZE / max-jobs), spilling to disk past it. Small jobs (at
    /// most 256 subtasks over 16 MiB of chunks) run beside them, on top of it.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    memory_limit: Option<u64>,

    /// Big jobs running at once (as many compile at once, and as many small jobs
    /// run beside them, so a burst of big jobs does not hold up small ones); later
    /// ones wait, first come first served.
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=1024))]
    max_jobs: u64,

    /// Jobs not running yet (queued, compiling, or waiting for a slot); submissions
    /// beyond it get 429.
    #[arg(long, value_name = "N", default_value_t = 256)]
    max_queued: usize,

    /// Largest request body (a script).
    #[arg(long, value_name = "SIZE", default_value = "1MiB", value_parser = parse_size)]
    max_body: u64,

    /// Most bytes a job may print.
    #[arg(long, value_name = "SIZE", default_value = "16MiB", value_parser = parse_size)]
    max_output: u64,

    /// Most chunks a job may compile to.
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    max_chunks: u64,

    /// Longest a job may run, in seconds (then it fails); default: no limit.
    #[arg(long, value_name = "SECONDS")]
    job_timeout: Option<f64>,

    /// Default largest automatic chunk of a job.
    #[arg(long, value_name = "SIZE", default_value = "128MiB", value_parser = parse_size)]
    chunk_bytes: u64,

    /// Also accept this name in the Host header (e.g. a reverse proxy's); may be
    /// repeated. Loopback names and the bound address are always accepted.
    #[arg(long, value_name = "NAME")]
    allow_host: Vec<String>,
}

/// Runs `marsc serve`.
pub fn main(args: ServeArgs) -> ExitCode {
    match serve(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(1)
        }
    }
}

fn serve(args: ServeArgs) -> Result<(), String> {
    let token = match (args.no_token, args.token) {
        (true, _) => None,
        (false, Some(token)) => Some(token),
        (false, None) => Some(random_token().map_err(|error| error.to_string())?),
    };
    let job_timeout = match args.job_timeout {
        Some(seconds) if seconds.is_finite() && seconds > 0.0 => {
            Some(Duration::from_secs_f64(seconds))
        }
        Some(_) => return Err("--job-timeout must be a positive number of seconds".to_string()),
        None => None,
    };
    let root = match args.root {
        Some(root) => Some(
            root.canonicalize()
                .map_err(|error| format!("--root {}: {error}", root.display()))?,
        ),
        None => None,
    };
    let config = Config {
        bind: args.bind,
        token,
        root,
        workers: args
            .workers
            .unwrap_or_else(|| marsc::run::RunOptions::default().workers),
        memory_limit: args.memory_limit,
        max_jobs: args.max_jobs as usize,
        max_queued: args.max_queued,
        max_body: usize::try_from(args.max_body).unwrap_or(usize::MAX),
        max_output: args.max_output,
        max_chunks: args.max_chunks,
        chunk_bytes: args.chunk_bytes,
        job_timeout,
        allowed_hosts: args.allow_host,
        ..Config::default()
    };
    let server = Server::bind(config).map_err(|error| error.to_string())?;
    let url = server.url();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|error| format!("cannot start the runtime: {error}"))?;
    // The handlers are in place before the address is announced: a client that
    // signals as soon as it reads the address stops the server cleanly.
    let stop = {
        let _context = runtime.enter();
        stop_signal()?
    };
    {
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        let _ = writeln!(out, "marsc serve: listening on {}", server.address());
        let _ = writeln!(out, "    open {url}");
        let _ = out.flush();
    }
    runtime
        .block_on(server.run(stop, Duration::from_secs(30)))
        .map_err(|error| error.to_string())?;
    eprintln!("marsc serve: stopped");
    Ok(())
}

/// A future that completes on SIGINT or SIGTERM; the handlers are registered now
/// (inside the runtime's context), not when the future is first polled.
fn stop_signal() -> Result<impl std::future::Future<Output = ()>, String> {
    use tokio::signal::unix::{signal, SignalKind};
    let cannot = |error: std::io::Error| format!("cannot handle signals: {error}");
    let mut terminate = signal(SignalKind::terminate()).map_err(cannot)?;
    let mut interrupt = signal(SignalKind::interrupt()).map_err(cannot)?;
    Ok(async move {
        tokio::select! {
            _ = interrupt.recv() => {}
            _ = terminate.recv() => {}
        }
        eprintln!("marsc serve: stopping (cancelling running jobs)");
    })
}
