//! Third-party sign-in in progress: an OAuth 2 state with its PKCE verifier, OIDC nonce and
//! browser, or a Sign in with Apple nonce.

use sea_orm_migration::prelude::*;

use super::{big, drop_tables, text};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum OauthStates {
    Table,
    State,
    Provider,
    UserId,
    Nonce,
    CodeVerifier,
    BrowserHash,
    CreatedAt,
    ExpiresAt,
    Used,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table(OauthStates::Table)
                .col(text(OauthStates::State, 64).primary_key())
                .col(text(OauthStates::Provider, 16))
                .col(ColumnDef::new(OauthStates::UserId).big_integer().null())
                .col(text(OauthStates::Nonce, 64))
                .col(text(OauthStates::CodeVerifier, 128))
                .col(text(OauthStates::BrowserHash, 64))
                .col(big(OauthStates::CreatedAt))
                .col(big(OauthStates::ExpiresAt))
                .col(ColumnDef::new(OauthStates::Used).boolean().not_null())
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        drop_tables(m, vec![OauthStates::Table.into_iden()]).await
    }
}
