//! Measures the parse throughput (stages 1–6) of every exchange profile against the generic
//! CSV's, on generated files of the same row count, in one process (so a loaded machine weighs
//! on all alike).
//!
//! `cargo run --release -p importers --example exchange_throughput -- [rows] [rounds]`
//! (default 100,000 rows, 3 rounds); prints, per round, each profile's rows per second and
//! its ratio to the generic CSV of that round (`performance.md`: the exchange profiles stay
//! within 2× of the generic reader, a ratio of at least 0.5). The lead runs it at 1,000,000
//! rows on a quiet machine. Each file is shaped like its fixture in `test_data/` (its header,
//! preamble, time format and a mix of its common rows); Bit2Me is generated as its sheet saved
//! as CSV (the profile's reader is the same; a workbook adds its conversion to CSV text).
//! A third argument (e.g. `coinbase,kraken`) keeps only those profiles beside the generic
//! CSV, to count one reader's instructions (`valgrind --tool=callgrind`, D-159).
#![allow(clippy::print_stdout)] // A measurement tool prints its figures.
#![allow(clippy::cast_precision_loss)] // Rows per second, for reading.

use std::fmt::Write as _;
use std::time::Instant;

use importers::{ImportOptions, Zone};

/// `YYYY-MM-DD{sep}HH:MM:SS` of row `i` (37 s apart from 2020-09-13).
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

/// A file of `rows` data rows after `head`: `row(i, k)` writes the `k`-th row of operation `i`
/// (an operation of `per` rows shares its time), until `rows` rows are written (an even `rows`
/// keeps every operation of two rows whole).
fn build(
    head: &str,
    rows: usize,
    per: usize,
    row: impl Fn(usize, usize, &str) -> String,
) -> String {
    let mut text = String::with_capacity(rows * 120 + head.len());
    text.push_str(head);
    let mut written = 0;
    let mut i = 0;
    while written < rows {
        let ts = stamp(i, ' ');
        for k in 0..per.min(rows - written) {
            let _ = writeln!(text, "{}", row(i, k, &ts));
        }
        written += per;
        i += 1;
    }
    text
}

fn generic(n: usize) -> String {
    build(
        "timestamp,type,account,in_asset,in_amount,out_asset,out_amount,fee_asset,fee_amount,fiat_value,fiat_currency,id,group_id,note\n",
        n,
        1,
        |i, _, ts| {
            format!(
                "{}Z,BUY,Wallet {},BTC,0.{:08},EUR,{}.{:02},EUR,0.{:02},,,,,",
                ts.replace(' ', "T"),
                i % 7,
                i % 99_999_999 + 1,
                i % 5000 + 1,
                i % 100,
                i % 100
            )
        },
    )
}

fn binance(n: usize) -> String {
    // Trades of two legs (spend and buy), and a deposit beside an Earn interest written in
    // exponent notation; two rows per second, so every operation is whole.
    build(
        "User_ID,UTC_Time,Account,Operation,Coin,Change,Remark\n",
        n,
        2,
        |i, k, ts| match (i % 4, k) {
            (0, 0) => format!(
                "39184726,{ts},Spot,Deposit,EUR,{}.00000000,\"\"",
                i % 900 + 100
            ),
            (0, _) => format!(
                "39184726,{ts},Earn,Simple Earn Flexible Interest,USDT,3.{:03}E-0{},\"\"",
                i % 999 + 1,
                i % 4 + 5
            ),
            (_, 0) => format!(
                "39184726,{ts},Spot,Transaction Spend,EUR,-{}.00000000,\"\"",
                i % 900 + 1
            ),
            _ => format!(
                "39184726,{ts},Spot,Transaction Buy,BTC,0.{:08},\"\"",
                i % 99_999_999 + 1
            ),
        },
    )
}

fn coinbase(n: usize) -> String {
    build(
        "\nTransactions\nUser,Ana Example,5f3c2a1b-7d9e-4c6f-8a2b-1e0d9c8b7a65\nID,Timestamp,Transaction Type,Asset,Quantity Transacted,Price Currency,Price at Transaction,Subtotal,Total (inclusive of fees and/or spread),Fees and/or Spread,Notes\n",
        n,
        1,
        |i, _, ts| match i % 3 {
            0 => format!(
                "{i:024x},{ts} UTC,Buy,BTC,0.00281,EUR,\"€85,300.00\",€239.69,€243.28,€3.59,Bought 0.00281 BTC for €243.28 EUR"
            ),
            1 => format!(
                "{i:024x},{ts} UTC,Staking Income,ETH,0.000{:05},EUR,\"€3,210.55\",€1.00,€1.00,€0.00,",
                i % 99_999 + 1
            ),
            _ => format!(
                "{i:024x},{ts} UTC,Sell,BTC,-0.001,EUR,\"€85,300.00\",€85.30,€84.03,€1.27,Sold 0.001 BTC for €84.03 EUR"
            ),
        },
    )
}

