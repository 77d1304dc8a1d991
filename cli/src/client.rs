//! The client commands of `marsc serve`: `marsc submit` (runs a script on a
//! server and prints exactly what a local run prints, with the same exit status;
//! a progress bar from the job's event stream; Ctrl-C cancels the job), `marsc
//! jobs`, `marsc status ID` and `marsc cancel ID`. HTTP through `ureq`.

use crate::interrupt;
use crate::progress::ProgressObserver;
use clap::Args;
use marsc::run::{CancelToken, Progress};
use marsc::size::parse_size;
use marsc_runtime::exec::ExecObserver;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::Duration;

/// Where the server is.
#[derive(Args, Debug, Clone)]
pub struct ServerArgs {
    /// The server's URL, as `marsc serve` printed it (a `?token=` in it is used as
    /// the token).
    #[arg(
        long,
        value_name = "URL",
        env = "MARSC_SERVER",
        default_value = "http://127.0.0.1:8086"
    )]
    server: String,

    /// The server's token (default: from the URL, or MARSC_TOKEN).
    #[arg(
        long,
        value_name = "TOKEN",
        env = "MARSC_TOKEN",
        hide_env_values = true
    )]
    token: Option<String>,
}

/// The options of `marsc submit`.
#[derive(Args, Debug)]
pub struct SubmitArgs {
    /// The .mt script to run on the server.
    script: PathBuf,

    #[command(flatten)]
    server: ServerArgs,

    /// Print the job's id and return at once, without waiting for it.
    #[arg(long)]
    detach: bool,

    /// Workers of the job (default: the server's).
    #[arg(long, value_name = "N")]
    workers: Option<u32>,

    /// Largest automatic chunk (default: the server's).
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    chunk_bytes: Option<u64>,

    /// Cancel the job (and fail) if it takes longer than this many seconds.
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,

    /// Run every chunk operation in the interpreter instead of JIT-compiled code.
    #[arg(long)]
    no_jit: bool,

    /// Run every chunk operation as its own subtask.
    #[arg(long)]
    no_fuse: bool,

    /// Do not show a progress bar.
    #[arg(long)]
    quiet: bool,
}

/// The options of `marsc status` and `marsc cancel`.
#[derive(Args, Debug)]
pub struct JobArgs {
    /// The job's id (as `marsc submit --detach` printed it).
    id: u64,

    #[command(flatten)]
    server: ServerArgs,

    /// Print the server's JSON instead of a summary.
    #[arg(long)]
    json: bool,
}

/// The options of `marsc jobs`.
#[derive(Args, Debug)]
pub struct JobsArgs {
    #[command(flatten)]
    server: ServerArgs,

    /// Print the server's JSON instead of a table.
    #[arg(long)]
    json: bool,
}

/// A connection to a server.
struct Connection {
    base: String,
    token: Option<String>,
    agent: ureq::Agent,
}

/// A failure talking to the server: its message, printed as `error: ...`.
type Failed = String;

impl Connection {
    fn new(args: &ServerArgs) -> Connection {
        let mut base = args.server.trim().to_string();
        let mut token = args.token.clone();
        if let Some((url, query)) = base.clone().split_once('?') {
            base = url.to_string();
            for pair in query.split('&') {
                if let Some(value) = pair.strip_prefix("token=") {
                    token = token.or_else(|| Some(value.to_string()));
                }
            }
        }
        while base.ends_with('/') {
            base.pop();
        }
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_connect(Some(Duration::from_secs(10)))
            .build()
            .into();
        Connection { base, token, agent }
    }

    fn finish(
        &self,
        response: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
    ) -> Result<(u16, Vec<u8>), Failed> {
        let mut response = response
            .map_err(|error| format!("cannot reach the server at {}: {error}", self.base))?;
        let status = response.status().as_u16();
        let body = response
            .body_mut()
            .with_config()
            .limit(1 << 30)
            .read_to_vec()
            .map_err(|error| format!("cannot read the server's answer: {error}"))?;
        Ok((status, body))
    }

    fn get(&self, path: &str) -> Result<(u16, Vec<u8>), Failed> {
        let mut request = self.agent.get(format!("{}{path}", self.base));
        if let Some(token) = &self.token {
            request = request.header("Authorization", format!("Bearer {token}"));
        }
        self.finish(request.call())
    }

    fn post(&self, path: &str, body: &Value) -> Result<(u16, Vec<u8>), Failed> {
        let mut request = self
            .agent
            .post(format!("{}{path}", self.base))
            .header("Content-Type", "application/json");
        if let Some(token) = &self.token {
            request = request.header("Authorization", format!("Bearer {token}"));
        }
        self.finish(request.send(body.to_string().as_bytes()))
    }

