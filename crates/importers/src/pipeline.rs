//! Detection (§1.4), the per-file context that collects findings, the draft transactions the
//! profiles emit, and the final stage that orders them and computes identities (§1.14).

use std::collections::{BTreeMap, BTreeSet};

use core_domain::Instant;
use core_domain::ledger::{AssetAmount, Fee, StatedAmount};
use csv::ByteRecord;
use rust_decimal::Decimal;
use shared_types::SpotTxType;

use crate::model::{
    Finding, FormatInfo, ImportOptions, ImportResult, Level, Profile, SkipReason, Transaction, Zone,
};
use crate::reader::{self, Decoded, Header, Records};
use crate::values::{self, NumError};

mod hints;

pub(crate) const SEP: char = '\u{1f}';

pub(crate) const GENERIC_COLUMNS: [&str; 14] = [
    "timestamp",
    "type",
    "account",
    "in_asset",
    "in_amount",
    "out_asset",
    "out_amount",
    "fee_asset",
    "fee_amount",
    "fiat_value",
    "fiat_currency",
    "id",
    "group_id",
    "note",
];

pub(crate) struct Def {
    pub(crate) profile: Profile,
    pub(crate) required: &'static [&'static str],
    pub(crate) forbidden: &'static [&'static str],
    pub(crate) layouts: &'static [(&'static str, &'static [&'static str])],
    pub(crate) exactly_one: bool,
}

const DEFS: &[Def] = &[
    Def {
        profile: Profile::BinanceStatement,
        required: &["Account", "Operation", "Coin", "Change", "Remark"],
        forbidden: &["uid", "txid"],
        layouts: &[("utc", &["UTC_Time"]), ("local", &["Time"])],
        exactly_one: true,
    },
    Def {
        profile: Profile::Bitvavo,
        required: &[
            "Timezone",
            "Date",
            "Time",
            "Type",
            "Currency",
            "Amount",
            "Fee currency",
            "Fee amount",
            "Status",
            "Transaction ID",
        ],
        forbidden: &[],
        layouts: &[
            (
                "current",
                &[
                    "Quote Currency",
                    "Quote Price",
                    "Received / Paid Currency",
                    "Received / Paid Amount",
                ],
            ),
            ("legacy", &["Price (EUR)", "EUR received / paid"]),
        ],
        exactly_one: true,
    },
    Def {
        profile: Profile::Coinbase,
        required: &[
            "Timestamp",
            "Transaction Type",
            "Asset",
            "Quantity Transacted",
            "Subtotal",
            "Notes",
        ],
        forbidden: &[],
        layouts: &[
            (
                "v4",
                &[
                    "ID",
                    "Price Currency",
                    "Price at Transaction",
                    "Total (inclusive of fees and/or spread)",
                    "Fees and/or Spread",
                ],
            ),
            (
                "v3",
                &[
                    "Spot Price Currency",
                    "Spot Price at Transaction",
                    "Total (inclusive of fees and/or spread)",
                    "Fees and/or Spread",
                ],
            ),
            (
                "v2",
                &[
                    "Spot Price Currency",
                    "Spot Price at Transaction",
                    "Total (inclusive of fees)",
                    "Fees",
                ],
            ),
            // The v4 columns without `ID` (D-99); a header with `ID` is v4.
            (
                "v4-no-id",
                &[
                    "Price Currency",
                    "Price at Transaction",
                    "Total (inclusive of fees and/or spread)",
                    "Fees and/or Spread",
                ],
            ),
        ],
        exactly_one: true,
    },
    Def {
        profile: Profile::Generic,
        required: &GENERIC_COLUMNS,
        forbidden: &[],
        layouts: &[("", &[])],
        exactly_one: false,
    },
    Def {
        profile: Profile::KrakenFutures,
        required: &[
            "uid",
            "dateTime",
            "account",
            "type",
            "symbol",
            "contract",
            "change",
            "new balance",
            "trade price",
            "realized pnl",
            "fee",
            "realized funding",
        ],
        forbidden: &["txid", "refid"],
        layouts: &[
            (
                "F22",
                &["exchange rate", "exchange rate from", "conversion fee"],
            ),
            ("F19", &[]),
        ],
        exactly_one: false,
    },
    Def {
        profile: Profile::KrakenLedgers,
        required: &[
            "txid", "refid", "time", "type", "aclass", "asset", "amount", "fee", "balance",
        ],
        forbidden: &["uid", "position uid"],
        // `L09`: the ledgers exported before the `subtype` column (late 2020 and earlier).
        layouts: &[
            ("L12", &["subtype", "subclass", "wallet"]),
            ("L11", &["subtype", "wallet"]),
            ("L10", &["subtype"]),
            ("L09", &[]),
        ],
        exactly_one: false,
    },
];

/// Every profile's definition: these and the further exchanges' (`profiles::extra`).
fn all_defs() -> impl Iterator<Item = &'static Def> {
    DEFS.iter().chain(crate::profiles::extra::DEFS)
}

fn def(profile: Profile) -> &'static Def {
    all_defs()
        .find(|d| d.profile == profile)
        .unwrap_or(&DEFS[0])
}

/// The profile's layout of a header among all its definitions (a profile may have several:
/// KuCoin's older trade exports share no column with its bundle); an `Ok` wins over an `Err`.
fn profile_layout(
    profile: Profile,
    cells: &[String],
    check_forbidden: bool,
) -> Option<Result<&'static str, ()>> {
    let mut found = None;
    for d in all_defs().filter(|d| d.profile == profile) {
        match layout_of(d, cells, check_forbidden) {
            Some(Ok(layout)) => return Some(Ok(layout)),
            Some(Err(())) => found = Some(Err(())),
            None => {}
        }
    }
    found
}

fn has(cells: &[String], name: &str) -> bool {
    cells
        .iter()
        .any(|c| crate::profiles::extra::header_matches(c, name))
}

/// `Some(Ok(layout))` when the profile matches with one layout, `Some(Err(()))` when it
/// matches but its layouts do not resolve, `None` when it does not match.
fn layout_of(d: &Def, cells: &[String], check_forbidden: bool) -> Option<Result<&'static str, ()>> {
    if d.profile == Profile::Coinbase && crate::profiles::coinbase::currency_named(cells).is_some()
    {
        return Some(Ok("v1"));
    }
    if !d.required.iter().all(|r| has(cells, r)) {
        return None;
    }
    if check_forbidden && d.forbidden.iter().any(|f| has(cells, f)) {
        return None;
    }
    let mut matching: Vec<&'static str> = d
        .layouts
        .iter()
        .filter(|(_, extra)| extra.iter().all(|e| has(cells, e)))
        .map(|(name, _)| *name)
        .collect();
    if matching.contains(&"v4") {
        matching.retain(|l| *l != "v4-no-id");
    }
    if d.exactly_one {
        Some(if matching.len() == 1 {
            Ok(matching[0])
        } else {
            Err(())
        })
    } else {
        matching.first().map(|l| Ok(*l)).or(Some(Err(())))
    }
}

