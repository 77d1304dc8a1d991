//! The routes: the JSON REST API under `/api` (documented in `docs/api.md`) and
//! the dashboard's pages. Every error is a JSON object `{"error": {"status",
//! "message"}}` with a 4xx status for the client's mistakes; handlers never panic
//! on input.

// A handler's helpers return the error response itself (`Result<T, Response>`):
// it is built once per failed request, so its size does not matter.
#![allow(clippy::result_large_err)]

use crate::arrays;
use crate::assets;
use crate::events::Event;
use crate::jobs::{JobOptions, Manager, Refused, ResultArray, State as JobState};
use crate::reply::error;
use crate::security;
use axum::body::{Body, Bytes};
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware;
use axum::response::sse::{KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use marsc::driver::{self, EmitFormat, Stage};
use serde_json::{json, Map, Value};
use std::collections::HashMap;
use std::convert::Infallible;
use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;

type Shared = State<Arc<Manager>>;
type Params = Result<Query<HashMap<String, String>>, QueryRejection>;

/// The whole application.
pub fn router(manager: Arc<Manager>) -> Router {
    let api = Router::new()
        .route("/version", get(version))
        .route("/jobs", get(list_jobs).post(submit))
        .route("/jobs/{id}", get(job_state).delete(delete_job))
        .route("/jobs/{id}/cancel", post(cancel_job))
        .route("/jobs/{id}/output", get(output))
        .route("/jobs/{id}/results", get(results))
        .route("/jobs/{id}/results/{name}", get(result))
        .route("/jobs/{id}/stats", get(stats))
        .route("/jobs/{id}/trace", get(trace))
        .route("/jobs/{id}/spans", get(spans))
        .route("/jobs/{id}/source", get(source))
        .route("/jobs/{id}/graph/{stage}", get(graph))
        .route("/jobs/{id}/events", get(job_events))
        .route("/events", get(all_events))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(middleware::from_fn_with_state(
            Arc::clone(&manager),
            security::check_token,
        ));
    Router::new()
        .nest("/api", api)
        .route("/", get(assets::index))
        .route("/static/{*path}", get(assets::file))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(manager.config.max_body))
        .layer(middleware::from_fn_with_state(
            Arc::clone(&manager),
            security::check_host,
        ))
        .layer(middleware::from_fn(security::harden))
        .with_state(manager)
}

async fn not_found() -> Response {
    error(StatusCode::NOT_FOUND, "no such endpoint (see docs/api.md)")
}

async fn method_not_allowed() -> Response {
    error(
        StatusCode::METHOD_NOT_ALLOWED,
        "this endpoint does not take that method (see docs/api.md)",
    )
}

async fn version(State(manager): Shared) -> Response {
    let config = &manager.config;
    let (queued, running) = manager.load();
    Json(json!({
        "marsc": env!("CARGO_PKG_VERSION"),
        "workers": config.workers,
        "max_jobs": config.max_jobs,
        "max_queued": config.max_queued,
        "queued": queued,
        "running": running,
        "limits": {
            "max_body_bytes": config.max_body,
            "max_output_bytes": config.max_output,
            "max_chunks": config.max_chunks,
            "memory_limit": config.memory_limit,
            "job_memory_limit": config.job_memory_limit(),
            "job_timeout_s": config.job_timeout.map(|t| t.as_secs_f64()),
        },
        "root": config.root.as_ref().map(|root| root.display().to_string()),
        "auth": config.token.is_some(),
    }))
    .into_response()
}

/// The job named by a path segment, or a 404.
fn find(manager: &Manager, id: &str) -> Result<Arc<crate::jobs::Job>, Response> {
    let number: u64 = id
        .parse()
        .map_err(|_| error(StatusCode::NOT_FOUND, format!("`{id}` is not a job id")))?;
    manager
        .get(number)
        .ok_or_else(|| error(StatusCode::NOT_FOUND, format!("no job {number}")))
}

fn params(query: Params) -> Result<HashMap<String, String>, Response> {
    query
        .map(|Query(map)| map)
        .map_err(|rejection| error(StatusCode::BAD_REQUEST, rejection.body_text()))
}

