//! Task lists with each user's status, events that move tasks forward, and collecting awards.

use std::collections::HashMap;

use client_core::envelope::ErrorKind;
use client_core::task::TaskStatus;
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, QueryOrder, Set, TryInsertResult,
};
use serde::Serialize;

use super::period;
use crate::ctx::Ctx;
use crate::entity::{message, point_ledger, task, task_progress, user};
use crate::error::{AppError, AppResult};
use crate::events::{Event, Live};
use crate::i18n::localized;

#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct TaskButtonView {
    /// Empty: the client shows its default label for the status.
    pub text: String,
    pub disabled: bool,
    pub app_link: String,
}

#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct Progress {
    pub count: i32,
    pub target: i32,
}

/// A task as `POST /point/task/list` gives it (the shape client-core's `Task` reads).
#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct TaskView {
    pub point_id: i64,
    pub event_type: String,
    pub status: TaskStatus,
    pub award: i64,
    pub title: String,
    pub progress: Progress,
    pub button: TaskButtonView,
    #[ts(type = "0 | 1")]
    pub report_time: i32,
}

fn status_of(row: Option<&task_progress::Model>) -> TaskStatus {
    match row.map(|r| r.status.as_str()) {
        Some("in_progress") => TaskStatus::InProgress,
        Some("to_receive") => TaskStatus::ToReceive,
        Some("completed") => TaskStatus::Completed,
        _ => TaskStatus::NotStart,
    }
}

/// The group's tasks in catalogue order; visitors see every task as `not_start`.
pub async fn list(
    ctx: &Ctx,
    user_id: Option<i64>,
    group: &str,
    locale: &str,
) -> AppResult<Vec<TaskView>> {
    let tasks = task::Entity::find()
        .filter(task::Column::Group.eq(group))
        .filter(task::Column::Active.eq(true))
        .order_by_asc(task::Column::Sort)
        .all(&ctx.db)
        .await?;
    let mut progress: HashMap<i64, task_progress::Model> = HashMap::new();
    if let Some(user_id) = user_id {
        let rows = task_progress::Entity::find()
            .filter(task_progress::Column::UserId.eq(user_id))
            .filter(task_progress::Column::TaskId.is_in(tasks.iter().map(|t| t.id)))
            .filter(task_progress::Column::Period.eq(period(group, ctx.now())))
            .all(&ctx.db)
            .await?;
        progress.extend(rows.into_iter().map(|r| (r.task_id, r)));
    }
    Ok(tasks
        .into_iter()
        .map(|t| {
            let row = progress.get(&t.id);
            TaskView {
                point_id: t.id,
                status: status_of(row),
                award: t.award,
                title: localized(&t.titles, locale),
                progress: Progress {
                    count: row.map_or(0, |r| r.count.min(t.target)),
                    target: t.target,
                },
                button: TaskButtonView {
                    text: localized(&t.button_texts, locale),
                    disabled: t.button_disabled,
                    app_link: t.app_link,
                },
                report_time: t.report_time,
                event_type: t.event_type,
            }
        })
        .collect())
}

/// Groups whose tasks a client's own report may move. Registering on a partner exchange
/// (`exchange_register`) can only be confirmed by the partner, never by our client.
pub const CLIENT_REPORTED_GROUPS: [&str; 2] = ["novice", "daily"];

/// Who says the event happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The server saw it (a feedback stored, a wallet bound): every task waiting for it moves.
    Server,
    /// The client reported it: only tasks of [`CLIENT_REPORTED_GROUPS`] move.
    Client,
}

