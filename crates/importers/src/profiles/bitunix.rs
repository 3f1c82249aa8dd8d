//! Bitunix transaction export (CSV, the Blockpit-style layout Bitunix offers for taxes): one
//! row per operation with an outgoing and an incoming side and a fee, times in UTC. `Trx. ID`
//! repeats across operations, so rows are identified by content. Shapes and labels:
//! `test_data/bitunix/README.md`.

use core_domain::Asset;
use rust_decimal::Decimal;

use super::extra::{self, transfer_type};
use crate::model::{Profile, Zone};
use crate::pipeline::{self, Ctx, Draft, KeyBase};
use crate::reader::{self, Records};

const ID: &str = "bitunix";

/// The header of the export.
pub(crate) const REQUIRED: [&str; 10] = [
    "Date (UTC)",
    "Label",
    "Outgoing Asset",
    "Outgoing Amount",
    "Incoming Asset",
    "Incoming Amount",
    "Fee Asset",
    "Fee Amount",
    "Trx. ID",
    "Comment",
];
const C_DATE: usize = 0;
const C_LABEL: usize = 1;
const C_OUT_ASSET: usize = 2;
const C_OUT_AMT: usize = 3;
const C_IN_ASSET: usize = 4;
const C_IN_AMT: usize = 5;
const C_FEE_ASSET: usize = 6;
const C_FEE_AMT: usize = 7;
const C_TRX: usize = 8;
const C_COMMENT: usize = 9;

/// An optional side: empty asset with an empty or zero amount is no side.
fn side(
    ctx: &mut Ctx,
    line: u64,
    (asset_col, amount_col): (Option<usize>, Option<usize>),
    (asset, amount): (&str, &str),
) -> Result<Option<(Asset, Decimal)>, ()> {
    let q = if amount.is_empty() {
        Decimal::ZERO
    } else {
        ctx.dec(line, amount_col, amount, false).ok_or(())?
    };
    if asset.is_empty() {
        if q.is_zero() {
            return Ok(None);
        }
        ctx.err(
            line,
            asset_col,
            "missing-value",
            "a value is required here".to_owned(),
        );
        return Err(());
    }
    let a = ctx.asset(line, asset_col, asset).ok_or(())?;
    Ok(Some((a, q)))
}

/// Reads the rows, one operation per row, in file order.
#[allow(clippy::too_many_lines)] // The cells, then the one rule per label.
pub(crate) fn read_into(
    ctx: &mut Ctx,
    records: &mut Records<'_>,
    account: &str,
    emit: &mut dyn FnMut(&mut Ctx, Draft),
) {
    let (cols, unknown) = reader::resolve(&ctx.header, &REQUIRED);
    pipeline::ignore_unknown(ctx, &unknown, Profile::Bitunix);
    pipeline::for_rows(ctx, records, |ctx, line, rec| {
        let get = |c: usize| cols[c].map_or("", |i| reader::cell(rec, i));
        let label = get(C_LABEL);
        let inflow = match label.to_ascii_lowercase().as_str() {
            "deposit" => Some(true),
            "withdraw" => Some(false),
            "futures profit" | "futures loss" => {
                extra::unsupported_type(
                    ctx,
                    line,
                    cols[C_LABEL],
                    ID,
                    label,
                    "futures results are not supported",
                );
                None
            }
            _ => {
                extra::unknown_type(ctx, line, cols[C_LABEL], ID, label);
                None
            }
        };
        let instant = ctx.utc_stamp(
            line,
            cols[C_DATE],
            get(C_DATE),
            b" ",
            false,
            "YYYY-MM-DD HH:MM:SS",
            Zone::Utc,
        );
        let out = side(
            ctx,
            line,
            (cols[C_OUT_ASSET], cols[C_OUT_AMT]),
            (get(C_OUT_ASSET), get(C_OUT_AMT)),
        );
        let inc = side(
            ctx,
            line,
            (cols[C_IN_ASSET], cols[C_IN_AMT]),
            (get(C_IN_ASSET), get(C_IN_AMT)),
        );
        let fee = side(
            ctx,
            line,
            (cols[C_FEE_ASSET], cols[C_FEE_AMT]),
            (get(C_FEE_ASSET), get(C_FEE_AMT)),
        );
        if ctx.invalid.contains(&line) {
            return;
        }
        let (Some(inflow), Some(instant), Ok(out), Ok(inc), Ok(fee)) =
            (inflow, instant, out, inc, fee)
        else {
            return;
        };
        let (moved, col, other) = if inflow {
            (inc, C_IN_AMT, out)
        } else {
            (out, C_OUT_AMT, inc)
        };
        let Some((asset, qty)) = moved.filter(|(_, q)| !q.is_zero()) else {
            ctx.err(
                line,
                cols[col],
                "not-positive",
                format!("\"{}\" must be greater than zero", get(col)),
            );
            return;
        };
        let ty = transfer_type(asset, inflow);
        if other.is_some() {
            let (c, word) = if inflow {
                (C_OUT_AMT, "out")
            } else {
                (C_IN_AMT, "in")
            };
            ctx.err(
                line,
                cols[c],
                "side-not-allowed",
                format!("{ty} has no {word} side"),
            );
            return;
        }
        let mut d = Draft::new(
            account.to_owned(),
            account,
            instant,
            ty,
            KeyBase::Content,
            line,
        );
        // Fee on top of the moved amount (a withdrawal's outgoing amount is what left net).
        d.fee = fee.map(|(a, q)| pipeline::fee(a, q));
        if inflow {
            d.inflow = Some(pipeline::amount(asset, qty));
        } else {
            d.outflow = Some(pipeline::amount(asset, qty));
        }
        get(C_TRX).clone_into(&mut d.source_ref);
        d.note = [label, get(C_COMMENT)]
            .iter()
            .filter(|s| !s.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join("; ");
        if !ctx.shape(
            line,
            (cols[C_IN_ASSET], cols[C_OUT_ASSET]),
            d.ty,
            d.inflow.as_ref(),
            d.outflow.as_ref(),
        ) {
            return;
        }
        emit(ctx, d);
    });
}
