//! Nicknames unique without regard to case in every script: SQLite's `lower()` folds ASCII only,
//! so "Đạt" and "đạt" were two readers there and one on PostgreSQL. Each reader's nickname is
//! kept folded by Rust (`nickname_key`, Unicode lower case) under a unique index on both
//! databases. Keys that now collide keep the oldest reader's nickname; the others get their id.

use std::collections::HashSet;

use sea_orm::{ConnectionTrait, FromQueryResult, Statement};
use sea_orm_migration::prelude::*;

use super::execute_all;

#[derive(DeriveIden)]
enum Users {
    Table,
    NicknameKey,
}

#[derive(FromQueryResult)]
struct Named {
    id: i64,
    nickname: String,
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
                    ColumnDef::new(Users::NicknameKey)
                        .text()
                        .not_null()
                        .default(""),
                )
                .to_owned(),
        )
        .await?;
        let db = m.get_connection();
        let backend = db.get_database_backend();
        let users = Named::find_by_statement(Statement::from_string(
            backend,
            "SELECT id, nickname FROM users ORDER BY id",
        ))
        .all(db)
        .await?;
        let mut seen = HashSet::new();
        for user in users {
            let mut nickname = user.nickname;
            if !seen.insert(crate::validation::nickname_key(&nickname)) {
                nickname = format!("{nickname}_{}", user.id);
                seen.insert(crate::validation::nickname_key(&nickname));
            }
            db.execute(Statement::from_sql_and_values(
                backend,
                "UPDATE users SET nickname = $1, nickname_key = $2 WHERE id = $3",
                [
                    nickname.clone().into(),
                    crate::validation::nickname_key(&nickname).into(),
                    user.id.into(),
                ],
            ))
            .await?;
        }
        execute_all(
            m,
            &[
                "DROP INDEX users_nickname_once",
                "CREATE UNIQUE INDEX users_nickname_key ON users (nickname_key)",
            ],
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        execute_all(
            m,
            &[
                "DROP INDEX users_nickname_key",
                "CREATE UNIQUE INDEX users_nickname_once ON users (lower(nickname))",
            ],
        )
        .await?;
        m.alter_table(
            Table::alter()
                .table(Users::Table)
                .drop_column(Users::NicknameKey)
                .to_owned(),
        )
        .await
    }
}
