//! Effective rows: imported rows with their overrides applied (`domain.md` §6, §8.1 step 1).
//!
//! [`validate_override`] is the write-time check (an invalid override is refused with
//! `InvalidOverride`). [`effective_row`] is the pipeline step, which never fails: a row whose
//! effective form violates §4.2, or whose stored override is invalid (data written before a rule
//! existed), becomes `TxType::Unknown` with the violation as its reason.

use std::collections::BTreeMap;

use rayon::prelude::*;
use rust_decimal::Decimal;
use shared_types::SpotTxType;

use crate::engine::{EditedValues, EffectiveRow, EngineInput};
use crate::error::{DomainError, DomainResult};
use crate::ledger::{AssetAmount, Fee, FuturesRow, SpotRow, StatedAmount, TxType};
use crate::overrides::{FeeEdit, RowOverride, ValueEdit};

/// What a side (`in` or `out`) of a row type admits (`domain.md` §4.2).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Absent,
    Crypto,
    Fiat,
    Any,
    OptionalFiat,
}

fn check_side(
    name: &str,
    rule: Side,
    amount: Option<AssetAmount>,
    tx_type: &str,
) -> Result<(), String> {
    let Some(amount) = amount else {
        return match rule {
            Side::Crypto | Side::Fiat | Side::Any => Err(format!("{tx_type}: {name} is required")),
            Side::Absent | Side::OptionalFiat => Ok(()),
        };
    };
    if rule == Side::Absent {
        return Err(format!("{tx_type}: {name} must be absent"));
    }
    if amount.quantity <= Decimal::ZERO {
        return Err(format!("{tx_type}: {name} quantity must be > 0"));
    }
    match rule {
        Side::Crypto if amount.asset.is_fiat() => Err(format!("{tx_type}: {name} must be crypto")),
        Side::Fiat | Side::OptionalFiat if amount.asset.is_crypto() => {
            Err(format!("{tx_type}: {name} must be fiat"))
        }
        _ => Ok(()),
    }
}

/// Checks the shape rules of `domain.md` §4.2 on a (effective) row; `Err` carries the reason.
pub fn check_shape(row: &SpotRow) -> Result<(), String> {
    use SpotTxType as T;
    let TxType::Spot(tx_type) = &row.tx_type else {
        return Ok(());
    };
    let (inflow, outflow) = match tx_type {
        T::Buy => (Side::Crypto, Side::OptionalFiat),
        T::Sell => (Side::OptionalFiat, Side::Crypto),
        T::Swap | T::MigrationSwap => (Side::Crypto, Side::Crypto),
        T::Deposit => (Side::Fiat, Side::Absent),
        T::Withdrawal => (Side::Absent, Side::Fiat),
        T::Staking | T::Airdrop | T::Mining | T::Fork | T::TransferIn => {
            (Side::Crypto, Side::Absent)
        }
        T::Reward | T::Promotion => (Side::Any, Side::Absent),
        T::Spend | T::TransferOut => (Side::Absent, Side::Crypto),
        T::Fee => (Side::Absent, Side::Any),
    };
    check_side("in", inflow, row.inflow, tx_type.as_str())?;
    check_side("out", outflow, row.outflow, tx_type.as_str())?;
    if matches!(tx_type, T::Swap | T::MigrationSwap)
        && let (Some(i), Some(o)) = (row.inflow, row.outflow)
        && i.asset == o.asset
    {
        return Err(format!(
            "{}: in and out must be different assets",
            tx_type.as_str()
        ));
    }
    if let Some(fee) = row.fee
        && fee.quantity.is_sign_negative()
        && !fee.quantity.is_zero()
        && fee.asset.is_crypto()
    {
        return Err("a negative fee is allowed only in a fiat asset".to_owned());
    }
    Ok(())
}

/// Field checks of an override, independent of the row's resulting shape.
fn check_override_fields(row: &SpotRow, edit: &RowOverride) -> Result<(), String> {
    let edits_nothing = edit.sets_no_field() && !edit.excluded;
    if edits_nothing {
        return Err("the override edits nothing".to_owned());
    }
    for (name, quantity, side) in [
        ("in.quantity", edit.in_quantity, row.inflow),
        ("out.quantity", edit.out_quantity, row.outflow),
    ] {
        if let Some(quantity) = quantity {
            if quantity <= Decimal::ZERO {
                return Err(format!("{name} must be > 0"));
            }
            if side.is_none() {
                return Err(format!("{name} edited on a row without that side"));
            }
        }
    }
    if let FeeEdit::Charged { asset, quantity } = edit.fee
        && quantity.is_sign_negative()
        && !quantity.is_zero()
        && asset.is_crypto()
    {
        return Err("a negative fee is allowed only in a fiat asset".to_owned());
    }
    for (name, value) in [
        ("edited_value", edit.edited_value),
        ("edited_price", edit.edited_price),
        ("edited_fee_value", edit.edited_fee_value),
    ] {
        if let ValueEdit::Set { amount, currency } = value {
            if !currency.is_fiat() {
                return Err(format!("{name}: {currency} is not a fiat currency"));
            }
            if amount.is_sign_negative() && !amount.is_zero() {
                return Err(format!("{name} must be ≥ 0"));
            }
        }
    }
    if edit.edited_fee_value == ValueEdit::Clear {
        return Err("edited_fee_value cannot be cleared".to_owned());
    }
    Ok(())
}

