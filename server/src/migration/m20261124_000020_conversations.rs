//! Conversations on the news: comments (one level of replies) and their earlier versions,
//! favorites, reading history, messages to readers and the team's announcements behind some of
//! them, blocks between readers, reports on comments, and bans.

use sea_orm_migration::prelude::*;

use super::{big, cols, drop_tables, id, index, long_text, optional, text};

#[derive(DeriveIden)]
enum Comments {
    Table,
    Id,
    FeedId,
    ParentId,
    UserId,
    ReplyToUserId,
    Content,
    State,
    LikeCount,
    ReplyCount,
    CreatedAt,
    EditedAt,
}

#[derive(DeriveIden)]
enum CommentEdits {
    Table,
    Id,
    CommentId,
    Content,
    EditedAt,
}

#[derive(DeriveIden)]
enum Favorites {
    Table,
    Id,
    UserId,
    FeedId,
    CreatedAt,
}

#[derive(DeriveIden)]
enum ReadingHistory {
    Table,
    Id,
    UserId,
    FeedId,
    ReadAt,
}

#[derive(DeriveIden)]
enum Messages {
    Table,
    Id,
    UserId,
    Kind,
    ActorId,
    FeedId,
    CommentId,
    AnnouncementId,
    GroupKey,
    Count,
    Body,
    Read,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum Announcements {
    Table,
    Id,
    Content,
    CreatedAt,
}

#[derive(DeriveIden)]
enum Blocks {
    Table,
    Id,
    UserId,
    BlockedId,
    CreatedAt,
}

#[derive(DeriveIden)]
enum Reports {
    Table,
    Id,
    ReporterId,
    Kind,
    TargetId,
    Reason,
    Content,
    State,
    CreatedAt,
}

#[derive(DeriveIden)]
enum UserBans {
    Table,
    UserId,
    Until,
    Reason,
    CreatedAt,
}

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        use Comments as C;
        m.create_table(
            Table::create()
                .table(C::Table)
                .col(id(C::Id))
                .col(big(C::FeedId))
                .col(optional(C::ParentId))
                .col(big(C::UserId))
                .col(optional(C::ReplyToUserId))
                .col(long_text(C::Content))
                .col(text(C::State, 16))
                .col(big(C::LikeCount))
                .col(big(C::ReplyCount))
                .col(big(C::CreatedAt))
                .col(optional(C::EditedAt))
                .to_owned(),
        )
        .await?;
        // A thread's newest first, its best first, a comment's replies, a user's recent texts.
        let t = || C::Table.into_iden();
        index(
            m,
            "comments_new",
            t(),
            cols(vec![C::FeedId, C::ParentId, C::Id]),
            false,
        )
        .await?;
        index(
            m,
            "comments_top",
            t(),
            cols(vec![C::FeedId, C::ParentId, C::LikeCount, C::Id]),
            false,
        )
        .await?;
        index(
            m,
            "comments_replies",
            t(),
            cols(vec![C::ParentId, C::Id]),
            false,
        )
        .await?;
        index(
            m,
            "comments_by_user",
            t(),
            cols(vec![C::UserId, C::CreatedAt]),
            false,
        )
        .await?;

        m.create_table(
            Table::create()
                .table(CommentEdits::Table)
                .col(id(CommentEdits::Id))
                .col(big(CommentEdits::CommentId))
                .col(long_text(CommentEdits::Content))
                .col(big(CommentEdits::EditedAt))
                .to_owned(),
        )
        .await?;
        index(
            m,
            "comment_edits_of",
            CommentEdits::Table.into_iden(),
            cols(vec![CommentEdits::CommentId, CommentEdits::Id]),
            false,
        )
        .await?;

        m.create_table(
            Table::create()
                .table(Favorites::Table)
                .col(id(Favorites::Id))
                .col(big(Favorites::UserId))
                .col(big(Favorites::FeedId))
                .col(big(Favorites::CreatedAt))
                .to_owned(),
        )
        .await?;
        let t = || Favorites::Table.into_iden();
        index(
            m,
            "favorites_once",
            t(),
            cols(vec![Favorites::UserId, Favorites::FeedId]),
            true,
        )
        .await?;
        index(
            m,
            "favorites_newest",
            t(),
            cols(vec![Favorites::UserId, Favorites::Id]),
            false,
        )
        .await?;

