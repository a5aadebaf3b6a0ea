//! One open stream: what its reader follows, and which deliveries become which of its events.

use std::collections::HashSet;

use axum::response::sse;
use client_core::feed::tab_kinds;
use client_core::stream::{Follows, StreamFilter, Subject, item_matches, threads};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QuerySelect};

use super::delivery::{Delivery, What};
use crate::content::feeds::Reading;
use crate::content::follows::{Target, followed, followed_ids};
use crate::ctx::Ctx;
use crate::entity::{block, tag, token};
use crate::error::AppResult;
use crate::social::messages;

pub struct Reader {
    ctx: Ctx,
    pub user: Option<i64>,
    reading: Reading,
    subjects: Vec<Subject>,
    filter: StreamFilter,
    threads: HashSet<i64>,
    /// People this reader blocked: their comments are never sent.
    blocked: HashSet<i64>,
}

/// What a stream was asked for.
pub struct Wanted {
    pub subjects: Vec<Subject>,
    /// The home tab `home` follows (checked by the caller against `FEED_TABS`).
    pub tab: &'static str,
    pub only_important: bool,
    pub langs: Option<Vec<&'static str>>,
}

impl Reader {
    pub async fn new(
        ctx: &Ctx,
        user: Option<i64>,
        reading: Reading,
        wanted: Wanted,
    ) -> AppResult<Self> {
        let home_follows = match (wanted.tab, user) {
            ("following", Some(user)) => Some(follows(ctx, user).await?),
            // A visitor follows nothing.
            ("following", None) => Some(Follows::default()),
            _ => None,
        };
        let blocked = match user {
            Some(user) => block::Entity::find()
                .filter(block::Column::UserId.eq(user))
                .all(&ctx.db)
                .await?
                .into_iter()
                .map(|b| b.blocked_id)
                .collect(),
            None => HashSet::new(),
        };
        let filter = StreamFilter {
            home_kinds: tab_kinds(wanted.tab)
                .flatten()
                .map(|kinds| kinds.iter().map(|k| (*k).to_owned()).collect()),
            home_follows,
            only_important: wanted.only_important,
            langs: wanted
                .langs
                .map(|langs| langs.into_iter().map(str::to_owned).collect()),
        };
        Ok(Self {
            ctx: ctx.clone(),
            user,
            reading,
            threads: threads(&wanted.subjects).collect(),
            subjects: wanted.subjects,
            filter,
            blocked,
        })
    }

    /// The event `delivery` is on this stream, if its reader follows it.
    pub async fn event(&self, delivery: &Delivery) -> Option<sse::Event> {
        let event = |name: &str, data: &str| {
            sse::Event::default()
                .id(delivery.id.to_string())
                .event(name)
                .data(data)
        };
        match &delivery.what {
            What::Item(item) => {
                if !item_matches(&self.subjects, &self.filter, &item.facts) {
                    return None;
                }
                let card = delivery.card(&self.ctx, self.reading).await?;
                Some(event("item", &card))
            }
            What::Removed(data) => Some(event("removed", data)),
            What::Counts { feed, data } => {
                self.threads.contains(feed).then(|| event("counts", data))
            }
            What::Comment { feed, author, data } => {
                let blocked = author.is_some_and(|a| self.blocked.contains(&a));
                (self.threads.contains(feed) && !blocked).then(|| event("comment", data))
            }
            What::Unread(who) => {
                let user = self.user.filter(|u| who.is_none_or(|w| w == *u))?;
                let count = messages::unread(&self.ctx, user).await.ok()?;
                Some(event("unread", &format!("{{\"count\":{count}}}")))
            }
        }
    }
}

/// What `user` follows, as subjects name it.
async fn follows(ctx: &Ctx, user: i64) -> AppResult<Follows> {
    let tags = tag::Entity::find()
        .select_only()
        .column(tag::Column::Code)
        .filter(tag::Column::Id.in_subquery(followed(user, Target::Tag.kind())))
        .into_tuple()
        .all(&ctx.db)
        .await?;
    let tokens = token::Entity::find()
        .select_only()
        .column(token::Column::Symbol)
        .filter(token::Column::Id.in_subquery(followed(user, Target::Token.kind())))
        .into_tuple()
        .all(&ctx.db)
        .await?;
    Ok(Follows {
        tags,
        tokens,
        topics: followed_ids(ctx, user, Target::Topic).await?,
        kols: followed_ids(ctx, user, Target::Kol).await?,
        users: followed_ids(ctx, user, Target::User).await?,
    })
}
