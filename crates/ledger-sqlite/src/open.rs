//! How a ledger file is opened: what counts as a cartera ledger, the read-only open that never
//! creates or migrates and copes with what a killed writer or read-only storage leaves, and the
//! writable open of an existing file. The schema itself (DDL, migrations) is `schema.rs`.
//!
//! A read-only open goes, in order:
//! 1. `SQLITE_OPEN_READ_ONLY` on the file: the usual case, including during an import (WAL
//!    readers see the last committed state).
//! 2. When SQLite needs to write to let a reader in (a hot rollback journal or an unrecovered
//!    WAL index left by a killed writer: `SQLITE_READONLY_ROLLBACK` / `_RECOVERY` / `_CANTINIT`)
//!    and the file can be written: a read-write connection (no create, no DDL) lets SQLite roll
//!    the journal back or rebuild the index, as any open would, then step 1 again.
//! 3. When nothing can be written (a read-only folder or file, read-only media): with no
//!    journal beside the file, `immutable=1` (no locks, no `-shm`; nobody can write there);
//!    with a journal or a WAL left beside it, the file and its journal are copied to a private
//!    temporary folder where SQLite recovers the last committed state, and that copy is read.

use std::fs;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, ErrorCode, OpenFlags};
use use_cases::PortError;

use crate::error::map_err;
use crate::schema::{self, SCHEMA_VERSION};

/// Why a file could not be opened as a ledger.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpenError {
    /// There is no file at the path.
    Missing,
    /// The file is not a cartera ledger: what it is instead ("an empty file", "an SQLite
    /// database of another program", …). It was not changed.
    NotALedger {
        /// What the file is.
        what: String,
    },
    /// The ledger was written by an older cartera and a read-only open cannot upgrade it.
    SchemaTooOld {
        /// Version found in the file.
        found: i64,
        /// The version this program reads.
        supported: i64,
    },
    /// The ledger was written by a newer cartera.
    SchemaTooNew {
        /// Version found in the file.
        found: i64,
        /// Highest version this program reads.
        supported: i64,
    },
    /// Upgrading the schema failed; the file is left at `found`.
    UpgradeFailed {
        /// Version found in the file.
        found: i64,
        /// The version the upgrade aimed at.
        supported: i64,
    },
    /// Another failure of the store (busy, unreadable, …).
    Port(PortError),
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Missing => f.write_str("no such file"),
            Self::NotALedger { what } => write!(f, "not a cartera ledger ({what})"),
            Self::SchemaTooOld { found, supported } => write!(
                f,
                "written by an older cartera (ledger format version {found}; this cartera \
                 reads version {supported}): it is upgraded the next time cartera writes to it \
                 (an import, `settings set`, `accounts set`)"
            ),
            Self::SchemaTooNew { found, supported } => write!(
                f,
                "written by a newer cartera (ledger format version {found}; this cartera reads \
                 versions up to {supported}): update cartera to read it"
            ),
            Self::UpgradeFailed { found, supported } => write!(
                f,
                "left at ledger format version {found}: upgrading it to version {supported} \
                 failed, the file does not hold what its version says"
            ),
            Self::Port(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for OpenError {}

impl From<OpenError> for PortError {
    fn from(error: OpenError) -> Self {
        match error {
            OpenError::SchemaTooNew { found, supported } => {
                PortError::SchemaTooNew { found, supported }
            }
            OpenError::Port(error) => error,
            other => PortError::Unavailable {
                reason: other.to_string(),
            },
        }
    }
}

impl From<PortError> for OpenError {
    fn from(error: PortError) -> Self {
        match error {
            PortError::SchemaTooNew { found, supported } => Self::SchemaTooNew { found, supported },
            other => Self::Port(other),
        }
    }
}

/// What the bytes on disk say before SQLite opens the file.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum FileKind {
    /// Nothing at the path.
    Missing,
    /// A 0-byte file.
    Empty,
    /// A non-empty regular file (SQLite's probe tells whether it is a database).
    Sqlite,
}

