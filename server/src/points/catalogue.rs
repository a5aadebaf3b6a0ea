//! The task catalogue, seeded into the database at start-up (updated in place, so awards and
//! links can be changed here and take effect on the next start). Texts come from `locales/`.

use std::collections::BTreeMap;

use client_core::constants::EXCHANGE_REGISTER_GROUP;
use client_core::locale::LOCALES;
use sea_orm::sea_query::OnConflict;
use sea_orm::{ColumnTrait, DatabaseConnection, DbErr, EntityTrait, QueryFilter, Set};

use crate::entity::task;
use crate::i18n::t;

pub struct TaskDef {
    pub group: &'static str,
    pub event_type: &'static str,
    /// Key of the title under `tasks.` in the locale files.
    pub title: &'static str,
    pub award: i64,
    /// Events needed before the award can be collected.
    pub target: i32,
    pub app_link: &'static str,
    /// 0: reported when done; 1: pressing the button is the deed, reported on click.
    pub report_time: i32,
    /// Key of a special button text under `taskButtons.` (else the client's default label).
    pub button: Option<&'static str>,
    /// Cannot be done on the web.
    pub web_disabled: bool,
}

const fn def(group: &'static str, event_type: &'static str, award: i64, target: i32) -> TaskDef {
    TaskDef {
        group,
        event_type,
        title: event_type,
        award,
        target,
        app_link: "",
        report_time: 0,
        button: None,
        web_disabled: false,
    }
}

pub const CATALOGUE: &[TaskDef] = &[
    TaskDef {
        app_link: "blockbrief://UserProfile",
        ..def("novice", "bind_wallet", 200, 1)
    },
    TaskDef {
        app_link: "blockbrief://RecommendTag",
        ..def("novice", "follow_item", 50, 3)
    },
    TaskDef {
        app_link: "blockbrief://UserProfile",
        ..def("novice", "bind_twitter", 100, 1)
    },
    TaskDef {
        app_link: "external:https://x.com/blockbrief",
        report_time: 1,
        button: Some("follow"),
        ..def("novice", "follow_official_twitter", 50, 1)
    },
    TaskDef {
        app_link: "external:https://t.me/blockbrief",
        report_time: 1,
        button: Some("join"),
        ..def("novice", "join_community", 50, 1)
    },
    TaskDef {
        app_link: "blockbrief://Invite",
        ..def("novice", "invite_friend", 100, 1)
    },
    TaskDef {
        app_link: "blockbrief://Feedback",
        ..def("novice", "create_feedback", 30, 1)
    },
    TaskDef {
        app_link: "blockbrief://Alerts",
        ..def("novice", "allow_notification", 30, 1)
    },
    TaskDef {
        app_link: "external:https://apps.apple.com/app/blockbrief",
        report_time: 1,
        button: Some("rate"),
        ..def("novice", "app_store_five_stars", 100, 1)
    },
    TaskDef {
        app_link: "blockbrief://TabHome",
        ..def("daily", "view_feed", 10, 3)
    },
    TaskDef {
        app_link: "blockbrief://TabHome",
        ..def("daily", "share_content", 20, 1)
    },
    TaskDef {
        app_link: "blockbrief://RecommendTag",
        ..def("daily", "share_recommend_tag_list", 20, 1)
    },
    TaskDef {
        app_link: "blockbrief://UserProfile",
        ..def("daily", "share_leaderboard", 20, 1)
    },
    TaskDef {
        app_link: "blockbrief://UserProfile",
        ..def("daily", "share_track_homepage", 20, 1)
    },
    TaskDef {
        app_link: "external:https://x.com/intent/post?text=Crypto%20news%20in%20my%20language%20on%20Blockbrief",
        report_time: 1,
        ..def("daily", "share_to_twitter", 20, 1)
    },
];

fn per_locale(key: Option<String>) -> String {
    let map: BTreeMap<&str, String> = LOCALES
        .iter()
        .map(|l| (*l, key.as_deref().map(|k| t(l, k, &[])).unwrap_or_default()))
        .collect();
    serde_json::to_string(&map).unwrap_or_default()
}

/// A task is known by its group and event: written again, everything else is replaced.
pub fn task_upsert() -> OnConflict {
    OnConflict::columns([task::Column::Group, task::Column::EventType])
        .update_columns([
            task::Column::Award,
            task::Column::Target,
            task::Column::AppLink,
            task::Column::ReportTime,
            task::Column::ButtonDisabled,
            task::Column::Titles,
            task::Column::ButtonTexts,
            task::Column::Sort,
            task::Column::Active,
        ])
        .to_owned()
}

/// Brings the tasks table in line with [`CATALOGUE`]; tasks no longer listed are deactivated.
/// The `exchange_register` group's tasks are the partner exchanges' (`markets::exchanges`), kept
/// by the editors.
pub async fn seed(db: &DatabaseConnection) -> Result<(), DbErr> {
    let rows = CATALOGUE
        .iter()
        .enumerate()
        .map(|(sort, d)| task::ActiveModel {
            group: Set(d.group.to_owned()),
            event_type: Set(d.event_type.to_owned()),
            award: Set(d.award),
            target: Set(d.target),
            app_link: Set(d.app_link.to_owned()),
            report_time: Set(d.report_time),
            button_disabled: Set(d.web_disabled),
            titles: Set(per_locale(Some(format!("tasks.{}", d.title)))),
            button_texts: Set(per_locale(d.button.map(|b| format!("taskButtons.{b}")))),
            sort: Set(i32::try_from(sort).unwrap_or(i32::MAX)),
            active: Set(true),
            ..Default::default()
        });
    // One transaction: other instances never see the catalogue half-updated.
    let txn = crate::db::begin_write(db).await?;
    task::Entity::update_many()
        .col_expr(task::Column::Active, sea_orm::sea_query::Expr::value(false))
        .filter(task::Column::Active.eq(true))
        .filter(task::Column::Group.ne(EXCHANGE_REGISTER_GROUP))
        .exec(&txn)
        .await?;
    task::Entity::insert_many(rows)
        .on_conflict(task_upsert())
        .exec_without_returning(&txn)
        .await?;
    txn.commit().await
}
