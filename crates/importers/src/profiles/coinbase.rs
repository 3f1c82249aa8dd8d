//! Coinbase transaction history (§2.4): one row per operation, money cells with currency
//! signs, the counter-asset of trades read from `Notes`.

use core_domain::Asset;
use core_domain::ledger::StatedAmount;
use rust_decimal::Decimal;
use shared_types::SpotTxType;

use crate::model::{ImportOptions, Profile, SkipReason, Zone};
use crate::pipeline::{self, Ctx, Draft, GroupRef, KeyBase, ProfileOutput, SEP};
use crate::reader::{self, Records};
use crate::values::{self, NumError};

const COLUMNS: [&str; 18] = [
    "ID",
    "Timestamp",
    "Transaction Type",
    "Asset",
    "Quantity Transacted",
    "Price Currency",
    "Price at Transaction",
    "Subtotal",
    "Total (inclusive of fees and/or spread)",
    "Fees and/or Spread",
    "Notes",
    "Sender Address",
    "Recipient Address",
    "Spot Price Currency",
    "Spot Price at Transaction",
    "Total (inclusive of fees)",
    "Fees",
    "",
];
const C_ID: usize = 0;
const C_TS: usize = 1;
const C_TYPE: usize = 2;
const C_ASSET: usize = 3;
const C_QTY: usize = 4;
const C_CUR: usize = 5;
const C_PRICE: usize = 6;
const C_TOTAL: usize = 8;
const C_FEE: usize = 9;
const C_NOTES: usize = 10;
const C_SENDER: usize = 11;
const C_RECIPIENT: usize = 12;

/// The money columns of the 2020–mid-2021 report, whose names carry the currency
/// (`EUR Spot Price at Transaction`, `EUR Subtotal`, `EUR Total (inclusive of fees)`,
/// `EUR Fees`), in that order after the code.
const NAMED: [&str; 4] = [
    "Spot Price at Transaction",
    "Subtotal",
    "Total (inclusive of fees)",
    "Fees",
];

/// The currency of a header of the 2020–mid-2021 report (layout `v1`): the plain columns
/// of every report and the four [`NAMED`] columns, each prefixed with one same three-letter
/// code.
pub(crate) fn currency_named(cells: &[String]) -> Option<String> {
    let plain = [
        "Timestamp",
        "Transaction Type",
        "Asset",
        "Quantity Transacted",
        "Notes",
    ];
    if !plain
        .iter()
        .all(|p| cells.iter().any(|c| c.eq_ignore_ascii_case(p)))
    {
        return None;
    }
    let code_of = |name: &str| {
        cells.iter().find_map(|c| {
            let (code, rest) = c.split_once(' ')?;
            (code.len() == 3
                && code.bytes().all(|b| b.is_ascii_uppercase())
                && rest.eq_ignore_ascii_case(name))
            .then(|| code.to_owned())
        })
    };
    let code = code_of(NAMED[0])?;
    NAMED[1..]
        .iter()
        .all(|n| code_of(n).as_deref() == Some(code.as_str()))
        .then_some(code)
}

/// Parses a money cell: sign, optional `[A-Z]{0,3}[$€£¥]` prefix, digits with optional comma
/// thousands groups, optional fraction.
pub(crate) fn money(text: &str) -> Result<Decimal, NumError> {
    let mut s = text;
    let mut negative = false;
    let mut signed = false;
    if let Some(rest) = s.strip_prefix('-') {
        (s, negative, signed) = (rest, true, true);
    } else if let Some(rest) = s.strip_prefix('+') {
        (s, signed) = (rest, true);
    }
    let letters = s.bytes().take(3).take_while(u8::is_ascii_uppercase).count();
    if let Some(c) = s[letters..].chars().next()
        && matches!(c, '$' | '€' | '£' | '¥')
    {
        s = &s[letters + c.len_utf8()..];
    }
    if !signed {
        if let Some(rest) = s.strip_prefix('-') {
            (s, negative) = (rest, true);
        } else if let Some(rest) = s.strip_prefix('+') {
            s = rest;
        }
    }
    let plain = ungroup(s).ok_or(NumError::Bad)?;
    let v = values::parse_decimal(&plain)?;
    Ok(if negative { -v } else { v })
}

/// `1,234,567.89` → `1234567.89`; plain numbers pass through; `None` for bad grouping.
fn ungroup(s: &str) -> Option<String> {
    let (int, frac) = s.split_once('.').map_or((s, None), |(i, f)| (i, Some(f)));
    if !int.contains(',') {
        return Some(s.to_owned());
    }
    let groups: Vec<&str> = int.split(',').collect();
    let ok =
        !groups[0].is_empty() && groups[0].len() <= 3 && groups[1..].iter().all(|g| g.len() == 3);
    if !ok || !groups.iter().all(|g| g.bytes().all(|b| b.is_ascii_digit())) {
        return None;
    }
    let mut out = groups.concat();
    if let Some(f) = frac {
        out.push('.');
        out.push_str(f);
    }
    Some(out)
}

fn number(word: &str) -> Option<Decimal> {
    values::parse_decimal(&ungroup(word)?).ok()
}

/// A number of `Notes` written in a decimal-comma locale: `0,01006655`, `1.234,5`.
fn number_comma(word: &str) -> Option<Decimal> {
    let (int, frac) = word
        .split_once(',')
        .map_or((word, None), |(i, f)| (i, Some(f)));
    let mut plain = if int.contains('.') {
        let groups: Vec<&str> = int.split('.').collect();
        let ok = !groups[0].is_empty()
            && groups[0].len() <= 3
            && groups[1..].iter().all(|g| g.len() == 3);
        if !ok {
            return None;
        }
        groups.concat()
    } else {
        int.to_owned()
    };
    if let Some(f) = frac {
        plain.push('.');
        plain.push_str(f);
    }
    values::parse_decimal(&plain).ok()
}

