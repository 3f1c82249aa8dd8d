//! `GetSpanishTaxReport` and `CompareTaxYears`: the IRPF year report of `irpf.md` §7 as a DTO.

use std::sync::Arc;

use core_domain::compare::{CompletenessStatus, TaxYearSide, compare_tax_summaries};
use core_domain::irpf::guide::{GuideNote, RentaGuide, covered_years, renta_guide};
use core_domain::irpf::report::{AuditRow, IrpfYearReport};
use core_domain::irpf::year_end::{CustodianHoldings, YearEndHoldings, YearEndSnapshot};
use core_domain::irpf::{IrpfComputation, Summary};
use core_domain::market::PriceLookup;
use core_domain::{Asset, Date};
use rayon::prelude::*;
use rust_decimal::Decimal;
use shared_types::dto::{
    AnnexLineDto, Art335EntryDto, AuditRowDto, BasesDto, BracketDto, CarryAmountDto,
    CarryForwardDto, CarryRemainingDto, CarryUseDto, CompletenessDto, CsvFile, CustodianDto,
    CustodianEntryDto, DeltaDto, DerivativeContractDto, DerivativesDto, ExcludedOperationDto,
    GuideBoxDto, GuideCryptoRowDto, GuideNoteDto, GuidePendingDto, IncomeAssetTotalDto,
    IncomeBlockDto, IncomeBucketTotalDto, IncomeDto, IncomeLineDto, LatestAuditRows, Modelo100Dto,
    Modelo100RowDto, Modelo100TotalsDto, Modelo714Dto, Modelo714Item, Modelo721Dto,
    ReacquisitionDto, RentaGuideDto, SummaryDeltas, SwapAuditDto, TaxCsvFiles, TaxReport,
    TaxReportCompleteness, TaxSummary, TaxYearComparison, TaxYearSideDto, UnresolvedDerivativeDto,
    YearEndHoldingsDto,
};

use super::convert::{
    count, date, fiat, fiat_opt, flags, gap_items, instant, qty, rate, ratio, unit,
};
use super::state::Derived;
use crate::error::{UseCaseError, UseCaseResult};

/// Years a report may be asked for.
pub(crate) const YEARS: std::ops::RangeInclusive<i32> = 2009..=9999;

pub(crate) fn check_year(field: &str, year: i32) -> UseCaseResult<()> {
    if YEARS.contains(&year) {
        Ok(())
    } else {
        Err(UseCaseError::InvalidRequest {
            field: field.to_owned(),
            reason: format!("{year} is not a year from 2009 to 9999"),
        })
    }
}

/// Whether the ledger has data for an IRPF report of `year`: its fiscal years run from the
/// first transaction's; years after the last one are known up to `current_year` (a carried
/// forward loss can still be used or expire there), years before the first are not. The one
/// rule of every view of a tax year (`cartera tax`, its CSV, the comparison and the tools): a
/// year outside it is [`UseCaseError::MissingData`], never an all-zero report.
///
/// # Errors
///
/// [`UseCaseError::MissingData`] naming the years the ledger covers.
pub fn check_year_covered(
    years: &std::collections::BTreeSet<i32>,
    year: i32,
    current_year: i32,
) -> UseCaseResult<()> {
    let what = format!("no IRPF report for {year}");
    let (Some(first), Some(last)) = (years.first(), years.last()) else {
        return Err(UseCaseError::MissingData {
            what,
            hint: "the ledger holds no transactions; import exchange exports with \
                   `cartera import FILE…`"
                .to_owned(),
        });
    };
    if year < *first {
        return Err(UseCaseError::MissingData {
            what,
            hint: format!(
                "the ledger's transactions start in {first} (they cover {first}–{last}); import \
                 the exports of {year} with `cartera import FILE…`"
            ),
        });
    }
    let current = current_year.max(*last);
    if year > current {
        return Err(UseCaseError::MissingData {
            what,
            hint: format!(
                "it is after the current year {current_year} (the ledger's transactions cover \
                 {first}–{last})"
            ),
        });
    }
    Ok(())
}

/// Runs the IRPF computation of `year` (with the year-end holdings when asked).
pub(crate) fn year_report(
    derived: &Derived,
    year: i32,
    with_holdings: bool,
) -> UseCaseResult<Arc<IrpfYearReport>> {
    derived.year_report((year, with_holdings), || {
        compute_year_report(derived, year, with_holdings)
    })
}

