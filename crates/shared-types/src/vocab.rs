//! The closed vocabularies of `domain.md`: every list here is exact and pinned by a test.

use serde::{Deserialize, Serialize};

/// Declares a closed enum with its canonical order and wire spelling.
macro_rules! closed_vocabulary {
    (
        $(#[$meta:meta])*
        pub enum $name:ident { $( $(#[$vmeta:meta])* $variant:ident => $text:literal ),+ $(,)? }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        pub enum $name {
            $( $(#[$vmeta])* #[serde(rename = $text)] $variant ),+
        }

        impl $name {
            /// Every member, in canonical order.
            pub const ALL: &'static [$name] = &[ $( $name::$variant ),+ ];

            /// The wire spelling (upper snake case).
            pub const fn as_str(self) -> &'static str {
                match self { $( $name::$variant => $text ),+ }
            }

            /// Parses the exact wire spelling.
            pub fn parse(text: &str) -> Option<Self> {
                match text { $( $text => Some($name::$variant), )+ _ => None }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

closed_vocabulary! {
    /// The 16 spot transaction types of `domain.md` §4.2, in canonical order.
    pub enum SpotTxType {
        /// Crypto bought with fiat.
        Buy => "BUY",
        /// Crypto sold for fiat.
        Sell => "SELL",
        /// Crypto exchanged for another crypto (permuta).
        Swap => "SWAP",
        /// Fiat entering the ledger.
        Deposit => "DEPOSIT",
        /// Fiat leaving the ledger.
        Withdrawal => "WITHDRAWAL",
        /// Staking reward.
        Staking => "STAKING",
        /// Airdrop.
        Airdrop => "AIRDROP",
        /// Lending, earn and interest products.
        Reward => "REWARD",
        /// Mining income.
        Mining => "MINING",
        /// Payment for goods or services.
        Spend => "SPEND",
        /// A charge on its own.
        Fee => "FEE",
        /// Crypto arriving from another wallet.
        TransferIn => "TRANSFER_IN",
        /// Crypto leaving to another wallet.
        TransferOut => "TRANSFER_OUT",
        /// Token migration or redenomination, declared non-taxable.
        MigrationSwap => "MIGRATION_SWAP",
        /// Venue campaign credits, referral and learn-and-earn rewards.
        Promotion => "PROMOTION",
        /// Chain split credit.
        Fork => "FORK",
    }
}

closed_vocabulary! {
    /// Severity of a quality flag; `High > Medium > Low` (`domain.md` §10.1).
    pub enum Severity {
        /// Low severity.
        Low => "low",
        /// Medium severity.
        Medium => "medium",
        /// High severity.
        High => "high",
    }
}

/// What a quality flag does to the figures it touches (`domain.md` §10.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QualityEffect {
    /// Excludes the subject from taxable figures and makes its value unknown.
    Blocking,
    /// Changes no figure.
    Advisory,
    /// The row is ignored by every computation.
    RowIgnored,
}

closed_vocabulary! {
    /// The closed vocabulary of data-quality flags, in canonical order (`domain.md` §10.1).
    pub enum QualityFlag {
        /// No statement, edit or price within the 7-day window.
        MissingPrice => "MISSING_PRICE",
        /// A non-EUR fiat value had no ECB rate on or before its date.
        MissingFxRate => "MISSING_FX_RATE",
        /// A stated value or price was denominated in a non-fiat code.
        CurrencyMismatch => "CURRENCY_MISMATCH",
        /// A lot's acquisition value is below zero.
        NegativeCostBasis => "NEGATIVE_COST_BASIS",
        /// A disposal needs more units than the eligible lots hold.
        MissingAcquisition => "MISSING_ACQUISITION",
        /// Coins left for a place the ledger does not track.
        CustodyResidual => "CUSTODY_RESIDUAL",
        /// More coins left an account than ever entered it.
        UntrackedInflow => "UNTRACKED_INFLOW",
        /// A custody take found too few pieces at some moment.
        CustodyImbalance => "CUSTODY_IMBALANCE",
        /// A row whose type is unknown or whose effective form violates the shape rules.
        UnknownTxType => "UNKNOWN_TX_TYPE",
        /// A value the engine needed is too large to compute (more than 15 digits before the
        /// point, or beyond what a decimal holds): an amount, price or rate far beyond any
        /// real one (D-146).
        AmountOutOfRange => "AMOUNT_OUT_OF_RANGE",
    }
}

impl QualityFlag {
    /// The flag's severity.
    pub const fn severity(self) -> Severity {
        match self {
            Self::NegativeCostBasis
            | Self::MissingAcquisition
            | Self::UntrackedInflow
            | Self::AmountOutOfRange => Severity::High,
            Self::CustodyResidual => Severity::Low,
            Self::MissingPrice
            | Self::MissingFxRate
            | Self::CurrencyMismatch
            | Self::CustodyImbalance
            | Self::UnknownTxType => Severity::Medium,
        }
    }

    /// Whether the user can resolve the flag from the edit surface.
    pub const fn pending_review(self) -> bool {
        !matches!(self, Self::CustodyImbalance)
    }

    /// What the flag does to the figures it touches.
    pub const fn effect(self) -> QualityEffect {
        match self {
            Self::MissingPrice
            | Self::MissingFxRate
            | Self::NegativeCostBasis
            | Self::MissingAcquisition
            | Self::AmountOutOfRange => QualityEffect::Blocking,
            Self::CurrencyMismatch
            | Self::CustodyResidual
            | Self::UntrackedInflow
            | Self::CustodyImbalance => QualityEffect::Advisory,
            Self::UnknownTxType => QualityEffect::RowIgnored,
        }
    }

    /// Whether the flag excludes its subject from taxable figures.
    pub const fn is_blocking(self) -> bool {
        matches!(self.effect(), QualityEffect::Blocking)
    }

    /// Position in canonical order, for bit sets.
    pub const fn index(self) -> u8 {
        self as u8
    }
}

closed_vocabulary! {
    /// Custody kind of a top-level account (`domain.md` §3), read by Modelo 721.
    pub enum CustodyKind {
        /// A provider that keeps the keys, located outside Spain.
        ForeignProvider => "FOREIGN_PROVIDER",
        /// A provider located in Spain.
        SpanishProvider => "SPANISH_PROVIDER",
        /// The taxpayer keeps the keys.
        SelfCustody => "SELF_CUSTODY",
        /// Not classified yet (the default).
        Unclassified => "UNCLASSIFIED",
    }
}

#[allow(clippy::derivable_impls)] // The macro-generated enum cannot carry `#[default]`.
impl Default for CustodyKind {
    fn default() -> Self {
        Self::Unclassified
    }
}

closed_vocabulary! {
    /// Kind of a futures row (`domain.md` §5).
    pub enum FuturesKind {
        /// A closing trade with realized profit or loss.
        Trade => "TRADE",
        /// A funding payment.
        FundingFee => "FUNDING_FEE",
        /// A contract settlement.
        Settlement => "SETTLEMENT",
        /// A forced liquidation.
        Liquidation => "LIQUIDATION",
    }
}

/// EUR plus every currency the ECB publishes or has published a euro reference rate for
/// (`domain.md` §2), in the order of the columns of `eurofxref-hist.csv` after EUR.
pub const FIAT_CODES: &[&str] = &[
    "EUR", "USD", "JPY", "BGN", "CYP", "CZK", "DKK", "EEK", "GBP", "HUF", "LTL", "LVL", "MTL",
    "PLN", "ROL", "RON", "SEK", "SIT", "SKK", "CHF", "ISK", "NOK", "HRK", "RUB", "TRL", "TRY",
    "AUD", "BRL", "CAD", "CNY", "HKD", "IDR", "ILS", "INR", "KRW", "MXN", "MYR", "NZD", "PHP",
    "SGD", "THB", "ZAR",
];

/// The stablecoins used by the concentration scenario (`domain.md` §2, §13.4); exact and
/// case-sensitive.
pub const STABLECOINS: &[&str] = &[
    "USDT", "USDC", "DAI", "EURC", "FDUSD", "PYUSD", "TUSD", "USDE",
];

/// Whether `symbol`, trimmed and ASCII-upper-cased, is a fiat code.
pub fn is_fiat_code(symbol: &str) -> bool {
    let trimmed = symbol.trim();
    trimmed.len() == 3
        && FIAT_CODES
            .iter()
            .any(|code| code.eq_ignore_ascii_case(trimmed))
}

/// Whether `symbol` is one of the listed stablecoins (exact match).
pub fn is_stablecoin(symbol: &str) -> bool {
    STABLECOINS.contains(&symbol)
}

closed_vocabulary! {
    /// The 25 AI tools in canonical catalogue order (`tools.md` §2): the order of `tools/list`,
    /// of the exposure lists and of the instruction lines.
    #[allow(missing_docs)] // Each variant is documented by its wire spelling.
    pub enum ToolName {
        PortfolioSummary => "portfolio_summary",
        FiscalIntegrity => "fiscal_integrity",
        FiscalIntegrityRows => "fiscal_integrity_rows",
        TokenHistory => "token_history",
        TokenLots => "token_lots",
        AssetAllocation => "asset_allocation",
        RiskMetrics => "risk_metrics",
        Kpis => "kpis",
        DrawdownCurve => "drawdown_curve",
        PerformanceHistory => "performance_history",
        VolatilityHeatmap => "volatility_heatmap",
        SpanishTaxReport => "spanish_tax_report",
        LivePrices => "live_prices",
        HoldingDetail => "holding_detail",
        AccountHoldings => "account_holdings",
        TaxYearComparison => "tax_year_comparison",
        DataGaps => "data_gaps",
        ExplainMetric => "explain_metric",
        ScenarioPositionValue => "scenario_position_value",
        BreakevenPrice => "breakeven_price",
        DerivativesPnl => "derivatives_pnl",
        CustodyLocations => "custody_locations",
        ScenarioPortfolioShock => "scenario_portfolio_shock",
        ConcentrationRisk => "concentration_risk",
        TxSearch => "tx_search",
    }
}

closed_vocabulary! {
    /// A tool's tier (`tools.md` §2): core tools are exposed to every profile, extended tools only
    /// to the metered and mixed profiles.
    #[allow(missing_docs)] // Each variant is documented by its wire spelling.
    pub enum Tier {
        Core => "core",
        Extended => "extended",
    }
}

impl ToolName {
    /// The tool's tier. Exhaustive on purpose: a new tool does not compile until it has one.
    pub const fn tier(self) -> Tier {
        match self {
            ToolName::PortfolioSummary
            | ToolName::FiscalIntegrity
            | ToolName::TokenHistory
            | ToolName::AssetAllocation
            | ToolName::Kpis
            | ToolName::SpanishTaxReport
            | ToolName::LivePrices
            | ToolName::HoldingDetail
            | ToolName::AccountHoldings
            | ToolName::TaxYearComparison
            | ToolName::DataGaps
            | ToolName::ExplainMetric
            | ToolName::ScenarioPositionValue
            | ToolName::BreakevenPrice => Tier::Core,
            ToolName::FiscalIntegrityRows
            | ToolName::TokenLots
            | ToolName::RiskMetrics
            | ToolName::DrawdownCurve
            | ToolName::PerformanceHistory
            | ToolName::VolatilityHeatmap
            | ToolName::DerivativesPnl
            | ToolName::CustodyLocations
            | ToolName::ScenarioPortfolioShock
            | ToolName::ConcentrationRisk
            | ToolName::TxSearch => Tier::Extended,
        }
    }
}

closed_vocabulary! {
    /// The metrics `explain_metric` defines (`tools.md` §12), in table order.
    #[allow(missing_docs)] // Each variant is documented by its wire spelling.
    pub enum MetricId {
        Equity => "equity",
        CostBasis => "cost_basis",
        RealizedPnl => "realized_pnl",
        UnrealizedPnl => "unrealized_pnl",
        MaxDrawdown => "max_drawdown",
        AnnualisedVolatility => "annualised_volatility",
        Sharpe => "sharpe",
        Alpha => "alpha",
        Beta => "beta",
        Hhi => "hhi",
        TopNWeight => "top_n_weight",
        BreakevenPrice => "breakeven_price",
        RatesIncomplete => "rates_incomplete",
        PricesIncomplete => "prices_incomplete",
        Unvalued => "unvalued",
        IrpfSavingsBase => "irpf_savings_base",
        NetPatrimonialResult => "net_patrimonial_result",
    }
}

#[cfg(test)]
mod tests;
