//! A signed-in reader's account: who they are, reading settings, the sign-in methods bound to
//! it, an invitation, and signing out here or everywhere.

use aide::axum::ApiRouter;
use aide::axum::routing::post;
use axum::Json;
use axum::extract::State;
use client_core::envelope::Envelope;
use client_core::{langs, validation};
use serde::{Deserialize, Serialize};
use validator::{Validate, ValidationError};

use super::ok;
use super::sign_in::TelegramData;
use crate::auth::tokens;
use crate::auth::users::{self, AccountView, SessionUser};
use crate::auth::{invitations, telegram};
use crate::error::AppResult;
use crate::extract::{ApiJson, CurrentUser};
use crate::state::AppState;

pub fn router() -> ApiRouter<AppState> {
    ApiRouter::new()
        .api_route("/user/account/bind/telegram", post(bind_telegram))
        .api_route("/user/logout", post(logout))
        .api_route("/user/logout/all", post(logout_everywhere))
        .api_route("/user/settings", post(settings))
        .api_route("/user/info", post(info))
        .api_route("/user/account/list", post(account_list))
        .api_route("/user/account/unbind", post(unbind))
        .api_route("/user/invitation/bind", post(invitation_bind))
}

async fn logout(
    State(state): State<AppState>,
    me: CurrentUser,
) -> AppResult<Json<Envelope<serde_json::Value>>> {
    tokens::revoke(&state, &me.session).await?;
    Ok(ok(serde_json::json!({})))
}

#[derive(schemars::JsonSchema, Serialize)]
struct SignedOut {
    /// How many sessions (this one included) were signed out.
    revoked: u64,
}

/// "Sign out everywhere": every session of the user, on every server within a second.
async fn logout_everywhere(
    State(state): State<AppState>,
    me: CurrentUser,
) -> AppResult<Json<Envelope<SignedOut>>> {
    Ok(ok(SignedOut {
        revoked: tokens::revoke_all(&state, me.user_id).await?,
    }))
}

async fn info(
    State(state): State<AppState>,
    me: CurrentUser,
) -> AppResult<Json<Envelope<SessionUser>>> {
    Ok(ok(SessionUser::new(
        users::get(&state, me.user_id).await?,
        None,
        false,
    )))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
#[validate(schema(function = "settings_rule"))]
struct Settings {
    auto_translate: Option<bool>,
    #[validate(custom(function = "validation::read_langs"))]
    read_langs: Option<Vec<String>>,
}

fn settings_rule(req: &Settings) -> Result<(), ValidationError> {
    match (req.auto_translate, &req.read_langs) {
        (None, None) => Err(ValidationError::new("settings")
            .with_message("Give auto_translate, read_langs or both".into())),
        _ => Ok(()),
    }
}

/// Reading preferences (what is left out stays); answers with the session user as stored.
async fn settings(
    State(state): State<AppState>,
    me: CurrentUser,
    ApiJson(req): ApiJson<Settings>,
) -> AppResult<Json<Envelope<SessionUser>>> {
    let reading = users::ReadingSettings {
        auto_translate: req.auto_translate,
        read_langs: req.read_langs.as_deref().map(langs::checked),
    };
    let user = users::set_reading(&state, me.user_id, reading).await?;
    tokens::forget_users_sessions(&state, me.user_id).await?;
    Ok(ok(SessionUser::new(user, None, false)))
}

#[derive(schemars::JsonSchema, Serialize)]
struct AccountList {
    list: Vec<AccountView>,
}

async fn account_list(
    State(state): State<AppState>,
    me: CurrentUser,
) -> AppResult<Json<Envelope<AccountList>>> {
    let list = users::accounts(&state, me.user_id)
        .await?
        .into_iter()
        .map(AccountView::from)
        .collect();
    Ok(ok(AccountList { list }))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct Unbind {
    id: i64,
}

async fn unbind(
    State(state): State<AppState>,
    me: CurrentUser,
    ApiJson(req): ApiJson<Unbind>,
) -> AppResult<Json<Envelope<serde_json::Value>>> {
    users::unbind(&state, me.user_id, req.id).await?;
    Ok(ok(serde_json::json!({})))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct InvitationBind {
    invitation_code: String,
}

async fn invitation_bind(
    State(state): State<AppState>,
    me: CurrentUser,
    ApiJson(req): ApiJson<InvitationBind>,
) -> AppResult<Json<Envelope<serde_json::Value>>> {
    invitations::bind(&state, me.user_id, &req.invitation_code).await?;
    Ok(ok(serde_json::json!({})))
}

async fn bind_telegram(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(data): ApiJson<TelegramData>,
) -> AppResult<Json<Envelope<AccountView>>> {
    let who =
        telegram::accept(&state, &state.auth, &serde_json::Value::Object(data.fields)).await?;
    Ok(ok(users::bind(
        &state,
        user.user_id,
        "telegram",
        &who.id,
        &who.name,
    )
    .await?))
}
