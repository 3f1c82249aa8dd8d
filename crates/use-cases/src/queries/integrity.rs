//! `GetFiscalIntegrity`: groups, rows and completeness counters (`domain.md` §10.2, §10.3).

use core_domain::quality::{self, IntegrityRow};
use shared_types::dto::{
    CompletenessCounters, FiscalIntegrity, IntegrityGroupDto, IntegrityRowDto,
};

use super::convert::{count, gap_items, instant, qty};
use super::state::Derived;
use crate::error::UseCaseResult;

fn row_dto(row: &IntegrityRow) -> IntegrityRowDto {
    IntegrityRowDto {
        occurred_at: row.occurred_at.map(instant),
        symbol: row.asset.map(|a| a.to_string()),
        account: row.account_name.clone(),
        quantity: row.quantity.map(qty),
        detail_key: row.detail_key.clone(),
        pending_review: row.pending_review,
        row_key: row.row_key.clone(),
    }
}

/// `GetFiscalIntegrity`.
pub(crate) fn fiscal_integrity(derived: &Derived) -> UseCaseResult<FiscalIntegrity> {
    let rows = derived.integrity_rows()?;
    let counters = quality::completeness(&derived.input, &derived.output, rows)?;
    let report = quality::integrity_report(rows.to_vec());
    Ok(FiscalIntegrity {
        groups: report
            .groups
            .iter()
            .map(|g| IntegrityGroupDto {
                quality_flag: g.quality_flag.as_str().to_owned(),
                severity: g.severity.as_str().to_owned(),
                count: count(g.count),
                pending_review: count(g.pending_review_count),
                rows: g.rows.iter().map(row_dto).collect(),
            })
            .collect(),
        total_defects: count(report.total_defects),
        pending_review: count(report.pending_review),
        // Derived state is recomputed whenever the ledger version changes, so it is never stale.
        needs_recalculation: false,
        counters: CompletenessCounters {
            excluded_operations: count(counters.excluded_operations),
            uncovered_quantity: gap_items(&counters.uncovered_quantity),
            flagged_open_lots: count(counters.flagged_open_lots),
            unresolved_income: count(counters.unresolved_income),
            unresolved_derivatives: count(counters.unresolved_derivatives),
            unknown_rows: count(counters.unknown_rows),
        },
    })
}
