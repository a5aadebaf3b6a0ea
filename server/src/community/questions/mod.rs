//! Questions and answers with point bounties: asking, the lists (newest, hot, unanswered, biggest
//! bounty) and a question's page; its answers are in [`answers`], its bounty's escrow, payments
//! and settlement in [`bounty`].

mod answers;
mod bounty;

pub use answers::{
    AuthoredAnswer, accept, answer, answers_by, edit_answer, find_answer, take_down_answer,
};
pub use bounty::settle_due;

use std::collections::HashMap;

use client_core::question::BOUNTY_SECONDS;
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, Condition, ConnectionTrait, EntityTrait, QueryFilter,
    QueryOrder, QuerySelect, Set,
};
use serde::Serialize;

use crate::auth::users::{UserRef, users_by_id};
use crate::content::catalogue::known_ids;
use crate::content::feeds::Reading;
use crate::content::follows::{Target, followed};
use crate::content::translate::TextKind;
use crate::content::translate::texts::{self, OriginalText};
use crate::ctx::Ctx;
use crate::entity::{answer, question, question_tag, tag};
use crate::error::{AppError, AppResult};
use crate::events::Event;
use crate::pagination::{Page, parse_id, parse_pair, split_page};
use answers::answers_page;
use bounty::move_points;

/// Answers on a question's first page (and the default page of `/question/answers`).
pub const ANSWERS_PAGE: u64 = 20;
pub const NONE: &str = "none";
pub const OPEN: &str = "open";
pub const ACCEPTED: &str = "accepted";
pub const SETTLED: &str = "settled";

/// Where a question's detail is cached (`content_cache`).
pub fn cache_key(question_id: i64) -> String {
    format!("question|{question_id}|")
}

/// A question changed on this server: its cached detail goes.
pub fn changed(ctx: &Ctx, question_id: i64) {
    ctx.events.publish(&Event::Stale(cache_key(question_id)));
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sort {
    New,
    Unanswered,
    Bounty,
    /// The last week's questions by client-core's hot score (see [`hot_page`]).
    Hot,
}

/// How far back, and how many of the newest, the hot list ranks.
const HOT_WINDOW_SECONDS: i64 = 7 * crate::time::DAY;
const HOT_POOL: u64 = 500;

#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct AnswerView {
    pub id: i64,
    pub user: Option<UserRef>,
    pub content: String,
    /// The language it was written in (empty when not known).
    pub lang: String,
    /// The text as written, when a translation is shown in its place.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub original: Option<OriginalText>,
    pub like_count: i64,
    pub accepted: bool,
    pub created_at: i64,
    pub edited_at: Option<i64>,
}

#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct QuestionView {
    pub id: i64,
    pub user: Option<UserRef>,
    pub title: String,
    pub content: String,
    /// The language it was written in (empty when not known).
    pub lang: String,
    /// The title and text as written, when a translation is shown in their place.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub original: Option<OriginalText>,
    pub tag_ids: Vec<i64>,
    pub bounty: i64,
    #[ts(type = "\"none\" | \"open\" | \"accepted\" | \"settled\"")]
    pub bounty_state: String,
    /// When an open bounty is settled if no answer is accepted.
    pub deadline_at: Option<i64>,
    pub accepted_answer_id: Option<i64>,
    pub answer_count: i64,
    pub like_count: i64,
    pub created_at: i64,
}

#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct QuestionDetail {
    #[serde(flatten)]
    pub question: QuestionView,
    /// The first page of answers: the accepted one first, then by likes, then oldest.
    pub answers: Vec<AnswerView>,
    /// For `/question/answers`: the rest; `null` when these are all.
    pub answers_next_cursor: Option<String>,
}

pub struct NewQuestion<'a> {
    /// The asker's language.
    pub lang: &'a str,
    pub title: &'a str,
    pub content: &'a str,
    pub tag_ids: Vec<i64>,
    pub bounty: Option<i64>,
}

/// Asks a question (already checked by client-core's rule, but for the balance); its bounty
/// leaves the asker's balance in the same transaction, or the question is refused.
pub async fn ask(ctx: &Ctx, user_id: i64, new: NewQuestion<'_>) -> AppResult<QuestionView> {
    let tag_ids = known_ids::<tag::Entity>(
        &ctx.db,
        tag::Column::Id,
        &new.tag_ids,
        "tags names a tag that does not exist",
    )
    .await?;
    let now = ctx.now();
    let bounty = new.bounty.unwrap_or(0);
    let txn = crate::db::begin_write(&ctx.db).await?;
    let made = question::ActiveModel {
        user_id: Set(user_id),
        title: Set(new.title.trim().to_owned()),
        content: Set(new.content.trim().to_owned()),
        lang: Set(crate::i18n::written_lang(
            &format!("{}\n{}", new.title, new.content),
            new.lang,
        )),
        bounty: Set(bounty),
        bounty_state: Set(if bounty > 0 { OPEN } else { NONE }.to_owned()),
        accepted_answer_id: Set(None),
        answer_count: Set(0),
        like_count: Set(0),
        created_at: Set(now),
        deadline_at: Set((bounty > 0).then_some(now + BOUNTY_SECONDS)),
        ..Default::default()
    }
    .insert(&txn)
    .await?;
    for tag_id in &tag_ids {
        question_tag::ActiveModel {
            question_id: Set(made.id),
            tag_id: Set(*tag_id),
            ..Default::default()
        }
        .insert(&txn)
        .await?;
    }
    if bounty > 0 {
        bounty::escrow(&txn, now, user_id, made.id, bounty).await?;
    }
    txn.commit().await?;
    let mut views = question_views(ctx, vec![made], Reading::ORIGINALS).await?;
    views
        .pop()
        .ok_or_else(|| AppError::internal("the new question has no view"))
}

