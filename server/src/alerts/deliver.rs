//! Instant alerts. A new item waits in `alert_jobs` (queued with it, so none is lost); one
//! server at a time (a lease) matches it against every reader's rules through client-core's
//! `AlertIndex`, writes one `alert_deliveries` row per reader whose rules match (a unique key:
//! once, whatever number of rules and servers), and sends what is due: a notification to each of
//! the reader's browsers, and the item to their linked Telegram and LINE chats through the bots'
//! own queue and limits. A reader gets at most [`INSTANT_PER_HOUR`] instant alerts an hour; the
//! rest wait for the daily email (`digest`).

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use client_core::alert::{AlertIndex, AlertRule};
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{
    ColumnTrait, Condition, ConnectionTrait, EntityTrait, FromQueryResult, QueryFilter, QueryOrder,
    QuerySelect, Set, Statement,
};

use super::prices::Watch;
use super::push::{Notice, Urgency, browsers};
use super::sample::alert_items;
use super::{Alerts, quiet};
use crate::ctx::Ctx;
use crate::entity::{
    alert, alert_delivery, alert_job, bot_chat, bot_delivery, feed_item, feed_translation, user,
};
use crate::error::AppResult;
use crate::events::Event;
use crate::lease;
use crate::mail::Mailer;
use crate::social::opening;
use crate::time::HOUR;

pub const INSTANT_PER_HOUR: i64 = 30;
/// How much of a body the matcher reads.
const BODY_CHARS: usize = 20_000;
const LEASE_SECONDS: i64 = 30;
const JOBS_AT_ONCE: u64 = 20;
const SENDS_AT_ONCE: u64 = 200;
/// Deliveries written per statement.
const ROWS_AT_ONCE: usize = 500;
/// How much of a summary a notification shows.
const BODY_SHOWN: usize = 140;

/// Every reader's rules, ready to match, with what each alert asks for.
pub struct RuleSet {
    index: AlertIndex<i64>,
    alerts: HashMap<i64, Chosen>,
    /// The alerts that watch a price.
    pub(super) prices: Vec<Watch>,
}

struct Chosen {
    user_id: i64,
    deliver: Vec<String>,
    instant: bool,
    /// Quiet hours, minutes after midnight in the reader's time zone.
    quiet: Option<(i64, i64)>,
}

pub async fn load_rules(ctx: &Ctx) -> AppResult<RuleSet> {
    let mut index = AlertIndex::new();
    let mut alerts = HashMap::new();
    let mut prices = Vec::new();
    for row in alert::Entity::find().all(&ctx.db).await? {
        let Ok(rule) = serde_json::from_str::<AlertRule>(&row.rule) else {
            continue;
        };
        index.insert(row.id, &rule);
        if let Some(price) = rule.price {
            prices.push(Watch {
                alert_id: row.id,
                user_id: row.user_id,
                rule: price,
                deliver: row.deliver.clone(),
                quiet: row.quiet_from.zip(row.quiet_to),
            });
        }
        alerts.insert(
            row.id,
            Chosen {
                user_id: row.user_id,
                deliver: row.deliver.split(',').map(str::to_owned).collect(),
                instant: row.mode == "instant",
                quiet: row.quiet_from.zip(row.quiet_to),
            },
        );
    }
    Ok(RuleSet {
        index,
        alerts,
        prices,
    })
}

/// Matches and sends while this server holds the lease.
pub fn spawn(ctx: Ctx, alerts: Alerts, mailer: Mailer, holder: String) {
    tokio::spawn(async move {
        loop {
            let held = lease::hold(&ctx.db, "alerts", &holder, ctx.now(), LEASE_SECONDS).await;
            let done = match held {
                Ok(true) => round(&ctx, &alerts, &mailer).await,
                Ok(false) => Ok(0),
                Err(e) => Err(e),
            };
            match done {
                Ok(0) => {
                    let _ = tokio::time::timeout(Duration::from_secs(1), alerts.queued.notified())
                        .await;
                }
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!("alerts: {e:?}");
                    tokio::time::sleep(Duration::from_secs(5)).await;
                }
            }
        }
    });
}

