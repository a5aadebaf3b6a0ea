//! Presales: token sales before listing, as editors enter them (`/admin/presale/upsert`), listed
//! as upcoming, live or ended by the time now, each with a risk notice in the reader's language.
//! A reader may follow one; the alerts area tells them when it starts (`alerts::deliver`).

use sea_orm::sea_query::OnConflict;
use sea_orm::{
    ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect, Set,
};
use serde::{Deserialize, Serialize};

use crate::ctx::Ctx;
use crate::entity::{presale, presale_follow};
use crate::error::{AppError, AppResult};
use crate::i18n::{localized, t};

/// Presales on a page.
pub const PAGE: u64 = 20;

#[derive(
    schemars::JsonSchema, Debug, Clone, Copy, PartialEq, Deserialize, Serialize, ts_rs::TS,
)]
#[serde(rename_all = "lowercase")]
pub enum PresaleStatus {
    Upcoming,
    Live,
    Ended,
}

#[derive(schemars::JsonSchema, Debug, Clone, Deserialize, Serialize, ts_rs::TS)]
pub struct PresaleLink {
    pub label: String,
    pub url: String,
}

/// The editors' description of a presale; `project` is its identity.
#[derive(schemars::JsonSchema, Debug, Clone, Deserialize, validator::Validate)]
pub struct PresaleInput {
    pub project: String,
    pub symbol: String,
    #[serde(default)]
    pub chain: String,
    pub starts_at: i64,
    pub ends_at: i64,
    pub target_usd: f64,
    pub price_usd: f64,
    #[serde(default)]
    pub links: Vec<PresaleLink>,
    /// By locale.
    #[serde(default)]
    pub descriptions: std::collections::HashMap<String, String>,
}

#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct PresaleView {
    pub id: i64,
    pub project: String,
    pub symbol: String,
    pub chain: String,
    pub starts_at: i64,
    pub ends_at: i64,
    pub target_usd: f64,
    pub price_usd: f64,
    pub links: Vec<PresaleLink>,
    pub description: String,
    pub status: PresaleStatus,
    /// In the reader's language: presales are risky.
    pub risk_notice: String,
    /// Whether the signed-in reader follows it (absent for visitors).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub following: Option<bool>,
}

#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct PresalePage {
    pub list: Vec<PresaleView>,
    /// Where the next page starts; absent on the last.
    pub next_cursor: Option<String>,
}

fn status(row: &presale::Model, now: i64) -> PresaleStatus {
    if now < row.starts_at {
        PresaleStatus::Upcoming
    } else if now < row.ends_at {
        PresaleStatus::Live
    } else {
        PresaleStatus::Ended
    }
}

fn view(row: presale::Model, now: i64, locale: &str, following: Option<bool>) -> PresaleView {
    PresaleView {
        status: status(&row, now),
        description: localized(&row.descriptions, locale),
        links: serde_json::from_str(&row.links).unwrap_or_default(),
        risk_notice: t(locale, "presale.risk", &[]),
        following,
        id: row.id,
        project: row.project,
        symbol: row.symbol,
        chain: row.chain,
        starts_at: row.starts_at,
        ends_at: row.ends_at,
        target_usd: row.target_usd,
        price_usd: row.price_usd,
    }
}

fn checked(input: &PresaleInput) -> AppResult<()> {
    let name_ok = |s: &str, max: usize| !s.trim().is_empty() && s.chars().count() <= max;
    if !name_ok(&input.project, 128)
        || !name_ok(&input.symbol, 32)
        || input.chain.chars().count() > 64
    {
        return Err(AppError::invalid(
            "project (≤ 128), symbol (≤ 32) and chain (≤ 64) are needed",
        ));
    }
    if input.ends_at <= input.starts_at {
        return Err(AppError::invalid("ends_at must be after starts_at"));
    }
    let money = |v: f64| v.is_finite() && v > 0.0;
    if !money(input.target_usd) || !money(input.price_usd) {
        return Err(AppError::invalid(
            "target_usd and price_usd must be above zero",
        ));
    }
    for link in &input.links {
        let url_ok = link.url.starts_with("https://") && url::Url::parse(&link.url).is_ok();
        if !url_ok || !name_ok(&link.label, 64) {
            return Err(AppError::invalid(
                "links: a label (≤ 64) and an https address each",
            ));
        }
    }
    Ok(())
}

