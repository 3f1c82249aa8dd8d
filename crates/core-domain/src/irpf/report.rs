//! The year report (`irpf.md` §7): summary, bases, carry-forward breakdown, income,
//! derivatives, completeness, audit trail, warnings and assumptions.

use std::collections::BTreeMap;
use std::sync::Arc;

use rust_decimal::Decimal;
use shared_types::{QualityFlag, SpotTxType};

use super::IrpfComputation;
use super::annex::{AnnexLine, annex_lines};
use super::art_33_5::{Art335Entry, art_33_5_list};
use super::balances::SliceClass;
use super::classification::{Base, Holding};
use super::compensation::{CarryAmount, CarryRemaining, CarryUse, YearCompensation};
use super::modelo100::{Modelo100, build_modelo100};
use super::scale::{BracketTax, savings_tax};
use super::year_end::YearEndHoldings;
use crate::asset::{Asset, CurrencyCode};
use crate::compare::CompletenessStatus;
use crate::engine::{
    Clave, DisposalLeg, FlagSet, IncomeBucket, Operation, Provenance, Slice, SwapWinner, Valued,
};
use crate::error::{DomainError, DomainResult};
use crate::ledger::{AccountId, RowKey};
use crate::num;
use crate::time::{Date, Instant};

/// Warnings of the year report, in their closed order (`irpf.md` §7.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Warning {
    /// The year is before `start_year`: computed with no carry-forward items.
    YearBeforeStart,
    /// No savings scale for the year.
    NoSavingsScale,
    /// Some item of the year was excluded.
    Incomplete,
    /// A declared item had expired and was ignored.
    DeclaredCarryForwardExpired,
    /// A negative 2013–2014 general balance without a known absorption.
    GeneralLossAbsorptionUnknown,
    /// `G` or `M` is non-zero: general-base items are reported, not taxed.
    GeneralBaseNotTaxed,
    /// A slice of a FORK lot was disposed of.
    ForkZeroCost,
    /// A migration happened in the year.
    MigrationNotTaxed,
    /// A derivative row settled in a crypto asset.
    DerivativesCollateralNotTracked,
    /// The art. 33.5 list is not empty.
    Art335Review,
}

impl Warning {
    /// Wire spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::YearBeforeStart => "YEAR_BEFORE_START",
            Self::NoSavingsScale => "NO_SAVINGS_SCALE",
            Self::Incomplete => "INCOMPLETE",
            Self::DeclaredCarryForwardExpired => "DECLARED_CARRY_FORWARD_EXPIRED",
            Self::GeneralLossAbsorptionUnknown => "GENERAL_LOSS_ABSORPTION_UNKNOWN",
            Self::GeneralBaseNotTaxed => "GENERAL_BASE_NOT_TAXED",
            Self::ForkZeroCost => "FORK_ZERO_COST",
            Self::MigrationNotTaxed => "MIGRATION_NOT_TAXED",
            Self::DerivativesCollateralNotTracked => "DERIVATIVES_COLLATERAL_NOT_TRACKED",
            Self::Art335Review => "ART_33_5_REVIEW",
        }
    }
}

/// The fixed assumptions of `irpf.md` §0, as stable identifiers.
pub const ASSUMPTIONS: [&str; 5] = [
    "TERRITORIO_COMUN",
    "LEDGER_IS_COMPLETE",
    "NO_OTHER_SAVINGS_INCOME",
    "GENERAL_BASE_NOT_TAXED_BY_PRODUCT",
    "NO_MINIMUM_OR_DEDUCTIONS",
];

/// The sixteen summary fields (`irpf.md` §7.1), in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// 1.
    pub capital_gains: Decimal,
    /// 2.
    pub capital_losses: Decimal,
    /// 3.
    pub savings_base_yields: Decimal,
    /// 4.
    pub general_base_airdrops: Decimal,
    /// 5.
    pub net_patrimonial_result: Decimal,
    /// 6 (null without a scale).
    pub estimated_irpf: Option<Decimal>,
    /// 7.
    pub savings_transmission_balance: Decimal,
    /// 8.
    pub general_short_term_balance: Decimal,
    /// 9.
    pub current_year_cross_compensation: Decimal,
    /// 10.
    pub carry_forward_used: Decimal,
    /// 11.
    pub savings_base_after_compensation: Decimal,
    /// 12.
    pub general_gains_after_compensation: Decimal,
    /// 13.
    pub carry_forward_generated: Decimal,
    /// 14.
    pub carry_forward_remaining: Decimal,
    /// 15.
    pub carry_forward_expired: Decimal,
    /// 16.
    pub economic_activity_income: Decimal,
}

