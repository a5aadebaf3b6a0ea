//! Questions and answers with bounties: escrow from the balance (also under concurrency), one
//! answer per reader, accepting once (fifty concurrent accepts pay one), and the seven-day
//! settlement with a clock the test controls.

use sea_orm::sea_query::Expr;
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, Set};
use serde_json::{Value, json};
use server::entity::{answer, point_ledger, question, user};

use crate::common::{Backend, TestApp, assert_error};

const ADMIN: &str = "admin-token-for-tests-0123456789";
const WEEK: i64 = 7 * 86_400;

struct Reader {
    token: String,
    id: i64,
}

async fn start(backend: Backend) -> (TestApp, i64) {
    let app = TestApp::start_with(backend, |c| c.admin_token = Some(ADMIN.to_owned())).await;
    let tags = json!({ "tags": [{ "code": "etf", "names": { "en": "ETF" } }] });
    let (_, made) = app
        .post_with("/admin/catalogue/upsert", tags, &[("X-ADMIN-TOKEN", ADMIN)])
        .await;
    assert_eq!(made["code"], 2000, "{made}");
    let (_, tag) = app.post("/tag/detail", json!({ "code": "etf" })).await;
    let tag_id = tag["data"]["id"].as_i64().expect("tag id");
    (app, tag_id)
}

async fn reader(app: &TestApp, name: &str, points: i64) -> Reader {
    let session = app.sign_in(&format!("{name}@example.com")).await;
    let id = session["id"].as_i64().expect("id");
    user::Entity::update_many()
        .col_expr(user::Column::Points, Expr::value(points))
        .filter(user::Column::Id.eq(id))
        .exec(&app.state.db)
        .await
        .expect("points");
    Reader {
        token: session["token"].as_str().expect("token").to_owned(),
        id,
    }
}

async fn call(app: &TestApp, who: &Reader, path: &str, body: Value) -> Value {
    app.post_with(path, body, &[("X-TOKEN", who.token.as_str())])
        .await
        .1
}

async fn balance(app: &TestApp, who: &Reader) -> i64 {
    user::Entity::find_by_id(who.id)
        .one(&app.state.db)
        .await
        .expect("db")
        .expect("user")
        .points
}

async fn ask(app: &TestApp, who: &Reader, tag: i64, bounty: Option<i64>) -> Value {
    let body = json!({ "title": "Is the ETF inflow real money?", "content": "Asking for a friend",
        "tags": [tag], "bounty": bounty });
    call(app, who, "/question/create", body).await
}

/// An answer written straight into the database (past the per-reader limits); gives its id.
async fn insert_answer(app: &TestApp, question: i64, user_id: i64, content: &str) -> i64 {
    answer::ActiveModel {
        question_id: Set(question),
        user_id: Set(user_id),
        content: Set(content.to_owned()),
        like_count: Set(0),
        created_at: Set(app.state.now()),
        ..Default::default()
    }
    .insert(&app.state.db)
    .await
    .expect("answer")
    .id
}

