//! Uploaded images: judged by their bytes, stored through object_store under random names, and
//! served back with their own type.

pub mod pipeline;
pub mod sniff;
pub mod store;

use client_core::envelope::ErrorKind;
use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};

use crate::entity::upload;
use crate::error::{AppError, AppResult};
use crate::state::AppState;

/// The URL prefix of images this server serves.
pub fn url_prefix(state: &AppState) -> String {
    format!("{}/uploads/", state.config.public_url.trim_end_matches('/'))
}

/// Refuses any of `urls` that is not an image this server issued (to `owner`, when named): what
/// a reader shows others comes only from our own store, never from another host.
pub async fn check_issued(state: &AppState, urls: &[String], owner: Option<i64>) -> AppResult<()> {
    let prefix = url_prefix(state);
    let keys: Vec<&str> = urls
        .iter()
        .filter_map(|url| url.strip_prefix(prefix.as_str()))
        .collect();
    let mut known = upload::Entity::find().filter(upload::Column::Key.is_in(keys.iter().copied()));
    if let Some(owner) = owner {
        known = known.filter(upload::Column::UserId.eq(owner));
    }
    if keys.len() != urls.len() || known.count(&state.db).await? != keys.len() as u64 {
        return Err(AppError::new(ErrorKind::InvalidParam)
            .with_message("Images must be uploaded here first"));
    }
    Ok(())
}