/// How the numbers of one `Notes` cell are written: settled by its first number, which must
/// be the row's quantity (D-99), never guessed from the digits alone.
#[derive(Clone, Copy)]
enum Locale {
    Point,
    Comma,
}

impl Locale {
    /// The reading of `word` that equals `qty`, point first; `None` when neither does.
    fn settle(word: &str, qty: Decimal) -> Option<(Self, Decimal)> {
        match (number(word), number_comma(word)) {
            (Some(n), _) if n == qty => Some((Self::Point, n)),
            (_, Some(n)) if n == qty => Some((Self::Comma, n)),
            _ => None,
        }
    }

    fn read(self, word: &str) -> Option<Decimal> {
        match self {
            Self::Point => number(word),
            Self::Comma => number_comma(word),
        }
    }
}

/// A symbol of `Notes`, with the profile's alias (`ETH2` is `ETH`).
fn symbol(word: &str) -> Option<Asset> {
    if word == "ETH2" {
        return Asset::new("ETH").ok();
    }
    if word.is_empty()
        || word.len() > 20
        || !word
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
    {
        return None;
    }
    Asset::new(word).ok()
}

fn strip_sign(word: &str) -> &str {
    word.trim_start_matches(['$', '€', '£', '¥'])
}

/// `(Bought|Sold) N S for PN S …` → (N, S, Y, counter). The amount after `for` may carry
/// its currency sign before or after it, joined or apart (`€300.00`, `€ 300.00`,
/// `100,00 €`), and the numbers follow the locale of N (`qty` settles it).
fn simple(notes: &str, qty: Decimal) -> Option<(Decimal, Asset, Decimal, Asset)> {
    let w: Vec<&str> = notes.split(' ').filter(|t| !t.is_empty()).collect();
    if w.len() < 6 || !matches!(w[0], "Bought" | "Sold") || w[3] != "for" {
        return None;
    }
    let (locale, n) = Locale::settle(w[1], qty).or_else(|| Some((Locale::Point, number(w[1])?)))?;
    let mut rest = w[4..].iter().copied().filter(|t| !is_sign(t));
    let y = locale.read(strip_sign(rest.next()?).trim_end_matches(['$', '€', '£', '¥']))?;
    Some((n, symbol(w[2])?, y, symbol(rest.next()?)?))
}

fn is_sign(word: &str) -> bool {
    matches!(word, "$" | "€" | "£" | "¥")
}

/// `(Bought|Sold) N S for PN Q on B-Q at R Q/B` → (N, S, Y, Q, R).
#[allow(clippy::many_single_char_names)] // N, S, Y, Q, R as in the notes grammar.
fn advanced(notes: &str) -> Option<(Decimal, Asset, Decimal, Asset, Decimal)> {
    let w: Vec<&str> = notes.split(' ').collect();
    if w.len() != 11
        || !matches!(w[0], "Bought" | "Sold")
        || w[3] != "for"
        || w[6] != "on"
        || w[8] != "at"
    {
        return None;
    }
    let (n, s, y, q, r) = (
        number(w[1])?,
        symbol(w[2])?,
        number(strip_sign(w[4]))?,
        symbol(w[5])?,
        number(w[9])?,
    );
    let pair_ok = w[7] == format!("{s}-{q}") && w[10] == format!("{q}/{s}");
    pair_ok.then_some((n, s, y, q, r))
}

/// `Converted N S to N T` → (N, S, N2, T), both numbers in the locale of N (`qty`
/// settles it).
fn convert(notes: &str, qty: Decimal) -> Option<(Decimal, Asset, Decimal, Asset)> {
    let w: Vec<&str> = notes.split(' ').collect();
    if w.len() != 6 || w[0] != "Converted" || w[3] != "to" {
        return None;
    }
    let (locale, n) = Locale::settle(w[1], qty).or_else(|| Some((Locale::Point, number(w[1])?)))?;
    Some((n, symbol(w[2])?, locale.read(w[4])?, symbol(w[5])?))
}

/// `Converted N S to N2 T` read from either side: the locale settled by the number that
/// equals `qty` (the row's own side), `N` first. → (N, S, N2, T).
fn convert_either(notes: &str, qty: Decimal) -> Option<(Decimal, Asset, Decimal, Asset)> {
    let w: Vec<&str> = notes.split(' ').collect();
    if w.len() != 6 || w[0] != "Converted" || w[3] != "to" {
        return None;
    }
    let locale = Locale::settle(w[1], qty)
        .or_else(|| Locale::settle(w[4], qty))
        .map_or(Locale::Point, |(l, _)| l);
    Some((
        locale.read(w[1])?,
        symbol(w[2])?,
        locale.read(w[4])?,
        symbol(w[5])?,
    ))
}

/// One row of a `Convert` in a report whose quantities are signed (v4, v4-no-id). Reports
/// since 2025 write a convert as two rows at one instant, one per asset (the same `Notes`
/// on both, or none), where the earlier ones wrote one row; each row waits for the next to
/// see whether it is half of such a pair (D-164).
struct ConvertLeg {
    draft: Draft,
    asset: Asset,
    qty: Decimal,
    out: bool,
    id: String,
    notes: String,
    total: Option<Decimal>,
    fee: Option<Decimal>,
    cur: Asset,
    total_col: Option<usize>,
    type_col: Option<usize>,
    stamp: String,
}

