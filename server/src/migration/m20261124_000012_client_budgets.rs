//! Per-client budgets shared by every server (`limits`), and the views counted once per reader,
//! item and day.

use sea_orm_migration::prelude::*;

use super::{big, drop_tables, text};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum RateLimits {
    Table,
    Bucket,
    WindowStart,
    Hits,
}

#[derive(DeriveIden)]
enum FeedViews {
    Table,
    FeedId,
    Reader,
    Day,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table(RateLimits::Table)
                .col(text(RateLimits::Bucket, 96).primary_key())
                .col(big(RateLimits::WindowStart))
                .col(ColumnDef::new(RateLimits::Hits).integer().not_null())
                .to_owned(),
        )
        .await?;
        m.create_table(
            Table::create()
                .table(FeedViews::Table)
                .col(big(FeedViews::FeedId))
                .col(text(FeedViews::Reader, 64))
                .col(big(FeedViews::Day))
                .primary_key(
                    Index::create()
                        .col(FeedViews::FeedId)
                        .col(FeedViews::Reader)
                        .col(FeedViews::Day),
                )
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        drop_tables(
            m,
            vec![FeedViews::Table.into_iden(), RateLimits::Table.into_iden()],
        )
        .await
    }
}
