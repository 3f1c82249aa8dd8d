use rust_decimal::Decimal;
use shared_types::{CustodyKind, SpotTxType};

use super::*;
use crate::engine::{EffectiveRow, EngineInput, EngineOutput};
use crate::ledger::{Account, AccountId, AssetAmount, Fee, RowKey, SpotRow, TxType};
use crate::num;
use crate::overrides::{Counterparty, CustodyLink};
use crate::time::{FiscalTimezone, Instant};

pub(crate) mod support;

pub(crate) use support::{engine, lot_key};

pub(crate) const KRAKEN: AccountId = AccountId(1);
pub(crate) const BITVAVO: AccountId = AccountId(2);
pub(crate) const BINANCE: AccountId = AccountId(3);

pub(crate) fn accounts() -> Vec<Account> {
    [
        (KRAKEN, "Kraken"),
        (BITVAVO, "Bitvavo"),
        (BINANCE, "Binance"),
    ]
    .into_iter()
    .map(|(id, name)| Account {
        id,
        name: name.to_owned(),
        parent_id: None,
        custody_kind: CustodyKind::Unclassified,
        country: None,
    })
    .collect()
}

pub(crate) fn dec(text: &str) -> Decimal {
    num::parse_decimal("test", text, true).unwrap()
}

pub(crate) fn at(text: &str) -> Instant {
    Instant::parse(text).unwrap()
}

pub(crate) fn asset(symbol: &str) -> Asset {
    Asset::new(symbol).unwrap()
}

pub(crate) fn amount(text: &str) -> AssetAmount {
    let (q, a) = text.split_once(' ').unwrap();
    AssetAmount {
        asset: asset(a),
        quantity: dec(q),
    }
}

/// A row: `in`/`out`/`fee` as `"0.5 BTC"` or "".
#[allow(clippy::too_many_arguments)] // Mirrors the columns of the spec's example tables.
pub(crate) fn row(
    key: &str,
    seq: u64,
    account: AccountId,
    tx: SpotTxType,
    instant: &str,
    inflow: &str,
    outflow: &str,
    fee: &str,
) -> EffectiveRow {
    let side = |t: &str| if t.is_empty() { None } else { Some(amount(t)) };
    EffectiveRow {
        row: SpotRow {
            row_key: RowKey::new(key),
            seq,
            account_id: account,
            tx_type: TxType::Spot(tx),
            instant: at(instant),
            inflow: side(inflow),
            outflow: side(outflow),
            fee: side(fee).map(|a| Fee {
                asset: a.asset,
                quantity: a.quantity,
            }),
            values: None,
            transfer_group_id: None,
        },
    }
}

fn with_group(mut r: EffectiveRow, group: &str) -> EffectiveRow {
    r.row.transfer_group_id = Some(group.to_owned());
    r
}

pub(crate) fn out_leg(
    key: &str,
    seq: u64,
    account: AccountId,
    instant: &str,
    q: &str,
    fee: &str,
) -> EffectiveRow {
    row(
        key,
        seq,
        account,
        SpotTxType::TransferOut,
        instant,
        "",
        q,
        fee,
    )
}

pub(crate) fn in_leg(
    key: &str,
    seq: u64,
    account: AccountId,
    instant: &str,
    q: &str,
    fee: &str,
) -> EffectiveRow {
    row(
        key,
        seq,
        account,
        SpotTxType::TransferIn,
        instant,
        q,
        "",
        fee,
    )
}

fn resolve(rows: &[EffectiveRow], links: &[CustodyLink]) -> crate::DomainResult<Vec<Movement>> {
    resolve_movements(rows, &[], &accounts(), links)
}

/// Movements as `"<id> <basis> <from> -> <to> <qty> @<instant>"`.
fn describe(rows: &[EffectiveRow], movements: &[Movement]) -> Vec<String> {
    let accounts = accounts();
    movements
        .iter()
        .map(|m| {
            format!(
                "{} {} {} -> {} {} @{}",
                m.movement_id(rows),
                m.basis.as_str(),
                m.from.name(&accounts),
                m.to.name(&accounts),
                num::quantity(m.quantity),
                m.instant
            )
        })
        .collect()
}

fn check_resolution(rows: &[EffectiveRow], links: &[CustodyLink], expected: &[&str]) {
    let movements = resolve(rows, links).unwrap();
    assert_eq!(describe(rows, &movements), expected);
}

