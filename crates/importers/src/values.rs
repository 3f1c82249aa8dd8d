//! Cell grammars shared by every profile: numbers (§1.8), timestamps and zones (§1.7), assets
//! (§1.9), account names (§1.5) and identity hashing (§1.14).

use chrono::{NaiveDate, NaiveDateTime, NaiveTime, TimeZone};
use core_domain::{Asset, Instant};
use rust_decimal::Decimal;
use sha2::{Digest, Sha256};

use crate::model::Zone;

/// Why a number cell was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NumError {
    Bad,
    Range,
}

/// Parses `[+-]?[0-9]+(\.[0-9]+)?` exactly, keeping the written scale.
pub(crate) fn parse_decimal(text: &str) -> Result<Decimal, NumError> {
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let (int, frac) = match digits.find('.') {
        Some(p) => (&digits[..p], &digits[p + 1..]),
        None => (digits, ""),
    };
    let has_point = digits.len() != int.len();
    if int.is_empty()
        || !int.bytes().all(|b| b.is_ascii_digit())
        || (has_point && frac.is_empty())
        || !frac.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(NumError::Bad);
    }
    if frac.len() > 28 || !within_bound(int) {
        return Err(NumError::Range);
    }
    let mut mantissa: u128 = 0;
    let mut significant = 0usize;
    for b in int.bytes().chain(frac.bytes()) {
        if significant == 0 && b == b'0' {
            continue;
        }
        significant += 1;
        if significant > 28 {
            return Err(NumError::Range);
        }
        mantissa = mantissa * 10 + u128::from(b - b'0');
    }
    let signed = i128::try_from(mantissa).map_err(|_| NumError::Range)?;
    let value = Decimal::try_from_i128_with_scale(
        if negative { -signed } else { signed },
        u32::try_from(frac.len()).unwrap_or(28),
    )
    .map_err(|_| NumError::Range)?;
    Ok(if value.is_zero() {
        Decimal::ZERO
    } else {
        value
    })
}

/// The most digits before the point of any amount, price or rate read (D-84): sums of ten
/// million such amounts stay below 10^22, six orders of magnitude under what the engine's
/// decimals hold, so balances, lots and totals never overflow.
pub(crate) const MAX_INTEGER_DIGITS: usize = 15;

/// Whether the integer digits `int` (ASCII digits) stay within [`MAX_INTEGER_DIGITS`].
fn within_bound(int: &str) -> bool {
    int.len() <= MAX_INTEGER_DIGITS
        || int.bytes().skip_while(|&b| b == b'0').count() <= MAX_INTEGER_DIGITS
}

/// The reason of `decimal-out-of-range` for the number cell `text`: too large (more than
/// [`MAX_INTEGER_DIGITS`] digits before the point), or beyond the decimals' precision.
pub(crate) fn out_of_range_reason(text: &str) -> String {
    let int = text.split('.').next().unwrap_or("");
    let digits = int
        .bytes()
        .filter(u8::is_ascii_digit)
        .skip_while(|&b| b == b'0')
        .count();
    if digits > MAX_INTEGER_DIGITS {
        format!(
            "\"{text}\" has more than {MAX_INTEGER_DIGITS} digits before the point; larger amounts are not accepted"
        )
    } else {
        format!("\"{text}\" has more than 28 significant or 28 fractional digits")
    }
}

/// The largest exponent magnitude [`parse_decimal_exp`] reads: beyond it no value fits the
/// 28 digits of a decimal, and a longer exponent is refused before any arithmetic.
pub(crate) const MAX_EXPONENT: u32 = 28;

