//! Database tables. Times are Unix seconds (`BIGINT`), the same on SQLite and PostgreSQL.

pub mod account;
pub mod otp_code;
pub mod otp_guard;
pub mod session;
pub mod user;
