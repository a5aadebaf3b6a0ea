//! One-time-code mail: over SMTP (lettre) when SMTP_URL is set, otherwise written to the log so a
//! machine with no mail server still works (`make run`).

use client_core::constants::OTP_TTL_SECONDS;
use lettre::message::{Mailbox, MultiPart};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use crate::i18n::t;

#[derive(Clone)]
pub enum Mailer {
    Log,
    Smtp {
        transport: AsyncSmtpTransport<Tokio1Executor>,
        from: Mailbox,
    },
}

#[derive(Debug, thiserror::Error)]
pub enum MailError {
    #[error("invalid mail setting: {0}")]
    Config(String),
    #[error("building the message: {0}")]
    Build(String),
    #[error("sending over SMTP: {0}")]
    Send(#[from] lettre::transport::smtp::Error),
}

impl Mailer {
    pub fn from_settings(smtp_url: Option<&str>, from: &str) -> Result<Self, MailError> {
        let Some(url) = smtp_url else {
            return Ok(Self::Log);
        };
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
            .map_err(|e| MailError::Config(format!("SMTP_URL: {e}")))?
            .build();
        let from = from
            .parse()
            .map_err(|e| MailError::Config(format!("MAIL_FROM: {e}")))?;
        Ok(Self::Smtp { transport, from })
    }

    pub async fn send_code(&self, to: &str, code: &str, locale: &str) -> Result<(), MailError> {
        if matches!(self, Self::Log) {
            tracing::info!(target: "otp", "one-time code for {to}: {code} (SMTP_URL is not set)");
            return Ok(());
        }
        let minutes = (OTP_TTL_SECONDS / 60).to_string();
        let vars = [("code", code), ("minutes", minutes.as_str())];
        let [intro, expiry, ignore] =
            ["mail.otp.intro", "mail.otp.expiry", "mail.otp.ignore"].map(|k| t(locale, k, &vars));
        let mail = Mail {
            subject: t(locale, "mail.otp.subject", &vars),
            before: vec![intro],
            code: Some(code),
            after: vec![expiry, ignore],
        };
        self.send(to, locale, mail).await
    }

    /// Tells the owner of `to` that its sign-in code was guessed wrong ten times (`outbox`).
    pub async fn send_guess_alert(&self, to: &str, locale: &str) -> Result<(), MailError> {
        if matches!(self, Self::Log) {
            tracing::warn!(target: "otp", "sign-in code for {to} guessed wrong ten times (SMTP_URL is not set)");
            return Ok(());
        }
        let mail = Mail {
            subject: t(locale, "mail.guessed.subject", &[]),
            before: ["mail.guessed.intro", "mail.guessed.advice"]
                .map(|k| t(locale, k, &[]))
                .to_vec(),
            code: None,
            after: Vec::new(),
        };
        self.send(to, locale, mail).await
    }

    /// Sends `mail` as plain text and HTML alternatives.
    async fn send(&self, to: &str, locale: &str, mail: Mail<'_>) -> Result<(), MailError> {
        let Self::Smtp { transport, from } = self else {
            return Ok(());
        };
        let code_text = mail.code.map(|c| format!("    {c}")).into_iter();
        let text = mail
            .before
            .iter()
            .cloned()
            .chain(code_text)
            .chain(mail.after.iter().cloned())
            .collect::<Vec<_>>()
            .join("\n\n")
            + "\n";
        let paragraph = |p: &String| format!("<p>{}</p>", escape(p));
        let html = format!(
            "<!doctype html><html lang=\"{lang}\"><body style=\"font-family:Manrope,Arial,sans-serif;color:#111\">\
             {before}{code}{after}</body></html>",
            lang = escape(locale),
            before = mail.before.iter().map(paragraph).collect::<String>(),
            code = mail.code.map_or(String::new(), |c| format!(
                "<p style=\"font-size:28px;font-weight:700;letter-spacing:6px\">{}</p>",
                escape(c)
            )),
            after = mail.after.iter().map(paragraph).collect::<String>(),
        );
        let to: Mailbox = to
            .parse()
            .map_err(|e| MailError::Build(format!("recipient: {e}")))?;
        let message = Message::builder()
            .from(from.clone())
            .to(to)
            .subject(mail.subject)
            .multipart(MultiPart::alternative_plain_html(text, html))
            .map_err(|e| MailError::Build(e.to_string()))?;
        transport.send(message).await?;
        Ok(())
    }
}

/// One mail: paragraphs, and a code shown large between them.
struct Mail<'a> {
    subject: String,
    before: Vec<String>,
    code: Option<&'a str>,
    after: Vec<String>,
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
