//! OAuth 2 sign-in in a popup: Google and Line by OpenID Connect, X/Twitter by its profile
//! endpoint. `start` makes a state (190 bits, single use, 15 minutes) bound to the browser by an
//! HttpOnly cookie, a PKCE S256 pair and, for OpenID Connect, a nonce; `complete` checks each of
//! them, exchanges the code once and identifies the user.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use client_core::envelope::ErrorKind;
use client_core::link::to_query;
use sea_orm::sea_query::Expr;
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, Set};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;
use validator::Validate;

use super::id_token::{self, rejected};
use crate::auth::Auth;
use crate::ctx::Ctx;
use crate::entity::oauth_state;
use crate::error::AppResult;

pub const STATE_TTL_SECONDS: i64 = 900;
/// The cookie that ties an authorization to the browser that started it.
pub const BROWSER_COOKIE: &str = "bb_oauth";
const ALNUM: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const VERIFIER_CHARS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Provider {
    Google,
    Line,
    Twitter,
}

impl Provider {
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "google" => Some(Self::Google),
            "line" => Some(Self::Line),
            "twitter" => Some(Self::Twitter),
            _ => None,
        }
    }

    /// The account kind and the name in the API path.
    pub fn name(self) -> &'static str {
        match self {
            Self::Google => "google",
            Self::Line => "line",
            Self::Twitter => "twitter",
        }
    }
}

struct Settings<'a> {
    client_id: &'a str,
    client_secret: &'a str,
    auth_url: &'a str,
    token_url: &'a str,
    scope: &'static str,
}

fn settings(auth: &Auth, provider: Provider) -> AppResult<Settings<'_>> {
    let c = &auth.config;
    let (id, secret, auth_url, token, scope) = match provider {
        Provider::Google => (
            &c.google_client_id,
            &c.google_client_secret,
            &c.google_auth_url,
            &c.google_token_url,
            "openid email profile",
        ),
        Provider::Line => (
            &c.line_client_id,
            &c.line_client_secret,
            &c.line_auth_url,
            &c.line_token_url,
            "openid profile email",
        ),
        Provider::Twitter => (
            &c.twitter_client_id,
            &c.twitter_client_secret,
            &c.twitter_auth_url,
            &c.twitter_token_url,
            "users.read tweet.read",
        ),
    };
    let client_id = id.as_deref().ok_or(ErrorKind::ProviderDisabled)?;
    Ok(Settings {
        client_id,
        client_secret: secret,
        auth_url,
        token_url: token,
        scope,
    })
}

fn redirect_uri(auth: &Auth) -> String {
    auth.config.oauth_redirect_url.clone().unwrap_or_else(|| {
        format!(
            "{}/oauth/by/web",
            auth.config.public_url.trim_end_matches('/')
        )
    })
}

fn sha256_hex(value: &str) -> String {
    hex::encode(Sha256::digest(value.as_bytes()))
}

pub struct Started {
    pub auth_url: String,
    pub state: String,
}

/// Starts an authorization for the browser holding `browser` (the cookie's value); `user_id` is
/// set when a signed-in user binds an account instead of signing in.
pub async fn start(
    ctx: &Ctx,
    auth: &Auth,
    provider: Provider,
    user_id: Option<i64>,
    browser: &str,
) -> AppResult<Started> {
    let settings = settings(auth, provider)?;
    let value = ctx.random.pick(ALNUM, 32);
    let verifier = ctx.random.pick(VERIFIER_CHARS, 64);
    let challenge = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
    let nonce = if provider == Provider::Twitter {
        String::new()
    } else {
        ctx.random.pick(ALNUM, 32)
    };
    let now = ctx.now();
    oauth_state::ActiveModel {
        state: Set(value.clone()),
        provider: Set(provider.name().to_owned()),
        user_id: Set(user_id),
        nonce: Set(nonce.clone()),
        code_verifier: Set(verifier),
        browser_hash: Set(sha256_hex(browser)),
        created_at: Set(now),
        expires_at: Set(now + STATE_TTL_SECONDS),
        used: Set(false),
    }
    .insert(&ctx.db)
    .await?;
    let mut params = vec![
        ("response_type", "code".to_owned()),
        ("client_id", settings.client_id.to_owned()),
        ("redirect_uri", redirect_uri(auth)),
        ("scope", settings.scope.to_owned()),
        ("state", value.clone()),
        ("code_challenge", challenge),
        ("code_challenge_method", "S256".to_owned()),
    ];
    if !nonce.is_empty() {
        params.push(("nonce", nonce));
    }
    let params: Vec<(String, String)> =
        params.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
    let separator = if settings.auth_url.contains('?') {
        '&'
    } else {
        '?'
    };
    Ok(Started {
        auth_url: format!("{}{separator}{}", settings.auth_url, to_query(&params)),
        state: value,
    })
}

