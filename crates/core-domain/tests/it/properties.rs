//! Engine invariants of `domain.md` §16 (1 to 6, 8 and 14) over generated ledgers: several
//! accounts and assets, same-instant bursts, dust, missing prices and rates, fees in the
//! principal, in fiat and in third assets, transfers, swaps, migrations and uncovered disposals.

use std::collections::{BTreeMap, BTreeSet};

use core_domain::engine::{DisposalLeg, EngineOutput, Lot, LotId, Slice};
use core_domain::testkit::{
    self, DumpLine, Ledger, Outcome, RowSpec, airdrop, buy, edit, fee_row, fork, migration, reward,
    sell, spend, staking, swap, transfer_in, transfer_out,
};
use core_domain::{Asset, fifo, num};
use proptest::prelude::*;
use rust_decimal::Decimal;

const CRYPTO: [&str; 5] = ["BTC", "ETH", "SOL", "DOT", "XYZ"];
const ACCOUNTS: [&str; 4] = ["Kraken", "Kraken:earn", "Bitvavo", "Ledger"];
const DAYS: u32 = 24;

#[derive(Clone, Debug)]
struct Quantity(i64, u32);

impl Quantity {
    fn text(&self) -> String {
        num::quantity(Decimal::new(self.0, self.1))
    }
}

fn quantity() -> impl Strategy<Value = Quantity> {
    prop_oneof![
        4 => (1i64..=300, 0u32..=2).prop_map(|(m, s)| Quantity(m, s)),
        1 => (1i64..=99, 6u32..=10).prop_map(|(m, s)| Quantity(m, s)),
    ]
}

#[derive(Clone, Debug)]
enum FeeGen {
    None,
    Eur(Quantity),
    Usd(Quantity),
    Principal(Quantity),
    Third(usize, Quantity),
    Zero,
}

fn fee() -> impl Strategy<Value = FeeGen> {
    prop_oneof![
        4 => Just(FeeGen::None),
        1 => quantity().prop_map(FeeGen::Eur),
        1 => quantity().prop_map(FeeGen::Usd),
        1 => (1i64..=50, 3u32..=6).prop_map(|(m, s)| FeeGen::Principal(Quantity(m, s))),
        1 => (0usize..CRYPTO.len(), (1i64..=50, 3u32..=6)).prop_map(|(a, (m, s))| FeeGen::Third(a, Quantity(m, s))),
        1 => Just(FeeGen::Zero),
    ]
}

#[derive(Clone, Debug)]
enum Op {
    Buy {
        asset: usize,
        qty: Quantity,
        eur: Option<Quantity>,
        fee: FeeGen,
        usdt_value: bool,
    },
    Sell {
        asset: usize,
        qty: Quantity,
        eur: Option<Quantity>,
        fee: FeeGen,
    },
    Swap {
        given: usize,
        received: usize,
        qg: Quantity,
        qr: Quantity,
        fee: FeeGen,
        stated: Option<Quantity>,
    },
    Income {
        kind: u8,
        asset: usize,
        qty: Quantity,
    },
    Transfer {
        to: usize,
        asset: usize,
        qty: Quantity,
        fee: FeeGen,
    },
    Migration {
        old: usize,
        new: usize,
        qo: Quantity,
        qn: Quantity,
        fee: FeeGen,
    },
    Spend {
        asset: usize,
        qty: Quantity,
        fee: FeeGen,
    },
    FeeRow {
        asset: usize,
        qty: Quantity,
    },
    FiatReward {
        qty: Quantity,
    },
}

