//! Guest and user tokens: 256 random bits, handed out once; only their SHA-256 is stored, so a
//! database leak gives no usable token. A new token on every sign-in. A guest token lives 30 days
//! from its last use; a user token 30 days from sign-in.
//!
//! Live sessions are cached in memory for [`CACHE_SECONDS`] so an authenticated read costs one
//! query, not two; the cache drops its least recently used entries when full, so a flood of new
//! guest tokens cannot push out the readers in use. A sign-out drops the entry at once here and,
//! on PostgreSQL, on every other server through the events' `NOTIFY` (`Event::SignedOut`).

use std::num::NonZeroUsize;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use lru::LruCache;
use sea_orm::sea_query::Expr;
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, QuerySelect, Set};
use sha2::{Digest, Sha256};

use crate::auth::Auth;
use crate::ctx::Ctx;
use crate::entity::{session, user};
use crate::error::{AppError, AppResult};
use crate::events::Event;
use crate::time::DAY;

pub const USER_TOKEN_TTL_SECONDS: i64 = 30 * 24 * 3600;
pub const GUEST_TOKEN_TTL_SECONDS: i64 = 30 * 24 * 3600;
/// A guest token's life is renewed at most once per this long, so reads rarely write.
const GUEST_RENEW_STEP_SECONDS: i64 = DAY;
const TOKEN_BYTES: usize = 32;
pub const CACHE_SECONDS: i64 = 30;
const CACHE_MAX_ENTRIES: usize = 100_000;
/// A session as the request pipeline needs it, with what of its reader every page asks (so a
/// signed-in page reads no user row): a change of the reader's settings forgets it
/// ([`forget_users_sessions`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveSession {
    pub id: i64,
    pub user_id: Option<i64>,
    pub token_hash: String,
    pub expires_at: i64,
    /// The reader's "translate automatically" setting (on for guests).
    pub auto_translate: bool,
}

/// Live sessions by token hash, with when each was read.
///
/// `forgotten` counts removals: a read that began before a removal does not put its answer in,
/// so a sign-out racing a request cannot bring the revoked session back.
pub struct SessionCache {
    entries: Mutex<LruCache<String, (LiveSession, i64)>>,
    forgotten: AtomicU64,
}

impl Default for SessionCache {
    fn default() -> Self {
        Self::with_capacity(CACHE_MAX_ENTRIES)
    }
}

impl SessionCache {
    pub fn with_capacity(capacity: usize) -> Self {
        Self {
            entries: Mutex::new(LruCache::new(
                NonZeroUsize::new(capacity).unwrap_or(NonZeroUsize::MIN),
            )),
            forgotten: AtomicU64::new(0),
        }
    }

    fn get(&self, hash: &str, now: i64) -> Option<LiveSession> {
        let mut entries = self.entries.lock().ok()?;
        let (session, cached_at) = entries.get(hash)?;
        (now < cached_at + CACHE_SECONDS && now < session.expires_at).then(|| session.clone())
    }

    /// A mark to take before reading a session from the database, for [`Self::put`].
    fn mark(&self) -> u64 {
        self.forgotten.load(Ordering::SeqCst)
    }

    fn put(&self, session: &LiveSession, now: i64, mark: u64) {
        if let Ok(mut entries) = self.entries.lock() {
            // Under the lock, so no removal can slip between the check and the insert.
            if self.forgotten.load(Ordering::SeqCst) == mark {
                entries.put(session.token_hash.clone(), (session.clone(), now));
            }
        }
    }

    /// Whether `hash` is cached (for tests of eviction).
    pub fn contains(&self, hash: &str) -> bool {
        self.entries.lock().is_ok_and(|e| e.contains(hash))
    }

    /// Runs a removal under the lock, counted so no read begun before it can refill the cache.
    fn remove(&self, removal: impl FnOnce(&mut LruCache<String, (LiveSession, i64)>)) {
        if let Ok(mut entries) = self.entries.lock() {
            self.forgotten.fetch_add(1, Ordering::SeqCst);
            removal(&mut entries);
        }
    }

    fn forget(&self, hash: &str) {
        self.remove(|entries| {
            entries.pop(hash);
        });
    }

    /// Every cached session of a user: the one removal that has to look at every entry.
    fn forget_user(&self, user_id: i64) {
        self.remove(|entries| {
            let doomed: Vec<String> = entries
                .iter()
                .filter(|(_, (session, _))| session.user_id == Some(user_id))
                .map(|(hash, _)| hash.clone())
                .collect();
            for hash in doomed {
                entries.pop(&hash);
            }
        });
    }

    /// Applies a sign-out announced by any server; forgets everything when one may have been
    /// missed (the listening connection was lost).
    pub fn heard(&self, event: &Event) {
        match event {
            Event::SignedOut(sessions) => {
                match sessions.strip_prefix("user:").map(str::parse::<i64>) {
                    Some(Ok(user_id)) => self.forget_user(user_id),
                    Some(Err(_)) => self.remove(LruCache::clear),
                    None => self.forget(sessions),
                }
            }
            Event::Missed => self.remove(LruCache::clear),
            _ => {}
        }
    }
}

pub fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// A new token for a user, or for a guest when `user_id` is `None`.
pub async fn issue(ctx: &Ctx, user_id: Option<i64>) -> AppResult<String> {
    let mut bytes = [0u8; TOKEN_BYTES];
    ctx.random.fill(&mut bytes);
    let token = URL_SAFE_NO_PAD.encode(bytes);
    let now = ctx.now();
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
    .insert(&ctx.db)
    .await?;
    Ok(token)
}

