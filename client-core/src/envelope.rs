//! The request envelope `{code, msg, data}` and everything around a call: the error catalogue,
//! the endpoint allow-list, the retry rule and the device header.
//!
//! Which error to use when: a request the server cannot read (bad JSON, wrong content type, a
//! missing field) is [`ErrorKind::BadRequest`] with HTTP 400; a missing or dead token is
//! [`ErrorKind::Unauthorized`] (HTTP 401, the client logs out); a readable request that breaks a
//! business rule (a wrong code, a form error) is answered with HTTP 200 and its own code, so the
//! client shows its message; abuse limits are HTTP 429; anything of ours is HTTP 500 with no detail.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::constants::{APP_VERSION, BITVERSE_AGENT, MAX_REQUEST_ATTEMPTS, SUCCESS_CODE};

/// The error catalogue: one code, HTTP status, locale key and English message each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    BadRequest,
    Unauthorized,
    LoginRequired,
    WrongUrl,
    MethodNotAllowed,
    NotFound,
    PayloadTooLarge,
    RateLimited,
    InvalidParam,
    InvalidEmail,
    InvalidPhone,
    InvalidCode,
    CodeExpired,
    TooManyAttempts,
    ResendTooSoon,
    CaptchaFailed,
    SmsDisabled,
    TaskNotCollectable,
    EventNotReportable,
    ImageRejected,
    WalletMessageInvalid,
    WalletSignatureInvalid,
    WalletNonceInvalid,
    AccountBoundElsewhere,
    LastSignInMethod,
    InvitationInvalid,
    InvitationUsed,
    ProviderDisabled,
    IdentityTokenInvalid,
    UserDenied,
    Forbidden,
    Internal,
    Unavailable,
}

impl ErrorKind {
    pub const ALL: [ErrorKind; 33] = [
        Self::BadRequest,
        Self::Unauthorized,
        Self::LoginRequired,
        Self::WrongUrl,
        Self::MethodNotAllowed,
        Self::NotFound,
        Self::PayloadTooLarge,
        Self::RateLimited,
        Self::InvalidParam,
        Self::InvalidEmail,
        Self::InvalidPhone,
        Self::InvalidCode,
        Self::CodeExpired,
        Self::TooManyAttempts,
        Self::ResendTooSoon,
        Self::CaptchaFailed,
        Self::SmsDisabled,
        Self::TaskNotCollectable,
        Self::EventNotReportable,
        Self::ImageRejected,
        Self::WalletMessageInvalid,
        Self::WalletSignatureInvalid,
        Self::WalletNonceInvalid,
        Self::AccountBoundElsewhere,
        Self::LastSignInMethod,
        Self::InvitationInvalid,
        Self::InvitationUsed,
        Self::ProviderDisabled,
        Self::IdentityTokenInvalid,
        Self::UserDenied,
        Self::Forbidden,
        Self::Internal,
        Self::Unavailable,
    ];

    /// (code, HTTP status, locale key, English message)
    const fn spec(self) -> (i32, u16, &'static str, &'static str) {
        match self {
            Self::BadRequest => (4000, 400, "error.badRequest", "Bad request"),
            Self::Unauthorized => (401, 401, "error.unauthorized", "Please log in again"),
            Self::LoginRequired => (
                4010,
                401,
                "error.loginRequired",
                "You should connect wallet to login first",
            ),
            Self::WrongUrl => (404, 404, "error.wrongUrl", "Wrong URL!"),
            Self::MethodNotAllowed => (
                4050,
                405,
                "error.methodNotAllowed",
                "Method not allowed, use POST",
            ),
            Self::NotFound => (4040, 404, "error.notFound", "Not found"),
            Self::PayloadTooLarge => (4130, 413, "error.payloadTooLarge", "Request is too large"),
            Self::RateLimited => (
                4290,
                429,
                "error.rateLimited",
                "Too many requests, please try again later",
            ),
            Self::InvalidParam => (4001, 200, "error.invalidParam", "Invalid parameter"),
            Self::InvalidEmail => (
                4101,
                200,
                "error.invalidEmail",
                "Please input the correct email address",
            ),
            Self::InvalidPhone => (
                4102,
                200,
                "error.invalidPhone",
                "Please input the correct phone number",
            ),
            Self::InvalidCode => (4103, 200, "error.invalidCode", "Invalid verification code"),
            Self::CodeExpired => (
                4104,
                200,
                "error.codeExpired",
                "The verification code has expired, please request a new one",
            ),
            Self::TooManyAttempts => (
                4105,
                200,
                "error.tooManyAttempts",
                "Too many failed attempts, please try again later",
            ),
            Self::ResendTooSoon => (
                4106,
                200,
                "error.resendTooSoon",
                "Please wait before requesting another code",
            ),
            Self::CaptchaFailed => (
                4107,
                200,
                "error.captchaFailed",
                "Captcha verification failed",
            ),
            Self::SmsDisabled => (
                4108,
                200,
                "error.smsDisabled",
                "Sign-in by phone is not available",
            ),
            Self::TaskNotCollectable => (
                4201,
                200,
                "error.taskNotCollectable",
                "This task has no award to collect",
            ),
            Self::EventNotReportable => (
                4202,
                200,
                "error.eventNotReportable",
                "This event is recorded by the server",
            ),
            Self::ImageRejected => (
                4301,
                200,
                "error.imageRejected",
                "Only accept type of .png .jpeg .jpg .gif .",
            ),
            Self::WalletMessageInvalid => (
                4401,
                200,
                "error.walletMessageInvalid",
                "Invalid sign-in message",
            ),
            Self::WalletSignatureInvalid => (
                4402,
                200,
                "error.walletSignatureInvalid",
                "The signature does not match the wallet address",
            ),
            Self::WalletNonceInvalid => (
                4403,
                200,
                "error.walletNonceInvalid",
                "This sign-in request has expired or was already used, please try again",
            ),
            Self::AccountBoundElsewhere => (
                4404,
                200,
                "error.accountBoundElsewhere",
                "This account is already bound to another user",
            ),
            Self::LastSignInMethod => (
                4405,
                200,
                "error.lastSignInMethod",
                "You cannot remove your only way to sign in",
            ),
            Self::InvitationInvalid => (
                4501,
                200,
                "error.invitationInvalid",
                "Invalid invitation code",
            ),
            Self::InvitationUsed => (
                4502,
                200,
                "error.invitationUsed",
                "You have already used an invitation code",
            ),
            Self::ProviderDisabled => (
                4406,
                200,
                "error.providerDisabled",
                "This sign-in method is not available",
            ),
            Self::IdentityTokenInvalid => (
                4407,
                200,
                "error.identityTokenInvalid",
                "Sign-in could not be verified, please try again",
            ),
            Self::UserDenied => (4408, 200, "error.userDenied", "You cancelled the sign-in"),
            Self::Forbidden => (4030, 403, "error.forbidden", "You may not do this"),
            Self::Internal => (
                5000,
                500,
                "error.internal",
                "Something went wrong, please try again",
            ),
            Self::Unavailable => (
                5030,
                503,
                "error.unavailable",
                "Service temporarily unavailable, please try again",
            ),
        }
    }

