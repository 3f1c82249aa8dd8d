//! `cartera bench gen`: a deterministic synthetic ledger written as real import files
//! (`performance.md`, "The data generator").
//!
//! Same `(transactions, seed)` → byte-identical files. The bookkeeping is integer arithmetic
//! (quantities in 1e-8 units, fiat in cents, prices in 1e-6 of the quote currency), so no
//! floating point and no decimal library are involved, and the PRNG is our own SplitMix64.
//!
//! Files: `transactions.csv` (the generic CSV of `imports.md` §2.6) or, with
//! `--format kraken-ledgers`, one `kraken-<account>.csv` per account (§2.1, layout L12, to be
//! imported with `--account <account>`); `prices.csv` (`date,symbol,close,currency`, §3.3) with a
//! close for every asset on every day of 2014–2025; `eurofxref-hist.csv` (§3.2) with USD and
//! GBP rates on weekdays, newest first.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

use anyhow::{Context, Result};
use chrono::{DateTime, Datelike, NaiveDate};
use core_domain::rng::SplitMix64 as Random;

/// Smallest and largest accepted `--transactions`.
pub(crate) const MIN_TRANSACTIONS: u64 = 10;
pub(crate) const MAX_TRANSACTIONS: u64 = 20_000_000;

/// 2014-01-01T00:00:00Z and the number of days up to 2025-12-31.
const START_SECS: i64 = 1_388_534_400;
const DAYS: i64 = 4383;
const SPAN_SECS: i64 = DAYS * 86_400;

/// The majors carry most volume; the rest of the assets are a long tail.
const MAJORS: [&str; 10] = [
    "BTC", "ETH", "SOL", "ADA", "DOT", "XRP", "LTC", "BNB", "USDT", "LINK",
];
/// Relative weights of the majors when a major is picked (BTC and ETH dominate).
const MAJOR_WEIGHTS: [u64; 10] = [30, 22, 9, 8, 7, 7, 5, 5, 4, 3];

/// The file layout to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    Generic,
    KrakenLedgers,
}

/// What a run wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Summary {
    /// Transactions (generic rows; a transfer counts as two).
    pub(crate) transactions: u64,
    pub(crate) accounts: usize,
    pub(crate) assets: usize,
    /// Per operation kind: buys, swaps, sales, transfer legs, income, uncovered disposals, dust.
    pub(crate) buys: u64,
    pub(crate) swaps: u64,
    pub(crate) sales: u64,
    pub(crate) transfer_legs: u64,
    pub(crate) income: u64,
    pub(crate) uncovered: u64,
    pub(crate) dust: u64,
    /// Rows that share the timestamp of the row before.
    pub(crate) same_timestamp: u64,
    pub(crate) price_rows: u64,
    pub(crate) rate_rows: u64,
    /// The files written, relative to the output folder.
    pub(crate) files: Vec<String>,
}

/// The generator's draws beyond `core_domain::rng::SplitMix64`'s.
trait Draws {
    fn below_i64(&mut self, bound: i64) -> i64;
}

impl Draws for Random {
    fn below_i64(&mut self, bound: i64) -> i64 {
        i64::try_from(self.below(bound.unsigned_abs())).unwrap_or(0)
    }
}

/// The shape of a ledger of `transactions` rows with `seed`.
struct Shape {
    accounts: usize,
    assets: usize,
}

impl Shape {
    fn new(transactions: u64, seed: u64) -> Self {
        let accounts = 3 + usize::try_from(seed % 23).unwrap_or(0);
        let assets = usize::try_from(transactions / 500)
            .unwrap_or(2000)
            .clamp(20, 2000);
        Self { accounts, assets }
    }
}

pub(crate) fn account_name(index: usize) -> String {
    format!("Account{:02}", index + 1)
}

pub(crate) fn symbol(index: usize) -> String {
    MAJORS
        .get(index)
        .map_or_else(|| format!("TK{index:04}"), |s| (*s).to_owned())
}