impl Summary {
    /// Rust field names in order.
    pub const FIELDS: [&'static str; 16] = [
        "capital_gains",
        "capital_losses",
        "savings_base_yields",
        "general_base_airdrops",
        "net_patrimonial_result",
        "estimated_irpf",
        "savings_transmission_balance",
        "general_short_term_balance",
        "current_year_cross_compensation",
        "carry_forward_used",
        "savings_base_after_compensation",
        "general_gains_after_compensation",
        "carry_forward_generated",
        "carry_forward_remaining",
        "carry_forward_expired",
        "economic_activity_income",
    ];

    /// The values in field order.
    pub fn values(&self) -> [Option<Decimal>; 16] {
        [
            Some(self.capital_gains),
            Some(self.capital_losses),
            Some(self.savings_base_yields),
            Some(self.general_base_airdrops),
            Some(self.net_patrimonial_result),
            self.estimated_irpf,
            Some(self.savings_transmission_balance),
            Some(self.general_short_term_balance),
            Some(self.current_year_cross_compensation),
            Some(self.carry_forward_used),
            Some(self.savings_base_after_compensation),
            Some(self.general_gains_after_compensation),
            Some(self.carry_forward_generated),
            Some(self.carry_forward_remaining),
            Some(self.carry_forward_expired),
            Some(self.economic_activity_income),
        ]
    }

    /// The values as `FIAT` strings (`null` for a missing value), in field order.
    pub fn formatted(&self) -> [String; 16] {
        self.values()
            .map(|v| v.map_or_else(|| "null".to_owned(), num::fiat))
    }
}

/// Breakdown of the bases (`irpf.md` §7.2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bases {
    /// `T_sav`.
    pub savings_transmission_balance: Decimal,
    /// `R`.
    pub savings_rcm_balance: Decimal,
    /// `p`, or null before 2015.
    pub cross_percentage: Option<Decimal>,
    /// `T_sav` after compensation.
    pub savings_gp_after_compensation: Decimal,
    /// `R` after compensation.
    pub savings_rcm_after_compensation: Decimal,
    /// Base liquidable del ahorro.
    pub savings_base_after_compensation: Decimal,
    /// `G`.
    pub general_gains_balance: Decimal,
    /// `G` after compensation.
    pub general_gains_after_compensation: Decimal,
    /// Brackets reached by the savings base (empty without a scale).
    pub brackets: Vec<BracketTax>,
}

/// Carry-forward breakdown, each list by origin year then kind.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CarryForward {
    /// Uses of earlier items.
    pub used: Vec<CarryUse>,
    /// New items.
    pub generated: Vec<CarryAmount>,
    /// Items still usable.
    pub remaining: Vec<CarryRemaining>,
    /// Items expiring at the end of the year.
    pub expired: Vec<CarryAmount>,
}

/// One income receipt of the year.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IncomeLine {
    /// The row.
    pub row_key: RowKey,
    /// Its type.
    pub tx_type: SpotTxType,
    /// Its bucket.
    pub bucket: IncomeBucket,
    /// Fiscal date.
    pub fiscal_date: Date,
    /// Asset received.
    pub asset: Asset,
    /// Quantity received.
    pub quantity: Decimal,
    /// Value on receipt (EUR) or unknown.
    pub value: Option<Decimal>,
    /// Provenance of a known value.
    pub provenance: Option<Provenance>,
    /// Flags.
    pub flags: FlagSet,
}

/// A total of resolved income per `(bucket, asset)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IncomeAssetTotal {
    /// Bucket.
    pub bucket: IncomeBucket,
    /// Asset.
    pub asset: Asset,
    /// Σ quantity of resolved receipts.
    pub quantity: Decimal,
    /// Σ value.
    pub value: Decimal,
}

/// The year's income receipts with totals.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Income {
    /// Receipts in ledger order.
    pub receipts: Vec<IncomeLine>,
    /// Σ resolved value per bucket (RCM, GENERAL_GP, ACTIVITY; every bucket listed).
    pub totals_by_bucket: Vec<(IncomeBucket, Decimal)>,
    /// Σ per bucket and asset (bucket order, then symbol).
    pub totals_by_asset: Vec<IncomeAssetTotal>,
}

/// Derivative results of one contract.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContractResult {
    /// Contract symbol.
    pub contract: String,
    /// Settlement asset.
    pub settlement_asset: Asset,
    /// Σ positive known results.
    pub gains: Decimal,
    /// Σ |negative known results|.
    pub losses: Decimal,
    /// `gains − losses`.
    pub net: Decimal,
    /// Number of rows with a known result.
    pub rows: usize,
}

