//! Holdings: the portfolio snapshot (`domain.md` §12.1), one account's holdings (§12.2) and the
//! holdings at a date with the Modelo 721 / 714 figures (`irpf.md` §10).

use serde::{Deserialize, Serialize};

/// Totals of a holdings snapshot in the display currency (`tools.md` §8 `Metrics`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Metrics {
    /// A needed conversion had no rate.
    pub rates_incomplete: bool,
    /// A held asset has no price.
    pub prices_incomplete: bool,
    /// Σ current values of valued holdings (`FIAT`).
    pub total_equity_fiat: String,
    /// Σ cost bases of valued holdings.
    pub total_cost_basis_fiat: String,
    /// Realized result (slices and derivatives, each at its own date).
    pub total_realized_pnl_fiat: String,
    /// Equity − cost basis.
    pub total_unrealized_pnl_fiat: String,
    /// Realized + unrealized.
    pub total_pnl_fiat: String,
    /// `EUR` or `USD`.
    pub currency: String,
}

/// A holding with a known value and cost basis.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ValuedHolding {
    /// Asset id (`btc`).
    pub id: String,
    /// Symbol.
    pub symbol: String,
    /// `QUANTITY`.
    pub amount: String,
    /// Cost basis ÷ amount (`UNIT_PRICE`).
    pub avg_price_fiat: String,
    /// `FIAT`.
    pub cost_basis_fiat: String,
    /// `FIAT`.
    pub current_value_fiat: String,
    /// `FIAT`.
    pub unrealized_pnl_fiat: String,
    /// Unit price used (`UNIT_PRICE`).
    pub current_price_fiat: String,
    /// Share of the valued total (`PERCENT`).
    pub allocation_pct: String,
    /// Display currency.
    pub currency: String,
    /// Accounts holding custody pieces (byte order); empty for an account section.
    pub locations: Vec<String>,
    /// Quantity on own-wallet placeholders (`QUANTITY`).
    pub untracked_quantity: String,
}

/// A holding without a value (or without a known cost basis).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UnvaluedHolding {
    /// Asset id.
    pub id: String,
    /// Symbol.
    pub symbol: String,
    /// `QUANTITY`.
    pub amount: String,
    /// `FIAT`, null unless known in the display currency.
    pub cost_basis_fiat: Option<String>,
    /// Display currency.
    pub currency: String,
    /// `no_price` or `no_rate`.
    pub reason: String,
    /// Accounts holding custody pieces.
    pub locations: Vec<String>,
}

/// The holdings snapshot of `domain.md` §12.1.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PortfolioSummary {
    /// Fiscal as-of date.
    pub as_of: String,
    /// Totals.
    pub metrics: Metrics,
    /// Valued holdings, value descending (ties in symbol order).
    pub valued: Vec<ValuedHolding>,
    /// Unvalued holdings, symbol ascending.
    pub unvalued: Vec<UnvaluedHolding>,
    /// What is missing to value the unvalued holdings, symbol order.
    pub missing: Vec<super::common::MissingDataNotice>,
}

/// One account's holdings (`domain.md` §12.2): custody quantity, custody-attributed cost.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AccountSection {
    /// The account.
    pub account_name: String,
    /// Totals of this account only (realized figures are ledger-wide and left at zero).
    pub metrics: Metrics,
    /// Valued holdings, value descending.
    pub ranked: Vec<ValuedHolding>,
    /// Unvalued holdings, symbol ascending.
    pub unvalued: Vec<UnvaluedHolding>,
}

/// The holdings of an account tree, chosen by name (`tools.md` §9.15).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AccountHoldingsResult {
    /// The name resolved.
    #[serde(rename_all = "camelCase")]
    Resolved {
        /// The resolved account.
        account_name: String,
        /// One section per account of the tree holding anything, canonical account order.
        sections: Vec<AccountSection>,
        /// Accounts of the tree holding nothing.
        empty_account_count: u64,
        /// What is missing or stale in the valuation of the tree's holdings, symbol order (the
        /// same notices as the portfolio's).
        #[serde(default)]
        missing: Vec<super::common::MissingDataNotice>,
    },
    /// Several accounts start with the name.
    Ambiguous {
        /// The first ten, canonical order.
        candidates: Vec<String>,
    },
    /// No account matches.
    NotFound {
        /// The first twenty top-level account names.
        available: Vec<String>,
    },
}

/// One asset held by a custodian at the cut-off.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustodianEntryDto {
    /// Symbol.
    pub symbol: String,
    /// `QUANTITY`.
    pub units: String,
    /// EUR value at the cut-off close (`FIAT`), null when unknown.
    pub value_eur: Option<String>,
    /// Value incomplete (no close, or gap).
    pub incomplete: bool,
}

/// A custodian (top-level account, or `UNTRACKED_LOCATION`) at the cut-off.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustodianDto {
    /// Name.
    pub name: String,
    /// ISO country, when known.
    pub country: Option<String>,
    /// Custody kind (`SPANISH_PROVIDER`, …).
    pub custody_kind: String,
    /// Assets, symbol order.
    pub entries: Vec<CustodianEntryDto>,
}

/// The Modelo 721 decision (`irpf.md` §10).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Modelo721Dto {
    /// Decision literal.
    pub decision: String,
    /// Σ foreign-custodian value (`FIAT`).
    pub total721: String,
    /// Last filed total, when any.
    pub last_filed_total: Option<String>,
    /// Last filed year, when any.
    pub last_filed_year: Option<i32>,
    /// Filing window start.
    pub filing_window_from: String,
    /// Filing window end.
    pub filing_window_to: String,
    /// Foreign custodians counted.
    pub custodians: Vec<CustodianDto>,
    /// `(custodian, symbol)` positions that vanished since the last filing.
    pub vanished_positions: Vec<[String; 2]>,
}

/// One asset of the Modelo 714 figures.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Modelo714Item {
    /// Symbol.
    pub symbol: String,
    /// `QUANTITY`.
    pub units: String,
    /// `FIAT` or null.
    pub value_eur: Option<String>,
}

/// The Modelo 714 figures.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Modelo714Dto {
    /// Per asset, symbol order.
    pub per_asset: Vec<Modelo714Item>,
    /// Σ known values.
    pub total714: String,
    /// Assets without a value.
    pub unvalued: Vec<String>,
    /// Crypto alone exceeds 2 000 000 EUR.
    pub crypto_alone_exceeds2m: bool,
}

/// Holdings per custodian at the end of a fiscal date, with the Modelo 721 / 714 figures of
/// the year that date closes (`irpf.md` §10).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HoldingsAtDto {
    /// The cut-off fiscal date.
    pub date: String,
    /// Custodians at the cut-off (values at the cut-off's close).
    pub custodians: Vec<CustodianDto>,
    /// Modelo 721 and 714 figures, present when the date is a 31 December.
    pub year_end: Option<super::tax::YearEndHoldingsDto>,
    /// Holdings valued at a stale close (more than seven days before the date), symbol order:
    /// the same notices as the portfolio's.
    #[serde(default)]
    pub missing: Vec<super::common::MissingDataNotice>,
    /// The Modelo 714 total had each asset's whole quantity been valued at once, as the
    /// portfolio values it (`FIAT`); present only when it differs from `total714`, which sums
    /// the custodians' values, each rounded to cents.
    #[serde(default)]
    pub whole_quantity_total714: Option<String>,
}