/// The report DTO of `year`, cached with the derived state.
pub(crate) fn report(
    derived: &Derived,
    year: i32,
    with_holdings: bool,
) -> UseCaseResult<Arc<TaxReport>> {
    derived.report_dto((year, with_holdings), || {
        report_dto(&*year_report(derived, year, with_holdings)?)
    })
}

fn compute_year_report(
    derived: &Derived,
    year: i32,
    with_holdings: bool,
) -> UseCaseResult<IrpfYearReport> {
    let comp = IrpfComputation::new(derived.irpf_input())?;
    if with_holdings {
        let snapshots = YearEndSnapshot::walk(
            year,
            &derived.input,
            &derived.output,
            &derived.accounts,
            &derived.links,
            derived.settings.fiscal_timezone,
        )?;
        let close = |asset: Asset, day: Date| close_eur(derived, asset, day);
        Ok(comp.year_report_with_holdings(year, &snapshots, &close)?)
    } else {
        Ok(comp.year_report(year)?)
    }
}

/// The EUR close a holding of `asset` is valued at on `day`: the latest close on or before
/// `day`, however old, as every holdings view values (D-91; a stale one is named by the view).
pub(crate) fn close_eur(derived: &Derived, asset: Asset, day: Date) -> Option<Decimal> {
    match derived.valuation_market().latest_price(asset, day) {
        Ok(PriceLookup::Found { close_eur, .. }) => Some(close_eur),
        _ => None,
    }
}

pub(crate) fn summary_dto(s: &Summary) -> TaxSummary {
    TaxSummary {
        capital_gains: fiat(s.capital_gains),
        capital_losses: fiat(s.capital_losses),
        savings_base_yields: fiat(s.savings_base_yields),
        general_base_airdrops: fiat(s.general_base_airdrops),
        net_patrimonial_result: fiat(s.net_patrimonial_result),
        estimated_irpf: fiat_opt(s.estimated_irpf),
        savings_transmission_balance: fiat(s.savings_transmission_balance),
        general_short_term_balance: fiat(s.general_short_term_balance),
        current_year_cross_compensation: fiat(s.current_year_cross_compensation),
        carry_forward_used: fiat(s.carry_forward_used),
        savings_base_after_compensation: fiat(s.savings_base_after_compensation),
        general_gains_after_compensation: fiat(s.general_gains_after_compensation),
        carry_forward_generated: fiat(s.carry_forward_generated),
        carry_forward_remaining: fiat(s.carry_forward_remaining),
        carry_forward_expired: fiat(s.carry_forward_expired),
        economic_activity_income: fiat(s.economic_activity_income),
    }
}

pub(crate) fn completeness_dto(status: &CompletenessStatus) -> CompletenessDto {
    match status {
        CompletenessStatus::Complete => CompletenessDto::Complete,
        CompletenessStatus::Incomplete { reasons } => CompletenessDto::Incomplete {
            reasons: reasons.iter().map(|r| r.as_str().to_owned()).collect(),
        },
    }
}

/// The DTOs of the audit rows, made side by side (each row formats a dozen amounts and dates:
/// a few microseconds) and collected in row order.
pub(super) fn audit_dtos(rows: &[AuditRow]) -> Vec<AuditRowDto> {
    rows.par_iter().map(audit_dto).collect()
}

fn audit_dto(row: &AuditRow) -> AuditRowDto {
    AuditRowDto {
        slice_id: row.slice_id(),
        row_key: row.row_key.to_string(),
        leg: row.leg.as_str().to_owned(),
        operation_type: row.operation_type.as_str().to_owned(),
        asset: row.asset.to_string(),
        quantity: qty(row.quantity),
        clave: row.clave.map(|c| c.as_str().to_owned()),
        disposed_at: instant(row.disposed_at),
        disposed_on: date(row.disposed_on),
        lot_id: row.lot_id(),
        acquisition_row_key: row.acquisition_row_key.as_ref().map(ToString::to_string),
        acquired_on: row.acquired_on.map(date),
        holding: row.holding.map(|h| h.as_str().to_owned()),
        base: row.base.map(|b| b.as_str().to_owned()),
        disposal_account: row.disposal_account.to_string(),
        lot_account: row.lot_account.as_ref().map(ToString::to_string),
        gross_transmission_value: fiat_opt(row.gross_transmission_value),
        fee_expense: fiat_opt(row.fee_expense),
        transmission_value: fiat_opt(row.transmission_value),
        acquisition_value: fiat_opt(row.acquisition_value),
        result: fiat_opt(row.result),
        included: row.included,
        quality_flags: flags(row.quality_flags),
        transmission_provenance: row.transmission_provenance.map(|p| p.as_str().to_owned()),
        acquisition_provenance: row.acquisition_provenance.map(|p| p.as_str().to_owned()),
        price: row.price.map(unit),
        price_currency: row.price_currency.map(|c| c.to_string()),
        price_date: row.price_date.map(date),
        fx_rate: row.fx_rate.map(rate),
        fx_rate_date: row.fx_rate_date.map(date),
        swap: row.swap.as_ref().map(|s| SwapAuditDto {
            given_value: fiat_opt(s.given_value),
            received_value: fiat_opt(s.received_value),
            winner: s
                .winner
                .map(|w| core_domain::irpf::annex::winner(w).to_owned()),
        }),
    }
}

