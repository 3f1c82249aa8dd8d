//! Binance transaction history statement (§2.3): one row per balance change; trades,
//! conversions and dust conversions merged by their group keys.

use std::collections::BTreeMap;

use core_domain::{Asset, Instant};
use rust_decimal::Decimal;
use shared_types::SpotTxType;

use crate::model::{ImportOptions, Profile, SkipReason, Zone};
use crate::ops;
use crate::pipeline::{self, Ctx, Draft, GroupRef, KeyBase, ProfileOutput};
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
}

fn op_of(label: &str) -> Result<Op, Option<&'static str>> {
    let l = label.to_ascii_lowercase();
    let op = match l.as_str() {
        "buy" | "transaction buy" | "transaction spend" => Op::Trade(TradeLeg::Buy),
        "sell" | "transaction sold" | "transaction revenue" => Op::Trade(TradeLeg::Sell),
        "transaction related" => Op::Trade(TradeLeg::Related),
        "fee" | "transaction fee" => Op::Trade(TradeLeg::Fee),
        "binance convert" | "large otc trading" => Op::Convert(false),
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
        | "bnb vault rewards" => Op::Single(SpotTxType::Reward, true),
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
        | "binance card cashback" => Op::Single(SpotTxType::Promotion, true),
        "binance card spending" => Op::Single(SpotTxType::Spend, false),
        "transfer between main and funding wallet"
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
        "distribution" => return Err(Some("a fork and an airdrop cannot be told apart")),
        "send"
        | "buy crypto with card"
        | "bnb fee deduction"
        | "stablecoins auto-conversion"
        | "asset recovery"
        | "leveraged coin consolidation"
        | "crypto box"
        | "eth 2.0 staking" => {
            return Err(Some(
                "the statement does not state both sides of this operation",
            ));
        }
        _ => return Err(None),
    };
    Ok(op)
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

