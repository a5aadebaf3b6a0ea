//! Feedback and its images.

use aide::axum::ApiRouter;
use aide::axum::routing::post;
use axum::Json;
use axum::extract::multipart::MultipartRejection;
use axum::extract::{DefaultBodyLimit, Multipart, State};
use client_core::envelope::{Envelope, ErrorKind};
use client_core::feedback::FeedbackForm;
use sea_orm::{ActiveModelTrait, EntityTrait, Set};
use serde::Serialize;

use super::ok;
use crate::ctx::Ctx;
use crate::entity::upload;
use crate::error::{AppError, AppResult};
use crate::extract::{ApiJson, Caller, ClientMeta};
use crate::feedback;
use crate::limits;
use crate::state::AppState;
use crate::uploads::{Uploads, pipeline};

pub fn router() -> ApiRouter<AppState> {
    ApiRouter::new()
        // Only these routes take bodies above axum's 2 MB default: one file plus the multipart
        // frame. The feedback path is the spec's; posts and avatars use the general one.
        .api_route("/img/upload/feedback/v2", upload_route())
        .api_route("/img/upload", upload_route())
        .api_route("/feedback/create", post(create))
}

fn upload_route() -> aide::axum::routing::ApiMethodRouter<AppState> {
    post(upload).layer(DefaultBodyLimit::max(pipeline::MAX_FILE + 64 * 1024))
}

#[derive(schemars::JsonSchema, Serialize)]
struct Uploaded {
    absolute: String,
}

/// Takes `img_file` through the upload pipeline (`uploads::pipeline`) and records it. The
/// per-client limit is checked before a slot is taken, so refused uploads never wait in line;
/// the body is read only once a slot is held.
async fn upload(
    State(ctx): State<Ctx>,
    State(uploads): State<Uploads>,
    caller: Caller,
    client: ClientMeta,
    multipart: Result<Multipart, MultipartRejection>,
) -> AppResult<Json<Envelope<Uploaded>>> {
    // Someone the server knows (a guest token at least): an upload is tied to who made it.
    if caller.user_id().is_none() && caller.guest_id.is_none() {
        return Err(AppError::new(ErrorKind::Unauthorized)
            .with_message("Uploading needs a guest token (X-GTOKEN) or a signed-in account"));
    }
    // Checked and counted in one statement: servers racing cannot pass the limit together.
    limits::spend(&ctx, limits::UPLOADS, &client.ip).await?;
    let _slot = uploads.slot().await?;
    let mut multipart = multipart.map_err(|e| {
        AppError::new(ErrorKind::BadRequest)
            .with_message(format!("Expected multipart/form-data: {}", e.body_text()))
    })?;
    let received =
        pipeline::receive_upload(&ctx, uploads.store(), &mut multipart, "img_file").await?;
    let stored = &received.stored;
    let recorded = upload::ActiveModel {
        key: Set(stored.key.clone()),
        content_type: Set(stored.info.kind.content_type().to_owned()),
        bytes: Set(stored.size as i64),
        width: Set(stored.info.width as i32),
        height: Set(stored.info.height as i32),
        ip: Set(client.ip.clone()),
        user_id: Set(caller.user_id()),
        guest_id: Set(caller.guest_id),
        created_at: Set(ctx.now()),
        ..Default::default()
    }
    .insert(&ctx.db)
    .await;
    let recorded = match recorded {
        Ok(row) => row,
        Err(e) => {
            received.abandon().await;
            return Err(e.into());
        }
    };
    let stored = match received.keep().await {
        Ok(stored) => stored,
        Err(e) => {
            upload::Entity::delete_by_id(recorded.id)
                .exec(&ctx.db)
                .await?;
            return Err(e);
        }
    };
    Ok(ok(Uploaded {
        absolute: format!("{}{}", crate::uploads::url_prefix(&ctx), stored.key),
    }))
}

#[derive(schemars::JsonSchema, Serialize)]
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