/// Looks at the file's metadata, before SQLite opens it.
pub(crate) fn file_kind(path: &Path) -> Result<FileKind, OpenError> {
    let metadata = match fs::metadata(path) {
        Ok(metadata) => metadata,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Ok(FileKind::Missing);
        }
        Err(error) => return Err(unavailable(&error)),
    };
    if !metadata.is_file() {
        return Err(OpenError::NotALedger {
            what: "not a regular file".to_owned(),
        });
    }
    if metadata.len() == 0 {
        return Ok(FileKind::Empty);
    }
    // The bytes are not read here: closing a descriptor of a file drops every POSIX lock
    // this process holds on it, SQLite's included. SQLite's first read of the header tells
    // a file that is not a database (`identity`).
    Ok(FileKind::Sqlite)
}

fn unavailable(error: &std::io::Error) -> OpenError {
    OpenError::Port(PortError::Unavailable {
        reason: error.to_string(),
    })
}

/// What the schema of an open SQLite file says.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Identity {
    /// A cartera ledger at this schema version.
    Ledger(i64),
    /// An SQLite database with no schema at all (a file SQLite created and nothing wrote).
    Blank,
}

/// Whether an open database is a cartera ledger: `user_version` ≥ 1 and the `meta` table.
pub(crate) fn identity(conn: &Connection) -> Result<Identity, OpenError> {
    let probe = || -> rusqlite::Result<(i64, i64, bool)> {
        let version: i64 = conn.query_row("PRAGMA user_version", [], |row| row.get(0))?;
        let objects: i64 =
            conn.query_row("SELECT count(*) FROM sqlite_schema", [], |row| row.get(0))?;
        let meta: bool = conn.query_row(
            "SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'meta')",
            [],
            |row| row.get(0),
        )?;
        Ok((version, objects, meta))
    };
    let (version, objects, meta) = probe().map_err(|error| {
        if let rusqlite::Error::SqliteFailure(failure, _) = &error
            && failure.code == ErrorCode::NotADatabase
        {
            return OpenError::NotALedger {
                what: "not an SQLite database".to_owned(),
            };
        }
        OpenError::Port(map_err(error))
    })?;
    match (version, objects, meta) {
        (0, 0, _) => Ok(Identity::Blank),
        (version, _, true) if version >= 1 => Ok(Identity::Ledger(version)),
        _ => Err(OpenError::NotALedger {
            what: "an SQLite database of another program".to_owned(),
        }),
    }
}

/// Checks the version a read-only open found.
fn check_version(version: i64) -> Result<(), OpenError> {
    if version > SCHEMA_VERSION {
        return Err(OpenError::SchemaTooNew {
            found: version,
            supported: SCHEMA_VERSION,
        });
    }
    if version < SCHEMA_VERSION {
        return Err(OpenError::SchemaTooOld {
            found: version,
            supported: SCHEMA_VERSION,
        });
    }
    Ok(())
}

/// A read-only connection to an existing ledger, and the private copy it reads when the
/// storage could not be read in place.
pub(crate) struct ReadConnection {
    pub(crate) conn: Connection,
    pub(crate) snapshot: Option<Snapshot>,
}

/// Opens an existing ledger read-only (see the module doc for the steps). Nothing is created
/// or migrated; a file that is not a cartera ledger is refused before SQLite writes anything.
pub(crate) fn open_read_only(path: &Path) -> Result<ReadConnection, OpenError> {
    match file_kind(path)? {
        FileKind::Missing => return Err(OpenError::Missing),
        FileKind::Empty => {
            return Err(OpenError::NotALedger {
                what: "an empty file".to_owned(),
            });
        }
        FileKind::Sqlite => {}
    }
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let first = Connection::open_with_flags(path, flags)
        .map_err(|error| OpenError::Port(map_err(error)))
        .and_then(|conn| probe_ledger(&conn).map(|()| conn));
    match first {
        Ok(conn) => Ok(ReadConnection {
            conn,
            snapshot: None,
        }),
        Err(error) if needs_writer(&error) => recover(path),
        Err(error) => Err(error),
    }
}

