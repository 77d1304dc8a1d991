//! The dashboard's files, embedded in the binary (no CDN, no build step): plain
//! HTML, CSS and JavaScript from `server/assets/`. Only embedded names resolve, so
//! no request reaches the file system. Opening `/?token=TOKEN` (the URL `marsc
//! serve` prints) stores the token in an `HttpOnly`, `SameSite=Strict` cookie and
//! redirects to `/`, so the token leaves the address bar.

use crate::jobs::Manager;
use crate::reply::error;
use crate::security::{constant_time_eq, COOKIE};
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use rust_embed::RustEmbed;
use std::collections::HashMap;
use std::sync::Arc;

#[derive(RustEmbed)]
#[folder = "assets/"]
struct Assets;

fn asset(path: &str) -> Response {
    match Assets::get(path) {
        Some(file) => {
            let mime = file.metadata.mimetype().to_string();
            let mut response = file.data.into_owned().into_response();
            if let Ok(value) = HeaderValue::from_str(&mime) {
                response.headers_mut().insert(header::CONTENT_TYPE, value);
            }
            response
                .headers_mut()
                .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
            response
        }
        None => error(StatusCode::NOT_FOUND, format!("no file `{path}`")),
    }
}

/// `/`: the dashboard; with `?token=`, sets the cookie first.
pub async fn index(
    State(manager): State<Arc<Manager>>,
    query: Result<Query<HashMap<String, String>>, axum::extract::rejection::QueryRejection>,
) -> Response {
    let given = query.ok().and_then(|Query(mut q)| q.remove("token"));
    if let Some(given) = given {
        let Some(token) = &manager.config.token else {
            return Redirect::to("/").into_response();
        };
        if !constant_time_eq(given.as_bytes(), token.as_bytes()) {
            return error(StatusCode::UNAUTHORIZED, "wrong token");
        }
        let mut response = Redirect::to("/").into_response();
        let cookie = format!("{COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict");
        if let Ok(value) = HeaderValue::from_str(&cookie) {
            response.headers_mut().insert(header::SET_COOKIE, value);
        }
        return response;
    }
    asset("index.html")
}

/// `/static/PATH`: an embedded file.
pub async fn file(Path(path): Path<String>) -> Response {
    asset(&path)
}
