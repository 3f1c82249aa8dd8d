//! OKX account history exports (CSV): the trading account's "Trading history" (one row per leg:
//! the legs of one spot order share `Order id`; `Balance Change` is the leg's net change,
//! `Fee` its signed fee) and the funding account's history (`Deposit`, `Withdrawal`, moves
//! to and from the trading account). A preamble line states the zone of `Time`
//! (`UID:…,Account Type:Main,Time Zone:UTC+8`); cells may start with a byte-order mark.
//! Older generations: the trading history before `Symbol`/`Action`/`Fee Unit` (`trading-v1`:
//! `Instrument`, `Type`, two `Unit` columns), the funding history with a `Fee` column (and an
//! unnamed second column), OKEx's spot trade history (`fills`: `Trade ID,Trade Time,Pairs,…`)
//! and OKEx's bills (`bills`: `time,type,size,balance,fee,currency`, a trade as two rows).
//! Shapes: `test_data/okx/README.md`.

use std::collections::BTreeMap;

use core_domain::{Asset, Instant};
use rust_decimal::Decimal;
use shared_types::SpotTxType;

use super::extra::{self, header_matches, transfer_type};
use crate::model::{ImportOptions, Profile, SkipReason, Zone};
use crate::ops;
use crate::pipeline::{self, Ctx, Draft, KeyBase, SEP};
use crate::reader::{self, Records};
use crate::values;

const ID: &str = "okx";

/// Columns every OKX history has.
pub(crate) const REQUIRED: [&str; 4] = ["id", "Time", "Amount", "Symbol"];

/// Layouts, the trading history first.
pub(crate) const LAYOUTS: &[(&str, &[&str])] = &[
    (
        "trading",
        &[
            "Order id",
            "Trade Type",
            "Symbol",
            "Action",
            "Amount",
            "Fee",
            "Fee Unit",
            "Balance Change",
            "Balance Unit",
        ],
    ),
    (
        "funding",
        &[
            "Type",
            "Amount",
            "Before Balance",
            "After Balance",
            "Symbol",
        ],
    ),
];

/// The trading history before `Symbol`, `Action` and `Fee Unit` (BittyTax's "OKX Trades"):
/// the first `Unit` is the amount's, the second the balance's (and the fee's).
pub(crate) const TRADING_V1: [&str; 12] = [
    "id",
    "Order id",
    "Time",
    "Trade Type",
    "Instrument",
    "Type",
    "Amount",
    "Unit",
    "PL",
    "Fee",
    "Balance Change",
    "Balance",
];

/// OKEx's spot trade history: one row per fill, `Pairs` `BTC_USDT`, `Amount` signed in the
/// base (positive bought), `Total` and `Fee` written with their unit (`600 USDT`).
pub(crate) const FILLS: [&str; 8] = [
    "Trade ID",
    "Trade Time",
    "Pairs",
    "Amount",
    "Price",
    "Total",
    "Fee",
    "unit",
];

/// OKEx's bills: a trade is a `buy` row (the coin received, its fee) next to a `sell` row
/// (the coin given), at one time.
pub(crate) const BILLS: [&str; 6] = ["time", "type", "size", "balance", "fee", "currency"];

const TRADING: [&str; 11] = [
    "id",
    "Order id",
    "Time",
    "Trade Type",
    "Symbol",
    "Action",
    "Amount",
    "Fee",
    "Fee Unit",
    "Balance Change",
    "Balance Unit",
];
const FUNDING: [&str; 8] = [
    "id",
    "Time",
    "Type",
    "Amount",
    "Before Balance",
    "After Balance",
    "Symbol",
    // The older generation's (BittyTax "OKX Funding").
    "Fee",
];

// Read by no rule, but part of the export: not reported as unknown.
const INFORMATIVE: [&str; 10] = [
    "Trading Unit",
    "Filled Price",
    "Filled Price Unit",
    "PnL",
    "Position Change",
    "Position Balance",
    "Position Unit",
    "Balance",
    "Unit",
    "PL",
];

