//! REST tests against a real server on a loopback port: every endpoint, every
//! state transition (cancel while queued, preparing and running), diagnostics,
//! bad requests, the token, the Host guard, limits, and `--root`.

mod common;

use common::{default_config, start, Client, LONG, TOKEN};
use marsc_server::{Config, Server};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::time::{Duration, Instant};

const SMALL: &str = "import mars.tensor as mt\n\
a = mt.arange(12, chunks=4).reshape((3, 4))\n\
print('sum:', a.sum())\n\
print(a * 2, a.T.shape, sep=' | ')\n";

/// What a local run prints.
fn local_output(script: &str) -> String {
    let mut out = Vec::new();
    let run_options = marsc::run::RunOptions {
        workers: 2,
        ..Default::default()
    };
    marsc::job::run(
        script,
        &marsc::driver::Options::default(),
        &run_options,
        &mut out,
    )
    .expect("the script runs locally");
    String::from_utf8(out).expect("utf-8")
}

#[test]
fn a_job_runs_and_serves_output_results_stats_trace_and_graphs() {
    let server = start(default_config());
    let client = Client::new(&server, Some(TOKEN));
    let id = client.submit(SMALL, json!({}));
    let state = client.wait(id);
    assert_eq!(state["state"], "SUCCEEDED", "{state}");
    assert_eq!(state["exit_code"], 0);
    assert!(state["progress"]["total"].as_u64().unwrap_or(0) > 0);
    let ops = state["progress"]["ops"].as_array().expect("ops");
    assert!(!ops.is_empty());
    assert!(ops
        .iter()
        .all(|op| op["done"] == op["total"] && op["line"].as_u64().is_some()));

    let output = client.get(&format!("/api/jobs/{id}/output"));
    assert_eq!(output.status, 200);
    assert_eq!(output.text(), local_output(SMALL));
    let json_output = client
        .get(&format!("/api/jobs/{id}/output?format=json"))
        .json();
    assert_eq!(json_output["prints"][0]["items"][0]["kind"], "text");
    assert_eq!(json_output["prints"][1]["items"][0]["kind"], "tensor");

    let results = client.get(&format!("/api/jobs/{id}/results")).json();
    let names: Vec<&str> = results["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter_map(|r| r["name"].as_str())
        .collect();
    assert_eq!(names, ["p0-1", "p1-0"]);
    let preview = client.get(&format!("/api/jobs/{id}/results/p1-0")).json();
    assert_eq!(preview["shape"], json!([3, 4]));
    assert_eq!(preview["values"][5], json!(10));
    let npy = client.get(&format!("/api/jobs/{id}/results/p1-0.npy"));
    assert_eq!(npy.status, 200);
    assert_eq!(&npy.body[..6], b"\x93NUMPY");
    assert_eq!(npy.body.len(), 128 + 12 * 8);
    let scalar = client.get(&format!("/api/jobs/{id}/results/p0-1?format=npy"));
    assert_eq!(scalar.status, 200);

    let stats = client.get(&format!("/api/jobs/{id}/stats")).json();
    for field in [
        "tileables",
        "chunks",
        "subtasks",
        "workers",
        "run_seconds",
        "peak_live_bytes",
    ] {
        assert!(stats.get(field).is_some(), "stats lack {field}: {stats}");
    }
    let trace = client.get(&format!("/api/jobs/{id}/trace")).json();
    assert!(trace["traceEvents"]
        .as_array()
        .is_some_and(|e| !e.is_empty()));
    let spans = client.get(&format!("/api/jobs/{id}/spans")).json();
    let rows = spans["spans"].as_array().expect("span rows");
    let total = state["progress"]["total"].as_u64().expect("total");
    // One row per subtask, each naming its subtask: [worker, start, end, op, subtask].
    let mut subtasks: Vec<u64> = rows
        .iter()
        .map(|row| row[4].as_u64().expect("subtask"))
        .collect();
    subtasks.sort_unstable();
    assert_eq!(subtasks, (0..total).collect::<Vec<u64>>(), "{spans}");
    // Each worker's memory: [held, peak, spilled], held within the peak.
    let memory = spans["memory"].as_array().expect("memory");
    assert!(!memory.is_empty(), "{spans}");
    for worker in memory {
        assert!(worker[0].as_u64() <= worker[1].as_u64(), "{spans}");
    }
    assert!(
        memory.iter().any(|worker| worker[1].as_u64() > Some(0)),
        "{spans}"
    );
    assert_eq!(client.get(&format!("/api/jobs/{id}/source")).text(), SMALL);

    for stage in ["ast", "tileable", "chunk", "subtask", "kernels"] {
        let dump = client.get(&format!("/api/jobs/{id}/graph/{stage}"));
        assert_eq!(dump.status, 200, "{stage}: {}", dump.text());
        assert!(!dump.body.is_empty());
    }
    let dot = client.get(&format!("/api/jobs/{id}/graph/tileable?format=dot"));
    assert!(dot.text().starts_with("digraph"), "{}", dot.text());
    let has_dot = std::process::Command::new("dot").arg("-V").output().is_ok();
    let svg = client.get(&format!("/api/jobs/{id}/graph/subtask?format=svg"));
    if has_dot {
        assert_eq!(svg.status, 200);
        assert!(svg.text().contains("<svg"));
    } else {
        assert_eq!(svg.status, 501);
    }

    let listed = client.get("/api/jobs?state=succeeded").json();
    assert_eq!(listed["jobs"][0]["id"], id);
    assert_eq!(
        client.get("/api/jobs?state=RUNNING").json()["jobs"],
        json!([])
    );
    let deleted = client.delete(&format!("/api/jobs/{id}"));
    assert_eq!(deleted.status, 200);
    assert_eq!(client.get(&format!("/api/jobs/{id}")).status, 404);
}

/// Reads an SSE stream until it ends; returns its (event, data) pairs.
fn read_events(server: &marsc_server::Running, path: &str) -> Vec<(String, Value)> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into();
    let response = agent
        .get(format!("{}{path}", server.base()))
        .header("Authorization", format!("Bearer {TOKEN}"))
        .call()
        .expect("the stream opens");
    assert_eq!(
        response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok()),
        Some("text/event-stream")
    );
    let reader = BufReader::new(response.into_body().into_reader());
    let mut events = Vec::new();
    let mut kind = String::new();
    for line in reader.lines() {
        let Ok(line) = line else { break };
        if let Some(name) = line.strip_prefix("event: ") {
            kind = name.to_string();
        } else if let Some(data) = line.strip_prefix("data: ") {
            let data: Value = serde_json::from_str(data).expect("JSON data");
            events.push((kind.clone(), data));
        }
    }
    events
}

