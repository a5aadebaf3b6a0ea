//! Machine translation of items (news and readers' posts) and of readers' comments, questions and
//! answers ([`texts`]) into the other four languages, by a LibreTranslate-compatible service
//! (`TRANSLATE_URL`).
//!
//! Readers never wait for it: one server at a time (a lease) translates the newest items of the
//! last two days that lack a language, and stores each text once per language, ever (marked
//! `machine`); pages read what is stored, so a reader whose auto-translate is on sees the
//! translation from then on, and search finds it in their language. The HTML is cleaned again
//! after translation. Every server shares a daily character budget (`TRANSLATE_DAILY_CHARS`);
//! each call has 5 s; after three failures in a row the service is left alone for a minute (a
//! circuit breaker). Out, slow or over budget, the originals are shown, as without a service.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use client_core::locale::LOCALES;
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set};

use super::search::{Document, index};
use super::stories;
use super::write::clean::{clean_html, plain_text};
use crate::config::TranslateSettings;
use crate::ctx::Ctx;
use crate::entity::{feed_item, feed_translation, translation_day};
use crate::error::AppResult;
use crate::events::Event;
use crate::lease;
use crate::time::{DAY, HOUR};
use service::{Fault, Service};
pub use texts::TextKind;
use texts::Written;

pub mod service;
pub mod texts;

const LEASE: &str = "translate";
const LEASE_SECONDS: i64 = 60;
/// How far back items are translated.
const WINDOW_SECONDS: i64 = 48 * HOUR;
/// The newest items looked at in a round.
const ITEMS_LOOKED_AT: u64 = 100;
/// Translations made in a round, at most.
const PER_ROUND: usize = 10;
/// Failures in a row that open the breaker, and how long it stays open.
const TRIPS_AFTER: u32 = 3;
const OPEN_SECONDS: i64 = 60;
const IDLE: Duration = Duration::from_secs(5);

/// The service, its budget and its breaker; `None` in the content state without `TRANSLATE_URL`.
#[derive(Clone)]
pub struct Translator {
    service: Service,
    daily_chars: i64,
    breaker: Arc<Mutex<Breaker>>,
    /// Texts the service refused (an unsupported language), not asked again on this server.
    refused: Arc<Mutex<HashSet<Refusal>>>,
}

/// What was refused (`item` or a [`TextKind`]'s name), which, and into which language.
type Refusal = (&'static str, i64, &'static str);

#[derive(Default)]
struct Breaker {
    failures: u32,
    open_until: i64,
}

impl Translator {
    pub fn new(settings: &TranslateSettings) -> Result<Option<Self>, String> {
        let Some(url) = settings.translate_url.as_deref() else {
            return Ok(None);
        };
        Ok(Some(Self {
            service: Service::new(url, settings.translate_api_key.clone())?,
            daily_chars: settings.translate_daily_chars,
            breaker: Arc::default(),
            refused: Arc::default(),
        }))
    }

    fn open(&self, now: i64) -> bool {
        self.breaker.lock().is_ok_and(|b| now < b.open_until)
    }

    fn outcome(&self, now: i64, ok: bool) {
        if let Ok(mut b) = self.breaker.lock() {
            if ok {
                b.failures = 0;
            } else {
                b.failures += 1;
                if b.failures >= TRIPS_AFTER {
                    b.failures = 0;
                    b.open_until = now + OPEN_SECONDS;
                }
            }
        }
    }
}

/// Translates on this server while it holds the lease.
pub fn spawn(ctx: Ctx, translator: Translator, holder: String) {
    tokio::spawn(async move {
        loop {
            match round(&ctx, &translator, &holder).await {
                Ok(0) => tokio::time::sleep(IDLE).await,
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!("translation: {e:?}");
                    tokio::time::sleep(IDLE).await;
                }
            }
        }
    });
}

/// What a round translates: an item (news or a reader's post), or a reader's comment, question
/// or answer.
#[derive(Clone)]
enum Piece {
    Item(Box<feed_item::Model>),
    Text(Written),
}

