//! Instants, fiscal dates and date arithmetic (`domain.md` §1.5).
//!
//! The fiscal time zones are computed arithmetically: Spain's rule (last Sunday of March to last
//! Sunday of October, switching at 01:00 UTC) is exact for every year the product handles, so no
//! time-zone database is needed here.

use chrono::{DateTime, Datelike, Months, NaiveDate, Timelike, Weekday};

use crate::error::{DomainError, DomainResult};

/// A civil date (fiscal dates, price and rate dates).
pub type Date = NaiveDate;

/// A UTC instant with nanosecond precision, stored as nanoseconds since the Unix epoch.
///
/// The representable range (1677 to 2262) covers the ledger's 2009 to 2100.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Instant(i64);

const NANOS_PER_SECOND: i64 = 1_000_000_000;

impl Instant {
    /// An instant from nanoseconds since the Unix epoch.
    pub const fn from_unix_nanos(nanos: i64) -> Self {
        Self(nanos)
    }

    /// Nanoseconds since the Unix epoch.
    pub const fn unix_nanos(self) -> i64 {
        self.0
    }

    /// Whole seconds since the Unix epoch (floor).
    pub const fn unix_seconds(self) -> i64 {
        self.0.div_euclid(NANOS_PER_SECOND)
    }

    /// An instant from a UTC date and a time of day.
    pub fn from_utc(date: Date, hour: u32, minute: u32, second: u32, nanos: u32) -> Option<Self> {
        let time = date.and_hms_nano_opt(hour, minute, second, nanos)?;
        time.and_utc().timestamp_nanos_opt().map(Self)
    }

    /// Parses the stored form `YYYY-MM-DDTHH:MM:SS[.f]Z` (1 to 9 fraction digits without
    /// trailing zeros).
    pub fn parse(text: &str) -> DomainResult<Self> {
        parse_instant(text).ok_or_else(|| DomainError::InvalidAmount {
            field: "instant".to_owned(),
            text: text.to_owned(),
        })
    }

    /// The UTC civil date.
    pub fn utc_date(self) -> Date {
        self.to_chrono().date_naive()
    }

    /// Difference `self − other` in whole seconds (floor of the nanosecond difference).
    pub fn seconds_since(self, other: Self) -> i64 {
        (self.0 - other.0).div_euclid(NANOS_PER_SECOND)
    }

    /// The absolute distance to `other` in nanoseconds.
    pub fn abs_diff_nanos(self, other: Self) -> u64 {
        self.0.abs_diff(other.0)
    }

    fn to_chrono(self) -> DateTime<chrono::Utc> {
        DateTime::from_timestamp_nanos(self.0)
    }
}

impl std::fmt::Display for Instant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let time = self.to_chrono();
        // chrono's `%Y-%m-%dT%H:%M:%S`, written directly: a report prints hundreds of
        // thousands of instants, and `format` parses its pattern on every call.
        let mut text = *b"0000-00-00T00:00:00";
        match put_ymd(&mut text, time.date_naive()) {
            Some(()) => {
                put_digits(text.get_mut(11..13), time.hour());
                put_digits(text.get_mut(14..16), time.minute());
                put_digits(text.get_mut(17..19), time.second());
                f.write_str(std::str::from_utf8(&text).unwrap_or_default())?;
            }
            None => write!(f, "{}", time.format("%Y-%m-%dT%H:%M:%S"))?,
        }
        let nanos = self.0.rem_euclid(NANOS_PER_SECOND);
        if nanos != 0 {
            let digits = format!("{nanos:09}");
            write!(f, ".{}", digits.trim_end_matches('0'))?;
        }
        f.write_str("Z")
    }
}

/// `date` as `YYYY-MM-DD`, exactly as chrono's `%Y-%m-%d` prints it.
pub fn format_date(date: Date) -> String {
    let mut text = *b"0000-00-00";
    match put_ymd(&mut text, date) {
        Some(()) => std::str::from_utf8(&text).unwrap_or_default().to_owned(),
        None => date.format("%Y-%m-%d").to_string(),
    }
}