/// A reported answer taken down leaves its question; a reported question taken down leaves every
/// list, and its bounty in escrow goes back to the asker.
async fn reported_questions_and_answers_are_taken_down(backend: Backend) {
    let (app, tag) = start(backend).await;
    let (asker, answerer, reader_) = (
        reader(&app, "asker", 100).await,
        reader(&app, "answerer", 0).await,
        reader(&app, "reader", 0).await,
    );
    let admin = |path: &'static str, body: Value| {
        let app = &app;
        async move {
            app.post_with(path, body, &[("X-ADMIN-TOKEN", ADMIN)])
                .await
                .1
        }
    };
    let question = ask(&app, &asker, tag, Some(40)).await["data"]["id"]
        .as_i64()
        .expect("question");
    let fair = json!({ "question_id": question, "content": "A fair answer" });
    let kept = call(&app, &reader_, "/answer/create", fair).await["data"]["id"]
        .as_i64()
        .expect("answer");
    let made = call(
        &app,
        &answerer,
        "/answer/create",
        json!({ "question_id": question, "content": "Buy my course" }),
    )
    .await;
    let spam = made["data"]["id"]
        .as_i64()
        .unwrap_or_else(|| panic!("{made}"));
    let report = json!({ "kind": "answer", "id": spam, "reason": "spam" });
    assert_eq!(
        call(&app, &asker, "/report/add", report).await["code"],
        2000
    );
    let removal = json!({ "kind": "answer", "id": spam, "reason": "Advertising" });
    assert_eq!(admin("/admin/remove", removal).await["code"], 2000);
    let (_, detail) = app
        .post("/question/detail", json!({ "id": question }))
        .await;
    let answers: Vec<i64> = detail["data"]["answers"]
        .as_array()
        .expect("answers")
        .iter()
        .map(|a| a["id"].as_i64().expect("id"))
        .collect();
    assert_eq!(answers, [kept], "{detail}");
    assert_eq!(detail["data"]["answer_count"], 1, "{detail}");
    let told = call(&app, &answerer, "/message/list", json!({})).await;
    assert_eq!(
        (
            &told["data"]["list"][0]["kind"],
            &told["data"]["list"][0]["question_id"]
        ),
        (&json!("removed_answer"), &json!(question))
    );
    // The question: its escrow back to the asker, gone from lists, its page a 404.
    assert_eq!(balance(&app, &asker).await, 60);
    let report = json!({ "kind": "question", "id": question, "reason": "off topic" });
    assert_eq!(
        call(&app, &reader_, "/report/add", report).await["code"],
        2000
    );
    let removal = json!({ "kind": "question", "id": question, "reason": "Off topic" });
    assert_eq!(admin("/admin/remove", removal.clone()).await["code"], 2000);
    assert_eq!(balance(&app, &asker).await, 100, "the bounty came back");
    assert_eq!(
        app.post("/question/detail", json!({ "id": question }))
            .await
            .1["code"],
        4040
    );
    let (_, list) = app.post("/question/list", json!({})).await;
    assert_eq!(list["data"]["list"], json!([]), "{list}");
    assert_eq!(admin("/admin/remove", removal).await["code"], 4040);
    let resolved = admin("/admin/report/list", json!({ "state": "resolved" })).await;
    let states: Vec<(&str, &str)> = resolved["data"]["list"]
        .as_array()
        .expect("reports")
        .iter()
        .map(|r| {
            (
                r["kind"].as_str().expect("kind"),
                r["target_state"].as_str().expect("state"),
            )
        })
        .collect();
    assert_eq!(states, [("question", "gone"), ("answer", "gone")]);
    let told = call(&app, &asker, "/message/list", json!({})).await;
    assert_eq!(told["data"]["list"][0]["kind"], "removed_question");
}

async fn bounties_leave_the_balance_once(backend: Backend) {
    let (app, tag) = start(backend).await;
    let asker = reader(&app, "asker", 300).await;
    // A day old, so the day's questions are a settled account's ten, not a new one's three.
    app.clock.advance(86_400 + 60);
    let asked = ask(&app, &asker, tag, Some(100)).await;
    assert_eq!(
        (
            asked["data"]["bounty"].clone(),
            asked["data"]["bounty_state"].clone()
        ),
        (json!(100), json!("open")),
        "{asked}"
    );
    assert_eq!(asked["data"]["deadline_at"], app.state.now() + WEEK);
    assert_eq!(balance(&app, &asker).await, 200);
    let escrow = point_ledger::Entity::find()
        .filter(point_ledger::Column::UserId.eq(asker.id))
        .all(&app.state.db)
        .await
        .expect("ledger");
    assert_eq!(
        escrow.iter().map(|r| r.amount).collect::<Vec<_>>(),
        vec![-100]
    );
    for bad in [
        json!({ "title": "Too short", "tags": [tag] }),
        json!({ "title": "Is the ETF inflow real money?", "tags": [] }),
        json!({ "title": "Is the ETF inflow real money?", "tags": [999_999] }),
        json!({ "title": "Is the ETF inflow real money?", "tags": [tag], "bounty": 9 }),
        json!({ "title": "Is the ETF inflow real money?", "tags": [tag], "bounty": 501 }),
    ] {
        assert_eq!(
            call(&app, &asker, "/question/create", bad.clone()).await["code"],
            4001,
            "{bad}"
        );
    }
    assert_eq!(ask(&app, &asker, tag, Some(201)).await["code"], 4605);
    // Six asks of 50 at once against 200: four are taken, the balance never goes below zero.
    let asks = (0..6).map(|_| ask(&app, &asker, tag, Some(50)));
    let codes: Vec<i64> = futures_util::future::join_all(asks)
        .await
        .iter()
        .map(|a| a["code"].as_i64().expect("code"))
        .collect();
    assert_eq!(codes.iter().filter(|c| **c == 2000).count(), 4, "{codes:?}");
    assert_eq!(codes.iter().filter(|c| **c == 4605).count(), 2, "{codes:?}");
    assert_eq!(balance(&app, &asker).await, 0);
    // Lists: newest, unanswered, biggest open bounty first, by tag; visitors too.
    let (_, by_bounty) = app
        .post("/question/list", json!({ "sort": "bounty", "tag_id": tag }))
        .await;
    let first = &by_bounty["data"]["list"][0];
    assert_eq!(first["bounty"], 100);
    assert_eq!(
        app.post("/question/list", json!({ "sort": "warm" }))
            .await
            .1["code"],
        4001
    );
}

