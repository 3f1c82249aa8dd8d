//! Lots of one asset with their history, custody locations and derivative results.

use serde::{Deserialize, Serialize};

/// A disposal slice that consumed part of a lot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct LotSliceDto {
    pub slice_id: String,
    pub row_key: String,
    /// Fiscal date of the disposal.
    pub date: String,
    /// `P`, `F` or `M`.
    pub leg: String,
    /// Disposal type.
    #[serde(rename = "type")]
    pub tx_type: String,
    pub quantity: String,
    pub transmission_value: Option<String>,
    pub acquisition_value: Option<String>,
    pub gain_loss: Option<String>,
    pub included: bool,
}

/// A custody move of part of a lot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct RelocationDto {
    pub at: String,
    pub from: String,
    pub to: String,
    pub quantity: String,
}

/// One FIFO lot (`tools.md` §8 `Lot` plus its history).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct LotDto {
    /// The lot's FIFO position among the asset's lots (the oldest is 1): stable whatever the
    /// listing order or page.
    pub number: u64,
    /// `L:<row_key>:<k>` (CLI only).
    pub lot_id: String,
    /// Acquisition fiscal date.
    pub date: String,
    pub acquired_at: String,
    /// Acquiring account name.
    pub exchange: String,
    pub original_qty: String,
    pub remaining_qty: String,
    pub unit_cost: Option<String>,
    pub total_cost: Option<String>,
    /// `OPEN`, `PARTIAL` or `CLOSED`.
    pub status: String,
    pub history_count: u64,
    pub relocation_count: u64,
    pub flags: Vec<String>,
    /// Slices in disposal order.
    pub slices: Vec<LotSliceDto>,
    /// Relocations in replay order.
    pub relocations: Vec<RelocationDto>,
}

/// The lots of one asset, acquisition instant descending then lot key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct TokenHistory {
    pub symbol: String,
    /// Always `EUR`.
    pub currency: String,
    pub lots: Vec<LotDto>,
    pub page: u64,
    pub page_size: u64,
    pub total_pages: u64,
    pub total_count: u64,
}

/// One `(asset, account)` custody group.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct CustodyLocation {
    pub symbol: String,
    pub account_name: String,
    pub quantity: String,
    pub lot_count: u64,
}

/// Where assets are held now (`domain.md` §12.4): symbol, then account name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct CustodyLocations {
    pub locations: Vec<CustodyLocation>,
    pub synthetic_row_count: u64,
}

/// Results of one contract and settlement asset (`domain.md` §5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct DerivativeContractPnl {
    pub symbol: String,
    /// Settlement asset.
    pub currency: String,
    pub realized_pnl: String,
    pub funding: String,
    pub fees: String,
    pub net_pnl: String,
    pub net_eur: String,
    pub unresolved_count: u64,
}

/// Contracts, absolute realized PnL descending (ties in contract order).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct DerivativesPnl {
    pub ranked: Vec<DerivativeContractPnl>,
}
