//! Breaking news: a story that gains sources fast is important on its own, without an editor —
//! at least `min_sources` distinct sources within `window_seconds` of each other. The reason
//! travels with the item ("4 sources in 9 minutes") and the card says it in the reader's
//! language.

use serde::{Deserialize, Serialize};

/// How many distinct sources make a story breaking, by default (`BREAKING_SOURCES`).
pub const BREAKING_SOURCES: u32 = 3;
/// Within how many minutes of each other, by default (`BREAKING_MINUTES`).
pub const BREAKING_MINUTES: u32 = 15;

/// Why an item is important without an editor saying so.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum ImportantReason {
    /// `sources` distinct sources reported it within `minutes`.
    Sources { sources: u32, minutes: u32 },
}

/// One report of a story: where it came from and when.
#[derive(Debug, Clone, Copy)]
pub struct Report<'a> {
    pub source: &'a str,
    pub published_at: i64,
}

/// The first stretch of `window_seconds` in which `min_sources` distinct sources reported the
/// story: why (every distinct source of that stretch, and its minutes) and when it began (the
/// report that becomes important); `None` while no stretch has enough.
pub fn breaking(
    reports: &[Report],
    min_sources: u32,
    window_seconds: i64,
) -> Option<(ImportantReason, i64)> {
    let mut sorted = reports.to_vec();
    sorted.sort_by_key(|r| r.published_at);
    for (i, first) in sorted.iter().enumerate() {
        let mut sources: Vec<&str> = Vec::new();
        let mut last = first.published_at;
        for report in &sorted[i..] {
            if report.published_at - first.published_at > window_seconds {
                break;
            }
            if !sources.contains(&report.source) {
                sources.push(report.source);
                last = report.published_at;
            }
        }
        if sources.len() as u32 >= min_sources.max(2) {
            let minutes = u32::try_from((last - first.published_at + 59) / 60).unwrap_or(u32::MAX);
            let reason = ImportantReason::Sources {
                sources: sources.len() as u32,
                minutes: minutes.max(1),
            };
            return Some((reason, first.published_at));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reports(list: &[(&'static str, i64)]) -> Vec<Report<'static>> {
        list.iter()
            .map(|(source, at)| Report {
                source,
                published_at: *at,
            })
            .collect()
    }

    #[test]
    fn three_sources_within_the_window_break() {
        let found = breaking(
            &reports(&[
                ("a.example", 0),
                ("b.example", 240),
                ("c.example", 540),
                ("d.example", 500),
            ]),
            3,
            900,
        );
        assert_eq!(
            found,
            Some((
                ImportantReason::Sources {
                    sources: 4,
                    minutes: 9
                },
                0
            ))
        );
    }

    #[test]
    fn one_source_many_times_or_spread_out_does_not() {
        let same = reports(&[("a.example", 0), ("a.example", 60), ("a.example", 120)]);
        assert_eq!(breaking(&same, 3, 900), None);
        let slow = reports(&[("a.example", 0), ("b.example", 1000), ("c.example", 2000)]);
        assert_eq!(breaking(&slow, 3, 900), None);
        // A later burst counts, whatever came before it, and begins where it began.
        let late = reports(&[
            ("a.example", 0),
            ("b.example", 5000),
            ("c.example", 5030),
            ("d.example", 5100),
        ]);
        assert_eq!(
            breaking(&late, 3, 900),
            Some((
                ImportantReason::Sources {
                    sources: 3,
                    minutes: 2
                },
                5000
            ))
        );
    }

    #[test]
    fn the_reason_reads_as_json_the_web_formats() {
        let reason = ImportantReason::Sources {
            sources: 4,
            minutes: 9,
        };
        assert_eq!(
            serde_json::to_value(reason).expect("json"),
            serde_json::json!({"kind": "sources", "sources": 4, "minutes": 9})
        );
    }
}