    pub const fn code(self) -> i32 {
        self.spec().0
    }
    pub const fn http_status(self) -> u16 {
        self.spec().1
    }
    pub const fn key(self) -> &'static str {
        self.spec().2
    }
    pub const fn message(self) -> &'static str {
        self.spec().3
    }

    pub fn from_code(code: i32) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.code() == code)
    }
}

/// Every response body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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

/// Who may call an endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Public,
    LoginOnly,
}

/// Every API path (without `/api`), as the spec writes it; `{x}` stands for one path segment.
pub const ENDPOINTS: &[(&str, Access)] = &[
    ("/health", Access::Public),
    ("/app/area", Access::Public),
    ("/service/captcha", Access::Public),
    ("/user/gtoken", Access::Public),
    ("/otp/email", Access::Public),
    ("/otp/sms", Access::Public),
    ("/user/login/email", Access::Public),
    ("/user/login/phone_number", Access::Public),
    ("/user/logout", Access::LoginOnly),
    ("/user/info", Access::LoginOnly),
    ("/user/account/list", Access::LoginOnly),
    ("/user/account/unbind", Access::LoginOnly),
    ("/user/account/bind/wallet/sigmsg", Access::LoginOnly),
    ("/user/account/bind/wallet", Access::LoginOnly),
    ("/user/account/bind/twitter/oauth", Access::LoginOnly),
    (
        "/user/account/bind/twitter/oauth/complete",
        Access::LoginOnly,
    ),
    ("/user/invitation/bind", Access::LoginOnly),
    ("/user/sig/msg", Access::Public),
    ("/user/login/wallet", Access::Public),
    ("/user/login/apple/start", Access::Public),
    ("/user/login/apple", Access::Public),
    ("/user/login/oauth/{provider}", Access::Public),
    ("/user/login/oauth/{provider}/complete", Access::Public),
    ("/point/task/list", Access::Public),
    ("/point/task_event_report", Access::LoginOnly),
    ("/point/collect", Access::LoginOnly),
    ("/point/balance", Access::LoginOnly),
    ("/point/ledger", Access::LoginOnly),
    ("/point/leaderboard", Access::Public),
    ("/img/upload/feedback/v2", Access::Public),
    ("/feedback/create", Access::Public),
    ("/log/track", Access::Public),
    ("/user/settings", Access::LoginOnly),
    ("/feed/list", Access::Public),
    ("/feed/detail", Access::Public),
    ("/search", Access::Public),
    ("/explore", Access::Public),
    ("/tag/list", Access::Public),
    ("/tag/detail", Access::Public),
    ("/tag/follow/list", Access::LoginOnly),
    ("/tag/follow/add", Access::LoginOnly),
    ("/tag/follow/del", Access::LoginOnly),
    ("/tag/follow/status", Access::LoginOnly),
    ("/token/detail", Access::Public),
    ("/topic/list", Access::Public),
    ("/topic/detail", Access::Public),
    ("/channel/list", Access::Public),
    ("/channel/detail", Access::Public),
    ("/kol/list", Access::Public),
    ("/kol/detail", Access::Public),
    ("/user/follow/list", Access::LoginOnly),
    ("/user/follow/add", Access::LoginOnly),
    ("/user/follow/del", Access::LoginOnly),
    ("/benefit/list", Access::Public),
    ("/benefit/detail", Access::Public),
];

