//! Comment threads under feed items, questions and answers (a comment's `Subject`): top-level
//! comments paged newest or best first, each with its first replies; replies one level deep;
//! a comment's earlier versions. Writing them, with the notifications each write causes, is in
//! [`write`].

mod write;

pub use write::{NewComment, add, delete, edit, take_down};

use std::collections::{HashMap, HashSet};

use client_core::comment::REPLIES_SHOWN;
use sea_orm::{
    ColumnTrait, Condition, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect,
    Statement,
};
use serde::Serialize;

use super::blocks::{blocked_by, blocks};
use super::marks::{OpenPage, mark_item};
use super::subject::Subject;
use crate::auth::users::{UserRef, users_by_id};
use crate::content::feeds::Reading;
use crate::content::translate::TextKind;
use crate::content::translate::texts::{self, OriginalText};
use crate::ctx::Ctx;
use crate::entity::{comment, comment_edit, like};
use crate::error::{AppError, AppResult};
use crate::events::{Event, Live};
use crate::pagination::{Page, parse_id, parse_pair, split_page};

pub const VISIBLE: &str = "visible";
pub const DELETED: &str = "deleted";
pub const REMOVED: &str = "removed";

/// How long the same text from the same person is refused.
pub const REPEAT_SECONDS: i64 = 10 * 60;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sort {
    New,
    Top,
}

#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct CommentView {
    pub id: i64,
    #[ts(type = "\"feed\" | \"question\" | \"answer\"")]
    pub subject_kind: String,
    pub subject_id: i64,
    pub parent_id: Option<i64>,
    /// `null` for a deleted or removed comment.
    pub user: Option<UserRef>,
    /// Whom a reply answered, when it answered a reply.
    pub reply_to: Option<UserRef>,
    /// Empty for a deleted or removed comment.
    pub content: String,
    /// The language it was written in (empty when not known).
    pub lang: String,
    /// The text as written, when a translation is shown in its place.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub original: Option<OriginalText>,
    pub like_count: i64,
    pub liked: bool,
    pub reply_count: i64,
    pub created_at: i64,
    pub edited_at: Option<i64>,
    #[ts(type = "\"visible\" | \"deleted\" | \"removed\"")]
    pub state: String,
    /// A top-level comment's first replies, oldest first (empty for replies).
    pub replies: Vec<CommentView>,
}

/// What a reader is shown: visible comments, and placeholders only where replies hang;
/// nothing by people the reader blocked.
fn shown_to(reader: Option<i64>) -> Condition {
    let mut shown = Condition::any()
        .add(comment::Column::State.eq(VISIBLE))
        .add(comment::Column::ReplyCount.gt(0));
    if let Some(reader) = reader {
        shown = Condition::all()
            .add(shown)
            .add(comment::Column::UserId.not_in_subquery(blocked_by(reader)));
    }
    shown
}

/// `"<id>"` (new) or `"<likes>.<id>"` (top) of the last comment of the previous page.
fn parse_cursor(cursor: &str, sort: Sort) -> AppResult<(i64, i64)> {
    match sort {
        Sort::New => Ok((0, parse_id(cursor)?)),
        Sort::Top => parse_pair(cursor),
    }
}

/// Where a thread's shared first pages are cached (`content_cache`): every visitor, and every
/// reader who blocked no one, gets the same page; a reader's likes are marked on the copy.
pub fn thread_key(subject: Subject) -> String {
    format!("comments|{}|{}|", subject.kind(), subject.id())
}

/// A thread changed: its cached pages go, and an item's counts change on live streams.
pub fn changed(ctx: &Ctx, subject: Subject) {
    ctx.events.publish(&Event::Stale(thread_key(subject)));
    if let Subject::Feed(feed) = subject {
        ctx.events.publish(&Event::Live(Live::Counts(feed)));
    }
}

/// A comment under a feed item was written or rewritten: live streams of its thread show it.
fn written(ctx: &Ctx, subject: Subject, comment: i64) {
    if let Subject::Feed(feed) = subject {
        ctx.events
            .publish(&Event::Live(Live::Comment { feed, comment }));
    }
}

/// A cached envelope of a page of comments (`data.list`, each with `replies`), with `reader`'s
/// likes marked, read in one query.
pub async fn mark_liked(ctx: &Ctx, reader: i64, body: bytes::Bytes) -> AppResult<bytes::Bytes> {
    let mut page = OpenPage::open(&body)?;
    let liked = liked_among(ctx, reader, page.ids(Some("replies"))?).await?;
    page.each(Some("replies"), &mut |item| {
        mark_item(item, "liked", &liked)
    })?;
    page.close()
}