        m.create_table(
            Table::create()
                .table(ReadingHistory::Table)
                .col(id(ReadingHistory::Id))
                .col(big(ReadingHistory::UserId))
                .col(big(ReadingHistory::FeedId))
                .col(big(ReadingHistory::ReadAt))
                .to_owned(),
        )
        .await?;
        let t = || ReadingHistory::Table.into_iden();
        index(
            m,
            "reading_history_once",
            t(),
            cols(vec![ReadingHistory::UserId, ReadingHistory::FeedId]),
            true,
        )
        .await?;
        index(
            m,
            "reading_history_newest",
            t(),
            cols(vec![
                ReadingHistory::UserId,
                ReadingHistory::ReadAt,
                ReadingHistory::Id,
            ]),
            false,
        )
        .await?;

        use Messages as M;
        m.create_table(
            Table::create()
                .table(M::Table)
                .col(id(M::Id))
                .col(big(M::UserId))
                .col(text(M::Kind, 16))
                .col(optional(M::ActorId))
                .col(optional(M::FeedId))
                .col(optional(M::CommentId))
                .col(optional(M::AnnouncementId))
                .col(ColumnDef::new(M::GroupKey).string_len(64).null())
                .col(big(M::Count))
                .col(long_text(M::Body))
                .col(ColumnDef::new(M::Read).boolean().not_null())
                .col(big(M::CreatedAt))
                .col(big(M::UpdatedAt))
                .to_owned(),
        )
        .await?;
        let t = || M::Table.into_iden();
        // One row per group (likes on one comment); rows without a group never collide.
        index(
            m,
            "messages_group",
            t(),
            cols(vec![M::UserId, M::GroupKey]),
            true,
        )
        .await?;
        index(
            m,
            "messages_newest",
            t(),
            cols(vec![M::UserId, M::UpdatedAt, M::Id]),
            false,
        )
        .await?;
        index(
            m,
            "messages_unread",
            t(),
            cols(vec![M::UserId, M::Read]),
            false,
        )
        .await?;

        m.create_table(
            Table::create()
                .table(Announcements::Table)
                .col(id(Announcements::Id))
                .col(long_text(Announcements::Content))
                .col(big(Announcements::CreatedAt))
                .to_owned(),
        )
        .await?;

        m.create_table(
            Table::create()
                .table(Blocks::Table)
                .col(id(Blocks::Id))
                .col(big(Blocks::UserId))
                .col(big(Blocks::BlockedId))
                .col(big(Blocks::CreatedAt))
                .to_owned(),
        )
        .await?;
        index(
            m,
            "blocks_once",
            Blocks::Table.into_iden(),
            cols(vec![Blocks::UserId, Blocks::BlockedId]),
            true,
        )
        .await?;

        m.create_table(
            Table::create()
                .table(Reports::Table)
                .col(id(Reports::Id))
                .col(big(Reports::ReporterId))
                .col(text(Reports::Kind, 16))
                .col(big(Reports::TargetId))
                .col(long_text(Reports::Reason))
                .col(long_text(Reports::Content))
                .col(text(Reports::State, 16))
                .col(big(Reports::CreatedAt))
                .to_owned(),
        )
        .await?;
        let t = || Reports::Table.into_iden();
        index(
            m,
            "reports_once",
            t(),
            cols(vec![Reports::ReporterId, Reports::Kind, Reports::TargetId]),
            true,
        )
        .await?;
        index(
            m,
            "reports_by_state",
            t(),
            cols(vec![Reports::State, Reports::Id]),
            false,
        )
        .await?;

        m.create_table(
            Table::create()
                .table(UserBans::Table)
                .col(
                    ColumnDef::new(UserBans::UserId)
                        .big_integer()
                        .not_null()
                        .primary_key(),
                )
                .col(big(UserBans::Until))
                .col(long_text(UserBans::Reason))
                .col(big(UserBans::CreatedAt))
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        drop_tables(
            m,
            cols(vec![
                UserBans::Table.into_iden(),
                Reports::Table.into_iden(),
                Blocks::Table.into_iden(),
                Announcements::Table.into_iden(),
                Messages::Table.into_iden(),
                ReadingHistory::Table.into_iden(),
                Favorites::Table.into_iden(),
                CommentEdits::Table.into_iden(),
                Comments::Table.into_iden(),
            ]),
        )
        .await
    }
}
