//! The member who steers a LINE group's bot: LINE tells no one who administers a group, so the
//! first member to change what the group receives steers it from then on.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum BotChats {
    Table,
    Steward,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(
            Table::alter()
                .table(BotChats::Table)
                .add_column(ColumnDef::new(BotChats::Steward).string_len(64).null())
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(
            Table::alter()
                .table(BotChats::Table)
                .drop_column(BotChats::Steward)
                .to_owned(),
        )
        .await
    }
}
