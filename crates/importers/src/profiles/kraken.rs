//! Kraken "Ledgers" export (§2.1): one row per balance change; trades merged by `refid`.

use std::collections::{BTreeMap, HashSet};

use core_domain::{Asset, Instant};
use csv::ByteRecord;
use rust_decimal::Decimal;
use shared_types::SpotTxType;

use crate::model::{ImportOptions, Profile, SkipReason, Zone};
use crate::ops;
use crate::pipeline::{self, Ctx, Draft, GroupRef, KeyBase, ProfileOutput, ReadWhole, SEP};
use crate::reader::{self, Records};
use crate::values;

const COLUMNS: [&str; 13] = [
    "txid",
    "refid",
    "time",
    "type",
    "subtype",
    "aclass",
    "subclass",
    "asset",
    "wallet",
    "amount",
    "fee",
    "balance",
    "feecurrency",
];
const C_TXID: usize = 0;
const C_REFID: usize = 1;
const C_TIME: usize = 2;
const C_TYPE: usize = 3;
const C_SUBTYPE: usize = 4;
const C_ACLASS: usize = 5;
const C_SUBCLASS: usize = 6;
const C_ASSET: usize = 7;
const C_WALLET: usize = 8;
const C_AMOUNT: usize = 9;
const C_FEE: usize = 10;
const C_BALANCE: usize = 11;
const C_FEECUR: usize = 12;

