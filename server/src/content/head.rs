//! The page head of the single-page app, written by the server: links shared to Telegram, Line or
//! Twitter are read by bots that run no JavaScript, so each route's title, description, social
//! card, canonical URL and language alternates are put into the HTML before it is sent.

use axum::http::StatusCode;
use client_core::envelope::ErrorKind;
use client_core::locale::{
    DEFAULT_LOCALE, LOCALES, LocaleSources, cut_description, locale_path, pick_locale,
    split_locale_path,
};
use client_core::pages::{OAUTH_CALLBACK_PATH, match_page};

use super::catalogue::{self, TagKey};
use super::feeds::{self, FeedDetail, Reading};
use super::syndication::{Format, Subject};
use crate::ctx::Ctx;
use crate::error::AppResult;
use crate::i18n::t;

/// What the head of one page says.
#[derive(Debug)]
pub struct Head {
    pub locale: &'static str,
    pub title: String,
    pub description: String,
    pub image: Option<String>,
    /// `og:type`: `article` for a feed, `website` otherwise.
    pub kind: &'static str,
    /// The path without its locale prefix (`/feed/12`).
    pub path: String,
    pub status: StatusCode,
    /// A feed page's item as a visitor reads it: the head is written from it, and so is the
    /// page's first paint (one read of the item for both).
    pub feed: Option<FeedDetail>,
    /// The page's own feed for feed readers (the news on the home page; a tag's, token's or
    /// channel's on theirs).
    pub syndication: Option<Subject>,
}

/// The head for a request path, in the locale client-core's rule picks from the path and what
/// the request says (`sources.path` is set here).
pub async fn for_path(ctx: &Ctx, path: &str, sources: LocaleSources) -> AppResult<Head> {
    let locale = pick_locale(&LocaleSources {
        path: Some(path.to_owned()),
        ..sources
    });
    let (_, rest) = split_locale_path(path);
    let site = t(locale, "head.name", &[]);
    let mut head = Head {
        locale,
        title: format!("{site} - {}", t(locale, "head.slogan", &[])),
        description: t(locale, "head.description", &[]),
        image: None,
        kind: "website",
        path: rest.clone(),
        status: StatusCode::OK,
        feed: None,
        syndication: None,
    };
    let titled = |head: &mut Head, title: &str, description: &str| {
        head.title = format!("{title} - {site}");
        if !description.is_empty() {
            head.description = cut_description(description);
        }
    };
    if rest == OAUTH_CALLBACK_PATH {
        return Ok(head);
    }
    let Some(page) = match_page(&rest) else {
        head.status = StatusCode::NOT_FOUND;
        return Ok(head);
    };
    let param = |name: &str| page.params.get(name).unwrap_or_default().to_owned();
    let number = |name: &str| param(name).parse::<i64>().ok();
    match page.pattern {
        "/" => head.syndication = Some(Subject::News),
        "/feed/:id" => {
            let reading = Reading {
                locale,
                translate: true,
            };
            let found = match number("id") {
                Some(id) => present(feeds::detail(ctx, id, reading).await)?,
                None => None,
            };
            match found {
                Some(detail) => {
                    titled(&mut head, &detail.item.title, &detail.item.summary);
                    head.kind = "article";
                    head.image = detail.item.images.first().cloned();
                    head.feed = Some(detail);
                }
                None => head.status = StatusCode::NOT_FOUND,
            }
        }
        "/benefit/:benefitId/*" => {
            let found = match number("benefitId") {
                Some(id) => present(catalogue::benefit(ctx, id, locale).await)?,
                None => None,
            };
            match found {
                Some(b) => titled(&mut head, &b.title, &format!("{} · {}", b.title, b.reward)),
                None => head.status = StatusCode::NOT_FOUND,
            }
        }
        "/channel/:code" => match present(catalogue::channel(ctx, &param("code"), locale).await)? {
            Some(c) => {
                titled(&mut head, &c.name, "");
                head.syndication = Some(Subject::Channel(c.code));
            }
            None => head.status = StatusCode::NOT_FOUND,
        },
        "/tag/:code" => {
            let key = TagKey::Code {
                code: param("code"),
            };
            match present(catalogue::tag(ctx, &key, locale).await)? {
                Some(tag) => {
                    titled(&mut head, &format!("#{}", tag.name), &tag.description);
                    head.syndication = Some(Subject::Tag(tag.code));
                }
                None => head.status = StatusCode::NOT_FOUND,
            }
        }
        "/token/:symbol" => match present(catalogue::token(ctx, &param("symbol")).await)? {
            Some(token) => {
                titled(
                    &mut head,
                    &format!("{} ({})", token.name, token.symbol),
                    &format!("{} · {}", token.name, token.chain),
                );
                head.syndication = Some(Subject::Token(token.symbol));
            }
            None => head.status = StatusCode::NOT_FOUND,
        },
        "/topic/:id" => {
            let found = match number("id") {
                Some(id) => present(catalogue::topic(ctx, id, locale).await)?,
                None => None,
            };
            match found {
                Some(topic) => titled(&mut head, &topic.title, &topic.description),
                None => head.status = StatusCode::NOT_FOUND,
            }
        }
        "/kol/:id" => {
            let found = match number("id") {
                Some(id) => present(catalogue::kol(ctx, id, locale).await)?,
                None => None,
            };
            match found {
                Some(kol) => titled(&mut head, &kol.name, &kol.bio),
                None => head.status = StatusCode::NOT_FOUND,
            }
        }
        _ => {}
    }
    Ok(head)
}

