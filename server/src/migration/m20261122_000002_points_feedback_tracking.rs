//! Tasks and points, uploaded images and feedback, tracking events.

use sea_orm_migration::prelude::*;

use super::{big, drop_tables, id, index, text};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Users {
    Table,
    Points,
}

#[derive(DeriveIden)]
enum Tasks {
    Table,
    Id,
    Group,
    EventType,
    Award,
    Target,
    AppLink,
    ReportTime,
    ButtonDisabled,
    Titles,
    ButtonTexts,
    Sort,
    Active,
}

#[derive(DeriveIden)]
enum TaskProgress {
    Table,
    Id,
    UserId,
    TaskId,
    Period,
    Count,
    Status,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum PointLedger {
    Table,
    Id,
    UserId,
    TaskId,
    Period,
    Amount,
    Reason,
    CreatedAt,
}

#[derive(DeriveIden)]
enum Uploads {
    Table,
    Id,
    Key,
    ContentType,
    Bytes,
    Width,
    Height,
    Ip,
    UserId,
    GuestId,
    CreatedAt,
}

#[derive(DeriveIden)]
enum Feedback {
    Table,
    Id,
    Kind,
    Content,
    Contact,
    Images,
    UserId,
    GuestId,
    Ip,
    Locale,
    CreatedAt,
}

#[derive(DeriveIden)]
enum TrackLogs {
    Table,
    Id,
    Kind,
    Event,
    TimeMs,
    Prop,
    UserId,
    GuestId,
    ReceivedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(
            Table::alter()
                .table(Users::Table)
                .add_column(
                    ColumnDef::new(Users::Points)
                        .big_integer()
                        .not_null()
                        .default(0),
                )
                .to_owned(),
        )
        .await?;
        m.create_table(
            Table::create()
                .table(Tasks::Table)
                .col(id(Tasks::Id))
                .col(text(Tasks::Group, 32))
                .col(text(Tasks::EventType, 48))
                .col(big(Tasks::Award))
                .col(ColumnDef::new(Tasks::Target).integer().not_null())
                .col(text(Tasks::AppLink, 512))
                .col(ColumnDef::new(Tasks::ReportTime).integer().not_null())
                .col(ColumnDef::new(Tasks::ButtonDisabled).boolean().not_null())
                .col(ColumnDef::new(Tasks::Titles).text().not_null())
                .col(ColumnDef::new(Tasks::ButtonTexts).text().not_null())
                .col(ColumnDef::new(Tasks::Sort).integer().not_null())
                .col(ColumnDef::new(Tasks::Active).boolean().not_null())
                .to_owned(),
        )
        .await?;
        index(
            m,
            "tasks_group_event",
            Tasks::Table.into_iden(),
            vec![Tasks::Group.into_iden(), Tasks::EventType.into_iden()],
            true,
        )
        .await?;
        m.create_table(
            Table::create()
                .table(TaskProgress::Table)
                .col(id(TaskProgress::Id))
                .col(big(TaskProgress::UserId))
                .col(big(TaskProgress::TaskId))
                .col(text(TaskProgress::Period, 16))
                .col(ColumnDef::new(TaskProgress::Count).integer().not_null())
                .col(text(TaskProgress::Status, 16))
                .col(big(TaskProgress::UpdatedAt))
                .to_owned(),
        )
        .await?;
        let key = || {
            vec![
                TaskProgress::UserId.into_iden(),
                TaskProgress::TaskId.into_iden(),
                TaskProgress::Period.into_iden(),
            ]
        };
        index(
            m,
            "task_progress_key",
            TaskProgress::Table.into_iden(),
            key(),
            true,
        )
        .await?;
        m.create_table(
            Table::create()
                .table(PointLedger::Table)
                .col(id(PointLedger::Id))
                .col(big(PointLedger::UserId))
                .col(big(PointLedger::TaskId))
                .col(text(PointLedger::Period, 16))
                .col(big(PointLedger::Amount))
                .col(text(PointLedger::Reason, 48))
                .col(big(PointLedger::CreatedAt))
                .to_owned(),
        )
        .await?;
        // The award is paid at most once per user, task and period.
        let key = vec![
            PointLedger::UserId.into_iden(),
            PointLedger::TaskId.into_iden(),
            PointLedger::Period.into_iden(),
        ];
        index(
            m,
            "point_ledger_once",
            PointLedger::Table.into_iden(),
            key,
            true,
        )
        .await?;
        index(
            m,
            "point_ledger_time",
            PointLedger::Table.into_iden(),
            vec![PointLedger::CreatedAt.into_iden()],
            false,
        )
        .await?;
        m.create_table(
            Table::create()
                .table(Uploads::Table)
                .col(id(Uploads::Id))
                .col(
                    ColumnDef::new(Uploads::Key)
                        .string_len(96)
                        .not_null()
                        .unique_key(),
                )
                .col(text(Uploads::ContentType, 32))
                .col(big(Uploads::Bytes))
                .col(ColumnDef::new(Uploads::Width).integer().not_null())
                .col(ColumnDef::new(Uploads::Height).integer().not_null())
                .col(text(Uploads::Ip, 64))
                .col(ColumnDef::new(Uploads::UserId).big_integer().null())
                .col(ColumnDef::new(Uploads::GuestId).big_integer().null())
                .col(big(Uploads::CreatedAt))
                .to_owned(),
        )
        .await?;
        index(
            m,
            "uploads_ip_time",
            Uploads::Table.into_iden(),
            vec![Uploads::Ip.into_iden(), Uploads::CreatedAt.into_iden()],
            false,
        )
        .await?;
        m.create_table(
            Table::create()
                .table(Feedback::Table)
                .col(id(Feedback::Id))
                .col(text(Feedback::Kind, 16))
                .col(ColumnDef::new(Feedback::Content).text().not_null())
                .col(text(Feedback::Contact, 400))
                .col(ColumnDef::new(Feedback::Images).text().not_null())
                .col(ColumnDef::new(Feedback::UserId).big_integer().null())
                .col(ColumnDef::new(Feedback::GuestId).big_integer().null())
                .col(text(Feedback::Ip, 64))
                .col(text(Feedback::Locale, 16))
                .col(big(Feedback::CreatedAt))
                .to_owned(),
        )
        .await?;
        index(
            m,
            "feedback_ip_time",
            Feedback::Table.into_iden(),
            vec![Feedback::Ip.into_iden(), Feedback::CreatedAt.into_iden()],
            false,
        )
        .await?;
        m.create_table(
            Table::create()
                .table(TrackLogs::Table)
                .col(id(TrackLogs::Id))
                .col(text(TrackLogs::Kind, 8))
                .col(text(TrackLogs::Event, 64))
                .col(big(TrackLogs::TimeMs))
                .col(ColumnDef::new(TrackLogs::Prop).text().not_null())
                .col(ColumnDef::new(TrackLogs::UserId).big_integer().null())
                .col(ColumnDef::new(TrackLogs::GuestId).big_integer().null())
                .col(big(TrackLogs::ReceivedAt))
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        let tables = vec![
            TrackLogs::Table.into_iden(),
            Feedback::Table.into_iden(),
            Uploads::Table.into_iden(),
            PointLedger::Table.into_iden(),
            TaskProgress::Table.into_iden(),
            Tasks::Table.into_iden(),
        ];
        drop_tables(m, tables).await?;
        m.alter_table(
            Table::alter()
                .table(Users::Table)
                .drop_column(Users::Points)
                .to_owned(),
        )
        .await
    }
}