/// Matches waiting items and sends due alerts; gives how much was done.
pub async fn round(ctx: &Ctx, alerts: &Alerts, mailer: &Mailer) -> AppResult<usize> {
    let jobs = alert_job::Entity::find()
        .order_by_asc(alert_job::Column::Id)
        .limit(JOBS_AT_ONCE)
        .all(&ctx.db)
        .await?;
    let mut done = jobs.len();
    if !jobs.is_empty() {
        let rules = alerts.rules(ctx).await?;
        for job in jobs {
            match_item(ctx, &rules, &job).await?;
        }
    }
    done += send_due(ctx, alerts).await?;
    done += send_held(ctx, alerts).await?;
    done += super::digest::send_due(ctx, alerts, mailer).await?;
    done += super::presale_starts::tell(ctx, alerts).await?;
    done += super::prices::check(ctx, alerts).await?;
    done += super::prices::send_due(ctx, alerts, mailer).await?;
    Ok(done)
}

/// What a reader's matching alerts ask for, together.
#[derive(Default)]
struct Wanted {
    alerts: Vec<i64>,
    deliver: HashSet<String>,
    instant: bool,
    quiet: Vec<(i64, i64)>,
}

#[derive(FromQueryResult)]
struct Busy {
    user_id: i64,
}

/// Writes one delivery per reader whose rules match the job's item, then drops the job.
async fn match_item(ctx: &Ctx, rules: &RuleSet, job: &alert_job::Model) -> AppResult<()> {
    let now = ctx.now();
    let row = feed_item::Entity::find_by_id(job.feed_id)
        .one(&ctx.db)
        .await?;
    let mut wanted: HashMap<i64, Wanted> = HashMap::new();
    if let Some(row) = row {
        let author = row.user_id;
        if let Some(item) = alert_items(ctx, vec![row], BODY_CHARS).await?.pop() {
            for alert_id in rules.index.matching(&item.facts) {
                let Some(chosen) = rules.alerts.get(&alert_id) else {
                    continue;
                };
                if Some(chosen.user_id) == author {
                    continue;
                }
                let entry = wanted.entry(chosen.user_id).or_default();
                entry.alerts.push(alert_id);
                entry.deliver.extend(chosen.deliver.iter().cloned());
                entry.instant |= chosen.instant;
                if chosen.instant {
                    entry.quiet.extend(chosen.quiet);
                }
            }
        }
    }
    // Readers at the hour's limit get this one in the daily email instead.
    let busy: HashSet<i64> = Busy::find_by_statement(Statement::from_sql_and_values(
        ctx.db.get_database_backend(),
        "SELECT user_id FROM alert_deliveries WHERE mode = 'instant' AND created_at > $1 \
         GROUP BY user_id HAVING COUNT(*) >= $2",
        [(now - HOUR).into(), INSTANT_PER_HOUR.into()],
    ))
    .all(&ctx.db)
    .await?
    .into_iter()
    .map(|b| b.user_id)
    .collect();
    let zones = quiet::zones(
        ctx,
        wanted
            .iter()
            .filter(|(_, w)| !w.quiet.is_empty())
            .map(|(u, _)| *u),
    )
    .await?;
    let rows: Vec<alert_delivery::ActiveModel> = wanted
        .into_iter()
        .map(|(user_id, w)| {
            let mut deliver: Vec<String> = w.deliver.into_iter().collect();
            deliver.sort();
            let instant = w.instant && !busy.contains(&user_id);
            // Held while any of the reader's matching instant alerts is in its quiet hours.
            let held = zones.get(&user_id).and_then(|zone| {
                w.quiet
                    .iter()
                    .filter_map(|(from, to)| quiet::held_until(now, zone, *from, *to))
                    .max()
            });
            let (state, due_at) = match held {
                Some(until) if instant => ("held", until),
                _ => ("queued", now),
            };
            alert_delivery::ActiveModel {
                user_id: Set(user_id),
                feed_id: Set(job.feed_id),
                deliver: Set(deliver.join(",")),
                mode: Set(if instant { "instant" } else { "daily" }.to_owned()),
                state: Set(state.to_owned()),
                created_at: Set(now),
                sent_at: Set(None),
                due_at: Set(due_at),
                alert_ids: Set(w
                    .alerts
                    .iter()
                    .map(i64::to_string)
                    .collect::<Vec<_>>()
                    .join(",")),
                ..Default::default()
            }
        })
        .collect();
    let txn = crate::db::begin_write(&ctx.db).await?;
    for chunk in rows.chunks(ROWS_AT_ONCE) {
        alert_delivery::Entity::insert_many(chunk.to_vec())
            .on_conflict(
                OnConflict::columns([
                    alert_delivery::Column::UserId,
                    alert_delivery::Column::FeedId,
                ])
                .do_nothing()
                .to_owned(),
            )
            .do_nothing()
            .exec(&txn)
            .await?;
    }
    alert_job::Entity::delete_by_id(job.id).exec(&txn).await?;
    txn.commit().await?;
    Ok(())
}

