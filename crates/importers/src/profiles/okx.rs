//! OKX account history exports (CSV): the trading account's "Trading history" (one row per leg:
//! the legs of one spot order share `Order id`; `Balance Change` is the leg's net change,
//! `Fee` its signed fee) and the funding account's history (`Deposit`, `Withdrawal`, moves
//! to and from the trading account). A preamble line states the zone of `Time`
//! (`UID:…,Account Type:Main,Time Zone:UTC+8`); cells may start with a byte-order mark.
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
const FUNDING: [&str; 7] = [
    "id",
    "Time",
    "Type",
    "Amount",
    "Before Balance",
    "After Balance",
    "Symbol",
];

// Read by no rule, but part of the export: not reported as unknown.
const INFORMATIVE: [&str; 8] = [
    "Trading Unit",
    "Filled Price",
    "Filled Price Unit",
    "PnL",
    "Position Change",
    "Position Balance",
    "Position Unit",
    "Balance",
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
    let names: &[&str] = if layout == "trading" {
        &TRADING
    } else {
        &FUNDING
    };
    let cols: Vec<Option<usize>> = names
        .iter()
        .map(|n| ctx.header.cells.iter().position(|c| header_matches(c, n)))
        .collect();
    let unknown: Vec<usize> = (0..ctx.header.cells.len())
        .filter(|i| {
            let cell = &ctx.header.cells[*i];
            !cols.contains(&Some(*i))
                && !cell.is_empty()
                && !INFORMATIVE.iter().any(|n| header_matches(cell, n))
        })
        .collect();
    pipeline::ignore_unknown(ctx, &unknown, Profile::Okx);
    let zone = preamble_zone(&ctx.preamble).or(options.timezone);
    let wallet = extra::child(
        account,
        if layout == "trading" {
            "trading"
        } else {
            "funding"
        },
    );
    let col = |name: &str| names.iter().position(|n| *n == name).and_then(|i| cols[i]);
    let mut open: Option<Open> = None;
    let mut done: std::collections::HashSet<String> = std::collections::HashSet::new();
    pipeline::for_rows(ctx, records, |ctx, line, rec| {
        let get = |name: &str| col(name).map_or("", |i| clean(reader::cell(rec, i)));
        let instant = extra::local_stamp(ctx, line, col("Time"), get("Time"), zone);
        if layout != "trading" {
            funding_row(ctx, line, (account, &wallet), &col, &get, instant, emit);
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
                if inflow {
                    d.inflow = Some(pipeline::amount(unit, change.abs()));
                } else {
                    d.outflow = Some(pipeline::amount(unit, change.abs()));
                }
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

/// One row of the funding account's history.
fn funding_row<'r>(
    ctx: &mut Ctx,
    line: u64,
    (account, wallet): (&str, &str),
    col: &dyn Fn(&str) -> Option<usize>,
    get: &dyn Fn(&str) -> &'r str,
    instant: Option<Instant>,
    emit: &mut dyn FnMut(&mut Ctx, Draft),
) {
    let label = get("Type");
    let inflow = match label.to_ascii_lowercase().as_str() {
        "deposit" | "from unified trading account" | "from trading account" => Some(true),
        "withdrawal" | "to unified trading account" | "to trading account" => Some(false),
        _ => {
            extra::unknown_type(ctx, line, col("Type"), ID, label);
            None
        }
    };
    let amount = ctx.dec(line, col("Amount"), get("Amount"), true);
    let symbol = ctx.asset(line, col("Symbol"), get("Symbol"));
    if ctx.invalid.contains(&line) {
        return;
    }
    let (Some(inflow), Some(instant), Some(amount), Some(symbol)) =
        (inflow, instant, amount, symbol)
    else {
        return;
    };
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
    let key = format!("v1{SEP}{ID}{SEP}funding{SEP}{}", get("id"));
    let mut d = Draft::new(
        wallet.to_owned(),
        account,
        instant,
        transfer_type(symbol, inflow),
        KeyBase::Declared(key, col("id")),
        line,
    );
    if inflow {
        d.inflow = Some(pipeline::amount(symbol, amount.abs()));
    } else {
        d.outflow = Some(pipeline::amount(symbol, amount.abs()));
    }
    get("id").clone_into(&mut d.source_ref);
    label.clone_into(&mut d.note);
    emit(ctx, d);
}
