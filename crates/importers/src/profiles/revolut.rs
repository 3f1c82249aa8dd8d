//! Revolut crypto account statement (CSV). Since 2023 one row per operation,
//! `Symbol,Type,Quantity,Price,Value,Fees,Date`; money cells carry their currency (`€1,000.00`,
//! `76.94 SEK`); dates are written in the app's locale and, except the ISO form, carry no zone.
//! Before 2023 (layout `v1`): `Type,Product,Started Date,Completed Date,Description,Amount,
//! Currency,Fiat amount,Fiat amount (inc. fees),Fee,Base currency,State,Balance`, one signed row
//! per balance change ([`read_v1_into`]).
//! Shapes and labels: `test_data/revolut-crypto/README.md`.

use chrono::{NaiveDate, NaiveDateTime, NaiveTime};
use core_domain::Asset;
use core_domain::ledger::StatedAmount;
use rust_decimal::Decimal;
use shared_types::SpotTxType;

use super::extra::{self, one_row_move};
use crate::model::{ImportOptions, Profile, SkipReason, Zone};
use crate::pipeline::{self, Ctx, Draft, KeyBase};
use crate::reader::{self, Records};
use crate::values::{self, NumError};

const ID: &str = "revolut-crypto";

/// The header of the statement.
pub(crate) const REQUIRED: [&str; 7] = [
    "Symbol", "Type", "Quantity", "Price", "Value", "Fees", "Date",
];
const C_SYMBOL: usize = 0;
const C_TYPE: usize = 1;
const C_QTY: usize = 2;
const C_VALUE: usize = 4;
const C_FEES: usize = 5;
const C_DATE: usize = 6;

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Buy,
    Sell,
    Send,
    Receive,
    Payment,
    Stake,
    Income(SpotTxType),
}

fn kind(label: &str) -> Result<Kind, Option<&'static str>> {
    Ok(match label.to_ascii_lowercase().as_str() {
        "buy" | "buy - revolut x" => Kind::Buy,
        "sell" | "sell - revolut x" => Kind::Sell,
        "send" => Kind::Send,
        "receive" => Kind::Receive,
        "payment" => Kind::Payment,
        "stake" => Kind::Stake,
        "staking reward" => Kind::Income(SpotTxType::Staking),
        "learn reward" => Kind::Income(SpotTxType::Promotion),
        "other" => {
            return Err(Some(
                "the statement states neither the direction nor the nature of these rows",
            ));
        }
        _ => return Err(None),
    })
}

/// A money cell: `(amount, currency)`; `Ok(None)` when empty. The currency comes from a
/// sign prefix (`€`, `$`, `£`) or a three-letter code before or after the number.
fn money(text: &str) -> Result<Option<(Decimal, Option<Asset>)>, NumError> {
    if text.is_empty() {
        return Ok(None);
    }
    let (negative, s) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let mut currency = None;
    let mut s = s;
    for (sign, code) in [('€', "EUR"), ('$', "USD"), ('£', "GBP")] {
        if let Some(rest) = s.strip_prefix(sign) {
            currency = values::asset(code);
            s = rest;
        }
    }
    if currency.is_none() {
        if let Some((num, code)) = s.rsplit_once(' ')
            && code.len() == 3
            && code.bytes().all(|b| b.is_ascii_uppercase())
        {
            currency = values::asset(code);
            s = num;
        } else if let Some((code, num)) = s.split_once(' ')
            && code.len() == 3
            && code.bytes().all(|b| b.is_ascii_uppercase())
        {
            currency = values::asset(code);
            s = num;
        }
    }
    let v = values::parse_decimal(&ungroup(s).ok_or(NumError::Bad)?)?;
    Ok(Some((if negative { -v } else { v }, currency)))
}

/// `1,234,567.89` → `1234567.89`; `None` for a comma that is not a thousands separator.
pub(crate) fn ungroup(s: &str) -> Option<String> {
    let (int, frac) = s.split_once('.').map_or((s, None), |(i, f)| (i, Some(f)));
    if !int.contains(',') {
        return Some(s.to_owned());
    }
    let mut groups = int.split(',');
    let head = groups.next()?;
    if head.is_empty() || head.len() > 3 {
        return None;
    }
    let mut out = head.to_owned();
    for g in groups {
        if g.len() != 3 {
            return None;
        }
        out.push_str(g);
    }
    if let Some(f) = frac {
        out.push('.');
        out.push_str(f);
    }
    Some(out)
}

