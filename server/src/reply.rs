//! The JSON error response every route gives (`{"error": {"status", "message"}}`,
//! see `docs/api.md`): the API's handlers, the dashboard's assets and the session
//! checks in front of both answer with it.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

/// A JSON error response.
pub fn error(status: StatusCode, message: impl Into<String>) -> Response {
    let body = json!({ "error": { "status": status.as_u16(), "message": message.into() } });
    (status, Json(body)).into_response()
}
