//! Readers' own posts. A post is a feed item of kind `post` with its author, so it is listed,
//! linked to its tags and tokens, searched, liked, kept and discussed like the news; its Markdown
//! source is kept in versions (the newest is shown, the older ones are its edit history).

use client_core::envelope::ErrorKind;
use client_core::feed::POST_KIND;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter,
    QueryOrder, QuerySelect, Set,
};
use serde::Serialize;

use super::markdown;
use crate::content::catalogue::known_ids;
use crate::content::search;
use crate::content::write::{plain_text, replace_links};
use crate::ctx::Ctx;
use crate::entity::{feed_item, feed_link, post_version, tag, token};
use crate::error::{AppError, AppResult};
use crate::events::{Event, Live};
use crate::limits;
use crate::outbox::fanout;
use crate::pagination::{parse_id, split_page};
use crate::social::comments::REPEAT_SECONDS;
use crate::social::opening;

/// A post as its author sends it, already checked by client-core's post rule.
pub struct PostInput<'a> {
    pub title: &'a str,
    pub markdown: &'a str,
    pub tag_ids: Vec<i64>,
    pub token_ids: Vec<i64>,
    pub images: Vec<String>,
}

/// One version of a post, newest first in a post's history; the first is the one shown.
#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct PostVersion {
    pub title: String,
    /// The Markdown source as the author wrote it.
    pub markdown: String,
    pub images: Vec<String>,
    pub created_at: i64,
}

/// The link rows of a post (its tags and tokens), each checked to exist.
async fn links(
    db: &impl ConnectionTrait,
    input: &PostInput<'_>,
) -> AppResult<Vec<(&'static str, i64)>> {
    let tags = known_ids::<tag::Entity>(
        db,
        tag::Column::Id,
        &input.tag_ids,
        "tags names a tag that does not exist",
    )
    .await?;
    let tokens = known_ids::<token::Entity>(
        db,
        token::Column::Id,
        &input.token_ids,
        "tokens names a token that does not exist",
    )
    .await?;
    Ok(tags
        .into_iter()
        .map(|id| ("tag", id))
        .chain(tokens.into_iter().map(|id| ("token", id)))
        .collect())
}

/// Versions of one post kept; older ones fold away.
pub const VERSIONS_KEPT: u64 = 50;
/// How much of an untitled post's text titles it, and how much its card shows.
const UNTITLED_CHARS: usize = 80;
const SUMMARY_CHARS: usize = 280;

/// What a post's row, search document and version say, from its input.
struct Rendered {
    title: String,
    summary: String,
    html: String,
    images: String,
}

fn render(input: &PostInput<'_>) -> AppResult<Rendered> {
    let html = markdown::render(input.markdown.trim());
    let text = plain_text(&html);
    if text.is_empty() {
        // Markdown that shows nothing (only an image, an empty link): nothing to read.
        return Err(AppError::invalid(client_core::post::MSG_POST_EMPTY.text));
    }
    // A post without a title is titled by its opening, so every card, message and search hit
    // has words to show; its versions keep the title as written (none).
    let title = match plain_text(input.title) {
        written if written.is_empty() => opening(&text, UNTITLED_CHARS),
        written => written,
    };
    Ok(Rendered {
        title,
        summary: opening(&text, SUMMARY_CHARS),
        html,
        images: serde_json::to_string(&input.images).map_err(AppError::internal)?,
    })
}

