//! The cleanup job, driven by the test's clock: each kind of row goes after its life, what is
//! still alive stays, and two servers running it together do not conflict.

use sea_orm::{ConnectionTrait, EntityTrait, PaginatorTrait, Statement};
use serde_json::json;
use server::cleanup::{self, Removed};
use server::entity::{
    oauth_state, otp_code, otp_guard, rate_limit, session, track_log, wallet_nonce,
};

use crate::common::{Backend, TestApp};

const DAY: i64 = 24 * 3600;

async fn counts(app: &TestApp) -> [u64; 6] {
    let db = &app.state.db;
    [
        session::Entity::find().count(db).await.expect("count"),
        otp_code::Entity::find().count(db).await.expect("count"),
        otp_guard::Entity::find().count(db).await.expect("count"),
        wallet_nonce::Entity::find().count(db).await.expect("count"),
        oauth_state::Entity::find().count(db).await.expect("count"),
        rate_limit::Entity::find().count(db).await.expect("count"),
    ]
}

async fn track(app: &TestApp) {
    let entry = json!({ "type": "view", "event": "feed.detail", "time": app.state.now() * 1000 });
    let got = app
        .post("/log/track", json!({ "track_logs": [entry] }))
        .await;
    assert_eq!(got.1["data"]["accepted"], 1, "{}", got.1);
}

async fn expired_rows_go_and_live_ones_stay(backend: Backend) {
    let app = TestApp::start_with(backend, |c| {
        c.apple_client_id = Some("news.blockbrief.web".to_owned());
    })
    .await;
    // A user session (30 days), a guest token, a code, a wallet message, an Apple start.
    let user = app.sign_in("keeper@example.org").await;
    app.post("/user/gtoken", json!({})).await;
    let wallet = json!({ "address": "0x52908400098527886E0F7030069857D2E4169EE7" });
    assert_eq!(app.post("/user/sig/msg", wallet).await.1["code"], 2000);
    assert_eq!(
        app.post("/user/login/apple/start", json!({})).await.1["code"],
        2000
    );
    track(&app).await;
    let before = counts(&app).await;
    assert_eq!(
        before,
        [2, 1, 1, 1, 1, 5],
        "session, guest; code; guard; nonce; state; 5 budgets (guest tokens, sign-in message, \
         sign-in start, tracking, code guesses)"
    );
    assert_eq!(
        cleanup::run_once(&app.state, app.state.config.track_retention_days)
            .await
            .expect("run"),
        Removed::default()
    );

    // Two days on: codes, guards, nonces, states and budgets have outlived their use; the user
    // session (30 days) and the guest token (30 days) are alive.
    app.clock.advance(2 * DAY);
    let removed = cleanup::run_once(&app.state, app.state.config.track_retention_days)
        .await
        .expect("run");
    assert_eq!(
        (
            removed.otp_codes,
            removed.otp_guards,
            removed.wallet_nonces,
            removed.oauth_states
        ),
        (1, 1, 1, 1)
    );
    assert_eq!(removed.budgets, 5);
    assert_eq!(counts(&app).await, [2, 0, 0, 0, 0, 0]);

    // A signed-out session is kept a day, then removed; the user still signed in is not.
    let token = user["token"].as_str().expect("token");
    app.post_with("/user/logout", json!({}), &[("X-TOKEN", token)])
        .await;
    app.clock.advance(DAY + 1);
    let beside = app.start_beside().await;
    // Two servers at once find the same rows: one deletes them, neither fails.
    let (a, b) = tokio::join!(
        cleanup::run_once(&app.state, app.state.config.track_retention_days),
        cleanup::run_once(&beside.state, beside.state.config.track_retention_days)
    );
    let (a, b) = (a.expect("first server"), b.expect("second server"));
    assert_eq!(a.sessions + b.sessions, 1, "the revoked session, once");
    // 30 days after its last use the guest token goes too.
    app.clock.advance(30 * DAY);
    assert_eq!(
        cleanup::run_once(&app.state, app.state.config.track_retention_days)
            .await
            .expect("run")
            .sessions,
        1
    );
    assert_eq!(counts(&app).await, [0, 0, 0, 0, 0, 0]);
}

