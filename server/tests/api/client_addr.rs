//! The client address every per-client limit counts: the peer unless it is a trusted proxy, then
//! the rightmost `X-Forwarded-For` hop that is not one; never what the client forged.

use std::str::FromStr;

use sea_orm::{EntityTrait, QueryOrder};
use serde_json::json;
use server::client_addr::TrustedProxies;
use server::entity::otp_code;

use crate::common::{Backend, TestApp};

/// Asks for a code for a new address each time, sending `forwarded` as `X-Forwarded-For`.
async fn ask(app: &TestApp, n: usize, forwarded: &str) -> i64 {
    app.codes.set_next("1111");
    let body = json!({ "email": format!("user{n}@example.org"), "purpose": "login" });
    let (_, got) = app
        .post_with("/otp/email", body, &[("x-forwarded-for", forwarded)])
        .await;
    got["code"].as_i64().unwrap_or_default()
}

async fn without_trusted_proxies_a_forged_header_changes_nothing(backend: Backend) {
    let app = TestApp::start(backend).await;
    for n in 0..20 {
        assert_eq!(
            ask(&app, n, &format!("203.0.113.{n}")).await,
            2000,
            "send {n}"
        );
    }
    assert_eq!(ask(&app, 20, "203.0.113.99").await, 4290);
    let rows = otp_code::Entity::find()
        .order_by_asc(otp_code::Column::Id)
        .all(&app.state.db)
        .await
        .expect("rows");
    assert!(
        rows.iter().all(|r| r.ip == "127.0.0.1"),
        "the peer is stored"
    );
}

async fn behind_a_trusted_proxy_the_rightmost_untrusted_hop_is_counted(backend: Backend) {
    let app = TestApp::start_with(backend, |c| {
        c.trust_proxy = TrustedProxies::from_str("127.0.0.1, 10.0.0.0/8").expect("setting");
    })
    .await;
    // One client forging a different leftmost address each time is still one client.
    for n in 0..20 {
        let forged = format!("192.0.2.{n}, 198.51.100.7, 10.0.0.2");
        assert_eq!(ask(&app, n, &forged).await, 2000, "send {n}");
    }
    let refused = ask(&app, 20, "192.0.2.200, 198.51.100.7").await;
    assert_eq!(refused, 4290, "the forged hops did not buy a new budget");
    // Another client behind the same proxy has its own budget.
    assert_eq!(ask(&app, 21, "198.51.100.8").await, 2000);
    // An overlong or unreadable hop is never the key: the proxy vouches for the peer only.
    let overlong = format!("{}, 198.51.100.9", "1".repeat(500));
    assert_eq!(ask(&app, 22, &overlong).await, 2000);
    assert_eq!(ask(&app, 23, "198.51.100.10, garbage").await, 2000);
    let rows = otp_code::Entity::find()
        .order_by_asc(otp_code::Column::Id)
        .all(&app.state.db)
        .await
        .expect("rows");
    let stored: Vec<&str> = rows.iter().skip(20).map(|r| r.ip.as_str()).collect();
    assert_eq!(stored, ["198.51.100.8", "198.51.100.9", "127.0.0.1"]);
}

on_both_databases!(
    without_trusted_proxies_a_forged_header_changes_nothing,
    behind_a_trusted_proxy_the_rightmost_untrusted_hop_is_counted,
);
