//! The price import: merges a batch into the compact series of `series.rs`, each touched
//! (asset, year, quote) blob read once and written once, in the batch's one transaction.

use std::collections::HashMap;

use rusqlite::{OptionalExtension, Transaction, TransactionBehavior};
use rust_decimal::Decimal;
use use_cases::PortResult;
use use_cases::ports::{ConflictPolicy, MarketConflict, MarketOutcome, PriceBatch, WriteMode};

use super::{Ids, end_market_write, insert_log};
use crate::SqliteLedger;
use crate::codec::{day_of, decimal_text, invalid};
use crate::error::{corrupt, map_err};
use crate::series::{
    ENTRY, check_len, entry_close, entry_day, entry_import_id, push_entry, year_of,
};

/// One (asset, year, quote) blob being merged.
struct Blob {
    bytes: Vec<u8>,
    dirty: bool,
}

impl Blob {
    fn load(tx: &Transaction<'_>, (asset, year, quote): (i64, i64, i64)) -> PortResult<Self> {
        let bytes: Option<Vec<u8>> = tx
            .prepare_cached(
                "SELECT closes FROM price_series WHERE asset_id = ?1 AND year = ?2 AND quote_id = ?3",
            )
            .and_then(|mut s| s.query_row((asset, year, quote), |row| row.get(0)).optional())
            .map_err(map_err)?;
        let bytes = bytes.unwrap_or_default();
        check_len(&bytes)?;
        Ok(Self {
            bytes,
            dirty: false,
        })
    }

    /// `Ok(index)` of the entry dated `day`, else `Err(index)` where it goes.
    fn find(&self, day: i32) -> Result<usize, usize> {
        let count = self.bytes.len() / ENTRY;
        // Imports mostly append: try the end first.
        if count == 0 || self.day_at(count - 1) < day {
            return Err(count);
        }
        let (mut low, mut high) = (0usize, count);
        while low < high {
            let mid = low + (high - low) / 2;
            match self.day_at(mid).cmp(&day) {
                std::cmp::Ordering::Less => low = mid + 1,
                std::cmp::Ordering::Greater => high = mid,
                std::cmp::Ordering::Equal => return Ok(mid),
            }
        }
        Err(low)
    }

    fn day_at(&self, index: usize) -> i32 {
        entry_day(self.bytes.get(index * ENTRY..).unwrap_or_default())
    }

    fn close_at(&self, index: usize) -> Decimal {
        entry_close(self.bytes.get(index * ENTRY..).unwrap_or_default())
    }

    fn insert(&mut self, index: usize, day: i32, close: Decimal, import: u32) {
        let mut entry = Vec::with_capacity(ENTRY);
        push_entry(&mut entry, day, close, import);
        let at = (index * ENTRY).min(self.bytes.len());
        self.bytes.splice(at..at, entry);
        self.dirty = true;
    }

    /// Replaces the close of entry `index`; the replacing file becomes its provenance.
    fn set(&mut self, index: usize, close: Decimal, import: u32) {
        if let Some(slot) = self.bytes.get_mut(index * ENTRY + 4..(index + 1) * ENTRY) {
            let (value, by) = slot.split_at_mut(16);
            value.copy_from_slice(&close.serialize());
            by.copy_from_slice(&import.to_le_bytes());
            self.dirty = true;
        }
    }
}

/// The latest close of one (asset, quote): `(day, close, import id)`.
struct Latest {
    value: Option<(i64, Decimal, i64)>,
    dirty: bool,
}

impl Latest {
    fn load(tx: &Transaction<'_>, (asset, quote): (i64, i64)) -> PortResult<Self> {
        let row: Option<(i64, String, i64)> = tx
            .prepare_cached(
                "SELECT day, close, import_id FROM price_latest WHERE asset_id = ?1 AND quote_id = ?2",
            )
            .and_then(|mut s| {
                s.query_row((asset, quote), |row| {
                    Ok((row.get(0)?, row.get(1)?, row.get(2)?))
                })
                .optional()
            })
            .map_err(map_err)?;
        let value = match row {
            None => None,
            Some((day, close, import)) => {
                let close = crate::codec::parse_decimal(close.as_bytes())
                    .ok_or_else(|| corrupt("latest close", &close))?;
                Some((day, close, import))
            }
        };
        Ok(Self {
            value,
            dirty: false,
        })
    }

    /// Records a close written for `day` by `import`.
    fn wrote(&mut self, day: i64, close: Decimal, import: i64) {
        if self.value.is_none_or(|(latest, _, _)| day >= latest) {
            self.value = Some((day, close, import));
            self.dirty = true;
        }
    }
}

