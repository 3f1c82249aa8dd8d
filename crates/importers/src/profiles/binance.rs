//! Binance transaction history statement (§2.3): one row per balance change; trades,
//! conversions and dust conversions merged by their group keys.
//!
//! Every group key holds the row's time, so the rows are booked one second at a time
//! ([`Book`]): a statement in time order streams ([`read_into`]), and the whole-file read
//! ([`read`]) books its rows sorted by time.

use std::collections::{BTreeMap, VecDeque};

use csv::ByteRecord;

use core_domain::{Asset, Instant};
use rust_decimal::Decimal;
use shared_types::SpotTxType;

use crate::model::{ImportOptions, Profile, SkipReason, Zone};
use crate::ops;
use crate::pipeline::{self, Ctx, Draft, GroupRef, KeyBase, ProfileOutput, ReadWhole};
use crate::reader::{self, Records};
use crate::values;

const COLUMNS: [&str; 9] = [
    "User_ID",
    "User ID",
    "UTC_Time",
    "Time",
    "Account",
    "Operation",
    "Coin",
    "Change",
    "Remark",
];
const C_UTC: usize = 2;
const C_TIME: usize = 3;
const C_ACCOUNT: usize = 4;
const C_OP: usize = 5;
const C_COIN: usize = 6;
const C_CHANGE: usize = 7;
const C_REMARK: usize = 8;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum TradeLeg {
    Buy,
    Sell,
    Related,
    Fee,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Op {
    Trade(TradeLeg),
    Convert(bool),
    Dust,
    Single(SpotTxType, bool),
    Move,
    /// A label of the user's label map.
    Mapped(SpotTxType),
}

fn op_of(label: &str) -> Result<Op, Option<&'static str>> {
    let l = label.to_ascii_lowercase();
    let op = match l.as_str() {
        "buy" | "transaction buy" | "transaction spend" => Op::Trade(TradeLeg::Buy),
        "sell" | "transaction sold" | "transaction revenue" => Op::Trade(TradeLeg::Sell),
        "transaction related" => Op::Trade(TradeLeg::Related),
        "fee" | "transaction fee" => Op::Trade(TradeLeg::Fee),
        "binance convert"
        | "large otc trading"
        | "auto-invest transaction"
        | "the easiest way to trade" => Op::Convert(false),
        "token swap - redenomination/rebranding" => Op::Convert(true),
        "small assets exchange bnb" => Op::Dust,
        "deposit" | "fiat deposit" => Op::Single(SpotTxType::Deposit, true),
        "withdraw" | "fiat withdraw" | "fiat withdrawal" => {
            Op::Single(SpotTxType::Withdrawal, false)
        }
        "staking rewards"
        | "pos savings interest"
        | "eth 2.0 staking rewards"
        | "simple earn locked rewards" => Op::Single(SpotTxType::Staking, true),
        "simple earn flexible interest"
        | "simple earn flexible - rewards income"
        | "savings interest"
        | "savings distribution"
        | "launchpool interest"
        | "launchpool earnings withdrawal"
        | "pool distribution"
        | "bnb vault rewards"
        | "dot slot auction rewards"
        | "liquid swap rewards"
        | "swap farming rewards"
        | "super bnb mining" => Op::Single(SpotTxType::Reward, true),
        "airdrop assets"
        | "launchpool airdrop"
        | "hodler airdrops distribution"
        | "megadrop rewards"
        | "simple earn flexible airdrop" => Op::Single(SpotTxType::Airdrop, true),
        "commission rebate"
        | "commission history"
        | "referral commission"
        | "referral kickback"
        | "referrer rebates"
        | "cash voucher distribution"
        | "campaign related reward"
        | "commission fee shared with you"
        | "mission reward distribution"
        | "binance card cashback"
        | "card cashback"
        | "cashback voucher" => Op::Single(SpotTxType::Promotion, true),
        "binance card spending" => Op::Single(SpotTxType::Spend, false),
        "transfer between main and funding wallet"
        | "main and funding account transfer"
        | "transfer funds to spot"
        | "transfer funds to funding wallet"
        | "transfer between spot account and um futures account"
        | "transfer between spot account and cm futures account"
        | "transfer between main account/futures and margin account"
        | "transfer_in"
        | "transfer_out"
        | "simple earn flexible subscription"
        | "simple earn flexible redemption"
        | "simple earn locked subscription"
        | "simple earn locked redemption"
        | "savings purchase"
        | "savings principal redemption"
        | "pos savings purchase"
        | "pos savings redemption"
        | "staking purchase"
        | "staking redemption"
        | "launchpool subscription/redemption" => Op::Move,
        _ => return Err(refusal(&l)),
    };
    Ok(op)
}

