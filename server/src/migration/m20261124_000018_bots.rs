//! The Telegram and LINE bots: the chats they know, what each chat subscribed to, the news
//! queued for each chat (the delivery outbox), account-link codes, the leases that let one
//! server at a time poll or send, and the Telegram sign-in hashes already used.

use sea_orm_migration::prelude::*;

use super::{big, drop_tables, id, index, text};

#[derive(DeriveIden)]
enum BotChats {
    Table,
    Id,
    Platform,
    ChatRef,
    ThreadId,
    Kind,
    Locale,
    State,
    Digest,
    DigestAt,
    Muted,
    UserId,
    LastError,
    CreatedAt,
}

#[derive(DeriveIden)]
enum BotSubscriptions {
    Table,
    Id,
    ChatId,
    Target,
    TargetId,
    CreatedAt,
}

#[derive(DeriveIden)]
enum BotDeliveries {
    Table,
    Id,
    ChatId,
    FeedId,
    State,
    CreatedAt,
    DueAt,
    Attempts,
    SentAt,
    RetryKey,
    Error,
}

#[derive(DeriveIden)]
enum BotLinkCodes {
    Table,
    Id,
    CodeHash,
    UserId,
    ExpiresAt,
    UsedAt,
}

#[derive(DeriveIden)]
enum Leases {
    Table,
    Name,
    Holder,
    ExpiresAt,
    Cursor,
}

#[derive(DeriveIden)]
enum TelegramLogins {
    Table,
    Id,
    Hash,
    SeenAt,
}

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table(BotChats::Table)
                .col(id(BotChats::Id))
                .col(text(BotChats::Platform, 16))
                .col(text(BotChats::ChatRef, 64))
                // 0: the whole chat; else a forum topic's `message_thread_id`.
                .col(big(BotChats::ThreadId))
                .col(text(BotChats::Kind, 16))
                .col(text(BotChats::Locale, 16))
                .col(text(BotChats::State, 16))
                .col(text(BotChats::Digest, 8))
                .col(big(BotChats::DigestAt))
                .col(ColumnDef::new(BotChats::Muted).text().not_null())
                .col(ColumnDef::new(BotChats::UserId).big_integer().null())
                .col(ColumnDef::new(BotChats::LastError).text().null())
                .col(big(BotChats::CreatedAt))
                .to_owned(),
        )
        .await?;
        index(
            m,
            "bot_chats_identity",
            BotChats::Table.into_iden(),
            vec![
                BotChats::Platform.into_iden(),
                BotChats::ChatRef.into_iden(),
                BotChats::ThreadId.into_iden(),
            ],
            true,
        )
        .await?;
        index(
            m,
            "bot_chats_user",
            BotChats::Table.into_iden(),
            vec![BotChats::UserId.into_iden()],
            false,
        )
        .await?;
        m.create_table(
            Table::create()
                .table(BotSubscriptions::Table)
                .col(id(BotSubscriptions::Id))
                .col(big(BotSubscriptions::ChatId))
                .col(text(BotSubscriptions::Target, 16))
                // 0 for the targets that name no row (important, news, articles, following).
                .col(big(BotSubscriptions::TargetId))
                .col(big(BotSubscriptions::CreatedAt))
                .to_owned(),
        )
        .await?;
        index(
            m,
            "bot_subscriptions_unique",
            BotSubscriptions::Table.into_iden(),
            vec![
                BotSubscriptions::ChatId.into_iden(),
                BotSubscriptions::Target.into_iden(),
                BotSubscriptions::TargetId.into_iden(),
            ],
            true,
        )
        .await?;
        index(
            m,
            "bot_subscriptions_target",
            BotSubscriptions::Table.into_iden(),
            vec![
                BotSubscriptions::Target.into_iden(),
                BotSubscriptions::TargetId.into_iden(),
            ],
            false,
        )
        .await?;
        m.create_table(
            Table::create()
                .table(BotDeliveries::Table)
                .col(id(BotDeliveries::Id))
                .col(big(BotDeliveries::ChatId))
                .col(big(BotDeliveries::FeedId))
                .col(text(BotDeliveries::State, 16))
                .col(big(BotDeliveries::CreatedAt))
                .col(big(BotDeliveries::DueAt))
                .col(ColumnDef::new(BotDeliveries::Attempts).integer().not_null())
                .col(ColumnDef::new(BotDeliveries::SentAt).big_integer().null())
                .col(
                    ColumnDef::new(BotDeliveries::RetryKey)
                        .string_len(36)
                        .null(),
                )
                .col(ColumnDef::new(BotDeliveries::Error).text().null())
                .to_owned(),
        )
        .await?;
        // One delivery per chat and item, whatever writes it: an item is never sent twice.
        index(
            m,
            "bot_deliveries_once",
            BotDeliveries::Table.into_iden(),
            vec![
                BotDeliveries::ChatId.into_iden(),
                BotDeliveries::FeedId.into_iden(),
            ],
            true,
        )
        .await?;
        index(
            m,
            "bot_deliveries_queue",
            BotDeliveries::Table.into_iden(),
            vec![
                BotDeliveries::State.into_iden(),
                BotDeliveries::ChatId.into_iden(),
                BotDeliveries::Id.into_iden(),
            ],
            false,
        )
        .await?;
        m.create_table(
            Table::create()
                .table(BotLinkCodes::Table)
                .col(id(BotLinkCodes::Id))
                .col(text(BotLinkCodes::CodeHash, 64).unique_key())
                .col(big(BotLinkCodes::UserId))
                .col(big(BotLinkCodes::ExpiresAt))
                .col(ColumnDef::new(BotLinkCodes::UsedAt).big_integer().null())
                .to_owned(),
        )
        .await?;
        m.create_table(
            Table::create()
                .table(Leases::Table)
                .col(text(Leases::Name, 32).primary_key())
                .col(text(Leases::Holder, 64))
                .col(big(Leases::ExpiresAt))
                .col(big(Leases::Cursor))
                .to_owned(),
        )
        .await?;
        m.create_table(
            Table::create()
                .table(TelegramLogins::Table)
                .col(id(TelegramLogins::Id))
                .col(text(TelegramLogins::Hash, 64).unique_key())
                .col(big(TelegramLogins::SeenAt))
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        drop_tables(
            m,
            vec![
                TelegramLogins::Table.into_iden(),
                Leases::Table.into_iden(),
                BotLinkCodes::Table.into_iden(),
                BotDeliveries::Table.into_iden(),
                BotSubscriptions::Table.into_iden(),
                BotChats::Table.into_iden(),
            ],
        )
        .await
    }
}
