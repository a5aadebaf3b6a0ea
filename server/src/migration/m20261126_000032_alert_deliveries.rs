//! Instant alerts' work: each new item waits in `alert_jobs` (queued in the transaction that
//! stores it) until it is matched against every rule; each match is one `alert_deliveries` row
//! per reader and item (a unique key: once, however many rules and servers match it).

use sea_orm_migration::prelude::*;

use super::{big, cols, drop_tables, id, index, optional, text};

#[derive(DeriveIden)]
enum AlertJobs {
    Table,
    Id,
    FeedId,
    CreatedAt,
}

#[derive(DeriveIden)]
enum AlertDeliveries {
    Table,
    Id,
    UserId,
    FeedId,
    Deliver,
    Mode,
    State,
    CreatedAt,
    SentAt,
}

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        use AlertJobs as J;
        m.create_table(
            Table::create()
                .table(J::Table)
                .col(id(J::Id))
                .col(big(J::FeedId))
                .col(big(J::CreatedAt))
                .to_owned(),
        )
        .await?;
        index(
            m,
            "alert_jobs_once",
            J::Table.into_iden(),
            cols(vec![J::FeedId]),
            true,
        )
        .await?;
        use AlertDeliveries as D;
        m.create_table(
            Table::create()
                .table(D::Table)
                .col(id(D::Id))
                .col(big(D::UserId))
                .col(big(D::FeedId))
                .col(text(D::Deliver, 64))
                .col(text(D::Mode, 16))
                .col(text(D::State, 16))
                .col(big(D::CreatedAt))
                .col(optional(D::SentAt))
                .to_owned(),
        )
        .await?;
        let t = || D::Table.into_iden();
        index(
            m,
            "alert_deliveries_once",
            t(),
            cols(vec![D::UserId, D::FeedId]),
            true,
        )
        .await?;
        index(
            m,
            "alert_deliveries_due",
            t(),
            cols(vec![D::State, D::Id]),
            false,
        )
        .await?;
        index(
            m,
            "alert_deliveries_recent",
            t(),
            cols(vec![D::Mode, D::CreatedAt]),
            false,
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        drop_tables(
            m,
            cols(vec![
                AlertDeliveries::Table.into_iden(),
                AlertJobs::Table.into_iden(),
            ]),
        )
        .await
    }
}