/// The identity and version checks of a read-only open.
fn probe_ledger(conn: &Connection) -> Result<(), OpenError> {
    conn.busy_timeout(crate::BUSY_TIMEOUT)
        .map_err(|error| OpenError::Port(map_err(error)))?;
    match identity(conn)? {
        Identity::Ledger(version) => check_version(version),
        Identity::Blank => Err(OpenError::NotALedger {
            what: "an empty SQLite database".to_owned(),
        }),
    }
}

/// Whether a read-only open failed only because SQLite had to write something first.
fn needs_writer(error: &OpenError) -> bool {
    matches!(error, OpenError::Port(PortError::ReadOnly))
        || matches!(error, OpenError::Port(PortError::Unavailable { .. }))
}

/// Steps 2 and 3 of the module doc.
fn recover(path: &Path) -> Result<ReadConnection, OpenError> {
    // 2. Let a read-write connection (no create) replay what the killed writer left.
    let writable = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    );
    if let Ok(conn) = writable
        && conn.busy_timeout(crate::BUSY_TIMEOUT).is_ok()
        && conn
            .query_row("SELECT count(*) FROM sqlite_schema", [], |row| {
                row.get::<_, i64>(0)
            })
            .is_ok()
    {
        drop(conn);
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let again = Connection::open_with_flags(path, flags)
            .map_err(|error| OpenError::Port(map_err(error)))
            .and_then(|conn| probe_ledger(&conn).map(|()| conn));
        if let Ok(conn) = again {
            return Ok(ReadConnection {
                conn,
                snapshot: None,
            });
        }
    }
    // 3. Read-only storage.
    if !journal_left(path) {
        let conn = open_immutable(path)?;
        probe_ledger(&conn)?;
        return Ok(ReadConnection {
            conn,
            snapshot: None,
        });
    }
    let snapshot = Snapshot::take(path).map_err(|error| unavailable(&error))?;
    // The copy's folder is ours: a read-write open there plays the journal back.
    let conn = Connection::open_with_flags(
        &snapshot.file,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|error| OpenError::Port(map_err(error)))?;
    probe_ledger(&conn)?;
    drop(conn);
    let conn = Connection::open_with_flags(
        &snapshot.file,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|error| OpenError::Port(map_err(error)))?;
    probe_ledger(&conn)?;
    Ok(ReadConnection {
        conn,
        snapshot: Some(snapshot),
    })
}

/// `file:PATH?immutable=1`: no locks, no `-shm`, no journal (SQLite reads the file as it is).
fn open_immutable(path: &Path) -> Result<Connection, OpenError> {
    let mut uri = String::from("file:");
    for byte in path.as_os_str().as_encoded_bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' => {
                uri.push(char::from(*byte));
            }
            other => {
                use std::fmt::Write as _;
                let _ = write!(uri, "%{other:02X}");
            }
        }
    }
    uri.push_str("?immutable=1");
    Connection::open_with_flags(
        uri,
        OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_NO_MUTEX
            | OpenFlags::SQLITE_OPEN_URI,
    )
    .map_err(|error| OpenError::Port(map_err(error)))
}

