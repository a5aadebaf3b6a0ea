//! Prices beside the news (`markets`): each token's id at the price provider, its latest quote
//! (with a suspicious jump waiting for the next poll to confirm it), and its charts as fetched.

use sea_orm_migration::prelude::*;

use super::{big, cols, drop_tables, id, index, long_text, text};

#[derive(DeriveIden)]
enum Tokens {
    Table,
    PriceId,
}

#[derive(DeriveIden)]
enum TokenPrices {
    Table,
    TokenId,
    Usd,
    #[sea_orm(iden = "change_24h_pct")]
    Change24hPct,
    MarketCap,
    #[sea_orm(iden = "volume_24h")]
    Volume24h,
    AsOf,
    Source,
    PendingUsd,
}

#[derive(DeriveIden)]
enum PriceHistories {
    Table,
    Id,
    TokenId,
    Days,
    Points,
    FetchedAt,
}

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(
            Table::alter()
                .table(Tokens::Table)
                .add_column(text(Tokens::PriceId, 100).default(""))
                .to_owned(),
        )
        .await?;
        use TokenPrices as P;
        m.create_table(
            Table::create()
                .table(P::Table)
                .col(big(P::TokenId).primary_key())
                .col(ColumnDef::new(P::Usd).double().not_null())
                .col(ColumnDef::new(P::Change24hPct).double().null())
                .col(ColumnDef::new(P::MarketCap).double().null())
                .col(ColumnDef::new(P::Volume24h).double().null())
                .col(big(P::AsOf))
                .col(text(P::Source, 10))
                .col(ColumnDef::new(P::PendingUsd).double().null())
                .to_owned(),
        )
        .await?;
        use PriceHistories as H;
        m.create_table(
            Table::create()
                .table(H::Table)
                .col(id(H::Id))
                .col(big(H::TokenId))
                .col(big(H::Days))
                .col(long_text(H::Points))
                .col(big(H::FetchedAt))
                .to_owned(),
        )
        .await?;
        index(
            m,
            "price_histories_once",
            H::Table.into_iden(),
            cols(vec![H::TokenId, H::Days]),
            true,
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        drop_tables(
            m,
            cols(vec![
                PriceHistories::Table.into_iden(),
                TokenPrices::Table.into_iden(),
            ]),
        )
        .await?;
        m.alter_table(
            Table::alter()
                .table(Tokens::Table)
                .drop_column(Tokens::PriceId)
                .to_owned(),
        )
        .await
    }
}
