//! Invitation codes: every user has one (8 symbols of 32, 40 bits: not guessable by trying);
//! each user may enter one code, once, never their own, and never one that would make a circle.

use client_core::envelope::ErrorKind;
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};

use crate::ctx::Ctx;
use crate::entity::user;
use crate::error::{AppError, AppResult};
use crate::points::tasks::{Source, record_event};

/// How far up an invitation chain the circle check looks; chains are short in practice.
const MAX_CHAIN: usize = 64;

/// Records that `user_id` was invited by the owner of `code`; the inviter's task moves forward.
/// Returns the inviter's id.
pub async fn bind(ctx: &Ctx, user_id: i64, code: &str) -> AppResult<i64> {
    let code = code.trim().to_ascii_uppercase();
    let invalid = || AppError::new(ErrorKind::InvitationInvalid);
    if code.is_empty() || code.len() > 32 {
        return Err(invalid());
    }
    let inviter = user::Entity::find()
        .filter(user::Column::InvitationCode.eq(code.as_str()))
        .one(&ctx.db)
        .await?
        .ok_or_else(invalid)?;
    if inviter.id == user_id {
        return Err(invalid().with_message("You cannot use your own invitation code"));
    }
    // Walk up from the inviter: if we meet this user, the new link would close a circle.
    let mut next = inviter.invited_by;
    for _ in 0..MAX_CHAIN {
        let Some(ancestor) = next else { break };
        if ancestor == user_id {
            return Err(invalid().with_message("This code belongs to someone you invited"));
        }
        next = user::Entity::find_by_id(ancestor)
            .one(&ctx.db)
            .await?
            .and_then(|u| u.invited_by);
    }
    // Once per user: only a user with no inviter yet is updated.
    let set = user::Entity::update_many()
        .col_expr(user::Column::InvitedBy, Expr::value(inviter.id))
        .filter(user::Column::Id.eq(user_id))
        .filter(user::Column::InvitedBy.is_null())
        .exec(&ctx.db)
        .await?;
    if set.rows_affected != 1 {
        return Err(ErrorKind::InvitationUsed.into());
    }
    record_event(ctx, inviter.id, "invite_friend", Source::Server).await?;
    Ok(inviter.id)
}
