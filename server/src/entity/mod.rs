//! Database tables. Times are Unix seconds (`BIGINT`), the same on SQLite and PostgreSQL.

pub mod account;
pub mod benefit;
pub mod channel;
pub mod feed_item;
pub mod feed_link;
pub mod feed_translation;
pub mod feed_view;
pub mod feedback;
pub mod follow;
pub mod kol;
pub mod mail_outbox;
pub mod oauth_state;
pub mod otp_code;
pub mod otp_guard;
pub mod point_ledger;
pub mod rate_limit;
pub mod session;
pub mod tag;
pub mod task;
pub mod task_progress;
pub mod token;
pub mod topic;
pub mod track_log;
pub mod upload;
pub mod user;
pub mod wallet_nonce;
