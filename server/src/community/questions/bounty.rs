//! A question's bounty: points held in escrow from the moment it is asked, paid to the accepted
//! answer, or settled when its week is up by client-core's rule (half back, half to the best-liked
//! answer). Every move is a ledger row keyed by question and kind, so a second move of a kind
//! fails; the question's state moves by conditional UPDATE, so concurrent accepts, settlements
//! and removals pay exactly once.

use client_core::envelope::ErrorKind;
use client_core::question::settle_bounty;
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, Set,
};

use super::{OPEN, SETTLED, changed};
use crate::ctx::Ctx;
use crate::entity::{answer, point_ledger, question, user};
use crate::error::AppResult;

/// Ledger rows of a question's bounty are not tasks: task 0, the question and move as period.
const BOUNTY_TASK: i64 = 0;

/// Moves `amount` points to or from `user_id` with its ledger row (`period`: the question and
/// the move), in `db`'s transaction. A second move of the same kind for the same question fails
/// on the ledger's unique key.
pub(super) async fn move_points(
    db: &impl ConnectionTrait,
    now: i64,
    user_id: i64,
    amount: i64,
    period: String,
    reason: &str,
) -> AppResult<()> {
    point_ledger::ActiveModel {
        user_id: Set(user_id),
        task_id: Set(BOUNTY_TASK),
        period: Set(period),
        amount: Set(amount),
        reason: Set(reason.to_owned()),
        created_at: Set(now),
        ..Default::default()
    }
    .insert(db)
    .await?;
    user::Entity::update_many()
        .col_expr(
            user::Column::Points,
            Expr::col(user::Column::Points).add(amount),
        )
        .filter(user::Column::Id.eq(user_id))
        .exec(db)
        .await?;
    Ok(())
}

/// Takes a new question's bounty from the asker's balance into escrow, in the transaction that
/// stores the question; only while the balance covers it, so two questions at once cannot
/// overdraw it.
pub(super) async fn escrow(
    txn: &impl ConnectionTrait,
    now: i64,
    user_id: i64,
    question_id: i64,
    bounty: i64,
) -> AppResult<()> {
    let taken = user::Entity::update_many()
        .col_expr(
            user::Column::Points,
            Expr::col(user::Column::Points).sub(bounty),
        )
        .filter(user::Column::Id.eq(user_id))
        .filter(user::Column::Points.gte(bounty))
        .exec(txn)
        .await?;
    if taken.rows_affected != 1 {
        return Err(ErrorKind::BalanceShort.into());
    }
    point_ledger::ActiveModel {
        user_id: Set(user_id),
        task_id: Set(BOUNTY_TASK),
        period: Set(format!("q{question_id}e")),
        amount: Set(-bounty),
        reason: Set("bounty_escrow".to_owned()),
        created_at: Set(now),
        ..Default::default()
    }
    .insert(txn)
    .await?;
    Ok(())
}

/// Settles every open bounty whose time is up (the job runs this every few minutes; tests call
/// it with their clock). Gives how many were settled.
pub async fn settle_due(ctx: &Ctx) -> AppResult<u64> {
    let now = ctx.now();
    let due = question::Entity::find()
        .filter(question::Column::BountyState.eq(OPEN))
        .filter(question::Column::DeadlineAt.lte(now))
        .all(&ctx.db)
        .await?;
    let mut settled = 0;
    for q in due {
        let txn = crate::db::begin_write(&ctx.db).await?;
        let moved = question::Entity::update_many()
            .col_expr(question::Column::BountyState, Expr::value(SETTLED))
            .filter(question::Column::Id.eq(q.id))
            .filter(question::Column::BountyState.eq(OPEN))
            .exec(&txn)
            .await?;
        if moved.rows_affected != 1 {
            // Accepted or settled by another server meanwhile.
            continue;
        }
        let best = answer::Entity::find()
            .filter(answer::Column::QuestionId.eq(q.id))
            .order_by_desc(answer::Column::LikeCount)
            .order_by_asc(answer::Column::Id)
            .one(&txn)
            .await?;
        let split = settle_bounty(q.bounty, best.is_some());
        if split.to_asker > 0 {
            move_points(
                &txn,
                now,
                q.user_id,
                split.to_asker,
                format!("q{}r", q.id),
                "bounty_refund",
            )
            .await?;
        }
        if let Some(best) = best.filter(|_| split.to_answerer > 0) {
            move_points(
                &txn,
                now,
                best.user_id,
                split.to_answerer,
                format!("q{}s", q.id),
                "bounty_share",
            )
            .await?;
        }
        txn.commit().await?;
        changed(ctx, q.id);
        settled += 1;
    }
    Ok(settled)
}
