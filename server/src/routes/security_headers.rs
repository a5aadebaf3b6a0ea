//! Browser-side protection on every response: a Content-Security-Policy that lets the app run
//! only its own scripts (and WebAssembly), the captcha's host only when a captcha is configured,
//! styles from our origin plus the stylesheet the build inlines into the shell (allowed by its
//! hash, so no other inline style applies), and nothing may frame the site; no MIME sniffing; referrers cut to the origin across sites;
//! HSTS when the site is served over https. A response that set its own policy keeps it (an
//! uploaded image is `default-src 'none'`). The build's hashed files (`/assets/…`: modules, wasm,
//! styles, fonts) carry no page policy: browsers apply one only to documents and workers (the
//! service worker is served from the root, with it), and its 420 bytes on each of the 27 files
//! the home page's first visit loaded were 11 KB of its transfer.

use axum::Router;
use axum::extract::Request;
use axum::http::{HeaderValue, header};
use axum::middleware::{self, Next};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use sha2::{Digest, Sha256};
use tower_http::set_header::SetResponseHeaderLayer;

use crate::config::{CaptchaMode, Config};
use crate::state::AppState;

/// Where Google's reCAPTCHA loads its script and shows its frames from.
const CAPTCHA_SCRIPTS: &str =
    "https://www.google.com/recaptcha/ https://www.gstatic.com/recaptcha/";
const CAPTCHA_FRAMES: &str =
    "https://www.google.com/recaptcha/ https://recaptcha.google.com/recaptcha/";

/// Where Telegram's Login Widget script comes from.
const TELEGRAM_WIDGET_SCRIPT: &str = "https://telegram.org/js/";

/// `'sha256-…'` of each `<style>` element in the app shell.
pub fn inline_style_hashes(shell: &str) -> Vec<String> {
    shell
        .split("<style>")
        .skip(1)
        .filter_map(|rest| rest.split_once("</style>"))
        .map(|(css, _)| {
            format!(
                "'sha256-{}'",
                STANDARD.encode(Sha256::digest(css.as_bytes()))
            )
        })
        .collect()
}

/// The page policy for these settings and the shell's inline stylesheets.
pub fn content_security_policy(config: &Config, style_hashes: &[String]) -> String {
    let captcha = config.captcha != CaptchaMode::None;
    let mut scripts = "'self' 'wasm-unsafe-eval'".to_owned();
    if captcha {
        scripts = format!("{scripts} {CAPTCHA_SCRIPTS}");
    }
    // Sign in with Telegram loads Telegram's Login Widget script.
    if config.telegram_bot_token.is_some() {
        scripts = format!("{scripts} {TELEGRAM_WIDGET_SCRIPT}");
    }
    // Sign in with Apple loads Apple's JS (from the configured origin).
    let apple_origin = reqwest::Url::parse(&config.apple_js_url)
        .ok()
        .map(|url| url.origin().ascii_serialization())
        .filter(|origin| origin != "null");
    if let (Some(_), Some(origin)) = (&config.apple_client_id, apple_origin) {
        scripts = format!("{scripts} {origin}");
    }
    let frames = if captcha { CAPTCHA_FRAMES } else { "'none'" };
    let styles = std::iter::once("'self'")
        .chain(style_hashes.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join(" ");
    // Feed images come from the publishers' own hosts, over https.
    format!(
        "default-src 'self'; script-src {scripts}; style-src {styles}; img-src 'self' data: https:; \
         connect-src 'self'; font-src 'self'; frame-src {frames}; object-src 'none'; \
         base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )
}

/// The headers above, as layers over `router`; `shell` is the app shell the pages are served in.
pub fn apply(router: Router<AppState>, config: &Config, shell: &str) -> Router<AppState> {
    let policy = content_security_policy(config, &inline_style_hashes(shell));
    // Built from our own constants and base64 hashes, so always a valid value; were it not,
    // the strictest policy is served rather than none.
    let policy = HeaderValue::from_str(&policy)
        .unwrap_or_else(|_| HeaderValue::from_static("default-src 'none'"));
    let mut headers = vec![
        (
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ),
        (
            header::REFERRER_POLICY,
            HeaderValue::from_static("strict-origin-when-cross-origin"),
        ),
    ];
    if config.public_url.starts_with("https://") {
        headers.push((
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static("max-age=31536000; includeSubDomains"),
        ));
    }
    let router = router.layer(middleware::from_fn(move |request: Request, next: Next| {
        let policy = policy.clone();
        async move {
            let build_file = request.uri().path().starts_with("/assets/");
            let mut response = next.run(request).await;
            if !build_file {
                response
                    .headers_mut()
                    .entry(header::CONTENT_SECURITY_POLICY)
                    .or_insert(policy);
            }
            response
        }
    }));
    headers.into_iter().fold(router, |router, (name, value)| {
        router.layer(SetResponseHeaderLayer::if_not_present(name, value))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_captcha_host_is_allowed_only_when_a_captcha_is_configured() {
        let mut config = Config::embedded("data".into());
        let without = content_security_policy(&config, &[]);
        assert!(
            without.contains("script-src 'self' 'wasm-unsafe-eval';"),
            "{without}"
        );
        assert!(without.contains("frame-src 'none'") && !without.contains("google"));
        config.captcha = CaptchaMode::V3;
        let with = content_security_policy(&config, &[]);
        assert!(
            with.contains("https://www.gstatic.com/recaptcha/"),
            "{with}"
        );
        assert!(!with.contains("telegram.org") && !with.contains("apple"));
        config.telegram_bot_token = Some("1:x".to_owned());
        let telegram = content_security_policy(&config, &[]);
        assert!(
            telegram.contains("script-src 'self' 'wasm-unsafe-eval' https://www.google.com/recaptcha/ https://www.gstatic.com/recaptcha/ https://telegram.org/js/;"),
            "{telegram}"
        );
        config.apple_client_id = Some("news.blockbrief.web".to_owned());
        let apple = content_security_policy(&config, &[]);
        assert!(
            apple.contains("https://telegram.org/js/ https://appleid.cdn-apple.com;"),
            "{apple}"
        );
        config.apple_client_id = None;
        let hashes = inline_style_hashes("<head><style>a{b:c}</style></head>");
        // printf 'a{b:c}' | openssl dgst -sha256 -binary | base64
        assert_eq!(
            hashes,
            ["'sha256-0cRUVYRKwNwnl1hkfkPGjkht16b039TjFdJzmXfFK2o='"]
        );
        let hashed = content_security_policy(&config, &hashes);
        assert!(
            hashed.contains(&format!("style-src 'self' {};", hashes[0])),
            "{hashed}"
        );
        for directive in [
            "object-src 'none'",
            "base-uri 'none'",
            "frame-ancestors 'none'",
        ] {
            assert!(
                with.contains(directive) && without.contains(directive),
                "{directive}"
            );
        }
    }
}