/// Kraken's code for an asset (the inverse of the alias table of `imports.md` §2.1).
fn kraken_code(symbol: &str) -> &str {
    match symbol {
        "BTC" => "XXBT",
        "ETH" => "XETH",
        "LTC" => "XLTC",
        "XRP" => "XXRP",
        "EUR" => "ZEUR",
        other => other,
    }
}

/// Whether asset `index` is quoted in USD in the price file (the others in EUR).
fn quoted_in_usd(index: usize) -> bool {
    index % 5 == 3
}

/// FNV-style mix of an asset index, for per-asset phases.
fn mix(index: usize) -> i64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in (index as u64).to_le_bytes() {
        h = (h ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3);
    }
    i64::try_from(h >> 40).unwrap_or(0)
}

/// Close of asset `index` on day `day` (0 = 2014-01-01) in 1e-6 of its quote currency: a trend
/// (majors grow over the period) times a per-asset sawtooth, so there are gains and losses.
fn price_micro(index: usize, day: i64) -> i64 {
    let (base, growth): (i64, i64) = match index {
        0 => (500_000_000, 120),  // BTC 500 → ~60,000
        1 => (5_000_000, 600),    // ETH
        8 => (1_000_000, 0),      // USDT
        2..=9 => (2_000_000, 40), // other majors
        _ => (
            100 + (mix(index) % 20_000_000),
            i64::try_from(index % 7).unwrap_or(0),
        ),
    };
    let trend = 1_000 + growth * 1_000 * day / DAYS;
    let wave = if index == 8 {
        1_000
    } else {
        let period = 90 + mix(index) % 300;
        let phase = (day + mix(index)) % period;
        700 + 600 * phase / period
    };
    let price = i128::from(base) * i128::from(trend) * i128::from(wave) / 1_000_000;
    i64::try_from(price).unwrap_or(i64::MAX).max(1)
}

/// Writes `value / 10^scale` as a plain decimal without trailing zeros (`imports.md` §1.8).
fn push_scaled(out: &mut String, value: i64, scale: u32) {
    let divisor = 10_i64.pow(scale);
    if value < 0 {
        out.push('-');
    }
    let magnitude = value.unsigned_abs();
    let divisor = divisor.unsigned_abs();
    let _ = write!(out, "{}", magnitude / divisor);
    let fraction = magnitude % divisor;
    if fraction != 0 {
        let mut digits = format!("{fraction:0width$}", width = scale as usize);
        while digits.ends_with('0') {
            digits.pop();
        }
        out.push('.');
        out.push_str(&digits);
    }
}

/// Writes `value / 10^scale` with exactly `scale` decimals (Kraken's fixed-width amounts).
fn push_fixed(out: &mut String, value: i64, scale: u32) {
    let divisor = 10_u64.pow(scale);
    if value < 0 {
        out.push('-');
    }
    let magnitude = value.unsigned_abs();
    let _ = write!(
        out,
        "{}.{:0width$}",
        magnitude / divisor,
        magnitude % divisor,
        width = scale as usize
    );
}

fn timestamp(secs: i64, kraken: bool) -> String {
    let time = DateTime::from_timestamp(secs, 0).unwrap_or_default();
    if kraken {
        time.format("%Y-%m-%d %H:%M:%S").to_string()
    } else {
        time.format("%Y-%m-%dT%H:%M:%SZ").to_string()
    }
}

/// One operation before it is written in a file layout.
enum Op {
    Buy {
        asset: usize,
        units: i64,
        cost: i64,
        fee: i64,
    },
    Sell {
        asset: usize,
        units: i64,
        proceeds: i64,
        fee: i64,
    },
    Swap {
        given: usize,
        given_units: i64,
        got: usize,
        got_units: i64,
        fee_units: i64,
    },
    Transfer {
        to: usize,
        asset: usize,
        units: i64,
        fee_units: i64,
        arrival: i64,
    },
    Income {
        kind: Income,
        asset: usize,
        units: i64,
    },
}

#[derive(Clone, Copy)]
enum Income {
    Staking,
    Reward,
    Airdrop,
}

