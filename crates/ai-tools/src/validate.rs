//! Input rules (`tools.md` §6): strict objects, symbols, integers, decimal texts, dates, arrays
//! and vocabularies, checked in the order of §6.9, and the canonical arguments of a valid call.

use serde_json::{Map, Number, Value};
use shared_types::{MetricId, QualityFlag, SpotTxType, ToolName};

use crate::outcome::InputReason;

/// A rejected argument: the first rule broken in validation order.
#[derive(Debug)]
pub(crate) struct InputError {
    pub path: String,
    pub reason: InputReason,
    pub message: String,
}

type Checked<T> = Result<T, InputError>;

/// Longest quote of an offending value or key.
const QUOTE_CHARS: usize = 40;

/// Hints appended to an `unknown_field` message when the key matches (`tools.md` §5).
const HINTS: &[(&[&str], &str)] = &[
    (
        &["accountid", "account_id", "account"],
        "No tool takes an account id; call account_holdings with the account's name.",
    ),
    (
        &["currency", "targetcurrency", "basecurrency"],
        "The currency is fixed by the server and every result declares it.",
    ),
    (
        &["quantity", "qty", "amount"],
        "Quantities always come from the ledger.",
    ),
    (
        &["locale", "language"],
        "The language is fixed by the server.",
    ),
    (
        &["limit", "pagesize", "offset"],
        "Page sizes are fixed; use page.",
    ),
];

const SYMBOL_RULE: &str = "must be a string of 1 to 20 letters, digits or dots, such as BTC";
const DATE_RULE: &str = "must be a calendar date written YYYY-MM-DD, such as 2024-01-31";
const PRICE_RULE: &str = "must be a plain non-negative decimal with at most 15 integer and 12 fraction digits, as a string or number, such as \"70000\" or \"0.5\"";
const PCT_RULE: &str = "must be a plain decimal percentage from -100 to 1000 with at most 4 fraction digits, as a string or number, such as \"-30\" or \"12.5\"";

fn cut(text: &str) -> String {
    text.chars().take(QUOTE_CHARS).collect()
}

/// A short quote of a value: never serialises a nested structure.
fn quote(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(flag) => flag.to_string(),
        Value::Number(number) => cut(&number.to_string()),
        Value::String(text) => format!("\"{}\"", cut(text)),
        Value::Array(_) => "an array".to_owned(),
        Value::Object(_) => "an object".to_owned(),
    }
}

fn error(path: &str, reason: InputReason, message: &str) -> InputError {
    let mut message: String = message
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(299)
        .collect();
    if !message.ends_with('.') {
        message.push('.');
    }
    InputError {
        path: path.to_owned(),
        reason,
        message,
    }
}

/// `<field> <rule>; got <value>.`
fn rule_error(
    path: &str,
    reason: InputReason,
    field: &str,
    rule: &str,
    value: &Value,
) -> InputError {
    error(
        path,
        reason,
        &format!("{field} {rule}; got {}.", quote(value)),
    )
}

/// RFC 6901 escaping of one reference token.
fn escape_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

fn child(path: &str, token: &str) -> String {
    format!("{path}/{}", escape_token(token))
}

fn index_path(path: &str, index: usize) -> String {
    format!("{path}/{index}")
}

/// Unknown keys at one object level: the first in byte order is reported (`tools.md` §6.9).
fn check_unknown(
    object: &Map<String, Value>,
    allowed: &[&str],
    path: &str,
    owner: &str,
) -> Checked<()> {
    let unknown = object
        .keys()
        .filter(|key| !allowed.contains(&key.as_str()))
        .min();
    let Some(key) = unknown else {
        return Ok(());
    };
    let accepted = if allowed.is_empty() {
        format!("{owner} takes no arguments.")
    } else {
        format!("accepted fields: {}.", allowed.join(", "))
    };
    let lowered = key.to_ascii_lowercase();
    let hint = HINTS
        .iter()
        .find(|(names, _)| names.contains(&lowered.as_str()))
        .map(|(_, hint)| format!(" {hint}"))
        .unwrap_or_default();
    Err(error(
        &child(path, key),
        InputReason::UnknownField,
        &format!("unknown field \"{}\"; {accepted}{hint}", cut(key)),
    ))
}

