//! The `cartera` binary: a thin command line over the use cases and the adapters.
//!
//! It parses arguments (clap), opens the SQLite ledger, runs the importers and the use cases,
//! and prints: data to stdout (aligned tables or `--json`), diagnostics and progress to stderr.
//! Exit codes: 0 success, 1 failure of the operation (bad input file, missing data), 2 bad
//! command-line usage (`cli.md`).
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "the binary is the one place that prints; results go through `output` (`out!`, \
              `outln!`, `diag!`), which never panics; no module here uses `println!`"
)]

mod ask;
mod bench;
mod conversations;
mod corrections;
mod csv_dialect;
mod demo;
mod exit;
mod guide;
mod html;
mod i18n;
mod import;
mod ledger_path;
mod market;
mod mcp;
mod output;
mod report;
mod reports;
mod session;
mod sync;
mod table;
mod tax_years;
mod tools;
mod worksheets;
mod writer_lock;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// mimalloc instead of the system allocator: a report process builds and frees a few hundred
/// MB of small records (rows, lots, price candidates, audit ids) and frees them in bulk; glibc's
/// malloc spent a tenth of such a run in page faults, `munmap` and consolidation.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `cartera --version`: the version and the pinned time-zone database (`imports.md` §1.7).
const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (tzdb ", "{tzdb}", ")");

