//! Wire contracts: the answers of the read use cases, serialised with lowerCamelCase keys.
//!
//! Every figure is a decimal string already formatted by `core-domain`'s output classes
//! (`FIAT` two decimals, `UNIT_PRICE`, `QUANTITY`, `PERCENT`, `RATIO`, `RATE`), every date is
//! `YYYY-MM-DD`, every instant the stored `YYYY-MM-DDTHH:MM:SS[.f]Z` string, and every list
//! comes in the order its use case documents. A `null` is an unknown value, never zero.
//! Internal ids never appear, except row keys in the CLI-facing fields documented as such
//! (`rowKey`), which `ai-tools` drops.

pub mod accounts;
pub mod analytics;
pub mod common;
pub mod integrity;
pub mod lots;
pub mod portfolio;
pub mod prices;
pub mod scenarios;
pub mod tax;
pub mod tx;

pub use accounts::{
    AccountList, AccountNode, LedgerOverview, LedgerVersion, SettingEntry, SettingsList,
};
pub use analytics::{
    AllocationItem, AssetAllocation, AssetKpi, DrawdownCurve, DrawdownPoint, KpisDto,
    PerformanceHistory, PerformancePoint, RiskMetricsDto, TradeStatsDto, VolatilityCell,
    VolatilityHeatmap,
};
pub use common::{CompletenessDto, FeeDto, GapItem, MissingDataNotice};
pub use integrity::{CompletenessCounters, FiscalIntegrity, IntegrityGroupDto, IntegrityRowDto};
pub use lots::{
    CustodyLocation, CustodyLocations, DerivativeContractPnl, DerivativesPnl, LotDto, LotSliceDto,
    RelocationDto, TokenHistory,
};
pub use portfolio::{
    AccountHoldingsResult, AccountSection, CustodianDto, CustodianEntryDto, HoldingsAtDto, Metrics,
    Modelo714Dto, Modelo714Item, Modelo721Dto, PortfolioSummary, UnvaluedHolding, ValuedHolding,
};
pub use prices::{LatestPrice, LatestPrices};
pub use scenarios::{
    BreakevenDto, ConcentrationBlockDto, ConcentrationDto, PositionValueDto, ShockDto,
    ShockedAssetDto,
};
pub use tax::{
    AnnexLineDto, Art335EntryDto, AuditRowDto, BasesDto, BracketDto, CarryAmountDto,
    CarryForwardDto, CarryRemainingDto, CarryUseDto, CsvFile, DeltaDto, DerivativeContractDto,
    DerivativesDto, ExcludedOperationDto, GuideBoxDto, GuideCryptoRowDto, GuideNoteDto,
    GuidePendingDto, IncomeAssetTotalDto, IncomeBlockDto, IncomeBucketTotalDto, IncomeDto,
    IncomeLineDto, LatestAuditRows, Modelo100Dto, Modelo100RowDto, Modelo100TotalsDto,
    ModeloWorksheetsDto, ReacquisitionDto, RentaGuideDto, SummaryDeltas, SwapAuditDto, TaxCsvFiles,
    TaxReport, TaxReportCompleteness, TaxSummary, TaxYearComparison, TaxYearSideDto,
    UnresolvedDerivativeDto, Worksheet714Dto, Worksheet714RowDto, Worksheet721Dto,
    Worksheet721RowDto, YearEndHoldingsDto,
};
pub use tx::{TxPage, TxRow};

#[cfg(test)]
mod tests;