/// Mail sent, or given up on, is kept a week for the record; mail still to send is never removed.
async fn sent_mail_is_kept_a_week(backend: Backend) {
    let app = TestApp::start(backend).await;
    server::outbox::enqueue_guess_alert(&app.state, "sent@example.org", "en")
        .await
        .expect("queued");
    // No SMTP_URL: the mail goes to the log, which counts as sent.
    assert_eq!(
        server::outbox::deliver_due(&app.state, &app.state.mailer)
            .await
            .expect("sent"),
        1
    );
    app.clock.advance(7 * DAY - 1);
    server::outbox::enqueue_guess_alert(&app.state, "waiting@example.org", "en")
        .await
        .expect("queued");
    assert_eq!(
        cleanup::run_once(&app.state, app.state.config.track_retention_days)
            .await
            .expect("run")
            .mail,
        0
    );
    app.clock.advance(8 * DAY);
    assert_eq!(
        cleanup::run_once(&app.state, app.state.config.track_retention_days)
            .await
            .expect("run")
            .mail,
        1
    );
    let left = server::entity::mail_outbox::Entity::find()
        .all(&app.state.db)
        .await
        .expect("rows");
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].recipient, "waiting@example.org");
}

/// Entries older than the retention go: on PostgreSQL a month goes whole once all of it is past
/// retention (its partition is dropped), and entries that landed in the default partition go by
/// age, as on SQLite.
async fn tracking_is_kept_for_its_retention(backend: Backend) {
    let app = TestApp::start_with(backend, |c| c.track_retention_days = 90).await;
    // 2026-11-22: the job creates this month's and next month's partitions.
    cleanup::run_once(&app.state, app.state.config.track_retention_days)
        .await
        .expect("partitions ahead");
    track(&app).await;
    // 2027-01-06: no partition for January yet, so the entry lands in the default one.
    app.clock.advance(45 * DAY);
    track(&app).await;
    let stored = || async {
        track_log::Entity::find()
            .count(&app.state.db)
            .await
            .expect("count")
    };
    assert_eq!(stored().await, 2);
    // 2027-03-01: 90 days back is 2026-12-01, so all of November is past retention.
    app.clock.advance(54 * DAY);
    cleanup::run_once(&app.state, app.state.config.track_retention_days)
        .await
        .expect("run");
    assert_eq!(
        stored().await,
        1,
        "the November entry is gone, the January one kept"
    );
    if backend == Backend::Postgres {
        let names = partitions(&app).await;
        assert!(
            !names.contains(&"track_logs_y2026m11".to_owned()),
            "{names:?}"
        );
        for kept in [
            "track_logs_y2026m12",
            "track_logs_y2027m03",
            "track_logs_default",
        ] {
            assert!(names.contains(&kept.to_owned()), "{kept} in {names:?}");
        }
    }
    // 2027-04-10: the January entry is 94 days old, in the default partition on PostgreSQL.
    app.clock.advance(40 * DAY);
    cleanup::run_once(&app.state, app.state.config.track_retention_days)
        .await
        .expect("run");
    assert_eq!(stored().await, 0);
}

async fn partitions(app: &TestApp) -> Vec<String> {
    let db = &app.state.db;
    let rows = db
        .query_all(Statement::from_string(
            db.get_database_backend(),
            "SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid \
             JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = 'track_logs'",
        ))
        .await
        .expect("partitions");
    rows.iter()
        .map(|r| r.try_get::<String>("", "name").expect("name"))
        .collect()
}

on_both_databases!(
    expired_rows_go_and_live_ones_stay,
    tracking_is_kept_for_its_retention,
    sent_mail_is_kept_a_week,
);