#[derive(Debug, Parser)]
#[command(
    name = "cartera",
    about = "Crypto portfolio and Spanish IRPF tax reports from exchange exports",
    disable_version_flag = true,
    after_help = "Example:\n  cartera demo\n  cartera import kraken-ledgers.csv bitvavo.csv\n  \
                  cartera rates import eurofxref-hist.zip\n  cartera prices import prices.csv\n  \
                  cartera portfolio\n  cartera tax 2024\n  cartera tax 2022..2024"
)]
struct Cli {
    /// The ledger file (default: `$CARTERA_LEDGER`, else `<data dir>/cartera/ledger.sqlite`).
    #[arg(long, global = true, value_name = "PATH")]
    ledger: Option<PathBuf>,
    /// Print the result as one JSON document instead of tables.
    #[arg(long, global = true)]
    json: bool,
    /// Language of tables and messages: es or en (default: the display_language setting, else
    /// LC_ALL/LANG starting with `es`, else English). `--json` is the same in both.
    #[arg(long, global = true, value_name = "es|en")]
    lang: Option<String>,
    /// Print the version and the bundled time-zone database version.
    #[arg(long, short = 'V')]
    version: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Build a ledger from the bundled sample exports and print the portfolio and every IRPF year.
    #[command(
        after_help = "Example:\n  cartera demo\n  cartera demo --keep /tmp/cartera-demo\n  \
                            cartera --ledger /tmp/cartera-demo/ledger.sqlite tax 2024"
    )]
    Demo(demo::DemoArgs),
    /// Import exchange exports into the ledger.
    #[command(
        after_help = "Example:\n  cartera import kraken-ledgers.csv bitvavo.csv\n  \
                            cartera import wallet.csv --format generic --dry-run"
    )]
    Import(import::ImportArgs),
    /// ECB reference rates.
    #[command(after_help = "Example:\n  cartera sync\n  cartera sync --dry-run\n  \
                            cartera sync --provider kraken --provider coingecko")]
    Sync(sync::SyncArgs),
    #[command(subcommand)]
    Rates(RatesCommand),
    /// Daily crypto prices.
    #[command(subcommand)]
    Prices(PricesCommand),
    /// Holdings with average cost, cost basis, value, unrealized PnL and allocation.
    #[command(
        after_help = "Example:\n  cartera portfolio\n  cartera portfolio --currency USD\n  \
                            cartera portfolio --account Kraken"
    )]
    Portfolio(reports::PortfolioArgs),
    /// The IRPF report of a year with its Renta Web guide, or `tax compare YEAR_A YEAR_B`.
    #[command(
        after_help = "Example:\n  cartera tax 2024\n  cartera tax 2022..2024\n  cartera tax 2024 --csv out/\n  \
                            cartera tax 2024 --json\n  cartera tax compare 2023 2024"
    )]
    Tax(reports::TaxArgs),
    /// Data-quality findings grouped by flag, or the rows of one flag.
    #[command(
        after_help = "Example:\n  cartera integrity\n  cartera integrity --flag MISSING_PRICE"
    )]
    Integrity(reports::IntegrityArgs),
    /// The FIFO lots of one asset with their consumption history.
    #[command(after_help = "Example:\n  cartera lots BTC\n  cartera lots eth --page 2")]
    Lots(reports::LotsArgs),
    /// Search transactions, newest first (effective rows: edits applied).
    #[command(
        after_help = "Example:\n  cartera tx --symbol ETH --from 2024-01-01 --to 2024-12-31\n  \
                            cartera tx --type SELL --type SWAP --keys"
    )]
    Tx(reports::TxArgs),
    /// Holdings per custodian at the end of a date, with the Modelo 721 / 714 figures on 31 December.
    #[command(
        name = "holdings-at",
        after_help = "Example:\n  cartera holdings-at 2024-12-31"
    )]
    HoldingsAt(reports::HoldingsAtArgs),
    /// Read and write settings (fiscal_timezone, display_currency, display_language, irpf.*, modelo_721.last_filed, import.label_map, llm.*).
    #[command(
        after_help = "Example:\n  cartera settings\n  cartera settings get irpf.start_year\n  \
                            cartera settings set fiscal_timezone Atlantic/Canary\n  \
                            cartera settings unset fiscal_timezone"
    )]
    Settings(corrections::SettingsArgs),
    /// The account tree, and the custody kind and country of an account (Modelo 721 scope).
    #[command(after_help = "Example:\n  cartera accounts\n  \
                            cartera accounts set Kraken --kind FOREIGN_PROVIDER --country US")]
    Accounts(corrections::AccountsArgs),
    /// Override fields of one imported row (the row itself is kept), or --restore it.
    #[command(after_help = "Example:\n  cartera tx --symbol ETH --keys\n  \
                            cartera edit ROW --value 1580.20 --currency EUR --note \"DEX receipt\"\n  \
                            cartera edit ROW --exclude\n  cartera edit ROW --restore")]
    Edit(corrections::EditArgs),
    /// Join the two legs of a transfer, or name where an outgoing transfer went.
    #[command(
        after_help = "Example:\n  cartera link OUT_ROW IN_ROW\n  cartera link OUT_ROW --to Ledger\n  \
                            cartera link OUT_ROW --to ownwallet-BTC"
    )]
    Link(corrections::LinkArgs),
    /// Remove the custody links that name a row.
    #[command(after_help = "Example:\n  cartera unlink ROW")]
    Unlink(corrections::UnlinkArgs),
    /// The AI tools: list the catalogue of a profile, or call one tool on the ledger.
    #[command(
        subcommand,
        after_help = "Example:\n  cartera tools list\n  cartera tools call explain_metric '{\"metric\":\"hhi\"}'"
    )]
    Tools(tools::ToolsCommand),
    /// Serve the read-only AI tools over MCP on stdin and stdout (for Claude Desktop, Claude Code, local models).
    #[command(
        after_help = "Example:\n  cartera mcp --ledger ~/cartera/ledger.sqlite\n  \
                            cartera mcp --profile local --context-window 32768 --locale en"
    )]
    Mcp(mcp::McpArgs),
    /// Ask a language model about the ledger; it answers through the read-only AI tools.
    #[command(
        after_help = "Example:\n  cartera ask \"What is my portfolio worth?\" --endpoint http://localhost:11434/v1 --model qwen3:8b\n  \
                            cartera ask \"And in 2024?\" --continue\n  \
                            cartera ask \"IRPF 2024?\" --endpoint https://api.anthropic.com --model claude-sonnet-4-5 --json"
    )]
    Ask(ask::AskArgs),
    /// An interactive conversation with a language model over the read-only AI tools.
    #[command(
        after_help = "Example:\n  cartera chat --endpoint http://localhost:11434/v1 --model qwen3:8b\n  \
                            cartera chat --resume c3"
    )]
    Chat(ask::ChatArgs),
    /// Benchmarks: the synthetic ledger generator and the harness.
    #[command(subcommand)]
    Bench(bench::BenchCommand),
}

#[derive(Debug, Subcommand)]
enum RatesCommand {
    /// Import ECB euro reference rates (eurofxref-hist.csv, eurofxref.csv, or either as ZIP).
    #[command(after_help = "Example:\n  cartera rates import eurofxref-hist.zip")]
    Import(market::RatesArgs),
    #[command(after_help = "Example:\n  cartera rates sync\n  cartera rates sync --dry-run")]
    Sync(sync::RatesSyncArgs),
    #[command(after_help = "Example:\n  cartera rates list --currency USD --from 2024-01-01")]
    List(sync::RatesListArgs),
}