/// Applies the fields of `edit` to `row`, without any check.
fn apply_fields(row: &SpotRow, edit: &RowOverride) -> EffectiveRow {
    apply_fields_owned(row.clone(), edit)
}

/// [`apply_fields`] on a row the caller gives up: edited in place, nothing copied.
fn apply_fields_owned(mut effective: SpotRow, edit: &RowOverride) -> EffectiveRow {
    if let Some(tx_type) = edit.tx_type {
        effective.tx_type = TxType::Spot(tx_type);
    }
    if let Some(instant) = edit.instant {
        effective.instant = instant;
    }
    if let (Some(quantity), Some(inflow)) = (edit.in_quantity, effective.inflow.as_mut()) {
        inflow.quantity = quantity;
    }
    if let (Some(quantity), Some(outflow)) = (edit.out_quantity, effective.outflow.as_mut()) {
        outflow.quantity = quantity;
    }
    match edit.fee {
        FeeEdit::Unchanged => {}
        FeeEdit::None => effective.fee = None,
        FeeEdit::Charged { asset, quantity } => effective.fee = Some(Fee { asset, quantity }),
    }
    if edit.edited_value == ValueEdit::Clear || edit.edited_price == ValueEdit::Clear {
        let mut stated = effective.stated_values();
        if edit.edited_value == ValueEdit::Clear {
            stated.value = None;
        }
        if edit.edited_price == ValueEdit::Clear {
            stated.price = None;
        }
        effective.set_stated_values(stated);
    }
    let set = |value: ValueEdit| match value {
        ValueEdit::Set { amount, currency } => Some(StatedAmount { amount, currency }),
        ValueEdit::Unchanged | ValueEdit::Clear => None,
    };
    EffectiveRow::with_edits(
        effective,
        EditedValues {
            value: set(edit.edited_value),
            price: set(edit.edited_price),
            fee_value: set(edit.edited_fee_value),
        },
    )
}

/// The write-time check of an override of a spot row (`domain.md` §6.1): it must edit
/// something, edited quantities must be > 0, edited currencies fiat, and the effective row must
/// satisfy §4.2.
pub fn validate_override(row: &SpotRow, edit: &RowOverride) -> DomainResult<()> {
    let invalid = |reason: String| DomainError::InvalidOverride {
        row_key: row.row_key.to_string(),
        reason,
    };
    check_override_fields(row, edit).map_err(invalid)?;
    let effective = apply_fields(row, edit);
    if let TxType::Unknown { source_label } = &effective.row.tx_type
        && !edit.excluded
    {
        return Err(invalid(format!(
            "the row stays unknown ({source_label}); set a type"
        )));
    }
    check_shape(&effective.row).map_err(invalid)
}

/// The write-time check of an override of a futures row: only `excluded` (`domain.md` §6.2).
pub fn validate_futures_override(row: &FuturesRow, edit: &RowOverride) -> DomainResult<()> {
    let only_excluded = edit.sets_no_field();
    if !only_excluded || !edit.excluded {
        return Err(DomainError::InvalidOverride {
            row_key: row.row_key.to_string(),
            reason: "futures rows accept only excluded".to_owned(),
        });
    }
    Ok(())
}

/// The effective form of `row` (`None` when an override excludes it). Never fails: an invalid
/// stored override or a shape violation turns the row `Unknown` with the reason.
pub fn effective_row(row: &SpotRow, edit: Option<&RowOverride>) -> Option<EffectiveRow> {
    if edit.is_some_and(|edit| edit.excluded) {
        return None;
    }
    effective_row_owned(row.clone(), edit)
}

/// [`effective_row`] on a row the caller gives up: the row is edited in place, so the engine's
/// input is the imported rows themselves, not a copy of them.
pub fn effective_row_owned(row: SpotRow, edit: Option<&RowOverride>) -> Option<EffectiveRow> {
    let mut effective = match edit {
        None => EffectiveRow::new(row),
        Some(edit) if edit.excluded => return None,
        Some(edit) => match check_override_fields(&row, edit) {
            // An override that edits nothing changes nothing.
            Ok(()) => apply_fields_owned(row, edit),
            Err(reason) if reason == "the override edits nothing" => apply_fields_owned(row, edit),
            Err(reason) => {
                let mut effective = apply_fields_owned(row, edit);
                effective.row.tx_type = TxType::Unknown {
                    source_label: format!("invalid override: {reason}"),
                };
                return Some(effective);
            }
        },
    };
    if let Err(reason) = check_shape(&effective.row) {
        effective.row.tx_type = TxType::Unknown {
            source_label: reason,
        };
    }
    Some(effective)
}