pub(crate) fn custodian_dto(c: &CustodianHoldings) -> CustodianDto {
    CustodianDto {
        name: c.name.clone(),
        country: c.country.clone(),
        custody_kind: c.custody_kind.as_str().to_owned(),
        entries: c
            .entries
            .iter()
            .map(|e| CustodianEntryDto {
                symbol: e.asset.to_string(),
                units: qty(e.units),
                value_eur: fiat_opt(e.value),
                incomplete: e.incomplete,
            })
            .collect(),
    }
}

pub(crate) fn year_end_dto(h: &YearEndHoldings) -> YearEndHoldingsDto {
    let m = &h.modelo_721;
    YearEndHoldingsDto {
        year: h.year,
        custodians: h.custodians.iter().map(custodian_dto).collect(),
        modelo721: Modelo721Dto {
            decision: m.decision.as_str().to_owned(),
            total721: fiat(m.total_721),
            last_filed_total: fiat_opt(m.last_filed_total),
            last_filed_year: m.last_filed_year,
            filing_window_from: date(m.filing_window.0),
            filing_window_to: date(m.filing_window.1),
            custodians: m.custodians.iter().map(custodian_dto).collect(),
            vanished_positions: m
                .vanished_positions
                .iter()
                .map(|(name, asset)| [name.clone(), asset.to_string()])
                .collect(),
        },
        modelo714: Modelo714Dto {
            per_asset: h
                .modelo_714
                .per_asset
                .iter()
                .map(|(asset, units, value)| Modelo714Item {
                    symbol: asset.to_string(),
                    units: qty(*units),
                    value_eur: fiat_opt(*value),
                })
                .collect(),
            total714: fiat(h.modelo_714.total_714),
            unvalued: h
                .modelo_714
                .unvalued
                .iter()
                .map(ToString::to_string)
                .collect(),
            crypto_alone_exceeds2m: h.modelo_714.crypto_alone_exceeds_2m,
        },
    }
}

fn income_block(block: &core_domain::irpf::modelo100::IncomeBlock, bucket: &str) -> IncomeBlockDto {
    IncomeBlockDto {
        total: fiat(block.total),
        per_asset: block
            .per_asset
            .iter()
            .map(|(asset, quantity, value)| IncomeAssetTotalDto {
                bucket: bucket.to_owned(),
                asset: asset.to_string(),
                quantity: qty(*quantity),
                value: fiat(*value),
            })
            .collect(),
    }
}

fn carry_amounts(amounts: &[core_domain::irpf::compensation::CarryAmount]) -> Vec<CarryAmountDto> {
    amounts
        .iter()
        .map(|g| CarryAmountDto {
            origin_year: g.origin_year,
            kind: g.kind.as_str().to_owned(),
            amount: fiat(g.amount),
        })
        .collect()
}

fn contract_dto(c: &core_domain::irpf::report::ContractResult) -> DerivativeContractDto {
    DerivativeContractDto {
        contract: c.contract.clone(),
        settlement_asset: c.settlement_asset.to_string(),
        gains: fiat(c.gains),
        losses: fiat(c.losses),
        net: fiat(c.net),
        rows: count(c.rows),
    }
}

