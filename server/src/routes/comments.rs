//! Comment threads: read by anyone, written by signed-in readers within their limits.

use aide::axum::ApiRouter;
use aide::axum::routing::{post, post_with};
use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use client_core::envelope::Envelope;
use serde::Deserialize;
use validator::Validate;

use super::cached::{cached_envelope, json_bytes};
use super::feeds::reading;
use super::{IdRequest, List, PageRequest, ok};
use crate::error::{AppError, AppResult};
use crate::extract::{ApiJson, Caller, ClientMeta, CurrentUser};
use crate::limits;
use crate::openapi::answers;
use crate::pagination::Page;
use crate::social::comments::{self, CommentVersion, CommentView, NewComment, Sort};
use crate::social::subject::Subject;
use crate::social::{blocks, budget_by_age, moderation, spend_write};
use crate::state::AppState;
use client_core::validation;

pub fn router() -> ApiRouter<AppState> {
    ApiRouter::new()
        .api_route(
            "/comment/list",
            post_with(comment_list, answers::<Page<CommentView>>),
        )
        .api_route("/comment/replies", post(comment_replies))
        .api_route("/comment/history", post(comment_history))
        .api_route("/comment/add", post(comment_add))
        .api_route("/comment/edit", post(comment_edit))
        .api_route("/comment/del", post(comment_del))
}

/// What a thread is under: one of `feed_id`, `question_id` or `answer_id`.
#[derive(schemars::JsonSchema, Deserialize, Validate, Default)]
#[serde(default)]
struct SubjectRequest {
    feed_id: Option<i64>,
    question_id: Option<i64>,
    answer_id: Option<i64>,
}

impl SubjectRequest {
    fn subject(&self) -> AppResult<Subject> {
        match (self.feed_id, self.question_id, self.answer_id) {
            (Some(id), None, None) => Ok(Subject::Feed(id)),
            (None, Some(id), None) => Ok(Subject::Question(id)),
            (None, None, Some(id)) => Ok(Subject::Answer(id)),
            _ => Err(AppError::invalid(
                "Give one of feed_id, question_id or answer_id",
            )),
        }
    }
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct ListRequest {
    #[serde(flatten)]
    #[validate(nested)]
    on: SubjectRequest,
    #[serde(flatten)]
    #[validate(nested)]
    page: PageRequest,
    /// `new` (default) or `top`.
    #[serde(default)]
    sort: Option<String>,
}

async fn comment_list(
    State(state): State<AppState>,
    caller: Caller,
    client: ClientMeta,
    ApiJson(req): ApiJson<ListRequest>,
) -> AppResult<Response> {
    let sort = match req.sort.as_deref() {
        None | Some("new") => Sort::New,
        Some("top") => Sort::Top,
        Some(_) => return Err(AppError::invalid("sort must be new or top")),
    };
    let subject = req.on.subject()?;
    let (cursor, limit) = (req.page.cursor(), req.page.limit());
    let reader = caller.user_id();
    let reading = reading(&caller, &client);
    let blocks_someone = match reader {
        Some(reader) => blocks::blocks_anyone(&state, reader).await?,
        None => false,
    };
    if blocks_someone || cursor.is_some() {
        let page = comments::list(&state, reader, reading, subject, sort, cursor, limit).await?;
        return Ok(ok(page).into_response());
    }
    // First pages are the same for every visitor and every reader who blocked no one and reads
    // the same way: built about once a second, the reader's likes marked on the copy.
    let key = format!(
        "{}{sort:?}|{limit}|{}",
        comments::thread_key(subject),
        reading.key()
    );
    let page = comments::list(&state, None, reading, subject, sort, None, limit);
    let body = cached_envelope(&state.content.cache, Some(key), page).await?;
    Ok(json_bytes(match reader {
        Some(reader) => comments::mark_liked(&state, reader, body).await?,
        None => body,
    }))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct RepliesRequest {
    /// The top-level comment.
    id: i64,
    /// `cursor`: the last reply already shown.
    #[serde(flatten)]
    #[validate(nested)]
    page: PageRequest,
}

async fn comment_replies(
    State(state): State<AppState>,
    caller: Caller,
    client: ClientMeta,
    ApiJson(req): ApiJson<RepliesRequest>,
) -> AppResult<Json<Envelope<Page<CommentView>>>> {
    Ok(ok(comments::replies(
        &state,
        caller.user_id(),
        reading(&caller, &client),
        req.id,
        req.page.cursor(),
        req.page.limit(),
    )
    .await?))
}

async fn comment_history(
    State(state): State<AppState>,
    caller: Caller,
    ApiJson(req): ApiJson<IdRequest>,
) -> AppResult<Json<Envelope<List<CommentVersion>>>> {
    let list = comments::history(&state, caller.user_id(), req.id).await?;
    Ok(ok(List { list }))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct AddRequest {
    #[serde(flatten)]
    #[validate(nested)]
    on: SubjectRequest,
    #[serde(default)]
    parent_id: Option<i64>,
    #[validate(custom(function = "validation::comment_content"))]
    content: String,
}

async fn comment_add(
    State(state): State<AppState>,
    user: CurrentUser,
    client: ClientMeta,
    ApiJson(req): ApiJson<AddRequest>,
) -> AppResult<Json<Envelope<CommentView>>> {
    let subject = req.on.subject()?;
    moderation::ensure_not_banned(&state, user.user_id).await?;
    let budget = budget_by_age(
        &state,
        user.user_id,
        limits::COMMENTS,
        limits::NEW_ACCOUNT_COMMENTS,
    )
    .await?;
    spend_write(&state, &user, &client, budget).await?;
    let new = NewComment {
        subject,
        parent_id: req.parent_id,
        content: &req.content,
        lang: client.locale,
    };
    Ok(ok(comments::add(&state, user.user_id, new).await?))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct EditRequest {
    id: i64,
    #[validate(custom(function = "validation::comment_content"))]
    content: String,
}

async fn comment_edit(
    State(state): State<AppState>,
    user: CurrentUser,
    client: ClientMeta,
    ApiJson(req): ApiJson<EditRequest>,
) -> AppResult<Json<Envelope<CommentView>>> {
    moderation::ensure_not_banned(&state, user.user_id).await?;
    spend_write(&state, &user, &client, limits::COMMENT_CHANGES).await?;
    Ok(ok(comments::edit(
        &state,
        user.user_id,
        req.id,
        &req.content,
        client.locale,
    )
    .await?))
}

async fn comment_del(
    State(state): State<AppState>,
    user: CurrentUser,
    client: ClientMeta,
    ApiJson(req): ApiJson<IdRequest>,
) -> AppResult<Json<Envelope<()>>> {
    spend_write(&state, &user, &client, limits::COMMENT_CHANGES).await?;
    comments::delete(&state, user.user_id, req.id).await?;
    Ok(ok(()))
}
