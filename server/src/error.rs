//! One error type for every handler. Which kind to use when is documented on
//! `client_core::envelope::ErrorKind`; this module only turns an error into the envelope and the
//! HTTP status the catalogue gives it. Server faults (5xx) are logged with their cause and the
//! client gets the catalogue's generic message, never the details.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use client_core::envelope::{Envelope, ErrorKind};
use serde_json::{Value, json};

#[derive(Debug)]
pub struct AppError {
    pub kind: ErrorKind,
    message: Option<String>,
    data: Value,
    source: Option<Box<dyn std::error::Error + Send + Sync>>,
}

pub type AppResult<T> = Result<T, AppError>;

impl AppError {
    pub fn new(kind: ErrorKind) -> Self {
        Self {
            kind,
            message: None,
            data: Value::Null,
            source: None,
        }
    }

    /// A readable request that breaks a rule of a parameter: `InvalidParam` saying which.
    pub fn invalid(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::InvalidParam).with_message(message)
    }

    /// `NotFound`, saying what was not found.
    pub fn not_found(what: impl Into<String>) -> Self {
        Self::new(ErrorKind::NotFound).with_message(what)
    }

    /// A more precise message than the catalogue's (for the client's own mistakes only).
    pub fn with_message(mut self, message: impl Into<String>) -> Self {
        self.message = Some(message.into());
        self
    }

    /// Details the client can act on (e.g. which form fields are wrong).
    pub fn with_data(mut self, data: Value) -> Self {
        self.data = data;
        self
    }

    /// `retry_after` seconds, for limits: sent in the body and as `Retry-After`, and said in the
    /// message of a rate limit.
    pub fn retry_after(mut self, seconds: i64) -> Self {
        let seconds = seconds.max(1);
        self.data = json!({ "retry_after": seconds });
        let wait = if seconds < 120 {
            format!("{seconds} seconds")
        } else {
            format!("{} minutes", (seconds + 59) / 60)
        };
        if self.kind == ErrorKind::RateLimited {
            self.with_message(format!("Too many requests, please try again in {wait}"))
        } else {
            self
        }
    }

    /// The cause, logged (never sent) when the error is a server fault.
    pub fn with_source(
        mut self,
        source: impl Into<Box<dyn std::error::Error + Send + Sync>>,
    ) -> Self {
        self.source = Some(source.into());
        self
    }

    /// A server fault: logged with its cause, answered with the generic message.
    pub fn internal(source: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Self {
        Self::new(ErrorKind::Internal).with_source(source)
    }

    /// The client's mistake (4xx), as opposed to a server fault.
    pub fn is_client_error(&self) -> bool {
        self.kind.http_status() < 500
    }

    pub fn message(&self) -> &str {
        self.message.as_deref().unwrap_or(self.kind.message())
    }
}

impl From<ErrorKind> for AppError {
    fn from(kind: ErrorKind) -> Self {
        Self::new(kind)
    }
}

impl From<sea_orm::DbErr> for AppError {
    fn from(e: sea_orm::DbErr) -> Self {
        Self::internal(e)
    }
}

impl std::fmt::Display for AppError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.message(), self.kind.code())
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.kind.http_status())
            .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        if status.is_server_error() {
            match &self.source {
                Some(source) => {
                    tracing::error!(error = %source, code = self.kind.code(), "request failed")
                }
                None => tracing::error!(code = self.kind.code(), "request failed"),
            }
        }
        let retry_after = self.data.get("retry_after").and_then(Value::as_i64);
        let body = Envelope {
            code: self.kind.code(),
            msg: self.message().to_owned(),
            data: self.data,
        };
        let mut response = (status, axum::Json(body)).into_response();
        if let Some(seconds) = retry_after.and_then(|s| HeaderValue::from_str(&s.to_string()).ok())
        {
            response.headers_mut().insert(header::RETRY_AFTER, seconds);
        }
        response
    }
}
