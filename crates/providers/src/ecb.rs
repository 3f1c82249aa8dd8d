//! ECB euro reference rates: the whole history file once, then the ECB Data API (`csvdata`)
//! for the days after the latest stored rate.
//!
//! The history zip is returned as bytes: the cli reads it with the ECB file reader of the
//! `rates import` command, so a synced history and an imported one are the same rates.

use chrono::NaiveDate;
use rust_decimal::Decimal;

use crate::answers::{excerpt, expect_ok};
use crate::http::Client;
use crate::{AnswerError, Family};

/// The path of the whole-history zip on the ECB's main site.
pub const HISTORY_PATH: &str = "/stats/eurofxref/eurofxref-hist.zip";

/// One rate: units of `currency` per 1 EUR on `date`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EcbRate {
    /// Three-letter code.
    pub currency: String,
    /// The ECB publication day.
    pub date: NaiveDate,
    /// The rate, > 0.
    pub rate: Decimal,
}

/// The Data API request of every currency's daily reference rate from `from` to `to`.
pub fn data_path(from: NaiveDate, to: NaiveDate) -> String {
    format!("/service/data/EXR/D..EUR.SP00.A?startPeriod={from}&endPeriod={to}&format=csvdata")
}

/// Downloads the history zip. A non-200 status or an HTML/JSON answer is refused.
pub fn fetch_history(client: &mut Client) -> Result<Vec<u8>, AnswerError> {
    let response = client.get(Family::Ecb, HISTORY_PATH, None)?;
    let request = format!("{}{HISTORY_PATH}", client.config().base(Family::Ecb));
    let bad = |reason: String| AnswerError::Bad {
        provider: "ecb",
        request: request.clone(),
        reason,
    };
    expect_ok(response.status, &response.body).map_err(bad)?;
    if let Some(ct) = response.content_type.as_deref() {
        let lower = ct.to_ascii_lowercase();
        if lower.contains("html") || lower.contains("json") {
            return Err(bad(format!("the answer is {ct}, not a zip file")));
        }
    }
    Ok(response.body)
}

/// Asks the Data API for `from..=to`. "No results found" (HTTP 404, e.g. a weekend, or today
/// before publication) is an empty answer.
pub fn fetch_days(
    client: &mut Client,
    from: NaiveDate,
    to: NaiveDate,
) -> Result<Vec<EcbRate>, AnswerError> {
    let path = data_path(from, to);
    let response = client.get(Family::EcbData, &path, None)?;
    let request = format!("{}{path}", client.config().base(Family::EcbData));
    if response.status == 404 {
        return Ok(Vec::new());
    }
    let bad = |reason: String| AnswerError::Bad {
        provider: "ecb",
        request: request.clone(),
        reason,
    };
    expect_ok(response.status, &response.body).map_err(bad)?;
    parse_csvdata(&response.body, from, to).map_err(bad)
}

/// Reads a `format=csvdata` answer by header name (`CURRENCY`, `TIME_PERIOD`, `OBS_VALUE`).
/// An empty or `NaN` value, a value ≤ 0 or a day outside `from..=to` refuses the answer.
pub fn parse_csvdata(body: &[u8], from: NaiveDate, to: NaiveDate) -> Result<Vec<EcbRate>, String> {
    let mut reader = csv::ReaderBuilder::new().flexible(false).from_reader(body);
    let headers = reader
        .headers()
        .map_err(|e| format!("unreadable CSV header ({e}): {}", excerpt(body)))?
        .clone();
    let column = |name: &str| {
        headers
            .iter()
            .position(|h| h.trim() == name)
            .ok_or_else(|| format!("no {name} column in the answer: {}", excerpt(body)))
    };
    let (currency, period, value) = (
        column("CURRENCY")?,
        column("TIME_PERIOD")?,
        column("OBS_VALUE")?,
    );
    let mut out = Vec::new();
    for (index, record) in reader.records().enumerate() {
        let line = index + 2;
        let record = record.map_err(|e| format!("line {line}: {e}"))?;
        let cell = |i: usize| record.get(i).unwrap_or_default().trim();
        let code = cell(currency);
        if code.len() != 3 || !code.bytes().all(|b| b.is_ascii_uppercase()) {
            return Err(format!(
                "line {line}: currency {code:?} is not a three-letter code"
            ));
        }
        let date = NaiveDate::parse_from_str(cell(period), "%Y-%m-%d")
            .map_err(|_| format!("line {line}: TIME_PERIOD {:?} is not a date", cell(period)))?;
        if date < from || date > to {
            return Err(format!(
                "line {line}: {date} is outside the days asked, {from} to {to}"
            ));
        }
        let rate: Decimal = cell(value)
            .parse()
            .map_err(|_| format!("line {line}: OBS_VALUE {:?} is not a number", cell(value)))?;
        if rate <= Decimal::ZERO {
            return Err(format!("line {line}: rate {rate} is not positive"));
        }
        out.push(EcbRate {
            currency: code.to_owned(),
            date,
            rate,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