/// Hot: the week's questions by client-core's hot score (answers as comments, likes, an open
/// bounty as importance, over age), paged by offset; older questions are not in it.
async fn hot_questions_rank_by_answers_likes_and_age(backend: Backend) {
    use client_core::vote::{Signals, hot_score};
    let (app, tag) = start(backend).await;
    let asker = reader(&app, "asker", 100).await;
    app.clock.advance(86_400 + 60);
    let mut asked = Vec::new();
    for bounty in [None, None, None, Some(50), None] {
        let q = ask(&app, &asker, tag, bounty).await;
        asked.push(q["data"]["id"].as_i64().expect("id"));
    }
    let now = app.state.now();
    // (answers, likes, open bounty, age in hours): the last is eight days old.
    let signals = [
        (0, 0, false, 1),
        (3, 0, false, 10),
        (0, 2, false, 2),
        (0, 0, true, 0),
        (50, 9, false, 8 * 24),
    ];
    for (id, (answers, likes, _, hours)) in asked.iter().zip(signals) {
        question::Entity::update_many()
            .col_expr(question::Column::AnswerCount, Expr::value(answers))
            .col_expr(question::Column::LikeCount, Expr::value(likes))
            .col_expr(question::Column::CreatedAt, Expr::value(now - hours * 3600))
            .filter(question::Column::Id.eq(*id))
            .exec(&app.state.db)
            .await
            .expect("signals");
    }
    let mut expected: Vec<(f64, i64)> = asked
        .iter()
        .zip(signals)
        .filter(|(_, (.., hours))| *hours < 7 * 24)
        .map(|(id, (answers, likes, open, hours))| {
            let s = Signals {
                comments: answers,
                likes,
                important: open,
                ..Default::default()
            };
            (hot_score(&s, hours * 3600), *id)
        })
        .collect();
    expected.sort_by(|a, b| b.0.total_cmp(&a.0));
    let expected: Vec<i64> = expected.into_iter().map(|(_, id)| id).collect();
    let ids = |page: &Value| -> Vec<i64> {
        page["data"]["list"]
            .as_array()
            .expect("list")
            .iter()
            .map(|q| q["id"].as_i64().expect("id"))
            .collect()
    };
    let (_, first) = app
        .post("/question/list", json!({ "sort": "hot", "limit": 3 }))
        .await;
    let cursor = first["data"]["next_cursor"].clone();
    assert!(cursor.is_string(), "{first}");
    let (_, second) = app
        .post(
            "/question/list",
            json!({ "sort": "hot", "limit": 3, "cursor": cursor }),
        )
        .await;
    assert_eq!(second["data"]["next_cursor"], Value::Null);
    let mut seen = ids(&first);
    seen.extend(ids(&second));
    assert_eq!(seen, expected);
    // The open bounty of a question just asked outranks ten hours of three answers.
    assert_eq!(seen[0], asked[3]);
    assert_error(
        &app.post("/question/list", json!({ "sort": "hot", "cursor": "-1" }))
            .await,
        200,
        4001,
    );
}

