//! `cartera demo [--keep DIR]`: the bundled sample exports, prices and ECB rates of
//! `crates/cli/demo/` imported into a fresh ledger through the same functions as `cartera
//! import`, `rates import` and `prices import`, then the portfolio and the IRPF report of every
//! year in the ledger. Offline: the files are compiled into the binary.

use crate::output::diag;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args;
use importers::prices::PriceOptions;

use crate::import::ImportArgs;
use crate::market::{PricesArgs, RatesArgs};
use crate::report::FileReport;
use crate::{Outcome, reports};

/// The ECB slice of the demo (`rates import`).
const RATES: (&str, &[u8]) = ("ecb-rates.csv", include_bytes!("../demo/ecb-rates.csv"));
/// Daily closes of the demo assets (`prices import`).
const PRICES: (&str, &[u8]) = (
    "prices-daily.csv",
    include_bytes!("../demo/prices-daily.csv"),
);
/// The five exchange exports, in the order of the demo README (`import`).
const EXPORTS: [(&str, &[u8]); 5] = [
    (
        "kraken-ledgers.csv",
        include_bytes!("../demo/kraken-ledgers.csv"),
    ),
    ("bitvavo.csv", include_bytes!("../demo/bitvavo.csv")),
    (
        "binance-statement.csv",
        include_bytes!("../demo/binance-statement.csv"),
    ),
    ("coinbase.csv", include_bytes!("../demo/coinbase.csv")),
    (
        "ledger-wallet.csv",
        include_bytes!("../demo/ledger-wallet.csv"),
    ),
];

#[derive(Debug, Args)]
pub(crate) struct DemoArgs {
    /// Build the ledger in DIR (DIR/ledger.sqlite) and keep it, instead of a temporary folder.
    #[arg(long, value_name = "DIR")]
    keep: Option<PathBuf>,
}

pub(crate) fn run(json: bool, args: &DemoArgs) -> Result<Outcome> {
    // The temporary folder lives until the end of the command.
    let temporary;
    let folder: &Path = if let Some(dir) = &args.keep {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the folder {}", dir.display()))?;
        dir
    } else {
        temporary = tempfile::tempdir().context("cannot create a temporary folder")?;
        temporary.path()
    };
    let ledger = folder.join("ledger.sqlite");
    if !build(&ledger)? {
        return Ok(Outcome::Failure);
    }
    let outcome = reports::print_demo(&ledger, json)?;
    if args.keep.is_some() {
        diag!(
            "the demo ledger is kept at {}; try `cartera --ledger {} tax 2024`",
            ledger.display(),
            ledger.display()
        );
    }
    Ok(outcome)
}

/// Imports the bundled files into `ledger`; `false` (after printing the findings) when a file
/// did not import cleanly. Importing twice into a kept folder adds nothing the second time.
pub(crate) fn build(ledger: &Path) -> Result<bool> {
    let mut store = crate::ledger_path::open_for_write(Some(ledger))?;
    let mut reports: Vec<FileReport> = Vec::with_capacity(EXPORTS.len() + 2);
    let (name, bytes) = RATES;
    reports.push(crate::market::import_rates(
        &mut store,
        name,
        bytes,
        &RatesArgs::default(),
    ));
    let (name, bytes) = PRICES;
    reports.push(crate::market::import_prices(
        &mut store,
        name,
        name,
        bytes,
        &PriceOptions::default(),
        &PricesArgs::default(),
    ));
    let import_args = ImportArgs::default();
    let options = crate::import::options(&import_args)?;
    for (name, bytes) in EXPORTS {
        reports.push(crate::import::import_data(
            &mut store,
            name,
            bytes,
            &options,
            &import_args,
        ));
    }
    let mut clean = true;
    for report in &reports {
        report.print_diagnostics();
        if report.failed() {
            clean = false;
        }
        diag!(
            "demo: {} {} ({} {}, {} already stored)",
            report.result,
            report.file,
            report.added,
            report.added_unit,
            report.duplicates
        );
    }
    Ok(clean)
}
