//! The live stream (`stream`): what happened, kept a while so a reader who reconnects to any
//! server is sent what they missed (`Last-Event-ID`), and the single-use tickets `EventSource`
//! clients sign in with.

use sea_orm_migration::prelude::*;

use super::{big, drop_tables, id, optional, text};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum StreamEvents {
    Table,
    Id,
    Kind,
    FeedId,
    TargetId,
    CreatedAt,
}

#[derive(DeriveIden)]
enum StreamTickets {
    Table,
    Ticket,
    UserId,
    ExpiresAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table(StreamEvents::Table)
                .col(id(StreamEvents::Id))
                .col(text(StreamEvents::Kind, 16))
                .col(optional(StreamEvents::FeedId))
                .col(optional(StreamEvents::TargetId))
                .col(big(StreamEvents::CreatedAt))
                .to_owned(),
        )
        .await?;
        m.create_index(
            Index::create()
                .name("stream_events_created")
                .table(StreamEvents::Table)
                .col(StreamEvents::CreatedAt)
                .to_owned(),
        )
        .await?;
        m.create_table(
            Table::create()
                .table(StreamTickets::Table)
                .col(
                    ColumnDef::new(StreamTickets::Ticket)
                        .string_len(64)
                        .not_null()
                        .primary_key(),
                )
                .col(big(StreamTickets::UserId))
                .col(big(StreamTickets::ExpiresAt))
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        drop_tables(
            m,
            vec![
                StreamTickets::Table.into_iden(),
                StreamEvents::Table.into_iden(),
            ],
        )
        .await
    }
}