fn missing(path: &str, field: &str, rule: &str) -> InputError {
    error(
        &child(path, field),
        InputReason::MissingField,
        &format!("{field} is required and {rule}."),
    )
}

/// A field present with a value (`null` is a value of the wrong type, `tools.md` §6.1).
fn field<'a>(object: &'a Map<String, Value>, name: &str) -> Option<&'a Value> {
    object.get(name)
}

/// Rule 6.3: a string, ASCII-upper-cased, matching `^[A-Z0-9.]{1,20}$`.
fn symbol(value: &Value, path: &str, name: &str) -> Checked<String> {
    let Value::String(text) = value else {
        return Err(rule_error(
            path,
            InputReason::WrongType,
            name,
            SYMBOL_RULE,
            value,
        ));
    };
    let upper = text.to_ascii_uppercase();
    let valid = (1..=20).contains(&upper.len())
        && upper
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'.');
    if valid {
        Ok(upper)
    } else {
        Err(rule_error(
            path,
            InputReason::PatternMismatch,
            name,
            SYMBOL_RULE,
            value,
        ))
    }
}

/// What a JSON number's text says about its integral value.
enum Integral {
    /// An integer that fits `i64`.
    Exact(i64),
    /// An integer too large for any bound.
    Huge,
    /// A fractional value.
    Fractional,
}

/// Reads a number's text (`12`, `-3`, `2.0`, `2000.0`, `1e21`, `1.5e-7`) without floats.
fn integral(number: &Number) -> Integral {
    let text = number.to_string();
    let (negative, unsigned) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.as_str()),
    };
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(at) => (
            unsigned.get(..at).unwrap_or(""),
            unsigned.get(at.saturating_add(1)..).unwrap_or(""),
        ),
        None => (unsigned, "0"),
    };
    let Ok(exponent) = exponent.trim_start_matches('+').parse::<i64>() else {
        return Integral::Huge;
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let mut digits = format!("{whole}{fraction}");
    let Ok(fraction_len) = i64::try_from(fraction.len()) else {
        return Integral::Huge;
    };
    let Some(shift) = exponent.checked_sub(fraction_len) else {
        return Integral::Huge;
    };
    if shift >= 0 {
        if digits.trim_start_matches('0').is_empty() {
            return Integral::Exact(0);
        }
        if shift > 30 {
            return Integral::Huge;
        }
        for _ in 0..shift {
            digits.push('0');
        }
    } else {
        let drop = usize::try_from(shift.unsigned_abs()).unwrap_or(usize::MAX);
        let keep = digits.len().saturating_sub(drop);
        let (kept, dropped) = digits.split_at(keep.min(digits.len()));
        if !dropped.bytes().all(|b| b == b'0') {
            return Integral::Fractional;
        }
        digits = kept.to_owned();
    }
    let significant = digits.trim_start_matches('0');
    if significant.is_empty() {
        return Integral::Exact(0);
    }
    if significant.len() > 18 {
        return Integral::Huge;
    }
    let signed = if negative {
        format!("-{significant}")
    } else {
        significant.to_owned()
    };
    signed
        .parse::<i64>()
        .map_or(Integral::Huge, Integral::Exact)
}

/// Rule 6.4: an integral JSON number within `min..=max`.
fn integer(
    value: &Value,
    path: &str,
    name: &str,
    bounds: (i64, i64),
    rule: &str,
    quote_out_of_range: bool,
) -> Checked<i64> {
    let Value::Number(number) = value else {
        return Err(rule_error(path, InputReason::WrongType, name, rule, value));
    };
    let out_of_range = || {
        if quote_out_of_range {
            rule_error(path, InputReason::OutOfRange, name, rule, value)
        } else {
            error(path, InputReason::OutOfRange, &format!("{name} {rule}."))
        }
    };
    match integral(number) {
        Integral::Fractional => Err(rule_error(
            path,
            InputReason::NotAnInteger,
            name,
            rule,
            value,
        )),
        Integral::Exact(n) if (bounds.0..=bounds.1).contains(&n) => Ok(n),
        Integral::Exact(_) | Integral::Huge => Err(out_of_range()),
    }
}

