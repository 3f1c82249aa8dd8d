//! Modelo 100 output (`irpf.md` §8.1 and §8.2): virtual-currency transmission rows grouped by
//! `(base, asset, clave, sign)`, section totals and the other blocks.

use rust_decimal::Decimal;

use super::IrpfComputation;
use super::classification::Base;
use super::report::{ContractResult, Derivatives, Income};
use crate::asset::Asset;
use crate::engine::{Clave, IncomeBucket};
use crate::error::DomainResult;
use crate::fast_hash::FastMap;
use crate::num;

/// GAIN (result ≥ 0) or LOSS.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Sign {
    /// Result ≥ 0 (listed first).
    Gain,
    /// Result < 0.
    Loss,
}

impl Sign {
    /// Wire spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Gain => "GAIN",
            Self::Loss => "LOSS",
        }
    }
}

/// One transmission row (boxes 1802–1809).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Modelo100Row {
    /// SAVINGS or GENERAL (2013–2014 short).
    pub base: Base,
    /// 1802: the asset transmitted.
    pub asset: Asset,
    /// 1803: type of consideration.
    pub clave: Clave,
    /// GAIN or LOSS.
    pub sign: Sign,
    /// Σ gross transmission value (the entry window's "importe de la transmisión").
    pub gross_transmission_value: Decimal,
    /// Σ disposal expenses (the entry window's "gastos de la transmisión").
    pub transmission_expenses: Decimal,
    /// 1804: Σ transmission value (gross − expenses).
    pub transmission_value: Decimal,
    /// 1806: Σ acquisition value.
    pub acquisition_value: Decimal,
    /// 1807 (LOSS rows): `1806 − 1804`; box 1808 (imputable loss) equals it, as there are no
    /// instalment sales.
    pub loss: Option<Decimal>,
    /// 1809 (GAIN rows): `1804 − 1806`; boxes 1811 and 1812 (non-exempt and imputable gain)
    /// equal it: no reinvestment exemptions and no instalment sales. Box 1801 is never set.
    pub gain: Option<Decimal>,
    /// Slices in the group.
    pub slice_count: usize,
    /// Distinct disposal legs in the group.
    pub operation_count: usize,
}

/// Section totals (exact).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Modelo100Totals {
    /// Σ1804.
    pub total_transmission_value: Decimal,
    /// Σ1806.
    pub total_acquisition_value: Decimal,
    /// Σ1807.
    pub total_losses: Decimal,
    /// Σ1809.
    pub total_gains: Decimal,
    /// Σ slices of the rows.
    pub slice_count: usize,
    /// Distinct disposal legs over the rows.
    pub operation_count: usize,
}

/// An income block with its per-asset breakdown.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IncomeBlock {
    /// Σ value.
    pub total: Decimal,
    /// `(asset, quantity, value)` in symbol order.
    pub per_asset: Vec<(Asset, Decimal, Decimal)>,
}

/// The Modelo 100 output of a year.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Modelo100 {
    /// Whether box numbers apply (fiscal years from 2022).
    pub boxes: bool,
    /// Transmission rows, ordered by base, asset, clave, sign.
    pub rows: Vec<Modelo100Row>,
    /// Section totals.
    pub totals: Modelo100Totals,
    /// Derivative gains and losses per contract.
    pub derivatives: Vec<ContractResult>,
    /// `R` (RCM from lending own capital).
    pub capital_income: IncomeBlock,
    /// `A` (gains not derived from a transmission, general base).
    pub general_gains: IncomeBlock,
    /// `M` (economic activity income).
    pub economic_activity: IncomeBlock,
}

#[derive(Default)]
struct Group {
    gross: Decimal,
    fees: Decimal,
    transmission: Decimal,
    acquisition: Decimal,
    slices: usize,
    operations: usize,
    last_operation: Option<u32>,
}