async fn list_jobs(State(manager): Shared, query: Params) -> Response {
    let query = match params(query) {
        Ok(query) => query,
        Err(response) => return response,
    };
    let state = match query.get("state") {
        Some(name) => match JobState::parse(name) {
            Some(state) => Some(state),
            None => return error(StatusCode::BAD_REQUEST, format!("no state `{name}`")),
        },
        None => None,
    };
    let limit = match query.get("limit").map(|l| l.parse::<usize>()) {
        Some(Ok(limit)) => limit,
        Some(Err(_)) => return error(StatusCode::BAD_REQUEST, "`limit` must be a whole number"),
        None => usize::MAX,
    };
    let jobs: Vec<Value> = manager
        .list()
        .iter()
        .rev()
        .filter(|job| state.is_none_or(|state| job.state() == state))
        .take(limit)
        .map(|job| job.to_json(false))
        .collect();
    Json(json!({ "jobs": jobs })).into_response()
}

/// Reads a JSON object body, answering 413/415/400 for the wrong ones.
fn json_object(
    headers: &HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Map<String, Value>, Response> {
    let body = body.map_err(|rejection| {
        let status = rejection.status();
        if status == StatusCode::PAYLOAD_TOO_LARGE {
            error(
                status,
                "the request body is larger than this server accepts (--max-body)",
            )
        } else {
            error(status, rejection.body_text())
        }
    })?;
    if !security::is_json(headers) {
        return Err(error(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "the body must be JSON, sent with Content-Type: application/json",
        ));
    }
    match serde_json::from_slice::<Value>(&body) {
        Ok(Value::Object(object)) => Ok(object),
        Ok(_) => Err(error(
            StatusCode::BAD_REQUEST,
            "the body must be a JSON object",
        )),
        Err(problem) => Err(error(
            StatusCode::BAD_REQUEST,
            format!("the body is not valid JSON: {problem}"),
        )),
    }
}

async fn submit(
    State(manager): Shared,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let object = match json_object(&headers, body) {
        Ok(object) => object,
        Err(response) => return response,
    };
    let (name, script, options) = match submission(&manager, object) {
        Ok(parts) => parts,
        Err(message) => return error(StatusCode::BAD_REQUEST, message),
    };
    match manager.submit(name, script, options) {
        Ok(job) => {
            let location = format!("/api/jobs/{}", job.id);
            let mut response = (StatusCode::ACCEPTED, Json(job.to_json(false))).into_response();
            if let Ok(value) = HeaderValue::from_str(&location) {
                response.headers_mut().insert(header::LOCATION, value);
            }
            response
        }
        Err(Refused::QueueFull(limit)) => error(
            StatusCode::TOO_MANY_REQUESTS,
            format!("the queue is full ({limit} jobs waiting); try again later"),
        ),
        Err(Refused::ShuttingDown) => error(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server is shutting down",
        ),
    }
}

/// The script, its name and its options from a submission.
fn submission(
    manager: &Manager,
    mut object: Map<String, Value>,
) -> Result<(String, String, JobOptions), String> {
    let config = &manager.config;
    let script = match object.remove("script") {
        Some(Value::String(script)) => script,
        Some(_) => return Err("`script` must be a string".to_string()),
        None => return Err("missing `script` (the text of the .mt script)".to_string()),
    };
    let name = match object.remove("name") {
        Some(Value::String(name)) if !name.is_empty() && name.len() <= 4096 => name,
        Some(Value::Null) | None => "script.mt".to_string(),
        Some(_) => return Err("`name` must be a non-empty string".to_string()),
    };
    let mut options = JobOptions {
        workers: config.workers,
        chunk_bytes: config.chunk_bytes,
        jit: true,
        fuse: true,
        timeout: config.job_timeout,
    };
    match object.remove("options") {
        None | Some(Value::Null) => {}
        Some(Value::Object(given)) => {
            for (key, value) in given {
                match key.as_str() {
                    "workers" => {
                        let workers = value
                            .as_u64()
                            .filter(|w| (1..=u64::from(config.workers)).contains(w))
                            .ok_or_else(|| {
                                format!(
                                    "`workers` must be a whole number from 1 to {}",
                                    config.workers
                                )
                            })?;
                        options.workers = workers as u32;
                    }
                    "chunk_bytes" => {
                        options.chunk_bytes =
                            match &value {
                                Value::String(text) => {
                                    marsc::size::parse_size(text).map_err(|e| e.to_string())?
                                }
                                Value::Number(n) => n
                                    .as_u64()
                                    .filter(|&n| n > 0)
                                    .ok_or("`chunk_bytes` must be a positive whole number")?,
                                _ => return Err(
                                    "`chunk_bytes` must be a number or a size such as \"64KiB\""
                                        .to_string(),
                                ),
                            }
                    }
                    "timeout_s" => {
                        let seconds = value
                            .as_f64()
                            .filter(|s| s.is_finite() && *s > 0.0 && *s < 1e9)
                            .ok_or("`timeout_s` must be a positive number of seconds")?;
                        let asked = Duration::from_secs_f64(seconds);
                        options.timeout =
                            Some(config.job_timeout.map_or(asked, |limit| limit.min(asked)));
                    }
                    "jit" => options.jit = value.as_bool().ok_or("`jit` must be true or false")?,
                    "fuse" => {
                        options.fuse = value.as_bool().ok_or("`fuse` must be true or false")?
                    }
                    other => {
                        return Err(format!(
                            "unknown option `{other}` (workers, chunk_bytes, timeout_s, jit, fuse)"
                        ))
                    }
                }
            }
        }
        Some(_) => return Err("`options` must be an object".to_string()),
    }
    if let Some(key) = object.keys().next() {
        return Err(format!("unknown field `{key}` (script, name, options)"));
    }
    Ok((name, script, options))
}

async fn job_state(State(manager): Shared, Path(id): Path<String>, query: Params) -> Response {
    let job = match find(&manager, &id) {
        Ok(job) => job,
        Err(response) => return response,
    };
    let query = match params(query) {
        Ok(query) => query,
        Err(response) => return response,
    };
    if let Some(wait) = query.get("wait") {
        let Some(seconds) = wait
            .parse::<f64>()
            .ok()
            .filter(|s| s.is_finite() && *s >= 0.0)
        else {
            return error(
                StatusCode::BAD_REQUEST,
                "`wait` must be a number of seconds",
            );
        };
        job.wait(Duration::from_secs_f64(seconds.min(60.0))).await;
    }
    Json(job.to_json(true)).into_response()
}

async fn cancel_job(State(manager): Shared, Path(id): Path<String>) -> Response {
    let job = match find(&manager, &id) {
        Ok(job) => job,
        Err(response) => return response,
    };
    manager.cancel(&job);
    (StatusCode::ACCEPTED, Json(job.to_json(false))).into_response()
}

async fn delete_job(State(manager): Shared, Path(id): Path<String>) -> Response {
    let job = match find(&manager, &id) {
        Ok(job) => job,
        Err(response) => return response,
    };
    if manager.remove(&job) {
        Json(json!({ "id": job.id, "deleted": true })).into_response()
    } else {
        // Mars's semantics: deleting a job that has not ended cancels it.
        manager.cancel(&job);
        (StatusCode::ACCEPTED, Json(job.to_json(false))).into_response()
    }
}

fn text(content_type: &'static str, body: impl Into<Body>) -> Response {
    ([(header::CONTENT_TYPE, content_type)], body.into()).into_response()
}

async fn output(State(manager): Shared, Path(id): Path<String>, query: Params) -> Response {
    let job = match find(&manager, &id) {
        Ok(job) => job,
        Err(response) => return response,
    };
    let query = match params(query) {
        Ok(query) => query,
        Err(response) => return response,
    };
    match query.get("format").map(String::as_str) {
        None | Some("text") => text("text/plain; charset=utf-8", job.output_text()),
        Some("json") => {
            let status = job.status();
            let prints: Vec<Value> = status
                .prints
                .iter()
                .enumerate()
                .map(|(print, printed)| {
                    let items: Vec<Value> = printed
                        .items
                        .iter()
                        .enumerate()
                        .map(|(item, value)| match value {
                            marsc::job::PrintedItem::Text(text) => json!({ "kind": "text", "text": text }),
                            marsc::job::PrintedItem::Tensor(shown)
                            | marsc::job::PrintedItem::Echo(shown) => {
                                let name = format!("p{print}-{item}");
                                json!({
                                    "kind": "tensor",
                                    "result": name,
                                    "dtype": shown.data.dtype().to_string(),
                                    "shape": shown.shape,
                                    "summarized": shown.data.shape() != shown.shape.as_slice(),
                                    "text": value.text(),
                                })
                            }
                        })
                        .collect();
                    json!({ "text": printed.text(), "items": items, "sep": printed.sep, "end": printed.end })
                })
                .collect();
            Json(json!({ "state": job.state().name(), "prints": prints })).into_response()
        }
        Some(other) => error(
            StatusCode::BAD_REQUEST,
            format!("no output format `{other}` (text, json)"),
        ),
    }
}

async fn results(State(manager): Shared, Path(id): Path<String>) -> Response {
    let job = match find(&manager, &id) {
        Ok(job) => job,
        Err(response) => return response,
    };
    let list: Vec<Value> = job
        .results()
        .iter()
        .map(|(name, result)| match result {
            ResultArray::Printed(shown) => json!({
                "name": name, "kind": "printed",
                "dtype": shown.data.dtype().to_string(), "shape": shown.shape,
                "summarized": shown.data.shape() != shown.shape.as_slice(),
            }),
            ResultArray::Saved(path) => json!({
                "name": name, "kind": "saved", "path": shown_path(&manager, path),
            }),
        })
        .collect();
    Json(json!({ "state": job.state().name(), "results": list })).into_response()
}

/// A saved file's path as clients see it: relative to the root when there is one.
fn shown_path(manager: &Manager, path: &std::path::Path) -> String {
    match &manager.config.root {
        Some(root) => path
            .strip_prefix(root)
            .unwrap_or(path)
            .display()
            .to_string(),
        None => path.display().to_string(),
    }
}

async fn result(
    State(manager): Shared,
    Path((id, name)): Path<(String, String)>,
    query: Params,
) -> Response {
    let job = match find(&manager, &id) {
        Ok(job) => job,
        Err(response) => return response,
    };
    let query = match params(query) {
        Ok(query) => query,
        Err(response) => return response,
    };
    let (name, npy_suffix) = match name.strip_suffix(".npy") {
        Some(stem) => (stem.to_string(), true),
        None => (name, false),
    };
    let format = query
        .get("format")
        .map_or(if npy_suffix { "npy" } else { "json" }, String::as_str);
    let limit = match query.get("limit").map(|l| l.parse::<usize>()) {
        Some(Ok(limit)) => limit.min(1_000_000),
        Some(Err(_)) => return error(StatusCode::BAD_REQUEST, "`limit` must be a whole number"),
        None => 1000,
    };
    let Some((_, found)) = job.results().into_iter().find(|(n, _)| *n == name) else {
        return error(
            StatusCode::NOT_FOUND,
            format!("job {} has no result `{name}`", job.id),
        );
    };
    let download = |bytes: Vec<u8>| {
        let disposition = format!("attachment; filename=\"job{}-{name}.npy\"", job.id);
        let mut response = text("application/octet-stream", bytes);
        if let Ok(value) = HeaderValue::from_str(&disposition) {
            response
                .headers_mut()
                .insert(header::CONTENT_DISPOSITION, value);
        }
        response
    };
    match (found, format) {
        (ResultArray::Printed(shown), "json") => {
            Json(arrays::preview(&shown, limit)).into_response()
        }
        (ResultArray::Printed(shown), "npy") => {
            if shown.data.shape() != shown.shape.as_slice() {
                return error(
                    StatusCode::CONFLICT,
                    "not supported yet: a .npy of a tensor that print summarized (only its corners are kept); save it with mt.save and download that file",
                );
            }
            download(arrays::npy_bytes(&shown.data))
        }
        (ResultArray::Saved(path), "npy") => match tokio::fs::read(&path).await {
            Ok(bytes) => download(bytes),
            Err(problem) => error(
                StatusCode::GONE,
                format!("the saved file cannot be read any more: {problem}"),
            ),
        },
        (ResultArray::Saved(path), "json") => {
            let opened = marsc_runtime::storage::open(
                &path,
                &marsc_runtime::storage::OpenOptions { mmap: false },
            );
            match opened {
                Ok(store) => {
                    let metadata = store.metadata();
                    Json(json!({
                        "path": shown_path(&manager, &path),
                        "dtype": metadata.dtype.to_string(),
                        "shape": metadata.shape,
                        "values": null,
                        "note": "not supported yet: values of saved files as JSON; download them with format=npy",
                    }))
                    .into_response()
                }
                Err(problem) => error(
                    StatusCode::GONE,
                    format!("the saved file cannot be read any more: {problem}"),
                ),
            }
        }
        (_, other) => error(
            StatusCode::BAD_REQUEST,
            format!("no result format `{other}` (json, npy)"),
        ),
    }
}

async fn stats(State(manager): Shared, Path(id): Path<String>) -> Response {
    let job = match find(&manager, &id) {
        Ok(job) => job,
        Err(response) => return response,
    };
    let stats = job.status().stats.clone();
    match stats {
        Some(stats) => Json(stats).into_response(),
        None => error(
            StatusCode::CONFLICT,
            format!(
                "job {} has no stats: it is {} (stats come with success)",
                job.id,
                job.state().name()
            ),
        ),
    }
}

async fn trace(State(manager): Shared, Path(id): Path<String>) -> Response {
    let job = match find(&manager, &id) {
        Ok(job) => job,
        Err(response) => return response,
    };
    let path = job.status().trace.clone();
    match path {
        Some(path) => match tokio::fs::read(&path).await {
            Ok(bytes) => text("application/json", bytes),
            Err(problem) => error(
                StatusCode::GONE,
                format!("the trace cannot be read: {problem}"),
            ),
        },
        None => error(
            StatusCode::CONFLICT,
            format!(
                "job {} has no trace: it is {} (a trace comes once it has run)",
                job.id,
                job.state().name()
            ),
        ),
    }
}

async fn spans(State(manager): Shared, Path(id): Path<String>) -> Response {
    let job = match find(&manager, &id) {
        Ok(job) => job,
        Err(response) => return response,
    };
    let status = job.status();
    Json(json!({
        "workers": status.workers,
        "ops": status.ops.iter().map(|op| json!({"line": op.line, "text": op.text, "done": op.done, "total": op.total})).collect::<Vec<_>>(),
        "memory": status.memory,
        "memory_limit": status.memory_limit,
        "spans": status.spans,
    }))
    .into_response()
}

async fn source(State(manager): Shared, Path(id): Path<String>) -> Response {
    match find(&manager, &id) {
        Ok(job) => text("text/plain; charset=utf-8", job.script.clone()),
        Err(response) => response,
    }
}

/// Most DOT bytes drawn as SVG.
const MAX_DOT_FOR_SVG: usize = 4 << 20;

async fn graph(
    State(manager): Shared,
    Path((id, stage)): Path<(String, String)>,
    query: Params,
) -> Response {
    let job = match find(&manager, &id) {
        Ok(job) => job,
        Err(response) => return response,
    };
    let query = match params(query) {
        Ok(query) => query,
        Err(response) => return response,
    };
    let stage = match stage.as_str() {
        "ast" => Stage::Ast,
        "tileable" => Stage::Tileable,
        "chunk" => Stage::Chunk,
        "subtask" => Stage::Subtask,
        "kernels" => Stage::Kernels,
        other => {
            return error(
                StatusCode::NOT_FOUND,
                format!("no stage `{other}` (ast, tileable, chunk, subtask, kernels)"),
            )
        }
    };
    let format = query
        .get("format")
        .map_or("text", String::as_str)
        .to_string();
    let emit_format = match format.as_str() {
        "text" => EmitFormat::Text,
        "dot" | "svg" if stage == Stage::Kernels => {
            return error(
                StatusCode::BAD_REQUEST,
                "the kernels stage has only a text dump",
            )
        }
        "dot" | "svg" => EmitFormat::Dot,
        other => {
            return error(
                StatusCode::BAD_REQUEST,
                format!("no graph format `{other}` (text, dot, svg)"),
            )
        }
    };
    let options = marsc::driver::Options {
        workers: Some(job.options.workers),
        ..job.compile_options(&manager.config)
    };
    let script = job.script.clone();
    let name = job.name.clone();
    let dumped = tokio::task::spawn_blocking(move || {
        driver::emit(&script, stage, emit_format, &options).map_err(|problem| {
            problem.to_json(&marsc::diagnostics::SourceFile {
                name: &name,
                text: &script,
            })
        })
    })
    .await;
    let dump = match dumped {
        Ok(Ok(dump)) => dump,
        Ok(Err(diagnostics)) => {
            let body = json!({ "error": { "status": 422, "message": "the script does not compile", "diagnostics": diagnostics } });
            return (StatusCode::UNPROCESSABLE_ENTITY, Json(body)).into_response();
        }
        Err(_) => {
            return error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal error: the dump failed",
            )
        }
    };
    match format.as_str() {
        "svg" => {
            if dump.len() > MAX_DOT_FOR_SVG {
                return error(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "the graph is too big to draw; fetch format=dot or look at a coarser stage",
                );
            }
            match tokio::task::spawn_blocking(move || render_svg(&dump)).await {
                Ok(Ok(svg)) => text("image/svg+xml", svg),
                Ok(Err(problem)) => error(StatusCode::NOT_IMPLEMENTED, problem),
                Err(_) => error(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "internal error: drawing failed",
                ),
            }
        }
        "dot" => text("text/vnd.graphviz; charset=utf-8", dump),
        _ => text("text/plain; charset=utf-8", dump),
    }
}

