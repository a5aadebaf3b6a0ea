//! One-time codes. The numbers are client-core's constants; every limit is enforced by a single
//! conditional UPDATE (check and count in one statement), so concurrent requests can never slip
//! past a limit together, on SQLite or PostgreSQL.
//!
//! - A code: 4 digits from the secure random source, stored as HMAC-SHA256(secret, purpose,
//!   address, code), compared in constant time, valid 5 minutes, single use, voided by a newer one.
//! - A code dies after 3 attempts; an address is refused after 10 failed attempts in 24 hours,
//!   whatever codes they were made against.
//! - Sends: one per address per 60 s, 5 per address per hour, 20 per IP per hour.
//! - Guesses spread over many addresses: each client may get 20 codes wrong an hour
//!   (`limits::CODE_GUESSES`); when wrong codes site-wide pass `OTP_GUARD_FAILURES` in 10
//!   minutes, the guard is up until that window ends: every code then needs a captcha answer
//!   when a captcha is configured, else the whole site evaluates at most 5 codes a second,
//!   whoever sends them. The owner of an address whose code was guessed wrong ten times gets an
//!   email (`outbox`).

use client_core::constants::{
    OTP_CODE_LEN, OTP_FAILURE_WINDOW_SECONDS, OTP_MAX_FAILURES_PER_WINDOW, OTP_MAX_SENDS_PER_HOUR,
    OTP_MAX_SENDS_PER_IP_PER_HOUR, OTP_MAX_TRIES_PER_CODE, OTP_RESEND_SECONDS, OTP_TTL_SECONDS,
};
use client_core::envelope::ErrorKind;
use hmac::{Hmac, Mac};
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, Set,
};
use sha2::Sha256;
use subtle::ConstantTimeEq;

use crate::auth::Auth;
use crate::auth::captcha::{self, LOGIN_ACTION};
use crate::config::CaptchaMode;
use crate::ctx::Ctx;
use crate::entity::{otp_code, otp_guard};
use crate::error::{AppError, AppResult};
use crate::limits::{self, Budget};
use crate::outbox;
use crate::time::HOUR;

/// The one bucket of the site-wide budgets.
const SITE: &str = "site";

/// Wrong codes site-wide per 10 minutes before the guard goes up (`OTP_GUARD_FAILURES`).
fn site_failures(auth: &Auth) -> Budget {
    Budget {
        name: "otpsite",
        hits: auth.config.otp_guard_failures,
        window: 600,
    }
}

/// Whether wrong codes site-wide have passed the guard's threshold in the current window.
pub async fn guard_is_up(ctx: &Ctx, auth: &Auth) -> AppResult<bool> {
    limits::exhausted(ctx, site_failures(auth), SITE).await
}

/// What a code is for; part of its hash, so a code for one purpose cannot serve another.
pub const PURPOSE_LOGIN: &str = "login";

/// The key a code is filed under: `email:a@b.co`, `phone:886-912345678`.
pub fn address(kind: &str, identifier: &str) -> String {
    format!("{kind}:{identifier}")
}

fn code_hash(secret: &[u8], purpose: &str, address: &str, code: &str) -> String {
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(secret).expect("HMAC takes any key length");
    for part in [purpose, address, code] {
        mac.update(part.as_bytes());
        mac.update(&[0]);
    }
    hex::encode(mac.finalize().into_bytes())
}

async fn guard(ctx: &Ctx, address: &str) -> AppResult<otp_guard::Model> {
    let fresh = otp_guard::ActiveModel {
        address: Set(address.to_owned()),
        window_start: Set(ctx.now()),
        failures: Set(0),
        last_sent_at: Set(0),
    };
    otp_guard::Entity::insert(fresh)
        .on_conflict(
            OnConflict::column(otp_guard::Column::Address)
                .do_nothing()
                .to_owned(),
        )
        .do_nothing()
        .exec(&ctx.db)
        .await?;
    // Start a new 24 h window once the old one has passed.
    otp_guard::Entity::update_many()
        .col_expr(otp_guard::Column::Failures, Expr::value(0))
        .col_expr(otp_guard::Column::WindowStart, Expr::value(ctx.now()))
        .filter(otp_guard::Column::Address.eq(address))
        .filter(otp_guard::Column::WindowStart.lte(ctx.now() - OTP_FAILURE_WINDOW_SECONDS))
        .exec(&ctx.db)
        .await?;
    otp_guard::Entity::find_by_id(address.to_owned())
        .one(&ctx.db)
        .await?
        .ok_or_else(|| AppError::internal("otp guard row vanished"))
}

