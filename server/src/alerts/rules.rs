//! A reader's alert rules: at most 20, each a client-core rule with where it is delivered,
//! instantly or in the daily email, and quiet hours. Only its reader reads or changes one.

use client_core::alert::{AlertRule, check_rule};
use client_core::envelope::ErrorKind;
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, Set,
};
use serde::{Deserialize, Serialize};

use crate::ctx::Ctx;
use crate::entity::{alert, channel, kol, tag, token, topic, user};
use crate::error::{AppError, AppResult};
use crate::events::Event;

pub const ALERTS_MAX: u64 = 20;
/// The event every server hears when a reader's rules change: their rule sets are stale.
pub const RULES_CHANGED: &str = "alerts|rules";
pub const NAME_MAX_CHARS: usize = 60;
pub const DELIVERIES: [&str; 4] = ["push", "email", "telegram", "line"];
pub const MODES: [&str; 2] = ["instant", "daily"];

/// Hours when instant alerts wait, in the reader's time zone (`22:00` to `07:00` spans
/// midnight).
#[derive(schemars::JsonSchema, Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
pub struct Quiet {
    /// `HH:MM`
    pub from: String,
    /// `HH:MM`
    pub to: String,
}

/// An alert as its reader sends it.
#[derive(schemars::JsonSchema, Debug, Clone, Deserialize)]
pub struct AlertInput {
    pub name: String,
    pub rule: AlertRule,
    /// Any of `push`, `email`, `telegram`, `line`, each once.
    pub deliver: Vec<String>,
    /// `instant` or `daily` (one email a day at 08:00).
    pub mode: String,
    pub quiet: Option<Quiet>,
    /// The reader's time zone as the browser names it (`Asia/Taipei`): quiet hours and the
    /// daily email keep to it. Kept for the reader, not the alert.
    pub time_zone: Option<String>,
}

#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct AlertView {
    pub id: i64,
    pub name: String,
    #[ts(type = "AlertRule")]
    pub rule: AlertRule,
    #[ts(type = "(\"push\" | \"email\" | \"telegram\" | \"line\")[]")]
    pub deliver: Vec<String>,
    #[ts(type = "\"instant\" | \"daily\"")]
    pub mode: String,
    pub quiet: Option<Quiet>,
    pub created_at: i64,
    pub updated_at: i64,
}

/// Minutes after midnight of `HH:MM`.
fn minutes(at: &str) -> Option<i64> {
    let (h, m) = at.split_once(':')?;
    let two_digits = |s: &str| s.len() == 2 && s.bytes().all(|b| b.is_ascii_digit());
    if !two_digits(h) || !two_digits(m) {
        return None;
    }
    let (h, m): (i64, i64) = (h.parse().ok()?, m.parse().ok()?);
    (h < 24 && m < 60).then_some(h * 60 + m)
}

fn hhmm(minutes: i64) -> String {
    format!("{:02}:{:02}", minutes / 60, minutes % 60)
}

/// An input checked: its rule by client-core's rule, the rest here; names that must exist in
/// the catalogue, checked there.
struct Checked {
    name: String,
    rule: String,
    deliver: String,
    mode: String,
    quiet: Option<(i64, i64)>,
}

