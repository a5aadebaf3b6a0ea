//! The background job that removes what has outlived its use: expired and revoked sessions,
//! one-time codes and their guards, wallet nonces, OAuth states, spent budgets, old view marks,
//! mail sent (or given up) a week ago, bot deliveries done a week ago, used or expired bot link
//! codes, Telegram sign-in hashes too old to verify again, tracking entries past their
//! retention, alerts delivered a month ago (`alerts::forget_old`), and uploads never used within
//! a day (`uploads::forget_unused`).
//!
//! Every step is a plain DELETE by age, so several servers running it at once only find less to
//! delete; nothing needs a lock or a leader.

use std::time::Duration;

use client_core::constants::OTP_FAILURE_WINDOW_SECONDS;
use sea_orm::{ColumnTrait, Condition, EntityTrait, QueryFilter};

use crate::alerts;
use crate::auth::telegram;
use crate::content::Content;
use crate::content::feeds;
use crate::ctx::Ctx;
use crate::entity::{
    bot_delivery, bot_link_code, mail_outbox, oauth_state, otp_code, otp_guard, session,
    telegram_login, wallet_nonce,
};
use crate::error::AppResult;
use crate::limits;
use crate::time::DAY;
use crate::track;
use crate::uploads::Uploads;

/// Between two runs on one server.
const EVERY: Duration = Duration::from_secs(600);

/// What one run removed, by kind.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Removed {
    pub sessions: u64,
    pub otp_codes: u64,
    pub otp_guards: u64,
    pub wallet_nonces: u64,
    pub oauth_states: u64,
    pub budgets: u64,
    pub views: u64,
    pub mail: u64,
    pub bot_deliveries: u64,
    pub bot_link_codes: u64,
    pub telegram_logins: u64,
    pub track_logs: u64,
    pub alert_deliveries: u64,
    pub alert_digests: u64,
    pub rankings: u64,
    /// Story fingerprints and index keys no new item can join.
    pub story_prints: u64,
}

/// One pass over every kind.
pub async fn run_once(ctx: &Ctx, track_retention_days: u32) -> AppResult<Removed> {
    let now = ctx.now();
    let db = &ctx.db;
    let sessions = session::Entity::delete_many()
        .filter(
            Condition::any()
                .add(session::Column::ExpiresAt.lte(now))
                // A revoked session is kept a day, so a sign-out stays visible while the
                // caches of every server forget it.
                .add(session::Column::RevokedAt.lte(now - DAY)),
        )
        .exec(db)
        .await?
        .rows_affected;
    // Codes count towards the hourly send limits after they expire: kept a day.
    let otp_codes = otp_code::Entity::delete_many()
        .filter(otp_code::Column::CreatedAt.lte(now - DAY))
        .exec(db)
        .await?
        .rows_affected;
    // A guard whose failure window has passed starts from zero anyway.
    let otp_guards = otp_guard::Entity::delete_many()
        .filter(otp_guard::Column::WindowStart.lte(now - OTP_FAILURE_WINDOW_SECONDS))
        .filter(otp_guard::Column::LastSentAt.lte(now - DAY))
        .exec(db)
        .await?
        .rows_affected;
    let wallet_nonces = wallet_nonce::Entity::delete_many()
        .filter(wallet_nonce::Column::ExpiresAt.lte(now))
        .exec(db)
        .await?
        .rows_affected;
    let oauth_states = oauth_state::Entity::delete_many()
        .filter(oauth_state::Column::ExpiresAt.lte(now))
        .exec(db)
        .await?
        .rows_affected;
    // Sent mail, and mail given up on, is kept a week for the record.
    let mail = mail_outbox::Entity::delete_many()
        .filter(mail_outbox::Column::CreatedAt.lte(now - 7 * DAY))
        .filter(
            Condition::any()
                .add(mail_outbox::Column::SentAt.is_not_null())
                .add(mail_outbox::Column::DueAt.eq(i64::MAX)),
        )
        .exec(db)
        .await?
        .rows_affected;
    // A delivery is queued only when its item is new, so a done one is kept only for the record.
    let bot_deliveries = bot_delivery::Entity::delete_many()
        .filter(bot_delivery::Column::State.ne("queued"))
        .filter(bot_delivery::Column::CreatedAt.lte(now - 7 * DAY))
        .exec(db)
        .await?
        .rows_affected;
    let bot_link_codes = bot_link_code::Entity::delete_many()
        .filter(bot_link_code::Column::ExpiresAt.lte(now))
        .exec(db)
        .await?
        .rows_affected;
    // Signed data older than its maximum age is refused anyway: its hash need not be kept.
    let telegram_logins = telegram_login::Entity::delete_many()
        .filter(telegram_login::Column::SeenAt.lte(now - telegram::MAX_AGE_SECONDS - DAY))
        .exec(db)
        .await?
        .rows_affected;
    let (alert_deliveries, alert_digests) = alerts::forget_old(ctx).await?;
    Ok(Removed {
        sessions,
        otp_codes,
        otp_guards,
        wallet_nonces,
        oauth_states,
        budgets: limits::forget_spent(ctx).await?,
        views: feeds::forget_old_views(ctx).await?,
        mail,
        bot_deliveries,
        bot_link_codes,
        telegram_logins,
        track_logs: track::apply_retention(ctx, track_retention_days).await?,
        alert_deliveries,
        alert_digests,
        rankings: crate::content::ranking::forget_old(ctx).await?,
        story_prints: crate::content::stories::forget_old(ctx).await?,
    })
}

/// Runs the job every ten minutes for as long as the server runs; a failed run is logged and
/// tried again next time.
pub fn spawn(ctx: Ctx, content: Content, uploads: Uploads, track_retention_days: u32) {
    tokio::spawn(async move {
        let mut every = tokio::time::interval(EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            every.tick().await;
            // Bounties whose week is up are settled on the same beat.
            match crate::community::questions::settle_due(&ctx).await {
                Ok(0) => {}
                Ok(n) => tracing::info!(settled = n, "bounties"),
                Err(e) => tracing::warn!("bounty settlement failed: {e}"),
            }
            content.search_limiter.forget_idle(ctx.now());
            match crate::uploads::forget_unused(&ctx, &uploads).await {
                Ok(0) => {}
                Ok(n) => tracing::info!(deleted = n, "unused uploads"),
                Err(e) => tracing::warn!("deleting unused uploads failed: {e}"),
            }
            match run_once(&ctx, track_retention_days).await {
                Ok(removed) if removed != Removed::default() => {
                    tracing::info!(?removed, "cleanup");
                }
                Ok(_) => {}
                Err(e) => tracing::warn!("cleanup failed: {e}"),
            }
        }
    });
}
