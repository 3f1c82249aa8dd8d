//! `GetTokenHistory`, `GetLotCustodyLocations` and `GetDerivativesPnl`.

use std::collections::BTreeMap;

use core_domain::Asset;
use core_domain::custody::Location;
use core_domain::engine::{LotId, LotStatus};
use core_domain::holdings::{self, summarize_custody_locations};
use core_domain::num;
use core_domain::ranking::{page, rank_by_absolute_value};
use rust_decimal::Decimal;
use shared_types::dto::{
    CustodyLocation, CustodyLocations, DerivativeContractPnl, DerivativesPnl, LotDto, LotSliceDto,
    RelocationDto, TokenHistory,
};

use super::convert::{count, date, fiat, fiat_opt, flags, instant, qty, unit};
use super::state::Derived;
use crate::error::{UseCaseError, UseCaseResult};

/// Parses a user-typed symbol (case-insensitive).
pub(crate) fn parse_symbol(field: &str, text: &str) -> UseCaseResult<Asset> {
    Asset::new(&text.trim().to_ascii_uppercase()).map_err(|_| UseCaseError::InvalidRequest {
        field: field.to_owned(),
        reason: format!("{text:?} is not a symbol (1 to 20 of A-Z, 0-9 and dot)"),
    })
}

fn location_name(derived: &Derived, location: Location) -> String {
    location.name(&derived.accounts)
}

fn status(s: LotStatus) -> &'static str {
    match s {
        LotStatus::Open => "OPEN",
        LotStatus::Partial => "PARTIAL",
        LotStatus::Closed => "CLOSED",
    }
}

/// `GetTokenHistory`: lots of one asset, acquisition instant descending then lot key, one page.
#[allow(clippy::too_many_lines)] // One match arm or step per case, read top to bottom.
pub(crate) fn token_history(
    derived: &Derived,
    symbol: &str,
    page_index: usize,
    page_size: usize,
) -> UseCaseResult<TokenHistory> {
    if page_size == 0 {
        return Err(UseCaseError::InvalidRequest {
            field: "pageSize".to_owned(),
            reason: "must be at least 1".to_owned(),
        });
    }
    let asset = parse_symbol("symbol", symbol)?;
    let input = &derived.input;
    let output = &derived.output;
    let custody = derived.custody()?;
    // Acquisition instant descending, then public lot id: the ids (strings) are built only
    // for lots that share an instant and for the page shown, not for every lot of the asset.
    // The engine keeps an asset's lots in FIFO queue order: a lot's number is its position
    // there (the oldest is 1), whatever the listing order, so it never changes as lots arrive.
    let mut order: Vec<(core_domain::Instant, u32, u64)> = output
        .lots
        .iter()
        .enumerate()
        .filter(|(_, lot)| lot.asset == asset)
        .zip(1u64..)
        .map(|((i, lot), number)| (lot.acquired_at, i as u32, number))
        .collect();
    order.sort_by(|(a, _, _), (b, _, _)| b.cmp(a));
    let public_id = |i: u32| {
        output
            .lots
            .get(i as usize)
            .map(|lot| input.lot_public_id(lot.lot_id))
            .unwrap_or_default()
    };
    for group in order.chunk_by_mut(|(a, _, _), (b, _, _)| a == b) {
        if group.len() > 1 {
            group.sort_by_cached_key(|(_, i, _)| public_id(*i).into_bytes());
        }
    }
    let total = order.len();
    let shown_order = page(&order, page_index, page_size);
    let shown: Vec<(u32, String, u64)> = shown_order
        .items
        .iter()
        .map(|(_, i, number)| (*i, public_id(*i), *number))
        .collect();
    let wanted: BTreeMap<LotId, usize> = shown
        .iter()
        .enumerate()
        .filter_map(|(pos, (i, _, _))| output.lots.get(*i as usize).map(|l| (l.lot_id, pos)))
        .collect();
    let mut slices: Vec<Vec<LotSliceDto>> = vec![Vec::new(); shown.len()];
    for slice in output.slices.iter().filter(|s| s.asset == asset) {
        let Some(pos) = slice.lot_id.and_then(|id| wanted.get(&id)) else {
            continue;
        };
        let Some(op) = output.operation_of(slice) else {
            continue;
        };
        if let Some(list) = slices.get_mut(*pos) {
            list.push(LotSliceDto {
                slice_id: input.slice_public_id(output, slice),
                row_key: input
                    .row_key(op.row)
                    .map(ToString::to_string)
                    .unwrap_or_default(),
                date: date(op.fiscal_date),
                leg: slice.leg.as_str().to_owned(),
                tx_type: op.tx_type.as_str().to_owned(),
                quantity: qty(slice.quantity),
                transmission_value: fiat_opt(slice.net_transmission_value()),
                acquisition_value: fiat_opt(slice.acquisition_value()),
                gain_loss: fiat_opt(slice.result()),
                included: slice.included,
            });
        }
    }
    let mut relocations: Vec<Vec<RelocationDto>> = vec![Vec::new(); shown.len()];
    for r in &custody.relocations {
        if let Some(list) = wanted
            .get(&r.lot_id)
            .and_then(|pos| relocations.get_mut(*pos))
        {
            list.push(RelocationDto {
                at: instant(r.instant),
                from: location_name(derived, r.from),
                to: location_name(derived, r.to),
                quantity: qty(r.quantity),
            });
        }
    }
    let mut dtos = Vec::with_capacity(shown.len());
    for (pos, (i, public_id, number)) in shown.iter().enumerate() {
        let Some(lot) = output.lots.get(*i as usize) else {
            continue;
        };
        let lot_slices = std::mem::take(slices.get_mut(pos).unwrap_or(&mut Vec::new()));
        let lot_relocations = std::mem::take(relocations.get_mut(pos).unwrap_or(&mut Vec::new()));
        dtos.push(LotDto {
            number: *number,
            lot_id: public_id.clone(),
            date: date(lot.acquired_on),
            acquired_at: instant(lot.acquired_at),
            exchange: derived.account_name(lot.account_id),
            original_qty: qty(lot.original_quantity),
            remaining_qty: qty(lot.remaining_quantity),
            unit_cost: lot
                .unit_cost()
                .filter(|_| lot.known_cost().is_some())
                .map(unit),
            total_cost: fiat_opt(lot.known_cost()),
            status: status(lot.status()).to_owned(),
            history_count: count(lot_slices.len()),
            relocation_count: u64::from(
                custody
                    .relocation_counts
                    .get(*i as usize)
                    .copied()
                    .unwrap_or(0),
            ),
            flags: flags(lot.flags),
            slices: lot_slices,
            relocations: lot_relocations,
        });
    }
    Ok(TokenHistory {
        symbol: asset.to_string(),
        currency: "EUR".to_owned(),
        lots: dtos,
        page: page_index as u64,
        page_size: page_size as u64,
        total_pages: count(total.div_ceil(page_size).max(1)),
        total_count: count(total),
    })
}

