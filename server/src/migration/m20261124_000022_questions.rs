//! Questions and answers: a question with its tags and an optional bounty held in escrow, one
//! answer per reader per question, and messages that point at a question.

use sea_orm_migration::prelude::*;

use super::{big, cols, drop_tables, id, index, long_text, optional, text};

#[derive(DeriveIden)]
enum Questions {
    Table,
    Id,
    UserId,
    Title,
    Content,
    Bounty,
    BountyState,
    AcceptedAnswerId,
    AnswerCount,
    LikeCount,
    CreatedAt,
    DeadlineAt,
}

#[derive(DeriveIden)]
enum QuestionTags {
    Table,
    Id,
    QuestionId,
    TagId,
}

#[derive(DeriveIden)]
enum Answers {
    Table,
    Id,
    QuestionId,
    UserId,
    Content,
    LikeCount,
    CreatedAt,
    EditedAt,
}

#[derive(DeriveIden)]
enum Messages {
    Table,
    QuestionId,
}

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        use Questions as Q;
        m.create_table(
            Table::create()
                .table(Q::Table)
                .col(id(Q::Id))
                .col(big(Q::UserId))
                .col(long_text(Q::Title))
                .col(long_text(Q::Content))
                .col(big(Q::Bounty))
                .col(text(Q::BountyState, 16))
                .col(optional(Q::AcceptedAnswerId))
                .col(big(Q::AnswerCount))
                .col(big(Q::LikeCount))
                .col(big(Q::CreatedAt))
                .col(optional(Q::DeadlineAt))
                .to_owned(),
        )
        .await?;
        let t = || Q::Table.into_iden();
        // Newest, unanswered newest, biggest open bounty, and the settlement job's due ones.
        index(
            m,
            "questions_unanswered",
            t(),
            cols(vec![Q::AnswerCount, Q::Id]),
            false,
        )
        .await?;
        index(
            m,
            "questions_bounty",
            t(),
            cols(vec![Q::BountyState, Q::Bounty, Q::Id]),
            false,
        )
        .await?;
        index(
            m,
            "questions_due",
            t(),
            cols(vec![Q::BountyState, Q::DeadlineAt]),
            false,
        )
        .await?;

        m.create_table(
            Table::create()
                .table(QuestionTags::Table)
                .col(id(QuestionTags::Id))
                .col(big(QuestionTags::QuestionId))
                .col(big(QuestionTags::TagId))
                .to_owned(),
        )
        .await?;
        let t = || QuestionTags::Table.into_iden();
        index(
            m,
            "question_tags_once",
            t(),
            cols(vec![QuestionTags::QuestionId, QuestionTags::TagId]),
            true,
        )
        .await?;
        index(
            m,
            "question_tags_by_tag",
            t(),
            cols(vec![QuestionTags::TagId, QuestionTags::QuestionId]),
            false,
        )
        .await?;

        m.create_table(
            Table::create()
                .table(Answers::Table)
                .col(id(Answers::Id))
                .col(big(Answers::QuestionId))
                .col(big(Answers::UserId))
                .col(long_text(Answers::Content))
                .col(big(Answers::LikeCount))
                .col(big(Answers::CreatedAt))
                .col(optional(Answers::EditedAt))
                .to_owned(),
        )
        .await?;
        let t = || Answers::Table.into_iden();
        index(
            m,
            "answers_once",
            t(),
            cols(vec![Answers::QuestionId, Answers::UserId]),
            true,
        )
        .await?;
        index(
            m,
            "answers_best",
            t(),
            cols(vec![Answers::QuestionId, Answers::LikeCount, Answers::Id]),
            false,
        )
        .await?;

        m.alter_table(
            Table::alter()
                .table(Messages::Table)
                .add_column(optional(Messages::QuestionId))
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(
            Table::alter()
                .table(Messages::Table)
                .drop_column(Messages::QuestionId)
                .to_owned(),
        )
        .await?;
        drop_tables(
            m,
            cols(vec![
                Answers::Table.into_iden(),
                QuestionTags::Table.into_iden(),
                Questions::Table.into_iden(),
            ]),
        )
        .await
    }
}