fn asset_index() -> impl Strategy<Value = usize> {
    prop_oneof![3 => 0usize..2, 2 => 0usize..CRYPTO.len()]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => (asset_index(), quantity(), proptest::option::weighted(0.8, quantity()), fee(), proptest::bool::weighted(0.1))
            .prop_map(|(asset, qty, eur, fee, usdt_value)| Op::Buy { asset, qty, eur, fee, usdt_value }),
        4 => (asset_index(), quantity(), proptest::option::weighted(0.8, quantity()), fee())
            .prop_map(|(asset, qty, eur, fee)| Op::Sell { asset, qty, eur, fee }),
        3 => (asset_index(), asset_index(), quantity(), quantity(), fee(), proptest::option::weighted(0.2, quantity()))
            .prop_filter("different assets", |(g, r, ..)| g != r)
            .prop_map(|(given, received, qg, qr, fee, stated)| Op::Swap { given, received, qg, qr, fee, stated }),
        2 => (0u8..4, asset_index(), quantity()).prop_map(|(kind, asset, qty)| Op::Income { kind, asset, qty }),
        2 => (0usize..ACCOUNTS.len(), asset_index(), quantity(), fee())
            .prop_map(|(to, asset, qty, fee)| Op::Transfer { to, asset, qty, fee }),
        1 => (asset_index(), 0usize..CRYPTO.len(), quantity(), quantity(), fee())
            .prop_filter("different assets", |(o, n, ..)| o != n)
            .prop_map(|(old, new, qo, qn, fee)| Op::Migration { old, new, qo, qn, fee }),
        1 => (asset_index(), quantity(), fee()).prop_map(|(asset, qty, fee)| Op::Spend { asset, qty, fee }),
        1 => (asset_index(), quantity()).prop_map(|(asset, qty)| Op::FeeRow { asset, qty }),
        1 => quantity().prop_map(|qty| Op::FiatReward { qty }),
    ]
}

/// A generated row: its op, account, day and time slot (slots collide into bursts).
#[derive(Clone, Debug)]
struct Gen {
    op: Op,
    account: usize,
    day: u32,
    slot: u32,
}

#[derive(Clone, Debug)]
struct Market {
    /// `(asset, day)` → close currency (0 EUR, 1 USD) or missing.
    prices: Vec<Option<u8>>,
    /// USD rates missing on these days (carry-back from the previous day).
    missing_rate_until: u32,
}

fn market() -> impl Strategy<Value = Market> {
    (
        proptest::collection::vec(
            proptest::option::weighted(0.75, 0u8..2),
            CRYPTO.len() * DAYS as usize,
        ),
        0u32..6,
    )
        .prop_map(|(prices, missing_rate_until)| Market {
            prices,
            missing_rate_until,
        })
}

fn ledger_strategy() -> impl Strategy<Value = (Vec<Gen>, Market)> {
    (
        proptest::collection::vec(
            (op(), 0usize..ACCOUNTS.len(), 0u32..DAYS, 0u32..3).prop_map(
                |(op, account, day, slot)| Gen {
                    op,
                    account,
                    day,
                    slot,
                },
            ),
            1..40,
        ),
        market(),
    )
}

fn at(day: u32, slot: u32) -> String {
    let date = testkit::date("2024-01-01") + chrono::Days::new(u64::from(day));
    let hour = [10, 10, 15][slot as usize % 3];
    format!("{date}T{hour:02}:00:00Z")
}

fn with_fee(row: RowSpec, fee: &FeeGen, principal: &str) -> RowSpec {
    match fee {
        FeeGen::None => row,
        FeeGen::Zero => row.fee("0", principal),
        FeeGen::Eur(q) => row.fee(&q.text(), "EUR"),
        FeeGen::Usd(q) => row.fee(&q.text(), "USD"),
        FeeGen::Principal(q) => row.fee(&q.text(), principal),
        FeeGen::Third(a, q) => row.fee(&q.text(), CRYPTO[*a]),
    }
}

