//! KuCoin's exports (CSV). The "Export Data" bundle: the spot fills (layout `fills`, per fill
//! or per order), the deposit record, the withdrawal record and the account history
//! (`account-history`: every balance change of one KuCoin account, `Side` and an unsigned
//! `Amount` that already holds the fee). And the older trade exports (`trades-v1` …
//! `trades-v4`, `orders-v1`) whose headers share no column with the bundle. The time column
//! names its zone (`Filled Time(UTC+08:00)`, `Time(UTC)`); one without needs `--timezone`.
//! What each file is authoritative for: D-151. Shapes: `test_data/kucoin/README.md`.

use core_domain::Instant;
use rust_decimal::Decimal;
use shared_types::SpotTxType;

use super::extra::{self, check_sign, header_matches, header_zone, transfer_type};
use super::legs::{Leg, Merger, Opening};
use crate::model::{ImportOptions, Profile, SkipReason, Zone};
use crate::pipeline::{self, Ctx, Draft, KeyBase, SEP};
use crate::reader::{self, Records};
use crate::values;

const ID: &str = "kucoin";

/// Columns every KuCoin file of the bundle has.
pub(crate) const REQUIRED: [&str; 2] = ["UID", "Account Type"];

/// Layouts of the bundle, most specific first. `account-history-untyped` and `futures` are
/// recognised to be refused by name.
pub(crate) const LAYOUTS: &[(&str, &[&str])] = &[
    (
        "account-history",
        &["Currency", "Side", "Amount", "Fee", "Remark", "Type"],
    ),
    (
        "account-history-untyped",
        &["Currency", "Side", "Amount", "Fee", "Remark"],
    ),
    ("futures", &["Symbol", "Close Type", "Realized PNL"]),
    (
        "earn-profits",
        &["Staked Coin", "Earnings Coin", "Earnings Type", "Amount"],
    ),
    (
        "convert-orders",
        &["Payment Account", "Sell", "Buy", "Price"],
    ),
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

/// Files of the bundle recognised only to be refused: what they are and what to import instead.
const REFUSED: [(&str, &str, &str); 4] = [
    (
        "account-history-untyped",
        "a KuCoin account history without the Type column (an earlier generation)",
        "download the account history again (Orders, Export Data, Account History): today's file has the Type column cartera reads",
    ),
    (
        "futures",
        "a KuCoin futures history",
        "futures are not supported; the spot fills, the deposit and withdrawal records and the account history are read",
    ),
    (
        "earn-profits",
        "KuCoin's Earn profit history",
        "the account history states every Earn payout (KuCoin Earn Profits, Hold to Earn Earnings): import the Funding and Trading account histories instead",
    ),
    (
        "convert-orders",
        "KuCoin's convert orders",
        "the account history states every conversion (Convert Market): import the Funding and Trading account histories instead",
    ),
];

/// The older trade exports, each detected by its own columns (`extra::DEFS`).
pub(crate) const TRADES_V4: [&str; 8] = [
    "oid",
    "symbol",
    "dealPrice",
    "dealValue",
    "amount",
    "fee",
    "direction",
    "createdDate",
];
pub(crate) const TRADES_V3: [&str; 10] = [
    "tradeCreatedAt",
    "orderId",
    "symbol",
    "side",
    "price",
    "size",
    "funds",
    "fee",
    "liquidity",
    "feeCurrency",
];
pub(crate) const TRADES_V2: [&str; 9] = [
    "uid",
    "symbol",
    "order_type",
    "price",
    "amount_coin",
    "direction",
    "funds",
    "fee",
    "created_at",
];
pub(crate) const TRADES_V1: [&str; 7] = [
    "uid",
    "symbol",
    "direction",
    "deal_price",
    "amount",
    "deal_value",
    "created_at",
];
pub(crate) const ORDERS_V1: [&str; 8] = [
    "orderCreatedAt",
    "id",
    "symbol",
    "side",
    "dealSize",
    "dealFunds",
    "fee",
    "feeCurrency",
];

/// The older deposit and withdrawal records (BittyTax), without `UID`/`Account Type`/`Status`.
pub(crate) const DEPOSITS_OLD: [&str; 5] = ["Time", "Coin", "Amount", "Type", "Remark"];
pub(crate) const WITHDRAWALS_OLD: [&str; 6] = [
    "Time",
    "Coin",
    "Amount",
    "Type",
    "Remark",
    "Wallet Address/Account",
];
pub(crate) const WITHDRAWALS_OLDEST: [&str; 6] =
    ["Time", "Coin", "Amount", "Type", "Remark", "Wallet Address"];
pub(crate) const MOVEMENTS_OLD: [&str; 6] =
    ["coin_type", "type", "add", "hash", "vol", "created_at"];

/// Where a deposit or withdrawal file keeps its cells.
struct Moves {
    coin: &'static str,
    amount: &'static str,
    hash: &'static str,
    /// Read by no rule but kept in the note.
    notes: &'static [&'static str],
    /// Read by no rule.
    other: &'static [&'static str],
    direction: Direction,
}

