//! The IRPF year report (`irpf.md` §7, keys the lowerCamelCase of its Rust names) and the
//! comparison of two years (`domain.md` §15). Money is `FIAT` in EUR.

use serde::{Deserialize, Serialize};

use super::common::CompletenessDto;
use super::portfolio::{CustodianDto, Modelo714Dto, Modelo721Dto};

/// The sixteen summary fields of `irpf.md` §7.1, in that order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct TaxSummary {
    pub capital_gains: String,
    pub capital_losses: String,
    pub savings_base_yields: String,
    pub general_base_airdrops: String,
    pub net_patrimonial_result: String,
    /// Null for a year without a savings scale.
    pub estimated_irpf: Option<String>,
    pub savings_transmission_balance: String,
    pub general_short_term_balance: String,
    pub current_year_cross_compensation: String,
    pub carry_forward_used: String,
    pub savings_base_after_compensation: String,
    pub general_gains_after_compensation: String,
    pub carry_forward_generated: String,
    pub carry_forward_remaining: String,
    pub carry_forward_expired: String,
    pub economic_activity_income: String,
}

impl TaxSummary {
    /// The JSON keys in declared order.
    pub const KEYS: [&'static str; 16] = [
        "capitalGains",
        "capitalLosses",
        "savingsBaseYields",
        "generalBaseAirdrops",
        "netPatrimonialResult",
        "estimatedIrpf",
        "savingsTransmissionBalance",
        "generalShortTermBalance",
        "currentYearCrossCompensation",
        "carryForwardUsed",
        "savingsBaseAfterCompensation",
        "generalGainsAfterCompensation",
        "carryForwardGenerated",
        "carryForwardRemaining",
        "carryForwardExpired",
        "economicActivityIncome",
    ];

    /// The sixteen figures in [`Self::KEYS`] order (only `estimatedIrpf` may be null).
    pub fn values(&self) -> [Option<&String>; 16] {
        [
            Some(&self.capital_gains),
            Some(&self.capital_losses),
            Some(&self.savings_base_yields),
            Some(&self.general_base_airdrops),
            Some(&self.net_patrimonial_result),
            self.estimated_irpf.as_ref(),
            Some(&self.savings_transmission_balance),
            Some(&self.general_short_term_balance),
            Some(&self.current_year_cross_compensation),
            Some(&self.carry_forward_used),
            Some(&self.savings_base_after_compensation),
            Some(&self.general_gains_after_compensation),
            Some(&self.carry_forward_generated),
            Some(&self.carry_forward_remaining),
            Some(&self.carry_forward_expired),
            Some(&self.economic_activity_income),
        ]
    }
}

/// One savings-scale bracket reached by the base.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct BracketDto {
    pub lower: String,
    pub upper: Option<String>,
    /// `RATE`.
    pub rate: String,
    pub taxed_amount: String,
    pub tax: String,
}

/// `bases` of `irpf.md` §7.2.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct BasesDto {
    pub savings_transmission_balance: String,
    pub savings_rcm_balance: String,
    /// `p` (`RATIO`), null before 2015.
    pub cross_percentage: Option<String>,
    pub savings_gp_after_compensation: String,
    pub savings_rcm_after_compensation: String,
    pub savings_base_after_compensation: String,
    pub general_gains_balance: String,
    pub general_gains_after_compensation: String,
    pub brackets: Vec<BracketDto>,
}

/// A use of an earlier carry-forward item.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct CarryUseDto {
    pub origin_year: i32,
    pub kind: String,
    pub source: String,
    pub nature: String,
    pub amount: String,
}

/// A generated or expired item.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct CarryAmountDto {
    pub origin_year: i32,
    pub kind: String,
    pub amount: String,
}

/// An item still usable.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct CarryRemainingDto {
    pub origin_year: i32,
    pub kind: String,
    pub source: String,
    pub remaining: String,
    pub last_usable_year: i32,
}

