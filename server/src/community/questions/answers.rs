//! Answers: one per reader and question, paged best first (the accepted one on top), edited
//! until they are paid for, accepted once by the asker.

use std::collections::HashMap;

use client_core::envelope::ErrorKind;
use sea_orm::sea_query::{Expr, Query};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, Condition, ConnectionTrait, EntityTrait, QueryFilter,
    QueryOrder, QuerySelect, Set, SqlErr,
};
use serde::Serialize;

use super::bounty::move_points;
use super::{ACCEPTED, AnswerView, NONE, OPEN, SETTLED, changed, find};
use crate::auth::users::users_by_id;
use crate::content::feeds::Reading;
use crate::content::translate::TextKind;
use crate::content::translate::texts;
use crate::ctx::Ctx;
use crate::entity::{answer, question};
use crate::error::{AppError, AppResult};
use crate::pagination::{Page, parse_id, parse_pair, split_page};
use crate::social::messages;

/// A page of `question`'s answers: the accepted one first (on the first page), then by likes,
/// then oldest; the cursor is `"<likes>.<id>"` of the last one.
pub(super) async fn answers_page(
    ctx: &Ctx,
    question: &question::Model,
    (cursor, limit): (Option<&str>, u64),
    reading: Reading,
) -> AppResult<Page<AnswerView>> {
    use answer::Column as A;
    let accepted = question.accepted_answer_id;
    let mut query = answer::Entity::find()
        .filter(A::QuestionId.eq(question.id))
        .order_by_desc(A::LikeCount)
        .order_by_asc(A::Id)
        .limit(limit + 1);
    if let Some(accepted) = accepted {
        query = query.filter(A::Id.ne(accepted));
    }
    if let Some(cursor) = cursor {
        let (likes, id) = parse_pair(cursor)?;
        query = query.filter(
            Condition::any().add(A::LikeCount.lt(likes)).add(
                Condition::all()
                    .add(A::LikeCount.eq(likes))
                    .add(A::Id.gt(id)),
            ),
        );
    }
    let (mut rows, next_cursor) = split_page(query.all(&ctx.db).await?, limit, |a| {
        format!("{}.{}", a.like_count, a.id)
    });
    if cursor.is_none()
        && let Some(accepted) = accepted
        && let Some(first) = answer::Entity::find_by_id(accepted).one(&ctx.db).await?
    {
        rows.insert(0, first);
    }
    let list = answer_views(ctx, rows, |a| Some(a.id) == accepted, reading).await?;
    Ok(Page { list, next_cursor })
}

/// Views of answers as `reading` wants them, their authors and translations read once.
async fn answer_views(
    ctx: &Ctx,
    rows: Vec<answer::Model>,
    accepted: impl Fn(&answer::Model) -> bool,
    reading: Reading,
) -> AppResult<Vec<AnswerView>> {
    let users = users_by_id(&ctx.db, rows.iter().map(|a| a.user_id)).await?;
    let written = rows.iter().map(|a| (a.id, a.lang.as_str()));
    let mut translations = texts::for_reader(&ctx.db, TextKind::Answer, written, reading).await?;
    Ok(rows
        .into_iter()
        .map(|mut a| AnswerView {
            original: texts::shown_translated(translations.remove(&a.id), None, &mut a.content),
            accepted: accepted(&a),
            id: a.id,
            user: users.get(&a.user_id).cloned(),
            content: a.content,
            lang: a.lang,
            like_count: a.like_count,
            created_at: a.created_at,
            edited_at: a.edited_at,
        })
        .collect())
}

/// An answer on its author's profile, with the question it answers.
#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct AuthoredAnswer {
    #[serde(flatten)]
    pub answer: AnswerView,
    pub question_id: i64,
    pub question_title: String,
}