/// Why a label the statement is known to write is refused (`unsupported-type`); `None` for
/// a label cartera does not know.
fn refusal(label: &str) -> Option<&'static str> {
    match label {
        "distribution" | "token swap - distribution" => {
            Some("a fork and an airdrop cannot be told apart")
        }
        "liquid swap add"
        | "liquid swap add/sell"
        | "liquid swap remove"
        | "liquid swap sell"
        | "liquidity farming remove"
        | "swap farming transaction" => Some(
            "deposits into and withdrawals from a liquidity pool are not supported: the statement does not state the pool share received or given",
        ),
        "p2p trading" => Some(
            "the other side of a P2P trade was paid outside Binance and the statement does not state it",
        ),
        "send"
        | "buy crypto with card"
        | "bnb fee deduction"
        | "stablecoins auto-conversion"
        | "asset recovery"
        | "leveraged coin consolidation"
        | "crypto box"
        | "eth 2.0 staking" => Some("the statement does not state both sides of this operation"),
        _ => None,
    }
}

struct Row {
    line: u64,
    time_text: String,
    time: Instant,
    account_label: String,
    account: String,
    op_label: String,
    op: Op,
    coin: Asset,
    change: Decimal,
    remark: String,
}

/// A row that did not read: still a member of the group its key cells name (§1.12).
struct Bad {
    line: u64,
    account_label: String,
    time_text: String,
    op_label: String,
}

/// One data row as read: a valid row, or an invalid one with its time if that read.
enum Parsed {
    Row(Row),
    Bad(Bad, Option<Instant>),
}

impl Parsed {
    fn time(&self) -> Option<Instant> {
        match self {
            Self::Row(r) => Some(r.time),
            Self::Bad(_, t) => *t,
        }
    }
}

/// What every row of a file is read with.
struct Reading<'a> {
    cols: Vec<Option<usize>>,
    c_ts: usize,
    zone: Zone,
    account: &'a str,
    options: &'a ImportOptions,
}

impl<'a> Reading<'a> {
    /// The columns, with a warning per column not read, and the time column and zone.
    fn new(ctx: &mut Ctx, account: &'a str, layout: &str, options: &'a ImportOptions) -> Self {
        let (cols, unknown) = reader::resolve(&ctx.header, &COLUMNS);
        pipeline::ignore_unknown(ctx, &unknown, Profile::BinanceStatement);
        let (c_ts, zone) = if layout == "utc" {
            (C_UTC, Zone::Utc)
        } else {
            (C_TIME, options.timezone.unwrap_or(Zone::Utc))
        };
        Self {
            cols,
            c_ts,
            zone,
            account,
            options,
        }
    }

    /// Whether an account is read, and whether only its transfers are (futures and margin,
    /// or an account the user maps to `FUTURES`).
    fn account_kind(&self, label: &str) -> (bool, bool) {
        let lower = label.to_ascii_lowercase();
        let restricted = matches!(
            lower.as_str(),
            "usd-m futures"
                | "usdt-futures"
                | "usd-mfutures"
                | "coin-m futures"
                | "cross margin"
                | "crossmargin"
                | "isolated margin"
                | "margin"
        );
        if restricted
            || matches!(
                lower.as_str(),
                "spot" | "earn" | "funding" | "pool" | "savings" | "card"
            )
        {
            return (true, restricted);
        }
        // An account the user maps (the first entry naming it wins).
        match self
            .options
            .account_map
            .iter()
            .find(|m| m.account.eq_ignore_ascii_case(label.trim()))
        {
            Some(m) => (true, m.reading == shared_types::AccountReading::Futures),
            None => (false, false),
        }
    }