fn year_field(value: &Value, path: &str, name: &str) -> Checked<i64> {
    integer(
        value,
        path,
        name,
        (2009, 9999),
        "must be an integer year from 2009 to 9999",
        true,
    )
}

/// Rule 6.5: the text of a decimal input (a string, or a number's serde_json text).
fn decimal_text(value: &Value, path: &str, name: &str, rule: &str) -> Checked<String> {
    match value {
        Value::String(text) => Ok(text.clone()),
        Value::Number(number) => Ok(number.to_string()),
        _ => Err(rule_error(path, InputReason::WrongType, name, rule, value)),
    }
}

/// `(0|[1-9][0-9]{0,max_whole-1})(\.[0-9]{1,max_fraction})?`, unsigned.
fn plain_decimal(text: &str, max_whole: usize, max_fraction: usize) -> bool {
    let (whole, fraction) = match text.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (text, None),
    };
    let digits = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
    let whole_ok =
        digits(whole) && whole.len() <= max_whole && (whole == "0" || !whole.starts_with('0'));
    let fraction_ok = fraction.is_none_or(|f| digits(f) && f.len() <= max_fraction);
    whole_ok && fraction_ok
}

fn hypothetical_price(value: &Value, path: &str) -> Checked<String> {
    let name = "hypotheticalPrice";
    let text = decimal_text(value, path, name, PRICE_RULE)?;
    if plain_decimal(&text, 15, 12) {
        Ok(text)
    } else {
        Err(error(
            path,
            InputReason::PatternMismatch,
            &format!("{name} {PRICE_RULE}; got \"{}\".", cut(&text)),
        ))
    }
}

/// `pct`: pattern first, then −100 to 1000 from the integer part and a non-zero fraction.
fn pct(value: &Value, path: &str) -> Checked<String> {
    let text = decimal_text(value, path, "pct", PCT_RULE)?;
    let (negative, unsigned) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.as_str()),
    };
    if !plain_decimal(unsigned, 4, 4) {
        return Err(error(
            path,
            InputReason::PatternMismatch,
            &format!("pct {PCT_RULE}; got \"{}\".", cut(&text)),
        ));
    }
    let (whole, fraction) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    let whole: u32 = whole.parse().unwrap_or(u32::MAX);
    let fraction_nonzero = fraction.bytes().any(|b| b != b'0');
    let bound = if negative { 100 } else { 1000 };
    if whole > bound || (whole == bound && fraction_nonzero) {
        return Err(error(
            path,
            InputReason::OutOfRange,
            &format!("pct {PCT_RULE}; got \"{}\".", cut(&text)),
        ));
    }
    Ok(text)
}

fn is_leap(year: u32) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

/// Rule 6.6: `YYYY-MM-DD` naming a real proleptic-Gregorian day.
fn date(value: &Value, path: &str, name: &str) -> Checked<String> {
    let Value::String(text) = value else {
        return Err(rule_error(
            path,
            InputReason::WrongType,
            name,
            DATE_RULE,
            value,
        ));
    };
    let bytes = text.as_bytes();
    let shaped = bytes.len() == 10
        && bytes.iter().enumerate().all(|(at, b)| {
            if at == 4 || at == 7 {
                *b == b'-'
            } else {
                b.is_ascii_digit()
            }
        });
    if !shaped {
        return Err(rule_error(
            path,
            InputReason::PatternMismatch,
            name,
            DATE_RULE,
            value,
        ));
    }
    let part = |range: std::ops::Range<usize>| -> u32 {
        text.get(range).and_then(|p| p.parse().ok()).unwrap_or(0)
    };
    let (year, month, day) = (part(0..4), part(5..7), part(8..10));
    let days_in_month = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap(year) => 29,
        2 => 28,
        _ => 0,
    };
    if (1..=days_in_month).contains(&day) {
        Ok(text.clone())
    } else {
        Err(rule_error(
            path,
            InputReason::InvalidDate,
            name,
            "must name a real calendar day",
            value,
        ))
    }
}

