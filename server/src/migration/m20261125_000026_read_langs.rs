//! "Languages I read": each reader's languages, comma-separated in `LOCALES` order. Everyone
//! starts with their interface's language and English (client-core's `default_read_langs`).

use sea_orm_migration::prelude::*;

use super::execute_all;

#[derive(DeriveIden)]
enum Users {
    Table,
    ReadLangs,
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
                    ColumnDef::new(Users::ReadLangs)
                        .string_len(64)
                        .not_null()
                        .default("en"),
                )
                .to_owned(),
        )
        .await?;
        // English comes first in `LOCALES`, so this is their order.
        execute_all(
            m,
            &["UPDATE users SET read_langs = 'en,' || locale WHERE locale <> 'en'"],
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(
            Table::alter()
                .table(Users::Table)
                .drop_column(Users::ReadLangs)
                .to_owned(),
        )
        .await
    }
}