/// Longest a graph may take to draw.
const DRAW_TIMEOUT: Duration = Duration::from_secs(30);

/// Draws DOT as SVG with Graphviz's `dot`.
fn render_svg(dot: &str) -> Result<Vec<u8>, String> {
    let mut child = std::process::Command::new("dot")
        .arg("-Tsvg")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(|_| "not supported here: drawing SVG needs Graphviz's `dot` on the server's PATH; fetch format=dot".to_string())?;
    let mut stdin = child.stdin.take().ok_or("cannot write to dot")?;
    let input = dot.to_string();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let mut stdout = child.stdout.take().ok_or("cannot read from dot")?;
    let reader = std::thread::spawn(move || {
        let mut svg = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stdout, &mut svg);
        svg
    });
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                let _ = writer.join();
                let svg = reader.join().unwrap_or_default();
                return if status.success() {
                    Ok(svg)
                } else {
                    Err("dot failed to draw the graph".to_string())
                };
            }
            Ok(None) if started.elapsed() > DRAW_TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                return Err("drawing the graph took too long; fetch format=dot".to_string());
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(problem) => return Err(format!("dot failed: {problem}")),
        }
    }
}

fn sse_event(kind: &str, id: u64, data: &Value) -> Result<axum::response::sse::Event, Infallible> {
    Ok(axum::response::sse::Event::default()
        .event(kind)
        .id(id.to_string())
        .data(data.to_string()))
}