/// The report DTO (`irpf.md` §7, every field).
#[allow(clippy::too_many_lines)] // One flat projection, field by field.
pub(crate) fn report_dto(r: &IrpfYearReport) -> UseCaseResult<TaxReport> {
    let b = &r.bases;
    let c = &r.completeness;
    let m = &r.modelo100;
    let renta_guide = guide_dto(&renta_guide(r)?);
    Ok(TaxReport {
        year: r.year,
        currency: r.currency.to_owned(),
        method: r.method.to_owned(),
        start_year: r.start_year,
        summary: summary_dto(&r.summary),
        bases: BasesDto {
            savings_transmission_balance: fiat(b.savings_transmission_balance),
            savings_rcm_balance: fiat(b.savings_rcm_balance),
            cross_percentage: b.cross_percentage.map(ratio),
            savings_gp_after_compensation: fiat(b.savings_gp_after_compensation),
            savings_rcm_after_compensation: fiat(b.savings_rcm_after_compensation),
            savings_base_after_compensation: fiat(b.savings_base_after_compensation),
            general_gains_balance: fiat(b.general_gains_balance),
            general_gains_after_compensation: fiat(b.general_gains_after_compensation),
            brackets: b
                .brackets
                .iter()
                .map(|k| BracketDto {
                    lower: fiat(k.lower),
                    upper: fiat_opt(k.upper),
                    rate: rate(k.rate),
                    taxed_amount: fiat(k.taxed_amount),
                    tax: fiat(k.tax),
                })
                .collect(),
        },
        carry_forward: CarryForwardDto {
            used: r
                .carry_forward
                .used
                .iter()
                .map(|u| CarryUseDto {
                    origin_year: u.origin_year,
                    kind: u.kind.as_str().to_owned(),
                    source: u.source.as_str().to_owned(),
                    nature: u.nature.as_str().to_owned(),
                    amount: fiat(u.amount),
                })
                .collect(),
            generated: carry_amounts(&r.carry_forward.generated),
            remaining: r
                .carry_forward
                .remaining
                .iter()
                .map(|g| CarryRemainingDto {
                    origin_year: g.origin_year,
                    kind: g.kind.as_str().to_owned(),
                    source: g.source.as_str().to_owned(),
                    remaining: fiat(g.remaining),
                    last_usable_year: g.last_usable_year,
                })
                .collect(),
            expired: carry_amounts(&r.carry_forward.expired),
        },
        completeness: TaxReportCompleteness {
            unconvertible_count: c.unconvertible_count,
            excluded_flagged_events: c.excluded_flagged_events,
            excluded_unresolved_income: c.excluded_unresolved_income,
            status: completeness_dto(&c.status),
            uncovered_quantity: gap_items(&c.uncovered_quantity),
            manual_value_count: c.manual_value_count,
            excluded_operations: c
                .excluded_operations
                .iter()
                .map(|o| ExcludedOperationDto {
                    row_key: o.row_key.clone(),
                    leg: o.leg.as_str().to_owned(),
                    asset: o.asset.to_string(),
                    quantity: qty(o.quantity),
                    flags: flags(o.flags),
                })
                .collect(),
        },
        audit_trail: audit_dtos(&r.audit_trail),
        income: IncomeDto {
            receipts: r
                .income
                .receipts
                .iter()
                .map(|l| IncomeLineDto {
                    row_key: l.row_key.to_string(),
                    tx_type: l.tx_type.as_str().to_owned(),
                    bucket: l.bucket.as_str().to_owned(),
                    fiscal_date: date(l.fiscal_date),
                    asset: l.asset.to_string(),
                    quantity: qty(l.quantity),
                    value: fiat_opt(l.value),
                    provenance: l.provenance.map(|p| p.as_str().to_owned()),
                    flags: flags(l.flags),
                })
                .collect(),
            totals_by_bucket: r
                .income
                .totals_by_bucket
                .iter()
                .map(|(bucket, value)| IncomeBucketTotalDto {
                    bucket: bucket.as_str().to_owned(),
                    value: fiat(*value),
                })
                .collect(),
            totals_by_asset: r
                .income
                .totals_by_asset
                .iter()
                .map(|t| IncomeAssetTotalDto {
                    bucket: t.bucket.as_str().to_owned(),
                    asset: t.asset.to_string(),
                    quantity: qty(t.quantity),
                    value: fiat(t.value),
                })
                .collect(),
        },
        derivatives: DerivativesDto {
            contracts: r.derivatives.contracts.iter().map(contract_dto).collect(),
            unresolved: r
                .derivatives
                .unresolved
                .iter()
                .map(|u| UnresolvedDerivativeDto {
                    row_key: u.row_key.clone(),
                    contract: u.contract.clone(),
                    fiscal_date: date(u.fiscal_date),
                    flags: flags(u.flags),
                })
                .collect(),
        },
        modelo100: Modelo100Dto {
            boxes: m.boxes,
            rows: m
                .rows
                .iter()
                .map(|row| Modelo100RowDto {
                    base: row.base.as_str().to_owned(),
                    asset: row.asset.to_string(),
                    clave: row.clave.as_str().to_owned(),
                    sign: row.sign.as_str().to_owned(),
                    transmission_value: fiat(row.transmission_value),
                    acquisition_value: fiat(row.acquisition_value),
                    loss: fiat_opt(row.loss),
                    gain: fiat_opt(row.gain),
                    slice_count: count(row.slice_count),
                    operation_count: count(row.operation_count),
                })
                .collect(),
            totals: Modelo100TotalsDto {
                total_transmission_value: fiat(m.totals.total_transmission_value),
                total_acquisition_value: fiat(m.totals.total_acquisition_value),
                total_losses: fiat(m.totals.total_losses),
                total_gains: fiat(m.totals.total_gains),
                slice_count: count(m.totals.slice_count),
                operation_count: count(m.totals.operation_count),
            },
            derivatives: m.derivatives.iter().map(contract_dto).collect(),
            capital_income: income_block(&m.capital_income, "RCM"),
            general_gains: income_block(&m.general_gains, "GENERAL_GP"),
            economic_activity: income_block(&m.economic_activity, "ACTIVITY"),
        },
        annex: r
            .annex
            .iter()
            .filter_map(|line| r.audit_trail.get(line.audit_index as usize))
            .map(|row| AnnexLineDto {
                operation_id: core_domain::irpf::annex::AnnexLine::operation_id(row),
                slice_id: row.slice_id(),
            })
            .collect(),
        art_33_5_warnings: r.art_33_5_warnings.as_ref().map(|list| {
            list.iter()
                .map(|e| Art335EntryDto {
                    slice_id: e.slice_id.clone(),
                    asset: e.asset.to_string(),
                    disposed_on: date(e.disposed_on),
                    loss: fiat(e.loss),
                    window_from: date(e.window_from),
                    window_to: date(e.window_to),
                    reacquisitions: e
                        .reacquisitions
                        .iter()
                        .map(|q| ReacquisitionDto {
                            lot_id: q.lot_id.clone(),
                            acquired_on: date(q.acquired_on),
                            quantity: qty(q.quantity),
                            origin_type: q.origin_type.as_str().to_owned(),
                        })
                        .collect(),
                })
                .collect()
        }),
        year_end_holdings: r.year_end_holdings.as_ref().map(year_end_dto),
        warnings: r.warnings.iter().map(|w| w.as_str().to_owned()).collect(),
        assumptions: r.assumptions.iter().map(|a| (*a).to_owned()).collect(),
        renta_guide,
    })
}

