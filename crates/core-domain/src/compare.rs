//! Comparison of two tax-year summaries (`domain.md` §15).

use rust_decimal::Decimal;

use crate::error::{DomainError, DomainResult};
use crate::irpf::{IrpfYearReport, Summary};
use crate::num;

/// Why a year is incomplete, in the fixed order of `domain.md` §15.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum CompletenessReason {
    /// `unconvertible_count > 0`.
    UnconvertibleEvents,
    /// `excluded_flagged_events > 0`.
    ExcludedFlaggedEvents,
    /// `excluded_unresolved_income > 0`.
    ExcludedUnresolvedIncome,
}

impl CompletenessReason {
    /// Wire spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::UnconvertibleEvents => "unconvertible_events",
            Self::ExcludedFlaggedEvents => "excluded_flagged_events",
            Self::ExcludedUnresolvedIncome => "excluded_unresolved_income",
        }
    }
}

/// `COMPLETE` or `INCOMPLETE { reasons }`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompletenessStatus {
    /// Every counter is 0.
    Complete,
    /// Some counter is positive.
    Incomplete {
        /// Reasons in fixed order.
        reasons: Vec<CompletenessReason>,
    },
}

impl CompletenessStatus {
    /// The status of three counters.
    pub fn from_counts(
        unconvertible_count: u64,
        excluded_flagged_events: u64,
        excluded_unresolved_income: u64,
    ) -> Self {
        let reasons: Vec<CompletenessReason> = [
            (unconvertible_count, CompletenessReason::UnconvertibleEvents),
            (
                excluded_flagged_events,
                CompletenessReason::ExcludedFlaggedEvents,
            ),
            (
                excluded_unresolved_income,
                CompletenessReason::ExcludedUnresolvedIncome,
            ),
        ]
        .into_iter()
        .filter(|(count, _)| *count > 0)
        .map(|(_, reason)| reason)
        .collect();
        if reasons.is_empty() {
            Self::Complete
        } else {
            Self::Incomplete { reasons }
        }
    }

    /// Whether complete.
    pub fn is_complete(&self) -> bool {
        matches!(self, Self::Complete)
    }

    /// `COMPLETE` or `INCOMPLETE [a, b]`.
    pub fn render(&self) -> String {
        match self {
            Self::Complete => "COMPLETE".to_owned(),
            Self::Incomplete { reasons } => {
                let list: Vec<&str> = reasons.iter().map(|r| r.as_str()).collect();
                format!("INCOMPLETE [{}]", list.join(", "))
            }
        }
    }
}

/// One side of a comparison.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaxYearSide {
    /// Fiscal year.
    pub year: i32,
    /// Its summary.
    pub summary: Summary,
    /// Completeness counters (`irpf.md` §7.3).
    pub unconvertible_count: u64,
    /// Idem.
    pub excluded_flagged_events: u64,
    /// Idem.
    pub excluded_unresolved_income: u64,
}

impl TaxYearSide {
    /// The side of a year report.
    pub fn from_report(report: &IrpfYearReport) -> Self {
        Self {
            year: report.year,
            summary: report.summary.clone(),
            unconvertible_count: report.completeness.unconvertible_count,
            excluded_flagged_events: report.completeness.excluded_flagged_events,
            excluded_unresolved_income: report.completeness.excluded_unresolved_income,
        }
    }

    /// The side's completeness.
    pub fn completeness(&self) -> CompletenessStatus {
        CompletenessStatus::from_counts(
            self.unconvertible_count,
            self.excluded_flagged_events,
            self.excluded_unresolved_income,
        )
    }
}

/// `DELTA` when both years are complete and both values exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeltaKind {
    /// Comparable.
    Delta,
    /// An incomplete side or a null value.
    DeltaIncomparable,
}

impl DeltaKind {
    /// Wire spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Delta => "DELTA",
            Self::DeltaIncomparable => "DELTA_INCOMPARABLE",
        }
    }
}

/// One field's delta.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldDelta {
    /// Summary field name.
    pub field: &'static str,
    /// `b − a` (null when either side is null).
    pub value: Option<Decimal>,
    /// Kind.
    pub kind: DeltaKind,
}

/// The comparison result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaxComparison {
    /// Year of side A.
    pub year_a: i32,
    /// Year of side B.
    pub year_b: i32,
    /// Completeness of A.
    pub completeness_a: CompletenessStatus,
    /// Completeness of B.
    pub completeness_b: CompletenessStatus,
    /// The sixteen deltas in summary order.
    pub deltas: Vec<FieldDelta>,
}

/// `compare_tax_summaries(a, b)` of `domain.md` §15.
pub fn compare_tax_summaries(a: &TaxYearSide, b: &TaxYearSide) -> DomainResult<TaxComparison> {
    if a.year == b.year {
        return Err(DomainError::InvalidSetting {
            key: "compare.years".to_owned(),
            reason: format!("both sides are year {}", a.year),
        });
    }
    let completeness_a = a.completeness();
    let completeness_b = b.completeness();
    let comparable = completeness_a.is_complete() && completeness_b.is_complete();
    let mut deltas = Vec::with_capacity(Summary::FIELDS.len());
    for ((field, va), vb) in Summary::FIELDS
        .iter()
        .zip(a.summary.values())
        .zip(b.summary.values())
    {
        let value = match (va, vb) {
            (Some(x), Some(y)) => Some(num::sub(y, x, field)?),
            _ => None,
        };
        let kind = if comparable && value.is_some() {
            DeltaKind::Delta
        } else {
            DeltaKind::DeltaIncomparable
        };
        deltas.push(FieldDelta {
            field,
            value: value.map(|v| {
                let mut v = v;
                if v.is_zero() {
                    v.set_sign_positive(true);
                }
                v
            }),
            kind,
        });
    }
    Ok(TaxComparison {
        year_a: a.year,
        year_b: b.year,
        completeness_a,
        completeness_b,
        deltas,
    })
}

#[cfg(test)]
mod tests;