/// `carry_forward` of `irpf.md` §7.2, each list by origin year then kind.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct CarryForwardDto {
    pub used: Vec<CarryUseDto>,
    pub generated: Vec<CarryAmountDto>,
    pub remaining: Vec<CarryRemainingDto>,
    pub expired: Vec<CarryAmountDto>,
}

/// A disposal leg with an excluded slice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct ExcludedOperationDto {
    pub row_key: String,
    pub leg: String,
    pub asset: String,
    pub quantity: String,
    pub flags: Vec<String>,
}

/// Year-scoped completeness (`irpf.md` §7.3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct TaxReportCompleteness {
    pub unconvertible_count: u64,
    pub excluded_flagged_events: u64,
    pub excluded_unresolved_income: u64,
    pub status: CompletenessDto,
    /// `(symbol, QUANTITY)` per asset, symbol order.
    pub uncovered_quantity: Vec<super::common::GapItem>,
    pub manual_value_count: u64,
    pub excluded_operations: Vec<ExcludedOperationDto>,
}

/// The swap part of an audit row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct SwapAuditDto {
    pub given_value: Option<String>,
    pub received_value: Option<String>,
    pub winner: Option<String>,
}

/// One disposal slice of legs P and F (`irpf.md` §7.4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct AuditRowDto {
    pub slice_id: String,
    pub row_key: String,
    pub leg: String,
    pub operation_type: String,
    pub asset: String,
    pub quantity: String,
    pub clave: Option<String>,
    pub disposed_at: String,
    pub disposed_on: String,
    pub lot_id: Option<String>,
    pub acquisition_row_key: Option<String>,
    pub acquired_on: Option<String>,
    pub holding: Option<String>,
    pub base: Option<String>,
    pub disposal_account: String,
    pub lot_account: Option<String>,
    pub gross_transmission_value: Option<String>,
    pub fee_expense: Option<String>,
    pub transmission_value: Option<String>,
    pub acquisition_value: Option<String>,
    pub result: Option<String>,
    pub included: bool,
    pub quality_flags: Vec<String>,
    pub transmission_provenance: Option<String>,
    pub acquisition_provenance: Option<String>,
    /// `UNIT_PRICE`.
    pub price: Option<String>,
    pub price_currency: Option<String>,
    pub price_date: Option<String>,
    /// `RATE`.
    pub fx_rate: Option<String>,
    pub fx_rate_date: Option<String>,
    pub swap: Option<SwapAuditDto>,
}

/// One income receipt of the year.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct IncomeLineDto {
    pub row_key: String,
    #[serde(rename = "type")]
    pub tx_type: String,
    pub bucket: String,
    pub fiscal_date: String,
    pub asset: String,
    pub quantity: String,
    pub value: Option<String>,
    pub provenance: Option<String>,
    pub flags: Vec<String>,
}

/// Σ resolved value of one bucket.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct IncomeBucketTotalDto {
    pub bucket: String,
    pub value: String,
}

/// Σ per bucket and asset.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct IncomeAssetTotalDto {
    pub bucket: String,
    pub asset: String,
    pub quantity: String,
    pub value: String,
}

/// `income` of `irpf.md` §7.2.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct IncomeDto {
    pub receipts: Vec<IncomeLineDto>,
    pub totals_by_bucket: Vec<IncomeBucketTotalDto>,
    pub totals_by_asset: Vec<IncomeAssetTotalDto>,
}

/// Derivative results of one contract in EUR.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct DerivativeContractDto {
    pub contract: String,
    pub settlement_asset: String,
    pub gains: String,
    pub losses: String,
    pub net: String,
    pub rows: u64,
}

/// A derivative row with an unknown result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct UnresolvedDerivativeDto {
    pub row_key: String,
    pub contract: String,
    pub fiscal_date: String,
    pub flags: Vec<String>,
}

/// `derivatives` of `irpf.md` §7.2.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct DerivativesDto {
    pub contracts: Vec<DerivativeContractDto>,
    pub unresolved: Vec<UnresolvedDerivativeDto>,
}