    /// A JSON answer with a 2xx status; the server's error message otherwise.
    fn json(&self, answer: Result<(u16, Vec<u8>), Failed>) -> Result<Value, Failed> {
        let (status, body) = answer?;
        let value: Value = serde_json::from_slice(&body).map_err(|_| {
            format!(
                "the server at {} answered {status} with something that is not JSON",
                self.base
            )
        })?;
        if (200..300).contains(&status) {
            Ok(value)
        } else {
            let message = value["error"]["message"]
                .as_str()
                .unwrap_or("unknown error");
            Err(format!("the server refused ({status}): {message}"))
        }
    }
}

fn failed(message: Failed) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(1)
}

/// Runs `marsc submit`.
pub fn submit(args: SubmitArgs) -> ExitCode {
    let text = match std::fs::read(&args.script) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(_) => return failed(format!("{} is not valid UTF-8 text", args.script.display())),
        },
        Err(error) => return failed(format!("cannot read {}: {error}", args.script.display())),
    };
    let connection = Connection::new(&args.server);
    let mut options = serde_json::Map::new();
    if let Some(workers) = args.workers {
        options.insert("workers".into(), json!(workers));
    }
    if let Some(bytes) = args.chunk_bytes {
        options.insert("chunk_bytes".into(), json!(bytes));
    }
    if let Some(seconds) = args.timeout {
        options.insert("timeout_s".into(), json!(seconds));
    }
    if args.no_jit {
        options.insert("jit".into(), json!(false));
    }
    if args.no_fuse {
        options.insert("fuse".into(), json!(false));
    }
    let body = json!({
        "script": text,
        "name": args.script.display().to_string(),
        "options": options,
    });
    // Ctrl-C from here on cancels the job rather than the client alone.
    if let Err(error) = interrupt::install() {
        return failed(error.to_string());
    }
    let job = match connection.json(connection.post("/api/jobs", &body)) {
        Ok(job) => job,
        Err(message) => return failed(message),
    };
    let Some(id) = job["id"].as_u64() else {
        return failed("the server gave the job no id".to_string());
    };
    if args.detach {
        println!("{id}");
        return ExitCode::SUCCESS;
    }
    let cancel = CancelToken::new();
    let _watch = interrupt::watch(&cancel);
    let show_bar = !args.quiet && std::io::stderr().is_terminal();
    let state = match follow(&connection, id, &cancel, show_bar) {
        Ok(state) => state,
        Err(message) => return failed(message),
    };
    finish(&connection, id, &state, &cancel)
}