/// `GetLotCustodyLocations` (`domain.md` §12.4).
pub(crate) fn custody_locations(
    derived: &Derived,
    symbol: Option<&str>,
) -> UseCaseResult<CustodyLocations> {
    let asset = symbol.map(|s| parse_symbol("symbol", s)).transpose()?;
    let custody = derived.custody()?;
    let pieces = holdings::pieces(&custody.locations);
    let summary = summarize_custody_locations(&pieces, asset)?;
    Ok(CustodyLocations {
        locations: summary
            .groups
            .iter()
            .map(|g| CustodyLocation {
                symbol: g.asset.to_string(),
                account_name: g.account_name.clone(),
                quantity: qty(g.quantity),
                lot_count: count(g.lot_count),
            })
            .collect(),
        synthetic_row_count: count(summary.synthetic_row_count),
    })
}

#[derive(Default)]
struct ContractSums {
    realized: Decimal,
    funding: Decimal,
    fees: Decimal,
    net_eur: Decimal,
    unresolved: u64,
}

/// `GetDerivativesPnl`: native sums per `(contract, settlement asset)`, ranked by absolute
/// realized result (ties in contract order).
pub(crate) fn derivatives_pnl(derived: &Derived) -> UseCaseResult<DerivativesPnl> {
    let futures = &derived.input.futures;
    let mut sums: BTreeMap<(String, Asset), ContractSums> = BTreeMap::new();
    for result in &derived.output.derivatives {
        let Some(row) = futures.get(result.row as usize) else {
            continue;
        };
        let entry = sums
            .entry((row.contract.clone(), row.settlement_asset))
            .or_default();
        entry.realized = num::add(entry.realized, row.realized_pnl, "derivatives realized")?;
        entry.funding = num::add(entry.funding, row.funding, "derivatives funding")?;
        // A fee in another asset than the settlement one is not a native sum of this row.
        if row.fee_asset.is_none_or(|a| a == row.settlement_asset) {
            entry.fees = num::add(entry.fees, row.fee, "derivatives fees")?;
        }
        match result.net {
            Some(net) => entry.net_eur = num::add(entry.net_eur, net, "derivatives eur")?,
            None => entry.unresolved += 1,
        }
    }
    let mut rows = Vec::with_capacity(sums.len());
    for ((contract, asset), s) in sums {
        let native = |v: Decimal| if asset.is_fiat() { fiat(v) } else { qty(v) };
        let net = num::sub(
            num::add(s.realized, s.funding, "derivatives net")?,
            s.fees,
            "derivatives net",
        )?;
        rows.push((
            s.realized,
            DerivativeContractPnl {
                symbol: contract,
                currency: asset.to_string(),
                realized_pnl: native(s.realized),
                funding: native(s.funding),
                fees: native(s.fees),
                net_pnl: native(net),
                net_eur: fiat(s.net_eur),
                unresolved_count: s.unresolved,
            },
        ));
    }
    let ranked = rank_by_absolute_value(rows, |(realized, _)| *realized, usize::MAX);
    Ok(DerivativesPnl {
        ranked: ranked.ranked.into_iter().map(|(_, dto)| dto).collect(),
    })
}
