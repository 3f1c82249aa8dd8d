//! Reading exchange exports, price files and ECB rates into normalised cartera records
//! (`imports.md` stages 1–6: decoding, detection, parsing, normalisation, identities).
//!
//! Everything here is a pure function of the file bytes and the options: no database, clock,
//! environment or network. The CLI maps the plain output types to store records (stage 7).
//!
//! # Public API
//!
//! - [`import_bytes`] / [`import_file`]: one exchange or generic file → [`ImportResult`]
//!   (profile and layout, rows read, normalised [`Transaction`]s in insertion order, Kraken
//!   futures [`FuturesRecord`]s, skipped rows by [`SkipReason`], and every [`Finding`] with line,
//!   column, header, code and message; render one with [`Finding::render`]).
//! - [`usage_error`]: the option errors knowable before reading (when `--format` is given).
//! - [`rates::parse_ecb`]: ECB `eurofxref-hist.csv` / `eurofxref.csv`, also as ZIP.
//! - [`prices::parse`]: daily price CSV, `timestamp,price` series, Kraken OHLCVT candles.
//! - [`TZDB_VERSION`]: the bundled IANA time-zone database version.
//!
//! A result with errors must not be written unless the user passed `--skip-invalid`, and then
//! only when [`ImportResult::file_rejected`] is false: the returned transactions are exactly
//! the valid operations of the file.

mod model;
mod ops;
mod pipeline;
mod profiles;
mod reader;
mod values;
mod workbook;

pub mod prices;
pub mod rates;
pub mod records;

pub use model::{
    Finding, FormatInfo, FuturesRecord, ImportOptions, ImportResult, Level, Profile, SkipReason,
    TZDB_VERSION, Transaction, Zone,
};
pub use pipeline::{Chunk, Streamed, usage_error};
pub use values::validate_account_name;

/// Reads one exchange or generic file (stages 1–6).
pub fn import_bytes(bytes: &[u8], options: &ImportOptions) -> ImportResult {
    tidy(pipeline::run(bytes, options))
}

/// Every finding leaves the crate with short, escaped quotes ([`Finding::tidy`]).
fn tidy(mut result: ImportResult) -> ImportResult {
    result.findings.iter_mut().for_each(Finding::tidy);
    result
}

fn tidy_streamed(streamed: Streamed) -> Streamed {
    match streamed {
        Streamed::Done(result) => Streamed::Done(tidy(result)),
        other => other,
    }
}

/// Stages 1–6 of a generic CSV, a Bitvavo export, a Coinbase report or a Binance statement
/// whose rows are in time order, handing the transactions to `sink` in insertion order, in
/// chunks ([`Chunk::Transactions`]), while the file is read: memory holds a chunk, not the
/// file's transactions, and the caller can write one chunk while the next is parsed. A file
/// out of time order, a Kraken ledgers file or a Kraken futures log is [`Streamed::Unsorted`]
/// (read it with [`import_read_any_order`] or [`import_bytes`]), a Binance statement that
/// must be read whole [`Streamed::Declined`] (read it with [`import_bytes`]). After the
/// first invalid row no more chunks are sent unless `send_after_errors` (`--skip-invalid`);
/// the whole file is still read, so the result reports every invalid row.
pub fn import_bytes_streaming(
    bytes: &[u8],
    options: &ImportOptions,
    send_after_errors: bool,
    sink: &mut dyn FnMut(Chunk) -> bool,
) -> Streamed {
    tidy_streamed(pipeline::run_streaming(
        bytes,
        options,
        send_after_errors,
        sink,
    ))
}

/// [`import_bytes_streaming`] of a file read block by block from `source` (`size`: its
/// length as far as known, a capacity hint): memory holds a block and a chunk, not the file
/// (`imports.md` §1.2). UTF-8 is checked as the file is read; a file that is not UTF-8 ends
/// as `not-utf8` alone, its chunks sent so far void. Also returns the lowercase hex SHA-256
/// of the file's bytes for the import log (empty when the file could not be read to its end).
pub fn import_read_streaming(
    source: &mut dyn std::io::Read,
    size: usize,
    options: &ImportOptions,
    send_after_errors: bool,
    sink: &mut dyn FnMut(Chunk) -> bool,
) -> (Streamed, String) {
    let (streamed, sha256) =
        pipeline::run_streaming_read(source, size, options, (send_after_errors, false), sink);
    (tidy_streamed(streamed), sha256)
}

/// [`import_read_streaming`] of a file in any time order (a Kraken ledgers file or a Kraken
/// futures log too, which the time-order read leaves [`Streamed::Unsorted`]; a futures log's
/// records come as [`Chunk::Futures`], in file order): it is never [`Streamed::Unsorted`]; a
/// Kraken ledgers file neither oldest nor newest first, a Binance statement out of time
/// order, or a Kraken file with a trade group split by another time, is
/// [`Streamed::Declined`] (read it with [`import_bytes`]); the transactions come in file
/// order (a Kraken operation when it is complete), each with the identity the whole-file
/// read gives it (content-key ordinals are counted over the file, so memory holds
/// the file's identities as `imports.md` §1.2 allows), and account names as the row spells
/// them. The caller writes them in insertion order: ascending (timestamp, first line), then
/// the order received, which keeps the transactions of one row in their order.
pub fn import_read_any_order(
    source: &mut dyn std::io::Read,
    size: usize,
    options: &ImportOptions,
    send_after_errors: bool,
    sink: &mut dyn FnMut(Chunk) -> bool,
) -> (Streamed, String) {
    let (streamed, sha256) =
        pipeline::run_streaming_read(source, size, options, (send_after_errors, true), sink);
    (tidy_streamed(streamed), sha256)
}

/// Reads one file from disk; an unreadable file is the file-level error `file-unreadable`.
pub fn import_file(path: &std::path::Path, options: &ImportOptions) -> ImportResult {
    match std::fs::read(path) {
        Ok(bytes) => import_bytes(&bytes, options),
        Err(e) => tidy(ImportResult {
            findings: vec![reader::file_error_dash(
                "file-unreadable",
                format!("cannot read the file: {e}"),
            )],
            ..ImportResult::default()
        }),
    }
}
