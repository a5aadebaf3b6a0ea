//! `GET /stream`: the live stream as `text/event-stream`; `/stream/ticket`: a single-use ticket
//! that signs an `EventSource` (which cannot send `X-TOKEN`) in.

use std::collections::HashSet;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use aide::axum::ApiRouter;
use aide::axum::routing::{get_with, post};
use axum::Json;
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::sse::{self, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use client_core::envelope::{Envelope, ErrorKind};
use client_core::feed::{DEFAULT_FEED_TAB, FEED_TABS};
use client_core::stream::parse_subjects;
use futures_util::stream::{self, BoxStream, StreamExt};
use sea_orm::EntityTrait;
use serde::{Deserialize, Serialize};
use tokio::sync::broadcast::error::RecvError;

use super::feeds::reading;
use super::ok;
use crate::content::feeds::Reading;
use crate::ctx::Ctx;
use crate::entity::user;
use crate::error::{AppError, AppResult};
use crate::extract::{Caller, ClientMeta, CurrentUser};
use crate::limits;
use crate::openapi::event_stream;
use crate::state::AppState;
use crate::stream::delivery::{Delivery, What};
use crate::stream::reader::{Reader, Wanted};
use crate::stream::{Slot, Stream, log, tickets};

/// A comment line this often keeps proxies from closing an idle stream.
const PING_EVERY: Duration = Duration::from_secs(15);

pub fn router() -> ApiRouter<AppState> {
    ApiRouter::new()
        .api_route(
            "/stream",
            get_with(open_stream, |op| {
                event_stream(
                    op,
                    "`item`, `counts`, `comment`, `unread`, `open` and `reset` events, each \
                     with an `id:`; `Last-Event-ID` (or `last_event_id`) replays what was \
                     missed. Signed in by `X-TOKEN` or a `ticket` from `/stream/ticket`.",
                )
            }),
        )
        .api_route("/stream/ticket", post(stream_ticket))
}

#[derive(schemars::JsonSchema, Serialize)]
struct Ticket {
    ticket: String,
    expires_in: i64,
}

/// A ticket for one stream, within a minute (`GET /stream?ticket=`).
async fn stream_ticket(
    State(ctx): State<Ctx>,
    user: CurrentUser,
) -> AppResult<Json<Envelope<Ticket>>> {
    limits::spend(&ctx, limits::STREAM_TICKETS, &format!("u:{}", user.user_id)).await?;
    Ok(ok(Ticket {
        ticket: tickets::issue(&ctx, user.user_id).await?,
        expires_in: tickets::TICKET_SECONDS,
    }))
}

#[derive(schemars::JsonSchema, Deserialize, Default)]
#[serde(default)]
struct StreamQuery {
    /// A comma list of subjects (client-core's `stream` rule).
    subjects: String,
    /// The home tab `home` follows.
    tab: Option<String>,
    only_important: Option<String>,
    /// The reader's languages, comma-separated, as the lists take them.
    langs: Option<String>,
    ticket: Option<String>,
    /// For clients that cannot send `Last-Event-ID` (a new `EventSource`).
    last_event_id: Option<i64>,
}

async fn open_stream(
    State(state): State<AppState>,
    caller: Caller,
    client: ClientMeta,
    headers: HeaderMap,
    Query(query): Query<StreamQuery>,
) -> AppResult<Response> {
    let subjects = parse_subjects(&query.subjects).map_err(|m| AppError::invalid(m.text))?;
    let tab = match query.tab.as_deref() {
        None => DEFAULT_FEED_TAB,
        Some(tab) => FEED_TABS.into_iter().find(|t| *t == tab).ok_or_else(|| {
            AppError::invalid(format!("tab must be one of {}", FEED_TABS.join(", ")))
        })?,
    };
    let langs = match query.langs.as_deref() {
        None | Some("") => None,
        Some(list) => {
            let given: Vec<&str> = list.split(',').collect();
            Some(client_core::langs::read_langs(&given).map_err(|m| AppError::invalid(m.text))?)
        }
    };
    let last = match (header_last_id(&headers)?, query.last_event_id) {
        (Some(id), _) | (None, Some(id)) => Some(id),
        (None, None) => None,
    };
    let (user, reading) = match &query.ticket {
        Some(ticket) => {
            let user_id = tickets::redeem(&state, ticket).await?.ok_or_else(|| {
                AppError::new(ErrorKind::Unauthorized)
                    .with_message("This stream ticket is spent or unknown")
            })?;
            let translate = user::Entity::find_by_id(user_id)
                .one(&state.db)
                .await?
                .is_none_or(|u| u.auto_translate);
            let reading = Reading {
                locale: client.locale,
                translate,
            };
            (Some(user_id), reading)
        }
        None => (caller.user_id(), reading(&caller, &client)),
    };
    let slot = state.stream.admit(&client.ip, user)?;
    let wanted = Wanted {
        subjects,
        tab,
        only_important: matches!(query.only_important.as_deref(), Some("1" | "true")),
        langs,
    };
    let reader = Reader::new(&state, user, reading, wanted).await?;
    // Subscribed before the log is read, so nothing logged meanwhile falls between the two.
    let live = state.stream.subscribe();
    let mut first = Vec::new();
    let mut replayed = HashSet::new();
    let bounds = log::bounds(&state).await?;
    let newest = bounds.newest.unwrap_or(0);
    match last {
        None => first.push(
            sse::Event::default()
                .id(newest.to_string())
                .event("open")
                .data("{}"),
        ),
        Some(last) => match log::since(&state, bounds, last).await? {
            Some(missed) => {
                for (id, happened) in missed {
                    replayed.insert(id);
                    if let Some(delivery) = Delivery::prepare(&state, id, happened).await?
                        && let Some(event) = reader.event(&delivery).await
                    {
                        first.push(event);
                    }
                }
            }
            // Too far behind: the client refetches what it shows.
            None => first.push(
                sse::Event::default()
                    .id(newest.to_string())
                    .event("reset")
                    .data("{}"),
            ),
        },
    }
    if let Some(user) = user {
        let now = Delivery {
            id: newest,
            what: What::Unread(Some(user)),
        };
        first.extend(reader.event(&now).await);
    }
    let events =
        stream::iter(first).chain(follow(state.stream.clone(), live, reader, replayed, slot));
    let events: BoxStream<'static, Result<sse::Event, Infallible>> = events.map(Ok).boxed();
    let keep_alive = KeepAlive::new().interval(PING_EVERY).text("ping");
    Ok(Sse::new(events).keep_alive(keep_alive).into_response())
}

/// `Last-Event-ID`, when sent; a value that is not an id is the client's mistake.
fn header_last_id(headers: &HeaderMap) -> AppResult<Option<i64>> {
    match headers
        .get("last-event-id")
        .map(|v| v.to_str().map(str::trim))
    {
        None | Some(Ok("")) => Ok(None),
        Some(Ok(text)) => text
            .parse()
            .map(Some)
            .map_err(|_| AppError::invalid("Last-Event-ID must be an event's id")),
        Some(Err(_)) => Err(AppError::invalid("Last-Event-ID must be an event's id")),
    }
}

/// The stream's events as they happen, until the reader falls `BEHIND_MAX` behind (dropped: it
/// reconnects and catches up from the log) or the server stops.
fn follow(
    hub: Stream,
    live: tokio::sync::broadcast::Receiver<Arc<Delivery>>,
    reader: Reader,
    replayed: HashSet<i64>,
    slot: Slot,
) -> impl futures_util::Stream<Item = sse::Event> + Send + 'static {
    let closing = hub.closing();
    stream::unfold(
        (live, reader, replayed, slot, closing),
        |(mut live, reader, replayed, slot, mut closing)| async move {
            loop {
                if *closing.borrow() {
                    return None;
                }
                let delivery = tokio::select! {
                    _ = closing.changed() => return None,
                    next = live.recv() => match next {
                        Ok(delivery) => delivery,
                        Err(RecvError::Lagged(_) | RecvError::Closed) => return None,
                    },
                };
                if replayed.contains(&delivery.id) {
                    continue;
                }
                // Boxed: preparing an event awaits the database, and that future inline would
                // sit in every idle stream's state (2.8 KB of each, measured with heaptrack).
                if let Some(event) = Box::pin(reader.event(&delivery)).await {
                    return Some((event, (live, reader, replayed, slot, closing)));
                }
            }
        },
    )
}