/// A cell without the byte-order mark OKX may write before it.
fn clean(text: &str) -> &str {
    reader::trim(text.trim_start_matches('\u{feff}'))
}

/// `UTC+8`, `UTC-3:30`, `UTC+0`, `UTC` of the preamble's `Time Zone:` cell.
fn preamble_zone(preamble: &[Vec<String>]) -> Option<Zone> {
    let cell = preamble.iter().flatten().find_map(|c| {
        clean(c)
            .split_once(':')
            .filter(|(k, _)| k.trim().eq_ignore_ascii_case("Time Zone"))
            .map(|(_, v)| v.trim().to_owned())
    })?;
    extra::utc_offset(cell.strip_prefix("UTC")?)
}

/// One leg of an open spot order: asset, signed principal (balance change with the fee
/// added back), and the fee.
struct Leg {
    asset: Asset,
    principal: Decimal,
    fee: Option<(Asset, Decimal)>,
}

/// The spot order whose legs are being read.
struct Open {
    order: String,
    instant: Instant,
    lines: Vec<u64>,
    legs: Vec<Leg>,
    invalid: bool,
}

/// Reads one history file; spot legs are merged per order as the order's rows end.
#[allow(clippy::too_many_lines)] // The trading legs, transfers and funding rows side by side.
pub(crate) fn read_into(
    ctx: &mut Ctx,
    records: &mut Records<'_>,
    account: &str,
    layout: &str,
    options: &ImportOptions,
    emit: &mut dyn FnMut(&mut Ctx, Draft),
) {
    let trading = layout != "funding";
    let v1 = layout == "trading-v1";
    let names: &[&str] = if trading { &TRADING } else { &FUNDING };
    let cols: Vec<Option<usize>> = names
        .iter()
        .map(|n| {
            let cells = &ctx.header.cells;
            match (v1, *n) {
                // The older trading history's names of the same columns.
                (true, "Symbol") => cells.iter().position(|c| header_matches(c, "Instrument")),
                (true, "Action") => cells.iter().position(|c| header_matches(c, "Type")),
                (true, "Fee Unit") => None,
                (true, "Balance Unit") => cells.iter().rposition(|c| header_matches(c, "Unit")),
                _ => cells.iter().position(|c| header_matches(c, n)),
            }
        })
        .collect();
    warn_unknown(ctx, &cols, &INFORMATIVE);
    let zone = preamble_zone(&ctx.preamble).or(options.timezone);
    let wallet = extra::child(account, if trading { "trading" } else { "funding" });
    let col = |name: &str| names.iter().position(|n| *n == name).and_then(|i| cols[i]);
    let mut open: Option<Open> = None;
    let mut convert: Option<Convert> = None;
    let mut done: std::collections::HashSet<String> = std::collections::HashSet::new();
    pipeline::for_rows(ctx, records, |ctx, line, rec| {
        let get = |name: &str| col(name).map_or("", |i| clean(reader::cell(rec, i)));
        let instant = extra::local_stamp(ctx, line, col("Time"), get("Time"), zone);
        if !trading {
            let funding = Funding {
                account,
                wallet: &wallet,
                col: &col,
            };
            funding.row(ctx, line, &get, instant, &mut convert, emit);
            return;
        }
        let trade_type = get("Trade Type");
        match trade_type.to_ascii_lowercase().as_str() {
            "spot" => {}
            "transfer" => {
                let action = get("Action");
                let inflow = match action.to_ascii_lowercase().as_str() {
                    "transfer in" => Some(true),
                    "transfer out" => Some(false),
                    _ => {
                        extra::unknown_type(ctx, line, col("Action"), ID, action);
                        None
                    }
                };
                let change = ctx.dec(line, col("Balance Change"), get("Balance Change"), true);
                let unit = ctx.asset(line, col("Balance Unit"), get("Balance Unit"));
                if ctx.invalid.contains(&line) {
                    return;
                }
                let (Some(inflow), Some(instant), Some(change), Some(unit)) =
                    (inflow, instant, change, unit)
                else {
                    return;
                };
                if !extra::check_sign(
                    ctx,
                    line,
                    col("Balance Change"),
                    change,
                    inflow,
                    (action, get("Balance Change")),
                ) {
                    return;
                }
                let key = format!("v1{SEP}{ID}{SEP}id{SEP}{}", get("id"));
                let mut d = Draft::new(
                    wallet.clone(),
                    account,
                    instant,
                    transfer_type(unit, inflow),
                    KeyBase::Declared(key, col("id")),
                    line,
                );
                if unit.is_fiat() {
                    // A fiat move between the two accounts changes no custody.
                    ctx.skip(SkipReason::InternalMovement, 1);
                    return;
                }
                extra::set_transfer(&mut d, unit, change.abs(), inflow);
                get("id").clone_into(&mut d.source_ref);
                action.clone_into(&mut d.note);
                emit(ctx, d);
                return;
            }
            _ => {
                extra::unsupported_type(
                    ctx,
                    line,
                    col("Trade Type"),
                    ID,
                    trade_type,
                    "margin, derivatives and other non-spot trades are not supported",
                );
                return;
            }
        }
        let order = get("Order id").to_owned();
        if open.as_ref().is_some_and(|o| o.order != order)
            && let Some(o) = open.take()
        {
            done.insert(o.order.clone());
            close(ctx, account, &wallet, &o, col("Order id"), emit);
        }
        let change = ctx.dec(line, col("Balance Change"), get("Balance Change"), true);
        let unit = ctx.asset(line, col("Balance Unit"), get("Balance Unit"));
        let fee = match get("Fee") {
            "" => Some(Decimal::ZERO),
            f => ctx.dec(line, col("Fee"), f, true),
        };
        let fee_unit = match get("Fee Unit") {
            // The older layout states no fee unit: a leg's fee is in the leg's unit.
            "" if v1 => unit.map(Some),
            "" => Some(None),
            u => ctx.asset(line, col("Fee Unit"), u).map(Some),
        };
        let entry = open.get_or_insert_with(|| Open {
            order: order.clone(),
            instant: instant.unwrap_or(Instant::from_unix_nanos(0)),
            lines: Vec::new(),
            legs: Vec::new(),
            invalid: false,
        });
        if entry.lines.is_empty() && done.contains(&order) {
            ctx.err(
                line,
                col("Order id"),
                "ambiguous-group",
                format!(
                    "the rows of order {order} cannot be split into operations without guessing: they are not next to each other"
                ),
            );
            entry.invalid = true;
        }
        let first_leg = entry.lines.is_empty();
        entry.lines.push(line);
        let (Some(instant), Some(change), Some(unit), Some(fee), Some(fee_unit)) =
            (instant, change, unit, fee, fee_unit)
        else {
            entry.invalid = true;
            return;
        };
        if instant != entry.instant && !first_leg {
            entry.invalid = true;
            ctx.err(
                line,
                col("Order id"),
                "group-time-mismatch",
                format!("the legs of order {order} have different times"),
            );
        }
        entry.instant = instant;
        let fee_abs = fee.abs();
        let fee = fee_unit
            .filter(|_| !fee_abs.is_zero())
            .map(|u| (u, fee_abs));
        // The balance change is net of a fee in the same unit: add it back.
        let principal = match fee {
            Some((u, q)) if u == unit => values::add(change, q),
            _ => Some(change),
        };
        let Some(principal) = principal else {
            entry.invalid = true;
            return;
        };
        entry.legs.push(Leg {
            asset: unit,
            principal,
            fee,
        });
    });
    if let Some(o) = open.take() {
        close(ctx, account, &wallet, &o, col("Order id"), emit);
    }
    if let Some(c) = convert.take() {
        c.unpaired(ctx, col("Type"));
    }
}

