//! Feeds for feed readers: the newest items of the news, the important news, a tag, a token or
//! a channel, in one language (translated where a translation exists), as RSS 2.0 (the `rss`
//! crate) or Atom 1.0 (`atom_syndication`). Paths are client-core's `syndication::feed_path`.

use chrono::{DateTime, FixedOffset, Utc};
use client_core::feed::NEWS_KINDS;
use client_core::locale::locale_path;
use client_core::syndication::{FEED_SUBJECTS, NEWS_FEEDS};

use super::catalogue::{self, TagKey};
use super::feeds::{self, FeedView, Filter, Reading, Scope};
use crate::ctx::Ctx;
use crate::error::{AppError, AppResult};
use crate::i18n::t;

/// Items in a feed: what readers poll for, newest first.
pub const FEED_ITEMS: u64 = 50;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Rss,
    Atom,
}

impl Format {
    /// A feed's file name split into its stem and format (`btc.xml`, `news.atom`).
    pub fn split(file: &str) -> Option<(&str, Self)> {
        let (stem, ext) = file.rsplit_once('.')?;
        let format = match ext {
            "xml" => Self::Rss,
            "atom" => Self::Atom,
            _ => return None,
        };
        (!stem.is_empty()).then_some((stem, format))
    }

    pub fn content_type(self) -> &'static str {
        match self {
            Self::Rss => "application/rss+xml; charset=utf-8",
            Self::Atom => "application/atom+xml; charset=utf-8",
        }
    }
}

/// What a feed is about: the file name under `/rss/{locale}/` or `/rss/{locale}/{kind}/`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subject {
    News,
    Important,
    Tag(String),
    Token(String),
    Channel(String),
}

impl Subject {
    /// `kind` and `name` as client-core's `feed_path` takes them (`None` and one of `NEWS_FEEDS`,
    /// or one of `FEED_SUBJECTS` and a code).
    pub fn parse(kind: Option<&str>, name: &str) -> Option<Self> {
        let [news, important] = NEWS_FEEDS;
        let [tag, token, channel] = FEED_SUBJECTS;
        Some(match kind {
            None if name == news => Self::News,
            None if name == important => Self::Important,
            Some(k) if k == tag => Self::Tag(name.to_owned()),
            Some(k) if k == token => Self::Token(name.to_owned()),
            Some(k) if k == channel => Self::Channel(name.to_owned()),
            _ => return None,
        })
    }

    /// This feed's path in `locale`, by client-core's `feed_path`.
    pub fn path(&self, locale: &str, format: Format) -> String {
        let (kind, name) = self.path_parts();
        client_core::syndication::feed_path(locale, kind, name, format == Format::Atom)
    }

    /// The inverse of `parse`.
    fn path_parts(&self) -> (Option<&'static str>, &str) {
        let [news, important] = NEWS_FEEDS;
        let [tag, token, channel] = FEED_SUBJECTS;
        match self {
            Self::News => (None, news),
            Self::Important => (None, important),
            Self::Tag(code) => (Some(tag), code),
            Self::Token(symbol) => (Some(token), symbol),
            Self::Channel(code) => (Some(channel), code),
        }
    }
}

/// A feed as sent: its text, and when its newest item changed (`Last-Modified`).
pub struct Built {
    pub body: String,
    pub last_modified: i64,
}

/// The feed of `subject` in `locale`: `NotFound` for a tag, token or channel that does not
/// exist.
pub async fn build(
    ctx: &Ctx,
    locale: &'static str,
    subject: &Subject,
    format: Format,
) -> AppResult<Built> {
    let site = t(locale, "head.name", &[]);
    let news = Scope::Kinds(NEWS_KINDS);
    let (scope, important, name, page) = match subject {
        Subject::News => (news, false, t(locale, "feeds.news", &[]), "/".to_owned()),
        Subject::Important => (
            news,
            true,
            t(locale, "feeds.important", &[]),
            "/".to_owned(),
        ),
        Subject::Tag(code) => {
            let key = TagKey::Code { code: code.clone() };
            let tag = catalogue::tag(ctx, &key, locale).await?;
            let page = format!("/tag/{}", tag.code);
            (
                Scope::Linked("tag", tag.id),
                false,
                format!("#{}", tag.name),
                page,
            )
        }
        Subject::Token(symbol) => {
            let token = catalogue::token(ctx, symbol).await?;
            let name = format!("{} ({})", token.name, token.symbol);
            let page = format!("/token/{}", token.symbol);
            (Scope::Linked("token", token.id), false, name, page)
        }
        Subject::Channel(code) => {
            let channel = catalogue::channel(ctx, code, locale).await?;
            let page = format!("/channel/{}", channel.code);
            (Scope::Channel(channel.id), false, channel.name, page)
        }
    };
    let filter = Filter {
        only_important: important,
        ..Filter::default()
    };
    let reading = Reading {
        locale,
        translate: true,
    };
    let items = feeds::page(ctx, &scope, &filter, None, FEED_ITEMS, reading)
        .await?
        .list;
    let base = ctx.public_url();
    let feed = Feed {
        title: format!("{name} - {site}"),
        description: t(locale, "head.description", &[]),
        locale,
        page_url: format!("{base}{}", locale_path(locale, &page)),
        self_url: format!("{base}{}", subject.path(locale, format)),
        base,
        last_modified: items.iter().map(|i| i.published_at).max().unwrap_or(0),
        items: &items,
    };
    let body = match format {
        Format::Rss => feed.rss(),
        Format::Atom => feed.atom(),
    };
    // Imported items were never read through a request body: what XML forbids goes here too.
    let body = client_core::text::clean(&body).into_owned();
    Ok(Built {
        body,
        last_modified: feed.last_modified,
    })
}

