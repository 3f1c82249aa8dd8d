//! The one error enum of the facade, and how the errors of the crates below map onto it.

use std::path::{Path, PathBuf};

use ledger_sqlite::OpenError;
use use_cases::{PortError, UseCaseError};

/// Everything that can go wrong through the facade.
///
/// The variants carry text and paths only, never a type of the crates below, so the facade's
/// public API stays independent of the storage and the engine.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A ledger opened as existing (read-only or read-write) does not exist.
    #[error("no ledger at {}", path.display())]
    NoLedger {
        /// The path asked for.
        path: PathBuf,
    },
    /// The file exists but is not a cartera ledger; it was left untouched.
    #[error("{} is not a cartera ledger ({reason}); it was left untouched", path.display())]
    NotALedger {
        /// The path asked for.
        path: PathBuf,
        /// What gave it away.
        reason: String,
    },
    /// The ledger's schema is of a version this library cannot read or upgrade.
    #[error("the ledger {} was {reason}", path.display())]
    LedgerVersion {
        /// The path asked for.
        path: PathBuf,
        /// Which version, and why it cannot be used.
        reason: String,
    },
    /// Another program holds the ledger's lock.
    #[error("the ledger is busy: {reason}")]
    Busy {
        /// What the store said.
        reason: String,
    },
    /// A write was asked of a ledger opened read-only (or on read-only storage).
    #[error("the ledger is read-only")]
    ReadOnly,
    /// The store failed (disk full, corrupt data, an IO error).
    #[error("ledger error: {reason}")]
    Storage {
        /// What went wrong.
        reason: String,
    },
    /// Something the request names does not exist (an asset, an account, a row).
    #[error("{what} not found")]
    NotFound {
        /// What was looked for.
        what: String,
    },
    /// A request field breaks a rule (an unknown year, a bad date, an empty page size).
    #[error("invalid {field}: {reason}")]
    InvalidRequest {
        /// The field.
        field: String,
        /// The rule it breaks.
        reason: String,
    },
    /// A setting's key or value breaks its rule.
    #[error("invalid setting {key}: {reason}")]
    InvalidSetting {
        /// The setting key as given.
        key: String,
        /// The rule it breaks.
        reason: String,
    },
    /// Data the answer needs is absent; `hint` says how to get it.
    #[error("{what}: {hint}")]
    MissingData {
        /// What is missing.
        what: String,
        /// How to get it.
        hint: String,
    },
    /// The engine refused the data (an arithmetic overflow, inconsistent settings).
    #[error("{reason}")]
    Engine {
        /// What the engine said.
        reason: String,
    },
    /// A tool name that the profile does not expose.
    #[error("unknown tool {name:?}; this profile exposes: {}", exposed.join(", "))]
    UnknownTool {
        /// The name asked for.
        name: String,
        /// The tools the profile exposes, in catalogue order.
        exposed: Vec<String>,
    },
    /// A configuration value of the facade itself is malformed (a locale, a tenant, a time
    /// zone, an import option).
    #[error("invalid {what}: {reason}")]
    InvalidOption {
        /// Which option.
        what: String,
        /// The rule it breaks.
        reason: String,
    },
    /// A file to import, or the MCP input or output, could not be read or written.
    #[error("{what}: {reason}")]
    Io {
        /// What was being read or written (a file path, `MCP input`, `MCP output`).
        what: String,
        /// The operating system's message.
        reason: String,
    },
}

/// Result of a facade call.
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// A bad option of the facade.
    pub(crate) fn option(what: &str, reason: impl Into<String>) -> Self {
        Self::InvalidOption {
            what: what.to_owned(),
            reason: reason.into(),
        }
    }

    /// Why the ledger at `path` cannot be opened.
    pub(crate) fn open(path: &Path, error: OpenError) -> Self {
        let path = path.to_owned();
        match error {
            OpenError::Missing => Self::NoLedger { path },
            OpenError::NotALedger { what } => Self::NotALedger { path, reason: what },
            error @ (OpenError::SchemaTooOld { .. }
            | OpenError::SchemaTooNew { .. }
            | OpenError::UpgradeFailed { .. }) => Self::LedgerVersion {
                path,
                reason: error.to_string(),
            },
            OpenError::Port(error) => Self::port(error),
        }
    }

    /// A port failure. Not a `From` impl: that would put `use_cases::PortError` in the public
    /// API.
    fn port(error: PortError) -> Self {
        match error {
            PortError::ReadOnly => Self::ReadOnly,
            PortError::Busy { reason } => Self::Busy { reason },
            PortError::NotFound { what } => Self::NotFound { what },
            PortError::Invalid { what, reason } => Self::InvalidRequest {
                field: what,
                reason,
            },
            other => Self::Storage {
                reason: other.to_string(),
            },
        }
    }

    /// A use-case failure.
    fn use_case(error: UseCaseError) -> Self {
        match error {
            UseCaseError::NotFound { what } => Self::NotFound { what },
            UseCaseError::InvalidRequest { field, reason } => {
                Self::InvalidRequest { field, reason }
            }
            UseCaseError::InvalidSetting { key, reason } => Self::InvalidSetting { key, reason },
            UseCaseError::MissingData { what, hint } => Self::MissingData { what, hint },
            UseCaseError::Port(error) => Self::port(error),
            other => Self::Engine {
                reason: other.to_string(),
            },
        }
    }
}

/// The results of the crates below as facade results (`?` cannot convert them: the `From` impls
/// it needs would be public).
pub(crate) trait Typed<T> {
    /// The same result with the facade's error.
    fn typed(self) -> Result<T>;
}

impl<T> Typed<T> for std::result::Result<T, UseCaseError> {
    fn typed(self) -> Result<T> {
        self.map_err(Error::use_case)
    }
}

impl<T> Typed<T> for std::result::Result<T, PortError> {
    fn typed(self) -> Result<T> {
        self.map_err(Error::port)
    }
}