/// Merges the legs of one spot order into its trade (§1.12).
fn close(
    ctx: &mut Ctx,
    account: &str,
    wallet: &str,
    o: &Open,
    col: Option<usize>,
    emit: &mut dyn FnMut(&mut Ctx, Draft),
) {
    let lines = o.lines.clone();
    let key_text = format!("order {}", o.order);
    if o.invalid || lines.iter().any(|l| ctx.invalid.contains(l)) {
        if lines.iter().any(|l| ctx.invalid.contains(l)) {
            ctx.group_invalid(&lines, col, &key_text);
        } else {
            ctx.group_err(
                &lines,
                col,
                "decimal-out-of-range",
                &format!("the legs of {key_text} overflow"),
            );
        }
        return;
    }
    let mut ins = BTreeMap::new();
    let mut outs = BTreeMap::new();
    let mut fees = BTreeMap::new();
    for leg in &o.legs {
        let ok = if leg.principal.is_sign_positive() {
            leg.principal.is_zero() || ops::sum_into(&mut ins, leg.asset, leg.principal)
        } else {
            ops::sum_into(&mut outs, leg.asset, leg.principal.abs())
        };
        let ok = ok && leg.fee.is_none_or(|(a, q)| ops::sum_into(&mut fees, a, q));
        if !ok {
            ctx.group_err(
                &lines,
                col,
                "decimal-out-of-range",
                &format!("the legs of {key_text} overflow"),
            );
            return;
        }
    }
    let Some((inflow, outflow)) = ops::sides(ctx, &lines, col, &key_text, &ins, &outs) else {
        return;
    };
    let first = lines.iter().copied().min().unwrap_or(0);
    let key = format!("v1{SEP}{ID}{SEP}order{SEP}{}", o.order);
    let mut base = Draft::new(
        wallet.to_owned(),
        account,
        o.instant,
        SpotTxType::Swap,
        KeyBase::Declared(key, col),
        first,
    );
    base.extra_lines = lines.iter().copied().filter(|l| *l != first).collect();
    o.order.clone_into(&mut base.source_ref);
    "spot".clone_into(&mut base.note);
    match ops::exchange(&base, inflow, outflow, &fees, false, &key_text) {
        Some(drafts) => {
            for d in drafts {
                emit(ctx, d);
            }
        }
        None => ctx.skip(SkipReason::InternalMovement, lines.len() as u64),
    }
}