async fn answers_are_once_and_accepted_once(backend: Backend) {
    let (app, tag) = start(backend).await;
    let asker = reader(&app, "asker", 100).await;
    let helper = reader(&app, "helper", 0).await;
    let question = ask(&app, &asker, tag, Some(100)).await["data"]["id"]
        .as_i64()
        .expect("id");
    let own = call(
        &app,
        &asker,
        "/answer/create",
        json!({ "question_id": question, "content": "me" }),
    )
    .await;
    assert_eq!(own["code"], 4030);
    let first = call(
        &app,
        &helper,
        "/answer/create",
        json!({ "question_id": question, "content": "Yes, see the filings" }),
    )
    .await;
    let first_id = first["data"]["id"].as_i64().expect("answer id");
    let told = call(&app, &asker, "/message/list", json!({ "kind": "answer" })).await;
    let told = &told["data"]["list"][0];
    assert_eq!(
        (
            told["question_id"].clone(),
            told["actor"]["id"].clone(),
            told["body"].clone()
        ),
        (
            json!(question),
            json!(helper.id),
            json!("Is the ETF inflow real money?")
        )
    );
    let again = call(
        &app,
        &helper,
        "/answer/create",
        json!({ "question_id": question, "content": "Again" }),
    )
    .await;
    assert_eq!(again["code"], 4607);
    assert_eq!(
        call(
            &app,
            &asker,
            "/answer/edit",
            json!({ "id": first_id, "content": "mine now" })
        )
        .await["code"],
        4030
    );
    assert_eq!(
        call(
            &app,
            &helper,
            "/answer/edit",
            json!({ "id": first_id, "content": "Yes: see the 13F filings" })
        )
        .await["code"],
        2000
    );
    assert_eq!(
        call(
            &app,
            &helper,
            "/answer/create",
            json!({ "question_id": question, "content": "  " })
        )
        .await["code"],
        4001
    );
    // Fifty more answers, written straight into the database, and fifty accepts at once.
    let mut others = Vec::new();
    for n in 0..50 {
        let u = user::ActiveModel {
            exposed_uid: Set(format!("racer{n}")),
            username: Set(format!("racer{n}")),
            nickname: Set(format!("racer_{n}")),
            nickname_key: Set(format!("racer_{n}")),
            avatar: Set(String::new()),
            invitation_code: Set(format!("RACE{n}")),
            locale: Set("en".into()),
            created_at: Set(0),
            points: Set(0),
            auto_translate: Set(true),
            ..Default::default()
        }
        .insert(&app.state.db)
        .await
        .expect("user");
        others.push(insert_answer(&app, question, u.id, &format!("answer {n}")).await);
    }
    let (status, foreign) = app
        .post_with(
            "/answer/accept",
            json!({ "answer_id": first_id }),
            &[("X-TOKEN", helper.token.as_str())],
        )
        .await;
    assert_eq!(
        (status.as_u16(), foreign["code"].clone()),
        (403, json!(4030))
    );
    let accepts = others
        .iter()
        .map(|id| call(&app, &asker, "/answer/accept", json!({ "answer_id": id })));
    let codes: Vec<i64> = futures_util::future::join_all(accepts)
        .await
        .iter()
        .map(|a| a["code"].as_i64().expect("code"))
        .collect();
    assert_eq!(codes.iter().filter(|c| **c == 2000).count(), 1, "{codes:?}");
    assert!(codes.iter().all(|c| [2000, 4606].contains(c)), "{codes:?}");
    let paid = point_ledger::Entity::find()
        .filter(point_ledger::Column::Reason.eq("bounty_award"))
        .all(&app.state.db)
        .await
        .expect("ledger");
    assert_eq!(paid.len(), 1, "{paid:?}");
    assert_eq!(paid[0].amount, 100);
    let winner = paid[0].user_id;
    let told = server::entity::message::Entity::find()
        .filter(server::entity::message::Column::Kind.eq("accepted"))
        .all(&app.state.db)
        .await
        .expect("messages");
    assert_eq!(
        told.iter()
            .map(|m| (m.user_id, m.question_id))
            .collect::<Vec<_>>(),
        vec![(winner, Some(question))],
        "the accepted answerer is told, once"
    );
    let (_, detail) = app
        .post("/question/detail", json!({ "id": question }))
        .await;
    let accepted = detail["data"]["accepted_answer_id"]
        .as_i64()
        .expect("accepted");
    assert_eq!(
        detail["data"]["answers"][0]["id"], accepted,
        "the accepted answer first"
    );
    assert_eq!(detail["data"]["answers"][0]["accepted"], true);
    assert_eq!(detail["data"]["bounty_state"], "accepted");
    assert_eq!(
        call(
            &app,
            &asker,
            "/answer/accept",
            json!({ "answer_id": first_id })
        )
        .await["code"],
        4606
    );
}

