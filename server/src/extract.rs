//! Request extractors: the JSON body with our own rejection, what we know of the client, and the
//! session behind `X-TOKEN`.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::JsonRejection;
use axum::extract::{ConnectInfo, FromRef, FromRequest, FromRequestParts, Request, State};
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use client_core::constants::LOCALE_COOKIE;
use client_core::envelope::{DeviceHeader, ErrorKind, parse_device_header};
use client_core::locale::{LocaleSources, pick_locale};
use client_core::text::clean_json;
use serde::de::DeserializeOwned;
use validator::Validate;

use crate::auth::{Auth, tokens};
use crate::client_addr;
use crate::config::Config;
use crate::ctx::Ctx;
use crate::error::AppError;
use crate::validation;

pub const TOKEN_HEADER: &str = "x-token";
pub const GUEST_TOKEN_HEADER: &str = "x-gtoken";
pub const DEVICE_HEADER: &str = "x-bparam";

/// `axum::Json`, but a body that cannot be read is a 400 envelope saying why (413 when too big),
/// and one that breaks its declared limits (`validator`) an envelope naming the fields.
pub struct ApiJson<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Validate> FromRequest<S> for ApiJson<T> {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, AppError> {
        if !is_json(req.headers()) {
            return Err(AppError::new(ErrorKind::BadRequest)
                .with_message("Expected a JSON body with `Content-Type: application/json`"));
        }
        let body = Bytes::from_request(req, state).await.map_err(|rejection| {
            if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                AppError::new(ErrorKind::PayloadTooLarge)
            } else {
                AppError::new(ErrorKind::BadRequest).with_message(rejection.body_text())
            }
        })?;
        // Characters XML forbids never reach what a reader wrote (they would break the feeds).
        let axum::Json(value) = axum::Json::<T>::from_bytes(&clean_json(&body))
            .map_err(|rejection| json_error(&rejection))?;
        value
            .validate()
            .map_err(|errors| validation::rejection(&errors))?;
        Ok(Self(value))
    }
}

fn json_error(rejection: &JsonRejection) -> AppError {
    if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
        return AppError::new(ErrorKind::PayloadTooLarge);
    }
    let detail = match rejection {
        JsonRejection::JsonSyntaxError(_) => format!("Malformed JSON: {}", rejection.body_text()),
        _ => format!("Invalid request: {}", rejection.body_text()),
    };
    AppError::new(ErrorKind::BadRequest).with_message(detail)
}

/// `application/json` or another `+json` type, as `axum::Json` asks (its check is private; the
/// body is read before it, to be cleaned).
fn is_json(headers: &axum::http::HeaderMap) -> bool {
    header_text(headers, "content-type")
        .and_then(|kind| kind.parse::<mime::Mime>().ok())
        .is_some_and(|kind| {
            kind.type_() == mime::APPLICATION
                && (kind.subtype() == mime::JSON || kind.suffix() == Some(mime::JSON))
        })
}

/// A header's value as text, if present and readable.
pub fn header_text(headers: &axum::http::HeaderMap, name: &str) -> Option<String> {
    headers.get(name)?.to_str().ok().map(str::to_owned)
}

/// The value of cookie `name`, if the request carries it.
pub fn cookie(headers: &axum::http::HeaderMap, name: &str) -> Option<String> {
    let all = headers.get_all(axum::http::header::COOKIE);
    all.iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|pair| {
            let (key, value) = pair.trim().split_once('=')?;
            (key == name).then(|| value.to_owned())
        })
}

/// What the client tells us about itself. Hints only: none of it is trusted for security.
#[derive(Debug, Clone)]
pub struct ClientMeta {
    /// The client's address as `client_addr` keys it (what limits count and rows store).
    pub ip: String,
    pub locale: &'static str,
    pub device: Option<DeviceHeader>,
}

impl<S: Send + Sync> FromRequestParts<S> for ClientMeta
where
    Arc<Config>: FromRef<S>,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        let config = Arc::<Config>::from_ref(state);
        let header = |name: &str| parts.headers.get(name).and_then(|v| v.to_str().ok());
        let device = header(DEVICE_HEADER).and_then(parse_device_header);
        let forwarded_for = parts
            .headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok());
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip());
        let ip = client_addr::client_key(peer, forwarded_for, &config.trust_proxy);
        let locale = pick_locale(&LocaleSources {
            path: None,
            cookie: cookie(&parts.headers, LOCALE_COOKIE),
            device: device.as_ref().map(|d| d.language.clone()),
            accept_language: header_text(&parts.headers, "accept-language"),
        });
        Ok(Self { ip, locale, device })
    }
}

/// A signed-in caller, put in the request by [`resolve_session`].
#[derive(Debug, Clone)]
pub struct CurrentUser {
    pub user_id: i64,
    pub session: tokens::LiveSession,
}

impl<S: Send + Sync> FromRequestParts<S> for CurrentUser {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, AppError> {
        parts
            .extensions
            .get::<Self>()
            .cloned()
            .ok_or_else(|| AppError::new(ErrorKind::LoginRequired))
    }
}

/// Resolves `X-TOKEN` once for every API request. A token that is present but unknown, expired
/// or revoked is answered with HTTP 401 whatever the path, so the client logs out.
pub async fn resolve_session(
    State(ctx): State<Ctx>,
    State(auth): State<Auth>,
    mut req: Request,
    next: Next,
) -> Response {
    let token = req
        .headers()
        .get(TOKEN_HEADER)
        .map(|v| v.to_str().unwrap_or_default().trim().to_owned());
    if let Some(token) = token.filter(|t| !t.is_empty()) {
        match tokens::resolve(&ctx, &auth, &token).await {
            Ok(Some(session)) => match session.user_id {
                Some(user_id) => {
                    req.extensions_mut()
                        .insert(CurrentUser { user_id, session });
                }
                None => return AppError::new(ErrorKind::Unauthorized).into_response(),
            },
            Ok(None) => return AppError::new(ErrorKind::Unauthorized).into_response(),
            Err(e) => return e.into_response(),
        }
    }
    next.run(req).await
}

/// Whoever is calling: a signed-in user, a visitor with a guest token, or neither. A guest token
/// that does not resolve is ignored (the client fetches a new one); it never fails the request.
#[derive(Debug, Clone)]
pub struct Caller {
    pub user: Option<CurrentUser>,
    pub guest_id: Option<i64>,
}

impl Caller {
    pub fn user_id(&self) -> Option<i64> {
        self.user.as_ref().map(|u| u.user_id)
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Caller
where
    Ctx: FromRef<S>,
    Auth: FromRef<S>,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        let user = parts.extensions.get::<CurrentUser>().cloned();
        let guest = parts
            .headers
            .get(GUEST_TOKEN_HEADER)
            .and_then(|v| v.to_str().ok())
            .map(str::trim);
        let guest_id = match guest.filter(|g| !g.is_empty() && user.is_none()) {
            Some(token) => tokens::resolve(&Ctx::from_ref(state), &Auth::from_ref(state), token)
                .await?
                .filter(|s| s.user_id.is_none())
                .map(|s| s.id),
            None => None,
        };
        Ok(Self { user, guest_id })
    }
}