/// A derivative row with an unknown result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnresolvedDerivative {
    /// The row.
    pub row_key: String,
    /// Contract.
    pub contract: String,
    /// Fiscal date.
    pub fiscal_date: Date,
    /// Flags.
    pub flags: FlagSet,
}

/// The year's derivative results.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Derivatives {
    /// Per contract, in contract order.
    pub contracts: Vec<ContractResult>,
    /// Rows with an unknown result, in ledger order.
    pub unresolved: Vec<UnresolvedDerivative>,
}

/// A disposal leg of the year with at least one excluded slice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExcludedOperation {
    /// The row.
    pub row_key: String,
    /// P or F.
    pub leg: DisposalLeg,
    /// Asset.
    pub asset: Asset,
    /// Quantity of the leg.
    pub quantity: Decimal,
    /// Union of the leg's and its excluded slices' flags.
    pub flags: FlagSet,
}

/// Year-scoped completeness (`irpf.md` §7.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completeness {
    /// Items blocked by `MISSING_FX_RATE`.
    pub unconvertible_count: u64,
    /// Other disposal legs with an excluded slice and other unknown derivative results.
    pub excluded_flagged_events: u64,
    /// Other unresolved income receipts.
    pub excluded_unresolved_income: u64,
    /// `COMPLETE` or `INCOMPLETE { reasons }`.
    pub status: CompletenessStatus,
    /// Uncovered quantity per asset (`MISSING_ACQUISITION`), symbol order.
    pub uncovered_quantity: Vec<(Asset, Decimal)>,
    /// Included slices with a MANUAL transmission or acquisition provenance.
    pub manual_value_count: u64,
    /// Excluded operations, in slice order.
    pub excluded_operations: Vec<ExcludedOperation>,
}

/// The swap part of an audit row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwapAudit {
    /// Value of what was given.
    pub given_value: Option<Decimal>,
    /// Value of what was received.
    pub received_value: Option<Decimal>,
    /// Winning leg.
    pub winner: Option<SwapWinner>,
}

/// One slice of legs P and F disposed of in the year (`irpf.md` §7.4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuditRow {
    /// `n` of the slice id `E:<row_key>:<leg>:<n>` ([`AuditRow::slice_id`]): the ids are
    /// formatted when read, not stored (a year holds up to a million rows).
    pub n: u32,
    /// Disposal row.
    pub row_key: RowKey,
    /// P or F.
    pub leg: DisposalLeg,
    /// SELL, SWAP, SPEND or FEE.
    pub operation_type: SpotTxType,
    /// Asset.
    pub asset: Asset,
    /// Quantity.
    pub quantity: Decimal,
    /// Clave.
    pub clave: Option<Clave>,
    /// Instant.
    pub disposed_at: Instant,
    /// Fiscal date.
    pub disposed_on: Date,
    /// `k` of the lot id `L:<acquisition_row_key>:<k>` ([`AuditRow::lot_id`]); `None` for the
    /// uncovered slice.
    pub lot_k: Option<u32>,
    /// The lot's acquiring row.
    pub acquisition_row_key: Option<RowKey>,
    /// The lot's fiscal acquisition date.
    pub acquired_on: Option<Date>,
    /// Holding period.
    pub holding: Option<Holding>,
    /// Base, null when excluded.
    pub base: Option<Base>,
    /// Disposal account name.
    pub disposal_account: Arc<str>,
    /// Lot account name.
    pub lot_account: Option<Arc<str>>,
    /// Gross value.
    pub gross_transmission_value: Option<Decimal>,
    /// Fee expense.
    pub fee_expense: Option<Decimal>,
    /// `gross − fee`.
    pub transmission_value: Option<Decimal>,
    /// Acquisition value.
    pub acquisition_value: Option<Decimal>,
    /// Result.
    pub result: Option<Decimal>,
    /// Included in figures.
    pub included: bool,
    /// Flags.
    pub quality_flags: FlagSet,
    /// Provenance of the transmission value.
    pub transmission_provenance: Option<Provenance>,
    /// Provenance of the lot's value.
    pub acquisition_provenance: Option<Provenance>,
    /// Price of a market transmission value.
    pub price: Option<Decimal>,
    /// Its currency.
    pub price_currency: Option<CurrencyCode>,
    /// Its date.
    pub price_date: Option<Date>,
    /// ECB rate applied.
    pub fx_rate: Option<Decimal>,
    /// Its date.
    pub fx_rate_date: Option<Date>,
    /// Swap detail (boxed: most slices are not swaps, and inline it would add a tenth to every
    /// audit row).
    pub swap: Option<Box<SwapAudit>>,
}

