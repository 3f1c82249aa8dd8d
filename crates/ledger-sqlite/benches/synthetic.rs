//! A deterministic synthetic ledger shaped like the generic-CSV benchmark data
//! (`performance.md`): several accounts, a long tail of assets, buys, sells, swaps, transfers
//! and staking, bursts of equal timestamps.

use core_domain::rng::SplitMix64 as Rng;
use core_domain::{Asset, AssetAmount, Fee, Instant, TxType};
use rust_decimal::Decimal;
use shared_types::SpotTxType;
use use_cases::ports::{ImportBatch, NewImportLog, NewSpotRecord};

fn quantity(rng: &mut Rng) -> Decimal {
    let mantissa = i64::try_from(rng.below(10_000_000_000) + 1).unwrap_or(1);
    Decimal::new(mantissa, 8)
}

/// `n` records in file order, a batch per call.
#[allow(clippy::too_many_lines)] // One table of shapes reads best in one place.
pub(crate) fn batch(n: usize, seed: u64) -> ImportBatch {
    let mut rng = Rng::new(seed);
    let accounts: Vec<String> = (0..12)
        .map(|i| {
            if i % 3 == 0 {
                format!("Venue{i}")
            } else {
                format!("Venue{}:seg{i}", i - i % 3)
            }
        })
        .collect();
    let assets: Vec<Asset> = (0..2000)
        .map(|i| Asset::new(&format!("TOK{i}")).unwrap())
        .collect();
    let eur = Asset::new("EUR").unwrap();
    let mut at = Instant::parse("2014-01-01T00:00:00Z").unwrap().unix_nanos();
    let mut spot = Vec::with_capacity(n);
    for i in 0..n {
        // Bursts: one row in four shares the previous timestamp.
        if rng.below(4) != 0 {
            at += i64::try_from(rng.below(600) + 1).unwrap_or(1) * 1_000_000_000;
        }
        // A few majors carry most volume.
        let pick = |rng: &mut Rng| {
            let index = if rng.below(10) < 7 {
                rng.below(10)
            } else {
                rng.below(2000)
            };
            assets[usize::try_from(index).unwrap_or(0)]
        };
        let crypto = pick(&mut rng);
        let (tx_type, inflow, outflow, fee) = match rng.below(20) {
            0..=6 => (
                SpotTxType::Buy,
                Some((crypto, quantity(&mut rng))),
                Some((
                    eur,
                    Decimal::new(i64::try_from(rng.below(1_000_000)).unwrap_or(0) + 1, 2),
                )),
                Some((eur, Decimal::new(150, 2))),
            ),
            7..=10 => (
                SpotTxType::Sell,
                Some((
                    eur,
                    Decimal::new(i64::try_from(rng.below(1_000_000)).unwrap_or(0) + 1, 2),
                )),
                Some((crypto, quantity(&mut rng))),
                Some((eur, Decimal::new(99, 2))),
            ),
            11..=14 => {
                let other = pick(&mut rng);
                let other = if other == crypto { assets[1999] } else { other };
                (
                    SpotTxType::Swap,
                    Some((other, quantity(&mut rng))),
                    Some((crypto, quantity(&mut rng))),
                    None,
                )
            }
            15..=17 => (
                SpotTxType::TransferOut,
                None,
                Some((crypto, quantity(&mut rng))),
                Some((crypto, Decimal::new(1, 6))),
            ),
            _ => (
                SpotTxType::Staking,
                Some((crypto, quantity(&mut rng))),
                None,
                None,
            ),
        };
        let account = &accounts[usize::try_from(rng.below(12)).unwrap_or(0)];
        spot.push(NewSpotRecord {
            account: account.clone(),
            row_key: format!(
                "{:016x}{:016x}{:016x}{:016x}",
                rng.next_u64(),
                rng.next_u64(),
                rng.next_u64(),
                i
            ),
            content_key: None,
            dedupe_by_content_key: false,
            tx_type: TxType::Spot(tx_type),
            instant: Instant::from_unix_nanos(at),
            inflow: inflow.map(|(asset, quantity)| AssetAmount { asset, quantity }),
            outflow: outflow.map(|(asset, quantity)| AssetAmount { asset, quantity }),
            fee: fee.map(|(asset, quantity)| Fee { asset, quantity }),
            stated_value: None,
            stated_price: None,
            stated_fee_value: None,
            transfer_group_id: None,
            source_ref: Some(format!("id-{i}")),
            note: None,
            source_lines: vec![u64::try_from(i).unwrap_or(0) + 2],
        });
    }
    ImportBatch {
        log: NewImportLog {
            file_name: "synthetic.csv".to_owned(),
            format: "generic".to_owned(),
            rows_read: n as u64,
            ..NewImportLog::default()
        },
        spot,
        ..ImportBatch::default()
    }
}