/// Forwards bus events that `wanted` accepts to an SSE stream, after `snapshot`;
/// ends when `last` says an event was the stream's last, or the client goes.
fn stream(
    manager: &Manager,
    snapshot: impl FnOnce() -> Value + Send + 'static,
    wanted: impl Fn(&Event) -> bool + Send + 'static,
    last: impl Fn(&Event) -> bool + Send + 'static,
    resync: impl Fn() -> Value + Send + 'static,
) -> Response {
    let (sender, receiver) = mpsc::channel(64);
    // Subscribed before the snapshot is taken, so nothing falls between them.
    let mut events = manager.bus.subscribe();
    tokio::spawn(async move {
        if sender
            .send(sse_event("snapshot", 0, &snapshot()))
            .await
            .is_err()
        {
            return;
        }
        loop {
            match events.recv().await {
                Ok(event) => {
                    if !wanted(&event) {
                        continue;
                    }
                    let mut data = event.data.clone();
                    if let Value::Object(map) = &mut data {
                        map.insert("job".to_string(), json!(event.job));
                    }
                    if sender
                        .send(sse_event(event.kind, event.seq, &data))
                        .await
                        .is_err()
                        || last(&event)
                    {
                        return;
                    }
                }
                Err(RecvError::Lagged(_)) => {
                    if sender
                        .send(sse_event("snapshot", 0, &resync()))
                        .await
                        .is_err()
                    {
                        return;
                    }
                }
                Err(RecvError::Closed) => return,
            }
        }
    });
    Sse::new(ReceiverStream::new(receiver))
        .keep_alive(KeepAlive::default())
        .into_response()
}

