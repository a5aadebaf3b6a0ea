//! Guest and user tokens: 256 random bits, handed out once; only their SHA-256 is stored, so a
//! database leak gives no usable token. A new token on every sign-in.
//!
//! Live sessions are cached in memory for [`CACHE_SECONDS`] so an authenticated read costs one
//! query, not two. Sign-out drops the entry at once on this instance; with several instances, a
//! token revoked on another one stays usable here for at most [`CACHE_SECONDS`].

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use std::collections::HashMap;
use std::sync::RwLock;

use sea_orm::sea_query::Expr;
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, Set};
use sha2::{Digest, Sha256};

use crate::entity::session;
use crate::error::AppResult;
use crate::state::AppState;

pub const USER_TOKEN_TTL_SECONDS: i64 = 30 * 24 * 3600;
pub const GUEST_TOKEN_TTL_SECONDS: i64 = 365 * 24 * 3600;
const TOKEN_BYTES: usize = 32;
pub const CACHE_SECONDS: i64 = 30;
const CACHE_MAX_ENTRIES: usize = 100_000;

/// A session as the request pipeline needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveSession {
    pub id: i64,
    pub user_id: Option<i64>,
    pub token_hash: String,
    pub expires_at: i64,
}

#[derive(Default)]
pub struct SessionCache(RwLock<HashMap<String, (LiveSession, i64)>>);

impl SessionCache {
    fn get(&self, hash: &str, now: i64) -> Option<LiveSession> {
        let map = self.0.read().ok()?;
        let (session, cached_at) = map.get(hash)?;
        (now < cached_at + CACHE_SECONDS && now < session.expires_at).then(|| session.clone())
    }

    fn put(&self, session: &LiveSession, now: i64) {
        if let Ok(mut map) = self.0.write() {
            // Bounded: starting over is cheap and keeps the rule simple.
            if map.len() >= CACHE_MAX_ENTRIES {
                map.clear();
            }
            map.insert(session.token_hash.clone(), (session.clone(), now));
        }
    }

    fn forget(&self, hash: &str) {
        if let Ok(mut map) = self.0.write() {
            map.remove(hash);
        }
    }
}

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
pub async fn resolve(state: &AppState, token: &str) -> AppResult<Option<LiveSession>> {
    if token.len() > 128 {
        return Ok(None);
    }
    let now = state.now();
    let hash = hash_token(token);
    if let Some(hit) = state.sessions.get(&hash, now) {
        return Ok(Some(hit));
    }
    let found = session::Entity::find()
        .filter(session::Column::TokenHash.eq(hash.as_str()))
        .filter(session::Column::RevokedAt.is_null())
        .filter(session::Column::ExpiresAt.gt(now))
        .one(&state.db)
        .await?;
    let live = found.map(|s| LiveSession {
        id: s.id,
        user_id: s.user_id,
        token_hash: s.token_hash,
        expires_at: s.expires_at,
    });
    if let Some(session) = &live {
        state.sessions.put(session, now);
    }
    Ok(live)
}

pub async fn revoke(state: &AppState, session: &LiveSession) -> AppResult<()> {
    state.sessions.forget(&session.token_hash);
    session::Entity::update_many()
        .col_expr(session::Column::RevokedAt, Expr::value(state.now()))
        .filter(session::Column::Id.eq(session.id))
        .filter(session::Column::RevokedAt.is_null())
        .exec(&state.db)
        .await?;
    Ok(())
}
