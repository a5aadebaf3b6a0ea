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
    /// What the configuration must offer for the task to lead somewhere.
    pub needs: Needs,
}

/// What a task leads to that the configuration may not offer.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Needs {
    Nothing,
    /// The app's store page, which the task opens (its link is the configured page).
    StorePage,
    /// Sign-in with X, to bind an X account.
    XSignIn,
    /// The Telegram bot, which sees the reader join.
    TelegramBot,
}

/// What this site's configuration offers the tasks. A task whose target is not offered is left
/// inactive: no task leads to a placeholder or a method that answers "not available".
#[derive(Default)]
pub struct Targets {
    /// The app's App Store page, else its Google Play page.
    pub store_page: Option<String>,
    pub x_sign_in: bool,
    pub telegram_bot: bool,
}

impl Targets {
    pub fn from_config(config: &crate::config::Config) -> Self {
        Self {
            store_page: config
                .app_store_url
                .clone()
                .or_else(|| config.play_store_url.clone()),
            x_sign_in: config.twitter_client_id.is_some(),
            telegram_bot: config.telegram_bot_token.is_some(),
        }
    }

    fn offers(&self, needs: Needs) -> bool {
        match needs {
            Needs::Nothing => true,
            Needs::StorePage => self.store_page.is_some(),
            Needs::XSignIn => self.x_sign_in,
            Needs::TelegramBot => self.telegram_bot,
        }
    }

    fn link(&self, def: &TaskDef) -> String {
        match (def.needs, &self.store_page) {
            (Needs::StorePage, Some(page)) => format!("external:{page}"),
            _ => def.app_link.to_owned(),
        }
    }
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
        needs: Needs::Nothing,
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
        needs: Needs::XSignIn,
        ..def("novice", "bind_twitter", 100, 1)
    },
    // Checked only as far as a bound X account: the button says to bind one first.
    TaskDef {
        app_link: "external:https://x.com/blockbrief",
        report_time: 1,
        button: Some("follow"),
        needs: Needs::XSignIn,
        ..def("novice", "follow_official_twitter", 50, 1)
    },
    // Done when the bot sees the reader link their Telegram chat (`bots::link::redeem`).
    TaskDef {
        app_link: "blockbrief://Telegram",
        button: Some("join"),
        needs: Needs::TelegramBot,
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
    // Opening the store is the deed: the stores forbid paying for a rating or for stars.
    TaskDef {
        report_time: 1,
        button: Some("rate"),
        needs: Needs::StorePage,
        ..def("novice", "rate_app", 100, 1)
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

/// Brings the tasks table in line with [`CATALOGUE`] and what `targets` offers; tasks no longer
/// listed or not offered are deactivated.
/// The `exchange_register` group's tasks are the partner exchanges' (`markets::exchanges`), kept
/// by the editors.
pub async fn seed(db: &DatabaseConnection, targets: &Targets) -> Result<(), DbErr> {
    let rows = CATALOGUE
        .iter()
        .enumerate()
        .map(|(sort, d)| task::ActiveModel {
            group: Set(d.group.to_owned()),
            event_type: Set(d.event_type.to_owned()),
            award: Set(d.award),
            target: Set(d.target),
            app_link: Set(targets.link(d)),
            report_time: Set(d.report_time),
            button_disabled: Set(d.web_disabled),
            titles: Set(per_locale(Some(format!("tasks.{}", d.title)))),
            button_texts: Set(per_locale(d.button.map(|b| format!("taskButtons.{b}")))),
            sort: Set(i32::try_from(sort).unwrap_or(i32::MAX)),
            active: Set(targets.offers(d.needs)),
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