impl ConvertLeg {
    /// Whether `next` is the other row of this convert: same instant, other side, and the
    /// same notes or none on either.
    fn pairs(&self, next: &Self) -> bool {
        self.draft.timestamp == next.draft.timestamp
            && self.out != next.out
            && (self.notes == next.notes || self.notes.is_empty() || next.notes.is_empty())
    }

    /// The other side the notes state (`Converted 0.002 BTC to 0.0631 ETH` on the BTC row:
    /// 0.0631 ETH in); `None` when the notes are empty.
    fn other_side(&self) -> Option<(Asset, Decimal)> {
        let (n, s, n2, t) = convert_either(&self.notes, self.qty)?;
        Some(if self.out { (t, n2) } else { (s, n) })
    }
}

/// Books a convert from its out and in sides: a `SWAP` (a `BUY`/`SELL` when one side is
/// fiat) with the rows' fees (fiat, in the price currency) and, for a `SWAP`, the value
/// `Total − fees` of the out row (as the one-row convert of §2.4); the same asset on both
/// sides (ETH → ETH2) is no exchange: a `FEE` when a fee was charged, else `None`.
fn book_convert(
    ctx: &mut Ctx,
    mut d: Draft,
    (out_asset, out_qty): (Asset, Decimal),
    (in_asset, in_qty): (Asset, Decimal),
    fee: Option<Decimal>,
    (total, total_col, cur): (Option<Decimal>, Option<usize>, Asset),
) -> Option<Draft> {
    let f = fee.unwrap_or(Decimal::ZERO);
    if out_asset == in_asset {
        if f.is_zero() {
            let rows = 1 + u64::try_from(d.extra_lines.len()).unwrap_or(0);
            ctx.skip(SkipReason::InternalMovement, rows);
            return None;
        }
        d.ty = SpotTxType::Fee;
        d.outflow = Some(pipeline::amount(cur, f));
        return Some(d);
    }
    d.outflow = Some(pipeline::amount(out_asset, out_qty));
    d.inflow = Some(pipeline::amount(in_asset, in_qty));
    d.fee = fee.map(|q| pipeline::fee(cur, q));
    d.ty = if out_asset.is_fiat() {
        SpotTxType::Buy
    } else if in_asset.is_fiat() {
        SpotTxType::Sell
    } else {
        let Some(tot) = total else {
            ctx.err(
                d.line,
                total_col,
                "missing-value",
                "a value is required here".to_owned(),
            );
            return None;
        };
        d.fiat_value = values::sub(tot, f).map(|amount| StatedAmount {
            amount,
            currency: cur,
        });
        SpotTxType::Swap
    };
    Some(d)
}

/// A convert row left without its other half: booked from its notes, or, with none,
/// `incomplete-group` telling the user to download the report for all assets.
fn convert_alone(ctx: &mut Ctx, leg: ConvertLeg) -> Option<Draft> {
    let Some(other) = leg.other_side() else {
        let missing = if leg.out { "in" } else { "out" };
        ctx.err(
            leg.draft.line,
            leg.type_col,
            "incomplete-group",
            format!(
                "operation Convert {} has no {missing} leg: the report holds only the {} side of this convert; download the report for all assets (not one asset) and import that file",
                leg.stamp, leg.asset
            ),
        );
        return None;
    };
    let own = (leg.asset, leg.qty);
    let (out_side, in_side) = if leg.out { (own, other) } else { (other, own) };
    book_convert(
        ctx,
        leg.draft,
        out_side,
        in_side,
        leg.fee,
        (leg.total, leg.total_col, leg.cur),
    )
}

/// The ids of an operation written as two rows, `first+second` (one when they share it).
fn source_ref(first: &str, second: &str) -> String {
    let mut ids = vec![first];
    if second != first {
        ids.push(second);
    }
    ids.retain(|i| !i.is_empty());
    ids.join("+")
}

/// `<label> 800 MATIC to 800 POL`: the note of an operation written as two rows.
fn two_legs_note(
    label: &str,
    (out_asset, out_qty): (Asset, Decimal),
    (in_asset, in_qty): (Asset, Decimal),
) -> String {
    format!(
        "{label} {} {out_asset} to {} {in_asset}",
        values::norm(out_qty),
        values::norm(in_qty)
    )
}

/// The two rows of one convert as one transaction, keyed by the first row.
fn convert_pair(ctx: &mut Ctx, first: &ConvertLeg, second: &ConvertLeg) -> Option<Draft> {
    let (out_leg, in_leg) = if first.out {
        (first, second)
    } else {
        (second, first)
    };
    let fee = match (first.fee, second.fee) {
        (None, None) => None,
        (a, b) => values::add(a.unwrap_or_default(), b.unwrap_or_default()),
    };
    let mut d = first.draft.clone();
    d.extra_lines = vec![second.draft.line];
    d.source_ref = source_ref(&first.id, &second.id);
    if d.note.is_empty() {
        d.note = two_legs_note(
            "Convert",
            (out_leg.asset, out_leg.qty),
            (in_leg.asset, in_leg.qty),
        );
    }
    book_convert(
        ctx,
        d,
        (out_leg.asset, out_leg.qty),
        (in_leg.asset, in_leg.qty),
        fee,
        (out_leg.total, out_leg.total_col, out_leg.cur),
    )
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Trade {
        buy: bool,
        advanced: bool,
    },
    Convert,
    In,
    Out,
    Income(Option<SpotTxType>),
    Spend,
    Move(&'static str, &'static str),
    Deprecation,
    Migration,
    /// A label of the user's label map.
    Mapped(SpotTxType),
}

