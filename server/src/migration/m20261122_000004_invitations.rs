//! Who invited whom: set once per user.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Users {
    Table,
    InvitedBy,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        let column = ColumnDef::new(Users::InvitedBy)
            .big_integer()
            .null()
            .to_owned();
        m.alter_table(
            Table::alter()
                .table(Users::Table)
                .add_column(column)
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(
            Table::alter()
                .table(Users::Table)
                .drop_column(Users::InvitedBy)
                .to_owned(),
        )
        .await
    }
}