fn invalid_reason(rows: &[EffectiveRow], links: &[CustodyLink]) -> (String, String) {
    match resolve(rows, links) {
        Err(crate::DomainError::InvalidOverride { row_key, reason }) => (row_key, reason),
        other => panic!("expected InvalidOverride, got {other:?}"),
    }
}

fn link(out: &str, inn: &str) -> CustodyLink {
    CustodyLink::Link {
        out_row_key: out.to_owned(),
        in_row_key: inn.to_owned(),
    }
}

fn counterparty(key: &str, to: Counterparty) -> CustodyLink {
    CustodyLink::Counterparty {
        row_key: key.to_owned(),
        counterparty: to,
    }
}

// ---- §9.1 resolution rules -------------------------------------------------------------------

#[test]
fn auto_pairing_d5_moves_at_the_later_leg() {
    let rows = vec![
        out_leg(
            "d5r3",
            3,
            BITVAVO,
            "2023-03-10T10:00:00Z",
            "0.5 BTC",
            "0.0001 BTC",
        ),
        in_leg("d5r4", 4, KRAKEN, "2023-03-10T10:40:00Z", "0.5 BTC", ""),
    ];
    check_resolution(
        &rows,
        &[],
        &["M:d5r3 AUTO_PAIRED Bitvavo -> Kraken 0.5 @2023-03-10T10:40:00Z"],
    );
    let movements = resolve(&rows, &[]).unwrap();
    assert_eq!(movements[0].position_row, 1);
    assert_eq!(
        (movements[0].out_row, movements[0].in_row),
        (Some(0), Some(1))
    );
}

#[test]
fn an_in_leg_earlier_than_its_out_leg_moves_at_the_out_leg() {
    let rows = vec![
        in_leg("i", 1, KRAKEN, "2023-03-10T09:00:00Z", "1 ETH", ""),
        out_leg("o", 2, BITVAVO, "2023-03-10T10:00:00Z", "1 ETH", ""),
    ];
    check_resolution(
        &rows,
        &[],
        &["M:o AUTO_PAIRED Bitvavo -> Kraken 1 @2023-03-10T10:00:00Z"],
    );
}

#[test]
fn unpaired_legs_use_the_own_wallet() {
    let rows = vec![
        out_leg("o", 1, KRAKEN, "2024-02-01T10:00:00Z", "1 BTC", ""),
        in_leg("i", 2, BITVAVO, "2024-03-01T10:00:00Z", "0.3 BTC", ""),
        in_leg("e", 3, BITVAVO, "2024-03-02T10:00:00Z", "0.5 ETH", ""),
    ];
    check_resolution(
        &rows,
        &[],
        &[
            "M:o UNPAIRED Kraken -> ownwallet-BTC 1 @2024-02-01T10:00:00Z",
            "M:i UNPAIRED ownwallet-BTC -> Bitvavo 0.3 @2024-03-01T10:00:00Z",
            "M:e UNPAIRED ownwallet-ETH -> Bitvavo 0.5 @2024-03-02T10:00:00Z",
        ],
    );
}

#[test]
fn tolerance_is_the_fee_sum_of_both_rows_in_that_asset() {
    let base = "2024-01-01T10:00:00Z";
    let later = "2024-01-01T11:00:00Z";
    // o − i = 0.0003 = 0.0001 (out fee) + 0.0002 (in fee): pairs, the difference goes to the
    // own wallet at the same moment.
    let rows = vec![
        out_leg("o", 1, KRAKEN, base, "0.5 BTC", "0.0001 BTC"),
        in_leg("i", 2, BITVAVO, later, "0.4997 BTC", "0.0002 BTC"),
    ];
    check_resolution(
        &rows,
        &[],
        &[
            "M:o AUTO_PAIRED Kraken -> Bitvavo 0.4997 @2024-01-01T11:00:00Z",
            "M:o:D AUTO_PAIRED Kraken -> ownwallet-BTC 0.0003 @2024-01-01T11:00:00Z",
        ],
    );
    // One unit of the last decimal more does not pair.
    let rows = vec![
        out_leg("o", 1, KRAKEN, base, "0.5 BTC", "0.0001 BTC"),
        in_leg("i", 2, BITVAVO, later, "0.4996 BTC", "0.0002 BTC"),
    ];
    check_resolution(
        &rows,
        &[],
        &[
            "M:o UNPAIRED Kraken -> ownwallet-BTC 0.5 @2024-01-01T10:00:00Z",
            "M:i UNPAIRED ownwallet-BTC -> Bitvavo 0.4996 @2024-01-01T11:00:00Z",
        ],
    );
    // Fees in another asset give no tolerance.
    let rows = vec![
        out_leg("o", 1, KRAKEN, base, "0.5 BTC", "1 ETH"),
        in_leg("i", 2, BITVAVO, later, "0.4999 BTC", ""),
    ];
    assert_eq!(
        resolve(&rows, &[]).unwrap()[0].basis,
        MovementBasis::Unpaired
    );
}