const REFUSED: &[(&[&str], &str, &str)] = &[
    (
        &[
            "txid",
            "ordertxid",
            "pair",
            "time",
            "type",
            "ordertype",
            "price",
            "cost",
            "fee",
            "vol",
            "margin",
            "misc",
            "ledgers",
        ],
        "a Kraken \"Trades\" export",
        "export \"Ledgers\" instead, which also has deposits, withdrawals and staking",
    ),
    (
        &[
            "Date(UTC)",
            "Pair",
            "Side",
            "Price",
            "Executed",
            "Amount",
            "Fee",
        ],
        "a Binance trade history",
        "export the \"Transaction History\" statement instead",
    ),
    (
        &[
            "portfolio",
            "trade id",
            "product",
            "side",
            "created at",
            "size",
            "size unit",
            "price",
            "fee",
            "total",
            "price/fee/total unit",
        ],
        "a Coinbase Exchange (Pro) fills export",
        "convert it to the generic format",
    ),
    (
        &[
            "Date(UTC)",
            "Market",
            "Type",
            "Price",
            "Amount",
            "Total",
            "Fee",
            "Fee Coin",
        ],
        "a Binance trade history",
        "export the \"Transaction History\" statement instead (Wallet, Transaction History, Export)",
    ),
    (
        &["Date(UTC)", "Pair", "Order Price", "Order Amount"],
        "a Binance order history",
        "export the \"Transaction History\" statement instead (Wallet, Transaction History, Export)",
    ),
    (
        &["Date(UTC)", "Coin", "Network", "Amount", "TXID"],
        "a Binance deposit or withdrawal history",
        "export the \"Transaction History\" statement instead (Wallet, Transaction History, Export), which also has trades and Earn",
    ),
    (
        &[
            "portfolio",
            "type",
            "time",
            "amount",
            "balance",
            "amount/balance unit",
        ],
        "a Coinbase Exchange (Pro) account statement",
        "convert it to the generic format, or download the Coinbase transaction history report for your Coinbase account",
    ),
    // The Coinbase report before 2020 (`USD Spot Price at Transaction`, `USD Amount Transacted
    // (Inclusive of Coinbase Fees)`, `Address`): its fee is not stated and its dates have no
    // time; the current report covers the same years (D-162).
    (
        &[
            "Timestamp",
            "Transaction Type",
            "Asset",
            "Quantity Transacted",
            "Address",
            "Notes",
        ],
        "a Coinbase transaction report of before 2020",
        "download the current one instead (Coinbase, Reports, Transaction history, all assets and all time), which covers the same years",
    ),
    (
        &[
            "Currency",
            "Contract",
            "Type",
            "Direction",
            "Quantity",
            "Position",
            "Filled Price",
            "Funding",
            "Fee Paid",
            "Cash Flow",
            "Change",
            "Wallet Balance",
        ],
        "a Bybit Unified Trading Account transaction log or derivatives history",
        "derivatives are not supported; import the spot trade history (Orders, Spot Orders, Trade History, Export) and the Funding account's log (Assets, Data Export, Transaction Log, Account Change Details, Funding) instead",
    ),
    (
        &[
            "Order ID",
            "Currency (Fiat)",
            "Fiat Amount",
            "Fee",
            "Deposit Method",
            "Status",
        ],
        "KuCoin's fiat deposit record",
        "the KuCoin account history states every fiat deposit (Fiat Deposit): import the Funding account history instead",
    ),
    (
        &["date", "symbol", "close", "currency"],
        "a price file",
        "use cartera prices import",
    ),
    (
        &["timestamp", "price"],
        "a price file",
        "use cartera prices import",
    ),
];

fn refused(cells: &[String]) -> Option<String> {
    if cells
        .first()
        .is_some_and(|c| c.eq_ignore_ascii_case("Date"))
        && cells.len() > 1
        && cells[1..].iter().filter(|c| !c.is_empty()).count() > 0
        && cells[1..]
            .iter()
            .filter(|c| !c.is_empty())
            .all(|c| c.len() == 3 && c.bytes().all(|b| b.is_ascii_uppercase()))
    {
        return Some("this is an ECB rate file; use cartera rates import".to_owned());
    }
    REFUSED
        .iter()
        .find(|(cols, _, _)| cols.iter().all(|c| has(cells, c)))
        .map(|(_, what, hint)| {
            // Kraken's hint is quoted verbatim by AC-04.
            if what.starts_with("a Kraken") {
                format!("this is a Kraken \"Trades\" export; {hint}")
            } else {
                format!("this is {what}; {hint}")
            }
        })
}

