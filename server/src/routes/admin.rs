//! The admin API for editors and importers: on only when `ADMIN_TOKEN` is set, and only for
//! requests that carry it in `X-ADMIN-TOKEN`.

use aide::axum::ApiRouter;
use aide::axum::routing::post;
use axum::Json;
use axum::extract::{FromRequestParts, State};
use axum::http::request::Parts;
use client_core::envelope::{Envelope, ErrorKind};
use serde::Serialize;
use subtle::ConstantTimeEq;

use super::ok;
use crate::content::ingest::SourceStatus;
use crate::content::write::{self, CatalogueInput, FeedInput};
use crate::error::{AppError, AppResult};
use crate::extract::ApiJson;
use crate::state::AppState;
use client_core::linking::Catalogue;

pub fn router() -> ApiRouter<AppState> {
    ApiRouter::new()
        .api_route("/admin/feed/upsert", post(feed_upsert))
        .api_route("/admin/catalogue/upsert", post(catalogue_upsert))
        .api_route("/admin/ingest/status", post(ingest_status))
}

pub const ADMIN_TOKEN_HEADER: &str = "x-admin-token";

/// Proof that the request carries the admin token.
pub struct Admin;

// Described by the document's `admin` security scheme (`openapi`), not as a parameter.
impl aide::OperationInput for Admin {}

impl FromRequestParts<AppState> for Admin {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> AppResult<Self> {
        // Off: answer as if the API did not exist.
        let Some(expected) = state.config.admin_token.as_deref() else {
            return Err(ErrorKind::WrongUrl.into());
        };
        let given = parts
            .headers
            .get(ADMIN_TOKEN_HEADER)
            .map(|v| v.as_bytes())
            .unwrap_or_default();
        if bool::from(given.ct_eq(expected.as_bytes())) {
            Ok(Admin)
        } else {
            Err(AppError::new(ErrorKind::Forbidden)
                .with_message("X-ADMIN-TOKEN is missing or wrong"))
        }
    }
}

#[derive(schemars::JsonSchema, Serialize)]
struct Upserted {
    id: i64,
    created: bool,
}

async fn feed_upsert(
    State(state): State<AppState>,
    _: Admin,
    ApiJson(input): ApiJson<FeedInput>,
) -> AppResult<Json<Envelope<Upserted>>> {
    let (id, created) = write::upsert_feed(&state, &state.linking, input).await?;
    Ok(ok(Upserted { id, created }))
}

async fn catalogue_upsert(
    State(state): State<AppState>,
    _: Admin,
    ApiJson(input): ApiJson<CatalogueInput>,
) -> AppResult<Json<Envelope<Catalogue>>> {
    Ok(ok(write::upsert_catalogue(&state, &input).await?))
}

#[derive(schemars::JsonSchema, Serialize)]
struct Sources {
    list: Vec<SourceStatus>,
}

async fn ingest_status(
    State(state): State<AppState>,
    _: Admin,
) -> AppResult<Json<Envelope<Sources>>> {
    Ok(ok(Sources {
        list: state.content.ingest_status.snapshot(),
    }))
}
