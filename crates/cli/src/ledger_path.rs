//! Where the ledger lives: `--ledger`, else `$CARTERA_LEDGER`, else the platform data folder.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use ledger_sqlite::SqliteLedger;

/// The ledger path the command should use.
#[allow(
    clippy::disallowed_methods,
    reason = "the binary reads its configuration from the environment"
)]
pub(crate) fn resolve(explicit: Option<&Path>) -> Result<PathBuf> {
    if let Some(path) = explicit {
        return Ok(path.to_path_buf());
    }
    if let Some(path) = std::env::var_os("CARTERA_LEDGER").filter(|p| !p.is_empty()) {
        return Ok(PathBuf::from(path));
    }
    let data = dirs::data_dir().context(
        "no platform data folder is known on this machine; pass --ledger PATH or set CARTERA_LEDGER",
    )?;
    Ok(data.join("cartera").join("ledger.sqlite"))
}

/// Opens the ledger for writing, creating it (and its folder) on first write.
pub(crate) fn open_for_write(explicit: Option<&Path>) -> Result<(PathBuf, SqliteLedger)> {
    let path = resolve(explicit)?;
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot create the ledger folder {}", parent.display()))?;
    }
    let ledger = SqliteLedger::open(&path)
        .with_context(|| format!("cannot open the ledger {}", path.display()))?;
    Ok((path, ledger))
}
