//! A value built on demand and kept until it is marked stale or grows too old: the sample the
//! editor counts over, every reader's rules.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use tokio::sync::Mutex;

use crate::error::AppResult;

pub struct Rebuilt<T> {
    /// Bumped by `forget`: a value built before is stale.
    generation: AtomicU64,
    held: Mutex<Option<Built<T>>>,
    /// Seconds a value is kept however fresh (`None`: until it is forgotten).
    max_age: Option<i64>,
}

struct Built<T> {
    generation: u64,
    at: i64,
    value: Arc<T>,
}

impl<T> Rebuilt<T> {
    pub fn new(max_age: Option<i64>) -> Self {
        Self {
            generation: AtomicU64::new(0),
            held: Mutex::new(None),
            max_age,
        }
    }

    /// The value, built by `build` when there is none fresh (one build at a time).
    pub async fn get(
        &self,
        now: i64,
        build: impl AsyncFnOnce() -> AppResult<T>,
    ) -> AppResult<Arc<T>> {
        let mut held = self.held.lock().await;
        let generation = self.generation.load(Ordering::Acquire);
        if let Some(built) = held.as_ref()
            && built.generation == generation
            && self.max_age.is_none_or(|age| now - built.at < age)
        {
            return Ok(built.value.clone());
        }
        let value = Arc::new(build().await?);
        *held = Some(Built {
            generation,
            at: now,
            value: value.clone(),
        });
        Ok(value)
    }

    pub fn forget(&self) {
        self.generation.fetch_add(1, Ordering::AcqRel);
    }
}