fn kraken(n: usize) -> String {
    // Trades of two rows sharing a refid, and staking rewards.
    build(
        "\"txid\",\"refid\",\"time\",\"type\",\"subtype\",\"aclass\",\"subclass\",\"asset\",\"wallet\",\"amount\",\"fee\",\"balance\"\n",
        n,
        2,
        |i, k, ts| match (i % 3, k) {
            (0, 0) => format!(
                "\"L{i:05X}-A\",\"S{i:06X}\",\"{ts}\",\"staking\",\"\",\"currency\",\"crypto\",\"DOT.S\",\"earn / bonded\",\"0.{:08}\",\"0\",\"\"",
                i % 99_999_999 + 1
            ),
            (0, _) => format!(
                "\"L{i:05X}-B\",\"D{i:06X}\",\"{ts}\",\"deposit\",\"\",\"currency\",\"fiat\",\"ZEUR\",\"spot / main\",\"{}.0000\",\"0.0000\",\"\"",
                i % 900 + 100
            ),
            (_, 0) => format!(
                "\"L{i:05X}-A\",\"T{i:06X}\",\"{ts}\",\"trade\",\"tradespot\",\"currency\",\"fiat\",\"ZEUR\",\"spot / main\",\"-{}.0000\",\"1.5600\",\"\"",
                i % 900 + 1
            ),
            _ => format!(
                "\"L{i:05X}-B\",\"T{i:06X}\",\"{ts}\",\"trade\",\"tradespot\",\"currency\",\"crypto\",\"XXBT\",\"spot / main\",\"0.{:010}\",\"0\",\"\"",
                i % 9_999_999_999 + 1
            ),
        },
    )
}

fn bitvavo(n: usize) -> String {
    build(
        "Timezone,Date,Time,Type,Currency,Amount,Quote Currency,Quote Price,Received / Paid Currency,Received / Paid Amount,Fee currency,Fee amount,Status,Transaction ID,Address\n",
        n,
        1,
        |i, _, ts| {
            let (date, time) = ts.split_once(' ').unwrap_or((ts, ""));
            match i % 3 {
                0 => format!(
                    "Europe/Madrid,{date},{time},buy,ETH,0.{:06},EUR,2710.4,EUR,-{}.08,EUR,1.52,Completed,{i:032x},",
                    i % 999_999 + 1,
                    i % 900 + 10
                ),
                1 => format!(
                    "Europe/Madrid,{date},{time},staking,ETH,0.000{:05},,,,,ETH,,Distributed,{i:032x},",
                    i % 99_999 + 1
                ),
                _ => format!(
                    "Europe/Madrid,{date},{time},sell,ETH,-0.{:06},EUR,2710.4,EUR,{}.08,EUR,1.52,Completed,{i:032x},",
                    i % 999_999 + 1,
                    i % 900 + 1
                ),
            }
        },
    )
}

fn bit2me(n: usize) -> String {
    build(
        "Tipo de operación,Cantidad de destino,Moneda de destino,Cantidad de origen,Moneda de origen,Comisión de la operación,Moneda de la comisión,Exchange,Grupo,Descripción,Fecha\n",
        n,
        1,
        |i, _, ts| {
            let minute = &ts[..16];
            match i % 3 {
                0 => format!(
                    "Trade,0.{:08},BNB,1,EUR,0.0095,EUR,Bit2Me,pocket,wallet {i:032x},{minute}",
                    i % 99_999_999 + 1
                ),
                1 => format!(
                    "Staking,0.{:07},B2M,0,B2M,0,EUR,Bit2Me,earn,earn {i:032x},{minute}",
                    i % 9_999_999 + 1
                ),
                _ => format!(
                    "Deposit,{}.5,EUR,{}.5,EUR,0,EUR,Bit2Me,bank-transfer,bank {i:032x},{minute}",
                    i % 900 + 1,
                    i % 900 + 1
                ),
            }
        },
    )
}

