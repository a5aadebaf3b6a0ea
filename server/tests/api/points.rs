//! Tasks, points, the ledger and the leaderboard, on SQLite and PostgreSQL.

use std::sync::Arc;

use crate::common::{Backend, TestApp, assert_error};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::{Value, json};
use server::config::Config;
use server::entity::point_ledger;
use server::points::tasks::{Source, record_event};

const STORE_PAGE: &str = "https://apps.apple.com/app/blockbrief/id6450000001";

/// A site whose app is in the App Store: the rating task is offered.
fn in_the_store(c: &mut Config) {
    c.app_store_url = Some(STORE_PAGE.to_owned());
}

async fn tasks(app: &TestApp, group: &str, token: Option<&str>) -> Vec<Value> {
    let headers: Vec<(&str, &str)> = token.map(|t| vec![("X-TOKEN", t)]).unwrap_or_default();
    let (_, body) = app
        .post_with("/point/task/list", json!({ "group": group }), &headers)
        .await;
    assert_eq!(body["code"], 2000, "{body}");
    body["data"]["list"].as_array().expect("a list").clone()
}

fn find<'a>(list: &'a [Value], event: &str) -> &'a Value {
    list.iter()
        .find(|t| t["event_type"] == event)
        .unwrap_or_else(|| panic!("{event} is listed"))
}

async fn signed_in(app: &TestApp, email: &str) -> (String, i64) {
    let me = app.sign_in(email).await;
    (
        me["token"].as_str().expect("token").to_owned(),
        me["id"].as_i64().expect("id"),
    )
}

async fn visitors_see_the_catalogue_in_their_language(backend: Backend) {
    let app = TestApp::start_with(backend, |c| {
        in_the_store(c);
        c.twitter_client_id = Some("x-client".to_owned());
    })
    .await;
    let novice = tasks(&app, "novice", None).await;
    assert!(novice.len() >= 8);
    assert!(novice.iter().all(|t| t["status"] == "not_start"));
    let wallet = find(&novice, "bind_wallet");
    assert_eq!(wallet["award"], 200);
    assert_eq!(wallet["title"], "Connect your wallet");
    assert_eq!(
        wallet["button"],
        json!({ "text": "", "disabled": false, "app_link": "blockbrief://UserProfile" })
    );
    // Rating opens the configured store page, with no word of stars.
    let rate = find(&novice, "rate_app");
    assert_eq!(
        (rate["title"].clone(), rate["report_time"].clone()),
        (json!("Rate the app"), json!(1))
    );
    assert_eq!(rate["button"]["app_link"], format!("external:{STORE_PAGE}"));
    assert_eq!(find(&novice, "bind_twitter")["award"], 100);
    assert_eq!(
        find(&novice, "allow_notification")["button"],
        json!({ "text": "", "disabled": false, "app_link": "blockbrief://Alerts" })
    );
    let daily = tasks(&app, "daily", None).await;
    assert_eq!(
        find(&daily, "view_feed")["progress"],
        json!({ "count": 0, "target": 3 })
    );
    let (_, body) = app
        .post_with(
            "/point/task/list",
            json!({ "group": "novice" }),
            &[("Cookie", "NEXT_LOCALE=zh-Hant")],
        )
        .await;
    assert_eq!(
        find(
            body["data"]["list"].as_array().expect("list"),
            "bind_wallet"
        )["title"],
        "連接錢包"
    );
    assert_error(
        &app.post("/point/task/list", json!({ "group": "weekly" }))
            .await,
        200,
        4001,
    );
}

async fn tasks_without_a_target_are_not_offered(backend: Backend) {
    // No store page, no X sign-in, no Telegram bot: the tasks leading there are not listed.
    let app = TestApp::start(backend).await;
    let (token, user) = signed_in(&app, "nowhere@example.org").await;
    let auth = [("X-TOKEN", token.as_str())];
    let novice = tasks(&app, "novice", Some(&token)).await;
    let listed: Vec<&str> = novice
        .iter()
        .map(|t| t["event_type"].as_str().expect("event"))
        .collect();
    for hidden in [
        "rate_app",
        "bind_twitter",
        "follow_official_twitter",
        "join_community",
    ] {
        assert!(!listed.contains(&hidden), "{hidden} in {listed:?}");
    }
    assert!(listed.contains(&"bind_wallet") && listed.contains(&"allow_notification"));
    // Nor can they be reported or seen done.
    let (_, reported) = app
        .post_with(
            "/point/task_event_report",
            json!({ "event_type": "rate_app" }),
            &auth,
        )
        .await;
    assert_eq!(reported["data"]["updated"], json!([]), "{reported}");
    let moved = record_event(&app.state.ctx, user, "join_community", Source::Server)
        .await
        .expect("recorded");
    assert!(moved.is_empty(), "{moved:?}");
    // What the server sees for itself is never the client's to report.
    for event in ["join_community", "allow_notification", "bind_wallet"] {
        assert_error(
            &app.post_with(
                "/point/task_event_report",
                json!({ "event_type": event }),
                &auth,
            )
            .await,
            200,
            4202,
        );
    }
}