/// A closed vocabulary, matched exactly and case-sensitively (rule 6.7).
fn vocabulary<T>(
    value: &Value,
    path: &str,
    name: &str,
    parse: impl Fn(&str) -> Option<T>,
    members: &str,
) -> Checked<T> {
    let rule = format!("must be one of {members}");
    let Value::String(text) = value else {
        return Err(rule_error(path, InputReason::WrongType, name, &rule, value));
    };
    parse(text).ok_or_else(|| rule_error(path, InputReason::NotInVocabulary, name, &rule, value))
}

fn list_of<T: Copy>(all: &[T], show: impl Fn(T) -> &'static str) -> String {
    all.iter()
        .map(|item| show(*item))
        .collect::<Vec<_>>()
        .join(", ")
}

/// An array with `min..=max` items (rule 6.7).
fn array<'a>(
    value: &'a Value,
    path: &str,
    name: &str,
    bounds: (usize, Option<usize>),
    rule: &str,
) -> Checked<&'a Vec<Value>> {
    let Value::Array(items) = value else {
        return Err(rule_error(path, InputReason::WrongType, name, rule, value));
    };
    if items.len() < bounds.0 {
        return Err(error(
            path,
            InputReason::TooFewItems,
            &format!("{name} {rule}; got {} items.", items.len()),
        ));
    }
    if bounds.1.is_some_and(|max| items.len() > max) {
        return Err(error(
            path,
            InputReason::TooManyItems,
            &format!("{name} {rule}; got {} items.", items.len()),
        ));
    }
    Ok(items)
}

fn duplicate(path: &str, name: &str, shown: &str) -> InputError {
    error(
        path,
        InputReason::DuplicateItem,
        &format!(
            "{name} must not repeat an item; \"{}\" appears twice.",
            cut(shown)
        ),
    )
}

/// The arguments object: `null` counts as `{}` (rule 6.1).
fn root<'a>(
    arguments: &'a Value,
    empty: &'a Map<String, Value>,
) -> Checked<&'a Map<String, Value>> {
    match arguments {
        Value::Null => Ok(empty),
        Value::Object(object) => Ok(object),
        other => Err(error(
            "",
            InputReason::NotAnObject,
            &format!("arguments must be a JSON object; got {}.", quote(other)),
        )),
    }
}

