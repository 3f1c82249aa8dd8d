//! Integration tests of the importers: every example of `imports.md` §2 and §3 and the
//! acceptance cases of §5 decidable at stages 1–6.
#![allow(
    clippy::disallowed_methods,
    reason = "tests, benches and examples read their knobs from the environment"
)]
// Tests print a skip message when the shared data folder is absent.
#![allow(clippy::print_stdout)]

mod binance;
mod bit2me;
mod bitunix;
mod bitvavo;
mod bybit;
mod coinbase;
mod cryptocom;
mod detection;
mod exchange_properties;
mod futures;
mod generic;
mod guard_rails;
mod kraken;
mod kucoin;
mod okx;
mod properties;
mod rates_prices;
mod real_shapes;
mod reliability;
mod revolut;
mod snapshots;
mod streaming;

use importers::{ImportOptions, ImportResult, Transaction};

pub(crate) fn data(path: &str) -> Vec<u8> {
    let full = format!("{}/test_data/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

pub(crate) fn shared_data() -> Option<std::path::PathBuf> {
    let dir = std::env::var_os("CARTERA_SHARED_DATA").map_or_else(
        || std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"),
        std::path::PathBuf::from,
    );
    if dir.is_dir() {
        Some(dir)
    } else {
        println!("skipped: shared data folder {} is absent", dir.display());
        None
    }
}

pub(crate) fn import(bytes: &[u8], options: &ImportOptions) -> ImportResult {
    importers::import_bytes(bytes, options)
}

/// Header plus rows as one file.
pub(crate) fn file(header: &str, rows: &[&str]) -> Vec<u8> {
    let mut s = format!("{header}\n");
    for r in rows {
        s.push_str(r);
        s.push('\n');
    }
    s.into_bytes()
}

fn side(a: Option<(&str, String)>) -> String {
    a.map_or_else(String::new, |(asset, q)| format!("{q} {asset}"))
}

/// `lines account timestamp TYPE | in | out | fee | fiat value | group`.
pub(crate) fn fmt_tx(t: &Transaction) -> String {
    let lines: Vec<String> = t.lines.iter().map(u64::to_string).collect();
    let q = |d: rust_decimal::Decimal| {
        let n = d.normalize();
        if n.is_zero() {
            "0".to_owned()
        } else {
            n.to_string()
        }
    };
    format!(
        "{} {} {} {} | {} | {} | {} | {} | {}",
        lines.join(","),
        t.account,
        t.timestamp,
        t.tx_type,
        side(
            t.inflow
                .map(|a| (a.asset.as_str().to_owned(), q(a.quantity)))
                .as_ref()
                .map(|(a, q)| (a.as_str(), q.clone()))
        ),
        side(
            t.outflow
                .map(|a| (a.asset.as_str().to_owned(), q(a.quantity)))
                .as_ref()
                .map(|(a, q)| (a.as_str(), q.clone()))
        ),
        side(
            t.fee
                .map(|a| (a.asset.as_str().to_owned(), q(a.quantity)))
                .as_ref()
                .map(|(a, q)| (a.as_str(), q.clone()))
        ),
        side(
            t.fiat_value
                .map(|a| (a.currency.as_str().to_owned(), q(a.amount)))
                .as_ref()
                .map(|(a, q)| (a.as_str(), q.clone()))
        ),
        t.group_id.clone().unwrap_or_default(),
    )
}

/// Asserts the transactions, line by line.
pub(crate) fn check_txs(result: &ImportResult, expected: &[&str]) {
    let got: Vec<String> = result.transactions.iter().map(fmt_tx).collect();
    assert_eq!(got, expected, "findings: {:#?}", rendered(result, "f"));
}

/// The identity keys with `␟` written as `|`.
pub(crate) fn keys(result: &ImportResult) -> Vec<String> {
    result
        .transactions
        .iter()
        .map(|t| t.identity_key.replace('\u{1f}', "|"))
        .collect()
}

pub(crate) fn rendered(result: &ImportResult, file: &str) -> Vec<String> {
    result.findings.iter().map(|f| f.render(file)).collect()
}

pub(crate) fn check_findings(result: &ImportResult, file: &str, expected: &[&str]) {
    assert_eq!(rendered(result, file), expected);
}