struct Feed<'a> {
    title: String,
    description: String,
    locale: &'static str,
    page_url: String,
    self_url: String,
    base: &'a str,
    last_modified: i64,
    items: &'a [FeedView],
}

fn date(seconds: i64) -> DateTime<FixedOffset> {
    DateTime::<Utc>::from_timestamp(seconds, 0)
        .unwrap_or_default()
        .fixed_offset()
}

impl Feed<'_> {
    /// Where an item is read in the app, in the feed's language.
    fn item_url(&self, item: &FeedView) -> String {
        let path = locale_path(self.locale, &format!("/feed/{}", item.id));
        format!("{}{path}", self.base)
    }

    /// Who wrote an item: its KOL, its reader, or its source.
    fn author(item: &FeedView) -> String {
        match (&item.author, &item.user) {
            (Some(kol), _) => kol.name.clone(),
            (None, Some(user)) => user.nickname.clone(),
            (None, None) => item.source_name.clone(),
        }
    }

    fn rss(&self) -> String {
        let items = self
            .items
            .iter()
            .map(|item| {
                let url = self.item_url(item);
                rss::Item {
                    title: Some(item.title.clone()),
                    link: Some(url.clone()),
                    description: Some(item.summary.clone()).filter(|s| !s.is_empty()),
                    guid: Some(rss::Guid {
                        value: url,
                        permalink: true,
                    }),
                    pub_date: Some(date(item.published_at).to_rfc2822()),
                    categories: item
                        .tags
                        .iter()
                        .map(|tag| rss::Category {
                            name: tag.name.clone(),
                            domain: None,
                        })
                        .collect(),
                    dublin_core_ext: Some(rss::extension::dublincore::DublinCoreExtension {
                        creators: vec![Self::author(item)],
                        ..Default::default()
                    }),
                    ..Default::default()
                }
            })
            .collect();
        let channel = rss::Channel {
            title: self.title.clone(),
            link: self.page_url.clone(),
            description: self.description.clone(),
            language: Some(self.locale.to_owned()),
            last_build_date: Some(date(self.last_modified).to_rfc2822()),
            items,
            atom_ext: Some(rss::extension::atom::AtomExtension {
                links: vec![rss::extension::atom::Link {
                    href: self.self_url.clone(),
                    rel: "self".to_owned(),
                    mime_type: Some("application/rss+xml".to_owned()),
                    ..Default::default()
                }],
            }),
            ..Default::default()
        };
        channel.to_string()
    }

    fn atom(&self) -> String {
        use atom_syndication::{Category, Entry, Feed, Link, Person, Text};
        let link = |href: &str, rel: &str, mime: Option<&str>| Link {
            href: href.to_owned(),
            rel: rel.to_owned(),
            mime_type: mime.map(str::to_owned),
            hreflang: Some(self.locale.to_owned()),
            ..Default::default()
        };
        let entries = self
            .items
            .iter()
            .map(|item| {
                let url = self.item_url(item);
                Entry {
                    title: Text::plain(item.title.clone()),
                    id: url.clone(),
                    updated: date(item.published_at),
                    published: Some(date(item.published_at)),
                    links: vec![link(&url, "alternate", Some("text/html"))],
                    summary: Some(Text::plain(item.summary.clone()))
                        .filter(|s| !s.value.is_empty()),
                    authors: vec![Person {
                        name: Self::author(item),
                        ..Default::default()
                    }],
                    categories: item
                        .tags
                        .iter()
                        .map(|tag| Category {
                            term: tag.code.clone(),
                            label: Some(tag.name.clone()),
                            ..Default::default()
                        })
                        .collect(),
                    ..Default::default()
                }
            })
            .collect();
        let feed = Feed {
            title: Text::plain(self.title.clone()),
            id: self.self_url.clone(),
            updated: date(self.last_modified),
            subtitle: Some(Text::plain(self.description.clone())),
            lang: Some(self.locale.to_owned()),
            links: vec![
                link(&self.page_url, "alternate", Some("text/html")),
                link(&self.self_url, "self", Some("application/atom+xml")),
            ],
            entries,
            ..Default::default()
        };
        feed.to_string()
    }
}

/// A feed's path for a request: `NotFound` for anything that is not one.
pub fn subject_of(kind: Option<&str>, file: &str) -> AppResult<(Subject, Format)> {
    let not_found = || AppError::not_found("No such feed");
    let (stem, format) = Format::split(file).ok_or_else(not_found)?;
    let subject = Subject::parse(kind, stem).ok_or_else(not_found)?;
    Ok((subject, format))
}