#[test]
fn in_leg_larger_than_out_leg_or_on_the_same_account_never_auto_pairs() {
    let rows = vec![
        out_leg("o", 1, KRAKEN, "2024-01-01T10:00:00Z", "0.5 BTC", ""),
        in_leg(
            "big",
            2,
            BITVAVO,
            "2024-01-01T10:10:00Z",
            "0.5001 BTC",
            "0.0001 BTC",
        ),
        in_leg("same", 3, KRAKEN, "2024-01-01T10:20:00Z", "0.5 BTC", ""),
    ];
    let movements = resolve(&rows, &[]).unwrap();
    assert!(movements.iter().all(|m| m.basis == MovementBasis::Unpaired));
}

#[test]
fn the_72_hour_window_is_inclusive() {
    let rows = vec![
        out_leg("o", 1, KRAKEN, "2024-01-01T10:00:00Z", "1 SOL", ""),
        in_leg("i", 2, BITVAVO, "2024-01-04T10:00:00Z", "1 SOL", ""),
    ];
    assert_eq!(
        resolve(&rows, &[]).unwrap()[0].basis,
        MovementBasis::AutoPaired
    );
    let rows = vec![
        out_leg("o", 1, KRAKEN, "2024-01-01T10:00:00Z", "1 SOL", ""),
        in_leg(
            "i",
            2,
            BITVAVO,
            "2024-01-04T10:00:00.000000001Z",
            "1 SOL",
            "",
        ),
    ];
    assert_eq!(
        resolve(&rows, &[]).unwrap()[0].basis,
        MovementBasis::Unpaired
    );
    // Backwards too.
    let rows = vec![
        in_leg("i", 1, BITVAVO, "2024-01-01T10:00:00Z", "1 SOL", ""),
        out_leg("o", 2, KRAKEN, "2024-01-04T10:00:00Z", "1 SOL", ""),
    ];
    assert_eq!(
        resolve(&rows, &[]).unwrap()[0].basis,
        MovementBasis::AutoPaired
    );
}

fn paired_in_key(rows: &[EffectiveRow]) -> String {
    let movements = resolve(rows, &[]).unwrap();
    let m = movements
        .iter()
        .find(|m| m.basis == MovementBasis::AutoPaired && m.part == MovementPart::Main)
        .expect("a pair");
    rows[m.in_row.unwrap() as usize].row.row_key.to_string()
}

#[test]
fn tie_break_smallest_time_distance_first() {
    let rows = vec![
        out_leg("o", 1, KRAKEN, "2024-01-02T10:00:00Z", "1 BTC", "0.1 BTC"),
        in_leg("far", 2, BITVAVO, "2024-01-02T12:00:00Z", "1 BTC", ""),
        in_leg("near", 3, BITVAVO, "2024-01-02T09:00:00Z", "0.9 BTC", ""),
    ];
    assert_eq!(paired_in_key(&rows), "near");
}

#[test]
fn tie_break_then_smallest_quantity_difference() {
    let rows = vec![
        out_leg("o", 1, KRAKEN, "2024-01-02T10:00:00Z", "1 BTC", "0.1 BTC"),
        in_leg("before", 2, BITVAVO, "2024-01-02T09:00:00Z", "0.95 BTC", ""),
        in_leg("after", 3, BINANCE, "2024-01-02T11:00:00Z", "0.99 BTC", ""),
    ];
    assert_eq!(paired_in_key(&rows), "after");
}

#[test]
fn tie_break_then_earlier_in_instant() {
    let rows = vec![
        out_leg("o", 1, KRAKEN, "2024-01-02T10:00:00Z", "1 BTC", ""),
        in_leg("after", 2, BITVAVO, "2024-01-02T11:00:00Z", "1 BTC", ""),
        in_leg("before", 3, BINANCE, "2024-01-02T09:00:00Z", "1 BTC", ""),
    ];
    assert_eq!(paired_in_key(&rows), "before");
}