/// Finds the header among the first 10 records and the profile (§1.4).
#[allow(clippy::too_many_lines)] // Forced and detected outcomes side by side.
pub(crate) fn detect(
    peeked: &[(u64, Vec<String>)],
    forced: Option<Profile>,
) -> Result<(usize, Header, FormatInfo), Finding> {
    if let Some(profile) = forced {
        let d = def(profile);
        for (i, (line, cells)) in peeked.iter().enumerate() {
            if let Some(found) = profile_layout(profile, cells, false) {
                let header = Header::new(*line, cells.clone());
                return match found {
                    Ok(layout) => Ok((
                        i,
                        header,
                        FormatInfo {
                            profile,
                            layout,
                            detected: false,
                        },
                    )),
                    Err(()) => Err(header.error(
                        0,
                        "header-mismatch",
                        format!(
                            "the header does not match format {}: no layout of {} matches",
                            profile.id(),
                            profile.id()
                        ),
                    )),
                };
            }
        }
        let best = peeked.iter().enumerate().max_by_key(|(i, (_, cells))| {
            (
                d.required.iter().filter(|r| has(cells, r)).count(),
                std::cmp::Reverse(*i),
            )
        });
        let Some((_, (line, cells))) = best else {
            return Err(reader::header_not_found(reader::NO_HEADER.to_owned()));
        };
        let missing: Vec<&str> = d
            .required
            .iter()
            .copied()
            .filter(|r| !has(cells, r))
            .collect();
        let header = Header::new(*line, cells.clone());
        return Err(header.error(
            0,
            "header-mismatch",
            format!(
                "the header does not match format {}: missing {}",
                profile.id(),
                missing.join(", ")
            ),
        ));
    }
    for (i, (line, cells)) in peeked.iter().enumerate() {
        let mut matches: Vec<(Profile, Result<&'static str, ()>)> = Vec::new();
        for d in all_defs() {
            if !matches.iter().any(|(p, _)| *p == d.profile)
                && let Some(r) = profile_layout(d.profile, cells, true)
            {
                matches.push((d.profile, r));
            }
        }
        let header = Header::new(*line, cells.clone());
        match matches.as_slice() {
            [] => {}
            [(profile, Ok(layout))] => {
                return Ok((
                    i,
                    header,
                    FormatInfo {
                        profile: *profile,
                        layout,
                        detected: true,
                    },
                ));
            }
            [(profile, Err(()))] => {
                return Err(header.error(
                    0,
                    "header-mismatch",
                    format!(
                        "the header does not match format {}: no layout of {} matches",
                        profile.id(),
                        profile.id()
                    ),
                ));
            }
            several => {
                let ids: Vec<&str> = several.iter().map(|(p, _)| p.id()).collect();
                return Err(header.error(
                    0,
                    "ambiguous-profile",
                    format!(
                        "the header matches several formats ({}); choose one with --format",
                        ids.join(", ")
                    ),
                ));
            }
        }
    }
    let first = peeked.first();
    let message = peeked
        .iter()
        .find_map(|(_, cells)| refused(cells))
        .unwrap_or_else(|| reader::NO_HEADER.to_owned());
    let mut f = reader::header_not_found(message);
    if let Some((line, cells)) = first {
        f.line = *line;
        f.header = cells.first().cloned().unwrap_or_default();
    }
    Err(f)
}

/// Usage errors knowable from the options alone (`--format` given), as `(code, reason)`.
pub fn usage_error(options: &ImportOptions) -> Option<(&'static str, String)> {
    let profile = options.format?;
    option_error(profile, "", options).map(|(_, code, msg)| (code, msg))
}

/// `(header column name, code, message)` of an option that does not fit the profile.
fn option_error(
    profile: Profile,
    layout: &str,
    o: &ImportOptions,
) -> Option<(&'static str, &'static str, String)> {
    let id = profile.id();
    if o.account.is_some() && profile == Profile::Generic {
        return Some((
            "",
            "option-not-applicable",
            format!("--account does not apply to {id}"),
        ));
    }
    let zone_ok = profile == Profile::Generic
        || (profile == Profile::BinanceStatement && layout != "utc")
        || crate::profiles::extra::takes_timezone(profile);
    if o.timezone.is_some() && !zone_ok {
        return Some((
            "",
            "option-not-applicable",
            format!("--timezone does not apply to {id}"),
        ));
    }
    if o.assume_fiat_quote && profile != Profile::Coinbase {
        return Some((
            "",
            "option-not-applicable",
            format!("--assume-fiat-quote does not apply to {id}"),
        ));
    }
    if let Some(column) = crate::profiles::extra::needs_timezone(profile)
        && o.timezone.is_none()
    {
        return Some((
            column,
            "timezone-required",
            "these timestamps carry no time zone; pass --timezone".to_owned(),
        ));
    }
    if profile == Profile::BinanceStatement && layout == "local" && o.timezone.is_none() {
        return Some((
            "Time",
            "timezone-required",
            "these timestamps carry no time zone; pass --timezone".to_owned(),
        ));
    }
    None
}

/// Why a profile's streamed read stopped: the file must be read whole (the profile's `read`);
/// the drafts it sent are void.
pub(crate) struct ReadWhole;

/// The per-file context: header, findings, invalid lines and skip counts.
pub(crate) struct Ctx {
    pub(crate) header: Header,
    pub(crate) findings: Vec<Finding>,
    pub(crate) invalid: BTreeSet<u64>,
    pub(crate) skipped: BTreeMap<SkipReason, u64>,
    pub(crate) rows_read: u64,
    /// Set by a streaming sink that needs no more rows (the file turned out unsorted).
    pub(crate) stop: bool,
    /// The cells of the records before the header (OKX states its zone there).
    pub(crate) preamble: Vec<Vec<String>>,
}

impl Ctx {
    fn push(
        &mut self,
        level: Level,
        line: u64,
        col: Option<usize>,
        code: &'static str,
        message: String,
    ) {
        let c = col.unwrap_or(0);
        self.findings.push(Finding {
            level,
            code,
            line,
            column: c + 1,
            header: self.header.name(c).to_owned(),
            message,
            file_level: false,
        });
    }

    /// A row error on column index `col`; marks the line invalid.
    pub(crate) fn err(
        &mut self,
        line: u64,
        col: Option<usize>,
        code: &'static str,
        message: String,
    ) {
        self.invalid.insert(line);
        self.push(Level::Error, line, col, code, message);
    }

    pub(crate) fn warn(
        &mut self,
        line: u64,
        col: Option<usize>,
        code: &'static str,
        message: String,
    ) {
        self.push(Level::Warning, line, col, code, message);
    }

    pub(crate) fn skip(&mut self, reason: SkipReason, rows: u64) {
        *self.skipped.entry(reason).or_default() += rows;
    }

    /// A decimal cell; `signed` admits a minus sign. Reports and returns `None` on failure.
    pub(crate) fn dec(
        &mut self,
        line: u64,
        col: Option<usize>,
        text: &str,
        signed: bool,
    ) -> Option<Decimal> {
        let parsed = values::parse_decimal(text);
        let refused_sign = !signed && text.starts_with('-');
        self.number(
            (line, col),
            text,
            parsed,
            refused_sign,
            "a plain decimal number",
            || values::out_of_range_reason(text),
        )
    }

    /// A number cell's value, or the finding that says why it has none: a sign the cell must
    /// not have, a text that is not `expected`, or a value out of range (`range` says how).
    #[inline]
    pub(crate) fn number(
        &mut self,
        (line, col): (u64, Option<usize>),
        text: &str,
        parsed: Result<Decimal, NumError>,
        refused_sign: bool,
        expected: &str,
        range: impl FnOnce() -> String,
    ) -> Option<Decimal> {
        match parsed {
            Ok(_) if refused_sign => {
                self.err(
                    line,
                    col,
                    "negative-not-allowed",
                    format!("\"{text}\" must not be negative"),
                );
                None
            }
            Ok(v) => Some(v),
            Err(NumError::Bad) => {
                self.err(
                    line,
                    col,
                    "bad-decimal",
                    format!("\"{text}\" is not {expected}"),
                );
                None
            }
            Err(NumError::Range) => {
                self.err(line, col, "decimal-out-of-range", range());
                None
            }
        }
    }

    /// A required cell.
    pub(crate) fn required<'t>(
        &mut self,
        line: u64,
        col: Option<usize>,
        text: &'t str,
    ) -> Option<&'t str> {
        if text.is_empty() {
            self.err(
                line,
                col,
                "missing-value",
                "a value is required here".to_owned(),
            );
            None
        } else {
            Some(text)
        }
    }

    /// An asset symbol cell (upper-cased).
    pub(crate) fn asset(
        &mut self,
        line: u64,
        col: Option<usize>,
        text: &str,
    ) -> Option<core_domain::Asset> {
        let a = values::asset(text);
        if a.is_none() {
            self.err(
                line,
                col,
                "bad-asset-symbol",
                format!("\"{text}\" is not a valid asset symbol"),
            );
        }
        a
    }

    /// Places a local time, reporting `nonexistent-local-time`, `ambiguous-local-time` and
    /// `timestamp-out-of-range` on `col`.
    pub(crate) fn place(
        &mut self,
        line: u64,
        col: Option<usize>,
        local: chrono::NaiveDateTime,
        zone: Zone,
    ) -> Option<Instant> {
        match values::place(local, zone) {
            values::Placed::Single(i) => Some(i),
            values::Placed::Ambiguous(i) => {
                self.warn(
                    line,
                    col,
                    "ambiguous-local-time",
                    format!(
                        "{} occurs twice in {}; the earlier instant {i} was used",
                        local.format("%Y-%m-%d %H:%M:%S"),
                        zone.name()
                    ),
                );
                Some(i)
            }
            values::Placed::Nonexistent => {
                self.err(
                    line,
                    col,
                    "nonexistent-local-time",
                    format!(
                        "{} does not exist in {} (daylight-saving change)",
                        local.format("%Y-%m-%d %H:%M:%S"),
                        zone.name()
                    ),
                );
                None
            }
            values::Placed::OutOfRange => {
                self.err(
                    line,
                    col,
                    "timestamp-out-of-range",
                    values::Dated::Ledger.outside(&values::shown_local(local, zone)),
                );
                None
            }
        }
    }

    /// A UTC timestamp cell of a fixed form.
    #[allow(clippy::too_many_arguments)] // Cell position, text and its grammar.
    pub(crate) fn utc_stamp(
        &mut self,
        line: u64,
        col: Option<usize>,
        text: &str,
        sep: &[u8],
        short_year: bool,
        form: &str,
        zone: Zone,
    ) -> Option<Instant> {
        if let Some(s) = values::parse_stamp(text, sep, short_year, false) {
            self.place(line, col, s.local, zone)
        } else {
            self.err(
                line,
                col,
                "bad-timestamp",
                format!("\"{text}\" is not a timestamp of the form {form}"),
            );
            None
        }
    }

    /// Records the first line of a declared id; a second sighting is `duplicate-id` on `col`,
    /// and `false`.
    pub(crate) fn first_sighting(
        &mut self,
        ids: &mut values::FastMap<String, u64>,
        key: &str,
        shown: &str,
        (line, col): (u64, Option<usize>),
    ) -> bool {
        if let Some(first) = ids.get(key) {
            self.err(
                line,
                col,
                "duplicate-id",
                format!("id \"{shown}\" already appears on line {first}"),
            );
            return false;
        }
        ids.insert(key.to_owned(), line);
        true
    }

    /// Emits the drafts of one row once the first passes the §1.6 shape check (the others of
    /// a row are built from the same amounts).
    pub(crate) fn emit_shaped(
        &mut self,
        line: u64,
        cols: (Option<usize>, Option<usize>),
        drafts: Vec<Draft>,
        emit: &mut dyn FnMut(&mut Ctx, Draft),
    ) {
        if let Some(first) = drafts.first()
            && !self.shape(
                line,
                cols,
                first.ty,
                first.inflow.as_ref(),
                first.outflow.as_ref(),
            )
        {
            return;
        }
        for d in drafts {
            emit(self, d);
        }
    }

    /// Checks the §1.6 shape; reports on the asset column of the offending side.
    pub(crate) fn shape(
        &mut self,
        line: u64,
        cols: (Option<usize>, Option<usize>),
        ty: SpotTxType,
        inflow: Option<&AssetAmount>,
        outflow: Option<&AssetAmount>,
    ) -> bool {
        match shape_violation(ty, inflow, outflow) {
            None => true,
            Some((is_in, code, msg)) => {
                self.err(line, if is_in { cols.0 } else { cols.1 }, code, msg);
                false
            }
        }
    }

    /// Marks every leg of a failed group: the failing lines keep their own findings, the
    /// others get `group-member-invalid`.
    pub(crate) fn group_invalid(&mut self, legs: &[u64], key_col: Option<usize>, key: &str) {
        let Some(first_bad) = legs
            .iter()
            .copied()
            .filter(|l| self.invalid.contains(l))
            .min()
        else {
            return;
        };
        for &l in legs {
            if !self.invalid.contains(&l) {
                self.err(
                    l,
                    key_col,
                    "group-member-invalid",
                    format!("part of operation {key}, whose line {first_bad} is invalid"),
                );
            }
        }
    }

    /// Reports a group error on every leg.
    pub(crate) fn group_err(
        &mut self,
        legs: &[u64],
        key_col: Option<usize>,
        code: &'static str,
        message: &str,
    ) {
        for &l in legs {
            self.err(l, key_col, code, message.to_owned());
        }
    }
}

