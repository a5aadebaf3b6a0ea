//! The upload pipeline: one multipart file streamed into the store as it arrives, its kind judged
//! from its first bytes, its metadata taken out on the way (`scrub`), its size capped, its header
//! and end markers checked before it is kept. Memory per upload is a [`HEAD_BYTES`] head, one
//! metadata block and one store part, whatever the file's size.
//! Time is bounded too: an upload holds one of few slots, so one that trickles its bytes is cut
//! off once it falls below [`MIN_BYTES_PER_SECOND`] (after [`RATE_GRACE`]) or passes [`DEADLINE`].

use std::time::{Duration, Instant};

use axum::extract::Multipart;
use axum::extract::multipart::{Field, MultipartError};
use client_core::constants::FEEDBACK_IMAGE_MAX_BYTES;
use client_core::envelope::ErrorKind;
use client_core::feedback::MSG_IMAGE_TOO_LARGE;
use object_store::WriteMultipart;

use super::scrub::Scrubber;
use super::sniff::{HEAD_BYTES, ImageInfo, SniffError, TAIL_BYTES, inspect, kind_of};
use crate::ctx::Ctx;
use crate::error::{AppError, AppResult};
use crate::uploads::store::Store;

/// The largest file accepted.
pub const MAX_FILE: usize = FEEDBACK_IMAGE_MAX_BYTES as usize;
/// The longest an upload may take, whatever its rate.
pub const DEADLINE: Duration = Duration::from_secs(60);
/// The slowest average rate kept up with, counted from the start after the grace period
/// (a 5 MB file at this rate takes 40 s on top of the grace).
pub const MIN_BYTES_PER_SECOND: u64 = 128 * 1024;
pub const RATE_GRACE: Duration = Duration::from_secs(5);

/// A file kept in the store.
pub struct Stored {
    pub key: String,
    /// Its size as kept, without its metadata.
    pub size: usize,
    pub info: ImageInfo,
}

/// A file received whole and judged, not yet in the store: the caller records it first, then
/// [`Received::keep`]s it, so a server killed in between leaves a record without a file (never
/// given to anyone) rather than a file nobody knows of.
pub struct Received {
    pub stored: Stored,
    writer: WriteMultipart,
}

impl Received {
    /// Makes the file appear in the store, whole.
    pub async fn keep(self) -> AppResult<Stored> {
        self.writer.finish().await.map_err(AppError::internal)?;
        Ok(self.stored)
    }

    /// Leaves nothing in the store.
    pub async fn abandon(self) {
        let _ = self.writer.abort().await;
    }
}

pub fn too_large() -> AppError {
    AppError::new(ErrorKind::PayloadTooLarge).with_message(MSG_IMAGE_TOO_LARGE.text)
}

pub fn multipart_error(e: &MultipartError) -> AppError {
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
    /// Opened once the first bytes tell the kind; gets what the scrubber keeps from then on.
    sink: Option<Sink>,
}

struct Sink {
    key: String,
    scrubber: Scrubber,
    writer: WriteMultipart,
    kept: usize,
}

impl Sink {
    fn write(&mut self, bytes: &[u8]) -> AppResult<()> {
        let mut kept = Vec::with_capacity(bytes.len());
        self.scrubber
            .feed(bytes, &mut kept)
            .map_err(|_| AppError::new(ErrorKind::ImageRejected))?;
        self.kept += kept.len();
        self.writer.write(&kept);
        Ok(())
    }
}

impl Incoming {
    async fn take(&mut self, ctx: &Ctx, store: &Store, chunk: &[u8]) -> AppResult<()> {
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
            Some(sink) => sink.write(chunk)?,
            None if self.head.len() < 8 => return Ok(()),
            None => {
                // The first bytes decide: anything but PNG, JPEG or GIF is refused before the rest.
                let kind =
                    kind_of(&self.head).ok_or_else(|| AppError::new(ErrorKind::ImageRejected))?;
                let mut name = [0u8; 16];
                ctx.random.fill(&mut name);
                let key = format!("feedback/{}.{}", hex::encode(name), kind.extension());
                let writer = store.writer(&key).await.map_err(AppError::internal)?;
                let sink = self.sink.insert(Sink {
                    key,
                    scrubber: Scrubber::new(kind),
                    writer,
                    kept: 0,
                });
                sink.write(&self.head)?;
                sink.write(&chunk[into_head..])?;
            }
        }
        if let Some(sink) = &mut self.sink {
            // Back-pressure: at most one part in flight per upload.
            sink.writer
                .wait_for_capacity(1)
                .await
                .map_err(AppError::internal)?;
        }
        Ok(())
    }

    /// Leaves nothing behind in the store.
    async fn abandon(self) {
        if let Some(sink) = self.sink {
            let _ = sink.writer.abort().await;
        }
    }
}

/// Receives the form's field `name` (the fields before it are skipped) with [`receive_field`].
pub async fn receive_upload(
    ctx: &Ctx,
    store: &Store,
    multipart: &mut Multipart,
    name: &str,
) -> AppResult<Received> {
    loop {
        match multipart
            .next_field()
            .await
            .map_err(|e| multipart_error(&e))?
        {
            Some(mut field) if field.name() == Some(name) => {
                return receive_field(ctx, store, &mut field).await;
            }
            Some(_) => continue,
            None => {
                return Err(AppError::new(ErrorKind::BadRequest)
                    .with_message(format!("{name} is required")));
            }
        }
    }
}

/// Streams one field towards the store under a new random name; on any failure nothing is left
/// behind.
async fn receive_field(ctx: &Ctx, store: &Store, field: &mut Field<'_>) -> AppResult<Received> {
    let mut incoming = Incoming {
        head: Vec::new(),
        tail: Vec::new(),
        size: 0,
        sink: None,
    };
    let started = Instant::now();
    let streamed: AppResult<()> = async {
        loop {
            // When the next bytes must have come by, for the rate and the deadline to hold.
            let by_rate = RATE_GRACE
                + Duration::from_secs_f64(incoming.size as f64 / MIN_BYTES_PER_SECOND as f64);
            let wait = by_rate.min(DEADLINE).saturating_sub(started.elapsed());
            let next = tokio::time::timeout(wait, field.chunk())
                .await
                .map_err(|_| AppError::new(ErrorKind::UploadTooSlow))?;
            match next.map_err(|e| multipart_error(&e))? {
                Some(chunk) => incoming.take(ctx, store, &chunk).await?,
                None => return Ok(()),
            }
        }
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
    let Some(sink) = incoming.sink else {
        return Err(AppError::new(ErrorKind::ImageRejected));
    };
    if sink.scrubber.finish().is_err() {
        let _ = sink.writer.abort().await;
        return Err(AppError::new(ErrorKind::ImageRejected));
    }
    Ok(Received {
        stored: Stored {
            key: sink.key,
            size: sink.kept,
            info,
        },
        writer: sink.writer,
    })
}
