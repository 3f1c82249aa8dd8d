//! Transaction search (`tools.md` §9.25).

use serde::{Deserialize, Serialize};

use super::common::FeeDto;

/// One effective spot row. `rowKey` is for the CLI (`cartera tx --keys`, `edit`); tools drop it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct TxRow {
    pub row_key: String,
    /// Instant.
    pub date: String,
    #[serde(rename = "type")]
    pub tx_type: String,
    pub asset_in: Option<String>,
    pub amount_in: Option<String>,
    pub asset_out: Option<String>,
    pub amount_out: Option<String>,
    /// Effective stated unit price (`UNIT_PRICE`).
    pub price_fiat: Option<String>,
    /// Effective stated value (`FIAT`).
    pub total_fiat: Option<String>,
    pub fiat_currency: Option<String>,
    pub fee: FeeDto,
    /// Account name.
    pub exchange: String,
    pub edited: bool,
}

/// A page of matching rows, newest first (ties by row key).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct TxPage {
    pub rows: Vec<TxRow>,
    /// From 1.
    pub page: u64,
    pub page_size: u64,
    pub total_pages: u64,
    pub total_count: u64,
}
