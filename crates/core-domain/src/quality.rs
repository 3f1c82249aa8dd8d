//! Quality flags: integrity rows, the integrity report and completeness counters
//! (`domain.md` §10).
//!
//! The engine attaches flags to every record a failure touches (a lot, its receipt, the slices
//! that consume it). This module walks back to the root causes so that each one raises exactly
//! one integrity row (§10.2): the income row for an income value, the swap's disposal for an
//! unknown transmission value, the fee for a fee value, the lot for a purchase value or a
//! negative cost basis, the leg for uncovered units, the futures row for a derivative result,
//! the row for an unknown type, and the `(account, asset)` for custody findings.

#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use rust_decimal::Decimal;
use shared_types::{QualityFlag, Severity, SpotTxType};

use crate::asset::Asset;
use crate::custody::{CustodyOutput, Location};
use crate::engine::{DisposalLeg, EngineInput, EngineOutput, FlagSet, Valued};
use crate::error::DomainResult;
use crate::ledger::{Account, TxType};
use crate::num;
use crate::time::Instant;

/// What an integrity row is about (`domain.md` §10.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Subject {
    /// A lot's acquisition (purchase value, negative cost basis).
    Acquisition,
    /// A disposal leg (its value, uncovered units).
    Disposal,
    /// A fee's value or its uncovered units.
    Fee,
    /// An income-type row (its lot and its receipt).
    Income,
    /// A futures row's result.
    Derivative,
    /// An `(account, asset)` of custody.
    Custody,
    /// A whole row (unknown type).
    Row,
}

impl Subject {
    /// Wire spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Acquisition => "ACQUISITION",
            Self::Disposal => "DISPOSAL",
            Self::Fee => "FEE",
            Self::Income => "INCOME",
            Self::Derivative => "DERIVATIVE",
            Self::Custody => "CUSTODY",
            Self::Row => "ROW",
        }
    }
}

/// `quality.<flag>.<subject>` in lower case.
pub fn detail_key(flag: QualityFlag, subject: Subject) -> String {
    format!(
        "quality.{}.{}",
        flag.as_str().to_ascii_lowercase(),
        subject.as_str().to_ascii_lowercase()
    )
}

/// One root cause (`domain.md` §10.2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IntegrityRow {
    /// The flag.
    pub quality_flag: QualityFlag,
    /// Its severity.
    pub severity: Severity,
    /// What it is about.
    pub subject: Subject,
    /// The asset concerned (absent for an unknown row).
    pub asset: Option<Asset>,
    /// The account (a real account or a synthetic own wallet).
    pub account: Option<Location>,
    /// The account's name.
    pub account_name: Option<String>,
    /// The row (spot or futures); absent for custody rows.
    pub row_key: Option<String>,
    /// The row's instant; absent for custody rows.
    pub occurred_at: Option<Instant>,
    /// Uncovered quantity, custody balance or gap.
    pub quantity: Option<Decimal>,
    /// `quality.<flag>.<subject>`.
    pub detail_key: String,
    /// Whether the user can resolve it from the edit surface.
    pub pending_review: bool,
}

/// The rows of one flag (`domain.md` §10.2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IntegrityGroup {
    /// The flag.
    pub quality_flag: QualityFlag,
    /// Its severity.
    pub severity: Severity,
    /// Number of rows.
    pub count: usize,
    /// Number of rows pending review.
    pub pending_review_count: usize,
    /// The rows, by occurred_at (absent last), asset, account name, row key.
    pub rows: Vec<IntegrityRow>,
}

/// The integrity report: groups by severity descending then canonical flag order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IntegrityReport {
    /// Non-empty groups.
    pub groups: Vec<IntegrityGroup>,
    /// Number of rows.
    pub total_defects: usize,
    /// Rows whose flag is pending review.
    pub pending_review: usize,
}

