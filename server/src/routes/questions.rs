//! Questions and answers: anyone reads them; signed-in readers ask (with a bounty from their
//! balance), answer, and the asker accepts.

use aide::axum::ApiRouter;
use aide::axum::routing::{post, post_with};
use axum::Json;
use axum::extract::State;
use axum::response::Response;
use client_core::envelope::{Envelope, ErrorKind};
use client_core::question::check_question;
use client_core::validation;
use serde::{Deserialize, Serialize};
use validator::{Validate, ValidationError};

use super::cached::cached_ok;
use super::feeds::reading;
use super::{IdRequest, PageRequest, ok};
use crate::community::questions::{self, Filter, NewQuestion, QuestionView, Sort};
use crate::error::{AppError, AppResult};
use crate::extract::{ApiJson, Caller, ClientMeta, CurrentUser};
use crate::limits;
use crate::openapi::answers;
use crate::pagination::Page;
use crate::social::{budget_by_age, moderation, spend_daily_write, spend_write};
use crate::state::AppState;

pub fn router() -> ApiRouter<AppState> {
    ApiRouter::new()
        .api_route("/question/create", post(create))
        .api_route("/question/list", post(list))
        .api_route(
            "/question/detail",
            post_with(detail, answers::<questions::QuestionDetail>),
        )
        .api_route("/question/answers", post(more_answers))
        .api_route("/answer/create", post(answer))
        .api_route("/answer/edit", post(edit))
        .api_route("/answer/accept", post(accept))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
#[validate(schema(function = "question_rule"))]
struct CreateRequest {
    title: String,
    #[serde(default)]
    content: String,
    tags: Vec<i64>,
    #[serde(default)]
    bounty: Option<i64>,
}

/// client-core's question rule; the balance is checked where the bounty is taken, in one
/// statement.
fn question_rule(req: &CreateRequest) -> Result<(), ValidationError> {
    let broken = check_question(
        &req.title,
        &req.content,
        req.tags.len(),
        req.bounty,
        i64::MAX,
    );
    broken.map_or(Ok(()), |m| Err(validation::rule_error(m)))
}

async fn create(
    State(state): State<AppState>,
    user: CurrentUser,
    client: ClientMeta,
    ApiJson(req): ApiJson<CreateRequest>,
) -> AppResult<Json<Envelope<QuestionView>>> {
    moderation::ensure_not_banned(&state, user.user_id).await?;
    let budget = budget_by_age(
        &state,
        user.user_id,
        limits::QUESTIONS,
        limits::NEW_ACCOUNT_QUESTIONS,
    )
    .await?;
    let new = NewQuestion {
        lang: client.locale,
        title: &req.title,
        content: &req.content,
        tag_ids: req.tags,
        bounty: req.bounty,
    };
    let write = questions::ask(&state, user.user_id, new);
    Ok(ok(
        spend_daily_write(&state, &user, &client, budget, write).await?
    ))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct ListRequest {
    #[serde(flatten)]
    #[validate(nested)]
    page: PageRequest,
    #[serde(default)]
    sort: Option<String>,
    #[serde(default)]
    tag_id: Option<i64>,
    /// Only questions by the people the reader follows (signed in).
    #[serde(default)]
    following: bool,
}

async fn list(
    State(state): State<AppState>,
    caller: Caller,
    client: ClientMeta,
    ApiJson(req): ApiJson<ListRequest>,
) -> AppResult<Json<Envelope<Page<QuestionView>>>> {
    let sort = match req.sort.as_deref() {
        None | Some("new") => Sort::New,
        Some("unanswered") => Sort::Unanswered,
        Some("bounty") => Sort::Bounty,
        Some("hot") => Sort::Hot,
        Some(_) => {
            return Err(AppError::invalid(
                "sort must be new, unanswered, bounty or hot",
            ));
        }
    };
    let followed_by = match (req.following, caller.user_id()) {
        (false, _) => None,
        (true, Some(reader)) => Some(reader),
        (true, None) => return Err(ErrorKind::LoginRequired.into()),
    };
    let filter = Filter {
        tag_id: req.tag_id,
        followed_by,
    };
    let (cursor, limit) = (req.page.cursor(), req.page.limit());
    Ok(ok(questions::list(
        &state,
        sort,
        filter,
        (cursor, limit),
        reading(&caller, &client),
    )
    .await?))
}

/// The same for every reader who reads the same way: built about once a second, and forgotten on
/// this server when an answer comes, changes or is accepted.
async fn detail(
    State(state): State<AppState>,
    caller: Caller,
    client: ClientMeta,
    ApiJson(req): ApiJson<IdRequest>,
) -> AppResult<Response> {
    let reading = reading(&caller, &client);
    let key = format!("{}{}", questions::cache_key(req.id), reading.key());
    cached_ok(
        &state,
        Some(key),
        questions::detail(&state, req.id, reading),
    )
    .await
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct AnswersRequest {
    id: i64,
    #[serde(flatten)]
    #[validate(nested)]
    page: PageRequest,
}

/// More of a question's answers, after the detail's first page.
async fn more_answers(
    State(state): State<AppState>,
    caller: Caller,
    client: ClientMeta,
    ApiJson(req): ApiJson<AnswersRequest>,
) -> AppResult<Json<Envelope<Page<questions::AnswerView>>>> {
    let page = (
        req.page.cursor(),
        req.page.limit.unwrap_or(questions::ANSWERS_PAGE),
    );
    let reading = reading(&caller, &client);
    Ok(ok(questions::answers(&state, req.id, page, reading).await?))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct AnswerRequest {
    question_id: i64,
    #[validate(custom(function = "validation::answer_content"))]
    content: String,
}

#[derive(schemars::JsonSchema, Serialize)]
struct Answered {
    id: i64,
}

async fn answer(
    State(state): State<AppState>,
    user: CurrentUser,
    client: ClientMeta,
    ApiJson(req): ApiJson<AnswerRequest>,
) -> AppResult<Json<Envelope<Answered>>> {
    moderation::ensure_not_banned(&state, user.user_id).await?;
    spend_write(&state, &user, &client, limits::ANSWERS).await?;
    let id = questions::answer(
        &state,
        user.user_id,
        req.question_id,
        &req.content,
        client.locale,
    )
    .await?;
    Ok(ok(Answered { id }))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct EditRequest {
    id: i64,
    #[validate(custom(function = "validation::answer_content"))]
    content: String,
}

async fn edit(
    State(state): State<AppState>,
    user: CurrentUser,
    client: ClientMeta,
    ApiJson(req): ApiJson<EditRequest>,
) -> AppResult<Json<Envelope<()>>> {
    moderation::ensure_not_banned(&state, user.user_id).await?;
    spend_write(&state, &user, &client, limits::ANSWERS).await?;
    questions::edit_answer(&state, user.user_id, req.id, &req.content, client.locale).await?;
    Ok(ok(()))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct AcceptRequest {
    answer_id: i64,
}

async fn accept(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(req): ApiJson<AcceptRequest>,
) -> AppResult<Json<Envelope<()>>> {
    questions::accept(&state, user.user_id, req.answer_id).await?;
    Ok(ok(()))
}
