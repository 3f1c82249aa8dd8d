//! The generic cartera CSV (§2.6): one row, one operation; nothing merged.

use core_domain::ledger::StatedAmount;
use shared_types::SpotTxType;

use crate::model::{ImportOptions, SkipReason};
use crate::pipeline::{self, Ctx, Draft, GroupRef, KeyBase, ProfileOutput, SEP};
use crate::reader::{self, Records};
use crate::values;

const TYPES_LIST: &str = "BUY, SELL, SWAP, DEPOSIT, WITHDRAWAL, STAKING, AIRDROP, REWARD, MINING, SPEND, FEE, TRANSFER_IN, TRANSFER_OUT, MIGRATION_SWAP, PROMOTION, FORK";

pub(crate) fn read(
    ctx: &mut Ctx,
    records: &mut Records<'_>,
    options: &ImportOptions,
) -> ProfileOutput {
    let mut drafts = Vec::with_capacity(records.rows_hint());
    read_into(ctx, records, options, &mut |_, d| drafts.push(d));
    ProfileOutput {
        drafts,
        futures: Vec::new(),
    }
}

/// Reads the rows, handing each draft to `emit` in file order.
#[allow(clippy::too_many_lines, clippy::similar_names)] // One row, fourteen columns: c_ia/c_iq etc. mirror the header.
pub(crate) fn read_into(
    ctx: &mut Ctx,
    records: &mut Records<'_>,
    options: &ImportOptions,
    emit: &mut dyn FnMut(&mut Ctx, Draft),
) {
    let (idx, unknown) = reader::resolve(&ctx.header, &pipeline::GENERIC_COLUMNS);
    if let Some(&i) = unknown.first() {
        let name = ctx.header.name(i).to_owned();
        let f = ctx.header.error(
            i,
            "unknown-column",
            format!("column \"{name}\" is not part of the generic format"),
        );
        ctx.findings.push(f);
        return;
    }
    let col: Vec<usize> = idx.iter().map(|i| i.unwrap_or(0)).collect();
    let [
        c_ts,
        c_ty,
        c_acc,
        c_ia,
        c_iq,
        c_oa,
        c_oq,
        c_fa,
        c_fq,
        c_fv,
        c_fc,
        c_id,
        c_grp,
        c_note,
    ] = <[usize; 14]>::try_from(col).unwrap_or([0; 14]);
    // Sized for the file up front: growing a million-entry map rehashes it several times.
    let mut ids: crate::values::FastMap<u128, u64> =
        crate::values::FastMap::with_capacity_and_hasher(
            records.rows_hint(),
            std::hash::BuildHasherDefault::default(),
        );
    pipeline::for_rows(ctx, records, |ctx, line, rec| {
        let get = |c: usize| reader::cell(rec, c);
        let s = Some;
        let before = ctx.invalid.contains(&line);
        // Timestamp.
        let ts_text = get(c_ts);
        let timestamp = match values::parse_stamp(ts_text, b"T ", false, true) {
            None => {
                if ctx.required(line, s(c_ts), ts_text).is_some() {
                    ctx.err(line, s(c_ts), "bad-timestamp", format!("\"{ts_text}\" is not a timestamp of the form YYYY-MM-DDTHH:MM:SS[.f]Z or ±HH:MM"));
                }
                None
            }
            Some(st) => {
                if let Some(z) = st.zone.or(options.timezone) {
                    ctx.place(line, s(c_ts), st.local, z)
                } else {
                    ctx.err(
                        line,
                        s(c_ts),
                        "timezone-required",
                        "these timestamps carry no time zone; pass --timezone".to_owned(),
                    );
                    None
                }
            }
        };
        let ty_text = get(c_ty);
        let ty = SpotTxType::ALL
            .iter()
            .copied()
            .find(|t| t.as_str().eq_ignore_ascii_case(ty_text));
        if ty.is_none() {
            ctx.err(
                line,
                s(c_ty),
                "unknown-type",
                format!("unknown generic type \"{ty_text}\"; expected one of {TYPES_LIST}"),
            );
        }
        let account = get(c_acc);
        if let Err(reason) = values::validate_account_name(account) {
            ctx.err(
                line,
                s(c_acc),
                "bad-account-name",
                format!("\"{account}\" is not a valid account name: {reason}"),
            );
        }
        let pair =
            |ctx: &mut Ctx, ca: usize, cq: usize, positive: bool, incomplete: &'static str| {
                let (a, q) = (get(ca), get(cq));
                match (a.is_empty(), q.is_empty()) {
                    (true, true) => None,
                    (false, false) => {
                        let asset = ctx.asset(line, s(ca), a);
                        let amount = ctx.dec(line, s(cq), q, false);
                        if positive && amount.is_some_and(|v| v.is_zero()) {
                            ctx.err(
                                line,
                                s(cq),
                                "not-positive",
                                format!("\"{q}\" must be greater than zero"),
                            );
                            return None;
                        }
                        Some((asset?, amount?))
                    }
                    (true, false) => {
                        let msg = if incomplete == "fee-pair-incomplete" {
                            "a fee needs both an asset and an amount"
                        } else {
                            "a value is required here"
                        };
                        ctx.err(line, s(ca), incomplete, msg.to_owned());
                        None
                    }
                    (false, true) => {
                        let msg = if incomplete == "fee-pair-incomplete" {
                            "a fee needs both an asset and an amount"
                        } else {
                            "a value is required here"
                        };
                        ctx.err(line, s(cq), incomplete, msg.to_owned());
                        None
                    }
                }
            };
        let inflow = pair(ctx, c_ia, c_iq, true, "missing-value");
        let outflow = pair(ctx, c_oa, c_oq, true, "missing-value");
        let fee = pair(ctx, c_fa, c_fq, false, "fee-pair-incomplete");
        let (fv, fc) = (get(c_fv), get(c_fc));
        let fiat_value = match (fv.is_empty(), fc.is_empty()) {
            (true, true) => None,
            (false, false) => {
                let v = ctx.dec(line, s(c_fv), fv, false);
                let c = ctx.asset(line, s(c_fc), fc);
                v.zip(c)
                    .map(|(amount, currency)| StatedAmount { amount, currency })
            }
            (empty_value, _) => {
                let c = if empty_value { c_fv } else { c_fc };
                ctx.err(
                    line,
                    s(c),
                    "fiat-value-incomplete",
                    "a fiat value needs both an amount and a currency".to_owned(),
                );
                None
            }
        };
        let group = get(c_grp);
        if group.chars().count() > 200 {
            ctx.err(
                line,
                s(c_grp),
                "value-too-long",
                "group_id is longer than 200 characters".to_owned(),
            );
        }
        let note = get(c_note);
        if note.chars().count() > pipeline::NOTE_CHARS {
            ctx.err(
                line,
                s(c_note),
                "value-too-long",
                "note is longer than 500 characters".to_owned(),
            );
        }
        if ctx.invalid.contains(&line) && !before {
            return;
        }
        let (Some(timestamp), Some(ty)) = (timestamp, ty) else {
            return;
        };
        let inflow = inflow.map(|(a, q)| pipeline::amount(a, q));
        let outflow = outflow.map(|(a, q)| pipeline::amount(a, q));
        if let (Some(i), Some(o)) = (inflow, outflow)
            && i.asset == o.asset
        {
            // Same asset on both sides (§1.6): only a non-zero fee survives.
            match fee {
                Some((a, q)) if !q.is_zero() => {
                    let mut d = Draft::new(
                        account.to_owned(),
                        account,
                        timestamp,
                        SpotTxType::Fee,
                        KeyBase::Content,
                        line,
                    );
                    d.outflow = Some(pipeline::amount(a, q));
                    emit(ctx, d);
                }
                _ => ctx.skip(SkipReason::InternalMovement, 1),
            }
            return;
        }
        if !ctx.shape(
            line,
            (s(c_ia), s(c_oa)),
            ty,
            inflow.as_ref(),
            outflow.as_ref(),
        ) {
            return;
        }
        if let Some(v) = fiat_value {
            let fiat_side = match ty {
                SpotTxType::Buy => outflow,
                SpotTxType::Sell => inflow,
                _ => None,
            };
            if let Some(side) = fiat_side
                && side.asset == v.currency
                && side.quantity != v.amount
            {
                ctx.err(
                    line,
                    s(c_fv),
                    "fiat-value-conflict",
                    format!(
                        "fiat value {} {} differs from the fiat side {} {}",
                        values::norm(v.amount),
                        v.currency,
                        values::norm(side.quantity),
                        side.asset
                    ),
                );
                return;
            }
        }
        let id = get(c_id);
        let key = if id.is_empty() {
            KeyBase::Content
        } else {
            let key = format!(
                "v1{SEP}generic{SEP}id{SEP}{}{SEP}{id}",
                account.to_lowercase()
            );
            match ids.entry(values::digest128(key.as_bytes())) {
                std::collections::hash_map::Entry::Occupied(first) => {
                    let first = *first.get();
                    ctx.err(
                        line,
                        s(c_id),
                        "duplicate-id",
                        format!("id \"{id}\" already appears on line {first}"),
                    );
                    return;
                }
                std::collections::hash_map::Entry::Vacant(slot) => {
                    slot.insert(line);
                }
            }
            KeyBase::Declared(key, Some(c_id))
        };
        let mut d = Draft::new(account.to_owned(), account, timestamp, ty, key, line);
        d.inflow = inflow;
        d.outflow = outflow;
        d.fee = fee.map(|(a, q)| pipeline::fee(a, q));
        d.fiat_value = fiat_value;
        if !group.is_empty() {
            d.group = GroupRef::Text(group.to_owned());
        }
        id.clone_into(&mut d.source_ref);
        note.clone_into(&mut d.note);
        emit(ctx, d);
    });
}