async fn a_reported_task_is_collected_once(backend: Backend) {
    let app = TestApp::start_with(backend, in_the_store).await;
    let (token, _) = signed_in(&app, "p@example.org").await;
    let auth = [("X-TOKEN", token.as_str())];
    let join = find(&tasks(&app, "novice", Some(&token)).await, "rate_app").clone();
    let point_id = join["point_id"].as_i64().expect("id");
    // Nothing to collect yet.
    assert_error(
        &app.post_with("/point/collect", json!({ "point_id": point_id }), &auth)
            .await,
        200,
        4201,
    );
    let report = json!({ "event_type": "rate_app", "param": "{\"from\":\"task\"}" });
    let (_, reported) = app
        .post_with("/point/task_event_report", report, &auth)
        .await;
    assert_eq!(reported["data"]["updated"], json!([point_id]), "{reported}");
    assert_eq!(
        find(&tasks(&app, "novice", Some(&token)).await, "rate_app")["status"],
        "to_receive"
    );
    let (_, collected) = app
        .post_with("/point/collect", json!({ "point_id": point_id }), &auth)
        .await;
    assert_eq!(collected["data"], json!({ "award": 100, "balance": 100 }));
    // The award is also a message to the reader.
    let (_, messages) = app
        .post_with("/message/list", json!({ "kind": "points" }), &auth)
        .await;
    let told = &messages["data"]["list"][0];
    assert_eq!(
        (
            told["count"].clone(),
            told["body"].clone(),
            told["read"].clone()
        ),
        (json!(100), json!("rate_app"), json!(false))
    );
    assert_eq!(
        find(&tasks(&app, "novice", Some(&token)).await, "rate_app")["status"],
        "completed"
    );
    assert_error(
        &app.post_with("/point/collect", json!({ "point_id": point_id }), &auth)
            .await,
        200,
        4201,
    );
    assert_eq!(
        app.post_with("/point/balance", json!({}), &auth).await.1["data"]["balance"],
        100
    );
    // No partner exchange is set up: its group offers no task that leads nowhere (an exchange's
    // task, moved only by the exchange, is in `markets`).
    assert!(
        tasks(&app, "exchange_register", Some(&token))
            .await
            .is_empty()
    );
    // Reporting again does not reopen a completed task.
    let again = json!({ "event_type": "rate_app" });
    assert_eq!(
        app.post_with("/point/task_event_report", again, &auth)
            .await
            .1["data"]["updated"],
        json!([])
    );
}

async fn bad_reports_and_collects_are_refused(backend: Backend) {
    let app = TestApp::start(backend).await;
    let (token, _) = signed_in(&app, "bad@example.org").await;
    let auth = [("X-TOKEN", token.as_str())];
    for param in ["not json", "[1,2]", "\"text\""] {
        let report = json!({ "event_type": "share_content", "param": param });
        assert_error(
            &app.post_with("/point/task_event_report", report, &auth)
                .await,
            200,
            4001,
        );
    }
    let unknown = json!({ "event_type": "mine_bitcoin" });
    assert_error(
        &app.post_with("/point/task_event_report", unknown, &auth)
            .await,
        200,
        4001,
    );
    // The server's own events cannot be claimed by the client.
    for event in [
        "bind_wallet",
        "create_feedback",
        "view_feed",
        "invite_friend",
    ] {
        let report = json!({ "event_type": event });
        assert_error(
            &app.post_with("/point/task_event_report", report, &auth)
                .await,
            200,
            4202,
        );
    }
    assert_error(
        &app.post_with("/point/collect", json!({ "point_id": 999_999 }), &auth)
            .await,
        404,
        4040,
    );
    // Guests cannot report or collect.
    let (_, guest) = app.post("/user/gtoken", json!({})).await;
    let guest = [("X-GTOKEN", guest["data"]["token"].as_str().expect("token"))];
    assert_error(
        &app.post_with("/point/collect", json!({ "point_id": 1 }), &guest)
            .await,
        401,
        4010,
    );
    assert_error(
        &app.post_with(
            "/point/task_event_report",
            json!({ "event_type": "share_content" }),
            &guest,
        )
        .await,
        401,
        4010,
    );
    assert_error(
        &app.post_with("/point/ledger", json!({ "cursor": "abc" }), &auth)
            .await,
        200,
        4001,
    );
}

