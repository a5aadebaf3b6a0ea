//! News content: feed items and their translations, tags, tokens, channels, authors (KOLs),
//! topics, benefits, follows, and the search index.
//!
//! Localized names of small catalogue rows (tags, channels, topics, benefits, KOL bios) are one
//! JSON object per row, `{"en": "…", "zh-Hant": "…"}`: they are read whole and never queried by
//! locale. Feed translations are rows, because a feed's content can be large.

use sea_orm::DatabaseBackend;
use sea_orm_migration::prelude::*;

use super::{big, drop_tables, id, index, text};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Users {
    Table,
    AutoTranslate,
}

#[derive(DeriveIden)]
enum Tokens {
    Table,
    Id,
    Symbol,
    Name,
    Chain,
    Logo,
}

#[derive(DeriveIden)]
enum Tags {
    Table,
    Id,
    Code,
    Names,
    Descriptions,
    Logo,
    TokenId,
    FollowerCount,
    Sort,
}

#[derive(DeriveIden)]
enum Channels {
    Table,
    Id,
    Code,
    Names,
    Sort,
}

#[derive(DeriveIden)]
enum Kols {
    Table,
    Id,
    Handle,
    Name,
    Avatar,
    Bios,
    FollowerCount,
}

#[derive(DeriveIden)]
enum Topics {
    Table,
    Id,
    Code,
    Titles,
    Descriptions,
    Cover,
    Heat,
}

