//! Alerts: a signed-in reader's rules (at most 20), what a rule would have matched in the last
//! week, and the week's sample the editor counts over in the browser.

use aide::axum::ApiRouter;
use aide::axum::routing::post;
use axum::Json;
use axum::extract::State;
use client_core::alert::AlertRule;
use client_core::envelope::Envelope;
use serde::{Deserialize, Serialize};
use validator::Validate;

use super::{IdRequest, ok};
use crate::alerts::rules::{self, AlertInput, AlertView};
use crate::alerts::sample::{self, Preview, SAMPLE_DAYS, Sample};
use crate::error::{AppError, AppResult};
use crate::extract::{ApiJson, ClientMeta, CurrentUser};
use crate::limits;
use crate::social::spend_write;
use crate::state::AppState;
use crate::time::DAY;

pub fn router() -> ApiRouter<AppState> {
    ApiRouter::new()
        .api_route("/alert/add", post(add))
        .api_route("/alert/list", post(list))
        .api_route("/alert/update", post(update))
        .api_route("/alert/del", post(delete))
        .api_route("/alert/preview", post(preview))
        .api_route("/alert/sample", post(sample_items))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct AddRequest {
    #[serde(flatten)]
    alert: AlertInput,
}

#[derive(schemars::JsonSchema, Serialize)]
struct Added {
    id: i64,
}

async fn add(
    State(state): State<AppState>,
    user: CurrentUser,
    client: ClientMeta,
    ApiJson(req): ApiJson<AddRequest>,
) -> AppResult<Json<Envelope<Added>>> {
    spend_write(&state, &user, &client, limits::ALERT_WRITES).await?;
    let id = rules::add(&state, user.user_id, &req.alert).await?;
    Ok(ok(Added { id }))
}

#[derive(schemars::JsonSchema, Serialize)]
struct AlertList {
    list: Vec<AlertView>,
}

async fn list(
    State(state): State<AppState>,
    user: CurrentUser,
) -> AppResult<Json<Envelope<AlertList>>> {
    Ok(ok(AlertList {
        list: rules::list(&state, user.user_id).await?,
    }))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct UpdateRequest {
    id: i64,
    #[serde(flatten)]
    alert: AlertInput,
}

async fn update(
    State(state): State<AppState>,
    user: CurrentUser,
    client: ClientMeta,
    ApiJson(req): ApiJson<UpdateRequest>,
) -> AppResult<Json<Envelope<()>>> {
    spend_write(&state, &user, &client, limits::ALERT_WRITES).await?;
    rules::update(&state, user.user_id, req.id, &req.alert).await?;
    Ok(ok(()))
}

async fn delete(
    State(state): State<AppState>,
    user: CurrentUser,
    client: ClientMeta,
    ApiJson(req): ApiJson<IdRequest>,
) -> AppResult<Json<Envelope<()>>> {
    spend_write(&state, &user, &client, limits::ALERT_WRITES).await?;
    rules::delete(&state, user.user_id, req.id).await?;
    Ok(ok(()))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct PreviewRequest {
    rule: AlertRule,
    /// 1 to 7 (default 7).
    days: Option<i64>,
}

async fn preview(
    State(state): State<AppState>,
    _: CurrentUser,
    ApiJson(req): ApiJson<PreviewRequest>,
) -> AppResult<Json<Envelope<Preview>>> {
    let days = req.days.unwrap_or(SAMPLE_DAYS);
    if !(1..=SAMPLE_DAYS).contains(&days) {
        return Err(AppError::invalid("days is 1 to 7"));
    }
    if let Some(problem) = client_core::alert::check_rule(&req.rule) {
        return Err(AppError::invalid(problem.text));
    }
    let items = state.alerts.sample(&state).await?;
    let since = state.now() - days * DAY;
    Ok(ok(sample::preview(&items, &req.rule, since)))
}

async fn sample_items(
    State(state): State<AppState>,
    _: CurrentUser,
) -> AppResult<Json<Envelope<Sample>>> {
    let items = state.alerts.sample(&state).await?;
    Ok(ok(Sample {
        items: items.as_ref().clone(),
    }))
}