/// Kraken asset code → cartera symbol: staking suffix removed, then the alias table (§2.1).
pub(crate) fn alias(code: &str) -> String {
    let upper = code.trim().to_ascii_uppercase();
    let mut base = upper.as_str();
    if let Some(dot) = base.rfind('.')
        && matches!(&base[dot + 1..], "S" | "M" | "B" | "F" | "P" | "HOLD")
    {
        base = &base[..dot];
        let b = base.as_bytes();
        if b.len() > 2 && b[b.len() - 1].is_ascii_digit() && b[b.len() - 2].is_ascii_digit() {
            base = &base[..b.len() - 2];
        }
    }
    match base {
        "XXBT" | "XBT" => "BTC",
        "XXDG" | "XDG" => "DOGE",
        "XETH" | "ETH2" => "ETH",
        "XETC" => "ETC",
        "XLTC" => "LTC",
        "XXLM" => "XLM",
        "XXMR" => "XMR",
        "XZEC" => "ZEC",
        "XREP" => "REP",
        "ZEUR" => "EUR",
        "ZUSD" => "USD",
        "ZGBP" => "GBP",
        "ZCAD" => "CAD",
        "ZJPY" => "JPY",
        "ZAUD" => "AUD",
        "XXRP" => "XRP",
        "XMLN" => "MLN",
        other => other,
    }
    .to_owned()
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Family {
    Trade,
    Instant,
    Delisting,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Class {
    Single,
    Group(Family),
    MoveLeg,
    EarnEmpty,
    FuturesMove,
    /// A label of the user's label map.
    Mapped(SpotTxType),
    Done,
}

#[derive(Clone)]
struct Row {
    line: u64,
    txid: String,
    refid: String,
    time_text: String,
    time: Option<Instant>,
    ty: String,
    subtype: String,
    asset_raw: String,
    asset: Option<Asset>,
    wallet: String,
    account: String,
    amount: Option<Decimal>,
    fee: Option<Decimal>,
    balance_text: String,
    balance: Option<Decimal>,
    class: Class,
    txid_col: Option<usize>,
}

impl Row {
    fn note(&self, reversal: bool) -> String {
        let mut parts = vec![if self.subtype.is_empty() {
            self.ty.clone()
        } else {
            format!("{} {}", self.ty, self.subtype)
        }];
        if !self.wallet.is_empty() {
            parts.push(format!("wallet {}", self.wallet));
        }
        if self.asset.is_some_and(|a| a.as_str() != self.asset_raw) {
            parts.push(format!("asset {}", self.asset_raw));
        }
        if reversal {
            parts.push("reversal".to_owned());
        }
        parts.join("; ")
    }

    fn draft(&self, account: &str, file_account: &str, ty: SpotTxType, key: KeyBase) -> Draft {
        let mut d = Draft::new(
            account.to_owned(),
            file_account,
            self.time.unwrap_or(Instant::from_unix_nanos(0)),
            ty,
            key,
            self.line,
        );
        d.source_ref.clone_from(&self.txid);
        d
    }

    fn txid_key(&self) -> KeyBase {
        KeyBase::Declared(
            format!("v1{SEP}kraken-ledgers{SEP}txid{SEP}{}", self.txid),
            self.txid_col,
        )
    }
}

fn unsupported(ctx: &mut Ctx, cols: &[Option<usize>], r: &Row, col: usize, reason: &str) {
    ctx.err(r.line, cols[col], "unsupported-type", format!(
        "kraken-ledgers type \"{}\" is not supported: {reason}; record it with the generic format",
        r.ty
    ));
}

#[allow(clippy::too_many_lines)] // One pass per stage of §2.1; splitting hides the flow.
pub(crate) fn read(
    ctx: &mut Ctx,
    records: &mut Records<'_>,
    account: &str,
    layout: &str,
    options: &ImportOptions,
) -> ProfileOutput {
    let (cols, has_wallet) = columns(ctx, layout);
    let mut rows: Vec<Row> = Vec::new();
    let mut txids: crate::values::FastMap<String, u64> = crate::values::FastMap::default();
    pipeline::for_rows(ctx, records, |ctx, line, rec| {
        if let Some(row) = parse_row(
            ctx,
            &cols,
            (has_wallet, options),
            account,
            &mut txids,
            line,
            rec,
        ) {
            rows.push(row);
        }
    });
    let mut drafts = Vec::new();
    singles(ctx, &cols, &rows, account, &mut drafts);
    trades(ctx, &cols, &rows, account, &mut drafts);
    moves(ctx, &cols, &rows, account, &mut drafts);
    balance_check(ctx, &cols, &rows);
    ProfileOutput {
        drafts,
        futures: Vec::new(),
    }
}

/// The columns, with a warning per column not read; whether rows name their wallet.
fn columns(ctx: &mut Ctx, layout: &str) -> (Vec<Option<usize>>, bool) {
    let (cols, unknown) = reader::resolve(&ctx.header, &COLUMNS);
    let mut warn_cols = unknown;
    if let Some(c) = cols[C_FEECUR] {
        warn_cols.push(c);
        warn_cols.sort_unstable();
    }
    pipeline::ignore_unknown(ctx, &warn_cols, Profile::KrakenLedgers);
    let has_wallet = !matches!(layout, "L10" | "L09") && cols[C_WALLET].is_some();
    (cols, has_wallet)
}

/// Reads one data row (`None`: a pending row without txid, skipped).
#[allow(clippy::too_many_lines)] // The column checks of §2.1 in their order.
fn parse_row(
    ctx: &mut Ctx,
    cols: &[Option<usize>],
    (has_wallet, options): (bool, &ImportOptions),
    account: &str,
    txids: &mut crate::values::FastMap<String, u64>,
    line: u64,
    rec: &ByteRecord,
) -> Option<Row> {
    let get = |c: usize| cols[c].map_or("", |i| reader::cell(rec, i));
    let txid = get(C_TXID);
    if txid.is_empty() {
        ctx.skip(SkipReason::Pending, 1);
        return None;
    }
    let time_text = get(C_TIME);
    let time = ctx.utc_stamp(
        line,
        cols[C_TIME],
        time_text,
        b" ",
        false,
        "YYYY-MM-DD HH:MM:SS[.f]",
        Zone::Utc,
    );
    let asset_raw = get(C_ASSET);
    let aliased = alias(asset_raw);
    let asset = if aliased == "KFEE" {
        None
    } else {
        ctx.asset(line, cols[C_ASSET], &aliased)
    };
    let amount = ctx.dec(line, cols[C_AMOUNT], get(C_AMOUNT), true);
    let fee = ctx.dec(line, cols[C_FEE], get(C_FEE), false);
    let balance_text = get(C_BALANCE);
    let balance = if balance_text.is_empty() {
        None
    } else {
        ctx.dec(line, cols[C_BALANCE], balance_text, true)
    };
    let wallet = if has_wallet {
        get(C_WALLET).to_owned()
    } else {
        String::new()
    };
    let row_account = if wallet.is_empty() {
        account.to_owned()
    } else {
        format!("{account}:{}", values::segment(&wallet))
    };
    let mut row = Row {
        line,
        txid: txid.to_owned(),
        refid: get(C_REFID).to_owned(),
        time_text: time_text.to_owned(),
        time,
        ty: get(C_TYPE).to_ascii_lowercase(),
        subtype: get(C_SUBTYPE).to_ascii_lowercase(),
        asset_raw: asset_raw.to_owned(),
        asset,
        wallet,
        account: row_account,
        amount,
        fee,
        balance_text: balance_text.to_owned(),
        balance,
        class: Class::Done,
        txid_col: cols[C_TXID],
    };
    if !ctx.first_sighting(txids, txid, txid, (line, cols[C_TXID])) {
        return Some(row);
    }
    if aliased == "KFEE" {
        ctx.skip(SkipReason::FeeCredit, 1);
        return Some(row);
    }
    let fee_cur = get(C_FEECUR);
    if !fee_cur.is_empty() && alias(fee_cur) != aliased {
        ctx.err(
            line,
            cols[C_FEECUR],
            "unsupported-fee-currency",
            format!(
                "fee currency {} differs from the row asset {aliased}",
                alias(fee_cur)
            ),
        );
    }
    let subclass = get(C_SUBCLASS);
    if let Some(a) = asset {
        let says_fiat = subclass.eq_ignore_ascii_case("fiat");
        let says_crypto = subclass.eq_ignore_ascii_case("crypto");
        if (says_fiat && !a.is_fiat()) || (says_crypto && a.is_fiat()) {
            ctx.warn(
                line,
                cols[C_SUBCLASS],
                "fiat-class-mismatch",
                format!("subclass \"{subclass}\" disagrees with cartera's classification of {a}"),
            );
        }
    }
    if ctx.invalid.contains(&line) {
        return Some(row);
    }
    let aclass = get(C_ACLASS);
    if !aclass.eq_ignore_ascii_case("currency") {
        unsupported(
            ctx,
            cols,
            &row,
            C_ACLASS,
            &format!("asset class \"{aclass}\" is not a currency"),
        );
        return Some(row);
    }
    // The label is spelled out only when there is a map to look it up in (a hot path).
    let mapped = if options.label_map.is_empty() {
        None
    } else if row.subtype.is_empty() {
        super::mapped(options, Profile::KrakenLedgers, &row.ty)
    } else {
        super::mapped(
            options,
            Profile::KrakenLedgers,
            &format!("{} {}", row.ty, row.subtype),
        )
    };
    row.class = match mapped {
        Some(ty) => Class::Mapped(ty),
        None => classify(ctx, cols, &row),
    };
    Some(row)
}

/// Reads a Kraken ledgers file in time order, oldest or newest first (as the first change of
/// time shows), handing drafts to `emit` as operations complete (not in insertion order: the
/// caller orders them). Singles and futures moves go out as they are read; a refid group
/// closes once another time is read; move legs and earn rows wait to the end of the file
/// (bounded by their count); the balance check keeps a [`Chain`] per (asset, wallet). A row
/// against the file's order, or a leg of a group already closed, stops the reading:
/// `Err(ReadWhole)`, the drafts sent are void.
pub(crate) fn read_into(
    ctx: &mut Ctx,
    records: &mut Records<'_>,
    account: &str,
    layout: &str,
    options: &ImportOptions,
    emit: &mut dyn FnMut(&mut Ctx, Draft),
) -> Result<(), ReadWhole> {
    let (cols, has_wallet) = columns(ctx, layout);
    let mut txids: crate::values::FastMap<String, u64> = crate::values::FastMap::default();
    // Open groups: valid legs in file order, then the group's invalid rows.
    let mut open: BTreeMap<String, (Vec<Row>, Vec<Row>)> = BTreeMap::new();
    // Invalid trade rows whose refid has no group yet (one may follow).
    let mut waiting: crate::values::FastMap<String, Vec<Row>> = crate::values::FastMap::default();
    let mut closed: HashSet<String> = HashSet::new();
    let mut held: Vec<Row> = Vec::new();
    let mut balances: crate::values::FastMap<(String, String), Chain> =
        crate::values::FastMap::default();
    let mut now: Option<Instant> = None;
    // Set at the first change of time: the file's order, which every later row must keep.
    let mut newest_first: Option<bool> = None;
    let mut whole = false;
    let mut drafts = Vec::new();
    let mut flush = |ctx: &mut Ctx, drafts: &mut Vec<Draft>| {
        for d in drafts.drain(..) {
            emit(ctx, d);
        }
    };
    pipeline::for_rows(ctx, records, |ctx, line, rec| {
        let Some(row) = parse_row(
            ctx,
            &cols,
            (has_wallet, options),
            account,
            &mut txids,
            line,
            rec,
        ) else {
            return;
        };
        if let Some(t) = row.time {
            if let Some(n) = now.filter(|n| t != *n) {
                if *newest_first.get_or_insert(t < n) != (t < n) {
                    whole = true;
                    ctx.stop = true;
                    return;
                }
                close(ctx, &cols, &mut open, &mut closed, account, &mut drafts);
            }
            now = Some(t);
        }
        if let (Some(t), Some(_), Some(_), Some(stated)) =
            (row.time, row.amount, row.fee, row.balance)
        {
            let key = (row.asset_raw.clone(), row.wallet.clone());
            if let Some(chain) = balances.get_mut(&key) {
                chain.step(ctx, &cols, newest_first, t, stated, &row);
            } else {
                balances.insert(key, Chain::new(newest_first, t, stated, &row));
            }
        }
        match row.class {
            Class::Single => single(ctx, &cols, &row, account, &mut drafts, None),
            Class::Mapped(ty) => single(ctx, &cols, &row, account, &mut drafts, Some(ty)),
            Class::FuturesMove => futures_move(ctx, &cols, &row, account, &mut drafts),
            Class::MoveLeg | Class::EarnEmpty => held.push(row),
            Class::Group(_) => {
                if closed.contains(&row.refid) {
                    whole = true;
                    ctx.stop = true;
                    return;
                }
                let waited = waiting.remove(&row.refid).unwrap_or_default();
                let group = open.entry(row.refid.clone()).or_default();
                group.1.extend(waited);
                group.0.push(row);
            }
            Class::Done => {
                if ctx.invalid.contains(&row.line)
                    && matches!(row.ty.as_str(), "trade" | "spend" | "receive")
                {
                    if closed.contains(&row.refid) {
                        whole = true;
                        ctx.stop = true;
                        return;
                    }
                    match open.get_mut(&row.refid) {
                        Some(group) => group.1.push(row),
                        None => waiting.entry(row.refid.clone()).or_default().push(row),
                    }
                }
            }
        }
        flush(ctx, &mut drafts);
    });
    if whole {
        return Err(ReadWhole);
    }
    close(ctx, &cols, &mut open, &mut closed, account, &mut drafts);
    moves(ctx, &cols, &held, account, &mut drafts);
    for chain in balances.into_values() {
        chain.end(ctx, &cols);
    }
    flush(ctx, &mut drafts);
    Ok(())
}

/// The balance check of one (asset as written, wallet) in a file read in one time order,
/// pairing each row with its predecessor in (time, line) order as [`balance_check`] does.
/// Oldest first that is the key's previous row. Newest first the rows of one time come in
/// line order, but the predecessor of a time's first row is the last row of the next time
/// read: that row is kept until the next time is complete.
struct Chain {
    time: Instant,
    /// The stated balance of the key's last row read.
    last: Decimal,
    /// Unless the file is oldest first: the first row of the current time.
    first: Option<Row>,
    /// Newest first: the first row of the previous (later) time, waiting for its predecessor.
    later: Option<Row>,
}

impl Chain {
    fn new(newest_first: Option<bool>, time: Instant, stated: Decimal, row: &Row) -> Self {
        Self {
            time,
            last: stated,
            first: (newest_first != Some(false)).then(|| row.clone()),
            later: None,
        }
    }

    fn step(
        &mut self,
        ctx: &mut Ctx,
        cols: &[Option<usize>],
        newest_first: Option<bool>,
        time: Instant,
        stated: Decimal,
        row: &Row,
    ) {
        if time < self.time {
            // Newest first, the current time is complete: its last row precedes `later`.
            if let Some(later) = self.later.take() {
                balance_step(ctx, cols, self.last, &later);
            }
            self.later = self.first.replace(row.clone());
        } else {
            balance_step(ctx, cols, self.last, row);
            if time > self.time && newest_first == Some(false) {
                self.first = None;
            }
        }
        self.time = time;
        self.last = stated;
    }

    /// Newest first, the last time read precedes the one before it.
    fn end(self, ctx: &mut Ctx, cols: &[Option<usize>]) {
        if let Some(later) = self.later {
            balance_step(ctx, cols, self.last, &later);
        }
    }
}

/// Books the open refid groups and remembers their refids.
fn close(
    ctx: &mut Ctx,
    cols: &[Option<usize>],
    open: &mut BTreeMap<String, (Vec<Row>, Vec<Row>)>,
    closed: &mut HashSet<String>,
    account: &str,
    drafts: &mut Vec<Draft>,
) {
    for (refid, (valid, invalid)) in std::mem::take(open) {
        let legs: Vec<&Row> = valid.iter().chain(&invalid).collect();
        trade_group(ctx, cols, &refid, &legs, account, drafts);
        closed.insert(refid);
    }
}

fn classify(ctx: &mut Ctx, cols: &[Option<usize>], r: &Row) -> Class {
    let sub = r.subtype.as_str();
    match (r.ty.as_str(), sub) {
        // `reward`: a ledger type of Kraken's API reference, credited like `staking` (D-162).
        ("deposit" | "withdrawal" | "staking" | "reward" | "invite bonus", _)
        | ("earn", "reward" | "airdrop")
        | ("transfer", "airdrop") => Class::Single,
        ("trade", _) => Class::Group(Family::Trade),
        ("spend" | "receive", _) => Class::Group(Family::Instant),
        ("transfer" | "earn", "delistingconversion") => Class::Group(Family::Delisting),
        ("earn", "allocation" | "deallocation" | "autoallocation" | "migration")
        | ("transfer", "spottostaking" | "stakingfromspot" | "stakingtospot" | "spotfromstaking") => {
            Class::MoveLeg
        }
        // A transfer without subtype is paired by refid like an earn row without subtype
        // (a staking move of the ledgers before `subtype`, D-98); alone it may be a fork or
        // an airdrop.
        ("earn" | "transfer", "") => Class::EarnEmpty,
        ("transfer", "spottofutures" | "spotfromfutures") => Class::FuturesMove,
        ("margin" | "rollover" | "settled", _) => {
            unsupported(ctx, cols, r, C_TYPE, "margin trading is not supported");
            Class::Done
        }
        (
            "adjustment" | "credit" | "dividend" | "sale" | "nfttrade" | "nftrebate"
            | "nftcreatorfee" | "custodytransfer",
            _,
        ) => {
            unsupported(
                ctx,
                cols,
                r,
                C_TYPE,
                "its fiscal nature cannot be read from the export",
            );
            Class::Done
        }
        ("earn" | "transfer", _) => {
            ctx.err(
                r.line,
                cols[C_SUBTYPE],
                "unknown-type",
                format!(
                    "unknown kraken-ledgers type \"{} {}\"{}",
                    r.ty,
                    r.subtype,
                    super::map_hint(Profile::KrakenLedgers, &format!("{} {}", r.ty, r.subtype))
                ),
            );
            Class::Done
        }
        _ => {
            ctx.err(
                r.line,
                cols[C_TYPE],
                "unknown-type",
                format!(
                    "unknown kraken-ledgers type \"{}\"{}",
                    r.ty,
                    super::map_hint(Profile::KrakenLedgers, &r.ty)
                ),
            );
            Class::Done
        }
    }
}

/// A row booked alone (deposits, withdrawals, income).
fn singles(
    ctx: &mut Ctx,
    cols: &[Option<usize>],
    rows: &[Row],
    account: &str,
    drafts: &mut Vec<Draft>,
) {
    for r in rows {
        match r.class {
            Class::Single => single(ctx, cols, r, account, drafts, None),
            Class::Mapped(ty) => single(ctx, cols, r, account, drafts, Some(ty)),
            _ => {}
        }
    }
}

fn single(
    ctx: &mut Ctx,
    cols: &[Option<usize>],
    r: &Row,
    account: &str,
    drafts: &mut Vec<Draft>,
    forced: Option<SpotTxType>,
) {
    let (Some(asset), Some(amount), Some(fee)) = (r.asset, r.amount, r.fee) else {
        return;
    };
    if amount.is_zero() {
        if fee.is_zero() {
            ctx.err(
                r.line,
                cols[C_AMOUNT],
                "not-positive",
                format!("\"{}\" must be greater than zero", reader_text(amount)),
            );
            return;
        }
        let mut d = r.draft(&r.account, account, SpotTxType::Fee, r.txid_key());
        d.outflow = Some(pipeline::amount(asset, fee));
        d.note = r.note(false);
        drafts.push(d);
        return;
    }
    let credit = amount.is_sign_positive();
    let fiat = asset.is_fiat();
    let (ty, reversal) = if let Some(t) = forced {
        (t, false)
    } else {
        match (r.ty.as_str(), credit) {
            ("deposit" | "withdrawal", _) => {
                let ty = match (credit, fiat) {
                    (true, true) => SpotTxType::Deposit,
                    (true, false) => SpotTxType::TransferIn,
                    (false, true) => SpotTxType::Withdrawal,
                    (false, false) => SpotTxType::TransferOut,
                };
                (ty, (r.ty == "deposit") != credit)
            }
            ("staking" | "reward" | "earn", true) if r.subtype != "airdrop" => (
                if fiat {
                    SpotTxType::Reward
                } else {
                    SpotTxType::Staking
                },
                false,
            ),
            ("earn" | "transfer", true) => (SpotTxType::Airdrop, false),
            ("invite bonus", true) => (SpotTxType::Promotion, false),
            _ => {
                unsupported(
                    ctx,
                    cols,
                    r,
                    C_TYPE,
                    "a negative amount has no meaning for this entry",
                );
                return;
            }
        }
    };
    let side = pipeline::amount(asset, amount.abs());
    let (inflow, outflow) = if credit {
        (Some(side), None)
    } else {
        (None, Some(side))
    };
    if !ctx.shape(
        r.line,
        (cols[C_ASSET], cols[C_ASSET]),
        ty,
        inflow.as_ref(),
        outflow.as_ref(),
    ) {
        return;
    }
    let mut d = r.draft(&r.account, account, ty, r.txid_key());
    d.inflow = inflow;
    d.outflow = outflow;
    d.fee = Some(pipeline::fee(asset, fee));
    d.note = r.note(reversal);
    drafts.push(d);
}

fn reader_text(d: Decimal) -> String {
    d.to_string()
}

/// Trade, instant-buy and delisting groups (§2.1 "Trades").
fn trades(
    ctx: &mut Ctx,
    cols: &[Option<usize>],
    rows: &[Row],
    account: &str,
    drafts: &mut Vec<Draft>,
) {
    let mut by_refid: BTreeMap<&str, Vec<&Row>> = BTreeMap::new();
    for r in rows.iter().filter(|r| matches!(r.class, Class::Group(_))) {
        by_refid.entry(r.refid.as_str()).or_default().push(r);
    }
    // Rows of a group family that failed parsing still belong to their refid.
    for r in rows
        .iter()
        .filter(|r| r.class == Class::Done && ctx.invalid.contains(&r.line))
    {
        if let Some(legs) = by_refid.get_mut(r.refid.as_str())
            && matches!(r.ty.as_str(), "trade" | "spend" | "receive")
        {
            legs.push(r);
        }
    }
    for (refid, legs) in by_refid {
        trade_group(ctx, cols, refid, &legs, account, drafts);
    }
}

/// One refid group of trade legs (valid legs in file order, then its invalid rows).
fn trade_group(
    ctx: &mut Ctx,
    cols: &[Option<usize>],
    refid: &str,
    legs: &[&Row],
    account: &str,
    drafts: &mut Vec<Draft>,
) {
    let key_text = format!("refid {refid}");
    let lines: Vec<u64> = legs.iter().map(|r| r.line).collect();
    if lines.iter().any(|l| ctx.invalid.contains(l)) {
        ctx.group_invalid(&lines, cols[C_REFID], &key_text);
        return;
    }
    let families: Vec<Class> = legs.iter().map(|r| r.class).collect();
    if families.iter().any(|f| *f != families[0]) {
        ctx.group_err(&lines, cols[C_REFID], "ambiguous-group", &format!("the rows of {key_text} cannot be split into operations without guessing: rows of different kinds share the refid"));
        return;
    }
    if legs.iter().any(|r| r.account != legs[0].account) {
        ctx.group_err(&lines, cols[C_REFID], "ambiguous-group", &format!("the rows of {key_text} cannot be split into operations without guessing: the legs are in two wallets"));
        return;
    }
    if legs.iter().any(|r| r.time != legs[0].time) {
        ctx.group_err(
            &lines,
            cols[C_REFID],
            "group-time-mismatch",
            &format!("the legs of {key_text} have different times"),
        );
        return;
    }
    let mut ins = BTreeMap::new();
    let mut outs = BTreeMap::new();
    let mut fees = BTreeMap::new();
    let mut ok = true;
    for r in legs {
        let (Some(a), Some(q), Some(f)) = (r.asset, r.amount, r.fee) else {
            return;
        };
        ok &= ops::sum_into(&mut fees, a, f);
        if q.is_sign_positive() && !q.is_zero() {
            ok &= ops::sum_into(&mut ins, a, q);
        } else if !q.is_zero() {
            ok &= ops::sum_into(&mut outs, a, q.abs());
        }
    }
    if !ok {
        ctx.group_err(
            &lines,
            cols[C_AMOUNT],
            "decimal-out-of-range",
            "the legs' sum overflows",
        );
        return;
    }
    // "Convert small balances" sweeps several coins into one under one refid, with one
    // credit for all of them: what each coin fetched is not stated (D-162).
    if outs.len() > 1
        && legs
            .iter()
            .all(|r| r.subtype.eq_ignore_ascii_case("dustsweeping"))
    {
        let names: Vec<&str> = outs.keys().map(Asset::as_str).collect();
        ctx.group_err(
            &lines,
            cols[C_REFID],
            "ambiguous-group",
            &format!(
                "{key_text} converts small balances of {} into one credit, and the ledger does not state what each coin fetched; record one SELL or SWAP per coin with the generic format (their received amounts adding up to the credit)",
                names.join(", ")
            ),
        );
        return;
    }
    let Some((inflow, outflow)) = ops::sides(ctx, &lines, cols[C_REFID], &key_text, &ins, &outs)
    else {
        return;
    };
    let first = legs[0];
    let mut base = first.draft(
        &first.account,
        account,
        SpotTxType::Swap,
        KeyBase::Declared(
            format!("v1{SEP}kraken-ledgers{SEP}refid{SEP}{refid}"),
            cols[C_REFID],
        ),
    );
    base.source_ref = legs
        .iter()
        .map(|r| r.txid.as_str())
        .collect::<Vec<_>>()
        .join("+");
    base.extra_lines = lines[1..].to_vec();
    base.note = first.note(false);
    match ops::exchange(&base, inflow, outflow, &fees, false, refid) {
        Some(ds) => drafts.extend(ds),
        None => ctx.skip(SkipReason::InternalMovement, lines.len() as u64),
    }
}

/// Sub-wallet moves: two-row legs, earn rows without subtype, and one-row futures moves.
#[allow(clippy::too_many_lines)] // Three move shapes of §2.1 and §1.17.
fn moves(
    ctx: &mut Ctx,
    cols: &[Option<usize>],
    rows: &[Row],
    account: &str,
    drafts: &mut Vec<Draft>,
) {
    let mut legs: BTreeMap<&str, Vec<&Row>> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.class == Class::MoveLeg) {
        legs.entry(r.refid.as_str()).or_default().push(r);
    }
    let mut earn: BTreeMap<(&str, &str, &str), Vec<&Row>> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.class == Class::EarnEmpty) {
        earn.entry((r.ty.as_str(), r.refid.as_str(), r.time_text.as_str()))
            .or_default()
            .push(r);
    }
    // Without a subtype column the type is the cell that decides.
    let c_sub = if cols[C_SUBTYPE].is_some() {
        C_SUBTYPE
    } else {
        C_TYPE
    };
    for group in earn.into_values() {
        let asset = group[0].asset;
        let sum = group.iter().try_fold(Decimal::ZERO, |acc, r| {
            r.amount.and_then(|a| acc.checked_add(a))
        });
        if group.len() >= 2
            && group.iter().all(|r| r.asset == asset)
            && sum.is_some_and(|s| s.is_zero())
        {
            legs.entry(group[0].refid.as_str())
                .or_default()
                .extend(group);
            continue;
        }
        for r in group {
            let credit = r
                .amount
                .is_some_and(|a| a.is_sign_positive() && !a.is_zero());
            if r.ty == "transfer" {
                unsupported(
                    ctx,
                    cols,
                    r,
                    c_sub,
                    "with an empty subtype it may be a fork or an airdrop",
                );
            } else if credit && r.wallet.to_ascii_lowercase().starts_with("earn") {
                let ty = if r.asset.is_some_and(|a| a.is_fiat()) {
                    SpotTxType::Reward
                } else {
                    SpotTxType::Staking
                };
                ctx.warn(
                    r.line,
                    cols[C_WALLET],
                    "classified-by-wallet",
                    format!(
                        "earn row without subtype in wallet \"{}\" read as {ty}",
                        r.wallet
                    ),
                );
                single(ctx, cols, r, account, drafts, Some(ty));
            } else {
                unsupported(
                    ctx,
                    cols,
                    r,
                    c_sub,
                    "an earn entry without subtype outside an earn wallet cannot be classified",
                );
            }
        }
    }
    for (refid, group) in legs {
        let fiat = group.iter().any(|r| r.asset.is_some_and(|a| a.is_fiat()));
        let same = group.len() >= 2 && group.iter().all(|r| r.account == group[0].account);
        if fiat || same || staking_in_place(&group) {
            ctx.skip(SkipReason::InternalMovement, group.len() as u64);
            continue;
        }
        for r in group {
            move_leg(ctx, cols, r, account, refid, drafts);
        }
    }
    for r in rows.iter().filter(|r| r.class == Class::FuturesMove) {
        futures_move(ctx, cols, r, account, drafts);
    }
}