fn month(name: &str) -> Option<u32> {
    const NAMES: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let lower = name.to_ascii_lowercase();
    let lower = if lower == "sept" {
        "sep".to_owned()
    } else {
        lower
    };
    NAMES
        .iter()
        .position(|m| *m == lower)
        .and_then(|i| u32::try_from(i + 1).ok())
}

fn number(text: &str) -> Option<u32> {
    if text.is_empty() || text.len() > 4 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// The statement's dates: `Jun 12, 2018, 4:16:32 PM`, `Jun 7 2018 9:10:51 AM`,
/// `13 Apr 2021, 09:54:54` (local, no zone) or `2025-03-04T09:12:00.000Z` (UTC).
fn parse_date(text: &str) -> Option<(NaiveDateTime, Option<Zone>)> {
    if let Some(stamp) = values::parse_stamp(text, b"T", false, true)
        && stamp.zone.is_some()
    {
        return Some((stamp.local, stamp.zone));
    }
    let tokens: Vec<&str> = text.split([' ', ',']).filter(|t| !t.is_empty()).collect();
    let (date_part, rest) = tokens.split_at_checked(3)?;
    let (mon, day) = match (month(date_part[0]), month(date_part[1])) {
        (Some(mon), None) => (mon, number(date_part[1])?),
        (None, Some(mon)) => (mon, number(date_part[0])?),
        _ => return None,
    };
    let year = number(date_part[2]).filter(|y| *y >= 1000)?;
    let date = NaiveDate::from_ymd_opt(i32::try_from(year).ok()?, mon, day)?;
    let (clock, meridiem) = match rest {
        [clock] => (*clock, None),
        [clock, m] => (*clock, Some(m.to_ascii_uppercase())),
        _ => return None,
    };
    let mut parts = clock.split(':');
    let (hour, minute, second) = (
        number(parts.next()?)?,
        number(parts.next()?)?,
        number(parts.next()?)?,
    );
    if parts.next().is_some() || clock.split(':').any(|p| p.len() > 2) {
        return None;
    }
    let hour = match meridiem.as_deref() {
        None => hour,
        Some("AM") if (1..=12).contains(&hour) => hour % 12,
        Some("PM") if (1..=12).contains(&hour) => hour % 12 + 12,
        _ => return None,
    };
    let time = NaiveTime::from_hms_opt(hour, minute, second)?;
    Some((date.and_time(time), None))
}

/// Reads the rows, one draft (two for a stake) per row, in file order.
#[allow(clippy::too_many_lines)] // The type table and its amounts read best in one place.
pub(crate) fn read_into(
    ctx: &mut Ctx,
    records: &mut Records<'_>,
    account: &str,
    options: &ImportOptions,
    emit: &mut dyn FnMut(&mut Ctx, Draft),
) {
    let (cols, unknown) = reader::resolve(&ctx.header, &REQUIRED);
    pipeline::ignore_unknown(ctx, &unknown, Profile::RevolutCrypto);
    pipeline::for_rows(ctx, records, |ctx, line, rec| {
        let get = |c: usize| cols[c].map_or("", |i| reader::cell(rec, i));
        let label = get(C_TYPE);
        let kind = match kind(label) {
            Ok(k) => Some(k),
            Err(Some(reason)) => {
                extra::unsupported_type(ctx, line, cols[C_TYPE], ID, label, reason);
                None
            }
            Err(None) => {
                extra::unknown_type(ctx, line, cols[C_TYPE], ID, label);
                None
            }
        };
        let date_text = get(C_DATE);
        let instant = match parse_date(date_text) {
            None => {
                ctx.err(
                    line,
                    cols[C_DATE],
                    "bad-timestamp",
                    format!(
                        "\"{date_text}\" is not a timestamp of the form \"Jun 12, 2018, 4:16:32 PM\", \"13 Apr 2021, 09:54:54\" or YYYY-MM-DDTHH:MM:SSZ"
                    ),
                );
                None
            }
            Some((local, Some(zone))) => ctx.place(line, cols[C_DATE], local, zone),
            Some((local, None)) => {
                if let Some(zone) = options.timezone {
                    ctx.place(line, cols[C_DATE], local, zone)
                } else {
                    ctx.err(
                        line,
                        cols[C_DATE],
                        "timezone-required",
                        "these timestamps carry no time zone; pass --timezone".to_owned(),
                    );
                    None
                }
            }
        };
        let symbol = ctx.asset(line, cols[C_SYMBOL], get(C_SYMBOL));
        let qty_text = get(C_QTY);
        let qty = if qty_text.is_empty() {
            Some(None)
        } else if let Some(plain) = ungroup(qty_text) {
            ctx.dec(line, cols[C_QTY], &plain, false).map(Some)
        } else {
            ctx.err(
                line,
                cols[C_QTY],
                "bad-decimal",
                format!("\"{qty_text}\" is not a plain decimal number"),
            );
            None
        };
        let money_cell = |ctx: &mut Ctx, c: usize| match money(get(c)) {
            Ok(Some((v, _))) if v.is_sign_negative() && !v.is_zero() => {
                ctx.err(
                    line,
                    cols[c],
                    "negative-not-allowed",
                    format!("\"{}\" must not be negative", get(c)),
                );
                None
            }
            Ok(m) => Some(m),
            Err(NumError::Bad) => {
                ctx.err(
                    line,
                    cols[c],
                    "bad-decimal",
                    format!("\"{}\" is not a plain decimal number", get(c)),
                );
                None
            }
            Err(NumError::Range) => {
                ctx.err(
                    line,
                    cols[c],
                    "decimal-out-of-range",
                    format!(
                        "\"{}\" has more than 28 significant or 28 fractional digits",
                        get(c)
                    ),
                );
                None
            }
        };
        let value = money_cell(ctx, C_VALUE);
        let fees = money_cell(ctx, C_FEES);
        if ctx.invalid.contains(&line) {
            return;
        }
        let (Some(kind), Some(instant), Some(symbol), Some(qty), Some(value), Some(fees)) =
            (kind, instant, symbol, qty, value, fees)
        else {
            return;
        };
        // A money cell without a currency cannot be booked.
        let value = match value {
            Some((v, Some(c))) => Some((v, c)),
            Some((_, None)) => {
                ctx.err(
                    line,
                    cols[C_VALUE],
                    "fiat-value-incomplete",
                    "a fiat value needs both an amount and a currency".to_owned(),
                );
                return;
            }
            None => None,
        };
        let fee = match fees {
            Some((f, Some(c))) => Some(pipeline::fee(c, f.abs())),
            Some((f, None)) if f.is_zero() => None,
            Some((_, None)) => {
                ctx.err(
                    line,
                    cols[C_FEES],
                    "fee-pair-incomplete",
                    "a fee needs both an asset and an amount".to_owned(),
                );
                return;
            }
            None => None,
        };
        // The moved quantity: the Quantity cell, or for a fiat row without one, the Value.
        let quantity = match (qty, value) {
            (Some(q), _) => Some(q),
            (None, Some((v, c))) if c == symbol && symbol.is_fiat() => Some(v),
            _ => None,
        };
        let Some(quantity) = quantity.filter(|q| !q.is_zero()) else {
            let (code, message) = if qty_text.is_empty() {
                ("missing-value", "a value is required here".to_owned())
            } else {
                (
                    "not-positive",
                    format!("\"{qty_text}\" must be greater than zero"),
                )
            };
            ctx.err(line, cols[C_QTY], code, message);
            return;
        };
        let mut d = Draft::new(
            account.to_owned(),
            account,
            instant,
            SpotTxType::Buy,
            KeyBase::Content,
            line,
        );
        label.clone_into(&mut d.note);
        d.fee = fee;
        let stated = value
            .filter(|(_, c)| c.is_fiat())
            .map(|(amount, currency)| StatedAmount { amount, currency });
        let drafts = match kind {
            Kind::Buy | Kind::Sell => {
                let Some((paid, currency)) = value.filter(|(v, _)| !v.is_zero()) else {
                    ctx.err(
                        line,
                        cols[C_VALUE],
                        "missing-value",
                        "a value is required here".to_owned(),
                    );
                    return;
                };
                extra::set_trade(
                    &mut d,
                    kind == Kind::Buy,
                    pipeline::amount(symbol, quantity),
                    pipeline::amount(currency, paid),
                );
                vec![d]
            }
            Kind::Send | Kind::Receive => {
                let inflow = kind == Kind::Receive;
                extra::set_transfer(&mut d, symbol, quantity, inflow);
                vec![d]
            }
            Kind::Payment => {
                d.ty = SpotTxType::Spend;
                d.outflow = Some(pipeline::amount(symbol, quantity));
                d.fiat_value = stated;
                vec![d]
            }
            Kind::Income(ty) => {
                d.ty = if symbol.is_fiat() {
                    SpotTxType::Reward
                } else {
                    ty
                };
                d.inflow = Some(pipeline::amount(symbol, quantity));
                d.fiat_value = stated;
                vec![d]
            }
            Kind::Stake => one_row_move(
                ctx,
                d,
                (symbol, quantity),
                account.to_owned(),
                extra::child(account, "staking"),
            ),
        };
        ctx.emit_shaped(line, (cols[C_SYMBOL], cols[C_SYMBOL]), drafts, emit);
    });
}

/// The crypto account statement Revolut wrote before 2023 (layout `v1`): one row per balance
/// change of one coin, signed, with its fiat amounts in the base currency.
pub(crate) const V1: [&str; 12] = [
    "Type",
    "Product",
    "Started Date",
    "Completed Date",
    "Description",
    "Amount",
    "Currency",
    "Fiat amount",
    "Fiat amount (inc. fees)",
    "Fee",
    "Base currency",
    "State",
];
const V_TYPE: usize = 0;
const V_PRODUCT: usize = 1;
const V_STARTED: usize = 2;
const V_COMPLETED: usize = 3;
const V_DESCRIPTION: usize = 4;
const V_AMOUNT: usize = 5;
const V_CURRENCY: usize = 6;
const V_FIAT: usize = 7;
const V_FIAT_INC: usize = 8;
const V_FEE: usize = 9;
const V_BASE: usize = 10;
const V_STATE: usize = 11;

/// The descriptions of the two rows that move a balance from one Revolut legal entity to
/// another (read as the pair they are, as RevoProfit reads them): no change of custody.
const MIGRATION: [&str; 2] = [
    "balance migration to another region or legal entity",
    "closing transaction",
];

/// `2021-06-04 7:27:08` (an hour of one digit) as `2021-06-04 07:27:08`.
fn pad_hour(text: &str) -> std::borrow::Cow<'_, str> {
    let b = text.as_bytes();
    if b.len() > 12 && b[10] == b' ' && b[12] == b':' {
        std::borrow::Cow::Owned(format!("{} 0{}", &text[..10], &text[11..]))
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

/// Reads the `v1` statement, one draft per completed row, in file order.
#[allow(clippy::too_many_lines)] // The type table and its amounts read best in one place.
pub(crate) fn read_v1_into(
    ctx: &mut Ctx,
    records: &mut Records<'_>,
    account: &str,
    options: &ImportOptions,
    emit: &mut dyn FnMut(&mut Ctx, Draft),
) {
    let (mut cols, unknown) = reader::resolve(&ctx.header, &V1);
    // `Balance` is the balance after the row: read by no rule, but part of the export.
    let unknown: Vec<usize> = unknown
        .into_iter()
        .filter(|i| !ctx.header.cells[*i].eq_ignore_ascii_case("Balance"))
        .collect();
    pipeline::ignore_unknown(ctx, &unknown, Profile::RevolutCrypto);
    cols.truncate(V1.len());
    pipeline::for_rows(ctx, records, |ctx, line, rec| {
        let get = |c: usize| cols[c].map_or("", |i| reader::cell(rec, i));
        let state = get(V_STATE);
        if !state.eq_ignore_ascii_case("COMPLETED") {
            // PENDING, REVERTED, DECLINED, FAILED: no balance changed.
            ctx.skip(
                if state.eq_ignore_ascii_case("PENDING") {
                    SkipReason::Pending
                } else {
                    SkipReason::NotFinal
                },
                1,
            );
            return;
        }
        let description = get(V_DESCRIPTION);
        if MIGRATION
            .iter()
            .any(|m| description.trim().eq_ignore_ascii_case(m))
        {
            ctx.skip(SkipReason::InternalMovement, 1);
            return;
        }
        let label = get(V_TYPE);
        let upper = label.to_ascii_uppercase();
        // When the change was booked; a completed row without it falls back to its start.
        let when = if get(V_COMPLETED).is_empty() {
            V_STARTED
        } else {
            V_COMPLETED
        };
        let instant = extra::local_stamp(
            ctx,
            line,
            cols[when],
            &pad_hour(get(when)),
            options.timezone,
        );
        let amount = ctx.dec(line, cols[V_AMOUNT], get(V_AMOUNT), true);
        let coin = ctx.asset(line, cols[V_CURRENCY], get(V_CURRENCY));
        let base = ctx.asset(line, cols[V_BASE], get(V_BASE));
        let fiat = ctx.dec(line, cols[V_FIAT], get(V_FIAT), true);
        let fiat_inc = ctx.dec(line, cols[V_FIAT_INC], get(V_FIAT_INC), true);
        let fee = match get(V_FEE) {
            "" => Some(Decimal::ZERO),
            f => ctx.dec(line, cols[V_FEE], f, false),
        };
        let income = match upper.as_str() {
            // Staking rewards where the description says so; Learn & Earn rewards, cashback.
            "REWARD" if description.to_ascii_lowercase().contains("staking") => {
                Some(SpotTxType::Staking)
            }
            "CASHBACK" | "REWARD" => Some(SpotTxType::Promotion),
            "EXCHANGE" | "CARD_PAYMENT" | "TRANSFER" => None,
            "CARD_REFUND" => {
                extra::unsupported_type(
                    ctx,
                    line,
                    cols[V_TYPE],
                    ID,
                    label,
                    "the statement does not say whether a refund returns the coins spent or credits new ones",
                );
                return;
            }
            _ => {
                extra::unknown_type(ctx, line, cols[V_TYPE], ID, label);
                return;
            }
        };
        if ctx.invalid.contains(&line) {
            return;
        }
        let (
            Some(instant),
            Some(amount),
            Some(coin),
            Some(base),
            Some(fiat),
            Some(fiat_inc),
            Some(fee),
        ) = (instant, amount, coin, base, fiat, fiat_inc, fee)
        else {
            return;
        };
        if amount.is_zero() {
            ctx.err(
                line,
                cols[V_AMOUNT],
                "not-positive",
                format!("\"{}\" must not be zero", get(V_AMOUNT)),
            );
            return;
        }
        let inflow = amount.is_sign_positive();
        let quantity = amount.abs();
        let product = get(V_PRODUCT);
        let wallet = if product.is_empty() || product.eq_ignore_ascii_case("Current") {
            account.to_owned()
        } else {
            extra::child(account, &values::segment(product))
        };
        let mut d = Draft::new(
            wallet,
            account,
            instant,
            SpotTxType::Buy,
            KeyBase::Content,
            line,
        );
        description.clone_into(&mut d.note);
        d.fee = (!fee.is_zero()).then(|| pipeline::fee(base, fee));
        // Each row states its coin's value in the base currency.
        let stated = |v: Decimal| StatedAmount {
            amount: v.abs(),
            currency: base,
        };
        match (upper.as_str(), income) {
            (_, Some(ty)) => {
                if !extra::check_sign(
                    ctx,
                    line,
                    cols[V_AMOUNT],
                    amount,
                    true,
                    (label, get(V_AMOUNT)),
                ) {
                    return;
                }
                d.ty = if coin.is_fiat() {
                    SpotTxType::Reward
                } else {
                    ty
                };
                d.inflow = Some(pipeline::amount(coin, quantity));
                d.fiat_value = Some(stated(fiat));
            }
            ("EXCHANGE", None) => {
                if coin.is_fiat() {
                    extra::unsupported_type(
                        ctx,
                        line,
                        cols[V_CURRENCY],
                        ID,
                        label,
                        "an exchange between fiat currencies is not a crypto operation",
                    );
                    return;
                }
                // `Fiat amount (inc. fees)` is the money that moved; the fee is inside it on a
                // buy and was taken from the proceeds on a sale.
                let principal = if inflow {
                    fiat_inc.abs().checked_sub(fee)
                } else {
                    fiat_inc.abs().checked_add(fee)
                };
                let Some(principal) = principal.filter(|p| p.is_sign_positive() && !p.is_zero())
                else {
                    ctx.err(
                        line,
                        cols[V_FEE],
                        "fee-exceeds-amount",
                        format!(
                            "the fee \"{}\" is not less than the fiat amount \"{}\"",
                            get(V_FEE),
                            get(V_FIAT_INC)
                        ),
                    );
                    return;
                };
                extra::set_trade(
                    &mut d,
                    inflow,
                    pipeline::amount(coin, quantity),
                    pipeline::amount(base, principal),
                );
            }
            ("CARD_PAYMENT", None) => {
                if !extra::check_sign(
                    ctx,
                    line,
                    cols[V_AMOUNT],
                    amount,
                    false,
                    (label, get(V_AMOUNT)),
                ) {
                    return;
                }
                d.ty = SpotTxType::Spend;
                d.outflow = Some(pipeline::amount(coin, quantity));
                let Some(value) = fiat_inc.abs().checked_add(fee) else {
                    return;
                };
                d.fiat_value = Some(stated(value));
            }
            _ => {
                // TRANSFER: to or from another product (a vault) or outside Revolut.
                extra::set_transfer(&mut d, coin, quantity, inflow);
            }
        }
        if !ctx.shape(
            line,
            (cols[V_CURRENCY], cols[V_CURRENCY]),
            d.ty,
            d.inflow.as_ref(),
            d.outflow.as_ref(),
        ) {
            return;
        }
        emit(ctx, d);
    });
}
