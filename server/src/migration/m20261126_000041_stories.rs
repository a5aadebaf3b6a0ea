//! Stories (`content::stories`): items that report one event, the card each feed shows for them,
//! and the fingerprints and index keys that find an item's story at ingest.

use sea_orm_migration::prelude::*;

use super::{big, cols, drop_tables, id, index, long_text, optional, text};

#[derive(DeriveIden)]
enum Stories {
    Table,
    Id,
    LeadId,
    Size,
    FirstId,
    FirstLang,
    FirstAt,
}

#[derive(DeriveIden)]
enum FeedItems {
    Table,
    StoryId,
    StoryHidden,
}

#[derive(DeriveIden)]
enum StoryPrints {
    Table,
    FeedId,
    PublishedAt,
    Print,
    Split,
}

#[derive(DeriveIden)]
enum StoryKeys {
    Table,
    Key,
    FeedId,
    PublishedAt,
}

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        use Stories as S;
        m.create_table(
            Table::create()
                .table(S::Table)
                .col(id(S::Id))
                .col(big(S::LeadId))
                .col(big(S::Size))
                .col(big(S::FirstId))
                .col(text(S::FirstLang, 16))
                .col(big(S::FirstAt))
                .to_owned(),
        )
        .await?;
        // One column a statement: SQLite adds no more at once.
        m.alter_table(
            Table::alter()
                .table(FeedItems::Table)
                .add_column(optional(FeedItems::StoryId))
                .to_owned(),
        )
        .await?;
        m.alter_table(
            Table::alter()
                .table(FeedItems::Table)
                .add_column(
                    ColumnDef::new(FeedItems::StoryHidden)
                        .boolean()
                        .not_null()
                        .default(false),
                )
                .to_owned(),
        )
        .await?;
        index(
            m,
            "feed_items_by_story",
            FeedItems::Table.into_iden(),
            cols(vec![FeedItems::StoryId]),
            false,
        )
        .await?;
        use StoryPrints as P;
        m.create_table(
            Table::create()
                .table(P::Table)
                .col(big(P::FeedId).primary_key())
                .col(big(P::PublishedAt))
                .col(long_text(P::Print))
                .col(ColumnDef::new(P::Split).boolean().not_null().default(false))
                .to_owned(),
        )
        .await?;
        index(
            m,
            "story_prints_by_time",
            P::Table.into_iden(),
            cols(vec![P::PublishedAt]),
            false,
        )
        .await?;
        use StoryKeys as K;
        m.create_table(
            Table::create()
                .table(K::Table)
                .col(big(K::Key))
                .col(big(K::FeedId))
                .col(big(K::PublishedAt))
                .primary_key(Index::create().col(K::Key).col(K::FeedId))
                .to_owned(),
        )
        .await?;
        index(
            m,
            "story_keys_in_time",
            K::Table.into_iden(),
            cols(vec![K::Key, K::PublishedAt]),
            false,
        )
        .await?;
        index(
            m,
            "story_keys_by_time",
            K::Table.into_iden(),
            cols(vec![K::PublishedAt]),
            false,
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.drop_index(
            Index::drop()
                .name("feed_items_by_story")
                .table(FeedItems::Table)
                .to_owned(),
        )
        .await?;
        for column in [FeedItems::StoryHidden, FeedItems::StoryId] {
            m.alter_table(
                Table::alter()
                    .table(FeedItems::Table)
                    .drop_column(column)
                    .to_owned(),
            )
            .await?;
        }
        drop_tables(
            m,
            cols(vec![
                StoryKeys::Table.into_iden(),
                StoryPrints::Table.into_iden(),
                Stories::Table.into_iden(),
            ]),
        )
        .await
    }
}
