//! Normalising a merged operation (§1.6, §1.10, §1.12): the type from the sides, fiat-to-fiat
//! and same-asset shapes, and the one-fee-pair rule with split-off `FEE` transactions.

use std::collections::BTreeMap;

use core_domain::Asset;
use rust_decimal::Decimal;
use shared_types::SpotTxType;

use crate::pipeline::{self, Draft, GroupRef};

/// One side of an operation after summing its legs.
pub(crate) type Side = (Asset, Decimal);

/// Builds the transactions of an exchange operation. `base` carries account, timestamp, key,
/// lines, note and source ref; its type and sides are set here. `None` means the operation is
/// an internal movement without any fee (the caller counts its rows as skipped).
pub(crate) fn exchange(
    base: &Draft,
    inflow: Side,
    outflow: Side,
    fees: &BTreeMap<Asset, Decimal>,
    migration: bool,
    group: &str,
) -> Option<Vec<Draft>> {
    let nonzero: Vec<Side> = fees
        .iter()
        .filter(|(_, q)| !q.is_zero())
        .map(|(a, q)| (*a, *q))
        .collect();
    let zero_only = nonzero.is_empty() && !fees.is_empty();
    let mut out = Vec::new();
    if inflow.0 == outflow.0 {
        // Same asset on both sides: nothing but the fees (§1.6).
        for (i, (a, q)) in nonzero.iter().enumerate() {
            let mut d = if i == 0 {
                base.clone()
            } else {
                base.with_role(format!("fee:{a}"))
            };
            d.ty = SpotTxType::Fee;
            d.outflow = Some(pipeline::amount(*a, *q));
            if nonzero.len() > 1 {
                d.group = GroupRef::Text(group.to_owned());
            }
            out.push(d);
        }
        return if out.is_empty() { None } else { Some(out) };
    }
    if inflow.0.is_fiat() && outflow.0.is_fiat() {
        let mut w = base.clone();
        w.ty = SpotTxType::Withdrawal;
        w.outflow = Some(pipeline::amount(outflow.0, outflow.1));
        w.group = GroupRef::Text(group.to_owned());
        let mut dep = base.with_role("fx-in".to_owned());
        dep.ty = SpotTxType::Deposit;
        dep.inflow = Some(pipeline::amount(inflow.0, inflow.1));
        dep.group = GroupRef::Text(group.to_owned());
        let mut rest = Vec::new();
        if zero_only {
            w.fee = Some(pipeline::fee(outflow.0, Decimal::ZERO));
        }
        for (a, q) in &nonzero {
            if *a == outflow.0 {
                w.fee = Some(pipeline::fee(*a, *q));
            } else if *a == inflow.0 {
                dep.fee = Some(pipeline::fee(*a, *q));
            } else {
                rest.push((*a, *q));
            }
        }
        let mut rest = rest.into_iter();
        if w.fee.is_none()
            && let Some((a, q)) = rest.next()
        {
            w.fee = Some(pipeline::fee(a, q));
        }
        out.push(w);
        out.push(dep);
        for (a, q) in rest {
            out.push(fee_tx(base, a, q, group));
        }
        return Some(out);
    }
    let ty = match (inflow.0.is_fiat(), outflow.0.is_fiat()) {
        (false, true) => SpotTxType::Buy,
        (true, false) => SpotTxType::Sell,
        _ if migration => SpotTxType::MigrationSwap,
        _ => SpotTxType::Swap,
    };
    let mut d = base.clone();
    d.ty = ty;
    d.inflow = Some(pipeline::amount(inflow.0, inflow.1));
    d.outflow = Some(pipeline::amount(outflow.0, outflow.1));
    let kept = nonzero
        .iter()
        .find(|(a, _)| *a == outflow.0)
        .or_else(|| nonzero.iter().find(|(a, _)| *a == inflow.0))
        .or_else(|| nonzero.first())
        .copied();
    if let Some((a, q)) = kept {
        d.fee = Some(pipeline::fee(a, q));
    } else if zero_only {
        d.fee = Some(pipeline::fee(outflow.0, Decimal::ZERO));
    }
    let others: Vec<Side> = nonzero
        .iter()
        .copied()
        .filter(|(a, _)| Some(*a) != kept.map(|k| k.0))
        .collect();
    if !others.is_empty() {
        d.group = GroupRef::Text(group.to_owned());
    }
    out.push(d);
    for (a, q) in others {
        out.push(fee_tx(base, a, q, group));
    }
    Some(out)
}

fn fee_tx(base: &Draft, asset: Asset, q: Decimal, group: &str) -> Draft {
    let mut f = base.with_role(format!("fee:{asset}"));
    f.ty = SpotTxType::Fee;
    f.inflow = None;
    f.outflow = Some(pipeline::amount(asset, q));
    f.fee = None;
    f.fiat_value = None;
    f.group = GroupRef::Text(group.to_owned());
    f
}

/// Sums `q` into `map[a]`; `false` on overflow.
pub(crate) fn sum_into(map: &mut BTreeMap<Asset, Decimal>, a: Asset, q: Decimal) -> bool {
    let e = map.entry(a).or_insert(Decimal::ZERO);
    match e.checked_add(q) {
        Some(v) => {
            *e = v;
            true
        }
        None => false,
    }
}

/// The one in and one out side of a group, or the group error (§1.12).
pub(crate) fn sides(
    ctx: &mut crate::pipeline::Ctx,
    lines: &[u64],
    col: Option<usize>,
    key_text: &str,
    ins: &BTreeMap<Asset, Decimal>,
    outs: &BTreeMap<Asset, Decimal>,
) -> Option<(Side, Side)> {
    for (map, word) in [(ins, "in"), (outs, "out")] {
        match map.len() {
            0 => {
                ctx.group_err(
                    lines,
                    col,
                    "incomplete-group",
                    &format!(
                        "operation {key_text} has no {word} leg; if the export was made for one asset only, export it again for all assets"
                    ),
                );
                return None;
            }
            1 => {}
            _ => {
                let names: Vec<&str> = map.keys().map(Asset::as_str).collect();
                ctx.group_err(
                    lines,
                    col,
                    "mixed-assets-in-group",
                    &format!(
                        "operation {key_text} has {word} legs in {} and {}",
                        names[0], names[1]
                    ),
                );
                return None;
            }
        }
    }
    let i = ins.iter().next().map(|(a, q)| (*a, *q))?;
    let o = outs.iter().next().map(|(a, q)| (*a, *q))?;
    Some((i, o))
}
