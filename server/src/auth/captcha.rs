//! Server-side reCAPTCHA verification against the configured siteverify URL.

use client_core::envelope::ErrorKind;
use serde::Deserialize;

use crate::auth::Auth;
use crate::config::CaptchaMode;
use crate::error::{AppError, AppResult};

/// reCAPTCHA v3 scores below this are treated as bots.
pub const MIN_V3_SCORE: f64 = 0.5;

/// Actions the client names when it runs the captcha.
pub const ACTIONS: [&str; 3] = ["otpemail", "otpsms", LOGIN_ACTION];
/// Signing in with a code while the code guard is up (`auth::otp`).
pub const LOGIN_ACTION: &str = "otplogin";

#[derive(Debug, Deserialize)]
struct SiteVerify {
    success: bool,
    #[serde(default)]
    score: Option<f64>,
    #[serde(default)]
    action: Option<String>,
    #[serde(default)]
    hostname: Option<String>,
}

/// Checks a captcha answer for `action`; passes at once when the captcha is off.
pub async fn verify(auth: &Auth, action: &str, token: Option<&str>, ip: &str) -> AppResult<()> {
    let mode = auth.config.captcha;
    if mode == CaptchaMode::None {
        return Ok(());
    }
    let token = token
        .map(str::trim)
        .filter(|t| !t.is_empty() && t.len() <= 4096);
    let token = token.ok_or_else(|| AppError::new(ErrorKind::CaptchaFailed))?;
    let response = auth
        .http
        .post(&auth.config.recaptcha_verify_url)
        .form(&[
            ("secret", auth.config.recaptcha_secret.as_str()),
            ("response", token),
            ("remoteip", ip),
        ])
        .send()
        .await
        .map_err(|e| AppError::new(ErrorKind::Unavailable).with_source(e))?;
    let answer: SiteVerify = response
        .json()
        .await
        .map_err(|e| AppError::new(ErrorKind::Unavailable).with_source(e))?;
    let host_ok = answer.hostname.as_deref() == Some(auth.config.captcha_hostname().as_str());
    let passed = answer.success
        && host_ok
        && match mode {
            CaptchaMode::V3 => {
                answer.action.as_deref() == Some(action)
                    && answer.score.is_some_and(|s| s >= MIN_V3_SCORE)
            }
            CaptchaMode::V2 | CaptchaMode::None => true,
        };
    if passed {
        Ok(())
    } else {
        Err(AppError::new(ErrorKind::CaptchaFailed))
    }
}