#[test]
fn the_event_stream_shows_every_state_of_a_queued_job() {
    let server = start(Config {
        max_jobs: 1,
        ..default_config()
    });
    let client = Client::new(&server, Some(TOKEN));
    // While it compiles, the one compile place is taken: the next job queues.
    let long = client.submit(SLOW_TO_COMPILE, json!({}));
    client.wait_for_state(long, "PREPARING", Duration::from_secs(30));
    let second = client.submit(SMALL, json!({}));
    assert_eq!(
        client.get(&format!("/api/jobs/{second}")).json()["state"],
        "QUEUED"
    );
    let canceller = {
        let client = Client::new(&server, Some(TOKEN));
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            client.post(&format!("/api/jobs/{long}/cancel"), &json!({}))
        })
    };
    let events = read_events(&server, &format!("/api/jobs/{second}/events"));
    let cancelled = canceller.join().expect("cancel thread");
    assert_eq!(cancelled.status, 202);
    assert_eq!(events[0].0, "snapshot");
    assert_eq!(events[0].1["state"], "QUEUED");
    let states: Vec<&str> = events
        .iter()
        .filter(|(kind, _)| kind == "state")
        .filter_map(|(_, data)| data["state"].as_str())
        .collect();
    assert_eq!(states, ["PREPARING", "RUNNING", "SUCCEEDED"], "{events:?}");
    assert!(events
        .iter()
        .any(|(kind, data)| kind == "progress" && data["total"].as_u64() > Some(0)));
    assert_eq!(client.wait(long)["state"], "CANCELLED");
    // A finished job's stream is its snapshot alone.
    let after = read_events(&server, &format!("/api/jobs/{second}/events"));
    assert_eq!(after.len(), 1);
    assert_eq!(after[0].1["state"], "SUCCEEDED");
}

