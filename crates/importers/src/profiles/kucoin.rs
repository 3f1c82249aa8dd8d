//! KuCoin's export bundle (CSV files of "Export Data" / "Download Transaction History"): the
//! spot order fills (layouts `fills`, the same with order columns), the deposit record and
//! the withdrawal record. The time column names its zone (`Filled Time(UTC+08:00)`,
//! `Time(UTC)`); a column without one needs `--timezone`. Shapes: `test_data/kucoin/README.md`.

use std::collections::BTreeMap;

use core_domain::Asset;
use rust_decimal::Decimal;
use shared_types::SpotTxType;

use super::extra::{self, check_sign, header_matches, header_zone, transfer_type};
use crate::model::{ImportOptions, Profile, SkipReason, Zone};
use crate::ops;
use crate::pipeline::{self, Ctx, Draft, KeyBase, SEP};
use crate::reader::{self, Records};
use crate::values;

const ID: &str = "kucoin";

/// Columns every KuCoin file of the bundle has.
pub(crate) const REQUIRED: [&str; 2] = ["UID", "Account Type"];

/// Layouts, most specific first.
pub(crate) const LAYOUTS: &[(&str, &[&str])] = &[
    (
        "fills",
        &[
            "Order ID",
            "Symbol",
            "Side",
            "Filled Amount",
            "Filled Volume",
            "Fee",
            "Fee Currency",
        ],
    ),
    (
        "withdrawals",
        &[
            "Coin",
            "Amount",
            "Fee",
            "Withdrawal Address/Account",
            "Status",
        ],
    ),
    ("deposits", &["Coin", "Amount", "Fee", "Status"]),
];

/// The time column: its index and its zone (`None`: the header states none).
fn time_column(ctx: &Ctx, name: &str) -> Option<(usize, Option<Zone>)> {
    let cells = &ctx.header.cells;
    let zoned = format!("{name}(UTC*)");
    if let Some(i) = cells.iter().position(|c| header_matches(c, &zoned)) {
        return Some((i, cells.get(i).and_then(|c| header_zone(&c[name.len()..]))));
    }
    cells
        .iter()
        .position(|c| c.eq_ignore_ascii_case(name))
        .map(|i| (i, None))
}

/// Reads the rows of one file of the bundle, one operation per row, in file order.
pub(crate) fn read_into(
    ctx: &mut Ctx,
    records: &mut Records<'_>,
    account: &str,
    layout: &str,
    options: &ImportOptions,
    emit: &mut dyn FnMut(&mut Ctx, Draft),
) {
    let time_name = if layout == "fills" {
        "Filled Time"
    } else {
        "Time"
    };
    let time = time_column(ctx, time_name);
    let mut names: Vec<&str> = REQUIRED.to_vec();
    if let Some((_, extra_cols)) = LAYOUTS.iter().find(|(l, _)| *l == layout) {
        names.extend_from_slice(extra_cols);
    }
    let informative: &[&str] = match layout {
        "fills" => &[
            "Order Type",
            "Avg. Filled Price",
            "Filled Volume (USDT)",
            "Tax",
            "Maker/Taker",
            "Order Price",
            "Order Amount",
            "Status",
        ],
        _ => &[
            "Hash",
            "Deposit Address",
            "Transfer Network",
            "Remarks",
            "Remark",
        ],
    };
    names.extend_from_slice(informative);
    let (cols, unknown) = reader::resolve(&ctx.header, &names);
    // The time columns are matched by pattern, not by name.
    let unknown: Vec<usize> = unknown
        .into_iter()
        .filter(|&i| {
            Some(i) != time.map(|t| t.0)
                && !ctx.header.cells.get(i).is_some_and(|c| {
                    header_matches(c, "Order Time(UTC*)") || c.eq_ignore_ascii_case("Order Time")
                })
        })
        .collect();
    pipeline::ignore_unknown(ctx, &unknown, Profile::Kucoin);
    let Some((time_col, header_zone)) = time else {
        let message = format!("the header does not match format {ID}: missing {time_name}");
        let f = ctx.header.error(0, "header-mismatch", message);
        ctx.findings.push(f);
        return;
    };
    let zone = header_zone.or(options.timezone);
    let col = |name: &str| names.iter().position(|n| *n == name).and_then(|i| cols[i]);
    let mut ids: values::FastMap<String, u64> = values::FastMap::default();
    pipeline::for_rows(ctx, records, |ctx, line, rec| {
        let get = |name: &str| col(name).map_or("", |i| reader::cell(rec, i));
        let stamp = reader::cell(rec, time_col);
        let instant = if let Some(z) = zone {
            ctx.utc_stamp(
                line,
                Some(time_col),
                stamp,
                b" ",
                false,
                "YYYY-MM-DD HH:MM:SS",
                z,
            )
        } else {
            ctx.err(
                line,
                Some(time_col),
                "timezone-required",
                "these timestamps carry no time zone; pass --timezone".to_owned(),
            );
            None
        };
        let drafts = if layout == "fills" {
            fill(ctx, line, (account, &col, &get), instant, &mut ids)
        } else {
            movement(
                ctx,
                line,
                (account, &col, &get),
                instant,
                layout == "deposits",
            )
        };
        for d in drafts {
            emit(ctx, d);
        }
    });
}

type Cells<'c> = (
    &'c str,
    &'c dyn Fn(&str) -> Option<usize>,
    &'c dyn Fn(&str) -> &'c str,
);

