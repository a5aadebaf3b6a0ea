//! Feedback and its images.

use axum::extract::multipart::MultipartRejection;
use axum::extract::{DefaultBodyLimit, Multipart, State};
use axum::routing::post;
use axum::{Json, Router};
use bytes::BytesMut;
use client_core::constants::FEEDBACK_IMAGE_MAX_BYTES;
use client_core::envelope::{Envelope, ErrorKind};
use client_core::feedback::{FeedbackForm, MSG_IMAGE_TOO_LARGE};
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, Set};
use serde::Serialize;

use super::ok;
use crate::entity::upload;
use crate::error::{AppError, AppResult};
use crate::extract::{ApiJson, Caller, ClientMeta};
use crate::feedback::{self, upload_url_prefix};
use crate::state::AppState;
use crate::uploads::sniff::{SniffError, sniff};

/// Uploads accepted per hour from one IP.
pub const UPLOADS_PER_IP_PER_HOUR: u64 = 30;
const MAX_FILE: usize = FEEDBACK_IMAGE_MAX_BYTES as usize;

pub fn router() -> Router<AppState> {
    Router::new()
        // Only this route takes bodies above axum's 2 MB default: one file plus the multipart frame.
        .route(
            "/img/upload/feedback/v2",
            post(upload).layer(DefaultBodyLimit::max(MAX_FILE + 64 * 1024)),
        )
        .route("/feedback/create", post(create))
}

#[derive(Serialize)]
struct Uploaded {
    absolute: String,
}

fn too_large() -> AppError {
    AppError::new(ErrorKind::PayloadTooLarge).with_message(MSG_IMAGE_TOO_LARGE)
}

fn multipart_error(e: &axum::extract::multipart::MultipartError) -> AppError {
    if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
        too_large()
    } else {
        AppError::new(ErrorKind::BadRequest)
            .with_message(format!("Malformed upload: {}", e.body_text()))
    }
}

/// Reads `img_file` chunk by chunk, refusing it the moment it passes the size cap, then judges it
/// by its bytes and stores it under a random name.
async fn upload(
    State(state): State<AppState>,
    caller: Caller,
    client: ClientMeta,
    multipart: Result<Multipart, MultipartRejection>,
) -> AppResult<Json<Envelope<Uploaded>>> {
    let mut multipart = multipart.map_err(|e| {
        AppError::new(ErrorKind::BadRequest)
            .with_message(format!("Expected multipart/form-data: {}", e.body_text()))
    })?;
    let since = state.now() - 3600;
    let recent = upload::Entity::find()
        .filter(upload::Column::Ip.eq(client.ip.as_str()))
        .filter(upload::Column::CreatedAt.gt(since))
        .count(&state.db)
        .await?;
    if recent >= UPLOADS_PER_IP_PER_HOUR {
        return Err(AppError::new(ErrorKind::RateLimited).retry_after(3600));
    }
    let mut file = None;
    while let Some(mut field) = multipart
        .next_field()
        .await
        .map_err(|e| multipart_error(&e))?
    {
        if field.name() != Some("img_file") {
            continue;
        }
        let mut bytes = BytesMut::new();
        while let Some(chunk) = field.chunk().await.map_err(|e| multipart_error(&e))? {
            if bytes.len() + chunk.len() > MAX_FILE {
                return Err(too_large());
            }
            bytes.extend_from_slice(&chunk);
        }
        file = Some(bytes.freeze());
        break;
    }
    let file = file
        .ok_or_else(|| AppError::new(ErrorKind::BadRequest).with_message("img_file is required"))?;
    let info = sniff(&file).map_err(|e| match e {
        SniffError::NotAnImage => AppError::new(ErrorKind::ImageRejected),
        SniffError::TooManyPixels => {
            AppError::new(ErrorKind::ImageRejected).with_message("The image is too large in pixels")
        }
    })?;
    let mut name = [0u8; 16];
    state.random.fill(&mut name);
    let key = format!("feedback/{}.{}", hex::encode(name), info.kind.extension());
    let size = file.len();
    state
        .store
        .put(&key, file)
        .await
        .map_err(AppError::internal)?;
    upload::ActiveModel {
        key: Set(key.clone()),
        content_type: Set(info.kind.content_type().to_owned()),
        bytes: Set(size as i64),
        width: Set(info.width as i32),
        height: Set(info.height as i32),
        ip: Set(client.ip.chars().take(64).collect()),
        user_id: Set(caller.user_id()),
        guest_id: Set(caller.guest_id),
        created_at: Set(state.now()),
        ..Default::default()
    }
    .insert(&state.db)
    .await?;
    Ok(ok(Uploaded {
        absolute: format!("{}{key}", upload_url_prefix(&state)),
    }))
}

#[derive(Serialize)]
struct Created {
    id: i64,
}

async fn create(
    State(state): State<AppState>,
    caller: Caller,
    client: ClientMeta,
    ApiJson(form): ApiJson<FeedbackForm>,
) -> AppResult<Json<Envelope<Created>>> {
    let id = feedback::create(&state, &caller, &client.ip, client.locale, form).await?;
    Ok(ok(Created { id }))
}