    /// Reads one data row, reporting its cell errors.
    fn parse(&self, ctx: &mut Ctx, line: u64, rec: &ByteRecord) -> Parsed {
        let cols = &self.cols;
        let get = |c: usize| cols[c].map_or("", |i| reader::cell(rec, i));
        let time_text = get(self.c_ts);
        let time = ctx.utc_stamp(
            line,
            cols[self.c_ts],
            time_text,
            b" ",
            true,
            "YYYY-MM-DD HH:MM:SS",
            self.zone,
        );
        let account_label = get(C_ACCOUNT);
        let (known, restricted) = self.account_kind(account_label);
        if !known {
            ctx.err(
                line,
                cols[C_ACCOUNT],
                "unknown-account",
                format!(
                    "unknown Binance account \"{account_label}\"; cartera reads Spot, Earn, Funding, Pool, Savings and Card (and the transfers of the futures and margin accounts); to read it, map it: cartera import --map 'binance:account:{}=WALLET' (all its operations, on an account of its own) or =FUTURES (only its transfers), or add the entry to the setting import.label_map",
                    account_label.replace('\'', "")
                ),
            );
        }
        let op_label = get(C_OP);
        let found = super::mapped(self.options, Profile::BinanceStatement, op_label)
            .map_or_else(|| op_of(op_label), |ty| Ok(Op::Mapped(ty)));
        let op = match found {
            found if restricted && found != Ok(Op::Move) => {
                ctx.err(line, cols[C_OP], "unsupported-type", format!("binance-statement type \"{op_label}\" is not supported: futures and margin are not supported; record it with the generic format"));
                None
            }
            Ok(op) => Some(op),
            Err(Some(reason)) => {
                ctx.err(line, cols[C_OP], "unsupported-type", format!("binance-statement type \"{op_label}\" is not supported: {reason}; record it with the generic format{}", super::map_hint(Profile::BinanceStatement, op_label)));
                None
            }
            Err(None) => {
                ctx.err(
                    line,
                    cols[C_OP],
                    "unknown-type",
                    format!(
                        "unknown binance-statement type \"{op_label}\"{}",
                        super::map_hint(Profile::BinanceStatement, op_label)
                    ),
                );
                None
            }
        };
        let coin = ctx.asset(line, cols[C_COIN], get(C_COIN));
        let change = super::dec_exp(ctx, line, cols[C_CHANGE], get(C_CHANGE), true);
        match (time, op, coin, change) {
            (Some(time), Some(op), Some(coin), Some(change)) if !ctx.invalid.contains(&line) => {
                Parsed::Row(Row {
                    line,
                    time_text: time_text.to_owned(),
                    time,
                    account_label: account_label.to_owned(),
                    account: format!("{}:{}", self.account, values::segment(account_label)),
                    op_label: op_label.to_owned(),
                    op,
                    coin,
                    change,
                    remark: get(C_REMARK).to_owned(),
                })
            }
            _ => Parsed::Bad(
                Bad {
                    line,
                    account_label: account_label.to_owned(),
                    time_text: time_text.to_owned(),
                    op_label: op_label.to_owned(),
                },
                time,
            ),
        }
    }
}

/// Reads a whole statement in any order: its rows, read, are booked in time order (stable,
/// so file order within a second), which forms the same groups as any order would.
pub(crate) fn read(
    ctx: &mut Ctx,
    records: &mut Records<'_>,
    account: &str,
    layout: &str,
    options: &ImportOptions,
) -> ProfileOutput {
    let reading = Reading::new(ctx, account, layout, options);
    let mut rows: Vec<Parsed> = Vec::new();
    pipeline::for_rows(ctx, records, |ctx, line, rec| {
        rows.push(reading.parse(ctx, line, rec));
    });
    rows.sort_by_key(Parsed::time);
    let mut book = Book::new(&reading);
    let mut drafts = Vec::new();
    for p in rows {
        // In time order, so never out of order.
        let _ = book.add(ctx, p, &mut drafts);
    }
    book.close(ctx, &mut drafts);
    ProfileOutput {
        drafts,
        futures: Vec::new(),
    }
}

