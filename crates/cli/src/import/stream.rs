//! The streamed import of a large generic, Bitvavo, Coinbase, Kraken ledgers, Binance or
//! Kraken futures file: one thread parses and validates the file in chunks while this one
//! writes each chunk into the open store transaction, so parsing and inserting overlap on
//! two cores and memory holds a few chunks, not the file's records.
//!
//! `imports.md` §1.15 orders stages 1–6 before stage 7 opens the transaction; what it
//! protects is observable: nothing of the file is visible before the commit, and a file with
//! an invalid row writes nothing and reports every invalid row. Both hold here: the rows go
//! into an uncommitted transaction, the parser reads the whole file even after an invalid
//! row (it only stops sending chunks), and the transaction is committed only when the parse
//! ended without errors (or `--skip-invalid`), otherwise rolled back.

use std::sync::mpsc;

use importers::{Chunk, ImportOptions, ImportResult, Streamed};
use ledger_sqlite::{StreamEnd, StreamOrder, StreamPlan, StreamRecord};
use use_cases::ports::{NewFuturesRecord, NewSpotRecord};

use super::{ImportArgs, Progress, RecordPosition};
use crate::report::{FileReport, FileResult, RowCounts};

/// Files from this size (about 50,000 generic rows) are streamed.
const STREAM_MIN_BYTES: usize = 3 << 20;

/// Chunks in flight between the parser and the writer.
const CHANNEL_CHUNKS: usize = 4;

/// A spot record, or a futures record of a Kraken futures log.
enum Record {
    Spot(NewSpotRecord),
    Futures(NewFuturesRecord),
}

/// A store record with what a duplicate warning needs of its source.
struct Item {
    record: Record,
    key_column: Option<usize>,
    identity_key: String,
}

impl Item {
    fn store_record(&self) -> StreamRecord<'_> {
        match &self.record {
            Record::Spot(r) => StreamRecord::Spot(r),
            Record::Futures(r) => StreamRecord::Futures(r),
        }
    }

    fn source_lines(&self) -> &[u64] {
        match &self.record {
            Record::Spot(r) => &r.source_lines,
            Record::Futures(r) => &r.source_lines,
        }
    }
}

/// What the parser thread hands back.
struct Parsed {
    streamed: Streamed,
    /// Source lines of the records sent (sorted and deduplicated by the writer side).
    lines: Vec<u64>,
    /// The file's digest for the import log.
    sha256: String,
}

/// The bytes of a file to stream; a file out of time order is read twice.
#[derive(Clone, Copy)]
pub(super) enum Source<'a> {
    File(&'a std::path::Path),
    Bytes(&'a [u8]),
}

impl<'a> Source<'a> {
    fn open(self) -> Option<Box<dyn std::io::Read + Send + 'a>> {
        match self {
            Self::File(path) => std::fs::File::open(path)
                .ok()
                .map(|f| Box::new(f) as Box<dyn std::io::Read + Send>),
            Self::Bytes(bytes) => Some(Box::new(bytes)),
        }
    }
}

/// How one streamed pass ended.
#[allow(clippy::large_enum_variant)] // One per pass, taken apart at once.
enum Pass {
    Report(FileReport),
    /// A Kraken ledgers or Binance file that must be read whole, or it could not be opened:
    /// nothing was written.
    Declined,
    /// A row out of time order: nothing was written; read it again staged.
    Unsorted,
}

/// Imports a large generic, Bitvavo, Coinbase, Kraken ledgers, Binance or Kraken futures
/// file through the streamed path, reading it block by block from `source` (`size` bytes):
/// first in time order, and when a row comes out of order (a Kraken file at once), again
/// with the rows staged in the store (`StreamOrder::Any`), so a file in any order is read in
/// bounded memory (a Binance file out of order is read whole), into a ledger of any size
/// (the store checks each spot record against a larger ledger's key index). `None` when the
/// file is not one (other formats, small files, a Kraken or Binance file to read whole): the
/// caller then takes the batch path, nothing having been written.
pub(super) fn import(
    store: &mut ledger_sqlite::SqliteLedger,
    name: &str,
    source: Source<'_>,
    size: usize,
    options: &ImportOptions,
    args: &ImportArgs,
) -> Option<FileReport> {
    if size < STREAM_MIN_BYTES {
        return None;
    }
    let progress = Progress::sized(name, size);
    let mut pass = |order| match source.open() {
        Some(mut read) => import_streamed(
            store, name, &mut *read, size, options, args, &progress, order,
        ),
        None => Pass::Declined,
    };
    let mut result = pass(StreamOrder::Insertion);
    if matches!(result, Pass::Unsorted) {
        result = pass(StreamOrder::Any);
    }
    progress.finish();
    match result {
        Pass::Report(report) => Some(report),
        Pass::Declined | Pass::Unsorted => None,
    }
}

/// A streamed read of the importers: source, size, options, send after errors, sink.
type StreamRead = fn(
    &mut dyn std::io::Read,
    usize,
    &ImportOptions,
    bool,
    &mut dyn FnMut(Chunk) -> bool,
) -> (Streamed, String);

/// The importers' read for records that arrive in `order`.
fn reader(order: StreamOrder) -> StreamRead {
    match order {
        StreamOrder::Any => importers::import_read_any_order,
        StreamOrder::Insertion => importers::import_read_streaming,
    }
}

