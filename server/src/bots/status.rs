//! What the operators see of the bots (`blockbrief bots status`, `/api/admin/bots/status`).

use sea_orm::{ConnectionTrait, FromQueryResult, Statement};
use serde::Serialize;

use crate::error::AppResult;

#[derive(schemars::JsonSchema, Debug, Serialize, FromQueryResult)]
pub struct ChatCount {
    pub platform: String,
    pub state: String,
    pub chats: i64,
}

#[derive(schemars::JsonSchema, Debug, Serialize, FromQueryResult)]
pub struct QueueState {
    pub platform: String,
    /// Deliveries still to send.
    pub queued: i64,
    /// When the oldest of them was queued (Unix seconds).
    pub oldest_queued_at: Option<i64>,
    pub failed: i64,
}

#[derive(schemars::JsonSchema, Debug, Serialize, FromQueryResult)]
pub struct LastError {
    pub platform: String,
    pub chat_ref: String,
    pub error: String,
}

#[derive(schemars::JsonSchema, Debug, Serialize)]
pub struct BotsStatus {
    pub chats: Vec<ChatCount>,
    pub subscriptions: i64,
    pub queue: Vec<QueueState>,
    /// The last error of the chat that failed most recently, per platform.
    pub last_errors: Vec<LastError>,
}

#[derive(FromQueryResult)]
struct Count {
    n: i64,
}

pub async fn status(db: &impl ConnectionTrait) -> AppResult<BotsStatus> {
    let backend = db.get_database_backend();
    let chats = ChatCount::find_by_statement(Statement::from_string(
        backend,
        "SELECT platform, state, COUNT(*) AS chats FROM bot_chats \
         GROUP BY platform, state ORDER BY platform, state",
    ))
    .all(db)
    .await?;
    let subscriptions = Count::find_by_statement(Statement::from_string(
        backend,
        "SELECT COUNT(*) AS n FROM bot_subscriptions",
    ))
    .one(db)
    .await?
    .map_or(0, |c| c.n);
    let queue = QueueState::find_by_statement(Statement::from_string(
        backend,
        "SELECT c.platform AS platform, \
         SUM(CASE WHEN d.state = 'queued' THEN 1 ELSE 0 END) AS queued, \
         MIN(CASE WHEN d.state = 'queued' THEN d.created_at END) AS oldest_queued_at, \
         SUM(CASE WHEN d.state = 'failed' THEN 1 ELSE 0 END) AS failed \
         FROM bot_deliveries d JOIN bot_chats c ON c.id = d.chat_id \
         GROUP BY c.platform ORDER BY c.platform",
    ))
    .all(db)
    .await?;
    let last_errors = LastError::find_by_statement(Statement::from_string(
        backend,
        "SELECT platform, chat_ref, last_error AS error FROM bot_chats c \
         WHERE last_error IS NOT NULL AND id = (SELECT MAX(id) FROM bot_chats \
         WHERE platform = c.platform AND last_error IS NOT NULL) ORDER BY platform",
    ))
    .all(db)
    .await?;
    Ok(BotsStatus {
        chats,
        subscriptions,
        queue,
        last_errors,
    })
}

/// The status as the command line prints it.
pub fn describe(s: &BotsStatus) -> String {
    let mut out = String::from("chats:\n");
    for c in &s.chats {
        out.push_str(&format!("  {} {}: {}\n", c.platform, c.state, c.chats));
    }
    out.push_str(&format!("subscriptions: {}\nqueue:\n", s.subscriptions));
    for q in &s.queue {
        let oldest = q
            .oldest_queued_at
            .map_or("-".to_owned(), crate::time::rfc3339);
        out.push_str(&format!(
            "  {}: {} queued (oldest {oldest}), {} failed\n",
            q.platform, q.queued, q.failed
        ));
    }
    for e in &s.last_errors {
        out.push_str(&format!(
            "last error {} {}: {}\n",
            e.platform, e.chat_ref, e.error
        ));
    }
    out
}
