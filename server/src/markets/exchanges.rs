//! Exchange referrals. Each partner exchange gets a task in the `exchange_register` group; its
//! button opens the reader's referral link, which carries the reader's `sub_id` at that exchange
//! (derived from the server's key, opaque: never the reader's id). The exchange confirms a
//! registration by a postback signed with the secret it shares with us (HMAC-SHA256 of the raw
//! body, checked before the body is read): a valid one moves the reader's task to `to_receive`,
//! once per event id; a bad signature or an unknown `sub_id` is refused and logged.

use std::collections::HashMap;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use sea_orm::sea_query::OnConflict;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, Set, TryInsertResult};
use serde::{Deserialize, Serialize};
use sha2::Sha256;

use crate::ctx::Ctx;
use crate::entity::{exchange, exchange_event, exchange_referral, task};
use client_core::envelope::ErrorKind;

use crate::error::{AppError, AppResult};
use crate::i18n::localized;
use crate::points::tasks::{self, Source};

/// The task group whose tasks only a partner's postback moves.
pub const GROUP: &str = client_core::constants::EXCHANGE_REGISTER_GROUP;
/// Where the reader's id goes in an exchange's address.
const SUB_ID: &str = "{sub_id}";

/// The task event a registration at `code` is.
pub fn task_event(code: &str) -> String {
    format!("exchange_register:{code}")
}

/// The editors' description of an exchange (`/admin/exchange/upsert`).
#[derive(schemars::JsonSchema, Debug, Clone, Deserialize, validator::Validate)]
pub struct ExchangeInput {
    pub code: String,
    pub name: String,
    #[serde(default)]
    pub logo: String,
    /// `https://…` with `{sub_id}` where the reader's opaque id goes.
    pub url_template: String,
    /// Shared with the exchange, at least 16 characters: it signs its postbacks with it.
    pub secret: String,
    /// What a reader gets, by locale.
    #[serde(default)]
    pub perks: HashMap<String, String>,
    /// Points for registering (the task's award).
    #[serde(default = "default_award")]
    pub award: i64,
    #[serde(default)]
    pub sort: i64,
    #[serde(default = "active")]
    pub active: bool,
}

const fn default_award() -> i64 {
    500
}
const fn active() -> bool {
    true
}

/// An exchange as a reader sees it.
#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct ExchangeView {
    pub code: String,
    pub name: String,
    pub logo: String,
    /// What a reader gets, in their language.
    pub perks: String,
    /// The reader's referral link (signed-in readers only).
    pub link: Option<String>,
}

fn checked(input: &ExchangeInput) -> AppResult<()> {
    let code_ok = !input.code.is_empty()
        && input.code.len() <= 64
        && input
            .code
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if !code_ok {
        return Err(AppError::invalid(
            "code: lowercase letters, digits and -, at most 64",
        ));
    }
    if input.name.trim().is_empty() || input.name.chars().count() > 128 {
        return Err(AppError::invalid("name: 1 to 128 characters"));
    }
    let url_ok = input.url_template.starts_with("https://")
        && input.url_template.matches(SUB_ID).count() == 1
        && url::Url::parse(&input.url_template.replace(SUB_ID, "x")).is_ok();
    if !url_ok {
        return Err(AppError::invalid(
            "url_template: an https address with {sub_id} once",
        ));
    }
    if input.secret.chars().count() < 16 || input.secret.len() > 256 {
        return Err(AppError::invalid("secret: 16 to 256 characters"));
    }
    if !(0..=100_000).contains(&input.award) {
        return Err(AppError::invalid("award: 0 to 100000 points"));
    }
    Ok(())
}

