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
pub mod subject;
pub mod votes;

use crate::ctx::Ctx;
use crate::error::AppResult;
use crate::extract::{ClientMeta, CurrentUser};
use crate::limits::{self, Budget};

/// Spends one write of `budget` for the user and one of the shared per-client budget, so many
/// accounts behind one client cannot add up past what one client may do.
pub async fn spend_write(
    ctx: &Ctx,
    user: &CurrentUser,
    client: &ClientMeta,
    budget: Budget,
) -> AppResult<()> {
    limits::spend(ctx, budget, &format!("u:{}", user.user_id)).await?;
    limits::spend(ctx, limits::SOCIAL_WRITES_PER_CLIENT, &client.ip).await
}

/// Runs `write` on one write of `budget` (as `spend_write`), given back to the user when the
/// write is refused: a day's few posts or questions are not lost to a duplicate or a typo.
pub async fn spend_daily_write<T>(
    ctx: &Ctx,
    user: &CurrentUser,
    client: &ClientMeta,
    budget: Budget,
    write: impl Future<Output = AppResult<T>>,
) -> AppResult<T> {
    spend_write(ctx, user, client, budget).await?;
    let done = write.await;
    if done.is_err() {
        limits::refund(ctx, budget, &format!("u:{}", user.user_id)).await?;
    }
    done
}

/// The budget a user's writing spends: `new_account`'s for accounts younger than a day, else
/// `settled`'s (a new account is where spam comes from).
pub async fn budget_by_age(
    ctx: &Ctx,
    user_id: i64,
    settled: Budget,
    new_account: Budget,
) -> AppResult<Budget> {
    let joined = crate::auth::users::get(ctx, user_id).await?.created_at;
    Ok(if ctx.now() - joined < crate::time::DAY {
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
