//! Users, their sign-in accounts, sessions and one-time codes.

use sea_orm_migration::prelude::*;

use super::{big, drop_tables, id, index, text};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Users {
    Table,
    Id,
    ExposedUid,
    Username,
    Nickname,
    Avatar,
    InvitationCode,
    Locale,
    CreatedAt,
}

#[derive(DeriveIden)]
enum Accounts {
    Table,
    Id,
    UserId,
    Kind,
    Identifier,
    Name,
    CreatedAt,
}

#[derive(DeriveIden)]
enum Sessions {
    Table,
    Id,
    TokenHash,
    UserId,
    CreatedAt,
    ExpiresAt,
    RevokedAt,
}

#[derive(DeriveIden)]
enum OtpCodes {
    Table,
    Id,
    Address,
    Purpose,
    CodeHash,
    Ip,
    CreatedAt,
    ExpiresAt,
    Tries,
    Spent,
}

#[derive(DeriveIden)]
enum OtpGuards {
    Table,
    Address,
    WindowStart,
    Failures,
    LastSentAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table(Users::Table)
                .col(id(Users::Id))
                .col(text(Users::ExposedUid, 32).unique_key())
                .col(text(Users::Username, 64))
                .col(text(Users::Nickname, 64))
                .col(text(Users::Avatar, 512))
                .col(text(Users::InvitationCode, 32).unique_key())
                .col(text(Users::Locale, 16))
                .col(big(Users::CreatedAt))
                .to_owned(),
        )
        .await?;
        m.create_table(
            Table::create()
                .table(Accounts::Table)
                .col(id(Accounts::Id))
                .col(big(Accounts::UserId))
                .col(text(Accounts::Kind, 16))
                .col(text(Accounts::Identifier, 320))
                .col(text(Accounts::Name, 320))
                .col(big(Accounts::CreatedAt))
                .foreign_key(
                    ForeignKey::create()
                        .from(Accounts::Table, Accounts::UserId)
                        .to(Users::Table, Users::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .to_owned(),
        )
        .await?;
        let kind_identifier = vec![Accounts::Kind.into_iden(), Accounts::Identifier.into_iden()];
        index(
            m,
            "accounts_kind_identifier",
            Accounts::Table.into_iden(),
            kind_identifier,
            true,
        )
        .await?;
        index(
            m,
            "accounts_user",
            Accounts::Table.into_iden(),
            vec![Accounts::UserId.into_iden()],
            false,
        )
        .await?;
        m.create_table(
            Table::create()
                .table(Sessions::Table)
                .col(id(Sessions::Id))
                .col(text(Sessions::TokenHash, 64).unique_key())
                .col(ColumnDef::new(Sessions::UserId).big_integer().null())
                .col(big(Sessions::CreatedAt))
                .col(big(Sessions::ExpiresAt))
                .col(ColumnDef::new(Sessions::RevokedAt).big_integer().null())
                .to_owned(),
        )
        .await?;
        m.create_table(
            Table::create()
                .table(OtpCodes::Table)
                .col(id(OtpCodes::Id))
                .col(text(OtpCodes::Address, 340))
                .col(text(OtpCodes::Purpose, 16))
                .col(text(OtpCodes::CodeHash, 64))
                .col(text(OtpCodes::Ip, 64))
                .col(big(OtpCodes::CreatedAt))
                .col(big(OtpCodes::ExpiresAt))
                .col(ColumnDef::new(OtpCodes::Tries).integer().not_null())
                .col(ColumnDef::new(OtpCodes::Spent).boolean().not_null())
                .to_owned(),
        )
        .await?;
        for (name, column) in [
            ("otp_codes_address", OtpCodes::Address),
            ("otp_codes_ip", OtpCodes::Ip),
        ] {
            let cols = vec![column.into_iden(), OtpCodes::CreatedAt.into_iden()];
            index(m, name, OtpCodes::Table.into_iden(), cols, false).await?;
        }
        m.create_table(
            Table::create()
                .table(OtpGuards::Table)
                .col(text(OtpGuards::Address, 340).primary_key())
                .col(big(OtpGuards::WindowStart))
                .col(ColumnDef::new(OtpGuards::Failures).integer().not_null())
                .col(big(OtpGuards::LastSentAt))
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        let tables = vec![
            OtpGuards::Table.into_iden(),
            OtpCodes::Table.into_iden(),
            Sessions::Table.into_iden(),
            Accounts::Table.into_iden(),
            Users::Table.into_iden(),
        ];
        drop_tables(m, tables).await
    }
}
