//! The Spanish IRPF year computation (`irpf.md`): classification of the engine's records,
//! year balances, integration and compensation with carry-forward items across years, the
//! savings-scale estimate, the year report with its Modelo 100 rows and annex, the art. 33.5
//! review list and the year-end holdings of Modelos 721 and 714.
//!
//! It reads the fiscal engine's output (`domain.md` §8.9) and never re-implements matching.
//! Every multi-year figure is computed in one pass from `start_year` to the requested year.

pub mod annex;
pub mod art_33_5;
pub mod balances;
pub mod classification;
pub mod compensation;
pub mod guide;
pub mod modelo100;
pub mod render;
pub mod report;
pub mod scale;
pub mod settings;
pub mod worksheet;
pub mod year_end;

use std::collections::BTreeMap;

use crate::engine::{EngineInput, EngineOutput};
use crate::error::DomainResult;
use crate::ledger::{Account, AccountId, RowKey};

pub use balances::{SliceClass, YearBalances};
pub use classification::{Base, Holding};
pub use compensation::{CarryItem, CarrySource, Nature, YearCompensation};
pub use report::{IrpfYearReport, Summary, Warning};
pub use settings::{CarryKind, DeclaredCarryForward, IrpfSettings, Modelo721Filed};

/// Everything the IRPF computation reads.
#[derive(Clone, Copy, Debug)]
pub struct IrpfInput<'a> {
    /// The engine's input (row keys, accounts and futures contracts).
    pub engine_input: &'a EngineInput,
    /// The engine's output.
    pub output: &'a EngineOutput,
    /// The account forest (names, custody kinds).
    pub accounts: &'a [Account],
    /// IRPF settings; `fiscal_timezone` must be the one the engine ran with (it only sets the
    /// default `start_year` here: every record already carries its fiscal date).
    pub settings: &'a IrpfSettings,
}

/// The prepared computation: FORK lots, slice classes, every year's balances and a per-year
/// record index, built once and linear in the number of records.
#[derive(Clone, Debug)]
pub struct IrpfComputation<'a> {
    /// The input.
    pub input: IrpfInput<'a>,
    /// Lots whose root acquisition is a FORK, sorted.
    pub fork_lots: Vec<crate::engine::LotId>,
    /// One class per slice of the engine output.
    pub classes: Vec<SliceClass>,
    /// Balances of every year that has an item.
    pub balances: BTreeMap<i32, YearBalances>,
    /// Fiscal year of the earliest row (spot or futures).
    pub earliest_year: Option<i32>,
    /// The records of each year, so a year's report is linear in that year's events.
    pub by_year: BTreeMap<i32, YearIndex>,
}

/// Indices of one fiscal year's records in the engine output, each list in output order.
#[derive(Clone, Debug, Default)]
pub struct YearIndex {
    /// Slices (all legs).
    pub slices: Vec<u32>,
    /// Disposal operations (all legs).
    pub operations: Vec<u32>,
    /// Income receipts.
    pub income: Vec<u32>,
    /// Derivative results.
    pub derivatives: Vec<u32>,
}

static EMPTY_YEAR: YearIndex = YearIndex {
    slices: Vec::new(),
    operations: Vec::new(),
    income: Vec::new(),
    derivatives: Vec::new(),
};

fn index_years(output: &EngineOutput, classes: &[SliceClass]) -> BTreeMap<i32, YearIndex> {
    let mut map: BTreeMap<i32, YearIndex> = BTreeMap::new();
    for (i, class) in classes.iter().enumerate() {
        map.entry(class.year).or_default().slices.push(i as u32);
    }
    for (i, op) in output.operations.iter().enumerate() {
        let year = classification::fiscal_year(op.fiscal_date);
        map.entry(year).or_default().operations.push(i as u32);
    }
    for (i, receipt) in output.income.iter().enumerate() {
        let year = classification::fiscal_year(receipt.fiscal_date);
        map.entry(year).or_default().income.push(i as u32);
    }
    for (i, derivative) in output.derivatives.iter().enumerate() {
        let year = classification::fiscal_year(derivative.fiscal_date);
        map.entry(year).or_default().derivatives.push(i as u32);
    }
    map
}