/// A `Convert` row of the funding history waiting for its other side (same time).
struct Convert {
    line: u64,
    instant: Instant,
    asset: Asset,
    amount: Decimal,
    id: String,
}

impl Convert {
    /// A side whose partner never came.
    fn unpaired(&self, ctx: &mut Ctx, col: Option<usize>) {
        ctx.err(
            self.line,
            col,
            "incomplete-group",
            "this Convert row has no other side at the same time: download the funding history for all currencies and import that file".to_owned(),
        );
    }
}

/// What every funding row is read with.
struct Funding<'a> {
    account: &'a str,
    wallet: &'a str,
    col: &'a dyn Fn(&str) -> Option<usize>,
}

/// How a funding label is read.
enum FundingKind {
    /// An external or inter-account move, inflow or not.
    Move(bool),
    /// Income of the type.
    Income(SpotTxType),
    /// Into earn (`true`) or out of it.
    Earn(bool),
    /// One side of a conversion.
    Convert,
}

fn funding_kind(label: &str) -> Option<FundingKind> {
    Some(match label.to_ascii_lowercase().as_str() {
        "deposit" | "from unified trading account" | "from trading account" => {
            FundingKind::Move(true)
        }
        "withdrawal" | "to unified trading account" | "to trading account" => {
            FundingKind::Move(false)
        }
        "staking yield" => FundingKind::Income(SpotTxType::Staking),
        // A rebate is its own operation, never netted against a fee (D-96).
        "fee rebate" => FundingKind::Income(SpotTxType::Promotion),
        "stake" | "savings subscription" => FundingKind::Earn(true),
        "redeem staking" | "savings redemption" => FundingKind::Earn(false),
        "convert" => FundingKind::Convert,
        _ => return None,
    })
}

