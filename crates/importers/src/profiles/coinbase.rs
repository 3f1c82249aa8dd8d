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

fn symbol(word: &str) -> Option<Asset> {
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

/// `(Bought|Sold) N S for PN S …` → (N, S, Y, counter).
fn simple(notes: &str) -> Option<(Decimal, Asset, Decimal, Asset)> {
    let w: Vec<&str> = notes.split(' ').collect();
    if w.len() < 6 || !matches!(w[0], "Bought" | "Sold") || w[3] != "for" {
        return None;
    }
    Some((
        number(w[1])?,
        symbol(w[2])?,
        number(strip_sign(w[4]))?,
        symbol(w[5])?,
    ))
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

/// `Converted N S to N T` → (N, S, N2, T).
fn convert(notes: &str) -> Option<(Decimal, Asset, Decimal, Asset)> {
    let w: Vec<&str> = notes.split(' ').collect();
    if w.len() != 6 || w[0] != "Converted" || w[3] != "to" {
        return None;
    }
    Some((number(w[1])?, symbol(w[2])?, number(w[4])?, symbol(w[5])?))
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Trade { buy: bool, advanced: bool },
    Convert,
    In,
    Out,
    Income(Option<SpotTxType>),
    Spend,
    Move(&'static str, &'static str),
    Deprecation,
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
        "learning reward"
        | "coinbase earn"
        | "subscription rebate"
        | "subscription rebates (24 hours)" => Kind::Income(Some(SpotTxType::Promotion)),
        "card spend" => Kind::Spend,
        "retail staking transfer" => Kind::Move("", "staking"),
        "retail unstaking transfer" => Kind::Move("staking", ""),
        "cash to savings" => Kind::Move("", "savings"),
        "savings to cash" => Kind::Move("savings", ""),
        "vault withdrawal" => Kind::Move("vault", ""),
        "retail eth2 deprecation" => Kind::Deprecation,
        "asset migration"
        | "credit"
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
    if layout != "v4" {
        cols[C_CUR] = cols[13];
        cols[C_PRICE] = cols[14];
        cols[C_ID] = None;
    }
    if layout == "v2" {
        cols[C_TOTAL] = cols[15];
        cols[C_FEE] = cols[16];
    }
    // Columns of other layouts present in the header are not read either.
    let mut ignored = unknown;
    let read_cols: Vec<usize> = cols[..13].iter().flatten().copied().collect();
    for (i, c) in ctx.header.cells.iter().enumerate() {
        if !c.is_empty() && !read_cols.contains(&i) && !ignored.contains(&i) {
            ignored.push(i);
        }
    }
    ignored.sort_unstable();
    pipeline::ignore_unknown(ctx, &ignored, Profile::Coinbase);
    let v4 = layout == "v4";
    let mut ids: crate::values::FastMap<String, u64> = crate::values::FastMap::default();
    pipeline::for_rows(ctx, records, |ctx, line, rec| {
        let get = |c: usize| cols[c].map_or("", |i| reader::cell(rec, i));
        let s = |c: usize| cols[c];
        let label = get(C_TYPE);
        let kind = match kind(label) {
            Ok(k) => Some(k),
            Err(Some(reason)) => {
                ctx.err(line, s(C_TYPE), "unsupported-type", format!("coinbase type \"{label}\" is not supported: {reason}; record it with the generic format"));
                None
            }
            Err(None) => {
                ctx.err(
                    line,
                    s(C_TYPE),
                    "unknown-type",
                    format!("unknown coinbase type \"{label}\""),
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
        let instant = match values::parse_stamp(ts, sep, false, true) {
            Some(st) if st.zone == Some(Zone::Utc) && (v4 == ts.ends_with(" UTC")) => {
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
        let qty = ctx.dec(line, s(C_QTY), get(C_QTY), true).map(|q| q.abs());
        let cur_text = get(C_CUR);
        let cur = ctx.asset(line, s(C_CUR), cur_text);
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
            if let Some(first) = ids.get(&key) {
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
                } else if let Some((n, sym, y, c)) = simple(notes) {
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
                let Some((n, sym, n2, t)) = convert(notes) else {
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
            Kind::Deprecation => return,
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
        emit(ctx, d);
        if let Some(extra) = extra {
            emit(ctx, extra);
        }
    });
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
