//! `cartera bench`: the synthetic ledger generator and the benchmark harness (`performance.md`).

pub(crate) mod engine;
pub(crate) mod generator;
pub(crate) mod run;
pub(crate) mod tools;

use crate::output::{diag, outln};
use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::{Args, Subcommand};

use crate::{Outcome, UsageError};

#[derive(Debug, Subcommand)]
pub(crate) enum BenchCommand {
    /// Write a deterministic synthetic ledger as import files (generic CSV, prices, ECB rates).
    #[command(
        after_help = "Example:\n  cartera bench gen --transactions 100k --seed 1 --out /tmp/bench-100k\n  \
                            cartera bench gen --transactions 10000 --seed 7 --out /tmp/k --format kraken-ledgers"
    )]
    Gen(GenArgs),
    /// Run the benchmark harness: import, engine, report and memory figures per size.
    #[command(after_help = "Example:\n  cartera bench run --sizes 10k,100k\n  \
                            cartera bench run --sizes 1m --runs 5 --out target/bench/results.json")]
    Run(run::RunArgs),
    /// Internal: time the engine in this process over an imported ledger and print JSON.
    #[command(hide = true)]
    Engine(engine::EngineArgs),
    /// Internal: where the time of `cartera tax YEAR --json` goes, phase by phase.
    #[command(hide = true)]
    Phases(engine::PhasesArgs),
    /// Internal: time every AI tool in this process (cold, warm, uncached) and print JSON.
    #[command(hide = true)]
    Tools(tools::ToolsArgs),
}

#[derive(Debug, Args)]
pub(crate) struct GenArgs {
    /// Number of transactions (rows of the generic CSV; a transfer is two): 10000, 100k, 1m.
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    transactions: String,
    /// Seed of the generator (an unsigned integer); same N and seed give byte-identical files.
    #[arg(long, value_name = "S", allow_hyphen_values = true)]
    seed: String,
    /// Output folder (created if absent).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Write Kraken ledger files (one per account) instead of the generic CSV.
    #[arg(long, value_name = "ID", value_parser = ["generic", "kraken-ledgers"])]
    format: Option<String>,
}

pub(crate) fn run(ledger: Option<&Path>, json: bool, command: &BenchCommand) -> Result<Outcome> {
    match command {
        BenchCommand::Gen(args) => run_gen(json, args),
        BenchCommand::Run(args) => run::run(args),
        BenchCommand::Engine(args) => engine::run(ledger, args),
        BenchCommand::Phases(args) => engine::phases(ledger, args),
        BenchCommand::Tools(args) => tools::run(ledger, args),
    }
}

/// A size as written on the command line: `10000`, `10k`, `1m`, `1_000_000`.
pub(crate) fn parse_size(text: &str) -> Result<u64, UsageError> {
    let clean: String = text.trim().replace('_', "").to_ascii_lowercase();
    let (digits, factor) = if let Some(d) = clean.strip_suffix('k') {
        (d, 1_000)
    } else if let Some(d) = clean.strip_suffix('m') {
        (d, 1_000_000)
    } else {
        (clean.as_str(), 1)
    };
    let bad = || UsageError {
        code: "bad-size",
        reason: format!(
            "\"{text}\" is not a number of transactions: write it as 10000, 100k or 1m \
             (from {} to {})",
            generator::MIN_TRANSACTIONS,
            generator::MAX_TRANSACTIONS
        ),
    };
    let n = digits
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(factor))
        .ok_or_else(bad)?;
    if !(generator::MIN_TRANSACTIONS..=generator::MAX_TRANSACTIONS).contains(&n) {
        return Err(UsageError {
            code: "bad-size",
            reason: format!(
                "{n} transactions is outside what the generator writes: give {} to {} \
                 (a ledger needs room for every operation kind; above the maximum the files \
                 outgrow a benchmark)",
                generator::MIN_TRANSACTIONS,
                generator::MAX_TRANSACTIONS
            ),
        });
    }
    Ok(n)
}

