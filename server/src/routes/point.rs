//! Tasks and points.

use aide::axum::ApiRouter;
use aide::axum::routing::post;
use axum::Json;
use axum::extract::State;
use client_core::envelope::{Envelope, ErrorKind};
use client_core::task::{TASK_GROUPS, is_client_reported};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use validator::Validate;

use super::{List, ok};
use crate::error::{AppError, AppResult};
use crate::extract::{ApiJson, Caller, ClientMeta, CurrentUser};
use crate::markets::exchanges;
use crate::pagination::Page;
use crate::points::ledger::{self, Leaderboard, LedgerItem, Period};
use crate::points::tasks::{self, Collected, TaskView};
use crate::state::AppState;

pub fn router() -> ApiRouter<AppState> {
    ApiRouter::new()
        .api_route("/point/task/list", post(task_list))
        .api_route("/point/task_event_report", post(event_report))
        .api_route("/point/collect", post(collect))
        .api_route("/point/balance", post(balance))
        .api_route("/point/ledger", post(ledger_page))
        .api_route("/point/leaderboard", post(leaderboard))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct GroupRequest {
    group: String,
}

async fn task_list(
    State(state): State<AppState>,
    caller: Caller,
    client: ClientMeta,
    ApiJson(req): ApiJson<GroupRequest>,
) -> AppResult<Json<Envelope<List<TaskView>>>> {
    if !TASK_GROUPS.contains(&req.group.as_str()) {
        return Err(AppError::new(ErrorKind::InvalidParam)
            .with_message(format!("group must be one of {}", TASK_GROUPS.join(", "))));
    }
    let mut list = tasks::list(&state, caller.user_id(), &req.group, client.locale).await?;
    // A partner exchange's button opens the reader's own referral link.
    if req.group == exchanges::GROUP
        && let Some(user_id) = caller.user_id()
    {
        let links = exchanges::task_links(&state, state.markets.referral_key(), user_id).await?;
        for task in &mut list {
            if let Some(link) = links.get(&task.button.app_link) {
                task.button.app_link = format!("external:{link}");
            }
        }
    }
    Ok(ok(List { list }))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct EventReport {
    event_type: String,
    /// A JSON object, sent as a string.
    #[serde(default)]
    param: Option<String>,
}

#[derive(schemars::JsonSchema, Serialize)]
struct Reported {
    /// The tasks that moved forward.
    updated: Vec<i64>,
}

/// Longest `param` accepted.
const PARAM_MAX_BYTES: usize = 2048;

async fn event_report(
    State(state): State<AppState>,
    me: CurrentUser,
    ApiJson(req): ApiJson<EventReport>,
) -> AppResult<Json<Envelope<Reported>>> {
    if let Some(param) = req.param.as_deref().filter(|p| !p.is_empty()) {
        let object = param.len() <= PARAM_MAX_BYTES
            && serde_json::from_str::<Value>(param).is_ok_and(|v| v.is_object());
        if !object {
            return Err(AppError::new(ErrorKind::InvalidParam)
                .with_message("param must be a JSON object of at most 2 KB"));
        }
    }
    if !client_core::task::EVENT_TYPES.contains(&req.event_type.as_str()) {
        return Err(AppError::invalid("Unknown event_type"));
    }
    if !is_client_reported(&req.event_type) {
        return Err(ErrorKind::EventNotReportable.into());
    }
    let updated =
        tasks::record_event(&state, me.user_id, &req.event_type, tasks::Source::Client).await?;
    Ok(ok(Reported { updated }))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct CollectRequest {
    point_id: i64,
}

async fn collect(
    State(state): State<AppState>,
    me: CurrentUser,
    ApiJson(req): ApiJson<CollectRequest>,
) -> AppResult<Json<Envelope<Collected>>> {
    Ok(ok(tasks::collect(&state, me.user_id, req.point_id).await?))
}

#[derive(schemars::JsonSchema, Serialize)]
struct Balance {
    balance: i64,
}

async fn balance(
    State(state): State<AppState>,
    me: CurrentUser,
) -> AppResult<Json<Envelope<Balance>>> {
    Ok(ok(Balance {
        balance: ledger::balance(&state, me.user_id).await?,
    }))
}

#[derive(schemars::JsonSchema, Deserialize, Default, Validate)]
#[serde(default)]
struct CursorRequest {
    cursor: Option<String>,
}

async fn ledger_page(
    State(state): State<AppState>,
    me: CurrentUser,
    ApiJson(req): ApiJson<CursorRequest>,
) -> AppResult<Json<Envelope<Page<LedgerItem>>>> {
    Ok(ok(
        ledger::page(&state, me.user_id, req.cursor.as_deref()).await?
    ))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct LeaderboardRequest {
    period: String,
}

async fn leaderboard(
    State(state): State<AppState>,
    caller: Caller,
    ApiJson(req): ApiJson<LeaderboardRequest>,
) -> AppResult<Json<Envelope<Leaderboard>>> {
    let period = match req.period.as_str() {
        "daily" => Period::Daily,
        "all" => Period::All,
        _ => {
            return Err(AppError::new(ErrorKind::InvalidParam)
                .with_message("period must be \"daily\" or \"all\""));
        }
    };
    Ok(ok(
        ledger::leaderboard(&state, period, caller.user_id()).await?
    ))
}