/// The catalogue's "no such row" as `None`; other errors stay errors.
fn present<T>(found: AppResult<T>) -> AppResult<Option<T>> {
    match found {
        Ok(row) => Ok(Some(row)),
        Err(e) if e.kind == ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

fn attr(s: &str) -> String {
    html_escape::encode_double_quoted_attribute(s).into_owned()
}

/// The site's settings the web reads from every page: where the app is downloaded from (the
/// download buttons, none for a store not configured), and whether this is a test build (the
/// banner saying so).
pub struct SiteMeta<'a> {
    pub app_store: Option<&'a str>,
    pub play_store: Option<&'a str>,
    pub test_build: bool,
}

/// `html` with the site's settings as meta tags before `</head>`.
pub fn with_site_meta(html: &str, site: &SiteMeta) -> String {
    let mut tags = String::new();
    for (name, store) in [
        ("app-store", site.app_store),
        ("play-store", site.play_store),
    ] {
        if let Some(url) = store {
            tags.push_str(&format!(
                r#"<meta name="blockbrief:{name}" content="{}">"#,
                attr(url)
            ));
        }
    }
    if site.test_build {
        tags.push_str(r#"<meta name="blockbrief:test-build" content="true">"#);
    }
    html.replacen("</head>", &format!("{tags}</head>"), 1)
}

/// `template` (the built `index.html`) with the head's tags: its `<title>` replaced, its `lang`
/// set, and the meta and link tags added before `</head>`.
pub fn render(template: &str, head: &Head, public_url: &str) -> String {
    let base = public_url.trim_end_matches('/');
    let url_for = |locale: &str| format!("{base}{}", locale_path(locale, &head.path));
    let canonical = url_for(head.locale);
    let mut tags = vec![
        format!(
            r#"<meta name="description" content="{}">"#,
            attr(&head.description)
        ),
        format!(
            r#"<meta name="keywords" content="{}">"#,
            attr(&t(head.locale, "head.keywords", &[]))
        ),
        format!(r#"<link rel="canonical" href="{}">"#, attr(&canonical)),
        format!(
            r#"<link rel="manifest" href="{}">"#,
            attr(&locale_path(head.locale, "/manifest.webmanifest"))
        ),
        format!(r#"<meta property="og:type" content="{}">"#, head.kind),
        format!(
            r#"<meta property="og:title" content="{}">"#,
            attr(&head.title)
        ),
        format!(
            r#"<meta property="og:description" content="{}">"#,
            attr(&head.description)
        ),
        format!(r#"<meta property="og:url" content="{}">"#, attr(&canonical)),
        format!(
            r#"<meta property="og:locale" content="{}">"#,
            head.locale.replace('-', "_")
        ),
        r#"<meta property="og:site_name" content="Blockbrief">"#.to_owned(),
        format!(
            r#"<meta name="twitter:card" content="{}">"#,
            if head.image.is_some() {
                "summary_large_image"
            } else {
                "summary"
            }
        ),
        format!(
            r#"<meta name="twitter:title" content="{}">"#,
            attr(&head.title)
        ),
        format!(
            r#"<meta name="twitter:description" content="{}">"#,
            attr(&head.description)
        ),
    ];
    if let Some(image) = &head.image {
        tags.push(format!(
            r#"<meta property="og:image" content="{}">"#,
            attr(image)
        ));
        tags.push(format!(
            r#"<meta name="twitter:image" content="{}">"#,
            attr(image)
        ));
    }
    for locale in LOCALES {
        tags.push(format!(
            r#"<link rel="alternate" hreflang="{locale}" href="{}">"#,
            attr(&url_for(locale))
        ));
    }
    tags.push(format!(
        r#"<link rel="alternate" hreflang="x-default" href="{}">"#,
        attr(&url_for(DEFAULT_LOCALE))
    ));
    if let Some(subject) = &head.syndication {
        for (format, mime) in [
            (Format::Rss, "application/rss+xml"),
            (Format::Atom, "application/atom+xml"),
        ] {
            let path = subject.path(head.locale, format);
            tags.push(format!(
                r#"<link rel="alternate" type="{mime}" title="{}" href="{}">"#,
                attr(&head.title),
                attr(&format!("{base}{path}"))
            ));
        }
    }
    let title = format!("<title>{}</title>", html_escape::encode_text(&head.title));
    let mut html = match (template.find("<title>"), template.find("</title>")) {
        (Some(start), Some(end)) if start < end => {
            format!(
                "{}{title}{}",
                &template[..start],
                &template[end + "</title>".len()..]
            )
        }
        _ => template.replacen("</head>", &format!("{title}</head>"), 1),
    };
    // As the app sets them (`applyLocale`), so it changes nothing and nothing is laid out again.
    let cjk = client_core::locale::uses_chinese_type(head.locale);
    html = html.replacen(
        "<html lang=\"en\"",
        &format!("<html lang=\"{}\" data-cjk=\"{cjk}\"", head.locale),
        1,
    );
    html = fonts_for(html, head.locale);
    html.replacen("</head>", &format!("{}\n</head>", tags.join("\n")), 1)
}

/// The built page preloads Manrope's Vietnamese faces between these marks (`web/vite.config.ts`):
/// a Vietnamese page keeps them, any other drops them (it would fetch letters it never shows).
const VI_FONTS: (&str, &str) = ("<!--vi-fonts-->", "<!--/vi-fonts-->");

fn fonts_for(html: String, locale: &str) -> String {
    let (start, end) = VI_FONTS;
    match (html.find(start), html.find(end)) {
        (Some(s), Some(e)) if s < e && locale != "vi" => {
            format!("{}{}", &html[..s], &html[e + end.len()..])
        }
        _ => html,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_vietnamese_page_preloads_the_vietnamese_faces() {
        let template = "<html lang=\"en\"><head><title>x</title><link href=\"/latin.woff2\">\
            <!--vi-fonts--><link href=\"/vi.woff2\"><!--/vi-fonts--></head><body></body></html>";
        let page = |locale: &'static str| {
            let head = Head {
                locale,
                title: "t".to_owned(),
                description: "d".to_owned(),
                image: None,
                kind: "website",
                path: "/".to_owned(),
                status: StatusCode::OK,
                feed: None,
                syndication: None,
            };
            render(template, &head, "https://blockbrief.news")
        };
        for locale in ["en", "zh-Hans", "zh-Hant", "ko"] {
            let html = page(locale);
            assert!(
                html.contains("/latin.woff2") && !html.contains("/vi.woff2"),
                "{locale}"
            );
        }
        assert!(page("vi").contains(r#"<link href="/vi.woff2">"#));
    }

    #[test]
    fn render_escapes_and_places_tags() {
        let head = Head {
            locale: "zh-Hant",
            title: "A \"quoted\" <b>title</b>".to_owned(),
            description: "d & e".to_owned(),
            image: None,
            kind: "article",
            path: "/feed/7".to_owned(),
            status: StatusCode::OK,
            feed: None,
            syndication: Some(Subject::Tag("btc".to_owned())),
        };
        let html = render(
            "<html lang=\"en\"><head><title>x</title></head><body></body></html>",
            &head,
            "https://blockbrief.news/",
        );
        assert!(html.starts_with("<html lang=\"zh-Hant\" data-cjk=\"true\">"));
        assert!(html.contains("<title>A \"quoted\" &lt;b&gt;title&lt;/b&gt;</title>"));
        assert!(
            html.contains(r#"og:title" content="A &quot;quoted&quot; &lt;b&gt;title&lt;/b&gt;""#)
        );
        assert!(
            html.contains(
                r#"<link rel="canonical" href="https://blockbrief.news/zh-Hant/feed/7">"#
            )
        );
        assert!(html.contains(r#"hreflang="x-default" href="https://blockbrief.news/feed/7""#));
        assert!(html.contains(r#"hreflang="en" href="https://blockbrief.news/feed/7""#));
        assert!(html.contains(r#"<meta name="description" content="d &amp; e">"#));
        assert_eq!(html.matches("<title>").count(), 1);
        assert!(html.contains(
            r#"<link rel="alternate" type="application/rss+xml" title="A &quot;quoted&quot; &lt;b&gt;title&lt;/b&gt;" href="https://blockbrief.news/rss/zh-Hant/tag/btc.xml">"#
        ));
        assert!(html.contains(
            r#"type="application/atom+xml" title="A &quot;quoted&quot; &lt;b&gt;title&lt;/b&gt;" href="https://blockbrief.news/rss/zh-Hant/tag/btc.atom">"#
        ));
    }
}