impl Funding<'_> {
    /// One row of the funding account's history.
    #[allow(clippy::too_many_lines)] // The labels and their amounts side by side.
    fn row<'r>(
        &self,
        ctx: &mut Ctx,
        line: u64,
        get: &dyn Fn(&str) -> &'r str,
        instant: Option<Instant>,
        convert: &mut Option<Convert>,
        emit: &mut dyn FnMut(&mut Ctx, Draft),
    ) {
        let col = self.col;
        let label = get("Type");
        let kind = funding_kind(label);
        if kind.is_none() {
            extra::unknown_type(ctx, line, col("Type"), ID, label);
        }
        let amount = ctx.dec(line, col("Amount"), get("Amount"), true);
        let symbol = ctx.asset(line, col("Symbol"), get("Symbol"));
        let fee = match get("Fee") {
            "" => Some(Decimal::ZERO),
            f => ctx.dec(line, col("Fee"), f, true).map(|f| f.abs()),
        };
        // A pending Convert side ends at the first row that is not its partner; an invalid
        // partner makes it a member of an invalid group.
        let partner = convert.take();
        if let Some(p) = &partner {
            if !(matches!(kind, Some(FundingKind::Convert)) && instant == Some(p.instant)) {
                p.unpaired(ctx, col("Type"));
            } else if ctx.invalid.contains(&line) {
                ctx.group_invalid(&[p.line, line], col("id"), &format!("convert {}", p.id));
            }
        }
        if ctx.invalid.contains(&line) {
            return;
        }
        let (Some(kind), Some(instant), Some(amount), Some(symbol), Some(fee)) =
            (kind, instant, amount, symbol, fee)
        else {
            return;
        };
        let key = format!("v1{SEP}{ID}{SEP}funding{SEP}{}", get("id"));
        let mut d = Draft::new(
            self.wallet.to_owned(),
            self.account,
            instant,
            SpotTxType::Buy,
            KeyBase::Declared(key, col("id")),
            line,
        );
        get("id").clone_into(&mut d.source_ref);
        label.clone_into(&mut d.note);
        let drafts = match kind {
            FundingKind::Convert => {
                let Some(p) = partner.filter(|p| p.instant == instant) else {
                    *convert = Some(Convert {
                        line,
                        instant,
                        asset: symbol,
                        amount,
                        id: get("id").to_owned(),
                    });
                    return;
                };
                let (give, take) = if p.amount.is_sign_negative() {
                    ((p.asset, p.amount), (symbol, amount))
                } else {
                    ((symbol, amount), (p.asset, p.amount))
                };
                if !give.1.is_sign_negative() || take.1.is_sign_negative() || take.1.is_zero() {
                    ctx.group_err(
                        &[p.line, line],
                        col("Amount"),
                        "incomplete-group",
                        "the two Convert rows at one time must be one negative (the coin given) and one positive (the coin received)",
                    );
                    return;
                }
                let key = format!("v1{SEP}{ID}{SEP}funding{SEP}{}", p.id);
                let mut base = Draft::new(
                    self.wallet.to_owned(),
                    self.account,
                    instant,
                    SpotTxType::Swap,
                    KeyBase::Declared(key, col("id")),
                    p.line,
                );
                base.extra_lines = vec![line];
                p.id.clone_into(&mut base.source_ref);
                label.clone_into(&mut base.note);
                book(
                    ctx,
                    &base,
                    (take, (give.0, give.1.abs())),
                    &BTreeMap::new(),
                    &format!("convert {}", p.id),
                    emit,
                );
                return;
            }
            FundingKind::Income(ty) => {
                if !extra::check_sign(
                    ctx,
                    line,
                    col("Amount"),
                    amount,
                    true,
                    (label, get("Amount")),
                ) {
                    return;
                }
                d.ty = if symbol.is_fiat() {
                    SpotTxType::Reward
                } else {
                    ty
                };
                d.inflow = Some(pipeline::amount(symbol, amount));
                vec![d]
            }
            FundingKind::Earn(into) => {
                if !extra::check_sign(
                    ctx,
                    line,
                    col("Amount"),
                    amount,
                    !into,
                    (label, get("Amount")),
                ) {
                    return;
                }
                let earn = extra::child(self.account, "earn");
                let (from, to) = if into {
                    (self.wallet.to_owned(), earn)
                } else {
                    (earn, self.wallet.to_owned())
                };
                extra::one_row_move(ctx, d, (symbol, amount.abs()), from, to)
            }
            FundingKind::Move(inflow) => {
                if !extra::check_sign(
                    ctx,
                    line,
                    col("Amount"),
                    amount,
                    inflow,
                    (label, get("Amount")),
                ) {
                    return;
                }
                let internal = label.to_ascii_lowercase().contains("trading account");
                if internal && symbol.is_fiat() {
                    ctx.skip(SkipReason::InternalMovement, 1);
                    return;
                }
                extra::set_transfer(&mut d, symbol, amount.abs(), inflow);
                // The older history states the network fee beside the amount (BittyTax reads
                // it so); the current one states none.
                if !fee.is_zero() {
                    d.fee = Some(pipeline::fee(symbol, fee));
                }
                vec![d]
            }
        };
        for d in drafts {
            emit(ctx, d);
        }
    }
}

