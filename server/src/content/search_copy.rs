//! Where a PostgreSQL server searches: a copy of the search documents in a SQLite search index
//! beside it (`DATA_DIR/search-index.sqlite`), the index a SQLite deployment keeps in its own
//! database.
//!
//! PostgreSQL's trigram indexes (pg_trgm under `LIKE`) hand every candidate row to the heap
//! to be read and rechecked before results can be ordered; at 100,000 feeds that cost 6 to 7 ms
//! of database time a query, about 300 searches a second on two cores. FTS5 walks its postings
//! in document order and stops after one page. The catalogue and the titles by language are in
//! the copy too: a round trip to PostgreSQL costs more than a search's FTS5 queries (dropping
//! the two a search made took the long tail at 10,000 feeds from 1,038 to 1,370 searches a
//! second).
//!
//! `search_docs` in PostgreSQL stays the source: each write stamps its row with the id of the
//! writing transaction. The copy catches up before a search when this server has written
//! content, or when a second has passed (the time another server's writes take to show, as
//! with its cached result pages). Catching up reads the rows stamped at or after the oldest
//! transaction still running when it last caught up, so a write that commits late is not
//! missed.
//!
//! The copy outlives the server: it records which database it copies (`search_source`, a random
//! id the migrations give each database), the layout of its tables, and how far it has read. At
//! start-up a copy of the same database and layout, not ahead of the database's transactions (a
//! restored backup), is caught up and serves at once; any other is built afresh, in the
//! background, while `/api/health` says so and searches answer that search is not ready yet.

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};

use sea_orm::{
    ConnectionTrait, DatabaseBackend, DatabaseConnection, DbErr, FromQueryResult, Statement,
    TransactionTrait, Value,
};
use sha2::{Digest, Sha256};
use tokio::sync::Mutex;

use super::search::{self, DocRow};
use crate::error::AppResult;

const FILE: &str = "search-index.sqlite";
/// What the copy records about itself, beside the index tables.
const META: &str = "CREATE TABLE copy_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)";

/// Rows copied per round trip.
const BATCH: u64 = 2_000;

pub struct SearchCopy {
    db: DatabaseConnection,
    progress: Mutex<Progress>,
    /// This server wrote content since it last caught up.
    stale: AtomicBool,
    /// When it last caught up, in the app clock's seconds.
    caught_up_at: AtomicI64,
}

struct Progress {
    /// Rows stamped at or after this transaction id may not have been copied yet.
    since: i64,
    /// Of those rows, the stamp each was copied at, so a row is not copied twice.
    copied: HashMap<i64, i64>,
}

#[derive(FromQueryResult)]
struct Xmin {
    xmin: i64,
}

#[derive(FromQueryResult)]
struct Text {
    value: String,
}

/// How start-up found the copy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opened {
    /// The copy beside the server was of this database: it read only what was written since.
    Reused {
        caught_up: u64,
    },
    Built {
        copied: u64,
    },
}

/// The database the copy is of and the layout of its tables: a copy of another database, or in
/// an older layout, is built again.
async fn identity(source: &DatabaseConnection) -> AppResult<String> {
    let id = Text::find_by_statement(Statement::from_string(
        DatabaseBackend::Postgres,
        "SELECT id AS value FROM search_source",
    ))
    .one(source)
    .await?
    .ok_or_else(|| DbErr::Custom("search_source has no id".to_owned()))?;
    let layout = Sha256::digest(search::INDEX_TABLES.concat());
    Ok(format!("{}/{}", id.value, hex::encode(&layout[..8])))
}

/// The newest transaction id the source has handed out (without taking one).
async fn newest_txid(source: &DatabaseConnection) -> AppResult<i64> {
    Ok(Xmin::find_by_statement(Statement::from_string(
        DatabaseBackend::Postgres,
        "SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint AS xmin",
    ))
    .one(source)
    .await?
    .map_or(0, |x| x.xmin))
}

async fn meta(db: &DatabaseConnection, key: &str) -> AppResult<Option<String>> {
    Ok(Text::find_by_statement(Statement::from_sql_and_values(
        DatabaseBackend::Sqlite,
        "SELECT value FROM copy_meta WHERE key = ?",
        [key.into()],
    ))
    .one(db)
    .await?
    .map(|t| t.value))
}

async fn set_meta(db: &impl ConnectionTrait, key: &str, value: String) -> AppResult<()> {
    db.execute(Statement::from_sql_and_values(
        DatabaseBackend::Sqlite,
        "INSERT INTO copy_meta (key, value) VALUES (?, ?) \
         ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        [Value::from(key), value.into()],
    ))
    .await?;
    Ok(())
}

/// Which version of a document a row of the source holds.
#[derive(FromQueryResult)]
struct Stamp {
    id: i64,
    txid: i64,
}

impl SearchCopy {
    /// The copy under `dir`: the one there when it is of `source` and in this layout, caught up;
    /// else a new one, filled from `source`.
    pub async fn open(
        dir: &Path,
        source: &DatabaseConnection,
        now: i64,
    ) -> AppResult<(Self, Opened)> {
        let identity = identity(source).await?;
        match Self::reuse(dir, source, &identity, now).await {
            Ok(Some(copy)) => {
                let caught_up = copy
                    .catch_up(source, &mut *copy.progress.lock().await)
                    .await?;
                tracing::info!("search index: reused, {caught_up} documents caught up");
                return Ok((copy, Opened::Reused { caught_up }));
            }
            Ok(None) => {}
            Err(e) => tracing::warn!("search index: the copy beside the server is unusable: {e}"),
        }
        let (copy, copied) = Self::build(dir, source, &identity, now).await?;
        Ok((copy, Opened::Built { copied }))
    }