/// A writer of one layout; rows arrive in generation order, which is chronological.
trait Sink {
    fn op(&mut self, seq: u64, account: usize, secs: i64, op: &Op) -> Result<()>;
    fn finish(self: Box<Self>) -> Result<Vec<String>>;
}

struct GenericSink {
    out: std::io::BufWriter<std::fs::File>,
    line: String,
}

const GENERIC_HEADER: &str = "timestamp,type,account,in_asset,in_amount,out_asset,out_amount,\
                              fee_asset,fee_amount,fiat_value,fiat_currency,id,group_id,note\n";

impl GenericSink {
    #[allow(clippy::too_many_arguments)] // One CSV row in argument form.
    fn row(
        &mut self,
        secs: i64,
        kind: &str,
        account: usize,
        inflow: Option<(&str, i64)>,
        outflow: Option<(&str, i64)>,
        fee: Option<(&str, i64)>,
        id: &str,
        group: &str,
    ) -> Result<()> {
        let line = &mut self.line;
        line.clear();
        line.push_str(&timestamp(secs, false));
        line.push(',');
        line.push_str(kind);
        line.push(',');
        line.push_str(&account_name(account));
        for side in [inflow, outflow, fee] {
            line.push(',');
            if let Some((asset, amount)) = side {
                line.push_str(asset);
                line.push(',');
                push_scaled(line, amount, if asset == "EUR" { 2 } else { 8 });
            } else {
                line.push(',');
            }
        }
        let _ = writeln!(line, ",,,{id},{group},");
        self.out.write_all(line.as_bytes())?;
        Ok(())
    }
}

impl Sink for GenericSink {
    fn op(&mut self, seq: u64, account: usize, secs: i64, op: &Op) -> Result<()> {
        let id = format!("g{seq}");
        match *op {
            Op::Buy {
                asset,
                units,
                cost,
                fee,
            } => self.row(
                secs,
                "BUY",
                account,
                Some((&symbol(asset), units)),
                Some(("EUR", cost)),
                Some(("EUR", fee)),
                &id,
                "",
            ),
            Op::Sell {
                asset,
                units,
                proceeds,
                fee,
            } => self.row(
                secs,
                "SELL",
                account,
                Some(("EUR", proceeds)),
                Some((&symbol(asset), units)),
                Some(("EUR", fee)),
                &id,
                "",
            ),
            Op::Swap {
                given,
                given_units,
                got,
                got_units,
                fee_units,
            } => self.row(
                secs,
                "SWAP",
                account,
                Some((&symbol(got), got_units)),
                Some((&symbol(given), given_units)),
                Some((&symbol(given), fee_units)),
                &id,
                "",
            ),
            Op::Transfer {
                to,
                asset,
                units,
                fee_units,
                arrival,
            } => {
                let group = format!("t{seq}");
                let name = symbol(asset);
                self.row(
                    secs,
                    "TRANSFER_OUT",
                    account,
                    None,
                    Some((&name, units)),
                    Some((&name, fee_units)),
                    &id,
                    &group,
                )?;
                self.row(
                    arrival,
                    "TRANSFER_IN",
                    to,
                    Some((&name, units)),
                    None,
                    None,
                    &format!("g{seq}i"),
                    &group,
                )
            }
            Op::Income { kind, asset, units } => {
                let label = match kind {
                    Income::Staking => "STAKING",
                    Income::Reward => "REWARD",
                    Income::Airdrop => "AIRDROP",
                };
                self.row(
                    secs,
                    label,
                    account,
                    Some((&symbol(asset), units)),
                    None,
                    None,
                    &id,
                    "",
                )
            }
        }
    }

    fn finish(mut self: Box<Self>) -> Result<Vec<String>> {
        self.out.flush()?;
        Ok(vec!["transactions.csv".to_owned()])
    }
}

/// Kraken ledger files: one per account, with the running balance per (asset, wallet).
struct KrakenSink {
    files: Vec<std::io::BufWriter<std::fs::File>>,
    /// Balance per account and asset index (`assets` = EUR), in the asset's units.
    balances: Vec<i64>,
    assets: usize,
    line: String,
}