impl AuditRow {
    /// The slice id `E:<row_key>:<leg>:<n>`.
    pub fn slice_id(&self) -> String {
        public_id("E:", &self.row_key, Some(self.leg.as_str()), self.n)
    }

    /// The consumed lot's id `L:<acquisition_row_key>:<k>`; `None` for the uncovered slice.
    pub fn lot_id(&self) -> Option<String> {
        let key = self.acquisition_row_key.as_ref()?;
        Some(public_id("L:", key, None, self.lot_k?))
    }
}

/// The year report (`irpf.md` §7).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IrpfYearReport {
    /// Fiscal year.
    pub year: i32,
    /// Always EUR.
    pub currency: &'static str,
    /// Always FIFO.
    pub method: &'static str,
    /// Resolved start year.
    pub start_year: i32,
    /// The sixteen fields.
    pub summary: Summary,
    /// Bases.
    pub bases: Bases,
    /// Carry-forward breakdown.
    pub carry_forward: CarryForward,
    /// Completeness.
    pub completeness: Completeness,
    /// Audit trail.
    pub audit_trail: Vec<AuditRow>,
    /// Income.
    pub income: Income,
    /// Derivatives.
    pub derivatives: Derivatives,
    /// Modelo 100 rows and other blocks.
    pub modelo100: Modelo100,
    /// Per-operation annex.
    pub annex: Vec<AnnexLine>,
    /// Art. 33.5 list when the setting is on.
    pub art_33_5_warnings: Option<Vec<Art335Entry>>,
    /// Year-end holdings (when the caller supplied the cut-off balances).
    pub year_end_holdings: Option<YearEndHoldings>,
    /// Warnings, closed order.
    pub warnings: Vec<Warning>,
    /// Assumptions.
    pub assumptions: Vec<&'static str>,
}

fn add(a: Decimal, b: Decimal) -> DomainResult<Decimal> {
    num::add(a, b, "irpf report")
}

/// Year-scoped counters while the report is built.
#[derive(Default)]
struct Counters {
    unconvertible: u64,
    flagged: u64,
    unresolved_income: u64,
}

impl Counters {
    fn excluded(&mut self, flags: FlagSet) {
        if flags.contains(QualityFlag::MissingFxRate) {
            self.unconvertible += 1;
        } else {
            self.flagged += 1;
        }
    }
}

/// Facts gathered while walking the year's slices.
#[derive(Default)]
struct SliceFacts {
    audit: Vec<AuditRow>,
    uncovered: BTreeMap<Asset, Decimal>,
    manual_value_count: u64,
    fork_disposed: bool,
    migration: bool,
}

struct Names<'c> {
    comp: &'c IrpfComputation<'c>,
    accounts: BTreeMap<AccountId, Arc<str>>,
}

impl<'c> Names<'c> {
    fn new(comp: &'c IrpfComputation<'c>) -> Self {
        let accounts = comp
            .input
            .accounts
            .iter()
            .map(|a| (a.id, Arc::from(a.name.as_str())))
            .collect();
        Self { comp, accounts }
    }

    fn account(&self, id: AccountId) -> Arc<str> {
        self.accounts
            .get(&id)
            .cloned()
            .unwrap_or_else(|| Arc::from(format!("#{}", id.0)))
    }

    fn row_key(&self, row: u32) -> RowKey {
        self.comp.row_key(row)
    }
}

/// An uncovered quantity met at a position of a walk, summed later in slice order.
type UncoveredPart = (usize, Asset, Decimal);

