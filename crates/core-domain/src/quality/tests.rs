use rust_decimal::Decimal;
use shared_types::{QualityFlag, SpotTxType};

use super::*;
use crate::custody::allocate;
use crate::custody::tests::{
    BINANCE, BITVAVO, KRAKEN, accounts, asset, dec, engine, in_leg, out_leg, row,
};
use crate::engine::{
    DisposalLeg, EffectiveRow, EngineInput, EngineOutput, FlagSet, Provenance, Valued,
};
use crate::ledger::{FuturesRow, RowKey, TxType};
use crate::num;

fn flags(list: &[QualityFlag]) -> FlagSet {
    let mut set = FlagSet::EMPTY;
    for f in list {
        set.insert(*f);
    }
    set
}

fn known() -> Valued {
    Valued::Known {
        amount: dec("1"),
        provenance: Provenance::Stated,
        fx: None,
        price: None,
    }
}

fn unknown(flag: QualityFlag) -> Valued {
    Valued::Unknown { flag }
}

struct Ledger {
    input: EngineInput,
    output: EngineOutput,
}

impl Ledger {
    fn new(rows: Vec<EffectiveRow>) -> Self {
        let input = EngineInput {
            rows,
            futures: Vec::new(),
        };
        // The engine runs without prices; each test then sets the failures it is about.
        let mut output = engine(&input);
        for op in &mut output.operations {
            op.valuation = Some(known());
            op.flags = FlagSet::EMPTY;
        }
        for lot in &mut output.lots {
            lot.provenance = Some(Provenance::Stated);
            lot.flags = FlagSet::EMPTY;
        }
        output.income.clear();
        Self { input, output }
    }

    fn row_index(&self, key: &str) -> u32 {
        self.input
            .rows
            .iter()
            .position(|r| r.row.row_key == key)
            .unwrap() as u32
    }

    fn op(&mut self, key: &str, leg: DisposalLeg, valuation: Valued, set: &[QualityFlag]) {
        let r = self.row_index(key);
        let op = self
            .output
            .operations
            .iter_mut()
            .find(|o| o.row == r && o.leg == leg)
            .unwrap();
        op.valuation = Some(valuation);
        op.flags = flags(set);
    }

    fn lot(&mut self, key: &str, principal_known: bool, set: &[QualityFlag]) {
        let r = self.row_index(key);
        let lot = self
            .output
            .lots
            .iter_mut()
            .find(|l| l.lot_id.row == r && l.lot_id.k == 0)
            .unwrap();
        lot.flags = flags(set);
        if !principal_known {
            lot.provenance = None;
        }
    }

    /// Integrity rows as `"<flag> <subject> <asset> <account> <row_key> <qty>"`.
    fn rows(&self) -> Vec<String> {
        let custody = allocate(&self.input, &self.output, &accounts(), &[]).unwrap();
        describe(&integrity_rows(&self.input, &self.output, &accounts(), &custody).unwrap())
    }
}

fn describe(rows: &[IntegrityRow]) -> Vec<String> {
    rows.iter()
        .map(|r| {
            format!(
                "{} {} {} {} {} {}",
                r.quality_flag,
                r.subject.as_str(),
                r.asset.map_or("-".to_owned(), |a| a.to_string()),
                r.account_name.as_deref().unwrap_or("-"),
                r.row_key.as_deref().unwrap_or("-"),
                r.quantity.map_or("-".to_owned(), num::quantity)
            )
        })
        .collect()
}

fn buy(key: &str, seq: u64, instant: &str, inflow: &str, fee: &str) -> EffectiveRow {
    row(
        key,
        seq,
        KRAKEN,
        SpotTxType::Buy,
        instant,
        inflow,
        "100 EUR",
        fee,
    )
}

fn sell(key: &str, seq: u64, instant: &str, outflow: &str, fee: &str) -> EffectiveRow {
    row(
        key,
        seq,
        KRAKEN,
        SpotTxType::Sell,
        instant,
        "100 EUR",
        outflow,
        fee,
    )
}

#[test]
fn detail_keys_are_lower_case() {
    assert_eq!(
        detail_key(QualityFlag::MissingPrice, Subject::Income),
        "quality.missing_price.income"
    );
    assert_eq!(
        detail_key(QualityFlag::CustodyImbalance, Subject::Custody),
        "quality.custody_imbalance.custody"
    );
}

