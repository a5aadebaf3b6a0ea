//! Uploaded images: judged by their bytes, stored through object_store under random names, and
//! served back with their own type.

pub mod pipeline;
pub mod sniff;
pub mod store;

use std::sync::Arc;

use client_core::envelope::ErrorKind;
use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};

use crate::entity::upload;
use crate::error::{AppError, AppResult};
use store::Store;

/// Uploads read at once; more wait their turn (their bodies stay in the network until then).
/// The multipart parser may hold a whole body, so capping uploads in flight caps the memory.
pub const UPLOADS_IN_FLIGHT: usize = 8;

/// The uploads area's state: where files are kept and how many are read at once on this server.
#[derive(Clone)]
pub struct Uploads(Arc<Inner>);

struct Inner {
    store: Store,
    slots: tokio::sync::Semaphore,
}

impl Uploads {
    pub fn new(store: Store) -> Self {
        Self(Arc::new(Inner {
            store,
            slots: tokio::sync::Semaphore::new(UPLOADS_IN_FLIGHT),
        }))
    }

    pub fn store(&self) -> &Store {
        &self.0.store
    }

    /// One of this server's upload slots, held while an upload is read.
    pub async fn slot(&self) -> AppResult<tokio::sync::SemaphorePermit<'_>> {
        self.0.slots.acquire().await.map_err(AppError::internal)
    }
}
use crate::ctx::Ctx;

/// The URL prefix of images this server serves.
pub fn url_prefix(ctx: &Ctx) -> String {
    format!("{}/uploads/", ctx.public_url())
}

/// Refuses any of `urls` that is not an image this server issued (to `owner`, when named): what
/// a reader shows others comes only from our own store, never from another host.
pub async fn check_issued(ctx: &Ctx, urls: &[String], owner: Option<i64>) -> AppResult<()> {
    let prefix = url_prefix(ctx);
    let keys: Vec<&str> = urls
        .iter()
        .filter_map(|url| url.strip_prefix(prefix.as_str()))
        .collect();
    let mut known = upload::Entity::find().filter(upload::Column::Key.is_in(keys.iter().copied()));
    if let Some(owner) = owner {
        known = known.filter(upload::Column::UserId.eq(owner));
    }
    if keys.len() != urls.len() || known.count(&ctx.db).await? != keys.len() as u64 {
        return Err(AppError::new(ErrorKind::InvalidParam)
            .with_message("Images must be uploaded here first"));
    }
    Ok(())
}