/// A reader's answers, newest first.
pub async fn answers_by(
    ctx: &Ctx,
    user_id: i64,
    (cursor, limit): (Option<&str>, u64),
    reading: Reading,
) -> AppResult<Page<AuthoredAnswer>> {
    let mut query = answer::Entity::find()
        .filter(answer::Column::UserId.eq(user_id))
        .order_by_desc(answer::Column::Id)
        .limit(limit + 1);
    if let Some(cursor) = cursor {
        query = query.filter(answer::Column::Id.lt(parse_id(cursor)?));
    }
    let (rows, next_cursor) = split_page(query.all(&ctx.db).await?, limit, |a| a.id.to_string());
    let asked: HashMap<i64, question::Model> = question::Entity::find()
        .filter(question::Column::Id.is_in(rows.iter().map(|a| a.question_id)))
        .all(&ctx.db)
        .await?
        .into_iter()
        .map(|q| (q.id, q))
        .collect();
    let rows: Vec<answer::Model> = rows
        .into_iter()
        .filter(|a| asked.contains_key(&a.question_id))
        .collect();
    let accepted = |a: &answer::Model| {
        asked
            .get(&a.question_id)
            .is_some_and(|q| q.accepted_answer_id == Some(a.id))
    };
    let asked_in: Vec<i64> = rows.iter().map(|a| a.question_id).collect();
    let list = answer_views(ctx, rows, accepted, reading)
        .await?
        .into_iter()
        .zip(asked_in)
        .filter_map(|(answer, question_id)| {
            Some(AuthoredAnswer {
                question_id,
                question_title: asked.get(&question_id)?.title.clone(),
                answer,
            })
        })
        .collect();
    Ok(Page { list, next_cursor })
}

/// Answers a question (not one's own; one answer per reader, which they may edit after), in the
/// answerer's `lang`.
pub async fn answer(
    ctx: &Ctx,
    user_id: i64,
    question_id: i64,
    content: &str,
    lang: &str,
) -> AppResult<i64> {
    let found = find(&ctx.db, question_id).await?;
    if found.user_id == user_id {
        return Err(
            AppError::new(ErrorKind::Forbidden).with_message("You cannot answer your own question")
        );
    }
    let txn = crate::db::begin_write(&ctx.db).await?;
    let made = answer::ActiveModel {
        question_id: Set(question_id),
        user_id: Set(user_id),
        content: Set(content.trim().to_owned()),
        lang: Set(crate::i18n::written_lang(content, lang)),
        like_count: Set(0),
        created_at: Set(ctx.now()),
        edited_at: Set(None),
        ..Default::default()
    }
    .insert(&txn)
    .await;
    let made = match made {
        Err(e) if matches!(e.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))) => {
            return Err(ErrorKind::AlreadyAnswered.into());
        }
        other => other?,
    };
    question::Entity::update_many()
        .col_expr(
            question::Column::AnswerCount,
            Expr::col(question::Column::AnswerCount).add(1),
        )
        .filter(question::Column::Id.eq(question_id))
        .exec(&txn)
        .await?;
    let now = ctx.now();
    messages::about_question(
        &txn,
        now,
        found.user_id,
        "answer",
        user_id,
        question_id,
        &found.title,
    )
    .await?;
    txn.commit().await?;
    changed(ctx, question_id);
    messages::notified(ctx, [Some(found.user_id)]);
    Ok(made.id)
}

