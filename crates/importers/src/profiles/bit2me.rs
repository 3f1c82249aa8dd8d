//! Bit2Me movements export (an `.xlsx` workbook, read through `workbook.rs`, or the same sheet
//! saved as CSV): one row per operation with the amount that left the wallet (`Cantidad de
//! origen` in `Moneda de origen`) and the amount that reached it (`Cantidad de destino` in
//! `Moneda de destino`); `Comisión de la operación` in `Moneda de la comisión`; `Descripción`
//! (`<wallet> <uuid>`) identifies the operation; `Fecha` is local time without a zone. How the
//! columns are read (decision D-107) and the shapes: `test_data/bit2me/README.md`.

use core_domain::Asset;
use rust_decimal::Decimal;
use shared_types::SpotTxType;

use super::extra::{self, transfer_type};
use crate::model::{ImportOptions, Profile, SkipReason};
use crate::ops;
use crate::pipeline::{self, Ctx, Draft, KeyBase, SEP};
use crate::reader::{self, Records};
use crate::values;

const ID: &str = "bit2me";

/// The header of the export.
pub(crate) const REQUIRED: [&str; 9] = [
    "Tipo de operación",
    "Cantidad de destino",
    "Moneda de destino",
    "Cantidad de origen",
    "Moneda de origen",
    "Comisión de la operación",
    "Moneda de la comisión",
    "Descripción",
    "Fecha",
];
const COLUMNS: [&str; 11] = [
    "Tipo de operación",
    "Cantidad de destino",
    "Moneda de destino",
    "Cantidad de origen",
    "Moneda de origen",
    "Comisión de la operación",
    "Moneda de la comisión",
    "Descripción",
    "Fecha",
    "Exchange",
    "Grupo",
];
const C_TYPE: usize = 0;
const C_DQTY: usize = 1;
const C_DCUR: usize = 2;
const C_OQTY: usize = 3;
const C_OCUR: usize = 4;
const C_FEE: usize = 5;
const C_FCUR: usize = 6;
const C_DESC: usize = 7;
const C_DATE: usize = 8;
const C_GROUP: usize = 10;

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Deposit,
    Withdrawal,
    Trade,
    Income(SpotTxType),
}

/// `YYYY-MM-DD HH:MM` or `YYYY-MM-DD HH:MM:SS[.f]`.
fn parse_date(text: &str) -> Option<chrono::NaiveDateTime> {
    let (date, time) = text.split_once(' ')?;
    let date = values::parse_date(date, false)?;
    let time = if time.len() == 5 {
        values::parse_time(&format!("{time}:00"))?
    } else {
        values::parse_time(time)?
    };
    Some(date.and_time(time))
}

/// An optional `(asset, amount)` pair of two cells; `Err` when one is bad (reported).
fn pair(
    ctx: &mut Ctx,
    line: u64,
    (qty_col, cur_col): (Option<usize>, Option<usize>),
    (qty, cur): (&str, &str),
) -> Result<Option<(Asset, Decimal)>, ()> {
    match (qty, cur) {
        ("", "") => Ok(None),
        (_, "") => {
            ctx.err(
                line,
                cur_col,
                "missing-value",
                "a value is required here".to_owned(),
            );
            Err(())
        }
        ("", _) => {
            ctx.err(
                line,
                qty_col,
                "missing-value",
                "a value is required here".to_owned(),
            );
            Err(())
        }
        (q, c) => {
            let a = ctx.asset(line, cur_col, c);
            let q = ctx.dec(line, qty_col, q, false);
            a.zip(q).map(Some).ok_or(())
        }
    }
}

