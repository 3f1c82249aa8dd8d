//! Small objects shared by several answers.

use serde::{Deserialize, Serialize};

/// Completeness of a tax year (`tools.md` §8): complete, or incomplete with its reasons in the
/// fixed order `unconvertible_events`, `excluded_flagged_events`, `excluded_unresolved_income`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CompletenessDto {
    /// Every item of the year is included.
    Complete,
    /// Some item was excluded.
    Incomplete {
        /// Reasons, fixed order, each once.
        reasons: Vec<String>,
    },
}

/// A recorded fee: `NONE` when absent (a recorded zero fee is `CHARGED` zero).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "SCREAMING_SNAKE_CASE")]
pub enum FeeDto {
    /// No fee recorded.
    None,
    /// A fee was charged.
    Charged {
        /// `QUANTITY`.
        amount: String,
        /// The fee's asset symbol.
        asset: String,
    },
}

/// An asset and a quantity (unvalued items).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GapItem {
    /// Symbol.
    pub symbol: String,
    /// `QUANTITY`.
    pub amount: String,
}

/// Data an answer needed and did not find, with how to get it (`cli.md`: "no prices for ETH
/// after 2024-03-01: run `cartera prices import …`"). The affected figures are marked
/// incomplete, never guessed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MissingDataNotice {
    /// What is missing (`no prices for ETH after 2024-03-01`).
    pub what: String,
    /// How to get it (a command to run).
    pub hint: String,
}
