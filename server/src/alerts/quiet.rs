//! Quiet hours in the reader's time zone: readers' zones, whether a moment falls in quiet hours,
//! and when they end.

use std::collections::HashMap;

use jiff::Timestamp;
use jiff::tz::TimeZone;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QuerySelect};

use crate::ctx::Ctx;
use crate::entity::user;
use crate::error::AppResult;

/// The time zone `name` names (IANA), or `None`.
pub fn zone(name: &str) -> Option<TimeZone> {
    TimeZone::get(name).ok()
}

/// The time zones of `users`.
pub async fn zones(
    ctx: &Ctx,
    users: impl Iterator<Item = i64>,
) -> AppResult<HashMap<i64, TimeZone>> {
    let rows: Vec<(i64, String)> = user::Entity::find()
        .select_only()
        .column(user::Column::Id)
        .column(user::Column::TimeZone)
        .filter(user::Column::Id.is_in(users.collect::<Vec<_>>()))
        .into_tuple()
        .all(&ctx.db)
        .await?;
    Ok(rows
        .into_iter()
        .filter_map(|(id, name)| Some((id, zone(&name)?)))
        .collect())
}

/// When quiet hours from `from` to `to` (minutes after midnight; `from > to` spans midnight)
/// that hold `now` end, in `zone`; `None` when `now` is not in them.
pub fn held_until(now: i64, zone: &TimeZone, from: i64, to: i64) -> Option<i64> {
    let local = Timestamp::from_second(now).ok()?.to_zoned(zone.clone());
    let minute = i64::from(local.hour()) * 60 + i64::from(local.minute());
    let quiet = if from < to {
        (from..to).contains(&minute)
    } else {
        minute >= from || minute < to
    };
    if !quiet {
        return None;
    }
    let hour = i8::try_from(to / 60).ok()?;
    let minute = i8::try_from(to % 60).ok()?;
    let today = local
        .with()
        .hour(hour)
        .minute(minute)
        .second(0)
        .subsec_nanosecond(0)
        .build()
        .ok()?;
    let end = if today.timestamp().as_second() > now {
        today
    } else {
        today.tomorrow().ok()?
    };
    Some(end.timestamp().as_second())
}

#[cfg(test)]
mod tests {
    use super::*;

    // 2026-11-22 00:00 UTC: 08:00 in Taipei.
    const MIDNIGHT_UTC: i64 = 1_795_305_600;

    #[test]
    fn quiet_hours_hold_in_the_reader_s_zone() {
        let taipei = zone("Asia/Taipei").expect("zone");
        let at = |h: i64, m: i64| h * 60 + m;
        // 08:00 in Taipei is inside 07:30–09:00, which ends at 09:00 Taipei (01:00 UTC).
        assert_eq!(
            held_until(MIDNIGHT_UTC, &taipei, at(7, 30), at(9, 0)),
            Some(MIDNIGHT_UTC + 3600)
        );
        assert_eq!(held_until(MIDNIGHT_UTC, &taipei, at(9, 0), at(10, 0)), None);
        // 22:00–07:00 spans midnight: 08:00 is outside; 23:00 (15:00 UTC) is inside and it
        // ends at 07:00 the next morning.
        assert_eq!(held_until(MIDNIGHT_UTC, &taipei, at(22, 0), at(7, 0)), None);
        let eleven_pm = MIDNIGHT_UTC + 15 * 3600;
        assert_eq!(
            held_until(eleven_pm, &taipei, at(22, 0), at(7, 0)),
            Some(MIDNIGHT_UTC + 23 * 3600)
        );
        // The same hours in UTC are other moments.
        let utc = zone("UTC").expect("utc");
        assert_eq!(
            held_until(MIDNIGHT_UTC, &utc, at(22, 0), at(7, 0)),
            Some(MIDNIGHT_UTC + 7 * 3600)
        );
        assert!(zone("Mars/Olympus").is_none());
    }
}
