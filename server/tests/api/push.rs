//! Web Push on SQLite and PostgreSQL: the server's VAPID key, browsers subscribed and
//! unsubscribed (bad keys and private endpoints refused), and messages a local push service
//! verifies and decrypts; a gone browser is forgotten, a busy service is waited for.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, Set};
use serde_json::{Value, json};
use server::alerts::push::{Notice, Pushed, Urgency};
use server::entity::{push_subscription, task, task_progress};

use crate::common::push_service::PushService;
use crate::common::{Backend, TestApp};

const CONTACT: &str = "mailto:alerts@blockbrief.test";

async fn start(backend: Backend, allow_loopback: bool) -> TestApp {
    TestApp::start_with(backend, |c| {
        c.push.push_allow_loopback = allow_loopback;
        c.push.push_contact = CONTACT.to_owned();
    })
    .await
}

async fn signed_in(app: &TestApp, email: &str) -> (String, i64) {
    let session = app.sign_in(email).await;
    let token = session["token"].as_str().expect("token").to_owned();
    (token, session["id"].as_i64().expect("id"))
}

async fn call(app: &TestApp, token: &str, path: &str, body: Value) -> Value {
    app.post_with(path, body, &[("X-TOKEN", token)]).await.1
}

async fn subscriptions(app: &TestApp) -> u64 {
    push_subscription::Entity::find()
        .count(&app.state.db)
        .await
        .expect("count")
}

async fn browsers_subscribe_and_get_verified_encrypted_messages(backend: Backend) {
    let app = start(backend, true).await;
    let service = PushService::start().await;
    let (token, _) = signed_in(&app, "reader@example.com").await;
    let key = app.get("/push/key").await.1["data"]["key"]
        .as_str()
        .expect("key")
        .to_owned();
    let raw = URL_SAFE_NO_PAD.decode(&key).expect("base64url");
    assert_eq!((raw.len(), raw[0]), (65, 4), "an uncompressed P-256 point");
    let browser = service.browser("laptop");
    let subscribed = call(&app, &token, "/push/subscribe", browser.subscription()).await;
    assert_eq!(subscribed["code"], 2000, "{subscribed}");
    // Subscribing again renews it, without a second row.
    call(&app, &token, "/push/subscribe", browser.subscription()).await;
    assert_eq!(subscriptions(&app).await, 1);
    // The first browser completes the allow_notification task.
    let allow = task::Entity::find()
        .filter(task::Column::EventType.eq("allow_notification"))
        .one(&app.state.db)
        .await
        .expect("db")
        .expect("the task");
    let progress = task_progress::Entity::find()
        .filter(task_progress::Column::TaskId.eq(allow.id))
        .one(&app.state.db)
        .await
        .expect("db")
        .expect("progress");
    assert_eq!(progress.status, "to_receive");
    // A test notification: signed with the key the page got, for the service's origin, from
    // our contact; encrypted for this browser alone.
    let tested = call(&app, &token, "/push/test", json!({})).await;
    assert_eq!(
        tested["data"]["sent"],
        1,
        "{tested} {:?}",
        service.refused()
    );
    let got = service.delivered();
    assert_eq!(got.len(), 1);
    let message = &got[0];
    assert_eq!(message.browser, "laptop");
    assert_eq!(
        (
            message.key.as_str(),
            message.audience.as_str(),
            message.subject.as_str()
        ),
        (key.as_str(), service.base.as_str(), CONTACT)
    );
    assert_eq!(
        (message.ttl.as_str(), message.urgency.as_str()),
        ("86400", "normal")
    );
    assert_eq!(message.payload["title"], "Notifications work");
    assert!(
        message.payload["url"]
            .as_str()
            .expect("url")
            .ends_with("/en/alerts")
    );
    // Important news is sent with high urgency, in the reader's words.
    let row = push_subscription::Entity::find()
        .one(&app.state.db)
        .await
        .expect("db")
        .expect("row");
    let notice = Notice {
        title: "比特币ETF获批".to_owned(),
        body: "SEC".to_owned(),
        url: "https://blockbrief.test/feed/7".to_owned(),
        feed_id: Some(7),
    };
    let pushed = app
        .state
        .alerts
        .pusher
        .send(&app.state, &row, &notice, Urgency::High)
        .await
        .expect("send");
    assert_eq!(pushed, Pushed::Sent);
    let last = service.delivered().pop().expect("delivered");
    assert_eq!(
        (last.urgency.as_str(), &last.payload["feed_id"]),
        ("high", &json!(7))
    );
    assert_eq!(last.payload["title"], "比特币ETF获批");
    // A busy service is waited for; a browser that left is forgotten.
    service.answer("laptop", 429, Some(120));
    let later = app
        .state
        .alerts
        .pusher
        .send(&app.state, &row, &notice, Urgency::Normal)
        .await;
    assert_eq!(later.expect("send"), Pushed::Later(120));
    let row = push_subscription::Entity::find_by_id(row.id)
        .one(&app.state.db)
        .await
        .expect("db")
        .expect("kept");
    assert_eq!(row.retry_at, Some(app.state.now() + 120));
    service.answer("laptop", 410, None);
    let gone = app
        .state
        .alerts
        .pusher
        .send(&app.state, &row, &notice, Urgency::Normal)
        .await;
    assert_eq!(gone.expect("send"), Pushed::Gone);
    assert_eq!(subscriptions(&app).await, 0);
    assert!(service.refused().is_empty(), "{:?}", service.refused());
    // Unsubscribed by its reader only.
    let phone = service.browser("phone");
    call(&app, &token, "/push/subscribe", phone.subscription()).await;
    let (other, _) = signed_in(&app, "other@example.com").await;
    let endpoint = json!({ "endpoint": phone.endpoint });
    call(&app, &other, "/push/unsubscribe", endpoint.clone()).await;
    assert_eq!(
        subscriptions(&app).await,
        1,
        "another reader's unsubscribe does nothing"
    );
    call(&app, &token, "/push/unsubscribe", endpoint).await;
    assert_eq!(subscriptions(&app).await, 0);
    let none = call(&app, &token, "/push/test", json!({})).await;
    assert_eq!(none["code"], 4001, "{none}");
}