async fn a_week_later_the_bounty_is_settled(backend: Backend) {
    let (app, tag) = start(backend).await;
    let asker = reader(&app, "asker", 1000).await;
    let (liked, plain, fan) = (
        reader(&app, "liked", 0).await,
        reader(&app, "plain", 0).await,
        reader(&app, "fan", 0).await,
    );
    let answered = ask(&app, &asker, tag, Some(101)).await["data"]["id"]
        .as_i64()
        .expect("id");
    let unanswered = ask(&app, &asker, tag, Some(40)).await["data"]["id"]
        .as_i64()
        .expect("id");
    let accepted = ask(&app, &asker, tag, Some(60)).await["data"]["id"]
        .as_i64()
        .expect("id");
    call(
        &app,
        &plain,
        "/answer/create",
        json!({ "question_id": answered, "content": "First" }),
    )
    .await;
    let best = call(
        &app,
        &liked,
        "/answer/create",
        json!({ "question_id": answered, "content": "Best" }),
    )
    .await["data"]["id"]
        .as_i64()
        .expect("id");
    let like = call(
        &app,
        &fan,
        "/like/set",
        json!({ "kind": "answer", "id": best, "liked": true }),
    )
    .await;
    assert_eq!(like["data"], json!({ "liked": true, "count": 1 }));
    let taken = call(
        &app,
        &plain,
        "/answer/create",
        json!({ "question_id": accepted, "content": "Take it" }),
    )
    .await["data"]["id"]
        .as_i64()
        .expect("id");
    call(
        &app,
        &asker,
        "/answer/accept",
        json!({ "answer_id": taken }),
    )
    .await;
    assert_eq!(balance(&app, &asker).await, 1000 - 101 - 40 - 60);
    // Not yet due.
    app.clock.advance(WEEK - 10);
    assert_eq!(
        server::community::questions::settle_due(&app.state)
            .await
            .expect("settle"),
        0
    );
    app.clock.advance(11);
    assert_eq!(
        server::community::questions::settle_due(&app.state)
            .await
            .expect("settle"),
        2
    );
    assert_eq!(
        server::community::questions::settle_due(&app.state)
            .await
            .expect("again"),
        0
    );
    // Half back (50 of 101) and the rest to the most-liked answer; all 40 back with no answer.
    assert_eq!(balance(&app, &asker).await, 1000 - 101 - 40 - 60 + 50 + 40);
    assert_eq!(balance(&app, &liked).await, 51);
    assert_eq!(balance(&app, &plain).await, 60);
    let (_, detail) = app
        .post("/question/detail", json!({ "id": answered }))
        .await;
    assert_eq!(detail["data"]["bounty_state"], "settled");
    assert_eq!(detail["data"]["answers"][0]["id"], best, "most liked first");
    assert_eq!(
        app.post("/question/detail", json!({ "id": unanswered }))
            .await
            .1["data"]["bounty_state"],
        "settled"
    );
    assert_eq!(
        app.post("/question/detail", json!({ "id": 999_999 }))
            .await
            .1["code"],
        4040
    );
}