#[test]
fn tie_break_then_smaller_in_seq() {
    let rows = vec![
        out_leg("o", 1, KRAKEN, "2024-01-02T10:00:00Z", "1 BTC", ""),
        in_leg("seq9", 9, BITVAVO, "2024-01-02T11:00:00Z", "1 BTC", ""),
        in_leg("seq5", 5, BINANCE, "2024-01-02T11:00:00Z", "1 BTC", ""),
    ];
    assert_eq!(paired_in_key(&rows), "seq5");
}

#[test]
fn each_in_leg_pairs_once_and_out_legs_go_in_ledger_order() {
    let rows = vec![
        out_leg("o2", 2, BITVAVO, "2024-01-02T10:30:00Z", "1 BTC", ""),
        out_leg("o1", 1, KRAKEN, "2024-01-02T10:30:00Z", "1 BTC", ""),
        in_leg("i", 3, BINANCE, "2024-01-02T11:00:00Z", "1 BTC", ""),
    ];
    check_resolution(
        &rows,
        &[],
        &[
            "M:o2 UNPAIRED Bitvavo -> ownwallet-BTC 1 @2024-01-02T10:30:00Z",
            "M:o1 AUTO_PAIRED Kraken -> Binance 1 @2024-01-02T11:00:00Z",
        ],
    );
}

#[test]
fn group_id_pairs_one_out_and_one_in_regardless_of_time() {
    let rows = vec![
        with_group(
            out_leg("o", 1, KRAKEN, "2024-01-01T10:00:00Z", "1 ETH", ""),
            "g1",
        ),
        with_group(
            in_leg("i", 2, BITVAVO, "2024-02-01T10:00:00Z", "1.5 ETH", ""),
            "g1",
        ),
    ];
    // i > o: o moves from Kraken, the excess comes from the own wallet (decision: symmetric to
    // the o > i rule, so the out account never loses more than its row says).
    check_resolution(
        &rows,
        &[],
        &[
            "M:o GROUP_ID Kraken -> Bitvavo 1 @2024-02-01T10:00:00Z",
            "M:o:D GROUP_ID ownwallet-ETH -> Bitvavo 0.5 @2024-02-01T10:00:00Z",
        ],
    );
}

#[test]
fn group_id_is_ignored_unless_exactly_one_out_and_one_in_on_different_accounts() {
    // Two outs in the group: ignored, auto-pairing decides.
    let rows = vec![
        with_group(
            out_leg("o1", 1, KRAKEN, "2024-01-01T10:00:00Z", "1 ETH", ""),
            "g",
        ),
        with_group(
            out_leg("o2", 2, KRAKEN, "2024-01-01T10:05:00Z", "1 ETH", ""),
            "g",
        ),
        with_group(
            in_leg("i", 3, BITVAVO, "2024-01-01T10:10:00Z", "1 ETH", ""),
            "g",
        ),
    ];
    check_resolution(
        &rows,
        &[],
        &[
            "M:o2 UNPAIRED Kraken -> ownwallet-ETH 1 @2024-01-01T10:05:00Z",
            "M:o1 AUTO_PAIRED Kraken -> Bitvavo 1 @2024-01-01T10:10:00Z",
        ],
    );
    // Same account: ignored (and auto-pairing refuses the same account).
    let rows = vec![
        with_group(
            out_leg("o", 1, KRAKEN, "2024-01-01T10:00:00Z", "1 ETH", ""),
            "g",
        ),
        with_group(
            in_leg("i", 2, KRAKEN, "2024-01-01T10:10:00Z", "1 ETH", ""),
            "g",
        ),
    ];
    assert!(
        resolve(&rows, &[])
            .unwrap()
            .iter()
            .all(|m| m.basis == MovementBasis::Unpaired)
    );
    // Different assets: ignored.
    let rows = vec![
        with_group(
            out_leg("o", 1, KRAKEN, "2024-01-01T10:00:00Z", "1 ETH", ""),
            "g",
        ),
        with_group(
            in_leg("i", 2, BITVAVO, "2024-01-01T10:10:00Z", "1 BTC", ""),
            "g",
        ),
    ];
    assert!(
        resolve(&rows, &[])
            .unwrap()
            .iter()
            .all(|m| m.basis == MovementBasis::Unpaired)
    );
    // An empty group id is no group.
    let rows = vec![
        with_group(
            out_leg("o", 1, KRAKEN, "2024-01-01T10:00:00Z", "1 ETH", ""),
            "",
        ),
        with_group(
            in_leg("i", 2, BITVAVO, "2024-01-10T10:10:00Z", "1 ETH", ""),
            "",
        ),
    ];
    assert!(
        resolve(&rows, &[])
            .unwrap()
            .iter()
            .all(|m| m.basis == MovementBasis::Unpaired)
    );
}