/// Adds or changes an exchange, and its task.
pub async fn upsert(ctx: &Ctx, input: &ExchangeInput) -> AppResult<i64> {
    checked(input)?;
    let perks = serde_json::to_string(&input.perks).map_err(AppError::internal)?;
    let txn = crate::db::begin_write(&ctx.db).await?;
    exchange::Entity::insert(exchange::ActiveModel {
        code: Set(input.code.clone()),
        name: Set(input.name.trim().to_owned()),
        logo: Set(input.logo.clone()),
        url_template: Set(input.url_template.clone()),
        secret: Set(input.secret.clone()),
        perks: Set(perks),
        sort: Set(input.sort),
        active: Set(input.active),
        created_at: Set(ctx.now()),
        ..Default::default()
    })
    .on_conflict(
        OnConflict::column(exchange::Column::Code)
            .update_columns([
                exchange::Column::Name,
                exchange::Column::Logo,
                exchange::Column::UrlTemplate,
                exchange::Column::Secret,
                exchange::Column::Perks,
                exchange::Column::Sort,
                exchange::Column::Active,
            ])
            .to_owned(),
    )
    .exec_without_returning(&txn)
    .await?;
    let made = exchange::Entity::find()
        .filter(exchange::Column::Code.eq(input.code.as_str()))
        .one(&txn)
        .await?
        .ok_or_else(|| AppError::internal("exchange vanished after upsert"))?;
    // Its task: the button's link is the reader's own, filled in when tasks are listed.
    let titles: HashMap<&str, String> = client_core::locale::LOCALES
        .iter()
        .map(|l| {
            (
                *l,
                crate::i18n::t(l, "tasks.exchange_register", &[("name", &made.name)]),
            )
        })
        .collect();
    let buttons: HashMap<&str, String> = client_core::locale::LOCALES
        .iter()
        .map(|l| (*l, crate::i18n::t(l, "taskButtons.register", &[])))
        .collect();
    task::Entity::insert(task::ActiveModel {
        group: Set(GROUP.to_owned()),
        event_type: Set(task_event(&made.code)),
        award: Set(input.award),
        target: Set(1),
        app_link: Set(format!("exchange:{}", made.code)),
        report_time: Set(1),
        button_disabled: Set(false),
        titles: Set(serde_json::to_string(&titles).map_err(AppError::internal)?),
        button_texts: Set(serde_json::to_string(&buttons).map_err(AppError::internal)?),
        sort: Set(i32::try_from(input.sort).unwrap_or(i32::MAX)),
        active: Set(input.active),
        ..Default::default()
    })
    .on_conflict(crate::points::catalogue::task_upsert())
    .exec_without_returning(&txn)
    .await?;
    txn.commit().await?;
    Ok(made.id)
}

/// The reader's opaque id at exchange `code`: a MAC of the two under the server's key, so it
/// says nothing of the reader and cannot be made up.
pub fn sub_id(key: &[u8; 32], code: &str, user_id: i64) -> String {
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(key).expect("any key length");
    mac.update(code.as_bytes());
    mac.update(b"\0");
    mac.update(&user_id.to_be_bytes());
    URL_SAFE_NO_PAD.encode(&mac.finalize().into_bytes()[..16])
}

/// The reader's referral link at `found`, kept so the exchange's postback finds them.
async fn link(
    ctx: &Ctx,
    key: &[u8; 32],
    found: &exchange::Model,
    user_id: i64,
) -> AppResult<String> {
    let sub = sub_id(key, &found.code, user_id);
    exchange_referral::Entity::insert(exchange_referral::ActiveModel {
        exchange_id: Set(found.id),
        user_id: Set(user_id),
        sub_id: Set(sub.clone()),
        created_at: Set(ctx.now()),
        ..Default::default()
    })
    .on_conflict(
        OnConflict::columns([
            exchange_referral::Column::ExchangeId,
            exchange_referral::Column::UserId,
        ])
        .do_nothing()
        .to_owned(),
    )
    .do_nothing()
    .exec(&ctx.db)
    .await?;
    Ok(found.url_template.replace(SUB_ID, &sub))
}

async fn active_exchanges(ctx: &Ctx) -> AppResult<Vec<exchange::Model>> {
    Ok(exchange::Entity::find()
        .filter(exchange::Column::Active.eq(true))
        .order_by_asc(exchange::Column::Sort)
        .order_by_asc(exchange::Column::Id)
        .all(&ctx.db)
        .await?)
}

