//! Exchange referrals (`markets::exchanges`): partner exchanges, each reader's opaque id at each
//! (`sub_id`), and the events the exchanges confirmed (once per event id).

use sea_orm_migration::prelude::*;

use super::{big, cols, drop_tables, id, index, long_text, text};

#[derive(DeriveIden)]
enum Exchanges {
    Table,
    Id,
    Code,
    Name,
    Logo,
    UrlTemplate,
    Secret,
    Perks,
    Sort,
    Active,
    CreatedAt,
}

#[derive(DeriveIden)]
enum ExchangeReferrals {
    Table,
    Id,
    ExchangeId,
    UserId,
    SubId,
    CreatedAt,
}

#[derive(DeriveIden)]
enum ExchangeEvents {
    Table,
    Id,
    ExchangeId,
    EventId,
    UserId,
    Event,
    OccurredAt,
    ReceivedAt,
}

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        use Exchanges as X;
        m.create_table(
            Table::create()
                .table(X::Table)
                .col(id(X::Id))
                .col(text(X::Code, 64).unique_key())
                .col(text(X::Name, 128))
                .col(long_text(X::Logo))
                .col(long_text(X::UrlTemplate))
                .col(text(X::Secret, 256))
                .col(long_text(X::Perks))
                .col(big(X::Sort))
                .col(ColumnDef::new(X::Active).boolean().not_null())
                .col(big(X::CreatedAt))
                .to_owned(),
        )
        .await?;
        use ExchangeReferrals as R;
        m.create_table(
            Table::create()
                .table(R::Table)
                .col(id(R::Id))
                .col(big(R::ExchangeId))
                .col(big(R::UserId))
                .col(text(R::SubId, 64))
                .col(big(R::CreatedAt))
                .to_owned(),
        )
        .await?;
        index(
            m,
            "exchange_referrals_sub_id",
            R::Table.into_iden(),
            cols(vec![R::ExchangeId, R::SubId]),
            true,
        )
        .await?;
        index(
            m,
            "exchange_referrals_reader",
            R::Table.into_iden(),
            cols(vec![R::ExchangeId, R::UserId]),
            true,
        )
        .await?;
        use ExchangeEvents as E;
        m.create_table(
            Table::create()
                .table(E::Table)
                .col(id(E::Id))
                .col(big(E::ExchangeId))
                .col(text(E::EventId, 128))
                .col(big(E::UserId))
                .col(text(E::Event, 16))
                .col(big(E::OccurredAt))
                .col(big(E::ReceivedAt))
                .to_owned(),
        )
        .await?;
        index(
            m,
            "exchange_events_once",
            E::Table.into_iden(),
            cols(vec![E::ExchangeId, E::EventId]),
            true,
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        drop_tables(
            m,
            cols(vec![
                ExchangeEvents::Table.into_iden(),
                ExchangeReferrals::Table.into_iden(),
                Exchanges::Table.into_iden(),
            ]),
        )
        .await
    }
}