/// `(is_in_side, code, message)` of the first §1.6 violation.
pub(crate) fn shape_violation(
    ty: SpotTxType,
    inflow: Option<&AssetAmount>,
    outflow: Option<&AssetAmount>,
) -> Option<(bool, &'static str, String)> {
    use SpotTxType as T;
    #[derive(Clone, Copy, PartialEq)]
    enum S {
        None,
        Fiat,
        Crypto,
        Any,
    }
    let (in_rule, in_req, out_rule, out_req) = match ty {
        T::Buy => (S::Crypto, true, S::Fiat, false),
        T::Sell => (S::Fiat, false, S::Crypto, true),
        T::Swap | T::MigrationSwap => (S::Crypto, true, S::Crypto, true),
        T::Deposit => (S::Fiat, true, S::None, false),
        T::Withdrawal => (S::None, false, S::Fiat, true),
        T::Staking | T::Airdrop | T::Mining | T::Fork | T::TransferIn => {
            (S::Crypto, true, S::None, false)
        }
        T::Reward | T::Promotion => (S::Any, true, S::None, false),
        T::Spend | T::TransferOut => (S::None, false, S::Crypto, true),
        T::Fee => (S::None, false, S::Any, true),
    };
    let check = |side: Option<&AssetAmount>, rule: S, req: bool, is_in: bool| {
        let word = if is_in { "in" } else { "out" };
        match side {
            None if req => Some((
                is_in,
                "side-missing",
                format!("{ty} requires an {word} side"),
            )),
            Some(_) if rule == S::None => Some((
                is_in,
                "side-not-allowed",
                format!("{ty} has no {word} side"),
            )),
            Some(a) if rule == S::Fiat && !a.asset.is_fiat() => Some((
                is_in,
                "fiat-expected",
                format!("{ty} requires a fiat {word} side; {} is not fiat", a.asset),
            )),
            Some(a) if rule == S::Crypto && a.asset.is_fiat() => Some((
                is_in,
                "crypto-expected",
                format!("{ty} requires a crypto {word} side; {} is fiat", a.asset),
            )),
            _ => None,
        }
    };
    check(inflow, in_rule, in_req, true).or_else(|| check(outflow, out_rule, out_req, false))
}

/// How a draft's identity key is formed.
#[derive(Clone, Debug)]
pub(crate) enum KeyBase {
    /// A declared key (`v1␟<profile>␟…`), without role, and the 0-based column of its id.
    Declared(String, Option<usize>),
    /// The content key.
    Content,
}

/// How a draft's `group_id` is formed.
#[derive(Clone, Debug)]
pub(crate) enum GroupRef {
    None,
    Text(String),
    /// The identity of the operation's first transaction (one-row sub-wallet moves).
    FirstIdentity,
}

/// A normalised transaction before ordering and identities.
#[derive(Clone, Debug)]
pub(crate) struct Draft {
    pub(crate) account: String,
    /// Account spelled in content keys (lower-cased by `finish`).
    pub(crate) key_account: Option<String>,
    pub(crate) timestamp: Instant,
    pub(crate) ty: SpotTxType,
    pub(crate) inflow: Option<AssetAmount>,
    pub(crate) outflow: Option<AssetAmount>,
    pub(crate) fee: Option<Fee>,
    pub(crate) fiat_value: Option<StatedAmount>,
    pub(crate) group: GroupRef,
    pub(crate) key: KeyBase,
    pub(crate) role: Option<String>,
    pub(crate) source_ref: String,
    pub(crate) note: String,
    pub(crate) line: u64,
    pub(crate) extra_lines: Vec<u64>,
}

