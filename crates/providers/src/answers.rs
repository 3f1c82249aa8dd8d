//! The pure mapping of each provider's answer to daily closes: bytes in, closes or a typed
//! refusal out. No IO; every shape is the provider's own (see the fixtures in the tests, each
//! with its public source).
//!
//! Numbers are read from their JSON text into decimals (strings and JSON numbers alike), never
//! through a float. A candle is stamped with its UTC open time; its close is the day's close.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde_json::value::RawValue;

use crate::{DailyClose, date_of_day, unix_day};

/// What a provider's answer says, before the dates are checked against the request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Parsed {
    /// Candles: (UTC open time in Unix seconds, close), in the provider's order.
    Candles(Vec<(i64, Decimal)>),
    /// The provider does not know the market (its own words).
    NotListed(String),
}

/// The answer of one request: status, content type and body.
#[derive(Clone, Copy, Debug)]
pub struct Answer<'a> {
    /// HTTP status.
    pub status: u16,
    /// `Content-Type`, when sent.
    pub content_type: Option<&'a str>,
    /// Body bytes.
    pub body: &'a [u8],
}

type Raw = Box<RawValue>;

/// A status that is not 200 as the reason an answer is refused: `HTTP 503: <body excerpt>`.
pub(crate) fn status_text(status: u16, body: &[u8]) -> String {
    format!("HTTP {status}: {}", excerpt(body))
}

/// Refuses an answer whose status is not 200.
pub(crate) fn expect_ok(status: u16, body: &[u8]) -> Result<(), String> {
    if status == 200 {
        Ok(())
    } else {
        Err(status_text(status, body))
    }
}

/// A short, printable excerpt of a body for messages.
pub fn excerpt(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let mut out: String = text
        .chars()
        .take(160)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if text.chars().count() > 160 {
        out.push('…');
    }
    out
}

/// A JSON answer is expected: the content type, when sent, must say JSON.
fn expect_json(answer: &Answer<'_>) -> Result<(), String> {
    match answer.content_type {
        Some(ct) if !ct.to_ascii_lowercase().contains("json") => Err(format!(
            "the answer is {ct}, not JSON: {}",
            excerpt(answer.body)
        )),
        _ => Ok(()),
    }
}

fn json<'a, T: serde::de::Deserialize<'a>>(body: &'a [u8]) -> Result<T, String> {
    serde_json::from_slice(body).map_err(|e| format!("malformed JSON ({e}): {}", excerpt(body)))
}

/// A decimal from a JSON number or string literal (exponents accepted).
pub(crate) fn decimal(raw: &RawValue) -> Result<Decimal, String> {
    let text = raw.get().trim();
    let text = text
        .strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .unwrap_or(text);
    let parsed = if text.contains(['e', 'E']) {
        Decimal::from_scientific(text).ok()
    } else {
        text.parse::<Decimal>().ok()
    };
    parsed.ok_or_else(|| format!("{text} is not a number"))
}

/// An integer from a JSON number or string literal.
fn integer(raw: &RawValue) -> Result<i64, String> {
    let text = raw.get().trim();
    let text = text
        .strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .unwrap_or(text);
    text.parse::<i64>()
        .map_err(|_| format!("{text} is not a whole number"))
}

fn field<'r>(row: &'r [Raw], index: usize, what: &str) -> Result<&'r RawValue, String> {
    row.get(index)
        .map(AsRef::as_ref)
        .ok_or_else(|| format!("a row has no {what} (position {})", index + 1))
}

/// Milliseconds to seconds; a time that is not a whole second is refused.
fn millis(ms: i64) -> Result<i64, String> {
    if ms % 1000 == 0 {
        Ok(ms / 1000)
    } else {
        Err(format!("time {ms} is not a whole second"))
    }
}

/// Kraken `/0/public/OHLC`: `{"error":[],"result":{"<pair>":[[time,o,h,l,c,vwap,vol,count],…],"last":n}}`;
/// errors come in HTTP 200 bodies (`EQuery:Unknown asset pair`).
pub fn kraken(answer: &Answer<'_>) -> Result<Parsed, String> {
    expect_json(answer)?;
    let top: BTreeMap<String, Raw> = json(answer.body)?;
    let errors: Vec<String> = match top.get("error") {
        Some(raw) => json(raw.get().as_bytes())?,
        None => Vec::new(),
    };
    if let Some(first) = errors.first() {
        if first.starts_with("EQuery:Unknown asset pair") {
            return Ok(Parsed::NotListed(first.clone()));
        }
        return Err(format!("Kraken error {}", errors.join(", ")));
    }
    expect_ok(answer.status, answer.body)?;
    let result: BTreeMap<String, Raw> = match top.get("result") {
        Some(raw) => json(raw.get().as_bytes())?,
        None => return Err("no result in the answer".to_owned()),
    };
    let mut series = result.iter().filter(|(k, _)| k.as_str() != "last");
    let Some((_, rows)) = series.next() else {
        return Err("no pair in the result".to_owned());
    };
    if series.next().is_some() {
        return Err("more than one pair in the result".to_owned());
    }
    let rows: Vec<Vec<Raw>> = json(rows.get().as_bytes())?;
    let mut out = Vec::with_capacity(rows.len());
    for row in &rows {
        let time = integer(field(row, 0, "time")?)?;
        let close = decimal(field(row, 4, "close")?)?;
        out.push((time, close));
    }
    Ok(Parsed::Candles(out))
}

