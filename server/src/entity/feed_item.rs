//! A news item in its source language; `source_url` is an editor's item's identity, `origin` an
//! item from an RSS or Atom source's.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "feed_items")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    #[sea_orm(unique)]
    pub source_url: String,
    /// For an item an RSS or Atom source brought: a digest of the source's URL and the entry's
    /// guid; `None` for an editor's item.
    #[sea_orm(unique)]
    pub origin: Option<String>,
    /// `flash`, `article`, `thread` or `research`.
    pub kind: String,
    pub lang: String,
    #[sea_orm(column_type = "Text")]
    pub title: String,
    #[sea_orm(column_type = "Text")]
    pub summary: String,
    /// Sanitized HTML.
    #[sea_orm(column_type = "Text")]
    pub content: String,
    pub source_name: String,
    pub kol_id: Option<i64>,
    /// The reader who wrote it, for a `post`.
    pub user_id: Option<i64>,
    pub channel_id: Option<i64>,
    /// JSON array of image URLs.
    #[sea_orm(column_type = "Text")]
    pub images: String,
    pub important: bool,
    /// Why it is important without an editor (`client_core::breaking::ImportantReason`, JSON).
    #[sea_orm(column_type = "Text", nullable)]
    pub important_reason: Option<String>,
    pub published_at: i64,
    pub views: i64,
    pub likes: i64,
    pub comments: i64,
    pub updated_at: i64,
    /// Readers' votes, by kind (`social::votes`).
    pub vote_bullish: i64,
    pub vote_bearish: i64,
    pub vote_important: i64,
    pub vote_lol: i64,
    pub vote_toxic: i64,
    /// The story it reports with other items (`content::stories`).
    pub story_id: Option<i64>,
    /// In a story, and not its card: home and subject feeds leave it out.
    pub story_hidden: bool,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
