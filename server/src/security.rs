//! The guards every request passes (the server runs user scripts: access is shell
//! access, as with Jupyter):
//! - the `Host` header must name loopback, the bound address or an allowed host
//!   (against DNS rebinding, where a hostile page's name resolves to 127.0.0.1);
//! - every `/api` request must carry the token, compared in constant time: an
//!   `Authorization: Bearer` header, or for the dashboard the `marsc_token` cookie
//!   (set by opening `/?token=...`, `SameSite=Strict`, `HttpOnly`); a request
//!   authenticated by the cookie that changes anything must be JSON
//!   (`Content-Type: application/json`), which a cross-site form cannot send;
//! - every response carries `X-Content-Type-Options: nosniff`, a strict
//!   `Content-Security-Policy` (same-origin assets only), `X-Frame-Options: DENY`
//!   and `Referrer-Policy: no-referrer`; no CORS headers are ever sent, so other
//!   origins cannot read responses or send non-simple requests.

use crate::jobs::Manager;
use crate::reply::error;
use axum::body::Body;
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, Method, Request, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::IpAddr;
use std::sync::Arc;

/// The cookie the dashboard authenticates with.
pub const COOKIE: &str = "marsc_token";

/// Compares two byte strings in time independent of where they differ.
pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let difference = a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y));
    std::hint::black_box(difference) == 0
}

/// The host part of a `Host` header value (without the port).
fn host_name(value: &str) -> &str {
    if let Some(rest) = value.strip_prefix('[') {
        // [::1]:8086
        return rest.split(']').next().unwrap_or("");
    }
    value.rsplit_once(':').map_or(value, |(host, _)| host)
}

/// Whether the `Host` header names this server.
pub fn host_allowed(manager: &Manager, headers: &HeaderMap) -> bool {
    let Some(value) = headers.get(header::HOST).and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let host = host_name(value.trim()).to_ascii_lowercase();
    if host == "localhost" || host.ends_with(".localhost") {
        return true;
    }
    if let Ok(ip) = host.parse::<IpAddr>() {
        let bound = manager.address.ip();
        return ip.is_loopback() || ip == bound || (bound.is_unspecified() && !ip.is_unspecified());
    }
    manager
        .config
        .allowed_hosts
        .iter()
        .any(|allowed| allowed.eq_ignore_ascii_case(&host))
}

/// How a request proved it holds the token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    Bearer,
    Cookie,
    NotNeeded,
}

/// Finds the token in the request: the bearer header first, then the cookie.
pub fn proof(manager: &Manager, headers: &HeaderMap) -> Option<Proof> {
    let Some(token) = &manager.config.token else {
        return Some(Proof::NotNeeded);
    };
    let expected = token.as_bytes();
    if let Some(value) = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
    {
        let given = value.strip_prefix("Bearer ").unwrap_or("").trim();
        return constant_time_eq(given.as_bytes(), expected).then_some(Proof::Bearer);
    }
    for cookies in headers.get_all(header::COOKIE) {
        let Ok(cookies) = cookies.to_str() else {
            continue;
        };
        for pair in cookies.split(';') {
            if let Some((name, value)) = pair.trim().split_once('=') {
                if name == COOKIE && constant_time_eq(value.as_bytes(), expected) {
                    return Some(Proof::Cookie);
                }
            }
        }
    }
    None
}

/// The `Host` check for every request.
pub async fn check_host(
    State(manager): State<Arc<Manager>>,
    request: Request<Body>,
    next: Next,
) -> Response {
    if !host_allowed(&manager, request.headers()) {
        return error(
            StatusCode::FORBIDDEN,
            "this server does not answer to that Host name (DNS rebinding guard); use 127.0.0.1 or localhost, or start it with --allow-host NAME",
        );
    }
    next.run(request).await
}

/// The token check for `/api`.
pub async fn check_token(
    State(manager): State<Arc<Manager>>,
    request: Request<Body>,
    next: Next,
) -> Response {
    match proof(&manager, request.headers()) {
        None => {
            let mut response = error(
                StatusCode::UNAUTHORIZED,
                "missing or wrong token: send `Authorization: Bearer TOKEN` (the token `marsc serve` printed)",
            );
            response.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Bearer realm=\"marsc\""),
            );
            response
        }
        Some(Proof::Cookie)
            if request.method() != Method::GET
                && request.method() != Method::HEAD
                && !is_json(request.headers()) =>
        {
            error(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "requests that change anything must be sent as application/json",
            )
        }
        Some(_) => next.run(request).await,
    }
}

/// Whether the request's body is declared JSON.
pub fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|mime| mime.trim().eq_ignore_ascii_case("application/json"))
}

/// The headers every response gets.
pub async fn harden(request: Request<Body>, next: Next) -> Response {
    let mut response = next.run(request).await.into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
        ),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_without_ports() {
        assert_eq!(host_name("127.0.0.1:8086"), "127.0.0.1");
        assert_eq!(host_name("[::1]:8086"), "::1");
        assert_eq!(host_name("localhost"), "localhost");
        assert_eq!(host_name("evil.example:80"), "evil.example");
    }

    #[test]
    fn tokens_compare_whole() {
        assert!(constant_time_eq(b"abcdef12", b"abcdef12"));
        assert!(!constant_time_eq(b"abcdef12", b"abcdef13"));
        assert!(!constant_time_eq(b"abc", b"abcdef12"));
    }
}