/// Reads a statement in time order, handing each second's drafts to `emit` in insertion
/// order (first line, then the order booked) once a later time is read: every group of
/// §2.3 lies within one second. A row earlier than one before it stops the reading:
/// `Err(ReadWhole)`, the drafts sent are void.
pub(crate) fn read_into(
    ctx: &mut Ctx,
    records: &mut Records<'_>,
    account: &str,
    layout: &str,
    options: &ImportOptions,
    emit: &mut dyn FnMut(&mut Ctx, Draft),
) -> Result<(), ReadWhole> {
    let reading = Reading::new(ctx, account, layout, options);
    let mut book = Book::new(&reading);
    let mut drafts = Vec::new();
    let mut whole = false;
    pipeline::for_rows(ctx, records, |ctx, line, rec| {
        let parsed = reading.parse(ctx, line, rec);
        if book.add(ctx, parsed, &mut drafts).is_err() {
            whole = true;
            ctx.stop = true;
            return;
        }
        for d in drafts.drain(..) {
            emit(ctx, d);
        }
    });
    if whole {
        return Err(ReadWhole);
    }
    book.close(ctx, &mut drafts);
    for d in drafts {
        emit(ctx, d);
    }
    Ok(())
}

/// Rewards of the last two hours by (coin, amount), for `possible-duplicate-reward`.
#[derive(Default)]
struct Rewards {
    by_amount: BTreeMap<(Asset, Decimal), VecDeque<Reward>>,
    /// The same rewards in the order seen (time order), to forget them.
    seen: VecDeque<(Instant, Asset, Decimal)>,
}

struct Reward {
    line: u64,
    account_label: String,
    account: String,
}

/// How far apart two rewards may be to be reported as a possible duplicate.
const DUPLICATE_REWARD_NANOS: u64 = 7_200_000_000_000;

impl Rewards {
    /// Warns on `r` and on each earlier reward of its coin and amount from another account
    /// less than two hours before it. Rewards come in time order, so a row's warnings come
    /// in its partners' order.
    fn check(&mut self, ctx: &mut Ctx, col: Option<usize>, r: &Row) {
        while let Some(&(t, coin, q)) = self.seen.front() {
            if r.time.abs_diff_nanos(t) < DUPLICATE_REWARD_NANOS {
                break;
            }
            self.seen.pop_front();
            if let Some(list) = self.by_amount.get_mut(&(coin, q)) {
                list.pop_front();
                if list.is_empty() {
                    self.by_amount.remove(&(coin, q));
                }
            }
        }
        let list = self.by_amount.entry((r.coin, r.change)).or_default();
        for a in list.iter() {
            if a.account_label != r.account_label {
                ctx.warn(
                    a.line,
                    col,
                    "possible-duplicate-reward",
                    format!(
                        "same reward as line {} ({}); both were imported",
                        r.line, r.account
                    ),
                );
                ctx.warn(
                    r.line,
                    col,
                    "possible-duplicate-reward",
                    format!(
                        "same reward as line {} ({}); both were imported",
                        a.line, a.account
                    ),
                );
            }
        }
        list.push_back(Reward {
            line: r.line,
            account_label: r.account_label.clone(),
            account: r.account.clone(),
        });
        self.seen.push_back((r.time, r.coin, r.change));
    }
}

/// The rows of the current second, booked when a later time is read.
struct Book<'r, 'a> {
    reading: &'r Reading<'a>,
    now: Option<Instant>,
    /// Group legs (trades, conversions, dust, moves) of this second, in file order.
    legs: Vec<Row>,
    /// Invalid rows of this second.
    bad: Vec<Bad>,
    /// Drafts of this second's singles, booked as read.
    drafts: Vec<Draft>,
    rewards: Rewards,
}

