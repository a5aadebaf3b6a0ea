//! A PostgreSQL database names itself with a random id, so a server's search copy can tell that
//! it is a copy of this database (`content::search_copy`) and not of one dropped and made again
//! under the same name.

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
        db.execute_unprepared("CREATE TABLE search_source (id TEXT NOT NULL)")
            .await?;
        db.execute_unprepared("INSERT INTO search_source (id) VALUES (gen_random_uuid()::text)")
            .await?;
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        if m.get_database_backend() != DatabaseBackend::Postgres {
            return Ok(());
        }
        m.get_connection()
            .execute_unprepared("DROP TABLE search_source")
            .await?;
        Ok(())
    }
}
