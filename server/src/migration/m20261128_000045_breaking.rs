//! Breaking news (`linking`): an item that became important because its story gained sources
//! fast keeps why (`client_core::breaking::ImportantReason` as JSON).

use sea_orm_migration::prelude::*;

#[derive(DeriveIden)]
enum FeedItems {
    Table,
    ImportantReason,
}

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(
            Table::alter()
                .table(FeedItems::Table)
                .add_column(ColumnDef::new(FeedItems::ImportantReason).text().null())
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(
            Table::alter()
                .table(FeedItems::Table)
                .drop_column(FeedItems::ImportantReason)
                .to_owned(),
        )
        .await
    }
}