#[allow(clippy::too_many_lines)] // One arm per generated operation, read as a table.
fn build(gens: &[Gen], market: &Market) -> Ledger {
    let mut ledger = Ledger::new();
    for (i, g) in gens.iter().enumerate() {
        let key = format!("r{i:02}");
        let account = ACCOUNTS[g.account];
        let when = at(g.day, g.slot);
        let rows: Vec<RowSpec> = match &g.op {
            Op::Buy {
                asset,
                qty,
                eur,
                fee,
                usdt_value,
            } => {
                let mut row = buy(&key, account, &when).inflow(&qty.text(), CRYPTO[*asset]);
                if let Some(eur) = eur {
                    row = row.outflow(&eur.text(), "EUR");
                }
                if *usdt_value {
                    row = row.stated_value("30", "USDT");
                }
                vec![with_fee(row, fee, CRYPTO[*asset])]
            }
            Op::Sell {
                asset,
                qty,
                eur,
                fee,
            } => {
                let mut row = sell(&key, account, &when).outflow(&qty.text(), CRYPTO[*asset]);
                if let Some(eur) = eur {
                    row = row.inflow(&eur.text(), "EUR");
                }
                vec![with_fee(row, fee, CRYPTO[*asset])]
            }
            Op::Swap {
                given,
                received,
                qg,
                qr,
                fee,
                stated,
            } => {
                let mut row = swap(&key, account, &when)
                    .outflow(&qg.text(), CRYPTO[*given])
                    .inflow(&qr.text(), CRYPTO[*received]);
                if let Some(value) = stated {
                    row = row.stated_value(&value.text(), "USD");
                }
                vec![with_fee(row, fee, CRYPTO[*given])]
            }
            Op::Income { kind, asset, qty } => {
                let make = [staking, airdrop, reward, fork][*kind as usize % 4];
                vec![make(&key, account, &when).inflow(&qty.text(), CRYPTO[*asset])]
            }
            Op::Transfer {
                to,
                asset,
                qty,
                fee,
            } => {
                let out_key = format!("{key}o");
                let in_key = format!("{key}i");
                let arrive = at(g.day, g.slot + 1);
                vec![
                    with_fee(
                        transfer_out(&out_key, account, &when).outflow(&qty.text(), CRYPTO[*asset]),
                        fee,
                        CRYPTO[*asset],
                    ),
                    transfer_in(&in_key, ACCOUNTS[*to], &arrive)
                        .inflow(&qty.text(), CRYPTO[*asset]),
                ]
            }
            Op::Migration {
                old,
                new,
                qo,
                qn,
                fee,
            } => vec![with_fee(
                migration(&key, account, &when)
                    .outflow(&qo.text(), CRYPTO[*old])
                    .inflow(&qn.text(), CRYPTO[*new]),
                fee,
                CRYPTO[*old],
            )],
            Op::Spend { asset, qty, fee } => vec![with_fee(
                spend(&key, account, &when).outflow(&qty.text(), CRYPTO[*asset]),
                fee,
                CRYPTO[*asset],
            )],
            Op::FeeRow { asset, qty } => {
                vec![fee_row(&key, account, &when).outflow(&qty.text(), CRYPTO[*asset])]
            }
            Op::FiatReward { qty } => vec![reward(&key, account, &when).inflow(&qty.text(), "EUR")],
        };
        for row in rows {
            ledger.push(row);
        }
    }
    for day in 0..DAYS {
        let date = (testkit::date("2024-01-01") + chrono::Days::new(u64::from(day))).to_string();
        if day >= market.missing_rate_until {
            ledger = ledger.rate(&date, "USD", "1.0850");
        }
        for (a, symbol) in CRYPTO.iter().enumerate() {
            let Some(currency) = market.prices[a * DAYS as usize + day as usize] else {
                continue;
            };
            // Close with up to 4 decimals so values need real rounding.
            let close = Decimal::new(
                i64::from(day + 1) * 1_2345 + i64::try_from(a).unwrap_or(0) * 7_001,
                4,
            );
            let close = num::quantity(close);
            ledger = ledger.price(
                &date,
                symbol,
                &close,
                if currency == 0 { "EUR" } else { "USD" },
            );
        }
    }
    ledger
}

fn texts(lines: &[DumpLine]) -> Vec<String> {
    lines.iter().map(|l| l.text.clone()).collect()
}

fn rerun(ledger: &Ledger, permutation: &[u32]) -> Outcome {
    let mut input = ledger.input();
    let mut keyed: Vec<(u32, usize)> = (0..input.rows.len())
        .map(|i| {
            (
                permutation
                    .get(i % permutation.len().max(1))
                    .copied()
                    .unwrap_or(0)
                    ^ i as u32,
                i,
            )
        })
        .collect();
    keyed.sort_unstable();
    let rows = std::mem::take(&mut input.rows);
    input.rows = keyed.iter().map(|&(_, i)| rows[i].clone()).collect();
    input.futures.reverse();
    let output = fifo::run(&input, &ledger.market(), ledger.settings()).expect("engine runs");
    Outcome {
        accounts: ledger.accounts().to_vec(),
        input,
        output,
    }
}

fn lot_of(output: &EngineOutput, id: LotId) -> &Lot {
    output.lot(id).expect("slice lot exists")
}

