//! Pages of feeds and a feed's detail, in the reader's language.
//!
//! Pages are keyset-paged on `(published_at, id)`, newest first: the cursor names the last item
//! seen, so items published between two requests never shift a page (no duplicates, no gaps).
//! Hot and rising pages are cut from a ranking instead (`ranking`).

use std::collections::HashMap;

use client_core::vote::VoteCounts;

use sea_orm::sea_query::{Expr, OnConflict, Query};
use sea_orm::{
    ColumnTrait, Condition, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect,
    Select, Set, TryInsertResult,
};
use serde::Serialize;

use super::follows::{Target, followed};
use crate::auth::users::{UserRef, users_by_id};
use crate::ctx::Ctx;
use crate::db::placeholders;
use crate::entity::{
    channel, feed_item, feed_link, feed_translation, feed_view, kol, story, tag, token, topic,
};
use crate::error::{AppError, AppResult};
use crate::i18n::localized;
use crate::markets::{self, quotes::Quote};
use crate::pagination::{Page, parse_pair, split_page};
use crate::time::DAY;

/// Which feeds a page lists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    /// Everything, newest first (the "for you" tab).
    All,
    /// Items of these kinds (the "news" and "articles" tabs).
    Kinds(&'static [&'static str]),
    /// Items linked to a tag, token or topic.
    Linked(&'static str, i64),
    Channel(i64),
    Kol(i64),
    /// A reader's own posts.
    Author(i64),
    /// Items of the tags, tokens, topics, KOLs and people a user follows.
    Following(i64),
}

/// How a feed is ordered.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Sort {
    /// Newest first.
    #[default]
    New,
    Hot,
    Rising,
}

impl Sort {
    pub const NAMES: [&'static str; 3] = client_core::vote::FEED_SORTS;

    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "new" => Some(Self::New),
            "hot" => Some(Self::Hot),
            "rising" => Some(Self::Rising),
            _ => None,
        }
    }
}

/// What of a scope a page keeps, and in which order.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    pub only_important: bool,
    /// Only items written in, or translated into, one of these (`None`: every language).
    pub langs: Option<Vec<&'static str>>,
    pub sort: Sort,
}

