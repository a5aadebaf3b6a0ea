//! Nonces for identity-token sign-in (Sign in with Apple): issued by us, single use.

use sea_orm_migration::prelude::*;

use super::{big, drop_tables, text};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum LoginNonces {
    Table,
    Nonce,
    Provider,
    CreatedAt,
    ExpiresAt,
    Used,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table(LoginNonces::Table)
                .col(text(LoginNonces::Nonce, 64).primary_key())
                .col(text(LoginNonces::Provider, 16))
                .col(big(LoginNonces::CreatedAt))
                .col(big(LoginNonces::ExpiresAt))
                .col(ColumnDef::new(LoginNonces::Used).boolean().not_null())
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        drop_tables(m, vec![LoginNonces::Table.into_iden()]).await
    }
}