/// Counts one `event_type` for the user on every active task waiting for it; returns the
/// `point_id`s that moved. Tasks already waiting to be collected or done stay as they are.
pub async fn record_event(
    ctx: &Ctx,
    user_id: i64,
    event_type: &str,
    source: Source,
) -> AppResult<Vec<i64>> {
    let mut query = task::Entity::find()
        .filter(task::Column::EventType.eq(event_type))
        .filter(task::Column::Active.eq(true));
    if source == Source::Client {
        query = query.filter(task::Column::Group.is_in(CLIENT_REPORTED_GROUPS));
    }
    let tasks = query.all(&ctx.db).await?;
    let now = ctx.now();
    let mut moved = Vec::new();
    for t in tasks {
        let period = period(&t.group, now);
        let status = |count: i32| {
            if count >= t.target {
                "to_receive"
            } else {
                "in_progress"
            }
        };
        let first = task_progress::ActiveModel {
            user_id: Set(user_id),
            task_id: Set(t.id),
            period: Set(period.clone()),
            count: Set(1),
            status: Set(status(1).to_owned()),
            updated_at: Set(now),
            ..Default::default()
        };
        let key = [
            task_progress::Column::UserId,
            task_progress::Column::TaskId,
            task_progress::Column::Period,
        ];
        let inserted = task_progress::Entity::insert(first)
            .on_conflict(OnConflict::columns(key).do_nothing().to_owned())
            .do_nothing()
            .exec(&ctx.db)
            .await?;
        if matches!(inserted, TryInsertResult::Inserted(_)) {
            moved.push(t.id);
            continue;
        }
        let in_progress = |q: sea_orm::UpdateMany<task_progress::Entity>| {
            q.filter(task_progress::Column::UserId.eq(user_id))
                .filter(task_progress::Column::TaskId.eq(t.id))
                .filter(task_progress::Column::Period.eq(period.as_str()))
                .filter(task_progress::Column::Status.eq("in_progress"))
        };
        let counted = in_progress(task_progress::Entity::update_many())
            .col_expr(
                task_progress::Column::Count,
                Expr::col(task_progress::Column::Count).add(1),
            )
            .col_expr(task_progress::Column::UpdatedAt, Expr::value(now))
            .exec(&ctx.db)
            .await?;
        if counted.rows_affected == 1 {
            in_progress(task_progress::Entity::update_many())
                .col_expr(task_progress::Column::Status, Expr::value("to_receive"))
                .filter(task_progress::Column::Count.gte(t.target))
                .exec(&ctx.db)
                .await?;
            moved.push(t.id);
        }
    }
    Ok(moved)
}

#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct Collected {
    pub award: i64,
    pub balance: i64,
}

/// Pays a task's award once: the progress row moves from `to_receive` to `completed` by a
/// conditional UPDATE, the ledger row has a unique key per user, task and period, and the balance
/// changes in the same transaction. Any number of concurrent collects pay exactly once.
pub async fn collect(ctx: &Ctx, user_id: i64, point_id: i64) -> AppResult<Collected> {
    let task = task::Entity::find_by_id(point_id)
        .filter(task::Column::Active.eq(true))
        .one(&ctx.db)
        .await?
        .ok_or_else(|| AppError::not_found("No such task"))?;
    let now = ctx.now();
    let period = period(&task.group, now);
    let txn = crate::db::begin_write(&ctx.db).await?;
    let claimed = task_progress::Entity::update_many()
        .col_expr(task_progress::Column::Status, Expr::value("completed"))
        .col_expr(task_progress::Column::UpdatedAt, Expr::value(now))
        .filter(task_progress::Column::UserId.eq(user_id))
        .filter(task_progress::Column::TaskId.eq(task.id))
        .filter(task_progress::Column::Period.eq(period.as_str()))
        .filter(task_progress::Column::Status.eq("to_receive"))
        .exec(&txn)
        .await?;
    if claimed.rows_affected != 1 {
        txn.rollback().await?;
        return Err(ErrorKind::TaskNotCollectable.into());
    }
    point_ledger::ActiveModel {
        user_id: Set(user_id),
        task_id: Set(task.id),
        period: Set(period),
        amount: Set(task.award),
        reason: Set(task.event_type.clone()),
        created_at: Set(now),
        ..Default::default()
    }
    .insert(&txn)
    .await?;
    user::Entity::update_many()
        .col_expr(
            user::Column::Points,
            Expr::col(user::Column::Points).add(task.award),
        )
        .filter(user::Column::Id.eq(user_id))
        .exec(&txn)
        .await?;
    // The reader's "points" message, in the award's transaction.
    let mut paid = message::unread(user_id, "points", now);
    paid.count = Set(task.award);
    paid.body = Set(task.event_type.clone());
    paid.insert(&txn).await?;
    txn.commit().await?;
    ctx.events
        .publish(&Event::Live(Live::Unread(Some(user_id))));
    let balance = super::ledger::balance(ctx, user_id).await?;
    Ok(Collected {
        award: task.award,
        balance,
    })
}
