//! Opening the database: SQLite (WAL) under DATA_DIR by default, or PostgreSQL; then migrations.

use std::str::FromStr;
use std::time::Duration;

use sea_orm::{
    ConnectOptions, ConnectionTrait, Database, DatabaseBackend, DatabaseConnection,
    DatabaseTransaction, DbErr, SqlxSqliteConnector, TransactionTrait,
};
use sea_orm_migration::MigratorTrait;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};

use crate::migration::Migrator;

/// Connects and brings the schema up to date (start-up then fills it: `crate::open_database`).
pub async fn connect(url: &str) -> Result<DatabaseConnection, DbErr> {
    let db = if url.starts_with("sqlite:") {
        open_sqlite(url).await?
    } else {
        open_other(url).await?
    };
    Migrator::up(&db, None).await?;
    Ok(db)
}

/// Also opens a PostgreSQL server's search index (`content::search_copy`).
pub(crate) async fn open_sqlite(url: &str) -> Result<DatabaseConnection, DbErr> {
    let options = SqliteConnectOptions::from_str(url)
        .map_err(|e| DbErr::Custom(format!("bad DATABASE_URL: {e}")))?
        .create_if_missing(true)
        // WAL lets readers run beside the one writer; NORMAL is durable across app crashes.
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Normal)
        .busy_timeout(Duration::from_secs(10))
        .foreign_keys(true)
        // Pages read through a memory map instead of a copy per read: search walks megabytes
        // of index postings a query. Shared by all connections, paged in by the OS.
        .pragma("mmap_size", (1u64 << 30).to_string());
    let pool = SqlitePoolOptions::new()
        .max_connections(8)
        .connect_with(options)
        .await
        .map_err(|e| DbErr::Conn(sea_orm::RuntimeErr::SqlxError(e)))?;
    Ok(SqlxSqliteConnector::from_sqlx_sqlite_pool(pool))
}

async fn open_other(url: &str) -> Result<DatabaseConnection, DbErr> {
    // A few connections per core: PostgreSQL runs a process per connection, and 32 busy ones
    // on two cores spent half the database's time switching between them (search p99 100 ms
    // at 32 connections, 77 ms at 8).
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get()) as u32;
    let mut options = ConnectOptions::new(url);
    options
        .max_connections(4 * cores)
        .min_connections(2)
        .connect_timeout(Duration::from_secs(10))
        .sqlx_logging(false);
    Database::connect(options).await
}

/// Begins a transaction that will write. On SQLite it takes the write lock first (a write that
/// changes nothing): a transaction that reads, then writes after another connection committed,
/// cannot be upgraded and fails at once (`SQLITE_BUSY_SNAPSHOT`), whereas waiting for the lock
/// at the start goes through the busy timeout like any writer.
pub async fn begin_write(db: &DatabaseConnection) -> Result<DatabaseTransaction, DbErr> {
    let txn = db.begin().await?;
    if db.get_database_backend() == DatabaseBackend::Sqlite {
        txn.execute_unprepared("UPDATE leases SET cursor = cursor WHERE 0")
            .await?;
    }
    Ok(txn)
}

/// Inserts `row` unless a row with the same `key` columns is there (a reader's like, follow,
/// favorite or block); gives whether it was inserted. One statement, so two servers racing
/// insert it once.
pub async fn insert_once<A, I>(db: &impl ConnectionTrait, row: A, key: I) -> Result<bool, DbErr>
where
    A: sea_orm::ActiveModelTrait + Send,
    <A::Entity as sea_orm::EntityTrait>::Model: sea_orm::IntoActiveModel<A>,
    I: IntoIterator<Item = <A::Entity as sea_orm::EntityTrait>::Column>,
{
    use sea_orm::EntityTrait;
    use sea_orm::sea_query::OnConflict;
    let inserted = A::Entity::insert(row)
        .on_conflict(OnConflict::columns(key).do_nothing().to_owned())
        .exec_without_returning(db)
        .await?;
    Ok(inserted == 1)
}

/// `$from, …, $(from + n - 1)`: numbered placeholders for `n` values in hand-written SQL (sea-query
/// and sqlx bind them on either database).
pub fn placeholders(from: usize, n: usize) -> String {
    (from..from + n)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}
