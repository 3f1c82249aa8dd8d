//! Overrides (`domain.md` §6): write-time validation, the effective row and the pipeline's
//! treatment of shape violations (§8.1 step 1).

use core_domain::effective::{self, check_shape};
use core_domain::testkit::{
    EditSpec, Ledger, buy, edit, future, sell, staking, transfer_in, unknown,
};
use core_domain::{DomainError, TxType};
use shared_types::{FuturesKind, SpotTxType};

fn ledger() -> Ledger {
    Ledger::new()
        .row(
            buy("b", "Kraken", "2024-01-01T10:00:00Z")
                .inflow("1", "BTC")
                .outflow("40000", "EUR"),
        )
        .row(
            sell("s", "Kraken", "2024-02-01T10:00:00Z")
                .outflow("0.5", "BTC")
                .inflow("25000", "EUR"),
        )
        .row(unknown("u", "Kraken", "2024-02-02T10:00:00Z", "dust_conversion").inflow("1", "BNB"))
        .future(
            future(
                "f",
                "Kraken",
                FuturesKind::Trade,
                "BTCUSD-PERP",
                "2024-02-03T10:00:00Z",
            )
            .pnl("1"),
        )
}

/// The write-time verdict on an override: `Ok` or the invalid-override reason.
fn check(row_key: &str, spec: EditSpec, expected: Result<(), &str>) {
    let ledger = ledger();
    let edit = spec.build();
    let spot = ledger.spot_rows().iter().find(|r| r.row_key == row_key);
    let verdict = if let Some(row) = spot {
        effective::validate_override(row, &edit)
    } else {
        let row = ledger
            .futures_rows()
            .iter()
            .find(|r| r.row_key == row_key)
            .expect("row exists");
        effective::validate_futures_override(row, &edit)
    };
    match (verdict, expected) {
        (Ok(()), Ok(())) => {}
        (
            Err(DomainError::InvalidOverride {
                row_key: key,
                reason,
            }),
            Err(expected),
        ) => {
            assert_eq!(key, row_key);
            assert!(
                reason.contains(expected),
                "{reason:?} should mention {expected:?}"
            );
        }
        (verdict, expected) => panic!("{row_key}: got {verdict:?}, expected {expected:?}"),
    }
}

#[test]
fn write_time_validation() {
    check("b", edit("b"), Err("edits nothing"));
    check(
        "b",
        edit("b").value("1", "USDT"),
        Err("not a fiat currency"),
    );
    check("b", edit("b").price("-1", "EUR"), Err("must be ≥ 0"));
    check(
        "b",
        edit("b").in_quantity("0"),
        Err("in.quantity must be > 0"),
    );
    check(
        "b",
        edit("b").in_quantity("-2"),
        Err("in.quantity must be > 0"),
    );
    check("s", edit("s").in_quantity("3"), Ok(()));
    check("b", edit("b").out_quantity("3"), Ok(()));
    check("b", edit("b").fee("-1", "BTC"), Err("negative fee"));
    check("b", edit("b").fee("-1", "EUR"), Ok(()));
    check("b", edit("b").fee("0", "BTC"), Ok(()));
    check("b", edit("b").tx_type(SpotTxType::Deposit), Err("DEPOSIT"));
    check(
        "b",
        edit("b").tx_type(SpotTxType::Staking),
        Err("out must be absent"),
    );
    check("u", edit("u").tx_type(SpotTxType::Airdrop), Ok(()));
    check("u", edit("u").value("3", "EUR"), Err("set a type"));
    check("u", edit("u").excluded(), Ok(()));
    check("b", edit("b").excluded(), Ok(()));
    check("f", edit("f").excluded(), Ok(()));
    check("f", edit("f").value("1", "EUR"), Err("only excluded"));
    check(
        "f",
        edit("f").excluded().instant("2024-01-01T00:00:00Z"),
        Err("only excluded"),
    );
}

#[test]
fn effective_rows_apply_edits_and_exclusions() {
    let outcome = ledger()
        .edit(
            edit("s")
                .out_quantity("0.25")
                .instant("2024-01-15T10:00:00Z")
                .no_fee(),
        )
        .edit(edit("u").tx_type(SpotTxType::Airdrop))
        .edit(edit("f").excluded())
        .run();
    let slice = outcome.slice("E:s:P:0");
    assert_eq!(slice.quantity(), "0.25");
    assert_eq!(slice.acquisition_value(), "10000.00");
    assert_eq!(
        outcome.operation("s", "P").disposed_at.to_string(),
        "2024-01-15T10:00:00Z"
    );
    let row = outcome
        .input
        .rows
        .iter()
        .find(|r| r.row.row_key == "s")
        .expect("row");
    assert_eq!(row.row.seq, 2, "an instant edit keeps the seq");
    assert!(
        outcome.find_lot("L:u:0").is_some(),
        "the resolved row opens its lot"
    );
    assert!(
        outcome.output.derivatives.is_empty(),
        "excluded futures rows are dropped"
    );

    let outcome = ledger().edit(edit("b").excluded()).run();
    assert!(outcome.input.rows.iter().all(|r| r.row.row_key != "b"));
    assert_eq!(outcome.slice("E:s:P:0").lot(), "uncovered");
}