/// One leg of an `Asset Migration` (`MATIC −800`), waiting for the other leg, which the
/// report writes on the next row with the same timestamp (`POL +800`).
struct MigrationLeg {
    draft: Draft,
    asset: Asset,
    qty: Decimal,
    out: bool,
    id: String,
    col: Option<usize>,
    stamp: String,
}

impl MigrationLeg {
    /// A leg left without its partner: the other asset is missing from the file, which
    /// happens when the report was downloaded for one asset only.
    fn lost(self, ctx: &mut Ctx) {
        let missing = if self.out { "in" } else { "out" };
        ctx.err(
            self.draft.line,
            self.col,
            "incomplete-group",
            format!(
                "operation Asset Migration {} has no {missing} leg: the report holds only the {} side of this token migration; download the report for all assets (not one asset) and import that file",
                self.stamp, self.asset
            ),
        );
    }
}

fn kind(label: &str) -> Result<Kind, Option<&'static str>> {
    Ok(match label.to_ascii_lowercase().as_str() {
        "buy" => Kind::Trade {
            buy: true,
            advanced: false,
        },
        "advanced trade buy" | "advance trade buy" => Kind::Trade {
            buy: true,
            advanced: true,
        },
        "sell" | "retail simple dust" => Kind::Trade {
            buy: false,
            advanced: false,
        },
        "advanced trade sell" | "advance trade sell" => Kind::Trade {
            buy: false,
            advanced: true,
        },
        "convert" => Kind::Convert,
        "deposit" | "receive" | "pro withdrawal" | "exchange withdrawal" => Kind::In,
        "withdrawal" | "send" | "pro deposit" | "exchange deposit" | "prime deposit" => Kind::Out,
        "staking income" | "inflation reward" => Kind::Income(None),
        "rewards income" | "reward income" | "interest payout" => {
            Kind::Income(Some(SpotTxType::Reward))
        }
        // `Incentives Rewards Payout` pays Coinbase's incentive and referral campaigns;
        // `Retail Simple Price Improvement` credits part of a simple trade's spread back
        // as its own row (D-160).
        "learning reward"
        | "coinbase earn"
        | "subscription rebate"
        | "subscription rebates (24 hours)"
        | "incentives rewards payout"
        | "retail simple price improvement" => Kind::Income(Some(SpotTxType::Promotion)),
        "card spend" => Kind::Spend,
        "retail staking transfer" => Kind::Move("", "staking"),
        "retail unstaking transfer" => Kind::Move("staking", ""),
        "cash to savings" => Kind::Move("", "savings"),
        "savings to cash" => Kind::Move("savings", ""),
        "vault withdrawal" => Kind::Move("vault", ""),
        "retail eth2 deprecation" => Kind::Deprecation,
        "asset migration" => Kind::Migration,
        "credit"
        | "admin debit"
        | "donation"
        | "subscription"
        | "transfer"
        | "retail mgx dex buy"
        | "retail mgx dex send" => {
            return Err(Some(
                "the report does not state its fiscal nature or both of its sides",
            ));
        }
        _ => return Err(None),
    })
}

/// A `Receive` whose notes say the coins came from a Coinbase programme (`Received 5 XLM
/// from Coinbase Earn`, `… Coinbase Rewards`, `… Coinbase Referral`): reports before the
/// programme labels existed wrote these credits as receives; they are Coinbase's
/// promotion, not coins arriving from the user's own wallet (D-160).
fn programme_receive(kind: Kind, label: &str, notes: &str) -> Kind {
    const PROGRAMMES: [&str; 3] = ["Coinbase Earn", "Coinbase Rewards", "Coinbase Referral"];
    if kind == Kind::In
        && label.eq_ignore_ascii_case("receive")
        && PROGRAMMES.iter().any(|p| notes.contains(p))
    {
        Kind::Income(Some(SpotTxType::Promotion))
    } else {
        kind
    }
}

/// Reads the rows into drafts (the whole-file path).
pub(crate) fn read(
    ctx: &mut Ctx,
    records: &mut Records<'_>,
    account: &str,
    layout: &str,
    options: &ImportOptions,
) -> ProfileOutput {
    let mut drafts = Vec::new();
    read_into(ctx, records, account, layout, options, &mut |_, d| {
        drafts.push(d);
    });
    ProfileOutput {
        drafts,
        futures: Vec::new(),
    }
}

