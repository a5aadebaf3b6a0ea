//! Quiet hours: a reader's time zone (IANA, as their browser names it), and instant alerts held
//! until a time (`due_at`), sent as one summary when the quiet hours end.

use sea_orm_migration::prelude::*;

#[derive(DeriveIden)]
enum Users {
    Table,
    TimeZone,
}

#[derive(DeriveIden)]
enum AlertDeliveries {
    Table,
    DueAt,
}

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(
            Table::alter()
                .table(Users::Table)
                .add_column(
                    ColumnDef::new(Users::TimeZone)
                        .string_len(64)
                        .not_null()
                        .default("UTC"),
                )
                .to_owned(),
        )
        .await?;
        m.alter_table(
            Table::alter()
                .table(AlertDeliveries::Table)
                .add_column(
                    ColumnDef::new(AlertDeliveries::DueAt)
                        .big_integer()
                        .not_null()
                        .default(0),
                )
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(
            Table::alter()
                .table(AlertDeliveries::Table)
                .drop_column(AlertDeliveries::DueAt)
                .to_owned(),
        )
        .await?;
        m.alter_table(
            Table::alter()
                .table(Users::Table)
                .drop_column(Users::TimeZone)
                .to_owned(),
        )
        .await
    }
}