/// One Modelo 100 transmission row (`irpf.md` §8.1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct Modelo100RowDto {
    pub base: String,
    pub asset: String,
    pub clave: String,
    pub sign: String,
    pub transmission_value: String,
    pub acquisition_value: String,
    pub loss: Option<String>,
    pub gain: Option<String>,
    pub slice_count: u64,
    pub operation_count: u64,
}

/// Totals of the Modelo 100 rows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct Modelo100TotalsDto {
    pub total_transmission_value: String,
    pub total_acquisition_value: String,
    pub total_losses: String,
    pub total_gains: String,
    pub slice_count: u64,
    pub operation_count: u64,
}

/// An income block of the Modelo 100 output (§8.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct IncomeBlockDto {
    pub total: String,
    /// `(symbol, quantity, value)` per asset.
    pub per_asset: Vec<IncomeAssetTotalDto>,
}

/// `modelo100` of `irpf.md` §8.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct Modelo100Dto {
    /// Whether the year has box numbers.
    pub boxes: bool,
    pub rows: Vec<Modelo100RowDto>,
    pub totals: Modelo100TotalsDto,
    pub derivatives: Vec<DerivativeContractDto>,
    pub capital_income: IncomeBlockDto,
    pub general_gains: IncomeBlockDto,
    pub economic_activity: IncomeBlockDto,
}

/// A re-acquisition inside the art. 33.5 window.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct ReacquisitionDto {
    pub lot_id: String,
    pub acquired_on: String,
    pub quantity: String,
    pub origin_type: String,
}

/// One art. 33.5 warning (`irpf.md` §9).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct Art335EntryDto {
    pub slice_id: String,
    pub asset: String,
    pub disposed_on: String,
    pub loss: String,
    pub window_from: String,
    pub window_to: String,
    pub reacquisitions: Vec<ReacquisitionDto>,
}

/// `year_end_holdings` of `irpf.md` §10.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct YearEndHoldingsDto {
    pub year: i32,
    pub custodians: Vec<CustodianDto>,
    pub modelo721: Modelo721Dto,
    pub modelo714: Modelo714Dto,
}

/// One line of the per-operation annex.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct AnnexLineDto {
    /// `<row_key>:<leg>`.
    pub operation_id: String,
    pub slice_id: String,
}

/// A CSV file to write (`cartera tax YEAR --csv DIR`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct CsvFile {
    /// File name (`modelo100_2024.csv`).
    pub name: String,
    /// RFC 4180 text.
    pub content: String,
}

/// The Modelo 100 rows and the annex of one year as CSV files (`irpf.md` §8.3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct TaxCsvFiles {
    pub year: i32,
    pub files: Vec<CsvFile>,
}

/// The year report of `irpf.md` §7 (what `cartera tax YEAR --json` prints).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct TaxReport {
    pub year: i32,
    /// Always `EUR`.
    pub currency: String,
    /// Always `FIFO`.
    pub method: String,
    pub start_year: i32,
    pub summary: TaxSummary,
    pub bases: BasesDto,
    pub carry_forward: CarryForwardDto,
    pub completeness: TaxReportCompleteness,
    /// Slice order of the engine (`irpf.md` §7.4).
    pub audit_trail: Vec<AuditRowDto>,
    pub income: IncomeDto,
    pub derivatives: DerivativesDto,
    pub modelo100: Modelo100Dto,
    /// One line per audit slice, grouped by operation in slice order (`irpf.md` §8.3); the
    /// other annex columns are the audit row with the same `sliceId`.
    pub annex: Vec<AnnexLineDto>,
    /// Null when the setting is off.
    #[serde(rename = "art33_5Warnings")]
    pub art_33_5_warnings: Option<Vec<Art335EntryDto>>,
    pub year_end_holdings: Option<YearEndHoldingsDto>,
    pub warnings: Vec<String>,
    pub assumptions: Vec<String>,
    /// Where each figure goes in Renta Web.
    pub renta_guide: RentaGuideDto,
}

