//! Breaking news as items are stored: when an item joins a story, and the story now has enough
//! distinct sources close enough together (client-core's `breaking` rule, with the settings'
//! thresholds), the first report of that burst becomes important with the reason, and is queued
//! for the bots and alerts that want important news, as an editor's mark would be. A story that
//! already has an important item is left as it is.

use client_core::breaking::{Report, breaking};
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set};

use crate::config::LinkingSettings;
use crate::entity::feed_item;
use crate::error::{AppError, AppResult};
use crate::outbox::fanout;

/// The item of `item_id`'s story that became important, if it just did.
pub async fn mark_if_breaking(
    db: &impl ConnectionTrait,
    item_id: i64,
    settings: &LinkingSettings,
    now: i64,
) -> AppResult<Option<i64>> {
    let story = feed_item::Entity::find_by_id(item_id)
        .one(db)
        .await?
        .and_then(|item| item.story_id);
    let Some(story) = story else {
        return Ok(None);
    };
    let members = feed_item::Entity::find()
        .filter(feed_item::Column::StoryId.eq(story))
        .all(db)
        .await?;
    if members.iter().any(|m| m.important) {
        return Ok(None);
    }
    let sources: Vec<String> = members.iter().map(|m| source_of(&m.source_url)).collect();
    let reports: Vec<Report> = members
        .iter()
        .zip(&sources)
        .map(|(m, source)| Report {
            source,
            published_at: m.published_at,
        })
        .collect();
    let window = i64::from(settings.breaking_minutes) * 60;
    let Some((reason, began)) = breaking(&reports, settings.breaking_sources, window) else {
        return Ok(None);
    };
    // The first report of the burst, not of a story that may have begun quietly a day before.
    let first = members
        .into_iter()
        .filter(|m| m.published_at >= began)
        .min_by_key(|m| (m.published_at, m.id));
    let Some(first) = first else {
        return Ok(None);
    };
    let queued = fanout::NewItem {
        id: first.id,
        kind: &first.kind.clone(),
        important: true,
        channel_id: first.channel_id,
        kol_id: first.kol_id,
        published_at: first.published_at,
    };
    let mut row: feed_item::ActiveModel = first.into();
    row.important = Set(true);
    row.important_reason = Set(Some(
        serde_json::to_string(&reason).map_err(AppError::internal)?,
    ));
    row.update(db).await?;
    fanout::queue(db, &queued, now).await?;
    Ok(Some(queued.id))
}

/// A source is a site: the link's host without `www.`.
fn source_of(url: &str) -> String {
    let host = url::Url::parse(url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_lowercase))
        .unwrap_or_default();
    host.strip_prefix("www.").map(str::to_owned).unwrap_or(host)
}

#[cfg(test)]
mod tests {
    use super::source_of;

    #[test]
    fn a_source_is_a_site() {
        assert_eq!(source_of("https://www.CoinDesk.com/a"), "coindesk.com");
        assert_eq!(source_of("https://news.example/b?x=1"), "news.example");
        assert_eq!(source_of("not a url"), "");
    }
}