/// Kraken `/0/public/AssetPairs`: its EUR pairs as cartera symbol → altname (the name OHLC
/// takes). Legacy asset codes drop their `X` prefix (`XXBT` → `XBT`, `XETH` → `ETH`), then
/// Kraken's own aliases map back (`XBT` → `BTC`, `XDG` → `DOGE`); dark-pool pairs (`.d`) are
/// skipped. Shape: rotki `rotkehlchen/tests/data/assets_kraken.json` (a real answer of 2021-12).
pub fn kraken_eur_pairs(answer: &Answer<'_>) -> Result<BTreeMap<String, String>, String> {
    expect_json(answer)?;
    expect_ok(answer.status, answer.body)?;
    let top: BTreeMap<String, Raw> = json(answer.body)?;
    let errors: Vec<String> = match top.get("error") {
        Some(raw) => json(raw.get().as_bytes())?,
        None => Vec::new(),
    };
    if let Some(first) = errors.first() {
        return Err(format!("Kraken error {first}"));
    }
    let Some(result) = top.get("result") else {
        return Err("no result in the answer".to_owned());
    };
    let pairs: BTreeMap<String, BTreeMap<String, Raw>> = json(result.get().as_bytes())?;
    let text = |pair: &BTreeMap<String, Raw>, field: &str| -> Option<String> {
        serde_json::from_str::<String>(pair.get(field)?.get()).ok()
    };
    let mut out = BTreeMap::new();
    for (key, pair) in &pairs {
        if key.contains('.') {
            continue;
        }
        let (Some(altname), Some(base), Some(quote)) = (
            text(pair, "altname"),
            text(pair, "base"),
            text(pair, "quote"),
        ) else {
            return Err(format!("pair {key} has no altname, base or quote"));
        };
        if quote != "ZEUR" && quote != "EUR" {
            continue;
        }
        let code = if base.len() == 4 && base.starts_with('X') {
            base.get(1..).unwrap_or_default().to_owned()
        } else {
            base
        };
        let symbol = match code.as_str() {
            "XBT" => "BTC".to_owned(),
            "XDG" => "DOGE".to_owned(),
            _ => code,
        };
        out.insert(symbol, altname);
    }
    Ok(out)
}

/// Whether a Kraken HTTP 200 body is its throttle (`EGeneral:Too many requests`).
pub fn kraken_throttled(body: &[u8]) -> bool {
    let needle = b"EGeneral:Too many requests";
    body.windows(needle.len()).any(|w| w == needle)
}

/// Whether a Bitstamp body is its rate-limit error (`response_code` `400.002`, reference §8).
pub fn bitstamp_throttled(body: &[u8]) -> bool {
    let needle = b"400.002";
    body.windows(needle.len()).any(|w| w == needle)
}

/// A 4xx other than 429: the provider refuses the market (unknown pair, bad request).
fn refused(answer: &Answer<'_>) -> Option<Parsed> {
    (400..500)
        .contains(&answer.status)
        .then(|| Parsed::NotListed(status_text(answer.status, answer.body)))
}

/// Coinbase Exchange candles: newest first, `[time, low, high, open, close, volume]` numbers;
/// `[]` before the product was listed; `{"message":"NotFound"}` with a 404 for an unknown one.
pub fn coinbase(answer: &Answer<'_>) -> Result<Parsed, String> {
    array_candles(answer, "time", Ok)
}

/// Bitvavo candles: newest first, `[ms, "open", "high", "low", "close", "volume"]`; errors
/// `{"errorCode":205,"error":"market parameter NOPE-EUR is invalid."}` with a 400.
pub fn bitvavo(answer: &Answer<'_>) -> Result<Parsed, String> {
    array_candles(answer, "time", millis)
}

/// Binance klines: oldest first, 12-element arrays, open time in ms, close at position 5;
/// `{"code":-1121,"msg":"Invalid symbol."}` with a 400.
pub fn binance(answer: &Answer<'_>) -> Result<Parsed, String> {
    array_candles(answer, "open time", millis)
}

/// Candles as JSON arrays with the time at position 0 (named `time` in messages) and the close
/// at position 4; `seconds` turns the provider's time unit into seconds.
fn array_candles(
    answer: &Answer<'_>,
    time: &str,
    seconds: fn(i64) -> Result<i64, String>,
) -> Result<Parsed, String> {
    if let Some(refusal) = refused(answer) {
        return Ok(refusal);
    }
    expect_json(answer)?;
    let rows: Vec<Vec<Raw>> = json(answer.body)?;
    rows.iter()
        .map(|row| {
            Ok((
                seconds(integer(field(row, 0, time)?)?)?,
                decimal(field(row, 4, "close")?)?,
            ))
        })
        .collect::<Result<_, String>>()
        .map(Parsed::Candles)
}

