//! The API under `/api`, one module per area, each with its own `router()`.

use std::sync::Arc;

use aide::axum::ApiRouter;
use aide::openapi::OpenApi;
use axum::Json;
use axum::Router;
use axum::http::header;
use client_core::constants::{SUCCESS_CODE, SUCCESS_MSG};
use client_core::envelope::{Envelope, ErrorKind};
use serde::{Deserialize, Serialize};
use validator::Validate;

use crate::error::AppError;
use crate::openapi;
use crate::state::AppState;

mod account;
mod admin;
mod alerts;
pub(crate) mod app;
pub(crate) mod bots;
mod cached;
mod catalogue;
mod comments;
mod feedback;
pub(crate) mod feeds;
mod follows;
mod keeping;
mod likes;
pub(crate) mod manifest;
mod markets;
mod messages;
pub(crate) mod moderation;
mod oauth;
mod otp;
mod point;
mod posts;
mod profiles;
mod push;
mod questions;
mod search;
pub(crate) mod security_headers;
pub(crate) mod sign_in;
mod stories;
mod stream;
pub(crate) mod syndication;
mod track;
pub(crate) mod unsubscribe;
mod votes;
mod wallet;
pub(crate) mod web;

/// The API, and its OpenAPI document (built from these routes) at `/openapi.json`.
pub fn router() -> Router<AppState> {
    let routes = ApiRouter::new()
        .merge(app::router())
        .merge(alerts::router())
        .merge(push::router())
        .merge(feeds::router())
        .merge(catalogue::router())
        .merge(markets::router())
        .merge(follows::router())
        .merge(likes::router())
        .merge(votes::router())
        .merge(stories::router())
        .merge(comments::router())
        .merge(keeping::router())
        .merge(messages::router())
        .merge(moderation::router())
        .merge(profiles::router())
        .merge(questions::router())
        .merge(posts::router())
        .merge(search::router())
        .merge(stream::router())
        .merge(admin::router())
        .merge(bots::router())
        .merge(otp::router())
        .merge(point::router())
        .merge(feedback::router())
        .merge(track::router())
        .merge(sign_in::router())
        .merge(account::router())
        .merge(wallet::router())
        .merge(oauth::router());
    let mut api = OpenApi::default();
    let router = routes.finish_api_with(&mut api, |doc| doc.default_response::<AppError>());
    let document = openapi::describe(api);
    let document = Arc::new(serde_json::to_vec(&document).unwrap_or_default());
    router
        .route(
            "/openapi.json",
            axum::routing::get(move || {
                let body = document.as_ref().clone();
                async move { ([(header::CONTENT_TYPE, "application/json")], body) }
            }),
        )
        .fallback(|| async { AppError::new(ErrorKind::WrongUrl) })
        .method_not_allowed_fallback(|| async { AppError::new(ErrorKind::MethodNotAllowed) })
}

/// A successful envelope.
pub fn ok<T: Serialize>(data: T) -> Json<Envelope<T>> {
    Json(Envelope {
        code: SUCCESS_CODE,
        msg: SUCCESS_MSG.to_owned(),
        data,
    })
}

/// `{list}`: an answer that is a whole list, not a page.
#[derive(schemars::JsonSchema, Serialize)]
pub struct List<T> {
    pub list: Vec<T>,
}

/// `{cursor, limit}`: the body of a call for one page of a list.
#[derive(schemars::JsonSchema, Deserialize, Validate, Default)]
#[serde(default)]
pub struct PageRequest {
    pub cursor: Option<String>,
    #[validate(range(min = 1, max = crate::content::PAGE_MAX))]
    pub limit: Option<u64>,
}

impl PageRequest {
    /// The cursor, where one was given (an empty one is the first page).
    pub fn cursor(&self) -> Option<&str> {
        self.cursor.as_deref().filter(|c| !c.is_empty())
    }

    pub fn limit(&self) -> u64 {
        self.limit.unwrap_or(crate::content::PAGE_DEFAULT)
    }
}

/// `{id}`: the body of calls about one row.
#[derive(schemars::JsonSchema, Deserialize, Validate)]
pub struct IdRequest {
    pub id: i64,
}
