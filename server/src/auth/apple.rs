//! Sign in with Apple: the browser gets a nonce from us, Apple signs it into the identity token,
//! and we accept the token only if it passes [`id_token::verify`] (Apple's keys, `iss`, our client
//! id as `aud`, `exp`) and its nonce is one we issued and have not seen used.

use client_core::envelope::ErrorKind;
use sea_orm::sea_query::Expr;
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, Set};

use super::id_token::{self, rejected};
use crate::auth::Auth;
use crate::ctx::Ctx;
use crate::entity::oauth_state;
use crate::error::AppResult;

pub const NONCE_TTL_SECONDS: i64 = 600;
const PROVIDER: &str = "apple";
const NONCE_ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

pub struct AppleIdentity {
    /// Apple's stable user id for our app.
    pub subject: String,
    pub email: Option<String>,
}

fn client_id(auth: &Auth) -> AppResult<&str> {
    auth.config
        .apple_client_id
        .as_deref()
        .ok_or_else(|| ErrorKind::ProviderDisabled.into())
}

/// What the web's popup needs to ask Apple: our Services ID, the Return URL registered with
/// Apple, Apple's script, and a nonce for Apple to sign into the identity token (also the
/// request's `state`).
#[derive(schemars::JsonSchema, Debug, serde::Serialize, ts_rs::TS)]
pub struct AppleStart {
    pub nonce: String,
    pub client_id: String,
    pub redirect_uri: String,
    pub script_url: String,
}

/// Starts a sign-in: a fresh nonce, and where the browser finds Apple.
pub async fn start(ctx: &Ctx, auth: &Auth) -> AppResult<AppleStart> {
    let config = &auth.config;
    let client_id = client_id(auth)?.to_owned();
    let nonce = ctx.random.pick(NONCE_ALPHABET, 32);
    let now = ctx.now();
    oauth_state::ActiveModel {
        state: Set(nonce.clone()),
        provider: Set(PROVIDER.to_owned()),
        user_id: Set(None),
        nonce: Set(nonce.clone()),
        code_verifier: Set(String::new()),
        browser_hash: Set(String::new()),
        created_at: Set(now),
        expires_at: Set(now + NONCE_TTL_SECONDS),
        used: Set(false),
    }
    .insert(&ctx.db)
    .await?;
    Ok(AppleStart {
        nonce,
        client_id,
        redirect_uri: config
            .apple_redirect_url
            .clone()
            .unwrap_or_else(|| config.public_url.clone()),
        script_url: config.apple_js_url.clone(),
    })
}

pub async fn verify(ctx: &Ctx, auth: &Auth, token: &str) -> AppResult<AppleIdentity> {
    let audience = client_id(auth)?;
    let issuer = auth.config.apple_issuer.as_str();
    let claims = id_token::verify(
        ctx,
        auth,
        "Apple",
        token,
        &auth.apple_keys,
        issuer,
        audience,
    )
    .await?;
    let nonce = claims.nonce.ok_or_else(|| rejected("Apple", "no nonce"))?;
    let now = ctx.now();
    let consumed = oauth_state::Entity::update_many()
        .col_expr(oauth_state::Column::Used, Expr::value(true))
        .filter(oauth_state::Column::State.eq(nonce))
        .filter(oauth_state::Column::Provider.eq(PROVIDER))
        .filter(oauth_state::Column::Used.eq(false))
        .filter(oauth_state::Column::ExpiresAt.gt(now))
        .exec(&ctx.db)
        .await?;
    if consumed.rows_affected != 1 {
        return Err(rejected("Apple", "unknown, expired or used nonce"));
    }
    Ok(AppleIdentity {
        subject: claims.sub,
        email: claims.email,
    })
}