fn block(income: &Income, bucket: IncomeBucket) -> DomainResult<IncomeBlock> {
    let mut out = IncomeBlock::default();
    for line in income.totals_by_asset.iter().filter(|t| t.bucket == bucket) {
        out.total = num::add(out.total, line.value, "income block")?;
        out.per_asset.push((line.asset, line.quantity, line.value));
    }
    Ok(out)
}

/// Builds the Modelo 100 output of `year`.
pub fn build_modelo100(
    year: i32,
    comp: &IrpfComputation<'_>,
    income: &Income,
    derivatives: &Derivatives,
) -> DomainResult<Modelo100> {
    let ctx = "modelo 100";
    // Accumulated in a hash map (cheap per slice), then ordered by key before any output.
    let mut groups: FastMap<(Base, Asset, Clave, Sign), Group> = FastMap::default(); // tidy:hash-ok: groups are sorted by key before use
    let mut all_operations = 0usize;
    let mut last_operation = None;
    let output = comp.input.output;
    for (slice, class) in comp.year_slices(year) {
        let (Some(base), Some(result)) = (class.base, slice.result()) else {
            continue;
        };
        let Some(op) = output.operations.get(slice.operation as usize) else {
            continue;
        };
        let (Some(clave), Some(gross), Some(fee), Some(acquisition)) = (
            op.clave,
            slice.gross_value(),
            slice.fee_expense(),
            slice.acquisition_value(),
        ) else {
            continue;
        };
        let sign = if !result.is_sign_negative() || result.is_zero() {
            Sign::Gain
        } else {
            Sign::Loss
        };
        let group = groups.entry((base, slice.asset, clave, sign)).or_default();
        group.gross = num::add(group.gross, gross, ctx)?;
        group.fees = num::add(group.fees, fee, ctx)?;
        group.transmission = num::add(group.transmission, num::sub(gross, fee, ctx)?, ctx)?;
        group.acquisition = num::add(group.acquisition, acquisition, ctx)?;
        group.slices += 1;
        // An operation's slices are adjacent in slice order, so counting changes counts
        // distinct operations.
        if group.last_operation != Some(slice.operation) {
            group.operations += 1;
            group.last_operation = Some(slice.operation);
        }
        if last_operation != Some(slice.operation) {
            all_operations += 1;
            last_operation = Some(slice.operation);
        }
    }
    let mut groups: Vec<((Base, Asset, Clave, Sign), Group)> = groups.into_iter().collect();
    groups.sort_unstable_by_key(|(key, _)| *key);
    let mut rows = Vec::with_capacity(groups.len());
    let mut totals = Modelo100Totals::default();
    for ((base, asset, clave, sign), group) in groups {
        totals.slice_count += group.slices;
        let (loss, gain) = match sign {
            Sign::Loss => (
                Some(num::sub(group.acquisition, group.transmission, ctx)?),
                None,
            ),
            Sign::Gain => (
                None,
                Some(num::sub(group.transmission, group.acquisition, ctx)?),
            ),
        };
        totals.total_transmission_value =
            num::add(totals.total_transmission_value, group.transmission, ctx)?;
        totals.total_acquisition_value =
            num::add(totals.total_acquisition_value, group.acquisition, ctx)?;
        totals.total_losses = num::add(totals.total_losses, loss.unwrap_or_default(), ctx)?;
        totals.total_gains = num::add(totals.total_gains, gain.unwrap_or_default(), ctx)?;
        rows.push(Modelo100Row {
            base,
            asset,
            clave,
            sign,
            gross_transmission_value: group.gross,
            transmission_expenses: group.fees,
            transmission_value: group.transmission,
            acquisition_value: group.acquisition,
            loss,
            gain,
            slice_count: group.slices,
            operation_count: group.operations,
        });
    }
    totals.operation_count = all_operations;
    Ok(Modelo100 {
        boxes: year >= 2022,
        rows,
        totals,
        derivatives: derivatives.contracts.clone(),
        capital_income: block(income, IncomeBucket::Rcm)?,
        general_gains: block(income, IncomeBucket::GeneralGp)?,
        economic_activity: block(income, IncomeBucket::Activity)?,
    })
}
