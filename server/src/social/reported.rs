//! What readers report and the team takes down: a comment, a post, a question, an answer or a
//! profile. Each kind says what it shows now (a report keeps it as it was) and how it comes down;
//! `moderation` does the rest the same way for every kind.

use sea_orm::ConnectionTrait;
use serde::Deserialize;

use super::comments::{self, REMOVED};
use super::subject::{Place, Subject};
use crate::community::{posts, profiles, questions};
use crate::ctx::Ctx;
use crate::error::{AppError, AppResult};

/// `{"kind": "post", "id": 7}`: one thing a reader wrote, or a reader's profile.
#[derive(schemars::JsonSchema, Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(tag = "kind", content = "id", rename_all = "snake_case")]
pub enum Reported {
    Comment(i64),
    Post(i64),
    Question(i64),
    Answer(i64),
    Profile(i64),
}

/// What taking something down did: whose it was, what to tell them and where that leads.
pub struct TakenDown {
    pub author: i64,
    /// The message kind its author gets (`messages::KINDS`).
    pub message: &'static str,
    pub place: Place,
    pub comment_id: Option<i64>,
    /// Whose caches and pages must hear of it once committed.
    gone: Gone,
}

enum Gone {
    Thread(Subject),
    Post(i64),
    Question(i64),
    Profile,
}

impl Reported {
    pub fn from_parts(kind: &str, id: i64) -> Option<Self> {
        Some(match kind {
            "comment" => Self::Comment(id),
            "post" => Self::Post(id),
            "question" => Self::Question(id),
            "answer" => Self::Answer(id),
            "profile" => Self::Profile(id),
            _ => return None,
        })
    }

    pub fn parts(self) -> (&'static str, i64) {
        match self {
            Self::Comment(id) => ("comment", id),
            Self::Post(id) => ("post", id),
            Self::Question(id) => ("question", id),
            Self::Answer(id) => ("answer", id),
            Self::Profile(id) => ("profile", id),
        }
    }

    /// Its author and text as shown now, or `NotFound` when nothing of it shows.
    pub async fn shown(self, db: &impl ConnectionTrait) -> AppResult<(i64, String)> {
        match self {
            Self::Comment(id) => comments::visible_in(db, id)
                .await?
                .map(|c| (c.user_id, c.content))
                .ok_or_else(|| AppError::not_found("No such comment")),
            Self::Post(id) => posts::shown(db, id).await,
            Self::Question(id) => questions::shown(db, id).await,
            Self::Answer(id) => {
                let found = questions::find_answer(db, id).await?;
                Ok((found.user_id, found.content))
            }
            Self::Profile(id) => profiles::shown(db, id).await,
        }
    }

    /// Takes it down in `txn` (`NotFound` when nothing of it shows); `TakenDown::after` once
    /// committed.
    pub async fn take_down(self, ctx: &Ctx, txn: &impl ConnectionTrait) -> AppResult<TakenDown> {
        let nowhere = Place::default();
        Ok(match self {
            Self::Comment(id) => {
                let found = comments::visible_in(txn, id)
                    .await?
                    .ok_or_else(|| AppError::not_found("No such comment"))?;
                comments::take_down(txn, &found, REMOVED).await?;
                let subject = Subject::of(&found);
                TakenDown {
                    author: found.user_id,
                    message: "removed",
                    place: subject.place(txn).await?,
                    comment_id: Some(id),
                    gone: Gone::Thread(subject),
                }
            }
            Self::Post(id) => {
                let (author, _) = posts::shown(txn, id).await?;
                posts::take_down(txn, id).await?;
                TakenDown {
                    author,
                    message: "removed_post",
                    place: nowhere,
                    comment_id: None,
                    gone: Gone::Post(id),
                }
            }
            Self::Question(id) => TakenDown {
                author: questions::take_down(txn, ctx.now(), id).await?,
                message: "removed_question",
                place: nowhere,
                comment_id: None,
                gone: Gone::Question(id),
            },
            Self::Answer(id) => {
                let found = questions::take_down_answer(txn, id).await?;
                TakenDown {
                    author: found.user_id,
                    message: "removed_answer",
                    place: Place {
                        feed_id: None,
                        question_id: Some(found.question_id),
                    },
                    comment_id: None,
                    gone: Gone::Question(found.question_id),
                }
            }
            Self::Profile(id) => {
                profiles::shown(txn, id).await?;
                profiles::reset(ctx, txn, id).await?;
                TakenDown {
                    author: id,
                    message: "reset_profile",
                    place: nowhere,
                    comment_id: None,
                    gone: Gone::Profile,
                }
            }
        })
    }
}

impl TakenDown {
    /// Tells caches and open pages, once the take-down is committed.
    pub fn after(&self, ctx: &Ctx) {
        match self.gone {
            Gone::Thread(subject) => comments::changed(ctx, subject),
            Gone::Post(id) => posts::gone(ctx, id),
            Gone::Question(id) => questions::changed(ctx, id),
            // Names show in cached pages for at most their second.
            Gone::Profile => {}
        }
    }
}