impl Piece {
    /// Names a refusal: what was refused, into which language.
    fn refusal(&self, locale: &'static str) -> Refusal {
        match self {
            Self::Item(item) => ("item", item.id, locale),
            Self::Text(w) => (w.kind.name(), w.id, locale),
        }
    }

    fn lang(&self) -> &str {
        match self {
            Self::Item(item) => &item.lang,
            Self::Text(w) => &w.lang,
        }
    }

    /// The characters a translation sends.
    fn chars(&self) -> i64 {
        let texts = match self {
            Self::Item(item) => [&item.title, &item.summary, &item.content],
            Self::Text(w) => [&w.title, &w.content, &String::new()],
        };
        texts.iter().map(|t| t.chars().count() as i64).sum()
    }
}

/// One round if this server holds the lease; gives how many translations were stored.
pub async fn round(ctx: &Ctx, translator: &Translator, holder: &str) -> AppResult<usize> {
    let now = ctx.now();
    if !lease::hold(&ctx.db, LEASE, holder, now, LEASE_SECONDS).await? || translator.open(now) {
        return Ok(0);
    }
    let mut done = 0;
    for (piece, locale) in wanted(ctx, translator).await? {
        let chars = piece.chars();
        if !spend(ctx, translator.daily_chars, chars).await? {
            tracing::debug!("translation: today's budget is spent");
            break;
        }
        let outcome = translated(translator, &piece, locale).await;
        if outcome.is_err() {
            // Nothing was translated: the characters go back to the budget.
            spend(ctx, translator.daily_chars, -chars).await?;
        }
        match outcome {
            Ok(text) => {
                translator.outcome(now, true);
                store(ctx, &piece, locale, text).await?;
                done += 1;
            }
            Err(Fault::Refused(why)) => {
                tracing::debug!("translation refused: {why}");
                if let Ok(mut refused) = translator.refused.lock() {
                    refused.insert(piece.refusal(locale));
                }
            }
            Err(Fault::Service(why)) => {
                tracing::warn!("{why}");
                translator.outcome(now, false);
                if translator.open(now) {
                    break;
                }
            }
        }
    }
    if done > 0 {
        ctx.events.publish(&Event::ContentChanged);
    }
    Ok(done)
}

/// The newest recent items, then readers' texts, and the languages each lacks, at most a
/// round's worth.
async fn wanted(ctx: &Ctx, translator: &Translator) -> AppResult<Vec<(Piece, &'static str)>> {
    let since = ctx.now() - WINDOW_SECONDS;
    let items = feed_item::Entity::find()
        .filter(feed_item::Column::PublishedAt.gt(since))
        .filter(feed_item::Column::Lang.is_in(LOCALES))
        .order_by_desc(feed_item::Column::PublishedAt)
        .limit(ITEMS_LOOKED_AT)
        .all(&ctx.db)
        .await?;
    let had: Vec<(i64, String)> = feed_translation::Entity::find()
        .select_only()
        .columns([
            feed_translation::Column::FeedId,
            feed_translation::Column::Locale,
        ])
        .filter(feed_translation::Column::FeedId.is_in(items.iter().map(|i| i.id)))
        .into_tuple()
        .all(&ctx.db)
        .await?;
    let mut had_by_item: HashMap<i64, Vec<String>> = HashMap::new();
    for (id, locale) in had {
        had_by_item.entry(id).or_default().push(locale);
    }
    let mut pieces: Vec<(Piece, Vec<String>)> = items
        .into_iter()
        .map(|item| {
            let locales = had_by_item.remove(&item.id).unwrap_or_default();
            (Piece::Item(Box::new(item)), locales)
        })
        .collect();
    let texts = texts::recent(&ctx.db, since, ITEMS_LOOKED_AT).await?;
    pieces.extend(texts.into_iter().map(|(w, had)| (Piece::Text(w), had)));
    let refused = translator
        .refused
        .lock()
        .map(|r| r.clone())
        .unwrap_or_default();
    let mut wanted = Vec::new();
    for (piece, had) in pieces {
        for locale in LOCALES {
            let missing = locale != piece.lang() && !had.iter().any(|h| h == locale);
            if missing && !refused.contains(&piece.refusal(locale)) {
                wanted.push((piece.clone(), locale));
            }
        }
        if wanted.len() >= PER_ROUND {
            break;
        }
    }
    wanted.truncate(PER_ROUND);
    Ok(wanted)
}

