//! Every search reads a SQLite search index, the catalogue included, and each document carries
//! its titles by language (`names`), so a page of hits needs no other query. PostgreSQL keeps
//! all documents in `search_docs`, the source of each server's copy (`content::search_copy`).
//! The old documents are dropped; start-up writes the new ones (`search::reindex_if_empty`).

use sea_orm::DatabaseBackend;
use sea_orm_migration::prelude::*;

use super::execute_all;

#[derive(DeriveMigrationName)]
pub struct Migration;

const SQLITE_FEED_TITLES: &str = "CREATE VIRTUAL TABLE search_titles USING fts5(\
     title, tokenize = 'trigram', content = '', contentless_delete = 1)";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        if m.get_database_backend() == DatabaseBackend::Sqlite {
            execute_all(
                m,
                &[
                    "DROP TABLE search_docs",
                    "DROP TABLE search_titles",
                    "CREATE VIRTUAL TABLE search_docs USING fts5(kind UNINDEXED, \
                     ref_id UNINDEXED, names UNINDEXED, title, body, tokenize = 'trigram')",
                    SQLITE_FEED_TITLES,
                    "DELETE FROM search_catalogue",
                    "ALTER TABLE search_catalogue ADD COLUMN names TEXT NOT NULL DEFAULT '{}'",
                ],
            )
            .await
        } else {
            execute_all(
                m,
                &[
                    "DROP TABLE search_catalogue",
                    "DELETE FROM search_docs",
                    "ALTER TABLE search_docs ADD COLUMN names TEXT NOT NULL DEFAULT '{}'",
                ],
            )
            .await
        }
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        if m.get_database_backend() == DatabaseBackend::Sqlite {
            execute_all(
                m,
                &[
                    "DROP TABLE search_docs",
                    "DROP TABLE search_titles",
                    "CREATE VIRTUAL TABLE search_docs USING fts5(kind UNINDEXED, \
                     ref_id UNINDEXED, title, body, tokenize = 'trigram')",
                    SQLITE_FEED_TITLES,
                    "DELETE FROM search_catalogue",
                    "ALTER TABLE search_catalogue DROP COLUMN names",
                ],
            )
            .await
        } else {
            execute_all(
                m,
                &[
                    "DELETE FROM search_docs",
                    "ALTER TABLE search_docs DROP COLUMN names",
                    "CREATE TABLE search_catalogue (id BIGINT PRIMARY KEY, \
                     kind VARCHAR(8) NOT NULL, ref_id BIGINT NOT NULL, title TEXT NOT NULL, \
                     body TEXT NOT NULL, doc_key TEXT NOT NULL)",
                ],
            )
            .await
        }
    }
}