#[test]
fn an_unknown_crypto_fee_on_a_purchase_is_one_fee_row() {
    let mut l = Ledger::new(vec![
        buy("bnb", 1, "2024-01-01T10:00:00Z", "1 BNB", ""),
        buy("b", 2, "2024-01-02T10:00:00Z", "1 BTC", "0.01 BNB"),
    ]);
    l.op(
        "b",
        DisposalLeg::Fee,
        unknown(QualityFlag::MissingPrice),
        &[QualityFlag::MissingPrice],
    );
    l.lot("b", true, &[QualityFlag::MissingPrice]);
    assert_eq!(l.rows(), ["MISSING_PRICE FEE BNB Kraken b -"]);
}

#[test]
fn purchase_value_and_fee_value_failing_are_two_root_causes() {
    let mut l = Ledger::new(vec![
        buy("bnb", 1, "2024-01-01T10:00:00Z", "1 BNB", ""),
        buy("b", 2, "2024-01-02T10:00:00Z", "1 BTC", "0.01 BNB"),
    ]);
    l.op(
        "b",
        DisposalLeg::Fee,
        unknown(QualityFlag::MissingFxRate),
        &[QualityFlag::MissingFxRate],
    );
    l.lot(
        "b",
        false,
        &[QualityFlag::MissingPrice, QualityFlag::MissingFxRate],
    );
    assert_eq!(
        l.rows(),
        [
            "MISSING_PRICE ACQUISITION BTC Kraken b -",
            "MISSING_FX_RATE FEE BNB Kraken b -",
        ]
    );
    // The same flag on both: still one row each.
    l.op(
        "b",
        DisposalLeg::Fee,
        unknown(QualityFlag::MissingPrice),
        &[QualityFlag::MissingPrice],
    );
    l.lot("b", false, &[QualityFlag::MissingPrice]);
    assert_eq!(
        l.rows(),
        [
            "MISSING_PRICE FEE BNB Kraken b -",
            "MISSING_PRICE ACQUISITION BTC Kraken b -",
        ]
    );
}

#[test]
fn a_fiat_fee_without_rate_is_a_fee_row() {
    let mut l = Ledger::new(vec![buy("b", 1, "2024-01-02T10:00:00Z", "1 BTC", "5 USD")]);
    l.lot("b", true, &[QualityFlag::MissingFxRate]);
    assert_eq!(l.rows(), ["MISSING_FX_RATE FEE USD Kraken b -"]);
}

#[test]
fn disposal_rows_and_inherited_flags() {
    let mut l = Ledger::new(vec![
        buy("bnb", 1, "2024-01-01T10:00:00Z", "1 BNB", ""),
        buy("b", 2, "2024-01-01T11:00:00Z", "1 BTC", ""),
        sell("s", 3, "2024-01-02T10:00:00Z", "0.5 BTC", "0.01 BNB"),
        sell("t", 4, "2024-01-03T10:00:00Z", "0.2 BTC", ""),
    ]);
    // s: its own value is unknown (price) and its fee too (rate); t consumes a flagged lot and
    // inherits nothing that raises a row.
    l.op(
        "s",
        DisposalLeg::Principal,
        unknown(QualityFlag::MissingPrice),
        &[QualityFlag::MissingPrice, QualityFlag::MissingFxRate],
    );
    l.op(
        "s",
        DisposalLeg::Fee,
        unknown(QualityFlag::MissingFxRate),
        &[QualityFlag::MissingFxRate],
    );
    l.lot("b", false, &[QualityFlag::MissingPrice]);
    assert_eq!(
        l.rows(),
        [
            "MISSING_PRICE ACQUISITION BTC Kraken b -",
            "MISSING_PRICE DISPOSAL BTC Kraken s -",
            "MISSING_FX_RATE FEE BNB Kraken s -",
        ]
    );
}

#[test]
fn an_unknown_swap_value_is_one_disposal_row() {
    let mut l = Ledger::new(vec![
        buy("e", 1, "2024-01-01T10:00:00Z", "1 ETH", ""),
        row(
            "w",
            2,
            KRAKEN,
            SpotTxType::Swap,
            "2024-01-02T10:00:00Z",
            "100 NEWT",
            "1 ETH",
            "",
        ),
    ]);
    l.op(
        "w",
        DisposalLeg::Principal,
        unknown(QualityFlag::MissingPrice),
        &[QualityFlag::MissingPrice],
    );
    l.lot("w", false, &[QualityFlag::MissingPrice]);
    assert_eq!(l.rows(), ["MISSING_PRICE DISPOSAL ETH Kraken w -"]);
}