/// The active exchanges, with the reader's links when signed in.
pub async fn list(
    ctx: &Ctx,
    key: &[u8; 32],
    user_id: Option<i64>,
    locale: &str,
) -> AppResult<Vec<ExchangeView>> {
    let mut views = Vec::new();
    for found in active_exchanges(ctx).await? {
        let link = match user_id {
            Some(user_id) => Some(link(ctx, key, &found, user_id).await?),
            None => None,
        };
        views.push(ExchangeView {
            perks: localized(&found.perks, locale),
            code: found.code,
            name: found.name,
            logo: found.logo,
            link,
        });
    }
    Ok(views)
}

/// The reader's links for the exchange tasks' buttons, by task event.
pub async fn task_links(
    ctx: &Ctx,
    key: &[u8; 32],
    user_id: i64,
) -> AppResult<HashMap<String, String>> {
    let mut links = HashMap::new();
    for found in active_exchanges(ctx).await? {
        links.insert(
            format!("exchange:{}", found.code),
            link(ctx, key, &found, user_id).await?,
        );
    }
    Ok(links)
}

/// A postback's body, read only once its signature holds.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Postback {
    event_id: String,
    sub_id: String,
    event: PostbackEvent,
    occurred_at: i64,
}

#[derive(Debug, Deserialize, Clone, Copy, PartialEq)]
#[serde(rename_all = "lowercase")]
enum PostbackEvent {
    Register,
    Deposit,
}

/// What a postback did.
#[derive(schemars::JsonSchema, Debug, Serialize, PartialEq)]
pub struct Received {
    /// False for an event id already received: nothing changed.
    pub new: bool,
}

/// Takes exchange `code`'s postback: `signature` is the hex HMAC-SHA256 of `body` under the
/// exchange's secret.
pub async fn postback(ctx: &Ctx, code: &str, body: &[u8], signature: &str) -> AppResult<Received> {
    let found = exchange::Entity::find()
        .filter(exchange::Column::Code.eq(code))
        .one(&ctx.db)
        .await?
        .ok_or_else(|| AppError::not_found("No such exchange"))?;
    let mut mac =
        <Hmac<Sha256> as Mac>::new_from_slice(found.secret.as_bytes()).expect("any key length");
    mac.update(body);
    let signed = hex::decode(signature.trim()).is_ok_and(|given| mac.verify_slice(&given).is_ok());
    if !signed {
        tracing::warn!(exchange = code, "postback refused: bad signature");
        return Err(AppError::new(ErrorKind::Unauthorized).with_message("Bad signature"));
    }
    let postback: Postback = serde_json::from_slice(body)
        .map_err(|e| AppError::new(ErrorKind::BadRequest).with_message(format!("postback: {e}")))?;
    if postback.event_id.is_empty() || postback.event_id.len() > 128 {
        return Err(AppError::invalid("event_id: 1 to 128 characters"));
    }
    let Some(referral) = exchange_referral::Entity::find()
        .filter(exchange_referral::Column::ExchangeId.eq(found.id))
        .filter(exchange_referral::Column::SubId.eq(postback.sub_id.as_str()))
        .one(&ctx.db)
        .await?
    else {
        tracing::warn!(exchange = code, "postback refused: unknown sub_id");
        return Err(AppError::not_found("No such sub_id"));
    };
    // The task first, then the event: a postback retried after a failure between the two moves
    // the task again, which changes nothing once it has moved.
    if postback.event == PostbackEvent::Register {
        tasks::record_event(
            ctx,
            referral.user_id,
            &task_event(&found.code),
            Source::Server,
        )
        .await?;
    }
    let kept = exchange_event::Entity::insert(exchange_event::ActiveModel {
        exchange_id: Set(found.id),
        event_id: Set(postback.event_id),
        user_id: Set(referral.user_id),
        event: Set(match postback.event {
            PostbackEvent::Register => "register",
            PostbackEvent::Deposit => "deposit",
        }
        .to_owned()),
        occurred_at: Set(postback.occurred_at),
        received_at: Set(ctx.now()),
        ..Default::default()
    })
    .on_conflict(
        OnConflict::columns([
            exchange_event::Column::ExchangeId,
            exchange_event::Column::EventId,
        ])
        .do_nothing()
        .to_owned(),
    )
    .do_nothing()
    .exec(&ctx.db)
    .await?;
    Ok(Received {
        new: matches!(kept, TryInsertResult::Inserted(_)),
    })
}
