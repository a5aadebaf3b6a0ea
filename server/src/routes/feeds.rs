//! The feeds: lists by tab or by what they are about, and one item.

use aide::axum::ApiRouter;
use aide::axum::routing::{post, post_with};
use axum::Json;
use axum::extract::State;
use axum::response::Response;
use client_core::envelope::{Envelope, ErrorKind};
use client_core::feed::{DEFAULT_FEED_TAB, FEED_TABS, tab_kinds};
use client_core::{langs, validation};
use serde::Deserialize;
use validator::Validate;

use super::cached::{cached_envelope, json_bytes};
use super::{IdRequest, ok};
use crate::content::feeds::{self, FeedDetail, Filter, Reading, Scope, Sort};
use crate::content::ranking;
use crate::content::{PAGE_DEFAULT, PAGE_MAX, catalogue};
use crate::error::{AppError, AppResult};
use crate::extract::{ApiJson, Caller, ClientMeta};
use crate::openapi::answers;
use crate::pagination::Page;
use crate::points::tasks::{self, Source};
use crate::social::{history, marks};
use crate::state::AppState;

pub fn router() -> ApiRouter<AppState> {
    ApiRouter::new()
        .api_route(
            "/feed/list",
            post_with(feed_list, answers::<Page<feeds::FeedView>>),
        )
        .api_route("/feed/detail", post(feed_detail))
}

/// The reader's language, and whether they want translations (their setting; on for visitors).
pub(super) fn reading(caller: &Caller, client: &ClientMeta) -> Reading {
    Reading {
        locale: client.locale,
        // Carried by the cached session: a signed-in page reads no user row.
        translate: caller
            .user
            .as_ref()
            .is_none_or(|u| u.session.auto_translate),
    }
}

#[derive(schemars::JsonSchema, Deserialize, Default, Validate)]
#[serde(default)]
struct FeedListRequest {
    /// `for_you` (default), `news`, `articles` or `following`.
    tab: Option<String>,
    tag_id: Option<i64>,
    token_id: Option<i64>,
    topic_id: Option<i64>,
    kol_id: Option<i64>,
    /// A channel code.
    channel: Option<String>,
    cursor: Option<String>,
    #[validate(range(min = 1, max = PAGE_MAX))]
    limit: Option<u64>,
    only_important: bool,
    /// Only items written in, or translated into, these locales.
    #[validate(custom(function = "validation::read_langs"))]
    langs: Option<Vec<String>>,
    /// `new` (default), `hot` or `rising`.
    sort: Option<String>,
}

/// The order a request asks for.
pub(super) fn sort(name: Option<&str>) -> AppResult<Sort> {
    name.map_or(Ok(Sort::New), |name| {
        Sort::parse(name).ok_or_else(|| {
            AppError::invalid(format!("sort must be one of {}", Sort::NAMES.join(", ")))
        })
    })
}

async fn feed_scope(state: &AppState, req: &FeedListRequest, caller: &Caller) -> AppResult<Scope> {
    let picked = [
        req.tab.is_some(),
        req.tag_id.is_some(),
        req.token_id.is_some(),
        req.topic_id.is_some(),
        req.kol_id.is_some(),
        req.channel.is_some(),
    ];
    if picked.iter().filter(|p| **p).count() > 1 {
        return Err(AppError::invalid(
            "Give one of tab, tag_id, token_id, topic_id, kol_id or channel",
        ));
    }
    Ok(match req {
        FeedListRequest {
            tag_id: Some(id), ..
        } => Scope::Linked("tag", *id),
        FeedListRequest {
            token_id: Some(id), ..
        } => Scope::Linked("token", *id),
        FeedListRequest {
            topic_id: Some(id), ..
        } => Scope::Linked("topic", *id),
        FeedListRequest {
            kol_id: Some(id), ..
        } => Scope::Kol(*id),
        FeedListRequest {
            channel: Some(code),
            ..
        } => Scope::Channel(catalogue::channel(state, code, "en").await?.id),
        _ => {
            let tab = req.tab.as_deref().unwrap_or(DEFAULT_FEED_TAB);
            match (tab, tab_kinds(tab)) {
                ("following", _) => match caller.user_id() {
                    Some(id) => Scope::Following(id),
                    None => return Err(ErrorKind::LoginRequired.into()),
                },
                (_, Some(None)) => Scope::All,
                (_, Some(Some(kinds))) => Scope::Kinds(kinds),
                (_, None) => {
                    return Err(AppError::invalid(format!(
                        "tab must be one of {}",
                        FEED_TABS.join(", ")
                    )));
                }
            }
        }
    })
}