impl Draft {
    pub(crate) fn new(
        account: String,
        key_account: &str,
        timestamp: Instant,
        ty: SpotTxType,
        key: KeyBase,
        line: u64,
    ) -> Self {
        Self {
            key_account: if key_account == account {
                None
            } else {
                Some(key_account.to_owned())
            },
            account,
            timestamp,
            ty,
            inflow: None,
            outflow: None,
            fee: None,
            fiat_value: None,
            group: GroupRef::None,
            key,
            role: None,
            source_ref: String::new(),
            note: String::new(),
            line,
            extra_lines: Vec::new(),
        }
    }

    /// A further transaction of the same operation, with a role.
    pub(crate) fn with_role(&self, role: String) -> Self {
        let mut d = self.clone();
        d.role = Some(role);
        d
    }
}

pub(crate) fn amount(asset: core_domain::Asset, quantity: Decimal) -> AssetAmount {
    AssetAmount { asset, quantity }
}

pub(crate) fn fee(asset: core_domain::Asset, quantity: Decimal) -> Fee {
    Fee { asset, quantity }
}

fn digits(out: &mut String, value: i64, width: u32) {
    for p in (0..width).rev() {
        let d = value / 10_i64.pow(p) % 10;
        out.push(char::from(b'0' + u8::try_from(d).unwrap_or(0)));
    }
}

/// Appends `instant` in the stored form `YYYY-MM-DDTHH:MM:SS[.f]Z` (hot path of content keys;
/// same output as `Instant`'s `Display`, without chrono's formatter).
pub(crate) fn push_instant(out: &mut String, instant: Instant) {
    let nanos = instant.unix_nanos();
    let secs = nanos.div_euclid(1_000_000_000);
    let frac = nanos.rem_euclid(1_000_000_000);
    let days = secs.div_euclid(86_400);
    let tod = secs.rem_euclid(86_400);
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    digits(out, year, 4);
    out.push('-');
    digits(out, month, 2);
    out.push('-');
    digits(out, day, 2);
    out.push('T');
    digits(out, tod / 3600, 2);
    out.push(':');
    digits(out, tod % 3600 / 60, 2);
    out.push(':');
    digits(out, tod % 60, 2);
    if frac != 0 {
        let mut f = frac;
        let mut width = 9;
        while f % 10 == 0 {
            f /= 10;
            width -= 1;
        }
        out.push('.');
        digits(out, f, width);
    }
    out.push('Z');
}

/// Orders drafts (timestamp, first line), numbers content keys and computes identities.
pub(crate) fn finish(profile: Profile, drafts: Vec<Draft>) -> (Vec<Transaction>, u64) {
    // Sort a small key array, not the drafts themselves (stable by emission index).
    let mut order: Vec<(Instant, u64, u32)> = drafts
        .iter()
        .enumerate()
        .map(|(i, d)| (d.timestamp, d.line, u32::try_from(i).unwrap_or(u32::MAX)))
        .collect();
    // Files in time order (the generic format usually is) skip the sort and the reshuffle.
    let sorted = order.is_sorted();
    if !sorted {
        order.sort_unstable();
    }
    let mut in_order = drafts.into_iter();
    let mut slots: Vec<Option<Draft>> = Vec::new();
    if !sorted {
        slots = in_order.by_ref().map(Some).collect();
    }
    let mut finisher = Finisher::new(profile);
    let mut out = Vec::with_capacity(order.len());
    for (_, _, index) in order {
        let next = if sorted {
            in_order.next()
        } else {
            slots.get_mut(index as usize).and_then(Option::take)
        };
        let Some(d) = next else { continue };
        finisher.push(d, &mut out);
    }
    (out, finisher.rows)
}

/// Numbers content keys and computes identities of drafts that arrive in insertion order
/// (timestamp, first line); the batch `finish` and the streaming reader share it.
pub(crate) struct Finisher {
    profile: Profile,
    // Ordinals keyed by a 128-bit digest of the content fields: no copy of the key per row;
    // a collision among a file's keys (odds below 1e-26 for 10M rows) is not a practical risk.
    // The key spells the timestamp, so equal keys share it and, in this order, are adjacent:
    // the map holds only the current timestamp's keys and stays small and in cache.
    counters: crate::values::FastMap<u128, u32>,
    counters_at: Option<Instant>,
    spellings: crate::values::FastMap<String, String>,
    last_account: (String, String, String),
    /// Index in `out` of the current operation's first transaction.
    primary: usize,
    /// Source rows of the operations pushed.
    pub(crate) rows: u64,
    /// Drafts arrive in file order, not insertion order (`Finisher::any_order`).
    any_order: bool,
}

impl Finisher {
    pub(crate) fn new(profile: Profile) -> Self {
        Self {
            profile,
            counters: crate::values::FastMap::default(),
            counters_at: None,
            spellings: crate::values::FastMap::default(),
            last_account: (String::new(), String::new(), String::new()),
            primary: 0,
            rows: 0,
            any_order: false,
        }
    }

    /// A finisher for drafts in file order, which the caller puts in insertion order later
    /// (rows of one operation stay together): the identities are the same as in insertion
    /// order, because equal content keys share their timestamp and so arrive in line order,
    /// but the ordinals are counted over the whole file (memory for the file's identities,
    /// `imports.md` §1.2), and account names keep the row's spelling, since the first
    /// spelling in insertion order is not known yet (the store keeps the first one it is
    /// given, and it is given the rows in insertion order).
    pub(crate) fn any_order(profile: Profile) -> Self {
        Self {
            any_order: true,
            ..Self::new(profile)
        }
    }

