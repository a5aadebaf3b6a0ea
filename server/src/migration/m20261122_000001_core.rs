//! Users, their sign-in accounts, sessions and one-time codes.

use sea_orm_migration::prelude::*;

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

fn id<T: IntoIden>(name: T) -> ColumnDef {
    ColumnDef::new(name)
        .big_integer()
        .not_null()
        .auto_increment()
        .primary_key()
        .to_owned()
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table(Users::Table)
                .col(id(Users::Id))
                .col(
                    ColumnDef::new(Users::ExposedUid)
                        .string_len(32)
                        .not_null()
                        .unique_key(),
                )
                .col(ColumnDef::new(Users::Username).string_len(64).not_null())
                .col(ColumnDef::new(Users::Nickname).string_len(64).not_null())
                .col(ColumnDef::new(Users::Avatar).string_len(512).not_null())
                .col(
                    ColumnDef::new(Users::InvitationCode)
                        .string_len(32)
                        .not_null()
                        .unique_key(),
                )
                .col(ColumnDef::new(Users::Locale).string_len(16).not_null())
                .col(ColumnDef::new(Users::CreatedAt).big_integer().not_null())
                .to_owned(),
        )
        .await?;
        m.create_table(
            Table::create()
                .table(Accounts::Table)
                .col(id(Accounts::Id))
                .col(ColumnDef::new(Accounts::UserId).big_integer().not_null())
                .col(ColumnDef::new(Accounts::Kind).string_len(16).not_null())
                .col(
                    ColumnDef::new(Accounts::Identifier)
                        .string_len(320)
                        .not_null(),
                )
                .col(ColumnDef::new(Accounts::Name).string_len(320).not_null())
                .col(ColumnDef::new(Accounts::CreatedAt).big_integer().not_null())
                .foreign_key(
                    ForeignKey::create()
                        .from(Accounts::Table, Accounts::UserId)
                        .to(Users::Table, Users::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .to_owned(),
        )
        .await?;
        m.create_index(
            Index::create()
                .name("accounts_kind_identifier")
                .table(Accounts::Table)
                .col(Accounts::Kind)
                .col(Accounts::Identifier)
                .unique()
                .to_owned(),
        )
        .await?;
        m.create_index(
            Index::create()
                .name("accounts_user")
                .table(Accounts::Table)
                .col(Accounts::UserId)
                .to_owned(),
        )
        .await?;
        m.create_table(
            Table::create()
                .table(Sessions::Table)
                .col(id(Sessions::Id))
                .col(
                    ColumnDef::new(Sessions::TokenHash)
                        .string_len(64)
                        .not_null()
                        .unique_key(),
                )
                .col(ColumnDef::new(Sessions::UserId).big_integer().null())
                .col(ColumnDef::new(Sessions::CreatedAt).big_integer().not_null())
                .col(ColumnDef::new(Sessions::ExpiresAt).big_integer().not_null())
                .col(ColumnDef::new(Sessions::RevokedAt).big_integer().null())
                .to_owned(),
        )
        .await?;
        m.create_table(
            Table::create()
                .table(OtpCodes::Table)
                .col(id(OtpCodes::Id))
                .col(ColumnDef::new(OtpCodes::Address).string_len(340).not_null())
                .col(ColumnDef::new(OtpCodes::Purpose).string_len(16).not_null())
                .col(ColumnDef::new(OtpCodes::CodeHash).string_len(64).not_null())
                .col(ColumnDef::new(OtpCodes::Ip).string_len(64).not_null())
                .col(ColumnDef::new(OtpCodes::CreatedAt).big_integer().not_null())
                .col(ColumnDef::new(OtpCodes::ExpiresAt).big_integer().not_null())
                .col(ColumnDef::new(OtpCodes::Tries).integer().not_null())
                .col(ColumnDef::new(OtpCodes::Spent).boolean().not_null())
                .to_owned(),
        )
        .await?;
        for (name, column) in [
            ("otp_codes_address", OtpCodes::Address),
            ("otp_codes_ip", OtpCodes::Ip),
        ] {
            m.create_index(
                Index::create()
                    .name(name)
                    .table(OtpCodes::Table)
                    .col(column)
                    .col(OtpCodes::CreatedAt)
                    .to_owned(),
            )
            .await?;
        }
        m.create_table(
            Table::create()
                .table(OtpGuards::Table)
                .col(
                    ColumnDef::new(OtpGuards::Address)
                        .string_len(340)
                        .not_null()
                        .primary_key(),
                )
                .col(
                    ColumnDef::new(OtpGuards::WindowStart)
                        .big_integer()
                        .not_null(),
                )
                .col(ColumnDef::new(OtpGuards::Failures).integer().not_null())
                .col(
                    ColumnDef::new(OtpGuards::LastSentAt)
                        .big_integer()
                        .not_null(),
                )
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            OtpGuards::Table.into_iden(),
            OtpCodes::Table.into_iden(),
            Sessions::Table.into_iden(),
            Accounts::Table.into_iden(),
            Users::Table.into_iden(),
        ] {
            m.drop_table(Table::drop().table(table).to_owned()).await?;
        }
        Ok(())
    }
}
