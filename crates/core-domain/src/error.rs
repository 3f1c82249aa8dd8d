//! The typed errors of `domain.md` §1.2.

/// Every failure `core-domain` can report. Bad data never panics: it becomes one of these or a
/// quality flag (`domain.md` §10).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DomainError {
    /// A checked operation overflowed; `context` names the row key or computation. Shown to
    /// the user in words ([`overflow_subject`]), never as an internal name.
    #[error(
        "the amounts are too large to compute {}: an amount, price or rate in the ledger is far beyond any real one",
        overflow_subject(context)
    )]
    ArithmeticOverflow {
        /// The row key or computation.
        context: String,
    },
    /// A division by zero that no rule guarded.
    #[error("division by zero in {context}")]
    DivisionByZero {
        /// The row key or computation.
        context: String,
    },
    /// A decimal string violates `domain.md` §1.1.
    #[error("invalid amount in {field}: {text:?}")]
    InvalidAmount {
        /// The field that held the text.
        field: String,
        /// The offending text.
        text: String,
    },
    /// An effective row violates the shape rules of `domain.md` §4.2.
    #[error("row {row_key} has an invalid shape: {reason}")]
    InvalidShape {
        /// The row key.
        row_key: String,
        /// Why the shape is invalid.
        reason: String,
    },
    /// An override violates `domain.md` §6.
    #[error("override of {row_key} is invalid: {reason}")]
    InvalidOverride {
        /// The row key the override names.
        row_key: String,
        /// Why it is invalid.
        reason: String,
    },
    /// A setting is out of its domain.
    #[error("setting {key} is invalid: {reason}")]
    InvalidSetting {
        /// The setting key.
        key: String,
        /// Why it is invalid.
        reason: String,
    },
}

/// What an overflow's `context` computed, in words: the engine's short internal names
/// (`T_sav`, `R`, `holdings_at`) mapped to what a user knows them as.
pub fn overflow_subject(context: &str) -> String {
    let known = match context {
        "T_sav" => "the savings-base gains and losses of the year",
        "T_gen" => "the general-base results of the year",
        "R" => "the savings-base income of the year",
        "M" | "A" => "the year's totals",
        "realized" => "the realized result",
        "holdings_at" => "the holdings",
        "carry_forward" => "the losses carried forward",
        "audit_trail" => "the audit trail",
        "hhi" => "the concentration index",
        "roi" => "the return on investment",
        _ => return format!("the {}", context.replace('_', " ")),
    };
    known.to_owned()
}

impl DomainError {
    /// Shorthand for an overflow in `context`.
    pub fn overflow(context: impl Into<String>) -> Self {
        Self::ArithmeticOverflow {
            context: context.into(),
        }
    }
}

/// Result alias of `core-domain`.
pub type DomainResult<T> = Result<T, DomainError>;

#[cfg(test)]
mod tests;
