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
//! missed. The copy is rebuilt from the source at start-up.

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};

use sea_orm::{
    ConnectionTrait, DatabaseBackend, DatabaseConnection, DbErr, FromQueryResult, Statement,
    TransactionTrait,
};
use tokio::sync::Mutex;

use super::search::{self, DocRow};
use crate::error::AppResult;

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

/// Which version of a document a row of the source holds.
#[derive(FromQueryResult)]
struct Stamp {
    id: i64,
    txid: i64,
}

impl SearchCopy {
    /// Creates the copy under `dir` afresh and fills it from `source`.
    pub async fn build(dir: &Path, source: &DatabaseConnection, now: i64) -> AppResult<Self> {
        let path = dir.join("search-index.sqlite");
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
        for table in search::INDEX_TABLES {
            db.execute_unprepared(table).await?;
        }
        let index = Self {
            db,
            progress: Mutex::new(Progress {
                since: 0,
                copied: HashMap::new(),
            }),
            stale: AtomicBool::new(false),
            caught_up_at: AtomicI64::new(now),
        };
        let copied = index
            .catch_up(source, &mut *index.progress.lock().await)
            .await?;
        search::optimize(&index.db).await?;
        // Searches then read pages from the database file, not through a WAL the size of it.
        index
            .db
            .execute_unprepared("PRAGMA wal_checkpoint(TRUNCATE)")
            .await?;
        tracing::info!("search index: {copied} documents copied");
        Ok(index)
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
        Ok(copied)
    }
}
