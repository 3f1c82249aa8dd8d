//! `SearchSpotTransactions`: effective rows, newest first, one page at a time.

use std::collections::BTreeSet;

use core_domain::engine::EffectiveRow;
use core_domain::ledger::TxType;
use shared_types::dto::{FeeDto, TxPage, TxRow};

use super::TxSearchRequest;
use super::convert::{count, fiat, instant, qty, unit};
use super::lots::parse_symbol;
use super::state::Derived;
use crate::error::{UseCaseError, UseCaseResult};

fn type_name(t: &TxType) -> &'static str {
    match t {
        TxType::Spot(t) => t.as_str(),
        TxType::Unknown { .. } => "UNKNOWN",
    }
}

fn row_dto(derived: &Derived, e: &EffectiveRow, edited: bool) -> TxRow {
    let row = &e.row;
    let value = e.edited_value().or(row.stated_value());
    let price = e.edited_price().or(row.stated_price());
    TxRow {
        row_key: row.row_key.to_string(),
        date: instant(row.instant),
        tx_type: type_name(&row.tx_type).to_owned(),
        asset_in: row.inflow.map(|a| a.asset.to_string()),
        amount_in: row.inflow.map(|a| qty(a.quantity)),
        asset_out: row.outflow.map(|a| a.asset.to_string()),
        amount_out: row.outflow.map(|a| qty(a.quantity)),
        price_fiat: price.map(|p| unit(p.amount)),
        total_fiat: value.map(|v| fiat(v.amount)),
        fiat_currency: value.or(price).map(|v| v.currency.to_string()),
        fee: row.fee.map_or(FeeDto::None, |f| FeeDto::Charged {
            amount: qty(f.quantity),
            asset: f.asset.to_string(),
        }),
        exchange: derived.account_name(row.account_id),
        edited,
    }
}

/// `SearchSpotTransactions`.
pub(crate) fn search(derived: &Derived, req: &TxSearchRequest) -> UseCaseResult<TxPage> {
    if req.page == 0 {
        return Err(UseCaseError::InvalidRequest {
            field: "page".to_owned(),
            reason: "pages start at 1".to_owned(),
        });
    }
    if req.page_size == 0 {
        return Err(UseCaseError::InvalidRequest {
            field: "pageSize".to_owned(),
            reason: "must be at least 1".to_owned(),
        });
    }
    if let (Some(from), Some(to)) = (req.from, req.to) {
        if from > to {
            return Err(UseCaseError::InvalidRequest {
                field: "from".to_owned(),
                reason: format!("{from} is after to {to}"),
            });
        }
    }
    let symbol = req
        .symbol
        .as_deref()
        .map(|s| parse_symbol("symbol", s))
        .transpose()?;
    let tz = derived.settings.fiscal_timezone;
    let mut matched: Vec<&EffectiveRow> = derived
        .input
        .rows
        .iter()
        .filter(|e| {
            let row = &e.row;
            let side =
                |a: Option<core_domain::AssetAmount>| a.is_some_and(|a| Some(a.asset) == symbol);
            let kept = symbol.is_none_or(|_| side(row.inflow) || side(row.outflow))
                && (req.types.is_empty()
                    || matches!(&row.tx_type, TxType::Spot(t) if req.types.contains(t)));
            // The fiscal date (daylight-saving rules) last, and only when a bound asks for it.
            if !kept || (req.from.is_none() && req.to.is_none()) {
                return kept;
            }
            let day = tz.fiscal_date(row.instant);
            req.from.is_none_or(|f| day >= f) && req.to.is_none_or(|t| day <= t)
        })
        .collect();
    matched.sort_by(|a, b| {
        b.row
            .instant
            .cmp(&a.row.instant)
            .then_with(|| a.row.row_key.cmp(&b.row.row_key))
    });
    let edited: BTreeSet<&str> = derived
        .overrides
        .iter()
        .map(|o| o.row_key.as_str())
        .collect();
    let total = matched.len();
    let start = (req.page - 1).saturating_mul(req.page_size);
    let rows = matched
        .iter()
        .skip(start)
        .take(req.page_size)
        .map(|e| {
            row_dto(
                derived,
                e,
                e.row.row_key.with_str(|key| edited.contains(key)),
            )
        })
        .collect();
    Ok(TxPage {
        rows,
        page: req.page as u64,
        page_size: req.page_size as u64,
        total_pages: count(total.div_ceil(req.page_size).max(1)),
        total_count: count(total),
    })
}
