//! Feeds, the catalogue, follows, search and explore.

use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use client_core::constants::SEARCH_QUERY_MAX_CHARS;
use client_core::envelope::{Envelope, ErrorKind};
use client_core::feed::{DEFAULT_FEED_TAB, FEED_TABS, tab_kinds};
use serde::{Deserialize, Serialize};

use super::ok;
use crate::content::ContentCache;
use crate::content::catalogue::{
    self, BenefitView, ChannelView, KolView, TagKey, TagView, TokenView, TopicView,
};
use crate::content::feeds::{self, FeedDetail, Reading, Scope};
use crate::content::follows::{self, Target};
use crate::content::search::{self, DocKind};
use crate::error::{AppError, AppResult};
use crate::extract::{ApiJson, Caller, ClientMeta, CurrentUser};
use crate::pagination::Page;
use crate::points::tasks::{self, Source};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/feed/list", post(feed_list))
        .route("/feed/detail", post(feed_detail))
        .route("/search", post(search_all))
        .route("/explore", post(explore))
        .route("/tag/list", post(tag_list))
        .route("/tag/detail", post(tag_detail))
        .route("/tag/follow/list", post(tag_follow_list))
        .route("/tag/follow/add", post(tag_follow_add))
        .route("/tag/follow/del", post(tag_follow_del))
        .route("/tag/follow/status", post(tag_follow_status))
        .route("/token/detail", post(token_detail))
        .route("/topic/list", post(topic_list))
        .route("/topic/detail", post(topic_detail))
        .route("/channel/list", post(channel_list))
        .route("/channel/detail", post(channel_detail))
        .route("/kol/list", post(kol_list))
        .route("/kol/detail", post(kol_detail))
        .route("/user/follow/list", post(kol_follow_list))
        .route("/user/follow/add", post(kol_follow_add))
        .route("/user/follow/del", post(kol_follow_del))
        .route("/benefit/list", post(benefit_list))
        .route("/benefit/detail", post(benefit_detail))
}

#[derive(Serialize)]
struct List<T> {
    list: Vec<T>,
}

/// The reader's language, and whether they want translations (their setting; on for visitors).
async fn reading(state: &AppState, caller: &Caller, client: &ClientMeta) -> AppResult<Reading> {
    let translate = match caller.user_id() {
        Some(id) => crate::auth::users::get(state, id).await?.auto_translate,
        None => true,
    };
    Ok(Reading {
        locale: client.locale,
        translate,
    })
}

#[derive(Deserialize, Default)]
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
    limit: Option<u64>,
    only_important: bool,
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
    let limit = feeds::page_size(req.limit)?;
    let reading = reading(&state, &caller, &client).await?;
    let cursor = req.cursor.as_deref().filter(|c| !c.is_empty());
    // First pages of shared scopes are the same for every reader of a language: built once a second.
    let cache_key = (cursor.is_none() && !matches!(scope, Scope::Following(_)))
        .then(|| first_page_key(&scope, req.only_important, limit, reading));
    let page = feeds::page(&state, &scope, req.only_important, cursor, limit, reading);
    Ok(json_bytes(
        cached_envelope(&state.content_cache, cache_key, page).await?,
    ))
}

