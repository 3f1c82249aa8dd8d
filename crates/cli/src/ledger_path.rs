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

/// A ledger open for writing: the store, the writer lock held for the whole command, and
/// whether this command created the file. A ledger this command created and left holding
/// nothing (a failed import, a refused `settings set`, a dry run) is removed when the session
/// ends, so the next command says `no ledger` rather than `holds no transactions`.
pub(crate) struct WriteSession {
    path: PathBuf,
    store: Option<SqliteLedger>,
    created: bool,
    _lock: Option<crate::writer_lock::WriterLock>,
}

impl std::ops::Deref for WriteSession {
    type Target = SqliteLedger;

    fn deref(&self) -> &SqliteLedger {
        self.store.as_ref().expect("the store lives until drop")
    }
}

impl std::ops::DerefMut for WriteSession {
    fn deref_mut(&mut self) -> &mut SqliteLedger {
        self.store.as_mut().expect("the store lives until drop")
    }
}

impl Drop for WriteSession {
    fn drop(&mut self) {
        let Some(store) = self.store.take() else {
            return;
        };
        let blank = self.created && store.holds_nothing().unwrap_or(false);
        drop(store);
        if blank {
            for suffix in ["", "-wal", "-shm", "-journal"] {
                let mut name = self.path.as_os_str().to_owned();
                name.push(suffix);
                let _ = std::fs::remove_file(PathBuf::from(name));
            }
        }
    }
}

/// Opens the ledger for writing, creating it (and its folder) on first write, and takes the
/// writer lock (waiting for another writer, `writer_lock`).
pub(crate) fn open_for_write(explicit: Option<&Path>) -> Result<WriteSession> {
    let path = resolve(explicit)?;
    let created = !path.exists();
    if created && let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot create the ledger folder {}", parent.display()))?;
    }
    let lock = if created {
        None
    } else {
        Some(crate::writer_lock::acquire(&path)?)
    };
    let store = SqliteLedger::create_or_open(&path)
        .map_err(|error| crate::session::open_failure(&path, error))?;
    // A new file is locked once SQLite has created it.
    let lock = match lock {
        Some(lock) => lock,
        None => crate::writer_lock::acquire(&path)?,
    };
    Ok(WriteSession {
        path,
        store: Some(store),
        created,
        _lock: Some(lock),
    })
}

/// Opens an existing ledger for writing (edits, links, account and setting changes that need
/// a ledger): never creates one.
pub(crate) fn open_existing_for_write(explicit: Option<&Path>) -> Result<WriteSession> {
    let path = resolve(explicit)?;
    if !path.exists() {
        return Err(crate::session::open_failure(
            &path,
            ledger_sqlite::OpenError::Missing,
        ));
    }
    let lock = crate::writer_lock::acquire(&path)?;
    let store = SqliteLedger::open_existing(&path)
        .map_err(|error| crate::session::open_failure(&path, error))?;
    Ok(WriteSession {
        path,
        store: Some(store),
        created: false,
        _lock: Some(lock),
    })
}
