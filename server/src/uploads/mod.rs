//! Uploaded images: judged by their bytes, stored through object_store under random names, and
//! served back with their own type.

pub mod pipeline;
pub mod scrub;
pub mod sniff;
pub mod store;

use std::sync::Arc;

use client_core::envelope::ErrorKind;
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, QuerySelect};

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
/// a reader shows others comes only from our own store, never from another host. The images
/// are then in use, and kept.
pub async fn attach_issued(ctx: &Ctx, urls: &[String], owner: Option<i64>) -> AppResult<()> {
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
    if !keys.is_empty() {
        upload::Entity::update_many()
            .col_expr(upload::Column::AttachedAt, Expr::value(ctx.now()))
            .filter(upload::Column::Key.is_in(keys))
            .filter(upload::Column::AttachedAt.is_null())
            .exec(&ctx.db)
            .await?;
    }
    Ok(())
}

/// How long an upload may wait to be used.
pub const UNUSED_SECONDS: i64 = crate::time::DAY;
/// Uploads deleted per run, so one run stays short.
const FORGET_PER_RUN: u64 = 500;

/// Deletes uploads never used within [`UNUSED_SECONDS`], file and row; gives how many.
pub async fn forget_unused(ctx: &Ctx, uploads: &Uploads) -> AppResult<u64> {
    let unused = upload::Entity::find()
        .filter(upload::Column::AttachedAt.is_null())
        .filter(upload::Column::CreatedAt.lte(ctx.now() - UNUSED_SECONDS))
        .limit(FORGET_PER_RUN)
        .all(&ctx.db)
        .await?;
    let mut forgotten = 0;
    for row in unused {
        // The row first, and only while still unused: a post that takes the image meanwhile
        // either keeps it (its mark came first) or is refused (the row is gone), never shows a
        // missing file.
        let gone = upload::Entity::delete_many()
            .filter(upload::Column::Id.eq(row.id))
            .filter(upload::Column::AttachedAt.is_null())
            .exec(&ctx.db)
            .await?
            .rows_affected;
        if gone == 1 {
            uploads
                .store()
                .delete(&row.key)
                .await
                .map_err(AppError::internal)?;
            forgotten += 1;
        }
    }
    Ok(forgotten)
}
