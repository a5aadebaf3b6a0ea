//! The task button: its label, whether it is disabled, and what pressing it does.

use serde::{Deserialize, Serialize};

use crate::constants::EXCHANGE_REGISTER_GROUP;

/// Every event a task can wait for, in catalogue order.
pub const EVENT_TYPES: [&str; 15] = [
    "bind_wallet",
    "follow_item",
    "bind_twitter",
    "share_content",
    "view_feed",
    "invite_friend",
    "share_recommend_tag_list",
    "follow_official_twitter",
    "join_community",
    "rate_app",
    "share_leaderboard",
    "share_track_homepage",
    "allow_notification",
    "share_to_twitter",
    "create_feedback",
];

/// Events the server sees happen itself (a wallet bound, a tag followed, feedback sent, a feed
/// read, a friend invited, a Telegram chat linked to the bot, a browser subscribed to
/// notifications): it never takes the client's word for them.
pub const SERVER_OBSERVED_EVENTS: [&str; 8] = [
    "bind_wallet",
    "follow_item",
    "bind_twitter",
    "view_feed",
    "invite_friend",
    "create_feedback",
    "join_community",
    "allow_notification",
];

/// Whether `POST /point/task_event_report` may report this event.
pub fn is_client_reported(event_type: &str) -> bool {
    EVENT_TYPES.contains(&event_type) && !SERVER_OBSERVED_EVENTS.contains(&event_type)
}

/// The task groups.
pub const TASK_GROUPS: [&str; 3] = ["novice", "daily", EXCHANGE_REGISTER_GROUP];

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum TaskStatus {
    #[default]
    NotStart,
    InProgress,
    ToReceive,
    Completed,
}

impl TaskStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::NotStart => "not_start",
            Self::InProgress => "in_progress",
            Self::ToReceive => "to_receive",
            Self::Completed => "completed",
        }
    }

    /// The label's locale key when the server gives none.
    pub fn default_label(self) -> &'static str {
        match self {
            Self::NotStart => "Task.notStart",
            Self::InProgress => "Task.inProgress",
            Self::ToReceive => "Task.getAward",
            Self::Completed => "Task.received",
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(optional_fields = nullable))]
#[serde(default)]
pub struct TaskButtonSpec {
    pub text: Option<String>,
    pub disabled: Option<bool>,
    pub app_link: Option<String>,
}

/// When the client reports the task's event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(from = "u8", into = "u8")]
pub enum ReportTime {
    /// The app reports once the user has done the thing.
    #[default]
    WhenFinished,
    /// Pressing the button is the thing (e.g. opening a page): report on click.
    OnClick,
}

impl From<u8> for ReportTime {
    fn from(v: u8) -> Self {
        if v == 1 {
            Self::OnClick
        } else {
            Self::WhenFinished
        }
    }
}

impl From<ReportTime> for u8 {
    fn from(v: ReportTime) -> Self {
        match v {
            ReportTime::WhenFinished => 0,
            ReportTime::OnClick => 1,
        }
    }
}