fn bybit(n: usize) -> String {
    build(
        "UID: 281900000,Company Name: ,Country:\nUid,Spot Pairs,Order Type,Direction,Filled Value,Filled Price,Filled Quantity,Fees,Transaction ID,Order No.,Timestamp (UTC+0)\n",
        n,
        1,
        |i, _, ts| {
            let q = i % 99_999 + 1;
            if i % 2 == 0 {
                format!(
                    "281900000,BTCUSDT,LIMIT,BUY,{}.{q:05},97100.00000000000000000000,0.{q:05},0.000000{q:05},{},{},{ts}",
                    q / 10 + 1,
                    2_290_000_000_000_000_000_u64 + i as u64,
                    1_836_393_090_823_494_400_u64 + i as u64
                )
            } else {
                format!(
                    "281900000,LTCUSDT,MARKET,SELL,20.{q:05},104.49000000000000000000,0.{q:05},0.0{q:05},{},{},{ts}",
                    2_290_000_000_000_000_000_u64 + i as u64,
                    1_836_393_090_823_494_400_u64 + i as u64
                )
            }
        },
    )
}

fn revolut(n: usize) -> String {
    build(
        "Symbol,Type,Quantity,Price,Value,Fees,Date\n",
        n,
        1,
        |i, _, ts| {
            let iso = format!("{}.000Z", ts.replace(' ', "T"));
            match i % 3 {
                0 => format!(
                    "BTC,Buy,0.0{:07},\"€5,837.33\",€{}.00,€1.49,{iso}",
                    i % 9_999_999 + 1,
                    i % 900 + 1
                ),
                1 => format!("ETH,Staking reward,0.000{:05},,,,{iso}", i % 99_999 + 1),
                _ => format!(
                    "BTC,Sell,0.00{:06},\"€90,000.00\",€{}.00,€0.41,{iso}",
                    i % 999_999 + 1,
                    i % 900 + 1
                ),
            }
        },
    )
}

fn cryptocom(n: usize) -> String {
    build(
        "Timestamp (UTC),Transaction Description,Currency,Amount,To Currency,To Amount,Native Currency,Native Amount,Native Amount (in USD),Transaction Kind,Transaction Hash\n",
        n,
        1,
        |i, _, ts| match i % 4 {
            0 => format!(
                "{ts},Buy BTC,EUR,-{}.5,BTC,0.{:08},EUR,-{}.5,-1,viban_purchase,",
                i % 900 + 1,
                i % 99_999_999 + 1,
                i % 900 + 1
            ),
            1 => format!(
                "{ts},Crypto Earn,BTC,0.{:08},,,EUR,0.{:02},0.1,crypto_earn_interest_paid,",
                i % 99_999 + 1,
                i % 99 + 1
            ),
            2 => format!(
                "{ts},BTC -> ETH,BTC,-0.{:06},ETH,0.{:05},EUR,-{},-1,crypto_exchange,",
                i % 999_999 + 1,
                i % 99_999 + 1,
                i % 500 + 1
            ),
            _ => format!(
                "{ts},Withdraw BTC,BTC,-0.{:06},,,EUR,-10,-11,crypto_withdrawal,0x{i:064x}",
                i % 999_999 + 1
            ),
        },
    )
}

fn kucoin(n: usize) -> String {
    build(
        "UID,Account Type,Order ID,Symbol,Side,Order Type,Avg. Filled Price,Filled Amount,Filled Volume,Filled Volume (USDT),Filled Time(UTC+02:00),Fee,Tax,Maker/Taker,Fee Currency\n",
        n,
        1,
        |i, _, ts| {
            if i % 2 == 0 {
                format!(
                    "123456789,Trading Account,{i:024x},BTC-USDT,BUY,MARKET,60000,0.{:05},{}.6,600,{ts},0.6,0,TAKER,USDT",
                    i % 99_999 + 1,
                    i % 900 + 1
                )
            } else {
                format!(
                    "123456789,Trading Account,{i:024x},ETH-EUR,SELL,LIMIT,3000,0.{:04},{}.5,1620.45,{ts},1.5,0,MAKER,EUR",
                    i % 9_999 + 1,
                    i % 900 + 1
                )
            }
        },
    )
}