#[test]
fn income_is_one_row_for_its_lot_and_its_receipt() {
    let mut l = Ledger::new(vec![row(
        "st",
        1,
        BINANCE,
        SpotTxType::Staking,
        "2022-05-09T07:00:00Z",
        "3 ETH",
        "",
        "",
    )]);
    l.lot("st", false, &[QualityFlag::MissingPrice]);
    let lot = l.output.lots[0].lot_id;
    l.output.income.push(crate::engine::IncomeReceipt {
        row: lot.row,
        tx_type: SpotTxType::Staking,
        fiscal_date: crate::time::Date::from_ymd_opt(2022, 5, 9).unwrap(),
        asset: asset("ETH"),
        quantity: dec("3"),
        value: unknown(QualityFlag::MissingPrice),
        flags: flags(&[QualityFlag::MissingPrice]),
        bucket: crate::engine::IncomeBucket::Rcm,
    });
    assert_eq!(l.rows(), ["MISSING_PRICE INCOME ETH Binance st -"]);
    let c = completeness(&l.input, &l.output, &[]).unwrap();
    assert_eq!((c.unresolved_income, c.flagged_open_lots), (1, 1));
}

#[test]
fn uncovered_units_raise_one_row_per_leg_with_the_quantity() {
    let l = Ledger::new(vec![
        buy("b", 1, "2024-01-05T10:00:00Z", "1.5 ETH", ""),
        sell("s", 2, "2024-02-01T10:00:00Z", "2 ETH", "0.1 BNB"),
        sell("t", 3, "2024-03-01T09:00:00Z", "1 ETH", ""),
    ]);
    assert_eq!(
        l.rows(),
        [
            "MISSING_ACQUISITION FEE BNB Kraken s 0.1",
            "MISSING_ACQUISITION DISPOSAL ETH Kraken s 0.5",
            "MISSING_ACQUISITION DISPOSAL ETH Kraken t 1",
            // BNB −0.1 is within its fee tolerance (the 0.1 BNB fee itself).
            "UNTRACKED_INFLOW CUSTODY ETH Kraken - -1.5",
            "CUSTODY_IMBALANCE CUSTODY BNB Kraken - -0.1",
            "CUSTODY_IMBALANCE CUSTODY ETH Kraken - -1.5",
        ]
    );
    let c = completeness(&l.input, &l.output, &[]).unwrap();
    assert_eq!(
        c.uncovered_quantity,
        [(asset("BNB"), dec("0.1")), (asset("ETH"), dec("1.5"))]
    );
}

#[test]
fn carried_lots_raise_no_row_of_their_own() {
    let mut l = Ledger::new(vec![
        buy("l", 1, "2019-03-01T10:00:00Z", "1000 LEND", ""),
        row(
            "m",
            2,
            BINANCE,
            SpotTxType::MigrationSwap,
            "2020-10-05T10:00:00Z",
            "15 AAVE",
            "1500 LEND",
            "",
        ),
    ]);
    l.lot("l", false, &[QualityFlag::MissingPrice]);
    for lot in &mut l.output.lots {
        if lot.lot_id.k > 0 {
            lot.flags = flags(&[QualityFlag::MissingPrice]);
        }
    }
    let rows = l.rows();
    assert_eq!(rows[0], "MISSING_PRICE ACQUISITION LEND Kraken l -");
    assert_eq!(rows[1], "MISSING_ACQUISITION DISPOSAL LEND Binance m 500");
    assert!(rows.iter().all(|r| !r.contains("AAVE Binance m")));
}

