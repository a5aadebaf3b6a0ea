//! Sign in with Apple: the browser gets a nonce from us, Apple signs it into the identity token,
//! and we accept the token only if its signature checks against Apple's keys (the configured
//! JWKS), `iss` is Apple, `aud` is our client id, it has not expired by our clock, and its nonce
//! is one we issued and have not seen used.

use client_core::envelope::ErrorKind;
use jsonwebtoken::{Algorithm, Validation, decode, decode_header};
use sea_orm::sea_query::Expr;
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, Set};
use serde::Deserialize;

use crate::entity::login_nonce;
use crate::error::{AppError, AppResult};
use crate::state::AppState;

pub const NONCE_TTL_SECONDS: i64 = 600;
/// Clock skew tolerated on `exp`.
const LEEWAY_SECONDS: i64 = 60;
const PROVIDER: &str = "apple";
const NONCE_ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

#[derive(Debug, Deserialize)]
struct Claims {
    sub: String,
    exp: i64,
    #[serde(default)]
    nonce: Option<String>,
    #[serde(default)]
    email: Option<String>,
}

pub struct AppleIdentity {
    /// Apple's stable user id for our app.
    pub subject: String,
    pub email: Option<String>,
}

fn client_id(state: &AppState) -> AppResult<&str> {
    state
        .config
        .apple_client_id
        .as_deref()
        .ok_or_else(|| ErrorKind::ProviderDisabled.into())
}

/// A nonce for the browser to hand to Apple.
pub async fn start(state: &AppState) -> AppResult<String> {
    client_id(state)?;
    let nonce = state.random.pick(NONCE_ALPHABET, 32);
    let now = state.now();
    login_nonce::ActiveModel {
        nonce: Set(nonce.clone()),
        provider: Set(PROVIDER.to_owned()),
        created_at: Set(now),
        expires_at: Set(now + NONCE_TTL_SECONDS),
        used: Set(false),
    }
    .insert(&state.db)
    .await?;
    Ok(nonce)
}

fn rejected(why: &str) -> AppError {
    AppError::new(ErrorKind::IdentityTokenInvalid)
        .with_message(format!("Sign in with Apple failed: {why}"))
}

pub async fn verify(state: &AppState, token: &str) -> AppResult<AppleIdentity> {
    let audience = client_id(state)?;
    let header = decode_header(token).map_err(|_| rejected("malformed token"))?;
    if !matches!(header.alg, Algorithm::RS256 | Algorithm::ES256) {
        return Err(rejected("unexpected algorithm"));
    }
    let kid = header.kid.ok_or_else(|| rejected("no key id"))?;
    let now = state.now();
    let key = state
        .apple_keys
        .key(&state.http, &kid, now)
        .await
        .map_err(|e| {
            tracing::warn!(error = %e, "Apple signing key unavailable");
            rejected("unknown signing key")
        })?;
    let mut validation = Validation::new(header.alg);
    validation.set_issuer(&[state.config.apple_issuer.as_str()]);
    validation.set_audience(&[audience]);
    // Expiry is checked below against our clock (injectable in tests), not the library's.
    validation.validate_exp = false;
    validation.set_required_spec_claims(&["iss", "aud", "sub", "exp"]);
    let claims = decode::<Claims>(token, &key, &validation)
        .map_err(|e| rejected(&e.to_string()))?
        .claims;
    if claims.exp + LEEWAY_SECONDS <= now {
        return Err(rejected("the token has expired"));
    }
    let nonce = claims.nonce.ok_or_else(|| rejected("no nonce"))?;
    let consumed = login_nonce::Entity::update_many()
        .col_expr(login_nonce::Column::Used, Expr::value(true))
        .filter(login_nonce::Column::Nonce.eq(nonce))
        .filter(login_nonce::Column::Provider.eq(PROVIDER))
        .filter(login_nonce::Column::Used.eq(false))
        .filter(login_nonce::Column::ExpiresAt.gt(now))
        .exec(&state.db)
        .await?;
    if consumed.rows_affected != 1 {
        return Err(rejected("unknown, expired or used nonce"));
    }
    Ok(AppleIdentity {
        subject: claims.sub,
        email: claims.email,
    })
}