/// Whether every row is a staking transfer (`spottostaking`, `stakingfromspot`, …) that
/// stays in its wallet: Kraken writes each side of such a move with its own refid, in the
/// wallet it names (`spot / main`, or none before the wallet column), and the staked asset
/// (`DOT.S`) is the same asset (D-98). Such a move changes no account whatever its pairing,
/// so each row is an internal movement; a row with a fee keeps the transfer reading.
fn staking_in_place(group: &[&Row]) -> bool {
    group.iter().all(|r| {
        r.ty == "transfer"
            && matches!(
                r.subtype.as_str(),
                "spottostaking" | "stakingfromspot" | "stakingtospot" | "spotfromstaking"
            )
            && !values::segment(&r.wallet).starts_with("earn")
            && r.fee.is_some_and(|f| f.is_zero())
    })
}

/// Whether a move's amount is zero, reported as `not-positive` on its amount cell: a move
/// of nothing is an error, its sign only gives the direction.
fn zero_amount(ctx: &mut Ctx, cols: &[Option<usize>], r: &Row, amount: Decimal) -> bool {
    if amount.is_zero() {
        ctx.err(
            r.line,
            cols[C_AMOUNT],
            "not-positive",
            format!("\"{amount}\" must be greater than zero"),
        );
    }
    amount.is_zero()
}