    /// Finishes `d` into `out`. A draft with a role must follow its operation's first
    /// transaction in the same `out`.
    #[allow(clippy::too_many_lines)] // One pass builds both keys; splitting it costs allocations.
    pub(crate) fn push(&mut self, d: Draft, out: &mut Vec<Transaction>) {
        use std::fmt::Write as _;
        if self.counters_at != Some(d.timestamp) && !self.any_order {
            self.counters_at = Some(d.timestamp);
            // A burst of one timestamp may have grown the map: clearing stays O(burst).
            if self.counters.capacity() > 1024 {
                self.counters = crate::values::FastMap::default();
            } else if !self.counters.is_empty() {
                self.counters.clear();
            }
        }
        let last_account = &mut self.last_account;
        if d.account != last_account.0 {
            let lower = d.account.to_lowercase();
            let spelled = self
                .spellings
                .entry(lower.clone())
                .or_insert_with(|| d.account.clone())
                .clone();
            *last_account = (d.account.clone(), spelled, lower);
        }
        // Reuse the draft's own string when it already has the first-seen spelling.
        let account = if self.any_order || d.account == last_account.1 {
            None
        } else {
            Some(last_account.1.clone())
        };
        let mut base = String::with_capacity(160);
        base.push_str("v1");
        base.push(SEP);
        base.push_str(self.profile.id());
        base.push(SEP);
        base.push_str("content");
        base.push(SEP);
        match &d.key_account {
            None => base.push_str(&last_account.2),
            Some(k) => base.push_str(&k.to_lowercase()),
        }
        base.push(SEP);
        push_instant(&mut base, d.timestamp);
        base.push(SEP);
        base.push_str(d.ty.as_str());
        for side in [
            d.inflow.map(|a| (a.asset, a.quantity)),
            d.outflow.map(|a| (a.asset, a.quantity)),
            d.fee.map(|f| (f.asset, f.quantity)),
        ] {
            base.push(SEP);
            if let Some((a, q)) = side {
                base.push_str(a.as_str());
                base.push(SEP);
                let normal = q.normalize();
                if normal.is_zero() {
                    base.push('0');
                } else {
                    let _ = write!(base, "{normal}");
                }
            } else {
                base.push(SEP);
            }
        }
        let count = self
            .counters
            .entry(values::digest128(base.as_bytes()))
            .or_insert(0);
        *count += 1;
        let ordinal = *count;
        base.push(SEP);
        let _ = write!(base, "{ordinal}");
        let content_key = base;
        let primary = self.primary;
        let identity_key = match (&d.key, &d.role) {
            (KeyBase::Declared(k, _), None) => k.clone(),
            (KeyBase::Declared(k, _), Some(r)) => format!("{k}{SEP}{r}"),
            (KeyBase::Content, None) => content_key.clone(),
            (KeyBase::Content, Some(r)) => {
                format!(
                    "{}{SEP}{r}",
                    out.get(primary)
                        .map_or("", |t: &Transaction| t.identity_key.as_str())
                )
            }
        };
        let identity = values::sha256_hex(&identity_key);
        let mut d = d;
        cap_note(&mut d.note);
        if d.role.is_none() {
            self.rows += 1 + d.extra_lines.len() as u64;
            self.primary = out.len();
        }
        let primary = self.primary;
        let group_id = match d.group {
            GroupRef::None => None,
            GroupRef::Text(t) => Some(t),
            GroupRef::FirstIdentity => Some(
                out.get(primary)
                    .map_or_else(|| identity.clone(), |t| t.identity.clone()),
            ),
        };
        let mut lines = Vec::with_capacity(1 + d.extra_lines.len());
        lines.push(d.line);
        lines.extend(d.extra_lines);
        lines.sort_unstable();
        let key_column = match &d.key {
            KeyBase::Declared(_, col) => col.map(|c| c + 1),
            KeyBase::Content => None,
        };
        out.push(Transaction {
            key_column,
            account: account.unwrap_or(d.account),
            timestamp: d.timestamp,
            tx_type: d.ty,
            inflow: d.inflow,
            outflow: d.outflow,
            fee: d.fee,
            fiat_value: d.fiat_value,
            group_id,
            identity,
            identity_key,
            content_key,
            source_ref: d.source_ref,
            note: d.note,
            lines,
        });
    }
}

/// The most characters of a stored note (`imports.md` §1.5).
pub(crate) const NOTE_CHARS: usize = 500;

/// Cuts a note an exchange profile built (labels, addresses, remarks) to [`NOTE_CHARS`]
/// characters, the last one `…`, so nothing is stored past the limit (D-85); the generic
/// format refuses a longer note of its own.
pub(crate) fn cap_note(note: &mut String) {
    if note.len() <= NOTE_CHARS {
        return;
    }
    if let Some((at, _)) = note.char_indices().nth(NOTE_CHARS - 1) {
        note.truncate(at);
        note.push('…');
    }
}

/// The output of one profile reader.
pub(crate) struct ProfileOutput {
    pub(crate) drafts: Vec<Draft>,
    pub(crate) futures: Vec<crate::model::FuturesRecord>,
}

/// Stages 1 and 2 and the header checks: either a finished result (a file-level error) or
/// the context to read the rows with.
#[allow(clippy::large_enum_variant)] // Built once per file and taken apart at once.
enum Start<'a> {
    /// A file-level error, with the records when the reading had begun.
    Done(ImportResult, Option<Records<'a>>),
    Rows {
        result: ImportResult,
        ctx: Ctx,
        records: Records<'a>,
        format: FormatInfo,
    },
}

fn start<'a>(bytes: &'a [u8], options: &ImportOptions) -> Start<'a> {
    let mut result = ImportResult::default();
    let text = match reader::decode(bytes) {
        Ok(Decoded::Text(t)) => t,
        Ok(Decoded::Zip) => {
            let Some(text) = crate::workbook::csv_text(bytes) else {
                result.findings.push(reader::spreadsheet());
                return Start::Done(result, None);
            };
            return start_workbook(result, text, options);
        }
        Err(f) => {
            result.findings.push(f);
            return Start::Done(result, None);
        }
    };
    start_records(result, Records::new(text), options)
}

/// [`start`] of a file read block by block from `source`: the signature is checked on its
/// first bytes; UTF-8 is checked as the rows are read (the block reader of `reader.rs`).
fn start_read<'a>(
    head: &'a mut Vec<u8>,
    source: &'a mut dyn std::io::Read,
    size: usize,
    options: &ImportOptions,
) -> Start<'a> {
    let mut result = ImportResult::default();
    let mut block = [0u8; 4];
    let mut filled = 0;
    while filled < block.len() {
        match source.read(block.get_mut(filled..).unwrap_or_default()) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => {
                result.findings.push(reader::file_error_dash(
                    "file-unreadable",
                    format!("cannot read the file: {e}"),
                ));
                return Start::Done(result, None);
            }
        }
    }
    head.extend_from_slice(block.get(..filled).unwrap_or_default());
    if head.starts_with(b"PK\x03\x04") || head.starts_with(&[0xD0, 0xCF, 0x11, 0xE0]) {
        result.findings.push(reader::spreadsheet());
        return Start::Done(result, None);
    }
    start_records(
        result,
        Records::from_file(head, Box::new(source), size),
        options,
    )
}

/// [`start_records`] of a workbook's first sheet: only a profile downloaded as a workbook
/// reads one; any other workbook keeps the `spreadsheet-not-accepted` refusal.
fn start_workbook<'a>(result: ImportResult, text: Vec<u8>, options: &ImportOptions) -> Start<'a> {
    let refused = || {
        let mut result = ImportResult::default();
        result.findings.push(reader::spreadsheet());
        Start::Done(result, None)
    };
    match start_records(result, Records::owned(text), options) {
        Start::Rows { format, .. } if !crate::profiles::extra::reads_workbooks(format.profile) => {
            refused()
        }
        Start::Done(result, _)
            if !result
                .format
                .as_ref()
                .is_some_and(|f| crate::profiles::extra::reads_workbooks(f.profile)) =>
        {
            refused()
        }
        other => other,
    }
}

