use importers::prices::{self, PriceFormat, PriceOptions};
use importers::rates;

use crate::{data, shared_data};

fn rate_lines(r: &rates::RatesResult) -> Vec<String> {
    r.rates
        .iter()
        .map(|x| format!("{} {} {}", x.currency, x.date, x.rate))
        .collect()
}

#[test]
fn ecb_sample() {
    let r = rates::parse_ecb(&data("ecb/ecb-sample.csv"));
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    assert_eq!(
        rate_lines(&r),
        [
            "GBP 2025-01-14 0.84288",
            "USD 2025-01-14 1.0245",
            "BGN 2025-01-14 1.9558",
            "GBP 2025-01-13 0.8416",
            "USD 2025-01-13 1.0198",
            "BGN 2025-01-13 1.9558",
            "GBP 2025-01-10 0.83693",
            "USD 2025-01-10 1.0304",
            "BGN 2025-01-10 1.9558",
            "GBP 2007-12-31 0.73335",
            "USD 2007-12-31 1.4721",
            "CYP 2007-12-31 0.585274",
            "BGN 2007-12-31 1.9558",
        ]
    );
}

#[test]
fn ac49_bad_cells() {
    let r = rates::parse_ecb(b"Date,USD,GBP,\n2025-01-13,\"1,0198\",0,\n");
    let got: Vec<String> = r.findings.iter().map(|f| f.render("e.csv")).collect();
    assert_eq!(
        got,
        [
            "e.csv:2:2: error[bad-decimal] column \"USD\": \"1,0198\" is not a plain decimal number",
            "e.csv:2:3: error[not-positive] column \"GBP\": \"0\" must be greater than zero",
        ]
    );
    assert!(r.rates.is_empty());
}

#[test]
fn ac50_daily_file() {
    let r = rates::parse_ecb(b"Date, USD, GBP, \n30 October 2026, 1.1172, 0.8338, \n");
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    assert_eq!(
        rate_lines(&r),
        ["USD 2026-10-30 1.1172", "GBP 2026-10-30 0.8338"]
    );
}

#[test]
fn in_file_duplicates() {
    let r = rates::parse_ecb(b"Date,USD,\n2025-01-13,1.0198,\n2025-01-13,1.0198,\n");
    assert_eq!(r.rates.len(), 1);
    assert_eq!(
        r.findings[0].render("e.csv"),
        "e.csv:3:2: warning[duplicate-key] column \"USD\": same value as line 2; counted once"
    );
    let r = rates::parse_ecb(b"Date,USD,\n2025-01-13,1.0198,\n2025-01-13,1.0199,\n");
    assert!(r.rates.is_empty());
    assert_eq!(
        r.findings[1].render("e.csv"),
        "e.csv:3:2: error[duplicate-key] column \"USD\": USD 2025-01-13 already appears on line 2 with another value"
    );
}

#[test]
fn ac49_full_ecb_history() {
    let Some(dir) = shared_data() else { return };
    let path = dir.join("ecb/eurofxref-hist.csv");
    let Ok(bytes) = std::fs::read(&path) else {
        println!("skipped: {} is absent", path.display());
        return;
    };
    let r = rates::parse_ecb(&bytes);
    assert!(
        r.findings.is_empty(),
        "{:?}",
        &r.findings[..r.findings.len().min(5)]
    );
    assert_eq!(r.rows_read, 7126);
    assert_eq!(r.rates.len(), 221_702);
    let dates: std::collections::BTreeSet<_> = r.rates.iter().map(|x| x.date).collect();
    assert_eq!(dates.len(), 7126);
    assert_eq!(dates.first().unwrap().to_string(), "1999-01-04");
    assert_eq!(dates.last().unwrap().to_string(), "2026-10-30");
    let on = |cur: &str, date: &str| {
        r.rates
            .iter()
            .find(|x| x.currency == cur && x.date.to_string() == date)
            .map(|x| x.rate.to_string())
    };
    assert_eq!(on("USD", "2024-01-02").as_deref(), Some("1.0956"));
    assert_eq!(on("GBP", "2024-01-02").as_deref(), Some("0.86645"));
    assert!(
        !r.rates.iter().any(|x| x.currency == "BGN"
            && x.date >= chrono::NaiveDate::from_ymd_opt(2026, 1, 2).unwrap())
    );
}

fn price_lines(r: &prices::PricesResult) -> Vec<String> {
    r.prices
        .iter()
        .map(|p| format!("{}/{} {} {}", p.asset, p.currency, p.date, p.close))
        .collect()
}

/// The options of a BTC/EUR `timestamp,price` series (`--symbol BTC --currency EUR`).
fn btc_eur() -> PriceOptions {
    PriceOptions {
        symbol: Some("BTC".to_owned()),
        currency: Some("EUR".to_owned()),
        format: None,
    }
}

#[test]
fn ac53_daily_sample() {
    let r = prices::parse(
        "daily-sample.csv",
        &data("prices/daily-sample.csv"),
        &PriceOptions::default(),
    );
    assert_eq!(r.format, Some(PriceFormat::Daily));
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    assert_eq!(
        price_lines(&r),
        [
            "BTC/EUR 2025-01-13 91250.40",
            "BTC/EUR 2025-01-14 92010",
            "ETH/EUR 2025-01-13 3102.15",
            "ETH/USD 2025-01-14 3180.5",
        ]
    );
    let r = prices::parse(
        "prices.csv",
        b"date,symbol,close,currency\n2025-01-13,BTC,91250.40,USDT\n",
        &PriceOptions::default(),
    );
    assert_eq!(
        r.findings[0].render("prices.csv"),
        "prices.csv:2:4: error[quote-not-fiat] column \"currency\": quote currency USDT is not fiat"
    );
}

