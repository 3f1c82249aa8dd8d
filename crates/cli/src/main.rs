//! The `cartera` binary: a thin command line over the use cases and the adapters.
//!
//! It parses arguments (clap), opens the SQLite ledger, runs the importers and the use cases,
//! and prints: data to stdout (aligned tables or `--json`), diagnostics and progress to stderr.
//! Exit codes: 0 success, 1 failure of the operation (bad input file, missing data), 2 bad
//! command-line usage (`cli.md`).
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "the binary is the one place that prints"
)]

mod import;
mod ledger_path;
mod market;
mod report;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// `cartera --version`: the version and the pinned time-zone database (`imports.md` §1.7).
const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (tzdb ", "{tzdb}", ")");

#[derive(Debug, Parser)]
#[command(
    name = "cartera",
    about = "Crypto portfolio and Spanish IRPF tax reports from exchange exports",
    disable_version_flag = true
)]
struct Cli {
    /// The ledger file (default: `$CARTERA_LEDGER`, else `<data dir>/cartera/ledger.sqlite`).
    #[arg(long, global = true, value_name = "PATH")]
    ledger: Option<PathBuf>,
    /// Print the result as one JSON document instead of tables.
    #[arg(long, global = true)]
    json: bool,
    /// Print the version and the bundled time-zone database version.
    #[arg(long, short = 'V')]
    version: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Import exchange exports into the ledger.
    #[command(
        after_help = "Example:\n  cartera import kraken-ledgers.csv bitvavo.csv\n  \
                            cartera import wallet.csv --format generic --dry-run"
    )]
    Import(import::ImportArgs),
    /// ECB reference rates.
    #[command(subcommand)]
    Rates(RatesCommand),
    /// Daily crypto prices.
    #[command(subcommand)]
    Prices(PricesCommand),
}

#[derive(Debug, Subcommand)]
enum RatesCommand {
    /// Import ECB euro reference rates (eurofxref-hist.csv, eurofxref.csv, or either as ZIP).
    #[command(after_help = "Example:\n  cartera rates import eurofxref-hist.zip")]
    Import(market::RatesArgs),
}

#[derive(Debug, Subcommand)]
enum PricesCommand {
    /// Import daily prices (date,symbol,close,currency files, Kraken OHLCVT, timestamp,price series).
    #[command(after_help = "Example:\n  cartera prices import prices.csv\n  \
                            cartera prices import btc.csv --format series --symbol BTC --currency EUR")]
    Import(market::PricesArgs),
}

/// What a command reports back to `main`.
pub(crate) enum Outcome {
    /// Everything succeeded.
    Success,
    /// The operation failed (exit 1); the command has already said why.
    Failure,
}

/// A usage error known before any file is read: printed as `cartera: error[<code>]: <reason>`,
/// exit status 2 (`imports.md` §4.1).
#[derive(Debug)]
pub(crate) struct UsageError {
    pub(crate) code: &'static str,
    pub(crate) reason: String,
}

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "error[{}]: {}", self.code, self.reason)
    }
}

impl std::error::Error for UsageError {}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            // clap prints help and version to stdout with exit 0, usage errors to stderr with 2.
            let _ = error.print();
            return ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2));
        }
    };
    if cli.version {
        println!(
            "cartera {}",
            VERSION.replace("{tzdb}", importers::TZDB_VERSION)
        );
        return ExitCode::SUCCESS;
    }
    let Some(command) = cli.command else {
        eprintln!("cartera: error: a command is required; see `cartera --help`");
        return ExitCode::from(2);
    };
    let result = match command {
        Command::Import(args) => import::run(cli.ledger.as_deref(), cli.json, &args),
        Command::Rates(RatesCommand::Import(args)) => {
            market::run_rates(cli.ledger.as_deref(), cli.json, &args)
        }
        Command::Prices(PricesCommand::Import(args)) => {
            market::run_prices(cli.ledger.as_deref(), cli.json, &args)
        }
    };
    match result {
        Ok(Outcome::Success) => ExitCode::SUCCESS,
        Ok(Outcome::Failure) => ExitCode::from(1),
        Err(error) => {
            if let Some(usage) = error.downcast_ref::<UsageError>() {
                eprintln!("cartera: error[{}]: {}", usage.code, usage.reason);
                return ExitCode::from(2);
            }
            eprintln!("cartera: error: {error:#}");
            ExitCode::from(1)
        }
    }
}