fn path_matches(pattern: &str, path: &str) -> bool {
    let mut want = pattern.split('/');
    let mut have = path.split('/');
    loop {
        match (want.next(), have.next()) {
            (None, None) => return true,
            (Some(w), Some(h)) if w.starts_with('{') => {
                if h.is_empty() || w.len() < 2 {
                    return false;
                }
            }
            (Some(w), Some(h)) if w == h => {}
            _ => return false,
        }
    }
}

/// How an endpoint may be called, or `None` when it is not an API path at all.
pub fn endpoint_access(path: &str) -> Option<Access> {
    let path = path.split(['?', '#']).next().unwrap_or_default();
    ENDPOINTS
        .iter()
        .find(|(pattern, _)| path_matches(pattern, path))
        .map(|(_, access)| *access)
}

/// The client's check before a call: an unknown path or a login-only one without a token fails.
pub fn check_endpoint(path: &str, has_token: bool) -> Option<ErrorKind> {
    match endpoint_access(path) {
        None => Some(ErrorKind::WrongUrl),
        Some(Access::LoginOnly) if !has_token => Some(ErrorKind::LoginRequired),
        Some(_) => None,
    }
}

/// TanStack Query's retry rule: `failure_count` is 0 after the first failure. Only server
/// failures (5xx) are retried, and a query gets [`MAX_REQUEST_ATTEMPTS`] attempts in all.
pub fn should_retry(failure_count: u32, status: u16) -> bool {
    status >= 500 && failure_count.saturating_add(1) < MAX_REQUEST_ATTEMPTS
}

/// What the browser knows of its device; any field may be missing.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(optional_fields = nullable))]
#[serde(default, rename_all = "camelCase")]
pub struct DeviceInfo {
    pub os: Option<String>,
    pub language: Option<String>,
    /// As `Date.prototype.getTimezoneOffset` gives it: minutes, positive west of UTC.
    pub timezone_offset_minutes: Option<f64>,
    pub vendor: Option<String>,
    pub model: Option<String>,
    pub user_agent: Option<String>,
}

/// The `X-BPARAM` header's JSON.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DeviceHeader {
    pub platform: String,
    pub os: String,
    pub language: String,
    /// Hours east of UTC.
    pub timezone: f64,
    pub vendor: String,
    pub model: String,
    pub app_version: String,
    pub channel: String,
}

/// Longest `X-BPARAM` the server reads, and longest field it keeps.
pub const DEVICE_HEADER_MAX_BYTES: usize = 2048;
const DEVICE_FIELD_MAX_CHARS: usize = 64;

pub fn is_bitverse_agent(user_agent: &str) -> bool {
    user_agent.to_ascii_lowercase().contains(BITVERSE_AGENT)
}

fn field(s: Option<&str>) -> String {
    s.unwrap_or_default()
        .chars()
        .filter(|c| !c.is_control())
        .take(DEVICE_FIELD_MAX_CHARS)
        .collect()
}

/// The `X-BPARAM` fields for this device.
pub fn device_header_of(info: &DeviceInfo) -> DeviceHeader {
    let offset = info
        .timezone_offset_minutes
        .filter(|m| m.is_finite() && m.abs() <= 24.0 * 60.0);
    let bitverse = info.user_agent.as_deref().is_some_and(is_bitverse_agent);
    DeviceHeader {
        platform: "web".to_owned(),
        os: field(info.os.as_deref()),
        language: field(info.language.as_deref()),
        timezone: offset.map_or(0.0, |m| -m / 60.0),
        vendor: field(info.vendor.as_deref()),
        model: field(info.model.as_deref()),
        app_version: APP_VERSION.to_owned(),
        channel: if bitverse { "bitverse" } else { "official" }.to_owned(),
    }
}

/// The `X-BPARAM` header value for this device.
pub fn device_header(info: &DeviceInfo) -> String {
    serde_json::to_string(&device_header_of(info)).unwrap_or_default()
}

/// Reads an `X-BPARAM` header on the server: anything malformed or oversized is `None` (ignored,
/// never fatal), and fields are cut to size. The values are hints from the client, never trusted.
pub fn parse_device_header(raw: &str) -> Option<DeviceHeader> {
    if raw.len() > DEVICE_HEADER_MAX_BYTES {
        return None;
    }
    let mut header: DeviceHeader = serde_json::from_str(raw).ok()?;
    for value in [
        &mut header.platform,
        &mut header.os,
        &mut header.language,
        &mut header.vendor,
        &mut header.model,
        &mut header.app_version,
        &mut header.channel,
    ] {
        *value = field(Some(value));
    }
    if !header.timezone.is_finite() || header.timezone.abs() > 24.0 {
        header.timezone = 0.0;
    }
    Some(header)
}
