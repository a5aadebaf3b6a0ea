//! Light and dark theme: the names and which one a first visit gets.

use serde::{Deserialize, Serialize};

use crate::envelope::is_bitverse_agent;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    Light,
    Dark,
}

impl Theme {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Light => "light",
            Self::Dark => "dark",
        }
    }
}

pub const INVALID_THEME: &str = "Invalid theme name";

pub fn parse_theme(name: &str) -> Result<Theme, &'static str> {
    match name {
        "light" => Ok(Theme::Light),
        "dark" => Ok(Theme::Dark),
        _ => Err(INVALID_THEME),
    }
}

/// Where a first load can find a theme; any of them may be missing.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(optional_fields = nullable))]
#[serde(default, rename_all = "camelCase")]
pub struct ThemeSources {
    /// The `theme` query parameter: `0` light, `1` dark.
    pub query: Option<String>,
    pub session: Option<String>,
    pub local: Option<String>,
    pub user_agent: Option<String>,
}

/// Query, then session storage, then local storage, then dark inside the Bitverse app, then light.
/// A stored value that is not a theme name is skipped.
pub fn initial_theme(sources: &ThemeSources) -> Theme {
    let from_query = match sources.query.as_deref() {
        Some("0") => Some(Theme::Light),
        Some("1") => Some(Theme::Dark),
        _ => None,
    };
    let stored = |s: &Option<String>| s.as_deref().and_then(|name| parse_theme(name).ok());
    from_query
        .or_else(|| stored(&sources.session))
        .or_else(|| stored(&sources.local))
        .unwrap_or_else(|| {
            if sources.user_agent.as_deref().is_some_and(is_bitverse_agent) {
                Theme::Dark
            } else {
                Theme::Light
            }
        })
}
