//! Keeping abuse out: readers report what others wrote and their profiles (once each, keeping
//! the text as it was), the team lists reports, takes things down (the author is told why) and
//! bans accounts from writing for a time. A banned reader still reads.

use std::collections::HashMap;

use client_core::envelope::ErrorKind;
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{
    ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set, TryInsertResult,
};
use serde::Serialize;
use serde_json::json;

use super::comments::VISIBLE;
use super::messages::{self, About};
use super::reported::Reported;
use crate::auth::users::{UserRef, users_by_id};
use crate::config::ModerationAction;
use crate::ctx::Ctx;
use crate::entity::{comment, report, user, user_ban};
use crate::error::{AppError, AppResult};
use crate::pagination::{Page, parse_id, split_page};

pub const OPEN: &str = "open";
pub const RESOLVED: &str = "resolved";
/// The longest reason a report or a moderator gives.
pub const REASON_MAX_CHARS: u64 = 500;

/// Refuses a banned user's writes, saying until when.
pub async fn ensure_not_banned(ctx: &Ctx, user_id: i64) -> AppResult<()> {
    let ban = user_ban::Entity::find_by_id(user_id)
        .filter(user_ban::Column::Until.gt(ctx.now()))
        .one(&ctx.db)
        .await?;
    match ban {
        Some(ban) => Err(AppError::new(ErrorKind::Banned).with_data(json!({ "until": ban.until }))),
        None => Ok(()),
    }
}

/// Reports what `target` shows now; a reader reports each thing once. The report keeps its
/// author and text as they are, whatever becomes of them.
pub async fn report(ctx: &Ctx, reporter: i64, target: Reported, reason: &str) -> AppResult<()> {
    let (author, content) = target.shown(&ctx.db).await?;
    let (kind, target_id) = target.parts();
    let inserted = report::Entity::insert(report::ActiveModel {
        reporter_id: Set(reporter),
        kind: Set(kind.to_owned()),
        target_id: Set(target_id),
        author_id: Set(Some(author)),
        reason: Set(reason.trim().to_owned()),
        content: Set(content),
        state: Set(OPEN.to_owned()),
        created_at: Set(ctx.now()),
        ..Default::default()
    })
    .on_conflict(
        OnConflict::columns([
            report::Column::ReporterId,
            report::Column::Kind,
            report::Column::TargetId,
        ])
        .do_nothing()
        .to_owned(),
    )
    .do_nothing()
    .exec(&ctx.db)
    .await?;
    match inserted {
        TryInsertResult::Inserted(_) => Ok(()),
        _ => Err(ErrorKind::AlreadyReported.into()),
    }
}

#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct ReportView {
    pub id: i64,
    pub reporter: Option<UserRef>,
    #[ts(type = "\"comment\" | \"post\" | \"question\" | \"answer\" | \"profile\"")]
    pub kind: String,
    pub target_id: i64,
    pub reason: String,
    /// What was reported as it showed then (a profile: nickname, bio and avatar, a line each).
    pub content: String,
    pub state: String,
    pub created_at: i64,
    /// Who wrote it (a profile: its reader).
    pub author: Option<UserRef>,
    /// `visible`, or for a comment `deleted` or `removed`; `gone` for anything else no longer
    /// there.
    pub target_state: String,
}

pub async fn reports(
    ctx: &Ctx,
    wanted: &str,
    cursor: Option<&str>,
    limit: u64,
) -> AppResult<Page<ReportView>> {
    let mut query = report::Entity::find()
        .filter(report::Column::State.eq(wanted))
        .order_by_desc(report::Column::Id)
        .limit(limit + 1);
    if let Some(cursor) = cursor {
        query = query.filter(report::Column::Id.lt(parse_id(cursor)?));
    }
    let (rows, next_cursor) = split_page(query.all(&ctx.db).await?, limit, |r| r.id.to_string());
    let comment_states: HashMap<i64, String> = comment::Entity::find()
        .filter(
            comment::Column::Id.is_in(
                rows.iter()
                    .filter(|r| r.kind == "comment")
                    .map(|r| r.target_id),
            ),
        )
        .all(&ctx.db)
        .await?
        .into_iter()
        .map(|c| (c.id, c.state))
        .collect();
    let users = users_by_id(
        &ctx.db,
        rows.iter()
            .map(|r| r.reporter_id)
            .chain(rows.iter().filter_map(|r| r.author_id)),
    )
    .await?;
    let mut list = Vec::with_capacity(rows.len());
    for r in rows {
        let target_state = match Reported::from_parts(&r.kind, r.target_id) {
            Some(Reported::Comment(id)) => comment_states.get(&id).cloned(),
            Some(other) => other.shown(&ctx.db).await.ok().map(|_| VISIBLE.to_owned()),
            None => None,
        };
        list.push(ReportView {
            id: r.id,
            reporter: users.get(&r.reporter_id).cloned(),
            kind: r.kind,
            target_id: r.target_id,
            reason: r.reason,
            content: r.content,
            state: r.state,
            created_at: r.created_at,
            author: r.author_id.and_then(|a| users.get(&a).cloned()),
            target_state: target_state.unwrap_or_else(|| "gone".to_owned()),
        });
    }
    Ok(Page { list, next_cursor })
}