    /// The copy under `dir`, if it is of `identity` and no newer than the source.
    async fn reuse(
        dir: &Path,
        source: &DatabaseConnection,
        identity: &str,
        now: i64,
    ) -> AppResult<Option<Self>> {
        let path = dir.join(FILE);
        if !path.exists() {
            return Ok(None);
        }
        let db = crate::db::open_sqlite(&format!("sqlite://{}", path.display())).await?;
        if meta(&db, "identity").await?.as_deref() != Some(identity) {
            return Ok(None);
        }
        let since = meta(&db, "since")
            .await?
            .and_then(|s| s.parse::<i64>().ok())
            .ok_or_else(|| DbErr::Custom("the copy has no progress".to_owned()))?;
        // Ahead of the source: the database was restored from a backup and reuses ids.
        if since > newest_txid(source).await? {
            return Ok(None);
        }
        Ok(Some(Self::new(db, since, now)))
    }

    fn new(db: DatabaseConnection, since: i64, now: i64) -> Self {
        Self {
            db,
            progress: Mutex::new(Progress {
                since,
                copied: HashMap::new(),
            }),
            stale: AtomicBool::new(false),
            caught_up_at: AtomicI64::new(now),
        }
    }

    /// Creates the copy under `dir` afresh and fills it from `source`; returns it and how many
    /// documents it copied.
    async fn build(
        dir: &Path,
        source: &DatabaseConnection,
        identity: &str,
        now: i64,
    ) -> AppResult<(Self, u64)> {
        let path = dir.join(FILE);
        for suffix in ["", "-wal", "-shm"] {
            let file = format!("{}{suffix}", path.display());
            match std::fs::remove_file(&file) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    return Err(DbErr::Custom(format!("{file}: {e}")).into());
                }
                _ => {}
            }
        }
        let db = crate::db::open_sqlite(&format!("sqlite://{}", path.display())).await?;
        for table in search::INDEX_TABLES.iter().chain([&META]) {
            db.execute_unprepared(table).await?;
        }
        let index = Self::new(db, 0, now);
        let copied = index
            .catch_up(source, &mut *index.progress.lock().await)
            .await?;
        search::optimize(&index.db).await?;
        // Searches then read pages from the database file, not through a WAL the size of it.
        index
            .db
            .execute_unprepared("PRAGMA wal_checkpoint(TRUNCATE)")
            .await?;
        // Recorded last: a copy killed while it was being built is built again.
        set_meta(&index.db, "identity", identity.to_owned()).await?;
        tracing::info!("search index: built, {copied} documents copied");
        Ok((index, copied))
    }

    /// This server wrote content: the next search catches up first.
    pub fn invalidate(&self) {
        self.stale.store(true, Ordering::Release);
    }

    /// The index, caught up with `source` when it may be behind.
    pub async fn current(
        &self,
        source: &DatabaseConnection,
        now: i64,
    ) -> AppResult<&DatabaseConnection> {
        if self.stale.load(Ordering::Acquire) || now > self.caught_up_at.load(Ordering::Acquire) {
            let mut progress = self.progress.lock().await;
            // Another search may have caught up while this one waited.
            if self.stale.swap(false, Ordering::AcqRel)
                || now > self.caught_up_at.load(Ordering::Acquire)
            {
                self.caught_up_at.store(now, Ordering::Release);
                if let Err(e) = self.catch_up(source, &mut progress).await {
                    // The next search tries again.
                    self.stale.store(true, Ordering::Release);
                    return Err(e);
                }
            }
        }
        Ok(&self.db)
    }

    /// Copies the rows written since the last catch-up; returns how many.
    async fn catch_up(
        &self,
        source: &DatabaseConnection,
        progress: &mut Progress,
    ) -> AppResult<u64> {
        // Taken before the rows are read: a transaction running now may commit after the read,
        // so the next catch-up reads from its stamp on.
        let xmin = Xmin::find_by_statement(Statement::from_string(
            DatabaseBackend::Postgres,
            "SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint AS xmin",
        ))
        .one(source)
        .await?
        .map_or(progress.since, |x| x.xmin);
        let mut copied = 0;
        let mut after = i64::MIN;
        loop {
            let statement = Statement::from_sql_and_values(
                DatabaseBackend::Postgres,
                format!(
                    "SELECT id, kind, ref_id, title, body, names, txid FROM search_docs \
                     WHERE txid >= $1 AND id > $2 ORDER BY id LIMIT {BATCH}"
                ),
                [progress.since.into(), after.into()],
            );
            let results = source.query_all(statement).await?;
            let Some(last) = results.last() else { break };
            after = Stamp::from_query_result(last, "")?.id;
            let full = results.len() as u64 == BATCH;
            let txn = self.db.begin().await?;
            for result in results {
                let stamp = Stamp::from_query_result(&result, "")?;
                if progress.copied.get(&stamp.id) == Some(&stamp.txid) {
                    continue;
                }
                progress.copied.insert(stamp.id, stamp.txid);
                search::write_index(&txn, DocRow::from_query_result(&result, "")?).await?;
                copied += 1;
            }
            txn.commit().await?;
            if !full {
                break;
            }
        }
        progress.since = xmin;
        progress.copied.retain(|_, txid| *txid >= xmin);
        set_meta(&self.db, "since", xmin.to_string()).await?;
        Ok(copied)
    }
}
