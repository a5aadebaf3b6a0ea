//! Price alerts (`alerts::prices`): where each alert's lines stand, the prices a move is
//! measured against, and the crossings waiting to be sent (written before they are sent, so a
//! crossing is never lost).

use sea_orm_migration::prelude::*;

use super::{big, cols, drop_tables, id, index, long_text, optional, text};

#[derive(DeriveIden)]
enum PriceAlertStates {
    Table,
    AlertId,
    State,
    AsOf,
}

#[derive(DeriveIden)]
enum PriceTicks {
    Table,
    Id,
    TokenId,
    At,
    Usd,
}

#[derive(DeriveIden)]
enum PriceAlertFirings {
    Table,
    Id,
    AlertId,
    UserId,
    Symbol,
    Crossing,
    WindowMinutes,
    Deliver,
    CreatedAt,
    DueAt,
    SentAt,
}

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        use PriceAlertStates as S;
        m.create_table(
            Table::create()
                .table(S::Table)
                .col(big(S::AlertId).primary_key())
                .col(text(S::State, 200))
                .col(big(S::AsOf))
                .to_owned(),
        )
        .await?;
        use PriceTicks as T;
        m.create_table(
            Table::create()
                .table(T::Table)
                .col(id(T::Id))
                .col(big(T::TokenId))
                .col(big(T::At))
                .col(ColumnDef::new(T::Usd).double().not_null())
                .to_owned(),
        )
        .await?;
        index(
            m,
            "price_ticks_once",
            T::Table.into_iden(),
            cols(vec![T::TokenId, T::At]),
            true,
        )
        .await?;
        use PriceAlertFirings as F;
        m.create_table(
            Table::create()
                .table(F::Table)
                .col(id(F::Id))
                .col(big(F::AlertId))
                .col(big(F::UserId))
                .col(text(F::Symbol, 32))
                .col(long_text(F::Crossing))
                .col(big(F::WindowMinutes))
                .col(text(F::Deliver, 64))
                .col(big(F::CreatedAt))
                .col(big(F::DueAt))
                .col(optional(F::SentAt))
                .to_owned(),
        )
        .await?;
        index(
            m,
            "price_alert_firings_due",
            F::Table.into_iden(),
            cols(vec![F::SentAt, F::DueAt]),
            false,
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        drop_tables(
            m,
            cols(vec![
                PriceAlertFirings::Table.into_iden(),
                PriceTicks::Table.into_iden(),
                PriceAlertStates::Table.into_iden(),
            ]),
        )
        .await
    }
}
