//! Tracking events: each entry checked by client-core's rule, the good ones stored in one
//! transaction per batch, the bad ones counted and dropped, never failing the batch.
//!
//! Scale: the table is append-only and written in batches, the same on SQLite and PostgreSQL.
//! Moving it to ClickHouse (or behind Kafka) means replacing the INSERT in `ingest` with a writer to that
//! sink: batches are already formed per request, and nothing reads the table inside the app.

use client_core::track::check_track_entry;
use sea_orm::{EntityTrait, Set, TransactionTrait};
use serde::Serialize;
use serde_json::Value;

use crate::entity::track_log;
use crate::error::AppResult;
use crate::extract::Caller;
use crate::state::AppState;

#[derive(Debug, Serialize)]
pub struct Ingested {
    pub accepted: usize,
    pub rejected: usize,
}

pub async fn ingest(state: &AppState, caller: &Caller, entries: &[Value]) -> AppResult<Ingested> {
    let now = state.now();
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
        let txn = state.db.begin().await?;
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