impl<'r, 'a> Book<'r, 'a> {
    fn new(reading: &'r Reading<'a>) -> Self {
        Self {
            reading,
            now: None,
            legs: Vec::new(),
            bad: Vec::new(),
            drafts: Vec::new(),
            rewards: Rewards::default(),
        }
    }

    /// Takes one row: a later time first books this second into `out`; an earlier time is
    /// `Err(ReadWhole)`.
    fn add(
        &mut self,
        ctx: &mut Ctx,
        parsed: Parsed,
        out: &mut Vec<Draft>,
    ) -> Result<(), ReadWhole> {
        // A row without time joins no group: only its cell errors count.
        let Some(t) = parsed.time() else {
            return Ok(());
        };
        if self.now.is_some_and(|n| t < n) {
            return Err(ReadWhole);
        }
        if self.now.is_some_and(|n| t > n) {
            self.close(ctx, out);
        }
        self.now = Some(t);
        match parsed {
            Parsed::Bad(b, _) => self.bad.push(b),
            Parsed::Row(r) => match r.op {
                Op::Mapped(ty) => {
                    let out = super::is_out(ty);
                    let cols = &self.reading.cols;
                    single(
                        ctx,
                        cols[C_CHANGE],
                        &r,
                        ty,
                        !out,
                        self.reading.account,
                        &mut self.drafts,
                    );
                }
                Op::Single(ty, positive) => {
                    let cols = &self.reading.cols;
                    let account = self.reading.account;
                    if single(
                        ctx,
                        cols[C_CHANGE],
                        &r,
                        ty,
                        positive,
                        account,
                        &mut self.drafts,
                    ) && ty == SpotTxType::Reward
                    {
                        self.rewards.check(ctx, cols[C_OP], &r);
                    }
                }
                _ => self.legs.push(r),
            },
        }
        Ok(())
    }

    /// Books this second's groups and hands its drafts to `out` in insertion order.
    fn close(&mut self, ctx: &mut Ctx, out: &mut Vec<Draft>) {
        groups(ctx, self.reading, &self.legs, &self.bad, &mut self.drafts);
        self.legs.clear();
        self.bad.clear();
        // Drafts of one row or group keep their order; the sort is stable.
        self.drafts.sort_by_key(|d| d.line);
        out.append(&mut self.drafts);
    }
}