#[test]
fn derivative_and_unknown_rows() {
    let mut l = Ledger::new(vec![EffectiveRow {
        row: crate::ledger::SpotRow {
            tx_type: TxType::Unknown {
                source_label: "dust_conversion".to_owned(),
            },
            ..row(
                "u",
                1,
                KRAKEN,
                SpotTxType::Swap,
                "2024-04-05T10:00:00Z",
                "0.1 BNB",
                "3 ADA",
                "",
            )
            .row
        },
    }]);
    l.input.futures.push(FuturesRow {
        row_key: RowKey::new("f3"),
        seq: 9,
        account_id: BITVAVO,
        kind: shared_types::FuturesKind::Trade,
        contract: "ETHUSDT-PERP".to_owned(),
        instant: crate::time::Instant::parse("2024-09-02T09:00:00Z").unwrap(),
        settlement_asset: asset("USDT"),
        realized_pnl: dec("-400"),
        funding: Decimal::ZERO,
        fee_asset: Some(asset("USDT")),
        fee: dec("2"),
    });
    l.output.derivatives.push(crate::engine::DerivativeResult {
        row: 0,
        kind: shared_types::FuturesKind::Trade,
        fiscal_date: crate::time::Date::from_ymd_opt(2024, 9, 2).unwrap(),
        net: None,
        flags: flags(&[QualityFlag::MissingPrice]),
        settlement_asset: asset("USDT"),
    });
    assert_eq!(
        l.rows(),
        [
            "MISSING_PRICE DERIVATIVE USDT Bitvavo f3 -",
            "UNKNOWN_TX_TYPE ROW - Kraken u -",
        ]
    );
    let c = completeness(&l.input, &l.output, &[]).unwrap();
    assert_eq!((c.unknown_rows, c.unresolved_derivatives), (1, 1));
}

#[test]
fn custody_rows_respect_the_fee_tolerance() {
    // 0.0001 BTC of fees recorded: an own-wallet balance of 0.0001 is within tolerance.
    let l = Ledger::new(vec![
        buy("b", 1, "2024-01-01T10:00:00Z", "1 BTC", ""),
        out_leg(
            "o",
            2,
            KRAKEN,
            "2024-01-02T10:00:00Z",
            "0.5 BTC",
            "0.0001 BTC",
        ),
        in_leg("i", 3, BITVAVO, "2024-01-02T10:10:00Z", "0.4999 BTC", ""),
    ]);
    assert!(l.rows().is_empty());
    // Without the fee the 0.0001 difference is a residual.
    let l = Ledger::new(vec![
        buy("b", 1, "2024-01-01T10:00:00Z", "1 BTC", ""),
        with_fee_none(out_leg(
            "o",
            2,
            KRAKEN,
            "2024-01-02T10:00:00Z",
            "0.5 BTC",
            "",
        )),
        in_leg("i", 3, BITVAVO, "2024-01-02T10:10:00Z", "0.4999 BTC", ""),
    ]);
    assert_eq!(
        l.rows(),
        ["CUSTODY_RESIDUAL CUSTODY BTC ownwallet-BTC - 0.0001"]
    );
}

fn with_fee_none(mut r: EffectiveRow) -> EffectiveRow {
    r.row.fee = None;
    r
}

#[test]
fn report_groups_by_severity_then_canonical_order_and_sorts_rows() {
    let l = Ledger::new(vec![
        buy("b", 1, "2024-01-01T10:00:00Z", "1 BTC", ""),
        out_leg("o", 2, KRAKEN, "2024-02-01T10:00:00Z", "1 BTC", ""),
        in_leg("i", 3, BITVAVO, "2024-03-01T10:00:00Z", "0.3 BTC", ""),
        in_leg("e", 4, BITVAVO, "2024-03-02T10:00:00Z", "0.5 ETH", ""),
        sell("s", 5, "2024-04-01T10:00:00Z", "2 SOL", ""),
    ]);
    let custody = allocate(&l.input, &l.output, &accounts(), &[]).unwrap();
    let rows = integrity_rows(&l.input, &l.output, &accounts(), &custody).unwrap();
    let report = integrity_report(rows);
    let summary: Vec<String> = report
        .groups
        .iter()
        .map(|g| {
            format!(
                "{} {} {} {}",
                g.quality_flag, g.severity, g.count, g.pending_review_count
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            "MISSING_ACQUISITION high 1 1",
            "UNTRACKED_INFLOW high 2 2",
            "CUSTODY_IMBALANCE medium 3 0",
            "CUSTODY_RESIDUAL low 1 1",
        ]
    );
    assert_eq!((report.total_defects, report.pending_review), (7, 4));
    assert_eq!(
        describe(&report.groups[2].rows),
        [
            "CUSTODY_IMBALANCE CUSTODY ETH Bitvavo - 0.5",
            "CUSTODY_IMBALANCE CUSTODY ETH ownwallet-ETH - -0.5",
            "CUSTODY_IMBALANCE CUSTODY SOL Kraken - -2",
        ]
    );
    // Rows with an instant come first, in time order.
    assert_eq!(
        describe(&report.groups[1].rows),
        [
            "UNTRACKED_INFLOW CUSTODY ETH ownwallet-ETH - -0.5",
            "UNTRACKED_INFLOW CUSTODY SOL Kraken - -2",
        ]
    );
}