/// Which of `ids` (comments) `reader` likes.
async fn liked_among(ctx: &Ctx, reader: i64, ids: Vec<i64>) -> AppResult<HashSet<i64>> {
    if ids.is_empty() {
        return Ok(HashSet::new());
    }
    Ok(like::Entity::find()
        .filter(like::Column::UserId.eq(reader))
        .filter(like::Column::Kind.eq(like::COMMENT))
        .filter(like::Column::TargetId.is_in(ids))
        .all(&ctx.db)
        .await?
        .into_iter()
        .map(|l| l.target_id)
        .collect())
}

/// A subject's top-level comments, a page at a time, each with its first replies.
pub async fn list(
    ctx: &Ctx,
    reader: Option<i64>,
    reading: Reading,
    subject: Subject,
    sort: Sort,
    cursor: Option<&str>,
    limit: u64,
) -> AppResult<Page<CommentView>> {
    use comment::Column as C;
    subject.ensure_exists(&ctx.db).await?;
    let mut query = comment::Entity::find()
        .filter(subject.filter())
        .filter(C::ParentId.is_null())
        .filter(shown_to(reader))
        .limit(limit + 1);
    query = match sort {
        Sort::New => query.order_by_desc(C::Id),
        Sort::Top => query.order_by_desc(C::LikeCount).order_by_desc(C::Id),
    };
    if let Some(cursor) = cursor {
        let (likes, id) = parse_cursor(cursor, sort)?;
        query = query.filter(match sort {
            Sort::New => Condition::all().add(C::Id.lt(id)),
            Sort::Top => Condition::any().add(C::LikeCount.lt(likes)).add(
                Condition::all()
                    .add(C::LikeCount.eq(likes))
                    .add(C::Id.lt(id)),
            ),
        });
    }
    let (top, next_cursor) = split_page(query.all(&ctx.db).await?, limit, |c| match sort {
        Sort::New => c.id.to_string(),
        Sort::Top => format!("{}.{}", c.like_count, c.id),
    });
    let replies = first_replies(ctx, reader, top.iter().map(|c| c.id).collect()).await?;
    let list = views(ctx, reader, reading, top, replies).await?;
    Ok(Page { list, next_cursor })
}

/// The first replies of each of `parents`, in one query.
async fn first_replies(
    ctx: &Ctx,
    reader: Option<i64>,
    parents: Vec<i64>,
) -> AppResult<Vec<comment::Model>> {
    if parents.is_empty() {
        return Ok(Vec::new());
    }
    let backend = ctx.db.get_database_backend();
    let marks: Vec<String> = (1..=parents.len()).map(|i| format!("${i}")).collect();
    let blocked = match reader {
        Some(_) => format!(
            "AND user_id NOT IN (SELECT blocked_id FROM blocks WHERE user_id = ${})",
            parents.len() + 1
        ),
        None => String::new(),
    };
    let sql = format!(
        "SELECT * FROM (SELECT c.*, ROW_NUMBER() OVER (PARTITION BY parent_id ORDER BY id) AS n \
         FROM comments c WHERE parent_id IN ({}) AND state = '{VISIBLE}' {blocked}) r \
         WHERE n <= {REPLIES_SHOWN} ORDER BY parent_id, id",
        marks.join(", ")
    );
    let mut values: Vec<sea_orm::Value> = parents.into_iter().map(Into::into).collect();
    values.extend(reader.map(Into::into));
    Ok(comment::Entity::find()
        .from_raw_sql(Statement::from_sql_and_values(backend, sql, values))
        .all(&ctx.db)
        .await?)
}

/// The replies to `parent_id` after `cursor` (a reply's id), oldest first.
pub async fn replies(
    ctx: &Ctx,
    reader: Option<i64>,
    reading: Reading,
    parent_id: i64,
    cursor: Option<&str>,
    limit: u64,
) -> AppResult<Page<CommentView>> {
    use comment::Column as C;
    let mut query = comment::Entity::find()
        .filter(C::ParentId.eq(parent_id))
        .filter(C::State.eq(VISIBLE))
        .filter(shown_to(reader))
        .order_by_asc(C::Id)
        .limit(limit + 1);
    if let Some(cursor) = cursor {
        let after = parse_id(cursor)?;
        query = query.filter(C::Id.gt(after));
    }
    let (rows, next_cursor) = split_page(query.all(&ctx.db).await?, limit, |c| c.id.to_string());
    let list = views(ctx, reader, reading, rows, Vec::new()).await?;
    Ok(Page { list, next_cursor })
}

