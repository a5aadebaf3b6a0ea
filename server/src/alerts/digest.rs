//! The daily alert email: at 08:00 in each reader's time zone, one email with what their alerts
//! matched since the last (daily alerts, alerts that chose email, and instant ones past the
//! hour's limit), grouped by alert, in their language, with a one-click unsubscribe (RFC 8058)
//! that works without signing in.

use std::collections::{BTreeMap, HashMap};

use hmac::{Hmac, Mac};
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{
    ColumnTrait, Condition, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set, TryInsertResult,
};
use sha2::Sha256;

use super::{Alerts, quiet};
use crate::ctx::Ctx;
use crate::entity::{
    account, alert, alert_delivery, alert_digest, feed_item, feed_translation, user,
};
use crate::error::{AppError, AppResult};
use crate::i18n::t;
use crate::mail::{Digest, Mailer};

/// The hour the email goes out, in the reader's time zone.
pub const DIGEST_HOUR: i8 = 8;
/// Items one email lists at most (the newest).
const ITEMS_MAX: u64 = 100;
/// Readers handled a round.
const READERS_AT_ONCE: u64 = 200;

/// Deliveries the daily email still owes.
pub(super) fn owed() -> Condition {
    Condition::all()
        .add(alert_delivery::Column::EmailedAt.is_null())
        .add(alert_delivery::Column::State.ne("dropped"))
        .add(
            Condition::any()
                .add(alert_delivery::Column::Mode.eq("daily"))
                .add(alert_delivery::Column::Deliver.like("%email%")),
        )
}

/// Sends the emails that are due; gives how many went.
pub async fn send_due(ctx: &Ctx, alerts: &Alerts, mailer: &Mailer) -> AppResult<usize> {
    let readers: Vec<i64> = alert_delivery::Entity::find()
        .select_only()
        .column(alert_delivery::Column::UserId)
        .filter(owed())
        .distinct()
        .limit(READERS_AT_ONCE)
        .into_tuple()
        .all(&ctx.db)
        .await?;
    let mut sent = 0;
    for reader in readers {
        if send_to(ctx, alerts, mailer, reader).await? {
            sent += 1;
        }
    }
    Ok(sent)
}

/// Today's email for `reader` if it is 08:00 or later where they are and none went today.
async fn send_to(ctx: &Ctx, alerts: &Alerts, mailer: &Mailer, reader: i64) -> AppResult<bool> {
    let now = ctx.now();
    let Some(found) = user::Entity::find_by_id(reader).one(&ctx.db).await? else {
        return Ok(false);
    };
    let zone = quiet::zone(&found.time_zone).unwrap_or(jiff::tz::TimeZone::UTC);
    let local = jiff::Timestamp::from_second(now)
        .map_err(AppError::internal)?
        .to_zoned(zone);
    if local.hour() < DIGEST_HOUR {
        return Ok(false);
    }
    let day = local.date().to_string();
    let claimed = alert_digest::Entity::insert(alert_digest::ActiveModel {
        user_id: Set(reader),
        day: Set(day.clone()),
        created_at: Set(now),
        ..Default::default()
    })
    .on_conflict(
        OnConflict::columns([alert_digest::Column::UserId, alert_digest::Column::Day])
            .do_nothing()
            .to_owned(),
    )
    .do_nothing()
    .exec(&ctx.db)
    .await?;
    if !matches!(claimed, TryInsertResult::Inserted(_)) {
        return Ok(false);
    }
    let owed = alert_delivery::Entity::find()
        .filter(alert_delivery::Column::UserId.eq(reader))
        .filter(owed())
        .order_by_desc(alert_delivery::Column::Id)
        .limit(ITEMS_MAX)
        .all(&ctx.db)
        .await?;
    let address = account::Entity::find()
        .filter(account::Column::UserId.eq(reader))
        .filter(account::Column::Kind.eq("email"))
        .one(&ctx.db)
        .await?
        .map(|a| a.identifier);
    if let Some(address) = address
        && let Some(digest) = compose(ctx, alerts, &found, &owed).await?
        && let Err(e) = mailer.send_digest(&address, &found.locale, &digest).await
    {
        // Not sent: the day is free again, and the next round tries.
        alert_digest::Entity::delete_many()
            .filter(alert_digest::Column::UserId.eq(reader))
            .filter(alert_digest::Column::Day.eq(day))
            .exec(&ctx.db)
            .await?;
        return Err(AppError::internal(e));
    }
    // Emailed, or with no address to email: owed no more either way.
    alert_delivery::Entity::update_many()
        .col_expr(alert_delivery::Column::EmailedAt, Expr::value(now))
        .filter(alert_delivery::Column::Id.is_in(owed.iter().map(|d| d.id)))
        .exec(&ctx.db)
        .await?;
    Ok(true)
}

