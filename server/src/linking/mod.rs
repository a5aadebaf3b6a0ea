//! Entity linking on the server: the catalogue compiled into client-core's linker once per
//! catalogue change (on every server: `Event::CatalogueChanged` reaches the others by `NOTIFY`),
//! and the mark that the recent items must be linked again. Content calls it as it stores an
//! item and as it relinks (`content::links`).

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use client_core::linking::{
    Catalogue, Document, KeywordEntry, KolEntry, Linker, Links, TokenEntry,
};
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{ConnectionTrait, EntityTrait, Set};

use crate::config::LinkingSettings;
use crate::entity::{kol, lease, tag, token, topic};
use crate::error::AppResult;
use crate::events::Event;

/// The lease whose cursor says how far relinking has come: the id below which items of the
/// last [`RELINK_DAYS`] still wait (0: nothing to do).
pub const RELINK_LEASE: &str = "relink";
/// How far back a catalogue change relinks.
pub const RELINK_DAYS: i64 = 30;

/// The catalogue compiled, each token's symbol (stories and alerts speak symbols) and the token
/// each tag stands for.
pub struct Compiled {
    catalogue: Catalogue,
    linker: Linker,
    symbols: HashMap<i64, String>,
    token_of_tag: HashMap<i64, i64>,
}

impl Compiled {
    pub fn new(catalogue: Catalogue) -> Self {
        Self {
            linker: Linker::new(&catalogue),
            symbols: catalogue
                .tokens
                .iter()
                .map(|t| (t.id, t.symbol.clone()))
                .collect(),
            token_of_tag: catalogue
                .tags
                .iter()
                .filter_map(|t| Some((t.id, t.token?)))
                .collect(),
            catalogue,
        }
    }

    /// The catalogue it was compiled from (the Write page links with it too).
    pub fn catalogue(&self) -> &Catalogue {
        &self.catalogue
    }

    pub fn link(&self, doc: &Document) -> Links {
        self.linker.link(doc)
    }

    pub fn symbol(&self, token: i64) -> Option<&str> {
        self.symbols.get(&token).map(String::as_str)
    }

    /// The token tag `tag` stands for.
    pub fn token_of_tag(&self, tag: i64) -> Option<i64> {
        self.token_of_tag.get(&tag).copied()
    }
}

#[derive(Clone)]
pub struct Linking(Arc<Inner>);

pub struct Inner {
    /// When a story is breaking news.
    pub settings: LinkingSettings,
    compiled: RwLock<Option<Arc<Compiled>>>,
    /// Counts catalogue changes heard, so a compile that read the catalogue before a change is
    /// not kept after it.
    generation: AtomicU64,
}

impl std::ops::Deref for Linking {
    type Target = Inner;
    fn deref(&self) -> &Inner {
        &self.0
    }
}

impl Linking {
    pub fn new(settings: LinkingSettings) -> Self {
        Self(Arc::new(Inner {
            settings,
            compiled: RwLock::new(None),
            generation: AtomicU64::new(0),
        }))
    }

    pub fn heard(&self, event: &Event) {
        if matches!(event, Event::CatalogueChanged | Event::Missed) {
            self.0.generation.fetch_add(1, Ordering::SeqCst);
            if let Ok(mut compiled) = self.0.compiled.write() {
                *compiled = None;
            }
        }
    }

    /// The current catalogue compiled, read from `db` when it changed since the last call.
    pub async fn compiled(&self, db: &impl ConnectionTrait) -> AppResult<Arc<Compiled>> {
        if let Some(found) = self.0.compiled.read().ok().and_then(|c| c.clone()) {
            return Ok(found);
        }
        let generation = self.0.generation.load(Ordering::SeqCst);
        let compiled = Arc::new(Compiled::new(catalogue(db).await?));
        if let Ok(mut slot) = self.0.compiled.write()
            && self.0.generation.load(Ordering::SeqCst) == generation
        {
            *slot = Some(compiled.clone());
        }
        Ok(compiled)
    }
}

/// Parses a JSON object of lists by locale as stored; a malformed one reads as empty.
pub fn words_by_locale(json: &str) -> BTreeMap<String, Vec<String>> {
    serde_json::from_str(json).unwrap_or_default()
}

/// The catalogue as the linker reads it: tokens with their aliases, tags with their names and
/// keywords, topics with their titles and keywords, KOLs.
pub async fn catalogue(db: &impl ConnectionTrait) -> AppResult<Catalogue> {
    let tokens = token::Entity::find().all(db).await?;
    let tags = tag::Entity::find().all(db).await?;
    let topics = topic::Entity::find().all(db).await?;
    let kols = kol::Entity::find().all(db).await?;
    // A tag's or topic's names in each language say it as well as its keywords do.
    let keywords = |names: &str, keywords: &str| {
        let mut words = words_by_locale(keywords);
        let names: BTreeMap<String, String> = serde_json::from_str(names).unwrap_or_default();
        for (locale, name) in names {
            words.entry(locale).or_default().push(name);
        }
        words
    };
    Ok(Catalogue {
        tokens: tokens
            .into_iter()
            .map(|t| TokenEntry {
                id: t.id,
                aliases: words_by_locale(&t.aliases),
                symbol: t.symbol,
                name: t.name,
                ambiguous: t.ambiguous,
            })
            .collect(),
        tags: tags
            .into_iter()
            .map(|t| KeywordEntry {
                id: t.id,
                // A token's tag is named by the token, not by its own names (linked with it).
                keywords: if t.token_id.is_some() {
                    words_by_locale(&t.keywords)
                } else {
                    keywords(&t.names, &t.keywords)
                },
                code: t.code,
                token: t.token_id,
            })
            .collect(),
        topics: topics
            .into_iter()
            .map(|t| KeywordEntry {
                id: t.id,
                keywords: keywords(&t.titles, &t.keywords),
                code: t.code,
                token: None,
            })
            .collect(),
        kols: kols
            .into_iter()
            .map(|k| KolEntry {
                id: k.id,
                handle: k.handle,
                name: k.name,
            })
            .collect(),
    })
}

/// Cursors above this mean "start from the newest": no item id comes near it.
const FRESH_START: i64 = i64::MAX - (1 << 32);

/// Marks the last [`RELINK_DAYS`] of items to be linked again, from the newest (in the
/// transaction that changed the catalogue, so a crash cannot lose it). Each mark is a start
/// value of its own, one below the last while a run has not moved on, so a run that began before
/// this change cannot take it for its own start and move past it.
pub async fn mark_relink_due(db: &impl ConnectionTrait) -> AppResult<()> {
    lease::Entity::insert(lease::ActiveModel {
        name: Set(RELINK_LEASE.to_owned()),
        holder: Set(String::new()),
        expires_at: Set(0),
        cursor: Set(i64::MAX),
    })
    .on_conflict(
        OnConflict::column(lease::Column::Name)
            .value(
                lease::Column::Cursor,
                Expr::cust(format!(
                    "CASE WHEN leases.cursor > {FRESH_START} THEN leases.cursor - 1 ELSE {} END",
                    i64::MAX
                )),
            )
            .to_owned(),
    )
    .exec_without_returning(db)
    .await?;
    Ok(())
}
