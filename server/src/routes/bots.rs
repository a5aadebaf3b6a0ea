//! The bots' webhooks (outside `/api`: Telegram and LINE call them, not our clients), the
//! account page's Telegram link, and the operators' status.

use aide::axum::ApiRouter;
use aide::axum::routing::post;
use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use client_core::envelope::Envelope;
use client_core::locale::{DEFAULT_LOCALE, locale_path, locale_segment};
use serde::Serialize;
use subtle::ConstantTimeEq;

use super::admin::Admin;
use super::{IdRequest, List, ok};
use crate::bots::link::{self, LinkedChat};
use crate::bots::status::{self, BotsStatus};
use crate::bots::telegram_api::Update;
use crate::bots::{guides, line, line_api, telegram};
use crate::error::{AppError, AppResult};
use crate::extract::{ApiJson, CurrentUser};
use crate::limits;
use crate::state::AppState;

// The webhooks and the guides by name are served outside `/api` (`crate::app`): platforms and
// pages call them, not our clients.

pub(crate) async fn guide(state: State<AppState>, Path(name): Path<String>) -> Response {
    guide_in(&state, DEFAULT_LOCALE, &name).await
}

pub(crate) async fn localized_guide(
    state: State<AppState>,
    Path((locale, name)): Path<(String, String)>,
) -> Response {
    match locale_segment(&locale) {
        Some(locale) => guide_in(&state, locale, &name).await,
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

/// Sends the reader to the guide's page in their language.
async fn guide_in(state: &AppState, locale: &str, name: &str) -> Response {
    match guides::find(state, name).await {
        Ok(Some(id)) => Redirect::to(&locale_path(locale, &format!("/feed/{id}"))).into_response(),
        Ok(None) => StatusCode::NOT_FOUND.into_response(),
        Err(e) => e.into_response(),
    }
}

pub fn router() -> ApiRouter<AppState> {
    ApiRouter::new()
        .api_route("/bot/telegram/link", post(telegram_link))
        .api_route("/bot/chat/list", post(chat_list))
        .api_route("/bot/chat/unlink", post(chat_unlink))
        .api_route("/admin/bots/status", post(bots_status))
}

/// Telegram's webhook: the secret is checked before the body is read; past it, every update is
/// answered 200 (Telegram would otherwise send it again and again), whatever it holds.
pub(crate) async fn telegram_webhook(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> StatusCode {
    let (Some(_), Some(secret)) = (
        state.bots.telegram.as_ref(),
        state.config.telegram_webhook_secret.as_deref(),
    ) else {
        return StatusCode::NOT_FOUND;
    };
    let given = headers
        .get("x-telegram-bot-api-secret-token")
        .map(|v| v.as_bytes())
        .unwrap_or_default();
    if !bool::from(given.ct_eq(secret.as_bytes())) {
        return StatusCode::UNAUTHORIZED;
    }
    match serde_json::from_slice::<Update>(&body) {
        Ok(update) => {
            let id = update.update_id;
            if let Err(e) = telegram::handle(&state, &state.bots, update).await {
                tracing::warn!("telegram update {id}: {e:?}");
            }
        }
        Err(e) => tracing::warn!("telegram webhook: unreadable update: {e}"),
    }
    StatusCode::OK
}

/// LINE's webhook: the signature over the raw body is checked before anything is parsed; a
/// signed body that is not LINE's JSON is a 400, one without events a 200.
pub(crate) async fn line_webhook(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> StatusCode {
    let (Some(_), Some(secret)) = (
        state.bots.line.as_ref(),
        state.config.line_channel_secret.as_deref(),
    ) else {
        return StatusCode::NOT_FOUND;
    };
    let signature = headers
        .get("x-line-signature")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    if !line_api::signed(secret, &body, signature) {
        return StatusCode::UNAUTHORIZED;
    }
    let Ok(events) = serde_json::from_slice::<line::Body>(&body) else {
        tracing::warn!("line webhook: a signed body that is not JSON events");
        return StatusCode::BAD_REQUEST;
    };
    if let Err(e) = line::handle(&state, &state.bots, events).await {
        tracing::warn!("line webhook: {e:?}");
    }
    StatusCode::OK
}

#[derive(schemars::JsonSchema, Serialize, ts_rs::TS)]
pub struct TelegramLink {
    /// `https://t.me/<bot>?start=<code>`: opens the bot, which links the chat on `/start`.
    pub url: String,
    pub expires_in: i64,
}

async fn telegram_link(
    State(state): State<AppState>,
    user: CurrentUser,
) -> AppResult<Json<Envelope<TelegramLink>>> {
    let username = state.bots.telegram_username_for_reader().await?;
    limits::spend(
        &state,
        limits::BOT_LINK_CODES,
        &format!("u:{}", user.user_id),
    )
    .await?;
    let code = link::make_code(&state, user.user_id).await?;
    Ok(ok(TelegramLink {
        url: format!("https://t.me/{username}?start={code}"),
        expires_in: link::CODE_SECONDS,
    }))
}

async fn chat_list(
    State(state): State<AppState>,
    user: CurrentUser,
) -> AppResult<Json<Envelope<List<LinkedChat>>>> {
    let list = link::linked_chats(&state, user.user_id).await?;
    Ok(ok(List { list }))
}

async fn chat_unlink(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(request): ApiJson<IdRequest>,
) -> AppResult<Json<Envelope<()>>> {
    if !link::unlink_own(&state, user.user_id, request.id).await? {
        return Err(AppError::not_found("No such linked chat"));
    }
    Ok(ok(()))
}

async fn bots_status(
    State(state): State<AppState>,
    _: Admin,
) -> AppResult<Json<Envelope<BotsStatus>>> {
    Ok(ok(status::status(&state.db).await?))
}
