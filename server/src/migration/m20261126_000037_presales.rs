//! Presales (`markets::presales`): token sales before listing, and the readers who follow them
//! (told when one starts).

use sea_orm_migration::prelude::*;

use super::{big, cols, drop_tables, id, index, long_text, optional, text};

#[derive(DeriveIden)]
enum Presales {
    Table,
    Id,
    Project,
    Symbol,
    Chain,
    StartsAt,
    EndsAt,
    TargetUsd,
    PriceUsd,
    Links,
    Descriptions,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum PresaleFollows {
    Table,
    Id,
    PresaleId,
    UserId,
    CreatedAt,
    ToldAt,
}

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        use Presales as P;
        m.create_table(
            Table::create()
                .table(P::Table)
                .col(id(P::Id))
                .col(text(P::Project, 128).unique_key())
                .col(text(P::Symbol, 32))
                .col(text(P::Chain, 64))
                .col(big(P::StartsAt))
                .col(big(P::EndsAt))
                .col(ColumnDef::new(P::TargetUsd).double().not_null())
                .col(ColumnDef::new(P::PriceUsd).double().not_null())
                .col(long_text(P::Links))
                .col(long_text(P::Descriptions))
                .col(big(P::UpdatedAt))
                .to_owned(),
        )
        .await?;
        index(
            m,
            "presales_starts",
            P::Table.into_iden(),
            cols(vec![P::StartsAt]),
            false,
        )
        .await?;
        use PresaleFollows as F;
        m.create_table(
            Table::create()
                .table(F::Table)
                .col(id(F::Id))
                .col(big(F::PresaleId))
                .col(big(F::UserId))
                .col(big(F::CreatedAt))
                .col(optional(F::ToldAt))
                .to_owned(),
        )
        .await?;
        index(
            m,
            "presale_follows_once",
            F::Table.into_iden(),
            cols(vec![F::PresaleId, F::UserId]),
            true,
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        drop_tables(
            m,
            cols(vec![
                PresaleFollows::Table.into_iden(),
                Presales::Table.into_iden(),
            ]),
        )
        .await
    }
}
