//! Machine translation of readers' comments, questions and answers (`content::translate`): the
//! language each was written in, and their translations, once per text and language.

use sea_orm_migration::prelude::*;

use super::{big, long_text, text};

#[derive(DeriveIden)]
enum Comments {
    Table,
}

#[derive(DeriveIden)]
enum Questions {
    Table,
}

#[derive(DeriveIden)]
enum Answers {
    Table,
}

#[derive(DeriveIden)]
enum TextTranslations {
    Table,
    Kind,
    RefId,
    Locale,
    Title,
    Content,
}

/// The column every written table gains: the writer's language (empty for texts written before
/// it was kept, which are not translated).
#[derive(DeriveIden)]
struct Lang;

fn written() -> [DynIden; 3] {
    [
        Comments::Table.into_iden(),
        Questions::Table.into_iden(),
        Answers::Table.into_iden(),
    ]
}

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        for table in written() {
            m.alter_table(
                Table::alter()
                    .table(table)
                    .add_column(text(Lang, 16).default(""))
                    .to_owned(),
            )
            .await?;
        }
        use TextTranslations as T;
        m.create_table(
            Table::create()
                .table(T::Table)
                .col(text(T::Kind, 16))
                .col(big(T::RefId))
                .col(text(T::Locale, 16))
                .col(long_text(T::Title))
                .col(long_text(T::Content))
                .primary_key(Index::create().col(T::Kind).col(T::RefId).col(T::Locale))
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.drop_table(Table::drop().table(TextTranslations::Table).to_owned())
            .await?;
        for table in written() {
            m.alter_table(Table::alter().table(table).drop_column(Lang).to_owned())
                .await?;
        }
        Ok(())
    }
}
