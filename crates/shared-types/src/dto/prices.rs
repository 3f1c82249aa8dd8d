//! Latest stored quotes.

use serde::{Deserialize, Serialize};

/// The latest stored quote of one symbol.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct LatestPrice {
    pub symbol: String,
    /// `UNIT_PRICE`.
    pub price: String,
    pub currency: String,
    /// The close's date at 00:00:00Z.
    pub timestamp: String,
    /// The format stored with the quote (`daily`, `series`, `kraken-ohlcvt`).
    pub provider: String,
    pub staleness_seconds: u64,
}

/// Quotes in request order, and the symbols without any.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct LatestPrices {
    pub prices: Vec<LatestPrice>,
    pub not_tracked: Vec<String>,
}
