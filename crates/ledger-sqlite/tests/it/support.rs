//! Builders and a self-cleaning temporary folder.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use core_domain::{Asset, AssetAmount, Date, Fee, Instant, StatedAmount, TxType};
use ledger_sqlite::SqliteLedger;
use rust_decimal::Decimal;
use shared_types::SpotTxType;
use use_cases::ports::{ImportBatch, NewImportLog, NewSpotRecord};

/// A folder under the system temp dir, removed on drop.
pub(crate) struct TempDir(PathBuf);

impl TempDir {
    pub(crate) fn new() -> Self {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let path =
            std::env::temp_dir().join(format!("cartera-ledger-sqlite-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        Self(path)
    }

    pub(crate) fn ledger_path(&self) -> PathBuf {
        self.0.join("ledger.sqlite")
    }

    pub(crate) fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub(crate) fn dec(text: &str) -> Decimal {
    Decimal::from_str_exact(text).unwrap()
}

pub(crate) fn asset(symbol: &str) -> Asset {
    Asset::new(symbol).unwrap()
}

pub(crate) fn instant(text: &str) -> Instant {
    Instant::parse(text).unwrap()
}

pub(crate) fn date(text: &str) -> Date {
    Date::parse_from_str(text, "%Y-%m-%d").unwrap()
}

#[allow(clippy::unnecessary_wraps)] // Builds the optional fields of a record.
pub(crate) fn amount(quantity: &str, symbol: &str) -> Option<AssetAmount> {
    Some(AssetAmount {
        asset: asset(symbol),
        quantity: dec(quantity),
    })
}

#[allow(clippy::unnecessary_wraps)] // Builds the optional fields of a record.
pub(crate) fn fee(quantity: &str, symbol: &str) -> Option<Fee> {
    Some(Fee {
        asset: asset(symbol),
        quantity: dec(quantity),
    })
}

#[allow(clippy::unnecessary_wraps)] // Builds the optional fields of a record.
pub(crate) fn stated(value: &str, currency: &str) -> Option<StatedAmount> {
    Some(StatedAmount {
        amount: dec(value),
        currency: asset(currency),
    })
}

/// A BUY of `qty` BTC for 100 EUR on `account` at `at`, first source line `line`.
pub(crate) fn buy(key: &str, account: &str, at: &str, line: u64) -> NewSpotRecord {
    NewSpotRecord {
        account: account.to_owned(),
        row_key: key.to_owned(),
        content_key: None,
        dedupe_by_content_key: false,
        tx_type: TxType::Spot(SpotTxType::Buy),
        instant: instant(at),
        inflow: amount("0.01", "BTC"),
        outflow: amount("100", "EUR"),
        fee: fee("1.5", "EUR"),
        stated_value: None,
        stated_price: None,
        stated_fee_value: None,
        transfer_group_id: None,
        source_ref: Some(format!("ref-{key}")),
        note: None,
        source_lines: vec![line],
    }
}

pub(crate) fn log(file: &str) -> NewImportLog {
    NewImportLog {
        imported_at: instant("2026-01-01T00:00:00Z"),
        file_name: file.to_owned(),
        file_sha256: "00".repeat(32),
        format: "generic".to_owned(),
        ..NewImportLog::default()
    }
}

pub(crate) fn batch(file: &str, spot: Vec<NewSpotRecord>) -> ImportBatch {
    ImportBatch {
        log: log(file),
        spot,
        ..ImportBatch::default()
    }
}

pub(crate) fn memory() -> SqliteLedger {
    SqliteLedger::open_in_memory().unwrap()
}

/// The ledger at `path` opened twice: reading on one connection only, and splitting every large
/// read across a second connection from the first row on.
pub(crate) fn single_and_split(path: &Path) -> (SqliteLedger, SqliteLedger) {
    let open = |threshold| {
        SqliteLedger::open(path)
            .unwrap()
            .with_parallel_read_threshold(threshold)
    };
    (open(u64::MAX), open(1))
}