/// Takes `chars` from today's budget if it has them (a negative number gives them back); gives
/// whether it did. Every server's translations come out of the same row.
async fn spend(ctx: &Ctx, daily: i64, chars: i64) -> AppResult<bool> {
    let day = ctx.now().div_euclid(DAY);
    translation_day::Entity::insert(translation_day::ActiveModel {
        day: Set(day),
        chars: Set(0),
    })
    .on_conflict(
        OnConflict::column(translation_day::Column::Day)
            .do_nothing()
            .to_owned(),
    )
    .exec_without_returning(&ctx.db)
    .await?;
    let taken = translation_day::Entity::update_many()
        .col_expr(
            translation_day::Column::Chars,
            Expr::col(translation_day::Column::Chars).add(chars),
        )
        .filter(translation_day::Column::Day.eq(day))
        .filter(translation_day::Column::Chars.lte(daily - chars))
        .exec(&ctx.db)
        .await?
        .rows_affected;
    Ok(taken == 1)
}

/// A piece's texts in another language (a reader's text has no summary, and a title only when
/// it is a question).
struct Text {
    title: String,
    summary: String,
    content: String,
}

async fn translated(translator: &Translator, piece: &Piece, locale: &str) -> Result<Text, Fault> {
    let service = &translator.service;
    let item = match piece {
        Piece::Item(item) => item,
        Piece::Text(w) => {
            // Plain text, shown escaped: it is kept as the service wrote it.
            let mut lines: Vec<&str> = vec![&w.content];
            if !w.title.is_empty() {
                lines.insert(0, &w.title);
            }
            let mut lines = service.translate(&lines, &w.lang, locale, "text").await?;
            let content = lines.pop().unwrap_or_default();
            return Ok(Text {
                title: lines.pop().unwrap_or_default(),
                summary: String::new(),
                content,
            });
        }
    };
    let lines = service
        .translate(&[&item.title, &item.summary], &item.lang, locale, "text")
        .await?;
    let content = if item.content.trim().is_empty() {
        String::new()
    } else {
        let html = service
            .translate(&[&item.content], &item.lang, locale, "html")
            .await?;
        // What comes back is the service's: cleaned as anything from outside is.
        clean_html(&html.concat())
    };
    let mut lines = lines.into_iter().map(|l| plain_text(&l));
    Ok(Text {
        title: lines.next().unwrap_or_default(),
        summary: lines.next().unwrap_or_default(),
        content,
    })
}

/// Stores a translation (unless one came meanwhile); an item's search document is indexed again
/// with it, and an item no story took is looked at again in the new language.
async fn store(ctx: &Ctx, piece: &Piece, locale: &str, text: Text) -> AppResult<()> {
    let item = match piece {
        Piece::Item(item) => item,
        Piece::Text(w) => {
            if !w.content.is_empty() && text.content.trim().is_empty() {
                return Ok(());
            }
            return texts::store(&ctx.db, w, locale, text.title, text.content).await;
        }
    };
    if text.title.is_empty() {
        return Ok(());
    }
    let txn = crate::db::begin_write(&ctx.db).await?;
    feed_translation::Entity::insert(feed_translation::ActiveModel {
        feed_id: Set(item.id),
        locale: Set(locale.to_owned()),
        title: Set(text.title),
        summary: Set(text.summary),
        content: Set(text.content),
        machine: Set(true),
        ..Default::default()
    })
    .on_conflict(
        OnConflict::columns([
            feed_translation::Column::FeedId,
            feed_translation::Column::Locale,
        ])
        .do_nothing()
        .to_owned(),
    )
    .exec_without_returning(&txn)
    .await?;
    let translations = feed_translation::Entity::find()
        .filter(feed_translation::Column::FeedId.eq(item.id))
        .all(&txn)
        .await?;
    index(&txn, &Document::stored_feed(item, &translations)).await?;
    stories::reconsider(&txn, item.id, &translations, ctx.now()).await?;
    txn.commit().await?;
    Ok(())
}
