//! Operations an export writes as several adjacent rows sharing a key (§1.12): the fills of
//! one KuCoin order, the legs of a KuCoin or Bybit conversion booked at one instant. Each row
//! adds its signed principals and its fee; when a row with another key arrives (or the file
//! ends) the operation is merged into one trade. Only the open operation is held, so memory
//! does not grow with the rows.

use std::collections::BTreeMap;

use core_domain::{Asset, Instant};
use rust_decimal::Decimal;
use shared_types::SpotTxType;

use crate::model::SkipReason;
use crate::ops;
use crate::pipeline::{Ctx, Draft, KeyBase};

/// What a merged operation is called and stored as.
pub(crate) struct Opening {
    /// Names the operation in messages (`order 66a1…`, `Convert Market at …`).
    pub(crate) what: String,
    pub(crate) ident: KeyBase,
    pub(crate) note: String,
    pub(crate) source_ref: String,
}

/// One row's part: signed principals (positive in, negative out) and its fee.
pub(crate) struct Leg {
    pub(crate) instant: Instant,
    pub(crate) changes: Vec<(Asset, Decimal)>,
    pub(crate) fee: Option<(Asset, Decimal)>,
}

struct Open {
    key: String,
    opening: Opening,
    instant: Option<Instant>,
    lines: Vec<u64>,
    ins: BTreeMap<Asset, Decimal>,
    outs: BTreeMap<Asset, Decimal>,
    fees: BTreeMap<Asset, Decimal>,
    overflow: bool,
}

/// The operation being read, booked on `account` when it closes.
pub(crate) struct Merger {
    account: String,
    /// The column that joins the rows, where group findings are reported.
    col: Option<usize>,
    open: Option<Open>,
}

impl Merger {
    pub(crate) fn new(account: &str, col: Option<usize>) -> Self {
        Self {
            account: account.to_owned(),
            col,
            open: None,
        }
    }

    /// Whether the open operation is `key`.
    pub(crate) fn is_open(&self, key: &str) -> bool {
        self.open.as_ref().is_some_and(|o| o.key == key)
    }

    /// Adds the row at `line` to the operation `key` (opened with `opening` when it is not
    /// the open one, which is closed first). `leg` is `None` when the row's cells are invalid.
    pub(crate) fn add(
        &mut self,
        ctx: &mut Ctx,
        emit: &mut dyn FnMut(&mut Ctx, Draft),
        key: &str,
        opening: impl FnOnce() -> Opening,
        line: u64,
        leg: Option<Leg>,
    ) {
        if self.open.as_ref().is_some_and(|o| o.key != key) {
            self.close(ctx, emit);
        }
        let open = self.open.get_or_insert_with(|| Open {
            key: key.to_owned(),
            opening: opening(),
            instant: None,
            lines: Vec::new(),
            ins: BTreeMap::new(),
            outs: BTreeMap::new(),
            fees: BTreeMap::new(),
            overflow: false,
        });
        open.lines.push(line);
        let Some(leg) = leg else {
            return;
        };
        // The latest leg times the operation: when it was complete.
        open.instant = open.instant.max(Some(leg.instant));
        for (asset, q) in leg.changes {
            let ok = if q.is_sign_negative() {
                ops::sum_into(&mut open.outs, asset, q.abs())
            } else {
                q.is_zero() || ops::sum_into(&mut open.ins, asset, q)
            };
            open.overflow |= !ok;
        }
        if let Some((asset, q)) = leg.fee {
            open.overflow |= !ops::sum_into(&mut open.fees, asset, q);
        }
    }

    /// Merges the open operation (before a row that is not part of it, and at the end).
    pub(crate) fn close(&mut self, ctx: &mut Ctx, emit: &mut dyn FnMut(&mut Ctx, Draft)) {
        let Some(o) = self.open.take() else {
            return;
        };
        let what = &o.opening.what;
        if o.lines.iter().any(|l| ctx.invalid.contains(l)) {
            ctx.group_invalid(&o.lines, self.col, what);
            return;
        }
        if o.overflow {
            ctx.group_err(
                &o.lines,
                self.col,
                "decimal-out-of-range",
                &format!("the legs of {what} overflow"),
            );
            return;
        }
        let Some((inflow, outflow)) = ops::sides(ctx, &o.lines, self.col, what, &o.ins, &o.outs)
        else {
            return;
        };
        let (Some(instant), Some(&first)) = (o.instant, o.lines.iter().min()) else {
            return;
        };
        let mut base = Draft::new(
            self.account.clone(),
            &self.account,
            instant,
            SpotTxType::Swap,
            o.opening.ident,
            first,
        );
        base.extra_lines = o.lines.iter().copied().filter(|l| *l != first).collect();
        base.source_ref = o.opening.source_ref;
        base.note = o.opening.note;
        match ops::exchange(&base, inflow, outflow, &o.fees, false, what) {
            Some(drafts) => {
                for d in drafts {
                    emit(ctx, d);
                }
            }
            None => ctx.skip(SkipReason::InternalMovement, o.lines.len() as u64),
        }
    }
}
