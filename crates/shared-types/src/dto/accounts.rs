//! Accounts, settings and the ledger version.

use serde::{Deserialize, Serialize};

/// One account of the tree.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct AccountNode {
    pub name: String,
    /// `SPANISH_PROVIDER`, `FOREIGN_PROVIDER`, `SELF_CUSTODY` or `UNKNOWN`.
    pub custody_kind: String,
    pub country: Option<String>,
    pub spot_row_count: u64,
    pub futures_row_count: u64,
    /// Sub-accounts, canonical account order.
    pub children: Vec<AccountNode>,
}

/// The account forest: top-level accounts in canonical account order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct AccountList {
    pub accounts: Vec<AccountNode>,
}

/// The ledger version (changes with every write that changes what reports read).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct LedgerVersion {
    pub version: u64,
}

/// One setting with its stored JSON value (null when unset) and its default.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct SettingEntry {
    pub key: String,
    /// Canonical JSON text, null when unset.
    pub value: Option<String>,
    /// What applies when unset, as JSON text (or a description).
    pub default: String,
}

/// Every setting, canonical key order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct SettingsList {
    pub settings: Vec<SettingEntry>,
}
