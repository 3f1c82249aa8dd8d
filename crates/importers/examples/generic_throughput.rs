//! Measures generic CSV parse throughput (stages 1–6) over a generated file.
//!
//! `cargo run --release -p importers --example generic_throughput -- [rows] [OUT.csv]` (default
//! 1,000,000 rows). With `OUT.csv` it only writes the deterministic file (same rows → same
//! bytes), for timing `cartera import` end to end.
#![allow(
    clippy::disallowed_methods,
    reason = "tests, benches and examples read their knobs from the environment"
)]
#![allow(clippy::print_stdout)] // A measurement tool prints its figures.

use std::fmt::Write as _;
use std::time::Instant;

fn main() {
    let rows: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let mut text = String::with_capacity(rows * 110);
    text.push_str("timestamp,type,account,in_asset,in_amount,out_asset,out_amount,fee_asset,fee_amount,fiat_value,fiat_currency,id,group_id,note\n");
    for i in 0..rows {
        let secs = 1_600_000_000 + i * 37;
        let day = secs / 86_400;
        let (y, m, d) = civil(day);
        let t = secs % 86_400;
        let _ = write!(
            text,
            "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z,",
            t / 3600,
            t % 3600 / 60,
            t % 60
        );
        match i % 4 {
            0 => {
                let _ = writeln!(
                    text,
                    "BUY,Wallet {},BTC,0.{:08},EUR,{}.{:02},EUR,0.{:02},,,,,",
                    i % 7,
                    i % 99_999_999 + 1,
                    i % 5000 + 1,
                    i % 100,
                    i % 100
                );
            }
            1 => {
                let _ = writeln!(
                    text,
                    "SELL,Wallet {},EUR,{}.5,ETH,0.{:06},EUR,1.25,,,id-{i},,",
                    i % 7,
                    i % 3000 + 1,
                    i % 999_999 + 1
                );
            }
            2 => {
                let _ = writeln!(
                    text,
                    "TRANSFER_OUT,Wallet {},,,BTC,0.{:08},BTC,0.0001,,,,move-{i},to cold",
                    i % 7,
                    i % 99_999_999 + 1
                );
            }
            _ => {
                let _ = writeln!(
                    text,
                    "STAKING,Wallet {},DOT,0.{:04},,,,,1.{:02},EUR,,,",
                    i % 7,
                    i % 9999 + 1,
                    i % 100
                );
            }
        }
    }
    let bytes = text.into_bytes();
    if let Some(out) = std::env::args().nth(2) {
        if let Err(error) = std::fs::write(&out, &bytes) {
            println!("cannot write {out}: {error}");
            std::process::exit(1);
        }
        println!("wrote {rows} rows, {} bytes to {out}", bytes.len());
        return;
    }
    if std::env::var_os("GENERATE_ONLY").is_some() {
        println!("generated {} bytes", bytes.len());
        return;
    }
    let start = Instant::now();
    let cpu_start = cpu_nanos();
    let result = importers::import_bytes(&bytes, &importers::ImportOptions::default());
    let elapsed = start.elapsed();
    // The build machine is shared: CPU time of this thread is the figure that compares.
    let cpu = cpu_nanos().zip(cpu_start).map(|(b, a)| b.saturating_sub(a));
    let errors = result.errors().count();
    // Integer arithmetic: rows per second = rows × 10⁹ / nanoseconds.
    let per_second = |nanos: u128| u128::from(result.rows_read) * 1_000_000_000 / nanos.max(1);
    println!(
        "rows {} transactions {} errors {errors} bytes {} wall {} ms -> {} rows/s",
        result.rows_read,
        result.transactions.len(),
        bytes.len(),
        elapsed.as_millis(),
        per_second(elapsed.as_nanos())
    );
    if let Some(cpu) = cpu {
        println!(
            "cpu {} ms -> {} rows/s of CPU",
            cpu / 1_000_000,
            per_second(u128::from(cpu))
        );
    }
}

/// Nanoseconds this process has run on a CPU (Linux `/proc/self/schedstat`).
fn cpu_nanos() -> Option<u64> {
    std::fs::read_to_string("/proc/self/schedstat")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Days since 1970-01-01 → (year, month, day) (Howard Hinnant's civil_from_days).
fn civil(days: usize) -> (i64, i64, i64) {
    let z = i64::try_from(days).unwrap_or(0) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}
