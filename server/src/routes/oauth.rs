//! OAuth 2 sign-in (Google, Line, X/Twitter) and binding X/Twitter to the signed-in user.

use aide::axum::ApiRouter;
use aide::axum::routing::{post, post_with};
use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use client_core::envelope::Envelope;
use serde::{Deserialize, Serialize};

use super::ok;
use crate::auth::oauth::{self, BROWSER_COOKIE, Callback, Provider};
use crate::auth::users::{self, AccountView, SessionUser};
use crate::error::{AppError, AppResult};
use crate::extract::{ApiJson, ClientMeta, CurrentUser, cookie};
use crate::limits;
use crate::openapi::answers;
use crate::state::AppState;

pub fn router() -> ApiRouter<AppState> {
    ApiRouter::new()
        .api_route(
            "/user/login/oauth/{provider}",
            post_with(login_start, answers::<Authorize>),
        )
        .api_route(
            "/user/login/oauth/{provider}/complete",
            post(login_complete),
        )
        .api_route(
            "/user/account/bind/twitter/oauth",
            post_with(bind_start, answers::<Authorize>),
        )
        .api_route(
            "/user/account/bind/twitter/oauth/complete",
            post(bind_complete),
        )
}

/// The `{provider}` of the path, named so the OpenAPI document declares it.
#[derive(schemars::JsonSchema, Deserialize)]
struct ProviderPath {
    /// `google`, `line` or `twitter`.
    provider: String,
}

fn provider(name: &str) -> AppResult<Provider> {
    Provider::from_name(name).ok_or_else(|| AppError::not_found("Unknown sign-in provider"))
}

#[derive(schemars::JsonSchema, Serialize)]
struct Authorize {
    auth_url: String,
    state: String,
}

/// Starts an authorization, giving the browser its binding cookie if it has none yet.
async fn started(
    state: &AppState,
    headers: &HeaderMap,
    provider: Provider,
    user_id: Option<i64>,
) -> AppResult<Response> {
    let existing = cookie(headers, BROWSER_COOKIE).filter(|v| v.len() >= 32 && v.len() <= 64);
    let browser = existing.clone().unwrap_or_else(|| {
        let mut bytes = [0u8; 24];
        state.random.fill(&mut bytes);
        hex::encode(bytes)
    });
    let begun = oauth::start(state, &state.auth, provider, user_id, &browser).await?;
    let mut response = ok(Authorize {
        auth_url: begun.auth_url,
        state: begun.state,
    })
    .into_response();
    if existing.is_none() {
        let secure = if state.config.public_url.starts_with("https://") {
            "; Secure"
        } else {
            ""
        };
        let value = format!(
            "{BROWSER_COOKIE}={browser}; Path=/api; HttpOnly; SameSite=Lax; Max-Age=86400{secure}"
        );
        if let Ok(value) = HeaderValue::from_str(&value) {
            response.headers_mut().append(header::SET_COOKIE, value);
        }
    }
    Ok(response)
}

async fn login_start(
    State(state): State<AppState>,
    Path(ProviderPath { provider: name }): Path<ProviderPath>,
    headers: HeaderMap,
    client: ClientMeta,
) -> AppResult<Response> {
    limits::spend(&state, limits::SIGN_IN_STARTS, &client.ip).await?;
    started(&state, &headers, provider(&name)?, None).await
}

async fn login_complete(
    State(state): State<AppState>,
    Path(ProviderPath { provider: name }): Path<ProviderPath>,
    headers: HeaderMap,
    client: ClientMeta,
    ApiJson(callback): ApiJson<Callback>,
) -> AppResult<Json<Envelope<SessionUser>>> {
    let provider = provider(&name)?;
    let browser = cookie(&headers, BROWSER_COOKIE);
    let who = oauth::complete(
        &state,
        &state.auth,
        provider,
        None,
        browser.as_deref(),
        callback,
    )
    .await?;
    let session = users::sign_in(
        &state,
        provider.name(),
        &who.subject,
        &who.name,
        client.locale,
    )
    .await?;
    Ok(ok(session))
}

async fn bind_start(
    State(state): State<AppState>,
    me: CurrentUser,
    headers: HeaderMap,
) -> AppResult<Response> {
    started(&state, &headers, Provider::Twitter, Some(me.user_id)).await
}

async fn bind_complete(
    State(state): State<AppState>,
    me: CurrentUser,
    headers: HeaderMap,
    ApiJson(callback): ApiJson<Callback>,
) -> AppResult<Json<Envelope<AccountView>>> {
    let browser = cookie(&headers, BROWSER_COOKIE);
    let who = oauth::complete(
        &state,
        &state.auth,
        Provider::Twitter,
        Some(me.user_id),
        browser.as_deref(),
        callback,
    )
    .await?;
    Ok(ok(users::bind(
        &state,
        me.user_id,
        "twitter",
        &who.subject,
        &who.name,
    )
    .await?))
}
