//! Reading a response: the envelope, the verdict on it, and when a failed call is retried.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::ErrorKind;
use crate::constants::{MAX_REQUEST_ATTEMPTS, SUCCESS_CODE};

/// Every response body: `code` 2000 and `msg` "success" with the answer in `data`, or an error's
/// code, message and details.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Envelope<T> {
    pub code: i32,
    pub msg: String,
    pub data: T,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CallError {
    pub code: i32,
    pub message: String,
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub data: Value,
}

/// A response as the client sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(untagged)]
pub enum Unwrapped {
    Ok {
        #[cfg_attr(feature = "ts", ts(type = "true"))]
        ok: bool,
        #[cfg_attr(feature = "ts", ts(type = "unknown"))]
        data: Value,
    },
    Err {
        #[cfg_attr(feature = "ts", ts(type = "false"))]
        ok: bool,
        error: CallError,
        logout: bool,
    },
}

/// Where the `data` of a judged response comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DataFrom {
    /// `null`.
    Nothing,
    /// The whole body (an HTTP error keeps what the server said).
    Body,
    /// The body's `data` field.
    BodyData,
}

/// The verdict on a response, from its head alone, so a large payload never needs copying.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub ok: bool,
    pub code: i32,
    pub message: String,
    pub logout: bool,
    pub data: DataFrom,
}

/// Judges a response: HTTP status 0 means none arrived; a non-2xx status is an HTTP error (401
/// also logs the user out); a 2xx body is success only with envelope code 2000.
pub fn judge_response(
    status: u16,
    status_text: &str,
    code: Option<i64>,
    msg: Option<&str>,
) -> Verdict {
    let fail = |code: i32, message: String, data: DataFrom| Verdict {
        ok: false,
        code,
        message,
        logout: status == 401,
        data,
    };
    if status == 0 {
        return fail(0, "No response".to_owned(), DataFrom::Nothing);
    }
    if !(200..300).contains(&status) {
        return fail(
            i32::from(status),
            format!("HTTP {status_text}"),
            DataFrom::Body,
        );
    }
    match code.and_then(|c| i32::try_from(c).ok()) {
        Some(SUCCESS_CODE) => Verdict {
            ok: true,
            code: SUCCESS_CODE,
            message: String::new(),
            logout: false,
            data: DataFrom::BodyData,
        },
        Some(code) => {
            let message = match msg.filter(|m| !m.is_empty()) {
                Some(m) => m.to_owned(),
                None => ErrorKind::from_code(code)
                    .map_or("Unknown error", ErrorKind::message)
                    .to_owned(),
            };
            fail(code, message, DataFrom::BodyData)
        }
        None => fail(
            ErrorKind::Internal.code(),
            "Malformed response".to_owned(),
            DataFrom::Nothing,
        ),
    }
}

/// [`judge_response`] applied to a parsed body.
pub fn unwrap_response(status: u16, status_text: &str, body: &Value) -> Unwrapped {
    let code = body.get("code").and_then(Value::as_i64);
    let verdict = judge_response(
        status,
        status_text,
        code,
        body.get("msg").and_then(Value::as_str),
    );
    let data = match verdict.data {
        DataFrom::Nothing => Value::Null,
        DataFrom::Body => body.clone(),
        DataFrom::BodyData => body.get("data").cloned().unwrap_or(Value::Null),
    };
    if verdict.ok {
        Unwrapped::Ok { ok: true, data }
    } else {
        Unwrapped::Err {
            ok: false,
            error: CallError {
                code: verdict.code,
                message: verdict.message,
                data,
            },
            logout: verdict.logout,
        }
    }
}

/// TanStack Query's retry rule: `failure_count` is 0 after the first failure. Only server
/// failures (5xx) are retried, and a query gets [`MAX_REQUEST_ATTEMPTS`] attempts in all.
pub fn should_retry(failure_count: u32, status: u16) -> bool {
    status >= 500 && failure_count.saturating_add(1) < MAX_REQUEST_ATTEMPTS
}
