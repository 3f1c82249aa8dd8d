//! The zone a Binance statement's file name states (`…(UTC+1)_ab12.csv`), named in the
//! `timezone-required` message so that the user passes that fixed offset rather than a
//! region whose offset moves in summer (D-163).

use std::fmt::Write as _;

use crate::report::FileReport;

/// Appends the offset the file name states to a `timezone-required` finding of `report`.
pub(super) fn add(report: &mut FileReport, file_name: &str) {
    let Some(offset) = stated_offset(file_name) else {
        return;
    };
    for finding in &mut report.findings {
        if finding.code == "timezone-required" {
            let _ = write!(
                finding.message,
                " (the file name says the times are in {}: --timezone {offset}; a fixed offset, unlike Europe/Madrid, which moves to +02:00 in summer)",
                offset.label
            );
        }
    }
}

struct Offset {
    label: String,
    sign: char,
    hours: u8,
    minutes: u8,
}

impl std::fmt::Display for Offset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{:02}:{:02}", self.sign, self.hours, self.minutes)
    }
}

/// `(UTC)`, `(UTC+1)`, `(UTC-6)`, `(UTC+5:30)` in the file name (the last path component).
fn stated_offset(file_name: &str) -> Option<Offset> {
    let base = file_name.rsplit(['/', '\\']).next()?;
    let start = base.find("(UTC")?;
    let rest = &base[start + 4..];
    let inner = &rest[..rest.find(')')?];
    if inner.is_empty() {
        return Some(Offset {
            label: "UTC".to_owned(),
            sign: '+',
            hours: 0,
            minutes: 0,
        });
    }
    let mut chars = inner.chars();
    let sign = chars.next().filter(|c| matches!(c, '+' | '-'))?;
    let body = chars.as_str();
    let (h, m) = body.split_once(':').unwrap_or((body, "0"));
    let ok = |t: &str| !t.is_empty() && t.len() <= 2 && t.bytes().all(|b| b.is_ascii_digit());
    if !ok(h) || !ok(m) {
        return None;
    }
    let (hours, minutes) = (h.parse().ok()?, m.parse().ok()?);
    (hours <= 14 && minutes < 60).then(|| Offset {
        label: format!("UTC{inner}"),
        sign,
        hours,
        minutes,
    })
}

#[cfg(test)]
mod tests;
