//! What a comment thread is under (a feed item, a question or an answer), the counts it keeps
//! there, and where messages about its comments lead.

use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, Condition, ConnectionTrait, EntityTrait, QueryFilter};

use crate::entity::{answer, comment, feed_item, question};
use crate::error::{AppError, AppResult};

/// What a thread is under: a feed item (news or a reader's post), a question or an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subject {
    Feed(i64),
    Question(i64),
    Answer(i64),
}

/// Where a message about a comment leads: its feed item, or its question (for a comment on a
/// question or on one of its answers).
#[derive(Debug, Clone, Copy, Default)]
pub struct Place {
    pub feed_id: Option<i64>,
    pub question_id: Option<i64>,
}

impl Subject {
    pub fn kind(self) -> &'static str {
        match self {
            Self::Feed(_) => "feed",
            Self::Question(_) => "question",
            Self::Answer(_) => "answer",
        }
    }

    pub fn id(self) -> i64 {
        match self {
            Self::Feed(id) | Self::Question(id) | Self::Answer(id) => id,
        }
    }

    /// The subject of a stored comment.
    pub fn of(c: &comment::Model) -> Self {
        match c.subject_kind.as_str() {
            "question" => Self::Question(c.subject_id),
            "answer" => Self::Answer(c.subject_id),
            _ => Self::Feed(c.subject_id),
        }
    }

    /// The comments under this subject.
    pub(super) fn filter(self) -> Condition {
        Condition::all()
            .add(comment::Column::SubjectKind.eq(self.kind()))
            .add(comment::Column::SubjectId.eq(self.id()))
    }

    /// Where messages about a comment on it lead (for an answer, its question: none when there
    /// is no such answer).
    pub async fn place(self, db: &impl ConnectionTrait) -> AppResult<Place> {
        Ok(match self {
            Self::Feed(id) => Place {
                feed_id: Some(id),
                question_id: None,
            },
            Self::Question(id) => Place {
                feed_id: None,
                question_id: Some(id),
            },
            Self::Answer(id) => Place {
                feed_id: None,
                question_id: answer::Entity::find_by_id(id)
                    .one(db)
                    .await?
                    .map(|a| a.question_id),
            },
        })
    }

    /// A new comment on this subject: counted where the subject keeps a count (a feed item's
    /// card shows it); answers where messages about it lead, or `NotFound` when the subject does
    /// not exist.
    pub(super) async fn comment_added(self, db: &impl ConnectionTrait) -> AppResult<Place> {
        let place = self.place(db).await?;
        let exists = match self {
            Self::Feed(id) => {
                let counted = feed_item::Entity::update_many()
                    .col_expr(
                        feed_item::Column::Comments,
                        Expr::col(feed_item::Column::Comments).add(1),
                    )
                    .filter(feed_item::Column::Id.eq(id))
                    .exec(db)
                    .await?;
                counted.rows_affected > 0
            }
            Self::Question(id) => question::Entity::find_by_id(id).one(db).await?.is_some(),
            // `place` read the answer: its question is known only when it exists.
            Self::Answer(_) => place.question_id.is_some(),
        };
        if !exists {
            return Err(self.missing());
        }
        Ok(place)
    }

    /// `NotFound` unless the subject exists: a thread of nothing is never built nor cached.
    pub(super) async fn ensure_exists(self, db: &impl ConnectionTrait) -> AppResult<()> {
        let exists = match self {
            Self::Feed(id) => feed_item::Entity::find_by_id(id).one(db).await?.is_some(),
            Self::Question(id) => question::Entity::find_by_id(id).one(db).await?.is_some(),
            Self::Answer(id) => answer::Entity::find_by_id(id).one(db).await?.is_some(),
        };
        if exists { Ok(()) } else { Err(self.missing()) }
    }

    fn missing(self) -> AppError {
        AppError::not_found(match self {
            Self::Feed(_) => "No such news item",
            Self::Question(_) => "No such question",
            Self::Answer(_) => "No such answer",
        })
    }

    /// A comment on this subject went: one fewer on a feed item's count, never below zero.
    pub(super) async fn comment_removed(self, db: &impl ConnectionTrait) -> AppResult<()> {
        if let Self::Feed(id) = self {
            feed_item::Entity::update_many()
                .col_expr(
                    feed_item::Column::Comments,
                    Expr::col(feed_item::Column::Comments).sub(1),
                )
                .filter(feed_item::Column::Id.eq(id))
                .filter(feed_item::Column::Comments.gt(0))
                .exec(db)
                .await?;
        }
        Ok(())
    }
}
