//! Readers' own posts: a post is a feed item of kind `post` with its author (`feed_items.user_id`),
//! and every version of its Markdown source (the newest is the one shown; older ones are its
//! edit history). A person's answers and followers are found by index.

use sea_orm_migration::prelude::*;

use super::{big, cols, drop_tables, id, index, long_text, optional};

#[derive(DeriveIden)]
enum FeedItems {
    Table,
    UserId,
    PublishedAt,
    Id,
}

#[derive(DeriveIden)]
enum PostVersions {
    Table,
    Id,
    FeedId,
    Title,
    Markdown,
    Images,
    CreatedAt,
}

#[derive(DeriveIden)]
enum Answers {
    Table,
    UserId,
    Id,
}

#[derive(DeriveIden)]
enum Follows {
    Table,
    Kind,
    TargetId,
}

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(
            Table::alter()
                .table(FeedItems::Table)
                .add_column(optional(FeedItems::UserId))
                .to_owned(),
        )
        .await?;
        // A person's posts, newest first (their profile, and the Following tab).
        index(
            m,
            "feed_items_user",
            FeedItems::Table.into_iden(),
            cols(vec![
                FeedItems::UserId,
                FeedItems::PublishedAt,
                FeedItems::Id,
            ]),
            false,
        )
        .await?;
        m.create_table(
            Table::create()
                .table(PostVersions::Table)
                .col(id(PostVersions::Id))
                .col(big(PostVersions::FeedId))
                .col(long_text(PostVersions::Title))
                .col(long_text(PostVersions::Markdown))
                .col(long_text(PostVersions::Images))
                .col(big(PostVersions::CreatedAt))
                .to_owned(),
        )
        .await?;
        index(
            m,
            "post_versions_feed",
            PostVersions::Table.into_iden(),
            cols(vec![PostVersions::FeedId, PostVersions::Id]),
            false,
        )
        .await?;
        // A person's answers, newest first (their profile).
        index(
            m,
            "answers_by_user",
            Answers::Table.into_iden(),
            cols(vec![Answers::UserId, Answers::Id]),
            false,
        )
        .await?;
        // A person's followers.
        index(
            m,
            "follows_target",
            Follows::Table.into_iden(),
            cols(vec![Follows::Kind, Follows::TargetId]),
            false,
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        for name in ["follows_target", "answers_by_user"] {
            m.drop_index(Index::drop().name(name).to_owned()).await?;
        }
        drop_tables(m, cols(vec![PostVersions::Table.into_iden()])).await?;
        m.drop_index(Index::drop().name("feed_items_user").to_owned())
            .await?;
        m.alter_table(
            Table::alter()
                .table(FeedItems::Table)
                .drop_column(FeedItems::UserId)
                .to_owned(),
        )
        .await
    }
}
