//! OpenID Connect ID tokens (Sign in with Apple, Google, Line): one verifier. The signature must
//! check against the provider's JWKS, `iss` and `aud` must be the expected ones, and `exp` must
//! not have passed by our clock (injectable in tests). The nonce is returned for the caller to
//! match against the one it issued.

use client_core::envelope::ErrorKind;
use jsonwebtoken::{Algorithm, Validation, decode, decode_header};
use serde::Deserialize;

use super::jwks::JwksCache;
use crate::auth::Auth;
use crate::ctx::Ctx;
use crate::error::{AppError, AppResult};

/// Clock skew tolerated on `exp`.
const LEEWAY_SECONDS: i64 = 60;

#[derive(Debug, Deserialize)]
pub struct IdClaims {
    /// The provider's stable id of the user, for our client.
    pub sub: String,
    pub exp: i64,
    #[serde(default)]
    pub nonce: Option<String>,
    #[serde(default)]
    pub email: Option<String>,
    #[serde(default)]
    pub name: Option<String>,
}

pub fn rejected(provider: &str, why: &str) -> AppError {
    AppError::new(ErrorKind::IdentityTokenInvalid)
        .with_message(format!("Sign-in with {provider} failed: {why}"))
}

pub async fn verify(
    ctx: &Ctx,
    auth: &Auth,
    provider: &str,
    token: &str,
    keys: &JwksCache,
    issuer: &str,
    audience: &str,
) -> AppResult<IdClaims> {
    let header = decode_header(token).map_err(|_| rejected(provider, "malformed token"))?;
    if !matches!(header.alg, Algorithm::RS256 | Algorithm::ES256) {
        return Err(rejected(provider, "unexpected algorithm"));
    }
    let kid = header.kid.ok_or_else(|| rejected(provider, "no key id"))?;
    let now = ctx.now();
    let key = keys.key(&auth.http, &kid, now).await.map_err(|e| {
        tracing::warn!(error = %e, provider, "signing key unavailable");
        rejected(provider, "unknown signing key")
    })?;
    let mut validation = Validation::new(header.alg);
    validation.set_issuer(&[issuer]);
    validation.set_audience(&[audience]);
    // Expiry is checked below against our clock, not the library's.
    validation.validate_exp = false;
    validation.set_required_spec_claims(&["iss", "aud", "sub", "exp"]);
    let claims = decode::<IdClaims>(token, &key, &validation)
        .map_err(|e| rejected(provider, &e.to_string()))?
        .claims;
    if claims.exp + LEEWAY_SECONDS <= now {
        return Err(rejected(provider, "the token has expired"));
    }
    Ok(claims)
}