/// Items written in, or translated into, one of `langs`.
fn in_langs(langs: &[&'static str]) -> Condition {
    use feed_item::Column as C;
    let translated = Query::select()
        .expr(Expr::val(1))
        .from(feed_translation::Entity)
        .and_where(
            Expr::col((feed_translation::Entity, feed_translation::Column::FeedId))
                .equals((feed_item::Entity, C::Id)),
        )
        .and_where(feed_translation::Column::Locale.is_in(langs.iter().copied()))
        .to_owned();
    Condition::any()
        .add(C::Lang.is_in(langs.iter().copied()))
        .add(Expr::exists(translated))
}

/// How a reader wants text: their locale, and whether translations replace the original.
#[derive(Debug, Clone, Copy)]
pub struct Reading {
    pub locale: &'static str,
    pub translate: bool,
}

impl Reading {
    /// Originals only: for what was just written, which has no translation yet.
    pub const ORIGINALS: Self = Self {
        locale: client_core::locale::DEFAULT_LOCALE,
        translate: false,
    };

    /// Whether a text written in `lang` is shown translated, when a translation exists (an
    /// unknown language, empty, is shown as written).
    pub fn translates(self, lang: &str) -> bool {
        self.translate && !lang.is_empty() && lang != self.locale
    }

    /// The part of a cache key that sets pages read one way apart from those read another.
    pub fn key(self) -> String {
        format!("{}|{}", self.locale, self.translate)
    }
}

#[derive(schemars::JsonSchema, Debug, Clone, Serialize, ts_rs::TS)]
pub struct TagRef {
    pub id: i64,
    pub code: String,
    pub name: String,
}

#[derive(schemars::JsonSchema, Debug, Clone, Serialize, ts_rs::TS)]
pub struct TokenRef {
    pub id: i64,
    pub symbol: String,
    /// Its latest price, if it has one.
    pub price: Option<Quote>,
}

/// The story a card stands for: `size` reports of one event, the first in `first_lang`.
#[derive(schemars::JsonSchema, Debug, Clone, Serialize, ts_rs::TS)]
pub struct StoryRef {
    pub id: i64,
    pub size: i64,
    pub first_lang: String,
    pub first_at: i64,
}

#[derive(schemars::JsonSchema, Debug, Clone, Serialize, ts_rs::TS)]
pub struct AuthorRef {
    pub id: i64,
    pub handle: String,
    pub name: String,
    pub avatar: String,
}

#[derive(schemars::JsonSchema, Debug, Clone, Serialize, ts_rs::TS)]
pub struct FeedView {
    pub id: i64,
    #[ts(type = "FeedKind")]
    pub kind: String,
    pub title: String,
    pub summary: String,
    /// The language the item was written in.
    pub lang: String,
    /// The language of `title` and `summary` as returned.
    pub shown_lang: String,
    pub translated: bool,
    pub source_name: String,
    pub source_url: String,
    pub author: Option<AuthorRef>,
    /// The reader who wrote a `post`.
    pub user: Option<UserRef>,
    pub channel: Option<String>,
    pub images: Vec<String>,
    pub important: bool,
    pub published_at: i64,
    pub views: i64,
    pub like_count: i64,
    pub comment_count: i64,
    pub tags: Vec<TagRef>,
    pub tokens: Vec<TokenRef>,
    /// The story it reports with other items, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub story: Option<StoryRef>,
    /// Whether the signed-in reader likes it (absent for visitors).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub liked: Option<bool>,
    /// Whether the signed-in reader keeps it in their favorites (absent for visitors).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub favorited: Option<bool>,
    /// Readers' votes, by kind.
    #[ts(type = "VoteCounts")]
    pub votes: VoteCounts,
    /// The signed-in reader's votes on it, in card order (absent for visitors).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mine: Option<Vec<String>>,
    /// The text as written, when a translation is shown in its place: "Show original" needs
    /// no request.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub original: Option<Original>,
}

#[derive(schemars::JsonSchema, Debug, Clone, Serialize, ts_rs::TS)]
pub struct Original {
    pub title: String,
    pub summary: String,
    /// The item's page only: its sanitized HTML.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub content: Option<String>,
    /// Translated by a machine (the translation service), not the source or an editor.
    pub machine: bool,
}

/// An item's votes as its row counts them.
pub fn vote_counts(row: &feed_item::Model) -> VoteCounts {
    VoteCounts {
        bullish: row.vote_bullish,
        bearish: row.vote_bearish,
        important: row.vote_important,
        lol: row.vote_lol,
        toxic: row.vote_toxic,
    }
}

#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct FeedDetail {
    #[serde(flatten)]
    pub item: FeedView,
    /// Sanitized HTML.
    pub content: String,
    pub related: Vec<FeedView>,
}

fn linked_ids(kind: &str, target: i64) -> sea_orm::sea_query::SelectStatement {
    Query::select()
        .column(feed_link::Column::FeedId)
        .from(feed_link::Entity)
        .and_where(feed_link::Column::Kind.eq(kind))
        .and_where(feed_link::Column::TargetId.eq(target))
        .to_owned()
}