/// Walks the slices `indices` (slice order) into audit rows and facts. Uncovered quantities
/// are summed into the facts, or listed in `list` when given (a second half, summed after the
/// first). An error carries the position of the slice that raised it.
fn slice_facts(
    comp: &IrpfComputation<'_>,
    names: &Names<'_>,
    indices: &[u32],
    capacity: usize,
    mut list: Option<&mut Vec<UncoveredPart>>,
) -> Result<SliceFacts, (usize, DomainError)> {
    let output = comp.input.output;
    let mut facts = SliceFacts {
        audit: Vec::with_capacity(capacity),
        ..SliceFacts::default()
    };
    // The consumed lots' row keys, read in one pass before the walk: each is a read of a
    // large row record far from the last one, and inside the walk every one stalled it.
    let mut lot_keys: Vec<Option<RowKey>> = indices
        .iter()
        .map(|&i| {
            let id = output.slices.get(i as usize)?.lot_id?;
            Some(names.row_key(id.row))
        })
        .collect();
    // The slices of one operation are adjacent: its row key and account name are shared.
    let mut current: Option<(u32, RowKey, Arc<str>)> = None;
    for (position, &i) in indices.iter().enumerate() {
        let (Some(slice), Some(class)) =
            (output.slices.get(i as usize), comp.classes.get(i as usize))
        else {
            continue;
        };
        let fail = |error| (position, error);
        let Some(op) = output.operations.get(slice.operation as usize) else {
            continue;
        };
        if op.leg == DisposalLeg::Migration {
            facts.migration = true;
            continue;
        }
        if let Some(id) = slice.lot_id
            && comp.fork_lots.binary_search(&id).is_ok()
        {
            facts.fork_disposed = true;
        }
        if slice.lot_id.is_none() {
            if let Some(list) = list.as_deref_mut() {
                list.push((position, slice.asset, slice.quantity));
            } else {
                let entry = facts.uncovered.entry(slice.asset).or_default();
                *entry = num::add(*entry, slice.quantity, "uncovered quantity").map_err(fail)?;
            }
        }
        let transmission_provenance = match op.valuation {
            Some(Valued::Known { provenance, .. }) => Some(provenance),
            _ => None,
        };
        let acquisition_provenance = slice.acquisition_provenance;
        if slice.included
            && (transmission_provenance == Some(Provenance::Manual)
                || acquisition_provenance == Some(Provenance::Manual))
        {
            facts.manual_value_count += 1;
        }
        let transmission_value = match (slice.gross_value(), slice.fee_expense()) {
            (Some(g), Some(f)) => Some(num::sub(g, f, "transmission value").map_err(fail)?),
            _ => None,
        };
        let (key, disposal_account) = match &current {
            Some((index, key, account)) if *index == slice.operation => {
                (key.clone(), Arc::clone(account))
            }
            _ => {
                let key = names.row_key(op.row);
                let account = names.account(op.account_id);
                current = Some((slice.operation, key.clone(), Arc::clone(&account)));
                (key, account)
            }
        };
        let lot_key = lot_keys.get_mut(position).and_then(Option::take);
        facts.audit.push(audit_row(
            names,
            op,
            slice,
            *class,
            (key, disposal_account, lot_key),
            transmission_value,
            transmission_provenance,
        ));
    }
    Ok(facts)
}

/// The audit row of a slice of legs P or F (`key` and the disposal account shared by its
/// operation's slices; `lot_key` the consumed lot's row key).
fn audit_row(
    names: &Names<'_>,
    op: &Operation,
    slice: &Slice,
    class: SliceClass,
    (key, disposal_account, lot_key): (RowKey, Arc<str>, Option<RowKey>),
    transmission_value: Option<Decimal>,
    transmission_provenance: Option<Provenance>,
) -> AuditRow {
    let (price, fx) = match op.valuation {
        Some(Valued::Known { price, fx, .. }) => (price, fx),
        _ => (None, None),
    };
    AuditRow {
        n: slice.n,
        row_key: key,
        leg: op.leg,
        operation_type: op.tx_type,
        asset: slice.asset,
        quantity: slice.quantity,
        clave: op.clave,
        disposed_at: op.disposed_at,
        disposed_on: op.fiscal_date,
        lot_k: slice.lot_id.filter(|_| lot_key.is_some()).map(|id| id.k),
        acquisition_row_key: lot_key,
        acquired_on: slice.acquired_on.filter(|_| slice.lot_id.is_some()),
        holding: class.holding,
        base: class.base,
        disposal_account,
        lot_account: slice.lot_account_id().map(|id| names.account(id)),
        gross_transmission_value: slice.gross_value(),
        fee_expense: slice.fee_expense(),
        transmission_value,
        acquisition_value: slice.acquisition_value(),
        result: if slice.included { slice.result() } else { None },
        included: slice.included,
        quality_flags: slice.flags,
        transmission_provenance,
        acquisition_provenance: slice.acquisition_provenance,
        price: price.map(|p| p.price),
        price_currency: price.map(|p| p.currency),
        price_date: price.map(|p| p.date),
        fx_rate: fx.map(|f| f.rate),
        fx_rate_date: fx.map(|f| f.rate_date),
        swap: op.swap.as_deref().map(|s| {
            Box::new(SwapAudit {
                given_value: s.given.amount(),
                received_value: s.received.amount(),
                winner: s.winner,
            })
        }),
    }
}

/// `<prefix><key>:[<leg>:]<n>` (`E:…` slice ids, `L:…` lot ids) without the formatting
/// machinery: one or two per audit row.
fn public_id(prefix: &str, key: &RowKey, leg: Option<&str>, n: u32) -> String {
    key.with_str(|key| public_id_of(prefix, key, leg, n))
}