/// The store records of a chunk; their source lines go to `lines`.
fn items(chunk: Chunk, lines: &mut Vec<u64>) -> Vec<Item> {
    match chunk {
        Chunk::Transactions(chunk) => chunk
            .into_iter()
            .map(|mut t| {
                lines.extend_from_slice(&t.lines);
                let key_column = t.key_column;
                let by_content = t.matches_by_content_key();
                let identity_key = std::mem::take(&mut t.identity_key);
                Item {
                    record: Record::Spot(super::spot_record(t, by_content)),
                    key_column,
                    identity_key,
                }
            })
            .collect(),
        Chunk::Futures(chunk) => chunk
            .into_iter()
            .map(|mut f| {
                lines.push(f.line);
                let key_column = f.key_column;
                let identity_key = std::mem::take(&mut f.identity_key);
                Item {
                    record: Record::Futures(super::futures_record(f)),
                    key_column,
                    identity_key,
                }
            })
            .collect(),
    }
}

#[allow(clippy::too_many_arguments)] // One pass of `import`, with its arguments.
fn import_streamed(
    store: &mut ledger_sqlite::SqliteLedger,
    name: &str,
    source: &mut (dyn std::io::Read + Send),
    size: usize,
    options: &ImportOptions,
    args: &ImportArgs,
    progress: &Progress,
    order: StreamOrder,
) -> Pass {
    // About how many records the file holds: the store chooses its write mode by it.
    let records = size / 64;
    let skip_invalid = args.skip_invalid;
    let dry_run = args.dry_run;
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::sync_channel::<Vec<Item>>(CHANNEL_CHUNKS);
        // Written chunks are freed here, off the writing thread (the critical path).
        let (retired, to_free) = mpsc::channel::<Vec<Item>>();
        scope.spawn(move || to_free.into_iter().for_each(drop));
        let parser = scope.spawn(move || {
            let mut lines = Vec::with_capacity(records);
            let (streamed, sha256) =
                reader(order)(source, size, options, skip_invalid, &mut |chunk: Chunk| {
                    let items = items(chunk, &mut lines);
                    sender.send(items).is_ok()
                });
            Parsed {
                streamed,
                lines,
                sha256,
            }
        });
        let mut parser = Some(parser);
        let mut parsed: Option<Parsed> = None;
        // Positions of the duplicates, in insertion order.
        let mut positions: Vec<(Vec<u64>, Option<usize>, String)> = Vec::new();
        let written = store.import_stream(
            StreamPlan { order, records },
            receiver.into_iter(),
            Item::store_record,
            |item, _| {
                positions.push((
                    item.source_lines().to_vec(),
                    item.key_column,
                    item.identity_key.clone(),
                ));
            },
            |chunk| {
                // Should the freeing thread be gone, the chunk is freed here instead.
                let _ = retired.send(chunk);
            },
            || {
                // The channel is closed: the parser is done.
                let Some(done) = parser.take().and_then(|p| p.join().ok()) else {
                    return StreamEnd::Abandon;
                };
                let end = match &done.streamed {
                    Streamed::Done(result)
                        if !result.file_rejected() && (skip_invalid || !result.has_errors()) =>
                    {
                        if dry_run {
                            StreamEnd::DryRun
                        } else {
                            let sha = done.sha256.clone();
                            StreamEnd::Commit(super::import_log(name, sha, result, args))
                        }
                    }
                    _ => StreamEnd::Abandon,
                };
                parsed = Some(done);
                end
            },
        );
        // A store failure ends the write early: the receiver is gone, so the parser reads on
        // without sending and finishes (its findings are still reported).
        if let Some(p) = parser.take() {
            parsed = p.join().ok();
        }
        let Some(parsed) = parsed else {
            return Pass::Declined;
        };
        let result = match parsed.streamed {
            Streamed::Done(result) => result,
            Streamed::Declined => return Pass::Declined,
            Streamed::Unsorted => return Pass::Unsorted,
        };
        progress.set_message(format!("finishing {name}"));
        Pass::Report(report(
            store,
            name,
            &result,
            parsed.lines,
            &positions,
            written,
            args,
        ))
    })
}

fn report(
    store: &ledger_sqlite::SqliteLedger,
    name: &str,
    result: &ImportResult,
    mut lines: Vec<u64>,
    positions: &[(Vec<u64>, Option<usize>, String)],
    written: use_cases::PortResult<use_cases::ports::ImportOutcome>,
    args: &ImportArgs,
) -> FileReport {
    let mut report = FileReport::new(name, "transactions");
    super::describe_parse(&mut report, result);
    if result.file_rejected() || (result.has_errors() && !args.skip_invalid) {
        report.finish(FileResult::Rejected);
        return report;
    }
    let outcome = match written {
        Ok(outcome) => outcome,
        Err(error) => {
            report.reject_store_error(result.header_line.unwrap_or(1), &error);
            return report;
        }
    };
    report.added = outcome.added_spot + outcome.added_futures;
    report.duplicates = outcome.duplicates.len() as u64;
    let mut duplicate_lines = std::collections::BTreeSet::new();
    for (duplicate, (lines, key_column, identity_key)) in outcome.duplicates.iter().zip(positions) {
        let position: RecordPosition = super::position(
            lines.clone(),
            *key_column,
            identity_key,
            &result.header_cells,
        );
        duplicate_lines.extend(position.lines.iter().copied());
        super::warn_duplicate(store, &mut report, duplicate, &position);
    }
    lines.sort_unstable();
    lines.dedup();
    let duplicate_rows = duplicate_lines.len() as u64;
    report.rows = Some(RowCounts {
        added: (lines.len() as u64).saturating_sub(duplicate_rows),
        duplicate: duplicate_rows,
        skipped: result.skipped_total(),
        invalid: result.invalid_rows,
    });
    report.finish(if args.dry_run {
        FileResult::DryRun
    } else if result.has_errors() {
        FileResult::ImportedWithInvalidRows
    } else {
        FileResult::Imported
    });
    report
}
