//! Encodings between the domain model and the stored columns.

use core_domain::{Asset, Date, RowKey, TxType};
use rusqlite::types::ValueRef;
use rust_decimal::Decimal;
use shared_types::SpotTxType;
use use_cases::{PortError, PortResult};

use crate::error::corrupt;

/// `tx_type` column value of an unknown row.
pub(crate) const UNKNOWN_TX_TYPE: i64 = -1;

/// The stored text of a decimal: its exact digits and scale (`1.50` stays `1.50`); a zero
/// never carries a sign.
pub(crate) fn decimal_text(value: Decimal) -> String {
    let mut value = value;
    if value.is_zero() {
        value.set_sign_positive(true);
    }
    value.to_string()
}

/// Parses a stored decimal: `-?digits(.digits)?`, at most 28 fraction digits. This is the hot
/// path of every ledger load, so it avoids the general parser's checks and allocations.
pub(crate) fn parse_decimal(text: &[u8]) -> Option<Decimal> {
    let (negative, digits) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some(_) => (false, text),
        None => return None,
    };
    let mut mantissa: u128 = 0;
    let mut scale: u32 = 0;
    let mut count = 0u32;
    let mut seen_point = false;
    for &byte in digits {
        match byte {
            b'0'..=b'9' => {
                mantissa = mantissa
                    .checked_mul(10)?
                    .checked_add(u128::from(byte - b'0'))?;
                count += 1;
                if seen_point {
                    scale += 1;
                }
            }
            b'.' if !seen_point && count > 0 => seen_point = true,
            _ => return None,
        }
    }
    if count == 0 || (seen_point && scale == 0) {
        return None;
    }
    let signed = i128::try_from(mantissa).ok()?;
    let signed = if negative {
        signed.checked_neg()?
    } else {
        signed
    };
    Decimal::try_from_i128_with_scale(signed, scale).ok()
}

/// A decimal column that must be present.
pub(crate) fn decimal_col(value: ValueRef<'_>, what: &str) -> PortResult<Decimal> {
    match value {
        ValueRef::Text(text) => parse_decimal(text).ok_or_else(|| {
            corrupt(
                what,
                format!("not a decimal: {:?}", String::from_utf8_lossy(text)),
            )
        }),
        other => Err(corrupt(what, format!("expected text, found {other:?}"))),
    }
}

/// A decimal column that may be NULL.
pub(crate) fn opt_decimal_col(value: ValueRef<'_>, what: &str) -> PortResult<Option<Decimal>> {
    match value {
        ValueRef::Null => Ok(None),
        other => decimal_col(other, what).map(Some),
    }
}

/// An integer column that may be NULL.
pub(crate) fn opt_int_col(value: ValueRef<'_>, what: &str) -> PortResult<Option<i64>> {
    match value {
        ValueRef::Null => Ok(None),
        ValueRef::Integer(n) => Ok(Some(n)),
        other => Err(corrupt(what, format!("expected integer, found {other:?}"))),
    }
}

/// An integer column that must be present.
pub(crate) fn int_col(value: ValueRef<'_>, what: &str) -> PortResult<i64> {
    opt_int_col(value, what)?.ok_or_else(|| corrupt(what, "unexpected null"))
}

/// A text column that may be NULL.
pub(crate) fn opt_text_col(value: ValueRef<'_>, what: &str) -> PortResult<Option<String>> {
    match value {
        ValueRef::Null => Ok(None),
        ValueRef::Text(text) => std::str::from_utf8(text)
            .map(|s| Some(s.to_owned()))
            .map_err(|e| corrupt(what, e)),
        other => Err(corrupt(what, format!("expected text, found {other:?}"))),
    }
}

/// A text column that must be present.
pub(crate) fn text_col(value: ValueRef<'_>, what: &str) -> PortResult<String> {
    opt_text_col(value, what)?.ok_or_else(|| corrupt(what, "unexpected null"))
}

/// Stored code of a transaction type: its index in the canonical order, `-1` for unknown.
pub(crate) fn tx_type_code(tx_type: &TxType) -> (i64, Option<&str>) {
    match tx_type {
        TxType::Spot(kind) => (spot_type_code(*kind), None),
        TxType::Unknown { source_label } => (UNKNOWN_TX_TYPE, Some(source_label.as_str())),
    }
}

/// Index of a type in `SpotTxType::ALL`.
pub(crate) fn spot_type_code(kind: SpotTxType) -> i64 {
    SpotTxType::ALL
        .iter()
        .position(|k| *k == kind)
        .and_then(|i| i64::try_from(i).ok())
        .unwrap_or(UNKNOWN_TX_TYPE)
}

/// The type of a stored code.
pub(crate) fn spot_type_of(code: i64) -> PortResult<SpotTxType> {
    usize::try_from(code)
        .ok()
        .and_then(|i| SpotTxType::ALL.get(i).copied())
        .ok_or_else(|| corrupt("tx_type", format!("unknown code {code}")))
}

/// Stored day number of a date.
pub(crate) fn day_of(date: Date) -> i64 {
    i64::from(chrono::Datelike::num_days_from_ce(&date))
}

