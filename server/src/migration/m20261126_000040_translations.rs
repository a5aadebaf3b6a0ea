//! Machine translation (`content::translate`): which item texts a machine wrote, and the
//! characters sent for translation each day (the budget every server shares).

use sea_orm_migration::prelude::*;

use super::big;

#[derive(DeriveIden)]
enum FeedTranslations {
    Table,
    Machine,
}

#[derive(DeriveIden)]
enum TranslationDays {
    Table,
    Day,
    Chars,
}

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(
            Table::alter()
                .table(FeedTranslations::Table)
                .add_column(
                    ColumnDef::new(FeedTranslations::Machine)
                        .boolean()
                        .not_null()
                        .default(false),
                )
                .to_owned(),
        )
        .await?;
        m.create_table(
            Table::create()
                .table(TranslationDays::Table)
                .col(big(TranslationDays::Day).primary_key())
                .col(big(TranslationDays::Chars))
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.drop_table(Table::drop().table(TranslationDays::Table).to_owned())
            .await?;
        m.alter_table(
            Table::alter()
                .table(FeedTranslations::Table)
                .drop_column(FeedTranslations::Machine)
                .to_owned(),
        )
        .await
    }
}
