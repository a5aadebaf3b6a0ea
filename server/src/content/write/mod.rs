//! Writing content: one upsert per kind of row, used alike by the admin API, RSS ingestion and
//! the demo set. Text from outside is cleaned here, once: HTML content through ammonia's allow
//! list, titles and summaries to plain text.

mod catalogue;
pub(super) mod clean;
mod feed;

pub use catalogue::*;
pub use clean::{Timestamp, clean_html, plain_text};
pub use feed::*;