/// The date of a stored day number.
pub(crate) fn date_of(day: i64) -> PortResult<Date> {
    i32::try_from(day)
        .ok()
        .and_then(Date::from_num_days_from_ce_opt)
        .ok_or_else(|| corrupt("date", format!("day {day} out of range")))
}

/// The asset table, indexed by id, loaded once per read.
pub(crate) struct AssetTable {
    by_id: Vec<Option<Asset>>,
}

impl AssetTable {
    pub(crate) fn load(conn: &rusqlite::Connection) -> PortResult<Self> {
        let mut statement = conn
            .prepare_cached("SELECT id, symbol FROM assets")
            .map_err(crate::error::map_err)?;
        let mut rows = statement.query([]).map_err(crate::error::map_err)?;
        let mut by_id = Vec::new();
        while let Some(row) = rows.next().map_err(crate::error::map_err)? {
            let id = int_col(row.get_ref_unwrap(0), "asset id")?;
            let symbol = text_col(row.get_ref_unwrap(1), "asset symbol")?;
            let asset = Asset::new(&symbol).map_err(|e| corrupt("asset symbol", e))?;
            let index = usize::try_from(id).map_err(|e| corrupt("asset id", e))?;
            if by_id.len() <= index {
                by_id.resize(index + 1, None);
            }
            if let Some(slot) = by_id.get_mut(index) {
                *slot = Some(asset);
            }
        }
        Ok(Self { by_id })
    }

    pub(crate) fn get(&self, id: i64) -> PortResult<Asset> {
        usize::try_from(id)
            .ok()
            .and_then(|i| self.by_id.get(i).copied().flatten())
            .ok_or_else(|| corrupt("asset id", format!("unknown asset {id}")))
    }

    pub(crate) fn opt(&self, id: Option<i64>) -> PortResult<Option<Asset>> {
        id.map(|id| self.get(id)).transpose()
    }
}

/// Joins source lines as `5,6,7`.
pub(crate) fn lines_text(lines: &[u64]) -> String {
    let mut text = String::new();
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            text.push(',');
        }
        text.push_str(&line.to_string());
    }
    text
}

/// Splits `5,6,7`.
pub(crate) fn parse_lines(text: &str) -> PortResult<Vec<u64>> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    text.split(',')
        .map(|part| part.parse().map_err(|e| corrupt("source lines", e)))
        .collect()
}

/// Unit separator used to join list fields of the import log.
pub(crate) const SEP: char = '\u{1f}';

/// Lists an invalid-input error.
pub(crate) fn invalid(what: &str, reason: impl Into<String>) -> PortError {
    PortError::Invalid {
        what: what.to_owned(),
        reason: reason.into(),
    }
}

/// A row key as stored: the 32 bytes of a lowercase SHA-256 hex identity (every importer key,
/// `imports.md` §1.14) as a BLOB, which halves the unique index and its comparisons; any other
/// key as TEXT.
pub(crate) enum StoredKey<'a> {
    /// Decoded hex digest.
    Digest([u8; 32]),
    /// Any other key.
    Text(&'a str),
}

impl<'a> StoredKey<'a> {
    pub(crate) fn new(key: &'a str) -> Self {
        let bytes = key.as_bytes();
        if bytes.len() != 64 {
            return Self::Text(key);
        }
        let mut digest = [0u8; 32];
        for (slot, pair) in digest.iter_mut().zip(bytes.chunks_exact(2)) {
            match (hex_value(pair[0]), hex_value(pair[1])) {
                (Some(high), Some(low)) => *slot = (high << 4) | low,
                _ => return Self::Text(key),
            }
        }
        Self::Digest(digest)
    }
}

impl rusqlite::ToSql for StoredKey<'_> {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        Ok(rusqlite::types::ToSqlOutput::Borrowed(match self {
            Self::Digest(bytes) => ValueRef::Blob(bytes),
            Self::Text(text) => ValueRef::Text(text.as_bytes()),
        }))
    }
}

/// Lowercase hex digits only: an upper-case key stays text so it reads back unchanged.
fn hex_value(byte: u8) -> Option<u8> {
    match byte {
        b'0'..=b'9' => Some(byte - b'0'),
        b'a'..=b'f' => Some(byte - b'a' + 10),
        _ => None,
    }
}

/// The row key of a stored `row_key` value.
pub(crate) fn key_col(value: ValueRef<'_>) -> PortResult<String> {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    match value {
        ValueRef::Blob(bytes) => {
            let mut text = String::with_capacity(bytes.len() * 2);
            for byte in bytes {
                text.push(char::from(DIGITS[usize::from(byte >> 4)]));
                text.push(char::from(DIGITS[usize::from(byte & 0x0f)]));
            }
            Ok(text)
        }
        other => text_col(other, "row key"),
    }
}

/// The row key of a stored `row_key` value as the engine keeps it (a digest stays binary).
pub(crate) fn row_key_col(value: ValueRef<'_>) -> PortResult<RowKey> {
    match value {
        ValueRef::Blob(bytes) => Ok(RowKey::from_bytes(bytes)),
        ValueRef::Text(text) => std::str::from_utf8(text)
            .map(RowKey::new)
            .map_err(|e| corrupt("row key", e)),
        other => text_col(other, "row key").map(RowKey::from),
    }
}

#[cfg(test)]
mod tests;