async fn check(ctx: &Ctx, input: &AlertInput) -> AppResult<Checked> {
    let name = input.name.trim();
    if name.is_empty() || name.chars().count() > NAME_MAX_CHARS {
        return Err(AppError::invalid("An alert's name has 1 to 60 characters"));
    }
    if let Some(problem) = check_rule(&input.rule) {
        return Err(AppError::invalid(problem.text));
    }
    let mut deliver: Vec<&str> = Vec::new();
    for d in &input.deliver {
        match DELIVERIES.iter().find(|known| **known == d) {
            Some(known) if !deliver.contains(known) => deliver.push(known),
            _ => {
                return Err(AppError::invalid(
                    "deliver is any of push, email, telegram and line, each once",
                ));
            }
        }
    }
    if deliver.is_empty() {
        return Err(AppError::invalid("Choose where to be alerted"));
    }
    if !MODES.contains(&input.mode.as_str()) {
        return Err(AppError::invalid("mode is instant or daily"));
    }
    if input.rule.price.is_some() {
        // A crossing has no item for a chat or a daily email to carry, and is news only now.
        if deliver
            .iter()
            .any(|d| !super::prices::DELIVERIES.contains(d))
            || input.mode != "instant"
        {
            return Err(AppError::invalid(
                "Price alerts come at once, as browser notifications and email",
            ));
        }
    }
    let quiet = match &input.quiet {
        None => None,
        Some(q) => match (minutes(&q.from), minutes(&q.to)) {
            (Some(from), Some(to)) if from != to => Some((from, to)),
            _ => {
                return Err(AppError::invalid(
                    "Quiet hours are two different times, HH:MM",
                ));
            }
        },
    };
    if let Some(zone) = &input.time_zone
        && super::quiet::zone(zone).is_none()
    {
        return Err(AppError::invalid("time_zone is not a time zone we know"));
    }
    exist(ctx, &input.rule).await?;
    Ok(Checked {
        name: name.to_owned(),
        rule: serde_json::to_string(&input.rule).map_err(AppError::internal)?,
        deliver: deliver.join(","),
        mode: input.mode.clone(),
        quiet,
    })
}

/// Refuses a rule that names a token, tag, channel, KOL or topic the catalogue does not have.
async fn exist(ctx: &Ctx, rule: &AlertRule) -> AppResult<()> {
    let upper: Vec<String> = rule
        .tokens
        .iter()
        .map(|t| t.trim().to_uppercase())
        .collect();
    if let Some(price) = &rule.price {
        let priced = token::Entity::find()
            .filter(token::Column::Symbol.eq(price.symbol()))
            .count(&ctx.db)
            .await?;
        if priced == 0 {
            return Err(AppError::invalid(
                "The price alert names a token that does not exist",
            ));
        }
    }
    let lower = |codes: &[String]| -> Vec<String> {
        codes.iter().map(|c| c.trim().to_lowercase()).collect()
    };
    let (tags, channels) = (lower(&rule.tags), lower(&rule.channels));
    let found = [
        token::Entity::find()
            .filter(token::Column::Symbol.is_in(upper.clone()))
            .count(&ctx.db)
            .await?,
        tag::Entity::find()
            .filter(tag::Column::Code.is_in(tags.clone()))
            .count(&ctx.db)
            .await?,
        channel::Entity::find()
            .filter(channel::Column::Code.is_in(channels.clone()))
            .count(&ctx.db)
            .await?,
        kol::Entity::find()
            .filter(kol::Column::Id.is_in(rule.kols.clone()))
            .count(&ctx.db)
            .await?,
        topic::Entity::find()
            .filter(topic::Column::Id.is_in(rule.topics.clone()))
            .count(&ctx.db)
            .await?,
    ];
    let named = [
        upper.len(),
        tags.len(),
        channels.len(),
        rule.kols.len(),
        rule.topics.len(),
    ];
    let what = ["token", "tag", "channel", "KOL", "topic"];
    for ((found, named), what) in found.iter().zip(named).zip(what) {
        // Each named once: a repeat counts as a missing one.
        if *found != named as u64 {
            return Err(AppError::invalid(format!(
                "The rule names a {what} that does not exist (or names one twice)"
            )));
        }
    }
    Ok(())
}

fn view(row: alert::Model) -> AppResult<AlertView> {
    Ok(AlertView {
        id: row.id,
        name: row.name,
        rule: serde_json::from_str(&row.rule).map_err(AppError::internal)?,
        deliver: row
            .deliver
            .split(',')
            .filter(|d| !d.is_empty())
            .map(str::to_owned)
            .collect(),
        mode: row.mode,
        quiet: row.quiet_from.zip(row.quiet_to).map(|(from, to)| Quiet {
            from: hhmm(from),
            to: hhmm(to),
        }),
        created_at: row.created_at,
        updated_at: row.updated_at,
    })
}