/// A one-row move between the spot wallet and the futures wallet (§1.17).
fn futures_move(
    ctx: &mut Ctx,
    cols: &[Option<usize>],
    r: &Row,
    account: &str,
    drafts: &mut Vec<Draft>,
) {
    let (Some(asset), Some(amount), Some(fee)) = (r.asset, r.amount, r.fee) else {
        return;
    };
    let futures = format!("{account}:futures");
    if asset.is_fiat() || r.account.eq_ignore_ascii_case(&futures) {
        ctx.skip(SkipReason::InternalMovement, 1);
        return;
    }
    if zero_amount(ctx, cols, r, amount) {
        return;
    }
    let (from, to) = if amount.is_sign_negative() {
        (r.account.clone(), futures)
    } else {
        (futures, r.account.clone())
    };
    let q = pipeline::amount(asset, amount.abs());
    let mut out = r.draft(&from, account, SpotTxType::TransferOut, r.txid_key());
    out.outflow = Some(q);
    out.fee = Some(pipeline::fee(asset, fee));
    out.group = GroupRef::Text(r.refid.clone());
    out.note = r.note(false);
    let mut inn = out.with_role("move-in".to_owned());
    inn.account = to;
    inn.ty = SpotTxType::TransferIn;
    inn.outflow = None;
    inn.inflow = Some(q);
    inn.fee = None;
    drafts.push(out);
    drafts.push(inn);
}