/// Completeness counters over the whole ledger (`domain.md` §10.3).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Completeness {
    /// Integrity rows per flag, every flag in canonical order (zeros included).
    pub rows_per_flag: Vec<(QualityFlag, usize)>,
    /// Disposal legs P or F with at least one excluded slice.
    pub excluded_operations: usize,
    /// Σ uncovered slice quantity per asset (legs P, F and M), by asset; only assets with some.
    pub uncovered_quantity: Vec<(Asset, Decimal)>,
    /// Lots with a blocking flag and remaining quantity > 0.
    pub flagged_open_lots: usize,
    /// Income receipts with an unknown value.
    pub unresolved_income: usize,
    /// Derivative results with an unknown net.
    pub unresolved_derivatives: usize,
    /// Rows whose type is unknown.
    pub unknown_rows: usize,
}

/// The value flags (`MISSING_PRICE`, `MISSING_FX_RATE`, `AMOUNT_OUT_OF_RANGE`): a value that
/// could not be determined.
const VALUE_FLAGS: [QualityFlag; 3] = [
    QualityFlag::MissingPrice,
    QualityFlag::MissingFxRate,
    QualityFlag::AmountOutOfRange,
];

fn value_flags(flags: FlagSet) -> impl Iterator<Item = QualityFlag> {
    VALUE_FLAGS.into_iter().filter(move |f| flags.contains(*f))
}

/// A root cause on a spot row: `(row, subject, flag)` → quantity and asset.
/// `(row index, subject, flag)`: one root cause on a spot row.
type CauseKey = (u32, Subject, QualityFlag);

#[derive(Default)]
struct Causes {
    spot: BTreeMap<CauseKey, (Option<Asset>, Option<Decimal>)>,
}

impl Causes {
    fn add(&mut self, row: u32, subject: Subject, flag: QualityFlag, asset: Option<Asset>) {
        self.spot
            .entry((row, subject, flag))
            .or_insert((asset, None));
    }

    fn add_quantity(
        &mut self,
        row: u32,
        subject: Subject,
        flag: QualityFlag,
        asset: Asset,
        quantity: Decimal,
    ) -> DomainResult<()> {
        let entry = self
            .spot
            .entry((row, subject, flag))
            .or_insert((Some(asset), None));
        entry.1 = Some(match entry.1 {
            Some(q) => num::add(q, quantity, "integrity rows")?,
            None => quantity,
        });
        Ok(())
    }
}

const INCOME_TYPES: [SpotTxType; 5] = [
    SpotTxType::Staking,
    SpotTxType::Reward,
    SpotTxType::Airdrop,
    SpotTxType::Promotion,
    SpotTxType::Mining,
];

/// Every integrity row of the ledger, unsorted groups aside: rows come out in report order
/// (see [`integrity_report`]).
///
/// `custody` is the output of [`crate::custody::allocate`] over the same ledger; `accounts`
/// names the accounts.
pub fn integrity_rows(
    input: &EngineInput,
    output: &EngineOutput,
    accounts: &[Account],
    custody: &CustodyOutput,
) -> DomainResult<Vec<IntegrityRow>> {
    let causes = spot_causes(input, output)?;
    let mut rows = Vec::new();
    for ((r, subject, flag), (asset, quantity)) in causes.spot {
        let Some(row) = input.rows.get(r as usize) else {
            continue;
        };
        let location = Location::Account(row.row.account_id);
        rows.push(make_row(
            flag,
            subject,
            asset,
            Some(location),
            Some(location.name(accounts)),
            Some(row.row.row_key.to_string()),
            Some(row.row.instant),
            quantity,
        ));
    }
    for result in &output.derivatives {
        let Some(futures) = input.futures.get(result.row as usize) else {
            continue;
        };
        for flag in value_flags(result.flags) {
            let location = Location::Account(futures.account_id);
            rows.push(make_row(
                flag,
                Subject::Derivative,
                Some(futures.settlement_asset),
                Some(location),
                Some(location.name(accounts)),
                Some(futures.row_key.to_string()),
                Some(futures.instant),
                None,
            ));
        }
    }
    custody_rows(custody, &mut rows)?;
    sort_rows(&mut rows);
    Ok(rows)
}

