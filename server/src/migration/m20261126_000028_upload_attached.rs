//! When an upload was first used (by feedback, a post or an avatar): one never used is deleted
//! a day after it came, so anonymous uploads cannot fill the disk.

use sea_orm_migration::prelude::*;

use super::optional;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Uploads {
    Table,
    AttachedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(
            Table::alter()
                .table(Uploads::Table)
                .add_column(optional(Uploads::AttachedAt))
                .to_owned(),
        )
        .await?;
        // Uploads made before this were all kept: they count as used.
        m.get_connection()
            .execute_unprepared("UPDATE uploads SET attached_at = created_at")
            .await?;
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(
            Table::alter()
                .table(Uploads::Table)
                .drop_column(Uploads::AttachedAt)
                .to_owned(),
        )
        .await
    }
}
