//! Feeds' search documents hold their articles' text too, in every language. The documents are
//! cleared; start-up writes them again with it (`search::reindex_if_empty`), and each PostgreSQL
//! server's copy takes the rewritten documents as newer ones.

use sea_orm::DatabaseBackend;
use sea_orm_migration::prelude::*;

use super::execute_all;

#[derive(DeriveMigrationName)]
pub struct Migration;

/// Clearing is its own undoing: the documents are rewritten from the rows either way.
async fn clear(m: &SchemaManager<'_>) -> Result<(), DbErr> {
    if m.get_database_backend() == DatabaseBackend::Sqlite {
        execute_all(
            m,
            &[
                "DELETE FROM search_docs",
                "DELETE FROM search_titles",
                "DELETE FROM search_catalogue",
            ],
        )
        .await
    } else {
        execute_all(m, &["DELETE FROM search_docs"]).await
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        clear(m).await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        clear(m).await
    }
}