/// Instant alerts still to send: now, or when quiet hours end.
pub(super) fn waiting() -> Condition {
    Condition::all()
        .add(alert_delivery::Column::Mode.eq("instant"))
        .add(alert_delivery::Column::State.is_in(["queued", "held"]))
}

/// Sends due instant alerts: to the reader's browsers and linked chats. A delivery is marked
/// sent after its sends, so a server that dies midway leaves it for the next holder (a browser
/// may then show it twice, never not at all).
async fn send_due(ctx: &Ctx, alerts: &Alerts) -> AppResult<usize> {
    let due = alert_delivery::Entity::find()
        .filter(alert_delivery::Column::State.eq("queued"))
        .filter(alert_delivery::Column::Mode.eq("instant"))
        .order_by_asc(alert_delivery::Column::Id)
        .limit(SENDS_AT_ONCE)
        .all(&ctx.db)
        .await?;
    let mut chats_queued = false;
    for delivery in &due {
        // The chats' rows first: a database write before the push service's round trip.
        chats_queued |= to_chats(ctx, delivery).await?;
        if wants(delivery, "push") {
            push(ctx, alerts, delivery).await?;
        }
        alert_delivery::Entity::update_many()
            .col_expr(alert_delivery::Column::State, Expr::value("sent"))
            .col_expr(alert_delivery::Column::SentAt, Expr::value(ctx.now()))
            .filter(alert_delivery::Column::Id.eq(delivery.id))
            .filter(alert_delivery::Column::State.eq("queued"))
            .exec(&ctx.db)
            .await?;
    }
    if chats_queued {
        ctx.events.publish(&Event::DeliveriesQueued);
    }
    Ok(due.len())
}

/// Alerts held through quiet hours that have ended: one notification a reader saying how many
/// came (the item itself when it is one), and each to their linked chats.
async fn send_held(ctx: &Ctx, alerts: &Alerts) -> AppResult<usize> {
    let now = ctx.now();
    let due = alert_delivery::Entity::find()
        .filter(alert_delivery::Column::State.eq("held"))
        .filter(alert_delivery::Column::DueAt.lte(now))
        .order_by_asc(alert_delivery::Column::Id)
        .limit(SENDS_AT_ONCE)
        .all(&ctx.db)
        .await?;
    let mut by_reader: HashMap<i64, Vec<&alert_delivery::Model>> = HashMap::new();
    for delivery in &due {
        by_reader
            .entry(delivery.user_id)
            .or_default()
            .push(delivery);
    }
    let mut chats_queued = false;
    for (user_id, held) in by_reader {
        let Some(latest) = held.last() else { continue };
        for delivery in &held {
            chats_queued |= to_chats(ctx, delivery).await?;
        }
        match held.len() {
            _ if !wants(latest, "push") => {}
            1 => push(ctx, alerts, latest).await?,
            count => summary(ctx, alerts, user_id, latest, count).await?,
        }
        alert_delivery::Entity::update_many()
            .col_expr(alert_delivery::Column::State, Expr::value("sent"))
            .col_expr(alert_delivery::Column::SentAt, Expr::value(now))
            .filter(alert_delivery::Column::Id.is_in(held.iter().map(|d| d.id)))
            .filter(alert_delivery::Column::State.eq("held"))
            .exec(&ctx.db)
            .await?;
    }
    if chats_queued {
        ctx.events.publish(&Event::DeliveriesQueued);
    }
    Ok(due.len())
}

