//! What readers do with the news beyond reading it: likes, comments, favorites, reading
//! history, messages, and what keeps abuse out (blocks, reports, bans, limits).

pub mod blocks;
pub mod comments;
pub mod favorites;
pub mod history;
pub mod likes;
pub mod marks;
pub mod messages;
pub mod moderation;

use std::collections::HashMap;

use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter};
use serde::Serialize;

use crate::entity::user;
use crate::error::AppResult;
use crate::extract::{ClientMeta, CurrentUser};
use crate::limits::{self, Budget};
use crate::state::AppState;

/// Another reader as conversations show them.
#[derive(schemars::JsonSchema, Debug, Clone, Serialize, ts_rs::TS)]
pub struct UserRef {
    pub id: i64,
    pub nickname: String,
    pub avatar: String,
}

impl From<user::Model> for UserRef {
    fn from(u: user::Model) -> Self {
        Self {
            id: u.id,
            nickname: u.nickname,
            avatar: u.avatar,
        }
    }
}

/// The readers with these ids, in one query.
pub async fn users_by_id(
    db: &impl ConnectionTrait,
    ids: impl IntoIterator<Item = i64>,
) -> AppResult<HashMap<i64, UserRef>> {
    let mut ids: Vec<i64> = ids.into_iter().collect();
    ids.sort_unstable();
    ids.dedup();
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    Ok(user::Entity::find()
        .filter(user::Column::Id.is_in(ids))
        .all(db)
        .await?
        .into_iter()
        .map(|u| (u.id, UserRef::from(u)))
        .collect())
}

/// Spends one write of `budget` for the user and one of the shared per-client budget, so many
/// accounts behind one client cannot add up past what one client may do.
pub async fn spend_write(
    state: &AppState,
    user: &CurrentUser,
    client: &ClientMeta,
    budget: Budget,
) -> AppResult<()> {
    limits::spend(state, budget, &format!("u:{}", user.user_id)).await?;
    limits::spend(state, limits::SOCIAL_WRITES_PER_CLIENT, &client.ip).await
}

/// Runs `write` on one write of `budget` (as `spend_write`), given back to the user when the
/// write is refused: a day's few posts or questions are not lost to a duplicate or a typo.
pub async fn spend_daily_write<T>(
    state: &AppState,
    user: &CurrentUser,
    client: &ClientMeta,
    budget: Budget,
    write: impl Future<Output = AppResult<T>>,
) -> AppResult<T> {
    spend_write(state, user, client, budget).await?;
    let done = write.await;
    if done.is_err() {
        limits::refund(state, budget, &format!("u:{}", user.user_id)).await?;
    }
    done
}

/// The budget a user's writing spends: `new_account`'s for accounts younger than a day, else
/// `settled`'s (a new account is where spam comes from).
pub async fn budget_by_age(
    state: &AppState,
    user_id: i64,
    settled: Budget,
    new_account: Budget,
) -> AppResult<Budget> {
    let joined = crate::auth::users::get(state, user_id).await?.created_at;
    Ok(if state.now() - joined < crate::time::DAY {
        new_account
    } else {
        settled
    })
}

/// The first `chars` characters of a text, `…` where it was cut (a message quoting a comment,
/// an untitled post's title, a post's card).
pub fn opening(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some((end, _)) => format!("{}…", text[..end].trim_end()),
        None => text.to_owned(),
    }
}