/// The Renta Web guide as its DTO (labels in Spanish, as the form shows them).
pub(crate) fn guide_dto(g: &RentaGuide) -> RentaGuideDto {
    let year = g.year;
    RentaGuideDto {
        ejercicio: year,
        covered: g.table.is_some(),
        covered_ejercicios: covered_years(),
        row_limit: g.table.map(|t| count(t.crypto_row_limit)),
        aggregation: g.aggregation.as_str().to_owned(),
        crypto_rows: g
            .crypto
            .iter()
            .map(|e| GuideCryptoRowDto {
                coin: e.coin.clone(),
                symbol: e.symbol.clone(),
                clave: e.clave.as_str().to_owned(),
                transmission_amount: fiat(e.transmission_amount),
                transmission_expenses: fiat(e.transmission_expenses),
                box1804: fiat(e.box_1804),
                acquisition_amount: fiat(e.acquisition_amount),
                acquisition_expenses: fiat(e.acquisition_expenses),
                box1806: fiat(e.box_1806),
                box1807: fiat_opt(e.box_1807),
                box1809: fiat_opt(e.box_1809),
            })
            .collect(),
        boxes: g
            .boxes
            .iter()
            .map(|x| GuideBoxDto {
                number: x.def.number.to_owned(),
                label: x.def.label(true, year),
                amount: fiat(x.amount),
                origin_year: x.origin_year,
            })
            .collect(),
        pending: g
            .pending
            .iter()
            .map(|p| GuidePendingDto {
                origin_year: p.origin_year,
                boxes: p.boxes.iter().map(|d| d.number.to_owned()).collect(),
                at_start: fiat(p.at_start),
                applied: fiat(p.applied),
                pending_after: fiat(p.pending_after),
            })
            .collect(),
        notes: g.notes.iter().map(note_dto).collect(),
    }
}

