//! Sign-In with Ethereum with real secp256k1 signatures, on SQLite and PostgreSQL: each attack
//! the issue names fails closed.

use std::sync::Arc;

use crate::common::{Backend, TestApp, assert_error};
use k256::ecdsa::SigningKey;
use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
use serde_json::{Value, json};
use server::auth::wallet::{checksum, recover_signer};
use server::entity::session;
use sha3::{Digest, Keccak256};

/// A wallet: a secp256k1 key and its Ethereum address.
struct Wallet {
    key: SigningKey,
    address: [u8; 20],
}

impl Wallet {
    fn new(seed: u8) -> Self {
        let key = SigningKey::from_slice(&[seed; 32]).expect("a valid secret");
        let point = key.verifying_key().to_encoded_point(false);
        let hash = Keccak256::digest(&point.as_bytes()[1..]);
        Self {
            key,
            address: hash[12..].try_into().expect("20 bytes"),
        }
    }

    fn address(&self) -> String {
        checksum(&self.address)
    }

    /// `personal_sign`: EIP-191 prefix, Keccak-256, recoverable signature with v = 27/28.
    fn sign(&self, message: &str) -> String {
        let mut data = format!("\x19Ethereum Signed Message:\n{}", message.len()).into_bytes();
        data.extend_from_slice(message.as_bytes());
        let (signature, recovery) = self
            .key
            .sign_prehash_recoverable(&Keccak256::digest(&data))
            .expect("sign");
        let mut bytes = signature.to_bytes().to_vec();
        bytes.push(27 + recovery.to_byte());
        format!("0x{}", hex::encode(bytes))
    }
}

async fn message(app: &TestApp, path: &str, address: &str, headers: &[(&str, &str)]) -> String {
    let (_, got) = app
        .post_with(path, json!({ "address": address }), headers)
        .await;
    got["data"]["msg"]
        .as_str()
        .unwrap_or_else(|| panic!("a message: {got}"))
        .to_owned()
}

async fn login(
    app: &TestApp,
    wallet: &Wallet,
    msg: &str,
    sig: &str,
) -> (reqwest::StatusCode, Value) {
    app.post(
        "/user/login/wallet",
        json!({ "address": wallet.address(), "sig": sig, "msg": msg }),
    )
    .await
}

async fn a_wallet_signs_in_with_an_eip4361_message(backend: Backend) {
    let app = TestApp::start(backend).await;
    let wallet = Wallet::new(7);
    let msg = message(&app, "/user/sig/msg", &wallet.address().to_lowercase(), &[]).await;
    let lines: Vec<&str> = msg.lines().collect();
    assert_eq!(
        lines[0],
        "127.0.0.1:8080 wants you to sign in with your Ethereum account:"
    );
    assert_eq!(lines[1], wallet.address(), "EIP-55 checksummed");
    for field in [
        "URI: http://127.0.0.1:8080",
        "Version: 1",
        "Chain ID: 1",
        "Issued At: 2026-11-22T00:00:00Z",
        "Expiration Time: 2026-11-22T00:10:00Z",
    ] {
        assert!(lines.contains(&field), "{field} in\n{msg}");
    }
    let nonce = lines
        .iter()
        .find_map(|l| l.strip_prefix("Nonce: "))
        .expect("nonce");
    assert!(
        nonce.len() >= 22 && nonce.chars().all(|c| c.is_ascii_alphanumeric()),
        "{nonce}"
    );
    let (_, session) = login(&app, &wallet, &msg, &wallet.sign(&msg)).await;
    assert_eq!(session["data"]["type"], 1, "{session}");
    let token = session["data"]["token"].as_str().expect("token");
    let (_, accounts) = app
        .post_with("/user/account/list", json!({}), &[("X-TOKEN", token)])
        .await;
    assert_eq!(accounts["data"]["list"][0]["type"], "wallet");
    assert_eq!(accounts["data"]["list"][0]["name"], wallet.address());
    let short = format!("{}…{}", &wallet.address()[..6], &wallet.address()[38..]);
    assert_eq!(session["data"]["nickname"], short);
    // Signing in again with a new message finds the same user.
    let again = message(&app, "/user/sig/msg", &wallet.address(), &[]).await;
    let (_, second) = login(&app, &wallet, &again, &wallet.sign(&again)).await;
    assert_eq!(second["data"]["id"], session["data"]["id"]);
    assert_eq!(second["data"]["prompt_for_code"], false);
}