#[test]
fn cancel_while_running_ends_within_a_second_and_leaves_no_files() {
    let root = tempfile::tempdir().expect("temp dir");
    let server = start(Config {
        root: Some(root.path().to_path_buf()),
        ..default_config()
    });
    let client = Client::new(&server, Some(TOKEN));
    let script = format!("{LONG}mt.save('out.npy', w)\n");
    let id = client.submit(&script, json!({}));
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let state = client.get(&format!("/api/jobs/{id}")).json();
        if state["state"] == "RUNNING" && state["progress"]["done"].as_u64() > Some(0) {
            break;
        }
        assert!(
            Instant::now() < deadline && state["state"] != "SUCCEEDED",
            "{state}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let asked = Instant::now();
    let reply = client.post(&format!("/api/jobs/{id}/cancel"), &json!({}));
    assert_eq!(reply.status, 202);
    assert!(matches!(
        reply.json()["state"].as_str(),
        Some("CANCELLING" | "CANCELLED")
    ));
    client.wait_for_state(id, "CANCELLED", Duration::from_secs(1));
    assert!(
        asked.elapsed() < Duration::from_secs(1),
        "took {:?}",
        asked.elapsed()
    );
    let state = client.get(&format!("/api/jobs/{id}")).json();
    assert_eq!(state["exit_code"], 130);
    let left: Vec<_> = std::fs::read_dir(root.path()).expect("root").collect();
    assert!(left.is_empty(), "files left behind: {left:?}");
    // Cancelling an ended job changes nothing.
    let again = client.post(&format!("/api/jobs/{id}/cancel"), &json!({}));
    assert_eq!(again.json()["state"], "CANCELLED");
}

/// A script too big for the small lane (1334 subtasks) that runs in milliseconds.
const BIG_QUICK: &str = "import mars.tensor as mt\nprint(mt.ones(1000, chunks=1).sum())\n";

/// A script whose compilation takes a while (many chunks).
/// A script whose compile takes a while (about 300 k chunks) and whose run takes
/// seconds, so that a cancel sent a few hundred milliseconds after it starts
/// preparing lands before it ends, however fast the machine compiles.
const SLOW_TO_COMPILE: &str = "import mars.tensor as mt\n\
a = mt.ones((6000, 6000), chunks=20)\n\
print((a + 1).sum())\n\
x = mt.random.rand(3000, 3000, chunks=300)\n\
y = x @ x\n\
z = y @ y\n\
print((z @ z).sum())\n";

#[test]
fn cancel_while_preparing_or_queued() {
    let server = start(Config {
        max_jobs: 1,
        ..default_config()
    });
    let client = Client::new(&server, Some(TOKEN));
    let preparing = client.submit(SLOW_TO_COMPILE, json!({}));
    let queued = client.submit(SMALL, json!({}));
    client.wait_for_state(preparing, "PREPARING", Duration::from_secs(30));
    let asked = Instant::now();
    let reply = client.post(&format!("/api/jobs/{preparing}/cancel"), &json!({}));
    assert_eq!(reply.json()["state"], "CANCELLING");
    let reply = client.delete(&format!("/api/jobs/{queued}"));
    assert_eq!(reply.status, 202, "deleting a queued job cancels it");
    assert_eq!(reply.json()["state"], "CANCELLED");
    let ended = client.wait(preparing);
    assert_eq!(ended["state"], "CANCELLED");
    assert!(
        asked.elapsed() < Duration::from_secs(5),
        "took {:?}",
        asked.elapsed()
    );
    assert_eq!(ended["progress"]["done"], 0);
    assert_eq!(
        client.get(&format!("/api/jobs/{queued}")).json()["state"],
        "CANCELLED"
    );
    assert_eq!(client.delete(&format!("/api/jobs/{queued}")).status, 200);
}

#[test]
fn bad_scripts_fail_with_diagnostics_as_json() {
    let server = start(default_config());
    let client = Client::new(&server, Some(TOKEN));
    let id = client.submit(
        "import mars.tensor as mt\nx = mt.ones(3)\nprint(y + x)\n",
        json!({}),
    );
    let state = client.wait(id);
    assert_eq!(state["state"], "FAILED");
    assert_eq!(state["exit_code"], 1);
    let error = &state["error"];
    assert_eq!(error["kind"], "diagnostics");
    assert_eq!(error["errors"][0]["file"], "t.mt");
    assert_eq!(error["errors"][0]["line"], 3);
    assert_eq!(error["errors"][0]["column"], 7);
    assert!(state["error_text"]
        .as_str()
        .is_some_and(|text| text.contains("could not compile `t.mt`")));
    assert_eq!(client.get(&format!("/api/jobs/{id}/stats")).status, 409);
    assert_eq!(client.get(&format!("/api/jobs/{id}/output")).text(), "");
    let graph = client.get(&format!("/api/jobs/{id}/graph/tileable"));
    assert_eq!(graph.status, 422);
    assert_eq!(graph.json()["error"]["diagnostics"]["kind"], "diagnostics");
}

/// A bad request: what it is, how to send it, and the status it must get.
type Case<'c> = (&'static str, Box<dyn Fn() -> common::Reply + 'c>, u16);

#[test]
fn bad_requests_get_json_errors() {
    let server = start(Config {
        max_body: 1000,
        ..default_config()
    });
    let client = Client::new(&server, Some(TOKEN));
    let id = client.submit(SMALL, json!({}));
    client.wait(id);
    let cases: Vec<Case> = vec![
        (
            "text body",
            Box::new(|| client.post_raw("/api/jobs", "text/plain", b"print(1)")),
            415,
        ),
        (
            "form body",
            Box::new(|| {
                client.post_raw(
                    "/api/jobs",
                    "application/x-www-form-urlencoded",
                    b"script=1",
                )
            }),
            415,
        ),
        (
            "broken JSON",
            Box::new(|| client.post_raw("/api/jobs", "application/json", b"{\"script\":")),
            400,
        ),
        (
            "not an object",
            Box::new(|| client.post("/api/jobs", &json!([1]))),
            400,
        ),
        (
            "no script",
            Box::new(|| client.post("/api/jobs", &json!({"name": "x"}))),
            400,
        ),
        (
            "script not text",
            Box::new(|| client.post("/api/jobs", &json!({"script": 3}))),
            400,
        ),
        (
            "unknown field",
            Box::new(|| client.post("/api/jobs", &json!({"script": "", "x": 1}))),
            400,
        ),
        (
            "unknown option",
            Box::new(|| client.post("/api/jobs", &json!({"script": "", "options": {"nope": 1}}))),
            400,
        ),
        (
            "too many workers",
            Box::new(|| {
                client.post(
                    "/api/jobs",
                    &json!({"script": "", "options": {"workers": 99}}),
                )
            }),
            400,
        ),
        (
            "bad size",
            Box::new(|| {
                client.post(
                    "/api/jobs",
                    &json!({"script": "", "options": {"chunk_bytes": "lots"}}),
                )
            }),
            400,
        ),
        (
            "too big",
            Box::new(|| client.post("/api/jobs", &json!({"script": "x".repeat(2000)}))),
            413,
        ),
        ("no such job", Box::new(|| client.get("/api/jobs/999")), 404),
        ("not an id", Box::new(|| client.get("/api/jobs/abc")), 404),
        (
            "no such endpoint",
            Box::new(|| client.get("/api/nothing")),
            404,
        ),
        (
            "wrong method",
            Box::new(|| client.delete("/api/version")),
            405,
        ),
        (
            "bad stage",
            Box::new(|| client.get(&format!("/api/jobs/{id}/graph/nope"))),
            404,
        ),
        (
            "bad graph format",
            Box::new(|| client.get(&format!("/api/jobs/{id}/graph/tileable?format=png"))),
            400,
        ),
        (
            "kernels as dot",
            Box::new(|| client.get(&format!("/api/jobs/{id}/graph/kernels?format=dot"))),
            400,
        ),
        (
            "bad wait",
            Box::new(|| client.get(&format!("/api/jobs/{id}?wait=soon"))),
            400,
        ),
        (
            "bad state filter",
            Box::new(|| client.get("/api/jobs?state=happy")),
            400,
        ),
        (
            "bad limit",
            Box::new(|| client.get("/api/jobs?limit=-1")),
            400,
        ),
        (
            "no such result",
            Box::new(|| client.get(&format!("/api/jobs/{id}/results/zz"))),
            404,
        ),
        (
            "bad result format",
            Box::new(|| client.get(&format!("/api/jobs/{id}/results/p1-0?format=csv"))),
            400,
        ),
        (
            "bad output format",
            Box::new(|| client.get(&format!("/api/jobs/{id}/output?format=xml"))),
            400,
        ),
    ];
    for (what, request, expected) in cases {
        let reply = request();
        assert_eq!(reply.status, expected, "{what}: {}", reply.text());
        let error = reply.json();
        assert_eq!(error["error"]["status"], expected, "{what}");
        assert!(
            error["error"]["message"]
                .as_str()
                .is_some_and(|m| !m.is_empty()),
            "{what}"
        );
    }
    // The server is still fine.
    assert_eq!(client.get("/api/version").status, 200);
}

#[test]
fn the_token_guards_every_method_and_the_cookie_works_for_the_dashboard() {
    let server = start(default_config());
    let anonymous = Client::new(&server, None);
    let wrong = Client::new(&server, Some("wrong-token-0000000"));
    for client in [&anonymous, &wrong] {
        assert_eq!(client.get("/api/version").status, 401);
        assert_eq!(client.get("/api/jobs").status, 401);
        assert_eq!(
            client
                .post("/api/jobs", &json!({"script": "print(1)"}))
                .status,
            401
        );
        assert_eq!(client.delete("/api/jobs/1").status, 401);
        assert_eq!(client.post("/api/jobs/1/cancel", &json!({})).status, 401);
        assert_eq!(client.get("/api/events").status, 401);
        assert_eq!(client.get("/api/jobs/1").json()["error"]["status"], 401);
    }
    let good = Client::new(&server, Some(TOKEN));
    assert_eq!(good.get("/api/version").status, 200);
    // The URL `marsc serve` prints sets the cookie and redirects to a clean URL.
    let login = anonymous.get(&format!("/?token={TOKEN}"));
    assert_eq!(login.status, 303);
    assert_eq!(login.header("location"), Some("/"));
    let cookie = login.header("set-cookie").expect("a cookie").to_string();
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"));
    let pair = cookie.split(';').next().expect("name=value");
    assert_eq!(
        anonymous
            .get_with("/api/version", &[("Cookie", pair)])
            .status,
        200
    );
    assert_eq!(anonymous.get("/?token=nope").status, 401);
    // The page and its assets need no token; they hold none.
    let page = anonymous.get("/");
    assert_eq!(page.status, 200);
    assert!(page.text().contains("<title>marsc serve</title>"));
    assert_eq!(anonymous.get("/static/app.js").status, 200);
    assert_eq!(anonymous.get("/static/../Cargo.toml").status, 404);
    assert_eq!(anonymous.get("/static/nothing.js").status, 404);
}

#[test]
fn responses_are_hardened_and_foreign_hosts_refused() {
    let server = start(default_config());
    let client = Client::new(&server, Some(TOKEN));
    let reply = client.get("/api/version");
    assert_eq!(reply.header("x-content-type-options"), Some("nosniff"));
    assert!(reply
        .header("content-security-policy")
        .is_some_and(|csp| csp.contains("default-src 'self'")));
    assert!(reply.header("access-control-allow-origin").is_none());
    let port = server.address.port();
    let auth = format!("Bearer {TOKEN}");
    for host in [format!("evil.example:{port}"), "attacker.test".to_string()] {
        let refused = client.get_with("/api/version", &[("Host", &host), ("Authorization", &auth)]);
        assert_eq!(refused.status, 403, "{host}");
        assert_eq!(refused.header("x-content-type-options"), Some("nosniff"));
    }
    for host in [format!("localhost:{port}"), format!("127.0.0.1:{port}")] {
        let accepted =
            client.get_with("/api/version", &[("Host", &host), ("Authorization", &auth)]);
        assert_eq!(accepted.status, 200, "{host}");
    }
}

#[test]
fn binding_beyond_loopback_needs_a_token() {
    let open = Config {
        bind: "0.0.0.0:0".parse().expect("address"),
        token: None,
        ..Config::default()
    };
    let refused = Server::bind(open).err().expect("refused").to_string();
    assert!(refused.contains("without a token"), "{refused}");
    let short = Config {
        token: Some("short".into()),
        ..Config::default()
    };
    assert!(Server::bind(short).is_err());
}

#[test]
fn a_full_queue_answers_429() {
    let server = start(Config {
        max_jobs: 1,
        max_queued: 1,
        ..default_config()
    });
    let client = Client::new(&server, Some(TOKEN));
    let running = client.submit(LONG, json!({}));
    client.wait_for_state(running, "RUNNING", Duration::from_secs(30));
    // Too big for the small lane: it waits for the one regular slot.
    let queued = client.submit(BIG_QUICK, json!({}));
    let refused = client.post("/api/jobs", &json!({"script": SMALL}));
    assert_eq!(refused.status, 429);
    assert!(refused.json()["error"]["message"]
        .as_str()
        .is_some_and(|m| m.contains("queue is full")));
    client.post(&format!("/api/jobs/{running}/cancel"), &json!({}));
    assert_eq!(client.wait(queued)["state"], "SUCCEEDED");
}

#[test]
fn limits_on_time_output_and_chunks_fail_the_job() {
    let server = start(Config {
        max_output: 40,
        max_chunks: 5000,
        ..default_config()
    });
    let client = Client::new(&server, Some(TOKEN));
    let slow = client.submit(LONG, json!({"timeout_s": 0.3}));
    let long_output = client.submit("print('x' * 100)\n", json!({}));
    let many_chunks = client.submit(SLOW_TO_COMPILE, json!({}));
    let state = client.wait(slow);
    assert_eq!(state["state"], "FAILED");
    assert_eq!(state["error"]["kind"], "limit");
    let state = client.wait(long_output);
    assert_eq!(state["state"], "FAILED", "{state}");
    assert_eq!(state["error"]["kind"], "limit");
    let state = client.wait(many_chunks);
    assert_eq!(state["state"], "FAILED");
    assert!(
        state["error_text"]
            .as_str()
            .is_some_and(|t| t.contains("chunks")),
        "{state}"
    );
}

#[test]
fn paths_outside_the_root_are_compile_errors() {
    let root = tempfile::tempdir().expect("root");
    let outside = tempfile::tempdir().expect("outside");
    std::os::unix::fs::symlink(outside.path(), root.path().join("link")).expect("symlink");
    let server = start(Config {
        root: Some(root.path().to_path_buf()),
        ..default_config()
    });
    let client = Client::new(&server, Some(TOKEN));
    let outside_file = outside.path().join("x.npy");
    let escapes = [
        format!("mt.save('{}', mt.ones(3))", outside_file.display()),
        "mt.save('../x.npy', mt.ones(3))".to_string(),
        "mt.save('link/x.npy', mt.ones(3))".to_string(),
        "print(mt.load('link/../../x.npy'))".to_string(),
        "print(mt.load('/etc/hostname.npy'))".to_string(),
    ];
    for line in &escapes {
        let id = client.submit(&format!("import mars.tensor as mt\n{line}\n"), json!({}));
        let state = client.wait(id);
        assert_eq!(state["state"], "FAILED", "{line}");
        assert_eq!(state["error"]["kind"], "diagnostics", "{line}: {state}");
        let error = &state["error"]["errors"][0];
        assert_eq!(error["line"], 2, "{line}");
        assert!(
            error["message"]
                .as_str()
                .is_some_and(|m| m.contains("outside the server's root")),
            "{line}: {error}"
        );
    }
    assert!(std::fs::read_dir(outside.path())
        .expect("outside")
        .next()
        .is_none());
    // Inside the root, saves and loads work, relative to the root.
    let id = client.submit(
        "import mars.tensor as mt\nmt.save('inside', mt.arange(5))\nprint(mt.load('inside.npy'))\n",
        json!({}),
    );
    let state = client.wait(id);
    assert_eq!(state["state"], "SUCCEEDED", "{state}");
    assert!(root.path().join("inside.npy").exists());
    assert_eq!(
        client.get(&format!("/api/jobs/{id}/output")).text(),
        "[0 1 2 3 4]\n"
    );
    let results = client.get(&format!("/api/jobs/{id}/results")).json();
    let saved = results["results"]
        .as_array()
        .and_then(|r| r.iter().find(|r| r["kind"] == "saved").cloned())
        .expect("a saved result");
    assert_eq!(saved["path"], "inside.npy");
    let name = saved["name"].as_str().expect("name");
    let npy = client.get(&format!("/api/jobs/{id}/results/{name}?format=npy"));
    assert_eq!(
        npy.body,
        std::fs::read(root.path().join("inside.npy")).expect("file")
    );
    let meta = client.get(&format!("/api/jobs/{id}/results/{name}")).json();
    assert_eq!(meta["shape"], json!([5]));
}

#[test]
fn the_multiplexed_stream_starts_with_every_job() {
    let server = start(default_config());
    let client = Client::new(&server, Some(TOKEN));
    let id = client.submit(SMALL, json!({}));
    client.wait(id);
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(Duration::from_secs(10)))
        .build()
        .into();
    let response = agent
        .get(format!("{}/api/events", server.base()))
        .header("Authorization", format!("Bearer {TOKEN}"))
        .call()
        .expect("stream");
    let mut reader = BufReader::new(response.into_body().into_reader());
    let mut lines = Vec::new();
    while lines.len() < 3 {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            break;
        }
        lines.push(line.trim_end().to_string());
    }
    assert_eq!(lines[0], "event: snapshot");
    let data: Value = serde_json::from_str(
        lines
            .iter()
            .find_map(|l| l.strip_prefix("data: "))
            .expect("data"),
    )
    .expect("json");
    assert_eq!(data["jobs"][0]["id"], id);
    // A second job's events arrive on the same stream while it is open.
    let second = client.submit(SMALL, json!({}));
    let mut seen_second = false;
    let mut line = String::new();
    while !seen_second && reader.read_line(&mut line).unwrap_or(0) > 0 {
        if let Some(data) = line.trim_end().strip_prefix("data: ") {
            let data: Value = serde_json::from_str(data).expect("json");
            seen_second = data["job"] == second && data["state"] == "SUCCEEDED";
        }
        line.clear();
    }
    assert!(seen_second);
}