/// Follows a job until it ends: its event stream drives the progress bar, Ctrl-C
/// cancels it. Returns its final state.
fn follow(
    connection: &Connection,
    id: u64,
    cancel: &CancelToken,
    show_bar: bool,
) -> Result<Value, Failed> {
    let (sender, events) = mpsc::channel::<Value>();
    let mut request = connection
        .agent
        .get(format!("{}/api/jobs/{id}/events", connection.base));
    if let Some(token) = &connection.token {
        request = request.header("Authorization", format!("Bearer {token}"));
    }
    // The stream is read on a thread of its own so that Ctrl-C is noticed at once;
    // if it breaks, the job's state is polled instead.
    std::thread::spawn(move || {
        let Ok(response) = request.call() else { return };
        let reader = BufReader::new(response.into_body().into_reader());
        for line in reader.lines() {
            let Ok(line) = line else { return };
            if let Some(data) = line.strip_prefix("data: ") {
                if let Ok(value) = serde_json::from_str::<Value>(data) {
                    if sender.send(value).is_err() {
                        return;
                    }
                }
            }
        }
    });
    let mut bar = show_bar.then(ProgressObserver::new);
    let mut started = false;
    let mut cancel_sent = false;
    loop {
        if cancel.is_cancelled() && !cancel_sent {
            cancel_sent = true;
            connection.json(connection.post(&format!("/api/jobs/{id}/cancel"), &json!({})))?;
        }
        match events.recv_timeout(Duration::from_millis(50)) {
            Ok(event) => {
                if let Some(bar) = &mut bar {
                    let done = event["done"]
                        .as_u64()
                        .or(event["progress"]["done"].as_u64());
                    let total = event["total"]
                        .as_u64()
                        .or(event["progress"]["total"].as_u64());
                    if let (Some(done), Some(total)) = (done, total) {
                        if !started && total > 0 {
                            bar.on_start(total, 0);
                            started = true;
                        }
                        bar.on_subtask_done(done, total);
                    }
                }
                let ended = event["state"]
                    .as_str()
                    .is_some_and(|state| matches!(state, "SUCCEEDED" | "FAILED" | "CANCELLED"));
                if ended {
                    break;
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                // No stream: poll.
                let state = connection.json(connection.get(&format!("/api/jobs/{id}?wait=0.2")))?;
                if state["state"]
                    .as_str()
                    .is_some_and(|s| matches!(s, "SUCCEEDED" | "FAILED" | "CANCELLED"))
                {
                    break;
                }
                if cancel.is_cancelled() && !cancel_sent {
                    continue;
                }
            }
        }
    }
    if let Some(bar) = &mut bar {
        bar.finish();
    }
    connection.json(connection.get(&format!("/api/jobs/{id}")))
}

/// Prints what the job printed, then its error as a local run renders it, and
/// returns the exit status a local run would have.
fn finish(connection: &Connection, id: u64, state: &Value, cancel: &CancelToken) -> ExitCode {
    let output = match connection.get(&format!("/api/jobs/{id}/output")) {
        Ok((200, bytes)) => bytes,
        Ok((status, _)) => return failed(format!("the server did not give the output ({status})")),
        Err(message) => return failed(message),
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if state["state"] != "CANCELLED" {
        // A closed pipe is not the job's failure.
        let _ = out.write_all(&output).and_then(|()| out.flush());
    }
    match state["state"].as_str() {
        Some("SUCCEEDED") => ExitCode::SUCCESS,
        Some("CANCELLED") => {
            eprintln!("interrupted");
            if cancel.is_cancelled() {
                ExitCode::from(interrupt::exit_status())
            } else {
                ExitCode::from(130)
            }
        }
        _ => {
            eprint!(
                "{}",
                state["error_text"]
                    .as_str()
                    .unwrap_or("error: the job failed\n")
            );
            let code = state["exit_code"].as_u64().unwrap_or(1);
            ExitCode::from(u8::try_from(code).unwrap_or(1))
        }
    }
}

/// Runs `marsc jobs`.
pub fn jobs(args: JobsArgs) -> ExitCode {
    let connection = Connection::new(&args.server);
    let list = match connection.json(connection.get("/api/jobs")) {
        Ok(list) => list,
        Err(message) => return failed(message),
    };
    if args.json {
        println!("{list:#}");
        return ExitCode::SUCCESS;
    }
    println!("{:>6}  {:<10}  {:>17}  NAME", "ID", "STATE", "SUBTASKS");
    for job in list["jobs"].as_array().into_iter().flatten() {
        println!(
            "{:>6}  {:<10}  {:>17}  {}",
            job["id"],
            job["state"].as_str().unwrap_or("?"),
            format!("{}/{}", job["progress"]["done"], job["progress"]["total"]),
            job["name"].as_str().unwrap_or("")
        );
    }
    ExitCode::SUCCESS
}

fn summary(job: &Value) -> String {
    let mut line = format!(
        "job {} ({}): {}, {}/{} subtasks",
        job["id"],
        job["name"].as_str().unwrap_or(""),
        job["state"].as_str().unwrap_or("?"),
        job["progress"]["done"],
        job["progress"]["total"]
    );
    if let (Some(start), Some(end)) = (job["started_at"].as_f64(), job["finished_at"].as_f64()) {
        line.push_str(&format!(", {:.2} s", end - start));
    }
    line
}

/// Runs `marsc status ID`.
pub fn status(args: JobArgs) -> ExitCode {
    let connection = Connection::new(&args.server);
    match connection.json(connection.get(&format!("/api/jobs/{}", args.id))) {
        Ok(job) if args.json => {
            println!("{job:#}");
            ExitCode::SUCCESS
        }
        Ok(job) => {
            println!("{}", summary(&job));
            for op in job["progress"]["ops"].as_array().into_iter().flatten() {
                println!(
                    "  line {:>4}  {:>6}/{:<6}  {}",
                    op["line"],
                    op["done"],
                    op["total"],
                    op["text"].as_str().unwrap_or("")
                );
            }
            if let Some(error) = job["error_text"].as_str() {
                eprint!("{error}");
            }
            ExitCode::SUCCESS
        }
        Err(message) => failed(message),
    }
}

/// Runs `marsc cancel ID`.
pub fn cancel(args: JobArgs) -> ExitCode {
    let connection = Connection::new(&args.server);
    match connection.json(connection.post(&format!("/api/jobs/{}/cancel", args.id), &json!({}))) {
        Ok(job) if args.json => {
            println!("{job:#}");
            ExitCode::SUCCESS
        }
        Ok(job) => {
            println!("{}", summary(&job));
            ExitCode::SUCCESS
        }
        Err(message) => failed(message),
    }
}
