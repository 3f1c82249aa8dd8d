//! cartera inside your program: a temporary ledger, the sample exports that `cartera demo`
//! bundles, the 2024 tax summary, and one AI tool call.
//! Run it with `cargo run -p cartera --example embed`.
#![allow(clippy::print_stdout, reason = "an example shows its answers")]

use cartera::{FixedClock, ImportKind, ImportOptions, ImportStatus, Ledger, ToolConfig};
use serde_json::json;

/// ECB rates and daily prices first, then the five exchange and wallet exports.
const FILES: [(&str, ImportKind, &[u8]); 7] = [
    (
        "ecb-rates.csv",
        ImportKind::EcbRates,
        include_bytes!("../../cli/demo/ecb-rates.csv"),
    ),
    (
        "prices-daily.csv",
        ImportKind::Prices,
        include_bytes!("../../cli/demo/prices-daily.csv"),
    ),
    (
        "kraken-ledgers.csv",
        ImportKind::Export,
        include_bytes!("../../cli/demo/kraken-ledgers.csv"),
    ),
    (
        "bitvavo.csv",
        ImportKind::Export,
        include_bytes!("../../cli/demo/bitvavo.csv"),
    ),
    (
        "binance.csv",
        ImportKind::Export,
        include_bytes!("../../cli/demo/binance-statement.csv"),
    ),
    (
        "coinbase.csv",
        ImportKind::Export,
        include_bytes!("../../cli/demo/coinbase.csv"),
    ),
    (
        "ledger-wallet.csv",
        ImportKind::Export,
        include_bytes!("../../cli/demo/ledger-wallet.csv"),
    ),
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A fixed "now" gives reproducible answers; a service passes `cartera::SystemClock`.
    let clock = FixedClock::parse("2024-12-31T12:00:00Z")?;
    let folder = tempfile::tempdir()?;
    let ledger = Ledger::create(folder.path().join("ledger.sqlite"), clock)?;

    for (name, kind, bytes) in FILES {
        let options = ImportOptions {
            kind,
            ..ImportOptions::default()
        };
        let report = ledger.import_bytes(name, bytes, &options)?;
        println!("{name}: {:?}, {} added", report.status, report.added);
        assert_eq!(
            report.status,
            ImportStatus::Imported,
            "{:#?}",
            report.findings
        );
    }

    let tax = ledger.tax_report(2024)?;
    let summary = &tax.summary;
    println!("IRPF 2024 ({:?})", tax.completeness.status);
    println!("  capital gains     {} EUR", summary.capital_gains);
    println!("  capital losses    {} EUR", summary.capital_losses);
    println!("  staking, lending  {} EUR", summary.savings_base_yields);
    println!(
        "  estimated IRPF    {} EUR",
        summary.estimated_irpf.as_deref().unwrap_or("-")
    );
    assert_eq!(summary.capital_gains, "2221.92");

    // The AI tools: the same figures, as a model receives them.
    let tools = ledger.tools(&ToolConfig::new("embed-example").locale("en"))?;
    let answer = tools.call("portfolio_summary", &json!({}))?;
    println!("portfolio_summary: {}", answer["kind"]);
    println!(
        "{}",
        serde_json::to_string_pretty(&answer["payload"]["metrics"])?
    );
    Ok(())
}