fn scope_condition(scope: &Scope) -> Condition {
    use feed_item::Column as C;
    match scope {
        Scope::All => Condition::all(),
        Scope::Kinds(kinds) => Condition::all().add(C::Kind.is_in(kinds.iter().copied())),
        Scope::Linked(kind, target) => {
            Condition::all().add(C::Id.in_subquery(linked_ids(kind, *target)))
        }
        Scope::Channel(id) => Condition::all().add(C::ChannelId.eq(*id)),
        Scope::Kol(id) => Condition::all().add(C::KolId.eq(*id)),
        Scope::Author(id) => Condition::all().add(C::UserId.eq(*id)),
        Scope::Following(user) => {
            // Feeds linked to a followed tag, token or topic, by a followed KOL, and posts by a
            // followed person.
            let linked = |kind: &str| {
                Query::select()
                    .column(feed_link::Column::FeedId)
                    .from(feed_link::Entity)
                    .and_where(feed_link::Column::Kind.eq(kind))
                    .and_where(feed_link::Column::TargetId.in_subquery(followed(*user, kind)))
                    .to_owned()
            };
            ["tag", "token", "topic"]
                .into_iter()
                .fold(Condition::any(), |any, kind| {
                    any.add(C::Id.in_subquery(linked(kind)))
                })
                .add(C::KolId.in_subquery(followed(*user, Target::Kol.kind())))
                .add(C::UserId.in_subquery(followed(*user, Target::User.kind())))
        }
    }
}

impl Scope {
    /// Feeds of many sources (home and subject feeds) show one card per story; a channel's,
    /// a KOL's or a reader's own show each item.
    fn one_card_per_story(&self) -> bool {
        matches!(
            self,
            Self::All | Self::Kinds(_) | Self::Linked(..) | Self::Following(_)
        )
    }
}

/// `NotFound` for a tag, token, topic or KOL that does not exist: an empty page of nothing would
/// otherwise be built and cached like a real one.
pub async fn ensure_exists(ctx: &Ctx, scope: &Scope) -> AppResult<()> {
    let db = &ctx.db;
    let (found, what) = match *scope {
        Scope::Linked("tag", id) => (tag::Entity::find_by_id(id).one(db).await?.is_some(), "tag"),
        Scope::Linked("token", id) => (
            token::Entity::find_by_id(id).one(db).await?.is_some(),
            "token",
        ),
        Scope::Linked(_, id) => (
            topic::Entity::find_by_id(id).one(db).await?.is_some(),
            "topic",
        ),
        Scope::Kol(id) => (kol::Entity::find_by_id(id).one(db).await?.is_some(), "KOL"),
        _ => (true, ""),
    };
    if found {
        Ok(())
    } else {
        Err(AppError::not_found(format!("No such {what}")))
    }
}

/// `query` kept to the items of `scope` that `filter` keeps.
pub fn item_filter(
    mut query: Select<feed_item::Entity>,
    scope: &Scope,
    filter: &Filter,
) -> Select<feed_item::Entity> {
    query = query.filter(scope_condition(scope));
    if filter.only_important {
        query = query.filter(feed_item::Column::Important.eq(true));
    }
    if let Some(langs) = &filter.langs {
        query = query.filter(in_langs(langs));
    }
    if scope.one_card_per_story() {
        query = query.filter(story_card(filter.langs.as_deref()));
    }
    query
}

