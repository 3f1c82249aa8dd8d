//! Bitvavo transaction history (§2.2): one row per operation, local time with its zone.

use core_domain::ledger::StatedAmount;
use rust_decimal::Decimal;
use shared_types::SpotTxType;

use crate::model::{ImportOptions, Profile, SkipReason};
use crate::pipeline::{self, Ctx, Draft, KeyBase, ProfileOutput, SEP};
use crate::reader::{self, Records};
use crate::values;

const COLUMNS: [&str; 17] = [
    "Timezone",
    "Date",
    "Time",
    "Type",
    "Currency",
    "Amount",
    "Quote Currency",
    "Quote Price",
    "Received / Paid Currency",
    "Received / Paid Amount",
    "Fee currency",
    "Fee amount",
    "Status",
    "Transaction ID",
    "Address",
    "Price (EUR)",
    "EUR received / paid",
];
const C_TZ: usize = 0;
const C_DATE: usize = 1;
const C_TIME: usize = 2;
const C_TYPE: usize = 3;
const C_CUR: usize = 4;
const C_AMOUNT: usize = 5;
const C_QCUR: usize = 6;
const C_QPRICE: usize = 7;
const C_RPCUR: usize = 8;
const C_RPAMT: usize = 9;
const C_FCUR: usize = 10;
const C_FAMT: usize = 11;
const C_STATUS: usize = 12;
const C_ID: usize = 13;
const C_ADDR: usize = 14;
const C_LPRICE: usize = 15;
const C_LRP: usize = 16;

/// The most fractional digits Bitvavo keeps in any amount or price (D-97).
const PRECISION: u32 = 8;

/// A number cell: exponent notation read exactly, and a binary float printed in full
/// (`-32.156874000000003`: more than [`PRECISION`] fractional digits, at least 15
/// significant ones) read as its value at Bitvavo's precision when that moves it by at most
/// 10^-15 of its magnitude; any other cell is kept exactly as written (D-97).
fn dec(ctx: &mut Ctx, line: u64, col: Option<usize>, text: &str, signed: bool) -> Option<Decimal> {
    let v = super::dec_exp(ctx, line, col, text, signed)?;
    Some(denoise(v))
}

/// The float-noise rule of [`dec`] on a value read exactly.
pub(crate) fn denoise(v: Decimal) -> Decimal {
    if v.scale() <= PRECISION {
        return v;
    }
    let significant = v.mantissa().unsigned_abs().checked_ilog10().unwrap_or(0) + 1;
    if significant < 15 {
        return v;
    }
    let rounded = v.round_dp_with_strategy(
        PRECISION,
        rust_decimal::RoundingStrategy::MidpointNearestEven,
    );
    match v.checked_sub(rounded) {
        // A float printed in full is off by a few units of its 16th significant digit.
        Some(diff) if diff.abs() <= v.abs().max(Decimal::ONE) * Decimal::new(1, 15) => {
            rounded.normalize()
        }
        _ => v,
    }
}

