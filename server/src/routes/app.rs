//! Service-level calls: health, the area list, which captcha guards which action and which
//! sign-in methods the site offers (the sign-in dialog's one call).

use aide::axum::ApiRouter;
use aide::axum::routing::get;
use axum::Json;
use axum::extract::{Query, State};
use client_core::envelope::{Envelope, ErrorKind};
use sea_orm::ConnectionTrait;
use serde::{Deserialize, Serialize};

use super::ok;
use crate::area::{Area, areas};
use crate::auth::captcha::ACTIONS;
use crate::bots::Platform;
use crate::error::{AppError, AppResult};
use crate::state::AppState;

pub fn router() -> ApiRouter<AppState> {
    ApiRouter::new()
        .api_route("/health", get(health))
        .api_route("/app/area", get(area))
        .api_route("/service/captcha", get(captcha))
}

#[derive(schemars::JsonSchema, Serialize)]
struct Health {
    status: &'static str,
    database: &'static str,
    /// `ready`, or `preparing` while a PostgreSQL server opens its search copy.
    search: &'static str,
}

async fn health(State(state): State<AppState>) -> AppResult<Json<Envelope<Health>>> {
    state
        .db
        .execute_unprepared("SELECT 1")
        .await
        .map_err(|e| AppError::new(ErrorKind::Unavailable).with_source(e))?;
    let database = match state.db.get_database_backend() {
        sea_orm::DatabaseBackend::Postgres => "postgres",
        _ => "sqlite",
    };
    Ok(ok(Health {
        status: "ok",
        database,
        search: if state.content.search_ready(&state) {
            "ready"
        } else {
            "preparing"
        },
    }))
}

async fn area() -> Json<Envelope<&'static [Area]>> {
    ok(areas())
}

#[derive(schemars::JsonSchema, Deserialize)]
struct CaptchaQuery {
    action: Option<String>,
}

#[derive(schemars::JsonSchema, Serialize, ts_rs::TS)]
pub struct CaptchaUse {
    #[serde(rename = "use")]
    #[ts(type = "\"none\" | \"reCAPTCHA.v2\" | \"reCAPTCHA.v3\"")]
    kind: &'static str,
    site_key: String,
    /// The sign-in methods this site offers: `email` and `wallet` always, `google`, `line`,
    /// `twitter`, `apple` and `telegram` when configured. The dialog offers only these.
    #[ts(
        type = "(\"email\" | \"wallet\" | \"google\" | \"line\" | \"twitter\" | \"apple\" | \"telegram\")[]"
    )]
    methods: Vec<&'static str>,
}

/// The sign-in methods the configuration offers.
fn sign_in_methods(state: &AppState) -> Vec<&'static str> {
    let c = &state.config;
    let configured = [
        ("google", c.google_client_id.is_some()),
        ("line", c.line_client_id.is_some()),
        ("twitter", c.twitter_client_id.is_some()),
        ("apple", c.apple_client_id.is_some()),
        ("telegram", state.bots.configured(Platform::Telegram)),
    ];
    ["email", "wallet"]
        .into_iter()
        .chain(configured.into_iter().filter(|(_, on)| *on).map(|(m, _)| m))
        .collect()
}

async fn captcha(
    State(state): State<AppState>,
    Query(query): Query<CaptchaQuery>,
) -> AppResult<Json<Envelope<CaptchaUse>>> {
    let action = query.action.unwrap_or_default();
    if !ACTIONS.contains(&action.as_str()) {
        return Err(AppError::new(ErrorKind::InvalidParam)
            .with_message(format!("action must be one of {}", ACTIONS.join(", "))));
    }
    Ok(ok(CaptchaUse {
        kind: state.config.captcha.api_name(),
        site_key: state.config.recaptcha_site_key.clone(),
        methods: sign_in_methods(&state),
    }))
}
