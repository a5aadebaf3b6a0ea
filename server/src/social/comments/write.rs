//! Writing comments: adding one or a reply (answering a reply attaches to its top-level comment
//! and names the person answered), mentions, edits kept as history, and deletion that leaves a
//! placeholder where replies hang; with the messages each of these leaves.

use client_core::comment::{can_edit_comment, mentions};
use client_core::envelope::ErrorKind;
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, Condition, ConnectionTrait, EntityTrait, IntoActiveModel,
    QueryFilter, Set,
};

use super::{
    CommentView, DELETED, REPEAT_SECONDS, VISIBLE, changed, find_visible, view_of, visible_in,
    written,
};
use crate::auth::users::nickname_is;
use crate::content::translate::TextKind;
use crate::content::translate::texts;
use crate::ctx::Ctx;
use crate::entity::{comment, comment_edit, like, user};
use crate::error::{AppError, AppResult};
use crate::social::blocks::blocks;
use crate::social::messages::{self, About};
use crate::social::subject::Subject;

pub struct NewComment<'a> {
    pub subject: Subject,
    pub parent_id: Option<i64>,
    /// Already checked by the comment rule.
    pub content: &'a str,
    /// The writer's language.
    pub lang: &'a str,
}

/// Adds a comment or a reply and leaves the messages it causes, in one transaction.
pub async fn add(ctx: &Ctx, user_id: i64, new: NewComment<'_>) -> AppResult<CommentView> {
    let content = new.content.trim();
    let now = ctx.now();
    let repeated = comment::Entity::find()
        .filter(comment::Column::UserId.eq(user_id))
        .filter(comment::Column::CreatedAt.gte(now - REPEAT_SECONDS))
        .filter(comment::Column::Content.eq(content))
        .one(&ctx.db)
        .await?;
    if repeated.is_some() {
        return Err(ErrorKind::DuplicateContent.into());
    }
    // Answering a reply attaches to its top-level comment and names the person answered.
    let (parent_id, answered) = match new.parent_id {
        None => (None, None),
        Some(id) => {
            let parent = find_visible(ctx, id).await?;
            if Subject::of(&parent) != new.subject {
                return Err(AppError::invalid("parent_id is a comment on another item"));
            }
            if blocks(ctx, parent.user_id, user_id).await? {
                return Err(ErrorKind::Blocked.into());
            }
            let answered_reply = parent.parent_id.is_some();
            (
                Some(parent.parent_id.unwrap_or(parent.id)),
                Some((parent.user_id, answered_reply)),
            )
        }
    };
    let mentioned = mentioned_users(ctx, user_id, content).await?;
    let txn = crate::db::begin_write(&ctx.db).await?;
    let place = new.subject.comment_added(&txn).await?;
    if let Some(parent_id) = parent_id {
        comment::Entity::update_many()
            .col_expr(
                comment::Column::ReplyCount,
                Expr::col(comment::Column::ReplyCount).add(1),
            )
            .filter(comment::Column::Id.eq(parent_id))
            .exec(&txn)
            .await?;
    }
    let made = comment::ActiveModel {
        subject_kind: Set(new.subject.kind().to_owned()),
        subject_id: Set(new.subject.id()),
        parent_id: Set(parent_id),
        user_id: Set(user_id),
        reply_to_user_id: Set(answered.filter(|(_, reply)| *reply).map(|(to, _)| to)),
        content: Set(content.to_owned()),
        lang: Set(crate::i18n::written_lang(content, new.lang)),
        state: Set(VISIBLE.to_owned()),
        like_count: Set(0),
        reply_count: Set(0),
        created_at: Set(now),
        edited_at: Set(None),
        ..Default::default()
    }
    .insert(&txn)
    .await?;
    let about = |kind| About {
        kind,
        actor_id: Some(user_id),
        place,
        comment_id: Some(made.id),
        body: content,
    };
    let replied_to = answered.map(|(to, _)| to).filter(|to| *to != user_id);
    if let Some(to) = replied_to {
        messages::leave(&txn, now, to, &about("reply")).await?;
    }
    let mentioned: Vec<i64> = mentioned
        .into_iter()
        .filter(|to| Some(*to) != replied_to)
        .collect();
    for to in &mentioned {
        messages::leave(&txn, now, *to, &about("mention")).await?;
    }
    txn.commit().await?;
    changed(ctx, new.subject);
    written(ctx, new.subject, made.id);
    messages::notified(ctx, replied_to.into_iter().chain(mentioned).map(Some));
    view_of(ctx, Some(user_id), made).await
}