/// Writes `date`'s `YYYY-MM-DD` into the first ten bytes of `text`; `None` (nothing written)
/// for a year outside 0 to 9999, which chrono prints with a sign or more digits.
fn put_ymd(text: &mut [u8], date: Date) -> Option<()> {
    let year = u32::try_from(date.year())
        .ok()
        .filter(|year| *year <= 9999)?;
    put_digits(text.get_mut(0..4), year);
    put_digits(text.get_mut(5..7), date.month());
    put_digits(text.get_mut(8..10), date.day());
    Some(())
}

/// Writes the last `slot.len()` decimal digits of `n` into `slot`, zero-padded.
fn put_digits(slot: Option<&mut [u8]>, mut n: u32) {
    for byte in slot.unwrap_or_default().iter_mut().rev() {
        *byte = b"0123456789"
            .get((n % 10) as usize)
            .copied()
            .unwrap_or(b'0');
        n /= 10;
    }
}

fn parse_instant(text: &str) -> Option<Instant> {
    let bytes = text.as_bytes();
    if bytes.len() < 20 || !text.is_ascii() || *bytes.last()? != b'Z' {
        return None;
    }
    let digits = |range: std::ops::Range<usize>| -> Option<u32> {
        let part = text.get(range)?;
        if part.bytes().all(|b| b.is_ascii_digit()) {
            part.parse().ok()
        } else {
            None
        }
    };
    if bytes[4] != b'-'
        || bytes[7] != b'-'
        || bytes[10] != b'T'
        || bytes[13] != b':'
        || bytes[16] != b':'
    {
        return None;
    }
    let year = i32::try_from(digits(0..4)?).ok()?;
    let date = Date::from_ymd_opt(year, digits(5..7)?, digits(8..10)?)?;
    let (hour, minute, second) = (digits(11..13)?, digits(14..16)?, digits(17..19)?);
    let rest = &text[19..text.len() - 1];
    let nanos = if rest.is_empty() {
        0
    } else {
        let fraction = rest.strip_prefix('.')?;
        if fraction.is_empty() || fraction.len() > 9 || fraction.ends_with('0') {
            return None;
        }
        let value = digits(20..20 + fraction.len())?;
        value * 10u32.pow(9 - u32::try_from(fraction.len()).ok()?)
    };
    if second > 59 {
        return None;
    }
    Instant::from_utc(date, hour, minute, second, nanos)
}

/// The fiscal time zone setting (`domain.md` §0.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum FiscalTimezone {
    /// Peninsula and Balearic Islands: UTC+1, UTC+2 in summer.
    #[default]
    EuropeMadrid,
    /// Canary Islands: UTC+0, UTC+1 in summer.
    AtlanticCanary,
}

impl FiscalTimezone {
    /// The setting's spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::EuropeMadrid => "Europe/Madrid",
            Self::AtlanticCanary => "Atlantic/Canary",
        }
    }

    /// Parses the setting's spelling.
    pub fn parse(text: &str) -> DomainResult<Self> {
        match text {
            "Europe/Madrid" => Ok(Self::EuropeMadrid),
            "Atlantic/Canary" => Ok(Self::AtlanticCanary),
            _ => Err(DomainError::InvalidSetting {
                key: "fiscal_timezone".to_owned(),
                reason: format!("{text:?} is not Europe/Madrid or Atlantic/Canary"),
            }),
        }
    }

    /// Offset from UTC in seconds at `instant`.
    pub fn offset_seconds(self, instant: Instant) -> i64 {
        let standard = match self {
            Self::EuropeMadrid => 3600,
            Self::AtlanticCanary => 0,
        };
        if is_summer(instant) {
            standard + 3600
        } else {
            standard
        }
    }

    /// The fiscal date of `instant`: its civil date in this zone.
    pub fn fiscal_date(self, instant: Instant) -> Date {
        let local = instant.unix_seconds() + self.offset_seconds(instant);
        let days = local.div_euclid(86_400);
        // Day 719_163 of the proleptic calendar counted from 0001-01-01 is 1970-01-01.
        Date::from_num_days_from_ce_opt(i32::try_from(days + 719_163).unwrap_or(i32::MAX))
            .unwrap_or(Date::MAX)
    }

    /// The first instant of the civil day `date` in this zone.
    pub fn start_of_day(self, date: Date) -> Instant {
        let midnight_utc = date
            .and_hms_opt(0, 0, 0)
            .map_or(0, |t| t.and_utc().timestamp());
        // The offset at local midnight equals the offset one hour before the UTC midnight of
        // that date in both zones, because the switches happen at 01:00 UTC.
        let probe = Instant::from_unix_nanos((midnight_utc - 3600) * NANOS_PER_SECOND);
        let offset = self.offset_seconds(probe);
        Instant::from_unix_nanos((midnight_utc - offset) * NANOS_PER_SECOND)
    }

    /// The first instant after the civil day `date` in this zone (an exclusive end bound).
    pub fn end_of_day(self, date: Date) -> Instant {
        self.start_of_day(date.succ_opt().unwrap_or(Date::MAX))
    }
}