/// One element of the Renta Web crypto block (boxes 1802–1809 and the entry window behind
/// 1804). Every amount is positive, as the form takes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct GuideCryptoRowDto {
    /// Box 1802: the coin name as Renta Web takes it.
    pub coin: String,
    pub symbol: String,
    /// Box 1803: F, N, O or B.
    pub clave: String,
    /// Importe de la transmisión.
    pub transmission_amount: String,
    /// Gastos de la transmisión.
    pub transmission_expenses: String,
    pub box1804: String,
    /// Importe de la adquisición.
    pub acquisition_amount: String,
    /// Gastos de la adquisición.
    pub acquisition_expenses: String,
    pub box1806: String,
    pub box1807: Option<String>,
    pub box1809: Option<String>,
}

/// A box of the form with its amount.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct GuideBoxDto {
    /// The casilla number (`0033`).
    #[serde(rename = "box")]
    pub number: String,
    /// The form's label (Spanish, as Renta Web shows it).
    pub label: String,
    /// Positive, two decimals.
    pub amount: String,
    /// The year a carried-forward amount comes from.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub origin_year: Option<i32>,
}

/// Annex C.3 of one origin year: pending at the start, applied, pending after.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct GuidePendingDto {
    pub origin_year: i32,
    /// The three boxes, in the order of the amounts.
    pub boxes: Vec<String>,
    pub at_start: String,
    pub applied: String,
    pub pending_after: String,
}

/// A point the guide cannot settle: `code` with the amounts it concerns.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct GuideNoteDto {
    /// `ROW_LIMIT_EXCEEDED`, `ACQUISITION_FEES_INCLUDED`, `BANKRUPTCY_OR_FRAUD_LOSS`, `MINING`,
    /// `FORK`, `DERIVATIVES`, `INCOMPLETE`.
    pub code: String,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub amount: Option<String>,
    /// Elements after and before the aggregation, and the form's limit (row limit only).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub rows: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub rows_before: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub limit: Option<u64>,
}

/// The Renta Web guide of one ejercicio.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct RentaGuideDto {
    pub ejercicio: i32,
    /// Whether the guide has the boxes of this ejercicio.
    pub covered: bool,
    /// The ejercicios the guide covers.
    pub covered_ejercicios: Vec<i32>,
    /// The most crypto elements the form takes (null when not covered).
    pub row_limit: Option<u64>,
    /// `PER_COIN_CLAVE_SIGN` or `PER_COIN_CLAVE`.
    pub aggregation: String,
    pub crypto_rows: Vec<GuideCryptoRowDto>,
    pub boxes: Vec<GuideBoxDto>,
    pub pending: Vec<GuidePendingDto>,
    pub notes: Vec<GuideNoteDto>,
}

/// One side of a comparison (`tools.md` §9.16 `Year`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct TaxYearSideDto {
    pub year: i32,
    pub currency: String,
    pub summary: TaxSummary,
    pub unconvertible_count: u64,
    pub excluded_flagged_events: u64,
    pub excluded_unresolved_income: u64,
    pub completeness: CompletenessDto,
}

/// A field's difference: `kind` `delta` or `delta_incomparable`, `value` = B − A or null.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct DeltaDto {
    pub kind: String,
    pub value: Option<String>,
}

/// The sixteen deltas under the summary keys, in summary order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct SummaryDeltas {
    pub capital_gains: DeltaDto,
    pub capital_losses: DeltaDto,
    pub savings_base_yields: DeltaDto,
    pub general_base_airdrops: DeltaDto,
    pub net_patrimonial_result: DeltaDto,
    pub estimated_irpf: DeltaDto,
    pub savings_transmission_balance: DeltaDto,
    pub general_short_term_balance: DeltaDto,
    pub current_year_cross_compensation: DeltaDto,
    pub carry_forward_used: DeltaDto,
    pub savings_base_after_compensation: DeltaDto,
    pub general_gains_after_compensation: DeltaDto,
    pub carry_forward_generated: DeltaDto,
    pub carry_forward_remaining: DeltaDto,
    pub carry_forward_expired: DeltaDto,
    pub economic_activity_income: DeltaDto,
}

