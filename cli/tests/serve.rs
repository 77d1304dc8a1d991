//! `marsc serve` and its clients as processes: `marsc submit` prints exactly what a
//! local run prints (stdout byte for byte, stderr and exit status too) for every
//! script in `examples/` and for failing scripts; `--detach`, `marsc jobs`,
//! `marsc status`, `marsc cancel`; a server refuses to listen beyond loopback
//! without a token, and stops on SIGTERM.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const TOKEN: &str = "cli-test-token-123456";

struct ServerProcess {
    child: Child,
    url: String,
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace")
        .to_path_buf()
}

/// Starts `marsc serve` on a free loopback port, in the repository's root.
fn serve(extra: &[&str]) -> ServerProcess {
    let mut child = Command::new(env!("CARGO_BIN_EXE_marsc"))
        .args([
            "serve",
            "--bind",
            "127.0.0.1:0",
            "--token",
            TOKEN,
            "--workers",
            "2",
        ])
        .args(extra)
        .current_dir(repo_root())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("marsc serve starts");
    let stdout = child.stdout.take().expect("stdout");
    let mut lines = BufReader::new(stdout).lines();
    let mut url = String::new();
    for line in lines.by_ref() {
        let line = line.expect("a line");
        if let Some(open) = line.trim().strip_prefix("open ") {
            url = open.to_string();
            break;
        }
    }
    assert!(url.contains("?token="), "no URL printed: {url}");
    // Keep reading stdout so the server never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    ServerProcess { child, url }
}

/// Sends a signal with `kill`.
fn signal(name: &str, pid: u32) {
    let status = Command::new("kill")
        .args([format!("-{name}"), pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success(), "kill -{name} failed");
}

fn marsc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_marsc"))
        .args(args)
        .current_dir(repo_root())
        .env_remove("MARSC_TOKEN")
        .env_remove("MARSC_SERVER")
        .output()
        .expect("marsc runs")
}

fn base(server: &ServerProcess) -> String {
    server.url.split('?').next().unwrap_or("").to_string()
}

fn assert_same(what: &str, local: &Output, remote: &Output) {
    assert_eq!(
        String::from_utf8_lossy(&remote.stdout),
        String::from_utf8_lossy(&local.stdout),
        "{what}: stdout differs"
    );
    assert_eq!(remote.stdout, local.stdout, "{what}: stdout bytes differ");
    assert_eq!(
        String::from_utf8_lossy(&remote.stderr),
        String::from_utf8_lossy(&local.stderr),
        "{what}: stderr differs"
    );
    assert_eq!(
        remote.status.code(),
        local.status.code(),
        "{what}: status differs"
    );
}

#[test]
fn submit_prints_exactly_what_a_local_run_prints_for_every_example() {
    let server = serve(&[]);
    let url = base(&server);
    let mut examples: Vec<PathBuf> = std::fs::read_dir(repo_root().join("examples"))
        .expect("examples")
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|e| e == "mt"))
        .collect();
    examples.sort();
    assert!(examples.len() >= 10);
    for example in &examples {
        let relative = example
            .strip_prefix(repo_root())
            .expect("inside")
            .to_string_lossy()
            .to_string();
        let local = marsc(&[&relative, "--workers", "2", "--quiet"]);
        let remote = marsc(&[
            "submit",
            &relative,
            "--server",
            &url,
            "--token",
            TOKEN,
            "--workers",
            "2",
        ]);
        assert_same(&relative, &local, &remote);
        assert!(local.status.success(), "{relative} fails locally");
    }
}

