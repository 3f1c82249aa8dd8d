//! The rows of worked examples that tests of several crates replay (the engine's and IRPF's own
//! tests in `core-domain`, the use cases' DTO tests in `use-cases`). Prices stay with each caller:
//! some tests vary them.

use shared_types::FuturesKind;

use super::{Ledger, airdrop, buy, future, mining, sell, staking, swap, transfer_in, transfer_out};

/// `domain.md` §17 D1: a purchase and a sale with fiat fees (rows d1r1–d1r2, no prices).
pub fn d1() -> Ledger {
    Ledger::new()
        .row(
            buy("d1r1", "Kraken", "2023-02-01T10:00:00Z")
                .inflow("1.5", "BTC")
                .outflow("30000", "EUR")
                .fee("15", "EUR"),
        )
        .row(
            sell("d1r2", "Kraken", "2023-06-15T12:00:00Z")
                .inflow("25000", "EUR")
                .outflow("1.0", "BTC")
                .fee("20", "EUR"),
        )
}

/// `domain.md` §17 D2: staking rewards in USD-priced ETH, then a sale (rows d2r1–d2r4, no prices or rates).
pub fn d2() -> Ledger {
    Ledger::new()
        .row(staking("d2r1", "Kraken:earn", "2023-03-06T08:00:00Z").inflow("10", "ETH"))
        .row(staking("d2r2", "Kraken:earn", "2023-04-09T09:00:00Z").inflow("4", "ETH"))
        .row(staking("d2r3", "Kraken:earn", "2022-05-09T07:00:00Z").inflow("3", "ETH"))
        .row(
            sell("d2r4", "Kraken:spot", "2023-05-02T10:00:00Z")
                .inflow("27000", "EUR")
                .outflow("15", "ETH"),
        )
}

/// `domain.md` §17 D6: sales beyond the acquired quantity (rows d6r1–d6r4, no prices).
pub fn d6() -> Ledger {
    Ledger::new()
        .row(
            buy("d6r1", "Kraken", "2024-01-05T10:00:00Z")
                .inflow("1.5", "ETH")
                .outflow("3000", "EUR"),
        )
        .row(
            sell("d6r2", "Kraken", "2024-02-01T10:00:00Z")
                .inflow("5000", "EUR")
                .outflow("2", "ETH"),
        )
        .row(
            sell("d6r3", "Kraken", "2024-03-01T09:00:00Z")
                .inflow("2600", "EUR")
                .outflow("1", "ETH"),
        )
        .row(
            buy("d6r4", "Kraken", "2024-03-01T10:00:00Z")
                .inflow("1", "ETH")
                .outflow("2500", "EUR"),
        )
}

/// `irpf.md` I-4: a large sale across the top brackets, an airdrop and staking (rows d1–d4).
pub fn i4() -> Ledger {
    Ledger::new()
        .row(
            buy("d1", "Kraken", "2022-11-09T10:00:00Z")
                .inflow("10", "BTC")
                .outflow("183953.18", "EUR")
                .fee("183.95", "EUR"),
        )
        .row(
            sell("d2", "Kraken", "2024-03-15T10:00:00Z")
                .inflow("524828.32", "EUR")
                .outflow("8", "BTC")
                .fee("524.83", "EUR"),
        )
        .row(
            airdrop("d3", "Kraken", "2024-06-20T10:00:00Z")
                .inflow("1000", "ZRO")
                .stated_value("800.00", "EUR"),
        )
        .row(
            staking("d4", "Kraken", "2024-06-30T10:00:00Z")
                .inflow("0.4", "ETH")
                .stated_value("1200.00", "EUR"),
        )
}

/// `irpf.md` I-7: year-end holdings across custodians (rows h1–h7, no prices or custody settings).
pub fn i7() -> Ledger {
    Ledger::new()
        .row(
            buy("h1", "Kraken", "2024-02-01T10:00:00Z")
                .inflow("0.9", "BTC")
                .outflow("45000.00", "EUR"),
        )
        .row(
            buy("h2", "Kraken", "2024-02-02T10:00:00Z")
                .inflow("2", "ETH")
                .outflow("5000.00", "EUR"),
        )
        .row(transfer_out("h3", "Kraken", "2024-05-01T10:00:00Z").outflow("0.2", "BTC"))
        .row(transfer_in("h4", "Bit2Me", "2024-05-01T10:30:00Z").inflow("0.2", "BTC"))
        .row(transfer_out("h5", "Kraken", "2024-06-01T10:00:00Z").outflow("0.1", "BTC"))
        .row(transfer_in("h6", "Ledger", "2024-06-01T10:05:00Z").inflow("0.1", "BTC"))
        .row(
            sell("h7", "Kraken", "2024-12-31T23:30:00Z")
                .inflow("4450.00", "EUR")
                .outflow("0.05", "BTC"),
        )
}

