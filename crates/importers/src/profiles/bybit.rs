//! Bybit spot trade history (CSV, Unified Trading Account: the order history download and
//! the later "Trade History Statement" with a `UID:` preamble and a `Uid` column): one row per
//! fill. `Spot Pairs` writes the pair without a separator (`BTCUSDT`); the fee is charged in
//! the asset received (base on a buy, quote on a sell). The time column names its zone
//! (`Timestamp (UTC)`, `Timestamp (UTC+0)`). Shapes: `test_data/bybit/README.md`.

use std::collections::BTreeMap;

use core_domain::Asset;
use rust_decimal::Decimal;
use shared_types::SpotTxType;

use super::extra::{self, check_sign, header_matches, header_zone};
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

/// Reads the fills, one trade per row, in file order.
#[allow(clippy::too_many_lines)] // The cells, then the trade and its fee rule.
pub(crate) fn read_into(
    ctx: &mut Ctx,
    records: &mut Records<'_>,
    account: &str,
    options: &ImportOptions,
    emit: &mut dyn FnMut(&mut Ctx, Draft),
) {
    let cols: Vec<Option<usize>> = REQUIRED
        .iter()
        .map(|n| ctx.header.cells.iter().position(|c| header_matches(c, n)))
        .collect();
    let unknown: Vec<usize> = (0..ctx.header.cells.len())
        .filter(|i| {
            !cols.contains(&Some(*i))
                && !ctx.header.cells[*i].is_empty()
                && !ctx.header.cells[*i].eq_ignore_ascii_case("Uid")
        })
        .collect();
    pipeline::ignore_unknown(ctx, &unknown, Profile::Bybit);
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
            if let Some(first) = ids.get(&key) {
                ctx.err(
                    line,
                    cols[C_TXID],
                    "duplicate-id",
                    format!("id \"{txid}\" already appears on line {first}"),
                );
                return;
            }
            ids.insert(key.clone(), line);
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