pub async fn add(ctx: &Ctx, user_id: i64, input: &AlertInput) -> AppResult<i64> {
    let checked = check(ctx, input).await?;
    let held = alert::Entity::find()
        .filter(alert::Column::UserId.eq(user_id))
        .count(&ctx.db)
        .await?;
    if held >= ALERTS_MAX {
        return Err(AppError::invalid(
            "You have 20 alerts, the most one reader keeps",
        ));
    }
    let now = ctx.now();
    let made = alert::ActiveModel {
        user_id: Set(user_id),
        name: Set(checked.name),
        rule: Set(checked.rule),
        deliver: Set(checked.deliver),
        mode: Set(checked.mode),
        quiet_from: Set(checked.quiet.map(|q| q.0)),
        quiet_to: Set(checked.quiet.map(|q| q.1)),
        created_at: Set(now),
        updated_at: Set(now),
        ..Default::default()
    }
    .insert(&ctx.db)
    .await?;
    keep_zone(ctx, user_id, input).await?;
    changed(ctx);
    Ok(made.id)
}

/// Keeps the reader's time zone when the editor sent one.
async fn keep_zone(ctx: &Ctx, user_id: i64, input: &AlertInput) -> AppResult<()> {
    if let Some(zone) = &input.time_zone {
        user::Entity::update_many()
            .col_expr(user::Column::TimeZone, Expr::value(zone.as_str()))
            .filter(user::Column::Id.eq(user_id))
            .exec(&ctx.db)
            .await?;
    }
    Ok(())
}

/// Rules changed: every server's rule set is stale.
pub fn changed(ctx: &Ctx) {
    ctx.events.publish(&Event::Stale(RULES_CHANGED.to_owned()));
}

pub async fn list(ctx: &Ctx, user_id: i64) -> AppResult<Vec<AlertView>> {
    alert::Entity::find()
        .filter(alert::Column::UserId.eq(user_id))
        .order_by_asc(alert::Column::Id)
        .all(&ctx.db)
        .await?
        .into_iter()
        .map(view)
        .collect()
}

/// The alert `id` if `user_id` keeps it: `NotFound` when there is none, `Forbidden` when it is
/// another reader's.
async fn own(ctx: &Ctx, user_id: i64, id: i64) -> AppResult<alert::Model> {
    let found = alert::Entity::find_by_id(id)
        .one(&ctx.db)
        .await?
        .ok_or_else(|| AppError::not_found("No such alert"))?;
    if found.user_id != user_id {
        return Err(AppError::new(ErrorKind::Forbidden).with_message("This is not your alert"));
    }
    Ok(found)
}

pub async fn update(ctx: &Ctx, user_id: i64, id: i64, input: &AlertInput) -> AppResult<()> {
    let found = own(ctx, user_id, id).await?;
    let checked = check(ctx, input).await?;
    let mut row: alert::ActiveModel = found.into();
    row.name = Set(checked.name);
    row.rule = Set(checked.rule);
    row.deliver = Set(checked.deliver);
    row.mode = Set(checked.mode);
    row.quiet_from = Set(checked.quiet.map(|q| q.0));
    row.quiet_to = Set(checked.quiet.map(|q| q.1));
    row.updated_at = Set(ctx.now());
    row.update(&ctx.db).await?;
    // Its lines may have moved: they are seen afresh.
    super::prices::forget(ctx, id).await?;
    keep_zone(ctx, user_id, input).await?;
    changed(ctx);
    Ok(())
}

pub async fn delete(ctx: &Ctx, user_id: i64, id: i64) -> AppResult<()> {
    own(ctx, user_id, id).await?;
    alert::Entity::delete_by_id(id).exec(&ctx.db).await?;
    super::prices::forget(ctx, id).await?;
    changed(ctx);
    Ok(())
}