async fn bad_subscriptions_and_private_addresses_are_refused(backend: Backend) {
    let app = start(backend, false).await;
    let service = PushService::start().await;
    let (token, user) = signed_in(&app, "reader@example.com").await;
    let good = service.browser("b").subscription();
    let with = |endpoint: &str| {
        let mut sub = good.clone();
        sub["endpoint"] = json!(endpoint);
        sub
    };
    let mut bad_key = good.clone();
    bad_key["keys"]["p256dh"] = json!(URL_SAFE_NO_PAD.encode([4u8; 65]));
    let mut short_auth = good.clone();
    short_auth["keys"]["auth"] = json!("AAAA");
    for sub in [
        good.clone(),
        with("http://push.example.com/x"),
        with("https://127.0.0.1/x"),
        with("https://localhost/x"),
        with("https://10.1.2.3/x"),
        with("https://169.254.169.254/latest"),
        with("https://[::1]/x"),
        with("https://[fd00::1]/x"),
        with("https://user:pw@push.example.com/x"),
        with("ftp://push.example.com/x"),
        with("not a url"),
        bad_key,
        short_auth,
    ] {
        let refused = call(&app, &token, "/push/subscribe", sub.clone()).await;
        assert_eq!(refused["code"], 4001, "{sub}: {refused}");
    }
    assert_eq!(subscriptions(&app).await, 0);
    let (status, anonymous) = app.post("/push/subscribe", good.clone()).await;
    assert_eq!((status.as_u16(), &anonymous["code"]), (401, &json!(4010)));
    // A row that points at this machine (as a name that resolves here would) is never posted
    // to: the connection itself refuses private addresses.
    let row = push_subscription::ActiveModel {
        user_id: Set(user),
        endpoint: Set(format!(
            "{}/push/b",
            service.base.replace("127.0.0.1", "localhost")
        )),
        p256dh: Set(good["keys"]["p256dh"].as_str().expect("key").to_owned()),
        auth: Set(good["keys"]["auth"].as_str().expect("auth").to_owned()),
        created_at: Set(app.state.now()),
        retry_at: Set(None),
        ..Default::default()
    }
    .insert(&app.state.db)
    .await
    .expect("row");
    let notice = Notice {
        title: "t".to_owned(),
        body: "b".to_owned(),
        url: "https://blockbrief.test".to_owned(),
        feed_id: None,
    };
    let pushed = app
        .state
        .alerts
        .pusher
        .send(&app.state, &row, &notice, Urgency::Normal)
        .await
        .expect("send");
    assert!(matches!(pushed, Pushed::Failed(_)), "{pushed:?}");
    assert!(
        service.delivered().is_empty(),
        "nothing reached the private address"
    );
}

on_both_databases!(
    browsers_subscribe_and_get_verified_encrypted_messages,
    bad_subscriptions_and_private_addresses_are_refused,
);
