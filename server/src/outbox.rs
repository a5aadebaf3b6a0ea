//! Work that must not be lost, written by the request that causes it, in its transaction: bot
//! deliveries (`fanout`, sent by the bots' senders) and mail.
//!
//! Mail that must not be lost: written to `mail_outbox` by the request that causes it, before
//! that request is answered, then sent by a job every server runs. A server takes a due mail by
//! moving its `due_at` forward in one conditional UPDATE, so two servers never send one mail at
//! once, and a mail taken by a server that dies is due again after [`CLAIM`]. A failed send is
//! tried again with backoff, [`MAX_ATTEMPTS`] times in all.

pub mod fanout;

use std::time::Duration;

use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set,
};

use crate::ctx::Ctx;
use crate::entity::mail_outbox;
use crate::error::{AppError, AppResult};
use crate::mail::Mailer;

/// How long a taken mail is left to the server sending it.
const CLAIM: i64 = 120;
const MAX_ATTEMPTS: i32 = 8;
/// Between two looks at the outbox on one server.
const EVERY: Duration = Duration::from_secs(5);
/// The warning that an address's sign-in code was guessed wrong ten times.
const GUESS_ALERT: &str = "otp_guessed";

/// Queues the warning to `to` that someone got its sign-in code wrong ten times.
pub async fn enqueue_guess_alert(ctx: &Ctx, to: &str, locale: &str) -> AppResult<()> {
    let now = ctx.now();
    mail_outbox::ActiveModel {
        recipient: Set(to.to_owned()),
        template: Set(GUESS_ALERT.to_owned()),
        locale: Set(locale.to_owned()),
        created_at: Set(now),
        due_at: Set(now),
        attempts: Set(0),
        sent_at: Set(None),
        ..Default::default()
    }
    .insert(&ctx.db)
    .await?;
    Ok(())
}

/// Sends every mail that is due; returns how many were sent.
pub async fn deliver_due(ctx: &Ctx, mailer: &Mailer) -> AppResult<usize> {
    let now = ctx.now();
    let due = mail_outbox::Entity::find()
        .filter(mail_outbox::Column::SentAt.is_null())
        .filter(mail_outbox::Column::DueAt.lte(now))
        .order_by_asc(mail_outbox::Column::Id)
        .limit(50)
        .all(&ctx.db)
        .await?;
    let mut sent = 0;
    for mail in due {
        let taken = mail_outbox::Entity::update_many()
            .col_expr(mail_outbox::Column::DueAt, Expr::value(now + CLAIM))
            .filter(mail_outbox::Column::Id.eq(mail.id))
            .filter(mail_outbox::Column::DueAt.eq(mail.due_at))
            .filter(mail_outbox::Column::SentAt.is_null())
            .exec(&ctx.db)
            .await?;
        if taken.rows_affected == 0 {
            continue; // Another server took it.
        }
        let outcome = match mail.template.as_str() {
            GUESS_ALERT => mailer
                .send_guess_alert(&mail.recipient, &mail.locale)
                .await
                .map_err(AppError::internal),
            other => Err(AppError::internal(format!("unknown mail template {other}"))),
        };
        let attempts = mail.attempts + 1;
        let mut row = mail_outbox::ActiveModel {
            id: Set(mail.id),
            attempts: Set(attempts),
            ..Default::default()
        };
        match outcome {
            Ok(()) => {
                row.sent_at = Set(Some(ctx.now()));
                sent += 1;
            }
            Err(e) => {
                tracing::warn!(
                    "mail {} to {}: attempt {attempts}: {e:?}",
                    mail.id,
                    mail.recipient
                );
                // 1, 2, 4, … minutes; after the last attempt it is never due again.
                row.due_at = Set(if attempts >= MAX_ATTEMPTS {
                    i64::MAX
                } else {
                    ctx.now() + 60 * (1 << (attempts - 1))
                });
            }
        }
        row.update(&ctx.db).await?;
    }
    Ok(sent)
}

/// Looks at the outbox every few seconds for as long as the server runs.
pub fn spawn(ctx: Ctx, mailer: Mailer) {
    tokio::spawn(async move {
        loop {
            if let Err(e) = deliver_due(&ctx, &mailer).await {
                tracing::warn!("outbox: {e:?}");
            }
            tokio::time::sleep(EVERY).await;
        }
    });
}