fn note_dto(note: &GuideNote) -> GuideNoteDto {
    let mut dto = GuideNoteDto {
        code: note.code().to_owned(),
        amount: None,
        rows: None,
        rows_before: None,
        limit: None,
    };
    match note {
        GuideNote::RowLimitExceeded {
            rows,
            rows_before,
            limit,
            ..
        } => {
            dto.rows = Some(count(*rows));
            dto.rows_before = Some(count(*rows_before));
            dto.limit = Some(count(*limit));
        }
        GuideNote::Mining { amount } | GuideNote::Derivatives { net: amount } => {
            dto.amount = Some(fiat(*amount));
        }
        _ => {}
    }
    dto
}

fn side_dto(side: &TaxYearSide) -> TaxYearSideDto {
    TaxYearSideDto {
        year: side.year,
        currency: "EUR".to_owned(),
        summary: summary_dto(&side.summary),
        unconvertible_count: side.unconvertible_count,
        excluded_flagged_events: side.excluded_flagged_events,
        excluded_unresolved_income: side.excluded_unresolved_income,
        completeness: completeness_dto(&side.completeness()),
    }
}

/// `CompareTaxYears`.
pub(crate) fn compare(
    derived: &Derived,
    year_a: i32,
    year_b: i32,
) -> UseCaseResult<TaxYearComparison> {
    check_year("yearA", year_a)?;
    check_year("yearB", year_b)?;
    // One IRPF computation for both years.
    derived.prepare(&[year_a, year_b], false);
    let a = TaxYearSide::from_report(&*year_report(derived, year_a, false)?);
    let b = TaxYearSide::from_report(&*year_report(derived, year_b, false)?);
    let comparison = compare_tax_summaries(&a, &b)?;
    let mut deltas = comparison.deltas.iter().map(|d| DeltaDto {
        kind: d.kind.as_str().to_ascii_lowercase(),
        value: fiat_opt(d.value),
    });
    let mut next = || {
        deltas.next().unwrap_or(DeltaDto {
            kind: "delta_incomparable".to_owned(),
            value: None,
        })
    };
    let deltas = SummaryDeltas {
        capital_gains: next(),
        capital_losses: next(),
        savings_base_yields: next(),
        general_base_airdrops: next(),
        net_patrimonial_result: next(),
        estimated_irpf: next(),
        savings_transmission_balance: next(),
        general_short_term_balance: next(),
        current_year_cross_compensation: next(),
        carry_forward_used: next(),
        savings_base_after_compensation: next(),
        general_gains_after_compensation: next(),
        carry_forward_generated: next(),
        carry_forward_remaining: next(),
        carry_forward_expired: next(),
        economic_activity_income: next(),
    };
    Ok(TaxYearComparison {
        method: "FIFO".to_owned(),
        year_a: side_dto(&a),
        year_b: side_dto(&b),
        deltas,
    })
}

/// The Modelo 100 and annex CSV files of a year (`irpf.md` §8.3).
pub(crate) fn csv_files(derived: &Derived, year: i32) -> UseCaseResult<TaxCsvFiles> {
    check_year("year", year)?;
    let report = year_report(derived, year, false)?;
    Ok(TaxCsvFiles {
        year,
        files: core_domain::irpf::annex::render_csv_files(&report)
            .into_iter()
            .map(|(name, content)| CsvFile { name, content })
            .collect(),
    })
}

/// The latest `limit` audit rows: disposal date descending, then slice id ascending.
pub(crate) fn latest_audit(report: &TaxReport, limit: usize) -> LatestAuditRows {
    let mut rows: Vec<&AuditRowDto> = report.audit_trail.iter().collect();
    core_domain::ranking::order_by_date_descending_then_key(
        &mut rows,
        |r| r.disposed_on.as_str(),
        |r| r.slice_id.as_str(),
    );
    let omitted = rows.len().saturating_sub(limit);
    LatestAuditRows {
        year: report.year,
        rows: rows.into_iter().take(limit).cloned().collect(),
        omitted_count: count(omitted),
    }
}
