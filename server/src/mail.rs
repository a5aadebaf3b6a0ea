//! One-time-code mail: over SMTP (lettre) when SMTP_URL is set, otherwise written to the log so a
//! machine with no mail server still works (`make run`).

use client_core::constants::OTP_TTL_SECONDS;
use lettre::message::{Mailbox, MultiPart};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use crate::i18n::t;

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
        let Self::Smtp { transport, from } = self else {
            tracing::info!(target: "otp", "one-time code for {to}: {code} (SMTP_URL is not set)");
            return Ok(());
        };
        let minutes = (OTP_TTL_SECONDS / 60).to_string();
        let vars = [("code", code), ("minutes", minutes.as_str())];
        let subject = t(locale, "mail.otp.subject", &vars);
        let lines =
            ["mail.otp.intro", "mail.otp.expiry", "mail.otp.ignore"].map(|k| t(locale, k, &vars));
        let text = format!(
            "{}\n\n    {code}\n\n{}\n\n{}\n",
            lines[0], lines[1], lines[2]
        );
        let html = format!(
            "<!doctype html><html lang=\"{lang}\"><body style=\"font-family:Manrope,Arial,sans-serif;color:#111\">\
             <p>{intro}</p><p style=\"font-size:28px;font-weight:700;letter-spacing:6px\">{code}</p>\
             <p>{expiry}</p><p style=\"color:#666\">{ignore}</p></body></html>",
            lang = escape(locale),
            intro = escape(&lines[0]),
            code = escape(code),
            expiry = escape(&lines[1]),
            ignore = escape(&lines[2]),
        );
        let to: Mailbox = to
            .parse()
            .map_err(|e| MailError::Build(format!("recipient: {e}")))?;
        let message = Message::builder()
            .from(from.clone())
            .to(to)
            .subject(subject)
            .multipart(MultiPart::alternative_plain_html(text, html))
            .map_err(|e| MailError::Build(e.to_string()))?;
        transport.send(message).await?;
        Ok(())
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
