//! Bybit spot trade history (CSV, Unified Trading Account: the order history download and
//! the later "Trade History Statement" with a `UID:` preamble and a `Uid` column): one row per
//! fill. `Spot Pairs` writes the pair without a separator (`BTCUSDT`); the fee is charged in
//! the asset received (base on a buy, quote on a sell). The time column names its zone
//! (`Timestamp (UTC)`, `Timestamp (UTC+0)`). Shapes: `test_data/bybit/README.md`.

use std::collections::BTreeMap;

use core_domain::Asset;
use rust_decimal::Decimal;
use shared_types::SpotTxType;

use super::extra::{self, check_sign, header_zone, transfer_type};
use super::legs::{Leg, Merger, Opening};
use crate::model::{ImportOptions, Profile, SkipReason, Zone};
use crate::ops;
use crate::pipeline::{self, Ctx, Draft, KeyBase, SEP};
use crate::reader::{self, Records};
use crate::values;

const ID: &str = "bybit";

/// The spot history's columns (the time column matched by its zone pattern).
pub(crate) const REQUIRED: [&str; 10] = [
    "Spot Pairs",
    "Order Type",
    "Direction",
    "Filled Value",
    "Filled Price",
    "Filled Quantity",
    "Fees",
    "Transaction ID",
    "Order No.",
    "Timestamp (UTC*)",
];
const C_PAIR: usize = 0;
const C_DIR: usize = 2;
const C_VALUE: usize = 3;
const C_QTY: usize = 5;
const C_FEES: usize = 6;
const C_TXID: usize = 7;
const C_ORDER: usize = 8;
const C_TIME: usize = 9;

/// The quote assets of Bybit's spot markets, longest first: a pair is split at the quote
/// it ends with (D-145).
const QUOTES: [&str; 11] = [
    "USDT", "USDC", "USDE", "EUR", "BRL", "TRY", "PLN", "BTC", "ETH", "DAI", "MNT",
];

fn split_pair(pair: &str) -> Option<(Asset, Asset)> {
    let upper = pair.to_ascii_uppercase();
    QUOTES.iter().find_map(|q| {
        let base = upper.strip_suffix(q)?;
        Some((values::asset(base)?, values::asset(q)?))
    })
}

/// `YYYY-MM-DD HH:MM:SS` or `HH:MM YYYY-MM-DD` (the older download).
fn parse_time(text: &str) -> Option<chrono::NaiveDateTime> {
    if let Some(stamp) = values::parse_stamp(text, b" ", false, false) {
        return Some(stamp.local);
    }
    let (clock, date) = text.split_once(' ')?;
    let date = values::parse_date(date, false)?;
    let time = values::parse_time(&format!("{clock}:00")).filter(|_| clock.len() == 5)?;
    Some(date.and_time(time))
}

/// Reads one file: the spot fills, or an asset-change log of the Funding account.
pub(crate) fn read_into(
    ctx: &mut Ctx,
    records: &mut Records<'_>,
    account: &str,
    layout: &str,
    options: &ImportOptions,
    emit: &mut dyn FnMut(&mut Ctx, Draft),
) {
    if layout == "spot" {
        read_spot(ctx, records, account, options, emit);
    } else {
        read_funding(ctx, records, account, layout, options, emit);
    }
}

