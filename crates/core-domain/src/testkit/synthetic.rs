//! A deterministic synthetic ledger for benchmarks and scale tests, shaped like the bench
//! generator of `performance.md`: accounts, a long tail of assets with a few majors carrying
//! most volume, 2014 to 2025, about 35 % buys, 20 % swaps, 20 % sales, 15 % transfers (out and
//! in legs with a network fee), 10 % income, same-timestamp bursts, dust and a few uncovered
//! disposals. Daily prices for every asset (some quoted in USD) and weekday ECB USD rates.
//!
//! The bookkeeping uses integer units (1e-8 of a coin) so that it needs no decimal arithmetic;
//! same `(rows, seed)` → identical ledger.

use rust_decimal::Decimal;
use shared_types::{CustodyKind, SpotTxType};

use crate::asset::Asset;
use crate::engine::{EffectiveRow, EngineInput};
use crate::ledger::{Account, AccountId, AssetAmount, Fee, RowKey, SpotRow, TxType};
use crate::market::{Market, PriceRow, RateRow};
use crate::rng::SplitMix64 as Random;
use crate::time::{Date, Instant};

/// A generated ledger with its market data.
#[derive(Clone, Debug)]
pub struct Synthetic {
    /// The accounts.
    pub accounts: Vec<Account>,
    /// The spot rows, in ledger order.
    pub rows: Vec<SpotRow>,
    /// Daily closes of every asset over the period.
    pub prices: Vec<PriceRow>,
    /// ECB USD rates on weekdays.
    pub rates: Vec<RateRow>,
}

impl Synthetic {
    /// The engine input (no overrides).
    pub fn input(&self) -> EngineInput {
        EngineInput {
            rows: self
                .rows
                .iter()
                .map(|row| EffectiveRow { row: row.clone() })
                .collect(),
            futures: Vec::new(),
        }
    }

    /// The market tables.
    pub fn market(&self) -> Market {
        Market::new(self.rates.iter().copied(), self.prices.iter().copied())
            .unwrap_or_else(|error| panic!("synthetic market: {error}"))
    }
}

const FIRST_DAY: &str = "2014-01-01";
const DAYS: u64 = 4383; // 2014-01-01 to 2025-12-31
const UNITS: i64 = 100_000_000;

fn symbol(index: usize) -> Asset {
    const MAJORS: [&str; 10] = [
        "BTC", "ETH", "SOL", "ADA", "DOT", "XRP", "LTC", "BNB", "USDT", "LINK",
    ];
    let text = MAJORS
        .get(index)
        .map_or_else(|| format!("TK{index}"), |s| (*s).to_owned());
    Asset::new(&text).unwrap_or_else(|error| panic!("synthetic symbol: {error}"))
}

/// Unit price of asset `index` on day `day`, in cents of its quote currency.
fn price_cents(index: usize, day: u64) -> i64 {
    let base: i64 = match index {
        0 => 2_000_000,
        1 => 150_000,
        2..=9 => 2_000 + i64::try_from(index).unwrap_or(0) * 1_000,
        _ => 5 + i64::try_from(index % 997).unwrap_or(0),
    };
    let wave = i64::try_from((day * 37 + index as u64 * 101) % 400).unwrap_or(0);
    (base * (800 + wave) / 1000).max(1)
}

/// Whether asset `index` is quoted in USD (the others in EUR).
fn quoted_in_usd(index: usize) -> bool {
    index % 5 == 3
}

fn eur() -> Asset {
    Asset::new("EUR").unwrap_or_else(|error| panic!("{error}"))
}

#[allow(clippy::too_many_arguments)] // A row literal in argument form.
fn push(
    spot: &mut Vec<SpotRow>,
    seq: &mut u64,
    account: u32,
    tx_type: SpotTxType,
    instant: i64,
    inflow: Option<AssetAmount>,
    outflow: Option<AssetAmount>,
    fee: Option<Fee>,
) {
    *seq += 1;
    spot.push(SpotRow {
        row_key: RowKey::new(&format!("g{seq}")),
        seq: *seq,
        account_id: AccountId(account),
        tx_type: TxType::Spot(tx_type),
        instant: Instant::from_unix_nanos(instant),
        inflow,
        outflow,
        fee,
        values: None,
        transfer_group_id: None,
    });
}