/// Reads the rows, handing each draft to `emit` in file order: one per row, a sub-wallet
/// move's `TRANSFER_IN` (role `move-in`) right after its `TRANSFER_OUT`.
#[allow(clippy::too_many_lines)] // The amount table of §2.4 in one place.
#[allow(clippy::many_single_char_names)] // d, f, s mirror the spec's table (F, Tot, Y).
pub(crate) fn read_into(
    ctx: &mut Ctx,
    records: &mut Records<'_>,
    account: &str,
    layout: &str,
    options: &ImportOptions,
    emit: &mut dyn FnMut(&mut Ctx, Draft),
) {
    let (mut cols, unknown) = reader::resolve(&ctx.header, &COLUMNS[..17]);
    if layout != "v4" && layout != "v4-no-id" {
        cols[C_CUR] = cols[13];
        cols[C_PRICE] = cols[14];
    }
    if layout != "v4" {
        cols[C_ID] = None;
    }
    if layout == "v2" {
        cols[C_TOTAL] = cols[15];
        cols[C_FEE] = cols[16];
    }
    // The 2020–mid-2021 report names its currency in the money columns' names.
    let named_cur = if layout == "v1" {
        let code = currency_named(&ctx.header.cells).unwrap_or_default();
        let find = |name: &str| {
            ctx.header
                .cells
                .iter()
                .position(|c| c.eq_ignore_ascii_case(&format!("{code} {name}")))
        };
        cols[C_PRICE] = find(NAMED[0]);
        cols[7] = find(NAMED[1]);
        cols[C_TOTAL] = find(NAMED[2]);
        cols[C_FEE] = find(NAMED[3]);
        values::asset(&code)
    } else {
        None
    };
    // Columns of other layouts present in the header are not read either.
    let mut ignored: Vec<usize> = unknown
        .into_iter()
        .filter(|i| !cols.contains(&Some(*i)))
        .collect();
    let read_cols: Vec<usize> = cols[..13].iter().flatten().copied().collect();
    for (i, c) in ctx.header.cells.iter().enumerate() {
        if !c.is_empty() && !read_cols.contains(&i) && !ignored.contains(&i) {
            ignored.push(i);
        }
    }
    ignored.sort_unstable();
    pipeline::ignore_unknown(ctx, &ignored, Profile::Coinbase);
    let v4 = layout == "v4";
    // Quantities carry their sign from v4 on (outflows negative).
    let signed = v4 || layout == "v4-no-id";
    let mut ids: crate::values::FastMap<String, u64> = crate::values::FastMap::default();
    let mut held: Option<MigrationLeg> = None;
    let mut held_convert: Option<ConvertLeg> = None;
    // A `Send` of ETH2 or a `Receive` of ETH, waiting for the other half of the ETH2 → ETH
    // switch that the report writes as such a pair at one instant (D-99).
    let mut held_eth2: Option<(Draft, bool, Decimal)> = None;
    let flush_eth2 = |ctx: &mut Ctx,
                      held_eth2: &mut Option<(Draft, bool, Decimal)>,
                      emit: &mut dyn FnMut(&mut Ctx, Draft)| {
        if let Some((d, _, _)) = held_eth2.take() {
            emit(ctx, d);
        }
    };
    pipeline::for_rows(ctx, records, |ctx, line, rec| {
        let get = |c: usize| cols[c].map_or("", |i| reader::cell(rec, i));
        let s = |c: usize| cols[c];
        let label = get(C_TYPE);
        let found = super::mapped(options, Profile::Coinbase, label).map_or_else(
            || kind(label).map(|k| programme_receive(k, label, get(C_NOTES))),
            |ty| Ok(Kind::Mapped(ty)),
        );
        let kind = match found {
            Ok(k) => Some(k),
            Err(Some(reason)) => {
                ctx.err(line, s(C_TYPE), "unsupported-type", format!("coinbase type \"{label}\" is not supported: {reason}; record it with the generic format{}", super::map_hint(Profile::Coinbase, label)));
                None
            }
            Err(None) => {
                ctx.err(
                    line,
                    s(C_TYPE),
                    "unknown-type",
                    format!(
                        "unknown coinbase type \"{label}\"{}",
                        super::map_hint(Profile::Coinbase, label)
                    ),
                );
                None
            }
        };
        let ts = get(C_TS);
        let (sep, form): (&[u8], &str) = if v4 {
            (b" ", "YYYY-MM-DD HH:MM:SS UTC")
        } else {
            (b"T", "YYYY-MM-DDTHH:MM:SSZ")
        };
        // Reports of every generation have been seen with either UTC form (D-99).
        let other_sep: &[u8] = if v4 { b"T" } else { b" " };
        let stamp = values::parse_stamp(ts, sep, false, true)
            .or_else(|| values::parse_stamp(ts, other_sep, false, true));
        let instant = match stamp {
            Some(st)
                if st.zone == Some(Zone::Utc) && (ts.ends_with(" UTC") || ts.ends_with('Z')) =>
            {
                ctx.place(line, s(C_TS), st.local, Zone::Utc)
            }
            _ => {
                ctx.err(
                    line,
                    s(C_TS),
                    "bad-timestamp",
                    format!("\"{ts}\" is not a timestamp of the form {form}"),
                );
                None
            }
        };
        let asset_text = get(C_ASSET);
        let asset = ctx.asset(
            line,
            s(C_ASSET),
            if asset_text.eq_ignore_ascii_case("ETH2") {
                "ETH"
            } else {
                asset_text
            },
        );
        let signed_qty = ctx.dec(line, s(C_QTY), get(C_QTY), true);
        let qty = signed_qty.map(|q| q.abs());
        let cur_text = get(C_CUR);
        let cur = match named_cur {
            Some(c) => Some(c),
            None => ctx.asset(line, s(C_CUR), cur_text),
        };
        if let Some(c) = cur
            && !c.is_fiat()
        {
            ctx.err(line, s(C_CUR), "fiat-expected", format!("{c} is not fiat"));
        }
        let money_cell = |ctx: &mut Ctx, c: usize| -> Result<Option<Decimal>, ()> {
            let t = get(c);
            if t.is_empty() {
                return Ok(None);
            }
            match money(t) {
                Ok(v) => Ok(Some(v.abs())),
                Err(NumError::Bad) => {
                    ctx.err(
                        line,
                        s(c),
                        "bad-decimal",
                        format!("\"{t}\" is not a plain decimal number"),
                    );
                    Err(())
                }
                Err(NumError::Range) => {
                    ctx.err(
                        line,
                        s(c),
                        "decimal-out-of-range",
                        values::out_of_range_reason(t),
                    );
                    Err(())
                }
            }
        };
        let _price = money_cell(ctx, C_PRICE);
        let total = money_cell(ctx, C_TOTAL);
        let fee = money_cell(ctx, C_FEE);
        check_fee(ctx, line, s(C_FEE), get(C_FEE), cur);
        let notes = get(C_NOTES);
        if ctx.invalid.contains(&line) {
            return;
        }
        let (Some(kind), Some(instant), Some(asset), Some(qty), Some(cur), Ok(total), Ok(fee)) =
            (kind, instant, asset, qty, cur, total, fee)
        else {
            return;
        };
        if kind == Kind::Deprecation {
            return ctx.skip(SkipReason::InternalMovement, 1);
        }
        if qty.is_zero() {
            ctx.err(
                line,
                s(C_QTY),
                "not-positive",
                format!("\"{}\" must be greater than zero", get(C_QTY)),
            );
            return;
        }
        let key = if v4 {
            let id = get(C_ID);
            let key = format!("v1{SEP}coinbase{SEP}id{SEP}{id}");
            // The two rows of one convert may share their ID (D-164).
            let twin = kind == Kind::Convert && held_convert.as_ref().is_some_and(|h| h.id == id);
            if let Some(first) = ids.get(&key).filter(|_| !twin) {
                ctx.err(
                    line,
                    s(C_ID),
                    "duplicate-id",
                    format!("id \"{id}\" already appears on line {first}"),
                );
                return;
            }
            ids.insert(key.clone(), line);
            KeyBase::Declared(key, s(C_ID))
        } else {
            KeyBase::Content
        };
        let f = fee.unwrap_or(Decimal::ZERO);
        let fee_pair = fee.map(|q| pipeline::fee(cur, q));
        let mut d = Draft::new(
            account.to_owned(),
            account,
            instant,
            SpotTxType::Buy,
            key,
            line,
        );
        get(C_ID).clone_into(&mut d.source_ref);
        let mut note = notes.to_owned();
        for c in [C_SENDER, C_RECIPIENT] {
            let t = get(c);
            if !t.is_empty() {
                if !note.is_empty() {
                    note.push_str("; ");
                }
                note.push_str(t);
            }
        }
        d.note = note;
        // A convert row of a signed report waits for its possible other half (D-164).
        let convert_leg = kind == Kind::Convert
            && signed
            && (notes.is_empty()
                || convert_either(notes, qty).is_some_and(|(n, s, n2, t)| {
                    (n == qty && s == asset) || (n2 == qty && t == asset)
                }));
        let leg = convert_leg.then(|| ConvertLeg {
            draft: d.clone(),
            asset,
            qty,
            out: signed_qty.is_some_and(|q| q.is_sign_negative()),
            id: get(C_ID).to_owned(),
            notes: notes.to_owned(),
            total,
            fee,
            cur,
            total_col: s(C_TOTAL),
            type_col: s(C_TYPE),
            stamp: ts.to_owned(),
        });
        if let Some(first) = held_convert.take() {
            if let Some(second) = leg.as_ref().filter(|l| first.pairs(l)) {
                if let Some(pair) = convert_pair(ctx, &first, second) {
                    flush_eth2(ctx, &mut held_eth2, emit);
                    emit(ctx, pair);
                }
                return;
            }
            if let Some(alone) = convert_alone(ctx, first) {
                flush_eth2(ctx, &mut held_eth2, emit);
                emit(ctx, alone);
            }
        }
        if let Some(leg) = leg {
            if let Some(lone) = held.take() {
                lone.lost(ctx);
            }
            held_convert = Some(leg);
            return;
        }
        if kind == Kind::Migration {
            if !signed {
                ctx.err(line, s(C_TYPE), "unsupported-type", format!("coinbase type \"{label}\" is not supported: this report generation does not say which asset left; record it with the generic format"));
                return;
            }
            let leg = MigrationLeg {
                draft: d,
                asset,
                qty,
                out: signed_qty.is_some_and(|q| q.is_sign_negative()),
                id: get(C_ID).to_owned(),
                col: s(C_TYPE),
                stamp: ts.to_owned(),
            };
            match held.take() {
                Some(first)
                    if first.draft.timestamp == leg.draft.timestamp
                        && first.out != leg.out
                        && first.asset != leg.asset =>
                {
                    let (out_leg, in_leg) = if first.out {
                        (&first, &leg)
                    } else {
                        (&leg, &first)
                    };
                    let mut m = first.draft.clone();
                    m.ty = SpotTxType::MigrationSwap;
                    m.outflow = Some(pipeline::amount(out_leg.asset, out_leg.qty));
                    m.inflow = Some(pipeline::amount(in_leg.asset, in_leg.qty));
                    m.fee = None;
                    m.extra_lines = vec![leg.draft.line];
                    m.source_ref = source_ref(&first.id, &leg.id);
                    m.note = two_legs_note(
                        "Asset Migration",
                        (out_leg.asset, out_leg.qty),
                        (in_leg.asset, in_leg.qty),
                    );
                    flush_eth2(ctx, &mut held_eth2, emit);
                    emit(ctx, m);
                }
                other => {
                    if let Some(lone) = other {
                        lone.lost(ctx);
                    }
                    held = Some(leg);
                }
            }
            return;
        }
        if let Some(lone) = held.take() {
            lone.lost(ctx);
        }
        let need_total = |ctx: &mut Ctx| -> Option<Decimal> {
            if total.is_none() {
                ctx.err(
                    line,
                    s(C_TOTAL),
                    "missing-value",
                    "a value is required here".to_owned(),
                );
            }
            total
        };
        let mismatch = |ctx: &mut Ctx, n: Decimal, sym: Asset| -> bool {
            if n != qty || sym != asset {
                ctx.err(
                    line,
                    s(C_NOTES),
                    "notes-mismatch",
                    format!(
                        "Notes say {} {sym}, the row says {} {asset}",
                        values::norm(n),
                        values::norm(qty)
                    ),
                );
                return false;
            }
            true
        };
        let own = pipeline::amount(asset, qty);
        let mut extra: Option<Draft> = None;
        match kind {
            Kind::Trade { buy, advanced: adv } => {
                let adv_form = if adv { advanced(notes) } else { None };
                if adv && adv_form.is_none() && !options.assume_fiat_quote {
                    ctx.err(line, s(C_NOTES), "quote-unknown", format!("Notes do not name the quote asset of this advanced trade; pass --assume-fiat-quote if it was traded against {cur}"));
                    return;
                }
                let Some(tot) = need_total(ctx) else { return };
                let (counter, y, rate) = if let Some((n, sym, y, q, r)) = adv_form {
                    if !mismatch(ctx, n, sym) {
                        return;
                    }
                    (q, Some(y), Some(r))
                } else if let Some((n, sym, y, c)) = simple(notes, qty) {
                    if !mismatch(ctx, n, sym) {
                        return;
                    }
                    (c, Some(y), None)
                } else {
                    (cur, None, None)
                };
                let swap = !counter.is_fiat();
                d.ty = match (buy, swap) {
                    (_, true) => SpotTxType::Swap,
                    (true, false) => SpotTxType::Buy,
                    (false, false) => SpotTxType::Sell,
                };
                let other = if counter == cur {
                    if y.is_some_and(|y| y != tot) {
                        ctx.warn(
                            line,
                            s(C_TOTAL),
                            "total-mismatch",
                            format!(
                                "price × amount ± fee gives {}, the file states {}",
                                values::norm(y.unwrap_or_default()),
                                get(C_TOTAL)
                            ),
                        );
                    }
                    d.fee = fee_pair;
                    let v = if buy {
                        if f > tot {
                            ctx.err(
                                line,
                                s(C_FEE),
                                "fee-exceeds-amount",
                                format!(
                                    "the fee {} is larger than the amount {} that includes it",
                                    values::norm(f),
                                    values::norm(tot)
                                ),
                            );
                            return;
                        }
                        values::sub(tot, f)
                    } else {
                        values::add(tot, f)
                    };
                    let Some(v) = v else { return };
                    v
                } else if let Some(r) = rate {
                    let Some(principal) = values::mul(qty, r) else {
                        return;
                    };
                    let Some(diff) = y.and_then(|y| values::sub(y, principal)) else {
                        return;
                    };
                    d.fee = Some(pipeline::fee(counter, diff.abs()));
                    if swap {
                        let v = if buy {
                            values::sub(tot, f)
                        } else {
                            values::add(tot, f)
                        };
                        d.fiat_value = v.map(|amount| StatedAmount {
                            amount,
                            currency: cur,
                        });
                    }
                    principal
                } else {
                    if swap {
                        d.fiat_value = Some(StatedAmount {
                            amount: tot,
                            currency: cur,
                        });
                    }
                    y.unwrap_or(tot)
                };
                if other.is_zero() {
                    ctx.err(
                        line,
                        s(C_TOTAL),
                        "not-positive",
                        format!("\"{}\" must be greater than zero", get(C_TOTAL)),
                    );
                    return;
                }
                let other = pipeline::amount(counter, other);
                if buy {
                    d.inflow = Some(own);
                    d.outflow = Some(other);
                } else {
                    d.inflow = Some(other);
                    d.outflow = Some(own);
                }
            }
            Kind::Convert => {
                let Some((n, sym, n2, t)) = convert(notes, qty) else {
                    ctx.err(
                        line,
                        s(C_NOTES),
                        "notes-mismatch",
                        format!(
                            "Notes say \"{notes}\", the row says {} {asset}",
                            values::norm(qty)
                        ),
                    );
                    return;
                };
                if !mismatch(ctx, n, sym) {
                    return;
                }
                if t == asset {
                    // ETH → ETH2 is ETH on both sides (§1.6): no exchange; a fee is a FEE.
                    if f.is_zero() {
                        return ctx.skip(SkipReason::InternalMovement, 1);
                    }
                    d.ty = SpotTxType::Fee;
                    d.outflow = Some(pipeline::amount(cur, f));
                    flush_eth2(ctx, &mut held_eth2, emit);
                    emit(ctx, d);
                    return;
                }
                let Some(tot) = need_total(ctx) else { return };
                d.ty = SpotTxType::Swap;
                d.outflow = Some(own);
                d.inflow = Some(pipeline::amount(t, n2));
                d.fee = fee_pair;
                d.fiat_value = values::sub(tot, f).map(|amount| StatedAmount {
                    amount,
                    currency: cur,
                });
            }
            Kind::In | Kind::Out => {
                let inbound = kind == Kind::In;
                d.fee = fee_pair;
                let q = if asset.is_fiat() {
                    d.ty = if inbound {
                        SpotTxType::Deposit
                    } else {
                        SpotTxType::Withdrawal
                    };
                    if inbound {
                        values::add(qty, f)
                    } else {
                        if f > qty {
                            ctx.err(
                                line,
                                s(C_FEE),
                                "fee-exceeds-amount",
                                format!(
                                    "the fee {} is larger than the amount {} that includes it",
                                    values::norm(f),
                                    values::norm(qty)
                                ),
                            );
                            return;
                        }
                        values::sub(qty, f)
                    }
                } else {
                    d.ty = if inbound {
                        SpotTxType::TransferIn
                    } else {
                        SpotTxType::TransferOut
                    };
                    Some(qty)
                };
                let Some(q) = q.filter(|q| !q.is_zero()) else {
                    return;
                };
                let side = Some(pipeline::amount(asset, q));
                if inbound {
                    d.inflow = side;
                } else {
                    d.outflow = side;
                }
            }
            Kind::Income(ty) => {
                d.ty = ty.unwrap_or(if asset.is_fiat() {
                    SpotTxType::Reward
                } else {
                    SpotTxType::Staking
                });
                d.inflow = Some(own);
                d.fee = fee_pair;
                d.fiat_value = total
                    .and_then(|t| values::sub(t, f))
                    .map(|amount| StatedAmount {
                        amount,
                        currency: cur,
                    });
            }
            Kind::Spend => {
                d.ty = SpotTxType::Spend;
                d.outflow = Some(own);
                d.fee = fee_pair;
                d.fiat_value = total
                    .and_then(|t| values::add(t, f))
                    .map(|amount| StatedAmount {
                        amount,
                        currency: cur,
                    });
            }
            Kind::Move(from, to) => {
                if asset.is_fiat() {
                    return ctx.skip(SkipReason::InternalMovement, 1);
                }
                let name = |seg: &str| {
                    if seg.is_empty() {
                        account.to_owned()
                    } else {
                        format!("{account}:{seg}")
                    }
                };
                d.ty = SpotTxType::TransferOut;
                d.account = name(from);
                d.outflow = Some(own);
                d.fee = fee_pair;
                d.group = GroupRef::FirstIdentity;
                let mut i = d.with_role("move-in".to_owned());
                i.ty = SpotTxType::TransferIn;
                i.account = name(to);
                i.outflow = None;
                i.inflow = Some(own);
                i.fee = None;
                extra = Some(i);
            }
            Kind::Mapped(ty) => {
                let out = super::is_out(ty);
                if signed && signed_qty.is_some_and(|q| q.is_sign_negative()) != out {
                    let word = if out { "negative" } else { "positive" };
                    ctx.err(
                        line,
                        s(C_QTY),
                        "sign-mismatch",
                        format!("\"{label}\" rows must have a {word} amount"),
                    );
                    return;
                }
                d.ty = ty;
                d.fee = fee_pair;
                if out {
                    d.outflow = Some(own);
                } else {
                    d.inflow = Some(own);
                }
                let income = matches!(
                    ty,
                    SpotTxType::Staking
                        | SpotTxType::Reward
                        | SpotTxType::Airdrop
                        | SpotTxType::Promotion
                        | SpotTxType::Mining
                        | SpotTxType::Fork
                );
                let value = if income {
                    total.and_then(|t| values::sub(t, f))
                } else if ty == SpotTxType::Spend {
                    total.and_then(|t| values::add(t, f))
                } else {
                    None
                };
                d.fiat_value = value.map(|amount| StatedAmount {
                    amount,
                    currency: cur,
                });
            }
            Kind::Deprecation | Kind::Migration => return,
        }
        if !ctx.shape(
            line,
            (s(C_ASSET), s(C_ASSET)),
            d.ty,
            d.inflow.as_ref(),
            d.outflow.as_ref(),
        ) {
            return;
        }
        let send_eth2 = kind == Kind::Out && asset_text.eq_ignore_ascii_case("ETH2");
        let receive_eth = kind == Kind::In && asset_text.eq_ignore_ascii_case("ETH");
        if let Some((h, h_send, h_qty)) = held_eth2.take() {
            if (send_eth2 || receive_eth)
                && h_send != send_eth2
                && h_qty == qty
                && h.timestamp == d.timestamp
            {
                return ctx.skip(SkipReason::InternalMovement, 2);
            }
            emit(ctx, h);
        }
        if send_eth2 || receive_eth {
            held_eth2 = Some((d, send_eth2, qty));
            return;
        }
        emit(ctx, d);
        if let Some(extra) = extra {
            emit(ctx, extra);
        }
    });
    if let Some(alone) = held_convert.and_then(|leg| convert_alone(ctx, leg)) {
        flush_eth2(ctx, &mut held_eth2, emit);
        emit(ctx, alone);
    }
    flush_eth2(ctx, &mut held_eth2, emit);
    if let Some(lone) = held {
        lone.lost(ctx);
    }
}