#[allow(clippy::too_many_lines)] // The row pass of §2.3.
pub(crate) fn read(
    ctx: &mut Ctx,
    records: &mut Records<'_>,
    account: &str,
    layout: &str,
    options: &ImportOptions,
) -> ProfileOutput {
    let (cols, unknown) = reader::resolve(&ctx.header, &COLUMNS);
    pipeline::ignore_unknown(ctx, &unknown, Profile::BinanceStatement);
    let (c_ts, zone) = if layout == "utc" {
        (C_UTC, Zone::Utc)
    } else {
        (C_TIME, options.timezone.unwrap_or(Zone::Utc))
    };
    let mut rows: Vec<Row> = Vec::new();
    let mut bad: Vec<(u64, String, String, String)> = Vec::new();
    pipeline::for_rows(ctx, records, |ctx, line, rec| {
        let get = |c: usize| cols[c].map_or("", |i| reader::cell(rec, i));
        let time_text = get(c_ts);
        let time = ctx.utc_stamp(
            line,
            cols[c_ts],
            time_text,
            b" ",
            true,
            "YYYY-MM-DD HH:MM:SS",
            zone,
        );
        let account_label = get(C_ACCOUNT);
        let lower = account_label.to_ascii_lowercase();
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
        let known = restricted
            || matches!(
                lower.as_str(),
                "spot" | "earn" | "funding" | "pool" | "savings"
            );
        if !known {
            ctx.err(
                line,
                cols[C_ACCOUNT],
                "unknown-account",
                format!("unknown Binance account \"{account_label}\""),
            );
        }
        let op_label = get(C_OP);
        let op = match op_of(op_label) {
            found if restricted && found != Ok(Op::Move) => {
                ctx.err(line, cols[C_OP], "unsupported-type", format!("binance-statement type \"{op_label}\" is not supported: futures and margin are not supported; record it with the generic format"));
                None
            }
            Ok(op) => Some(op),
            Err(Some(reason)) => {
                ctx.err(line, cols[C_OP], "unsupported-type", format!("binance-statement type \"{op_label}\" is not supported: {reason}; record it with the generic format"));
                None
            }
            Err(None) => {
                ctx.err(
                    line,
                    cols[C_OP],
                    "unknown-type",
                    format!("unknown binance-statement type \"{op_label}\""),
                );
                None
            }
        };
        let coin = ctx.asset(line, cols[C_COIN], get(C_COIN));
        let change = ctx.dec(line, cols[C_CHANGE], get(C_CHANGE), true);
        match (time, op, coin, change) {
            (Some(time), Some(op), Some(coin), Some(change)) if !ctx.invalid.contains(&line) => {
                rows.push(Row {
                    line,
                    time_text: time_text.to_owned(),
                    time,
                    account_label: account_label.to_owned(),
                    account: format!("{account}:{}", values::segment(account_label)),
                    op_label: op_label.to_owned(),
                    op,
                    coin,
                    change,
                    remark: get(C_REMARK).to_owned(),
                });
            }
            _ => bad.push((
                line,
                account_label.to_owned(),
                time_text.to_owned(),
                op_label.to_owned(),
            )),
        }
    });
    let mut drafts = Vec::new();
    let col_op = cols[C_OP];
    // Invalid rows still belong to the group their key cells name (§1.12).
    let group_of_bad =
        |family: fn(Op) -> bool, acct: &str, time: &str, op_label: Option<&str>| -> Vec<u64> {
            bad.iter()
                .filter(|(_, a, t, o)| {
                    a == acct
                        && t == time
                        && op_of(o).is_ok_and(family)
                        && op_label.is_none_or(|l| l.eq_ignore_ascii_case(o))
                })
                .map(|b| b.0)
                .collect()
        };
    // Trade groups.
    let mut trades: BTreeMap<(&str, &str), Vec<&Row>> = BTreeMap::new();
    let mut converts: BTreeMap<(&str, &str, String), Vec<&Row>> = BTreeMap::new();
    let mut dust: BTreeMap<(&str, &str), Vec<&Row>> = BTreeMap::new();
    let mut moves: BTreeMap<(&str, String, Asset), Vec<&Row>> = BTreeMap::new();
    let mut rewards: Vec<(&Row, Decimal)> = Vec::new();
    for r in &rows {
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
                .entry((&r.time_text, r.op_label.to_ascii_lowercase(), r.coin))
                .or_default()
                .push(r),
            Op::Single(ty, positive) => {
                if single(ctx, cols[C_CHANGE], r, ty, positive, account, &mut drafts)
                    && ty == SpotTxType::Reward
                {
                    rewards.push((r, r.change));
                }
            }
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
            &mut drafts,
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
            &mut drafts,
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
        dust_group(ctx, col_op, &key_text, &legs, &lines, account, &mut drafts);
    }
    for ((_, _, coin), legs) in moves {
        let lines: Vec<u64> = legs.iter().map(|r| r.line).collect();
        let same = legs.len() >= 2
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
            let side = Some(pipeline::amount(r.coin, r.change.abs()));
            if credit {
                d.inflow = side;
            } else {
                d.outflow = side;
            }
            d.group = GroupRef::Text(format!("{} {} {}", r.time, r.op_label, r.coin));
            d.note = note(r);
            drafts.push(d);
        }
    }
    // Rewards of the same coin and amount on two sub-accounts less than two hours apart.
    rewards.sort_by_key(|(r, q)| (r.coin, *q, r.time));
    for (i, (a, qa)) in rewards.iter().enumerate() {
        for (b, qb) in &rewards[i + 1..] {
            if b.coin != a.coin || qb != qa {
                break;
            }
            if b.account_label != a.account_label
                && b.time.abs_diff_nanos(a.time) < 7_200_000_000_000
            {
                ctx.warn(
                    a.line,
                    col_op,
                    "possible-duplicate-reward",
                    format!(
                        "same reward as line {} ({}); both were imported",
                        b.line, b.account
                    ),
                );
                ctx.warn(
                    b.line,
                    col_op,
                    "possible-duplicate-reward",
                    format!(
                        "same reward as line {} ({}); both were imported",
                        a.line, a.account
                    ),
                );
            }
        }
    }
    ProfileOutput {
        drafts,
        futures: Vec::new(),
    }
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