/// Books the trade, conversion, dust and move groups of rows of one second.
#[allow(clippy::too_many_lines)] // The groups of §2.3 in their order.
fn groups(
    ctx: &mut Ctx,
    reading: &Reading<'_>,
    rows: &[Row],
    bad: &[Bad],
    drafts: &mut Vec<Draft>,
) {
    let cols = &reading.cols;
    let account = reading.account;
    let col_op = cols[C_OP];
    // Invalid rows still belong to the group their key cells name (§1.12).
    let group_of_bad =
        |family: fn(Op) -> bool, acct: &str, time: &str, op_label: Option<&str>| -> Vec<u64> {
            bad.iter()
                .filter(|b| {
                    b.account_label == acct
                        && b.time_text == time
                        && op_of(&b.op_label).is_ok_and(family)
                        && op_label.is_none_or(|l| l.eq_ignore_ascii_case(&b.op_label))
                })
                .map(|b| b.line)
                .collect()
        };
    let mut trades: BTreeMap<(&str, &str), Vec<&Row>> = BTreeMap::new();
    let mut converts: BTreeMap<(&str, &str, String), Vec<&Row>> = BTreeMap::new();
    let mut dust: BTreeMap<(&str, &str), Vec<&Row>> = BTreeMap::new();
    let mut moves: BTreeMap<(&str, String, Asset), Vec<&Row>> = BTreeMap::new();
    for r in rows {
        match r.op {
            Op::Trade(_) => trades
                .entry((&r.account_label, &r.time_text))
                .or_default()
                .push(r),
            Op::Convert(_) => converts
                .entry((
                    &r.account_label,
                    &r.time_text,
                    r.op_label.to_ascii_lowercase(),
                ))
                .or_default()
                .push(r),
            Op::Dust => dust
                .entry((&r.account_label, &r.time_text))
                .or_default()
                .push(r),
            Op::Move => moves
                .entry((
                    &r.time_text,
                    r.op_label.to_ascii_lowercase(),
                    earn_base(r.coin),
                ))
                .or_default()
                .push(r),
            Op::Single(..) | Op::Mapped(_) => {}
        }
    }
    for ((acct, time), legs) in trades {
        let key_text = format!("{acct} {time}");
        let mut lines: Vec<u64> = legs.iter().map(|r| r.line).collect();
        let bad_lines = group_of_bad(|o| matches!(o, Op::Trade(_)), acct, time, None);
        if !bad_lines.is_empty() {
            lines.extend(bad_lines);
            ctx.group_invalid(&lines, col_op, &key_text);
            continue;
        }
        let has = |s: TradeLeg| legs.iter().any(|r| r.op == Op::Trade(s));
        if has(TradeLeg::Buy) && has(TradeLeg::Sell) {
            ctx.group_err(&lines, col_op, "ambiguous-group", &format!("the rows of {key_text} cannot be split into operations without guessing: buy-side and sell-side rows share the same second"));
            continue;
        }
        let (mut ins, mut outs, mut fees) = (BTreeMap::new(), BTreeMap::new(), BTreeMap::new());
        let mut ok = true;
        for r in &legs {
            if r.op == Op::Trade(TradeLeg::Fee) {
                if r.change.is_sign_positive() && !r.change.is_zero() {
                    ctx.err(
                        r.line,
                        cols[C_CHANGE],
                        "sign-mismatch",
                        format!("\"{}\" rows must have a negative amount", r.op_label),
                    );
                    ok = false;
                }
                ok &= ops::sum_into(&mut fees, r.coin, r.change.abs());
            } else if r.change.is_sign_positive() && !r.change.is_zero() {
                ok &= ops::sum_into(&mut ins, r.coin, r.change);
            } else if !r.change.is_zero() {
                ok &= ops::sum_into(&mut outs, r.coin, r.change.abs());
            }
        }
        if !ok {
            ctx.group_invalid(&lines, col_op, &key_text);
            continue;
        }
        let Some((i, o)) = ops::sides(ctx, &lines, col_op, &key_text, &ins, &outs) else {
            continue;
        };
        let base = base_draft(&legs, account);
        push_exchange(
            ctx,
            &base,
            i,
            o,
            &fees,
            false,
            &key_text,
            lines.len(),
            drafts,
        );
    }
    for ((acct, time, _), legs) in converts {
        let key_text = format!("{acct} {time} {}", legs[0].op_label);
        let mut lines: Vec<u64> = legs.iter().map(|r| r.line).collect();
        let bad_lines = group_of_bad(
            |o| matches!(o, Op::Convert(_)),
            acct,
            time,
            Some(&legs[0].op_label),
        );
        if !bad_lines.is_empty() {
            lines.extend(bad_lines);
            ctx.group_invalid(&lines, col_op, &key_text);
            continue;
        }
        let (mut ins, mut outs) = (BTreeMap::new(), BTreeMap::new());
        for r in &legs {
            if r.change.is_sign_positive() && !r.change.is_zero() {
                ops::sum_into(&mut ins, r.coin, r.change);
            } else if !r.change.is_zero() {
                ops::sum_into(&mut outs, r.coin, r.change.abs());
            }
        }
        let Some((i, o)) = ops::sides(ctx, &lines, col_op, &key_text, &ins, &outs) else {
            continue;
        };
        let base = base_draft(&legs, account);
        let migration = legs[0].op == Op::Convert(true);
        push_exchange(
            ctx,
            &base,
            i,
            o,
            &BTreeMap::new(),
            migration,
            &key_text,
            lines.len(),
            drafts,
        );
    }
    for ((acct, time), legs) in dust {
        let key_text = format!("{acct} {time}");
        let mut lines: Vec<u64> = legs.iter().map(|r| r.line).collect();
        let bad_lines = group_of_bad(|o| o == Op::Dust, acct, time, None);
        if !bad_lines.is_empty() {
            lines.extend(bad_lines);
            ctx.group_invalid(&lines, col_op, &key_text);
            continue;
        }
        dust_group(ctx, col_op, &key_text, &legs, &lines, account, drafts);
    }
    for ((_, _, base), legs) in moves {
        let lines: Vec<u64> = legs.iter().map(|r| r.line).collect();
        // An Earn receipt (`LDUSDT`) moved against its coin (`USDT`) is that coin.
        let receipt_and_coin =
            legs.iter().any(|r| r.coin == base) && legs.iter().any(|r| r.coin != base);
        let coin_of = |r: &Row| if receipt_and_coin { base } else { r.coin };
        let coin = coin_of(legs[0]);
        let same = legs.len() >= 2
            && legs.iter().all(|r| coin_of(r) == coin)
            && legs
                .iter()
                .all(|r| r.account.eq_ignore_ascii_case(&legs[0].account));
        if coin.is_fiat() || same {
            ctx.skip(SkipReason::InternalMovement, lines.len() as u64);
            continue;
        }
        for r in legs {
            if r.change.is_zero() {
                ctx.err(
                    r.line,
                    cols[C_CHANGE],
                    "not-positive",
                    format!("\"{}\" must be greater than zero", r.change),
                );
                continue;
            }
            let credit = r.change.is_sign_positive();
            let mut d = Draft::new(
                r.account.clone(),
                account,
                r.time,
                if credit {
                    SpotTxType::TransferIn
                } else {
                    SpotTxType::TransferOut
                },
                KeyBase::Content,
                r.line,
            );
            let side = Some(pipeline::amount(coin_of(r), r.change.abs()));
            if credit {
                d.inflow = side;
            } else {
                d.outflow = side;
            }
            d.group = GroupRef::Text(format!("{} {} {}", r.time, r.op_label, coin_of(r)));
            d.note = note(r);
            drafts.push(d);
        }
    }
}