async fn job_events(State(manager): Shared, Path(id): Path<String>) -> Response {
    let job = match find(&manager, &id) {
        Ok(job) => job,
        Err(response) => return response,
    };
    let id = job.id;
    let snapshot_job = Arc::clone(&job);
    let resync_job = Arc::clone(&job);
    if job.state().is_terminal() {
        // Nothing more will happen: the snapshot alone, then the end.
        let (sender, receiver) = mpsc::channel(1);
        let _ = sender.try_send(sse_event("snapshot", 0, &job.to_json(true)));
        return Sse::new(ReceiverStream::new(receiver)).into_response();
    }
    stream(
        &manager,
        move || snapshot_job.to_json(true),
        move |event| event.job == id,
        |event| {
            event.kind == "removed"
                || (event.kind == "state"
                    && event.data["state"]
                        .as_str()
                        .and_then(JobState::parse)
                        .is_some_and(JobState::is_terminal))
        },
        move || resync_job.to_json(true),
    )
}

async fn all_events(State(manager): Shared) -> Response {
    let listing = Arc::clone(&manager);
    let again = Arc::clone(&manager);
    let jobs = move |manager: &Manager| json!({ "jobs": manager.list().iter().map(|job| job.to_json(false)).collect::<Vec<_>>() });
    stream(
        &manager,
        move || jobs(&listing),
        |_| true,
        |_| false,
        move || json!({ "jobs": again.list().iter().map(|job| job.to_json(false)).collect::<Vec<_>>() }),
    )
}