#[derive(Debug, Subcommand)]
enum PricesCommand {
    /// Import daily prices (date,symbol,close,currency files, Kraken OHLCVT, timestamp,price series).
    #[command(after_help = "Example:\n  cartera prices import prices.csv\n  \
                            cartera prices import btc.csv --format series --symbol BTC --currency EUR")]
    Import(market::PricesArgs),
    #[command(after_help = "Example:\n  cartera prices sync\n  \
                            cartera prices sync --asset BTC --from 2024-01-01 --dry-run")]
    Sync(sync::PricesSyncArgs),
    #[command(after_help = "Example:\n  cartera prices list --asset BTC --from 2024-12-01 --json")]
    List(sync::PricesListArgs),
}

/// What a command reports back to `main`.
pub(crate) enum Outcome {
    /// Everything succeeded.
    Success,
    /// The operation failed (exit 1); the command has already said why.
    Failure,
    /// The user cancelled with Ctrl-C (exit 130); nothing was left half done.
    Cancelled,
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
        Err(error) => return exit::clap_error(&error, exit::wants_json(std::env::args_os())),
    };
    let json = cli.json;
    if cli.version {
        let version = VERSION.replace("{tzdb}", importers::TZDB_VERSION);
        return exit::finish(
            output::write_fmt(format_args!("cartera {version}\n"))
                .map(|()| Outcome::Success)
                .map_err(Into::into),
            json,
        );
    }
    match cli.lang.as_deref().map(i18n::Lang::parse).transpose() {
        Ok(lang) => i18n::set(
            lang.or_else(|| i18n::Lang::from_setting(cli.ledger.as_deref()))
                .unwrap_or_else(i18n::Lang::from_env),
        ),
        Err(usage) => return exit::finish(Err(usage.into()), json),
    }
    let Some(command) = cli.command else {
        return exit::finish(
            Err(UsageError {
                code: "usage",
                reason: "a command is required; see `cartera --help`".to_owned(),
            }
            .into()),
            json,
        );
    };
    let result = on_the_pool(|| run(cli.ledger.as_deref(), json, command));
    bench::report_peak_if_asked();
    exit::finish(result, json)
}

/// The stack of the pool's threads: a command runs on one of them, with the main thread's room.
const COMMAND_STACK_BYTES: usize = 8 << 20;

/// Runs a command on the rayon pool, sized by `RAYON_NUM_THREADS` or else the machine's cores
/// (D-170): every parallel step of the engine then uses the pool's threads and only those, and
/// this thread waits. Should the pool not start, the command runs on this thread.
fn on_the_pool<T: Send>(command: impl FnOnce() -> T + Send) -> T {
    match rayon::ThreadPoolBuilder::new()
        .stack_size(COMMAND_STACK_BYTES)
        .build()
    {
        Ok(pool) => pool.install(command),
        Err(_) => command(),
    }
}

fn run(ledger: Option<&std::path::Path>, json: bool, command: Command) -> anyhow::Result<Outcome> {
    match command {
        Command::Demo(args) => demo::run(json, &args),
        Command::Portfolio(args) => reports::run_portfolio(ledger, json, &args),
        Command::Tax(args) => reports::run_tax(ledger, json, &args),
        Command::Integrity(args) => reports::run_integrity(ledger, json, &args),
        Command::Lots(args) => reports::run_lots(ledger, json, &args),
        Command::Tx(args) => reports::run_tx(ledger, json, &args),
        Command::Settings(args) => corrections::run_settings(ledger, json, &args),
        Command::Accounts(args) => corrections::run_accounts(ledger, json, &args),
        Command::Edit(args) => corrections::run_edit(ledger, json, &args),
        Command::Link(args) => corrections::run_link(ledger, json, &args),
        Command::Unlink(args) => corrections::run_unlink(ledger, json, &args),
        Command::Mcp(args) => mcp::run(ledger, &args),
        Command::HoldingsAt(args) => reports::run_holdings_at(ledger, json, &args),
        Command::Import(args) => import::run(ledger, json, &args),
        Command::Tools(command) => tools::run(ledger, json, &command),
        Command::Rates(RatesCommand::Import(args)) => market::run_rates(ledger, json, &args),
        Command::Prices(PricesCommand::Import(args)) => market::run_prices(ledger, json, &args),
        Command::Sync(args) => sync::run_sync(ledger, json, &args),
        Command::Rates(RatesCommand::Sync(args)) => sync::run_rates_sync(ledger, json, &args),
        Command::Rates(RatesCommand::List(args)) => sync::run_rates_list(ledger, json, &args),
        Command::Prices(PricesCommand::Sync(args)) => sync::run_prices_sync(ledger, json, &args),
        Command::Prices(PricesCommand::List(args)) => sync::run_prices_list(ledger, json, &args),
        Command::Bench(command) => bench::run(ledger, json, &command),
        Command::Ask(args) => ask::run_ask(ledger, json, &args),
        Command::Chat(args) => ask::run_chat(ledger, &args),
    }
}