/// One item per story: its card, or, when the card is in none of `langs`, its earliest report
/// in them.
fn story_card(langs: Option<&[&'static str]>) -> Condition {
    let card = Condition::any().add(feed_item::Column::StoryHidden.eq(false));
    let Some(langs) = langs.filter(|l| !l.is_empty()) else {
        return card;
    };
    // The languages twice, then `false`.
    let n = langs.len();
    let (own, translated) = (placeholders(1, n), placeholders(1 + n, n));
    let hidden = 1 + 2 * n;
    // Another report of the story, in the reader's languages, that is the card or earlier.
    let sql = format!(
        "EXISTS (SELECT 1 FROM feed_items AS other WHERE other.story_id = feed_items.story_id \
         AND other.id <> feed_items.id AND (other.lang IN ({own}) OR EXISTS (SELECT 1 FROM \
         feed_translations AS t WHERE t.feed_id = other.id AND t.locale IN ({translated}))) \
         AND (other.story_hidden = ${hidden} OR other.published_at < feed_items.published_at \
         OR (other.published_at = feed_items.published_at AND other.id < feed_items.id)))"
    );
    let mut values: Vec<sea_orm::Value> = langs.iter().chain(langs).map(|l| (*l).into()).collect();
    values.push(false.into());
    card.add(Expr::cust_with_values(sql, values).not())
}

/// One page of a scope, newest first (hot and rising pages are `ranking`'s).
pub async fn page(
    ctx: &Ctx,
    scope: &Scope,
    filter: &Filter,
    cursor: Option<&str>,
    limit: u64,
    reading: Reading,
) -> AppResult<Page<FeedView>> {
    use feed_item::Column as C;
    let mut query = item_filter(feed_item::Entity::find(), scope, filter);
    if let Some(cursor) = cursor.filter(|c| !c.is_empty()) {
        let (at, id) = parse_pair(cursor)?;
        // A row-value comparison, so both databases walk the (published_at, id) index.
        query = query.filter(
            Expr::tuple([Expr::col(C::PublishedAt).into(), Expr::col(C::Id).into()])
                .lt(Expr::tuple([Expr::value(at), Expr::value(id)])),
        );
    }
    let rows = query
        .order_by_desc(C::PublishedAt)
        .order_by_desc(C::Id)
        .limit(limit + 1)
        .all(&ctx.db)
        .await?;
    let (rows, next_cursor) = split_page(rows, limit, |r| format!("{}.{}", r.published_at, r.id));
    let list = views(ctx, rows, reading).await?;
    Ok(Page { list, next_cursor })
}

/// The reader's view of items: translated where wanted and available, with their links.
pub async fn views(
    ctx: &Ctx,
    rows: Vec<feed_item::Model>,
    reading: Reading,
) -> AppResult<Vec<FeedView>> {
    Ok(views_with_content(ctx, rows, reading, false)
        .await?
        .into_iter()
        .map(|(view, _)| view)
        .collect())
}

async fn views_with_content(
    ctx: &Ctx,
    rows: Vec<feed_item::Model>,
    reading: Reading,
    with_content: bool,
) -> AppResult<Vec<(FeedView, String)>> {
    let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
    let wants_translation: Vec<i64> = rows
        .iter()
        .filter(|r| reading.translates(&r.lang))
        .map(|r| r.id)
        .collect();
    let mut translations: HashMap<i64, feed_translation::Model> = HashMap::new();
    if !wants_translation.is_empty() {
        let mut query = feed_translation::Entity::find()
            .filter(feed_translation::Column::FeedId.is_in(wants_translation))
            .filter(feed_translation::Column::Locale.eq(reading.locale));
        if !with_content {
            // Content can be large; lists never show it.
            query = query
                .select_only()
                .columns([
                    feed_translation::Column::Id,
                    feed_translation::Column::FeedId,
                    feed_translation::Column::Locale,
                    feed_translation::Column::Title,
                    feed_translation::Column::Summary,
                    feed_translation::Column::Machine,
                ])
                .column_as(Expr::value(""), "content");
        }
        for t in query.all(&ctx.db).await? {
            translations.insert(t.feed_id, t);
        }
    }
    let links = if ids.is_empty() {
        Vec::new()
    } else {
        // By feed id only (topic links are few and skipped below): with a second IN on `kind`,
        // SQLite's planner picks the kind index and scans every link.
        feed_link::Entity::find()
            .filter(feed_link::Column::FeedId.is_in(ids.clone()))
            .all(&ctx.db)
            .await?
    };
    let target_ids = |kind: &str| -> Vec<i64> {
        links
            .iter()
            .filter(|l| l.kind == kind)
            .map(|l| l.target_id)
            .collect()
    };
    let tags: HashMap<i64, tag::Model> = by_id(
        tag::Entity::find()
            .filter(tag::Column::Id.is_in(target_ids("tag")))
            .all(&ctx.db)
            .await?,
        |t| t.id,
    );
    let tokens: HashMap<i64, token::Model> = by_id(
        token::Entity::find()
            .filter(token::Column::Id.is_in(target_ids("token")))
            .all(&ctx.db)
            .await?,
        |t| t.id,
    );
    let quotes = markets::quotes::quotes(&ctx.db, tokens.keys().copied()).await?;
    let kol_ids: Vec<i64> = rows.iter().filter_map(|r| r.kol_id).collect();
    let kols: HashMap<i64, kol::Model> = by_id(
        kol::Entity::find()
            .filter(kol::Column::Id.is_in(kol_ids))
            .all(&ctx.db)
            .await?,
        |k| k.id,
    );
    let users = users_by_id(&ctx.db, rows.iter().filter_map(|r| r.user_id)).await?;
    let story_ids: Vec<i64> = rows.iter().filter_map(|r| r.story_id).collect();
    let stories: HashMap<i64, story::Model> = if story_ids.is_empty() {
        HashMap::new()
    } else {
        by_id(
            story::Entity::find()
                .filter(story::Column::Id.is_in(story_ids))
                .all(&ctx.db)
                .await?,
            |s| s.id,
        )
    };
    let channel_ids: Vec<i64> = rows.iter().filter_map(|r| r.channel_id).collect();
    let channels: HashMap<i64, channel::Model> = by_id(
        channel::Entity::find()
            .filter(channel::Column::Id.is_in(channel_ids))
            .all(&ctx.db)
            .await?,
        |c| c.id,
    );
    Ok(rows
        .into_iter()
        .map(|row| {
            let own_links = links.iter().filter(|l| l.feed_id == row.id);
            let item_tags = own_links
                .clone()
                .filter(|l| l.kind == "tag")
                .filter_map(|l| tags.get(&l.target_id))
                .map(|t| TagRef {
                    id: t.id,
                    code: t.code.clone(),
                    name: localized(&t.names, reading.locale),
                })
                .collect();
            let item_tokens = own_links
                .filter(|l| l.kind == "token")
                .filter_map(|l| tokens.get(&l.target_id))
                .map(|t| TokenRef {
                    id: t.id,
                    symbol: t.symbol.clone(),
                    price: quotes.get(&t.id).cloned(),
                })
                .collect();
            let translation = translations.remove(&row.id);
            let translated = translation.is_some();
            let votes = vote_counts(&row);
            let (title, summary, content, shown_lang, original) = match translation {
                Some(t) => {
                    let original = Original {
                        title: row.title,
                        summary: row.summary,
                        content: with_content.then_some(row.content),
                        machine: t.machine,
                    };
                    let shown = reading.locale.to_owned();
                    (t.title, t.summary, t.content, shown, Some(original))
                }
                None => (row.title, row.summary, row.content, row.lang.clone(), None),
            };
            let view = FeedView {
                id: row.id,
                kind: row.kind,
                title,
                summary,
                lang: row.lang,
                shown_lang,
                translated,
                source_name: row.source_name,
                source_url: row.source_url,
                author: row.kol_id.and_then(|id| kols.get(&id)).map(|k| AuthorRef {
                    id: k.id,
                    handle: k.handle.clone(),
                    name: k.name.clone(),
                    avatar: k.avatar.clone(),
                }),
                user: row.user_id.and_then(|id| users.get(&id).cloned()),
                channel: row
                    .channel_id
                    .and_then(|id| channels.get(&id))
                    .map(|c| c.code.clone()),
                images: serde_json::from_str(&row.images).unwrap_or_default(),
                important: row.important,
                published_at: row.published_at,
                views: row.views,
                like_count: row.likes,
                comment_count: row.comments,
                votes,
                tags: item_tags,
                tokens: item_tokens,
                story: row
                    .story_id
                    .and_then(|id| stories.get(&id))
                    .map(|s| StoryRef {
                        id: s.id,
                        size: s.size,
                        first_lang: s.first_lang.clone(),
                        first_at: s.first_at,
                    }),
                liked: None,
                favorited: None,
                mine: None,
                original,
            };
            (view, if with_content { content } else { String::new() })
        })
        .collect())
}

fn by_id<T>(rows: Vec<T>, id: impl Fn(&T) -> i64) -> HashMap<i64, T> {
    rows.into_iter().map(|r| (id(&r), r)).collect()
}

/// Related items: the newest others sharing a tag or token.
const RELATED: u64 = 5;

pub async fn find(ctx: &Ctx, id: i64) -> AppResult<feed_item::Model> {
    find_in(&ctx.db, id).await
}

/// [`find`] within a transaction.
pub async fn find_in(db: &impl ConnectionTrait, id: i64) -> AppResult<feed_item::Model> {
    feed_item::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or_else(|| AppError::not_found("No such feed"))
}

/// Counts a reader's view of item `id`, once per reader per item per UTC day; returns whether
/// this view was counted. `reader` is `u:<user>`, `g:<guest>` or `ip:<client>`.
pub async fn count_view(ctx: &Ctx, id: i64, reader: &str) -> AppResult<bool> {
    let first_today = feed_view::Entity::insert(feed_view::ActiveModel {
        feed_id: Set(id),
        reader: Set(reader.to_owned()),
        day: Set(ctx.now().div_euclid(DAY)),
    })
    .on_conflict(
        OnConflict::columns([
            feed_view::Column::FeedId,
            feed_view::Column::Reader,
            feed_view::Column::Day,
        ])
        .do_nothing()
        .to_owned(),
    )
    .do_nothing()
    .exec(&ctx.db)
    .await?;
    if !matches!(first_today, TryInsertResult::Inserted(_)) {
        return Ok(false);
    }
    feed_item::Entity::update_many()
        .col_expr(
            feed_item::Column::Views,
            Expr::col(feed_item::Column::Views).add(1),
        )
        .filter(feed_item::Column::Id.eq(id))
        .exec(&ctx.db)
        .await?;
    Ok(true)
}

/// View rows of days before yesterday decide nothing any more: the cleanup job removes them.
pub async fn forget_old_views(ctx: &Ctx) -> AppResult<u64> {
    let removed = feed_view::Entity::delete_many()
        .filter(feed_view::Column::Day.lt(ctx.now().div_euclid(DAY) - 1))
        .exec(&ctx.db)
        .await?;
    Ok(removed.rows_affected)
}

/// A feed with its content and related items.
pub async fn detail(ctx: &Ctx, id: i64, reading: Reading) -> AppResult<FeedDetail> {
    let row = find(ctx, id).await?;
    let shared = Query::select()
        .column(feed_link::Column::FeedId)
        .from(feed_link::Entity)
        .and_where(
            Expr::tuple([
                Expr::col(feed_link::Column::Kind).into(),
                Expr::col(feed_link::Column::TargetId).into(),
            ])
            .in_subquery(
                Query::select()
                    .columns([feed_link::Column::Kind, feed_link::Column::TargetId])
                    .from(feed_link::Entity)
                    .and_where(feed_link::Column::FeedId.eq(id))
                    .and_where(feed_link::Column::Kind.is_in(["tag", "token"]))
                    .to_owned(),
            ),
        )
        .to_owned();
    let related_rows = feed_item::Entity::find()
        .filter(feed_item::Column::Id.in_subquery(shared))
        .filter(feed_item::Column::Id.ne(id))
        .order_by_desc(feed_item::Column::PublishedAt)
        .order_by_desc(feed_item::Column::Id)
        .limit(RELATED)
        .all(&ctx.db)
        .await?;
    let related = views(ctx, related_rows, reading).await?;
    let (item, content) = views_with_content(ctx, vec![row], reading, true)
        .await?
        .pop()
        .ok_or_else(|| AppError::internal("a feed without a view"))?;
    Ok(FeedDetail {
        item,
        content,
        related,
    })
}