/// Validates and normalises the arguments of `tool` into its canonical arguments (`tools.md`
/// §6.9): keys in schema order, symbols upper-cased, `accountName` trimmed, decimal inputs as
/// text, defaults filled in.
#[allow(clippy::too_many_lines)] // One arm per tool, in catalogue order.
pub(crate) fn validate(
    tool: ToolName,
    arguments: &Value,
    current_year: i32,
) -> Checked<Map<String, Value>> {
    let empty = Map::new();
    let object = root(arguments, &empty)?;
    let mut canonical = Map::new();
    let owner = tool.as_str();
    match tool {
        ToolName::PortfolioSummary
        | ToolName::FiscalIntegrity
        | ToolName::AssetAllocation
        | ToolName::RiskMetrics
        | ToolName::Kpis
        | ToolName::DataGaps
        | ToolName::DerivativesPnl
        | ToolName::ConcentrationRisk => check_unknown(object, &[], "", owner)?,
        ToolName::FiscalIntegrityRows => {
            check_unknown(object, &["qualityFlag", "page"], "", owner)?;
            let flags = list_of(QualityFlag::ALL, QualityFlag::as_str);
            let flag = field(object, "qualityFlag")
                .ok_or_else(|| missing("", "qualityFlag", &format!("must be one of {flags}")))?;
            let flag = vocabulary(
                flag,
                "/qualityFlag",
                "qualityFlag",
                QualityFlag::parse,
                &flags,
            )?;
            canonical.insert("qualityFlag".to_owned(), Value::from(flag.as_str()));
            canonical.insert("page".to_owned(), Value::from(page(object, 0)?));
        }
        ToolName::TokenHistory | ToolName::HoldingDetail | ToolName::BreakevenPrice => {
            check_unknown(object, &["symbol"], "", owner)?;
            canonical.insert("symbol".to_owned(), Value::from(required_symbol(object)?));
        }
        ToolName::TokenLots => {
            check_unknown(object, &["symbol", "page"], "", owner)?;
            canonical.insert("symbol".to_owned(), Value::from(required_symbol(object)?));
            canonical.insert("page".to_owned(), Value::from(page(object, 0)?));
        }
        ToolName::DrawdownCurve | ToolName::PerformanceHistory => {
            check_unknown(object, &["days"], "", owner)?;
            let days = match field(object, "days") {
                Some(value) => integer(
                    value,
                    "/days",
                    "days",
                    (1, 3650),
                    "must be an integer from 1 to 3650",
                    true,
                )?,
                None => 30,
            };
            canonical.insert("days".to_owned(), Value::from(days));
        }
        ToolName::VolatilityHeatmap => {
            check_unknown(object, &["year"], "", owner)?;
            let year = match field(object, "year") {
                Some(value) => year_field(value, "/year", "year")?,
                None => i64::from(current_year),
            };
            canonical.insert("year".to_owned(), Value::from(year));
        }
        ToolName::SpanishTaxReport => {
            check_unknown(object, &["year", "method"], "", owner)?;
            let year = field(object, "year")
                .ok_or_else(|| missing("", "year", "must be an integer year from 2009 to 9999"))?;
            canonical.insert(
                "year".to_owned(),
                Value::from(year_field(year, "/year", "year")?),
            );
            canonical.insert("method".to_owned(), Value::from(method(object)?));
        }
        ToolName::LivePrices => {
            check_unknown(object, &["symbols"], "", owner)?;
            let rule = "must be an array of 1 to 25 distinct symbols";
            let value = field(object, "symbols").ok_or_else(|| missing("", "symbols", rule))?;
            let items = array(value, "/symbols", "symbols", (1, Some(25)), rule)?;
            let mut symbols: Vec<String> = Vec::with_capacity(items.len());
            for (index, item) in items.iter().enumerate() {
                let path = index_path("/symbols", index);
                let normalised = symbol(item, &path, "symbols item")?;
                if symbols.contains(&normalised) {
                    return Err(duplicate(&path, "symbols", &normalised));
                }
                symbols.push(normalised);
            }
            canonical.insert("symbols".to_owned(), Value::from(symbols));
        }
        ToolName::AccountHoldings => {
            check_unknown(object, &["accountName"], "", owner)?;
            let rule = "must be an account name of 1 to 64 characters after trimming";
            let value =
                field(object, "accountName").ok_or_else(|| missing("", "accountName", rule))?;
            let Value::String(text) = value else {
                return Err(rule_error(
                    "/accountName",
                    InputReason::WrongType,
                    "accountName",
                    rule,
                    value,
                ));
            };
            let trimmed = text.trim();
            let chars = trimmed.chars().count();
            if chars == 0 {
                return Err(rule_error(
                    "/accountName",
                    InputReason::TooShort,
                    "accountName",
                    rule,
                    value,
                ));
            }
            if chars > 64 {
                return Err(rule_error(
                    "/accountName",
                    InputReason::TooLong,
                    "accountName",
                    rule,
                    value,
                ));
            }
            canonical.insert("accountName".to_owned(), Value::from(trimmed));
        }
        ToolName::TaxYearComparison => {
            check_unknown(object, &["yearA", "yearB", "method"], "", owner)?;
            let rule = "must be an integer year from 2009 to 9999";
            let year_a = field(object, "yearA").ok_or_else(|| missing("", "yearA", rule))?;
            let year_a = year_field(year_a, "/yearA", "yearA")?;
            let year_b = field(object, "yearB").ok_or_else(|| missing("", "yearB", rule))?;
            let year_b = year_field(year_b, "/yearB", "yearB")?;
            let method = method(object)?;
            if year_a == year_b {
                return Err(error(
                    "/yearB",
                    InputReason::MustDiffer,
                    &format!("yearB must differ from yearA; both are {year_b}."),
                ));
            }
            canonical.insert("yearA".to_owned(), Value::from(year_a));
            canonical.insert("yearB".to_owned(), Value::from(year_b));
            canonical.insert("method".to_owned(), Value::from(method));
        }
        ToolName::ExplainMetric => {
            check_unknown(object, &["metric"], "", owner)?;
            let metrics = list_of(MetricId::ALL, MetricId::as_str);
            let value = field(object, "metric")
                .ok_or_else(|| missing("", "metric", &format!("must be one of {metrics}")))?;
            let metric = vocabulary(value, "/metric", "metric", MetricId::parse, &metrics)?;
            canonical.insert("metric".to_owned(), Value::from(metric.as_str()));
        }
        ToolName::ScenarioPositionValue => {
            check_unknown(object, &["symbol", "hypotheticalPrice"], "", owner)?;
            canonical.insert("symbol".to_owned(), Value::from(required_symbol(object)?));
            let value = field(object, "hypotheticalPrice")
                .ok_or_else(|| missing("", "hypotheticalPrice", PRICE_RULE))?;
            canonical.insert(
                "hypotheticalPrice".to_owned(),
                Value::from(hypothetical_price(value, "/hypotheticalPrice")?),
            );
        }
        ToolName::CustodyLocations => {
            check_unknown(object, &["symbol"], "", owner)?;
            if let Some(value) = field(object, "symbol") {
                canonical.insert(
                    "symbol".to_owned(),
                    Value::from(symbol(value, "/symbol", "symbol")?),
                );
            }
        }
        ToolName::ScenarioPortfolioShock => {
            check_unknown(object, &["shock"], "", owner)?;
            let value = field(object, "shock").ok_or_else(|| {
                missing(
                    "",
                    "shock",
                    "must be an object with kind uniform or per_asset",
                )
            })?;
            canonical.insert("shock".to_owned(), Value::Object(shock(value)?));
        }
        ToolName::TxSearch => {
            check_unknown(
                object,
                &["symbol", "from", "to", "types", "page"],
                "",
                owner,
            )?;
            if let Some(value) = field(object, "symbol") {
                canonical.insert(
                    "symbol".to_owned(),
                    Value::from(symbol(value, "/symbol", "symbol")?),
                );
            }
            let from = field(object, "from")
                .map(|value| date(value, "/from", "from"))
                .transpose()?;
            if let Some(from) = &from {
                canonical.insert("from".to_owned(), Value::from(from.clone()));
            }
            let to = field(object, "to")
                .map(|value| date(value, "/to", "to"))
                .transpose()?;
            if let Some(to) = &to {
                canonical.insert("to".to_owned(), Value::from(to.clone()));
            }
            if let Some(value) = field(object, "types") {
                canonical.insert("types".to_owned(), Value::from(types(value)?));
            }
            canonical.insert("page".to_owned(), Value::from(page(object, 1)?));
            if let (Some(from), Some(to)) = (&from, &to) {
                // Same-shape `YYYY-MM-DD` texts compare like the dates they name.
                if from > to {
                    return Err(error(
                        "/to",
                        InputReason::InvalidRange,
                        &format!(
                            "to must not be before from; got from \"{from}\" and to \"{to}\"."
                        ),
                    ));
                }
            }
        }
    }
    Ok(canonical)
}

