//! Data quality (`domain.md` §10.2, §10.3).

use serde::{Deserialize, Serialize};

use super::common::GapItem;

/// One integrity row. `rowKey` is for the CLI (`cartera edit`); tools drop it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct IntegrityRowDto {
    pub occurred_at: Option<String>,
    pub symbol: Option<String>,
    /// Account name.
    pub account: Option<String>,
    /// `QUANTITY`.
    pub quantity: Option<String>,
    pub detail_key: String,
    pub pending_review: bool,
    pub row_key: Option<String>,
}

/// The rows of one quality flag (report order).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct IntegrityGroupDto {
    pub quality_flag: String,
    /// `high`, `medium` or `low`.
    pub severity: String,
    pub count: u64,
    pub pending_review: u64,
    pub rows: Vec<IntegrityRowDto>,
}

/// Completeness counters over the whole ledger (§10.3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct CompletenessCounters {
    pub excluded_operations: u64,
    pub uncovered_quantity: Vec<GapItem>,
    pub flagged_open_lots: u64,
    pub unresolved_income: u64,
    pub unresolved_derivatives: u64,
    pub unknown_rows: u64,
}

/// The integrity report: groups severity descending then vocabulary order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct FiscalIntegrity {
    pub groups: Vec<IntegrityGroupDto>,
    pub total_defects: u64,
    pub pending_review: u64,
    /// Derived data older than the latest ledger change (always false: derived on read).
    pub needs_recalculation: bool,
    pub counters: CompletenessCounters,
}
