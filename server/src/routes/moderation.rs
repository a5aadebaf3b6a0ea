//! Keeping abuse out: readers block people and report what others wrote; the team (with
//! `X-ADMIN-TOKEN`) lists reports, takes things down, bans accounts and announces.

use std::collections::HashMap;

use aide::axum::ApiRouter;
use aide::axum::routing::post;
use axum::Json;
use axum::extract::State;
use client_core::envelope::Envelope;
use serde::{Deserialize, Serialize};
use validator::Validate;

use super::admin::Admin;
use super::{PageRequest, ok};
use crate::community::reports::{self, OPEN, RESOLVED, ReportView, Reported};
use crate::error::{AppError, AppResult};
use crate::extract::{ApiJson, ClientMeta, CurrentUser};
use crate::limits;
use crate::pagination::Page;
use crate::social::blocks::{self, BlockedUser};
use crate::social::messages::{self, Announcement};
use crate::social::moderation::{self, REASON_MAX_CHARS};
use crate::social::spend_write;
use crate::state::AppState;

pub fn router() -> ApiRouter<AppState> {
    ApiRouter::new()
        .api_route("/user/block", post(user_block))
        .api_route("/user/block/list", post(user_block_list))
        .api_route("/report/add", post(report_add))
        .api_route("/admin/report/list", post(admin_report_list))
        .api_route("/admin/remove", post(admin_remove))
        .api_route("/admin/user/ban", post(admin_user_ban))
        .api_route("/admin/message/announce", post(admin_announce))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct BlockRequest {
    user_id: i64,
    blocked: bool,
}

#[derive(schemars::JsonSchema, Serialize)]
struct Blocked {
    blocked: bool,
}

async fn user_block(
    State(state): State<AppState>,
    user: CurrentUser,
    client: ClientMeta,
    ApiJson(req): ApiJson<BlockRequest>,
) -> AppResult<Json<Envelope<Blocked>>> {
    spend_write(&state, &user, &client, limits::KEEPING).await?;
    blocks::set(&state, user.user_id, req.user_id, req.blocked).await?;
    Ok(ok(Blocked {
        blocked: req.blocked,
    }))
}

#[derive(schemars::JsonSchema, Deserialize, Validate, Default)]
#[serde(default)]
struct ReportListRequest {
    #[serde(flatten)]
    #[validate(nested)]
    page: PageRequest,
    /// `open` (default) or `resolved`.
    state: Option<String>,
}

async fn user_block_list(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(req): ApiJson<PageRequest>,
) -> AppResult<Json<Envelope<Page<BlockedUser>>>> {
    Ok(ok(blocks::list(
        &state,
        user.user_id,
        req.cursor(),
        req.limit(),
    )
    .await?))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct ReportRequest {
    #[serde(flatten)]
    target: Reported,
    #[validate(length(min = 1, max = REASON_MAX_CHARS))]
    reason: String,
}

async fn report_add(
    State(state): State<AppState>,
    user: CurrentUser,
    client: ClientMeta,
    ApiJson(req): ApiJson<ReportRequest>,
) -> AppResult<Json<Envelope<()>>> {
    if req.reason.trim().is_empty() {
        return Err(AppError::invalid("Say why you report it"));
    }
    moderation::ensure_not_banned(&state, user.user_id).await?;
    spend_write(&state, &user, &client, limits::REPORTS).await?;
    reports::report(&state, user.user_id, req.target, &req.reason).await?;
    Ok(ok(()))
}

async fn admin_report_list(
    State(state): State<AppState>,
    _: Admin,
    ApiJson(req): ApiJson<ReportListRequest>,
) -> AppResult<Json<Envelope<Page<ReportView>>>> {
    let wanted = req.state.as_deref().unwrap_or(OPEN);
    if ![OPEN, RESOLVED].contains(&wanted) {
        return Err(AppError::invalid("state must be open or resolved"));
    }
    let (cursor, limit) = (req.page.cursor(), req.page.limit());
    Ok(ok(reports::reports(&state, wanted, cursor, limit).await?))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct RemoveRequest {
    #[serde(flatten)]
    target: Reported,
    #[validate(length(min = 1, max = REASON_MAX_CHARS))]
    reason: String,
}

async fn admin_remove(
    State(state): State<AppState>,
    _: Admin,
    ApiJson(req): ApiJson<RemoveRequest>,
) -> AppResult<Json<Envelope<()>>> {
    reports::remove(&state, req.target, &req.reason).await?;
    Ok(ok(()))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct BanRequest {
    user_id: i64,
    /// Unix seconds; a time already past lifts the ban.
    until: i64,
    #[validate(length(min = 1, max = REASON_MAX_CHARS))]
    reason: String,
}

async fn admin_user_ban(
    State(state): State<AppState>,
    _: Admin,
    ApiJson(req): ApiJson<BanRequest>,
) -> AppResult<Json<Envelope<()>>> {
    moderation::ban(&state, req.user_id, req.until, &req.reason).await?;
    Ok(ok(()))
}

/// `{title, body}` in English for every reader, or `texts` per locale (English required).
#[derive(schemars::JsonSchema, Deserialize, Validate, Default)]
#[serde(default)]
struct AnnounceRequest {
    title: Option<String>,
    body: Option<String>,
    texts: HashMap<String, Announcement>,
}

#[derive(schemars::JsonSchema, Serialize)]
struct Announced {
    readers: u64,
}

async fn admin_announce(
    State(state): State<AppState>,
    _: Admin,
    ApiJson(req): ApiJson<AnnounceRequest>,
) -> AppResult<Json<Envelope<Announced>>> {
    let texts = messages::announcement_texts(req.title, req.body, req.texts)?;
    let readers = messages::announce(&state, &texts).await?;
    Ok(ok(Announced { readers }))
}