/// Reads the rows, one operation per row, in file order.
#[allow(clippy::too_many_lines)] // The four kinds and their fee rule read best in one place.
pub(crate) fn read_into(
    ctx: &mut Ctx,
    records: &mut Records<'_>,
    account: &str,
    options: &ImportOptions,
    emit: &mut dyn FnMut(&mut Ctx, Draft),
) {
    let (cols, unknown) = reader::resolve(&ctx.header, &COLUMNS);
    pipeline::ignore_unknown(ctx, &unknown, Profile::Bit2me);
    let Some(zone) = options.timezone else {
        return;
    };
    let mut ids: values::FastMap<String, u64> = values::FastMap::default();
    pipeline::for_rows(ctx, records, |ctx, line, rec| {
        let get = |c: usize| cols[c].map_or("", |i| reader::cell(rec, i));
        let label = get(C_TYPE);
        let kind = match label.to_ascii_lowercase().as_str() {
            "deposit" => Some(Kind::Deposit),
            "withdrawal" => Some(Kind::Withdrawal),
            "trade" | "swap" => Some(Kind::Trade),
            "staking" => Some(Kind::Income(SpotTxType::Staking)),
            "airdrop" => Some(Kind::Income(SpotTxType::Airdrop)),
            _ => {
                extra::unknown_type(ctx, line, cols[C_TYPE], ID, label);
                None
            }
        };
        let date_text = get(C_DATE);
        let instant = if let Some(local) = parse_date(date_text) {
            ctx.place(line, cols[C_DATE], local, zone)
        } else {
            ctx.err(
                line,
                cols[C_DATE],
                "bad-timestamp",
                format!("\"{date_text}\" is not a timestamp of the form YYYY-MM-DD HH:MM[:SS]"),
            );
            None
        };
        let dest = pair(
            ctx,
            line,
            (cols[C_DQTY], cols[C_DCUR]),
            (get(C_DQTY), get(C_DCUR)),
        );
        let orig = pair(
            ctx,
            line,
            (cols[C_OQTY], cols[C_OCUR]),
            (get(C_OQTY), get(C_OCUR)),
        );
        let fee = pair(
            ctx,
            line,
            (cols[C_FEE], cols[C_FCUR]),
            (get(C_FEE), get(C_FCUR)),
        );
        let id = get(C_DESC);
        if ctx.invalid.contains(&line) {
            return;
        }
        let (Some(kind), Some(instant), Ok(dest), Ok(orig), Ok(fee)) =
            (kind, instant, dest, orig, fee)
        else {
            return;
        };
        let key = if id.is_empty() {
            KeyBase::Content
        } else {
            let key = format!("v1{SEP}{ID}{SEP}id{SEP}{id}");
            if !ctx.first_sighting(&mut ids, &key, id, (line, cols[C_DESC])) {
                return;
            }
            KeyBase::Declared(key, cols[C_DESC])
        };
        let mut d = Draft::new(
            account.to_owned(),
            account,
            instant,
            SpotTxType::Buy,
            key,
            line,
        );
        id.clone_into(&mut d.source_ref);
        d.note = [label, get(C_GROUP), id]
            .iter()
            .filter(|s| !s.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join("; ");
        let need = |ctx: &mut Ctx, side: Option<(Asset, Decimal)>, col: usize| {
            let side = side.filter(|(_, q)| !q.is_zero());
            if side.is_none() {
                ctx.err(
                    line,
                    cols[col],
                    "not-positive",
                    format!("\"{}\" must be greater than zero", get(col)),
                );
            }
            side
        };
        match kind {
            Kind::Deposit | Kind::Income(_) => {
                let Some((asset, qty)) = need(ctx, dest, C_DQTY) else {
                    return;
                };
                d.ty = match kind {
                    Kind::Deposit => transfer_type(asset, true),
                    Kind::Income(_) if asset.is_fiat() => SpotTxType::Reward,
                    Kind::Income(ty) => ty,
                    _ => SpotTxType::Deposit,
                };
                d.inflow = Some(pipeline::amount(asset, qty));
                // The credited amount is what arrived; a stated fee in it was charged on top.
                d.fee = fee.map(|(a, q)| pipeline::fee(a, q));
                if let Some((a, q)) = fee
                    && !q.is_zero()
                    && a == asset
                {
                    let Some(gross) = values::add(qty, q) else {
                        return;
                    };
                    d.inflow = Some(pipeline::amount(asset, gross));
                }
            }
            Kind::Withdrawal => {
                let Some((asset, sent)) = need(ctx, orig, C_OQTY) else {
                    return;
                };
                // Both amounts are written: what left the wallet and what arrived; the
                // difference is the network fee in the asset. The fee cells value it (EUR).
                let arrived = match dest {
                    Some((a, q)) if a == asset => q,
                    Some(_) => {
                        ctx.err(
                            line,
                            cols[C_DCUR],
                            "unsupported-fee-currency",
                            format!(
                                "fee currency {} differs from the row asset {asset}",
                                get(C_DCUR)
                            ),
                        );
                        return;
                    }
                    None => sent,
                };
                let Some(network) = values::sub(sent, arrived) else {
                    return;
                };
                if network.is_sign_negative() && !network.is_zero() {
                    ctx.err(
                        line,
                        cols[C_DQTY],
                        "fee-exceeds-amount",
                        format!(
                            "the fee {} is larger than the amount {} that includes it",
                            values::norm(network),
                            values::norm(sent)
                        ),
                    );
                    return;
                }
                if arrived.is_zero() {
                    need(ctx, None, C_DQTY);
                    return;
                }
                d.ty = transfer_type(asset, false);
                d.outflow = Some(pipeline::amount(asset, arrived));
                d.fee = Some(pipeline::fee(asset, network));
            }
            Kind::Trade => {
                let (Some(gained), Some(given)) =
                    (need(ctx, dest, C_DQTY), need(ctx, orig, C_OQTY))
                else {
                    return;
                };
                let mut inflow = gained;
                let mut outflow = given;
                let mut fees = std::collections::BTreeMap::new();
                if let Some((a, q)) = fee {
                    if a == given.0 {
                        // The fee is part of what left the wallet.
                        if q > given.1 {
                            ctx.err(
                                line,
                                cols[C_FEE],
                                "fee-exceeds-amount",
                                format!(
                                    "the fee {} is larger than the amount {} that includes it",
                                    values::norm(q),
                                    values::norm(given.1)
                                ),
                            );
                            return;
                        }
                        let Some(net) = values::sub(given.1, q) else {
                            return;
                        };
                        outflow.1 = net;
                    } else if a == gained.0 {
                        // What arrived is net of the fee, charged on top of the principal.
                        let Some(gross) = values::add(gained.1, q) else {
                            return;
                        };
                        inflow.1 = gross;
                    } else if !q.is_zero() {
                        ctx.err(
                            line,
                            cols[C_FCUR],
                            "unsupported-fee-currency",
                            format!("fee currency {a} differs from the row asset {}", gained.0),
                        );
                        return;
                    }
                    fees.insert(a, q);
                }
                if outflow.1.is_zero() {
                    need(ctx, None, C_OQTY);
                    return;
                }
                let group = format!("{instant} {id}");
                let Some(drafts) = ops::exchange(&d, inflow, outflow, &fees, false, &group) else {
                    ctx.skip(SkipReason::InternalMovement, 1);
                    return;
                };
                ctx.emit_shaped(line, (cols[C_DCUR], cols[C_OCUR]), drafts, emit);
                return;
            }
        }
        if !ctx.shape(
            line,
            (cols[C_DCUR], cols[C_OCUR]),
            d.ty,
            d.inflow.as_ref(),
            d.outflow.as_ref(),
        ) {
            return;
        }
        emit(ctx, d);
    });
}