/// A fee is a cost: a negative one is `negative-not-allowed` (not read as its absolute
/// value), and one written with the symbol of another currency than the row's (`$5.00` in a
/// EUR row) warns `currency-mismatch`: it is read in the row's currency (D-86).
fn check_fee(ctx: &mut Ctx, line: u64, col: Option<usize>, text: &str, row: Option<Asset>) {
    let Ok(fee) = money(text) else {
        return;
    };
    if fee.is_sign_negative() && !fee.is_zero() {
        ctx.err(
            line,
            col,
            "negative-not-allowed",
            format!("\"{text}\" must not be negative"),
        );
        return;
    }
    let Some(row) = row else {
        return;
    };
    let unsigned = text.trim_start_matches(['-', '+']);
    let letters = unsigned
        .bytes()
        .take(3)
        .take_while(u8::is_ascii_uppercase)
        .count();
    let Some(sign) = unsigned[letters..].chars().next() else {
        return;
    };
    let written = match (&unsigned[..letters], sign) {
        (_, '€') => "EUR",
        (_, '£') => "GBP",
        ("" | "US", '$') => "USD",
        ("CA", '$') => "CAD",
        ("A" | "AU", '$') => "AUD",
        ("NZ", '$') => "NZD",
        ("HK", '$') => "HKD",
        ("S" | "SG", '$') => "SGD",
        ("MX", '$') => "MXN",
        ("R", '$') => "BRL",
        (_, '¥') if matches!(row.as_str(), "JPY" | "CNY") => return,
        (_, '¥') => "JPY",
        _ => return,
    };
    if written != row.as_str() {
        ctx.warn(
            line,
            col,
            "currency-mismatch",
            format!("the fee \"{text}\" is written in {written}, the row's currency is {row}; it was read as {row}"),
        );
    }
}