/// The coin an Earn receipt stands for (`LDUSDT` → `USDT`, D-96); any other coin itself.
/// Used only to pair the legs of one move, so a coin that merely starts with `LD` (`LDO`)
/// keeps its own name unless its move also has a leg in the coin it would stand for.
fn earn_base(coin: Asset) -> Asset {
    coin.as_str()
        .strip_prefix("LD")
        .filter(|rest| !rest.is_empty())
        .and_then(values::asset)
        .unwrap_or(coin)
}

fn note(r: &Row) -> String {
    if r.remark.is_empty() {
        format!("{}; {}", r.op_label, r.account_label)
    } else {
        format!("{}; {}; {}", r.op_label, r.account_label, r.remark)
    }
}

fn base_draft(legs: &[&Row], account: &str) -> Draft {
    let first = legs[0];
    let mut d = Draft::new(
        first.account.clone(),
        account,
        first.time,
        SpotTxType::Swap,
        KeyBase::Content,
        first.line,
    );
    d.extra_lines = legs[1..].iter().map(|r| r.line).collect();
    d.note = note(first);
    d
}

#[allow(clippy::too_many_arguments)] // Thin adapter over ops::exchange.
fn push_exchange(
    ctx: &mut Ctx,
    base: &Draft,
    i: ops::Side,
    o: ops::Side,
    fees: &BTreeMap<Asset, Decimal>,
    migration: bool,
    key: &str,
    rows: usize,
    drafts: &mut Vec<Draft>,
) {
    match ops::exchange(base, i, o, fees, migration, key) {
        Some(ds) => drafts.extend(ds),
        None => ctx.skip(SkipReason::InternalMovement, rows as u64),
    }
}

