//! Search documents split into titles and other text, with feeds under their own ids and
//! catalogue entries under negative ids, so search can rank by tier and stop after one page.
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
            // Feeds with every term in a title are a tier of their own.
            db.execute_unprepared(
                "CREATE INDEX search_docs_title_trgm ON search_docs USING GIN (title gin_trgm_ops)",
            )
            .await?;
        }
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        if m.get_database_backend() == DatabaseBackend::Postgres {
            m.get_connection()
                .execute_unprepared("DROP INDEX search_docs_title_trgm")
                .await?;
        }
        Ok(())
    }
}