/// The fiscal year of the earliest spot or futures row.
fn earliest_year(input: &IrpfInput<'_>) -> Option<i32> {
    let tz = input.settings.fiscal_timezone;
    let spot = input.engine_input.rows.iter().map(|r| r.row.instant);
    let futures = input.engine_input.futures.iter().map(|f| f.instant);
    spot.chain(futures)
        .min()
        .map(|instant| classification::fiscal_year(tz.fiscal_date(instant)))
}

impl<'a> IrpfComputation<'a> {
    /// Prepares the computation. Its passes read only the input, so the independent ones run
    /// side by side (`rayon::join`): the slice classes feed the year balances and the year
    /// index; the fork lots and the earliest year read other records.
    pub fn new(input: IrpfInput<'a>) -> DomainResult<Self> {
        let ((classes, (balances, by_year)), (fork_lots, earliest_year)) = rayon::join(
            || {
                let classes = balances::classify_slices(input.output);
                let after = rayon::join(
                    || balances::year_balances(input.output, &classes),
                    || index_years(input.output, &classes),
                );
                (classes, after)
            },
            || {
                (
                    classification::fork_lots(input.output),
                    earliest_year(&input),
                )
            },
        );
        let balances = balances?;
        Ok(Self {
            input,
            fork_lots,
            classes,
            balances,
            earliest_year,
            by_year,
        })
    }

    /// `irpf.start_year`, defaulting to the year of the earliest row (or `year` for an empty
    /// ledger).
    pub fn start_year(&self, year: i32) -> i32 {
        self.input
            .settings
            .start_year
            .or(self.earliest_year)
            .unwrap_or(year)
    }

    /// Validated settings for a report of `year`.
    pub fn validated(&self, year: i32) -> DomainResult<settings::ValidatedSettings> {
        settings::validate(self.input.settings, self.start_year(year))
    }

    /// The row key of spot row `row` (a digest key is copied, not allocated).
    pub fn row_key(&self, row: u32) -> RowKey {
        self.input
            .engine_input
            .row_key(row)
            .cloned()
            .unwrap_or_else(|| RowKey::new(""))
    }

    /// The records of `year`.
    pub fn year_index(&self, year: i32) -> &YearIndex {
        self.by_year.get(&year).unwrap_or(&EMPTY_YEAR)
    }

    /// The slices of `year` with their classes, in slice order.
    pub fn year_slices(
        &self,
        year: i32,
    ) -> impl Iterator<Item = (&'a crate::engine::Slice, &SliceClass)> + '_ {
        let slices = &self.input.output.slices;
        self.year_index(year)
            .slices
            .iter()
            .filter_map(move |&i| slices.get(i as usize).zip(self.classes.get(i as usize)))
    }

    /// The name of an account (its id when unknown).
    pub fn account_name(&self, id: AccountId) -> String {
        self.input
            .accounts
            .iter()
            .find(|a| a.id == id)
            .map_or_else(|| format!("#{}", id.0), |a| a.name.clone())
    }

    /// The year report of `irpf.md` §7 (without year-end holdings; see
    /// [`report::build_year_report`] to add them).
    pub fn year_report(&self, year: i32) -> DomainResult<IrpfYearReport> {
        report::build_year_report(self, year, None)
    }
}

impl IrpfComputation<'_> {
    /// The year report with its year-end holdings (`irpf.md` §10) from the snapshots of every
    /// 31 December the Modelo 721 walk needs (see [`year_end::YearEndSnapshot::walk`]).
    pub fn year_report_with_holdings(
        &self,
        year: i32,
        snapshots: &[year_end::YearEndSnapshot],
        close_eur: &dyn Fn(crate::asset::Asset, crate::time::Date) -> Option<rust_decimal::Decimal>,
    ) -> DomainResult<IrpfYearReport> {
        let holdings = year_end::year_end_holdings(
            year,
            self.input.accounts,
            snapshots,
            close_eur,
            self.input.settings.modelo_721_last_filed.as_ref(),
        )?;
        report::build_year_report(self, year, Some(holdings))
    }
}
