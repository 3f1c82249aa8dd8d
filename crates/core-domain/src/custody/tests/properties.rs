//! `domain.md` §16 items 9 (custody reconciliation) and 10 (pairing).

use std::collections::BTreeMap;

use proptest::prelude::*;

use super::*;

const QUANTITIES: &[&str] = &["0.0001", "0.3", "0.5", "0.4999", "1", "1.5", "2"];
const ASSETS: &[&str] = &["BTC", "ETH"];
const TYPES: &[SpotTxType] = &[
    SpotTxType::Buy,
    SpotTxType::Buy,
    SpotTxType::Sell,
    SpotTxType::TransferOut,
    SpotTxType::TransferOut,
    SpotTxType::TransferIn,
    SpotTxType::TransferIn,
    SpotTxType::MigrationSwap,
];

/// `(type, account, asset, quantity, hour, fee?, group?)`.
type Spec = (usize, u32, usize, usize, u32, Option<usize>, Option<u8>);

fn spec() -> impl Strategy<Value = Spec> {
    (
        0..TYPES.len(),
        1u32..=3,
        0..ASSETS.len(),
        0..QUANTITIES.len(),
        0u32..200,
        proptest::option::weighted(0.3, 0..2usize),
        proptest::option::weighted(0.2, 0u8..3),
    )
}

fn build(specs: &[Spec]) -> Vec<EffectiveRow> {
    specs
        .iter()
        .enumerate()
        .map(|(i, &(t, account, a, q, hour, fee, group))| {
            let tx = TYPES[t];
            let asset = ASSETS[a];
            let other = ASSETS[1 - a];
            let qty = format!("{} {asset}", QUANTITIES[q]);
            let instant = format!("2024-01-{:02}T{:02}:00:00Z", 1 + hour / 24, hour % 24);
            let fee = fee.map_or(String::new(), |f| {
                format!("{} {asset}", ["0.0001", "0.0002"][f])
            });
            let (inflow, outflow) = match tx {
                SpotTxType::Buy => (qty.clone(), "100 EUR".to_owned()),
                SpotTxType::Sell => ("100 EUR".to_owned(), qty.clone()),
                SpotTxType::TransferOut => (String::new(), qty.clone()),
                SpotTxType::TransferIn => (qty.clone(), String::new()),
                _ => (
                    format!("{} {other}", QUANTITIES[(q + 1) % QUANTITIES.len()]),
                    qty.clone(),
                ),
            };
            let mut r = row(
                &format!("r{i}"),
                i as u64 + 1,
                AccountId(account),
                tx,
                &instant,
                &inflow,
                &outflow,
                &fee,
            );
            r.row.transfer_group_id = group.map(|g| format!("g{g}"));
            r
        })
        .collect()
}

