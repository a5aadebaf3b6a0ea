//! Sending one-time codes by email and SMS.

use aide::axum::ApiRouter;
use aide::axum::routing::post;
use axum::Json;
use axum::extract::State;
use client_core::constants::{OTP_RESEND_SECONDS, OTP_TTL_SECONDS};
use client_core::envelope::{Envelope, ErrorKind};
use client_core::validate::{is_valid_dial_code, is_valid_phone, otp_phone_number};
use client_core::validation;
use serde::{Deserialize, Serialize};
use validator::Validate;

use super::ok;
use crate::auth::captcha;
use crate::auth::otp::{self, PURPOSE_LOGIN};
use crate::error::{AppError, AppResult};
use crate::extract::{ApiJson, ClientMeta};
use crate::i18n::t;
use crate::state::AppState;

pub fn router() -> ApiRouter<AppState> {
    ApiRouter::new()
        .api_route("/otp/email", post(send_email))
        .api_route("/otp/sms", post(send_sms))
}

/// The client also sends `captcha` (which one it ran); the server enforces its own setting, so
/// that field is not read.
#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct EmailCodeRequest {
    #[validate(custom(function = "validation::email"))]
    email: String,
    purpose: String,
    #[serde(default)]
    captcha_token: Option<String>,
}

#[derive(schemars::JsonSchema, Serialize)]
struct CodeSent {
    /// Seconds until another code may be asked for.
    resend_after: i64,
    /// Seconds the code stays valid.
    expires_in: i64,
}

const SENT: CodeSent = CodeSent {
    resend_after: OTP_RESEND_SECONDS,
    expires_in: OTP_TTL_SECONDS,
};

/// Email addresses are compared without regard to case.
pub fn normalize_email(email: &str) -> String {
    email.trim().to_lowercase()
}

fn check_purpose(purpose: &str) -> AppResult<()> {
    if purpose == PURPOSE_LOGIN {
        Ok(())
    } else {
        Err(AppError::invalid("purpose must be \"login\""))
    }
}

async fn send_email(
    State(state): State<AppState>,
    client: ClientMeta,
    ApiJson(req): ApiJson<EmailCodeRequest>,
) -> AppResult<Json<Envelope<CodeSent>>> {
    let email = normalize_email(&req.email);
    check_purpose(&req.purpose)?;
    captcha::verify(
        &state.auth,
        "otpemail",
        req.captcha_token.as_deref(),
        &client.ip,
    )
    .await?;
    let address = otp::address("email", &email);
    let code = otp::issue(&state, &state.auth, &address, &req.purpose, &client.ip).await?;
    if let Err(e) = state.mailer.send_code(&email, &code, client.locale).await {
        otp::release_send_gate(&state, &address).await?;
        return Err(AppError::new(ErrorKind::Unavailable).with_source(e));
    }
    Ok(ok(SENT))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct SmsCodeRequest {
    dial_code: String,
    phone_number: String,
    purpose: String,
    #[serde(default)]
    captcha_token: Option<String>,
}

/// `886-912345678`, or the error to answer with.
pub fn phone_identity(dial_code: &str, phone: &str) -> AppResult<String> {
    if is_valid_dial_code(dial_code) && is_valid_phone(phone) {
        Ok(otp_phone_number(dial_code, phone))
    } else {
        Err(ErrorKind::InvalidPhone.into())
    }
}

async fn send_sms(
    State(state): State<AppState>,
    client: ClientMeta,
    ApiJson(req): ApiJson<SmsCodeRequest>,
) -> AppResult<Json<Envelope<CodeSent>>> {
    if !state.sms.enabled() {
        return Err(ErrorKind::SmsDisabled.into());
    }
    let phone = phone_identity(&req.dial_code, &req.phone_number)?;
    check_purpose(&req.purpose)?;
    captcha::verify(
        &state.auth,
        "otpsms",
        req.captcha_token.as_deref(),
        &client.ip,
    )
    .await?;
    let address = otp::address("phone", &phone);
    let code = otp::issue(&state, &state.auth, &address, &req.purpose, &client.ip).await?;
    let minutes = (OTP_TTL_SECONDS / 60).to_string();
    let text = t(
        client.locale,
        "mail.sms",
        &[("code", &code), ("minutes", &minutes)],
    );
    if let Err(e) = state.sms.send(&state.http, &phone, &text).await {
        otp::release_send_gate(&state, &address).await?;
        return Err(AppError::new(ErrorKind::Unavailable).with_source(e));
    }
    Ok(ok(SENT))
}