#[test]
fn group_id_beats_auto_pairing() {
    // The in-leg `near` would auto-pair with `o1`, but the group binds it to `o2`.
    let rows = vec![
        out_leg("o1", 1, KRAKEN, "2024-01-01T10:00:00Z", "1 ETH", ""),
        with_group(
            out_leg("o2", 2, BINANCE, "2024-01-01T10:01:00Z", "1 ETH", ""),
            "g",
        ),
        with_group(
            in_leg("near", 3, BITVAVO, "2024-01-01T10:02:00Z", "1 ETH", ""),
            "g",
        ),
    ];
    check_resolution(
        &rows,
        &[],
        &[
            "M:o1 UNPAIRED Kraken -> ownwallet-ETH 1 @2024-01-01T10:00:00Z",
            "M:o2 GROUP_ID Binance -> Bitvavo 1 @2024-01-01T10:02:00Z",
        ],
    );
}

#[test]
fn link_override_beats_group_and_auto_pairing() {
    let rows = vec![
        with_group(
            out_leg("o", 1, KRAKEN, "2024-01-01T10:00:00Z", "1 ETH", ""),
            "g",
        ),
        with_group(
            in_leg("grouped", 2, BITVAVO, "2024-01-01T10:01:00Z", "1 ETH", ""),
            "g",
        ),
        in_leg("linked", 3, BINANCE, "2024-03-01T10:00:00Z", "0.2 ETH", ""),
    ];
    check_resolution(
        &rows,
        &[link("o", "linked")],
        &[
            "M:grouped UNPAIRED ownwallet-ETH -> Bitvavo 1 @2024-01-01T10:01:00Z",
            "M:o LINK Kraken -> Binance 0.2 @2024-03-01T10:00:00Z",
            "M:o:D LINK Kraken -> ownwallet-ETH 0.8 @2024-03-01T10:00:00Z",
        ],
    );
}

#[test]
fn counterparty_override_moves_between_the_leg_account_and_the_named_one() {
    let rows = vec![
        out_leg("o", 1, KRAKEN, "2024-01-01T10:00:00Z", "1 ETH", ""),
        in_leg("i", 2, BITVAVO, "2024-01-01T10:01:00Z", "1 ETH", ""),
        in_leg("w", 3, BINANCE, "2024-01-01T10:02:00Z", "2 ETH", ""),
    ];
    check_resolution(
        &rows,
        &[
            counterparty("o", Counterparty::Account(BINANCE)),
            counterparty("w", Counterparty::OwnWallet),
        ],
        &[
            "M:o COUNTERPARTY Kraken -> Binance 1 @2024-01-01T10:00:00Z",
            "M:i UNPAIRED ownwallet-ETH -> Bitvavo 1 @2024-01-01T10:01:00Z",
            "M:w COUNTERPARTY ownwallet-ETH -> Binance 2 @2024-01-01T10:02:00Z",
        ],
    );
}

