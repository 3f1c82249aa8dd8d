//! The sample files of `cartera demo` (crates/cli/demo/, computed by hand in its README).

use cartera::{FixedClock, ImportKind, ImportOptions, ImportStatus, Ledger};

/// ECB rates and daily prices, then the five exports.
pub(crate) const FILES: [(&str, ImportKind, &[u8]); 7] = [
    (
        "ecb-rates.csv",
        ImportKind::EcbRates,
        include_bytes!("../../../cli/demo/ecb-rates.csv"),
    ),
    (
        "prices-daily.csv",
        ImportKind::Prices,
        include_bytes!("../../../cli/demo/prices-daily.csv"),
    ),
    (
        "kraken-ledgers.csv",
        ImportKind::Export,
        include_bytes!("../../../cli/demo/kraken-ledgers.csv"),
    ),
    (
        "bitvavo.csv",
        ImportKind::Export,
        include_bytes!("../../../cli/demo/bitvavo.csv"),
    ),
    (
        "binance-statement.csv",
        ImportKind::Export,
        include_bytes!("../../../cli/demo/binance-statement.csv"),
    ),
    (
        "coinbase.csv",
        ImportKind::Export,
        include_bytes!("../../../cli/demo/coinbase.csv"),
    ),
    (
        "ledger-wallet.csv",
        ImportKind::Export,
        include_bytes!("../../../cli/demo/ledger-wallet.csv"),
    ),
];

/// The clock of every test: the demo's "now".
pub(crate) fn clock() -> FixedClock {
    FixedClock::parse("2024-12-31T12:00:00Z").expect("a valid instant")
}

/// Imports the files of `FILES` whose names `wanted` lists, checking each imported cleanly.
pub(crate) fn import(ledger: &Ledger, wanted: &[&str]) {
    for (name, kind, bytes) in FILES {
        if !wanted.contains(&name) {
            continue;
        }
        let options = ImportOptions {
            kind,
            ..ImportOptions::default()
        };
        let report = ledger
            .import_bytes(name, bytes, &options)
            .unwrap_or_else(|error| panic!("{name}: {error}"));
        assert_eq!(report.status, ImportStatus::Imported, "{name}: {report:#?}");
    }
}

/// Every file of the demo.
pub(crate) fn all() -> Vec<&'static str> {
    FILES.iter().map(|(name, _, _)| *name).collect()
}
