//! The one-time-code limits, each stated in numbers, on SQLite and PostgreSQL.

use std::str::FromStr;
use std::sync::Arc;

use crate::common::{Backend, SmtpServer, TestApp, assert_error};
use mailparse::MailHeaderMap;
use sea_orm::{EntityTrait, PaginatorTrait};
use serde_json::json;
use server::auth::otp;
use server::client_addr::TrustedProxies;
use server::entity::{mail_outbox, otp_code, otp_guard};
use server::outbox;

const EMAIL: &str = "guard@example.org";

async fn codes_are_stored_only_as_keyed_hashes(backend: Backend) {
    let app = TestApp::start(backend).await;
    app.send_code(EMAIL, "1357").await;
    let rows = otp_code::Entity::find()
        .all(&app.state.db)
        .await
        .expect("rows");
    assert_eq!(rows.len(), 1);
    let row = &rows[0];
    assert_eq!(row.code_hash.len(), 64);
    assert!(!row.code_hash.contains("1357"));
    assert_eq!(row.address, format!("email:{EMAIL}"));
    assert_eq!(
        (row.expires_at - row.created_at, row.tries, row.spent),
        (300, 0, false)
    );
}

async fn codes_expire_after_five_minutes(backend: Backend) {
    let app = TestApp::start(backend).await;
    app.send_code(EMAIL, "1111").await;
    app.clock.advance(300);
    assert_error(&app.login(EMAIL, "1111").await, 200, 4104);
    app.send_code(EMAIL, "2222").await;
    app.clock.advance(299);
    assert_eq!(app.login(EMAIL, "2222").await.1["code"], 2000);
}

async fn codes_work_once(backend: Backend) {
    let app = TestApp::start(backend).await;
    app.send_code(EMAIL, "1111").await;
    assert_eq!(app.login(EMAIL, "1111").await.1["code"], 2000);
    assert_error(&app.login(EMAIL, "1111").await, 200, 4104);
}

async fn a_new_code_voids_the_older_one(backend: Backend) {
    let app = TestApp::start(backend).await;
    app.send_code(EMAIL, "1111").await;
    app.clock.advance(60);
    app.send_code(EMAIL, "2222").await;
    assert_error(&app.login(EMAIL, "1111").await, 200, 4103);
    assert_eq!(app.login(EMAIL, "2222").await.1["code"], 2000);
}

async fn codes_are_bound_to_their_address(backend: Backend) {
    let app = TestApp::start(backend).await;
    app.send_code("one@example.org", "1111").await;
    app.send_code("two@example.org", "2222").await;
    assert_error(&app.login("one@example.org", "2222").await, 200, 4103);
    assert_error(&app.login("three@example.org", "1111").await, 200, 4104);
    assert_eq!(app.login("two@example.org", "2222").await.1["code"], 2000);
}

async fn three_wrong_tries_kill_a_code(backend: Backend) {
    let app = TestApp::start(backend).await;
    app.send_code(EMAIL, "1111").await;
    for _ in 0..3 {
        assert_error(&app.login(EMAIL, "9999").await, 200, 4103);
    }
    assert_error(&app.login(EMAIL, "1111").await, 200, 4105);
}

async fn ten_failures_a_day_lock_the_address_whatever_the_codes(backend: Backend) {
    let app = TestApp::start(backend).await;
    // 3 + 3 + 3 + 1 wrong tries against four codes, resending between them.
    for (round, tries) in [3, 3, 3, 1].into_iter().enumerate() {
        if round > 0 {
            app.clock.advance(60);
        }
        assert_eq!(
            app.send_code(EMAIL, "1111").await.1["code"],
            2000,
            "round {round}"
        );
        for _ in 0..tries {
            assert_error(&app.login(EMAIL, "9999").await, 200, 4103);
        }
    }
    // The fourth code is alive and right, but the address is locked out.
    let locked = app.login(EMAIL, "1111").await;
    assert_error(&locked, 200, 4105);
    assert!(locked.1["data"]["retry_after"].as_i64().unwrap_or_default() > 23 * 3600);
    app.clock.advance(60);
    assert_error(&app.send_code(EMAIL, "2222").await, 200, 4105);
    // A new window after 24 hours.
    app.clock.advance(24 * 3600);
    assert_eq!(app.send_code(EMAIL, "3333").await.1["code"], 2000);
    assert_eq!(app.login(EMAIL, "3333").await.1["code"], 2000);
}

async fn a_right_code_does_not_count_as_a_failure(backend: Backend) {
    let app = TestApp::start(backend).await;
    for round in 0..4 {
        app.clock.advance(61);
        assert_eq!(
            app.send_code(EMAIL, "1111").await.1["code"],
            2000,
            "round {round}"
        );
        assert_error(&app.login(EMAIL, "9999").await, 200, 4103);
        assert_error(&app.login(EMAIL, "9998").await, 200, 4103);
        assert_eq!(
            app.login(EMAIL, "1111").await.1["code"],
            2000,
            "round {round}"
        );
    }
    let guard = otp_guard::Entity::find_by_id(format!("email:{EMAIL}"))
        .one(&app.state.db)
        .await;
    assert_eq!(guard.expect("query").expect("guard").failures, 8);
}