fn required_symbol(object: &Map<String, Value>) -> Checked<String> {
    let value = field(object, "symbol").ok_or_else(|| missing("", "symbol", SYMBOL_RULE))?;
    symbol(value, "/symbol", "symbol")
}

/// A page field with its base (`tools.md` §6.8).
fn page(object: &Map<String, Value>, base: i64) -> Checked<i64> {
    let rule = format!("must be an integer from {base} to 1000000; pages start at {base}");
    match field(object, "page") {
        Some(value) => integer(value, "/page", "page", (base, 1_000_000), &rule, false),
        None => Ok(base),
    }
}

fn method(object: &Map<String, Value>) -> Checked<&'static str> {
    match field(object, "method") {
        Some(value) => vocabulary(
            value,
            "/method",
            "method",
            |text| (text == "FIFO").then_some("FIFO"),
            "FIFO",
        ),
        None => Ok("FIFO"),
    }
}

fn types(value: &Value) -> Checked<Vec<&'static str>> {
    let members = list_of(SpotTxType::ALL, SpotTxType::as_str);
    let items = array(
        value,
        "/types",
        "types",
        (1, None),
        "must be a non-empty array of distinct transaction types",
    )?;
    let mut seen: Vec<&'static str> = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        let path = index_path("/types", index);
        let kind = vocabulary(item, &path, "types item", SpotTxType::parse, &members)?.as_str();
        if seen.contains(&kind) {
            return Err(duplicate(&path, "types", kind));
        }
        seen.push(kind);
    }
    Ok(seen)
}