fn move_leg(
    ctx: &mut Ctx,
    cols: &[Option<usize>],
    r: &Row,
    account: &str,
    refid: &str,
    drafts: &mut Vec<Draft>,
) {
    let (Some(asset), Some(amount), Some(fee)) = (r.asset, r.amount, r.fee) else {
        return;
    };
    if zero_amount(ctx, cols, r, amount) {
        return;
    }
    let q = pipeline::amount(asset, amount.abs());
    let credit = amount.is_sign_positive();
    let mut d = r.draft(
        &r.account,
        account,
        if credit {
            SpotTxType::TransferIn
        } else {
            SpotTxType::TransferOut
        },
        r.txid_key(),
    );
    if credit {
        d.inflow = Some(q);
    } else {
        d.outflow = Some(q);
    }
    d.fee = Some(pipeline::fee(asset, fee));
    d.group = GroupRef::Text(refid.to_owned());
    d.note = r.note(false);
    drafts.push(d);
}

/// `balance = previous balance + amount − fee` per (asset as written, wallet) (§2.1).
fn balance_check(ctx: &mut Ctx, cols: &[Option<usize>], rows: &[Row]) {
    let mut keyed: BTreeMap<(&str, &str), Vec<&Row>> = BTreeMap::new();
    for r in rows {
        if r.time.is_some() && r.amount.is_some() && r.fee.is_some() && r.balance.is_some() {
            keyed
                .entry((r.asset_raw.as_str(), r.wallet.as_str()))
                .or_default()
                .push(r);
        }
    }
    for mut list in keyed.into_values() {
        list.sort_by_key(|r| (r.time, r.line));
        for pair in list.windows(2) {
            if let Some(prev) = pair[0].balance {
                balance_step(ctx, cols, prev, pair[1]);
            }
        }
    }
}

/// Warns when `cur`'s balance is not `prev + amount − fee`.
fn balance_step(ctx: &mut Ctx, cols: &[Option<usize>], prev: Decimal, cur: &Row) {
    let expected = cur
        .amount
        .and_then(|a| values::add(prev, a))
        .zip(cur.fee)
        .and_then(|(v, f)| values::sub(v, f));
    if let (Some(e), Some(stated)) = (expected, cur.balance)
        && e != stated
    {
        ctx.warn(
            cur.line,
            cols[C_BALANCE],
            "balance-mismatch",
            format!(
                "balance {} expected {}; rows may be missing from the export",
                cur.balance_text,
                values::norm(e)
            ),
        );
    }
}