/// `domain.md` §17 D5: global FIFO across two accounts, a transfer with a network fee, then a sale
/// (rows d5r1–d5r5, no prices).
pub fn d5() -> Ledger {
    Ledger::new()
        .row(
            buy("d5r1", "Kraken", "2023-01-10T10:00:00Z")
                .inflow("1", "BTC")
                .outflow("20000", "EUR"),
        )
        .row(
            buy("d5r2", "Bitvavo", "2023-02-10T10:00:00Z")
                .inflow("1", "BTC")
                .outflow("30000", "EUR"),
        )
        .row(
            transfer_out("d5r3", "Bitvavo", "2023-03-10T10:00:00Z")
                .outflow("0.5", "BTC")
                .fee("0.0001", "BTC"),
        )
        .row(transfer_in("d5r4", "Kraken", "2023-03-10T10:40:00Z").inflow("0.5", "BTC"))
        .row(
            sell("d5r5", "Kraken", "2023-04-10T10:00:00Z")
                .inflow("48000", "EUR")
                .outflow("1.2", "BTC"),
        )
}

/// `irpf.md` I-5: spot rows e1–e8 and futures rows g1–g2 (no prices).
pub fn i5() -> Ledger {
    Ledger::new()
        .row(
            buy("e1", "Binance", "2021-04-01T10:00:00Z")
                .inflow("1", "ETH")
                .outflow("1700.00", "EUR"),
        )
        .row(
            buy("e2", "Binance", "2022-01-02T10:00:00Z")
                .inflow("1", "ETH")
                .outflow("3300.00", "EUR"),
        )
        .row(
            sell("e3", "Binance", "2022-03-01T10:00:00Z")
                .inflow("1300.00", "EUR")
                .outflow("0.5", "ETH")
                .fee("1.30", "EUR"),
        )
        .row(
            swap("e4", "Binance", "2022-06-02T10:00:00Z")
                .inflow("0.04", "BTC")
                .outflow("1", "ETH"),
        )
        .row(
            transfer_out("e5", "Binance", "2022-11-08T10:00:00Z")
                .outflow("0.0398", "BTC")
                .fee("0.0002", "BTC"),
        )
        .row(transfer_in("e6", "Ledger", "2022-11-08T10:20:00Z").inflow("0.0398", "BTC"))
        .row(
            buy("e7", "Kraken", "2023-01-02T10:00:00Z")
                .inflow("1", "SOL")
                .outflow("20.00", "EUR"),
        )
        .row(
            sell("e8", "Kraken", "2023-12-01T10:00:00Z")
                .inflow("120.00", "EUR")
                .outflow("1", "SOL"),
        )
        .future(
            future(
                "g1",
                "Kraken:futures",
                FuturesKind::Trade,
                "BTCEUR-PERP",
                "2022-08-01T12:00:00Z",
            )
            .settle("EUR")
            .pnl("250.00")
            .fee("0", "EUR"),
        )
        .future(
            future(
                "g2",
                "Kraken:futures",
                FuturesKind::Trade,
                "BTCEUR-PERP",
                "2022-09-01T12:00:00Z",
            )
            .settle("EUR")
            .pnl("-85.00")
            .fee("5.00", "EUR"),
        )
}