/// Parses a plain decimal or one in exponent notation, `[+-]?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]{1,3})?`,
/// exactly (the digits are shifted, never read through a float): `-3.605E-05` is
/// `-0.00003605`. An exponent beyond ±[`MAX_EXPONENT`], or a result with more than 28
/// fractional or significant digits, is `Range`.
pub(crate) fn parse_decimal_exp(text: &str) -> Result<Decimal, NumError> {
    let Some(pos) = text.find(['e', 'E']) else {
        return parse_decimal(text);
    };
    let (mantissa, exp_text) = (&text[..pos], &text[pos + 1..]);
    let digits = exp_text.strip_prefix(['+', '-']).unwrap_or(exp_text);
    if digits.is_empty() || digits.len() > 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(NumError::Bad);
    }
    let magnitude: u32 = digits.parse().map_err(|_| NumError::Bad)?;
    let m = parse_decimal(mantissa)?.normalize();
    if magnitude > MAX_EXPONENT {
        return Err(NumError::Range);
    }
    if m.is_zero() {
        return Ok(Decimal::ZERO);
    }
    let scale = i64::from(m.scale())
        + if exp_text.starts_with('-') {
            i64::from(magnitude)
        } else {
            -i64::from(magnitude)
        };
    let value = if scale >= 0 {
        let mut v = m;
        v.set_scale(u32::try_from(scale).map_err(|_| NumError::Range)?)
            .map_err(|_| NumError::Range)?;
        v
    } else {
        let mut v = m;
        v.set_scale(0).map_err(|_| NumError::Range)?;
        let factor = Decimal::try_from_i128_with_scale(
            10i128.pow(u32::try_from(-scale).map_err(|_| NumError::Range)?),
            0,
        )
        .map_err(|_| NumError::Range)?;
        v.checked_mul(factor).ok_or(NumError::Range)?
    };
    // The bound on integer digits of every amount holds for exponent notation too (D-84).
    if !within_bound(&value.abs().trunc().to_string()) {
        return Err(NumError::Range);
    }
    Ok(value)
}

/// The normal form of §1.8: no sign for zero, no trailing fractional zeros.
pub(crate) fn norm(value: Decimal) -> String {
    let n = value.normalize();
    if n.is_zero() {
        "0".to_owned()
    } else {
        n.to_string()
    }
}

/// Checked helpers that turn overflow into `None` (reported by callers as out of range).
pub(crate) fn add(a: Decimal, b: Decimal) -> Option<Decimal> {
    a.checked_add(b)
}
pub(crate) fn sub(a: Decimal, b: Decimal) -> Option<Decimal> {
    a.checked_sub(b)
}
pub(crate) fn mul(a: Decimal, b: Decimal) -> Option<Decimal> {
    a.checked_mul(b)
}

/// Parses `YYYY-MM-DD` (and `YY-MM-DD` when `short_year`).
pub(crate) fn parse_date(text: &str, short_year: bool) -> Option<NaiveDate> {
    if !text.is_ascii() {
        return None;
    }
    let b = text.as_bytes();
    let (year, rest) = if b.len() == 10 && b[4] == b'-' {
        (num(&text[..4])?, &text[5..])
    } else if short_year && b.len() == 8 && b[2] == b'-' {
        (2000 + num(&text[..2])?, &text[3..])
    } else {
        return None;
    };
    let rb = rest.as_bytes();
    if rb.len() != 5 || rb[2] != b'-' {
        return None;
    }
    NaiveDate::from_ymd_opt(
        i32::try_from(year).ok()?,
        num(&rest[..2])?,
        num(&rest[3..])?,
    )
}

fn num(text: &str) -> Option<u32> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// Parses `HH:MM:SS[.f]` (1 to 9 fraction digits, no leap second).
pub(crate) fn parse_time(text: &str) -> Option<NaiveTime> {
    if !text.is_ascii() {
        return None;
    }
    let b = text.as_bytes();
    if b.len() < 8 || b[2] != b':' || b[5] != b':' {
        return None;
    }
    let (h, m, s) = (num(&text[..2])?, num(&text[3..5])?, num(&text[6..8])?);
    let nanos = if b.len() == 8 {
        0
    } else {
        let frac = text[8..].strip_prefix('.')?;
        if frac.is_empty() || frac.len() > 9 {
            return None;
        }
        num(frac)? * 10u32.pow(9 - u32::try_from(frac.len()).ok()?)
    };
    if s > 59 {
        return None;
    }
    NaiveTime::from_hms_nano_opt(h, m, s, nanos)
}

/// A timestamp cell split into its local part and its zone suffix, if any.
pub(crate) struct Stamp {
    pub(crate) local: NaiveDateTime,
    pub(crate) zone: Option<Zone>,
}

/// Parses `<date>(T| )<time>` optionally followed by `Z`, ` UTC` or `±HH:MM`.
/// `sep` lists the accepted separators between date and time.
pub(crate) fn parse_stamp(text: &str, sep: &[u8], short_year: bool, zones: bool) -> Option<Stamp> {
    let pos = text.bytes().position(|b| sep.contains(&b))?;
    let date = parse_date(&text[..pos], short_year)?;
    let rest = &text[pos + 1..];
    let (time_text, zone) = if !zones {
        (rest, None)
    } else if let Some(t) = rest.strip_suffix('Z') {
        (t, Some(Zone::Utc))
    } else if let Some(t) = rest.strip_suffix(" UTC") {
        (t, Some(Zone::Utc))
    } else if rest.len() > 6
        && matches!(rest.as_bytes()[rest.len() - 6], b'+' | b'-')
        && rest.as_bytes()[rest.len() - 3] == b':'
    {
        let (t, z) = rest.split_at(rest.len() - 6);
        (t, Some(parse_offset(z)?))
    } else {
        (rest, None)
    };
    let time = parse_time(time_text)?;
    Some(Stamp {
        local: date.and_time(time),
        zone,
    })
}

