//! Messages to a reader: replies to their comments, mentions, likes on a comment (one row per
//! comment that counts the likes), points awarded, something taken down, and the team's
//! announcements. Written in the transaction of what caused them, so none is lost or sent for
//! something that did not happen.

use std::collections::HashMap;

use client_core::locale::LOCALES;
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter,
    QueryOrder, QuerySelect, Set, Statement,
};
use serde::{Deserialize, Serialize};

use super::blocks::blocked_by;
use super::opening;
use super::subject::Place;
use crate::auth::users::{UserRef, users_by_id};
use crate::ctx::Ctx;
use crate::entity::{announcement, message};
use crate::error::{AppError, AppResult};
use crate::events::{Event, Live};
use crate::pagination::{Page, parse_pair, split_page};

/// How much of a text a message quotes.
const QUOTE_CHARS: usize = 140;

/// What a message is about.
pub const KINDS: [&str; 12] = [
    "reply",
    "mention",
    "like",
    "points",
    "removed",
    "removed_post",
    "removed_question",
    "removed_answer",
    "reset_profile",
    "announcement",
    "answer",
    "accepted",
];

/// The most ids one `/message/read` marks.
pub const READ_MAX_IDS: u64 = 100;

/// A message caused by someone's comment (a reply or a mention), or about something taken down.
pub struct About<'a> {
    pub kind: &'static str,
    pub actor_id: Option<i64>,
    pub place: Place,
    pub comment_id: Option<i64>,
    pub body: &'a str,
}

/// Leaves `about` for `user_id`.
pub async fn leave(
    db: &impl ConnectionTrait,
    now: i64,
    user_id: i64,
    about: &About<'_>,
) -> AppResult<()> {
    let mut message = message::unread(user_id, about.kind, now);
    message.actor_id = Set(about.actor_id);
    message.feed_id = Set(about.place.feed_id);
    message.question_id = Set(about.place.question_id);
    message.comment_id = Set(about.comment_id);
    message.body = Set(opening(about.body, QUOTE_CHARS));
    message.insert(db).await?;
    Ok(())
}

/// One more like on `author`'s comment: the comment's one like message counts it, comes back
/// unread and names the latest liker.
pub async fn liked(
    db: &impl ConnectionTrait,
    now: i64,
    author: i64,
    actor: i64,
    place: Place,
    comment_id: i64,
    text: &str,
) -> AppResult<()> {
    let count = Expr::col((message::Entity, message::Column::Count)).add(1);
    let mut message = message::unread(author, "like", now);
    message.actor_id = Set(Some(actor));
    message.feed_id = Set(place.feed_id);
    message.question_id = Set(place.question_id);
    message.comment_id = Set(Some(comment_id));
    message.group_key = Set(Some(format!("like:{comment_id}")));
    message.body = Set(opening(text, QUOTE_CHARS));
    message::Entity::insert(message)
        .on_conflict(
            OnConflict::columns([message::Column::UserId, message::Column::GroupKey])
                .value(message::Column::Count, count)
                .update_columns([
                    message::Column::ActorId,
                    message::Column::Read,
                    message::Column::UpdatedAt,
                ])
                .to_owned(),
        )
        .exec_without_returning(db)
        .await?;
    Ok(())
}

/// Someone (`actor_id`) answered `user_id`'s question, or (`accepted`) the asker accepted
/// `user_id`'s answer; `body` quotes the question's title.
pub async fn about_question(
    db: &impl ConnectionTrait,
    now: i64,
    user_id: i64,
    kind: &str,
    actor_id: i64,
    question_id: i64,
    title: &str,
) -> AppResult<()> {
    let mut message = message::unread(user_id, kind, now);
    message.actor_id = Set(Some(actor_id));
    message.question_id = Set(Some(question_id));
    message.body = Set(opening(title, QUOTE_CHARS));
    message.insert(db).await?;
    Ok(())
}

