//! Search documents split into titles and other text, with feeds under their negated ids and
//! catalogue entries under positive ones, so search can rank by tier and stop after one page;
//! on PostgreSQL, lower-cased copies matched with `LIKE`.
//! The old documents are dropped; start-up writes the new ones (`search::reindex_if_empty`).

use sea_orm::DatabaseBackend;
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        let db = m.get_connection();
        db.execute_unprepared("DELETE FROM search_docs").await?;
        if m.get_database_backend() == DatabaseBackend::Postgres {
            // Lower-cased copies to match with LIKE: ILIKE lower-cases every candidate row of a
            // UTF-8 database again, which made a common term cost hundreds of milliseconds.
            // Feeds with every term in a title are a tier of their own, so titles get an index.
            for statement in [
                "DROP INDEX search_docs_trgm",
                "ALTER TABLE search_docs ADD COLUMN title_key TEXT NOT NULL DEFAULT '', \
                 ADD COLUMN doc_key TEXT NOT NULL DEFAULT ''",
                "CREATE INDEX search_docs_title_key ON search_docs USING GIN (title_key gin_trgm_ops)",
                "CREATE INDEX search_docs_doc_key ON search_docs USING GIN (doc_key gin_trgm_ops)",
            ] {
                db.execute_unprepared(statement).await?;
            }
        }
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        if m.get_database_backend() == DatabaseBackend::Postgres {
            let db = m.get_connection();
            for statement in [
                "ALTER TABLE search_docs DROP COLUMN title_key, DROP COLUMN doc_key",
                "CREATE INDEX search_docs_trgm ON search_docs \
                 USING GIN ((title || ' ' || body) gin_trgm_ops)",
            ] {
                db.execute_unprepared(statement).await?;
            }
        }
        Ok(())
    }
}