/// Closes an asset set over migration edges (old → new): carried lots inherit the cost and the
/// queue position of a lot of another asset (§8.8), so a migration makes its new asset depend on
/// its old one. The spec's §16.1 and §16.14 hold for assets related this way only as a whole.
fn close_over_migrations(
    rows: &[core_domain::SpotRow],
    mut assets: BTreeSet<Asset>,
) -> BTreeSet<Asset> {
    loop {
        let before = assets.len();
        for row in rows {
            if row.tx_type == core_domain::TxType::Spot(shared_types::SpotTxType::MigrationSwap)
                && let (Some(out), Some(inflow)) = (row.outflow, row.inflow)
                && assets.contains(&out.asset)
            {
                assets.insert(inflow.asset);
            }
        }
        if assets.len() == before {
            return assets;
        }
    }
}

fn config() -> ProptestConfig {
    // 96 cases keep the suite fast on two cores; `PROPTEST_CASES` explores more.
    let cases = if std::env::var_os("PROPTEST_CASES").is_some() {
        ProptestConfig::default().cases
    } else {
        96
    };
    ProptestConfig {
        cases,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    /// §16.1: two runs, and a run over any permutation of the input list, are byte-identical.
    #[test]
    fn determinism((gens, market) in ledger_strategy(), permutation in proptest::collection::vec(any::<u32>(), 1..64)) {
        let ledger = build(&gens, &market);
        let first = ledger.run();
        let second = ledger.run();
        prop_assert_eq!(texts(&first.dump()), texts(&second.dump()));
        let permuted = rerun(&ledger, &permutation);
        prop_assert_eq!(texts(&first.dump()), texts(&permuted.dump()));
    }

    /// §16.1: reassigning `seq` among rows whose instants are pairwise different changes
    /// nothing.
    #[test]
    fn seq_reassignment_across_distinct_instants((gens, market) in ledger_strategy(), shift in 1usize..7) {
        let ledger = build(&gens, &market);
        let first = ledger.run();
        let mut input = ledger.input();
        let mut per_instant: BTreeMap<_, usize> = BTreeMap::new();
        for row in &input.rows {
            *per_instant.entry(row.row.instant).or_default() += 1;
        }
        let lonely: Vec<usize> = (0..input.rows.len())
            .filter(|&i| per_instant[&input.rows[i].row.instant] == 1)
            .collect();
        let seqs: Vec<u64> = lonely.iter().map(|&i| input.rows[i].row.seq).collect();
        for (n, &i) in lonely.iter().enumerate() {
            input.rows[i].row.seq = seqs[(n + shift) % seqs.len()];
        }
        let output = fifo::run(&input, &ledger.market(), ledger.settings()).expect("engine runs");
        let second = Outcome { accounts: ledger.accounts().to_vec(), input, output };
        prop_assert_eq!(texts(&first.dump()), texts(&second.dump()));
    }

    /// §16.1: reassigning `seq` among rows of one instant whose asset sets (in, out, fee, closed
    /// over migrations) are pairwise disjoint changes no value, figure or flag, only the
    /// listing order.
    #[test]
    fn seq_reassignment_within_disjoint_instants((gens, market) in ledger_strategy()) {
        let ledger = build(&gens, &market);
        let first = ledger.run();
        let mut input = ledger.input();
        let rows = ledger.spot_rows().to_vec();
        let assets_of = |row: &core_domain::SpotRow| -> BTreeSet<Asset> {
            let own = [row.inflow.map(|a| a.asset), row.outflow.map(|a| a.asset), row.fee.map(|f| f.asset)]
                .into_iter()
                .flatten()
                .collect();
            close_over_migrations(&rows, own)
        };
        let mut groups: BTreeMap<core_domain::Instant, Vec<usize>> = BTreeMap::new();
        for (i, row) in input.rows.iter().enumerate() {
            groups.entry(row.row.instant).or_default().push(i);
        }
        let mut changed = false;
        for members in groups.values().filter(|m| m.len() > 1) {
            let sets: Vec<BTreeSet<Asset>> = members.iter().map(|&i| assets_of(&input.rows[i].row)).collect();
            let disjoint = sets.iter().enumerate().all(|(a, x)| sets.iter().skip(a + 1).all(|y| x.is_disjoint(y)));
            if !disjoint {
                continue;
            }
            let seqs: Vec<u64> = members.iter().map(|&i| input.rows[i].row.seq).collect();
            for (n, &i) in members.iter().enumerate() {
                input.rows[i].row.seq = seqs[(n + 1) % seqs.len()];
            }
            changed = true;
        }
        let output = fifo::run(&input, &ledger.market(), ledger.settings()).expect("engine runs");
        let second = Outcome { accounts: ledger.accounts().to_vec(), input, output };
        let mut a = texts(&first.dump());
        let mut b = texts(&second.dump());
        a.sort();
        b.sort();
        prop_assert_eq!(a, b, "changed: {}", changed);
    }

    /// §16.2 to §16.5 and §16.8 on one run.
    #[test]
    fn conservation_cents_order_and_inclusion((gens, market) in ledger_strategy()) {
        let outcome = build(&gens, &market).run();
        let output = &outcome.output;
        let input = &outcome.input;

        // Lots are listed by (asset, queue_key).
        prop_assert!(output.lots.windows(2).all(|w| (w[0].asset, w[0].queue_key) < (w[1].asset, w[1].queue_key)));
        // §16.2 quantity, per asset.
        let mut balance: BTreeMap<Asset, Decimal> = BTreeMap::new();
        for lot in &output.lots {
            let entry = balance.entry(lot.asset).or_default();
            *entry = *entry + lot.original_quantity - lot.remaining_quantity;
        }
        for slice in output.slices.iter().filter(|s| s.lot_id.is_some()) {
            let entry = balance.entry(slice.asset).or_default();
            *entry -= slice.quantity;
        }
        for (asset, rest) in &balance {
            prop_assert!(rest.is_zero(), "asset {} quantity off by {}", asset, rest);
        }
        for op in &output.operations {
            let slices = output.slices_of(op);
            let total: Decimal = slices.iter().map(|s| s.quantity).sum();
            prop_assert_eq!(total, op.quantity, "leg quantity of {}", input.row_key(op.row).unwrap());
            // §16.3 value, per operation.
            if let Some(gross) = op.gross_value {
                let sum: Decimal = slices.iter().map(|s| s.gross_value().unwrap_or_default()).sum();
                prop_assert_eq!(sum, gross);
            } else {
                prop_assert!(slices.iter().all(|s| s.gross_value().is_none()));
            }
            if let Some(fee) = op.fee_expense {
                let sum: Decimal = slices.iter().map(|s| s.fee_expense().unwrap_or_default()).sum();
                prop_assert_eq!(sum, fee);
            }
            // Per migration: carried quantities and costs.
            if op.leg == DisposalLeg::Migration {
                let carried: Vec<&Lot> = output.lots.iter().filter(|l| l.lot_id.row == op.row && l.lot_id.k > 0).collect();
                let inflow = input.rows[op.row as usize].row.inflow.expect("in-leg").quantity;
                prop_assert_eq!(carried.iter().map(|l| l.original_quantity).sum::<Decimal>(), inflow);
                prop_assert_eq!(carried.len(), slices.len());
                let consumed: Decimal = slices.iter().filter_map(Slice::acquisition_value).sum();
                let carried_cost: Decimal = carried.iter().filter_map(|l| l.acquisition_value).sum();
                prop_assert_eq!(consumed, carried_cost);
            }
        }
        // §16.3 value, per lot with a known cost.
        let mut consumed: BTreeMap<LotId, Decimal> = BTreeMap::new();
        for slice in &output.slices {
            if let (Some(lot), Some(cost)) = (slice.lot_id, slice.acquisition_value()) {
                *consumed.entry(lot).or_default() += cost;
            }
        }
        for lot in &output.lots {
            if let (Some(value), Some(remaining)) = (lot.acquisition_value, lot.remaining_cost) {
                let used = consumed.get(&lot.lot_id).copied().unwrap_or_default();
                prop_assert_eq!(value, used + remaining, "lot {}", input.lot_public_id(lot.lot_id));
            }
        }
        // §16.4 cents.
        let cents = |v: Option<Decimal>| v.is_none_or(num::is_cents);
        for lot in &output.lots {
            prop_assert!(cents(lot.acquisition_value) && cents(lot.remaining_cost));
        }
        for op in &output.operations {
            prop_assert!(cents(op.gross_value) && cents(op.fee_expense));
        }
        for s in &output.slices {
            prop_assert!(cents(s.gross_value()) && cents(s.fee_expense()) && cents(s.net_transmission_value())
                && cents(s.acquisition_value()) && cents(s.result()));
        }
        for r in &output.income {
            prop_assert!(cents(r.value.amount()));
        }
        // §16.8 inclusion.
        for s in &output.slices {
            let expected = !s.flags.is_blocking() && s.leg != DisposalLeg::Migration;
            prop_assert_eq!(s.included, expected);
            prop_assert_eq!(s.result().is_some(), s.included);
        }
        // §16.5 FIFO order and time, replayed in processing order (legs P and M before F).
        let mut remaining: BTreeMap<LotId, Decimal> = BTreeMap::new();
        let mut order: Vec<usize> = (0..output.slices.len()).collect();
        let rank = |leg: DisposalLeg| u8::from(leg == DisposalLeg::Fee);
        order.sort_by_key(|&i| {
            let s = &output.slices[i];
            let op = output.operation_of(s).expect("operation");
            (op.disposed_at, op.seq, rank(s.leg), s.n)
        });
        let exists = |lot: &Lot, op: &core_domain::engine::Operation| -> bool {
            if lot.lot_id.k == 0 {
                return lot.acquired_at <= op.disposed_at;
            }
            let creator = &input.rows[lot.lot_id.row as usize].row;
            (creator.instant, creator.seq) < (op.disposed_at, op.seq)
                || (lot.lot_id.row == op.row && op.leg == DisposalLeg::Fee)
        };
        for i in order {
            let s = &output.slices[i];
            let op = output.operation_of(s).expect("operation");
            let earlier_open = output.lots.iter().filter(|l| l.asset == s.asset && exists(l, op)).find(|l| {
                let left = remaining.get(&l.lot_id).copied().unwrap_or(l.original_quantity);
                left > Decimal::ZERO && s.lot_id.is_none_or(|id| l.queue_key < lot_of(output, id).queue_key)
            });
            prop_assert!(earlier_open.is_none(), "slice {} skipped an older lot", input.slice_public_id(output, s));
            if let Some(id) = s.lot_id {
                let lot = lot_of(output, id);
                prop_assert!(exists(lot, op), "slice {} took a later lot", input.slice_public_id(output, s));
                prop_assert!(s.acquired_at().expect("acquired_at") <= op.disposed_at);
                let left = remaining.entry(id).or_insert(lot.original_quantity);
                *left -= s.quantity;
                prop_assert!(*left >= Decimal::ZERO);
            }
        }
    }

    /// §16.6: a BUY dated after every disposal of its asset changes no slice and no
    /// transmission figure.
    #[test]
    fn no_later_lot((gens, market) in ledger_strategy(), asset in 0usize..CRYPTO.len()) {
        let ledger = build(&gens, &market);
        let before = ledger.run();
        let after = ledger
            .row(buy("late", "Kraken", "2024-03-01T10:00:00Z").inflow("5", CRYPTO[asset]).outflow("100", "EUR"))
            .run();
        let disposals = |outcome: &Outcome| -> Vec<String> {
            outcome.dump().into_iter().filter(|l| l.text.starts_with("op ") || l.text.starts_with("slice ")).map(|l| l.text).collect()
        };
        prop_assert_eq!(disposals(&before), disposals(&after));
    }

    /// §16.14: restoring every override reproduces the pre-edit output; an override on one row
    /// changes nothing of an asset the row does not involve.
    #[test]
    fn overrides_restore_and_locality((gens, market) in ledger_strategy(), pick in any::<prop::sample::Index>(), kind in 0u8..5) {
        let ledger = build(&gens, &market);
        let before = ledger.run();
        let row = pick.get(ledger.spot_rows()).clone();
        let key = row.row_key.to_string();
        let spec = match kind {
            0 => edit(&key).excluded(),
            1 => edit(&key).instant("2024-01-02T10:00:00Z"),
            2 => edit(&key).value("1234.56", "EUR"),
            3 => edit(&key).price("7.5", "USD"),
            _ => edit(&key).no_fee().instant("2024-01-20T15:00:00Z"),
        };
        let edited = ledger.clone().edit_unchecked(spec);
        let after = edited.run();
        let restored = edited.restore(&key).run();
        prop_assert_eq!(texts(&before.dump()), texts(&restored.dump()));
        let involved: BTreeSet<Asset> = [row.inflow.map(|a| a.asset), row.outflow.map(|a| a.asset), row.fee.map(|f| f.asset)]
            .into_iter().flatten().collect();
        let involved = close_over_migrations(ledger.spot_rows(), involved);
        let untouched = |outcome: &Outcome| -> Vec<String> {
            outcome.dump().into_iter().filter(|l| !involved.contains(&l.asset)).map(|l| l.text).collect()
        };
        prop_assert_eq!(untouched(&before), untouched(&after));
    }
}
