//! Tokens and topics can be followed like tags and KOLs: each keeps its follower count.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        for table in ["tokens", "topics"] {
            m.alter_table(
                Table::alter()
                    .table(Alias::new(table))
                    .add_column(
                        ColumnDef::new(Alias::new("follower_count"))
                            .big_integer()
                            .not_null()
                            .default(0),
                    )
                    .to_owned(),
            )
            .await?;
        }
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        for table in ["tokens", "topics"] {
            m.alter_table(
                Table::alter()
                    .table(Alias::new(table))
                    .drop_column(Alias::new("follower_count"))
                    .to_owned(),
            )
            .await?;
        }
        Ok(())
    }
}