/// 01:00 UTC on the last Sunday of `month` of `year`, in Unix seconds.
fn last_sunday_0100_utc(year: i32, month: u32) -> i64 {
    let last_day = if month == 12 {
        Date::from_ymd_opt(year, 12, 31)
    } else {
        Date::from_ymd_opt(year, month + 1, 1).and_then(|d| d.pred_opt())
    }
    .unwrap_or(Date::MIN);
    let back = last_day.weekday().num_days_from_sunday();
    let sunday = last_day - chrono::Days::new(u64::from(back));
    debug_assert_eq!(sunday.weekday(), Weekday::Sun);
    sunday
        .and_hms_opt(1, 0, 0)
        .map_or(0, |t| t.and_utc().timestamp())
}

/// The summer-time switches of the years 1900 to 2199 (start, end, start, …) as Unix seconds,
/// ascending. The intervals `[start, end)` lie inside their years, so an instant between the
/// first and the last switch is in summer time exactly when an odd number of switches are at or
/// before it: a search in a table built once, where the calendar arithmetic took a tenth of the
/// engine's valuation (a fiscal date per instant).
static SUMMER_SWITCHES: std::sync::LazyLock<Vec<i64>> = std::sync::LazyLock::new(|| {
    (1900..2200)
        .flat_map(|year| [summer_start(year), summer_end(year)])
        .collect()
});

/// Whether `instant` falls in Spain's summer time.
fn is_summer(instant: Instant) -> bool {
    let seconds = instant.unix_seconds();
    let switches = SUMMER_SWITCHES.as_slice();
    match (switches.first(), switches.last()) {
        (Some(&first), Some(&last)) if first <= seconds && seconds < last => {
            switches.partition_point(|&switch| switch <= seconds) % 2 == 1
        }
        _ => is_summer_computed(instant),
    }
}

/// [`is_summer`] from the calendar: within the instant's UTC year, from the last Sunday of
/// March to the last Sunday of October at 01:00 UTC.
fn is_summer_computed(instant: Instant) -> bool {
    let year = instant.utc_date().year();
    let seconds = instant.unix_seconds();
    summer_start(year) <= seconds && seconds < summer_end(year)
}

fn summer_start(year: i32) -> i64 {
    last_sunday_0100_utc(year, 3)
}

fn summer_end(year: i32) -> i64 {
    last_sunday_0100_utc(year, 10)
}

/// `date` plus `months` months, date to date; a missing day becomes the month's last day.
pub fn add_months(date: Date, months: i32) -> Date {
    let shifted = if months >= 0 {
        date.checked_add_months(Months::new(months.unsigned_abs()))
    } else {
        date.checked_sub_months(Months::new(months.unsigned_abs()))
    };
    shifted.unwrap_or(if months >= 0 { Date::MAX } else { Date::MIN })
}

/// `date` plus `years` years, date to date (2012-02-29 + 1 year = 2013-02-28).
pub fn add_years(date: Date, years: i32) -> Date {
    add_months(date, years.saturating_mul(12))
}

#[cfg(test)]
mod tests;