/// The email's text in the reader's language: items grouped by the first alert that matched.
async fn compose(
    ctx: &Ctx,
    alerts: &Alerts,
    reader: &user::Model,
    owed: &[alert_delivery::Model],
) -> AppResult<Option<Digest>> {
    let locale = reader.locale.as_str();
    let names: HashMap<i64, String> = alert::Entity::find()
        .filter(alert::Column::UserId.eq(reader.id))
        .all(&ctx.db)
        .await?
        .into_iter()
        .map(|a| (a.id, a.name))
        .collect();
    let items: HashMap<i64, feed_item::Model> = feed_item::Entity::find()
        .filter(feed_item::Column::Id.is_in(owed.iter().map(|d| d.feed_id)))
        .all(&ctx.db)
        .await?
        .into_iter()
        .map(|i| (i.id, i))
        .collect();
    let translated: HashMap<i64, String> = feed_translation::Entity::find()
        .filter(feed_translation::Column::FeedId.is_in(items.keys().copied()))
        .filter(feed_translation::Column::Locale.eq(locale))
        .all(&ctx.db)
        .await?
        .into_iter()
        .filter(|t| !t.title.is_empty())
        .map(|t| (t.feed_id, t.title))
        .collect();
    let other = t(locale, "mail.alerts.other", &[]);
    let mut groups: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    let mut count = 0;
    for delivery in owed {
        let Some(item) = items.get(&delivery.feed_id) else {
            continue;
        };
        let group = delivery
            .alert_ids
            .split(',')
            .filter_map(|id| names.get(&id.parse().ok()?))
            .next()
            .cloned()
            .unwrap_or_else(|| other.clone());
        let title = translated.get(&item.id).unwrap_or(&item.title).clone();
        let url = format!("{}/{locale}/feed/{}", ctx.public_url(), item.id);
        groups.entry(group).or_default().push((title, url));
        count += 1;
    }
    if count == 0 {
        return Ok(None);
    }
    let n = count.to_string();
    Ok(Some(Digest {
        subject: t(locale, "mail.alerts.subject", &[("count", &n)]),
        intro: t(locale, "mail.alerts.intro", &[("count", &n)]),
        groups: groups.into_iter().collect(),
        unsubscribe_text: t(locale, "mail.alerts.unsubscribe", &[]),
        unsubscribe_url: unsubscribe_url(ctx, alerts, reader.id),
    }))
}

fn signature(alerts: &Alerts, reader: i64) -> String {
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(alerts.unsubscribe_key.as_ref())
        .expect("HMAC takes any key length");
    mac.update(format!("alerts-email:{reader}").as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

/// The link that stops `reader`'s alert emails, signed so no one can stop another's.
pub fn unsubscribe_url(ctx: &Ctx, alerts: &Alerts, reader: i64) -> String {
    format!(
        "{}/unsubscribe/alerts?u={reader}&t={}",
        ctx.public_url(),
        signature(alerts, reader)
    )
}

/// Stops the alert emails of the reader a link names: no alert of theirs chooses email any more,
/// daily ones become instant, and nothing owed is sent. `false` for a link that is not ours.
pub async fn unsubscribe(ctx: &Ctx, alerts: &Alerts, reader: i64, signed: &str) -> AppResult<bool> {
    let expected = signature(alerts, reader);
    let matches: bool =
        subtle::ConstantTimeEq::ct_eq(expected.as_bytes(), signed.as_bytes()).into();
    if !matches {
        return Ok(false);
    }
    let txn = crate::db::begin_write(&ctx.db).await?;
    for row in alert::Entity::find()
        .filter(alert::Column::UserId.eq(reader))
        .all(&txn)
        .await?
    {
        let mut deliver: Vec<&str> = row.deliver.split(',').filter(|d| *d != "email").collect();
        if deliver.is_empty() {
            deliver.push("push");
        }
        alert::Entity::update_many()
            .col_expr(alert::Column::Deliver, Expr::value(deliver.join(",")))
            .col_expr(alert::Column::Mode, Expr::value("instant"))
            .col_expr(alert::Column::UpdatedAt, Expr::value(ctx.now()))
            .filter(alert::Column::Id.eq(row.id))
            .exec(&txn)
            .await?;
    }
    alert_delivery::Entity::update_many()
        .col_expr(alert_delivery::Column::EmailedAt, Expr::value(ctx.now()))
        .filter(alert_delivery::Column::UserId.eq(reader))
        .filter(alert_delivery::Column::EmailedAt.is_null())
        .exec(&txn)
        .await?;
    txn.commit().await?;
    super::rules::changed(ctx);
    Ok(true)
}
