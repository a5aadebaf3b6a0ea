//! Stream tickets: `EventSource` cannot send `X-TOKEN`, and the long-lived token must never go
//! in a URL, so a signed-in page trades it for a ticket that signs one stream in, once, within a
//! minute. Kept in the database (by digest), so the stream may open on any server.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, Set};

use crate::auth::tokens::hash_token;
use crate::ctx::Ctx;
use crate::entity::stream_ticket;
use crate::error::AppResult;

pub const TICKET_SECONDS: i64 = 60;

/// A new ticket for `user_id`.
pub async fn issue(ctx: &Ctx, user_id: i64) -> AppResult<String> {
    let mut bytes = [0u8; 32];
    ctx.random.fill(&mut bytes);
    let ticket = URL_SAFE_NO_PAD.encode(bytes);
    let now = ctx.now();
    // Spent and lapsed tickets of everyone go as new ones come.
    stream_ticket::Entity::delete_many()
        .filter(stream_ticket::Column::ExpiresAt.lte(now))
        .exec(&ctx.db)
        .await?;
    stream_ticket::ActiveModel {
        ticket: Set(hash_token(&ticket)),
        user_id: Set(user_id),
        expires_at: Set(now + TICKET_SECONDS),
    }
    .insert(&ctx.db)
    .await?;
    Ok(ticket)
}

/// The reader a ticket signs in, spending it; `None` for a ticket unknown, spent or lapsed. Of
/// two streams racing with one ticket, one deletes it and the other finds nothing.
pub async fn redeem(ctx: &Ctx, ticket: &str) -> AppResult<Option<i64>> {
    let digest = hash_token(ticket);
    let Some(found) = stream_ticket::Entity::find_by_id(digest.clone())
        .one(&ctx.db)
        .await?
    else {
        return Ok(None);
    };
    let spent = stream_ticket::Entity::delete_many()
        .filter(stream_ticket::Column::Ticket.eq(digest))
        .exec(&ctx.db)
        .await?;
    Ok((spent.rows_affected == 1 && found.expires_at > ctx.now()).then_some(found.user_id))
}