#[test]
fn invalid_custody_overrides_are_rejected() {
    let rows = vec![
        out_leg("o", 1, KRAKEN, "2024-01-01T10:00:00Z", "1 ETH", ""),
        in_leg("i", 2, BITVAVO, "2024-01-01T10:01:00Z", "1 ETH", ""),
        in_leg("b", 3, BITVAVO, "2024-01-01T10:02:00Z", "1 BTC", ""),
        row(
            "buy",
            4,
            KRAKEN,
            SpotTxType::Buy,
            "2024-01-01T09:00:00Z",
            "1 ETH",
            "2000 EUR",
            "",
        ),
    ];
    let cases: Vec<(Vec<CustodyLink>, &str, &str)> = vec![
        (
            vec![link("nope", "i")],
            "nope",
            "link out-leg names a missing row",
        ),
        (
            vec![link("o", "nope")],
            "nope",
            "link in-leg names a missing row",
        ),
        (
            vec![link("buy", "i")],
            "buy",
            "link out-leg names a row that is not such a leg",
        ),
        (
            vec![link("i", "o")],
            "i",
            "link out-leg names a row that is not such a leg",
        ),
        (
            vec![link("o", "b")],
            "o",
            "linked legs have different assets",
        ),
        (
            vec![link("o", "i"), link("o", "i")],
            "o",
            "leg is already linked",
        ),
        (
            vec![link("o", "i"), counterparty("i", Counterparty::OwnWallet)],
            "i",
            "leg is already linked",
        ),
        (
            vec![counterparty("o", Counterparty::Account(AccountId(99)))],
            "o",
            "counterparty account does not exist",
        ),
        (
            vec![counterparty("o", Counterparty::Account(KRAKEN))],
            "o",
            "counterparty is the leg's own account",
        ),
        (
            vec![counterparty("buy", Counterparty::OwnWallet)],
            "buy",
            "counterparty names a row that is not a transfer leg",
        ),
        (
            vec![counterparty("zzz", Counterparty::OwnWallet)],
            "zzz",
            "counterparty names a missing row",
        ),
    ];
    for (links, key, reason) in cases {
        assert_eq!(
            invalid_reason(&rows, &links),
            (key.to_owned(), reason.to_owned())
        );
    }
}

// ---- §9.2–9.4 replay -------------------------------------------------------------------------

fn d5_rows() -> Vec<EffectiveRow> {
    vec![
        row(
            "d5r1",
            1,
            KRAKEN,
            SpotTxType::Buy,
            "2023-01-10T10:00:00Z",
            "1 BTC",
            "20000 EUR",
            "",
        ),
        row(
            "d5r2",
            2,
            BITVAVO,
            SpotTxType::Buy,
            "2023-02-10T10:00:00Z",
            "1 BTC",
            "30000 EUR",
            "",
        ),
        out_leg(
            "d5r3",
            3,
            BITVAVO,
            "2023-03-10T10:00:00Z",
            "0.5 BTC",
            "0.0001 BTC",
        ),
        in_leg("d5r4", 4, KRAKEN, "2023-03-10T10:40:00Z", "0.5 BTC", ""),
        row(
            "d5r5",
            5,
            KRAKEN,
            SpotTxType::Sell,
            "2023-04-10T10:00:00Z",
            "48000 EUR",
            "1.2 BTC",
            "",
        ),
    ]
}

/// Location rows as `"<lot> <account> <qty>"`.
pub(crate) fn pieces(input: &EngineInput, rows: &[LocationRow]) -> Vec<String> {
    rows.iter()
        .map(|r| {
            format!(
                "{} {} {}",
                lot_key(input, r.lot_id),
                r.account_name,
                num::quantity(r.quantity)
            )
        })
        .collect()
}

/// Balances as `"<account> <asset> <ledger> <custody> <gap>"`.
pub(crate) fn balances(rows: &[CustodyBalance]) -> Vec<String> {
    rows.iter()
        .map(|b| {
            format!(
                "{} {} {} {} {}",
                b.account_name,
                b.asset,
                num::quantity(b.ledger_balance),
                num::quantity(b.custody_quantity),
                num::quantity(b.gap)
            )
        })
        .collect()
}

pub(crate) fn run(
    rows: Vec<EffectiveRow>,
    links: &[CustodyLink],
) -> (EngineInput, EngineOutput, CustodyOutput) {
    let input = EngineInput {
        rows,
        futures: Vec::new(),
    };
    let output = engine(&input);
    let custody = allocate(&input, &output, &accounts(), links).unwrap();
    (input, output, custody)
}

