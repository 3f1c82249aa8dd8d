//! What-if answers over the holdings snapshot (`domain.md` §13).

use serde::{Deserialize, Serialize};

/// One held asset revalued at a hypothetical price (§13.1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum PositionValueDto {
    #[serde(rename_all = "camelCase")]
    Computed {
        symbol: String,
        position_value: String,
        delta_vs_current: String,
        implied_allocation_pct: String,
        currency: String,
    },
    #[serde(rename_all = "camelCase")]
    Unvalued {
        symbol: String,
        position_value: String,
        currency: String,
    },
    NotHeld {
        symbol: String,
        currency: String,
    },
    EmptyPortfolio {
        symbol: String,
        currency: String,
    },
}

/// Average unit cost of one holding (§13.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum BreakevenDto {
    #[serde(rename_all = "camelCase")]
    Computed {
        symbol: String,
        avg_unit_cost: String,
        currency: String,
    },
    NotHeld {
        symbol: String,
        currency: String,
    },
    UnconvertibleCostBasis {
        symbol: String,
        currency: String,
    },
    UnknownCostBasis {
        symbol: String,
        currency: String,
    },
    ZeroQuantity {
        symbol: String,
        currency: String,
    },
}

/// One shocked asset.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct ShockedAssetDto {
    pub symbol: String,
    pub before: String,
    pub after: String,
}

/// The valued portfolio after a shock (§13.3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum ShockDto {
    #[serde(rename_all = "camelCase")]
    Computed {
        /// `before` descending, ties in symbol order.
        assets: Vec<ShockedAssetDto>,
        total_before: String,
        total_after: String,
        delta: String,
        /// Symbol order.
        unvalued_symbols: Vec<String>,
        not_held: Vec<String>,
        currency: String,
    },
    EmptyPortfolio {
        currency: String,
    },
}

/// A concentration block.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum ConcentrationBlockDto {
    #[serde(rename_all = "camelCase")]
    Computed {
        top1_weight: String,
        top3_weight: String,
        hhi: String,
        effective_holdings: String,
    },
    Empty,
}

/// Concentration of the valued portfolio (§13.4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct ConcentrationDto {
    pub all: ConcentrationBlockDto,
    pub excluding_stablecoins: ConcentrationBlockDto,
    pub stablecoin_weight: Option<String>,
    pub unvalued_count: u64,
    pub currency: String,
}