#[test]
fn series_sample_and_ac52() {
    let o = btc_eur();
    let r = prices::parse("series-sample.csv", &data("prices/series-sample.csv"), &o);
    assert_eq!(
        price_lines(&r),
        ["BTC/EUR 2024-12-30 89674.54", "BTC/EUR 2024-12-31 89031.24"]
    );
    let r = prices::parse(
        "s.csv",
        b"timestamp,price\n2025-01-13T09:00:00Z,90000\n2025-01-13T21:00:00Z,91000\n",
        &o,
    );
    assert_eq!(price_lines(&r), ["BTC/EUR 2025-01-13 91000"]);
    let r = prices::parse(
        "btc-eur-daily.csv",
        &data("prices/series-sample.csv"),
        &PriceOptions::default(),
    );
    assert_eq!(
        r.findings[0].render("btc-eur-daily.csv"),
        "btc-eur-daily.csv:1:1: error[option-missing] column \"timestamp\": series files need --symbol"
    );
    let usage = PriceOptions {
        format: Some(PriceFormat::Series),
        ..PriceOptions::default()
    };
    assert_eq!(
        prices::usage_error(&usage),
        Some(("option-missing", "series files need --symbol".to_owned()))
    );
    let r = prices::parse("s.csv", b"timestamp,price\n1736755200,90000\n", &o);
    assert_eq!(r.findings[0].code, "bad-timestamp");
}

#[test]
fn price_duplicates_and_the_days_latest_valid_close() {
    let o = btc_eur();
    let file = b"timestamp,price\n\
2025-01-13T09:00:00Z,90000\n\
2025-01-13T21:00:00Z,91000\n\
2025-01-13T09:00:00Z,90000\n\
2025-01-14T10:00:00Z,92000\n\
2025-01-14T10:00:00Z,92500\n\
2025-01-14T08:00:00Z,91500\n\
2025-01-12T10:00:00Z,89000\n";
    let r = prices::parse("s.csv", file, &o);
    let findings: Vec<String> = r.findings.iter().map(|f| f.render("s.csv")).collect();
    assert_eq!(
        findings,
        [
            "s.csv:4:2: warning[duplicate-key] column \"price\": same value as line 2; counted once",
            "s.csv:5:2: error[duplicate-key] column \"price\": BTC/EUR 2025-01-14T10:00:00Z already appears on line 6 with another value",
            "s.csv:6:2: error[duplicate-key] column \"price\": BTC/EUR 2025-01-14T10:00:00Z already appears on line 5 with another value",
        ]
    );
    assert_eq!(r.invalid_rows, 2);
    // The two conflicting lines are dropped; 2025-01-14 keeps its valid 08:00 close, and each
    // day its latest instant.
    assert_eq!(
        price_lines(&r),
        [
            "BTC/EUR 2025-01-12 89000",
            "BTC/EUR 2025-01-13 91000",
            "BTC/EUR 2025-01-14 91500",
        ]
    );
    assert_eq!(r.lines, [8, 3, 7]);
}

#[test]
fn ac52_full_btc_series() {
    let Some(dir) = shared_data() else { return };
    let path = dir.join("prices/btc-eur-daily.csv");
    let Ok(bytes) = std::fs::read(&path) else {
        println!("skipped: {} is absent", path.display());
        return;
    };
    let o = btc_eur();
    let r = prices::parse("btc-eur-daily.csv", &bytes, &o);
    assert!(
        r.findings.is_empty(),
        "{:?}",
        &r.findings[..r.findings.len().min(5)]
    );
    assert_eq!(r.prices.len(), 5198);
    let first = &r.prices[0];
    let last = &r.prices[r.prices.len() - 1];
    assert_eq!(
        format!("{} {}", first.close, first.date),
        "0.0487103725 2010-07-13"
    );
    assert_eq!(
        format!("{} {}", last.close, last.date),
        "89031.24 2024-12-31"
    );
}

#[test]
fn ac51_kraken_ohlcvt() {
    let bytes = data("prices/XBTEUR_1440.csv");
    let r = prices::parse("XBTEUR_1440.csv", &bytes, &PriceOptions::default());
    assert_eq!(r.format, Some(PriceFormat::KrakenOhlcvt));
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    assert_eq!(
        price_lines(&r),
        [
            "BTC/EUR 2023-01-01 15512.9",
            "BTC/EUR 2023-01-02 15600.4",
            "BTC/EUR 2023-01-03 15795.1"
        ]
    );
    let r = prices::parse("XBTEUR_60.csv", &bytes, &PriceOptions::default());
    assert_eq!(
        r.findings[0].render("XBTEUR_60.csv"),
        "XBTEUR_60.csv:1:1: error[unsupported-interval] column \"time\": only daily candles are read; the file name says 60 minutes"
    );
    let r = prices::parse("XBTUSDT_1440.csv", &bytes, &PriceOptions::default());
    assert_eq!(
        r.findings[0].render("XBTUSDT_1440.csv"),
        "XBTUSDT_1440.csv:1:1: error[quote-not-fiat] column \"time\": pair XBTUSDT does not end in a fiat currency code"
    );
    let r = prices::parse(
        "XBTEUR_1440.csv",
        b"1672531201,1,1,1,1,1,1\n",
        &PriceOptions::default(),
    );
    assert_eq!(
        r.findings[0].render("x"),
        "x:1:1: error[not-daily] column \"time\": 1672531201 is not a UTC midnight"
    );
}
