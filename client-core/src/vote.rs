//! Readers' votes on items and the ranking they feed.
//!
//! A reader may set any of five votes on an item; `bullish` and `bearish` exclude each other
//! (setting one clears the other). The browser applies [`apply_vote`] at once and the server
//! the same rule to what it stores.
//!
//! Hot (see [`hot_score`]) is the item's weight over its age: every vote, comment, like and
//! tenth of a view adds, an important item or an "important" vote adds more, a toxic vote takes
//! away, and the whole is divided by `(age in hours + 2)^1.5`, so a new item with a little
//! attention passes an old one with more. Rising ([`rising_score`]) is how much an item's hot
//! score grew in the last hour.

use serde::{Deserialize, Serialize};

/// The orders a feed list takes: newest first, hot, rising.
pub const FEED_SORTS: [&str; 3] = ["new", "hot", "rising"];

/// The votes, in the order cards show them.
pub const VOTE_KINDS: [&str; 5] = ["bullish", "bearish", "important", "lol", "toxic"];
/// Each vote's mark on its button, in [`VOTE_KINDS`] order (the app's and the server's first
/// paint's cards draw the same).
pub const VOTE_MARKS: [&str; 5] = ["🐂", "🐻", "❗", "😂", "🤮"];

/// How hot decays with age: the power of `(age in hours + 2)`.
pub const GRAVITY: f64 = 1.5;

/// An item's votes, by kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct VoteCounts {
    pub bullish: i64,
    pub bearish: i64,
    pub important: i64,
    pub lol: i64,
    pub toxic: i64,
}

impl VoteCounts {
    /// The count of `kind`, for adding to it.
    pub fn of(&mut self, kind: &str) -> Option<&mut i64> {
        Some(match kind {
            "bullish" => &mut self.bullish,
            "bearish" => &mut self.bearish,
            "important" => &mut self.important,
            "lol" => &mut self.lol,
            "toxic" => &mut self.toxic,
            _ => return None,
        })
    }
}

/// `kinds` in [`VOTE_KINDS`] order, each once, unknown ones left out: how a reader's votes are
/// listed.
pub fn in_card_order(kinds: &[String]) -> Vec<String> {
    VOTE_KINDS
        .iter()
        .filter(|k| kinds.iter().any(|m| m == *k))
        .map(|k| (*k).to_owned())
        .collect()
}

/// What setting a vote does to a reader's votes on one item: the votes after, in
/// [`VOTE_KINDS`] order, or `None` when `kind` is not a vote.
pub fn apply_vote(mine: &[String], kind: &str, on: bool) -> Option<Vec<String>> {
    if !VOTE_KINDS.contains(&kind) {
        return None;
    }
    let rival = match kind {
        "bullish" => Some("bearish"),
        "bearish" => Some("bullish"),
        _ => None,
    };
    let kept = mine
        .iter()
        .filter(|m| *m != kind && !(on && rival == Some(m.as_str())));
    let set = on.then(|| kind.to_owned());
    Some(in_card_order(&kept.cloned().chain(set).collect::<Vec<_>>()))
}

/// What an item has gathered, for ranking.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(default)]
pub struct Signals {
    pub votes: VoteCounts,
    pub comments: i64,
    pub likes: i64,
    pub views: i64,
    /// The editors marked it important.
    pub important: bool,
}

impl Signals {
    /// The weight before age: 1 for being there, 3 for being important, 1 a vote (3 an
    /// "important" one), 2 a comment, 1 a like, 0.1 a view, −5 a toxic vote; never below 0.
    pub fn weight(&self) -> f64 {
        let v = &self.votes;
        let w = 1.0
            + if self.important { 3.0 } else { 0.0 }
            + (v.bullish + v.bearish + v.lol) as f64
            + 3.0 * v.important as f64
            + 2.0 * self.comments as f64
            + self.likes as f64
            + 0.1 * self.views as f64
            - 5.0 * v.toxic as f64;
        w.max(0.0)
    }
}

/// Hot: the weight over `(age in hours + 2)^1.5` (a negative age, an item from the future,
/// counts as new).
pub fn hot_score(signals: &Signals, age_seconds: i64) -> f64 {
    let hours = age_seconds.max(0) as f64 / 3600.0;
    signals.weight() / (hours + 2.0).powf(GRAVITY)
}

/// Rising: hot now less hot an hour ago, with what the item had then (an item younger than an
/// hour had nothing).
pub fn rising_score(now: &Signals, hour_ago: &Signals, age_seconds: i64) -> f64 {
    let before = if age_seconds >= 3600 {
        hot_score(hour_ago, age_seconds - 3600)
    } else {
        0.0
    };
    hot_score(now, age_seconds) - before
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attention_outweighs_a_little_age_and_toxic_votes_pull_down() {
        let quiet = Signals::default();
        let liked = Signals {
            likes: 10,
            comments: 3,
            ..Signals::default()
        };
        assert!(hot_score(&liked, 6 * 3600) > hot_score(&quiet, 0));
        assert!(hot_score(&quiet, 0) > hot_score(&quiet, 3600));
        let toxic = Signals {
            likes: 10,
            votes: VoteCounts {
                toxic: 3,
                ..VoteCounts::default()
            },
            ..Signals::default()
        };
        assert!(hot_score(&toxic, 0) < hot_score(&liked, 0));
        assert_eq!(
            hot_score(
                &Signals {
                    votes: VoteCounts {
                        toxic: 9,
                        ..VoteCounts::default()
                    },
                    ..Signals::default()
                },
                0
            ),
            0.0
        );
    }
}
