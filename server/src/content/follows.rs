//! Follows: a signed-in user follows tags, tokens, topics, KOLs and other readers. Following
//! completes the `follow_item` task; the catalogue's follower counts move with each change, in
//! the same transaction (a reader's followers are counted when their profile is read).

use client_core::envelope::ErrorKind;
use sea_orm::sea_query::{Alias, Expr, Query, SelectStatement};
use sea_orm::{
    ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, Set,
};

use crate::ctx::Ctx;
use crate::entity::{follow, kol, tag, token, topic, user};
use crate::error::{AppError, AppResult};
use crate::points::tasks::{self, Source};

/// What can be followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Tag,
    Token,
    Topic,
    Kol,
    /// Another reader: their posts come into the Following tab.
    User,
}

impl Target {
    /// The follow's kind, also the `feed_link` kind of the feeds it brings (KOLs: `kol_id`).
    pub fn kind(self) -> &'static str {
        match self {
            Self::Tag => "tag",
            Self::Token => "token",
            Self::Topic => "topic",
            Self::Kol => "kol",
            Self::User => "user",
        }
    }
}

/// The ids of what `user_id` follows of `kind` (a `Target::kind`), as a subquery.
pub fn followed(user_id: i64, kind: &str) -> SelectStatement {
    Query::select()
        .column(follow::Column::TargetId)
        .from(follow::Entity)
        .and_where(follow::Column::UserId.eq(user_id))
        .and_where(follow::Column::Kind.eq(kind))
        .to_owned()
}

/// At most this many follows of each kind per user.
pub const FOLLOW_MAX: u64 = 500;

async fn exists(db: &impl ConnectionTrait, target: Target, id: i64) -> AppResult<bool> {
    Ok(match target {
        Target::Tag => tag::Entity::find_by_id(id).one(db).await?.is_some(),
        Target::Token => token::Entity::find_by_id(id).one(db).await?.is_some(),
        Target::Topic => topic::Entity::find_by_id(id).one(db).await?.is_some(),
        Target::Kol => kol::Entity::find_by_id(id).one(db).await?.is_some(),
        Target::User => user::Entity::find_by_id(id).one(db).await?.is_some(),
    })
}

async fn bump(db: &impl ConnectionTrait, target: Target, id: i64, by: i64) -> AppResult<()> {
    // The follower count is the same column in the four catalogue tables.
    let table = match target {
        Target::Tag => "tags",
        Target::Token => "tokens",
        Target::Topic => "topics",
        Target::Kol => "kols",
        Target::User => return Ok(()),
    };
    let count = Alias::new("follower_count");
    let statement = Query::update()
        .table(Alias::new(table))
        .value(count.clone(), Expr::col(count).add(by))
        .and_where(Expr::col(Alias::new("id")).eq(id))
        .to_owned();
    db.execute(db.get_database_backend().build(&statement))
        .await?;
    Ok(())
}

/// Follows; following twice is the same as once. Returns whether this call added the follow.
pub async fn add(ctx: &Ctx, user_id: i64, target: Target, id: i64) -> AppResult<bool> {
    let txn = crate::db::begin_write(&ctx.db).await?;
    if !exists(&txn, target, id).await? {
        return Err(AppError::not_found(match target {
            Target::Tag => "No such tag",
            Target::Token => "No such token",
            Target::Topic => "No such topic",
            Target::Kol => "No such KOL",
            Target::User => "No such user",
        }));
    }
    if target == Target::User && id == user_id {
        return Err(AppError::invalid("You cannot follow yourself"));
    }
    let count = follow::Entity::find()
        .filter(follow::Column::UserId.eq(user_id))
        .filter(follow::Column::Kind.eq(target.kind()))
        .count(&txn)
        .await?;
    if count >= FOLLOW_MAX {
        return Err(AppError::new(ErrorKind::InvalidParam)
            .with_message(format!("At most {FOLLOW_MAX} follows")));
    }
    let row = follow::ActiveModel {
        user_id: Set(user_id),
        kind: Set(target.kind().to_owned()),
        target_id: Set(id),
        created_at: Set(ctx.now()),
        ..Default::default()
    };
    use follow::Column as C;
    let inserted = crate::db::insert_once(&txn, row, [C::UserId, C::Kind, C::TargetId]).await?;
    if inserted {
        bump(&txn, target, id, 1).await?;
    }
    txn.commit().await?;
    if inserted {
        tasks::record_event(ctx, user_id, "follow_item", Source::Server).await?;
    }
    Ok(inserted)
}

/// Unfollows; unfollowing what is not followed is not an error.
pub async fn remove(ctx: &Ctx, user_id: i64, target: Target, id: i64) -> AppResult<()> {
    let txn = crate::db::begin_write(&ctx.db).await?;
    let removed = follow::Entity::delete_many()
        .filter(follow::Column::UserId.eq(user_id))
        .filter(follow::Column::Kind.eq(target.kind()))
        .filter(follow::Column::TargetId.eq(id))
        .exec(&txn)
        .await?
        .rows_affected;
    if removed > 0 {
        bump(&txn, target, id, -1).await?;
    }
    txn.commit().await?;
    Ok(())
}

pub async fn is_following(ctx: &Ctx, user_id: i64, target: Target, id: i64) -> AppResult<bool> {
    Ok(follow::Entity::find()
        .filter(follow::Column::UserId.eq(user_id))
        .filter(follow::Column::Kind.eq(target.kind()))
        .filter(follow::Column::TargetId.eq(id))
        .one(&ctx.db)
        .await?
        .is_some())
}

/// Ids followed, most recent first.
pub async fn followed_ids(ctx: &Ctx, user_id: i64, target: Target) -> AppResult<Vec<i64>> {
    Ok(follow::Entity::find()
        .filter(follow::Column::UserId.eq(user_id))
        .filter(follow::Column::Kind.eq(target.kind()))
        .order_by_desc(follow::Column::Id)
        .all(&ctx.db)
        .await?
        .into_iter()
        .map(|f| f.target_id)
        .collect())
}