fn locked_out(ctx: &Ctx, guard: &otp_guard::Model) -> AppError {
    let until = guard.window_start + OTP_FAILURE_WINDOW_SECONDS;
    AppError::new(ErrorKind::TooManyAttempts).retry_after(until - ctx.now())
}

/// Creates a code for `address` and returns it for sending. `ip` is the requester's address.
pub async fn issue(
    ctx: &Ctx,
    auth: &Auth,
    address: &str,
    purpose: &str,
    ip: &str,
) -> AppResult<String> {
    let now = ctx.now();
    let since = now - HOUR;
    let sent_from_ip = otp_code::Entity::find()
        .filter(otp_code::Column::Ip.eq(ip))
        .filter(otp_code::Column::CreatedAt.gt(since))
        .count(&ctx.db)
        .await?;
    if sent_from_ip >= OTP_MAX_SENDS_PER_IP_PER_HOUR as u64 {
        return Err(AppError::new(ErrorKind::RateLimited).retry_after(HOUR));
    }
    let recent = otp_code::Entity::find()
        .filter(otp_code::Column::Address.eq(address))
        .filter(otp_code::Column::CreatedAt.gt(since))
        .order_by_asc(otp_code::Column::CreatedAt)
        .all(&ctx.db)
        .await?;
    if recent.len() as i64 >= OTP_MAX_SENDS_PER_HOUR {
        let oldest = recent.first().map_or(now, |c| c.created_at);
        return Err(AppError::new(ErrorKind::ResendTooSoon).retry_after(oldest + HOUR - now));
    }
    let guard = guard(ctx, address).await?;
    if i64::from(guard.failures) >= OTP_MAX_FAILURES_PER_WINDOW {
        return Err(locked_out(ctx, &guard));
    }
    // The 60 s gate: only one request can move `last_sent_at` forward.
    let gate = otp_guard::Entity::update_many()
        .col_expr(otp_guard::Column::LastSentAt, Expr::value(now))
        .filter(otp_guard::Column::Address.eq(address))
        .filter(otp_guard::Column::LastSentAt.lte(now - OTP_RESEND_SECONDS))
        .exec(&ctx.db)
        .await?;
    if gate.rows_affected == 0 {
        let wait = guard.last_sent_at + OTP_RESEND_SECONDS - now;
        return Err(AppError::new(ErrorKind::ResendTooSoon).retry_after(wait));
    }
    // A new code voids every older one for the same address and purpose.
    otp_code::Entity::update_many()
        .col_expr(otp_code::Column::Spent, Expr::value(true))
        .filter(otp_code::Column::Address.eq(address))
        .filter(otp_code::Column::Purpose.eq(purpose))
        .filter(otp_code::Column::Spent.eq(false))
        .exec(&ctx.db)
        .await?;
    let code = ctx.random.digits(OTP_CODE_LEN);
    otp_code::ActiveModel {
        address: Set(address.to_owned()),
        purpose: Set(purpose.to_owned()),
        code_hash: Set(code_hash(&auth.secret, purpose, address, &code)),
        ip: Set(ip.to_owned()),
        created_at: Set(now),
        expires_at: Set(now + OTP_TTL_SECONDS),
        tries: Set(0),
        spent: Set(false),
        ..Default::default()
    }
    .insert(&ctx.db)
    .await?;
    Ok(code)
}

/// Lets a later send go through at once (after the code could not be delivered).
pub async fn release_send_gate(ctx: &Ctx, address: &str) -> AppResult<()> {
    otp_guard::Entity::update_many()
        .col_expr(otp_guard::Column::LastSentAt, Expr::value(0))
        .filter(otp_guard::Column::Address.eq(address))
        .exec(&ctx.db)
        .await?;
    otp_code::Entity::update_many()
        .col_expr(otp_code::Column::Spent, Expr::value(true))
        .filter(otp_code::Column::Address.eq(address))
        .filter(otp_code::Column::Spent.eq(false))
        .exec(&ctx.db)
        .await?;
    Ok(())
}

/// Moves the address's failure count by `delta` (+1 claims an attempt, -1 gives it back).
async fn count_attempt(ctx: &Ctx, address: &str, delta: i32) -> AppResult<bool> {
    let mut update = otp_guard::Entity::update_many()
        .col_expr(
            otp_guard::Column::Failures,
            Expr::col(otp_guard::Column::Failures).add(delta),
        )
        .filter(otp_guard::Column::Address.eq(address));
    if delta > 0 {
        update = update.filter(otp_guard::Column::Failures.lt(OTP_MAX_FAILURES_PER_WINDOW as i32));
    }
    Ok(update.exec(&ctx.db).await?.rows_affected == 1)
}