/// Writes the links, version and search document of `post` (stored), in `db`'s transaction.
async fn store_parts(
    db: &impl ConnectionTrait,
    post: &feed_item::Model,
    input: &PostInput<'_>,
    links: Vec<(&'static str, i64)>,
    rendered: &Rendered,
    now: i64,
) -> AppResult<()> {
    let id = post.id;
    replace_links(db, id, links, Vec::new(), post.published_at).await?;
    post_version::ActiveModel {
        feed_id: Set(id),
        title: Set(plain_text(input.title)),
        markdown: Set(input.markdown.trim().to_owned()),
        images: Set(rendered.images.clone()),
        created_at: Set(now),
        ..Default::default()
    }
    .insert(db)
    .await?;
    // The oldest versions fold away: a history stays a bounded read however often it is edited.
    let oldest_kept = post_version::Entity::find()
        .filter(post_version::Column::FeedId.eq(id))
        .order_by_desc(post_version::Column::Id)
        .offset(VERSIONS_KEPT - 1)
        .one(db)
        .await?;
    if let Some(oldest_kept) = oldest_kept {
        post_version::Entity::delete_many()
            .filter(post_version::Column::FeedId.eq(id))
            .filter(post_version::Column::Id.lt(oldest_kept.id))
            .exec(db)
            .await?;
    }
    // A post's summary is its text's opening: the whole text is searched once, as content.
    let text = search::FeedText {
        title: &rendered.title,
        summary: "",
        content: &rendered.html,
    };
    let doc = search::Document::feed(id, &post.lang, text, []);
    search::index(db, &doc).await
}

/// Publishes a post; returns its feed item id. The same text twice within minutes is refused,
/// as for comments.
pub async fn create(ctx: &Ctx, user_id: i64, lang: &str, input: PostInput<'_>) -> AppResult<i64> {
    let now = ctx.now();
    let repeated = post_version::Entity::find()
        .filter(post_version::Column::Markdown.eq(input.markdown.trim()))
        .filter(post_version::Column::CreatedAt.gte(now - REPEAT_SECONDS))
        .filter(
            post_version::Column::FeedId.in_subquery(
                sea_orm::sea_query::Query::select()
                    .column(feed_item::Column::Id)
                    .from(feed_item::Entity)
                    .and_where(feed_item::Column::UserId.eq(user_id))
                    .to_owned(),
            ),
        )
        .one(&ctx.db)
        .await?;
    if repeated.is_some() {
        return Err(ErrorKind::DuplicateContent.into());
    }
    crate::uploads::attach_issued(ctx, &input.images, Some(user_id)).await?;
    let rendered = render(&input)?;
    let txn = crate::db::begin_write(&ctx.db).await?;
    let links = links(&txn, &input).await?;
    let item = feed_item::ActiveModel {
        // Unique until the id is known; then the post's own address.
        source_url: Set(format!("post:{user_id}:{:032x}", rand::random::<u128>())),
        origin: Set(None),
        kind: Set(POST_KIND.to_owned()),
        lang: Set(crate::i18n::written_lang(
            &format!("{}\n{}", rendered.title, rendered.summary),
            lang,
        )),
        title: Set(rendered.title.clone()),
        summary: Set(rendered.summary.clone()),
        content: Set(rendered.html.clone()),
        source_name: Set(String::new()),
        kol_id: Set(None),
        user_id: Set(Some(user_id)),
        channel_id: Set(None),
        images: Set(rendered.images.clone()),
        important: Set(false),
        published_at: Set(now),
        views: Set(0),
        likes: Set(0),
        comments: Set(0),
        updated_at: Set(now),
        ..Default::default()
    }
    .insert(&txn)
    .await?;
    let id = item.id;
    let mut addressed: feed_item::ActiveModel = item.into();
    addressed.source_url = Set(post_url(ctx, id));
    let item = addressed.update(&txn).await?;
    store_parts(&txn, &item, &input, links, &rendered, now).await?;
    let queued = fanout::NewItem {
        id,
        kind: POST_KIND,
        important: false,
        channel_id: None,
        kol_id: None,
        published_at: now,
    };
    fanout::queue(&txn, &queued, now).await?;
    txn.commit().await?;
    ctx.events.publish(&Event::ContentChanged);
    ctx.events.publish(&Event::DeliveriesQueued);
    ctx.events.publish(&Event::Live(Live::Item(id)));
    Ok(id)
}

/// Where a post is read.
fn post_url(ctx: &Ctx, id: i64) -> String {
    format!("{}/feed/{id}", ctx.public_url())
}

/// The post `id` if `user_id` wrote it: `NotFound` when there is no such post, `Forbidden` when
/// it is another reader's.
async fn own_post(ctx: &Ctx, user_id: i64, id: i64) -> AppResult<feed_item::Model> {
    let found = feed_item::Entity::find_by_id(id)
        .filter(feed_item::Column::Kind.eq(POST_KIND))
        .one(&ctx.db)
        .await?
        .ok_or_else(|| AppError::not_found("No such post"))?;
    if found.user_id != Some(user_id) {
        return Err(AppError::new(ErrorKind::Forbidden).with_message("This is not your post"));
    }
    Ok(found)
}

/// Replaces a post's text, title, links and images; the version before stays in its history.
pub async fn edit(ctx: &Ctx, user_id: i64, id: i64, input: PostInput<'_>) -> AppResult<()> {
    let found = own_post(ctx, user_id, id).await?;
    limits::spend(ctx, limits::POST_EDITS, &format!("p:{id}")).await?;
    crate::uploads::attach_issued(ctx, &input.images, Some(user_id)).await?;
    let rendered = render(&input)?;
    let now = ctx.now();
    let txn = crate::db::begin_write(&ctx.db).await?;
    let links = links(&txn, &input).await?;
    let mut row: feed_item::ActiveModel = found.clone().into();
    row.title = Set(rendered.title.clone());
    row.summary = Set(rendered.summary.clone());
    row.content = Set(rendered.html.clone());
    row.images = Set(rendered.images.clone());
    // Rewritten, it may be in another language now.
    row.lang = Set(crate::i18n::written_lang(
        &format!("{}\n{}", rendered.title, rendered.summary),
        &found.lang,
    ));
    row.updated_at = Set(now);
    let edited = row.update(&txn).await?;
    store_parts(&txn, &edited, &input, links, &rendered, now).await?;
    txn.commit().await?;
    ctx.events.publish(&Event::ContentChanged);
    Ok(())
}

/// Deletes a post for everyone at its author's asking (`take_down`).
pub async fn delete(ctx: &Ctx, user_id: i64, id: i64) -> AppResult<()> {
    own_post(ctx, user_id, id).await?;
    let txn = crate::db::begin_write(&ctx.db).await?;
    take_down(&txn, id).await?;
    txn.commit().await?;
    gone(ctx, id);
    Ok(())
}

/// The post `id` as it shows now: its author and its title and newest Markdown, or `NotFound`.
pub async fn shown(db: &impl ConnectionTrait, id: i64) -> AppResult<(i64, String)> {
    let found = feed_item::Entity::find_by_id(id)
        .filter(feed_item::Column::Kind.eq(POST_KIND))
        .one(db)
        .await?;
    let Some(feed_item::Model {
        user_id: Some(author),
        title,
        ..
    }) = found
    else {
        return Err(AppError::not_found("No such post"));
    };
    let markdown = post_version::Entity::find()
        .filter(post_version::Column::FeedId.eq(id))
        .order_by_desc(post_version::Column::Id)
        .one(db)
        .await?
        .map(|v| v.markdown)
        .unwrap_or_default();
    Ok((author, format!("{title}\n\n{markdown}")))
}

/// Takes post `id` down for everyone, in `txn`: the item, its links and versions, and the bot
/// deliveries still queued for it. Its search document is emptied rather than removed, so every
/// server's copy of the index learns of it the way it learns of any change (`search_copy`); an
/// emptied document matches nothing. Call `gone` once committed.
pub async fn take_down(txn: &impl ConnectionTrait, id: i64) -> AppResult<()> {
    replace_links(txn, id, Vec::new(), Vec::new(), 0).await?;
    post_version::Entity::delete_many()
        .filter(post_version::Column::FeedId.eq(id))
        .exec(txn)
        .await?;
    feed_item::Entity::delete_by_id(id).exec(txn).await?;
    search::index(txn, &search::Document::removed_feed(id)).await?;
    fanout::withdraw(txn, id).await
}

/// Post `id` was taken down: lists, feeds and RSS forget it, and open pages drop it.
pub fn gone(ctx: &Ctx, id: i64) {
    ctx.events.publish(&Event::ContentChanged);
    ctx.events.publish(&Event::Live(Live::Removed(id)));
}

/// A post as its writer edits it: its versions, newest first (the first is the one shown; anyone
/// may read how a post changed, as with comments), and the tags and tokens it names now.
#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct PostHistory {
    pub list: Vec<PostVersion>,
    /// Pass back for older versions; `null` at the end.
    pub next_cursor: Option<String>,
    /// Versions kept in all (at most 50: older ones fold away).
    pub total: u64,
    pub tag_ids: Vec<i64>,
    pub token_ids: Vec<i64>,
}