async fn question_views(
    ctx: &Ctx,
    rows: Vec<question::Model>,
    reading: Reading,
) -> AppResult<Vec<QuestionView>> {
    let ids: Vec<i64> = rows.iter().map(|q| q.id).collect();
    let mut tags: HashMap<i64, Vec<i64>> = HashMap::new();
    if !ids.is_empty() {
        for t in question_tag::Entity::find()
            .filter(question_tag::Column::QuestionId.is_in(ids))
            .all(&ctx.db)
            .await?
        {
            tags.entry(t.question_id).or_default().push(t.tag_id);
        }
    }
    let users = users_by_id(&ctx.db, rows.iter().map(|q| q.user_id)).await?;
    let written = rows.iter().map(|q| (q.id, q.lang.as_str()));
    let mut translations = texts::for_reader(&ctx.db, TextKind::Question, written, reading).await?;
    Ok(rows
        .into_iter()
        .map(|mut q| QuestionView {
            original: texts::shown_translated(
                translations.remove(&q.id),
                Some(&mut q.title),
                &mut q.content,
            ),
            id: q.id,
            user: users.get(&q.user_id).cloned(),
            title: q.title,
            content: q.content,
            lang: q.lang,
            tag_ids: tags.remove(&q.id).unwrap_or_default(),
            bounty: q.bounty,
            bounty_state: q.bounty_state,
            deadline_at: q.deadline_at,
            accepted_answer_id: q.accepted_answer_id,
            answer_count: q.answer_count,
            like_count: q.like_count,
            created_at: q.created_at,
        })
        .collect())
}

/// Which questions a list shows: of one tag, asked by the people a reader follows (the
/// Following tab), or all.
#[derive(Debug, Clone, Copy, Default)]
pub struct Filter {
    pub tag_id: Option<i64>,
    pub followed_by: Option<i64>,
}

/// Questions, newest first, unanswered newest first, or biggest open bounty first.
pub async fn list(
    ctx: &Ctx,
    sort: Sort,
    filter: Filter,
    page: (Option<&str>, u64),
    reading: Reading,
) -> AppResult<Page<QuestionView>> {
    let (cursor, limit) = page;
    use question::Column as Q;
    let mut query = question::Entity::find();
    if let Some(reader) = filter.followed_by {
        query = query.filter(Q::UserId.in_subquery(followed(reader, Target::User.kind())));
    }
    let tag_id = filter.tag_id;
    if let Some(tag_id) = tag_id {
        query = query.filter(
            Q::Id.in_subquery(
                sea_orm::sea_query::Query::select()
                    .column(question_tag::Column::QuestionId)
                    .from(question_tag::Entity)
                    .and_where(question_tag::Column::TagId.eq(tag_id))
                    .to_owned(),
            ),
        );
    }
    query = match sort {
        Sort::Hot => return hot_page(ctx, query, page, reading).await,
        Sort::New => query.order_by_desc(Q::Id),
        Sort::Unanswered => query.filter(Q::AnswerCount.eq(0)).order_by_desc(Q::Id),
        Sort::Bounty => query
            .filter(Q::BountyState.eq(OPEN))
            .order_by_desc(Q::Bounty)
            .order_by_desc(Q::Id),
    }
    .limit(limit + 1);
    if let Some(cursor) = cursor {
        query = query.filter(match sort {
            Sort::Bounty => {
                let (bounty, id) = parse_pair(cursor)?;
                Condition::any()
                    .add(Q::Bounty.lt(bounty))
                    .add(Condition::all().add(Q::Bounty.eq(bounty)).add(Q::Id.lt(id)))
            }
            _ => Condition::all().add(Q::Id.lt(parse_id(cursor)?)),
        });
    }
    let (rows, next_cursor) = split_page(query.all(&ctx.db).await?, limit, |q| match sort {
        Sort::Bounty => format!("{}.{}", q.bounty, q.id),
        _ => q.id.to_string(),
    });
    let list = question_views(ctx, rows, reading).await?;
    Ok(Page { list, next_cursor })
}