#[derive(Clone, Copy)]
enum Direction {
    /// Every row moves money in (`true`) or out; a `Remarks` of exactly `Deposit` or
    /// `Withdrawal` states it instead (a public parser reads both from one header).
    File(bool),
    /// The column says `DEPOSIT` or `WITHDRAW`.
    Column(&'static str),
}

fn moves(layout: &str) -> Option<Moves> {
    let notes: &'static [&'static str] = &[
        "Account Type",
        "Transfer Network",
        "Network",
        "Withdrawal Address/Account",
        "Wallet Address/Account",
        "Wallet Address",
        "Deposit Address",
        "Remarks",
        "Remark",
        "add",
    ];
    let m = match layout {
        "deposits" | "withdrawals" | "deposits-old" | "withdrawals-old" => Moves {
            coin: "Coin",
            amount: "Amount",
            hash: "Hash",
            notes,
            other: &["UID", "Fee", "Status", "Type"],
            direction: Direction::File(layout.starts_with("deposits")),
        },
        "movements-old" => Moves {
            coin: "coin_type",
            amount: "vol",
            hash: "hash",
            notes,
            other: &["type"],
            direction: Direction::Column("type"),
        },
        _ => return None,
    };
    Some(m)
}

/// Where the fee's asset is named.
#[derive(Clone, Copy)]
enum FeeIn {
    /// A column names it.
    Column(&'static str),
    /// It is the quote of the pair (BittyTax reads the older exports so).
    Quote,
}

/// The cells of one trade layout: a row is `base` of the pair's base against `quote` of its
/// quote, the fee on top.
struct Trades {
    time: &'static str,
    symbol: &'static str,
    side: &'static str,
    base: &'static str,
    quote: &'static str,
    fee: Option<(&'static str, FeeIn)>,
    /// The order id: adjacent rows of one order are one trade, keyed by it.
    order: Option<&'static str>,
    /// Columns read by no rule.
    other: &'static [&'static str],
}

fn trades(layout: &str) -> Option<Trades> {
    let t = match layout {
        "fills" => Trades {
            time: "Filled Time",
            symbol: "Symbol",
            side: "Side",
            base: "Filled Amount",
            quote: "Filled Volume",
            fee: Some(("Fee", FeeIn::Column("Fee Currency"))),
            order: Some("Order ID"),
            other: &[
                "UID",
                "Account Type",
                "Order Type",
                "Avg. Filled Price",
                "Filled Volume (USDT)",
                "Tax",
                "Maker/Taker",
                "Order Price",
                "Order Amount",
                "Status",
                "Account Mode",
            ],
        },
        "trades-v4" => Trades {
            time: "createdDate",
            symbol: "symbol",
            side: "direction",
            base: "amount",
            quote: "dealValue",
            fee: Some(("fee", FeeIn::Quote)),
            order: Some("oid"),
            other: &["dealPrice", "feeCurrency"],
        },
        "trades-v3" => Trades {
            time: "tradeCreatedAt",
            symbol: "symbol",
            side: "side",
            base: "size",
            quote: "funds",
            fee: Some(("fee", FeeIn::Column("feeCurrency"))),
            order: Some("orderId"),
            other: &["price", "liquidity", "orderType"],
        },
        "trades-v2" => Trades {
            time: "created_at",
            symbol: "symbol",
            side: "direction",
            base: "amount_coin",
            quote: "funds",
            fee: Some(("fee", FeeIn::Quote)),
            order: None,
            other: &["uid", "order_type", "price"],
        },
        "trades-v1" => Trades {
            time: "created_at",
            symbol: "symbol",
            side: "direction",
            base: "amount",
            quote: "deal_value",
            fee: None,
            order: None,
            other: &["uid", "deal_price"],
        },
        "orders-v1" => Trades {
            time: "orderCreatedAt",
            symbol: "symbol",
            side: "side",
            base: "dealSize",
            quote: "dealFunds",
            fee: Some(("fee", FeeIn::Column("feeCurrency"))),
            order: Some("id"),
            other: &[
                "clientOid",
                "type",
                "stopPrice",
                "price",
                "size",
                "averagePrice",
                "remark",
                "tags",
                "orderStatus",
            ],
        },
        _ => return None,
    };
    Some(t)
}

/// The time column `name` (or `name(UTC…)`): its index and the zone its header states.
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

/// Reads the rows of one file, in file order (an order's fills and a conversion's legs are
/// emitted when their last row has been read).
#[allow(clippy::too_many_lines)] // The columns of every layout, then one dispatch per row.
pub(crate) fn read_into(
    ctx: &mut Ctx,
    records: &mut Records<'_>,
    account: &str,
    layout: &str,
    options: &ImportOptions,
    emit: &mut dyn FnMut(&mut Ctx, Draft),
) {
    if let Some((_, what, instead)) = REFUSED.iter().find(|(l, _, _)| *l == layout) {
        extra::refuse(ctx, what, instead);
        return;
    }
    let spec = trades(layout);
    let record = moves(layout);
    let time_name = match (&spec, layout) {
        (Some(t), _) => t.time,
        (None, "movements-old") => "created_at",
        _ => "Time",
    };
    let time = time_column(ctx, time_name);
    let mut names: Vec<&str> = Vec::new();
    if let Some(t) = &spec {
        names.extend([t.symbol, t.side, t.base, t.quote]);
        if let Some((fee, fee_in)) = t.fee {
            names.push(fee);
            if let FeeIn::Column(c) = fee_in {
                names.push(c);
            }
        }
        names.extend(t.order);
        names.extend_from_slice(t.other);
    } else if let Some(m) = &record {
        names.extend([m.coin, m.amount, m.hash]);
        names.extend_from_slice(m.notes);
        names.extend_from_slice(m.other);
    } else {
        names.extend_from_slice(&REQUIRED);
        if let Some((_, cols)) = LAYOUTS.iter().find(|(l, _)| *l == layout) {
            names.extend_from_slice(cols);
        }
    }
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
    let group_col = match (&spec, layout) {
        (Some(t), _) => t.order.and_then(col),
        (None, "account-history") => col("Type"),
        _ => None,
    };
    let mut merger = Merger::new(account, group_col);
    let mut ids: values::FastMap<String, u64> = values::FastMap::default();
    pipeline::for_rows(ctx, records, |ctx, line, rec| {
        let get = |name: &str| col(name).map_or("", |i| reader::cell(rec, i));
        let cells: Cells<'_> = (account, &col, &get);
        let instant =
            extra::zoned_instant(ctx, line, Some(time_col), reader::cell(rec, time_col), zone);
        if let Some(t) = &spec {
            fill(ctx, line, cells, t, instant, (&mut merger, &mut ids), emit);
        } else if let Some(m) = &record {
            for d in movement(ctx, line, cells, m, instant) {
                emit(ctx, d);
            }
        } else {
            history(ctx, line, cells, instant, &mut merger, emit);
        }
    });
    merger.close(ctx, emit);
}

type Cells<'c> = (
    &'c str,
    &'c dyn Fn(&str) -> Option<usize>,
    &'c dyn Fn(&str) -> &'c str,
);