fn sidecar(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Whether a rollback journal or a non-empty WAL lies beside the file.
fn journal_left(path: &Path) -> bool {
    ["-journal", "-wal"]
        .iter()
        .any(|suffix| fs::metadata(sidecar(path, suffix)).is_ok_and(|m| m.len() > 0))
}

/// A private copy of a ledger and its journal, removed when dropped.
#[derive(Debug)]
pub(crate) struct Snapshot {
    folder: PathBuf,
    file: PathBuf,
}

impl Snapshot {
    fn take(path: &Path) -> std::io::Result<Self> {
        // A fresh folder of this process: its pid and a counter, the next one if taken.
        static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let folder = loop {
            let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let folder =
                std::env::temp_dir().join(format!("cartera-snapshot-{}-{n}", std::process::id()));
            match fs::create_dir(&folder) {
                Ok(()) => break folder,
                Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists && n < 1000 => {}
                Err(error) => return Err(error),
            }
        };
        let snapshot = Self {
            file: folder.join("ledger.sqlite"),
            folder,
        };
        // The copies must be writable here: `fs::copy` keeps the read-only modes.
        let copy = |from: &Path, to: &Path| -> std::io::Result<()> {
            fs::copy(from, to)?;
            let mut permissions = fs::metadata(to)?.permissions();
            #[allow(clippy::permissions_set_readonly_false, reason = "our private copy")]
            permissions.set_readonly(false);
            fs::set_permissions(to, permissions)
        };
        copy(path, &snapshot.file)?;
        for suffix in ["-journal", "-wal"] {
            let from = sidecar(path, suffix);
            if from.is_file() {
                copy(&from, &sidecar(&snapshot.file, suffix))?;
            }
        }
        Ok(snapshot)
    }
}

impl Drop for Snapshot {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.folder);
    }
}

/// Opens an existing ledger for writing: never creates the file, refuses what is not a cartera
/// ledger (a blank SQLite file or a 0-byte file counts as a new ledger), then migrates.
pub(crate) fn open_writable(path: &Path, create: bool) -> Result<Connection, OpenError> {
    match file_kind(path)? {
        FileKind::Missing if !create => return Err(OpenError::Missing),
        FileKind::Missing | FileKind::Empty | FileKind::Sqlite => {}
    }
    let mut flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    if create {
        flags |= OpenFlags::SQLITE_OPEN_CREATE;
    }
    let conn = Connection::open_with_flags(path, flags)
        .map_err(|error| OpenError::Port(map_err(error)))?;
    conn.busy_timeout(crate::BUSY_TIMEOUT)
        .map_err(|error| OpenError::Port(map_err(error)))?;
    identity(&conn)?;
    Ok(conn)
}

/// Runs the migrations, naming the versions (never SQL) when one fails.
pub(crate) fn migrate(conn: &mut Connection) -> Result<(), OpenError> {
    let found: i64 = conn
        .query_row("PRAGMA user_version", [], |row| row.get(0))
        .map_err(|error| OpenError::Port(map_err(error)))?;
    schema::migrate(conn).map_err(|error| match error {
        PortError::SchemaTooNew { found, supported } => {
            OpenError::SchemaTooNew { found, supported }
        }
        PortError::Busy { .. } | PortError::ReadOnly | PortError::Unavailable { .. } => {
            OpenError::Port(error)
        }
        _ => OpenError::UpgradeFailed {
            found,
            supported: SCHEMA_VERSION,
        },
    })
}

impl crate::SqliteLedger {
    /// Whether the ledger holds nothing a command wrote: no import, setting, account, edit,
    /// link, and a ledger version of 0 (a file created by a command that then failed).
    pub fn holds_nothing(&self) -> use_cases::PortResult<bool> {
        self.conn
            .query_row(
                "SELECT (SELECT value FROM meta WHERE key = 'ledger_version') = 0 \
                 AND NOT EXISTS (SELECT 1 FROM import_log) \
                 AND NOT EXISTS (SELECT 1 FROM settings) \
                 AND NOT EXISTS (SELECT 1 FROM accounts) \
                 AND NOT EXISTS (SELECT 1 FROM overrides) \
                 AND NOT EXISTS (SELECT 1 FROM custody_links)",
                [],
                |row| row.get(0),
            )
            .map_err(map_err)
    }
}