/// Custody findings at the end of the replay, with `fee_tolerance` (`domain.md` §10.1).
fn custody_rows(custody: &CustodyOutput, rows: &mut Vec<IntegrityRow>) -> DomainResult<()> {
    for balance in &custody.balances {
        let tolerance = custody.fee_tolerance(balance.asset);
        let floor = num::sub(Decimal::ZERO, tolerance, "fee tolerance")?;
        let mut push = |flag, quantity| {
            rows.push(make_row(
                flag,
                Subject::Custody,
                Some(balance.asset),
                Some(balance.location),
                Some(balance.account_name.to_string()),
                None,
                None,
                Some(quantity),
            ));
        };
        if balance.synthetic && balance.ledger_balance > tolerance {
            push(QualityFlag::CustodyResidual, balance.ledger_balance);
        }
        if balance.ledger_balance < floor {
            push(QualityFlag::UntrackedInflow, balance.ledger_balance);
        }
        if !balance.gap.is_zero() {
            push(QualityFlag::CustodyImbalance, balance.gap);
        }
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)] // The fields of one record, named at each call site.
fn make_row(
    flag: QualityFlag,
    subject: Subject,
    asset: Option<Asset>,
    account: Option<Location>,
    account_name: Option<String>,
    row_key: Option<String>,
    occurred_at: Option<Instant>,
    quantity: Option<Decimal>,
) -> IntegrityRow {
    IntegrityRow {
        quality_flag: flag,
        severity: flag.severity(),
        subject,
        asset,
        account,
        account_name,
        row_key,
        occurred_at,
        quantity,
        detail_key: detail_key(flag, subject),
        pending_review: flag.pending_review(),
    }
}

/// Walks the engine's records back to their root causes on spot rows.
fn spot_causes(input: &EngineInput, output: &EngineOutput) -> DomainResult<Causes> {
    let mut causes = Causes::default();
    let fee_flag = operation_causes(input, output, &mut causes)?;
    lot_causes(input, output, &fee_flag, &mut causes);
    for receipt in &output.income {
        if let Valued::Unknown { flag } = receipt.value {
            causes.add(receipt.row, Subject::Income, flag, Some(receipt.asset));
        }
        if receipt.flags.contains(QualityFlag::CurrencyMismatch) {
            causes.add(
                receipt.row,
                Subject::Income,
                QualityFlag::CurrencyMismatch,
                Some(receipt.asset),
            );
        }
    }
    for (r, row) in input.rows.iter().enumerate() {
        if matches!(row.row.tx_type, TxType::Unknown { .. }) {
            causes.add(r as u32, Subject::Row, QualityFlag::UnknownTxType, None);
        }
    }
    Ok(causes)
}

/// Disposal legs: uncovered units, fee values, principal values, and what a principal
/// inherited from a fiat fee. Returns each row's crypto fee flag (its F leg's), needed to tell
/// apart what a principal or a lot inherited from its fee.
fn operation_causes(
    input: &EngineInput,
    output: &EngineOutput,
    causes: &mut Causes,
) -> DomainResult<Vec<Option<QualityFlag>>> {
    let mut fee_flag: Vec<Option<QualityFlag>> = vec![None; input.rows.len()];
    for op in &output.operations {
        let uncovered = output
            .slices
            .get(op.slices.start as usize..op.slices.end as usize)
            .unwrap_or(&[])
            .iter()
            .filter(|s| s.lot_id.is_none())
            .try_fold(Decimal::ZERO, |acc, s| {
                num::add(acc, s.quantity, "uncovered")
            })?;
        let subject = if op.leg == DisposalLeg::Fee {
            Subject::Fee
        } else {
            Subject::Disposal
        };
        if uncovered > Decimal::ZERO {
            causes.add_quantity(
                op.row,
                subject,
                QualityFlag::MissingAcquisition,
                op.asset,
                uncovered,
            )?;
        }
        if op.leg == DisposalLeg::Fee {
            if let Some(Valued::Unknown { flag }) = op.valuation {
                causes.add(op.row, Subject::Fee, flag, Some(op.asset));
                if let Some(slot) = fee_flag.get_mut(op.row as usize) {
                    *slot = Some(flag);
                }
            }
            if op.flags.contains(QualityFlag::CurrencyMismatch) {
                causes.add(
                    op.row,
                    Subject::Fee,
                    QualityFlag::CurrencyMismatch,
                    Some(op.asset),
                );
            }
        }
    }
    for op in &output.operations {
        if op.leg != DisposalLeg::Principal {
            continue;
        }
        let own = match op.valuation {
            Some(Valued::Unknown { flag }) => Some(flag),
            _ => None,
        };
        if let Some(flag) = own {
            causes.add(op.row, Subject::Disposal, flag, Some(op.asset));
        }
        if op.flags.contains(QualityFlag::CurrencyMismatch) {
            causes.add(
                op.row,
                Subject::Disposal,
                QualityFlag::CurrencyMismatch,
                Some(op.asset),
            );
        }
        // Whatever value flag neither its own value nor its crypto fee explains came from a fiat
        // fee that could not be converted.
        let fee = fee_flag.get(op.row as usize).copied().flatten();
        for flag in value_flags(op.flags) {
            if Some(flag) != own && Some(flag) != fee {
                causes.add(op.row, Subject::Fee, flag, row_fee_asset(input, op.row));
            }
        }
    }
    Ok(fee_flag)
}

