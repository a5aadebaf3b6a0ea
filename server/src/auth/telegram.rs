//! Sign in with Telegram: the Login Widget's fields, or a Mini App's `initData`, checked as
//! Telegram documents (an HMAC-SHA256 over the sorted `key=value` lines; the widget's key is
//! SHA-256 of the bot token, a Mini App's is HMAC-SHA256 of the token under `WebAppData`),
//! fresh (24 hours) and used once.

use std::collections::BTreeMap;

use client_core::envelope::ErrorKind;
use hmac::{Hmac, Mac};
use sea_orm::sea_query::OnConflict;
use sea_orm::{EntityTrait, Set, TryInsertResult};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::auth::Auth;
use crate::ctx::Ctx;
use crate::entity::telegram_login;
use crate::error::{AppError, AppResult};

/// How old signed data may be.
pub const MAX_AGE_SECONDS: i64 = 24 * 60 * 60;

/// The Telegram user the data vouches for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TelegramUser {
    pub id: String,
    pub name: String,
}

fn refused(message: &str) -> AppError {
    AppError::new(ErrorKind::InvalidParam).with_message(message.to_owned())
}

/// The fields as sent: a Mini App's `{init_data}` (a query string), else the widget's fields.
fn fields(body: &Value) -> AppResult<(BTreeMap<String, String>, bool)> {
    if let Some(init) = body.get("init_data") {
        let init = init
            .as_str()
            .ok_or_else(|| refused("init_data must be a string"))?;
        if init.len() > 4096 {
            return Err(refused("init_data is too long"));
        }
        let pairs = init.split('&').filter(|p| !p.is_empty()).map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            let decode = |s: &str| {
                percent_encoding::percent_decode_str(&s.replace('+', " "))
                    .decode_utf8()
                    .map(|c| c.into_owned())
                    .map_err(|_| refused("init_data is not UTF-8"))
            };
            Ok((decode(k)?, decode(v)?))
        });
        return Ok((pairs.collect::<AppResult<_>>()?, true));
    }
    let object = body
        .as_object()
        .ok_or_else(|| refused("send the widget's fields or init_data"))?;
    if object.len() > 16 {
        return Err(refused("too many fields"));
    }
    let mut out = BTreeMap::new();
    for (k, v) in object {
        let text = match v {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
            _ => return Err(refused("the widget's fields are strings and numbers")),
        };
        out.insert(k.clone(), text);
    }
    Ok((out, false))
}

/// Checks the data against `bot_token`; gives the user it vouches for and its hash.
pub fn verify(body: &Value, bot_token: &str, now: i64) -> AppResult<(TelegramUser, String)> {
    let (mut fields, mini_app) = fields(body)?;
    let hash = fields
        .remove("hash")
        .ok_or_else(|| refused("hash is missing"))?;
    let given = hex::decode(&hash).map_err(|_| refused("hash is not hex"))?;
    let check: String = fields
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join("\n");
    let key: Vec<u8> = if mini_app {
        let mut mac = Hmac::<Sha256>::new_from_slice(b"WebAppData").map_err(AppError::internal)?;
        mac.update(bot_token.as_bytes());
        mac.finalize().into_bytes().to_vec()
    } else {
        Sha256::digest(bot_token.as_bytes()).to_vec()
    };
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).map_err(AppError::internal)?;
    mac.update(check.as_bytes());
    // verify_slice compares in constant time.
    if mac.verify_slice(&given).is_err() {
        return Err(AppError::new(ErrorKind::Unauthorized)
            .with_message("The Telegram sign-in data is not signed by our bot"));
    }
    let auth_date: i64 = fields
        .get("auth_date")
        .and_then(|d| d.parse().ok())
        .ok_or_else(|| refused("auth_date is missing"))?;
    if auth_date < now - MAX_AGE_SECONDS || auth_date > now + 60 {
        return Err(AppError::new(ErrorKind::Unauthorized)
            .with_message("The Telegram sign-in has expired, please sign in again"));
    }
    let user = if mini_app {
        let user: Value = fields
            .get("user")
            .and_then(|u| serde_json::from_str(u).ok())
            .ok_or_else(|| refused("user is missing"))?;
        TelegramUser {
            id: user["id"]
                .as_i64()
                .ok_or_else(|| refused("user.id is missing"))?
                .to_string(),
            name: display_name(user["first_name"].as_str(), user["username"].as_str()),
        }
    } else {
        TelegramUser {
            id: fields
                .get("id")
                .filter(|id| id.parse::<i64>().is_ok())
                .cloned()
                .ok_or_else(|| refused("id is missing"))?,
            name: display_name(
                fields.get("first_name").map(String::as_str),
                fields.get("username").map(String::as_str),
            ),
        }
    };
    Ok((user, hash.to_lowercase()))
}

fn display_name(first: Option<&str>, username: Option<&str>) -> String {
    let name = first
        .filter(|n| !n.trim().is_empty())
        .or(username)
        .unwrap_or("Telegram");
    name.trim().chars().take(64).collect()
}

/// Verifies the data and spends its hash: the same signed data signs in once.
pub async fn accept(ctx: &Ctx, auth: &Auth, body: &Value) -> AppResult<TelegramUser> {
    // Not a fault of ours: the site chose not to offer it (not logged as an error).
    let token = auth.config.telegram_bot_token.as_deref().ok_or_else(|| {
        AppError::new(ErrorKind::ProviderDisabled)
            .with_message("Sign in with Telegram is not set up on this site")
    })?;
    let now = ctx.now();
    let (user, hash) = verify(body, token, now)?;
    let inserted = telegram_login::Entity::insert(telegram_login::ActiveModel {
        hash: Set(hash),
        seen_at: Set(now),
        ..Default::default()
    })
    .on_conflict(
        OnConflict::column(telegram_login::Column::Hash)
            .do_nothing()
            .to_owned(),
    )
    .do_nothing()
    .exec(&ctx.db)
    .await?;
    if !matches!(inserted, TryInsertResult::Inserted(_)) {
        return Err(AppError::new(ErrorKind::Unauthorized)
            .with_message("This Telegram sign-in was used already, please sign in again"));
    }
    Ok(user)
}