#[test]
fn a_script_steered_by_tensor_values_runs_in_stages_as_a_job() {
    const STAGED: &str = "import mars.tensor as mt\n\
x = mt.arange(4.0, chunks=2)\n\
print('start')\n\
while x.sum() < 50:\n    x = x * 2\n\
print(int(x.sum()), x)\n";
    let server = start(default_config());
    let client = Client::new(&server, Some(TOKEN));
    let id = client.submit(STAGED, json!({}));
    let state = client.wait(id);
    assert_eq!(state["state"], "SUCCEEDED", "{state}");
    let output = client.get(&format!("/api/jobs/{id}/output"));
    assert_eq!(output.text(), local_output(STAGED));
    assert_eq!(output.text(), "start\n96 [ 0. 16. 32. 48.]\n");
    let stats = client.get(&format!("/api/jobs/{id}/stats")).json();
    assert_eq!(stats["stages"], 7, "{stats}");
    // Progress per stage: each run of the job is an entry of its own, all done,
    // and the counts and the task stream go on across them.
    let ops = state["progress"]["ops"].as_array().expect("ops");
    // (a stage whose value the cache already holds runs nothing)
    assert!((2..=7).contains(&ops.len()), "{state}");
    for (index, op) in ops.iter().enumerate() {
        assert_eq!(op["text"], format!("stage {}", index + 1), "{state}");
        assert_eq!(op["done"], op["total"], "{state}");
    }
    let total: u64 = ops
        .iter()
        .map(|op| op["total"].as_u64().expect("total"))
        .sum();
    assert_eq!(state["progress"]["total"], total, "{state}");
    assert_eq!(state["progress"]["done"], total, "{state}");
    let spans = client.get(&format!("/api/jobs/{id}/spans")).json();
    let rows = spans["spans"].as_array().expect("rows");
    assert_eq!(rows.len() as u64, total, "{spans}");
    let mut stage_end = 0;
    for stage in 0..ops.len() as u64 {
        let of_stage = rows.iter().filter(|row| row[3] == stage);
        let starts = of_stage.clone().map(|row| row[1].as_u64().expect("start"));
        assert!(
            starts.min().is_none_or(|start| start >= stage_end),
            "{spans}"
        );
        stage_end = of_stage
            .map(|row| row[2].as_u64().expect("end"))
            .max()
            .unwrap_or(stage_end);
    }
    // Its graphs cannot be shown whole: the error says where it needs a value.
    let dump = client.get(&format!("/api/jobs/{id}/graph/tileable"));
    assert_ne!(dump.status, 200);
    assert!(dump.text().contains("runs in stages"), "{}", dump.text());
}