/// Takes `target` down for everyone, resolves its reports and tells its author why.
pub async fn remove(ctx: &Ctx, target: Reported, reason: &str) -> AppResult<()> {
    let now = ctx.now();
    let txn = crate::db::begin_write(&ctx.db).await?;
    let taken = target.take_down(ctx, &txn).await?;
    let (kind, target_id) = target.parts();
    report::Entity::update_many()
        .col_expr(report::Column::State, Expr::value(RESOLVED))
        .filter(report::Column::Kind.eq(kind))
        .filter(report::Column::TargetId.eq(target_id))
        .exec(&txn)
        .await?;
    let about = About {
        kind: taken.message,
        actor_id: None,
        place: taken.place,
        comment_id: taken.comment_id,
        body: reason,
    };
    messages::leave(&txn, now, taken.author, &about).await?;
    txn.commit().await?;
    taken.after(ctx);
    messages::notified(ctx, [Some(taken.author)]);
    Ok(())
}

/// Bans `user_id` from commenting, liking and reporting until `until` (a time already past
/// lifts the ban).
pub async fn ban(ctx: &Ctx, user_id: i64, until: i64, reason: &str) -> AppResult<()> {
    if user::Entity::find_by_id(user_id)
        .one(&ctx.db)
        .await?
        .is_none()
    {
        return Err(AppError::not_found("No such user"));
    }
    if until <= ctx.now() {
        user_ban::Entity::delete_by_id(user_id)
            .exec(&ctx.db)
            .await?;
        return Ok(());
    }
    user_ban::Entity::insert(user_ban::ActiveModel {
        user_id: Set(user_id),
        until: Set(until),
        reason: Set(reason.to_owned()),
        created_at: Set(ctx.now()),
    })
    .on_conflict(
        OnConflict::column(user_ban::Column::UserId)
            .update_columns([
                user_ban::Column::Until,
                user_ban::Column::Reason,
                user_ban::Column::CreatedAt,
            ])
            .to_owned(),
    )
    .exec_without_returning(&ctx.db)
    .await?;
    Ok(())
}

/// The CLI's `moderation` commands; gives what to print.
pub async fn run(ctx: &Ctx, action: ModerationAction) -> AppResult<String> {
    use std::fmt::Write as _;
    Ok(match action {
        ModerationAction::Reports {
            state: wanted,
            limit,
        } => {
            let page = reports(ctx, &wanted, None, limit).await?;
            let mut out = String::new();
            for r in &page.list {
                let by = r.reporter.as_ref().map_or("?", |u| u.nickname.as_str());
                let _ = writeln!(
                    out,
                    "report {} on {} {} ({}) by {by}: {}\n  {}",
                    r.id, r.kind, r.target_id, r.target_state, r.reason, r.content
                );
            }
            let _ = writeln!(
                out,
                "{} {wanted} reports shown, newest first",
                page.list.len()
            );
            out
        }
        ModerationAction::Remove { kind, id, reason } => {
            let target = Reported::from_parts(&kind, id).ok_or_else(|| {
                AppError::invalid("kind must be comment, post, question, answer or profile")
            })?;
            remove(ctx, target, &reason).await?;
            format!("{kind} {id} removed\n")
        }
        ModerationAction::Ban {
            user_id,
            hours,
            reason,
        } => {
            let until = ctx.now() + hours * crate::time::HOUR;
            ban(ctx, user_id, until, &reason).await?;
            if hours > 0 {
                format!("user {user_id} banned for {hours} h\n")
            } else {
                format!("user {user_id} not banned\n")
            }
        }
        ModerationAction::Announce { title, body, texts } => {
            let texts = match texts {
                Some(path) => {
                    let raw = std::fs::read_to_string(&path).map_err(AppError::internal)?;
                    serde_json::from_str(&raw)
                        .map_err(|e| AppError::invalid(format!("{}: {e}", path.display())))?
                }
                None => Default::default(),
            };
            let texts = messages::announcement_texts(title, body, texts)?;
            let readers = messages::announce(ctx, &texts).await?;
            format!("announced to {readers} readers\n")
        }
    })
}