/// What the popup page posts back: the provider's redirect parameters.
#[derive(Debug, Deserialize, Validate, schemars::JsonSchema)]
pub struct Callback {
    pub state: String,
    #[serde(default)]
    pub code: Option<String>,
    #[serde(default)]
    pub error: Option<String>,
}

pub struct Identity {
    pub subject: String,
    pub name: String,
}

#[derive(Deserialize)]
struct TokenResponse {
    access_token: String,
    #[serde(default)]
    id_token: Option<String>,
}

#[derive(Deserialize)]
struct TwitterMe {
    data: TwitterUser,
}

#[derive(Deserialize)]
struct TwitterUser {
    id: String,
    username: String,
}

pub async fn complete(
    ctx: &Ctx,
    auth: &Auth,
    provider: Provider,
    user_id: Option<i64>,
    browser: Option<&str>,
    callback: Callback,
) -> AppResult<Identity> {
    let settings = settings(auth, provider)?;
    let label = provider.name();
    let fail = |why: &str| rejected(label, why);
    let row = oauth_state::Entity::find_by_id(callback.state.clone())
        .one(&ctx.db)
        .await?
        .ok_or_else(|| fail("unknown state"))?;
    let now = ctx.now();
    let same_browser = browser
        .is_some_and(|b| bool::from(sha256_hex(b).as_bytes().ct_eq(row.browser_hash.as_bytes())));
    if row.provider != label || row.user_id != user_id || !same_browser {
        return Err(fail("this sign-in was started elsewhere"));
    }
    if row.used || row.expires_at <= now {
        return Err(fail("this sign-in has expired, please try again"));
    }
    let consumed = oauth_state::Entity::update_many()
        .col_expr(oauth_state::Column::Used, Expr::value(true))
        .filter(oauth_state::Column::State.eq(row.state.as_str()))
        .filter(oauth_state::Column::Used.eq(false))
        .exec(&ctx.db)
        .await?;
    if consumed.rows_affected != 1 {
        return Err(fail("this sign-in has expired, please try again"));
    }
    match callback.error.as_deref() {
        Some("access_denied") => return Err(ErrorKind::UserDenied.into()),
        Some(_) => return Err(fail("the provider reported an error")),
        None => {}
    }
    let code = callback
        .code
        .filter(|c| !c.is_empty() && c.len() <= 2048)
        .ok_or_else(|| fail("no code"))?;
    let mut form = vec![
        ("grant_type", "authorization_code".to_owned()),
        ("code", code),
        ("redirect_uri", redirect_uri(auth)),
        ("code_verifier", row.code_verifier.clone()),
        ("client_id", settings.client_id.to_owned()),
    ];
    let mut request = auth.http.post(settings.token_url);
    if provider == Provider::Twitter {
        request = request.basic_auth(settings.client_id, Some(settings.client_secret));
    } else {
        form.push(("client_secret", settings.client_secret.to_owned()));
    }
    let response = request
        .form(&form)
        .send()
        .await
        .map_err(|_| fail("the provider cannot be reached"))?;
    if !response.status().is_success() {
        return Err(fail("the provider refused the code"));
    }
    let tokens: TokenResponse = response
        .json()
        .await
        .map_err(|_| fail("unreadable token response"))?;
    if provider == Provider::Twitter {
        let me: TwitterMe = auth
            .http
            .get(&auth.config.twitter_userinfo_url)
            .bearer_auth(&tokens.access_token)
            .send()
            .await
            .and_then(reqwest::Response::error_for_status)
            .map_err(|_| fail("the profile cannot be read"))?
            .json()
            .await
            .map_err(|_| fail("unreadable profile"))?;
        return Ok(Identity {
            subject: me.data.id,
            name: format!("@{}", me.data.username),
        });
    }
    let token = tokens.id_token.ok_or_else(|| fail("no ID token"))?;
    let (keys, issuer) = match provider {
        Provider::Google => (&auth.google_keys, auth.config.google_issuer.as_str()),
        _ => (&auth.line_keys, auth.config.line_issuer.as_str()),
    };
    let claims =
        id_token::verify(ctx, auth, label, &token, keys, issuer, settings.client_id).await?;
    if claims.nonce.as_deref() != Some(row.nonce.as_str()) {
        return Err(fail("the ID token does not carry our nonce"));
    }
    let name = claims
        .email
        .or(claims.name)
        .unwrap_or_else(|| label.to_owned());
    Ok(Identity {
        subject: claims.sub,
        name,
    })
}
