//! What a rule would have matched: the last week's items as rules see them. The same sample is
//! counted here (`/alert/preview`) and, handed to the browser once (`/alert/sample`), by the
//! editor's wasm matcher as the reader types, so both say the same number.

use std::collections::HashMap;

use client_core::alert::{AlertItem, AlertRule, ItemText, Prepared};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};
use serde::Serialize;

use crate::content::write::plain_text;
use crate::ctx::Ctx;
use crate::entity::{channel, feed_item, feed_link, feed_translation, tag, token};
use crate::error::AppResult;
use crate::social::opening;
use crate::time::DAY;

/// How far back the sample reaches, and how many items it holds at most (the newest).
pub const SAMPLE_DAYS: i64 = 7;
pub const SAMPLE_ITEMS: u64 = 1000;
/// How much of an item's body the sample keeps: enough for keywords, small enough to send.
pub const SAMPLE_BODY_CHARS: usize = 400;
/// Matched items a preview lists.
pub const PREVIEW_ITEMS: usize = 5;

#[derive(schemars::JsonSchema, Debug, Clone, Serialize, ts_rs::TS)]
pub struct SampleItem {
    pub id: i64,
    pub title: String,
    pub published_at: i64,
    /// What rules see of it.
    #[ts(type = "AlertItem")]
    pub facts: AlertItem,
}

#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct Sample {
    /// Newest first.
    pub items: Vec<SampleItem>,
}

#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct Preview {
    pub count: u64,
    /// The newest matches.
    pub items: Vec<SampleItem>,
}

/// How long a built sample is reused (new items change it little; content changes forget it).
pub const SAMPLE_SECONDS: i64 = 60;

/// The sample as `/alert/sample` gives it: the newest items of the last week.
pub async fn build(ctx: &Ctx) -> AppResult<Vec<SampleItem>> {
    let now = ctx.now();
    let rows = feed_item::Entity::find()
        .filter(feed_item::Column::PublishedAt.gte(now - SAMPLE_DAYS * DAY))
        .filter(feed_item::Column::PublishedAt.lte(now))
        .order_by_desc(feed_item::Column::PublishedAt)
        .limit(SAMPLE_ITEMS)
        .all(&ctx.db)
        .await?;
    alert_items(ctx, rows, SAMPLE_BODY_CHARS).await
}

/// What `rule` matched among the sample's items of the last `days`.
pub fn preview(sample: &[SampleItem], rule: &AlertRule, since: i64) -> Preview {
    let prepared = Prepared::new(rule);
    let matched: Vec<&SampleItem> = sample
        .iter()
        .filter(|s| s.published_at >= since && prepared.matches(&ItemText::new(&s.facts)))
        .collect();
    Preview {
        count: matched.len() as u64,
        items: matched.into_iter().take(PREVIEW_ITEMS).cloned().collect(),
    }
}

/// `rows` as rules see them, with up to `body_chars` of each body (theirs and their
/// translations').
pub async fn alert_items(
    ctx: &Ctx,
    rows: Vec<feed_item::Model>,
    body_chars: usize,
) -> AppResult<Vec<SampleItem>> {
    let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
    let links = feed_link::Entity::find()
        .filter(feed_link::Column::FeedId.is_in(ids.clone()))
        .all(&ctx.db)
        .await?;
    let wanted = |kind: &str| -> Vec<i64> {
        links
            .iter()
            .filter(|l| l.kind == kind)
            .map(|l| l.target_id)
            .collect()
    };
    let tags: HashMap<i64, String> = tag::Entity::find()
        .filter(tag::Column::Id.is_in(wanted("tag")))
        .all(&ctx.db)
        .await?
        .into_iter()
        .map(|t| (t.id, t.code))
        .collect();
    let tokens: HashMap<i64, String> = token::Entity::find()
        .filter(token::Column::Id.is_in(wanted("token")))
        .all(&ctx.db)
        .await?
        .into_iter()
        .map(|t| (t.id, t.symbol))
        .collect();
    let channels: HashMap<i64, String> = channel::Entity::find()
        .filter(channel::Column::Id.is_in(rows.iter().filter_map(|r| r.channel_id)))
        .all(&ctx.db)
        .await?
        .into_iter()
        .map(|c| (c.id, c.code))
        .collect();
    let mut translations: HashMap<i64, Vec<feed_translation::Model>> = HashMap::new();
    for t in feed_translation::Entity::find()
        .filter(feed_translation::Column::FeedId.is_in(ids))
        .all(&ctx.db)
        .await?
    {
        translations.entry(t.feed_id).or_default().push(t);
    }
    let body = |html: &str| opening(&plain_text(html), body_chars);
    Ok(rows
        .into_iter()
        .map(|row| {
            let own = links.iter().filter(|l| l.feed_id == row.id);
            let linked = |kind: &'static str, names: &HashMap<i64, String>| -> Vec<String> {
                own.clone()
                    .filter(|l| l.kind == kind)
                    .filter_map(|l| names.get(&l.target_id).cloned())
                    .collect()
            };
            let mut langs = vec![row.lang.clone()];
            let mut texts = vec![row.title.clone(), row.summary.clone(), body(&row.content)];
            for t in translations.remove(&row.id).unwrap_or_default() {
                langs.push(t.locale);
                texts.extend([t.title, t.summary, body(&t.content)]);
            }
            texts.retain(|t| !t.is_empty());
            let facts = AlertItem {
                important: row.important,
                langs,
                tokens: linked("token", &tokens),
                tags: linked("tag", &tags),
                channel: row.channel_id.and_then(|c| channels.get(&c).cloned()),
                kol: row.kol_id,
                topics: own
                    .clone()
                    .filter(|l| l.kind == "topic")
                    .map(|l| l.target_id)
                    .collect(),
                texts,
            };
            SampleItem {
                id: row.id,
                title: row.title,
                published_at: row.published_at,
                facts,
            }
        })
        .collect())
}