/// The live session a token stands for: not revoked, not expired.
pub async fn resolve(ctx: &Ctx, auth: &Auth, token: &str) -> AppResult<Option<LiveSession>> {
    if token.len() > 128 {
        return Ok(None);
    }
    let now = ctx.now();
    let hash = hash_token(token);
    if let Some(hit) = auth.sessions.get(&hash, now) {
        return Ok(Some(hit));
    }
    let mark = auth.sessions.mark();
    let found = session::Entity::find()
        .filter(session::Column::TokenHash.eq(hash.as_str()))
        .filter(session::Column::RevokedAt.is_null())
        .filter(session::Column::ExpiresAt.gt(now))
        .one(&ctx.db)
        .await?;
    let Some(found) = found else {
        return Ok(None);
    };
    let auto_translate = match found.user_id {
        Some(user_id) => user::Entity::find_by_id(user_id)
            .select_only()
            .column(user::Column::AutoTranslate)
            .into_tuple::<bool>()
            .one(&ctx.db)
            .await?
            .unwrap_or(true),
        None => true,
    };
    let mut live = LiveSession {
        id: found.id,
        user_id: found.user_id,
        token_hash: found.token_hash,
        expires_at: found.expires_at,
        auto_translate,
    };
    if live.user_id.is_none()
        && live.expires_at < now + GUEST_TOKEN_TTL_SECONDS - GUEST_RENEW_STEP_SECONDS
    {
        live.expires_at = now + GUEST_TOKEN_TTL_SECONDS;
        session::Entity::update_many()
            .col_expr(session::Column::ExpiresAt, Expr::value(live.expires_at))
            .filter(session::Column::Id.eq(live.id))
            .exec(&ctx.db)
            .await?;
    }
    auth.sessions.put(&live, now, mark);
    Ok(Some(live))
}

/// A reader's settings changed: their cached sessions go, here and on every other server, so
/// the next request reads them again.
pub async fn forget_users_sessions(ctx: &Ctx, user_id: i64) -> AppResult<()> {
    announce(ctx, &format!("user:{user_id}")).await
}

/// Signs one session out, here and on every other server.
pub async fn revoke(ctx: &Ctx, session: &LiveSession) -> AppResult<()> {
    session::Entity::update_many()
        .col_expr(session::Column::RevokedAt, Expr::value(ctx.now()))
        .filter(session::Column::Id.eq(session.id))
        .filter(session::Column::RevokedAt.is_null())
        .exec(&ctx.db)
        .await?;
    announce(ctx, &session.token_hash).await
}

/// Signs every session of a user out ("sign out everywhere"); returns how many were live.
pub async fn revoke_all(ctx: &Ctx, user_id: i64) -> AppResult<u64> {
    let revoked = session::Entity::update_many()
        .col_expr(session::Column::RevokedAt, Expr::value(ctx.now()))
        .filter(session::Column::UserId.eq(user_id))
        .filter(session::Column::RevokedAt.is_null())
        .filter(session::Column::ExpiresAt.gt(ctx.now()))
        .exec(&ctx.db)
        .await?;
    forget_users_sessions(ctx, user_id).await?;
    Ok(revoked.rows_affected)
}

/// Tells this server's session cache (a listener of the events) and the other servers sharing
/// this PostgreSQL database, before the sign-out answers; SQLite has no other servers.
async fn announce(ctx: &Ctx, payload: &str) -> AppResult<()> {
    let signed_out = Event::SignedOut(payload.to_owned());
    ctx.events
        .publish_told(&signed_out)
        .await
        .map_err(AppError::internal)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(hash: &str, user_id: Option<i64>) -> LiveSession {
        LiveSession {
            id: 1,
            user_id,
            token_hash: hash.to_owned(),
            expires_at: i64::MAX,
            auto_translate: true,
        }
    }

    #[test]
    fn the_least_recently_used_entry_goes_first() {
        let cache = SessionCache::with_capacity(2);
        cache.put(&session("reader", Some(1)), 0, cache.mark());
        cache.put(&session("guest-1", None), 0, cache.mark());
        assert!(cache.get("reader", 1).is_some());
        cache.put(&session("guest-2", None), 0, cache.mark());
        assert!(cache.contains("reader"), "the reader in use stays");
        assert!(!cache.contains("guest-1"));
        assert!(cache.contains("guest-2"));
    }

    #[test]
    fn a_read_that_began_before_a_sign_out_is_not_cached() {
        let cache = SessionCache::default();
        let mark = cache.mark();
        cache.forget("token");
        cache.put(&session("token", Some(1)), 0, mark);
        assert!(!cache.contains("token"));
        cache.put(&session("token", Some(1)), 0, cache.mark());
        assert!(cache.contains("token"));
    }

    #[test]
    fn announcements_forget_a_token_or_every_token_of_a_user() {
        let cache = SessionCache::default();
        for (hash, user) in [("a", 1), ("b", 1), ("c", 2)] {
            cache.put(&session(hash, Some(user)), 0, cache.mark());
        }
        let signed_out = |sessions: &str| Event::SignedOut(sessions.to_owned());
        cache.heard(&signed_out("c"));
        assert!(!cache.contains("c") && cache.contains("a"));
        cache.heard(&signed_out("user:1"));
        assert!(!cache.contains("a") && !cache.contains("b"));
        cache.put(&session("d", Some(3)), 0, cache.mark());
        cache.heard(&signed_out("user:x"));
        assert!(
            !cache.contains("d"),
            "an unreadable announcement forgets everything"
        );
        cache.put(&session("e", Some(4)), 0, cache.mark());
        cache.heard(&Event::Missed);
        assert!(
            !cache.contains("e"),
            "a missed announcement forgets everything"
        );
    }
}
