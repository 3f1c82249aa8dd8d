//! The error every port returns.

/// A failure of a storage or clock port. Adapters map their own errors onto these variants so
/// use cases and the CLI can tell a busy store from corrupt data or a rejected write.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PortError {
    /// The store cannot be opened or reached.
    #[error("store unavailable: {reason}")]
    Unavailable {
        /// What went wrong.
        reason: String,
    },
    /// The store was opened read-only and a write was attempted.
    #[error("store is read-only")]
    ReadOnly,
    /// Another process holds the store's write lock.
    #[error("store busy: {reason}")]
    Busy {
        /// What went wrong.
        reason: String,
    },
    /// The store's schema is newer than this program understands.
    #[error("store schema version {found} is newer than the supported version {supported}")]
    SchemaTooNew {
        /// Version found in the file.
        found: i64,
        /// Highest version this program knows.
        supported: i64,
    },
    /// Stored data failed to decode into the domain model.
    #[error("stored {what} is corrupt: {reason}")]
    Corrupt {
        /// Which record or field.
        what: String,
        /// Why it does not decode.
        reason: String,
    },
    /// A write was rejected because its input breaks a rule of the store.
    #[error("invalid {what}: {reason}")]
    Invalid {
        /// Which input.
        what: String,
        /// The rule it breaks.
        reason: String,
    },
    /// A write names something that does not exist.
    #[error("{what} not found")]
    NotFound {
        /// What was looked for.
        what: String,
    },
    /// A write conflicts with stored data (an already linked leg, …).
    #[error("conflict: {reason}")]
    Conflict {
        /// What conflicts.
        reason: String,
    },
    /// Any other failure of the underlying store (disk full, IO error, constraint failure).
    #[error("store error: {reason}")]
    Storage {
        /// What went wrong.
        reason: String,
    },
}

/// Result of a port call.
pub type PortResult<T> = Result<T, PortError>;

/// The error every use case returns.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum UseCaseError {
    /// Something the request names does not exist (`symbol ETH`, `row k1`, `account Foo`).
    #[error("{what} not found")]
    NotFound {
        /// What was looked for.
        what: String,
    },
    /// A request field breaks a rule.
    #[error("invalid {field}: {reason}")]
    InvalidRequest {
        /// The field.
        field: String,
        /// The rule it breaks.
        reason: String,
    },
    /// A stored setting (or a value to store) breaks its rule.
    #[error("invalid setting {key}: {reason}")]
    InvalidSetting {
        /// The setting key.
        key: String,
        /// The rule it breaks.
        reason: String,
    },
    /// Data the answer needs is absent; `hint` says how to get it.
    #[error("{what}: {hint}")]
    MissingData {
        /// What is missing.
        what: String,
        /// How to get it (a command to run).
        hint: String,
    },
    /// A port failed.
    #[error(transparent)]
    Port(#[from] PortError),
    /// The engine failed (arithmetic overflow, inconsistent settings).
    #[error(transparent)]
    Domain(#[from] core_domain::DomainError),
}

/// Result of a use case.
pub type UseCaseResult<T> = Result<T, UseCaseError>;
