//! Per-client budgets for what anyone may ask without signing in.
//!
//! Requests that store something (a guest session, a sign-in message, a tracking batch) spend a
//! budget kept in the database: one conditional UPDATE checks and counts, so concurrent requests
//! cannot pass a limit together and the budget holds across servers and restarts. Search, which
//! writes nothing, spends the same kind of budget a few searches at a time (`SearchLimiter`), so
//! most searches never wait on a write and the budget still holds across servers.

use std::collections::HashMap;

use client_core::envelope::ErrorKind;
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, Set};

use crate::ctx::Ctx;
use crate::entity::rate_limit;
use crate::error::{AppError, AppResult};
use crate::time::{DAY, HOUR};

const MINUTE: i64 = 60;

/// How many requests of one kind a client may make per window.
/// A window is at most [`LONGEST_WINDOW`].
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    pub name: &'static str,
    pub hits: i32,
    pub window: i64,
}

/// Guest tokens: a browser keeps its token, so even a household behind one address needs few.
pub const GUEST_TOKENS: Budget = Budget {
    name: "gtoken",
    hits: 30,
    window: HOUR,
};
/// Sign-In with Ethereum messages (each stores a nonce).
pub const WALLET_MESSAGES: Budget = Budget {
    name: "siwe",
    hits: 30,
    window: HOUR,
};
/// OAuth and Apple starts (each stores a state).
pub const SIGN_IN_STARTS: Budget = Budget {
    name: "signin",
    hits: 30,
    window: HOUR,
};
/// Wrong sign-in codes per client, across every address (a right code gives its unit back):
/// a person mistypes a few; a client guessing over many addresses is stopped here.
pub const CODE_GUESSES: Budget = Budget {
    name: "otpguess",
    hits: 20,
    window: HOUR,
};
/// Verifications the whole site evaluates per second while its guard is up (`auth::otp`).
pub const GUARDED_VERIFICATIONS: Budget = Budget {
    name: "otpguarded",
    hits: 5,
    window: 1,
};
/// Image uploads (a failed one counts too: it still took a slot).
pub const UPLOADS: Budget = Budget {
    name: "upload",
    hits: 30,
    window: HOUR,
};
/// Edits of one post a day (`p:<id>`), whoever makes them: its history stays small.
pub const POST_EDITS: Budget = Budget {
    name: "postedit",
    hits: 20,
    window: DAY,
};
/// Feedback per client, and per user or guest token (`u:<id>`, `g:<id>`).
pub const FEEDBACK_PER_CLIENT: Budget = Budget {
    name: "feedback",
    hits: 10,
    window: HOUR,
};
pub const FEEDBACK_PER_SENDER: Budget = Budget {
    name: "feedbacksender",
    hits: 5,
    window: HOUR,
};
/// Tracking batches: the web client sends one every few seconds while a reader is active.
pub const TRACK_BATCHES: Budget = Budget {
    name: "track",
    hits: 120,
    window: MINUTE,
};

/// Alert rules added, changed or deleted per user.
pub const ALERT_WRITES: Budget = Budget {
    name: "alert",
    hits: 60,
    window: HOUR,
};

/// Browsers subscribed, unsubscribed and test notifications per user.
pub const PUSH_WRITES: Budget = Budget {
    name: "push",
    hits: 30,
    window: HOUR,
};

/// Unsubscribe presses from alert emails per client address (signed out, so by address).
pub const UNSUBSCRIBES: Budget = Budget {
    name: "unsubscribe",
    hits: 30,
    window: HOUR,
};

/// Exchange postbacks per client address (checked by signature, limited before that).
pub const EXCHANGE_POSTBACKS: Budget = Budget {
    name: "exchange-postback",
    hits: 600,
    window: MINUTE,
};

/// Telegram link codes per user (each stores a code).
pub const BOT_LINK_CODES: Budget = Budget {
    name: "botlink",
    hits: 10,
    window: HOUR,
};

/// Stream tickets per reader (one per connection an `EventSource` opens).
pub const STREAM_TICKETS: Budget = Budget {
    name: "streamticket",
    hits: 120,
    window: HOUR,
};