#[test]
fn d5_replay_relocates_and_takes_per_account() {
    let (input, output, custody) = run(d5_rows(), &[]);
    let relocations: Vec<String> = custody
        .relocations
        .iter()
        .map(|r| {
            format!(
                "{} {} {} -> {} {}",
                lot_key(&input, r.lot_id),
                custody.movements[r.movement as usize].movement_id(&input.rows),
                r.from.name(&accounts()),
                r.to.name(&accounts()),
                num::quantity(r.quantity)
            )
        })
        .collect();
    assert_eq!(relocations, ["L:d5r2:0 M:d5r3 Bitvavo -> Kraken 0.5"]);
    assert_eq!(
        pieces(&input, &custody.locations),
        ["L:d5r2:0 Bitvavo 0.4999", "L:d5r2:0 Kraken 0.3"]
    );
    assert_eq!(
        balances(&custody.balances),
        ["Bitvavo BTC 0.4999 0.4999 0", "Kraken BTC 0.3 0.3 0"]
    );
    let counts: Vec<(String, u32)> = output
        .lots
        .iter()
        .zip(&custody.relocation_counts)
        .map(|(l, c)| (lot_key(&input, l.lot_id), *c))
        .collect();
    assert_eq!(
        counts,
        [("L:d5r1:0".to_owned(), 0), ("L:d5r2:0".to_owned(), 1)]
    );
    assert_eq!(custody.fee_tolerance, [(asset("BTC"), dec("0.0001"))]);
    assert_eq!(custody.fee_tolerance(asset("BTC")), dec("0.0001"));
    assert_eq!(custody.fee_tolerance(asset("ETH")), Decimal::ZERO);
}

#[test]
fn a_take_that_finds_too_few_pieces_leaves_gaps() {
    // Kraken sells 1 ETH it never held (the fiscal engine covers it with Bitvavo's lot): Kraken
    // has a negative gap, Bitvavo still holds its pieces with no gap.
    let rows = vec![
        row(
            "b",
            1,
            BITVAVO,
            SpotTxType::Buy,
            "2024-01-01T10:00:00Z",
            "2 ETH",
            "4000 EUR",
            "",
        ),
        row(
            "s",
            2,
            KRAKEN,
            SpotTxType::Sell,
            "2024-01-02T10:00:00Z",
            "2000 EUR",
            "1 ETH",
            "",
        ),
        out_leg("o", 3, KRAKEN, "2024-01-03T10:00:00Z", "0.5 ETH", ""),
        in_leg("i", 4, BINANCE, "2024-01-03T10:05:00Z", "0.5 ETH", ""),
    ];
    let (input, _, custody) = run(rows, &[]);
    assert_eq!(pieces(&input, &custody.locations), ["L:b:0 Bitvavo 2"]);
    assert_eq!(
        balances(&custody.balances),
        [
            "Binance ETH 0.5 0 0.5",
            "Bitvavo ETH 2 2 0",
            "Kraken ETH -1.5 0 -1.5",
        ]
    );
    let kraken = custody
        .balance(Location::Account(KRAKEN), asset("ETH"))
        .unwrap();
    assert_eq!(kraken.shortfall, dec("1.5"));
    assert!(custody.relocations.is_empty());
}

#[test]
fn carried_lots_are_placed_at_the_migration_account_in_queue_order() {
    let rows = vec![
        row(
            "l1",
            1,
            BINANCE,
            SpotTxType::Buy,
            "2019-03-01T10:00:00Z",
            "1000 LEND",
            "200 EUR",
            "",
        ),
        row(
            "l2",
            2,
            BINANCE,
            SpotTxType::Buy,
            "2019-06-01T10:00:00Z",
            "500 LEND",
            "250 EUR",
            "",
        ),
        row(
            "a1",
            3,
            BINANCE,
            SpotTxType::Buy,
            "2020-01-01T10:00:00Z",
            "1 AAVE",
            "50 EUR",
            "",
        ),
        row(
            "m",
            4,
            BINANCE,
            SpotTxType::MigrationSwap,
            "2020-10-05T10:00:00Z",
            "15 AAVE",
            "1500 LEND",
            "",
        ),
        row(
            "s",
            5,
            BINANCE,
            SpotTxType::Sell,
            "2021-01-15T10:00:00Z",
            "3000 EUR",
            "12 AAVE",
            "",
        ),
    ];
    let (input, _, custody) = run(rows, &[]);
    // The carried lots keep their 2019 positions, ahead of the 2020 AAVE purchase.
    assert_eq!(
        pieces(&input, &custody.locations),
        ["L:m:2 Binance 3", "L:a1:0 Binance 1"]
    );
    assert_eq!(
        balances(&custody.balances),
        ["Binance AAVE 4 4 0", "Binance LEND 0 0 0"]
    );
}