fn parse_offset(text: &str) -> Option<Zone> {
    let b = text.as_bytes();
    if b.len() != 6 || b[3] != b':' {
        return None;
    }
    let sign = match b[0] {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let (h, m) = (num(&text[1..3])?, num(&text[4..6])?);
    if h > 23 || m > 59 {
        return None;
    }
    Some(Zone::Fixed(sign * i32::try_from(h * 3600 + m * 60).ok()?))
}

/// Parses a `--timezone` value or a Bitvavo `Timezone` cell.
pub(crate) fn parse_zone(text: &str) -> Option<Zone> {
    if text.eq_ignore_ascii_case("UTC") || text == "Z" {
        return Some(Zone::Utc);
    }
    if text.starts_with(['+', '-']) {
        return parse_offset(text);
    }
    text.parse::<chrono_tz::Tz>().ok().map(Zone::Iana)
}

/// Result of placing a local time in a zone.
pub(crate) enum Placed {
    Single(Instant),
    Ambiguous(Instant),
    Nonexistent,
    OutOfRange,
}

/// Converts a local date-time in `zone` to an instant (earlier instant when ambiguous).
pub(crate) fn place(local: NaiveDateTime, zone: Zone) -> Placed {
    let utc = match zone {
        Zone::Utc => Some((local.and_utc(), false)),
        Zone::Fixed(secs) => chrono::FixedOffset::east_opt(secs)
            .and_then(|o| o.from_local_datetime(&local).single())
            .map(|t| (t.to_utc(), false)),
        Zone::Iana(tz) => match tz.from_local_datetime(&local) {
            chrono::LocalResult::Single(t) => Some((t.to_utc(), false)),
            chrono::LocalResult::Ambiguous(a, b) => Some((a.min(b).to_utc(), true)),
            chrono::LocalResult::None => return Placed::Nonexistent,
        },
    };
    let Some((utc, ambiguous)) = utc else {
        return Placed::Nonexistent;
    };
    let Some(instant) = supported_instant(utc) else {
        return Placed::OutOfRange;
    };
    if ambiguous {
        Placed::Ambiguous(instant)
    } else {
        Placed::Single(instant)
    }
}

/// Which dates a value may carry: every date of every import file lies in one supported
/// range, checked here and nowhere else (D-80). Transactions and prices: 2009-01-01 to
/// 2100-01-01 (no crypto asset or trade is older); ECB rates start with the euro, 1999-01-01.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dated {
    /// A transaction or a price.
    Ledger,
    /// An ECB reference rate.
    Rate,
}

const MIN_NANOS: i64 = 1_230_768_000 * 1_000_000_000; // 2009-01-01T00:00:00Z
const MIN_RATE_NANOS: i64 = 915_148_800 * 1_000_000_000; // 1999-01-01T00:00:00Z
const MAX_NANOS: i64 = 4_102_444_800 * 1_000_000_000; // 2100-01-01T00:00:00Z

impl Dated {
    fn first_nanos(self) -> i64 {
        match self {
            Self::Ledger => MIN_NANOS,
            Self::Rate => MIN_RATE_NANOS,
        }
    }

    /// `<shown> is outside <first> … 2100-01-01`: the date or instant as the file gave it
    /// (with its offset or zone) out of the supported range.
    pub(crate) fn outside(self, shown: &str) -> String {
        let first = match self {
            Self::Ledger => "2009-01-01",
            Self::Rate => "1999-01-01",
        };
        format!("{shown} is outside {first} … 2100-01-01")
    }
}

/// The instant of `utc` when it lies in the supported range of transactions and prices
/// (also `None` for a time that nanoseconds since 1970 cannot hold, before 1677 or after
/// 2262).
pub(crate) fn supported_instant(utc: chrono::DateTime<chrono::Utc>) -> Option<Instant> {
    supported_nanos(utc.timestamp_nanos_opt()?, Dated::Ledger)
}

/// The instant of `nanos` since 1970 when it lies in the range of `dated`.
pub(crate) fn supported_nanos(nanos: i64, dated: Dated) -> Option<Instant> {
    (dated.first_nanos()..=MAX_NANOS)
        .contains(&nanos)
        .then(|| Instant::from_unix_nanos(nanos))
}

