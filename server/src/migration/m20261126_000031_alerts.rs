//! Alerts: a reader's rules (what to hear about, where and when), and the browsers they allowed
//! to show notifications (Web Push subscriptions).

use sea_orm_migration::prelude::*;

use super::{big, cols, drop_tables, id, index, long_text, optional, text};

#[derive(DeriveIden)]
enum Alerts {
    Table,
    Id,
    UserId,
    Name,
    Rule,
    Deliver,
    Mode,
    QuietFrom,
    QuietTo,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum PushSubscriptions {
    Table,
    Id,
    UserId,
    Endpoint,
    P256dh,
    Auth,
    CreatedAt,
    RetryAt,
}

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        use Alerts as A;
        m.create_table(
            Table::create()
                .table(A::Table)
                .col(id(A::Id))
                .col(big(A::UserId))
                .col(text(A::Name, 240))
                .col(long_text(A::Rule))
                .col(text(A::Deliver, 64))
                .col(text(A::Mode, 16))
                .col(optional(A::QuietFrom))
                .col(optional(A::QuietTo))
                .col(big(A::CreatedAt))
                .col(big(A::UpdatedAt))
                .to_owned(),
        )
        .await?;
        index(
            m,
            "alerts_by_user",
            A::Table.into_iden(),
            cols(vec![A::UserId, A::Id]),
            false,
        )
        .await?;
        use PushSubscriptions as P;
        m.create_table(
            Table::create()
                .table(P::Table)
                .col(id(P::Id))
                .col(big(P::UserId))
                .col(text(P::Endpoint, 1024))
                .col(text(P::P256dh, 128))
                .col(text(P::Auth, 64))
                .col(big(P::CreatedAt))
                .col(optional(P::RetryAt))
                .to_owned(),
        )
        .await?;
        let t = || P::Table.into_iden();
        index(m, "push_by_endpoint", t(), cols(vec![P::Endpoint]), true).await?;
        index(m, "push_by_user", t(), cols(vec![P::UserId]), false).await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        drop_tables(
            m,
            cols(vec![
                PushSubscriptions::Table.into_iden(),
                Alerts::Table.into_iden(),
            ]),
        )
        .await
    }
}
