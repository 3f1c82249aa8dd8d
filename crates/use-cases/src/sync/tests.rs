use core_domain::testkit::{Ledger, asset, buy, date, edit, swap};

use super::*;
use crate::fake::Fake;

#[test]
fn every_crypto_asset_from_its_first_effective_row() {
    let ledger = Ledger::new()
        .row(
            buy("r1", "Kraken", "2021-03-01T23:30:00Z")
                .inflow("1", "BTC")
                .outflow("40000", "EUR")
                .fee("0.0001", "BTC"),
        )
        .row(
            swap("r2", "Kraken", "2022-05-10T10:00:00Z")
                .inflow("10", "ETH")
                .outflow("0.5", "BTC")
                .fee("1", "KFEE"),
        )
        .row(
            swap("r3", "Kraken", "2020-01-01T10:00:00Z")
                .inflow("5", "DOT")
                .outflow("1", "ADA"),
        )
        .edit(edit("r3").excluded());
    let needs = price_needs(&Fake::new(&ledger)).unwrap();
    // r3 is excluded: DOT and ADA are never needed; EUR is fiat. The UTC day of a row at
    // 23:30 UTC is that day (its Madrid day is the next one).
    assert_eq!(
        needs,
        vec![
            (asset("BTC"), date("2021-03-01")),
            (asset("ETH"), date("2022-05-10")),
            (asset("KFEE"), date("2022-05-10")),
        ]
    );
}