/// Whether UTC day `date` lies in the range of `dated` (its midnight does).
pub(crate) fn supported_date(date: NaiveDate, dated: Dated) -> bool {
    date.and_hms_opt(0, 0, 0)
        .and_then(|t| t.and_utc().timestamp_nanos_opt())
        .and_then(|nanos| supported_nanos(nanos, dated))
        .is_some()
}

/// A local date-time as a range error shows it: with the offset or zone it was read in.
pub(crate) fn shown_local(local: NaiveDateTime, zone: Zone) -> String {
    let text = local.format("%Y-%m-%dT%H:%M:%S%.f");
    match zone {
        Zone::Utc => format!("{text}Z"),
        Zone::Fixed(_) => format!("{text}{}", zone.name()),
        Zone::Iana(_) => format!("{text} {}", zone.name()),
    }
}

/// Upper-cases a symbol and validates it (`^[A-Z0-9.]{1,20}$`).
pub(crate) fn asset(text: &str) -> Option<Asset> {
    if text.len() > 20 || text.is_empty() {
        return None;
    }
    let mut buf = [0u8; 20];
    for (slot, b) in buf.iter_mut().zip(text.bytes()) {
        *slot = b.to_ascii_uppercase();
    }
    std::str::from_utf8(&buf[..text.len()])
        .ok()
        .and_then(|s| Asset::new(s).ok())
}

/// Validates an account name (§1.5); `Err` carries the reason.
pub fn validate_account_name(name: &str) -> Result<(), &'static str> {
    let count = name.chars().count();
    if count == 0 {
        return Err("it is empty");
    }
    if count > 64 {
        return Err("it is longer than 64 characters");
    }
    if name.chars().any(char::is_control) {
        return Err("it contains control characters");
    }
    if core_domain::ledger::is_reserved_account_name(name) {
        return Err("names starting with ownwallet- are reserved");
    }
    if name.split(':').any(|part| part.trim().is_empty()) {
        return Err("a part before or after \":\" is empty (write Parent:child)");
    }
    Ok(())
}

/// Lowercase hex SHA-256 of `key`.
pub(crate) fn sha256_hex(key: &str) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let digest = Sha256::digest(key.as_bytes());
    let mut out = String::with_capacity(64);
    for b in digest {
        out.push(char::from(HEX[usize::from(b >> 4)]));
        out.push(char::from(HEX[usize::from(b & 15)]));
    }
    out
}

/// The segment of a wallet name (`domain.md` §3): trimmed, lower-cased, cut at the first `/`.
pub(crate) fn segment(wallet: &str) -> String {
    let lower = wallet.trim().to_lowercase();
    lower.split('/').next().unwrap_or("").trim().to_owned()
}

/// A fast non-cryptographic hasher (the Fx multiply-rotate scheme) for the per-row maps of
/// identities and ordinals: keys come from the user's own file, so flooding is no concern,
/// and SipHash dominated the profile of a 1M-row import.
#[derive(Default, Clone, Copy)]
pub(crate) struct FxHasher(u64);

impl std::hash::Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(word))
                .wrapping_mul(0x517c_c1b7_2722_0a95);
        }
    }

    /// The state after a final avalanche (MurmurHash3's `fmix64`): the last step of `write`
    /// is a multiply, whose low bits depend only on the low bits of its input, and the map
    /// picks the bucket from the low bits. Without it, keys that differ only early (a fixed
    /// prefix, zero-padded ids such as Coinbase's or Kraken's) fell into a few buckets and
    /// every lookup compared long probe chains: a reader with such a map ran 2–5× slower
    /// than the generic CSV at 100k rows, worse as the file grew (D-159).
    fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

/// A 128-bit digest from two independent multiply-rotate lanes (keys of in-file counters).
pub(crate) fn digest128(bytes: &[u8]) -> u128 {
    let (mut a, mut b) = (0x243f_6a88_85a3_08d3_u64, 0x1319_8a2e_0370_7344_u64);
    for chunk in bytes.chunks(8) {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        a = (a.rotate_left(5) ^ w).wrapping_mul(0x517c_c1b7_2722_0a95);
        b = (b.rotate_left(23) ^ w)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .wrapping_add(0x2545_f491);
    }
    a = (a ^ (a >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9) ^ bytes.len() as u64;
    b ^= b >> 31;
    (u128::from(a) << 64) | u128::from(b)
}

/// A `HashMap` with [`FxHasher`].
pub(crate) type FastMap<K, V> =
    std::collections::HashMap<K, V, std::hash::BuildHasherDefault<FxHasher>>;

#[cfg(test)]
mod tests;