/// A sign-in code as a client sends it.
pub struct Attempt<'a> {
    pub address: &'a str,
    pub purpose: &'a str,
    pub code: &'a str,
    /// Who sends it (`client_addr`) and in which language its owner is written to.
    pub client: &'a str,
    pub locale: &'a str,
    /// A captcha answer (action `otplogin`): needed only while the guard is up.
    pub captcha_token: Option<&'a str>,
}

/// Checks an attempt; on success the code is spent and cannot be used again.
pub async fn verify(ctx: &Ctx, auth: &Auth, attempt: &Attempt<'_>) -> AppResult<()> {
    let Attempt {
        address,
        purpose,
        code,
        client,
        locale,
        captcha_token,
    } = *attempt;
    let now = ctx.now();
    let live = otp_code::Entity::find()
        .filter(otp_code::Column::Address.eq(address))
        .filter(otp_code::Column::Purpose.eq(purpose))
        .filter(otp_code::Column::Spent.eq(false))
        .order_by_desc(otp_code::Column::Id)
        .one(&ctx.db)
        .await?;
    let Some(live) = live.filter(|c| c.expires_at > now) else {
        return Err(AppError::new(ErrorKind::CodeExpired));
    };
    if guard_is_up(ctx, auth).await? {
        if auth.config.captcha == CaptchaMode::None {
            limits::spend(ctx, limits::GUARDED_VERIFICATIONS, SITE).await?;
        } else {
            captcha::verify(auth, LOGIN_ACTION, captcha_token, client).await?;
        }
    }
    limits::spend(ctx, limits::CODE_GUESSES, client).await?;
    // Any answer but a wrong code gives the client's unit back.
    let judged = judge(ctx, auth, &live, address, purpose, code).await;
    let wrong = matches!(&judged, Err(e) if e.kind == ErrorKind::InvalidCode);
    if !wrong {
        limits::refund(ctx, limits::CODE_GUESSES, client).await?;
        return judged;
    }
    // Counting stops at the threshold; the guard stays up for the rest of its window.
    let _ = limits::spend(ctx, site_failures(auth), SITE).await;
    if let Some(email) = address.strip_prefix("email:") {
        // Only the wrong code that brought the address to its limit finds it exactly there.
        let failures = otp_guard::Entity::find_by_id(address.to_owned())
            .one(&ctx.db)
            .await?
            .map_or(0, |g| g.failures);
        if i64::from(failures) == OTP_MAX_FAILURES_PER_WINDOW {
            outbox::enqueue_guess_alert(ctx, email, locale).await?;
        }
    }
    judged
}

/// The address's and the code's attempts claimed, then the code compared.
async fn judge(
    ctx: &Ctx,
    auth: &Auth,
    live: &otp_code::Model,
    address: &str,
    purpose: &str,
    code: &str,
) -> AppResult<()> {
    let now = ctx.now();
    let guard = guard(ctx, address).await?;
    if !count_attempt(ctx, address, 1).await? {
        return Err(locked_out(ctx, &guard));
    }
    // Claim one of the code's attempts; a dead, spent or expired code has none left.
    let claimed = otp_code::Entity::update_many()
        .col_expr(
            otp_code::Column::Tries,
            Expr::col(otp_code::Column::Tries).add(1),
        )
        .filter(otp_code::Column::Id.eq(live.id))
        .filter(otp_code::Column::Spent.eq(false))
        .filter(otp_code::Column::Tries.lt(OTP_MAX_TRIES_PER_CODE))
        .filter(otp_code::Column::ExpiresAt.gt(now))
        .exec(&ctx.db)
        .await?;
    if claimed.rows_affected == 0 {
        count_attempt(ctx, address, -1).await?;
        return Err(AppError::new(ErrorKind::TooManyAttempts)
            .with_message("This code can no longer be used, please request a new one"));
    }
    let expected = code_hash(&auth.secret, purpose, address, code);
    if !bool::from(expected.as_bytes().ct_eq(live.code_hash.as_bytes())) {
        return Err(AppError::new(ErrorKind::InvalidCode));
    }
    let spent = otp_code::Entity::update_many()
        .col_expr(otp_code::Column::Spent, Expr::value(true))
        .filter(otp_code::Column::Id.eq(live.id))
        .filter(otp_code::Column::Spent.eq(false))
        .exec(&ctx.db)
        .await?;
    if spent.rows_affected == 0 {
        return Err(AppError::new(ErrorKind::CodeExpired));
    }
    // A right code is not a failure: give the attempt back.
    count_attempt(ctx, address, -1).await?;
    Ok(())
}