fn single(
    ctx: &mut Ctx,
    col: Option<usize>,
    r: &Row,
    ty: SpotTxType,
    positive: bool,
    account: &str,
    drafts: &mut Vec<Draft>,
) -> bool {
    if r.change.is_zero() || r.change.is_sign_positive() != positive {
        let word = if positive { "positive" } else { "negative" };
        ctx.err(
            r.line,
            col,
            "sign-mismatch",
            format!("\"{}\" rows must have a {word} amount", r.op_label),
        );
        return false;
    }
    let ty = match ty {
        SpotTxType::Deposit if !r.coin.is_fiat() => SpotTxType::TransferIn,
        SpotTxType::Withdrawal if !r.coin.is_fiat() => SpotTxType::TransferOut,
        t => t,
    };
    let side = pipeline::amount(r.coin, r.change.abs());
    let (inflow, outflow) = if positive {
        (Some(side), None)
    } else {
        (None, Some(side))
    };
    if !ctx.shape(r.line, (col, col), ty, inflow.as_ref(), outflow.as_ref()) {
        return false;
    }
    let mut d = Draft::new(
        r.account.clone(),
        account,
        r.time,
        ty,
        KeyBase::Content,
        r.line,
    );
    d.inflow = inflow;
    d.outflow = outflow;
    d.note = note(r);
    drafts.push(d);
    true
}

fn dust_group(
    ctx: &mut Ctx,
    col: Option<usize>,
    key_text: &str,
    legs: &[&Row],
    lines: &[u64],
    account: &str,
    drafts: &mut Vec<Draft>,
) {
    let bnb = values::asset("BNB");
    let converted: Vec<&Row> = legs
        .iter()
        .copied()
        .filter(|r| r.change.is_sign_negative() && !r.change.is_zero())
        .collect();
    let credits: Vec<&Row> = legs
        .iter()
        .copied()
        .filter(|r| r.change.is_sign_positive() || r.change.is_zero())
        .collect();
    let ambiguous = |ctx: &mut Ctx, why: &str| {
        ctx.group_err(
            lines,
            col,
            "ambiguous-group",
            &format!(
                "the rows of {key_text} cannot be split into operations without guessing: {why}"
            ),
        );
    };
    if credits.iter().any(|r| Some(r.coin) != bnb) {
        return ambiguous(ctx, "a credited leg is not BNB");
    }
    let mut coins: BTreeMap<Asset, Vec<&Row>> = BTreeMap::new();
    for r in &converted {
        coins.entry(r.coin).or_default().push(r);
    }
    if coins.is_empty() || credits.is_empty() {
        let word = if coins.is_empty() { "out" } else { "in" };
        ctx.group_err(
            lines,
            col,
            "incomplete-group",
            &format!("operation {key_text} has no {word} leg"),
        );
        return;
    }
    let mut pairs: BTreeMap<Asset, Vec<&Row>> = BTreeMap::new();
    if coins.len() == 1 {
        let coin = *coins.keys().next().unwrap_or(&legs[0].coin);
        pairs.insert(coin, credits.clone());
    } else {
        for c in &credits {
            let named = coins
                .keys()
                .find(|coin| c.remark.eq_ignore_ascii_case(&format!("{coin} to BNB")));
            match named {
                Some(coin) => pairs.entry(*coin).or_default().push(c),
                None => {
                    return ambiguous(
                        ctx,
                        "several converted coins and BNB legs whose remarks do not name them",
                    );
                }
            }
        }
        if pairs.len() != coins.len() {
            return ambiguous(
                ctx,
                "several converted coins and BNB legs whose remarks do not name them",
            );
        }
    }
    for (coin, outs) in coins {
        let ins = pairs.remove(&coin).unwrap_or_default();
        let out_q = outs
            .iter()
            .try_fold(Decimal::ZERO, |a, r| a.checked_add(r.change.abs()));
        let in_q = ins
            .iter()
            .try_fold(Decimal::ZERO, |a, r| a.checked_add(r.change));
        let (Some(out_q), Some(in_q), Some(bnb)) = (out_q, in_q, bnb) else {
            continue;
        };
        let mut all: Vec<&Row> = outs.iter().chain(ins.iter()).copied().collect();
        all.sort_by_key(|r| r.line);
        let mut d = base_draft(&all, account);
        d.ty = SpotTxType::Swap;
        d.inflow = Some(pipeline::amount(bnb, in_q));
        d.outflow = Some(pipeline::amount(coin, out_q));
        drafts.push(d);
    }
}
