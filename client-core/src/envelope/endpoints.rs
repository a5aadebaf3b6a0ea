//! The endpoint allow-list: every API path and whether it needs a signed-in user.

use super::ErrorKind;

/// Who may call an endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Public,
    LoginOnly,
}

/// Every API path (without `/api`), as the spec writes it; `{x}` stands for one path segment.
pub const ENDPOINTS: &[(&str, Access)] = &[
    ("/health", Access::Public),
    // The API's OpenAPI document (GET).
    ("/openapi.json", Access::Public),
    ("/app/area", Access::Public),
    ("/service/captcha", Access::Public),
    ("/user/gtoken", Access::Public),
    ("/otp/email", Access::Public),
    ("/otp/sms", Access::Public),
    ("/user/login/email", Access::Public),
    ("/user/login/phone_number", Access::Public),
    ("/user/logout", Access::LoginOnly),
    ("/user/logout/all", Access::LoginOnly),
    ("/user/info", Access::LoginOnly),
    ("/user/account/list", Access::LoginOnly),
    ("/user/account/unbind", Access::LoginOnly),
    ("/user/account/bind/wallet/sigmsg", Access::LoginOnly),
    ("/user/account/bind/wallet", Access::LoginOnly),
    ("/user/account/bind/twitter/oauth", Access::LoginOnly),
    (
        "/user/account/bind/twitter/oauth/complete",
        Access::LoginOnly,
    ),
    ("/user/invitation/bind", Access::LoginOnly),
    ("/user/sig/msg", Access::Public),
    ("/user/login/wallet", Access::Public),
    ("/user/login/apple/start", Access::Public),
    ("/user/login/apple", Access::Public),
    ("/user/login/telegram/start", Access::Public),
    ("/user/login/telegram", Access::Public),
    ("/user/account/bind/telegram", Access::LoginOnly),
    ("/bot/telegram/link", Access::LoginOnly),
    ("/bot/chat/list", Access::LoginOnly),
    ("/bot/chat/unlink", Access::LoginOnly),
    ("/user/login/oauth/{provider}", Access::Public),
    ("/user/login/oauth/{provider}/complete", Access::Public),
    ("/point/task/list", Access::Public),
    ("/point/task_event_report", Access::LoginOnly),
    ("/point/collect", Access::LoginOnly),
    ("/point/balance", Access::LoginOnly),
    ("/point/ledger", Access::LoginOnly),
    ("/point/leaderboard", Access::Public),
    ("/img/upload/feedback/v2", Access::Public),
    ("/img/upload", Access::Public),
    ("/feedback/create", Access::Public),
    ("/log/track", Access::Public),
    ("/user/settings", Access::LoginOnly),
    ("/feed/list", Access::Public),
    ("/feed/detail", Access::Public),
    ("/search", Access::Public),
    // The live stream (GET, `text/event-stream`) and the ticket an `EventSource` signs in with.
    ("/stream", Access::Public),
    ("/stream/ticket", Access::LoginOnly),
    ("/explore", Access::Public),
    ("/tag/list", Access::Public),
    ("/catalogue/linking", Access::Public),
    ("/tag/detail", Access::Public),
    ("/tag/follow/list", Access::LoginOnly),
    ("/tag/follow/add", Access::LoginOnly),
    ("/tag/follow/del", Access::LoginOnly),
    ("/tag/follow/status", Access::LoginOnly),
    ("/token/follow/add", Access::LoginOnly),
    ("/token/follow/del", Access::LoginOnly),
    ("/token/follow/status", Access::LoginOnly),
    ("/topic/follow/add", Access::LoginOnly),
    ("/topic/follow/del", Access::LoginOnly),
    ("/topic/follow/status", Access::LoginOnly),
    ("/token/detail", Access::Public),
    ("/market/history", Access::Public),
    ("/market/overview", Access::Public),
    ("/market/followed", Access::LoginOnly),
    ("/exchange/list", Access::Public),
    ("/presale/list", Access::Public),
    ("/presale/detail", Access::Public),
    ("/presale/follow", Access::LoginOnly),
    ("/exchange/postback/{code}", Access::Public),
    ("/topic/list", Access::Public),
    ("/topic/detail", Access::Public),
    ("/channel/list", Access::Public),
    ("/channel/detail", Access::Public),
    ("/kol/list", Access::Public),
    ("/kol/detail", Access::Public),
    ("/user/follow/list", Access::LoginOnly),
    ("/user/follow/add", Access::LoginOnly),
    ("/user/follow/del", Access::LoginOnly),
    ("/like/set", Access::LoginOnly),
    ("/vote/set", Access::LoginOnly),
    ("/token/sentiment", Access::Public),
    ("/story/detail", Access::Public),
    ("/comment/list", Access::Public),
    ("/comment/replies", Access::Public),
    ("/comment/history", Access::Public),
    ("/comment/add", Access::LoginOnly),
    ("/comment/edit", Access::LoginOnly),
    ("/comment/del", Access::LoginOnly),
    ("/favorite/set", Access::LoginOnly),
    ("/favorite/list", Access::LoginOnly),
    ("/history/list", Access::LoginOnly),
    ("/history/del", Access::LoginOnly),
    ("/history/clear", Access::LoginOnly),
    ("/message/list", Access::LoginOnly),
    ("/message/unread", Access::LoginOnly),
    ("/message/read", Access::LoginOnly),
    ("/user/block", Access::LoginOnly),
    ("/user/block/list", Access::LoginOnly),
    ("/report/add", Access::LoginOnly),
    ("/alert/add", Access::LoginOnly),
    ("/alert/list", Access::LoginOnly),
    ("/alert/update", Access::LoginOnly),
    ("/alert/del", Access::LoginOnly),
    ("/alert/preview", Access::LoginOnly),
    ("/alert/sample", Access::LoginOnly),
    ("/push/key", Access::Public),
    ("/push/subscribe", Access::LoginOnly),
    ("/push/unsubscribe", Access::LoginOnly),
    ("/push/test", Access::LoginOnly),
    ("/question/create", Access::LoginOnly),
    ("/question/list", Access::Public),
    ("/question/detail", Access::Public),
    ("/question/answers", Access::Public),
    ("/answer/create", Access::LoginOnly),
    ("/answer/edit", Access::LoginOnly),
    ("/answer/accept", Access::LoginOnly),
    ("/user/profile", Access::Public),
    ("/user/profile/update", Access::LoginOnly),
    ("/user/posts", Access::Public),
    ("/user/answers", Access::Public),
    ("/user/follow/status", Access::LoginOnly),
    ("/post/create", Access::LoginOnly),
    ("/post/edit", Access::LoginOnly),
    ("/post/del", Access::LoginOnly),
    ("/post/preview", Access::LoginOnly),
    ("/post/history", Access::Public),
    ("/benefit/list", Access::Public),
    ("/benefit/detail", Access::Public),
];

fn path_matches(pattern: &str, path: &str) -> bool {
    let mut want = pattern.split('/');
    let mut have = path.split('/');
    loop {
        match (want.next(), have.next()) {
            (None, None) => return true,
            (Some(w), Some(h)) if w.starts_with('{') => {
                if h.is_empty() || w.len() < 2 {
                    return false;
                }
            }
            (Some(w), Some(h)) if w == h => {}
            _ => return false,
        }
    }
}

/// How an endpoint may be called, or `None` when it is not an API path at all.
pub fn endpoint_access(path: &str) -> Option<Access> {
    let path = path.split(['?', '#']).next().unwrap_or_default();
    ENDPOINTS
        .iter()
        .find(|(pattern, _)| path_matches(pattern, path))
        .map(|(_, access)| *access)
}

/// The client's check before a call: an unknown path or a login-only one without a token fails.
pub fn check_endpoint(path: &str, has_token: bool) -> Option<ErrorKind> {
    match endpoint_access(path) {
        None => Some(ErrorKind::WrongUrl),
        Some(Access::LoginOnly) if !has_token => Some(ErrorKind::LoginRequired),
        Some(_) => None,
    }
}