/// Views of `comments` (with `replies` under their parents) as `reading` wants them: authors,
/// the reader's likes and the translations read once for the whole page.
async fn views(
    ctx: &Ctx,
    reader: Option<i64>,
    reading: Reading,
    comments: Vec<comment::Model>,
    replies: Vec<comment::Model>,
) -> AppResult<Vec<CommentView>> {
    let all = || comments.iter().chain(&replies);
    let people: Vec<i64> = all()
        .flat_map(|c| [Some(c.user_id), c.reply_to_user_id])
        .flatten()
        .collect();
    let users = users_by_id(&ctx.db, people).await?;
    let liked = match reader {
        Some(reader) => liked_among(ctx, reader, all().map(|c| c.id).collect()).await?,
        None => HashSet::new(),
    };
    let visible = all().filter(|c| c.state == VISIBLE);
    let written = visible.map(|c| (c.id, c.lang.as_str()));
    let mut translations = texts::for_reader(&ctx.db, TextKind::Comment, written, reading).await?;
    let mut view = |c: comment::Model| {
        let shown = c.state == VISIBLE;
        let mut content = if shown { c.content } else { String::new() };
        let original = texts::shown_translated(translations.remove(&c.id), None, &mut content);
        CommentView {
            id: c.id,
            subject_kind: c.subject_kind,
            subject_id: c.subject_id,
            parent_id: c.parent_id,
            user: shown.then(|| users.get(&c.user_id).cloned()).flatten(),
            reply_to: c
                .reply_to_user_id
                .filter(|_| shown)
                .and_then(|id| users.get(&id).cloned()),
            content,
            lang: c.lang,
            original,
            like_count: c.like_count,
            liked: liked.contains(&c.id),
            reply_count: c.reply_count,
            created_at: c.created_at,
            edited_at: c.edited_at.filter(|_| shown),
            state: c.state,
            replies: Vec::new(),
        }
    };
    let mut by_parent: HashMap<i64, Vec<CommentView>> = HashMap::new();
    for reply in replies {
        let parent = reply.parent_id.unwrap_or_default();
        by_parent.entry(parent).or_default().push(view(reply));
    }
    Ok(comments
        .into_iter()
        .map(|c| {
            let id = c.id;
            let mut v = view(c);
            v.replies = by_parent.remove(&id).unwrap_or_default();
            v
        })
        .collect())
}

/// A visible comment as a visitor's page shows it, or `None`.
pub async fn shown(ctx: &Ctx, id: i64) -> AppResult<Option<CommentView>> {
    let Some(found) = visible_in(&ctx.db, id).await? else {
        return Ok(None);
    };
    Ok(Some(view_of(ctx, None, found).await?))
}

/// One comment as `reader` sees it just written or rewritten: in its own words (a translation
/// comes later, if ever).
async fn view_of(ctx: &Ctx, reader: Option<i64>, found: comment::Model) -> AppResult<CommentView> {
    let mut list = views(ctx, reader, Reading::ORIGINALS, vec![found], Vec::new()).await?;
    list.pop()
        .ok_or_else(|| AppError::internal("a comment without a view"))
}

/// A comment a reader may see and act on, or `NotFound`.
pub async fn find_visible(ctx: &Ctx, id: i64) -> AppResult<comment::Model> {
    visible_in(&ctx.db, id)
        .await?
        .ok_or_else(|| AppError::not_found("No such comment"))
}

/// A visible comment as `db` (a transaction) sees it.
pub async fn visible_in(db: &impl ConnectionTrait, id: i64) -> AppResult<Option<comment::Model>> {
    Ok(comment::Entity::find_by_id(id)
        .filter(comment::Column::State.eq(VISIBLE))
        .one(db)
        .await?)
}

#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct CommentVersion {
    pub content: String,
    /// When this version was written.
    pub at: i64,
}

/// A visible comment's versions, oldest first, the current one last.
pub async fn history(ctx: &Ctx, reader: Option<i64>, id: i64) -> AppResult<Vec<CommentVersion>> {
    let current = find_visible(ctx, id).await?;
    if let Some(reader) = reader
        && blocks(ctx, reader, current.user_id).await?
    {
        return Err(AppError::not_found("No such comment"));
    }
    let edits = comment_edit::Entity::find()
        .filter(comment_edit::Column::CommentId.eq(id))
        .order_by_asc(comment_edit::Column::Id)
        .all(&ctx.db)
        .await?;
    // Each kept version was written when the one before it was replaced.
    let mut written = current.created_at;
    let mut versions = Vec::with_capacity(edits.len() + 1);
    for edit in edits {
        versions.push(CommentVersion {
            content: edit.content,
            at: written,
        });
        written = edit.edited_at;
    }
    versions.push(CommentVersion {
        content: current.content,
        at: written,
    });
    Ok(versions)
}