#[test]
fn failing_and_memory_hungry_jobs_leave_the_server_and_other_jobs_running() {
    let server = start(Config {
        max_jobs: 3,
        ..default_config()
    });
    let client = Client::new(&server, Some(TOKEN));
    let healthy = client.submit(SMALL, json!({}));
    // A value only the run can find wrong: NumPy's LinAlgError, at its line.
    let singular = client.submit(
        "import mars.tensor as mt\nprint(mt.linalg.inv(mt.zeros((3, 3))))\n",
        json!({}),
    );
    // One 800 TB chunk: more than any machine's address space, so the allocation
    // fails (it used to abort the whole process).
    let hungry = client.submit(
        "import mars.tensor as mt\nx = mt.arange(10**14, chunks=10**14)\nprint(x[:3])\n",
        json!({}),
    );
    let state = client.wait(singular);
    assert_eq!(state["state"], "FAILED", "{state}");
    assert_eq!(state["error"]["errors"][0]["line"], 2, "{state}");
    let state = client.wait(hungry);
    assert_eq!(state["state"], "FAILED", "{state}");
    assert!(
        state["error_text"]
            .as_str()
            .is_some_and(|text| text.contains("out of memory")),
        "{state}"
    );
    let state = client.wait(healthy);
    assert_eq!(state["state"], "SUCCEEDED", "{state}");
    // The server still serves, and runs the next job.
    assert_eq!(client.get("/api/version").status, 200);
    let after = client.submit(SMALL, json!({}));
    assert_eq!(client.wait(after)["state"], "SUCCEEDED");
}