/// One filled order: base bought or sold against the quote, the fee on top.
fn fill(
    ctx: &mut Ctx,
    line: u64,
    (account, col, get): Cells<'_>,
    instant: Option<core_domain::Instant>,
    ids: &mut values::FastMap<String, u64>,
) -> Vec<Draft> {
    let side = get("Side");
    let buy = match side.to_ascii_lowercase().as_str() {
        "buy" => Some(true),
        "sell" => Some(false),
        _ => {
            extra::unknown_type(ctx, line, col("Side"), ID, side);
            None
        }
    };
    let symbol = get("Symbol");
    let pair = symbol.split_once('-').and_then(|(b, q)| {
        let b = values::asset(b)?;
        let q = values::asset(q)?;
        Some((b, q))
    });
    if pair.is_none() {
        ctx.err(
            line,
            col("Symbol"),
            "bad-asset-symbol",
            format!("\"{symbol}\" is not a valid asset symbol"),
        );
    }
    let amount = ctx.dec(line, col("Filled Amount"), get("Filled Amount"), false);
    let volume = ctx.dec(line, col("Filled Volume"), get("Filled Volume"), false);
    let fee = match (get("Fee"), get("Fee Currency")) {
        ("", "") => Some(None),
        (q, c) => {
            let q = ctx.dec(line, col("Fee"), if q.is_empty() { "0" } else { q }, false);
            let a = ctx.asset(line, col("Fee Currency"), c);
            q.zip(a).map(|(q, a)| Some((a, q)))
        }
    };
    if ctx.invalid.contains(&line) {
        return Vec::new();
    }
    let (Some(buy), Some(instant), Some((base, quote)), Some(amount), Some(volume), Some(fee)) =
        (buy, instant, pair, amount, volume, fee)
    else {
        return Vec::new();
    };
    if amount.is_zero() {
        // An order of the order history that never filled.
        ctx.skip(SkipReason::NotFinal, 1);
        return Vec::new();
    }
    if !check_sign(
        ctx,
        line,
        col("Filled Volume"),
        volume,
        true,
        (side, get("Filled Volume")),
    ) {
        return Vec::new();
    }
    let order = get("Order ID");
    let key = if order.is_empty() {
        KeyBase::Content
    } else {
        let key = format!("v1{SEP}{ID}{SEP}order{SEP}{order}");
        if let Some(first) = ids.get(&key) {
            ctx.err(
                line,
                col("Order ID"),
                "duplicate-id",
                format!("id \"{order}\" already appears on line {first}"),
            );
            return Vec::new();
        }
        ids.insert(key.clone(), line);
        KeyBase::Declared(key, col("Order ID"))
    };
    let mut d = Draft::new(
        account.to_owned(),
        account,
        instant,
        SpotTxType::Buy,
        key,
        line,
    );
    order.clone_into(&mut d.source_ref);
    d.note = format!("{side} {symbol}; {}", get("Account Type"));
    let (inflow, outflow): ((Asset, Decimal), (Asset, Decimal)) = if buy {
        ((base, amount), (quote, volume))
    } else {
        ((quote, volume), (base, amount))
    };
    let mut fees = BTreeMap::new();
    if let Some((a, q)) = fee {
        fees.insert(a, q);
    }
    let group = format!("{instant} {order}");
    let Some(drafts) = ops::exchange(&d, inflow, outflow, &fees, false, &group) else {
        ctx.skip(SkipReason::InternalMovement, 1);
        return Vec::new();
    };
    drafts
}

/// One deposit or withdrawal of the deposit or withdrawal record.
fn movement(
    ctx: &mut Ctx,
    line: u64,
    (account, col, get): Cells<'_>,
    instant: Option<core_domain::Instant>,
    inflow: bool,
) -> Vec<Draft> {
    let status = get("Status");
    // A row with a bad cell (its time) is invalid, whatever its status.
    let bad = ctx.invalid.contains(&line);
    match status.to_ascii_lowercase().as_str() {
        "success" => {}
        _ if bad => return Vec::new(),
        "processing" | "wallet processing" | "pending" => {
            ctx.skip(SkipReason::Pending, 1);
            return Vec::new();
        }
        "failure" | "failed" | "cancel" | "canceled" | "cancelled" => {
            ctx.skip(SkipReason::NotFinal, 1);
            return Vec::new();
        }
        _ => ctx.err(
            line,
            col("Status"),
            "unknown-status",
            format!("unknown status \"{status}\""),
        ),
    }
    let coin = ctx.asset(line, col("Coin"), get("Coin"));
    let amount = ctx.dec(line, col("Amount"), get("Amount"), false);
    let fee = match get("Fee") {
        "" => Some(None),
        q => ctx.dec(line, col("Fee"), q, false).map(Some),
    };
    if ctx.invalid.contains(&line) {
        return Vec::new();
    }
    let (Some(instant), Some(coin), Some(amount), Some(fee)) = (instant, coin, amount, fee) else {
        return Vec::new();
    };
    let label = if inflow { "deposit" } else { "withdrawal" };
    if !check_sign(
        ctx,
        line,
        col("Amount"),
        amount,
        true,
        (label, get("Amount")),
    ) {
        return Vec::new();
    }
    let mut d = Draft::new(
        account.to_owned(),
        account,
        instant,
        transfer_type(coin, inflow),
        KeyBase::Content,
        line,
    );
    if inflow {
        d.inflow = Some(pipeline::amount(coin, amount));
    } else {
        d.outflow = Some(pipeline::amount(coin, amount));
    }
    d.fee = fee.map(|q| pipeline::fee(coin, q));
    get("Hash").clone_into(&mut d.source_ref);
    d.note = [
        get("Account Type"),
        get("Transfer Network"),
        get("Withdrawal Address/Account"),
        get("Deposit Address"),
        get("Remarks"),
    ]
    .iter()
    .filter(|s| !s.is_empty())
    .copied()
    .collect::<Vec<_>>()
    .join("; ");
    vec![d]
}