fn null_as_default<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Default + Deserialize<'de>,
{
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

/// A task as the server lists it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(default)]
pub struct Task {
    pub point_id: i64,
    pub event_type: String,
    pub status: TaskStatus,
    pub award: i64,
    #[serde(deserialize_with = "null_as_default")]
    #[cfg_attr(feature = "ts", ts(as = "Option<TaskButtonSpec>", optional = nullable))]
    pub button: TaskButtonSpec,
    #[cfg_attr(feature = "ts", ts(type = "0 | 1"))]
    pub report_time: ReportTime,
}

/// Everything the button depends on.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(optional_fields = nullable))]
#[serde(default, rename_all = "camelCase")]
pub struct TaskContext {
    pub task: Task,
    pub group: String,
    pub logged_in: bool,
    pub mobile_os: bool,
    /// Twitter binding status: `BOUND`, `UNBOUND`, `LOADING` or `QUERY_ERROR`.
    #[cfg_attr(feature = "ts", ts(type = "TwitterStatus | null"))]
    pub twitter: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TaskButton {
    pub label: String,
    pub disabled: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "action", rename_all = "camelCase")]
pub enum TaskPress {
    None,
    Login,
    OpenMeTab,
    Collect,
    Toast {
        toast: String,
    },
    OpenAppLink {
        url: String,
    },
    ReportAndOpen {
        url: String,
    },
    /// The web's page for the deed (`/recommendTag`), locale prefix not included.
    Navigate {
        path: String,
    },
    /// The reader's invitation code and link, to copy.
    ShowInvite,
    OpenFeedback,
    /// A deed only the app can see: say so, naming the app.
    NeedsApp,
}

pub fn task_button(ctx: &TaskContext) -> TaskButton {
    let task = &ctx.task;
    // The server's word ("Rate", "Connect") names the deed; once it is done, the label says what
    // is left (collect, or collected).
    let open = matches!(task.status, TaskStatus::NotStart | TaskStatus::InProgress);
    let label = match task.button.text.as_deref().map(str::trim) {
        Some(text) if open && !text.is_empty() => text.to_owned(),
        _ => task.status.default_label().to_owned(),
    };
    let server_disabled =
        ctx.group != EXCHANGE_REGISTER_GROUP && task.button.disabled == Some(true);
    TaskButton {
        label,
        disabled: task.status == TaskStatus::Completed || server_disabled,
    }
}

pub fn task_press(ctx: &TaskContext) -> TaskPress {
    let task = &ctx.task;
    if !ctx.logged_in {
        return if ctx.mobile_os {
            TaskPress::OpenMeTab
        } else {
            TaskPress::Login
        };
    }
    match task.status {
        TaskStatus::ToReceive => return TaskPress::Collect,
        TaskStatus::Completed => return TaskPress::None,
        TaskStatus::NotStart | TaskStatus::InProgress => {}
    }
    if task.event_type == "invite_friend" {
        return TaskPress::None;
    }
    if task.event_type == "follow_official_twitter" && ctx.twitter.as_deref() == Some("UNBOUND") {
        return TaskPress::Toast {
            toast: "FollowOfficialTwitter.unbound".to_owned(),
        };
    }
    match task.button.app_link.as_deref().map(str::trim) {
        Some(link) if !link.is_empty() => {
            let url = with_event_type(link, &task.event_type);
            match task.report_time {
                ReportTime::WhenFinished => TaskPress::OpenAppLink { url },
                ReportTime::OnClick => TaskPress::ReportAndOpen { url },
            }
        }
        _ => TaskPress::None,
    }
}

/// What a task's button does on the web. The app's screens the web also has are its pages and
/// dialogs there ("Read 3 stories" opens the home feed, "Invite a friend" the invitation code);
/// a deed only the app can see says so instead of trying to open the app.
pub fn web_task_press(ctx: &TaskContext) -> TaskPress {
    let open = matches!(
        ctx.task.status,
        TaskStatus::NotStart | TaskStatus::InProgress
    );
    match task_press(ctx) {
        TaskPress::None if ctx.logged_in && open && ctx.task.event_type == "invite_friend" => {
            TaskPress::ShowInvite
        }
        TaskPress::OpenAppLink { url } | TaskPress::ReportAndOpen { url }
            if crate::link::is_scheme_link(&url) =>
        {
            web_screen(&ctx.task.event_type)
        }
        press => press,
    }
}

fn web_screen(event_type: &str) -> TaskPress {
    let page = |path: &str| TaskPress::Navigate {
        path: path.to_owned(),
    };
    match event_type {
        "view_feed" | "share_content" | "share_track_homepage" => page("/"),
        "follow_item" | "share_recommend_tag_list" => page("/recommendTag"),
        "bind_wallet" | "bind_twitter" => page("/account#sign-in-methods"),
        "join_community" => page("/account#telegram"),
        "share_leaderboard" => page("/leaderboard"),
        // Browsers show notifications too: the Alerts page asks for them.
        "allow_notification" => page("/alerts"),
        "invite_friend" => TaskPress::ShowInvite,
        "create_feedback" => TaskPress::OpenFeedback,
        _ => TaskPress::NeedsApp,
    }
}

fn with_event_type(link: &str, event_type: &str) -> String {
    let (base, fragment) = link
        .split_once('#')
        .map_or((link, None), |(b, f)| (b, Some(f)));
    let separator = if !base.contains('?') {
        "?"
    } else if base.ends_with(['?', '&']) {
        ""
    } else {
        "&"
    };
    let query = crate::link::to_query(&[("event_type".to_owned(), event_type.to_owned())]);
    match fragment {
        Some(f) => format!("{base}{separator}{query}#{f}"),
        None => format!("{base}{separator}{query}"),
    }
}

/// The toast key shown when a task's app link cannot be opened.
pub fn app_link_error_key(event_type: &str) -> String {
    if EVENT_TYPES.contains(&event_type) {
        format!("{event_type}_AppDidNotExist")
    } else {
        "AppDidNotExist".to_owned()
    }
}