#[test]
fn submit_reports_errors_as_a_local_run_does() {
    let server = serve(&[]);
    let dir = tempfile::tempdir().expect("dir");
    let scripts = [
        ("syntax.mt", "import mars.tensor as mt\nx = (1 +\n"),
        (
            "names.mt",
            "import mars.tensor as mt\nprint(mt.ones(3))\nprint(nope)\nprint(also_nope)\n",
        ),
        (
            "runtime.mt",
            "import mars.tensor as mt\nprint(mt.arange(3))\nprint(mt.arange(3) ** -1)\n",
        ),
    ];
    for (name, text) in scripts {
        let path = dir.path().join(name);
        std::fs::write(&path, text).expect("write");
        let path = path.to_string_lossy().to_string();
        let local = marsc(&[&path, "--workers", "2", "--quiet"]);
        let remote = marsc(&["submit", &path, "--server", &server.url]);
        assert_same(name, &local, &remote);
        assert_eq!(local.status.code(), Some(1), "{name}");
    }
    let missing = marsc(&["submit", "no/such.mt", "--server", &server.url]);
    assert_eq!(missing.status.code(), Some(1));
    let wrong = marsc(&[
        "submit",
        "examples/trapezoid.mt",
        "--server",
        &base(&server),
        "--token",
        "wrong-token-123",
    ]);
    assert_eq!(wrong.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("401"));
}

#[test]
fn detach_jobs_status_and_cancel() {
    let server = serve(&["--max-jobs", "1"]);
    let dir = tempfile::tempdir().expect("dir");
    let long = dir.path().join("long.mt");
    std::fs::write(
        &long,
        "import mars.tensor as mt\nx = mt.random.rand(3000, 3000, chunks=300)\ny = x @ x\nz = y @ y\nprint((z @ z).sum())\n",
    )
    .expect("write");
    let long = long.to_string_lossy().to_string();
    let detached = marsc(&["submit", &long, "--server", &server.url, "--detach"]);
    assert!(detached.status.success());
    let id = String::from_utf8_lossy(&detached.stdout).trim().to_string();
    assert!(id.parse::<u64>().is_ok(), "{id:?}");
    let listed = marsc(&["jobs", "--server", &server.url]);
    assert!(listed.status.success());
    let listing = String::from_utf8_lossy(&listed.stdout).to_string();
    assert!(
        listing.contains("long.mt") && listing.contains("STATE"),
        "{listing}"
    );
    let status = marsc(&["status", &id, "--server", &server.url, "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&status.stdout).expect("json");
    assert_eq!(json["id"].to_string(), id);
    let cancelled = marsc(&["cancel", &id, "--server", &server.url]);
    assert!(cancelled.status.success());
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let status = marsc(&["status", &id, "--server", &server.url]);
        let text = String::from_utf8_lossy(&status.stdout).to_string();
        if text.contains("CANCELLED") {
            break;
        }
        assert!(Instant::now() < deadline, "{text}");
        std::thread::sleep(Duration::from_millis(100));
    }
    let unknown = marsc(&["status", "999", "--server", &server.url]);
    assert_eq!(unknown.status.code(), Some(1));
}

#[test]
fn ctrl_c_on_submit_cancels_the_job() {
    let server = serve(&[]);
    let dir = tempfile::tempdir().expect("dir");
    let long = dir.path().join("long.mt");
    std::fs::write(
        &long,
        "import mars.tensor as mt\nx = mt.random.rand(3000, 3000, chunks=300)\ny = x @ x\nz = y @ y\nprint((z @ z).sum())\n",
    )
    .expect("write");
    let child = Command::new(env!("CARGO_BIN_EXE_marsc"))
        .args(["submit", &long.to_string_lossy(), "--server", &server.url])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("submit starts");
    std::thread::sleep(Duration::from_millis(1500));
    signal("INT", child.id());
    let output = child.wait_with_output().expect("submit ends");
    assert_eq!(output.status.code(), Some(130));
    assert_eq!(String::from_utf8_lossy(&output.stderr), "interrupted\n");
    assert!(output.stdout.is_empty());
    let jobs = marsc(&["jobs", "--server", &server.url]);
    assert!(String::from_utf8_lossy(&jobs.stdout).contains("CANCELLED"));
}

#[test]
fn serve_refuses_a_public_address_without_a_token() {
    let refused = marsc(&["serve", "--bind", "0.0.0.0:0", "--no-token"]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("without a token"));
}

#[test]
fn serve_stops_on_sigterm() {
    let mut server = serve(&[]);
    signal("TERM", server.child.id());
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let Ok(Some(status)) = server.child.try_wait() {
            assert!(status.success(), "{status:?}");
            break;
        }
        assert!(Instant::now() < deadline, "the server did not stop");
        std::thread::sleep(Duration::from_millis(50));
    }
}