impl SummaryDeltas {
    /// The sixteen deltas in [`TaxSummary::KEYS`] order.
    pub fn values(&self) -> [&DeltaDto; 16] {
        [
            &self.capital_gains,
            &self.capital_losses,
            &self.savings_base_yields,
            &self.general_base_airdrops,
            &self.net_patrimonial_result,
            &self.estimated_irpf,
            &self.savings_transmission_balance,
            &self.general_short_term_balance,
            &self.current_year_cross_compensation,
            &self.carry_forward_used,
            &self.savings_base_after_compensation,
            &self.general_gains_after_compensation,
            &self.carry_forward_generated,
            &self.carry_forward_remaining,
            &self.carry_forward_expired,
            &self.economic_activity_income,
        ]
    }
}

/// Two IRPF years side by side (`domain.md` §15).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct TaxYearComparison {
    pub method: String,
    pub year_a: TaxYearSideDto,
    pub year_b: TaxYearSideDto,
    pub deltas: SummaryDeltas,
}

/// The latest disposal slices of a year (`tools.md` §9.12 `auditTrail`): disposal date
/// descending, then slice id ascending, the first `limit`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct LatestAuditRows {
    pub year: i32,
    pub rows: Vec<AuditRowDto>,
    /// Slices of the year beyond `limit`.
    pub omitted_count: u64,
}

/// One registro de detalle of the Modelo 721 worksheet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct Worksheet721RowDto {
    /// Clave de condición: `T` titular.
    pub clave: String,
    pub custodian: String,
    /// ISO 3166-1 alpha-2, when the account has one.
    pub country: Option<String>,
    /// Denominación de la moneda virtual.
    pub coin: String,
    pub siglas: String,
    /// Six decimals (numérico 20,6).
    pub units: String,
    /// EUR per unit on 31 December, six decimals; null when unvalued.
    pub unit_value: Option<String>,
    pub value_origin: Option<String>,
    /// Saldo in EUR; null when unvalued.
    pub balance: Option<String>,
    /// `A` first time, `M` declared before, `C` condition lost.
    pub origin: String,
}

/// The Modelo 721 worksheet (not the XML message).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct Worksheet721Dto {
    pub year: i32,
    /// `NOT_APPLICABLE`, `REQUIRED_FIRST_TIME`, `REQUIRED_INCREASE`, `NOT_REQUIRED`, `UNDETERMINED`.
    pub decision: String,
    pub total: String,
    pub threshold: String,
    pub last_filed_total: Option<String>,
    pub increase: Option<String>,
    pub increase_limit: String,
    pub filing_from: String,
    pub filing_to: String,
    pub rows: Vec<Worksheet721RowDto>,
}

/// One line of Modelo 714 apartado Q.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct Worksheet714RowDto {
    /// `P` pleno dominio.
    pub clave: String,
    /// % titularidad.
    pub ownership: String,
    pub description: String,
    /// Nine decimals.
    pub units: String,
    /// EUR, null when unvalued.
    pub value: Option<String>,
}

/// Modelo 714 apartado Q, with casilla 46.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct Worksheet714Dto {
    pub year: i32,
    pub rows: Vec<Worksheet714RowDto>,
    /// Casilla 46: the sum of the printed values.
    pub total46: String,
    /// Σ units × close before the cent roundings.
    pub unrounded_total: String,
    /// `unrounded_total − total46`.
    pub rounding_difference: String,
    pub unvalued: Vec<String>,
}

/// Both worksheets of a year.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct ModeloWorksheetsDto {
    pub modelo721: Worksheet721Dto,
    pub modelo714: Worksheet714Dto,
}
