//! The daily alert email: which alerts matched each delivery (the email groups by them), when a
//! delivery was emailed, and one digest a reader a day.

use sea_orm_migration::prelude::*;

use super::{big, cols, drop_tables, id, index, text};

#[derive(DeriveIden)]
enum AlertDeliveries {
    Table,
    AlertIds,
    EmailedAt,
}

#[derive(DeriveIden)]
enum AlertDigests {
    Table,
    Id,
    UserId,
    Day,
    CreatedAt,
}

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(
            Table::alter()
                .table(AlertDeliveries::Table)
                .add_column(
                    ColumnDef::new(AlertDeliveries::AlertIds)
                        .string_len(255)
                        .not_null()
                        .default(""),
                )
                .to_owned(),
        )
        .await?;
        m.alter_table(
            Table::alter()
                .table(AlertDeliveries::Table)
                .add_column(
                    ColumnDef::new(AlertDeliveries::EmailedAt)
                        .big_integer()
                        .null(),
                )
                .to_owned(),
        )
        .await?;
        use AlertDigests as D;
        m.create_table(
            Table::create()
                .table(D::Table)
                .col(id(D::Id))
                .col(big(D::UserId))
                .col(text(D::Day, 10))
                .col(big(D::CreatedAt))
                .to_owned(),
        )
        .await?;
        index(
            m,
            "alert_digests_once",
            D::Table.into_iden(),
            cols(vec![D::UserId, D::Day]),
            true,
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        drop_tables(m, cols(vec![AlertDigests::Table.into_iden()])).await?;
        for column in [AlertDeliveries::EmailedAt, AlertDeliveries::AlertIds] {
            m.alter_table(
                Table::alter()
                    .table(AlertDeliveries::Table)
                    .drop_column(column)
                    .to_owned(),
            )
            .await?;
        }
        Ok(())
    }
}