#[test]
fn overrides_of_missing_rows_are_ignored() {
    let before = ledger().run();
    let after = ledger().edit(edit("ghost").value("1", "EUR")).run();
    assert_eq!(before.dump(), after.dump());
}

#[test]
fn shape_violations_become_unknown_rows() {
    // Data written before a rule existed: the pipeline never aborts, the row becomes Unknown.
    let outcome = Ledger::new()
        .row(staking("s", "Kraken", "2024-01-01T10:00:00Z").inflow("1", "EUR"))
        .row(
            transfer_in("t", "Kraken", "2024-01-01T10:00:00Z")
                .inflow("1", "BTC")
                .fee("-1", "BTC"),
        )
        .row(buy("b", "Kraken", "2024-01-01T10:00:00Z").inflow("1", "BTC"))
        .edit_unchecked(edit("b").value("1", "USDT"))
        .run();
    let reason = |key: &str| match &outcome
        .input
        .rows
        .iter()
        .find(|r| r.row.row_key == key)
        .expect("row")
        .row
        .tx_type
    {
        TxType::Unknown { source_label } => source_label.clone(),
        TxType::Spot(t) => format!("still {t}"),
    };
    assert_eq!(reason("s"), "STAKING: in must be crypto");
    assert_eq!(
        reason("t"),
        "a negative fee is allowed only in a fiat asset"
    );
    assert!(
        reason("b").starts_with("invalid override:"),
        "{}",
        reason("b")
    );
    assert!(outcome.output.lots.is_empty());
    assert!(outcome.output.income.is_empty());
}

#[test]
fn shape_table() {
    let shape = |spec: core_domain::testkit::RowSpec| {
        let ledger = Ledger::new().row(spec);
        check_shape(&ledger.spot_rows()[0])
    };
    let at = "2024-01-01T10:00:00Z";
    assert_eq!(shape(buy("x", "K", at).inflow("1", "BTC")), Ok(()));
    assert_eq!(
        shape(buy("x", "K", at).inflow("1", "BTC").outflow("1", "ETH")),
        Err("BUY: out must be fiat".to_owned())
    );
    assert_eq!(shape(sell("x", "K", at).outflow("1", "BTC")), Ok(()));
    assert_eq!(
        shape(sell("x", "K", at).inflow("1", "EUR")),
        Err("SELL: out is required".to_owned())
    );
    assert_eq!(
        shape(
            core_domain::testkit::swap("x", "K", at)
                .inflow("1", "BTC")
                .outflow("1", "BTC")
        ),
        Err("SWAP: in and out must be different assets".to_owned())
    );
    assert_eq!(
        shape(core_domain::testkit::deposit("x", "K", at).inflow("1", "BTC")),
        Err("DEPOSIT: in must be fiat".to_owned())
    );
    assert_eq!(
        shape(core_domain::testkit::reward("x", "K", at).inflow("1", "USD")),
        Ok(())
    );
    assert_eq!(
        shape(core_domain::testkit::fee_row("x", "K", at).outflow("1", "EUR")),
        Ok(())
    );
    assert_eq!(
        shape(
            core_domain::testkit::transfer_out("x", "K", at)
                .outflow("1", "BTC")
                .inflow("1", "BTC")
        ),
        Err("TRANSFER_OUT: in must be absent".to_owned())
    );
}

#[test]
fn owned_input_equals_borrowed_input() {
    // The engine input built from rows given up (moved, edited in place) is the same as the
    // one built from borrowed rows, edits, exclusions and invalid overrides included.
    let ledger = ledger()
        .edit(edit("s").out_quantity("0.25").value("12000", "EUR"))
        .edit(edit("u").tx_type(SpotTxType::Airdrop))
        .edit(edit("f").excluded())
        .edit_unchecked(edit("b").value("1", "USDT"));
    let borrowed = effective::engine_input(
        ledger.spot_rows(),
        ledger.futures_rows(),
        ledger.overrides(),
    );
    let owned = effective::engine_input_owned(
        ledger.spot_rows().to_vec(),
        ledger.futures_rows().to_vec(),
        ledger.overrides(),
    );
    assert_eq!(owned.rows, borrowed.rows);
    assert_eq!(owned.futures, borrowed.futures);
    assert!(
        owned.futures.is_empty(),
        "the excluded futures row is dropped"
    );
    let row = |key: &str| {
        owned
            .rows
            .iter()
            .find(|r| r.row.row_key == key)
            .expect("row")
    };
    assert_eq!(
        row("s").edited_value().map(|v| v.amount.to_string()),
        Some("12000".to_owned())
    );
    assert!(
        row("u").edits().is_none(),
        "a type edit stores no value edits"
    );

    let excluded = ledger.clone().edit(edit("b").excluded());
    let owned = effective::engine_input_owned(
        excluded.spot_rows().to_vec(),
        Vec::new(),
        excluded.overrides(),
    );
    assert_eq!(
        owned
            .rows
            .iter()
            .map(|r| r.row.row_key.to_string())
            .collect::<Vec<_>>(),
        ["s", "u"]
    );
}