pub async fn upsert(ctx: &Ctx, input: &PresaleInput) -> AppResult<i64> {
    checked(input)?;
    let links = serde_json::to_string(&input.links).map_err(AppError::internal)?;
    let descriptions = serde_json::to_string(&input.descriptions).map_err(AppError::internal)?;
    presale::Entity::insert(presale::ActiveModel {
        project: Set(input.project.trim().to_owned()),
        symbol: Set(input.symbol.trim().to_uppercase()),
        chain: Set(input.chain.trim().to_owned()),
        starts_at: Set(input.starts_at),
        ends_at: Set(input.ends_at),
        target_usd: Set(input.target_usd),
        price_usd: Set(input.price_usd),
        links: Set(links),
        descriptions: Set(descriptions),
        updated_at: Set(ctx.now()),
        ..Default::default()
    })
    .on_conflict(
        OnConflict::column(presale::Column::Project)
            .update_columns([
                presale::Column::Symbol,
                presale::Column::Chain,
                presale::Column::StartsAt,
                presale::Column::EndsAt,
                presale::Column::TargetUsd,
                presale::Column::PriceUsd,
                presale::Column::Links,
                presale::Column::Descriptions,
                presale::Column::UpdatedAt,
            ])
            .to_owned(),
    )
    .exec_without_returning(&ctx.db)
    .await?;
    presale::Entity::find()
        .filter(presale::Column::Project.eq(input.project.trim()))
        .one(&ctx.db)
        .await?
        .map(|p| p.id)
        .ok_or_else(|| AppError::internal("presale vanished after upsert"))
}

async fn followed(ctx: &Ctx, user_id: Option<i64>, ids: &[i64]) -> AppResult<Option<Vec<i64>>> {
    let Some(user_id) = user_id else {
        return Ok(None);
    };
    Ok(Some(
        presale_follow::Entity::find()
            .select_only()
            .column(presale_follow::Column::PresaleId)
            .filter(presale_follow::Column::UserId.eq(user_id))
            .filter(presale_follow::Column::PresaleId.is_in(ids.to_vec()))
            .into_tuple()
            .all(&ctx.db)
            .await?,
    ))
}

/// A page of presales with `status`: upcoming soonest first, live ending soonest first, ended
/// latest first. The cursor is the number already listed.
pub async fn list(
    ctx: &Ctx,
    status: PresaleStatus,
    cursor: Option<&str>,
    user_id: Option<i64>,
    locale: &str,
) -> AppResult<PresalePage> {
    let now = ctx.now();
    let offset: u64 = match cursor {
        None => 0,
        Some(c) => c
            .parse()
            .map_err(|_| AppError::invalid("cursor is not one this list gave"))?,
    };
    let query = presale::Entity::find();
    let query = match status {
        PresaleStatus::Upcoming => query
            .filter(presale::Column::StartsAt.gt(now))
            .order_by_asc(presale::Column::StartsAt),
        PresaleStatus::Live => query
            .filter(presale::Column::StartsAt.lte(now))
            .filter(presale::Column::EndsAt.gt(now))
            .order_by_asc(presale::Column::EndsAt),
        PresaleStatus::Ended => query
            .filter(presale::Column::EndsAt.lte(now))
            .order_by_desc(presale::Column::EndsAt),
    };
    let rows = query
        .order_by_asc(presale::Column::Id)
        .offset(offset)
        .limit(PAGE + 1)
        .all(&ctx.db)
        .await?;
    let more = rows.len() as u64 > PAGE;
    let rows: Vec<presale::Model> = rows.into_iter().take(PAGE as usize).collect();
    let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
    let followed = followed(ctx, user_id, &ids).await?;
    Ok(PresalePage {
        list: rows
            .into_iter()
            .map(|row| {
                let following = followed.as_ref().map(|f| f.contains(&row.id));
                view(row, now, locale, following)
            })
            .collect(),
        next_cursor: more.then(|| (offset + PAGE).to_string()),
    })
}

pub async fn detail(
    ctx: &Ctx,
    id: i64,
    user_id: Option<i64>,
    locale: &str,
) -> AppResult<PresaleView> {
    let row = presale::Entity::find_by_id(id)
        .one(&ctx.db)
        .await?
        .ok_or_else(|| AppError::not_found("No such presale"))?;
    let following = followed(ctx, user_id, &[id]).await?.map(|f| !f.is_empty());
    Ok(view(row, ctx.now(), locale, following))
}

/// Follows or lets go of a presale (again: nothing changes); at most 100 followed.
pub async fn follow(ctx: &Ctx, user_id: i64, id: i64, on: bool) -> AppResult<()> {
    if presale::Entity::find_by_id(id)
        .one(&ctx.db)
        .await?
        .is_none()
    {
        return Err(AppError::not_found("No such presale"));
    }
    if !on {
        presale_follow::Entity::delete_many()
            .filter(presale_follow::Column::UserId.eq(user_id))
            .filter(presale_follow::Column::PresaleId.eq(id))
            .exec(&ctx.db)
            .await?;
        return Ok(());
    }
    let held = presale_follow::Entity::find()
        .filter(presale_follow::Column::UserId.eq(user_id))
        .count(&ctx.db)
        .await?;
    if held >= 100 {
        return Err(AppError::invalid(
            "You follow 100 presales, the most one reader follows",
        ));
    }
    presale_follow::Entity::insert(presale_follow::ActiveModel {
        presale_id: Set(id),
        user_id: Set(user_id),
        created_at: Set(ctx.now()),
        told_at: Set(None),
        ..Default::default()
    })
    .on_conflict(
        OnConflict::columns([
            presale_follow::Column::PresaleId,
            presale_follow::Column::UserId,
        ])
        .do_nothing()
        .to_owned(),
    )
    .do_nothing()
    .exec(&ctx.db)
    .await?;
    Ok(())
}