/// Bitstamp OHLC: `{"data":{"ohlc":[{"close":"…","timestamp":"…",…},…],"pair":"BTC/EUR"}}`,
/// oldest first, every field a string.
pub fn bitstamp(answer: &Answer<'_>) -> Result<Parsed, String> {
    if let Some(refusal) = refused(answer) {
        return Ok(refusal);
    }
    expect_json(answer)?;
    let top: BTreeMap<String, Raw> = json(answer.body)?;
    let Some(data) = top.get("data") else {
        return Err(format!("no data in the answer: {}", excerpt(answer.body)));
    };
    let data: BTreeMap<String, Raw> = json(data.get().as_bytes())?;
    let Some(ohlc) = data.get("ohlc") else {
        return Err("no ohlc in the answer".to_owned());
    };
    let rows: Vec<BTreeMap<String, Raw>> = json(ohlc.get().as_bytes())?;
    rows.iter()
        .map(|row| {
            let time = row.get("timestamp").ok_or("a candle has no timestamp")?;
            let close = row.get("close").ok_or("a candle has no close")?;
            Ok((integer(time)?, decimal(close)?))
        })
        .collect::<Result<_, String>>()
        .map(Parsed::Candles)
}

/// CoinGecko `market_chart/range`: `{"prices":[[ms, number],…],…}`. A point stamped D 00:00 UTC
/// is a snapshot, the close of D − 1 (returned here stamped D − 1); points at other times (the
/// trailing "now" point) are dropped. 404 `{"error":"coin not found"}` and the 401 of the
/// 365-day window are refusals.
pub fn coingecko(answer: &Answer<'_>) -> Result<Parsed, String> {
    if let Some(refusal) = refused(answer) {
        return Ok(refusal);
    }
    expect_json(answer)?;
    let top: BTreeMap<String, Raw> = json(answer.body)?;
    let Some(prices) = top.get("prices") else {
        return Err(format!("no prices in the answer: {}", excerpt(answer.body)));
    };
    let rows: Vec<Vec<Raw>> = json(prices.get().as_bytes())?;
    let mut out = Vec::with_capacity(rows.len());
    for row in &rows {
        let ms = integer(field(row, 0, "time")?)?;
        let price = decimal(field(row, 1, "price")?)?;
        if ms.rem_euclid(86_400_000) != 0 {
            continue;
        }
        out.push((ms / 1000 - 86_400, price));
    }
    Ok(Parsed::Candles(out))
}

/// The days a request asked for and the run's today (whose running candle is never final).
#[derive(Clone, Copy, Debug)]
pub struct Window {
    /// First day asked.
    pub from: NaiveDate,
    /// Last day asked.
    pub to: NaiveDate,
    /// The run's UTC today: candles of today or later are not final.
    pub today: NaiveDate,
    /// Whether candles after `to` are an error (providers that take an end) or ignored
    /// (Kraken, which always answers up to now).
    pub strict_end: bool,
}

/// Checks candles against the request and keeps the final closes inside it, sorted by date.
/// A time that is not 00:00 UTC, a close ≤ 0, a day before the request, a day after it (for a
/// provider that took an end) or two different closes for one day refuse the whole answer.
pub fn settle(candles: &[(i64, Decimal)], window: Window) -> Result<Vec<DailyClose>, String> {
    let mut by_day: BTreeMap<i64, Decimal> = BTreeMap::new();
    let (from, to, today) = (
        unix_day(window.from),
        unix_day(window.to),
        unix_day(window.today),
    );
    for &(time, close) in candles {
        if time.rem_euclid(86_400) != 0 {
            return Err(format!("time {time} is not the start of a UTC day"));
        }
        let day = time.div_euclid(86_400);
        let date = date_of_day(day).ok_or_else(|| format!("time {time} is out of range"))?;
        if close <= Decimal::ZERO {
            return Err(format!("the close of {date} is {close}, not positive"));
        }
        if day < from {
            return Err(format!(
                "a candle of {date} is before the first day asked, {}",
                window.from
            ));
        }
        if day > today || (window.strict_end && day > to && day != today) {
            return Err(format!(
                "a candle of {date} is after the last day asked, {}",
                window.to
            ));
        }
        if let Some(seen) = by_day.insert(day, close) {
            if seen != close {
                return Err(format!(
                    "two different closes for {date}: {seen} and {close}"
                ));
            }
        }
    }
    Ok(by_day
        .into_iter()
        .filter(|(day, _)| *day <= to && *day < today)
        .filter_map(|(day, close)| {
            Some(DailyClose {
                date: date_of_day(day)?,
                close,
            })
        })
        .collect())
}

#[cfg(test)]
mod tests;