/// Messages quoting a comment that no longer shows (deleted or removed): its text must reach
/// no one any more.
pub async fn forget_comment(db: &impl ConnectionTrait, comment_id: i64) -> AppResult<()> {
    message::Entity::delete_many()
        .filter(message::Column::CommentId.eq(comment_id))
        .filter(message::Column::Kind.ne("removed"))
        .exec(db)
        .await?;
    Ok(())
}

/// An announcement's text in one language.
#[derive(schemars::JsonSchema, Debug, Clone, Serialize, Deserialize)]
pub struct Announcement {
    pub title: String,
    pub body: String,
}

const TITLE_MAX_CHARS: usize = 120;
const BODY_MAX_CHARS: usize = 2000;

/// An announcement's texts per locale, checked: `texts`, with `title` and `body` as English
/// when given.
pub fn announcement_texts(
    title: Option<String>,
    body: Option<String>,
    mut texts: HashMap<String, Announcement>,
) -> AppResult<HashMap<String, Announcement>> {
    if let (Some(title), Some(body)) = (title, body) {
        texts.insert("en".to_owned(), Announcement { title, body });
    }
    for (locale, text) in &texts {
        if !LOCALES.contains(&locale.as_str()) {
            return Err(AppError::invalid(format!("Unknown locale {locale}")));
        }
        let title = text.title.trim().chars().count();
        let body = text.body.trim().chars().count();
        if !(1..=TITLE_MAX_CHARS).contains(&title) || !(1..=BODY_MAX_CHARS).contains(&body) {
            return Err(AppError::invalid(format!(
                "{locale}: a title of 1 to {TITLE_MAX_CHARS} characters and a body of 1 to \
                 {BODY_MAX_CHARS}"
            )));
        }
    }
    if !texts.contains_key("en") {
        return Err(AppError::invalid("An announcement needs its English text"));
    }
    Ok(texts)
}

/// Leaves an announcement (texts checked by [`announcement_texts`]) for every reader, in one
/// statement; gives how many readers got it.
pub async fn announce(ctx: &Ctx, texts: &HashMap<String, Announcement>) -> AppResult<u64> {
    let now = ctx.now();
    let txn = crate::db::begin_write(&ctx.db).await?;
    let made = announcement::ActiveModel {
        content: Set(serde_json::to_string(texts).map_err(AppError::internal)?),
        created_at: Set(now),
        ..Default::default()
    }
    .insert(&txn)
    .await?;
    let backend = txn.get_database_backend();
    let sent = txn
        .execute(Statement::from_sql_and_values(
            backend,
            "INSERT INTO messages (user_id, kind, announcement_id, count, body, read, created_at, \
             updated_at) SELECT id, 'announcement', $1, 1, '', $2, $3, $3 FROM users",
            [made.id.into(), false.into(), now.into()],
        ))
        .await?
        .rows_affected();
    txn.commit().await?;
    notified(ctx, [None]);
    Ok(sent)
}

#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct MessageView {
    pub id: i64,
    #[ts(type = "MessageKind")]
    pub kind: String,
    /// Who did it: the replier, the mentioner, the latest liker.
    pub actor: Option<UserRef>,
    /// Likes counted in this message; points awarded.
    pub count: i64,
    pub feed_id: Option<i64>,
    pub comment_id: Option<i64>,
    /// The question an answer or an acceptance is about.
    pub question_id: Option<i64>,
    /// An announcement's title in the reader's language.
    pub title: String,
    /// The comment's opening, the removal's reason, the task's event, an announcement's body.
    pub body: String,
    pub read: bool,
    /// When it last changed (a grouped like message moves up with each like).
    pub at: i64,
}

/// Messages shown to `user_id`: not those whose author they blocked since.
fn visible(user_id: i64) -> sea_orm::Condition {
    sea_orm::Condition::all()
        .add(message::Column::UserId.eq(user_id))
        .add(
            sea_orm::Condition::any()
                .add(message::Column::ActorId.is_null())
                .add(message::Column::ActorId.not_in_subquery(blocked_by(user_id))),
        )
}