async fn progress_counts_up_to_the_target(backend: Backend) {
    let app = TestApp::start(backend).await;
    let (token, user) = signed_in(&app, "reader@example.org").await;
    let view = |list: Vec<Value>| find(&list, "view_feed").clone();
    record_event(&app.state, user, "view_feed", Source::Server)
        .await
        .expect("event");
    record_event(&app.state, user, "view_feed", Source::Server)
        .await
        .expect("event");
    let t = view(tasks(&app, "daily", Some(&token)).await);
    assert_eq!(
        (t["status"].as_str(), &t["progress"]),
        (Some("in_progress"), &json!({ "count": 2, "target": 3 }))
    );
    record_event(&app.state, user, "view_feed", Source::Server)
        .await
        .expect("event");
    assert_eq!(
        view(tasks(&app, "daily", Some(&token)).await)["status"],
        "to_receive"
    );
    // A new UTC day starts daily tasks over.
    app.clock.advance(24 * 3600);
    let t = view(tasks(&app, "daily", Some(&token)).await);
    assert_eq!(
        (t["status"].as_str(), t["progress"]["count"].as_i64()),
        (Some("not_start"), Some(0))
    );
}

async fn daily_tasks_pay_again_each_day(backend: Backend) {
    let app = TestApp::start(backend).await;
    let (token, user) = signed_in(&app, "daily@example.org").await;
    let auth = [("X-TOKEN", token.as_str())];
    let share = find(&tasks(&app, "daily", Some(&token)).await, "share_content")["point_id"]
        .as_i64()
        .expect("id");
    for day in 0..2 {
        let report = json!({ "event_type": "share_content" });
        assert_eq!(
            app.post_with("/point/task_event_report", report, &auth)
                .await
                .1["code"],
            2000
        );
        let (_, got) = app
            .post_with("/point/collect", json!({ "point_id": share }), &auth)
            .await;
        assert_eq!(got["data"]["balance"], 20 * (day + 1), "day {day}: {got}");
        app.clock.advance(24 * 3600);
    }
    let rows = point_ledger::Entity::find()
        .filter(point_ledger::Column::UserId.eq(user))
        .all(&app.state.db)
        .await;
    assert_eq!(rows.expect("ledger").len(), 2);
}

async fn fifty_concurrent_collects_pay_exactly_once(backend: Backend) {
    let app = Arc::new(TestApp::start_with(backend, in_the_store).await);
    let (token, user) = signed_in(&app, "rush@example.org").await;
    let auth = [("X-TOKEN", token.as_str())];
    let report = json!({ "event_type": "rate_app" });
    let (_, reported) = app
        .post_with("/point/task_event_report", report, &auth)
        .await;
    let point_id = reported["data"]["updated"][0]
        .as_i64()
        .expect("a task moved");
    let collects = (0..50).map(|_| {
        let (app, token) = (app.clone(), token.clone());
        tokio::spawn(async move {
            app.post_with(
                "/point/collect",
                json!({ "point_id": point_id }),
                &[("X-TOKEN", &token)],
            )
            .await
        })
    });
    let mut paid = 0;
    for c in collects {
        let (status, body) = c.await.expect("task");
        assert_eq!(status, 200, "no 5xx under contention: {body}");
        match body["code"].as_i64() {
            Some(2000) => paid += 1,
            Some(4201) => {}
            other => panic!("unexpected answer {other:?}: {body}"),
        }
    }
    assert_eq!(paid, 1);
    let rows = point_ledger::Entity::find()
        .filter(point_ledger::Column::UserId.eq(user))
        .all(&app.state.db)
        .await;
    assert_eq!(rows.expect("ledger").len(), 1);
    assert_eq!(
        app.post_with("/point/balance", json!({}), &auth).await.1["data"]["balance"],
        100
    );
}