/// One fill (or filled order): base bought or sold against the quote, the fee on top. The
/// adjacent fills of one order are merged into its trade, keyed by the order id.
fn fill(
    ctx: &mut Ctx,
    line: u64,
    cells: Cells<'_>,
    t: &Trades,
    instant: Option<Instant>,
    (merger, ids): (&mut Merger, &mut values::FastMap<String, u64>),
    emit: &mut dyn FnMut(&mut Ctx, Draft),
) {
    let (_, col, get) = cells;
    let side = get(t.side);
    let buy = match side.to_ascii_lowercase().as_str() {
        "buy" => Some(true),
        "sell" => Some(false),
        _ => {
            extra::unknown_type(ctx, line, col(t.side), ID, side);
            None
        }
    };
    let symbol = get(t.symbol);
    let pair = symbol.split_once('-').and_then(|(b, q)| {
        let b = values::asset(b)?;
        let q = values::asset(q)?;
        Some((b, q))
    });
    if pair.is_none() {
        ctx.err(
            line,
            col(t.symbol),
            "bad-asset-symbol",
            format!("\"{symbol}\" is not a valid asset symbol"),
        );
    }
    let amount = ctx.dec(line, col(t.base), get(t.base), false);
    let volume = ctx.dec(line, col(t.quote), get(t.quote), false);
    let fee = fee_cells(ctx, line, cells, t, pair.map(|p| p.1)).ok();
    let order = t.order.map_or("", get);
    let key = if order.is_empty() {
        String::new()
    } else {
        format!("v1{SEP}{ID}{SEP}order{SEP}{order}")
    };
    // A row of an order already merged, further up the file.
    if !key.is_empty()
        && !merger.is_open(&key)
        && let Some(first) = ids.get(&key)
    {
        ctx.err(
            line,
            t.order.and_then(col),
            "duplicate-id",
            format!(
                "id \"{order}\" already appears on line {first} (the fills of one order are one trade when they are next to each other)"
            ),
        );
    }
    let cells_ok = !ctx.invalid.contains(&line);
    let valid = (buy, instant, pair, amount, volume, fee);
    let leg = match valid {
        (Some(buy), Some(instant), Some((base, quote)), Some(amount), Some(volume), Some(fee))
            if cells_ok =>
        {
            if amount.is_zero() {
                // An order of the order history that never filled.
                merger.close(ctx, emit);
                ctx.skip(SkipReason::NotFinal, 1);
                return;
            }
            check_sign(ctx, line, col(t.quote), volume, true, (side, get(t.quote))).then(|| {
                let (inflow, outflow) = if buy {
                    ((base, amount), (quote, volume))
                } else {
                    ((quote, volume), (base, amount))
                };
                Leg {
                    instant,
                    changes: vec![inflow, (outflow.0, -outflow.1)],
                    fee,
                }
            })
        }
        _ => None,
    };
    let (merge_key, ident) = if key.is_empty() {
        (format!("line {line}"), KeyBase::Content)
    } else {
        ids.entry(key.clone()).or_insert(line);
        (key.clone(), KeyBase::Declared(key, t.order.and_then(col)))
    };
    let opening = || Opening {
        what: if order.is_empty() {
            format!("trade on line {line}")
        } else {
            format!("order {order}")
        },
        ident,
        note: format!("{side} {symbol}; {}", get("Account Type"))
            .trim_end_matches("; ")
            .to_owned(),
        source_ref: order.to_owned(),
    };
    merger.add(ctx, emit, &merge_key, opening, line, leg);
}