/// Reads the fills, one trade per row, in file order.
#[allow(clippy::too_many_lines)] // The cells, then the trade and its fee rule.
fn read_spot(
    ctx: &mut Ctx,
    records: &mut Records<'_>,
    account: &str,
    options: &ImportOptions,
    emit: &mut dyn FnMut(&mut Ctx, Draft),
) {
    let cols = extra::columns(ctx, &REQUIRED, &["Uid"], Profile::Bybit);
    let zone: Option<Zone> = cols[C_TIME]
        .and_then(|i| ctx.header.cells.get(i))
        .and_then(|c| c.get("Timestamp ".len()..))
        .and_then(header_zone)
        .or(options.timezone);
    let mut ids: values::FastMap<String, u64> = values::FastMap::default();
    pipeline::for_rows(ctx, records, |ctx, line, rec| {
        let get = |c: usize| cols[c].map_or("", |i| reader::cell(rec, i));
        let direction = get(C_DIR);
        let buy = match direction.to_ascii_lowercase().as_str() {
            "buy" => Some(true),
            "sell" => Some(false),
            _ => {
                extra::unknown_type(ctx, line, cols[C_DIR], ID, direction);
                None
            }
        };
        let text = get(C_TIME);
        let instant = match (parse_time(text), zone) {
            (Some(local), Some(z)) => ctx.place(line, cols[C_TIME], local, z),
            (None, _) => {
                ctx.err(
                    line,
                    cols[C_TIME],
                    "bad-timestamp",
                    format!("\"{text}\" is not a timestamp of the form YYYY-MM-DD HH:MM:SS"),
                );
                None
            }
            (Some(_), None) => {
                ctx.err(
                    line,
                    cols[C_TIME],
                    "timezone-required",
                    "these timestamps carry no time zone; pass --timezone".to_owned(),
                );
                None
            }
        };
        let pair = split_pair(get(C_PAIR));
        if pair.is_none() {
            ctx.err(
                line,
                cols[C_PAIR],
                "bad-asset-symbol",
                format!("\"{}\" is not a valid asset symbol", get(C_PAIR)),
            );
        }
        let qty = ctx.dec(line, cols[C_QTY], get(C_QTY), false);
        let value = ctx.dec(line, cols[C_VALUE], get(C_VALUE), false);
        let fee = match get(C_FEES) {
            "" => Some(None),
            f => ctx.dec(line, cols[C_FEES], f, false).map(Some),
        };
        if ctx.invalid.contains(&line) {
            return;
        }
        let (Some(buy), Some(instant), Some((base, quote)), Some(qty), Some(value), Some(fee)) =
            (buy, instant, pair, qty, value, fee)
        else {
            return;
        };
        if qty.is_zero() {
            ctx.skip(SkipReason::NotFinal, 1);
            return;
        }
        if !check_sign(
            ctx,
            line,
            cols[C_VALUE],
            value,
            true,
            (direction, get(C_VALUE)),
        ) {
            return;
        }
        let txid = get(C_TXID);
        let key = if txid.is_empty() {
            KeyBase::Content
        } else {
            let key = format!("v1{SEP}{ID}{SEP}trade{SEP}{txid}");
            if !ctx.first_sighting(&mut ids, &key, txid, (line, cols[C_TXID])) {
                return;
            }
            KeyBase::Declared(key, cols[C_TXID])
        };
        let mut d = Draft::new(
            account.to_owned(),
            account,
            instant,
            SpotTxType::Buy,
            key,
            line,
        );
        d.source_ref = [txid, get(C_ORDER)]
            .iter()
            .filter(|s| !s.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join("+");
        d.note = format!("{direction} {}", get(C_PAIR));
        let (inflow, outflow): ((Asset, Decimal), (Asset, Decimal)) = if buy {
            ((base, qty), (quote, value))
        } else {
            ((quote, value), (base, qty))
        };
        let mut fees = BTreeMap::new();
        if let Some(q) = fee {
            // Charged in what the fill brought in.
            fees.insert(inflow.0, q);
        }
        let group = format!("{instant} {txid}");
        match ops::exchange(&d, inflow, outflow, &fees, false, &group) {
            Some(drafts) => {
                for d in drafts {
                    emit(ctx, d);
                }
            }
            None => ctx.skip(SkipReason::InternalMovement, 1),
        }
    });
}

/// The Funding account's asset changes ("Asset Changes" / "Account Change Details", with or
/// without the `Uid` column and the `UID:` preamble): `QTY` is the signed change.
pub(crate) const FUNDING: [&str; 6] = [
    "Date & Time(UTC*)",
    "Coin",
    "QTY",
    "Type",
    "Account Balance",
    "Description",
];

/// The earlier deposit history (BittyTax's first generation): `Type` is `userDeposit` or an
/// internal transfer.
pub(crate) const DEPOSITS_V1: [&str; 5] =
    ["Type", "Coin", "Amount", "Wallet Balance", "Time(UTC*)"];

/// What a row of the Funding account's log is (D-153).
enum Kind {
    /// Money in (`true`) or out of Bybit: a deposit or a withdrawal.
    Move(bool),
    /// A move between Bybit's own accounts (Funding, Unified Trading, Derivatives): both sides
    /// are the file's account.
    Internal,
    /// A move into (negative change) or out of Bybit Earn or Launchpool.
    Earn,
    /// A credit booked with this type.
    Credit(SpotTxType),
    /// A leg of a conversion written as rows of one instant.
    Leg,
    /// Recognised, not read (the reason).
    Unsupported(&'static str),
}

fn funding_kind(ty: &str, description: &str) -> Option<Kind> {
    let t = ty.to_ascii_lowercase();
    let d = description.to_ascii_lowercase();
    let kind = match (t.as_str(), d.as_str()) {
        ("userdeposit", _) | (_, "deposit") => Kind::Move(true),
        ("internalaccounttransferdeposit" | "internalaccounttransferwithdrawal", _) => {
            Kind::Internal
        }
        ("bybit card", _) => Kind::Unsupported(
            "Bybit Card payments are booked with the card's USD bookkeeping, which is not read",
        ),
        (_, "withdrawal") => Kind::Move(false),
        (_, d) if d.starts_with("transfer to ") || d.starts_with("transfer from ") => {
            Kind::Internal
        }
        (_, d) if d.contains("buy crypto with card") => {
            Kind::Unsupported("the amount paid is only in the Deposit and Top-Up History export")
        }
        (_, d)
            if d.contains("interest distribution")
                || d.contains("rewards distribution")
                || d.contains("yield") =>
        {
            Kind::Credit(SpotTxType::Reward)
        }
        (_, d)
            if d.contains("subscription")
                || d.contains("redemption")
                || d.contains("auto-earn")
                || d.contains("manual withdrawal") =>
        {
            Kind::Earn
        }
        ("transfer in", _) => Kind::Move(true),
        ("transfer out", _) => Kind::Move(false),
        ("airdrop", _) => Kind::Credit(SpotTxType::Airdrop),
        ("rewards", _) => Kind::Credit(SpotTxType::Promotion),
        ("convert", _) => Kind::Leg,
        _ => return None,
    };
    Some(kind)
}

/// Reads an asset-change log of the Funding account, one operation per row (a conversion's
/// legs merged), in file order.
#[allow(clippy::too_many_lines)] // The cells, then one arm per kind of row.
fn read_funding(
    ctx: &mut Ctx,
    records: &mut Records<'_>,
    account: &str,
    layout: &str,
    options: &ImportOptions,
    emit: &mut dyn FnMut(&mut Ctx, Draft),
) {
    let names: &[&str] = if layout == "funding" {
        &FUNDING
    } else {
        &DEPOSITS_V1
    };
    let (time_name, qty_name, desc_name) = if layout == "funding" {
        ("Date & Time", "QTY", "Description")
    } else {
        ("Time", "Amount", "Type")
    };
    let cols = extra::columns(ctx, names, &["Uid"], Profile::Bybit);
    let col = |name: &str| {
        names
            .iter()
            .position(|n| n.trim_end_matches("(UTC*)") == name)
            .and_then(|i| cols[i])
    };
    let zone: Option<Zone> = col(time_name)
        .and_then(|i| ctx.header.cells.get(i))
        .and_then(|c| c.get(time_name.len()..))
        .and_then(header_zone)
        .or(options.timezone);
    let mut merger = Merger::new(account, col("Type"));
    pipeline::for_rows(ctx, records, |ctx, line, rec| {
        let get = |name: &str| col(name).map_or("", |i| reader::cell(rec, i));
        let (ty, description) = (get("Type"), get(desc_name));
        let label = if ty.eq_ignore_ascii_case(description) {
            ty.to_owned()
        } else {
            format!("{ty} / {description}")
        };
        let kind = funding_kind(ty, description);
        if kind.is_none() {
            extra::unknown_type(ctx, line, col(desc_name), ID, &label);
        }
        let instant = extra::zoned_instant(ctx, line, col(time_name), get(time_name), zone);
        let coin = ctx.asset(line, col("Coin"), get("Coin"));
        let qty = super::dec_exp(ctx, line, col(qty_name), get(qty_name), true);
        let valid = !ctx.invalid.contains(&line);
        if let Some(Kind::Leg) = kind {
            let leg = match (valid, instant, coin, qty) {
                (true, Some(instant), Some(c), Some(q)) => Some(Leg {
                    instant,
                    changes: vec![(c, q)],
                    fee: None,
                }),
                _ => None,
            };
            let at = instant.map_or_else(|| format!("line {line}"), |i| i.to_string());
            let opening = || Opening {
                what: format!("{ty} at {at}"),
                ident: KeyBase::Content,
                note: label.clone(),
                source_ref: String::new(),
            };
            merger.add(
                ctx,
                emit,
                &format!("{at} {}", ty.to_ascii_lowercase()),
                opening,
                line,
                leg,
            );
            return;
        }
        merger.close(ctx, emit);
        let (Some(kind), Some(instant), Some(coin), Some(qty), true) =
            (kind, instant, coin, qty, valid)
        else {
            return;
        };
        if qty.is_zero() {
            // A change of nothing (Bybit lists some): no operation.
            ctx.skip(SkipReason::InternalMovement, 1);
            return;
        }
        let mut d = Draft::new(
            account.to_owned(),
            account,
            instant,
            SpotTxType::TransferIn,
            KeyBase::Content,
            line,
        );
        d.note.clone_from(&label);
        match kind {
            Kind::Internal => ctx.skip(SkipReason::InternalMovement, 1),
            Kind::Unsupported(reason) => {
                extra::unsupported_type(ctx, line, col(desc_name), ID, &label, reason);
            }
            Kind::Move(inflow) => {
                // The description states the direction. A withdrawal's change is read by its
                // magnitude (BittyTax does so); a deposit must not be negative.
                if inflow
                    && !check_sign(ctx, line, col(qty_name), qty, true, (&label, get(qty_name)))
                {
                    return;
                }
                d.ty = transfer_type(coin, inflow);
                if inflow {
                    d.inflow = Some(pipeline::amount(coin, qty.abs()));
                } else {
                    d.outflow = Some(pipeline::amount(coin, qty.abs()));
                }
                emit(ctx, d);
            }
            Kind::Earn => {
                let into_earn = qty.is_sign_negative();
                extra::earn_move(ctx, d, account, (coin, qty.abs()), into_earn, emit);
            }
            Kind::Credit(ty) => {
                if !check_sign(ctx, line, col(qty_name), qty, true, (&label, get(qty_name))) {
                    return;
                }
                extra::credit(ctx, d, ty, (coin, qty), col("Coin"), emit);
            }
            Kind::Leg => {}
        }
    });
    merger.close(ctx, emit);
}