async fn every_attack_fails_closed(backend: Backend) {
    let app = TestApp::start(backend).await;
    let wallet = Wallet::new(7);
    let thief = Wallet::new(9);
    let msg = message(&app, "/user/sig/msg", &wallet.address(), &[]).await;
    let sig = wallet.sign(&msg);
    // Someone else's key.
    assert_error(
        &login(&app, &wallet, &msg, &thief.sign(&msg)).await,
        200,
        4402,
    );
    // Not a signature.
    for bad in [
        "0x",
        "0x1234",
        "nothex",
        &format!("{}1d", &sig[..sig.len() - 2]),
    ] {
        assert_error(&login(&app, &wallet, &msg, bad).await, 200, 4402);
    }
    // Another site's message, a message for another address, an unsupported chain.
    let evil = msg.replace("127.0.0.1:8080 wants", "evil.example wants");
    assert_error(
        &login(&app, &wallet, &evil, &wallet.sign(&evil)).await,
        200,
        4401,
    );
    let other_uri = msg.replace("URI: http://127.0.0.1:8080", "URI: https://evil.example");
    assert_error(
        &login(&app, &wallet, &other_uri, &wallet.sign(&other_uri)).await,
        200,
        4401,
    );
    let (_, other_address) = app
        .post(
            "/user/login/wallet",
            json!({ "address": thief.address(), "sig": thief.sign(&msg), "msg": msg }),
        )
        .await;
    assert_eq!(other_address["code"], 4401);
    let chain = msg.replace("Chain ID: 1", "Chain ID: 5");
    assert_error(
        &login(&app, &wallet, &chain, &wallet.sign(&chain)).await,
        200,
        4401,
    );
    // A message we issued, edited afterwards; and one with a nonce we never issued.
    let edited = msg.replace(
        "Sign in to Blockbrief.",
        "Sign in to Blockbrief and send all funds.",
    );
    assert_error(
        &login(&app, &wallet, &edited, &wallet.sign(&edited)).await,
        200,
        4401,
    );
    let nonce = msg
        .lines()
        .find_map(|l| l.strip_prefix("Nonce: "))
        .expect("nonce")
        .to_owned();
    let foreign = msg.replace(&nonce, "ForeignNonce1234567890");
    assert_error(
        &login(&app, &wallet, &foreign, &wallet.sign(&foreign)).await,
        200,
        4403,
    );
    // The genuine one works once; a replay does not.
    assert_eq!(login(&app, &wallet, &msg, &sig).await.1["code"], 2000);
    assert_error(&login(&app, &wallet, &msg, &sig).await, 200, 4403);
    // An expired message.
    let late = message(&app, "/user/sig/msg", &wallet.address(), &[]).await;
    app.clock.advance(600);
    assert_error(
        &login(&app, &wallet, &late, &wallet.sign(&late)).await,
        200,
        4403,
    );
    assert_error(
        &app.post("/user/sig/msg", json!({ "address": "0x1234" }))
            .await,
        200,
        4001,
    );
}

async fn ten_concurrent_submissions_make_one_session(backend: Backend) {
    let app = Arc::new(TestApp::start(backend).await);
    let wallet = Arc::new(Wallet::new(11));
    let msg = message(&app, "/user/sig/msg", &wallet.address(), &[]).await;
    let sig = wallet.sign(&msg);
    let tries = (0..10).map(|_| {
        let (app, wallet, msg, sig) = (app.clone(), wallet.clone(), msg.clone(), sig.clone());
        tokio::spawn(async move { login(&app, &wallet, &msg, &sig).await })
    });
    let mut codes = Vec::new();
    for t in tries {
        let (status, body) = t.await.expect("task");
        assert_eq!(status, 200, "{body}");
        codes.push(body["code"].as_i64().unwrap_or_default());
    }
    assert_eq!(codes.iter().filter(|c| **c == 2000).count(), 1, "{codes:?}");
    assert!(codes.iter().all(|c| [2000, 4403].contains(c)), "{codes:?}");
    let sessions = session::Entity::find()
        .filter(session::Column::UserId.is_not_null())
        .count(&app.state.db)
        .await;
    assert_eq!(sessions.expect("count"), 1);
}