fn public_id_of(prefix: &str, key: &str, leg: Option<&str>, n: u32) -> String {
    let mut id = String::with_capacity(prefix.len() + key.len() + 14);
    id.push_str(prefix);
    id.push_str(key);
    id.push(':');
    if let Some(leg) = leg {
        id.push_str(leg);
        id.push(':');
    }
    let mut digits = [0u8; 10];
    let mut len = 0;
    let mut rest = n;
    while let Some(digit) = digits.get_mut(len) {
        *digit = b'0' + (rest % 10) as u8;
        len += 1;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    for digit in digits.iter().take(len).rev() {
        id.push(char::from(*digit));
    }
    id
}

/// Disposal legs P and F of the year with an excluded slice, counted once each.
fn excluded_operations(
    comp: &IrpfComputation<'_>,
    names: &Names<'_>,
    year: i32,
    counters: &mut Counters,
) -> Vec<ExcludedOperation> {
    let output = comp.input.output;
    let mut excluded_operations = Vec::new();
    let operations = comp.year_index(year).operations.iter();
    for op in operations.filter_map(|&i| output.operations.get(i as usize)) {
        if op.leg == DisposalLeg::Migration {
            continue;
        }
        let mut flags = op.flags;
        let mut excluded = op.flags.is_blocking();
        let slices = output
            .slices
            .get(op.slices.start as usize..op.slices.end as usize)
            .unwrap_or_default();
        for slice in slices.iter().filter(|s| !s.included) {
            excluded = true;
            flags = flags.union(slice.flags);
        }
        if !excluded {
            continue;
        }
        counters.excluded(flags);
        excluded_operations.push(ExcludedOperation {
            row_key: names.row_key(op.row).to_string(),
            leg: op.leg,
            asset: op.asset,
            quantity: op.quantity,
            flags,
        });
    }
    excluded_operations
}

fn income(
    comp: &IrpfComputation<'_>,
    names: &Names<'_>,
    year: i32,
    counters: &mut Counters,
) -> DomainResult<Income> {
    let mut receipts = Vec::new();
    let mut by_bucket: BTreeMap<IncomeBucket, Decimal> = [
        (IncomeBucket::Rcm, Decimal::ZERO),
        (IncomeBucket::GeneralGp, Decimal::ZERO),
        (IncomeBucket::Activity, Decimal::ZERO),
    ]
    .into_iter()
    .collect();
    let mut by_asset: BTreeMap<(IncomeBucket, Asset), (Decimal, Decimal)> = BTreeMap::new();
    let all = &comp.input.output.income;
    let receipts_of_year = comp.year_index(year).income.iter();
    for receipt in receipts_of_year.filter_map(|&i| all.get(i as usize)) {
        let (value, provenance) = match receipt.value {
            Valued::Known {
                amount, provenance, ..
            } => (Some(amount), Some(provenance)),
            Valued::Unknown { flag } => {
                if flag == QualityFlag::MissingFxRate
                    || receipt.flags.contains(QualityFlag::MissingFxRate)
                {
                    counters.unconvertible += 1;
                } else {
                    counters.unresolved_income += 1;
                }
                (None, None)
            }
        };
        if let Some(v) = value {
            let total = by_bucket.entry(receipt.bucket).or_default();
            *total = add(*total, v)?;
            let entry = by_asset.entry((receipt.bucket, receipt.asset)).or_default();
            entry.0 = add(entry.0, receipt.quantity)?;
            entry.1 = add(entry.1, v)?;
        }
        receipts.push(IncomeLine {
            row_key: names.row_key(receipt.row),
            tx_type: receipt.tx_type,
            bucket: receipt.bucket,
            fiscal_date: receipt.fiscal_date,
            asset: receipt.asset,
            quantity: receipt.quantity,
            value,
            provenance,
            flags: receipt.flags,
        });
    }
    Ok(Income {
        receipts,
        totals_by_bucket: by_bucket.into_iter().collect(),
        totals_by_asset: by_asset
            .into_iter()
            .map(|((bucket, asset), (quantity, value))| IncomeAssetTotal {
                bucket,
                asset,
                quantity,
                value,
            })
            .collect(),
    })
}

/// The year's derivative results and whether one settled in crypto.
fn derivatives(
    comp: &IrpfComputation<'_>,
    year: i32,
    counters: &mut Counters,
) -> DomainResult<(Derivatives, bool)> {
    let mut contracts: BTreeMap<(String, Asset), ContractResult> = BTreeMap::new();
    let mut unresolved = Vec::new();
    let mut crypto_collateral = false;
    let all = &comp.input.output.derivatives;
    let of_year = comp.year_index(year).derivatives.iter();
    for derivative in of_year.filter_map(|&i| all.get(i as usize)) {
        let Some(row) = comp.input.engine_input.futures.get(derivative.row as usize) else {
            continue;
        };
        if row.settlement_asset.is_crypto() {
            crypto_collateral = true;
        }
        let Some(net) = derivative.net else {
            counters.excluded(derivative.flags);
            unresolved.push(UnresolvedDerivative {
                row_key: row.row_key.to_string(),
                contract: row.contract.clone(),
                fiscal_date: derivative.fiscal_date,
                flags: derivative.flags,
            });
            continue;
        };
        let entry = contracts
            .entry((row.contract.clone(), row.settlement_asset))
            .or_insert_with(|| ContractResult {
                contract: row.contract.clone(),
                settlement_asset: row.settlement_asset,
                gains: Decimal::ZERO,
                losses: Decimal::ZERO,
                net: Decimal::ZERO,
                rows: 0,
            });
        if net >= Decimal::ZERO {
            entry.gains = add(entry.gains, net)?;
        } else {
            entry.losses = num::sub(entry.losses, net, "derivative losses")?;
        }
        entry.net = add(entry.net, net)?;
        entry.rows += 1;
    }
    Ok((
        Derivatives {
            contracts: contracts.into_values().collect(),
            unresolved,
        },
        crypto_collateral,
    ))
}

fn summary_and_bases(year: i32, year_comp: &YearCompensation) -> DomainResult<(Summary, Bases)> {
    let b = year_comp.balances;
    let tax = savings_tax(year, year_comp.savings_base_after)?;
    let summary = Summary {
        capital_gains: b.capital_gains,
        capital_losses: b.capital_losses,
        savings_base_yields: b.r,
        general_base_airdrops: b.a,
        net_patrimonial_result: num::sub(b.capital_gains, b.capital_losses, "net result")?,
        estimated_irpf: tax.as_ref().map(|t| t.total),
        savings_transmission_balance: b.t_sav,
        general_short_term_balance: b.t_gen,
        current_year_cross_compensation: year_comp.current_year_cross_compensation,
        carry_forward_used: year_comp.used_total()?,
        savings_base_after_compensation: year_comp.savings_base_after,
        general_gains_after_compensation: year_comp.general_gains_after,
        carry_forward_generated: year_comp.generated_total()?,
        carry_forward_remaining: year_comp.remaining_total()?,
        carry_forward_expired: year_comp.expired_total()?,
        economic_activity_income: b.m,
    };
    let bases = Bases {
        savings_transmission_balance: b.t_sav,
        savings_rcm_balance: b.r,
        cross_percentage: year_comp.cross_percentage,
        savings_gp_after_compensation: year_comp.savings_gp_after,
        savings_rcm_after_compensation: year_comp.savings_rcm_after,
        savings_base_after_compensation: year_comp.savings_base_after,
        general_gains_balance: b.g()?,
        general_gains_after_compensation: year_comp.general_gains_after,
        brackets: tax.map(|t| t.brackets).unwrap_or_default(),
    };
    Ok((summary, bases))
}

/// The blocks of the report besides the audit trail.
struct OtherBlocks {
    counters: Counters,
    excluded_operations: Vec<ExcludedOperation>,
    income: Income,
    derivatives: Derivatives,
    crypto_collateral: bool,
    modelo100: Modelo100,
    art: Option<Vec<Art335Entry>>,
}

fn other_blocks(
    comp: &IrpfComputation<'_>,
    names: &Names<'_>,
    year: i32,
) -> DomainResult<OtherBlocks> {
    let mut counters = Counters::default();
    let excluded_operations = excluded_operations(comp, names, year, &mut counters);
    let income = income(comp, names, year, &mut counters)?;
    let (derivatives, crypto_collateral) = derivatives(comp, year, &mut counters)?;
    let modelo100 = build_modelo100(year, comp, &income, &derivatives)?;
    let art = if comp.input.settings.art_33_5_warnings {
        Some(art_33_5_list(comp, year)?)
    } else {
        None
    };
    Ok(OtherBlocks {
        counters,
        excluded_operations,
        income,
        derivatives,
        crypto_collateral,
        modelo100,
        art,
    })
}

/// The audit trail's facts and the other blocks. The audit trail is built in two halves side
/// by side (`rayon::join`), the second beside the other blocks; the halves are joined in slice
/// order and errors are reported in the order of the sequential walk, so the result never
/// depends on the threads.
fn facts_and_blocks(
    comp: &IrpfComputation<'_>,
    names: &Names<'_>,
    year: i32,
) -> (DomainResult<SliceFacts>, DomainResult<OtherBlocks>) {
    let slices = comp.year_index(year).slices.as_slice();
    let (head, tail) = slices.split_at(slices.len() / 2);
    let (first, (second, uncovered, rest)) = rayon::join(
        || slice_facts(comp, names, head, slices.len(), None),
        || {
            let mut uncovered = Vec::new();
            let second = slice_facts(comp, names, tail, tail.len(), Some(&mut uncovered));
            (second, uncovered, other_blocks(comp, names, year))
        },
    );
    (merge_facts(first, second, uncovered), rest)
}

/// Appends the second half's facts to the first's as the sequential walk would have met them:
/// its uncovered quantities are summed after the first half's, up to its failing slice.
fn merge_facts(
    first: Result<SliceFacts, (usize, DomainError)>,
    second: Result<SliceFacts, (usize, DomainError)>,
    uncovered: Vec<UncoveredPart>,
) -> DomainResult<SliceFacts> {
    let mut facts = first.map_err(|(_, error)| error)?;
    let failed_at = second.as_ref().err().map(|(position, _)| *position);
    for (position, asset, quantity) in uncovered {
        if failed_at.is_some_and(|at| position > at) {
            break;
        }
        let entry = facts.uncovered.entry(asset).or_default();
        *entry = num::add(*entry, quantity, "uncovered quantity")?;
    }
    let second = second.map_err(|(_, error)| error)?;
    facts.audit.extend(second.audit);
    facts.manual_value_count += second.manual_value_count;
    facts.fork_disposed |= second.fork_disposed;
    facts.migration |= second.migration;
    Ok(facts)
}

/// Builds the report of `year`: the carry-forward state runs from `start_year` (or the year
/// alone when it is earlier), then the year's records are walked once.
pub fn build_year_report(
    comp: &IrpfComputation<'_>,
    year: i32,
    year_end_holdings: Option<YearEndHoldings>,
) -> DomainResult<IrpfYearReport> {
    let validated = comp.validated(year)?;
    let start_year = validated.start_year;
    let all = super::compensation::run_years(&comp.balances, &validated, year, year)?;
    let Some(year_comp) = all.into_values().next() else {
        return Err(crate::error::DomainError::overflow(
            "irpf year out of range",
        ));
    };
    let (summary, bases) = summary_and_bases(year, &year_comp)?;
    let mut used = year_comp.used.clone();
    used.sort_by_key(|u| (u.origin_year, u.kind));
    let carry_forward = CarryForward {
        used,
        generated: year_comp.generated.clone(),
        remaining: year_comp.remaining.clone(),
        expired: year_comp.expired.clone(),
    };

    let names = Names::new(comp);
    let (facts, rest) = facts_and_blocks(comp, &names, year);
    let facts = facts?;
    let OtherBlocks {
        counters,
        excluded_operations,
        income,
        derivatives,
        crypto_collateral,
        modelo100,
        art,
    } = rest?;
    let status = CompletenessStatus::from_counts(
        counters.unconvertible,
        counters.flagged,
        counters.unresolved_income,
    );

    let balances = year_comp.balances;
    let conditions = [
        (year < start_year, Warning::YearBeforeStart),
        (summary.estimated_irpf.is_none(), Warning::NoSavingsScale),
        (!status.is_complete(), Warning::Incomplete),
        (
            validated.declared_expired && year >= start_year,
            Warning::DeclaredCarryForwardExpired,
        ),
        (
            year_comp.general_absorption_unknown,
            Warning::GeneralLossAbsorptionUnknown,
        ),
        (
            !balances.g()?.is_zero() || !balances.m.is_zero(),
            Warning::GeneralBaseNotTaxed,
        ),
        (facts.fork_disposed, Warning::ForkZeroCost),
        (facts.migration, Warning::MigrationNotTaxed),
        (crypto_collateral, Warning::DerivativesCollateralNotTracked),
        (
            art.as_ref().is_some_and(|list| !list.is_empty()),
            Warning::Art335Review,
        ),
    ];
    let warnings = conditions
        .into_iter()
        .filter(|(on, _)| *on)
        .map(|(_, w)| w)
        .collect();

    Ok(IrpfYearReport {
        year,
        currency: "EUR",
        method: "FIFO",
        start_year,
        summary,
        bases,
        carry_forward,
        completeness: Completeness {
            unconvertible_count: counters.unconvertible,
            excluded_flagged_events: counters.flagged,
            excluded_unresolved_income: counters.unresolved_income,
            status,
            uncovered_quantity: facts.uncovered.into_iter().collect(),
            manual_value_count: facts.manual_value_count,
            excluded_operations,
        },
        annex: annex_lines(&facts.audit),
        audit_trail: facts.audit,
        income,
        derivatives,
        modelo100,
        art_33_5_warnings: art,
        year_end_holdings,
        warnings,
        assumptions: ASSUMPTIONS.to_vec(),
    })
}