enum Kind {
    Buy,
    Sell,
    Deposit,
    Withdrawal,
    Income,
    Promotion,
    /// A label of the user's label map.
    Mapped(SpotTxType),
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

/// Reads the rows, handing each draft (one per row) to `emit` in file order.
#[allow(clippy::too_many_lines)] // The fee conventions of §2.2 read best in one place.
pub(crate) fn read_into(
    ctx: &mut Ctx,
    records: &mut Records<'_>,
    account: &str,
    layout: &str,
    options: &ImportOptions,
    emit: &mut dyn FnMut(&mut Ctx, Draft),
) {
    let (mut cols, unknown) = reader::resolve(&ctx.header, &COLUMNS);
    if layout == "legacy" {
        cols[C_QPRICE] = cols[C_LPRICE];
        cols[C_RPAMT] = cols[C_LRP];
    }
    pipeline::ignore_unknown(ctx, &unknown, Profile::Bitvavo);
    let legacy = layout == "legacy";
    let eur = values::asset("EUR");
    let mut ids: crate::values::FastMap<String, u64> = crate::values::FastMap::default();
    pipeline::for_rows(ctx, records, |ctx, line, rec| {
        let get = |c: usize| cols[c].map_or("", |i| reader::cell(rec, i));
        let status = get(C_STATUS);
        match status.to_ascii_lowercase().as_str() {
            "completed" | "distributed" => {}
            "pending" => return ctx.skip(SkipReason::Pending, 1),
            "canceled" | "cancelled" | "failed" => return ctx.skip(SkipReason::NotFinal, 1),
            _ => ctx.err(
                line,
                cols[C_STATUS],
                "unknown-status",
                format!("unknown status \"{status}\""),
            ),
        }
        let label = get(C_TYPE);
        let lower = label.to_ascii_lowercase();
        let mapped = super::mapped(options, Profile::Bitvavo, label);
        let kind = match lower.as_str() {
            _ if mapped.is_some() => mapped.map(Kind::Mapped),
            "buy" => Some(Kind::Buy),
            "sell" => Some(Kind::Sell),
            "deposit" => Some(Kind::Deposit),
            "withdrawal" => Some(Kind::Withdrawal),
            "staking" | "fixed_staking" => Some(Kind::Income),
            "campaign_new_user_incentive" | "affiliate" | "rebate" => Some(Kind::Promotion),
            other => {
                let reason = match other {
                    "distribution" => Some("a fork and an airdrop cannot be told apart"),
                    "loan" => Some("loans are not supported"),
                    "internal_transfer" => {
                        Some("internal transfers do not say which wallets they connect")
                    }
                    "withdrawal_cancelled" => Some("cancelled withdrawals are not supported"),
                    "external_transferred_funds" | "manually_assigned" => {
                        Some("its fiscal nature cannot be read from the export")
                    }
                    _ => None,
                };
                let hint = super::map_hint(Profile::Bitvavo, label);
                match reason {
                    Some(r) => ctx.err(line, cols[C_TYPE], "unsupported-type", format!("bitvavo type \"{label}\" is not supported: {r}; record it with the generic format{hint}")),
                    None => ctx.err(line, cols[C_TYPE], "unknown-type", format!("unknown bitvavo type \"{label}\"{hint}")),
                }
                None
            }
        };
        // Timestamp: local date and time in the row's zone.
        let tz_text = get(C_TZ);
        let zone = values::parse_zone(tz_text);
        if zone.is_none() {
            ctx.err(
                line,
                cols[C_TZ],
                "unknown-timezone",
                format!("\"{tz_text}\" is not a known time zone"),
            );
        }
        let date_text = get(C_DATE);
        let date = values::parse_date(date_text, false);
        if date.is_none() {
            ctx.err(
                line,
                cols[C_DATE],
                "bad-timestamp",
                format!("\"{date_text}\" is not a timestamp of the form YYYY-MM-DD"),
            );
        }
        let time_text = get(C_TIME);
        let time = values::parse_time(time_text);
        if time.is_none() {
            ctx.err(
                line,
                cols[C_TIME],
                "bad-timestamp",
                format!("\"{time_text}\" is not a timestamp of the form HH:MM:SS[.f]"),
            );
        }
        let instant = match (zone, date, time) {
            (Some(z), Some(d), Some(t)) => ctx.place(line, cols[C_TIME], d.and_time(t), z),
            _ => None,
        };
        let currency = ctx.asset(line, cols[C_CUR], get(C_CUR));
        let amount = dec(ctx, line, cols[C_AMOUNT], get(C_AMOUNT), true);
        let opt_dec = |ctx: &mut Ctx, c: usize, signed: bool| {
            let t = get(c);
            if t.is_empty() {
                Ok(None)
            } else {
                dec(ctx, line, cols[c], t, signed).map(Some).ok_or(())
            }
        };
        let opt_asset = |ctx: &mut Ctx, c: usize| {
            let t = get(c);
            if t.is_empty() {
                Ok(None)
            } else {
                ctx.asset(line, cols[c], t).map(Some).ok_or(())
            }
        };
        let quote_cur = if legacy {
            Ok(eur)
        } else {
            opt_asset(ctx, C_QCUR)
        };
        let quote_price = opt_dec(ctx, C_QPRICE, false);
        let rp_cur = if legacy {
            Ok(if get(C_RPAMT).is_empty() { None } else { eur })
        } else {
            opt_asset(ctx, C_RPCUR)
        };
        let rp_amt = opt_dec(ctx, C_RPAMT, true);
        let fee_cur = opt_asset(ctx, C_FCUR);
        let fee_amt = opt_dec(ctx, C_FAMT, false);
        let fee = match (fee_cur, fee_amt) {
            (Ok(Some(a)), Ok(Some(q))) => Some(Some((a, q))),
            // The current layout names a fee currency on rows that state no fee (staking
            // `Distributed` rows): an empty amount is no fee (D-97).
            (Ok(None | Some(_)), Ok(None)) => Some(None),
            (Ok(None), Ok(Some(_))) => {
                ctx.err(
                    line,
                    cols[C_FCUR],
                    "fee-pair-incomplete",
                    "a fee needs both an asset and an amount".to_owned(),
                );
                None
            }
            _ => None,
        };
        let id = get(C_ID);
        if ctx.invalid.contains(&line) {
            return;
        }
        let (
            Some(kind),
            Some(instant),
            Some(currency),
            Some(amount),
            Ok(quote_cur),
            Ok(quote_price),
            Ok(rp_cur),
            Ok(rp_amt),
            Some(fee),
        ) = (
            kind,
            instant,
            currency,
            amount,
            quote_cur,
            quote_price,
            rp_cur,
            rp_amt,
            fee,
        )
        else {
            return;
        };
        let positive = match kind {
            Kind::Mapped(ty) => !super::is_out(ty),
            Kind::Buy | Kind::Deposit | Kind::Income | Kind::Promotion => true,
            Kind::Sell | Kind::Withdrawal => false,
        };
        if amount.is_zero() {
            ctx.err(
                line,
                cols[C_AMOUNT],
                "not-positive",
                format!("\"{}\" must be greater than zero", get(C_AMOUNT)),
            );
            return;
        }
        if amount.is_sign_positive() != positive {
            let word = if positive { "positive" } else { "negative" };
            ctx.err(
                line,
                cols[C_AMOUNT],
                "sign-mismatch",
                format!("\"{lower}\" rows must have a {word} amount"),
            );
            return;
        }
        let key = format!("v1{SEP}bitvavo{SEP}id{SEP}{id}{SEP}{lower}");
        if !ctx.first_sighting(&mut ids, &key, id, (line, cols[C_ID])) {
            return;
        }
        let qty = amount.abs();
        let mut d = Draft::new(
            account.to_owned(),
            account,
            instant,
            SpotTxType::Buy,
            KeyBase::Declared(key, cols[C_ID]),
            line,
        );
        id.clone_into(&mut d.source_ref);
        get(C_ADDR).clone_into(&mut d.note);
        d.fee = fee.map(|(a, q)| pipeline::fee(a, q));
        let fee_in = |asset: core_domain::Asset| fee.filter(|(a, _)| *a == asset).map(|(_, q)| q);
        let fiat_quote_value = || match (quote_cur, quote_price) {
            (Some(c), Some(p)) if c.is_fiat() => values::mul(qty, p).map(|amount| StatedAmount {
                amount,
                currency: c,
            }),
            _ => None,
        };
        match kind {
            Kind::Buy | Kind::Sell => {
                let buy = matches!(kind, Kind::Buy);
                let (Some(counter), Some(moved)) = (rp_cur, rp_amt) else {
                    let c = if rp_cur.is_none() { C_RPCUR } else { C_RPAMT };
                    ctx.err(
                        line,
                        cols[c],
                        "missing-value",
                        "a value is required here".to_owned(),
                    );
                    return;
                };
                let moved_abs = moved.abs();
                let f = fee_in(counter).unwrap_or(Decimal::ZERO);
                let principal = if buy {
                    if f > moved_abs {
                        ctx.err(
                            line,
                            cols[C_FAMT],
                            "fee-exceeds-amount",
                            format!(
                                "the fee {} is larger than the amount {} that includes it",
                                values::norm(f),
                                values::norm(moved_abs)
                            ),
                        );
                        return;
                    }
                    values::sub(moved_abs, f)
                } else {
                    values::add(moved_abs, f)
                };
                let Some(principal) = principal else { return };
                if principal.is_zero() {
                    ctx.err(
                        line,
                        cols[C_RPAMT],
                        "not-positive",
                        format!("\"{}\" must be greater than zero", get(C_RPAMT)),
                    );
                    return;
                }
                let own = pipeline::amount(currency, qty);
                let other = pipeline::amount(counter, principal);
                let crypto_counter = !counter.is_fiat();
                d.ty = match (buy, crypto_counter) {
                    (true, false) => SpotTxType::Buy,
                    (false, false) => SpotTxType::Sell,
                    _ => SpotTxType::Swap,
                };
                if buy {
                    d.inflow = Some(own);
                    d.outflow = Some(other);
                } else {
                    d.inflow = Some(other);
                    d.outflow = Some(own);
                }
                if d.ty == SpotTxType::Swap {
                    d.fiat_value = fiat_quote_value();
                }
                // Over-determined check: |Amount| × price ± fee against the paid/received cell.
                if let (Some(qc), Some(p)) = (quote_cur, quote_price)
                    && qc == counter
                    && let Some(gross) = values::mul(qty, p)
                    && let Some(computed) = if buy {
                        values::add(gross, f)
                    } else {
                        values::sub(gross, f)
                    }
                {
                    let unit = Decimal::new(1, moved.scale());
                    if values::sub(computed, moved_abs).is_none_or(|diff| diff.abs() > unit) {
                        ctx.warn(
                            line,
                            cols[C_RPAMT],
                            "total-mismatch",
                            format!(
                                "price × amount ± fee gives {}, the file states {}",
                                values::norm(computed),
                                get(C_RPAMT)
                            ),
                        );
                    }
                }
            }
            Kind::Withdrawal => {
                let f = fee_in(currency).unwrap_or(Decimal::ZERO);
                if f > qty {
                    ctx.err(
                        line,
                        cols[C_FAMT],
                        "fee-exceeds-amount",
                        format!(
                            "the fee {} is larger than the amount {} that includes it",
                            values::norm(f),
                            values::norm(qty)
                        ),
                    );
                    return;
                }
                let Some(out) = values::sub(qty, f) else {
                    return;
                };
                if out.is_zero() {
                    ctx.err(
                        line,
                        cols[C_AMOUNT],
                        "not-positive",
                        format!("\"{}\" must be greater than zero", get(C_AMOUNT)),
                    );
                    return;
                }
                d.ty = if currency.is_fiat() {
                    SpotTxType::Withdrawal
                } else {
                    SpotTxType::TransferOut
                };
                d.outflow = Some(pipeline::amount(currency, out));
            }
            Kind::Deposit => {
                d.ty = if currency.is_fiat() {
                    SpotTxType::Deposit
                } else {
                    SpotTxType::TransferIn
                };
                d.inflow = Some(pipeline::amount(currency, qty));
            }
            Kind::Mapped(ty) => {
                d.ty = ty;
                let side = Some(pipeline::amount(currency, qty));
                if positive {
                    d.inflow = side;
                } else {
                    d.outflow = side;
                }
            }
            Kind::Income | Kind::Promotion => {
                d.ty = match kind {
                    Kind::Promotion => SpotTxType::Promotion,
                    _ if currency.is_fiat() => SpotTxType::Reward,
                    _ => SpotTxType::Staking,
                };
                d.inflow = Some(pipeline::amount(currency, qty));
                d.fiat_value = fiat_quote_value();
            }
        }
        if !ctx.shape(
            line,
            (cols[C_CUR], cols[C_RPCUR].or(cols[C_CUR])),
            d.ty,
            d.inflow.as_ref(),
            d.outflow.as_ref(),
        ) {
            return;
        }
        emit(ctx, d);
    });
}

#[cfg(test)]
mod tests;