/// The fee of a trade row: `Ok(None)` when it states none, `Err` when a cell is bad.
fn fee_cells(
    ctx: &mut Ctx,
    line: u64,
    (_, col, get): Cells<'_>,
    t: &Trades,
    quote: Option<core_domain::Asset>,
) -> Result<Option<(core_domain::Asset, Decimal)>, ()> {
    let Some((fee_col, fee_in)) = t.fee else {
        return Ok(None);
    };
    let named = match fee_in {
        FeeIn::Column(c) => get(c),
        FeeIn::Quote => "",
    };
    match (get(fee_col), named) {
        ("", "") => Ok(None),
        (q, c) => {
            let q = ctx.dec(
                line,
                col(fee_col),
                if q.is_empty() { "0" } else { q },
                false,
            );
            let a = match fee_in {
                FeeIn::Column(name) => ctx.asset(line, col(name), c),
                FeeIn::Quote => quote,
            };
            q.zip(a).map(|(q, a)| Some((a, q))).ok_or(())
        }
    }
}

/// What a row of the account history is, by its `Type` (D-151).
enum Kind {
    /// A move between two of KuCoin's own accounts (Funding, Trading, margin): both sides are
    /// the file's account.
    Internal,
    /// A move to (`true`: from the account into Earn) or from KuCoin Earn.
    Earn,
    /// Stated by another file of the bundle, which is authoritative for it.
    Elsewhere,
    /// A credit of one asset, booked with this type.
    Credit(SpotTxType),
    /// A leg of a conversion written as rows of one instant.
    Leg,
}

