//! Opening an existing ledger for the read commands, and the errors they share.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use ai_tools::{CurrencyCode, TenantId};
use anyhow::Result;
use core_domain::Instant;
use ledger_sqlite::{OpenError, ReadOnlyLedger, SqliteLedger};
use use_cases::PortError;
use use_cases::UseCaseError;
use use_cases::ports::Clock;
use use_cases::queries::{LedgerQueries, ReadUseCases};

use crate::{UsageError, ledger_path};

/// A failure of the operation the command has explained: printed as `cartera: error: …`, exit 1;
/// with `--json` also as an error document whose `code` is [`Failure::code`].
#[derive(Debug)]
pub(crate) struct Failure {
    /// A short kebab-case name of the failure (`failed` when nothing more precise applies).
    pub(crate) code: &'static str,
    pub(crate) message: String,
}

impl Failure {
    /// A failure without a more precise code.
    pub(crate) fn new(message: impl Into<String>) -> Self {
        Self {
            code: "failed",
            message: message.into(),
        }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Failure {}

/// Shorthand for an exit-1 failure with a message.
pub(crate) fn fail<T>(message: impl Into<String>) -> Result<T> {
    Err(Failure::new(message).into())
}

/// Shorthand for an exit-1 failure with a code and a message.
pub(crate) fn fail_with<T>(code: &'static str, message: impl Into<String>) -> Result<T> {
    Err(Failure {
        code,
        message: message.into(),
    }
    .into())
}

/// Opens the ledger a read command names, read-only: nothing is created or migrated, and a
/// file that is not a cartera ledger is refused and left untouched.
pub(crate) fn open_existing(explicit: Option<&Path>) -> Result<(PathBuf, SqliteLedger)> {
    let path = ledger_path::resolve(explicit)?;
    match SqliteLedger::open_reader(&path) {
        Ok(store) => Ok((path, store)),
        Err(error) => Err(open_failure(&path, error)),
    }
}

/// [`open_existing`] for the AI surface (`tools call`, `mcp`): the type without write methods.
pub(crate) fn open_read_only(explicit: Option<&Path>) -> Result<(PathBuf, ReadOnlyLedger)> {
    let path = ledger_path::resolve(explicit)?;
    match ReadOnlyLedger::open_reader(&path) {
        Ok(store) => Ok((path, store)),
        Err(error) => Err(open_failure(&path, error)),
    }
}

/// A ledger opened for the AI surface (`tools call`, `mcp`, `ask`, `chat`): what every tool host
/// over it needs.
pub(crate) struct ToolLedger {
    pub(crate) path: PathBuf,
    pub(crate) queries: Arc<LedgerQueries<ReadOnlyLedger>>,
    /// `"ledger:"` + lower-hex SHA-256 of the canonical absolute path (`mcp.md` §1).
    pub(crate) tenant: TenantId,
    /// The ledger's `display_currency` setting, else EUR.
    pub(crate) display_currency: CurrencyCode,
}

/// The one way the AI surface opens a ledger: [`open_read_only`], then its version and settings
/// read once, so a file that opens but cannot be read fails here with one message rather than
/// in the first tool call.
pub(crate) fn open_for_tools(explicit: Option<&Path>, clock: CliClock) -> Result<ToolLedger> {
    let (path, store) = open_read_only(explicit)?;
    let queries = LedgerQueries::new(store, clock);
    let unreadable = |error: UseCaseError| {
        Failure::new(format!(
            "cannot read the ledger {}: {error}",
            path.display()
        ))
    };
    queries.get_ledger_version().map_err(unreadable)?;
    let display_currency = queries
        .list_settings()
        .map_err(unreadable)?
        .settings
        .into_iter()
        .find(|entry| entry.key == "display_currency")
        .and_then(|entry| entry.value)
        .and_then(|text| serde_json::from_str::<String>(&text).ok())
        .and_then(|code| CurrencyCode::parse(&code).ok())
        .unwrap_or(CurrencyCode::EUR);
    let tenant = tenant(&path)?;
    Ok(ToolLedger {
        path,
        queries: Arc::new(queries),
        tenant,
        display_currency,
    })
}

/// `"ledger:"` + lower-hex SHA-256 of the canonical absolute ledger path (`mcp.md` §1).
pub(crate) fn tenant(path: &Path) -> Result<TenantId> {
    let canonical = match std::fs::canonicalize(path) {
        Ok(canonical) => canonical,
        Err(error) => {
            return fail(format!(
                "cannot resolve the ledger path {}: {error}",
                path.display()
            ));
        }
    };
    let digest = crate::import::sha256_hex(canonical.as_os_str().as_encoded_bytes());
    match TenantId::new(format!("ledger:{digest}")) {
        Ok(tenant) => Ok(tenant),
        Err(error) => fail(format!("cannot name the ledger: {error}")),
    }
}

/// Whether this process may write the file and create files beside it (the journal).
fn writable(path: &Path) -> bool {
    use rustix::fs::{Access, access};
    let folder = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    access(path, Access::WRITE_OK).is_ok() && access(folder, Access::WRITE_OK).is_ok()
}

/// Why the ledger at `path` cannot be opened, as the exit-1 failure the user reads.
pub(crate) fn open_failure(path: &Path, error: OpenError) -> anyhow::Error {
    let shown = path.display();
    let (code, message) = match error {
        OpenError::Missing => (
            "no-ledger",
            format!(
                "no ledger at {shown}: import your exports first (`cartera import FILE…`), or \
                 build the sample ledger with `cartera demo --keep DIR` and pass `--ledger \
                 DIR/ledger.sqlite`"
            ),
        ),
        OpenError::NotALedger { what } => (
            "not-a-ledger",
            format!("{shown} is not a cartera ledger ({what}); it was left untouched"),
        ),
        error @ (OpenError::SchemaTooOld { .. }
        | OpenError::SchemaTooNew { .. }
        | OpenError::UpgradeFailed { .. }) => {
            ("ledger-version", format!("the ledger {shown} was {error}"))
        }
        OpenError::Port(PortError::Busy { .. }) => (
            "ledger-busy",
            format!("the ledger {shown} is locked by another program; try again"),
        ),
        OpenError::Port(PortError::ReadOnly | PortError::Unavailable { .. }) if !writable(path) => {
            (
                "ledger-read-only",
                format!("cannot write to the ledger {shown}: the file or its folder is read-only"),
            )
        }
        OpenError::Port(PortError::ReadOnly) => (
            "ledger-read-only",
            format!("cannot write to the ledger {shown}: the file or its folder is read-only"),
        ),
        OpenError::Port(error) => (
            "ledger-unavailable",
            format!("cannot open the ledger {shown}: {error}"),
        ),
    };
    Failure { code, message }.into()
}

/// A use-case error as the message the user reads.
pub(crate) fn explain(error: &UseCaseError) -> String {
    error.to_string()
}

/// "Now" for the use cases: the system clock, or the instant in `$CARTERA_NOW`
/// (`YYYY-MM-DDTHH:MM:SSZ`) for reproducible runs and tests.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CliClock(Option<Instant>);

impl CliClock {
    /// The clock of this run.
    #[allow(
        clippy::disallowed_methods,
        reason = "the binary reads its configuration from the environment"
    )]
    pub(crate) fn from_env() -> Result<Self> {
        match std::env::var("CARTERA_NOW") {
            Ok(text) if !text.is_empty() => match Instant::parse(&text) {
                Ok(instant) => Ok(Self(Some(instant))),
                Err(_) => Err(UsageError {
                    code: "bad-now",
                    reason: format!(
                        "CARTERA_NOW \"{text}\" is not an instant: write it as 2025-01-15T12:00:00Z"
                    ),
                }
                .into()),
            },
            _ => Ok(Self(None)),
        }
    }

    /// Whether `$CARTERA_NOW` fixed the clock.
    pub(crate) fn is_set(self) -> bool {
        self.0.is_some()
    }

    /// A clock fixed at `instant`.
    pub(crate) fn fixed(instant: Instant) -> Self {
        Self(Some(instant))
    }
}

impl Clock for CliClock {
    fn now(&self) -> Instant {
        self.0.unwrap_or_else(crate::import::now_for_log)
    }
}