async fn a_signed_in_user_binds_a_wallet_once(backend: Backend) {
    let app = TestApp::start(backend).await;
    let wallet = Wallet::new(21);
    let alice = app.sign_in("alice@example.org").await;
    let alice_auth = [("X-TOKEN", alice["token"].as_str().expect("token"))];
    let bind_msg = message(
        &app,
        "/user/account/bind/wallet/sigmsg",
        &wallet.address(),
        &alice_auth,
    )
    .await;
    // A bind message cannot be used to sign in.
    assert_error(
        &login(&app, &wallet, &bind_msg, &wallet.sign(&bind_msg)).await,
        200,
        4403,
    );
    let body =
        json!({ "address": wallet.address(), "sig": wallet.sign(&bind_msg), "msg": bind_msg });
    let (_, bound) = app
        .post_with("/user/account/bind/wallet", body, &alice_auth)
        .await;
    assert_eq!(bound["data"]["type"], "wallet", "{bound}");
    let (_, accounts) = app
        .post_with("/user/account/list", json!({}), &alice_auth)
        .await;
    let kinds: Vec<&str> = accounts["data"]["list"]
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|a| a["type"].as_str())
        .collect();
    assert_eq!(kinds, ["email", "wallet"]);
    let (_, tasks) = app
        .post_with(
            "/point/task/list",
            json!({ "group": "novice" }),
            &alice_auth,
        )
        .await;
    let task = tasks["data"]["list"]
        .as_array()
        .expect("list")
        .iter()
        .find(|t| t["event_type"] == "bind_wallet")
        .cloned()
        .expect("task");
    assert_eq!(task["status"], "to_receive");
    // Signing in with the wallet now reaches Alice.
    let msg = message(&app, "/user/sig/msg", &wallet.address(), &[]).await;
    assert_eq!(
        login(&app, &wallet, &msg, &wallet.sign(&msg)).await.1["data"]["id"],
        alice["id"]
    );
    // Bob cannot bind Alice's wallet, and a bind message is for the user it was issued to.
    app.clock.advance(60);
    let bob = app.sign_in("bob@example.org").await;
    let bob_auth = [("X-TOKEN", bob["token"].as_str().expect("token"))];
    let bob_msg = message(
        &app,
        "/user/account/bind/wallet/sigmsg",
        &wallet.address(),
        &bob_auth,
    )
    .await;
    let body = json!({ "address": wallet.address(), "sig": wallet.sign(&bob_msg), "msg": bob_msg });
    assert_error(
        &app.post_with("/user/account/bind/wallet", body, &bob_auth)
            .await,
        200,
        4404,
    );
    let alice_msg = message(
        &app,
        "/user/account/bind/wallet/sigmsg",
        &wallet.address(),
        &alice_auth,
    )
    .await;
    let body =
        json!({ "address": wallet.address(), "sig": wallet.sign(&alice_msg), "msg": alice_msg });
    assert_error(
        &app.post_with("/user/account/bind/wallet", body, &bob_auth)
            .await,
        200,
        4403,
    );
    assert_error(
        &app.post(
            "/user/account/bind/wallet/sigmsg",
            json!({ "address": wallet.address() }),
        )
        .await,
        401,
        4010,
    );
}

on_both_databases!(
    a_wallet_signs_in_with_an_eip4361_message,
    every_attack_fails_closed,
    ten_concurrent_submissions_make_one_session,
    a_signed_in_user_binds_a_wallet_once,
);

#[test]
fn recovery_accepts_v_of_0_1_27_28_and_high_s() {
    let wallet = Wallet::new(3);
    let msg = "hello";
    let sig = hex::decode(&wallet.sign(msg)[2..]).expect("hex");
    let with_v = |v: u8| {
        let mut s = sig.clone();
        s[64] = v;
        format!("0x{}", hex::encode(s))
    };
    let v = sig[64];
    assert_eq!(recover_signer(msg, &with_v(v)), Some(wallet.address));
    assert_eq!(recover_signer(msg, &with_v(v - 27)), Some(wallet.address));
    assert_eq!(recover_signer(msg, &with_v(v + 2)), None);
    // The mirrored (high-s) form of the same signature, with the other parity.
    let order =
        hex::decode("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141").expect("n");
    let mut high = sig.clone();
    let mut borrow = 0i16;
    for i in (0..32).rev() {
        let d = i16::from(order[i]) - i16::from(sig[32 + i]) - borrow;
        high[32 + i] = d.rem_euclid(256) as u8;
        borrow = i16::from(d < 0);
    }
    high[64] = if v == 27 { 28 } else { 27 };
    assert_eq!(
        recover_signer(msg, &format!("0x{}", hex::encode(high))),
        Some(wallet.address)
    );
    assert_eq!(
        recover_signer("hello!", &with_v(v)).map(|a| a == wallet.address),
        Some(false)
    );
}
