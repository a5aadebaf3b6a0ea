//! Sign-In with Ethereum, and binding a wallet to the signed-in user.

use aide::axum::ApiRouter;
use aide::axum::routing::post;
use axum::Json;
use axum::extract::State;
use client_core::envelope::Envelope;
use serde::{Deserialize, Serialize};
use validator::Validate;

use super::ok;
use crate::auth::users::{self, AccountView, SessionUser};
use crate::auth::wallet::{self, Purpose, checksum, parse_address};
use crate::error::AppResult;
use crate::extract::{ApiJson, ClientMeta, CurrentUser};
use crate::limits;
use crate::state::AppState;

pub fn router() -> ApiRouter<AppState> {
    ApiRouter::new()
        .api_route("/user/sig/msg", post(login_message))
        .api_route("/user/login/wallet", post(login))
        .api_route("/user/account/bind/wallet/sigmsg", post(bind_message))
        .api_route("/user/account/bind/wallet", post(bind))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct AddressRequest {
    address: String,
}

#[derive(schemars::JsonSchema, Serialize)]
struct Message {
    msg: String,
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct Signed {
    address: String,
    sig: String,
    msg: String,
}

/// The checksummed form of a verified lower-case address, for display.
fn display(address: &str) -> String {
    parse_address(address).map_or_else(|| address.to_owned(), |a| checksum(&a))
}

async fn login_message(
    State(state): State<AppState>,
    client: ClientMeta,
    ApiJson(req): ApiJson<AddressRequest>,
) -> AppResult<Json<Envelope<Message>>> {
    limits::spend(&state, limits::WALLET_MESSAGES, &client.ip).await?;
    Ok(ok(Message {
        msg: wallet::issue(&state, &state.auth, &req.address, Purpose::Login).await?,
    }))
}

async fn login(
    State(state): State<AppState>,
    client: ClientMeta,
    ApiJson(req): ApiJson<Signed>,
) -> AppResult<Json<Envelope<SessionUser>>> {
    let address = wallet::verify(
        &state,
        &state.auth,
        &req.address,
        &req.sig,
        &req.msg,
        Purpose::Login,
    )
    .await?;
    let session = users::sign_in(
        &state,
        "wallet",
        &address,
        &display(&address),
        client.locale,
    )
    .await?;
    Ok(ok(session))
}

async fn bind_message(
    State(state): State<AppState>,
    me: CurrentUser,
    ApiJson(req): ApiJson<AddressRequest>,
) -> AppResult<Json<Envelope<Message>>> {
    Ok(ok(Message {
        msg: wallet::issue(&state, &state.auth, &req.address, Purpose::Bind(me.user_id)).await?,
    }))
}

async fn bind(
    State(state): State<AppState>,
    me: CurrentUser,
    ApiJson(req): ApiJson<Signed>,
) -> AppResult<Json<Envelope<AccountView>>> {
    let purpose = Purpose::Bind(me.user_id);
    let address = wallet::verify(
        &state,
        &state.auth,
        &req.address,
        &req.sig,
        &req.msg,
        purpose,
    )
    .await?;
    Ok(ok(users::bind(
        &state,
        me.user_id,
        "wallet",
        &address,
        &display(&address),
    )
    .await?))
}