fn okx(n: usize) -> String {
    // The trading history: two rows per spot order, merged.
    build(
        "UID:1,Account Type:Main,Time Zone:UTC+8\nid,Order id,Time,Trade Type,Symbol,Action,Amount,Trading Unit,Filled Price,PnL,Fee,Fee Unit,Position Change,Position Balance,Balance Change,Balance,Balance Unit\n",
        n,
        2,
        |i, k, ts| {
            let q = i % 9_999 + 1;
            if k == 0 {
                format!(
                    "{},{i},{ts},Spot,ETH-USDT,Buy,0.{q:04},ETH,3000,0,-0.0000{},ETH,0,0,0.{q:04},1,ETH",
                    2 * i,
                    i % 9 + 1
                )
            } else {
                format!(
                    "{},{i},{ts},Spot,ETH-USDT,Sell,{},ETH,3000,0,0,USDT,0,0,-{},1,USDT",
                    2 * i + 1,
                    q * 3,
                    q * 3
                )
            }
        },
    )
}

fn bitunix(n: usize) -> String {
    build(
        "Date (UTC),Label,Outgoing Asset,Outgoing Amount,Incoming Asset,Incoming Amount,Fee Asset,Fee Amount,Trx. ID,Comment\n",
        n,
        1,
        |i, _, ts| {
            if i % 2 == 0 {
                format!(
                    "{ts},Deposit,,0,ADA,{}.344684,,0,T{i},Chain Deposit",
                    i % 900 + 1
                )
            } else {
                format!(
                    "{ts},Withdraw,ADA,{}.844684,,0,ADA,1,T{i},On-chain Withdraw",
                    i % 90 + 1
                )
            }
        },
    )
}

/// Imports `text` once; `(transactions, errors, rows per second)`.
fn measure(text: &str, rows: usize, options: &ImportOptions) -> (usize, usize, f64) {
    let start = Instant::now();
    let r = importers::import_bytes(text.as_bytes(), options);
    let secs = start.elapsed().as_secs_f64();
    if let Some(first) = r
        .findings
        .iter()
        .find(|f| f.level == importers::Level::Error)
    {
        println!("    first error: {first:?}");
    }
    (r.transactions.len(), r.errors().count(), rows as f64 / secs)
}

/// A profile's file generator, and whether its times need `--timezone` (only Bit2Me's: the
/// others state their zone, and `--timezone` is refused where it does not apply).
type Generator = (fn(usize) -> String, bool);

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let rows: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let rounds: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(3);
    // An optional third argument keeps only the profiles whose name starts with one of its
    // comma-separated words (the generic CSV always runs first, as the base of the ratio):
    // one profile at a time under an instruction counter.
    let only: Vec<String> = args
        .next()
        .map(|a| a.split(',').map(str::to_owned).collect())
        .unwrap_or_default();
    let dump = args.next().map(std::path::PathBuf::from);
    let local = ImportOptions {
        timezone: Zone::parse("Europe/Madrid"),
        ..ImportOptions::default()
    };
    let utc = ImportOptions::default();
    let profiles: [(&str, Generator); 12] = [
        ("generic", (generic, false)),
        ("binance-statement", (binance, false)),
        ("coinbase", (coinbase, false)),
        ("kraken-ledgers", (kraken, false)),
        ("bitvavo", (bitvavo, false)),
        ("bit2me (csv)", (bit2me, true)),
        ("bybit", (bybit, false)),
        ("revolut-crypto", (revolut, false)),
        ("cryptocom-app", (cryptocom, false)),
        ("kucoin", (kucoin, false)),
        ("okx", (okx, false)),
        ("bitunix", (bitunix, false)),
    ];
    let files: Vec<(&str, String, &ImportOptions)> = profiles
        .iter()
        .filter(|(name, _)| {
            *name == "generic"
                || only.is_empty()
                || only.iter().any(|w| name.starts_with(w.as_str()))
        })
        .map(|(name, (g, zone))| (*name, g(rows), if *zone { &local } else { &utc }))
        .collect();
    // A fourth argument, a folder, gets the generated files instead of a measurement, so that
    // the whole import (parse and store) can be timed through the binary (`cartera import`):
    // `exchange_throughput 1000000 1 "" DIR`.
    if let Some(dir) = dump {
        for (name, text, _) in &files {
            let file = dir.join(format!("{}.csv", name.split(' ').next().unwrap_or(name)));
            std::fs::write(&file, text)?;
        }
        return Ok(());
    }
    for round in 1..=rounds {
        println!("round {round} ({rows} rows per file)");
        let mut generic_rate = None;
        for (name, text, options) in &files {
            let (txs, errors, rate) = measure(text, rows, options);
            let base = *generic_rate.get_or_insert(rate);
            println!(
                "{name:>18}: {rate:>9.0} rows/s  {:>4.2}× generic  ({txs} transactions, {errors} errors)",
                rate / base
            );
        }
    }
    Ok(())
}
