//! Reports name the author of what they report, as it was when reported: posts, questions,
//! answers and profiles can be reported now, and a removed one leaves no row to ask.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Reports {
    Table,
    AuthorId,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(
            Table::alter()
                .table(Reports::Table)
                .add_column(ColumnDef::new(Reports::AuthorId).big_integer().null())
                .to_owned(),
        )
        .await?;
        m.get_connection()
            .execute_unprepared(
                "UPDATE reports SET author_id = \
                 (SELECT c.user_id FROM comments c WHERE c.id = reports.target_id) \
                 WHERE kind = 'comment'",
            )
            .await?;
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(
            Table::alter()
                .table(Reports::Table)
                .drop_column(Reports::AuthorId)
                .to_owned(),
        )
        .await
    }
}
