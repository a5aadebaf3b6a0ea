//! Likes: one row per reader and liked thing (a feed item; comments later), so liking twice
//! is one like; the item's `likes` column is the count, moved with each row that comes or goes.

use sea_orm_migration::prelude::*;

use super::{big, drop_tables, id, index, text};

#[derive(DeriveIden)]
enum Likes {
    Table,
    Id,
    UserId,
    Kind,
    TargetId,
    CreatedAt,
}

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table(Likes::Table)
                .col(id(Likes::Id))
                .col(big(Likes::UserId))
                .col(text(Likes::Kind, 16))
                .col(big(Likes::TargetId))
                .col(big(Likes::CreatedAt))
                .to_owned(),
        )
        .await?;
        index(
            m,
            "likes_once",
            Likes::Table.into_iden(),
            vec![
                Likes::UserId.into_iden(),
                Likes::Kind.into_iden(),
                Likes::TargetId.into_iden(),
            ],
            true,
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        drop_tables(m, vec![Likes::Table.into_iden()]).await
    }
}
