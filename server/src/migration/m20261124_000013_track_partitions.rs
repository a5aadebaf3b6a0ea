//! Tracking entries are kept for a retention period (`track::apply_retention`). On PostgreSQL
//! the table becomes partitioned by month of `received_at`, so a month past retention is dropped
//! whole instead of deleted row by row; a default partition takes whatever arrives before its
//! month's partition exists. On SQLite, an index on `received_at` serves the delete.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::{ConnectionTrait, DatabaseBackend};

#[derive(DeriveMigrationName)]
pub struct Migration;

const TO_PARTITIONED: &str = r"
ALTER TABLE track_logs RENAME TO track_logs_unpartitioned;
ALTER SEQUENCE track_logs_id_seq RENAME TO track_logs_unpartitioned_id_seq;
CREATE TABLE track_logs (
    id BIGSERIAL NOT NULL,
    kind VARCHAR(8) NOT NULL,
    event VARCHAR(64) NOT NULL,
    time_ms BIGINT NOT NULL,
    prop TEXT NOT NULL,
    user_id BIGINT NULL,
    guest_id BIGINT NULL,
    received_at BIGINT NOT NULL,
    PRIMARY KEY (id, received_at)
) PARTITION BY RANGE (received_at);
CREATE TABLE track_logs_default PARTITION OF track_logs DEFAULT;
INSERT INTO track_logs (kind, event, time_ms, prop, user_id, guest_id, received_at)
    SELECT kind, event, time_ms, prop, user_id, guest_id, received_at
    FROM track_logs_unpartitioned ORDER BY id;
DROP TABLE track_logs_unpartitioned;
";

const TO_PLAIN: &str = r"
CREATE TABLE track_logs_plain (LIKE track_logs INCLUDING DEFAULTS);
INSERT INTO track_logs_plain SELECT * FROM track_logs;
DROP TABLE track_logs;
ALTER TABLE track_logs_plain RENAME TO track_logs;
ALTER TABLE track_logs ADD PRIMARY KEY (id);
";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        let db = m.get_connection();
        if db.get_database_backend() == DatabaseBackend::Postgres {
            db.execute_unprepared(TO_PARTITIONED).await?;
            return Ok(());
        }
        m.create_index(
            Index::create()
                .name("track_logs_received_at")
                .table(Alias::new("track_logs"))
                .col(Alias::new("received_at"))
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        let db = m.get_connection();
        if db.get_database_backend() == DatabaseBackend::Postgres {
            db.execute_unprepared(TO_PLAIN).await?;
            return Ok(());
        }
        m.drop_index(
            Index::drop()
                .name("track_logs_received_at")
                .table(Alias::new("track_logs"))
                .to_owned(),
        )
        .await
    }
}
