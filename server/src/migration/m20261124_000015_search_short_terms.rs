//! Feeds' search documents carry their one- and two-character pieces (`grams`), so terms too
//! short for the trigram index are found through it instead of by reading every document.
//! On SQLite the feed tables are made again and start-up writes every document
//! (`search::reindex_if_empty`); a PostgreSQL server's copy is built with them from its source.

use sea_orm::DatabaseBackend;
use sea_orm_migration::prelude::*;

use super::execute_all;

#[derive(DeriveMigrationName)]
pub struct Migration;

/// Only SQLite keeps the index in its database.
async fn run(m: &SchemaManager<'_>, statements: &[&str]) -> Result<(), DbErr> {
    if m.get_database_backend() != DatabaseBackend::Sqlite {
        return Ok(());
    }
    execute_all(m, statements).await
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        run(
            m,
            &[
                "DROP TABLE search_docs",
                "DROP TABLE search_titles",
                "CREATE VIRTUAL TABLE search_docs USING fts5(kind UNINDEXED, ref_id UNINDEXED, \
                 names UNINDEXED, title, body, grams, tokenize = 'trigram')",
                "CREATE VIRTUAL TABLE search_titles USING fts5(title, grams, \
                 tokenize = 'trigram', content = '', contentless_delete = 1)",
                "DELETE FROM search_catalogue",
            ],
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        run(
            m,
            &[
                "DROP TABLE search_docs",
                "DROP TABLE search_titles",
                "CREATE VIRTUAL TABLE search_docs USING fts5(kind UNINDEXED, ref_id UNINDEXED, \
                 names UNINDEXED, title, body, tokenize = 'trigram')",
                "CREATE VIRTUAL TABLE search_titles USING fts5(title, tokenize = 'trigram', \
                 content = '', contentless_delete = 1)",
                "DELETE FROM search_catalogue",
            ],
        )
        .await
    }
}
