//! Feedback: stored with who sent it (user, guest or neither) and only images this server issued.

use client_core::feedback::FeedbackForm;
use sea_orm::{ActiveModelTrait, EntityTrait, QueryOrder, QuerySelect, Set};

use crate::ctx::Ctx;
use crate::entity::feedback;
use crate::error::AppResult;
use crate::extract::Caller;
use crate::limits;
use crate::points::tasks::{Source, record_event};

pub async fn create(
    ctx: &Ctx,
    caller: &Caller,
    ip: &str,
    locale: &str,
    form: FeedbackForm,
) -> AppResult<i64> {
    crate::uploads::attach_issued(ctx, &form.images, None).await?;
    // Each limit is checked and counted in one statement, so servers racing cannot pass it.
    limits::spend(ctx, limits::FEEDBACK_PER_CLIENT, ip).await?;
    let sender = match (caller.user_id(), caller.guest_id) {
        (Some(user), _) => Some(format!("u:{user}")),
        (None, Some(guest)) => Some(format!("g:{guest}")),
        (None, None) => None,
    };
    if let Some(sender) = &sender
        && let Err(e) = limits::spend(ctx, limits::FEEDBACK_PER_SENDER, sender).await
    {
        limits::refund(ctx, limits::FEEDBACK_PER_CLIENT, ip).await?;
        return Err(e);
    }
    let now = ctx.now();
    let saved = feedback::ActiveModel {
        kind: Set(form.kind),
        content: Set(form.content),
        contact: Set(form.contact.unwrap_or_default()),
        images: Set(serde_json::to_string(&form.images).unwrap_or_else(|_| "[]".to_owned())),
        user_id: Set(caller.user_id()),
        guest_id: Set(caller.guest_id),
        ip: Set(ip.to_owned()),
        locale: Set(locale.to_owned()),
        created_at: Set(now),
        ..Default::default()
    }
    .insert(&ctx.db)
    .await?;
    if let Some(user_id) = caller.user_id() {
        record_event(ctx, user_id, "create_feedback", Source::Server).await?;
    }
    Ok(saved.id)
}

/// The newest feedback first, for the team (`blockbrief feedback`).
pub async fn recent(
    db: &sea_orm::DatabaseConnection,
    limit: u64,
) -> Result<Vec<feedback::Model>, sea_orm::DbErr> {
    feedback::Entity::find()
        .order_by_desc(feedback::Column::Id)
        .limit(limit)
        .all(db)
        .await
}

/// One feedback as the team reads it in a terminal.
pub fn describe(f: &feedback::Model) -> String {
    let who = match (f.user_id, f.guest_id) {
        (Some(user), _) => format!("user {user}"),
        (None, Some(guest)) => format!("guest {guest}"),
        (None, None) => "anonymous".to_owned(),
    };
    let images: Vec<String> = serde_json::from_str(&f.images).unwrap_or_default();
    let mut out = format!(
        "#{} [{}] {} · {} · {} · ip {}\n  {}",
        f.id,
        f.kind,
        crate::time::utc_date(f.created_at),
        who,
        f.locale,
        f.ip,
        f.content.replace('\n', "\n  ")
    );
    if !f.contact.is_empty() {
        out.push_str(&format!("\n  contact: {}", f.contact));
    }
    for image in images {
        out.push_str(&format!("\n  image: {image}"));
    }
    out
}
