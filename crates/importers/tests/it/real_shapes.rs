//! The real-shape fixtures of issue 22 (`test_data/real/`) under arbitrary damage: random bytes
//! after their header, and single cells of their real rows replaced by hostile values
//! (exponents out of range, locale numbers, control characters, huge cells), with and without
//! a label map. Nothing panics and every row is accounted for.

use importers::{ImportOptions, Profile};
use proptest::prelude::*;

const FIXTURES: [(&str, Profile); 17] = [
    (
        "real/binance-statement/binance-statement-2024.csv",
        Profile::BinanceStatement,
    ),
    ("real/bitvavo/bitvavo-current-2023.csv", Profile::Bitvavo),
    (
        "real/kraken-ledgers/kraken-ledgers-2020-no-subtype.csv",
        Profile::KrakenLedgers,
    ),
    (
        "real/kraken-ledgers/kraken-ledgers-2022-staking.csv",
        Profile::KrakenLedgers,
    ),
    (
        "real/coinbase/coinbase-2021-eur-columns.csv",
        Profile::Coinbase,
    ),
    ("real/coinbase/coinbase-2024-no-id.csv", Profile::Coinbase),
    (
        "real/binance-statement/binance-statement-2024.csv",
        Profile::Coinbase,
    ),
    // The audit's generations (D-160..D-163).
    (
        "real/coinbase/coinbase-2022-v3-preamble.csv",
        Profile::Coinbase,
    ),
    (
        "real/coinbase/coinbase-2025-v4-labels.csv",
        Profile::Coinbase,
    ),
    (
        "real/coinbase/coinbase-2026-convert-pairs.csv",
        Profile::Coinbase,
    ),
    (
        "real/kraken-ledgers/kraken-ledgers-2024-earn.csv",
        Profile::KrakenLedgers,
    ),
    (
        "real/kraken-ledgers/kraken-ledgers-2022-opt-in.csv",
        Profile::KrakenLedgers,
    ),
    (
        "real/kraken-ledgers/kraken-ledgers-2024-dustsweeping.csv",
        Profile::KrakenLedgers,
    ),
    ("real/bitvavo/bitvavo-legacy-2023.csv", Profile::Bitvavo),
    (
        "real/binance-statement/binance-statement-2021-quoted-bom.csv",
        Profile::BinanceStatement,
    ),
    (
        "real/binance-statement/Binance-Transaction-History-202403010400(UTC+1)_ab12.csv",
        Profile::BinanceStatement,
    ),
    (
        "real/cryptocom-app/cryptocom-2023-rewards.csv",
        Profile::CryptocomApp,
    ),
];

fn hostile() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "",
            "-3.605E-05",
            "3.8E-7",
            "1E-29",
            "9E+999",
            "1e-28",
            "-0E-0",
            "1.5E28",
            "-32.156874000000003",
            "0.30000000000000004",
            "0,01006655",
            "1.234,5",
            "€ 300.00",
            "100,00 €",
            "Converted 0,002225 BTC to 318,3483088 XLM",
            "Bought 0,01006655 BTC for 100,00 € EUR",
            "Converted 1 ETH to 1 ETH2",
            "Asset Migration",
            "LDUSDT",
            "LD",
            "ETH2",
            "DOT.S",
            "spottostaking",
            "transfer",
            "Distributed",
            "2021-05-12T08:00:11Z",
            "2024-09-10 02:00:00 UTC",
            "99999999999999999999999999999",
            "\u{0}\u{1b}[31m",
            "Incentives Rewards Payout",
            "Retail Simple Price Improvement",
            "Received 5 XLM from Coinbase Earn",
            "dustsweeping",
            "23-12-31 23:59:59",
            "pay_checkout_reward",
            "\"",
        ])
        .prop_map(str::to_owned),
        "[ -~]{0,40}",
        "\\PC{0,12}",
    ]
}

fn check(bytes: &[u8], options: &ImportOptions) -> Result<(), TestCaseError> {
    let r = importers::import_bytes(bytes, options);
    prop_assert_eq!(
        r.rows_read,
        r.rows_in_records + r.skipped_total() + r.invalid_rows,
        "{:?}",
        r.findings
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn mutated_real_rows_never_panic_and_rows_add_up(
        which in 0..FIXTURES.len(),
        pick in any::<prop::sample::Index>(),
        cell in any::<prop::sample::Index>(),
        value in hostile(),
        forced in any::<bool>(),
        mapped in any::<bool>(),
    ) {
        let (path, profile) = FIXTURES[which];
        let text = String::from_utf8(crate::data(path)).unwrap();
        let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
        // Damage one cell of one data line (the header stays).
        let header_at = lines.iter().position(|l| l.contains("Timestamp") || l.contains("txid") || l.contains("UTC_Time") || l.starts_with("Timezone")).unwrap_or(0);
        if lines.len() > header_at + 1 {
            let i = header_at + 1 + pick.index(lines.len() - header_at - 1);
            let mut cells: Vec<String> = lines[i].split(',').map(str::to_owned).collect();
            let c = cell.index(cells.len());
            cells[c] = if value.contains([',', '"']) { format!("\"{}\"", value.replace('"', "\"\"")) } else { value.clone() };
            lines[i] = cells.join(",");
        }
        let bytes = lines.join("\n").into_bytes();
        let label_map = if mapped {
            [
                "binance:Card Cashback=REWARD",
                "binance:Transaction Fee=FEE",
                "bitvavo:staking=AIRDROP",
                "coinbase:Asset Migration=TRANSFER_IN",
                "coinbase:Buy=SPEND",
                "kraken:transfer spottostaking=TRANSFER_OUT",
                "kraken:trade tradespot=FEE",
            ]
            .iter()
            .map(|t| shared_types::LabelMapping::parse(t).unwrap())
            .collect()
        } else {
            Vec::new()
        };
        let options = ImportOptions {
            format: forced.then_some(profile),
            label_map,
            // A statement whose times carry no zone is read at the offset its name states.
            timezone: path.contains("(UTC+1)").then(|| importers::Zone::parse("+01:00")).flatten(),
            ..ImportOptions::default()
        };
        check(&bytes, &options)?;
    }

    #[test]
    fn random_bytes_after_a_real_header_never_panic(
        which in 0..FIXTURES.len(),
        tail in prop::collection::vec(any::<u8>(), 0..400),
    ) {
        let (path, profile) = FIXTURES[which];
        let text = crate::data(path);
        let cut = text.iter().position(|b| *b == b'\n').map_or(text.len(), |p| p + 1);
        let mut bytes = text[..cut].to_vec();
        bytes.extend_from_slice(&tail);
        let _ = importers::import_bytes(&bytes, &ImportOptions::default());
        let forced = ImportOptions { format: Some(profile), ..ImportOptions::default() };
        let _ = importers::import_bytes(&bytes, &forced);
    }
}