/// A page of post `id`'s versions, newest first, after `cursor` (a version's id).
pub async fn history(
    ctx: &Ctx,
    id: i64,
    cursor: Option<&str>,
    limit: u64,
) -> AppResult<PostHistory> {
    let total = post_version::Entity::find()
        .filter(post_version::Column::FeedId.eq(id))
        .count(&ctx.db)
        .await?;
    if total == 0 {
        return Err(AppError::not_found("No such post"));
    }
    let mut query = post_version::Entity::find()
        .filter(post_version::Column::FeedId.eq(id))
        .order_by_desc(post_version::Column::Id)
        .limit(limit + 1);
    if let Some(cursor) = cursor {
        query = query.filter(post_version::Column::Id.lt(parse_id(cursor)?));
    }
    let (versions, next_cursor) =
        split_page(query.all(&ctx.db).await?, limit, |v| v.id.to_string());
    let links = feed_link::Entity::find()
        .filter(feed_link::Column::FeedId.eq(id))
        .all(&ctx.db)
        .await?;
    let linked = |kind: &str| {
        links
            .iter()
            .filter(|l| l.kind == kind)
            .map(|l| l.target_id)
            .collect()
    };
    Ok(PostHistory {
        tag_ids: linked("tag"),
        token_ids: linked("token"),
        total,
        next_cursor,
        list: versions
            .into_iter()
            .map(|v| PostVersion {
                title: v.title,
                markdown: v.markdown,
                images: serde_json::from_str(&v.images).unwrap_or_default(),
                created_at: v.created_at,
            })
            .collect(),
    })
}