const KRAKEN_HEADER: &str = "\"txid\",\"refid\",\"time\",\"type\",\"subtype\",\"aclass\",\
                             \"subclass\",\"asset\",\"wallet\",\"amount\",\"fee\",\"balance\"\n";

impl KrakenSink {
    /// One ledger row; `asset` is an asset index or `self.assets` for EUR.
    #[allow(clippy::too_many_arguments)] // One CSV row in argument form.
    fn row(
        &mut self,
        account: usize,
        txid: &str,
        refid: &str,
        secs: i64,
        kind: &str,
        subtype: &str,
        asset: usize,
        amount: i64,
        fee: i64,
    ) -> Result<()> {
        let fiat = asset == self.assets;
        let (code, scale) = if fiat {
            ("ZEUR".to_owned(), 4)
        } else {
            (kraken_code(&symbol(asset)).to_owned(), 10)
        };
        // Internal units are cents for EUR and 1e-8 for crypto; Kraken writes 4 and 10
        // decimals, two more in both cases.
        let factor = 100;
        let slot = account * (self.assets + 1) + asset;
        let balance = self.balances.get(slot).copied().unwrap_or(0) + amount - fee;
        if let Some(cell) = self.balances.get_mut(slot) {
            *cell = balance;
        }
        let line = &mut self.line;
        line.clear();
        let _ = write!(
            line,
            "\"{txid}\",\"{refid}\",\"{}\",\"{kind}\",\"{subtype}\",\"currency\",\"{}\",\"{code}\",\"spot / main\",\"",
            timestamp(secs, true),
            if fiat { "fiat" } else { "crypto" },
        );
        push_fixed(line, amount * factor, scale);
        line.push_str("\",\"");
        push_fixed(line, fee * factor, scale);
        line.push_str("\",\"");
        push_fixed(line, balance * factor, scale);
        line.push_str("\"\n");
        if let Some(file) = self.files.get_mut(account) {
            file.write_all(line.as_bytes())?;
        }
        Ok(())
    }
}

impl Sink for KrakenSink {
    #[allow(clippy::too_many_lines)] // One arm per operation kind, each two ledger rows.
    fn op(&mut self, seq: u64, account: usize, secs: i64, op: &Op) -> Result<()> {
        let refid = format!("T{seq:012}");
        let leg = |n: u8| format!("L{seq:012}{n}");
        let eur = self.assets;
        match *op {
            Op::Buy {
                asset,
                units,
                cost,
                fee,
            } => {
                self.row(
                    account,
                    &leg(0),
                    &refid,
                    secs,
                    "trade",
                    "tradespot",
                    eur,
                    -cost,
                    fee,
                )?;
                self.row(
                    account,
                    &leg(1),
                    &refid,
                    secs,
                    "trade",
                    "tradespot",
                    asset,
                    units,
                    0,
                )
            }
            Op::Sell {
                asset,
                units,
                proceeds,
                fee,
            } => {
                self.row(
                    account,
                    &leg(0),
                    &refid,
                    secs,
                    "trade",
                    "tradespot",
                    asset,
                    -units,
                    0,
                )?;
                self.row(
                    account,
                    &leg(1),
                    &refid,
                    secs,
                    "trade",
                    "tradespot",
                    eur,
                    proceeds,
                    fee,
                )
            }
            Op::Swap {
                given,
                given_units,
                got,
                got_units,
                fee_units,
            } => {
                self.row(
                    account,
                    &leg(0),
                    &refid,
                    secs,
                    "trade",
                    "tradespot",
                    given,
                    -given_units,
                    fee_units,
                )?;
                self.row(
                    account,
                    &leg(1),
                    &refid,
                    secs,
                    "trade",
                    "tradespot",
                    got,
                    got_units,
                    0,
                )
            }
            Op::Transfer {
                to,
                asset,
                units,
                fee_units,
                arrival,
            } => {
                self.row(
                    account,
                    &leg(0),
                    &refid,
                    secs,
                    "withdrawal",
                    "",
                    asset,
                    -units,
                    fee_units,
                )?;
                self.row(
                    to,
                    &leg(1),
                    &format!("D{seq:012}"),
                    arrival,
                    "deposit",
                    "",
                    asset,
                    units,
                    0,
                )
            }
            Op::Income { kind, asset, units } => {
                let (label, subtype) = match kind {
                    Income::Staking => ("staking", ""),
                    Income::Reward => ("earn", "reward"),
                    Income::Airdrop => ("earn", "airdrop"),
                };
                self.row(
                    account,
                    &leg(0),
                    &refid,
                    secs,
                    label,
                    subtype,
                    asset,
                    units,
                    0,
                )
            }
        }
    }