/// The columns of a layout found in the header (OKX writes a byte-order mark before cells),
/// with a warning per other column (`informative` ones excepted).
fn columns(ctx: &mut Ctx, names: &[&str], informative: &[&str]) -> Vec<Option<usize>> {
    let cols: Vec<Option<usize>> = names
        .iter()
        .map(|n| ctx.header.cells.iter().position(|c| header_matches(c, n)))
        .collect();
    warn_unknown(ctx, &cols, informative);
    cols
}

/// A warning per header column that is neither read (`cols`) nor `informative`.
fn warn_unknown(ctx: &mut Ctx, cols: &[Option<usize>], informative: &[&str]) {
    let unknown: Vec<usize> = (0..ctx.header.cells.len())
        .filter(|i| {
            let cell = &ctx.header.cells[*i];
            !cols.contains(&Some(*i))
                && !cell.is_empty()
                && !informative.iter().any(|n| header_matches(cell, n))
        })
        .collect();
    pipeline::ignore_unknown(ctx, &unknown, Profile::Okx);
}

/// Books one trade (its sides and fees summed) as `base` says, or skips it as an internal
/// movement.
fn book(
    ctx: &mut Ctx,
    base: &Draft,
    (inflow, outflow): (ops::Side, ops::Side),
    fees: &BTreeMap<Asset, Decimal>,
    key_text: &str,
    emit: &mut dyn FnMut(&mut Ctx, Draft),
) {
    match ops::exchange(base, inflow, outflow, fees, false, key_text) {
        Some(drafts) => {
            for d in drafts {
                emit(ctx, d);
            }
        }
        None => ctx.skip(
            SkipReason::InternalMovement,
            1 + base.extra_lines.len() as u64,
        ),
    }
}

/// `600 USDT`, `-0.001 btc`: the number (unsigned) and the unit written after it, if any.
fn with_unit(
    ctx: &mut Ctx,
    line: u64,
    col: Option<usize>,
    text: &str,
) -> Option<(Decimal, Option<Asset>)> {
    let (number, unit) = match text.split_once(' ') {
        Some((n, u)) => (n, Some(u.trim())),
        None => (text, None),
    };
    let value = ctx.dec(line, col, number, true)?.abs();
    let unit = match unit {
        Some(u) => Some(ctx.asset(line, col, u)?),
        None => None,
    };
    Some((value, unit))
}