/// Lots a row acquired (`k = 0`): purchase values, negative cost bases, swap and income lots.
fn lot_causes(
    input: &EngineInput,
    output: &EngineOutput,
    fee_flag: &[Option<QualityFlag>],
    causes: &mut Causes,
) {
    for lot in &output.lots {
        if lot.lot_id.k != 0 {
            // Carried lots inherit their source lot's flags; an uncovered migration slice is
            // the migration leg's MISSING_ACQUISITION.
            continue;
        }
        let r = lot.lot_id.row;
        match lot.origin_type {
            SpotTxType::Buy => {
                if lot.flags.contains(QualityFlag::NegativeCostBasis) {
                    causes.add(
                        r,
                        Subject::Acquisition,
                        QualityFlag::NegativeCostBasis,
                        Some(lot.asset),
                    );
                }
                if lot.flags.contains(QualityFlag::CurrencyMismatch) {
                    causes.add(
                        r,
                        Subject::Acquisition,
                        QualityFlag::CurrencyMismatch,
                        Some(lot.asset),
                    );
                }
                let fee = fee_flag.get(r as usize).copied().flatten();
                let present: Vec<QualityFlag> = value_flags(lot.flags).collect();
                let principal = if lot.provenance.is_none() && !present.is_empty() {
                    let others: Vec<QualityFlag> = present
                        .iter()
                        .copied()
                        .filter(|f| Some(*f) != fee)
                        .collect();
                    let candidates = if others.is_empty() { &present } else { &others };
                    candidates.first().copied()
                } else {
                    None
                };
                if let Some(flag) = principal {
                    causes.add(r, Subject::Acquisition, flag, Some(lot.asset));
                }
                for flag in present {
                    if Some(flag) != principal && Some(flag) != fee {
                        causes.add(r, Subject::Fee, flag, row_fee_asset(input, r));
                    }
                }
            }
            SpotTxType::Swap => {
                // The received lot shares the swap's transmission value: its root cause is the
                // disposal (normally already recorded from the principal leg).
                if lot.provenance.is_none() {
                    for flag in value_flags(lot.flags) {
                        causes.add(r, Subject::Disposal, flag, swap_given_asset(input, r));
                    }
                }
                if lot.flags.contains(QualityFlag::CurrencyMismatch) {
                    causes.add(
                        r,
                        Subject::Disposal,
                        QualityFlag::CurrencyMismatch,
                        swap_given_asset(input, r),
                    );
                }
            }
            tx if INCOME_TYPES.contains(&tx) => {
                for flag in value_flags(lot.flags) {
                    causes.add(r, Subject::Income, flag, Some(lot.asset));
                }
                if lot.flags.contains(QualityFlag::CurrencyMismatch) {
                    causes.add(
                        r,
                        Subject::Income,
                        QualityFlag::CurrencyMismatch,
                        Some(lot.asset),
                    );
                }
            }
            _ => {}
        }
    }
}