/// The `shock` object: `kind` first, then the arm's keys strictly (`tools.md` §9.23).
fn shock(value: &Value) -> Checked<Map<String, Value>> {
    let Value::Object(object) = value else {
        return Err(rule_error(
            "/shock",
            InputReason::WrongType,
            "shock",
            "must be an object with kind uniform or per_asset",
            value,
        ));
    };
    let kind_rule = "must be one of uniform, per_asset";
    let kind = field(object, "kind").ok_or_else(|| missing("/shock", "kind", kind_rule))?;
    let kind = vocabulary(
        kind,
        "/shock/kind",
        "kind",
        |text| ["uniform", "per_asset"].into_iter().find(|k| *k == text),
        "uniform, per_asset",
    )?;
    let mut canonical = Map::new();
    canonical.insert("kind".to_owned(), Value::from(kind));
    if kind == "uniform" {
        check_unknown(object, &["kind", "pct"], "/shock", "shock")?;
        let value = field(object, "pct").ok_or_else(|| missing("/shock", "pct", PCT_RULE))?;
        canonical.insert("pct".to_owned(), Value::from(pct(value, "/shock/pct")?));
        return Ok(canonical);
    }
    check_unknown(object, &["kind", "shocks"], "/shock", "shock")?;
    let rule = "must be an array of 1 to 25 objects with distinct symbols";
    let value = field(object, "shocks").ok_or_else(|| missing("/shock", "shocks", rule))?;
    let items = array(value, "/shock/shocks", "shocks", (1, Some(25)), rule)?;
    let mut symbols: Vec<String> = Vec::with_capacity(items.len());
    let mut shocks = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        let path = index_path("/shock/shocks", index);
        let Value::Object(entry) = item else {
            return Err(rule_error(
                &path,
                InputReason::WrongType,
                "shocks item",
                "must be an object with symbol and pct",
                item,
            ));
        };
        check_unknown(entry, &["symbol", "pct"], &path, "shocks item")?;
        let symbol_value =
            field(entry, "symbol").ok_or_else(|| missing(&path, "symbol", SYMBOL_RULE))?;
        let symbol_path = child(&path, "symbol");
        let normalised = symbol(symbol_value, &symbol_path, "symbol")?;
        if symbols.contains(&normalised) {
            return Err(duplicate(&symbol_path, "shocks", &normalised));
        }
        let pct_value = field(entry, "pct").ok_or_else(|| missing(&path, "pct", PCT_RULE))?;
        let text = pct(pct_value, &child(&path, "pct"))?;
        let mut shock = Map::new();
        shock.insert("symbol".to_owned(), Value::from(normalised.clone()));
        shock.insert("pct".to_owned(), Value::from(text));
        shocks.push(Value::Object(shock));
        symbols.push(normalised);
    }
    canonical.insert("shocks".to_owned(), Value::Array(shocks));
    Ok(canonical)
}

#[cfg(test)]
mod tests;