    fn finish(self: Box<Self>) -> Result<Vec<String>> {
        let mut names = Vec::new();
        for (index, mut file) in self.files.into_iter().enumerate() {
            file.flush()?;
            names.push(kraken_file(index));
        }
        Ok(names)
    }
}

pub(crate) fn kraken_file(account: usize) -> String {
    format!("kraken-{}.csv", account_name(account).to_lowercase())
}

fn create(dir: &Path, name: &str) -> Result<std::io::BufWriter<std::fs::File>> {
    let path = dir.join(name);
    let file =
        std::fs::File::create(&path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(std::io::BufWriter::with_capacity(1 << 20, file))
}

/// Picks an asset: 70 % a major (weighted), else any asset of the long tail.
fn pick_asset(random: &mut Random, assets: usize) -> usize {
    if random.percent() < 70 {
        let total: u64 = MAJOR_WEIGHTS.iter().sum();
        let mut roll = random.below(total);
        for (index, weight) in MAJOR_WEIGHTS.iter().enumerate() {
            if roll < *weight {
                return index;
            }
            roll -= weight;
        }
        0
    } else {
        usize::try_from(random.below(assets as u64)).unwrap_or(0)
    }
}

/// Writes the ledger files into `dir` (created if absent).
#[allow(clippy::too_many_lines)] // One generator, read top to bottom.
pub(crate) fn generate(
    transactions: u64,
    seed: u64,
    dir: &Path,
    format: Format,
) -> Result<Summary> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let shape = Shape::new(transactions, seed);
    let mut random = Random::new(seed ^ 0x00C0_FFEE_D00D_F00D);
    let mut summary = Summary {
        accounts: shape.accounts,
        assets: shape.assets,
        ..Summary::default()
    };
    let mut sink: Box<dyn Sink> = match format {
        Format::Generic => {
            let mut out = create(dir, "transactions.csv")?;
            out.write_all(GENERIC_HEADER.as_bytes())?;
            Box::new(GenericSink {
                out,
                line: String::with_capacity(256),
            })
        }
        Format::KrakenLedgers => {
            let mut files = Vec::with_capacity(shape.accounts);
            for account in 0..shape.accounts {
                let mut out = create(dir, &kraken_file(account))?;
                out.write_all(KRAKEN_HEADER.as_bytes())?;
                files.push(out);
            }
            Box::new(KrakenSink {
                files,
                balances: vec![0; shape.accounts * (shape.assets + 1)],
                assets: shape.assets,
                line: String::with_capacity(256),
            })
        }
    };
    // Holdings per (account, asset) in 1e-8 units, so that sales and transfers are plausible.
    let mut holdings = vec![0_i64; shape.accounts * shape.assets];
    let slot = |account: usize, asset: usize| account * shape.assets + asset;
    // Timestamps never go back, so file order is chronological. The clock advances on about
    // 82 % of the rows (transfers are two rows, bursts and repeats share a second); the mean
    // step spreads them over the whole period, the last rows clamped into 2025.
    let step = (SPAN_SECS / i64::try_from(transactions).unwrap_or(1).max(1) * 115 / 100).max(1);
    let end = START_SECS + SPAN_SECS - 1;
    let mut now = START_SECS;
    let mut burst = 0_u64;
    let mut seq = 0_u64;
    let mut written = 0_u64;
    while written < transactions {
        seq += 1;
        let left = transactions - written;
        if burst > 0 {
            burst -= 1;
            summary.same_timestamp += 1;
        } else if random.below(1000) < 4 {
            // A burst: 2 to 40 operations in the same second (a batch of fills, an airdrop run).
            burst = 1 + random.below(39);
            now = (now + step / 2 + random.below_i64(step)).min(end);
        } else if random.percent() < 3 && written > 0 {
            summary.same_timestamp += 1;
        } else {
            now = (now + step / 2 + random.below_i64(step)).min(end);
        }
        let day = (now - START_SECS) / 86_400;
        let account = usize::try_from(random.below(shape.accounts as u64)).unwrap_or(0);
        let asset = pick_asset(&mut random, shape.assets);
        // Per mille of operations, so that rows come out as 35 % buys, 20 % swaps, 20 % sales,
        // 15 % transfer legs (7.5 % of operations, two rows each) and 10 % income.
        let mut roll = random.below(925);
        if (750..825).contains(&roll) && left < 2 {
            roll = 0; // a transfer needs two rows: never split across the end of the file
        }
        // A value of about 10 to 5,000 EUR, with 3 % dust (1 to 50 cents).
        let dust = random.percent() < 3;
        let value_cents = if dust {
            summary.dust += 1;
            1 + random.below_i64(50)
        } else {
            1_000 + random.below_i64(500_000)
        };
        let price = price_micro(asset, day);
        let to_units = |cents: i64, price: i64| -> i64 {
            // cents * 1e4 micro per cent * 1e8 units / price micro
            let units = i128::from(cents) * 1_000_000_000_000 / i128::from(price.max(1));
            i64::try_from(units).unwrap_or(i64::MAX / 4).max(1)
        };
        let to_cents = |units: i64, price: i64| -> i64 {
            let cents = i128::from(units) * i128::from(price) / 1_000_000_000_000;
            i64::try_from(cents).unwrap_or(i64::MAX / 4).max(1)
        };
        let units = to_units(value_cents, price);
        let held = holdings.get(slot(account, asset)).copied().unwrap_or(0);
        // A disposal from an empty position becomes a buy, except for a few: the disposals
        // without enough prior acquisitions of `performance.md`.
        if (350..825).contains(&roll) && held <= 0 && random.percent() >= 2 {
            roll = 0;
        }
        let op = match roll {
            0..350 => {
                summary.buys += 1;
                if let Some(h) = holdings.get_mut(slot(account, asset)) {
                    *h += units;
                }
                Op::Buy {
                    asset,
                    units,
                    cost: value_cents,
                    fee: (value_cents / 500).max(1),
                }
            }
            350..550 => {
                summary.swaps += 1;
                let mut got = pick_asset(&mut random, shape.assets);
                if got == asset {
                    got = (asset + 1) % shape.assets;
                }
                let given_units = if held > 0 {
                    (held / 3).clamp(1, units)
                } else {
                    units
                };
                if held < given_units {
                    summary.uncovered += 1;
                }
                let fee_units = (given_units / 1000).max(1);
                let worth = to_cents(given_units, price);
                let got_units = to_units(worth, price_micro(got, day));
                if let Some(h) = holdings.get_mut(slot(account, asset)) {
                    *h -= given_units + fee_units;
                }
                if let Some(h) = holdings.get_mut(slot(account, got)) {
                    *h += got_units;
                }
                Op::Swap {
                    given: asset,
                    given_units,
                    got,
                    got_units,
                    fee_units,
                }
            }
            550..750 => {
                summary.sales += 1;
                // 1 % of sales sell more than is held (disposals without enough acquisitions).
                let sold = if random.percent() == 0 || held <= 0 {
                    units
                } else {
                    (held / 2).clamp(1, units.max(1))
                };
                if held < sold {
                    summary.uncovered += 1;
                }
                if let Some(h) = holdings.get_mut(slot(account, asset)) {
                    *h -= sold;
                }
                let proceeds = to_cents(sold, price);
                Op::Sell {
                    asset,
                    units: sold,
                    proceeds,
                    fee: (proceeds / 400).max(1),
                }
            }
            750..825 => {
                summary.transfer_legs += 2;
                let offset = 1 + random.below(shape.accounts as u64 - 1);
                let to = (account + usize::try_from(offset).unwrap_or(1)) % shape.accounts;
                let moved = if held > 0 {
                    (held / 4).clamp(1, units)
                } else {
                    units
                };
                let fee_units = (moved / 2000).max(1);
                if held < moved + fee_units {
                    summary.uncovered += 1;
                }
                if let Some(h) = holdings.get_mut(slot(account, asset)) {
                    *h -= moved + fee_units;
                }
                if let Some(h) = holdings.get_mut(slot(to, asset)) {
                    *h += moved;
                }
                let arrival = (now + 60 + random.below_i64(540)).min(end);
                Op::Transfer {
                    to,
                    asset,
                    units: moved,
                    fee_units,
                    arrival,
                }
            }
            _ => {
                summary.income += 1;
                let kind = match random.below(3) {
                    0 => Income::Staking,
                    1 => Income::Reward,
                    _ => Income::Airdrop,
                };
                let small = (units / 50).max(1);
                if let Some(h) = holdings.get_mut(slot(account, asset)) {
                    *h += small;
                }
                Op::Income {
                    kind,
                    asset,
                    units: small,
                }
            }
        };
        sink.op(seq, account, now, &op)?;
        if let Op::Transfer { arrival, .. } = op {
            now = arrival; // the arrival is written next: keep the files chronological
            written += 2;
        } else {
            written += 1;
        }
    }
    summary.transactions = written;
    summary.files = sink.finish()?;
    summary.price_rows = write_prices(dir, shape.assets)?;
    summary.files.push("prices.csv".to_owned());
    summary.rate_rows = write_rates(dir)?;
    summary.files.push("eurofxref-hist.csv".to_owned());
    Ok(summary)
}