#[test]
fn small_jobs_pass_big_ones_and_big_ones_keep_their_order() {
    let server = start(Config {
        max_jobs: 1,
        ..default_config()
    });
    let client = Client::new(&server, Some(TOKEN));
    let big = client.submit(LONG, json!({}));
    client.wait_for_state(big, "RUNNING", Duration::from_secs(30));
    let next_big = client.submit(BIG_QUICK, json!({}));
    let last_big = client.submit(BIG_QUICK, json!({}));
    // The one regular slot is busy for seconds; small jobs run meanwhile.
    let started = Instant::now();
    for _ in 0..3 {
        let small = client.submit(SMALL, json!({}));
        assert_eq!(client.wait(small)["state"], "SUCCEEDED");
    }
    assert!(started.elapsed() < Duration::from_secs(20));
    assert_eq!(
        client.get(&format!("/api/jobs/{big}")).json()["state"],
        "RUNNING"
    );
    for id in [next_big, last_big] {
        assert_eq!(
            client.get(&format!("/api/jobs/{id}")).json()["state"],
            "PREPARING"
        );
    }
    // (the last small job's thread gives its slot back just after it ends)
    let mut version = client.get("/api/version").json();
    for _ in 0..100 {
        if version["running"] == 1 {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
        version = client.get("/api/version").json();
    }
    assert_eq!(version["running"], 1, "{version}");
    assert_eq!(version["queued"], 2, "{version}");
    client.post(&format!("/api/jobs/{big}/cancel"), &json!({}));
    let next = client.wait(next_big);
    let last = client.wait(last_big);
    assert_eq!(next["state"], "SUCCEEDED");
    assert_eq!(last["state"], "SUCCEEDED");
    // First come, first served in the regular lane.
    assert!(
        next["running_at"].as_f64() <= last["running_at"].as_f64(),
        "{next} {last}"
    );
}

#[test]
fn clients_that_hang_up_mid_stream_or_mid_request_do_not_hurt_the_server() {
    use std::io::{Read, Write};
    let server = start(default_config());
    let client = Client::new(&server, Some(TOKEN));
    let long = client.submit(LONG, json!({}));
    client.wait_for_state(long, "RUNNING", Duration::from_secs(30));
    for _ in 0..20 {
        // An event stream read for its first bytes, then dropped.
        let mut stream = std::net::TcpStream::connect(server.address).expect("connect");
        write!(
            stream,
            "GET /api/jobs/{long}/events HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {TOKEN}\r\n\r\n",
            server.address
        )
        .expect("request");
        let mut first = [0u8; 64];
        let read = stream.read(&mut first).expect("the stream answers");
        assert!(first[..read].starts_with(b"HTTP/1.1 200"));
        drop(stream);
        // A submission whose body never comes whole.
        let mut stream = std::net::TcpStream::connect(server.address).expect("connect");
        write!(
            stream,
            "POST /api/jobs HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{{\"script\": \"imp",
            server.address
        )
        .expect("half a request");
        drop(stream);
    }
    // The job goes on, the server answers, and nothing was submitted by halves.
    assert_eq!(
        client.get(&format!("/api/jobs/{long}")).json()["state"],
        "RUNNING"
    );
    assert_eq!(
        client.get("/api/jobs").json()["jobs"]
            .as_array()
            .map(Vec::len),
        Some(1)
    );
    let small = client.submit(SMALL, json!({}));
    assert_eq!(client.wait(small)["state"], "SUCCEEDED");
    client.post(&format!("/api/jobs/{long}/cancel"), &json!({}));
    assert_eq!(client.wait(long)["state"], "CANCELLED");
}
