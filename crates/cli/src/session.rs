//! Opening an existing ledger for the read commands, and the errors they share.

use std::path::{Path, PathBuf};

use anyhow::Result;
use ledger_sqlite::SqliteLedger;
use use_cases::UseCaseError;
use use_cases::queries::ReadUseCases;

use crate::ledger_path;

/// A failure of the operation the command has explained: printed as `cartera: error: …`, exit 1.
#[derive(Debug)]
pub(crate) struct Failure(pub(crate) String);

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Failure {}

/// Shorthand for an exit-1 failure with a message.
pub(crate) fn fail<T>(message: impl Into<String>) -> Result<T> {
    Err(Failure(message.into()).into())
}

/// Opens the ledger a read command names; a missing file says how to create one.
pub(crate) fn open_existing(explicit: Option<&Path>) -> Result<(PathBuf, SqliteLedger)> {
    let path = ledger_path::resolve(explicit)?;
    if !path.is_file() {
        return fail(format!(
            "no ledger at {}: import your exports first (`cartera import FILE…`), or build the \
             sample ledger with `cartera demo --keep DIR` and pass `--ledger DIR/ledger.sqlite`",
            path.display()
        ));
    }
    match SqliteLedger::open(&path) {
        Ok(store) => Ok((path, store)),
        Err(error) => fail(format!(
            "cannot open the ledger {}: {error}",
            path.display()
        )),
    }
}

/// A use-case error as the message the user reads.
pub(crate) fn explain(error: &UseCaseError) -> String {
    error.to_string()
}

/// The read use cases over the ledger at `path` (its own connection).
pub(crate) fn queries(path: &Path) -> Result<Box<dyn ReadUseCases>> {
    let _ = path;
    fail("the read use cases are not available in this build yet")
}

/// The canonical JSON text of a setting value, validated by the settings use case.
#[allow(
    clippy::unnecessary_wraps,
    reason = "placeholder until the settings use case lands"
)]
pub(crate) fn canonical_setting(
    key: use_cases::ports::SettingKey,
    text: &str,
) -> Result<String, UseCaseError> {
    let _ = key;
    Ok(text.to_owned())
}