/// Likes and unlikes per user.
pub const LIKES: Budget = Budget {
    name: "like",
    hits: 60,
    window: MINUTE,
};

/// Votes set or cleared per user.
pub const VOTES: Budget = Budget {
    name: "vote",
    hits: 60,
    window: MINUTE,
};

/// Comments per user; accounts younger than a day get the tighter budget.
pub const COMMENTS: Budget = Budget {
    name: "comment",
    hits: 10,
    window: 10 * MINUTE,
};
pub const NEW_ACCOUNT_COMMENTS: Budget = Budget {
    name: "commentnew",
    hits: 3,
    window: 10 * MINUTE,
};
/// Edits and deletions of one's own comments.
pub const COMMENT_CHANGES: Budget = Budget {
    name: "commentchange",
    hits: 30,
    window: 10 * MINUTE,
};
/// Reports per user.
pub const REPORTS: Budget = Budget {
    name: "report",
    hits: 20,
    window: HOUR,
};
/// Favorites, history, blocks and read marks per user: private bookkeeping, generous.
pub const KEEPING: Budget = Budget {
    name: "keep",
    hits: 120,
    window: MINUTE,
};
/// Profile changes per user (a nickname is a name others mention).
pub const PROFILE_UPDATES: Budget = Budget {
    name: "profile",
    hits: 10,
    window: HOUR,
};
/// Questions per user a day (accounts younger than a day get the tighter budget), and answers
/// (with their edits) an hour.
pub const QUESTIONS: Budget = Budget {
    name: "question",
    hits: 10,
    window: DAY,
};
pub const NEW_ACCOUNT_QUESTIONS: Budget = Budget {
    name: "questionnew",
    hits: 3,
    window: DAY,
};
pub const ANSWERS: Budget = Budget {
    name: "answer",
    hits: 20,
    window: HOUR,
};
/// Posts per user a day; accounts younger than a day get the tighter budget. Edits and
/// deletions of one's posts spend `POST_CHANGES`.
pub const POSTS: Budget = Budget {
    name: "post",
    hits: 5,
    window: DAY,
};
pub const NEW_ACCOUNT_POSTS: Budget = Budget {
    name: "postnew",
    hits: 1,
    window: DAY,
};
pub const POST_CHANGES: Budget = Budget {
    name: "postchange",
    hits: 30,
    window: HOUR,
};
/// Follows and unfollows per user (tags, tokens, topics, KOLs and people).
pub const FOLLOWS: Budget = Budget {
    name: "follow",
    hits: 300,
    window: HOUR,
};
/// Every conversation write from one client, whichever account: many accounts behind one
/// client cannot add up past it.
pub const SOCIAL_WRITES_PER_CLIENT: Budget = Budget {
    name: "socialclient",
    hits: 600,
    window: MINUTE,
};

/// The row `client`'s spending of `budget` is kept in.
fn bucket(budget: Budget, client: &str) -> String {
    format!("{}:{client}", budget.name)
}

/// Spends one request of `budget` for `client`, or answers 429 with when the window frees up.
pub async fn spend(ctx: &Ctx, budget: Budget, client: &str) -> AppResult<()> {
    spend_units(ctx, budget, client, 1).await
}

/// Spends `units` requests of `budget` for `client` at once, or none.
async fn spend_units(ctx: &Ctx, budget: Budget, client: &str, units: i32) -> AppResult<()> {
    let now = ctx.now();
    let bucket = bucket(budget, client);
    let fresh = rate_limit::ActiveModel {
        bucket: Set(bucket.clone()),
        window_start: Set(now),
        hits: Set(0),
    };
    rate_limit::Entity::insert(fresh)
        .on_conflict(
            OnConflict::column(rate_limit::Column::Bucket)
                .do_nothing()
                .to_owned(),
        )
        .do_nothing()
        .exec(&ctx.db)
        .await?;
    rate_limit::Entity::update_many()
        .col_expr(rate_limit::Column::Hits, Expr::value(0))
        .col_expr(rate_limit::Column::WindowStart, Expr::value(now))
        .filter(rate_limit::Column::Bucket.eq(bucket.as_str()))
        .filter(rate_limit::Column::WindowStart.lte(now - budget.window))
        .exec(&ctx.db)
        .await?;
    let spent = rate_limit::Entity::update_many()
        .col_expr(
            rate_limit::Column::Hits,
            Expr::col(rate_limit::Column::Hits).add(units),
        )
        .filter(rate_limit::Column::Bucket.eq(bucket.as_str()))
        .filter(rate_limit::Column::Hits.lte(budget.hits - units))
        .exec(&ctx.db)
        .await?;
    if spent.rows_affected == 1 {
        return Ok(());
    }
    let window_start = rate_limit::Entity::find_by_id(bucket)
        .one(&ctx.db)
        .await?
        .map_or(now, |row| row.window_start);
    Err(AppError::new(ErrorKind::RateLimited)
        .retry_after((window_start + budget.window - now).max(1)))
}