/// The week's questions (the newest [`HOT_POOL`]) ranked as items are on a hot feed: answers
/// weigh as comments, likes as likes, an open bounty as the editors' "important", over the
/// question's age. Paged by offset in the ranking, which is read again for each page: a hot list
/// moves as answers arrive.
async fn hot_page(
    ctx: &Ctx,
    query: sea_orm::Select<question::Entity>,
    (cursor, limit): (Option<&str>, u64),
    reading: Reading,
) -> AppResult<Page<QuestionView>> {
    use client_core::vote::{Signals, hot_score};
    use question::Column as Q;
    let now = ctx.now();
    let mut rows = query
        .filter(Q::CreatedAt.gte(now - HOT_WINDOW_SECONDS))
        .order_by_desc(Q::Id)
        .limit(HOT_POOL)
        .all(&ctx.db)
        .await?;
    let score = |q: &question::Model| {
        let signals = Signals {
            comments: q.answer_count,
            likes: q.like_count,
            important: q.bounty_state == OPEN,
            ..Default::default()
        };
        hot_score(&signals, now - q.created_at)
    };
    rows.sort_by(|a, b| score(b).total_cmp(&score(a)).then(b.id.cmp(&a.id)));
    let offset = cursor.map(parse_id).transpose()?.unwrap_or(0);
    let start = usize::try_from(offset)
        .unwrap_or(usize::MAX)
        .min(rows.len());
    let end = start.saturating_add(limit as usize + 1).min(rows.len());
    let page: Vec<question::Model> = rows.drain(start..end).collect();
    let after = offset.saturating_add(limit as i64).to_string();
    let (rows, next_cursor) = split_page(page, limit, |_| after.clone());
    let list = question_views(ctx, rows, reading).await?;
    Ok(Page { list, next_cursor })
}

async fn find(db: &impl ConnectionTrait, id: i64) -> AppResult<question::Model> {
    question::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or_else(|| AppError::not_found("No such question"))
}

/// A question with its answers: the accepted one first, then by likes, then oldest.
pub async fn detail(ctx: &Ctx, id: i64, reading: Reading) -> AppResult<QuestionDetail> {
    let found = find(&ctx.db, id).await?;
    let answers = answers_page(ctx, &found, (None, ANSWERS_PAGE), reading).await?;
    let question = question_views(ctx, vec![found], reading)
        .await?
        .pop()
        .ok_or_else(|| AppError::internal("a question without a view"))?;
    Ok(QuestionDetail {
        question,
        answers: answers.list,
        answers_next_cursor: answers.next_cursor,
    })
}

/// Answers of question `id` after `cursor` (the detail's `answers_next_cursor`).
pub async fn answers(
    ctx: &Ctx,
    id: i64,
    page: (Option<&str>, u64),
    reading: Reading,
) -> AppResult<Page<AnswerView>> {
    let found = find(&ctx.db, id).await?;
    answers_page(ctx, &found, page, reading).await
}

/// Question `id` as it shows now: its asker and its title and text, or `NotFound`.
pub async fn shown(db: &impl ConnectionTrait, id: i64) -> AppResult<(i64, String)> {
    let found = find(db, id).await?;
    Ok((
        found.user_id,
        format!("{}\n\n{}", found.title, found.content),
    ))
}

/// Takes question `id` down for everyone, in `txn`, with its answers and tags; a bounty still
/// in escrow goes back to the asker (taken by conditional UPDATE, so an accept at the same
/// moment pays once). Gives the asker; call `changed` once committed.
pub async fn take_down(txn: &impl ConnectionTrait, now: i64, id: i64) -> AppResult<i64> {
    let found = find(txn, id).await?;
    let refunded = question::Entity::update_many()
        .col_expr(question::Column::BountyState, Expr::value(SETTLED))
        .filter(question::Column::Id.eq(id))
        .filter(question::Column::BountyState.eq(OPEN))
        .exec(txn)
        .await?;
    if refunded.rows_affected == 1 {
        let period = format!("q{id}r");
        move_points(
            txn,
            now,
            found.user_id,
            found.bounty,
            period,
            "bounty_refund",
        )
        .await?;
    }
    let answers: Vec<i64> = answer::Entity::find()
        .select_only()
        .column(answer::Column::Id)
        .filter(answer::Column::QuestionId.eq(id))
        .into_tuple()
        .all(txn)
        .await?;
    texts::forget(txn, TextKind::Answer, answers).await?;
    texts::forget(txn, TextKind::Question, [id]).await?;
    answer::Entity::delete_many()
        .filter(answer::Column::QuestionId.eq(id))
        .exec(txn)
        .await?;
    question_tag::Entity::delete_many()
        .filter(question_tag::Column::QuestionId.eq(id))
        .exec(txn)
        .await?;
    question::Entity::delete_by_id(id).exec(txn).await?;
    Ok(found.user_id)
}
