//! Feedback and its images.

use axum::extract::multipart::MultipartRejection;
use axum::extract::{DefaultBodyLimit, Multipart, State};
use axum::routing::post;
use axum::{Json, Router};
use client_core::constants::FEEDBACK_IMAGE_MAX_BYTES;
use client_core::envelope::{Envelope, ErrorKind};
use client_core::feedback::{FeedbackForm, MSG_IMAGE_TOO_LARGE};
use object_store::WriteMultipart;
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, Set};
use serde::Serialize;
use tower::ServiceBuilder;
use tower::limit::ConcurrencyLimitLayer;

use super::ok;
use crate::entity::upload;
use crate::error::{AppError, AppResult};
use crate::extract::{ApiJson, Caller, ClientMeta};
use crate::feedback::{self, upload_url_prefix};
use crate::state::AppState;
use crate::uploads::sniff::{HEAD_BYTES, ImageKind, SniffError, TAIL_BYTES, inspect, kind_of};

/// Uploads accepted per hour from one IP.
pub const UPLOADS_PER_IP_PER_HOUR: u64 = 30;
/// Uploads read at once; more wait their turn (their bodies stay in the network until then).
pub const UPLOADS_IN_FLIGHT: usize = 8;
const MAX_FILE: usize = FEEDBACK_IMAGE_MAX_BYTES as usize;

pub fn router() -> Router<AppState> {
    Router::new()
        // Only this route takes bodies above axum's 2 MB default: one file plus the multipart frame.
        // The multipart parser may hold a whole body; capping uploads in flight caps the memory.
        .route(
            "/img/upload/feedback/v2",
            post(upload).layer(
                ServiceBuilder::new()
                    .layer(DefaultBodyLimit::max(MAX_FILE + 64 * 1024))
                    .layer(ConcurrencyLimitLayer::new(UPLOADS_IN_FLIGHT)),
            ),
        )
        .route("/feedback/create", post(create))
}

#[derive(Serialize)]
struct Uploaded {
    absolute: String,
}

fn too_large() -> AppError {
    AppError::new(ErrorKind::PayloadTooLarge).with_message(MSG_IMAGE_TOO_LARGE.text)
}

fn multipart_error(e: &axum::extract::multipart::MultipartError) -> AppError {
    if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
        too_large()
    } else {
        AppError::new(ErrorKind::BadRequest)
            .with_message(format!("Malformed upload: {}", e.body_text()))
    }
}

/// What has arrived of one file so far.
struct Incoming {
    head: Vec<u8>,
    tail: Vec<u8>,
    size: usize,
    /// Opened once the first bytes tell the kind; gets every byte from then on.
    sink: Option<(String, ImageKind, WriteMultipart)>,
}

impl Incoming {
    async fn take(&mut self, state: &AppState, chunk: &[u8]) -> AppResult<()> {
        self.size += chunk.len();
        if self.size > MAX_FILE {
            return Err(too_large());
        }
        let into_head = (HEAD_BYTES - self.head.len()).min(chunk.len());
        self.head.extend_from_slice(&chunk[..into_head]);
        self.tail
            .extend_from_slice(&chunk[chunk.len().saturating_sub(TAIL_BYTES)..]);
        self.tail
            .drain(..self.tail.len().saturating_sub(TAIL_BYTES));
        match &mut self.sink {
            Some((_, _, writer)) => writer.write(chunk),
            None if self.head.len() < 8 => return Ok(()),
            None => {
                // The first bytes decide: anything but PNG, JPEG or GIF is refused before the rest.
                let kind =
                    kind_of(&self.head).ok_or_else(|| AppError::new(ErrorKind::ImageRejected))?;
                let mut name = [0u8; 16];
                state.random.fill(&mut name);
                let key = format!("feedback/{}.{}", hex::encode(name), kind.extension());
                let mut writer = state.store.writer(&key).await.map_err(AppError::internal)?;
                writer.write(&self.head);
                writer.write(&chunk[into_head..]);
                self.sink = Some((key, kind, writer));
            }
        }
        if let Some((_, _, writer)) = &mut self.sink {
            // Back-pressure: at most one part in flight per upload.
            writer
                .wait_for_capacity(1)
                .await
                .map_err(AppError::internal)?;
        }
        Ok(())
    }

    /// Leaves nothing behind in the store.
    async fn abandon(self) {
        if let Some((_, _, writer)) = self.sink {
            let _ = writer.abort().await;
        }
    }
}

/// Streams `img_file` into the store: the kind is judged from its first bytes, the size is capped
/// as it arrives, and the size header and end markers are checked before the file is kept. Memory
/// per upload is a [`HEAD_BYTES`] head and one store part, whatever the file's size.
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
    let mut field = loop {
        match multipart
            .next_field()
            .await
            .map_err(|e| multipart_error(&e))?
        {
            Some(field) if field.name() == Some("img_file") => break field,
            Some(_) => continue,
            None => {
                return Err(
                    AppError::new(ErrorKind::BadRequest).with_message("img_file is required")
                );
            }
        }
    };
    let mut incoming = Incoming {
        head: Vec::new(),
        tail: Vec::new(),
        size: 0,
        sink: None,
    };
    let streamed: AppResult<()> = async {
        while let Some(chunk) = field.chunk().await.map_err(|e| multipart_error(&e))? {
            incoming.take(&state, &chunk).await?;
        }
        Ok(())
    }
    .await;
    let judged = streamed.and_then(|()| {
        inspect(&incoming.head, &incoming.tail).map_err(|e| match e {
            SniffError::NotAnImage => AppError::new(ErrorKind::ImageRejected),
            SniffError::TooManyPixels => AppError::new(ErrorKind::ImageRejected)
                .with_message("The image is too large in pixels"),
        })
    });
    let info = match judged {
        Ok(info) => info,
        Err(e) => {
            incoming.abandon().await;
            return Err(e);
        }
    };
    let size = incoming.size;
    let Some((key, kind, writer)) = incoming.sink else {
        return Err(AppError::new(ErrorKind::ImageRejected));
    };
    debug_assert_eq!(kind, info.kind);
    writer.finish().await.map_err(AppError::internal)?;
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
