//! Shared helpers of the server's tests: a server on a loopback port chosen by the
//! OS, and a small blocking HTTP client (ureq) that returns 4xx/5xx as values.

#![allow(dead_code)]

use marsc_server::{Config, Running, Server};
use serde_json::Value;
use std::time::{Duration, Instant};

pub const TOKEN: &str = "test-token-0123456789";

/// A server with `config` (on 127.0.0.1:0, with [`TOKEN`] unless it names one).
pub fn start(config: Config) -> Running {
    let config = Config {
        bind: "127.0.0.1:0".parse().expect("address"),
        ..config
    };
    Server::bind(config)
        .and_then(Server::spawn)
        .unwrap_or_else(|e| panic!("cannot start the server: {e}"))
}

pub fn default_config() -> Config {
    Config {
        token: Some(TOKEN.to_string()),
        workers: 2,
        max_jobs: 2,
        ..Config::default()
    }
}

pub struct Client {
    pub base: String,
    pub token: Option<String>,
    agent: ureq::Agent,
}

pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

impl Client {
    pub fn new(server: &Running, token: Option<&str>) -> Client {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(60)))
            .max_redirects(0)
            .build()
            .into();
        Client {
            base: server.base(),
            token: token.map(str::to_string),
            agent,
        }
    }

    fn finish(response: Result<ureq::http::Response<ureq::Body>, ureq::Error>) -> Reply {
        let mut response = response.unwrap_or_else(|e| panic!("request failed: {e}"));
        let status = response.status().as_u16();
        let headers = response
            .headers()
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_str().unwrap_or("").to_string()))
            .collect();
        let body = response
            .body_mut()
            .with_config()
            .limit(64 << 20)
            .read_to_vec()
            .unwrap_or_default();
        Reply {
            status,
            headers,
            body,
        }
    }

    pub fn get(&self, path: &str) -> Reply {
        let mut request = self.agent.get(format!("{}{path}", self.base));
        if let Some(token) = &self.token {
            request = request.header("Authorization", format!("Bearer {token}"));
        }
        Self::finish(request.call())
    }

    pub fn get_with(&self, path: &str, headers: &[(&str, &str)]) -> Reply {
        let mut request = self.agent.get(format!("{}{path}", self.base));
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        Self::finish(request.call())
    }

    pub fn post(&self, path: &str, body: &Value) -> Reply {
        self.post_raw(path, "application/json", body.to_string().as_bytes())
    }

    pub fn post_raw(&self, path: &str, content_type: &str, body: &[u8]) -> Reply {
        let mut request = self
            .agent
            .post(format!("{}{path}", self.base))
            .header("Content-Type", content_type);
        if let Some(token) = &self.token {
            request = request.header("Authorization", format!("Bearer {token}"));
        }
        Self::finish(request.send(body))
    }

    pub fn delete(&self, path: &str) -> Reply {
        let mut request = self.agent.delete(format!("{}{path}", self.base));
        if let Some(token) = &self.token {
            request = request.header("Authorization", format!("Bearer {token}"));
        }
        Self::finish(request.call())
    }

    /// Submits a script; returns the job id.
    pub fn submit(&self, script: &str, options: Value) -> u64 {
        let reply = self.post(
            "/api/jobs",
            &serde_json::json!({ "script": script, "name": "t.mt", "options": options }),
        );
        assert_eq!(reply.status, 202, "{}", reply.text());
        reply.json()["id"].as_u64().expect("an id")
    }

    /// Waits for a job to end; returns its state JSON.
    pub fn wait(&self, id: u64) -> Value {
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            let state = self.get(&format!("/api/jobs/{id}?wait=10")).json();
            let name = state["state"].as_str().unwrap_or("");
            if matches!(name, "SUCCEEDED" | "FAILED" | "CANCELLED") {
                return state;
            }
            assert!(Instant::now() < deadline, "job {id} did not end: {state}");
        }
    }

    /// Polls until a job is in `state` (or panics after `within`).
    pub fn wait_for_state(&self, id: u64, state: &str, within: Duration) -> Value {
        let deadline = Instant::now() + within;
        loop {
            let now = self.get(&format!("/api/jobs/{id}")).json();
            if now["state"] == state {
                return now;
            }
            assert!(
                Instant::now() < deadline,
                "job {id} never reached {state}: {now}"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

/// A script that runs for seconds (many chunk matmuls).
pub const LONG: &str = "import mars.tensor as mt\n\
x = mt.random.rand(3000, 3000, chunks=300)\n\
y = x @ x\n\
z = y @ y\n\
w = z @ z\n\
print(w.sum())\n";