fn row_fee_asset(input: &EngineInput, r: u32) -> Option<Asset> {
    input
        .rows
        .get(r as usize)
        .and_then(|row| row.row.fee)
        .map(|fee| fee.asset)
}

fn swap_given_asset(input: &EngineInput, r: u32) -> Option<Asset> {
    input
        .rows
        .get(r as usize)
        .and_then(|row| row.row.outflow)
        .map(|out| out.asset)
}

/// Report order within a flag: occurred_at ascending (absent last), asset, account name, row
/// key (absent last each), then subject and quantity so the order is total.
fn sort_rows(rows: &mut [IntegrityRow]) {
    fn last<T: Ord + Clone>(value: Option<&T>) -> (bool, Option<T>) {
        (value.is_none(), value.cloned())
    }
    rows.sort_by(|a, b| {
        let key = |r: &IntegrityRow| {
            (
                r.quality_flag,
                last(r.occurred_at.as_ref()),
                last(r.asset.as_ref()),
                last(r.account_name.as_ref()),
                last(r.row_key.as_ref()),
                r.subject,
                r.quantity,
            )
        };
        key(a).cmp(&key(b))
    });
}

/// Groups rows by flag: severity descending, then canonical flag order (`domain.md` §10.2).
pub fn integrity_report(mut rows: Vec<IntegrityRow>) -> IntegrityReport {
    sort_rows(&mut rows);
    let total_defects = rows.len();
    let pending_review = rows.iter().filter(|r| r.pending_review).count();
    let mut flags: Vec<QualityFlag> = QualityFlag::ALL.to_vec();
    flags.sort_by_key(|f| (std::cmp::Reverse(f.severity()), *f));
    let mut groups = Vec::new();
    for flag in flags {
        let group_rows: Vec<IntegrityRow> = rows
            .iter()
            .filter(|r| r.quality_flag == flag)
            .cloned()
            .collect();
        if group_rows.is_empty() {
            continue;
        }
        groups.push(IntegrityGroup {
            quality_flag: flag,
            severity: flag.severity(),
            count: group_rows.len(),
            pending_review_count: group_rows.iter().filter(|r| r.pending_review).count(),
            rows: group_rows,
        });
    }
    IntegrityReport {
        groups,
        total_defects,
        pending_review,
    }
}

/// Completeness counters of `domain.md` §10.3; `rows` are the ledger's integrity rows.
pub fn completeness(
    input: &EngineInput,
    output: &EngineOutput,
    rows: &[IntegrityRow],
) -> DomainResult<Completeness> {
    let rows_per_flag = QualityFlag::ALL
        .iter()
        .map(|f| (*f, rows.iter().filter(|r| r.quality_flag == *f).count()))
        .collect();
    let excluded_operations = output
        .operations
        .iter()
        .filter(|op| op.leg != DisposalLeg::Migration)
        .filter(|op| {
            output
                .slices
                .get(op.slices.start as usize..op.slices.end as usize)
                .unwrap_or(&[])
                .iter()
                .any(|s| !s.included)
        })
        .count();
    let mut uncovered: BTreeMap<Asset, Decimal> = BTreeMap::new();
    for slice in output.slices.iter().filter(|s| s.lot_id.is_none()) {
        let sum = uncovered.entry(slice.asset).or_insert(Decimal::ZERO);
        *sum = num::add(*sum, slice.quantity, "uncovered quantity")?;
    }
    Ok(Completeness {
        rows_per_flag,
        excluded_operations,
        uncovered_quantity: uncovered.into_iter().collect(),
        flagged_open_lots: output
            .lots
            .iter()
            .filter(|l| l.flags.is_blocking() && l.remaining_quantity > Decimal::ZERO)
            .count(),
        unresolved_income: output
            .income
            .iter()
            .filter(|r| matches!(r.value, Valued::Unknown { .. }))
            .count(),
        unresolved_derivatives: output
            .derivatives
            .iter()
            .filter(|d| d.net.is_none())
            .count(),
        unknown_rows: input
            .rows
            .iter()
            .filter(|r| matches!(r.row.tx_type, TxType::Unknown { .. }))
            .count(),
    })
}