fn kind(label: &str) -> Option<Kind> {
    Some(match label.to_ascii_lowercase().as_str() {
        "transfer" => Kind::Internal,
        "kucoin earn locked" | "kucoin earn redemptions" => Kind::Earn,
        "spot" | "deposit" | "withdraw" | "withdrawal" => Kind::Elsewhere,
        "hold to earn earnings" | "kucoin earn profits" | "earn rate-up coupon" | "kcs bonus" => {
            Kind::Credit(SpotTxType::Reward)
        }
        "referral bonus"
        | "platform_reward_withdraw"
        | "deduction coupon refund"
        | "rewards"
        | "kucoin event" => Kind::Credit(SpotTxType::Promotion),
        "fiat deposit" => Kind::Credit(SpotTxType::Deposit),
        "convert market" | "convert dust to kcs" | "fiat transactions" => Kind::Leg,
        _ => return None,
    })
}

/// One row of an account history: `Amount` is what the balance moved by (`Side`), the fee
/// already inside it, so a credit's principal is `Amount + Fee` and a debit's `Amount − Fee`.
#[allow(clippy::too_many_lines)] // One arm per kind of row.
fn history(
    ctx: &mut Ctx,
    line: u64,
    (account, col, get): Cells<'_>,
    instant: Option<Instant>,
    merger: &mut Merger,
    emit: &mut dyn FnMut(&mut Ctx, Draft),
) {
    let label = get("Type");
    let kind = kind(label);
    if kind.is_none() {
        extra::unknown_type(ctx, line, col("Type"), ID, label);
    }
    let inflow = extra::side_word(ctx, line, col("Side"), ID, get("Side"));
    let currency = ctx.asset(line, col("Currency"), get("Currency"));
    let amount = ctx.dec(line, col("Amount"), get("Amount"), false);
    let fee = match get("Fee") {
        "" => Some(Decimal::ZERO),
        q => ctx.dec(line, col("Fee"), q, false),
    };
    let principal = match (inflow, amount, fee) {
        (Some(true), Some(a), Some(f)) => values::add(a, f),
        (Some(false), Some(a), Some(f)) if f <= a => values::sub(a, f),
        (Some(false), Some(_), Some(f)) => {
            ctx.err(
                line,
                col("Fee"),
                "fee-exceeds-amount",
                format!("the fee {f} is larger than the amount that contains it"),
            );
            None
        }
        _ => None,
    };
    let valid = !ctx.invalid.contains(&line);
    let note = [label, get("Remark")]
        .iter()
        .filter(|s| !s.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join("; ");
    if let Some(Kind::Leg) = kind {
        let leg = match (valid, instant, currency, principal, inflow, fee) {
            (true, Some(instant), Some(c), Some(p), Some(inflow), Some(f)) => Some(Leg {
                instant,
                changes: vec![(c, if inflow { p } else { -p })],
                fee: (!f.is_zero()).then_some((c, f)),
            }),
            _ => None,
        };
        let key = format!(
            "{} {}",
            instant.map_or_else(|| format!("line {line}"), |i| i.to_string()),
            label.to_ascii_lowercase()
        );
        let opening = || Opening {
            what: format!(
                "{label} at {}",
                instant.map_or_else(|| format!("line {line}"), |i| i.to_string())
            ),
            ident: KeyBase::Content,
            note: label.to_owned(),
            source_ref: String::new(),
        };
        merger.add(ctx, emit, &key, opening, line, leg);
        return;
    }
    merger.close(ctx, emit);
    let (Some(kind), Some(instant), Some(currency), Some(principal), Some(inflow), Some(fee)) =
        (kind, instant, currency, principal, inflow, fee)
    else {
        return;
    };
    if !valid {
        return;
    }
    if principal.is_zero() {
        ctx.err(
            line,
            col("Amount"),
            "not-positive",
            format!("\"{}\" must be greater than zero", get("Amount")),
        );
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
    d.note = note;
    if !fee.is_zero() {
        d.fee = Some(pipeline::fee(currency, fee));
    }
    match kind {
        Kind::Elsewhere => ctx.skip(SkipReason::InOtherFile, 1),
        Kind::Internal | Kind::Earn if !fee.is_zero() => extra::unsupported_type(
            ctx,
            line,
            col("Fee"),
            ID,
            label,
            "a move between KuCoin's own accounts that charges a fee is not read",
        ),
        Kind::Internal => ctx.skip(SkipReason::InternalMovement, 1),
        Kind::Earn => extra::earn_move(ctx, d, account, (currency, principal), !inflow, emit),
        Kind::Credit(ty) => {
            if !inflow {
                ctx.err(
                    line,
                    col("Side"),
                    "sign-mismatch",
                    format!("\"{label}\" rows must have the side Deposit"),
                );
                return;
            }
            let ty = if ty == SpotTxType::Deposit {
                transfer_type(currency, true)
            } else {
                ty
            };
            extra::credit(ctx, d, ty, (currency, principal), col("Currency"), emit);
        }
        Kind::Leg => {}
    }
}

/// One deposit or withdrawal of a deposit or withdrawal record: `Amount` moved, `Fee` on top.
fn movement(
    ctx: &mut Ctx,
    line: u64,
    (account, col, get): Cells<'_>,
    m: &Moves,
    instant: Option<Instant>,
) -> Vec<Draft> {
    let status = get("Status");
    // A row with a bad cell (its time) is invalid, whatever its status.
    let bad = ctx.invalid.contains(&line);
    match status.to_ascii_lowercase().as_str() {
        // The older records have no status: every row is final.
        "success" | "" => {}
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
    let inflow = match m.direction {
        Direction::File(inflow) => match get("Remarks").to_ascii_lowercase().as_str() {
            "deposit" => Some(true),
            "withdrawal" => Some(false),
            _ => Some(inflow),
        },
        Direction::Column(c) => match get(c).to_ascii_lowercase().as_str() {
            "deposit" => Some(true),
            "withdraw" | "withdrawal" => Some(false),
            other => {
                extra::unknown_type(ctx, line, col(c), ID, other);
                None
            }
        },
    };
    let coin = ctx.asset(line, col(m.coin), get(m.coin));
    let amount = ctx.dec(line, col(m.amount), get(m.amount), false);
    let fee = match get("Fee") {
        "" => Some(None),
        q => ctx.dec(line, col("Fee"), q, false).map(Some),
    };
    if ctx.invalid.contains(&line) {
        return Vec::new();
    }
    let (Some(inflow), Some(instant), Some(coin), Some(amount), Some(fee)) =
        (inflow, instant, coin, amount, fee)
    else {
        return Vec::new();
    };
    let label = if inflow { "deposit" } else { "withdrawal" };
    if !check_sign(
        ctx,
        line,
        col(m.amount),
        amount,
        true,
        (label, get(m.amount)),
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
    get(m.hash).clone_into(&mut d.source_ref);
    d.note = m
        .notes
        .iter()
        .map(|n| get(n))
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("; ");
    vec![d]
}
