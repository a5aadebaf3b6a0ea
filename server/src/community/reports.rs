//! Keeping abuse out: readers report what others wrote, and profiles (once each, keeping its
//! author and text as they were); the team lists reports and takes things down, and its author
//! is told why. Each kind (`Reported`) says what it shows now and how it comes down; the rest is
//! the same for every kind. The CLI's `moderation` commands are here too.

use std::collections::HashMap;

use client_core::envelope::ErrorKind;
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{
    ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set,
    TryInsertResult,
};
use serde::{Deserialize, Serialize};

use super::{posts, profiles, questions};
use crate::auth::users::{UserRef, users_by_id};
use crate::config::ModerationAction;
use crate::ctx::Ctx;
use crate::entity::{comment, report};
use crate::error::{AppError, AppResult};
use crate::pagination::{Page, parse_id, split_page};
use crate::social::comments::{self, REMOVED, VISIBLE};
use crate::social::messages::{self, About};
use crate::social::moderation::ban;
use crate::social::subject::{Place, Subject};

pub const OPEN: &str = "open";
pub const RESOLVED: &str = "resolved";

/// `{"kind": "post", "id": 7}`: one thing a reader wrote, or a reader's profile.
#[derive(schemars::JsonSchema, Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(tag = "kind", content = "id", rename_all = "snake_case")]
pub enum Reported {
    Comment(i64),
    Post(i64),
    Question(i64),
    Answer(i64),
    Profile(i64),
}

/// What taking something down did: whose it was, what to tell them and where that leads.
pub struct TakenDown {
    pub author: i64,
    /// The message kind its author gets (`messages::KINDS`).
    pub message: &'static str,
    pub place: Place,
    pub comment_id: Option<i64>,
    /// Whose caches and pages must hear of it once committed.
    gone: Gone,
}

enum Gone {
    Thread(Subject),
    Post(i64),
    Question(i64),
    Profile,
}

impl Reported {
    pub fn from_parts(kind: &str, id: i64) -> Option<Self> {
        Some(match kind {
            "comment" => Self::Comment(id),
            "post" => Self::Post(id),
            "question" => Self::Question(id),
            "answer" => Self::Answer(id),
            "profile" => Self::Profile(id),
            _ => return None,
        })
    }

    pub fn parts(self) -> (&'static str, i64) {
        match self {
            Self::Comment(id) => ("comment", id),
            Self::Post(id) => ("post", id),
            Self::Question(id) => ("question", id),
            Self::Answer(id) => ("answer", id),
            Self::Profile(id) => ("profile", id),
        }
    }

    /// Its author and text as shown now, or `NotFound` when nothing of it shows.
    pub async fn shown(self, db: &impl ConnectionTrait) -> AppResult<(i64, String)> {
        match self {
            Self::Comment(id) => comments::visible_in(db, id)
                .await?
                .map(|c| (c.user_id, c.content))
                .ok_or_else(|| AppError::not_found("No such comment")),
            Self::Post(id) => posts::shown(db, id).await,
            Self::Question(id) => questions::shown(db, id).await,
            Self::Answer(id) => {
                let found = questions::find_answer(db, id).await?;
                Ok((found.user_id, found.content))
            }
            Self::Profile(id) => profiles::shown(db, id).await,
        }
    }

    /// Takes it down in `txn` (`NotFound` when nothing of it shows); `TakenDown::after` once
    /// committed.
    pub async fn take_down(self, ctx: &Ctx, txn: &impl ConnectionTrait) -> AppResult<TakenDown> {
        let nowhere = Place::default();
        Ok(match self {
            Self::Comment(id) => {
                let found = comments::visible_in(txn, id)
                    .await?
                    .ok_or_else(|| AppError::not_found("No such comment"))?;
                comments::take_down(txn, &found, REMOVED).await?;
                let subject = Subject::of(&found);
                TakenDown {
                    author: found.user_id,
                    message: "removed",
                    place: subject.place(txn).await?,
                    comment_id: Some(id),
                    gone: Gone::Thread(subject),
                }
            }
            Self::Post(id) => {
                let (author, _) = posts::shown(txn, id).await?;
                posts::take_down(txn, id).await?;
                TakenDown {
                    author,
                    message: "removed_post",
                    place: nowhere,
                    comment_id: None,
                    gone: Gone::Post(id),
                }
            }
            Self::Question(id) => TakenDown {
                author: questions::take_down(txn, ctx.now(), id).await?,
                message: "removed_question",
                place: nowhere,
                comment_id: None,
                gone: Gone::Question(id),
            },
            Self::Answer(id) => {
                let found = questions::take_down_answer(txn, id).await?;
                TakenDown {
                    author: found.user_id,
                    message: "removed_answer",
                    place: Place {
                        feed_id: None,
                        question_id: Some(found.question_id),
                    },
                    comment_id: None,
                    gone: Gone::Question(found.question_id),
                }
            }
            Self::Profile(id) => {
                profiles::shown(txn, id).await?;
                profiles::reset(ctx, txn, id).await?;
                TakenDown {
                    author: id,
                    message: "reset_profile",
                    place: nowhere,
                    comment_id: None,
                    gone: Gone::Profile,
                }
            }
        })
    }
}

impl TakenDown {
    /// Tells caches and open pages, once the take-down is committed.
    pub fn after(&self, ctx: &Ctx) {
        match self.gone {
            Gone::Thread(subject) => comments::changed(ctx, subject),
            Gone::Post(id) => posts::gone(ctx, id),
            Gone::Question(id) => questions::changed(ctx, id),
            // Names show in cached pages for at most their second.
            Gone::Profile => {}
        }
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