#[derive(DeriveIden)]
enum FeedItems {
    Table,
    Id,
    SourceUrl,
    Kind,
    Lang,
    Title,
    Summary,
    Content,
    SourceName,
    KolId,
    ChannelId,
    Images,
    Important,
    PublishedAt,
    Views,
    Likes,
    Comments,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum FeedTranslations {
    Table,
    Id,
    FeedId,
    Locale,
    Title,
    Summary,
    Content,
}

/// Feed ↔ tag / token / topic links; `published_at` is copied so a tag's page is one index range.
#[derive(DeriveIden)]
enum FeedLinks {
    Table,
    Id,
    FeedId,
    Kind,
    TargetId,
    PublishedAt,
}

#[derive(DeriveIden)]
enum Benefits {
    Table,
    Id,
    Link,
    Project,
    Logo,
    Texts,
    Reward,
    Deadline,
    PublishedAt,
}

#[derive(DeriveIden)]
enum Follows {
    Table,
    Id,
    UserId,
    Kind,
    TargetId,
    CreatedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(
            Table::alter()
                .table(Users::Table)
                .add_column(
                    ColumnDef::new(Users::AutoTranslate)
                        .boolean()
                        .not_null()
                        .default(true),
                )
                .to_owned(),
        )
        .await?;
        m.create_table(
            Table::create()
                .table(Tokens::Table)
                .col(id(Tokens::Id))
                .col(text(Tokens::Symbol, 32).unique_key())
                .col(text(Tokens::Name, 128))
                .col(text(Tokens::Chain, 64))
                .col(text(Tokens::Logo, 512))
                .to_owned(),
        )
        .await?;
        m.create_table(
            Table::create()
                .table(Tags::Table)
                .col(id(Tags::Id))
                .col(text(Tags::Code, 64).unique_key())
                .col(ColumnDef::new(Tags::Names).text().not_null())
                .col(ColumnDef::new(Tags::Descriptions).text().not_null())
                .col(text(Tags::Logo, 512))
                .col(ColumnDef::new(Tags::TokenId).big_integer().null())
                .col(big(Tags::FollowerCount))
                .col(big(Tags::Sort))
                .to_owned(),
        )
        .await?;
        m.create_table(
            Table::create()
                .table(Channels::Table)
                .col(id(Channels::Id))
                .col(text(Channels::Code, 64).unique_key())
                .col(ColumnDef::new(Channels::Names).text().not_null())
                .col(big(Channels::Sort))
                .to_owned(),
        )
        .await?;
        m.create_table(
            Table::create()
                .table(Kols::Table)
                .col(id(Kols::Id))
                .col(text(Kols::Handle, 64).unique_key())
                .col(text(Kols::Name, 128))
                .col(text(Kols::Avatar, 512))
                .col(ColumnDef::new(Kols::Bios).text().not_null())
                .col(big(Kols::FollowerCount))
                .to_owned(),
        )
        .await?;
        m.create_table(
            Table::create()
                .table(Topics::Table)
                .col(id(Topics::Id))
                .col(text(Topics::Code, 64).unique_key())
                .col(ColumnDef::new(Topics::Titles).text().not_null())
                .col(ColumnDef::new(Topics::Descriptions).text().not_null())
                .col(text(Topics::Cover, 512))
                .col(big(Topics::Heat))
                .to_owned(),
        )
        .await?;
        m.create_table(
            Table::create()
                .table(FeedItems::Table)
                .col(id(FeedItems::Id))
                .col(text(FeedItems::SourceUrl, 1024).unique_key())
                .col(text(FeedItems::Kind, 16))
                .col(text(FeedItems::Lang, 16))
                .col(ColumnDef::new(FeedItems::Title).text().not_null())
                .col(ColumnDef::new(FeedItems::Summary).text().not_null())
                .col(ColumnDef::new(FeedItems::Content).text().not_null())
                .col(text(FeedItems::SourceName, 128))
                .col(ColumnDef::new(FeedItems::KolId).big_integer().null())
                .col(ColumnDef::new(FeedItems::ChannelId).big_integer().null())
                .col(ColumnDef::new(FeedItems::Images).text().not_null())
                .col(ColumnDef::new(FeedItems::Important).boolean().not_null())
                .col(big(FeedItems::PublishedAt))
                .col(big(FeedItems::Views))
                .col(big(FeedItems::Likes))
                .col(big(FeedItems::Comments))
                .col(big(FeedItems::UpdatedAt))
                .to_owned(),
        )
        .await?;
        // Keyset pages: newest first, id breaks ties, per tab.
        let table = || FeedItems::Table.into_iden();
        let newest = |lead: Option<FeedItems>| {
            lead.map(IntoIden::into_iden)
                .into_iter()
                .chain([
                    FeedItems::PublishedAt.into_iden(),
                    FeedItems::Id.into_iden(),
                ])
                .collect::<Vec<_>>()
        };
        index(m, "feed_items_newest", table(), newest(None), false).await?;
        index(
            m,
            "feed_items_kind",
            table(),
            newest(Some(FeedItems::Kind)),
            false,
        )
        .await?;
        let channel = newest(Some(FeedItems::ChannelId));
        index(m, "feed_items_channel", table(), channel, false).await?;
        index(
            m,
            "feed_items_kol",
            table(),
            newest(Some(FeedItems::KolId)),
            false,
        )
        .await?;
        m.create_table(
            Table::create()
                .table(FeedTranslations::Table)
                .col(id(FeedTranslations::Id))
                .col(big(FeedTranslations::FeedId))
                .col(text(FeedTranslations::Locale, 16))
                .col(ColumnDef::new(FeedTranslations::Title).text().not_null())
                .col(ColumnDef::new(FeedTranslations::Summary).text().not_null())
                .col(ColumnDef::new(FeedTranslations::Content).text().not_null())
                .to_owned(),
        )
        .await?;
        let feed_locale = vec![
            FeedTranslations::FeedId.into_iden(),
            FeedTranslations::Locale.into_iden(),
        ];
        let translations = FeedTranslations::Table.into_iden();
        index(m, "feed_translations_feed", translations, feed_locale, true).await?;
        m.create_table(
            Table::create()
                .table(FeedLinks::Table)
                .col(id(FeedLinks::Id))
                .col(big(FeedLinks::FeedId))
                .col(text(FeedLinks::Kind, 8))
                .col(big(FeedLinks::TargetId))
                .col(big(FeedLinks::PublishedAt))
                .to_owned(),
        )
        .await?;
        let links = || FeedLinks::Table.into_iden();
        let by_feed = vec![
            FeedLinks::FeedId.into_iden(),
            FeedLinks::Kind.into_iden(),
            FeedLinks::TargetId.into_iden(),
        ];
        index(m, "feed_links_feed", links(), by_feed, true).await?;
        let by_target = vec![
            FeedLinks::Kind.into_iden(),
            FeedLinks::TargetId.into_iden(),
            FeedLinks::PublishedAt.into_iden(),
            FeedLinks::FeedId.into_iden(),
        ];
        index(m, "feed_links_target", links(), by_target, false).await?;
        m.create_table(
            Table::create()
                .table(Benefits::Table)
                .col(id(Benefits::Id))
                .col(text(Benefits::Link, 1024).unique_key())
                .col(text(Benefits::Project, 128))
                .col(text(Benefits::Logo, 512))
                .col(ColumnDef::new(Benefits::Texts).text().not_null())
                .col(text(Benefits::Reward, 128))
                .col(big(Benefits::Deadline))
                .col(big(Benefits::PublishedAt))
                .to_owned(),
        )
        .await?;
        m.create_table(
            Table::create()
                .table(Follows::Table)
                .col(id(Follows::Id))
                .col(big(Follows::UserId))
                .col(text(Follows::Kind, 8))
                .col(big(Follows::TargetId))
                .col(big(Follows::CreatedAt))
                .to_owned(),
        )
        .await?;
        let follow_key = vec![
            Follows::UserId.into_iden(),
            Follows::Kind.into_iden(),
            Follows::TargetId.into_iden(),
        ];
        index(
            m,
            "follows_user",
            Follows::Table.into_iden(),
            follow_key,
            true,
        )
        .await?;
        create_search_index(m).await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.get_connection()
            .execute_unprepared("DROP TABLE search_docs")
            .await?;
        drop_tables(
            m,
            vec![
                Follows::Table.into_iden(),
                Benefits::Table.into_iden(),
                FeedLinks::Table.into_iden(),
                FeedTranslations::Table.into_iden(),
                FeedItems::Table.into_iden(),
                Topics::Table.into_iden(),
                Kols::Table.into_iden(),
                Channels::Table.into_iden(),
                Tags::Table.into_iden(),
                Tokens::Table.into_iden(),
            ],
        )
        .await?;
        m.alter_table(
            Table::alter()
                .table(Users::Table)
                .drop_column(Users::AutoTranslate)
                .to_owned(),
        )
        .await
    }
}