/// Reads OKEx's spot trade history: one trade per row.
pub(crate) fn read_fills_into(
    ctx: &mut Ctx,
    records: &mut Records<'_>,
    account: &str,
    options: &ImportOptions,
    emit: &mut dyn FnMut(&mut Ctx, Draft),
) {
    const C_ID: usize = 0;
    const C_TIME: usize = 1;
    const C_PAIRS: usize = 2;
    const C_AMOUNT: usize = 3;
    const C_TOTAL: usize = 5;
    const C_FEE: usize = 6;
    const C_UNIT: usize = 7;
    let cols = columns(ctx, &FILLS, &["Order ID", "taker/maker"]);
    let zone = preamble_zone(&ctx.preamble).or(options.timezone);
    let wallet = extra::child(account, "trading");
    pipeline::for_rows(ctx, records, |ctx, line, rec| {
        let get = |c: usize| cols[c].map_or("", |i| clean(reader::cell(rec, i)));
        let instant = extra::local_stamp(ctx, line, cols[C_TIME], get(C_TIME), zone);
        let pair = get(C_PAIRS);
        let sides = if let Some((b, q)) = pair.split_once(['_', '-']) {
            ctx.asset(line, cols[C_PAIRS], b)
                .zip(ctx.asset(line, cols[C_PAIRS], q))
        } else {
            ctx.err(
                line,
                cols[C_PAIRS],
                "bad-asset-symbol",
                format!("\"{pair}\" is not a pair such as BTC_USDT"),
            );
            None
        };
        let amount = ctx.dec(line, cols[C_AMOUNT], get(C_AMOUNT), true);
        let total = with_unit(ctx, line, cols[C_TOTAL], get(C_TOTAL));
        let fee = match get(C_FEE) {
            "" => Some((Decimal::ZERO, None)),
            f => with_unit(ctx, line, cols[C_FEE], f),
        };
        let unit = match get(C_UNIT) {
            "" => Some(None),
            u => ctx.asset(line, cols[C_UNIT], u).map(Some),
        };
        if ctx.invalid.contains(&line) {
            return;
        }
        let (Some(instant), Some((base, quote)), Some(amount), Some(total), Some(fee), Some(unit)) =
            (instant, sides, amount, total, fee, unit)
        else {
            return;
        };
        if amount.is_zero() {
            ctx.err(
                line,
                cols[C_AMOUNT],
                "not-positive",
                format!("\"{}\" must not be zero", get(C_AMOUNT)),
            );
            return;
        }
        let own = (base, amount.abs());
        let other = (total.1.unwrap_or(quote), total.0);
        let (inflow, outflow) = if amount.is_sign_positive() {
            (own, other)
        } else {
            (other, own)
        };
        // The fee is written with its unit; without one it is in the `unit` column's.
        let mut fees = BTreeMap::new();
        if let Some(fee_unit) = fee.1.or(unit) {
            fees.insert(fee_unit, fee.0);
        }
        let id = get(C_ID);
        let mut base_draft = Draft::new(
            wallet.clone(),
            account,
            instant,
            SpotTxType::Swap,
            KeyBase::Declared(format!("v1{SEP}{ID}{SEP}trade{SEP}{id}"), cols[C_ID]),
            line,
        );
        id.clone_into(&mut base_draft.source_ref);
        pair.clone_into(&mut base_draft.note);
        book(
            ctx,
            &base_draft,
            (inflow, outflow),
            &fees,
            &format!("trade {id}"),
            emit,
        );
    });
}

/// A `bills` row waiting for the other side of its trade.
struct BillLeg {
    line: u64,
    time: String,
    instant: Instant,
    buy: bool,
    asset: Asset,
    size: Decimal,
    fee: Decimal,
}