async fn the_ledger_pages_newest_first(backend: Backend) {
    let app = TestApp::start(backend).await;
    let (token, _) = signed_in(&app, "pages@example.org").await;
    let auth = [("X-TOKEN", token.as_str())];
    let daily = tasks(&app, "daily", Some(&token)).await;
    let reportable = [
        "share_content",
        "share_recommend_tag_list",
        "share_leaderboard",
        "share_track_homepage",
        "share_to_twitter",
    ];
    for _day in 0..5 {
        for event in reportable {
            app.post_with(
                "/point/task_event_report",
                json!({ "event_type": event }),
                &auth,
            )
            .await;
            let id = find(&daily, event)["point_id"].clone();
            assert_eq!(
                app.post_with("/point/collect", json!({ "point_id": id }), &auth)
                    .await
                    .1["code"],
                2000
            );
        }
        app.clock.advance(24 * 3600);
    }
    let (_, first) = app.post_with("/point/ledger", json!({}), &auth).await;
    let page1 = first["data"]["list"].as_array().expect("list").clone();
    assert_eq!(page1.len(), 20);
    let cursor = first["data"]["next_cursor"]
        .as_str()
        .expect("a cursor")
        .to_owned();
    let (_, second) = app
        .post_with("/point/ledger", json!({ "cursor": cursor }), &auth)
        .await;
    let page2 = second["data"]["list"].as_array().expect("list").clone();
    assert_eq!(page2.len(), 5);
    assert_eq!(second["data"]["next_cursor"], Value::Null);
    let ids: Vec<i64> = page1
        .iter()
        .chain(&page2)
        .map(|r| r["id"].as_i64().expect("id"))
        .collect();
    assert!(
        ids.windows(2).all(|w| w[0] > w[1]),
        "newest first, no repeats: {ids:?}"
    );
    assert_eq!(page1[0]["amount"], 20);
}

async fn the_leaderboard_ranks_with_ties(backend: Backend) {
    let app = TestApp::start_with(backend, in_the_store).await;
    let mut players = Vec::new();
    // Awards: 100 (rating), 20 (sharing), 20 (sharing), none.
    for (email, event) in [
        ("a@x.org", Some("rate_app")),
        ("b@x.org", Some("share_to_twitter")),
        ("c@x.org", Some("share_to_twitter")),
        ("d@x.org", None),
    ] {
        let (token, _) = signed_in(&app, email).await;
        if let Some(event) = event {
            let auth = [("X-TOKEN", token.as_str())];
            let (_, r) = app
                .post_with(
                    "/point/task_event_report",
                    json!({ "event_type": event }),
                    &auth,
                )
                .await;
            let id = r["data"]["updated"][0].clone();
            assert_eq!(
                app.post_with("/point/collect", json!({ "point_id": id }), &auth)
                    .await
                    .1["code"],
                2000
            );
        }
        players.push(token);
    }
    for period in ["all", "daily"] {
        let (_, board) = app
            .post_with(
                "/point/leaderboard",
                json!({ "period": period }),
                &[("X-TOKEN", &players[2])],
            )
            .await;
        let list = board["data"]["list"].as_array().expect("list");
        let ranks: Vec<(i64, i64)> = list
            .iter()
            .map(|r| {
                (
                    r["rank"].as_i64().expect("rank"),
                    r["points"].as_i64().expect("points"),
                )
            })
            .collect();
        assert_eq!(ranks, vec![(1, 100), (2, 20), (2, 20)], "{period}");
        // The public board shows no part of anyone's email address.
        for row in list {
            let nickname = row["nickname"].as_str().expect("nickname");
            assert!(
                nickname.starts_with("user_") && !nickname.contains('@'),
                "{nickname}"
            );
        }
        assert_eq!(
            board["data"]["me"],
            json!({ "rank": 2, "points": 20 }),
            "{period}"
        );
        let (_, mine) = app
            .post_with(
                "/point/leaderboard",
                json!({ "period": period }),
                &[("X-TOKEN", &players[3])],
            )
            .await;
        assert_eq!(mine["data"]["me"], json!({ "rank": null, "points": 0 }));
    }
    let (_, visitor) = app
        .post("/point/leaderboard", json!({ "period": "all" }))
        .await;
    assert_eq!(visitor["data"]["me"], Value::Null);
    // Tomorrow the daily board is empty; the all-time one is not.
    app.clock.advance(24 * 3600);
    let (_, daily) = app
        .post("/point/leaderboard", json!({ "period": "daily" }))
        .await;
    assert_eq!(daily["data"]["list"], json!([]));
    assert_error(
        &app.post("/point/leaderboard", json!({ "period": "weekly" }))
            .await,
        200,
        4001,
    );
}

on_both_databases!(
    visitors_see_the_catalogue_in_their_language,
    tasks_without_a_target_are_not_offered,
    a_reported_task_is_collected_once,
    bad_reports_and_collects_are_refused,
    progress_counts_up_to_the_target,
    daily_tasks_pay_again_each_day,
    fifty_concurrent_collects_pay_exactly_once,
    the_ledger_pages_newest_first,
    the_leaderboard_ranks_with_ties,
);