#[test]
fn older_relocated_pieces_are_inserted_by_queue_position() {
    let rows = vec![
        row(
            "old",
            1,
            KRAKEN,
            SpotTxType::Buy,
            "2024-01-01T10:00:00Z",
            "1 BTC",
            "1 EUR",
            "",
        ),
        row(
            "new",
            2,
            BITVAVO,
            SpotTxType::Buy,
            "2024-02-01T10:00:00Z",
            "1 BTC",
            "1 EUR",
            "",
        ),
        out_leg("o", 3, KRAKEN, "2024-03-01T10:00:00Z", "0.4 BTC", ""),
        in_leg("i", 4, BITVAVO, "2024-03-01T10:01:00Z", "0.4 BTC", ""),
        out_leg("o2", 5, KRAKEN, "2024-03-02T10:00:00Z", "0.1 BTC", ""),
        in_leg("i2", 6, BITVAVO, "2024-03-02T10:01:00Z", "0.1 BTC", ""),
        row(
            "s",
            7,
            BITVAVO,
            SpotTxType::Sell,
            "2024-04-01T10:00:00Z",
            "1 EUR",
            "0.6 BTC",
            "",
        ),
    ];
    let (input, _, custody) = run(rows, &[]);
    // Bitvavo holds old 0.5 (merged from two relocations) ahead of new 1; the sale takes the old
    // pieces first.
    assert_eq!(
        pieces(&input, &custody.locations),
        ["L:new:0 Bitvavo 0.9", "L:old:0 Kraken 0.5"]
    );
    assert_eq!(custody.relocation_counts.iter().sum::<u32>(), 2);
}

#[test]
fn holdings_at_stops_at_the_end_of_the_fiscal_day() {
    let input = EngineInput {
        rows: d5_rows(),
        futures: Vec::new(),
    };
    let output = engine(&input);
    let tz = FiscalTimezone::EuropeMadrid;
    // 2023-03-10: the fee was taken, the movement (10:40 UTC = 11:40 Madrid) too.
    let day = crate::time::Date::from_ymd_opt(2023, 3, 10).unwrap();
    let h = holdings_at(&input, &output, &accounts(), &[], day, tz).unwrap();
    assert_eq!(
        pieces(&input, &h.locations),
        [
            "L:d5r2:0 Bitvavo 0.4999",
            "L:d5r1:0 Kraken 1",
            "L:d5r2:0 Kraken 0.5"
        ]
    );
    let lots: Vec<String> = h
        .lots
        .iter()
        .map(|l| {
            format!(
                "{} {}",
                lot_key(&input, l.lot_id),
                num::quantity(l.quantity)
            )
        })
        .collect();
    assert_eq!(lots, ["L:d5r1:0 0.9999", "L:d5r2:0 1"]);
    assert_eq!(h.remaining_quantity(asset("BTC")).unwrap(), dec("1.9999"));
    // 2023-02-10: only the two purchases.
    let day = crate::time::Date::from_ymd_opt(2023, 2, 10).unwrap();
    let h = holdings_at(&input, &output, &accounts(), &[], day, tz).unwrap();
    assert_eq!(
        balances(&h.balances),
        ["Bitvavo BTC 1 1 0", "Kraken BTC 1 1 0"]
    );
    // A row at 23:30 UTC on 2023-02-09 is fiscal 2023-02-10 in Madrid (UTC+1): included on the
    // 10th, excluded on the 9th.
    let mut rows = d5_rows();
    rows.push(row(
        "late",
        6,
        BINANCE,
        SpotTxType::Buy,
        "2023-02-09T23:30:00Z",
        "1 ETH",
        "1 EUR",
        "",
    ));
    let input = EngineInput {
        rows,
        futures: Vec::new(),
    };
    let output = engine(&input);
    let day9 = crate::time::Date::from_ymd_opt(2023, 2, 9).unwrap();
    let h = holdings_at(&input, &output, &accounts(), &[], day9, tz).unwrap();
    assert!(h.balances.iter().all(|b| b.asset != asset("ETH")));
    let day10 = crate::time::Date::from_ymd_opt(2023, 2, 10).unwrap();
    let h = holdings_at(&input, &output, &accounts(), &[], day10, tz).unwrap();
    assert!(h.balances.iter().any(|b| b.asset == asset("ETH")));
}

#[test]
fn movement_ids_and_location_names() {
    assert_eq!(own_wallet_name(asset("BTC")), "ownwallet-BTC");
    assert_eq!(Location::Account(AccountId(77)).name(&accounts()), "#77");
    assert!(Location::OwnWallet(asset("BTC")).is_synthetic());
    assert_eq!(Location::Account(KRAKEN).account_id(), Some(KRAKEN));
    assert_eq!(MovementBasis::AutoPaired.as_str(), "AUTO_PAIRED");
}

mod properties;