async fn questions_and_answers_are_discussed(backend: Backend) {
    let (app, tag) = start(backend).await;
    let asker = reader(&app, "asker", 0).await;
    let helper = reader(&app, "helper", 0).await;
    app.clock.advance(86_400 + 60);
    let question = ask(&app, &asker, tag, None).await["data"]["id"]
        .as_i64()
        .expect("id");
    let answer = call(
        &app,
        &helper,
        "/answer/create",
        json!({ "question_id": question, "content": "Yes, see the filings" }),
    )
    .await["data"]["id"]
        .as_i64()
        .expect("answer id");
    let on_question = json!({ "question_id": question, "content": "Which filings?" });
    let said = call(&app, &helper, "/comment/add", on_question).await;
    assert_eq!(
        (&said["data"]["subject_kind"], &said["data"]["subject_id"]),
        (&json!("question"), &json!(question)),
        "{said}"
    );
    let on_answer = json!({ "answer_id": answer, "content": "Thanks, that helps" });
    let thanks = call(&app, &asker, "/comment/add", on_answer).await;
    let thanks_id = thanks["data"]["id"].as_i64().expect("comment id");
    // Each thread is its own: the question's, the answer's, and a feed item's of the same id.
    let thread = |body: Value| {
        let app = &app;
        async move {
            let (_, page) = app.post("/comment/list", body).await;
            page["data"]["list"]
                .as_array()
                .expect("list")
                .iter()
                .map(|c| c["content"].as_str().expect("text").to_owned())
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(
        thread(json!({ "question_id": question })).await,
        ["Which filings?"]
    );
    assert_eq!(
        thread(json!({ "answer_id": answer })).await,
        ["Thanks, that helps"]
    );
    // No feed item has that id: its thread is not an empty page but nothing (404).
    let (status, _) = app
        .post("/comment/list", json!({ "feed_id": question }))
        .await;
    assert_eq!(status, 404);
    // A reply on the answer's thread tells its author, and the message leads to the question.
    let reply = json!({ "answer_id": answer, "parent_id": thanks_id, "content": "Glad to" });
    assert_eq!(
        call(&app, &helper, "/comment/add", reply).await["code"],
        2000
    );
    let told = call(&app, &asker, "/message/list", json!({ "kind": "reply" })).await;
    let told = &told["data"]["list"][0];
    assert_eq!(
        (&told["question_id"], &told["feed_id"]),
        (&json!(question), &Value::Null),
        "{told}"
    );
    // Likes on such a comment tell its author the same way.
    let like = json!({ "kind": "comment", "id": thanks_id, "liked": true });
    assert_eq!(call(&app, &helper, "/like/set", like).await["code"], 2000);
    let liked = call(&app, &asker, "/message/list", json!({ "kind": "like" })).await;
    assert_eq!(liked["data"]["list"][0]["question_id"], question, "{liked}");
    // Bad subjects: none, two, one that does not exist, a parent under another subject.
    for (bad, code) in [
        (json!({ "content": "where?" }), 4001),
        (
            json!({ "question_id": question, "answer_id": answer, "content": "both" }),
            4001,
        ),
        (json!({ "question_id": 999_999, "content": "gone" }), 4040),
        (json!({ "answer_id": 999_999, "content": "gone" }), 4040),
        (
            json!({ "question_id": question, "parent_id": thanks_id, "content": "wrong thread" }),
            4001,
        ),
    ] {
        assert_eq!(
            call(&app, &helper, "/comment/add", bad.clone()).await["code"],
            code,
            "{bad}"
        );
    }
}

/// What a bounty paid for stays as it was paid for, and nobody likes their own writing (a post,
/// a comment, a question, an answer); taking back such a like made before the rule still works.
async fn paid_answers_are_frozen_and_nobody_likes_their_own(backend: Backend) {
    let (app, tag) = start(backend).await;
    let asker = reader(&app, "asker", 1000).await;
    let (helper, other) = (
        reader(&app, "helper", 0).await,
        reader(&app, "other", 0).await,
    );
    app.clock.advance(86_400 + 60);
    let answer = async |who: &Reader, question: i64, text: &str| {
        let made = call(
            &app,
            who,
            "/answer/create",
            json!({ "question_id": question, "content": text }),
        )
        .await;
        made["data"]["id"].as_i64().expect("answer id")
    };
    let edit = async |who: &Reader, id: i64, text: &str| {
        call(
            &app,
            who,
            "/answer/edit",
            json!({ "id": id, "content": text }),
        )
        .await["code"]
            .clone()
    };
    let content = async |id: i64| {
        answer::Entity::find_by_id(id)
            .one(&app.state.db)
            .await
            .expect("db")
            .expect("answer")
            .content
    };
    let like = async |who: &Reader, kind: &str, id: i64, liked: bool| {
        call(
            &app,
            who,
            "/like/set",
            json!({ "kind": kind, "id": id, "liked": liked }),
        )
        .await["code"]
            .clone()
    };

    let accepted = ask(&app, &asker, tag, Some(100)).await["data"]["id"]
        .as_i64()
        .expect("id");
    let chosen = answer(&helper, accepted, "The filings say so").await;
    let passed_over = answer(&other, accepted, "Maybe").await;
    assert_eq!(
        like(&helper, "answer", chosen, true).await,
        4030,
        "one's own answer"
    );
    assert_eq!(
        like(&asker, "question", accepted, true).await,
        4030,
        "one's own question"
    );
    assert_eq!(like(&other, "answer", chosen, true).await, 2000);
    let taken = call(
        &app,
        &asker,
        "/answer/accept",
        json!({ "answer_id": chosen }),
    )
    .await;
    assert_eq!(taken["code"], 2000, "{taken}");
    assert_eq!(edit(&helper, chosen, "Actually, no").await, 4030);
    assert_eq!(content(chosen).await, "The filings say so");
    assert_eq!(
        edit(&other, passed_over, "Maybe not").await,
        2000,
        "not paid for"
    );

    let settled = ask(&app, &asker, tag, Some(100)).await["data"]["id"]
        .as_i64()
        .expect("id");
    let best = answer(&helper, settled, "Best guess").await;
    app.clock.advance(WEEK + 1);
    server::community::questions::settle_due(&app.state)
        .await
        .expect("settle");
    assert_eq!(edit(&helper, best, "A better guess").await, 4030);
    assert_eq!(content(best).await, "Best guess");

    let post = call(
        &app,
        &helper,
        "/post/create",
        json!({ "content": "My own post" }),
    )
    .await;
    let post = post["data"]["id"].as_i64().expect("post id");
    assert_eq!(
        like(&helper, "feed", post, true).await,
        4030,
        "one's own post"
    );
    let said = call(
        &app,
        &helper,
        "/comment/add",
        json!({ "feed_id": post, "content": "Mine" }),
    )
    .await;
    let said = said["data"]["id"].as_i64().expect("comment id");
    assert_eq!(
        like(&helper, "comment", said, true).await,
        4030,
        "one's own comment"
    );
    assert_eq!(like(&other, "comment", said, true).await, 2000);
    assert_eq!(
        like(&helper, "feed", post, false).await,
        2000,
        "taking back is allowed"
    );
}

/// A question's detail carries its first 20 answers (the accepted one first, then by likes,
/// then oldest); `/question/answers` pages through the rest, each answer once.
async fn answers_come_a_page_at_a_time(backend: Backend) {
    let (app, tag) = start(backend).await;
    let asker = reader(&app, "asker", 0).await;
    app.clock.advance(86_400 + 60);
    let question = ask(&app, &asker, tag, None).await["data"]["id"]
        .as_i64()
        .expect("id");
    let mut made = Vec::new();
    for n in 0..25 {
        // Sign-in codes are limited per address and hour.
        if n % 8 == 7 {
            app.clock.advance(3601);
        }
        let who = reader(&app, &format!("answerer{n}"), 0).await;
        let body = json!({ "question_id": question, "content": format!("Answer number {n}") });
        let answer = call(&app, &who, "/answer/create", body).await;
        made.push(answer["data"]["id"].as_i64().expect("answer id"));
    }
    // Answer 24 is liked (it comes first after the accepted one); answer 3 is accepted.
    call(
        &app,
        &asker,
        "/like/set",
        json!({ "kind": "answer", "id": made[24], "liked": true }),
    )
    .await;
    let accepted = call(
        &app,
        &asker,
        "/answer/accept",
        json!({ "answer_id": made[3] }),
    )
    .await;
    assert_eq!(accepted["code"], 2000, "{accepted}");
    let ids = |list: &Value| -> Vec<i64> {
        list.as_array()
            .expect("answers")
            .iter()
            .map(|a| a["id"].as_i64().expect("id"))
            .collect()
    };
    let (_, detail) = app
        .post("/question/detail", json!({ "id": question }))
        .await;
    let first = ids(&detail["data"]["answers"]);
    assert_eq!(first.len(), 21, "the accepted one and twenty more");
    assert_eq!(&first[..3], &[made[3], made[24], made[0]]);
    assert_eq!(detail["data"]["answer_count"], 25);
    let mut seen = first.clone();
    let mut cursor = detail["data"]["answers_next_cursor"].clone();
    while !cursor.is_null() {
        let (_, page) = app
            .post(
                "/question/answers",
                json!({ "id": question, "cursor": cursor, "limit": 3 }),
            )
            .await;
        seen.extend(ids(&page["data"]["list"]));
        cursor = page["data"]["next_cursor"].clone();
    }
    let mut all = made.clone();
    all.sort_unstable();
    let mut sorted = seen.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, all, "each answer once: {seen:?}");
    let (_, missing) = app
        .post("/question/answers", json!({ "id": 999_999 }))
        .await;
    assert_eq!(missing["code"], 4040);
    let (_, bad) = app
        .post(
            "/question/answers",
            json!({ "id": question, "cursor": "1.x" }),
        )
        .await;
    assert_eq!(bad["code"], 4001);
}

/// Points are neither made nor lost by bounties: with two servers on one PostgreSQL, questions
/// asked through both at once, accepts racing on both and settlements run by both, every
/// balance plus the open escrow always equals what there was at the start.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_bounties_conserve_points_across_servers() {
    use futures_util::future::join_all;
    let (app, tag) = start(Backend::Postgres).await;
    let beside = app.start_beside().await;
    let servers = [&app, &beside];
    let mut askers = Vec::new();
    for n in 0..4 {
        askers.push(reader(&app, &format!("asker{n}"), 1000).await);
    }
    let mut answerers = Vec::new();
    for n in 0..3 {
        answerers.push(reader(&app, &format!("answerer{n}"), 0).await);
    }
    let start_total = 4 * 1000;
    app.clock.advance(86_400 + 60);
    beside.clock.advance(86_400 + 60);
    let conserved = async |when: &str| {
        let balances: i64 = user::Entity::find()
            .all(&app.state.db)
            .await
            .expect("users")
            .iter()
            .map(|u| u.points)
            .sum();
        let escrow: i64 = server::entity::question::Entity::find()
            .filter(server::entity::question::Column::BountyState.eq("open"))
            .all(&app.state.db)
            .await
            .expect("questions")
            .iter()
            .map(|q| q.bounty)
            .sum();
        assert_eq!(
            balances + escrow,
            start_total,
            "{when}: {balances} + {escrow}"
        );
    };
    // Each asker asks three, through both servers at once.
    let asks = askers.iter().flat_map(|who| {
        (0..3).map(move |n| ask(servers[n % 2], who, tag, Some(50 + 10 * n as i64)))
    });
    let questions: Vec<i64> = join_all(asks)
        .await
        .iter()
        .map(|q| q["data"]["id"].as_i64().unwrap_or_else(|| panic!("{q}")))
        .collect();
    conserved("asked").await;
    // Two answers each.
    let mut answers = Vec::new();
    for (n, question) in questions.iter().enumerate() {
        for who in [&answerers[n % 3], &answerers[(n + 1) % 3]] {
            let made = insert_answer(&app, *question, who.id, "an answer").await;
            answers.push((*question, made));
        }
    }
    // Half the questions: both answers accepted at once, one through each server.
    let accepts = answers.iter().enumerate().filter(|(_, (q, _))| {
        questions
            .iter()
            .position(|x| x == q)
            .is_some_and(|i| i % 2 == 0)
    });
    let accepts = accepts.map(|(n, (question, id))| {
        let asker = &askers[questions.iter().position(|x| x == question).expect("q") / 3];
        call(
            servers[n % 2],
            asker,
            "/answer/accept",
            json!({ "answer_id": id }),
        )
    });
    join_all(accepts).await;
    conserved("accepted").await;
    // The rest are settled a week later, by both servers at once.
    app.clock.advance(WEEK + 1);
    beside.clock.advance(WEEK + 1);
    let settled =
        join_all(servers.map(|s| server::community::questions::settle_due(&s.state))).await;
    let settled: u64 = settled.into_iter().map(|n| n.expect("settle")).sum();
    assert_eq!(settled, 6, "each open bounty settled once");
    conserved("settled").await;
}

on_both_databases!(
    reported_questions_and_answers_are_taken_down,
    answers_come_a_page_at_a_time,
    paid_answers_are_frozen_and_nobody_likes_their_own,
    questions_and_answers_are_discussed,
    bounties_leave_the_balance_once,
    hot_questions_rank_by_answers_likes_and_age,
    answers_are_once_and_accepted_once,
    a_week_later_the_bounty_is_settled
);
