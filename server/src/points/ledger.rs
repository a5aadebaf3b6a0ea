//! Balances, the ledger and the leaderboard.

use sea_orm::sea_query::{Alias, Expr, Order};
use sea_orm::{
    ColumnTrait, EntityTrait, FromQueryResult, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect,
};
use serde::Serialize;

use crate::ctx::Ctx;
use crate::entity::{point_ledger, user};
use crate::error::AppResult;
use crate::pagination::{Page, bad_cursor, split_page};
use crate::time::day_start;

pub const LEDGER_PAGE: u64 = 20;
pub const LEADERBOARD_SIZE: u64 = 50;

pub async fn balance(ctx: &Ctx, user_id: i64) -> AppResult<i64> {
    let found = user::Entity::find_by_id(user_id).one(&ctx.db).await?;
    Ok(found.map_or(0, |u| u.points))
}

#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct LedgerItem {
    pub id: i64,
    pub amount: i64,
    /// The event type of the task that paid it.
    pub reason: String,
    pub point_id: i64,
    pub created_at: i64,
}

/// Newest first; the cursor is the last id seen, so new rows never shift a page.
pub async fn page(ctx: &Ctx, user_id: i64, cursor: Option<&str>) -> AppResult<Page<LedgerItem>> {
    let before = match cursor.filter(|c| !c.is_empty()) {
        None => None,
        Some(c) => Some(
            c.parse::<i64>()
                .ok()
                .filter(|id| *id > 0)
                .ok_or_else(bad_cursor)?,
        ),
    };
    let mut query = point_ledger::Entity::find().filter(point_ledger::Column::UserId.eq(user_id));
    if let Some(before) = before {
        query = query.filter(point_ledger::Column::Id.lt(before));
    }
    let rows = query
        .order_by_desc(point_ledger::Column::Id)
        .limit(LEDGER_PAGE + 1)
        .all(&ctx.db)
        .await?;
    let (rows, next_cursor) = split_page(rows, LEDGER_PAGE, |r| r.id.to_string());
    let list = rows
        .into_iter()
        .map(|r| LedgerItem {
            id: r.id,
            amount: r.amount,
            reason: r.reason,
            point_id: r.task_id,
            created_at: r.created_at,
        })
        .collect();
    Ok(Page { list, next_cursor })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Period {
    /// Points earned since 00:00 UTC today.
    Daily,
    /// Balances.
    All,
}

#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct Ranked {
    pub rank: u64,
    pub exposed_uid: String,
    pub nickname: String,
    pub avatar: String,
    pub points: i64,
}

#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct MyRank {
    /// `null` while the caller has no points in the period.
    pub rank: Option<u64>,
    pub points: i64,
}

#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct Leaderboard {
    pub list: Vec<Ranked>,
    /// The caller's own standing (signed-in callers only).
    pub me: Option<MyRank>,
}

#[derive(Debug, FromQueryResult)]
struct Earned {
    user_id: i64,
    points: i64,
}

/// Points earned per user since 00:00 UTC today (one row per user who earned any).
fn earned_today(ctx: &Ctx) -> sea_orm::Select<point_ledger::Entity> {
    // SUM(bigint) is numeric on PostgreSQL: cast it back so both databases give an integer.
    let sum = Expr::expr(earned_sum()).cast_as(Alias::new("BIGINT"));
    point_ledger::Entity::find()
        .select_only()
        .column(point_ledger::Column::UserId)
        .column_as(sum, "points")
        .filter(point_ledger::Column::CreatedAt.gte(day_start(ctx.now())))
        .group_by(point_ledger::Column::UserId)
}

fn earned_sum() -> sea_orm::sea_query::SimpleExpr {
    Expr::col(point_ledger::Column::Amount).sum()
}

/// Standard competition ranking: equal points share a rank, and the next rank skips.
pub async fn leaderboard(ctx: &Ctx, period: Period, me: Option<i64>) -> AppResult<Leaderboard> {
    let scores: Vec<(i64, i64)> = match period {
        Period::All => user::Entity::find()
            .filter(user::Column::Points.gt(0))
            .order_by_desc(user::Column::Points)
            .order_by_asc(user::Column::Id)
            .limit(LEADERBOARD_SIZE)
            .all(&ctx.db)
            .await?
            .into_iter()
            .map(|u| (u.id, u.points))
            .collect(),
        Period::Daily => earned_today(ctx)
            .order_by(earned_sum(), Order::Desc)
            .order_by_asc(point_ledger::Column::UserId)
            .limit(LEADERBOARD_SIZE)
            .into_model::<Earned>()
            .all(&ctx.db)
            .await?
            .into_iter()
            .map(|e| (e.user_id, e.points))
            .collect(),
    };
    let users = user::Entity::find()
        .filter(user::Column::Id.is_in(scores.iter().map(|(id, _)| *id)))
        .all(&ctx.db)
        .await?;
    let mut list = Vec::with_capacity(scores.len());
    for (i, (id, points)) in scores.iter().enumerate() {
        let rank = match list.last() {
            Some(Ranked {
                points: p, rank, ..
            }) if p == points => *rank,
            _ => i as u64 + 1,
        };
        if let Some(u) = users.iter().find(|u| u.id == *id) {
            list.push(Ranked {
                rank,
                exposed_uid: u.exposed_uid.clone(),
                nickname: u.nickname.clone(),
                avatar: u.avatar.clone(),
                points: *points,
            });
        }
    }
    let me = match me {
        None => None,
        Some(user_id) => Some(my_rank(ctx, period, user_id).await?),
    };
    Ok(Leaderboard { list, me })
}

async fn my_rank(ctx: &Ctx, period: Period, user_id: i64) -> AppResult<MyRank> {
    let points = match period {
        Period::All => balance(ctx, user_id).await?,
        Period::Daily => earned_today(ctx)
            .filter(point_ledger::Column::UserId.eq(user_id))
            .into_model::<Earned>()
            .one(&ctx.db)
            .await?
            .map_or(0, |e| e.points),
    };
    if points <= 0 {
        return Ok(MyRank { rank: None, points });
    }
    let ahead = match period {
        Period::All => {
            user::Entity::find()
                .filter(user::Column::Points.gt(points))
                .count(&ctx.db)
                .await?
        }
        Period::Daily => {
            earned_today(ctx)
                .having(Expr::expr(earned_sum()).gt(points))
                .count(&ctx.db)
                .await?
        }
    };
    Ok(MyRank {
        rank: Some(ahead + 1),
        points,
    })
}