/// A seed: any unsigned 64-bit integer.
pub(crate) fn parse_seed(text: &str) -> Result<u64, UsageError> {
    text.trim().parse::<u64>().map_err(|_| UsageError {
        code: "bad-seed",
        reason: format!(
            "\"{text}\" is not a seed: give an unsigned integer from 0 to {}",
            u64::MAX
        ),
    })
}

/// `1000000` → `1m`, `100000` → `100k`: the label of a size in file names and tables.
pub(crate) fn size_label(n: u64) -> String {
    if n % 1_000_000 == 0 {
        format!("{}m", n / 1_000_000)
    } else if n % 1_000 == 0 {
        format!("{}k", n / 1_000)
    } else {
        n.to_string()
    }
}

fn run_gen(json: bool, args: &GenArgs) -> Result<Outcome> {
    let transactions = parse_size(&args.transactions)?;
    let seed = parse_seed(&args.seed)?;
    if args.out.is_file() {
        return Err(UsageError {
            code: "bad-out",
            reason: format!("--out {} is a file: name a folder", args.out.display()),
        }
        .into());
    }
    let format = match args.format.as_deref() {
        Some("kraken-ledgers") => generator::Format::KrakenLedgers,
        _ => generator::Format::Generic,
    };
    let started = std::time::Instant::now();
    let summary = generator::generate(transactions, seed, &args.out, format)?;
    if json {
        let document = serde_json::json!({
            "transactions": summary.transactions,
            "accounts": summary.accounts,
            "assets": summary.assets,
            "buys": summary.buys,
            "swaps": summary.swaps,
            "sales": summary.sales,
            "transferLegs": summary.transfer_legs,
            "income": summary.income,
            "uncoveredDisposals": summary.uncovered,
            "dust": summary.dust,
            "sameTimestamp": summary.same_timestamp,
            "priceRows": summary.price_rows,
            "rateRows": summary.rate_rows,
            "files": summary.files,
        });
        outln!("{}", serde_json::to_string_pretty(&document)?);
    } else {
        outln!(
            "{} transactions over {} accounts and {} assets ({} buys, {} swaps, {} sales, {} \
             transfer legs, {} income, {} uncovered disposals, {} dust, {} same-timestamp)",
            summary.transactions,
            summary.accounts,
            summary.assets,
            summary.buys,
            summary.swaps,
            summary.sales,
            summary.transfer_legs,
            summary.income,
            summary.uncovered,
            summary.dust,
            summary.same_timestamp,
        );
        outln!(
            "{} price rows, {} rate rows; files in {}: {}",
            summary.price_rows,
            summary.rate_rows,
            args.out.display(),
            summary.files.join(", ")
        );
    }
    diag!("generated in {:.1} s", started.elapsed().as_secs_f64());
    Ok(Outcome::Success)
}

/// When set, a `cartera` process prints its peak resident memory on stderr as it exits: how the
/// harness reads the report process's peak without a dependency on `wait4`.
pub(crate) const PEAK_VARIABLE: &str = "CARTERA_BENCH_PEAK";
/// The stderr line prefix of that figure (KiB follow).
pub(crate) const PEAK_PREFIX: &str = "cartera-bench-peak-kib ";

/// The stderr line prefix of the process's CPU time, user + system (seconds follow).
pub(crate) const CPU_PREFIX: &str = "cartera-bench-cpu-seconds ";

/// Prints the peak resident memory when the harness asked for it ([`PEAK_VARIABLE`]).
#[allow(
    clippy::disallowed_methods,
    clippy::print_stderr,
    reason = "the harness asks through the environment; the figure goes to stderr"
)]
pub(crate) fn report_peak_if_asked() {
    if std::env::var_os(PEAK_VARIABLE).is_some() {
        diag!("{PEAK_PREFIX}{}", engine::peak_kib());
        diag!("{CPU_PREFIX}{}", engine::cpu_seconds());
    }
}
