//! The small context every area may take: the database, the clock, randomness, the events
//! that say what changed, and the site's public address (in links, mail and feeds). Most
//! services need nothing else; an area with more (caches, keys, clients) owns that in its own
//! state and is handed it by the composition root (`state`).

use std::sync::Arc;

use sea_orm::{ConnectionTrait, DatabaseBackend, DatabaseConnection};

use crate::events::Events;
use crate::platform::{Clock, Random};

#[derive(Clone)]
pub struct Ctx {
    pub db: DatabaseConnection,
    pub clock: Arc<dyn Clock>,
    pub random: Arc<dyn Random>,
    pub events: Events,
    /// The site's public address, without a trailing `/`.
    public_url: Arc<str>,
}

impl Ctx {
    pub fn new(
        db: DatabaseConnection,
        clock: Arc<dyn Clock>,
        random: Arc<dyn Random>,
        public_url: &str,
    ) -> Self {
        let events = match db.get_database_backend() {
            DatabaseBackend::Postgres => Events::shared(db.get_postgres_connection_pool().clone()),
            _ => Events::default(),
        };
        Self {
            db,
            clock,
            random,
            events,
            public_url: public_url.trim_end_matches('/').into(),
        }
    }

    /// The site's public address, without a trailing `/`.
    pub fn public_url(&self) -> &str {
        &self.public_url
    }

    /// Unix time in seconds, by the injected clock.
    pub fn now(&self) -> i64 {
        self.clock.now()
    }
}