/// "N alerts while you were quiet", naming the newest.
async fn summary(
    ctx: &Ctx,
    alerts: &Alerts,
    user_id: i64,
    latest: &alert_delivery::Model,
    count: usize,
) -> AppResult<()> {
    let Some((newest, _, locale)) = notice(ctx, latest).await? else {
        return Ok(());
    };
    let notice = Notice {
        title: crate::i18n::t(&locale, "push.heldTitle", &[("count", &count.to_string())]),
        body: newest.title,
        url: format!("{}/{locale}", ctx.public_url()),
        feed_id: None,
    };
    for browser in &browsers(ctx, user_id).await? {
        alerts
            .pusher
            .send(ctx, browser, &notice, Urgency::Normal)
            .await?;
    }
    Ok(())
}

/// The item as a notification in the reader's language; whether it is important, and that
/// language.
async fn notice(
    ctx: &Ctx,
    delivery: &alert_delivery::Model,
) -> AppResult<Option<(Notice, bool, String)>> {
    let Some(item) = feed_item::Entity::find_by_id(delivery.feed_id)
        .one(&ctx.db)
        .await?
    else {
        return Ok(None);
    };
    let locale = user::Entity::find_by_id(delivery.user_id)
        .one(&ctx.db)
        .await?
        .map_or_else(|| "en".to_owned(), |u| u.locale);
    let translated = feed_translation::Entity::find()
        .filter(feed_translation::Column::FeedId.eq(item.id))
        .filter(feed_translation::Column::Locale.eq(locale.as_str()))
        .one(&ctx.db)
        .await?;
    let (title, summary) = match translated {
        Some(t) if !t.title.is_empty() => (t.title, t.summary),
        _ => (item.title.clone(), item.summary.clone()),
    };
    Ok(Some((
        Notice {
            title,
            body: opening(&summary, BODY_SHOWN),
            url: format!("{}/{locale}/feed/{}", ctx.public_url(), item.id),
            feed_id: Some(item.id),
        },
        item.important,
        locale,
    )))
}

async fn push(ctx: &Ctx, alerts: &Alerts, delivery: &alert_delivery::Model) -> AppResult<()> {
    let browsers = browsers(ctx, delivery.user_id).await?;
    if browsers.is_empty() {
        return Ok(());
    }
    let Some((notice, important, _)) = notice(ctx, delivery).await? else {
        return Ok(());
    };
    let urgency = if important {
        Urgency::High
    } else {
        Urgency::Normal
    };
    for browser in &browsers {
        alerts.pusher.send(ctx, browser, &notice, urgency).await?;
    }
    Ok(())
}

/// Whether `delivery` goes to `place` (`push`, `telegram`, …).
fn wants(delivery: &alert_delivery::Model, place: &str) -> bool {
    delivery.deliver.split(',').any(|d| d == place)
}

/// Queues the item for the reader's linked chats on the platforms the delivery names (the bots
/// send it, within their limits); gives whether any was queued.
async fn to_chats(ctx: &Ctx, delivery: &alert_delivery::Model) -> AppResult<bool> {
    let platforms: Vec<&str> = ["telegram", "line"]
        .into_iter()
        .filter(|p| wants(delivery, p))
        .collect();
    if platforms.is_empty() {
        return Ok(false);
    }
    let chats = bot_chat::Entity::find()
        .filter(bot_chat::Column::UserId.eq(delivery.user_id))
        .filter(bot_chat::Column::Platform.is_in(platforms))
        .filter(bot_chat::Column::State.eq("active"))
        .all(&ctx.db)
        .await?;
    if chats.is_empty() {
        return Ok(false);
    }
    let now = ctx.now();
    let rows = chats.iter().map(|chat| bot_delivery::ActiveModel {
        chat_id: Set(chat.id),
        feed_id: Set(delivery.feed_id),
        state: Set("queued".to_owned()),
        created_at: Set(now),
        due_at: Set(now),
        attempts: Set(0),
        ..Default::default()
    });
    bot_delivery::Entity::insert_many(rows)
        .on_conflict(
            OnConflict::columns([bot_delivery::Column::ChatId, bot_delivery::Column::FeedId])
                .do_nothing()
                .to_owned(),
        )
        .do_nothing()
        .exec(&ctx.db)
        .await?;
    Ok(true)
}
