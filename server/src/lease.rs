//! A lease in the database, so that of several servers exactly one does a piece of work at a
//! time (polling Telegram, sending a platform's messages, matching alerts, polling prices) and
//! another takes over when that one dies: the holder renews it while it works; anyone may take it
//! once it has run out.

use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set, TryInsertResult};

use crate::entity::lease;
use crate::error::AppResult;

/// Takes or renews the lease `name` for `holder` until `now + seconds`; false when another
/// holder's lease is still running.
pub async fn hold(
    db: &impl ConnectionTrait,
    name: &str,
    holder: &str,
    now: i64,
    seconds: i64,
) -> AppResult<bool> {
    let inserted = lease::Entity::insert(lease::ActiveModel {
        name: Set(name.to_owned()),
        holder: Set(holder.to_owned()),
        expires_at: Set(now + seconds),
        cursor: Set(0),
    })
    .on_conflict(
        OnConflict::column(lease::Column::Name)
            .do_nothing()
            .to_owned(),
    )
    .do_nothing()
    .exec(db)
    .await?;
    if matches!(inserted, TryInsertResult::Inserted(_)) {
        return Ok(true);
    }
    let taken = lease::Entity::update_many()
        .col_expr(lease::Column::Holder, Expr::value(holder))
        .col_expr(lease::Column::ExpiresAt, Expr::value(now + seconds))
        .filter(lease::Column::Name.eq(name))
        .filter(
            lease::Column::Holder
                .eq(holder)
                .or(lease::Column::ExpiresAt.lt(now)),
        )
        .exec(db)
        .await?;
    Ok(taken.rows_affected == 1)
}

/// The work's position (Telegram's next update offset).
pub async fn cursor(db: &impl ConnectionTrait, name: &str) -> AppResult<i64> {
    Ok(lease::Entity::find_by_id(name.to_owned())
        .one(db)
        .await?
        .map_or(0, |l| l.cursor))
}

/// Moves the cursor on, if `holder` still holds the lease.
pub async fn set_cursor(
    db: &impl ConnectionTrait,
    name: &str,
    holder: &str,
    cursor: i64,
) -> AppResult<bool> {
    let done = lease::Entity::update_many()
        .col_expr(lease::Column::Cursor, Expr::value(cursor))
        .filter(lease::Column::Name.eq(name))
        .filter(lease::Column::Holder.eq(holder))
        .exec(db)
        .await?;
    Ok(done.rows_affected == 1)
}