fn first_page_key(scope: &Scope, only_important: bool, limit: u64, reading: Reading) -> String {
    format!(
        "feeds|{scope:?}|{only_important}|{limit}|{}|{}",
        reading.locale, reading.translate
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
    let key = first_page_key(&Scope::All, false, limit, reading);
    let page = feeds::page(state, &Scope::All, false, None, limit, reading);
    cached_envelope(&state.content_cache, Some(key), page).await
}

async fn cached_ok<T: Serialize>(
    state: &AppState,
    key: Option<String>,
    build: impl Future<Output = AppResult<T>>,
) -> AppResult<Response> {
    Ok(json_bytes(
        cached_envelope(&state.content_cache, key, build).await?,
    ))
}

/// A successful envelope as JSON, from `cache` under `key` when there is one, else built by
/// `build` (and cached under `key`).
async fn cached_envelope<T: Serialize>(
    cache: &ContentCache,
    key: Option<String>,
    build: impl Future<Output = AppResult<T>>,
) -> AppResult<bytes::Bytes> {
    let Some(key) = key else {
        return envelope_bytes(build.await?);
    };
    if let Some(body) = cache.get(&key).await {
        return Ok(body);
    }
    match build.await.and_then(envelope_bytes) {
        Ok(body) => {
            cache.put(key, body.clone());
            Ok(body)
        }
        Err(e) => {
            cache.abandon(&key);
            Err(e)
        }
    }
}

fn envelope_bytes<T: Serialize>(data: T) -> AppResult<bytes::Bytes> {
    Ok(serde_json::to_vec(&ok(data).0)
        .map_err(AppError::internal)?
        .into())
}

fn json_bytes(body: bytes::Bytes) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

#[derive(Deserialize)]
struct IdRequest {
    id: i64,
}

async fn feed_detail(
    State(state): State<AppState>,
    caller: Caller,
    client: ClientMeta,
    ApiJson(req): ApiJson<IdRequest>,
) -> AppResult<Json<Envelope<FeedDetail>>> {
    let reading = reading(&state, &caller, &client).await?;
    let detail = feeds::detail(&state, req.id, reading).await?;
    if let Some(user_id) = caller.user_id() {
        tasks::record_event(&state, user_id, "view_feed", Source::Server).await?;
    }
    Ok(ok(detail))
}

#[derive(Deserialize)]
struct SearchRequest {
    q: String,
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    cursor: Option<String>,
}

async fn search_all(
    State(state): State<AppState>,
    client: ClientMeta,
    ApiJson(req): ApiJson<SearchRequest>,
) -> AppResult<Response> {
    let terms = search::terms(&req.q)?;
    let kind = match req.kind.as_deref().unwrap_or("all") {
        "all" => None,
        name => Some(
            DocKind::parse(name)
                .ok_or_else(|| AppError::invalid("kind must be one of all, feed, tag, token, kol"))?,
        ),
    };
    let cursor = match req.cursor.as_deref().filter(|c| !c.is_empty()) {
        None => search::Cursor::START,
        Some(c) => search::Cursor::parse(c)?,
    };
    let key = format!("{terms:?}|{kind:?}|{cursor:?}|{}", client.locale);
    let page = async {
        let index = state.search_index().await?;
        let (docs, next) = search::find(index, &terms, kind, cursor).await?;
        Ok(Page {
            list: search::hits(docs, &terms, client.locale),
            next_cursor: next.map(search::Cursor::encode),
        })
    };
    Ok(json_bytes(
        cached_envelope(&state.search_cache, Some(key), page).await?,
    ))
}

async fn explore(State(state): State<AppState>, client: ClientMeta) -> AppResult<Response> {
    let key = format!("explore|{}", client.locale);
    cached_ok(&state, Some(key), catalogue::explore(&state, client.locale)).await
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct TagListRequest {
    /// Narrows by code or name (the `/recommendTag?q=` page).
    q: Option<String>,
    limit: Option<u64>,
}

async fn tag_list(
    State(state): State<AppState>,
    client: ClientMeta,
    ApiJson(req): ApiJson<TagListRequest>,
) -> AppResult<Json<Envelope<List<TagView>>>> {
    let limit = feeds::page_size(req.limit)?;
    if req
        .q
        .as_deref()
        .is_some_and(|q| q.chars().count() > SEARCH_QUERY_MAX_CHARS)
    {
        return Err(AppError::invalid(format!(
            "Search at most {SEARCH_QUERY_MAX_CHARS} characters"
        )));
    }
    let list = catalogue::recommended_tags(&state, req.q.as_deref(), limit, client.locale).await?;
    Ok(ok(List { list }))
}

async fn tag_detail(
    State(state): State<AppState>,
    client: ClientMeta,
    ApiJson(req): ApiJson<TagKey>,
) -> AppResult<Json<Envelope<TagView>>> {
    Ok(ok(catalogue::tag(&state, &req, client.locale).await?))
}

#[derive(Deserialize)]
struct TagIdRequest {
    tag_id: i64,
}

#[derive(Deserialize)]
struct KolIdRequest {
    kol_id: i64,
}

#[derive(Serialize)]
struct Following {
    following: bool,
}

async fn tag_follow_list(
    State(state): State<AppState>,
    me: CurrentUser,
    client: ClientMeta,
) -> AppResult<Json<Envelope<List<TagView>>>> {
    let ids = follows::followed_ids(&state, me.user_id, Target::Tag).await?;
    let list = catalogue::tags_by_ids(&state, &ids, client.locale).await?;
    Ok(ok(List { list }))
}

async fn tag_follow_add(
    State(state): State<AppState>,
    me: CurrentUser,
    ApiJson(req): ApiJson<TagIdRequest>,
) -> AppResult<Json<Envelope<Following>>> {
    follows::add(&state, me.user_id, Target::Tag, req.tag_id).await?;
    Ok(ok(Following { following: true }))
}

async fn tag_follow_del(
    State(state): State<AppState>,
    me: CurrentUser,
    ApiJson(req): ApiJson<TagIdRequest>,
) -> AppResult<Json<Envelope<Following>>> {
    follows::remove(&state, me.user_id, Target::Tag, req.tag_id).await?;
    Ok(ok(Following { following: false }))
}

async fn tag_follow_status(
    State(state): State<AppState>,
    me: CurrentUser,
    ApiJson(req): ApiJson<TagIdRequest>,
) -> AppResult<Json<Envelope<Following>>> {
    let following = follows::is_following(&state, me.user_id, Target::Tag, req.tag_id).await?;
    Ok(ok(Following { following }))
}

async fn kol_follow_list(
    State(state): State<AppState>,
    me: CurrentUser,
    client: ClientMeta,
) -> AppResult<Json<Envelope<List<KolView>>>> {
    let ids = follows::followed_ids(&state, me.user_id, Target::Kol).await?;
    let list = catalogue::kols_by_ids(&state, &ids, client.locale).await?;
    Ok(ok(List { list }))
}

async fn kol_follow_add(
    State(state): State<AppState>,
    me: CurrentUser,
    ApiJson(req): ApiJson<KolIdRequest>,
) -> AppResult<Json<Envelope<Following>>> {
    follows::add(&state, me.user_id, Target::Kol, req.kol_id).await?;
    Ok(ok(Following { following: true }))
}

async fn kol_follow_del(
    State(state): State<AppState>,
    me: CurrentUser,
    ApiJson(req): ApiJson<KolIdRequest>,
) -> AppResult<Json<Envelope<Following>>> {
    follows::remove(&state, me.user_id, Target::Kol, req.kol_id).await?;
    Ok(ok(Following { following: false }))
}

#[derive(Deserialize)]
struct SymbolRequest {
    symbol: String,
}

async fn token_detail(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<SymbolRequest>,
) -> AppResult<Json<Envelope<TokenView>>> {
    Ok(ok(catalogue::token(&state, &req.symbol).await?))
}

async fn topic_list(
    State(state): State<AppState>,
    client: ClientMeta,
) -> AppResult<Json<Envelope<List<TopicView>>>> {
    let list = catalogue::trending_topics(&state, 50, client.locale).await?;
    Ok(ok(List { list }))
}

async fn topic_detail(
    State(state): State<AppState>,
    client: ClientMeta,
    ApiJson(req): ApiJson<IdRequest>,
) -> AppResult<Json<Envelope<TopicView>>> {
    Ok(ok(catalogue::topic(&state, req.id, client.locale).await?))
}

async fn channel_list(
    State(state): State<AppState>,
    client: ClientMeta,
) -> AppResult<Json<Envelope<List<ChannelView>>>> {
    let list = catalogue::channels(&state, client.locale).await?;
    Ok(ok(List { list }))
}

#[derive(Deserialize)]
struct CodeRequest {
    code: String,
}

async fn channel_detail(
    State(state): State<AppState>,
    client: ClientMeta,
    ApiJson(req): ApiJson<CodeRequest>,
) -> AppResult<Json<Envelope<ChannelView>>> {
    Ok(ok(
        catalogue::channel(&state, &req.code, client.locale).await?
    ))
}

async fn kol_list(
    State(state): State<AppState>,
    client: ClientMeta,
) -> AppResult<Json<Envelope<List<KolView>>>> {
    let list = catalogue::popular_kols(&state, 50, client.locale).await?;
    Ok(ok(List { list }))
}

async fn kol_detail(
    State(state): State<AppState>,
    client: ClientMeta,
    ApiJson(req): ApiJson<IdRequest>,
) -> AppResult<Json<Envelope<KolView>>> {
    Ok(ok(catalogue::kol(&state, req.id, client.locale).await?))
}

async fn benefit_list(
    State(state): State<AppState>,
    client: ClientMeta,
) -> AppResult<Json<Envelope<List<BenefitView>>>> {
    let list = catalogue::benefits(&state, client.locale).await?;
    Ok(ok(List { list }))
}

async fn benefit_detail(
    State(state): State<AppState>,
    client: ClientMeta,
    ApiJson(req): ApiJson<IdRequest>,
) -> AppResult<Json<Envelope<BenefitView>>> {
    Ok(ok(catalogue::benefit(&state, req.id, client.locale).await?))
}