fn start_records<'a>(
    mut result: ImportResult,
    mut records: Records<'a>,
    options: &ImportOptions,
) -> Start<'a> {
    let peeked = records.peek(10);
    let (index, header, format) = match detect(&peeked, options.format) {
        Ok(found) => found,
        Err(mut f) => {
            if f.code == "header-not-found" && f.message == reader::NO_HEADER {
                hints::header_not_found(&mut f, &records.peek(hints::LOOK_AHEAD));
            }
            result.findings.push(records.oversized(None).unwrap_or(f));
            return Start::Done(result, Some(records));
        }
    };
    if let Some(f) = records.oversized(Some(&header)) {
        result.findings.push(f);
        return Start::Done(result, Some(records));
    }
    let preamble = peeked
        .get(..index)
        .unwrap_or_default()
        .iter()
        .map(|(_, cells)| cells.clone())
        .collect();
    records.consume(index + 1);
    result.header_line = Some(header.line);
    result.header_cells.clone_from(&header.cells);
    result.format = Some(format.clone());
    if let Some(f) = header.check_cells_allowing(&|code, cell| {
        crate::profiles::extra::header_quirk(&format, code, cell)
    }) {
        result.findings.push(f);
        return Start::Done(result, Some(records));
    }
    if let Some((col, code, msg)) = option_error(format.profile, format.layout, options) {
        let i = if col.is_empty() {
            0
        } else {
            header.find(col).unwrap_or(0)
        };
        result.findings.push(header.error(i, code, msg));
        return Start::Done(result, Some(records));
    }
    let ctx = Ctx {
        header,
        findings: Vec::new(),
        invalid: BTreeSet::new(),
        skipped: BTreeMap::new(),
        rows_read: 0,
        stop: false,
        preamble,
    };
    Start::Rows {
        result,
        ctx,
        records,
        format,
    }
}

/// Moves the context's counts and findings into the result and sorts the findings.
fn conclude(mut result: ImportResult, ctx: Ctx) -> ImportResult {
    result.rows_read = ctx.rows_read;
    result.skipped = ctx.skipped;
    result.invalid_rows = ctx.invalid.len() as u64;
    result.findings.extend(ctx.findings);
    result
        .findings
        .sort_by_key(|a| (!a.file_level, a.line, a.column));
    result
}

/// Stages 1–6 for one spot or futures file.
pub(crate) fn run(bytes: &[u8], options: &ImportOptions) -> ImportResult {
    let (mut result, mut ctx, mut records, format) = match start(bytes, options) {
        Start::Done(result, _) => return result,
        Start::Rows {
            result,
            ctx,
            records,
            format,
        } => (result, ctx, records, format),
    };
    let account = options
        .account
        .clone()
        .or_else(|| format.profile.default_account().map(str::to_owned))
        .unwrap_or_default();
    let out = match format.profile {
        Profile::Generic => crate::profiles::generic::read(&mut ctx, &mut records, options),
        Profile::KrakenLedgers => {
            crate::profiles::kraken::read(&mut ctx, &mut records, &account, format.layout, options)
        }
        Profile::KrakenFutures => crate::profiles::futures::read(&mut ctx, &mut records, &account),
        Profile::Bitvavo => {
            crate::profiles::bitvavo::read(&mut ctx, &mut records, &account, format.layout, options)
        }
        Profile::BinanceStatement => {
            crate::profiles::binance::read(&mut ctx, &mut records, &account, format.layout, options)
        }
        Profile::Coinbase => crate::profiles::coinbase::read(
            &mut ctx,
            &mut records,
            &account,
            format.layout,
            options,
        ),
        other @ (Profile::CryptocomApp
        | Profile::RevolutCrypto
        | Profile::Bit2me
        | Profile::Bitunix
        | Profile::Kucoin
        | Profile::Okx
        | Profile::Bybit) => crate::profiles::extra::read(
            other,
            &mut ctx,
            &mut records,
            &account,
            format.layout,
            options,
        ),
    };
    ctx.findings.extend(records.oversized(Some(&ctx.header)));
    let file_level = ctx.findings.iter().any(|f| f.file_level);
    if !file_level {
        let (transactions, rows) = finish(format.profile, out.drafts);
        result.transactions = transactions;
        let mut futures = out.futures;
        futures.sort_by_key(|f| (f.timestamp, f.line));
        for f in &mut futures {
            cap_note(&mut f.note);
        }
        result.rows_in_records = rows + futures.len() as u64;
        result.futures = futures;
    }
    conclude(result, ctx)
}

/// What a streaming read did (`crate::import_bytes_streaming`).
#[derive(Debug)]
pub enum Streamed {
    /// The file was read; its transactions or futures records went to the sink
    /// (`transactions` and `futures` are empty).
    Done(ImportResult),
    /// A Kraken ledgers file or a Binance statement that must be read whole (a row against
    /// its time order, a Kraken trade group split by another time): the chunks sent so far,
    /// if any, are void; read it with `import_bytes`.
    Declined,
    /// A row is earlier than one before it, so insertion order differs from file order (a
    /// Kraken ledgers file or a Kraken futures log always is, unread): the reading stopped,
    /// the chunks sent so far are void; read it in any order or with `import_bytes`.
    Unsorted,
}

/// What a streaming read hands its sink: a spot file's transactions, or a Kraken futures
/// log's records.
#[derive(Debug)]
pub enum Chunk {
    /// Transactions of a generic, Bitvavo, Coinbase, Kraken ledgers or Binance file.
    Transactions(Vec<Transaction>),
    /// Records of a Kraken futures account log, in file order.
    Futures(Vec<crate::model::FuturesRecord>),
}

/// Transactions per chunk handed to a streaming sink.
const CHUNK: usize = 8192;

/// Stages 1–6 of a generic, Bitvavo, Coinbase, Kraken ledgers or Binance file in time order
/// (or in any order with `any_order`, which a Kraken futures log needs), handing the
/// transactions (or futures records) to `sink` in chunks while the file is read. After the
/// first invalid row no more chunks are sent unless `send_after_errors` (the rest is still
/// read, so every invalid row is reported). Once `sink` returns false it receives nothing
/// more.
pub(crate) fn run_streaming(
    bytes: &[u8],
    options: &ImportOptions,
    send_after_errors: bool,
    sink: &mut dyn FnMut(Chunk) -> bool,
) -> Streamed {
    match start(bytes, options) {
        Start::Done(result, _) => Streamed::Done(result),
        Start::Rows {
            result,
            ctx,
            mut records,
            format,
        } => stream_rows(
            result,
            ctx,
            &mut records,
            &format,
            options,
            (send_after_errors, false),
            sink,
        ),
    }
}

/// [`run_streaming`] of a file read block by block from `source` (`size` bytes as far as
/// known): memory holds a block and a chunk, never the file. Also returns the lowercase hex
/// SHA-256 of the file bytes (empty when the file could not be read to its end).
///
/// With `any_order` the rows may come in any time order: the transactions are sent in file
/// order, with the identities of insertion order ([`Finisher::any_order`]), and the caller
/// puts them in insertion order (timestamp, first line, then the order sent).
pub(crate) fn run_streaming_read(
    source: &mut dyn std::io::Read,
    size: usize,
    options: &ImportOptions,
    (send_after_errors, any_order): (bool, bool),
    sink: &mut dyn FnMut(Chunk) -> bool,
) -> (Streamed, String) {
    let mut head = Vec::new();
    let (streamed, records) = match start_read(&mut head, source, size, options) {
        // A workbook is read whole (`import_bytes`), never block by block.
        Start::Done(result, None)
            if result
                .findings
                .iter()
                .any(|f| f.code == "spreadsheet-not-accepted") =>
        {
            return (Streamed::Declined, String::new());
        }
        Start::Done(result, records) => (Streamed::Done(result), records),
        Start::Rows {
            result,
            ctx,
            mut records,
            format,
        } => {
            let streamed = stream_rows(
                result,
                ctx,
                &mut records,
                &format,
                options,
                (send_after_errors, any_order),
                sink,
            );
            (streamed, Some(records))
        }
    };
    let Some(mut records) = records else {
        return (streamed, String::new());
    };
    if matches!(streamed, Streamed::Declined | Streamed::Unsorted) {
        return (streamed, String::new());
    }
    let drained = records.drain();
    if let Some(error) = drained.failed {
        let result = ImportResult {
            findings: vec![reader::file_error_dash(
                "file-unreadable",
                format!("cannot read the file: {error}"),
            )],
            ..ImportResult::default()
        };
        return (Streamed::Done(result), String::new());
    }
    // A byte that is not UTF-8 anywhere rejects the file with that one finding (§1.3), as
    // when the file is checked before it is read.
    if let Some(offset) = drained.bad_utf8 {
        let result = ImportResult {
            findings: vec![reader::not_utf8(offset)],
            ..ImportResult::default()
        };
        return (Streamed::Done(result), drained.sha256);
    }
    (streamed, drained.sha256)
}

