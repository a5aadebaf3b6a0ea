//! Guest and user tokens: 256 random bits, handed out once; only their SHA-256 is stored, so a
//! database leak gives no usable token. A new token on every sign-in.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, Set};
use sha2::{Digest, Sha256};

use crate::entity::session;
use crate::error::AppResult;
use crate::state::AppState;

pub const USER_TOKEN_TTL_SECONDS: i64 = 30 * 24 * 3600;
pub const GUEST_TOKEN_TTL_SECONDS: i64 = 365 * 24 * 3600;
const TOKEN_BYTES: usize = 32;

pub fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// A new token for a user, or for a guest when `user_id` is `None`.
pub async fn issue(state: &AppState, user_id: Option<i64>) -> AppResult<String> {
    let mut bytes = [0u8; TOKEN_BYTES];
    state.random.fill(&mut bytes);
    let token = URL_SAFE_NO_PAD.encode(bytes);
    let now = state.now();
    let ttl = if user_id.is_some() {
        USER_TOKEN_TTL_SECONDS
    } else {
        GUEST_TOKEN_TTL_SECONDS
    };
    session::ActiveModel {
        token_hash: Set(hash_token(&token)),
        user_id: Set(user_id),
        created_at: Set(now),
        expires_at: Set(now + ttl),
        revoked_at: Set(None),
        ..Default::default()
    }
    .insert(&state.db)
    .await?;
    Ok(token)
}

/// The live session a token stands for: not revoked, not expired.
pub async fn resolve(state: &AppState, token: &str) -> AppResult<Option<session::Model>> {
    if token.len() > 128 {
        return Ok(None);
    }
    let found = session::Entity::find()
        .filter(session::Column::TokenHash.eq(hash_token(token)))
        .filter(session::Column::RevokedAt.is_null())
        .filter(session::Column::ExpiresAt.gt(state.now()))
        .one(&state.db)
        .await?;
    Ok(found)
}

pub async fn revoke(state: &AppState, session_id: i64) -> AppResult<()> {
    session::Entity::update_many()
        .col_expr(
            session::Column::RevokedAt,
            sea_orm::sea_query::Expr::value(state.now()),
        )
        .filter(session::Column::Id.eq(session_id))
        .filter(session::Column::RevokedAt.is_null())
        .exec(&state.db)
        .await?;
    Ok(())
}
