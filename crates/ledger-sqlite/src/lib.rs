//! The embedded SQLite ledger of cartera: schema, migrations and the storage ports.
//!
//! [`SqliteLedger`] implements every port of `use_cases::ports` over one SQLite file (bundled
//! SQLite, WAL journal, STRICT tables). The schema is versioned through `user_version` and
//! migrated on open, one transaction per migration. Amounts are stored as exact decimal text,
//! never as REAL; instants as integer nanoseconds; assets and accounts as integer ids, so a
//! million rows load in well under a second. Every write is one transaction and bumps the
//! ledger version when it changes what reports read. [`ReadOnlyLedger`] opens the file with
//! `SQLITE_OPEN_READ_ONLY` and implements the read ports only: the AI surface gets that.

mod codec;
mod error;
mod open;
mod provenance;
mod read;
mod schema;
mod series;
mod write;

pub use provenance::{PriceSource, RateSource};

use std::path::Path;

use rusqlite::Connection;
use use_cases::PortResult;

use crate::error::map_err;

pub use open::OpenError;
pub use schema::SCHEMA_VERSION;
pub use write::{StreamEnd, StreamOrder, StreamPlan, StreamRecord};

/// A ledger store over one SQLite file.
#[derive(Debug)]
pub struct SqliteLedger {
    conn: Connection,
    /// Import batches with at least this many spot records may take the bulk path.
    bulk_min_records: usize,
    /// Open `LedgerRead::begin_read` scopes; the outermost one owns the read transaction.
    read_depth: std::cell::Cell<u32>,
    /// From this many spot rows on, a full read decodes half of them on a second connection.
    parallel_read_min_rows: u64,
    /// The private copy a read-only open reads when the storage could not be read in place
    /// (`open.rs`); dropped after `conn`.
    _snapshot: Option<open::Snapshot>,
}

impl SqliteLedger {
    /// Opens (creating when absent) a ledger for reading and writing, migrating its schema.
    /// A file that is not a cartera ledger is refused and left untouched.
    pub fn open(path: impl AsRef<Path>) -> PortResult<Self> {
        Self::create_or_open(path).map_err(Into::into)
    }

    /// [`SqliteLedger::open`] with the reason a file is refused.
    pub fn create_or_open(path: impl AsRef<Path>) -> Result<Self, OpenError> {
        let conn = open::open_writable(path.as_ref(), true)?;
        Self::init_writable(conn)
    }

    /// Opens an existing ledger for reading and writing, migrating its schema; never creates
    /// the file, and refuses a file that is not a cartera ledger.
    pub fn open_existing(path: impl AsRef<Path>) -> Result<Self, OpenError> {
        let conn = open::open_writable(path.as_ref(), false)?;
        Self::init_writable(conn)
    }

    /// An in-memory ledger (tests, dry experiments).
    pub fn open_in_memory() -> PortResult<Self> {
        let conn = Connection::open_in_memory().map_err(map_err)?;
        Self::init_writable(conn).map_err(Into::into)
    }

    /// Opens an existing ledger read-only: reads work, every write fails with
    /// `PortError::ReadOnly`. Prefer [`ReadOnlyLedger`], which has no write methods.
    pub fn open_read_only(path: impl AsRef<Path>) -> PortResult<Self> {
        Self::open_reader(path).map_err(Into::into)
    }

    /// Opens an existing ledger read-only without creating or migrating anything, also after
    /// an interrupted import and on read-only storage (`open.rs`); a file that is not a
    /// cartera ledger, or one of another schema version, is refused as such.
    pub fn open_reader(path: impl AsRef<Path>) -> Result<Self, OpenError> {
        let read = open::open_read_only(path.as_ref())?;
        configure(&read.conn, false)?;
        Ok(Self {
            conn: read.conn,
            bulk_min_records: write::BULK_MIN_RECORDS,
            read_depth: std::cell::Cell::new(0),
            parallel_read_min_rows: read::PARALLEL_READ_MIN_ROWS,
            _snapshot: read.snapshot,
        })
    }

    fn init_writable(mut conn: Connection) -> Result<Self, OpenError> {
        configure(&conn, true)?;
        open::migrate(&mut conn)?;
        Ok(Self {
            conn,
            bulk_min_records: write::BULK_MIN_RECORDS,
            read_depth: std::cell::Cell::new(0),
            parallel_read_min_rows: read::PARALLEL_READ_MIN_ROWS,
            _snapshot: None,
        })
    }

    /// Sets the batch size from which an import may take the bulk path (drop the key index,
    /// append, rebuild it). Tests use it to run both paths on small batches.
    #[doc(hidden)]
    #[must_use]
    pub fn with_bulk_threshold(mut self, records: usize) -> Self {
        self.bulk_min_records = records;
        self
    }

    /// Sets the spot-row count from which a full read, and the price-window count from which a
    /// read of price candidates, splits across two connections. Tests use it to run both paths
    /// on small ledgers.
    #[doc(hidden)]
    #[must_use]
    pub fn with_parallel_read_threshold(mut self, rows: u64) -> Self {
        self.parallel_read_min_rows = rows;
        self
    }

    /// The schema version of the open file.
    pub fn schema_version(&self) -> PortResult<i64> {
        self.conn
            .query_row("PRAGMA user_version", [], |row| row.get(0))
            .map_err(map_err)
    }
}

/// How long a statement waits for another connection's lock.
pub(crate) const BUSY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// The page cache (negative: KiB): 64 MiB.
const DEFAULT_CACHE_KIB: i64 = -65_536;

/// The memory-map limit of a connection.
const MMAP_BYTES: i64 = 1 << 30;

fn configure(conn: &Connection, writable: bool) -> PortResult<()> {
    conn.busy_timeout(BUSY_TIMEOUT).map_err(map_err)?;
    if writable {
        // 8 KiB pages: shallower B-trees for the row-key index (only effective on a new file).
        conn.pragma_update(None, "page_size", 8192)
            .map_err(map_err)?;
        // Foreign keys stay declared but unenforced (SQLite's default): every reference is
        // written by this crate inside the transaction that creates its target, and the check
        // would cost two B-tree probes per imported row.
        // WAL: readers (the MCP server) never block the importer and vice versa; NORMAL
        // synchronous is crash-safe in WAL mode (a crash loses no committed-and-synced data
        // and never leaves a partial transaction).
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(map_err)?;
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(map_err)?;
    }
    conn.pragma_update(None, "temp_store", "MEMORY")
        .map_err(map_err)?;
    // 64 MiB of page cache: a 1M-row ledger's hot tables fit, so loads and bulk inserts stay in
    // memory.
    conn.pragma_update(None, "cache_size", DEFAULT_CACHE_KIB)
        .map_err(map_err)?;
    // Memory-mapped reads spare a copy per page on the ledger load.
    conn.pragma_update(None, "mmap_size", MMAP_BYTES)
        .map_err(map_err)?;
    Ok(())
}

/// A ledger opened with `SQLITE_OPEN_READ_ONLY` that implements only the read ports.
#[derive(Debug)]
pub struct ReadOnlyLedger {
    inner: SqliteLedger,
}

impl ReadOnlyLedger {
    /// Opens an existing ledger read-only.
    pub fn open(path: impl AsRef<Path>) -> PortResult<Self> {
        Self::open_reader(path).map_err(Into::into)
    }

    /// Opens an existing ledger read-only ([`SqliteLedger::open_reader`]).
    pub fn open_reader(path: impl AsRef<Path>) -> Result<Self, OpenError> {
        SqliteLedger::open_reader(path).map(|inner| Self { inner })
    }
}