async fn feed_list(
    State(state): State<AppState>,
    caller: Caller,
    client: ClientMeta,
    ApiJson(req): ApiJson<FeedListRequest>,
) -> AppResult<Response> {
    let scope = feed_scope(&state, &req, &caller).await?;
    let limit = req.limit.unwrap_or(PAGE_DEFAULT);
    let reading = reading(&caller, &client);
    let cursor = req.cursor.as_deref().filter(|c| !c.is_empty());
    // First pages of shared scopes are the same for every reader of a language: built once a second.
    let filter = Filter {
        only_important: req.only_important,
        langs: req.langs.as_deref().map(langs::checked),
        sort: sort(req.sort.as_deref())?,
    };
    // So are later pages of a hot or rising list: they are cut from one stored ranking.
    let shared = cursor.is_none() || filter.sort != Sort::New;
    let cache_key = (shared && !matches!(scope, Scope::Following(_)))
        .then(|| page_key(&scope, &filter, limit, reading, cursor));
    let page = async {
        feeds::ensure_exists(&state, &scope).await?;
        match filter.sort {
            Sort::New => feeds::page(&state, &scope, &filter, cursor, limit, reading).await,
            Sort::Hot | Sort::Rising => {
                ranking::page(&state, &scope, &filter, cursor, limit, reading).await
            }
        }
    };
    let body = cached_envelope(&state.content.cache, cache_key, page).await?;
    Ok(json_bytes(match caller.user_id() {
        Some(user_id) => marks::mark_page(&state, &state.marks, user_id, body).await?,
        None => body,
    }))
}

fn page_key(
    scope: &Scope,
    filter: &Filter,
    limit: u64,
    reading: Reading,
    cursor: Option<&str>,
) -> String {
    // The home tabs apart from subjects' pages: each kind has its own bound in the cache.
    let kind = match scope {
        Scope::All | Scope::Kinds(_) => "home",
        _ => "feeds",
    };
    format!(
        "{kind}|{scope:?}|{filter:?}|{limit}|{}|{}",
        reading.key(),
        cursor.unwrap_or_default()
    )
}

/// The envelope of the home feed's first page as a visitor reading `locale` gets it from
/// `/feed/list` (the same cached bytes): the app shell carries it, so the home page paints
/// without waiting for a request.
pub async fn home_first_page(state: &AppState, locale: &'static str) -> AppResult<bytes::Bytes> {
    let reading = Reading {
        locale,
        translate: true,
    };
    let limit = crate::content::PAGE_DEFAULT;
    let filter = Filter::default();
    let key = page_key(&Scope::All, &filter, limit, reading, None);
    let page = feeds::page(state, &Scope::All, &filter, None, limit, reading);
    cached_envelope(&state.content.cache, Some(key), page).await
}

async fn feed_detail(
    State(state): State<AppState>,
    caller: Caller,
    client: ClientMeta,
    ApiJson(req): ApiJson<IdRequest>,
) -> AppResult<Json<Envelope<FeedDetail>>> {
    let reading = reading(&caller, &client);
    let mut detail = feeds::detail(&state, req.id, reading).await?;
    let reader = match (caller.user_id(), caller.guest_id) {
        (Some(user), _) => format!("u:{user}"),
        (None, Some(guest)) => format!("g:{guest}"),
        (None, None) => format!("ip:{}", client.ip),
    };
    if feeds::count_view(&state, req.id, &reader).await? {
        detail.item.views += 1;
    }
    if let Some(user_id) = caller.user_id() {
        tasks::record_event(&state, user_id, "view_feed", Source::Server).await?;
        marks::mark(
            &state,
            &state.marks,
            user_id,
            std::slice::from_mut(&mut detail.item),
        )
        .await?;
        history::record(&state, user_id, req.id).await?;
    }
    Ok(ok(detail))
}