/// The people a comment's `@name`s name: readers with those nicknames (ignoring case), not the
/// author, and not someone who blocked the author.
async fn mentioned_users(ctx: &Ctx, author: i64, content: &str) -> AppResult<Vec<i64>> {
    let names = mentions(content);
    if names.is_empty() {
        return Ok(Vec::new());
    }
    // Nicknames are unique without regard to case: each name is at most one reader.
    let named = names
        .iter()
        .fold(Condition::any(), |any, name| any.add(nickname_is(name)));
    let found = user::Entity::find().filter(named).all(&ctx.db).await?;
    let mut ids = Vec::new();
    for u in found {
        if u.id != author && !blocks(ctx, u.id, author).await? {
            ids.push(u.id);
        }
    }
    Ok(ids)
}

/// The author's own visible comment, or why not.
async fn own(ctx: &Ctx, user_id: i64, id: i64) -> AppResult<comment::Model> {
    let found = find_visible(ctx, id).await?;
    if found.user_id != user_id {
        return Err(AppError::new(ErrorKind::Forbidden).with_message("This is not your comment"));
    }
    Ok(found)
}

/// Replaces the text of the author's comment within the edit window, keeping the old text; the
/// new text is in `lang`, and the old one's translations go.
pub async fn edit(
    ctx: &Ctx,
    user_id: i64,
    id: i64,
    content: &str,
    lang: &str,
) -> AppResult<CommentView> {
    let content = content.trim();
    let found = own(ctx, user_id, id).await?;
    let now = ctx.now();
    if !can_edit_comment(found.created_at, now) {
        return Err(ErrorKind::EditWindowClosed.into());
    }
    let subject = Subject::of(&found);
    if found.content != content {
        let txn = crate::db::begin_write(&ctx.db).await?;
        comment_edit::ActiveModel {
            comment_id: Set(id),
            content: Set(found.content.clone()),
            edited_at: Set(now),
            ..Default::default()
        }
        .insert(&txn)
        .await?;
        let mut changed = found.into_active_model();
        changed.content = Set(content.to_owned());
        changed.lang = Set(crate::i18n::written_lang(content, lang));
        changed.edited_at = Set(Some(now));
        changed.update(&txn).await?;
        texts::forget(&txn, TextKind::Comment, [id]).await?;
        txn.commit().await?;
        self::changed(ctx, subject);
        written(ctx, subject, id);
    }
    let current = find_visible(ctx, id).await?;
    view_of(ctx, Some(user_id), current).await
}

/// Takes a comment out of every reader's sight, with its counts and the messages that quote it.
/// Deleted by its author, its words and earlier versions go (an empty placeholder stays where
/// replies hang); removed by the team, it stays for the record (reports point at it), shown to no
/// one. `found` is the comment as read in `txn`.
pub async fn take_down(
    txn: &impl ConnectionTrait,
    found: &comment::Model,
    state_to: &str,
) -> AppResult<()> {
    use comment::Column as C;
    if state_to != DELETED {
        comment::Entity::update_many()
            .col_expr(C::State, Expr::value(state_to))
            .filter(C::Id.eq(found.id))
            .exec(txn)
            .await?;
    } else if found.reply_count > 0 {
        comment::Entity::update_many()
            .col_expr(C::State, Expr::value(DELETED))
            .col_expr(C::Content, Expr::value(""))
            .filter(C::Id.eq(found.id))
            .exec(txn)
            .await?;
    } else {
        comment::Entity::delete_by_id(found.id).exec(txn).await?;
        like::Entity::delete_many()
            .filter(like::Column::Kind.eq(like::COMMENT))
            .filter(like::Column::TargetId.eq(found.id))
            .exec(txn)
            .await?;
    }
    if state_to == DELETED {
        comment_edit::Entity::delete_many()
            .filter(comment_edit::Column::CommentId.eq(found.id))
            .exec(txn)
            .await?;
    }
    texts::forget(txn, TextKind::Comment, [found.id]).await?;
    if let Some(parent) = found.parent_id {
        comment::Entity::update_many()
            .col_expr(C::ReplyCount, Expr::col(C::ReplyCount).sub(1))
            .filter(C::Id.eq(parent))
            .exec(txn)
            .await?;
    }
    Subject::of(found).comment_removed(txn).await?;
    messages::forget_comment(txn, found.id).await
}

/// The author deletes their comment.
pub async fn delete(ctx: &Ctx, user_id: i64, id: i64) -> AppResult<()> {
    own(ctx, user_id, id).await?;
    let txn = crate::db::begin_write(&ctx.db).await?;
    // Read again inside the transaction: of concurrent deletions and removals, one acts.
    let Some(found) = visible_in(&txn, id).await? else {
        return Err(AppError::not_found("No such comment"));
    };
    take_down(&txn, &found, DELETED).await?;
    txn.commit().await?;
    changed(ctx, Subject::of(&found));
    Ok(())
}
