//! Payload building blocks: an ordered object builder that checks every figure string against
//! its format of `tools.md` §7.2 with character checks only, list caps and page cuts (integer
//! arithmetic on counts), and the error constructors.

use serde_json::{Map, Value};
use use_cases::UseCaseError;

use super::ProjectError;

/// The result of every projection step.
pub(super) type R<T> = Result<T, ProjectError>;

/// The figure formats of `tools.md` §7.2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Fmt {
    /// `FIAT`: exactly two decimals.
    Amount,
    /// `UNIT_PRICE`: up to twelve decimals, no trailing zero, no bare dot.
    UnitPrice,
    /// `QUANTITY`: exact, no trailing zero, no bare dot.
    Quantity,
    /// `PERCENT`: exactly two decimals.
    Percent,
    /// `RATIO`: exactly four decimals.
    Ratio,
    /// `YYYY-MM-DD`.
    Date,
    /// `YYYY-MM-DDTHH:MM:SS[.f]Z`, one to nine fraction digits without a trailing zero.
    Instant,
    /// `^[A-Z0-9.]{1,20}$`.
    Symbol,
    /// Three upper-case ASCII letters.
    Currency,
}

impl Fmt {
    /// The format's name in error messages.
    const fn name(self) -> &'static str {
        match self {
            Self::Amount => "an Amount",
            Self::UnitPrice => "a UnitPrice",
            Self::Quantity => "a Quantity",
            Self::Percent => "a Percent",
            Self::Ratio => "a Ratio",
            Self::Date => "a Date",
            Self::Instant => "an Instant",
            Self::Symbol => "a Symbol",
            Self::Currency => "a CurrencyCode",
        }
    }

    /// Whether `text` has this format (character checks only, never a numeric parse).
    pub(super) fn accepts(self, text: &str) -> bool {
        match self {
            Self::Amount | Self::Percent => fixed_decimals(text, 2),
            Self::Ratio => fixed_decimals(text, 4),
            Self::UnitPrice => trimmed_decimal(text, 12),
            Self::Quantity => trimmed_decimal(text, usize::MAX),
            Self::Date => is_date(text),
            Self::Instant => is_instant(text),
            Self::Symbol => {
                (1..=20).contains(&text.len())
                    && text
                        .bytes()
                        .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'.')
            }
            Self::Currency => text.len() == 3 && text.bytes().all(|b| b.is_ascii_uppercase()),
        }
    }
}

