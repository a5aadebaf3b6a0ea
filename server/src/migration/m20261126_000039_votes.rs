//! Readers' votes on items (`social::votes`), each item's counts beside its likes and comments,
//! and the hot and rising rankings that pages are cut from (`content::ranking`).

use sea_orm_migration::prelude::*;

use super::{big, cols, drop_tables, id, index, long_text, text};

#[derive(DeriveIden)]
enum Votes {
    Table,
    Id,
    FeedId,
    UserId,
    Kind,
    CreatedAt,
}

#[derive(DeriveIden)]
enum FeedItems {
    Table,
    VoteBullish,
    VoteBearish,
    VoteImportant,
    VoteLol,
    VoteToxic,
}

#[derive(DeriveIden)]
enum FeedRankings {
    Table,
    Id,
    Key,
    MadeAt,
    Ids,
}

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        use Votes as V;
        m.create_table(
            Table::create()
                .table(V::Table)
                .col(id(V::Id))
                .col(big(V::FeedId))
                .col(big(V::UserId))
                .col(text(V::Kind, 16))
                .col(big(V::CreatedAt))
                .to_owned(),
        )
        .await?;
        index(
            m,
            "votes_once",
            V::Table.into_iden(),
            cols(vec![V::FeedId, V::UserId, V::Kind]),
            true,
        )
        .await?;
        index(
            m,
            "votes_by_user",
            V::Table.into_iden(),
            cols(vec![V::UserId]),
            false,
        )
        .await?;
        index(
            m,
            "votes_recent",
            V::Table.into_iden(),
            cols(vec![V::CreatedAt]),
            false,
        )
        .await?;
        // One column a statement: SQLite adds no more at once.
        for column in [
            FeedItems::VoteBullish,
            FeedItems::VoteBearish,
            FeedItems::VoteImportant,
            FeedItems::VoteLol,
            FeedItems::VoteToxic,
        ] {
            m.alter_table(
                Table::alter()
                    .table(FeedItems::Table)
                    .add_column(big(column).default(0))
                    .to_owned(),
            )
            .await?;
        }
        use FeedRankings as R;
        m.create_table(
            Table::create()
                .table(R::Table)
                .col(id(R::Id))
                .col(text(R::Key, 300))
                .col(big(R::MadeAt))
                .col(long_text(R::Ids))
                .to_owned(),
        )
        .await?;
        index(
            m,
            "feed_rankings_by_key",
            R::Table.into_iden(),
            cols(vec![R::Key, R::MadeAt]),
            false,
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        for column in [
            FeedItems::VoteBullish,
            FeedItems::VoteBearish,
            FeedItems::VoteImportant,
            FeedItems::VoteLol,
            FeedItems::VoteToxic,
        ] {
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
                FeedRankings::Table.into_iden(),
                Votes::Table.into_iden(),
            ]),
        )
        .await
    }
}