/// Generates `rows` spot rows (transfers count as two) with `seed`.
#[allow(clippy::too_many_lines)] // One generator, read top to bottom.
pub fn synthetic(rows: usize, seed: u64) -> Synthetic {
    let mut random = Random::new(seed ^ 0x00C0_FFEE);
    let account_count = 3 + (seed % 23) as usize;
    let asset_count = (rows / 500).clamp(20, 2000);
    let accounts: Vec<Account> = (0..account_count)
        .map(|i| Account {
            id: AccountId(i as u32 + 1),
            name: format!("Venue{i}"),
            parent_id: None,
            custody_kind: CustodyKind::default(),
            country: None,
        })
        .collect();
    let first = Date::parse_from_str(FIRST_DAY, "%Y-%m-%d").unwrap_or(Date::MIN);
    let start = Instant::from_utc(first, 0, 0, 0, 0).map_or(0, Instant::unix_nanos);
    let span = i64::try_from(DAYS).unwrap_or(0) * 86_400 * 1_000_000_000;
    let step = span / i64::try_from(rows.max(1)).unwrap_or(1);
    let euro = eur();
    let mut holdings: Vec<i64> = vec![0; asset_count];
    let mut spot = Vec::with_capacity(rows + rows / 8);
    let mut seq: u64 = 0;
    let mut now = start;
    let pick_asset = |random: &mut Random| -> usize {
        if random.percent() < 70 {
            random.below(10.min(asset_count as u64)) as usize
        } else {
            random.below(asset_count as u64) as usize
        }
    };
    let coins = |asset: usize, units: i64| AssetAmount {
        asset: symbol(asset),
        quantity: Decimal::new(units.max(1), 8),
    };
    while spot.len() < rows {
        // Bursts: 5 % of rows share the previous row's timestamp.
        if random.percent() >= 5 {
            now += step.max(1) / 2
                + i64::try_from(random.below(step.max(1).unsigned_abs())).unwrap_or(0);
        }
        let day = u64::try_from((now - start) / 86_400_000_000_000).unwrap_or(0);
        let account = 1 + random.below(account_count as u64) as u32;
        let asset = pick_asset(&mut random);
        let roll = random.percent();
        // Quantity worth about 10 to 5000 EUR, some dust.
        let value_cents = if random.percent() < 3 {
            1 + i64::try_from(random.below(50)).unwrap_or(0)
        } else {
            1_000 + i64::try_from(random.below(500_000)).unwrap_or(0)
        };
        let units = (value_cents * UNITS / price_cents(asset, day)).max(1);
        match roll {
            0..35 => {
                holdings[asset] += units;
                let cost = value_cents;
                push(
                    &mut spot,
                    &mut seq,
                    account,
                    SpotTxType::Buy,
                    now,
                    Some(coins(asset, units)),
                    Some(AssetAmount {
                        asset: euro,
                        quantity: Decimal::new(cost.max(1), 2),
                    }),
                    Some(Fee {
                        asset: euro,
                        quantity: Decimal::new((cost / 500).max(1), 2),
                    }),
                );
            }
            35..55 => {
                let held = holdings[asset];
                // 1 % of sales sell more than is held (uncovered disposals).
                let sold = if random.percent() == 0 || held <= 0 {
                    units
                } else {
                    (held / 2).max(1).min(units)
                };
                holdings[asset] -= sold;
                let proceeds = (i128::from(sold) * i128::from(price_cents(asset, day))
                    / i128::from(UNITS)) as i64;
                push(
                    &mut spot,
                    &mut seq,
                    account,
                    SpotTxType::Sell,
                    now,
                    Some(AssetAmount {
                        asset: euro,
                        quantity: Decimal::new(proceeds.max(1), 2),
                    }),
                    Some(coins(asset, sold)),
                    Some(Fee {
                        asset: euro,
                        quantity: Decimal::new((proceeds / 400).max(1), 2),
                    }),
                );
            }
            55..75 => {
                let mut received = pick_asset(&mut random);
                if received == asset {
                    received = (asset + 1) % asset_count;
                }
                let held = holdings[asset];
                let given = if held <= 0 { units } else { (held / 3).max(1) };
                holdings[asset] -= given;
                let worth = i128::from(given) * i128::from(price_cents(asset, day));
                let got = (worth / i128::from(price_cents(received, day)).max(1)) as i64;
                holdings[received] += got.max(1);
                let fee_units = (given / 1000).max(1);
                holdings[asset] -= fee_units;
                push(
                    &mut spot,
                    &mut seq,
                    account,
                    SpotTxType::Swap,
                    now,
                    Some(coins(received, got)),
                    Some(coins(asset, given)),
                    Some(Fee {
                        asset: symbol(asset),
                        quantity: Decimal::new(fee_units, 8),
                    }),
                );
            }
            75..90 => {
                let to = 1 + (account % account_count as u32);
                let held = holdings[asset];
                let moved = if held <= 0 { units } else { (held / 4).max(1) };
                let network_fee = (moved / 2000).max(1);
                holdings[asset] -= network_fee;
                push(
                    &mut spot,
                    &mut seq,
                    account,
                    SpotTxType::TransferOut,
                    now,
                    None,
                    Some(coins(asset, moved)),
                    Some(Fee {
                        asset: symbol(asset),
                        quantity: Decimal::new(network_fee, 8),
                    }),
                );
                push(
                    &mut spot,
                    &mut seq,
                    to,
                    SpotTxType::TransferIn,
                    now + 600_000_000_000,
                    Some(coins(asset, moved)),
                    None,
                    None,
                );
            }
            _ => {
                let kind = [SpotTxType::Staking, SpotTxType::Reward, SpotTxType::Airdrop]
                    [random.below(3) as usize];
                let small = (units / 50).max(1);
                holdings[asset] += small;
                push(
                    &mut spot,
                    &mut seq,
                    account,
                    kind,
                    now,
                    Some(coins(asset, small)),
                    None,
                    None,
                );
            }
        }
    }
    spot.sort_by_key(|row| (row.instant, row.seq));
    let usd = Asset::new("USD").unwrap_or_else(|error| panic!("{error}"));
    let mut prices = Vec::with_capacity(asset_count * DAYS as usize);
    let mut rates = Vec::with_capacity(DAYS as usize);
    for day in 0..DAYS {
        let date = first + chrono::Days::new(day);
        let weekday = chrono::Datelike::weekday(&date).num_days_from_monday();
        if weekday < 5 {
            rates.push(RateRow {
                currency: usd,
                date,
                rate: Decimal::new(10_800 + i64::try_from(day % 700).unwrap_or(0), 4),
            });
        }
        for asset in 0..asset_count {
            prices.push(PriceRow {
                asset: symbol(asset),
                date,
                close: Decimal::new(price_cents(asset, day), 2),
                currency: if quoted_in_usd(asset) { usd } else { euro },
            });
        }
    }
    Synthetic {
        accounts,
        rows: spot,
        prices,
        rates,
    }
}