async fn resending_waits_sixty_seconds_and_five_an_hour(backend: Backend) {
    let app = TestApp::start(backend).await;
    assert_eq!(app.send_code(EMAIL, "1111").await.1["code"], 2000);
    let early = app.send_code(EMAIL, "1111").await;
    assert_error(&early, 200, 4106);
    assert_eq!(early.1["data"]["retry_after"], 60);
    app.clock.advance(59);
    assert_eq!(
        app.send_code(EMAIL, "1111").await.1["data"]["retry_after"],
        1
    );
    for sent in 2..=5 {
        app.clock.advance(60);
        assert_eq!(
            app.send_code(EMAIL, "1111").await.1["code"],
            2000,
            "send {sent}"
        );
    }
    app.clock.advance(60);
    let sixth = app.send_code(EMAIL, "1111").await;
    assert_error(&sixth, 200, 4106);
    // The first send was 359 s ago: the hour frees up in 3241 s.
    assert_eq!(sixth.1["data"]["retry_after"], 3600 - 359);
}

async fn one_ip_may_ask_for_twenty_codes_an_hour(backend: Backend) {
    let app = TestApp::start(backend).await;
    for n in 0..20 {
        let got = app.send_code(&format!("user{n}@example.org"), "1111").await;
        assert_eq!(got.1["code"], 2000, "send {n}");
    }
    let refused = app.send_code("user20@example.org", "1111").await;
    assert_error(&refused, 429, 4290);
    app.clock.advance(3601);
    assert_eq!(
        app.send_code("user20@example.org", "1111").await.1["code"],
        2000
    );
}

async fn sending_says_the_same_for_known_and_unknown_addresses(backend: Backend) {
    let app = TestApp::start(backend).await;
    app.sign_in("known@example.org").await;
    app.clock.advance(60);
    let known = app.send_code("known@example.org", "1111").await;
    let unknown = app.send_code("unknown@example.org", "1111").await;
    assert_eq!(known, unknown);
}

async fn fifty_concurrent_wrong_guesses_count_at_most_three(backend: Backend) {
    let app = std::sync::Arc::new(TestApp::start(backend).await);
    app.send_code(EMAIL, "1111").await;
    let guesses = (0..50).map(|i| {
        let app = app.clone();
        tokio::spawn(async move { app.login(EMAIL, &format!("{:04}", 2000 + i)).await })
    });
    let mut codes = Vec::new();
    for guess in guesses {
        let (status, body) = guess.await.expect("task");
        assert_eq!(status, 200, "no 5xx under contention: {body}");
        codes.push(body["code"].as_i64().unwrap_or_default());
    }
    let counted = codes.iter().filter(|c| **c == 4103).count();
    assert!(counted <= 3, "{counted} wrong guesses were evaluated");
    // 4290: past the client's budget of guesses, before the code is looked at.
    assert!(
        codes.iter().all(|c| [4103, 4105, 4290].contains(c)),
        "{codes:?}"
    );
    let row = otp_code::Entity::find()
        .one(&app.state.db)
        .await
        .expect("query")
        .expect("row");
    assert_eq!(row.tries, 3);
    assert_error(&app.login(EMAIL, "1111").await, 200, 4105);
}

/// A guess from `client` (an address the trusted proxy on loopback names).
async fn guess(app: &TestApp, client: &str, email: &str, code: &str) -> i64 {
    let (status, body) = app
        .post_with(
            "/user/login/email",
            json!({ "email": email, "otp": code }),
            &[("X-Forwarded-For", client)],
        )
        .await;
    assert!(status.as_u16() < 500, "{body}");
    body["code"].as_i64().unwrap_or_default()
}

