//! Tracking events: each entry checked by client-core's rule, the good ones stored in one
//! transaction per batch, the bad ones counted and dropped, never failing the batch.
//!
//! Scale: the table is append-only and written in batches, the same on SQLite and PostgreSQL.
//! Entries are kept `TRACK_RETENTION_DAYS`; on PostgreSQL the table is partitioned by month
//! (created ahead by [`apply_retention`]) and a month past retention is dropped whole.
//! Moving it to ClickHouse (or behind Kafka) means replacing the INSERT in `ingest` with a writer to that
//! sink: batches are already formed per request, and nothing reads the table inside the app.

use chrono::{DateTime, Datelike, Months, NaiveDate};
use client_core::track::check_track_entry;
use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseBackend, EntityTrait, QueryFilter, Set, Statement,
};
use serde::Serialize;
use serde_json::Value;

use crate::ctx::Ctx;
use crate::entity::track_log;
use crate::error::{AppError, AppResult};
use crate::extract::Caller;
use crate::time::DAY;

#[derive(schemars::JsonSchema, Debug, Serialize)]
pub struct Ingested {
    pub accepted: usize,
    pub rejected: usize,
}

pub async fn ingest(ctx: &Ctx, caller: &Caller, entries: &[Value]) -> AppResult<Ingested> {
    let now = ctx.now();
    let rows: Vec<track_log::ActiveModel> = entries
        .iter()
        .filter_map(|raw| check_track_entry(raw, now * 1000).ok())
        .map(|e| track_log::ActiveModel {
            kind: Set(e.kind),
            event: Set(e.event),
            time_ms: Set(e.time),
            prop: Set(e
                .prop
                .filter(|p| !p.is_null())
                .map_or_else(|| "{}".to_owned(), |p| p.to_string())),
            user_id: Set(caller.user_id()),
            guest_id: Set(caller.guest_id),
            received_at: Set(now),
            ..Default::default()
        })
        .collect();
    let accepted = rows.len();
    if !rows.is_empty() {
        let txn = crate::db::begin_write(&ctx.db).await?;
        track_log::Entity::insert_many(rows)
            .exec_without_returning(&txn)
            .await?;
        txn.commit().await?;
    }
    Ok(Ingested {
        accepted,
        rejected: entries.len() - accepted,
    })
}

/// Removes entries older than the retention period; returns how many rows were deleted one by
/// one (on PostgreSQL, only those that landed in the default partition; whole months go with
/// their partition).
pub async fn apply_retention(ctx: &Ctx, retention_days: u32) -> AppResult<u64> {
    let cutoff = ctx.now() - i64::from(retention_days) * DAY;
    if ctx.db.get_database_backend() != DatabaseBackend::Postgres {
        let removed = track_log::Entity::delete_many()
            .filter(track_log::Column::ReceivedAt.lt(cutoff))
            .exec(&ctx.db)
            .await?;
        return Ok(removed.rows_affected);
    }
    ensure_month_partitions(ctx).await?;
    for (name, month) in month_partitions(ctx).await? {
        if month_start(month, 1)? <= cutoff {
            let sql = format!("DROP TABLE IF EXISTS {name}");
            ctx.db.execute_unprepared(&sql).await?;
            tracing::info!(partition = %name, "tracking month past retention dropped");
        }
    }
    let removed = ctx
        .db
        .execute(Statement::from_sql_and_values(
            DatabaseBackend::Postgres,
            "DELETE FROM track_logs_default WHERE received_at < $1",
            [cutoff.into()],
        ))
        .await?;
    Ok(removed.rows_affected())
}

/// The partitions of this month and the next, so entries land in one rather than the default.
async fn ensure_month_partitions(ctx: &Ctx) -> AppResult<()> {
    let this_month = month_of(ctx.now())?;
    for month in [this_month, this_month + 1] {
        let (from, to) = (month_start(month, 0)?, month_start(month, 1)?);
        let sql = format!(
            "CREATE TABLE IF NOT EXISTS {} PARTITION OF track_logs FOR VALUES FROM ({from}) TO ({to})",
            partition_name(month)
        );
        // Another server may create it at the same moment, or the default partition may already
        // hold entries of that month (the job did not run in time): either way entries are
        // kept, in the default partition, and deleted there by age.
        if let Err(e) = ctx.db.execute_unprepared(&sql).await {
            tracing::debug!("tracking partition {}: {e}", partition_name(month));
        }
    }
    Ok(())
}

/// Monthly partitions that exist, with their month (months since year 0).
async fn month_partitions(ctx: &Ctx) -> AppResult<Vec<(String, i64)>> {
    let rows = ctx
        .db
        .query_all(Statement::from_string(
            DatabaseBackend::Postgres,
            "SELECT c.relname AS name FROM pg_inherits i \
             JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent \
             WHERE p.relname = 'track_logs'",
        ))
        .await?;
    Ok(rows
        .iter()
        .filter_map(|row| row.try_get::<String>("", "name").ok())
        .filter_map(|name| {
            let month = parse_partition_name(&name)?;
            Some((name, month))
        })
        .collect())
}

/// `track_logs_y2026m11` for November 2026.
fn partition_name(month: i64) -> String {
    format!("track_logs_y{:04}m{:02}", month / 12, month % 12 + 1)
}

fn parse_partition_name(name: &str) -> Option<i64> {
    let (year, month) = name.strip_prefix("track_logs_y")?.split_once('m')?;
    let (year, month) = (year.parse::<i64>().ok()?, month.parse::<i64>().ok()?);
    (1..=12).contains(&month).then_some(year * 12 + month - 1)
}

fn month_of(unix: i64) -> AppResult<i64> {
    let date = DateTime::from_timestamp(unix, 0)
        .ok_or_else(|| AppError::internal("the clock is out of range"))?;
    Ok(i64::from(date.year()) * 12 + i64::from(date.month0()))
}

/// Unix time of the first second of `month` + `later` months.
fn month_start(month: i64, later: u32) -> AppResult<i64> {
    let year = i32::try_from(month / 12).map_err(|_| AppError::internal("month out of range"))?;
    NaiveDate::from_ymd_opt(year, (month % 12) as u32 + 1, 1)
        .and_then(|d| d.checked_add_months(Months::new(later)))
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .map(|t| t.and_utc().timestamp())
        .ok_or_else(|| AppError::internal("month out of range"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn months_name_and_bound_their_partitions() {
        // 2026-11-22T00:00:00Z
        let month = month_of(1_795_305_600).expect("month");
        assert_eq!(partition_name(month), "track_logs_y2026m11");
        assert_eq!(parse_partition_name("track_logs_y2026m11"), Some(month));
        assert_eq!(month_start(month, 0).expect("start"), 1_793_491_200);
        assert_eq!(partition_name(month + 2), "track_logs_y2027m01");
        assert_eq!(month_start(month, 2).expect("start"), 1_798_761_600);
        for bad in [
            "track_logs_default",
            "track_logs_y2026m13",
            "track_logs_yxm1",
        ] {
            assert_eq!(parse_partition_name(bad), None, "{bad}");
        }
    }
}
