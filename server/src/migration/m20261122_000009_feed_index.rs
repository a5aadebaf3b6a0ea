//! PostgreSQL servers search feeds in a SQLite copy beside them (`content::search_copy`):
//! `search_docs` becomes that copy's source, each row stamped with the transaction that wrote
//! it, and its trigram keys and indexes go.

use sea_orm::DatabaseBackend;
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        if m.get_database_backend() != DatabaseBackend::Postgres {
            return Ok(());
        }
        let db = m.get_connection();
        for statement in [
            "DROP INDEX search_docs_title_key",
            "DROP INDEX search_docs_doc_key",
            "ALTER TABLE search_docs DROP COLUMN title_key, DROP COLUMN doc_key, \
             ADD COLUMN txid BIGINT NOT NULL DEFAULT 0",
            "CREATE INDEX search_docs_txid ON search_docs (txid)",
        ] {
            db.execute_unprepared(statement).await?;
        }
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        if m.get_database_backend() != DatabaseBackend::Postgres {
            return Ok(());
        }
        let db = m.get_connection();
        for statement in [
            "DROP INDEX search_docs_txid",
            "ALTER TABLE search_docs DROP COLUMN txid, \
             ADD COLUMN title_key TEXT NOT NULL DEFAULT '', \
             ADD COLUMN doc_key TEXT NOT NULL DEFAULT ''",
            "UPDATE search_docs SET title_key = lower(title), \
             doc_key = lower(title || chr(10) || body)",
            "CREATE INDEX search_docs_title_key ON search_docs USING GIN (title_key gin_trgm_ops)",
            "CREATE INDEX search_docs_doc_key ON search_docs USING GIN (doc_key gin_trgm_ops)",
        ] {
            db.execute_unprepared(statement).await?;
        }
        Ok(())
    }
}
