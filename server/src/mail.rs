//! Mail: one-time codes and readers' daily alerts, over SMTP (lettre) when SMTP_URL is set,
//! otherwise written to the log so a machine with no mail server still works (`make run`).

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

    /// A short notice (a price alert): its subject and paragraphs.
    pub async fn send_notice(
        &self,
        to: &str,
        locale: &str,
        subject: &str,
        paragraphs: &[String],
    ) -> Result<(), MailError> {
        if matches!(self, Self::Log) {
            tracing::info!(target: "mail", "notice for {to}: {subject} (SMTP_URL is not set)");
            return Ok(());
        }
        let mail = Mail {
            subject: subject.to_owned(),
            before: paragraphs.to_vec(),
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
        let message = addressed(from, to, &mail.subject)?
            .multipart(MultiPart::alternative_plain_html(text, html))
            .map_err(|e| MailError::Build(e.to_string()))?;
        transport.send(message).await?;
        Ok(())
    }
}

/// The day's alerts for one reader, grouped by the alert that matched them.
pub struct Digest {
    pub subject: String,
    pub intro: String,
    /// Each alert's name and its items' titles and addresses.
    pub groups: Vec<(String, Vec<(String, String)>)>,
    pub unsubscribe_text: String,
    /// Where one click (RFC 8058) or a press on the link stops these emails, without signing in.
    pub unsubscribe_url: String,
}

/// `List-Unsubscribe: <url>` (RFC 2369).
#[derive(Clone)]
struct ListUnsubscribe(String);

impl lettre::message::header::Header for ListUnsubscribe {
    fn name() -> lettre::message::header::HeaderName {
        lettre::message::header::HeaderName::new_from_ascii_str("List-Unsubscribe")
    }

    fn parse(s: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(Self(s.trim_matches(['<', '>']).to_owned()))
    }

    fn display(&self) -> lettre::message::header::HeaderValue {
        lettre::message::header::HeaderValue::new(Self::name(), format!("<{}>", self.0))
    }
}

/// `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058).
#[derive(Clone)]
struct OneClick;

impl lettre::message::header::Header for OneClick {
    fn name() -> lettre::message::header::HeaderName {
        lettre::message::header::HeaderName::new_from_ascii_str("List-Unsubscribe-Post")
    }

    fn parse(_: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(Self)
    }

    fn display(&self) -> lettre::message::header::HeaderValue {
        lettre::message::header::HeaderValue::new(
            Self::name(),
            "List-Unsubscribe=One-Click".to_owned(),
        )
    }
}

impl Mailer {
    /// Sends a reader's daily alerts, with one-click unsubscribe headers.
    pub async fn send_digest(
        &self,
        to: &str,
        locale: &str,
        digest: &Digest,
    ) -> Result<(), MailError> {
        let Self::Smtp { transport, from } = self else {
            tracing::info!(target: "alerts", "daily alerts for {to}: {} (SMTP_URL is not set)", digest.subject);
            return Ok(());
        };
        let mut text = format!("{}\n", digest.intro);
        let mut html = format!(
            "<!doctype html><html lang=\"{}\"><body style=\"font-family:Manrope,Arial,sans-serif;color:#111\"><p>{}</p>",
            escape(locale),
            escape(&digest.intro)
        );
        for (name, items) in &digest.groups {
            text += &format!("\n{name}\n");
            html += &format!("<h3>{}</h3><ul>", escape(name));
            for (title, url) in items {
                text += &format!("- {title}\n  {url}\n");
                html += &format!("<li><a href=\"{}\">{}</a></li>", escape(url), escape(title));
            }
            html += "</ul>";
        }
        text += &format!(
            "\n{}: {}\n",
            digest.unsubscribe_text, digest.unsubscribe_url
        );
        html += &format!(
            "<p style=\"font-size:12px;color:#555\"><a href=\"{}\">{}</a></p></body></html>",
            escape(&digest.unsubscribe_url),
            escape(&digest.unsubscribe_text)
        );
        let message = addressed(from, to, &digest.subject)?
            .header(ListUnsubscribe(digest.unsubscribe_url.clone()))
            .header(OneClick)
            .multipart(MultiPart::alternative_plain_html(text, html))
            .map_err(|e| MailError::Build(e.to_string()))?;
        transport.send(message).await?;
        Ok(())
    }
}

/// A message from us to `to` about `subject`, to fill in.
fn addressed(
    from: &Mailbox,
    to: &str,
    subject: &str,
) -> Result<lettre::message::MessageBuilder, MailError> {
    let to: Mailbox = to
        .parse()
        .map_err(|e| MailError::Build(format!("recipient: {e}")))?;
    Ok(Message::builder()
        .from(from.clone())
        .to(to)
        .subject(subject))
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