fn all_digits(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

/// An optional minus sign and the unsigned rest; the integer part has no leading zero.
fn split_number(text: &str) -> Option<(bool, &str, Option<&str>)> {
    let (negative, rest) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (int, frac) = match rest.split_once('.') {
        Some((int, frac)) => (int, Some(frac)),
        None => (rest, None),
    };
    let int_ok = all_digits(int) && (int == "0" || !int.starts_with('0'));
    let frac_ok = frac.is_none_or(all_digits);
    (int_ok && frac_ok).then_some((negative, int, frac))
}

/// Zero is printed without a sign.
fn signed_zero(negative: bool, int: &str, frac: Option<&str>) -> bool {
    negative && int == "0" && frac.is_none_or(|f| f.bytes().all(|b| b == b'0'))
}

fn fixed_decimals(text: &str, places: usize) -> bool {
    match split_number(text) {
        Some((negative, int, Some(frac))) => {
            frac.len() == places && !signed_zero(negative, int, Some(frac))
        }
        _ => false,
    }
}

fn trimmed_decimal(text: &str, max_places: usize) -> bool {
    match split_number(text) {
        Some((negative, int, frac)) => {
            let frac_ok = frac.is_none_or(|f| f.len() <= max_places && !f.ends_with('0'));
            frac_ok && !signed_zero(negative, int, frac)
        }
        None => false,
    }
}

/// Two ASCII digits between `low` and `high` inclusive (compared as characters).
fn two_digits_in(bytes: &[u8], low: [u8; 2], high: [u8; 2]) -> bool {
    bytes.len() == 2
        && bytes.iter().all(u8::is_ascii_digit)
        && bytes >= low.as_slice()
        && bytes <= high.as_slice()
}

fn is_date(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 10
        && b.get(..4).is_some_and(|y| y.iter().all(u8::is_ascii_digit))
        && b.get(4) == Some(&b'-')
        && b.get(5..7)
            .is_some_and(|m| two_digits_in(m, *b"01", *b"12"))
        && b.get(7) == Some(&b'-')
        && b.get(8..10)
            .is_some_and(|d| two_digits_in(d, *b"01", *b"31"))
}

fn is_instant(text: &str) -> bool {
    let Some((day, time)) = text.split_once('T') else {
        return false;
    };
    let Some(time) = time.strip_suffix('Z') else {
        return false;
    };
    let (clock, fraction) = match time.split_once('.') {
        Some((clock, fraction)) => (clock, Some(fraction)),
        None => (time, None),
    };
    let c = clock.as_bytes();
    let clock_ok = c.len() == 8
        && c.get(..2).is_some_and(|h| two_digits_in(h, *b"00", *b"23"))
        && c.get(2) == Some(&b':')
        && c.get(3..5)
            .is_some_and(|m| two_digits_in(m, *b"00", *b"59"))
        && c.get(5) == Some(&b':')
        && c.get(6..8)
            .is_some_and(|s| two_digits_in(s, *b"00", *b"60"));
    let fraction_ok =
        fraction.is_none_or(|f| (1..=9).contains(&f.len()) && all_digits(f) && !f.ends_with('0'));
    is_date(day) && clock_ok && fraction_ok
}

/// A `USE_CASE_FAILED` projection error.
pub(super) fn fail(use_case: &'static str, message: impl Into<String>) -> ProjectError {
    ProjectError {
        use_case,
        message: one_line(&message.into()),
    }
}

/// Maps a use-case error to a projection error naming the use case.
pub(super) fn uc<T>(use_case: &'static str, result: use_cases::UseCaseResult<T>) -> R<T> {
    result.map_err(|e: UseCaseError| fail(use_case, e.to_string()))
}

fn one_line(text: &str) -> String {
    text.split(['\n', '\r'])
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Checks one figure string; the message names the key, never the value.
pub(super) fn figure(use_case: &'static str, key: &str, fmt: Fmt, text: &str) -> R<Value> {
    if fmt.accepts(text) {
        Ok(Value::String(text.to_owned()))
    } else {
        Err(fail(
            use_case,
            format!("returned a value that is not {} for {key}", fmt.name()),
        ))
    }
}

/// A list of figure strings, each checked.
pub(super) fn figures(use_case: &'static str, key: &str, fmt: Fmt, items: &[String]) -> R<Value> {
    items
        .iter()
        .map(|item| figure(use_case, key, fmt, item))
        .collect::<R<Vec<Value>>>()
        .map(Value::Array)
}

/// A payload object under construction; keys keep insertion order.
pub(super) struct Obj {
    map: Map<String, Value>,
    use_case: &'static str,
}

impl Obj {
    /// An empty object whose errors name `use_case`.
    pub(super) fn new(use_case: &'static str) -> Self {
        Self {
            map: Map::new(),
            use_case,
        }
    }

    /// Any value, as is.
    pub(super) fn put(&mut self, key: &str, value: Value) -> &mut Self {
        self.map.insert(key.to_owned(), value);
        self
    }

    /// A figure string checked against `fmt`.
    pub(super) fn fig(&mut self, key: &str, fmt: Fmt, text: &str) -> R<&mut Self> {
        let value = figure(self.use_case, key, fmt, text)?;
        Ok(self.put(key, value))
    }

    /// A figure string or `null`.
    pub(super) fn fig_opt(&mut self, key: &str, fmt: Fmt, text: Option<&str>) -> R<&mut Self> {
        match text {
            Some(text) => self.fig(key, fmt, text),
            None => Ok(self.put(key, Value::Null)),
        }
    }

    /// Free text (names, keys), as is.
    pub(super) fn text(&mut self, key: &str, text: &str) -> &mut Self {
        self.put(key, Value::String(text.to_owned()))
    }

    /// Free text or `null`.
    pub(super) fn text_opt(&mut self, key: &str, text: Option<&str>) -> &mut Self {
        match text {
            Some(text) => self.text(key, text),
            None => self.put(key, Value::Null),
        }
    }

    /// A literal of a closed set; anything else is a result of the wrong shape.
    pub(super) fn lit(&mut self, key: &str, text: &str, allowed: &[&str]) -> R<&mut Self> {
        if allowed.contains(&text) {
            Ok(self.text(key, text))
        } else {
            Err(fail(
                self.use_case,
                format!("returned a value outside the vocabulary of {key}"),
            ))
        }
    }

    /// A boolean.
    pub(super) fn flag(&mut self, key: &str, value: bool) -> &mut Self {
        self.put(key, Value::Bool(value))
    }

    /// A count (a non-negative integer).
    pub(super) fn count(&mut self, key: &str, n: u64) -> &mut Self {
        self.put(key, Value::from(n))
    }

    /// A count given as `usize`.
    pub(super) fn count_usize(&mut self, key: &str, n: usize) -> &mut Self {
        self.count(key, u64::try_from(n).unwrap_or(u64::MAX))
    }

    /// A year (never negative in a payload).
    pub(super) fn year(&mut self, key: &str, year: i32) -> R<&mut Self> {
        match u64::try_from(year) {
            Ok(year) => Ok(self.count(key, year)),
            Err(_) => Err(fail(self.use_case, format!("returned a negative {key}"))),
        }
    }

    /// The finished object.
    pub(super) fn done(&mut self) -> Map<String, Value> {
        std::mem::take(&mut self.map)
    }

    /// The finished object as a value.
    pub(super) fn value(&mut self) -> Value {
        Value::Object(self.done())
    }
}

/// The first `cap` items and how many were cut.
pub(super) fn cap<T>(items: &[T], cap: u32) -> (&[T], u64) {
    let cap = usize::try_from(cap).unwrap_or(usize::MAX);
    let shown = items.get(..cap).unwrap_or(items);
    let omitted = items.len().saturating_sub(shown.len());
    (shown, u64::try_from(omitted).unwrap_or(u64::MAX))
}

/// The 0-based page `page` of `size` items: `[page·size, page·size + size)`, empty past the end.
pub(super) fn page_of<T>(items: &[T], page: u64, size: u32) -> &[T] {
    let size = usize::try_from(size).unwrap_or(usize::MAX);
    let start = usize::try_from(page)
        .ok()
        .and_then(|p| p.checked_mul(size))
        .unwrap_or(usize::MAX);
    let end = start.saturating_add(size).min(items.len());
    items.get(start..end).unwrap_or(&[])
}

/// `⌈total_count / page_size⌉`, and at least one page when `at_least_one`.
pub(super) fn total_pages(total_count: u64, page_size: u32, at_least_one: bool) -> u64 {
    let pages = total_count.div_ceil(u64::from(page_size.max(1)));
    if at_least_one { pages.max(1) } else { pages }
}

/// Maps each item, stopping at the first error.
pub(super) fn list<T>(items: &[T], f: impl FnMut(&T) -> R<Value>) -> R<Value> {
    items
        .iter()
        .map(f)
        .collect::<R<Vec<Value>>>()
        .map(Value::Array)
}
