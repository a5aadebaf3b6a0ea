//! The daily alert email's unsubscribe link, outside `/api` (a reader opens it from their mail,
//! signed out): `GET` shows a page with one button, `POST` (the button, or a mail client's
//! one-click per RFC 8058) stops the emails. The link is signed; nothing else is needed.

use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use serde::Deserialize;

use crate::alerts::digest;
use crate::extract::ClientMeta;
use crate::i18n::t;
use crate::limits;
use crate::state::AppState;

#[derive(Deserialize)]
pub struct Link {
    u: i64,
    t: String,
}

fn page(status: StatusCode, title: &str, body: &str) -> Response {
    let escape = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
    };
    let html = format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><meta name=\"viewport\" \
         content=\"width=device-width\"><title>{}</title></head><body><h1>{}</h1>{body}</body></html>",
        escape(title),
        escape(title)
    );
    (status, Html(html)).into_response()
}

/// The reader's language, for a page they open signed out.
async fn locale(state: &AppState, reader: i64) -> String {
    crate::auth::users::get(state, reader)
        .await
        .map_or_else(|_| "en".to_owned(), |u| u.locale)
}

pub async fn show(State(state): State<AppState>, Query(link): Query<Link>) -> Response {
    let locale = locale(&state, link.u).await;
    let button = t(&locale, "mail.alerts.unsubscribe", &[]);
    let form = format!(
        "<form method=\"post\"><button type=\"submit\">{}</button></form>",
        button.replace('<', "&lt;")
    );
    page(
        StatusCode::OK,
        &t(&locale, "mail.alerts.unsubscribeTitle", &[]),
        &form,
    )
}

pub async fn confirm(
    State(state): State<AppState>,
    client: ClientMeta,
    Query(link): Query<Link>,
) -> Response {
    let locale = locale(&state, link.u).await;
    if limits::spend(&state, limits::UNSUBSCRIBES, &client.ip)
        .await
        .is_err()
    {
        return page(
            StatusCode::TOO_MANY_REQUESTS,
            &t(&locale, "mail.alerts.tryLater", &[]),
            "",
        );
    }
    match digest::unsubscribe(&state, &state.alerts, link.u, &link.t).await {
        Ok(true) => page(
            StatusCode::OK,
            &t(&locale, "mail.alerts.unsubscribed", &[]),
            "",
        ),
        Ok(false) => page(
            StatusCode::NOT_FOUND,
            &t(&locale, "mail.alerts.badLink", &[]),
            "",
        ),
        Err(e) => {
            tracing::warn!("unsubscribe: {e:?}");
            page(
                StatusCode::SERVICE_UNAVAILABLE,
                &t(&locale, "mail.alerts.tryLater", &[]),
                "",
            )
        }
    }
}