/// `irpf.md` I-2: rows b1–b9 over 2018–2020 (no prices).
pub fn i2() -> Ledger {
    Ledger::new()
        .row(
            buy("b1", "Kraken", "2018-01-10T10:00:00Z")
                .inflow("1", "BTC")
                .outflow("12000.00", "EUR")
                .fee("12.00", "EUR"),
        )
        .row(
            staking("b2", "Kraken", "2018-05-10T10:00:00Z")
                .inflow("0.5", "ETH")
                .stated_value("200.00", "EUR"),
        )
        .row(
            sell("b3", "Kraken", "2018-06-11T10:00:00Z")
                .inflow("5800.00", "EUR")
                .outflow("1", "BTC")
                .fee("5.80", "EUR"),
        )
        .row(
            buy("b4", "Kraken", "2019-01-02T10:00:00Z")
                .inflow("1", "BTC")
                .outflow("3400.00", "EUR"),
        )
        .row(
            airdrop("b5", "Kraken", "2019-03-01T10:00:00Z")
                .inflow("50", "XLM")
                .stated_value("5.00", "EUR"),
        )
        .row(
            sell("b6", "Kraken", "2019-06-01T10:00:00Z")
                .inflow("7650.00", "EUR")
                .outflow("1", "BTC"),
        )
        .row(
            buy("b7", "Kraken", "2020-01-02T10:00:00Z")
                .inflow("0.2", "BTC")
                .outflow("1284.00", "EUR"),
        )
        .row(
            sell("b8", "Kraken", "2020-06-01T10:00:00Z")
                .inflow("1702.00", "EUR")
                .outflow("0.2", "BTC"),
        )
        .row(
            staking("b9", "Kraken", "2020-12-01T10:00:00Z")
                .inflow("5", "ETH")
                .stated_value("1000.00", "EUR"),
        )
}

/// `domain.md` D-14: rows v1–v3 (no prices).
pub fn d14() -> Ledger {
    Ledger::new()
        .row(
            buy("v1", "Kraken", "2024-01-01T10:00:00Z")
                .inflow("1", "BTC")
                .outflow("40000", "EUR"),
        )
        .row(
            buy("v2", "Kraken", "2024-01-03T10:00:00Z")
                .inflow("10", "ETH")
                .outflow("20000", "EUR"),
        )
        .row(
            sell("v3", "Kraken", "2024-01-05T10:00:00Z")
                .inflow("21000", "EUR")
                .outflow("0.5", "BTC"),
        )
}

/// The daily EUR closes of D-14 as `(date, symbol, close)`: BTC and ETH from 2024-01-01 to
/// 2024-01-06, ETH without a close on the 5th.
pub fn d14_closes() -> Vec<(String, &'static str, &'static str)> {
    let btc = ["40000", "42000", "41000", "43000", "42000", "44100"].map(Some);
    let eth = [
        Some("2000"),
        Some("2050"),
        Some("2100"),
        Some("2000"),
        None,
        Some("2200"),
    ];
    let mut out = Vec::new();
    for (symbol, closes) in [("BTC", btc), ("ETH", eth)] {
        for (day, close) in (1..=6).zip(closes) {
            if let Some(close) = close {
                out.push((format!("2024-01-{day:02}"), symbol, close));
            }
        }
    }
    out
}

/// `irpf.md` I-6: rows f1–f9, an incomplete 2023 and a complete 2024 (no prices).
pub fn i6() -> Ledger {
    Ledger::new()
        .row(
            buy("f1", "Kraken", "2023-02-01T10:00:00Z")
                .inflow("100", "DOT")
                .outflow("500.00", "EUR"),
        )
        .row(
            sell("f2", "Kraken", "2023-03-01T10:00:00Z")
                .inflow("420.00", "EUR")
                .outflow("100", "DOT"),
        )
        .row(
            buy("f3", "Kraken", "2023-03-20T10:00:00Z")
                .inflow("100", "DOT")
                .outflow("430.00", "EUR"),
        )
        .row(
            airdrop("f5", "Kraken", "2023-03-23T10:00:00Z")
                .inflow("20", "ARB")
                .stated_value("24.00", "EUR"),
        )
        .row(staking("f4", "Kraken", "2023-04-01T10:00:00Z").inflow("5", "DOT"))
        .row(
            mining("f6", "Rig", "2023-05-01T10:00:00Z")
                .inflow("0.001", "BTC")
                .stated_value("25.00", "EUR"),
        )
        .row(
            sell("f7", "Kraken", "2023-06-01T10:00:00Z")
                .inflow("60.00", "EUR")
                .outflow("1", "SOL"),
        )
        .row(
            staking("f8", "Kraken", "2023-07-01T10:00:00Z")
                .inflow("10", "DOT")
                .stated_value("50.00", "EUR"),
        )
        .row(
            sell("f9", "Kraken", "2024-03-01T10:00:00Z")
                .inflow("700.00", "EUR")
                .outflow("100", "DOT"),
        )
}
