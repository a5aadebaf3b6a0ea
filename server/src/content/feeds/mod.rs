//! Pages of feeds and a feed's detail, in the reader's language.
//!
//! Pages are keyset-paged on `(published_at, id)`, newest first: the cursor names the last item
//! seen, so items published between two requests never shift a page (no duplicates, no gaps).
//! Hot and rising pages are cut from a ranking instead (`ranking`).

use sea_orm::sea_query::{Expr, Query};
use sea_orm::{
    ColumnTrait, Condition, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect,
    Select,
};

use super::follows::{Target, followed};
use crate::ctx::Ctx;
use crate::db::placeholders;
use crate::entity::{feed_item, feed_link, feed_translation, kol, tag, token, topic};
use crate::error::{AppError, AppResult};
use crate::pagination::{Page, parse_pair, split_page};

mod cards;
mod reads;

pub use cards::*;
pub use reads::{count_view, forget_old_views};

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
