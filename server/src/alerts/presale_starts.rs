//! Presales a reader follows: when one starts, a notification to their browsers, once (the
//! follow is marked told; a server that dies before marking tells again, never not at all).

use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};

use super::Alerts;
use super::push::{Notice, Urgency, browsers};
use crate::ctx::Ctx;
use crate::entity::{presale, presale_follow, user};
use crate::error::AppResult;
use crate::i18n::t;

const AT_ONCE: u64 = 200;

/// Tells the followers of presales that have started; gives how many were told.
pub async fn tell(ctx: &Ctx, alerts: &Alerts) -> AppResult<usize> {
    let now = ctx.now();
    let started: Vec<presale::Model> = presale::Entity::find()
        .filter(presale::Column::StartsAt.lte(now))
        .filter(presale::Column::EndsAt.gt(now))
        .all(&ctx.db)
        .await?;
    let mut told = 0;
    for sale in started {
        let waiting = presale_follow::Entity::find()
            .filter(presale_follow::Column::PresaleId.eq(sale.id))
            .filter(presale_follow::Column::ToldAt.is_null())
            .order_by_asc(presale_follow::Column::Id)
            .limit(AT_ONCE)
            .all(&ctx.db)
            .await?;
        for follow in waiting {
            let locale = user::Entity::find_by_id(follow.user_id)
                .one(&ctx.db)
                .await?
                .map_or_else(|| "en".to_owned(), |u| u.locale);
            let notice = Notice {
                title: t(
                    &locale,
                    "push.presaleStarted",
                    &[("project", &sale.project)],
                ),
                body: format!("{} · ${}", sale.project, sale.symbol),
                url: format!("{}/{locale}/presales", ctx.public_url()),
                feed_id: None,
            };
            for browser in &browsers(ctx, follow.user_id).await? {
                alerts
                    .pusher
                    .send(ctx, browser, &notice, Urgency::High)
                    .await?;
            }
            presale_follow::Entity::update_many()
                .col_expr(presale_follow::Column::ToldAt, Expr::value(now))
                .filter(presale_follow::Column::Id.eq(follow.id))
                .exec(&ctx.db)
                .await?;
            told += 1;
        }
    }
    Ok(told)
}
