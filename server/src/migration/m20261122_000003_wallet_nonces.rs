//! Sign-In with Ethereum: the messages the server issued, by nonce.

use sea_orm_migration::prelude::*;

use super::{big, drop_tables, text};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum WalletNonces {
    Table,
    Nonce,
    Address,
    Purpose,
    UserId,
    Message,
    CreatedAt,
    ExpiresAt,
    Used,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table(WalletNonces::Table)
                .col(text(WalletNonces::Nonce, 64).primary_key())
                .col(text(WalletNonces::Address, 42))
                .col(text(WalletNonces::Purpose, 16))
                .col(ColumnDef::new(WalletNonces::UserId).big_integer().null())
                .col(ColumnDef::new(WalletNonces::Message).text().not_null())
                .col(big(WalletNonces::CreatedAt))
                .col(big(WalletNonces::ExpiresAt))
                .col(ColumnDef::new(WalletNonces::Used).boolean().not_null())
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        drop_tables(m, vec![WalletNonces::Table.into_iden()]).await
    }
}