/// Every effective spot row (excluded rows dropped), in input order. Overrides whose row does
/// not exist are ignored; with several overrides for one row the last wins.
pub fn effective_rows(rows: &[SpotRow], overrides: &[RowOverride]) -> Vec<EffectiveRow> {
    let by_key = overrides_by_key(overrides);
    rows.iter()
        .filter_map(|row| effective_row(row, row.row_key.with_str(|key| by_key.get(key).copied())))
        .collect()
}

// `effective_rows_owned` turns the imported rows into effective rows in their own allocation
// only when the two have one layout.
const _: () = assert!(
    size_of::<EffectiveRow>() == size_of::<SpotRow>()
        && align_of::<EffectiveRow>() == align_of::<SpotRow>()
);

/// [`effective_rows`] on rows the caller gives up: each row is moved into its effective form
/// (no row, row key or label is copied).
pub fn effective_rows_owned(rows: Vec<SpotRow>, overrides: &[RowOverride]) -> Vec<EffectiveRow> {
    let by_key = overrides_by_key(overrides);
    // One pass over the vector: an effective row has the size and alignment of an imported
    // one, so `collect` reuses the rows' allocation instead of filling a second one.
    rows.into_iter()
        .filter_map(|row| {
            // Most ledgers have few overrides: skip the lookup when there are none.
            let edit = if by_key.is_empty() {
                None
            } else {
                row.row_key.with_str(|key| by_key.get(key).copied())
            };
            effective_row_owned(row, edit)
        })
        .collect()
}

/// Rows per piece of [`unedited_rows_visited`] for a caller with no reason to choose: a piece's
/// fixed cost (the caller's empty
/// visit state, one merge) is tens of microseconds against about a millisecond of rows, and
/// the pieces are enough for work stealing to balance any number of threads.
pub const VISIT_PIECE_ROWS: usize = 16_384;

/// [`effective_rows_owned`] of a ledger without overrides, checked in pieces of `piece_rows`
/// rows side by side (`par_chunks_mut`); `visit` sees each piece's effective
/// rows right after their check, while they are in cache (a caller's own pass over every row
/// rides along), and `merge` joins the visits of adjacent pieces, earlier first. Returns the
/// rows and the merged visit (`None` without rows).
pub fn unedited_rows_visited<T: Send>(
    rows: Vec<SpotRow>,
    piece_rows: usize,
    visit: impl Fn(&[EffectiveRow]) -> T + Sync,
    merge: impl Fn(T, T) -> T + Sync + Send,
) -> (Vec<EffectiveRow>, Option<T>) {
    // Wrapping reuses the rows' allocation (one layout); the checks then run in place.
    let mut rows: Vec<EffectiveRow> = rows.into_iter().map(EffectiveRow::new).collect();
    let visited = rows
        .par_chunks_mut(piece_rows.max(1))
        .map(|piece| {
            for effective in piece.iter_mut() {
                if let Err(reason) = check_shape(&effective.row) {
                    effective.row.tx_type = TxType::Unknown {
                        source_label: reason,
                    };
                }
            }
            visit(piece)
        })
        .reduce_with(merge);
    (rows, visited)
}

fn overrides_by_key(overrides: &[RowOverride]) -> BTreeMap<&str, &RowOverride> {
    overrides
        .iter()
        .map(|edit| (edit.row_key.as_str(), edit))
        .collect()
}

/// Every futures row not excluded by an override, in input order.
pub fn effective_futures(rows: &[FuturesRow], overrides: &[RowOverride]) -> Vec<FuturesRow> {
    let excluded: BTreeMap<&str, bool> = overrides
        .iter()
        .map(|edit| (edit.row_key.as_str(), edit.excluded))
        .collect();
    rows.iter()
        .filter(|row| {
            !row.row_key
                .with_str(|key| excluded.get(key).copied().unwrap_or(false))
        })
        .cloned()
        .collect()
}

/// [`effective_futures`] on rows the caller gives up.
pub fn effective_futures_owned(
    mut rows: Vec<FuturesRow>,
    overrides: &[RowOverride],
) -> Vec<FuturesRow> {
    let excluded: BTreeMap<&str, bool> = overrides
        .iter()
        .map(|edit| (edit.row_key.as_str(), edit.excluded))
        .collect();
    if excluded.values().any(|excluded| *excluded) {
        rows.retain(|row| {
            !row.row_key
                .with_str(|key| excluded.get(key).copied().unwrap_or(false))
        });
    }
    rows
}

/// The engine's input from the imported ledger and its overrides.
pub fn engine_input(
    rows: &[SpotRow],
    futures: &[FuturesRow],
    overrides: &[RowOverride],
) -> EngineInput {
    EngineInput {
        rows: effective_rows(rows, overrides),
        futures: effective_futures(futures, overrides),
    }
}

/// [`engine_input`] from rows the caller gives up: no copy of the ledger is made.
pub fn engine_input_owned(
    rows: Vec<SpotRow>,
    futures: Vec<FuturesRow>,
    overrides: &[RowOverride],
) -> EngineInput {
    EngineInput {
        rows: effective_rows_owned(rows, overrides),
        futures: effective_futures_owned(futures, overrides),
    }
}
