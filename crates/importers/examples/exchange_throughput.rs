//! Measures the further exchanges' parse throughput (stages 1–6) against the generic CSV's
//! on generated files of the same row count, in one process (so a loaded machine weighs on
//! both alike).
//!
//! `cargo run --release -p importers --example exchange_throughput -- [rows]` (default
//! 100,000 rows); prints rows per second of the generic CSV, a Crypto.com App export and an
//! OKX trading history (two rows per order).
#![allow(clippy::print_stdout)] // A measurement tool prints its figures.
#![allow(clippy::cast_precision_loss)] // Rows per second, for reading.

use std::fmt::Write as _;
use std::time::Instant;

use importers::ImportOptions;

/// `YYYY-MM-DD HH:MM:SS` of row `i` (37 s apart from 2020-09-13).
fn stamp(i: usize, sep: char) -> String {
    let secs = 1_600_000_000 + i * 37;
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let t = secs % 86_400;
    let date = chrono::DateTime::from_timestamp(days * 86_400, 0)
        .map(|d| d.format("%Y-%m-%d").to_string())
        .unwrap_or_default();
    format!(
        "{date}{sep}{:02}:{:02}:{:02}",
        t / 3600,
        t % 3600 / 60,
        t % 60
    )
}

fn generic(rows: usize) -> String {
    let mut text = String::from(
        "timestamp,type,account,in_asset,in_amount,out_asset,out_amount,fee_asset,fee_amount,fiat_value,fiat_currency,id,group_id,note\n",
    );
    for i in 0..rows {
        let _ = writeln!(
            text,
            "{}Z,BUY,Wallet {},BTC,0.{:08},EUR,{}.{:02},EUR,0.{:02},,,,,",
            stamp(i, 'T'),
            i % 7,
            i % 99_999_999 + 1,
            i % 5000 + 1,
            i % 100,
            i % 100
        );
    }
    text
}

fn cryptocom(rows: usize) -> String {
    let mut text = String::from(
        "Timestamp (UTC),Transaction Description,Currency,Amount,To Currency,To Amount,Native Currency,Native Amount,Native Amount (in USD),Transaction Kind,Transaction Hash\n",
    );
    for i in 0..rows {
        let ts = stamp(i, ' ');
        let _ = match i % 4 {
            0 => writeln!(
                text,
                "{ts},Buy BTC,EUR,-{}.5,BTC,0.{:08},EUR,-{}.5,-1,viban_purchase,",
                i % 900 + 1,
                i % 99_999_999 + 1,
                i % 900 + 1
            ),
            1 => writeln!(
                text,
                "{ts},Crypto Earn,BTC,0.{:08},,,EUR,0.{:02},0.1,crypto_earn_interest_paid,",
                i % 99_999 + 1,
                i % 99 + 1
            ),
            2 => writeln!(
                text,
                "{ts},BTC -> ETH,BTC,-0.{:06},ETH,0.{:05},EUR,-{},-1,crypto_exchange,",
                i % 999_999 + 1,
                i % 99_999 + 1,
                i % 500 + 1
            ),
            _ => writeln!(
                text,
                "{ts},Withdraw BTC,BTC,-0.{:06},,,EUR,-10,-11,crypto_withdrawal,0x{i:064x}",
                i % 999_999 + 1
            ),
        };
    }
    text
}

fn okx(rows: usize) -> String {
    let mut text = String::from(
        "UID:1,Account Type:Main,Time Zone:UTC+8\nid,Order id,Time,Trade Type,Symbol,Action,Amount,Trading Unit,Filled Price,PnL,Fee,Fee Unit,Position Change,Position Balance,Balance Change,Balance,Balance Unit\n",
    );
    for i in 0..rows / 2 {
        let ts = stamp(i, ' ');
        let q = i % 9_999 + 1;
        let _ = writeln!(
            text,
            "{},{i},{ts},Spot,ETH-USDT,Buy,0.{q:04},ETH,3000,0,-0.0000{},ETH,0,0,0.{q:04},1,ETH",
            2 * i,
            i % 9 + 1
        );
        let _ = writeln!(
            text,
            "{},{i},{ts},Spot,ETH-USDT,Sell,{},ETH,3000,0,0,USDT,0,0,-{},1,USDT",
            2 * i + 1,
            q * 3,
            q * 3
        );
    }
    text
}

fn measure(name: &str, text: &str, rows: usize) {
    let start = Instant::now();
    let r = importers::import_bytes(text.as_bytes(), &ImportOptions::default());
    let secs = start.elapsed().as_secs_f64();
    let errors = r.errors().count();
    println!(
        "{name:>14}: {rows} rows, {} transactions, {errors} errors, {:.3} s, {:.0} rows/s",
        r.transactions.len(),
        secs,
        rows as f64 / secs
    );
}

fn main() {
    let rows: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100_000);
    let files = [
        ("generic", generic(rows)),
        ("cryptocom-app", cryptocom(rows)),
        ("okx", okx(rows)),
    ];
    for round in 0..3 {
        println!("round {}", round + 1);
        for (name, text) in &files {
            measure(name, text, rows);
        }
    }
}