/// Reads OKEx's bills: a `buy` row and a `sell` row at one time are one trade.
#[allow(clippy::too_many_lines)] // The pairing and its findings read best in one place.
pub(crate) fn read_bills_into(
    ctx: &mut Ctx,
    records: &mut Records<'_>,
    account: &str,
    options: &ImportOptions,
    emit: &mut dyn FnMut(&mut Ctx, Draft),
) {
    const C_TIME: usize = 0;
    const C_TYPE: usize = 1;
    const C_SIZE: usize = 2;
    const C_FEE: usize = 4;
    const C_CURRENCY: usize = 5;
    let cols = columns(ctx, &BILLS, &[]);
    let wallet = extra::child(account, "trading");
    let unpaired = |ctx: &mut Ctx, leg: &BillLeg| {
        ctx.err(
            leg.line,
            cols[C_TYPE],
            "incomplete-group",
            format!(
                "this {} row has no {} row at {} beside it: a trade is a buy row and a sell row; download the bills for all currencies and import that file",
                if leg.buy { "buy" } else { "sell" },
                if leg.buy { "sell" } else { "buy" },
                leg.time
            ),
        );
    };
    let mut pending: Option<BillLeg> = None;
    pipeline::for_rows(ctx, records, |ctx, line, rec| {
        let get = |c: usize| cols[c].map_or("", |i| clean(reader::cell(rec, i)));
        let time = get(C_TIME);
        // `… CST` is China Standard Time (UTC+8, as BittyTax reads it); otherwise `--timezone`.
        let instant = match time.strip_suffix(" CST") {
            Some(local) => extra::local_stamp(
                ctx,
                line,
                cols[C_TIME],
                local,
                crate::values::parse_zone("+08:00"),
            ),
            None => extra::local_stamp(ctx, line, cols[C_TIME], time, options.timezone),
        };
        let label = get(C_TYPE);
        let buy = match label.to_ascii_lowercase().as_str() {
            "buy" => Some(true),
            "sell" => Some(false),
            _ => {
                extra::unknown_type(ctx, line, cols[C_TYPE], ID, label);
                None
            }
        };
        let size = ctx.dec(line, cols[C_SIZE], get(C_SIZE), true);
        let fee = match get(C_FEE) {
            "" => Some(Decimal::ZERO),
            f => ctx.dec(line, cols[C_FEE], f, true).map(|f| f.abs()),
        };
        let asset = ctx.asset(line, cols[C_CURRENCY], get(C_CURRENCY));
        let before = pending.take();
        let leg = match (instant, buy, size, fee, asset) {
            (Some(instant), Some(buy), Some(size), Some(fee), Some(asset))
                if !ctx.invalid.contains(&line) && !size.is_zero() =>
            {
                BillLeg {
                    line,
                    time: time.to_owned(),
                    instant,
                    buy,
                    asset,
                    size: size.abs(),
                    fee,
                }
            }
            _ => {
                if size.is_some_and(|q| q.is_zero()) {
                    ctx.err(
                        line,
                        cols[C_SIZE],
                        "not-positive",
                        format!("\"{}\" must not be zero", get(C_SIZE)),
                    );
                }
                match before {
                    // The other side of its trade is invalid.
                    Some(b) if b.time == time && ctx.invalid.contains(&line) => {
                        ctx.group_invalid(
                            &[b.line, line],
                            cols[C_TYPE],
                            &format!("trade at {time}"),
                        );
                    }
                    Some(b) => unpaired(ctx, &b),
                    None => {}
                }
                return;
            }
        };
        let Some(first) = before else {
            pending = Some(leg);
            return;
        };
        if first.instant != leg.instant || first.buy == leg.buy {
            unpaired(ctx, &first);
            pending = Some(leg);
            return;
        }
        let (bought, sold) = if first.buy {
            (&first, &leg)
        } else {
            (&leg, &first)
        };
        let mut fees = BTreeMap::new();
        for l in [bought, sold] {
            if !l.fee.is_zero() && !ops::sum_into(&mut fees, l.asset, l.fee) {
                ctx.group_err(
                    &[first.line, leg.line],
                    cols[C_FEE],
                    "decimal-out-of-range",
                    "the fees of this trade overflow",
                );
                return;
            }
        }
        let mut base = Draft::new(
            wallet.clone(),
            account,
            first.instant,
            SpotTxType::Swap,
            KeyBase::Content,
            first.line,
        );
        base.extra_lines = vec![leg.line];
        "buy/sell".clone_into(&mut base.note);
        book(
            ctx,
            &base,
            ((bought.asset, bought.size), (sold.asset, sold.size)),
            &fees,
            &format!("trade at {}", first.time),
            emit,
        );
    });
    if let Some(leg) = pending.take() {
        unpaired(ctx, &leg);
    }
}