fn first_day() -> NaiveDate {
    DateTime::from_timestamp(START_SECS, 0)
        .unwrap_or_default()
        .date_naive()
}

/// `prices.csv`: every asset on every day, in its quote currency.
fn write_prices(dir: &Path, assets: usize) -> Result<u64> {
    let mut out = create(dir, "prices.csv")?;
    out.write_all(b"date,symbol,close,currency\n")?;
    let names: Vec<String> = (0..assets).map(symbol).collect();
    let mut line = String::with_capacity(64);
    let mut rows = 0;
    let first = first_day();
    for day in 0..DAYS {
        let date = first + chrono::Days::new(day.unsigned_abs());
        let date = date.format("%Y-%m-%d").to_string();
        for (index, name) in names.iter().enumerate() {
            line.clear();
            line.push_str(&date);
            line.push(',');
            line.push_str(name);
            line.push(',');
            push_scaled(&mut line, price_micro(index, day), 6);
            line.push_str(if quoted_in_usd(index) {
                ",USD\n"
            } else {
                ",EUR\n"
            });
            out.write_all(line.as_bytes())?;
            rows += 1;
        }
    }
    out.flush()?;
    Ok(rows)
}

/// `eurofxref-hist.csv`: USD and GBP per EUR on weekdays, newest first, ECB layout.
fn write_rates(dir: &Path) -> Result<u64> {
    let mut out = create(dir, "eurofxref-hist.csv")?;
    out.write_all(b"Date,USD,GBP,\n")?;
    let first = first_day();
    let mut rows = 0;
    for day in (0..DAYS).rev() {
        let date = first + chrono::Days::new(day.unsigned_abs());
        if date.weekday().num_days_from_monday() >= 5 {
            continue;
        }
        let mut line = date.format("%Y-%m-%d,").to_string();
        push_scaled(&mut line, 10_500 + (day * 7) % 1_900, 4);
        line.push(',');
        push_scaled(&mut line, 7_200 + (day * 3) % 1_700, 4);
        line.push_str(",\n");
        out.write_all(line.as_bytes())?;
        rows += 2;
    }
    out.flush()?;
    Ok(rows)
}

#[cfg(test)]
mod tests;
