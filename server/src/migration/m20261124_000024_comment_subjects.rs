//! Comments on questions and answers too: a comment's subject is a feed item, a question or an
//! answer (`subject_kind`), named by `subject_id` (formerly `feed_id`; every comment so far is on
//! a feed item).

use sea_orm_migration::prelude::*;

use super::text;

#[derive(DeriveIden)]
enum Comments {
    Table,
    FeedId,
    SubjectId,
    SubjectKind,
}

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(
            Table::alter()
                .table(Comments::Table)
                .rename_column(Comments::FeedId, Comments::SubjectId)
                .to_owned(),
        )
        .await?;
        m.alter_table(
            Table::alter()
                .table(Comments::Table)
                .add_column(text(Comments::SubjectKind, 16).default("feed").to_owned())
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(
            Table::alter()
                .table(Comments::Table)
                .drop_column(Comments::SubjectKind)
                .to_owned(),
        )
        .await?;
        m.alter_table(
            Table::alter()
                .table(Comments::Table)
                .rename_column(Comments::SubjectId, Comments::FeedId)
                .to_owned(),
        )
        .await
    }
}