pub async fn list(
    ctx: &Ctx,
    user_id: i64,
    locale: &str,
    kind: Option<&str>,
    cursor: Option<&str>,
    limit: u64,
) -> AppResult<Page<MessageView>> {
    let mut query = message::Entity::find()
        .filter(visible(user_id))
        .order_by_desc(message::Column::UpdatedAt)
        .order_by_desc(message::Column::Id)
        .limit(limit + 1);
    if let Some(kind) = kind {
        query = query.filter(message::Column::Kind.eq(kind));
    }
    if let Some(cursor) = cursor {
        let (at, id) = parse_pair(cursor)?;
        query = query.filter(
            sea_orm::Condition::any()
                .add(message::Column::UpdatedAt.lt(at))
                .add(
                    sea_orm::Condition::all()
                        .add(message::Column::UpdatedAt.eq(at))
                        .add(message::Column::Id.lt(id)),
                ),
        );
    }
    let (rows, next_cursor) = split_page(query.all(&ctx.db).await?, limit, |m| {
        format!("{}.{}", m.updated_at, m.id)
    });
    let actors = users_by_id(&ctx.db, rows.iter().filter_map(|m| m.actor_id)).await?;
    let announcements = announcements(ctx, rows.iter().filter_map(|m| m.announcement_id)).await?;
    let list = rows
        .into_iter()
        .map(|m| {
            let (title, body) = match m.announcement_id.and_then(|id| announcements.get(&id)) {
                Some(texts) => {
                    let text = texts.get(locale).or_else(|| texts.get("en"));
                    text.map_or_else(Default::default, |t| (t.title.clone(), t.body.clone()))
                }
                None => (String::new(), m.body),
            };
            MessageView {
                id: m.id,
                kind: m.kind,
                actor: m.actor_id.and_then(|id| actors.get(&id).cloned()),
                count: m.count,
                feed_id: m.feed_id,
                comment_id: m.comment_id,
                question_id: m.question_id,
                title,
                body,
                read: m.read,
                at: m.updated_at,
            }
        })
        .collect();
    Ok(Page { list, next_cursor })
}

async fn announcements(
    ctx: &Ctx,
    ids: impl Iterator<Item = i64>,
) -> AppResult<HashMap<i64, HashMap<String, Announcement>>> {
    let ids: Vec<i64> = ids.collect();
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    Ok(announcement::Entity::find()
        .filter(announcement::Column::Id.is_in(ids))
        .all(&ctx.db)
        .await?
        .into_iter()
        .filter_map(|a| Some((a.id, serde_json::from_str(&a.content).ok()?)))
        .collect())
}

/// Readers whose unread messages changed (once what changed them is committed); `None`: every
/// reader's.
pub fn notified(ctx: &Ctx, readers: impl IntoIterator<Item = Option<i64>>) {
    for reader in readers {
        ctx.events.publish(&Event::Live(Live::Unread(reader)));
    }
}

pub async fn unread(ctx: &Ctx, user_id: i64) -> AppResult<u64> {
    Ok(message::Entity::find()
        .filter(visible(user_id))
        .filter(message::Column::Read.eq(false))
        .count(&ctx.db)
        .await?)
}

/// Marks `ids` (or every message, for `None`) of `user_id` read; gives how many changed.
pub async fn mark_read(ctx: &Ctx, user_id: i64, ids: Option<&[i64]>) -> AppResult<u64> {
    let mut update = message::Entity::update_many()
        .col_expr(message::Column::Read, Expr::value(true))
        .filter(message::Column::UserId.eq(user_id))
        .filter(message::Column::Read.eq(false));
    if let Some(ids) = ids {
        update = update.filter(message::Column::Id.is_in(ids.iter().copied()));
    }
    let read = update.exec(&ctx.db).await?.rows_affected;
    if read > 0 {
        notified(ctx, [Some(user_id)]);
    }
    Ok(read)
}