/// The author edits their answer, now in `lang`; the old text's translations go.
pub async fn edit_answer(
    ctx: &Ctx,
    user_id: i64,
    id: i64,
    content: &str,
    lang: &str,
) -> AppResult<()> {
    let found = find_answer(&ctx.db, id).await?;
    if found.user_id != user_id {
        return Err(AppError::new(ErrorKind::Forbidden).with_message("This is not your answer"));
    }
    // What was paid for stays as it was: the accepted answer, and every answer of a settled
    // bounty (settlement paid the best liked of them at that moment). Checked in the UPDATE
    // itself, so an accept at the same moment cannot slip between.
    let open = Query::select()
        .column(question::Column::Id)
        .from(question::Entity)
        .and_where(question::Column::Id.eq(found.question_id))
        .and_where(question::Column::BountyState.ne(SETTLED))
        .and_where(
            question::Column::AcceptedAnswerId
                .is_null()
                .or(question::Column::AcceptedAnswerId.ne(id)),
        )
        .to_owned();
    let txn = crate::db::begin_write(&ctx.db).await?;
    let edited = answer::Entity::update_many()
        .col_expr(answer::Column::Content, Expr::value(content.trim()))
        .col_expr(
            answer::Column::Lang,
            Expr::value(crate::i18n::written_lang(content, lang)),
        )
        .col_expr(answer::Column::EditedAt, Expr::value(ctx.now()))
        .filter(answer::Column::Id.eq(id))
        .filter(answer::Column::QuestionId.in_subquery(open))
        .exec(&txn)
        .await?;
    if edited.rows_affected == 0 {
        return Err(AppError::new(ErrorKind::Forbidden)
            .with_message("An accepted or rewarded answer can no longer be edited"));
    }
    texts::forget(&txn, TextKind::Answer, [id]).await?;
    txn.commit().await?;
    changed(ctx, found.question_id);
    Ok(())
}

/// The asker accepts an answer, once: the question moves to `accepted` by a conditional UPDATE
/// and the bounty goes to the answerer in the same transaction.
pub async fn accept(ctx: &Ctx, user_id: i64, answer_id: i64) -> AppResult<()> {
    let chosen = find_answer(&ctx.db, answer_id).await?;
    let asked = find(&ctx.db, chosen.question_id).await?;
    if asked.user_id != user_id {
        return Err(
            AppError::new(ErrorKind::Forbidden).with_message("Only the asker accepts an answer")
        );
    }
    let now = ctx.now();
    let txn = crate::db::begin_write(&ctx.db).await?;
    let moved = question::Entity::update_many()
        .col_expr(question::Column::BountyState, Expr::value(ACCEPTED))
        .col_expr(question::Column::AcceptedAnswerId, Expr::value(answer_id))
        .filter(question::Column::Id.eq(asked.id))
        .filter(question::Column::AcceptedAnswerId.is_null())
        .filter(question::Column::BountyState.is_in([NONE, OPEN]))
        .exec(&txn)
        .await?;
    if moved.rows_affected != 1 {
        return Err(ErrorKind::AlreadyAccepted.into());
    }
    messages::about_question(
        &txn,
        now,
        chosen.user_id,
        "accepted",
        user_id,
        asked.id,
        &asked.title,
    )
    .await?;
    if asked.bounty > 0 && asked.bounty_state == OPEN {
        move_points(
            &txn,
            now,
            chosen.user_id,
            asked.bounty,
            format!("q{}a", asked.id),
            "bounty_award",
        )
        .await?;
    }
    txn.commit().await?;
    changed(ctx, asked.id);
    messages::notified(ctx, [Some(chosen.user_id)]);
    Ok(())
}

/// Answer `id`: its author, its text and its question, or `NotFound`.
pub async fn find_answer(db: &impl ConnectionTrait, id: i64) -> AppResult<answer::Model> {
    answer::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or_else(|| AppError::not_found("No such answer"))
}

/// Takes answer `id` down for everyone, in `txn` (what it was paid stays paid). Gives the
/// answer as it was; call `changed` for its question once committed.
pub async fn take_down_answer(txn: &impl ConnectionTrait, id: i64) -> AppResult<answer::Model> {
    let found = find_answer(txn, id).await?;
    answer::Entity::delete_by_id(id).exec(txn).await?;
    texts::forget(txn, TextKind::Answer, [id]).await?;
    question::Entity::update_many()
        .col_expr(
            question::Column::AnswerCount,
            Expr::col(question::Column::AnswerCount).sub(1),
        )
        .filter(question::Column::Id.eq(found.question_id))
        .exec(txn)
        .await?;
    Ok(found)
}