#[allow(clippy::too_many_lines)] // One dispatch arm per profile.
fn stream_rows(
    mut result: ImportResult,
    mut ctx: Ctx,
    records: &mut Records<'_>,
    format: &FormatInfo,
    options: &ImportOptions,
    (send_after_errors, any_order): (bool, bool),
    sink: &mut dyn FnMut(Chunk) -> bool,
) -> Streamed {
    // Kraken groups and moves complete after later rows: their drafts leave out of order.
    // A Kraken futures log is newest first.
    if matches!(
        format.profile,
        Profile::KrakenLedgers | Profile::KrakenFutures
    ) && !any_order
    {
        return Streamed::Unsorted;
    }
    let account = options
        .account
        .clone()
        .or_else(|| format.profile.default_account().map(str::to_owned))
        .unwrap_or_default();
    if format.profile == Profile::KrakenFutures {
        return stream_futures(result, ctx, records, &account, send_after_errors, sink);
    }
    let mut finisher = if any_order {
        Finisher::any_order(format.profile)
    } else {
        Finisher::new(format.profile)
    };
    let mut chunk: Vec<Transaction> = Vec::with_capacity(CHUNK);
    let mut last: Option<(Instant, u64)> = None;
    let mut unsorted = false;
    let mut open = true;
    let mut emit = |ctx: &mut Ctx, draft: Draft| {
        if !any_order && last.is_some_and(|l| (draft.timestamp, draft.line) < l) {
            unsorted = true;
            ctx.stop = true;
            return;
        }
        last = Some((draft.timestamp, draft.line));
        open = open && (send_after_errors || ctx.invalid.is_empty());
        if !open {
            return;
        }
        if draft.role.is_none() && chunk.len() >= CHUNK {
            open = sink(Chunk::Transactions(std::mem::replace(
                &mut chunk,
                Vec::with_capacity(CHUNK),
            )));
        }
        finisher.push(draft, &mut chunk);
    };
    let mut whole = false;
    match format.profile {
        Profile::KrakenLedgers => {
            whole = crate::profiles::kraken::read_into(
                &mut ctx,
                records,
                &account,
                format.layout,
                options,
                &mut emit,
            )
            .is_err();
        }
        Profile::BinanceStatement => {
            whole = crate::profiles::binance::read_into(
                &mut ctx,
                records,
                &account,
                format.layout,
                options,
                &mut emit,
            )
            .is_err();
        }
        Profile::Bitvavo => crate::profiles::bitvavo::read_into(
            &mut ctx,
            records,
            &account,
            format.layout,
            options,
            &mut emit,
        ),
        Profile::Coinbase => crate::profiles::coinbase::read_into(
            &mut ctx,
            records,
            &account,
            format.layout,
            options,
            &mut emit,
        ),
        Profile::Generic => {
            crate::profiles::generic::read_into(&mut ctx, records, options, &mut emit);
        }
        other => crate::profiles::extra::read_into(
            other,
            &mut ctx,
            records,
            &account,
            format.layout,
            options,
            &mut emit,
        ),
    }
    if unsorted {
        return Streamed::Unsorted;
    }
    if whole {
        return Streamed::Declined;
    }
    ctx.findings.extend(records.oversized(Some(&ctx.header)));
    let file_level = ctx.findings.iter().any(|f| f.file_level);
    open = open && (send_after_errors || ctx.invalid.is_empty());
    if !file_level && open && !chunk.is_empty() {
        sink(Chunk::Transactions(chunk));
    }
    result.rows_in_records = finisher.rows;
    Streamed::Done(conclude(result, ctx))
}

/// [`stream_rows`] of a Kraken futures log: each valid row's record goes out as it is read,
/// in file order (the caller puts them in insertion order).
fn stream_futures(
    mut result: ImportResult,
    mut ctx: Ctx,
    records: &mut Records<'_>,
    account: &str,
    send_after_errors: bool,
    sink: &mut dyn FnMut(Chunk) -> bool,
) -> Streamed {
    let mut chunk = Vec::with_capacity(CHUNK);
    let mut open = true;
    let mut rows = 0u64;
    crate::profiles::futures::read_into(&mut ctx, records, account, &mut |ctx, mut record| {
        rows += 1;
        cap_note(&mut record.note);
        open = open && (send_after_errors || ctx.invalid.is_empty());
        if !open {
            return;
        }
        if chunk.len() >= CHUNK {
            open = sink(Chunk::Futures(std::mem::replace(
                &mut chunk,
                Vec::with_capacity(CHUNK),
            )));
        }
        chunk.push(record);
    });
    ctx.findings.extend(records.oversized(Some(&ctx.header)));
    let file_level = ctx.findings.iter().any(|f| f.file_level);
    open = open && (send_after_errors || ctx.invalid.is_empty());
    if !file_level && open && !chunk.is_empty() {
        sink(Chunk::Futures(chunk));
    }
    result.rows_in_records = rows;
    Streamed::Done(conclude(result, ctx))
}

/// Reads every data row, checking the field count; calls `f` for the rows that pass.
pub(crate) fn for_rows(
    ctx: &mut Ctx,
    records: &mut Records<'_>,
    mut f: impl FnMut(&mut Ctx, u64, &ByteRecord),
) {
    let mut record = ByteRecord::new();
    while let Some(line) = records.next_into(&mut record) {
        if ctx.stop {
            break;
        }
        ctx.rows_read += 1;
        if let Some(finding) = reader::cell_shape(&ctx.header, &record, line) {
            ctx.invalid.insert(line);
            ctx.findings.push(finding);
            continue;
        }
        if let Some(mut finding) = ctx.header.field_count(&record) {
            finding.line = line;
            ctx.invalid.insert(line);
            ctx.findings.push(finding);
            continue;
        }
        f(ctx, line, &record);
    }
}

/// Warns once per unknown column (exchange profiles).
pub(crate) fn ignore_unknown(ctx: &mut Ctx, unknown: &[usize], profile: Profile) {
    for &i in unknown {
        let name = ctx.header.name(i).to_owned();
        let line = ctx.header.line;
        ctx.warn(
            line,
            Some(i),
            "ignored-column",
            format!("column \"{name}\" is not read by {}", profile.id()),
        );
    }
}