pub(super) fn write_prices(
    ledger: &mut SqliteLedger,
    batch: &PriceBatch,
) -> PortResult<MarketOutcome> {
    let tx = ledger
        .conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(map_err)?;
    let import_id = insert_log(&tx, &batch.log)?;
    let entry_import = entry_import_id(import_id)?;
    let mut ids = Ids::load(&tx)?;
    let mut outcome = MarketOutcome::default();
    let mut blobs: HashMap<(i64, i64, i64), Blob> = HashMap::new();
    let mut latest: HashMap<(i64, i64), Latest> = HashMap::new();
    // Rows of a file come grouped by series or by day: remember the last blob's key.
    for (index, row) in batch.rows.iter().enumerate() {
        if row.close <= Decimal::ZERO {
            return Err(invalid(
                "market value",
                format!("row {index}: {} is not positive", row.close),
            ));
        }
        let asset = ids.asset(&tx, row.asset)?;
        let day = day_of(row.date);
        let quote = ids.asset(&tx, row.currency)?;
        let key = (asset, year_of(day), quote);
        let blob = match blobs.entry(key) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => e.insert(Blob::load(&tx, key)?),
        };
        let day32 = i32::try_from(day).map_err(|e| corrupt("price day", e))?;
        let wrote = match blob.find(day32) {
            Err(at) => {
                blob.insert(at, day32, row.close, entry_import);
                outcome.added += 1;
                true
            }
            Ok(at) => {
                let old = blob.close_at(at);
                if old == row.close {
                    outcome.duplicates += 1;
                    false
                } else {
                    outcome.conflicts.push(MarketConflict {
                        index,
                        stored: old,
                        new: row.close,
                    });
                    if batch.on_conflict == ConflictPolicy::Replace {
                        blob.set(at, row.close, entry_import);
                        outcome.replaced += 1;
                        true
                    } else {
                        false
                    }
                }
            }
        };
        if wrote {
            let entry = match latest.entry((asset, quote)) {
                std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(Latest::load(&tx, (asset, quote))?)
                }
            };
            entry.wrote(day, row.close, import_id);
        }
    }
    let rejected = batch.on_conflict == ConflictPolicy::Reject && !outcome.conflicts.is_empty();
    let keep = !rejected && batch.mode != WriteMode::DryRun;
    if keep {
        store(&tx, &blobs, &latest)?;
    }
    end_market_write(tx, import_id, keep, &mut outcome)?;
    Ok(outcome)
}

/// Writes the changed blobs and latest closes.
fn store(
    tx: &Transaction<'_>,
    blobs: &HashMap<(i64, i64, i64), Blob>,
    latest: &HashMap<(i64, i64), Latest>,
) -> PortResult<()> {
    let mut statement = tx
        .prepare_cached(
            "INSERT INTO price_series (asset_id, year, quote_id, n, closes) \
             VALUES (?1, ?2, ?3, ?4, ?5) \
             ON CONFLICT (asset_id, year, quote_id) \
             DO UPDATE SET n = excluded.n, closes = excluded.closes",
        )
        .map_err(map_err)?;
    // Sorted keys: the b-tree is written in order.
    let mut keys: Vec<&(i64, i64, i64)> = blobs
        .iter()
        .filter(|(_, b)| b.dirty)
        .map(|(k, _)| k)
        .collect();
    keys.sort_unstable();
    for key in keys {
        let Some(blob) = blobs.get(key) else {
            continue;
        };
        let n = i64::try_from(blob.bytes.len() / ENTRY).map_err(|e| corrupt("price series", e))?;
        statement
            .execute((key.0, key.1, key.2, n, &blob.bytes[..]))
            .map_err(map_err)?;
    }
    let mut statement = tx
        .prepare_cached(
            "INSERT INTO price_latest (asset_id, quote_id, day, close, import_id) \
             VALUES (?1, ?2, ?3, ?4, ?5) \
             ON CONFLICT (asset_id, quote_id) \
             DO UPDATE SET day = excluded.day, close = excluded.close, \
             import_id = excluded.import_id",
        )
        .map_err(map_err)?;
    for ((asset, quote), entry) in latest {
        if let (true, Some((day, close, import))) = (entry.dirty, entry.value) {
            statement
                .execute((asset, quote, day, decimal_text(close), import))
                .map_err(map_err)?;
        }
    }
    Ok(())
}