/// Someone who knows many addresses spreads guesses over them: one client gets 20 wrong codes an
/// hour across all of them, and once wrong codes site-wide pass the threshold the whole site
/// evaluates at most 5 codes a second until the window ends, while right codes still sign in.
async fn guesses_spread_over_many_addresses_meet_the_client_and_site_limits(backend: Backend) {
    let app = Arc::new(
        TestApp::start_with(backend, |c| {
            c.trust_proxy = TrustedProxies::from_str("127.0.0.1").expect("setting");
            c.otp_guard_failures = 30;
        })
        .await,
    );
    let mut accounts = Vec::new();
    for i in 0..100 {
        let email = format!("victim{i}@example.org");
        let address = otp::address("email", &email);
        let code = otp::issue(
            &app.state,
            &app.state.auth,
            &address,
            otp::PURPOSE_LOGIN,
            &format!("192.0.2.{i}"),
        )
        .await
        .expect("issued");
        let wrong = format!("{:04}", (code.parse::<u32>().expect("digits") + 1) % 10_000);
        accounts.push((email, code, wrong));
    }
    // 50 guesses at once from one client, each at another address.
    let guesses = accounts[..50].iter().map(|(email, _, wrong)| {
        let (app, email, wrong) = (app.clone(), email.clone(), wrong.clone());
        tokio::spawn(async move { guess(&app, "198.51.100.1", &email, &wrong).await })
    });
    let mut answers = Vec::new();
    for g in guesses {
        answers.push(g.await.expect("task"));
    }
    let wrong = answers.iter().filter(|c| **c == 4103).count();
    let refused = answers.iter().filter(|c| **c == 4290).count();
    assert_eq!((wrong, refused), (20, 30), "{answers:?}");
    assert!(
        !otp::guard_is_up(&app.state, &app.state.auth)
            .await
            .expect("guard")
    );

    // Ten more wrong codes from another client reach the site's threshold of 30.
    for (email, _, wrong) in &accounts[50..60] {
        assert_eq!(guess(&app, "198.51.100.2", email, wrong).await, 4103);
    }
    assert!(
        otp::guard_is_up(&app.state, &app.state.auth)
            .await
            .expect("guard")
    );
    // Now five codes a second, whoever asks: the sixth waits for the next second.
    let fresh: Vec<i64> = {
        let mut answers = Vec::new();
        for (email, _, wrong) in &accounts[60..66] {
            answers.push(guess(&app, "198.51.100.3", email, wrong).await);
        }
        answers
    };
    assert_eq!(fresh, [4103, 4103, 4103, 4103, 4103, 4290]);
    app.clock.advance(1);
    let (email, code, _) = &accounts[70];
    assert_eq!(guess(&app, "198.51.100.4", email, code).await, 2000);
    // The guard comes down when its 10-minute window ends.
    app.clock.advance(600);
    assert!(
        !otp::guard_is_up(&app.state, &app.state.auth)
            .await
            .expect("guard")
    );
}

/// The tenth wrong code for an address queues one warning to its owner, in the database first;
/// the outbox sends it over SMTP exactly once.
async fn ten_wrong_codes_warn_the_owner_by_email(backend: Backend) {
    let smtp = SmtpServer::start().await;
    let app = TestApp::start_with(backend, |c| c.smtp_url = Some(smtp.url())).await;
    for (round, tries) in [3, 3, 3, 1].into_iter().enumerate() {
        if round > 0 {
            app.clock.advance(60);
        }
        assert_eq!(app.send_code(EMAIL, "1111").await.1["code"], 2000);
        for _ in 0..tries {
            assert_error(&app.login(EMAIL, "9999").await, 200, 4103);
        }
    }
    // Locked out now: more attempts queue nothing more.
    assert_error(&app.login(EMAIL, "9999").await, 200, 4105);
    let queued = mail_outbox::Entity::find()
        .all(&app.state.db)
        .await
        .expect("rows");
    assert_eq!(queued.len(), 1);
    assert_eq!(
        (queued[0].recipient.as_str(), queued[0].sent_at),
        (EMAIL, None)
    );
    assert_eq!(
        outbox::deliver_due(&app.state, &app.state.mailer)
            .await
            .expect("delivered"),
        1
    );
    assert_eq!(
        outbox::deliver_due(&app.state, &app.state.mailer)
            .await
            .expect("nothing"),
        0
    );
    // Four codes, then the warning.
    let mails = smtp.wait_for_messages(5).await;
    let warning = mailparse::parse_mail(&mails[4]).expect("a MIME message");
    assert_eq!(
        warning.headers.get_first_value("Subject").as_deref(),
        Some("Someone is trying to sign in to your Blockbrief account")
    );
    assert_eq!(
        warning.headers.get_first_value("To").as_deref(),
        Some(EMAIL)
    );
    let sent = mail_outbox::Entity::find()
        .count(&app.state.db)
        .await
        .expect("count");
    assert_eq!(sent, 1);
}

on_both_databases!(
    codes_are_stored_only_as_keyed_hashes,
    codes_expire_after_five_minutes,
    codes_work_once,
    a_new_code_voids_the_older_one,
    codes_are_bound_to_their_address,
    three_wrong_tries_kill_a_code,
    ten_failures_a_day_lock_the_address_whatever_the_codes,
    a_right_code_does_not_count_as_a_failure,
    resending_waits_sixty_seconds_and_five_an_hour,
    one_ip_may_ask_for_twenty_codes_an_hour,
    sending_says_the_same_for_known_and_unknown_addresses,
    fifty_concurrent_wrong_guesses_count_at_most_three,
    guesses_spread_over_many_addresses_meet_the_client_and_site_limits,
    ten_wrong_codes_warn_the_owner_by_email,
);

#[test]
fn os_random_codes_are_four_uniform_digits() {
    use server::platform::{OsRandom, Random};
    let mut counts = [0u32; 10];
    for _ in 0..5000 {
        let code = OsRandom.digits(4);
        assert_eq!(code.len(), 4);
        for b in code.bytes() {
            counts[usize::from(b - b'0')] += 1;
        }
    }
    // 20,000 digits: each expected 2,000 times; 1,700..2,300 is over 6 standard deviations wide.
    assert!(
        counts.iter().all(|c| (1700..2300).contains(c)),
        "{counts:?}"
    );
}
