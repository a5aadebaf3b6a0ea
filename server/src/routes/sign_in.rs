//! Signing in: guest tokens, a one-time code by email or phone, Apple and Telegram.

use aide::axum::ApiRouter;
use aide::axum::routing::post;
use axum::Json;
use axum::extract::State;
use client_core::envelope::{Envelope, ErrorKind};
use client_core::validate::is_valid_code;
use client_core::validation;
use serde::{Deserialize, Serialize};
use validator::Validate;

use super::ok;
use super::otp::{normalize_email, phone_identity};
use crate::auth::otp::{self, PURPOSE_LOGIN};
use crate::auth::tokens;
use crate::auth::users::{self, SessionUser};
use crate::auth::{apple, telegram};
use crate::error::AppResult;
use crate::extract::{ApiJson, ClientMeta};
use crate::limits;
use crate::state::AppState;

pub fn router() -> ApiRouter<AppState> {
    ApiRouter::new()
        .api_route("/user/gtoken", post(guest_token))
        .api_route("/user/login/email", post(login_email))
        .api_route("/user/login/phone_number", post(login_phone))
        .api_route("/user/login/apple/start", post(apple_start))
        .api_route("/user/login/apple", post(login_apple))
        .api_route("/user/login/telegram/start", post(telegram_start))
        .api_route("/user/login/telegram", post(login_telegram))
}

#[derive(schemars::JsonSchema, Serialize)]
struct GuestToken {
    token: String,
    #[serde(rename = "type")]
    kind: i32,
}

async fn guest_token(
    State(state): State<AppState>,
    client: ClientMeta,
) -> AppResult<Json<Envelope<GuestToken>>> {
    limits::spend(&state, limits::GUEST_TOKENS, &client.ip).await?;
    Ok(ok(GuestToken {
        token: tokens::issue(&state, None).await?,
        kind: 0,
    }))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct EmailLogin {
    #[validate(custom(function = "validation::email"))]
    email: String,
    #[validate(custom(function = "validation::otp_code"))]
    otp: String,
    /// Needed only while the code guard is up (`auth::otp`).
    #[serde(default)]
    captcha_token: Option<String>,
}

/// Signs in the owner of `identity` (an email or a phone number, as `kind` says) once the
/// one-time code the request brings checks out; a first sign-in makes the account.
async fn sign_in_with_code(
    state: &AppState,
    client: &ClientMeta,
    kind: &str,
    identity: &str,
    code: &str,
    captcha_token: Option<&str>,
) -> AppResult<Json<Envelope<SessionUser>>> {
    let attempt = otp::Attempt {
        address: &otp::address(kind, identity),
        purpose: PURPOSE_LOGIN,
        code,
        client: &client.ip,
        locale: client.locale,
        captcha_token,
    };
    otp::verify(state, &state.auth, &attempt).await?;
    Ok(ok(users::sign_in(
        state,
        kind,
        identity,
        identity,
        client.locale,
    )
    .await?))
}

async fn login_email(
    State(state): State<AppState>,
    client: ClientMeta,
    ApiJson(req): ApiJson<EmailLogin>,
) -> AppResult<Json<Envelope<SessionUser>>> {
    let email = normalize_email(&req.email);
    let captcha = req.captcha_token.as_deref();
    sign_in_with_code(&state, &client, "email", &email, &req.otp, captcha).await
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct PhoneLogin {
    dial_code: String,
    phone_number: String,
    otp: String,
    #[serde(default)]
    captcha_token: Option<String>,
}

async fn login_phone(
    State(state): State<AppState>,
    client: ClientMeta,
    ApiJson(req): ApiJson<PhoneLogin>,
) -> AppResult<Json<Envelope<SessionUser>>> {
    if !state.sms.enabled() {
        return Err(ErrorKind::SmsDisabled.into());
    }
    let phone = phone_identity(&req.dial_code, &req.phone_number)?;
    if !is_valid_code(&req.otp) {
        return Err(ErrorKind::InvalidCode.into());
    }
    let captcha = req.captcha_token.as_deref();
    sign_in_with_code(&state, &client, "phone", &phone, &req.otp, captcha).await
}

async fn apple_start(
    State(state): State<AppState>,
    client: ClientMeta,
) -> AppResult<Json<Envelope<apple::AppleStart>>> {
    limits::spend(&state, limits::SIGN_IN_STARTS, &client.ip).await?;
    Ok(ok(apple::start(&state, &state.auth).await?))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct AppleLogin {
    identity_token: String,
    /// Apple sends the name only on the first sign-in, to the browser.
    #[serde(default)]
    full_name: Option<String>,
}

async fn login_apple(
    State(state): State<AppState>,
    client: ClientMeta,
    ApiJson(req): ApiJson<AppleLogin>,
) -> AppResult<Json<Envelope<SessionUser>>> {
    let who = apple::verify(&state, &state.auth, &req.identity_token).await?;
    let name = who
        .email
        .or_else(|| req.full_name.map(|n| n.trim().chars().take(64).collect()))
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| "Apple ID".to_owned());
    Ok(ok(users::sign_in(
        &state,
        "apple",
        &who.subject,
        &name,
        client.locale,
    )
    .await?))
}

/// What the Telegram Login Widget needs: the bot's username and id.
#[derive(schemars::JsonSchema, Serialize, ts_rs::TS)]
pub struct TelegramStart {
    pub bot_username: String,
    /// The number before the token's colon (public: it is the bot's user id).
    pub bot_id: String,
}

async fn telegram_start(State(state): State<AppState>) -> AppResult<Json<Envelope<TelegramStart>>> {
    let bot_username = state.bots.telegram_username_for_reader().await?;
    let bot_id = state
        .config
        .telegram_bot_token
        .as_deref()
        .and_then(|t| t.split(':').next())
        .unwrap_or_default()
        .to_owned();
    Ok(ok(TelegramStart {
        bot_username,
        bot_id,
    }))
}

/// The Login Widget's fields as they come, or `{init_data}` from a Mini App.
#[derive(schemars::JsonSchema, Deserialize, Validate)]
pub(super) struct TelegramData {
    #[serde(flatten)]
    pub(super) fields: serde_json::Map<String, serde_json::Value>,
}

async fn login_telegram(
    State(state): State<AppState>,
    client: ClientMeta,
    ApiJson(data): ApiJson<TelegramData>,
) -> AppResult<Json<Envelope<SessionUser>>> {
    limits::spend(&state, limits::SIGN_IN_STARTS, &client.ip).await?;
    let who =
        telegram::accept(&state, &state.auth, &serde_json::Value::Object(data.fields)).await?;
    Ok(ok(users::sign_in(
        &state,
        "telegram",
        &who.id,
        &who.name,
        client.locale,
    )
    .await?))
}