/// `search_docs(rowid/id, kind, ref_id, title, body)`: one document per feed, tag, token and KOL,
/// holding the text of every language. Words in Chinese and Korean are not separated by spaces,
/// so both databases index character trigrams: SQLite's FTS5 `trigram` tokenizer, PostgreSQL's
/// `pg_trgm` GIN index (which serves `ILIKE '%…%'`).
async fn create_search_index(m: &SchemaManager<'_>) -> Result<(), DbErr> {
    let db = m.get_connection();
    match m.get_database_backend() {
        DatabaseBackend::Sqlite => {
            db.execute_unprepared(
                "CREATE VIRTUAL TABLE search_docs USING fts5(\
                 kind UNINDEXED, ref_id UNINDEXED, title, body, tokenize = 'trigram')",
            )
            .await?;
        }
        _ => {
            db.execute_unprepared("CREATE EXTENSION IF NOT EXISTS pg_trgm")
                .await?;
            db.execute_unprepared(
                "CREATE TABLE search_docs (id BIGINT PRIMARY KEY, kind VARCHAR(8) NOT NULL, \
                 ref_id BIGINT NOT NULL, title TEXT NOT NULL, body TEXT NOT NULL)",
            )
            .await?;
            db.execute_unprepared(
                "CREATE INDEX search_docs_trgm ON search_docs \
                 USING GIN ((title || ' ' || body) gin_trgm_ops)",
            )
            .await?;
        }
    }
    Ok(())
}
