//! Public profiles: a bio, and nicknames unique without regard to case (so `@name` names one
//! reader). Nicknames that already collide keep the oldest as it is; the others get their id.

use sea_orm_migration::prelude::*;

use super::execute_all;

#[derive(DeriveIden)]
enum Users {
    Table,
    Bio,
}

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(
            Table::alter()
                .table(Users::Table)
                .add_column(ColumnDef::new(Users::Bio).text().not_null().default(""))
                .to_owned(),
        )
        .await?;
        execute_all(
            m,
            &[
                "UPDATE users SET nickname = nickname || '_' || CAST(id AS TEXT) WHERE id NOT IN \
                 (SELECT MIN(id) FROM users GROUP BY lower(nickname))",
                "CREATE UNIQUE INDEX users_nickname_once ON users (lower(nickname))",
            ],
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        execute_all(m, &["DROP INDEX users_nickname_once"]).await?;
        m.alter_table(
            Table::alter()
                .table(Users::Table)
                .drop_column(Users::Bio)
                .to_owned(),
        )
        .await
    }
}
