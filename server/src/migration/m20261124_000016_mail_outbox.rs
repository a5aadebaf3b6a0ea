//! Mail that must not be lost (the warning that someone guessed at a sign-in code) is written
//! here before the request that causes it is answered, and sent by the outbox job (`outbox`).

use sea_orm_migration::prelude::*;

use super::{big, drop_tables, id, text};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum MailOutbox {
    Table,
    Id,
    Recipient,
    Template,
    Locale,
    CreatedAt,
    DueAt,
    Attempts,
    SentAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table(MailOutbox::Table)
                .col(id(MailOutbox::Id))
                .col(text(MailOutbox::Recipient, 320))
                .col(text(MailOutbox::Template, 32))
                .col(text(MailOutbox::Locale, 16))
                .col(big(MailOutbox::CreatedAt))
                .col(big(MailOutbox::DueAt))
                .col(ColumnDef::new(MailOutbox::Attempts).integer().not_null())
                .col(ColumnDef::new(MailOutbox::SentAt).big_integer().null())
                .to_owned(),
        )
        .await?;
        m.create_index(
            Index::create()
                .name("mail_outbox_due")
                .table(MailOutbox::Table)
                .col(MailOutbox::SentAt)
                .col(MailOutbox::DueAt)
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        drop_tables(m, vec![MailOutbox::Table.into_iden()]).await
    }
}