/// Gives back one unit spent by [`spend`] (the request turned out not to count).
pub async fn refund(ctx: &Ctx, budget: Budget, client: &str) -> AppResult<()> {
    rate_limit::Entity::update_many()
        .col_expr(
            rate_limit::Column::Hits,
            Expr::col(rate_limit::Column::Hits).sub(1),
        )
        .filter(rate_limit::Column::Bucket.eq(bucket(budget, client)))
        .filter(rate_limit::Column::Hits.gt(0))
        .exec(&ctx.db)
        .await?;
    Ok(())
}

/// Whether `client` has spent all of `budget` in the current window.
pub async fn exhausted(ctx: &Ctx, budget: Budget, client: &str) -> AppResult<bool> {
    let row = rate_limit::Entity::find_by_id(bucket(budget, client))
        .one(&ctx.db)
        .await?;
    Ok(row.is_some_and(|r| r.hits >= budget.hits && r.window_start > ctx.now() - budget.window))
}

/// No budget's window is longer than this; a row older is worth nothing.
const LONGEST_WINDOW: i64 = DAY;

/// Budget rows whose window has passed are worth nothing: the cleanup job removes them.
pub async fn forget_spent(ctx: &Ctx) -> AppResult<u64> {
    let removed = rate_limit::Entity::delete_many()
        .filter(rate_limit::Column::WindowStart.lte(ctx.now() - LONGEST_WINDOW))
        .exec(&ctx.db)
        .await?;
    Ok(removed.rows_affected)
}

/// Searches per client on this server: a burst of 20, then 5 a second.
/// Searches per client, on every server together: a burst of 20, 5 a second on average.
pub const SEARCHES: Budget = Budget {
    name: "search",
    hits: 20,
    window: 4,
};
/// Searches a server takes from a client's budget at once (a divisor of `SEARCHES.hits`, so
/// servers that share a client's searches use all of its budget and no more).
const SEARCH_LEASE: i32 = 5;

/// What each server holds of its searchers' budgets: searches taken from the shared budget and
/// not yet made, until that budget's window ends.
#[derive(Default)]
pub struct SearchLimiter(std::sync::Mutex<HashMap<String, Lease>>);

struct Lease {
    left: i32,
    until: i64,
}

impl SearchLimiter {
    /// Spends one search of `client`'s: from what this server holds, or a new lease of
    /// [`SEARCH_LEASE`] from the shared budget (429 with the wait when it is spent).
    pub async fn check(&self, ctx: &Ctx, client: &str) -> AppResult<()> {
        let now = ctx.now();
        if let Ok(mut leases) = self.0.lock()
            && let Some(lease) = leases.get_mut(client)
            && lease.left > 0
            && lease.until > now
        {
            lease.left -= 1;
            return Ok(());
        }
        spend_units(ctx, SEARCHES, client, SEARCH_LEASE).await?;
        let lease = Lease {
            left: SEARCH_LEASE - 1,
            until: now + SEARCHES.window,
        };
        if let Ok(mut leases) = self.0.lock() {
            leases.insert(client.to_owned(), lease);
        }
        Ok(())
    }

    /// Drops leases whose window has ended, so the map holds only recent searchers.
    pub fn forget_idle(&self, now: i64) {
        if let Ok(mut leases) = self.0.lock() {
            leases.retain(|_, lease| lease.until > now);
        }
    }
}