fn check_reconciliation(input: &EngineInput, output: &EngineOutput, custody: &CustodyOutput) {
    // Pieces are never negative.
    assert!(custody.locations.iter().all(|l| l.quantity > Decimal::ZERO));
    assert!(
        custody
            .balances
            .iter()
            .all(|b| b.custody_quantity >= Decimal::ZERO)
    );
    // ledger − custody = gap, and every ledger balance matches the legs and movements.
    let mut expected: BTreeMap<(Location, Asset), Decimal> = BTreeMap::new();
    for lot in &output.lots {
        *expected
            .entry((Location::Account(lot.account_id), lot.asset))
            .or_default() += lot.original_quantity;
    }
    for op in &output.operations {
        *expected
            .entry((Location::Account(op.account_id), op.asset))
            .or_default() -= op.quantity;
    }
    for m in &custody.movements {
        *expected.entry((m.from, m.asset)).or_default() -= m.quantity;
        *expected.entry((m.to, m.asset)).or_default() += m.quantity;
    }
    for b in &custody.balances {
        assert_eq!(b.ledger_balance - b.custody_quantity, b.gap);
        assert_eq!(
            expected
                .get(&(b.location, b.asset))
                .copied()
                .unwrap_or_default(),
            b.ledger_balance,
            "{:?} {}",
            b.location,
            b.asset
        );
    }
    // Per asset: Σ ledger balances = Σ remaining lot quantity − Σ uncovered quantity.
    for symbol in ASSETS {
        let a = asset(symbol);
        let ledger: Decimal = custody
            .balances
            .iter()
            .filter(|b| b.asset == a)
            .map(|b| b.ledger_balance)
            .sum();
        let remaining: Decimal = output
            .lots
            .iter()
            .filter(|l| l.asset == a)
            .map(|l| l.remaining_quantity)
            .sum();
        let uncovered: Decimal = output
            .slices
            .iter()
            .filter(|s| s.asset == a && s.lot_id.is_none())
            .map(|s| s.quantity)
            .sum();
        assert_eq!(ledger, remaining - uncovered, "{symbol}");
        // Pieces are lot quantities that exist: per lot, Σ pieces ≤ the lot's original quantity.
        for lot in output.lots.iter().filter(|l| l.asset == a) {
            let held: Decimal = custody
                .locations
                .iter()
                .filter(|l| l.lot_id == lot.lot_id)
                .map(|l| l.quantity)
                .sum();
            assert!(held <= lot.original_quantity);
        }
    }
    // Relocations of a movement never exceed its quantity.
    for (i, m) in custody.movements.iter().enumerate() {
        let moved: Decimal = custody
            .relocations
            .iter()
            .filter(|r| r.movement as usize == i)
            .map(|r| r.quantity)
            .sum();
        assert!(moved <= m.quantity);
    }
    let _ = input;
}

fn check_pairing(rows: &[EffectiveRow], movements: &[Movement]) {
    let mut seen = vec![0u32; rows.len()];
    for m in movements.iter().filter(|m| m.part == MovementPart::Main) {
        for r in [m.out_row, m.in_row].into_iter().flatten() {
            seen[r as usize] += 1;
        }
        if let (Some(o), Some(i)) = (m.out_row, m.in_row) {
            let (o, i) = (&rows[o as usize].row, &rows[i as usize].row);
            let (oq, iq) = (o.outflow.unwrap(), i.inflow.unwrap());
            assert_eq!(oq.asset, iq.asset);
            match m.basis {
                MovementBasis::AutoPaired => {
                    assert_ne!(o.account_id, i.account_id);
                    assert!(iq.quantity <= oq.quantity);
                    let fee = |r: &SpotRow| {
                        r.fee
                            .filter(|f| f.asset == oq.asset)
                            .map_or(Decimal::ZERO, |f| f.quantity)
                    };
                    assert!(oq.quantity - iq.quantity <= fee(o) + fee(i));
                    assert!(o.instant.abs_diff_nanos(i.instant) <= 72 * 3_600_000_000_000);
                }
                MovementBasis::GroupId => {
                    assert_ne!(o.account_id, i.account_id);
                    assert_eq!(o.transfer_group_id, i.transfer_group_id);
                }
                other => panic!("unexpected basis {other:?} for a pair"),
            }
        }
    }
    for (r, row) in rows.iter().enumerate() {
        let is_leg = matches!(
            row.row.tx_type,
            TxType::Spot(SpotTxType::TransferIn | SpotTxType::TransferOut)
        );
        assert_eq!(seen[r], u32::from(is_leg), "{}", row.row.row_key);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn custody_reconciles(specs in proptest::collection::vec(spec(), 0..24)) {
        let rows = build(&specs);
        let (input, output, custody) = run(rows, &[]);
        check_reconciliation(&input, &output, &custody);
        check_pairing(&input.rows, &custody.movements);
    }

    #[test]
    fn pairing_is_one_to_one_and_within_the_rules(specs in proptest::collection::vec(spec(), 0..40)) {
        let rows = build(&specs);
        let movements = resolve(&rows, &[]).unwrap();
        check_pairing(&rows, &movements);
        // The replay order is the ledger position of each movement.
        prop_assert!(movements.windows(2).all(|w| (w[0].instant, w[0].seq, w[0].part) <= (w[1].instant, w[1].seq, w[1].part)));
    }
}
